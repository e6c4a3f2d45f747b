//! CFS as released in 2.6.23 (October 2007): tasks keyed on `fair_clock - wait_runtime`.
//!
//! Follows kernel/sched_fair.c and kernel/sched.c at the v2.6.23 tag (bbf25010f1a), read in
//! a mainline history mirror (notes r1-sched-eras.md, "2.6.23"). The vruntime design that
//! replaced it came with e9acbff6484d "sched: introduce se->vruntime" (2.6.24): `policy::cfs`.
//!
//! - Each runqueue keeps a `fair_clock` that advances by `delta_exec * NICE_0_LOAD / load`
//!   while a task runs (`__update_curr`, `calc_delta_fair`). The running task is charged
//!   `delta_mine - delta_exec` in `wait_runtime` (`delta_mine = delta_exec * w / load`: what it
//!   was entitled to); a waiting task is credited the fair_clock that passed while it waited
//!   (`update_stats_wait_end`, at most `2 * runtime_limit`, times `w / NICE_0_LOAD`), and
//!   `wait_runtime` is kept within `±sysctl_sched_runtime_limit` (`limit_wait_runtime`).
//! - A task's key is `fair_clock - wait_runtime` (`* NICE_0_LOAD / w` for other weights,
//!   through `prio_to_wmult`), computed when it is enqueued (`update_stats_enqueue`) and, for
//!   the running task, at every tick (`entity_tick` dequeues and re-enqueues it). A waiting
//!   task's key does not move; the pick is the smallest key.
//! - Sleeper credit (`enqueue_sleeper`/`__enqueue_sleeper`, FAIR_SLEEPERS): on wakeup the
//!   task is credited the fair_clock that passed while it slept (at most `2 * runtime_limit`),
//!   added to `wait_runtime` (so capped at `+runtime_limit`), unless more than
//!   `runtime_limit` of bonus is already "in flight" (`cfs_rq->sleeper_bonus`). The bonus in
//!   flight is paid back by the running task: while `sleeper_bonus > min_granularity`,
//!   `__update_curr` takes up to `delta_mine` of it off what the running task is entitled to.
//! - Tick (`entity_tick` -> `__check_preempt_curr_fair` with `sched_granularity`): resched when
//!   the leftmost key is more than `niced_granularity(curr, gran)` below curr's, where
//!   `gran = max(latency/nr - latency/nr/nr, min_granularity)` (`latency` if nr = 1), and 0 once
//!   curr ran more than `ideal_runtime = max(latency / nr_running, min_granularity)`.
//! - Wakeup (`check_preempt_curr_fair`): the same test between the woken task and curr's
//!   key as of its last tick or enqueue, with `sysctl_sched_wakeup_granularity`.
//! - Fork (`task_new_fair`, via `wake_up_new_task`): a child forked onto its parent's runqueue
//!   gets the key `parent_key - niced_granularity(parent, sched_granularity) - 1` (child runs
//!   first) and, with START_DEBIT, `wait_runtime = -sched_granularity / 2`. A child on another
//!   CPU, or a thread (CLONE_VM), takes the plain `activate_task` path: no debit.
//! - Migration: `set_task_cpu` moves `sleep_start_fair` by the two queues' fair_clock offset.
//!
//! Sysctls (`Kernel::cfs_sysctls`): latency 20 ms, min_granularity 2 ms, wakeup_granularity
//! min_granularity / 2, runtime_limit = latency, all times `1 + ilog2(ncpus)` (100 ms cap).
//! `calc_delta_mine` is the kernel's fixed-point one (`inv_weight`, `SRR`), integers only.
//!
//! Simplified: the engine's tasks all exist at t = 0 with no parent running on their core,
//! so they take `wake_up_new_task`'s `activate_task` path (as threads and children forked onto
//! another CPU do) and START_DEBIT applies only to a task created on a core that has a
//! running task. A remote wakeup is enqueued without first charging the target's running
//! task up to that instant (`enqueue_entity`'s `update_curr`): fair_clock is as of that
//! task's last accounting point. Not modelled: SLEEPER_AVG and SLEEPER_LOAD_AVG (off / only
//! meaningful with SLEEPER_AVG; it would need `cpu_load[2]`), PRECISE_CPU_LOAD (the engine
//! keeps no `cpu_load[]`), SKIP_INITIAL, SCHED_BATCH's granularity, group scheduling, yield.
//! 2.6.23 has no hrtick (`slice_left` is None).
//! The tree (`__enqueue_entity`, ordered by `fair_key`) is a `runq::Timeline` keyed by
//! (fair_key, arrival number): equal keys go right, so the one queued first is leftmost.

use super::runq::{Fifo, Timeline};
use super::{Arrival, Policy, Queued, SchedEntity, NICE_0_LOAD, PRIO_TO_WEIGHT};
use crate::engine::config::Config;
use crate::engine::kernel::Feat;
use crate::engine::time::Ns;

/// `prio_to_wmult` (kernel/sched.c, 2.6.23): 2^32 / weight, nice -20 ..= 19.
const PRIO_TO_WMULT: [u64; 40] = [
    48388, 59856, 76040, 92818, 118348, 147320, 184698, 229616, 287308, 360437, 449829, 563644, 704093, 875809,
    1099582, 1376151, 1717300, 2157191, 2708050, 3363326, 4194304, 5237765, 6557202, 8165337, 10153587, 12820798,
    15790321, 19976592, 24970740, 31350126, 39045157, 49367440, 61356676, 76695844, 95443717, 119304647, 148102320,
    186737708, 238609294, 286331153,
];
const WMULT_SHIFT: u32 = 32;
const NICE_0_SHIFT: u32 = 10;

/// `SRR(x, y)`: shift right and round.
fn srr(x: u128, y: u32) -> u128 {
    (x + (1u128 << (y - 1))) >> y
}

/// The `inv_weight` of a load: `(WMULT_CONST - w/2) / w + 1` (what `calc_delta_mine` computes
/// for a runqueue's load); a task's own comes from `prio_to_wmult`.
fn inv_weight(w: u64) -> u64 {
    let w = w.max(1);
    ((1u64 << 32) - w / 2) / w + 1
}

fn task_inv_weight(w: u64) -> u64 {
    PRIO_TO_WEIGHT.iter().position(|&x| x == w).map_or_else(|| inv_weight(w), |i| PRIO_TO_WMULT[i])
}

/// `calc_delta_mine(delta_exec, weight, lw)`: `delta_exec * weight / lw` in the kernel's fixed point.
fn calc_delta_mine(delta: u64, weight: u64, load: u64) -> u64 {
    let inv = inv_weight(load) as u128;
    let tmp = delta as u128 * weight as u128;
    let r = if tmp > 1u128 << 32 {
        srr(srr(tmp, WMULT_SHIFT / 2) * inv, WMULT_SHIFT / 2)
    } else {
        srr(tmp * inv, WMULT_SHIFT)
    };
    r.min(i64::MAX as u128) as u64
}

/// The 2.6.23 fields of a task's `sched_entity` that `SchedEntity` does not have.
#[derive(Clone, Copy, Debug, Default)]
struct Ent {
    wait_runtime: i64,
    fair_key: i64,
    /// `wait_start_fair` (None where the kernel has 0: not waiting).
    wait_start_fair: Option<u64>,
    /// `sleep_start_fair` (0 in the kernel when unset, which the credit then reads as 0).
    sleep_start_fair: u64,
}

#[derive(Clone, Debug, Default)]
struct Rq {
    curr: Option<usize>,
    fair_clock: u64,
    /// Sum of the weights of every task on the queue, curr included (`cfs_rq->load`).
    load: u64,
    sleeper_bonus: u64,
}

pub struct Cfs2623 {
    rqs: Vec<Rq>,
    /// Every core's waiting tasks in arrival order.
    fifo: Fifo,
    /// The same tasks by (fair_key, arrival number).
    timeline: Timeline<(i64, u64), ()>,
    /// Arrival numbers (`push` order), the tie breaker.
    seq: u64,
    ents: Vec<Ent>,
    latency: Ns,
    min_gran: Ns,
    wakeup_gran: Ns,
    runtime_limit: i64,
    fair_sleepers: bool,
    start_debit: bool,
}

impl Cfs2623 {
    pub fn new(cfg: &Config) -> Self {
        let s = cfg.kernel.cfs_sysctls(cfg.sched_latency, cfg.min_granularity, cfg.wakeup_granularity, cfg.cores);
        let fs = cfg.feats();
        Cfs2623 {
            rqs: vec![Rq::default(); cfg.cores as usize],
            fifo: Fifo::new(cfg.cores as usize),
            timeline: Timeline::new(cfg.cores as usize),
            seq: 0,
            ents: Vec::new(),
            latency: s.latency,
            min_gran: s.min_granularity,
            wakeup_gran: s.wakeup_granularity,
            runtime_limit: s.runtime_limit.min(i64::MAX as u64 / 4) as i64,
            fair_sleepers: fs.has(Feat::FairSleepers),
            start_debit: fs.has(Feat::StartDebit),
        }
    }

    fn ent(&mut self, t: usize) -> &mut Ent {
        if t >= self.ents.len() {
            self.ents.resize(t + 1, Ent::default());
        }
        &mut self.ents[t]
    }

    fn key(&self, t: usize) -> i64 {
        self.ents.get(t).map_or(0, |e| e.fair_key)
    }

    fn nr_running(&self, c: usize) -> u64 {
        self.fifo.len(c) as u64 + self.rqs[c].curr.is_some() as u64
    }

    /// `sched_granularity(cfs_rq)`: `latency/nr - latency/nr/nr`, at least min_granularity.
    fn sched_granularity(&self, c: usize) -> Ns {
        let nr = self.nr_running(c);
        if nr > 1 {
            let g = self.latency / nr - self.latency / nr / nr;
            g.max(self.min_gran)
        } else {
            self.latency
        }
    }

    /// `add_wait_runtime` / `__add_wait_runtime` with `limit_wait_runtime`'s clamp.
    fn add_wait_runtime(&mut self, t: usize, delta: i64) {
        let lim = self.runtime_limit;
        let e = self.ent(t);
        e.wait_runtime = e.wait_runtime.saturating_add(delta).clamp(-lim, lim);
    }

    /// `update_stats_enqueue`'s key: `fair_clock - wait_runtime` (in nice-0 units).
    fn rekey(&mut self, se: &[SchedEntity], c: usize, t: usize) {
        let fc = self.rqs[c].fair_clock as i64;
        let w = se[t].weight;
        let e = self.ent(t);
        e.fair_key = if w == NICE_0_LOAD {
            fc - e.wait_runtime
        } else {
            let inv = task_inv_weight(w) as i128;
            let scaled = (e.wait_runtime.unsigned_abs() as i128 * inv) >> (WMULT_SHIFT - NICE_0_SHIFT);
            let scaled = scaled.min(i64::MAX as i128 / 2) as i64;
            if e.wait_runtime < 0 {
                fc + scaled
            } else {
                fc - scaled
            }
        };
    }

    /// `update_stats_wait_start`.
    fn wait_start(&mut self, c: usize, t: usize) {
        let fc = self.rqs[c].fair_clock;
        self.ent(t).wait_start_fair = Some(fc);
    }

    /// `update_stats_wait_end`: credit the fair_clock that passed while waiting.
    fn wait_end(&mut self, se: &[SchedEntity], c: usize, t: usize) {
        let fc = self.rqs[c].fair_clock;
        let Some(start) = self.ent(t).wait_start_fair.take() else { return };
        let mut delta = fc.wrapping_sub(start).min(2 * self.runtime_limit as u64);
        let w = se[t].weight;
        if w != NICE_0_LOAD {
            delta = ((delta as u128 * w as u128) >> NICE_0_SHIFT) as u64;
        }
        self.add_wait_runtime(t, delta.min(i64::MAX as u64) as i64);
    }

    /// `enqueue_sleeper` / `__enqueue_sleeper` (FAIR_SLEEPERS; SLEEPER_AVG off).
    fn enqueue_sleeper(&mut self, se: &[SchedEntity], c: usize, t: usize) {
        if !self.fair_sleepers {
            return;
        }
        let fc = self.rqs[c].fair_clock;
        let start = std::mem::take(&mut self.ent(t).sleep_start_fair);
        let lim = self.runtime_limit as u64;
        let mut delta = fc.wrapping_sub(start).min(2 * lim);
        if self.rqs[c].sleeper_bonus > lim {
            return; // too much bonus in flight already
        }
        let w = se[t].weight;
        if w != NICE_0_LOAD {
            delta = ((delta as u128 * w as u128) >> NICE_0_SHIFT) as u64;
        }
        let prev = self.ent(t).wait_runtime;
        self.add_wait_runtime(t, delta.min(i64::MAX as u64) as i64);
        let gained = self.ents[t].wait_runtime - prev;
        self.rqs[c].sleeper_bonus += gained.max(0) as u64;
    }

    /// `__check_preempt_curr_fair(cfs_rq, se, curr, granularity)`.
    fn check_preempt(&self, se: &[SchedEntity], c: usize, next: usize, curr: usize, gran: Ns) -> bool {
        let delta = self.key(curr) as i128 - self.key(next) as i128;
        let ideal = (self.latency / self.nr_running(c).max(1)).max(self.min_gran);
        let ran = se[curr].sum_exec - se[curr].prev_sum_exec;
        let gran = if ran > ideal { 0 } else { gran };
        delta > niced_granularity(se[curr].weight, gran) as i128
    }

    fn leftmost(&self, c: usize) -> Option<usize> {
        // Equal keys: the one inserted first is further left (`__enqueue_entity` goes right on ties).
        let t = self.timeline.first(c)?;
        debug_assert_eq!(self.timeline.entry(t).0 .0, self.key(t), "a queued fair_key never moves");
        Some(t)
    }

    /// `__enqueue_entity`: into the tree at the task's current key.
    fn push(&mut self, se: &[SchedEntity], c: usize, task: usize) {
        self.seq += 1;
        self.fifo.push(c, task, se[task].weight);
        self.timeline.insert(c, task, (self.key(task), self.seq), ());
    }

    fn remove(&mut self, c: usize, task: usize) -> bool {
        self.timeline.remove(c, task);
        self.fifo.remove(c, task)
    }
}

/// `niced_granularity(curr, granularity)`: linear in the weight (2.6.23).
fn niced_granularity(w: u64, gran: Ns) -> Ns {
    if w == NICE_0_LOAD {
        gran
    } else if w < NICE_0_LOAD {
        (w * gran) >> NICE_0_SHIFT
    } else {
        ((task_inv_weight(w) as u128 * gran as u128) >> (WMULT_SHIFT - NICE_0_SHIFT)) as Ns
    }
}

impl Policy for Cfs2623 {
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, _now: Ns) {
        let w = se[task].weight;
        match how {
            Arrival::New => {
                if let Some(parent) = self.rqs[c].curr {
                    // task_new_fair: the child runs first, with START_DEBIT's deficit.
                    let gran = self.sched_granularity(c);
                    self.wait_start(c, task);
                    let key = self.key(parent) - niced_granularity(se[parent].weight, gran) as i64 - 1;
                    let debit = self.start_debit;
                    let e = self.ent(task);
                    e.fair_key = key;
                    if debit {
                        e.wait_runtime = -((gran / 2) as i64);
                    }
                } else {
                    // activate_task(rq, p, 0): no parent on this runqueue.
                    self.wait_start(c, task);
                    self.rekey(se, c, task);
                }
            }
            Arrival::Wakeup { from } => {
                if from != c {
                    // set_task_cpu: sleep_start_fair -= old fair_clock - new fair_clock.
                    let off = self.rqs[from].fair_clock.wrapping_sub(self.rqs[c].fair_clock);
                    let e = self.ent(task);
                    if e.sleep_start_fair != 0 {
                        e.sleep_start_fair = e.sleep_start_fair.wrapping_sub(off);
                    }
                }
                self.enqueue_sleeper(se, c, task);
                self.wait_start(c, task);
                self.rekey(se, c, task);
            }
            Arrival::Migrated { .. } => {
                // `dequeue` ended the wait on the old queue; a new one starts here.
                self.wait_start(c, task);
                self.rekey(se, c, task);
            }
        }
        se[task].started = true;
        self.push(se, c, task);
        self.rqs[c].load += w;
    }

    fn dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) -> bool {
        if !self.remove(c, task) {
            return false;
        }
        // update_stats_dequeue: a waiting task's wait ends here.
        self.wait_end(se, c, task);
        self.rqs[c].load -= se[task].weight;
        true
    }

    #[inline(always)] // into `Sim::pick_loop` through `AnyPolicy::pick_next`
    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, _now: Ns) -> Option<usize> {
        let t = self.leftmost(c)?;
        self.remove(c, t);
        // set_next_entity
        self.wait_end(se, c, t);
        self.rqs[c].curr = Some(t);
        se[t].prev_sum_exec = se[t].sum_exec;
        Some(t)
    }

    fn put_prev(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        debug_assert_eq!(self.rqs[c].curr, Some(task));
        // put_prev_entity: the key stays where the last tick or enqueue put it.
        self.rqs[c].curr = None;
        self.wait_start(c, task);
        self.push(se, c, task);
    }

    fn dequeue_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        debug_assert_eq!(self.rqs[c].curr, Some(task));
        // dequeue_entity(sleep = 1)
        let fc = self.rqs[c].fair_clock;
        self.ent(task).sleep_start_fair = fc;
        let rq = &mut self.rqs[c];
        rq.curr = None;
        rq.load -= se[task].weight;
    }

    fn update_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, delta: Ns) {
        // __update_curr
        se[task].sum_exec += delta;
        let load = self.rqs[c].load;
        if load == 0 {
            return;
        }
        let delta_fair = calc_delta_mine(delta, NICE_0_LOAD, load);
        let mut delta_mine = calc_delta_mine(delta, se[task].weight, load);
        let wr = self.ent(task).wait_runtime;
        let rq = &mut self.rqs[c];
        if rq.sleeper_bonus > self.min_gran {
            let room = (self.runtime_limit - wr).max(0) as u64;
            let d = delta_mine.min(rq.sleeper_bonus).min(room);
            rq.sleeper_bonus -= d;
            delta_mine -= d;
        }
        rq.fair_clock += delta_fair;
        self.add_wait_runtime(task, delta_mine as i64 - delta as i64);
    }

    fn task_tick(&mut self, se: &mut [SchedEntity], c: usize, curr: usize, _now: Ns) -> bool {
        // entity_tick: dequeue + enqueue re-keys curr; then check against the leftmost.
        self.rekey(se, c, curr);
        let Some(next) = self.leftmost(c) else { return false };
        let gran = self.sched_granularity(c);
        self.check_preempt(se, c, next, curr, gran)
    }

    fn check_preempt_wakeup(
        &mut self,
        se: &mut [SchedEntity],
        c: usize,
        curr: usize,
        woken: usize,
        _resched: bool,
    ) -> bool {
        // check_preempt_curr_fair (SCHED_BATCH's 25 ms granularity not modelled).
        self.check_preempt(se, c, woken, curr, self.wakeup_gran)
    }

    fn slice_left(&self, _se: &[SchedEntity], _c: usize, _curr: usize) -> Option<Ns> {
        None
    }

    fn queued(&self, c: usize) -> Queued<'_> {
        self.fifo.view(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::Kernel;
    use crate::engine::time::MS;

    fn setup(n: usize, features: &[&str]) -> (Cfs2623, Vec<SchedEntity>) {
        let mut cfg = Config { cores: 1, ..Config::default() };
        cfg.set_kernel(Kernel::V2623);
        cfg.features = features.iter().map(|s| s.to_string()).collect();
        let se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; n];
        (Cfs2623::new(&cfg), se)
    }

    #[test]
    fn sysctls_are_the_2623_ones() {
        let (p, _) = setup(0, &[]);
        assert_eq!((p.latency, p.min_gran, p.wakeup_gran, p.runtime_limit), (20 * MS, 2 * MS, MS, 20_000_000));
        let mut cfg = Config { cores: 4, ..Config::default() };
        cfg.set_kernel(Kernel::V2623);
        let p = Cfs2623::new(&cfg);
        assert_eq!((p.latency, p.min_gran, p.wakeup_gran), (60 * MS, 6 * MS, 3 * MS), "factor 1 + ilog2(4)");
    }

    #[test]
    fn calc_delta_mine_is_the_kernels_fixed_point() {
        assert_eq!(calc_delta_mine(1_000_000, 1024, 2048), 500_000);
        // Past WMULT_CONST the kernel splits the shift in two 16-bit SRRs and loses a little.
        assert_eq!(calc_delta_mine(3_000_000_000, 1024, 3072), 999_999_762);
        assert_eq!(calc_delta_mine(1_000, 1024, 1024), 1_000);
    }

    #[test]
    fn a_running_hog_pays_wait_runtime_and_fair_clock_moves_at_half_speed() {
        let (mut p, mut se) = setup(2, &[]);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        let a = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, a, 4 * MS);
        assert_eq!(p.rqs[0].fair_clock, 2 * MS);
        assert_eq!(p.ents[a].wait_runtime, -2_000_000, "entitled to half of 4 ms");
    }

    #[test]
    fn a_hog_is_preempted_at_the_tick_once_its_deficit_exceeds_the_granularity() {
        // Two nice-0 hogs, 1 CPU: sched_granularity = 20/2 - 20/4 = 5 ms; each ms the running
        // one's key grows by 1 ms against the waiting one's.
        let (mut p, mut se) = setup(2, &[]);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        let a = p.pick_next(&mut se, 0, 0).unwrap();
        let mut ticks = 0;
        loop {
            p.update_curr(&mut se, 0, a, MS);
            ticks += 1;
            if p.task_tick(&mut se, 0, a, 0) {
                break;
            }
            assert!(ticks < 20);
        }
        assert_eq!(ticks, 6, "key lead 6 ms > 5 ms granularity at the 6th tick");
    }

    #[test]
    fn sleeper_credit_is_capped_by_runtime_limit() {
        let (mut p, mut se) = setup(2, &[]);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        let a = p.pick_next(&mut se, 0, 0).unwrap();
        let b = 1 - a;
        // b runs a little and goes to sleep; a then runs alone for a long time.
        p.put_prev(&mut se, 0, a, 0);
        let got = p.pick_next(&mut se, 0, 0).unwrap();
        assert_eq!(got, b);
        p.update_curr(&mut se, 0, b, MS);
        p.dequeue_curr(&mut se, 0, b, 0);
        let a2 = p.pick_next(&mut se, 0, 0).unwrap();
        assert_eq!(a2, a);
        p.update_curr(&mut se, 0, a, 500 * MS);
        assert!(!p.task_tick(&mut se, 0, a, 0), "alone; the tick re-keys a");
        let before = p.ents[b].wait_runtime;
        p.enqueue(&mut se, 0, b, Arrival::Wakeup { from: 0 }, 0);
        assert_eq!(p.ents[b].wait_runtime, 20_000_000, "credit {before} + 500 ms of fair_clock, capped at +20 ms");
        assert_eq!(p.rqs[0].sleeper_bonus, (20_000_000 - before) as u64);
        assert!(p.check_preempt_wakeup(&mut se, 0, a, b, false));
    }

    #[test]
    fn no_fair_sleepers_gives_no_sleeper_credit() {
        let (mut p, mut se) = setup(2, &["NO_FAIR_SLEEPERS"]);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let a = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, a, 100 * MS);
        p.enqueue(&mut se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
        assert_eq!(p.ents[1].wait_runtime, 0);
        assert_eq!(p.rqs[0].sleeper_bonus, 0);
    }

    #[test]
    fn start_debit_applies_to_a_child_forked_beside_its_parent() {
        for (feats, debit) in [(&[][..], -10_000_000i64), (&["NO_START_DEBIT"][..], 0)] {
            let (mut p, mut se) = setup(2, feats);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            assert_eq!(p.ents[0].wait_runtime, 0, "no parent on the core: activate_task, no debit");
            let parent = p.pick_next(&mut se, 0, 0).unwrap();
            p.enqueue(&mut se, 0, 1, Arrival::New, 0);
            // sched_granularity with the parent alone: latency (20 ms); debit -gran/2.
            assert_eq!(p.ents[1].wait_runtime, debit);
            assert_eq!(p.key(1), p.key(parent) - 20_000_000 - 1, "child runs first");
        }
    }

    #[test]
    fn the_bonus_in_flight_is_paid_by_the_running_task() {
        let (mut p, mut se) = setup(2, &[]);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let a = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, a, 100 * MS);
        p.enqueue(&mut se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
        let bonus = p.rqs[0].sleeper_bonus;
        assert_eq!(bonus, 20_000_000);
        let wr = p.ents[a].wait_runtime;
        p.update_curr(&mut se, 0, a, 2 * MS);
        // delta_mine = 1 ms, all of it taken from the bonus: a pays the whole 2 ms.
        assert_eq!(p.rqs[0].sleeper_bonus, bonus - 1_000_000);
        assert_eq!(p.ents[a].wait_runtime, wr - 2_000_000);
    }
}

/// Issue 30: the tree's leftmost against the scan it replaced (the first smallest fair_key).
#[cfg(test)]
mod equivalence {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_tree_finds_the_leftmost_the_scan_found() {
        let mut cfg = Config { cores: 1, ..Config::default() };
        cfg.set("kernel", "2.6.23").unwrap();
        for seed in 0..4 {
            let mut p = Cfs2623::new(&cfg);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; 30];
            let mut queued_or_curr = [false; 30];
            for _ in 0..4_000 {
                let t = rng.gen_range(0..30);
                match (p.rqs[0].curr, rng.gen_range(0..3)) {
                    (_, 0) if !queued_or_curr[t] => {
                        se[t].weight = [NICE_0_LOAD, 820, 1277][rng.gen_range(0..3)];
                        let how = if se[t].started { Arrival::Wakeup { from: 0 } } else { Arrival::New };
                        p.enqueue(&mut se, 0, t, how, 0);
                        queued_or_curr[t] = true;
                    }
                    (Some(k), 1) => {
                        p.update_curr(&mut se, 0, k, rng.gen_range(0..40) * 100_000);
                        p.task_tick(&mut se, 0, k, 0);
                        p.put_prev(&mut se, 0, k, 0);
                    }
                    (Some(k), _) => {
                        p.dequeue_curr(&mut se, 0, k, 0);
                        queued_or_curr[k] = false;
                    }
                    (None, _) => {}
                }
                let queue = p.queued(0).to_vec();
                let scan = queue.iter().copied().min_by_key(|&t| p.key(t));
                assert_eq!(p.leftmost(0), scan);
                if p.rqs[0].curr.is_none() {
                    assert_eq!(p.pick_next(&mut se, 0, 0), scan);
                }
            }
        }
    }
}
