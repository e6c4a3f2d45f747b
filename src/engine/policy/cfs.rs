//! CFS with vruntime (2.6.24 to 6.5): `sched_slice`, tick and wakeup preemption, sleeper placement.
//!
//! Two designs, picked by `Kernel::cfs_design` (2.6.23's wait_runtime CFS is `policy::cfs_2623`):
//!
//! `Vruntime2007`: the sched-devel tree of October 2007 (proxy: mainline v2.6.24-rc1, where it
//! was merged) and 2.6.24 (v2.6.24 tag), kernel/sched_fair.c; e9acbff6484d "sched: introduce
//! se->vruntime" (2007-10-15) and its follow-ups.
//! - `__sched_period(nr)`: `latency`, or `latency * nr / nr_latency` past nr_latency (5 in
//!   2.6.24; 20 in sched-devel, which had no min_granularity: `Kernel::cfs_sysctls`).
//!   `sched_slice = period * w / cfs_rq->load` with nr = nr_running (curr included).
//! - `place_entity`: a waking sleeper gets `max(vruntime, min_vruntime - sysctl_sched_latency)`
//!   (NEW_FAIR_SLEEPERS; the full scaled latency: halving came with GENTLE_FAIR_SLEEPERS,
//!   51e0304ce6e5, 2.6.32); a new task `min_vruntime + __sched_vslice(load + w, nr + 1)`
//!   (START_DEBIT; in sched-devel without the NICE_0_LOAD factor, `Kernel::vslice_has_nice0`),
//!   then child_runs_first swaps vruntimes with a running parent that is behind it.
//! - `check_preempt_tick`: only `delta_exec > sched_slice` (the min-granularity and
//!   vruntime-lead tests came with f685ceacab07, 2.6.32); `entity_tick` runs it when
//!   `nr_running > 1 || !WAKEUP_PREEMPT`.
//! - `check_preempt_wakeup`: resched when `curr->vruntime - p->vruntime > gran`, with
//!   `gran = wakeup_granularity`, times `NICE_0_LOAD / curr's weight` if curr is not nice 0.
//! - PREEMPT_RESTRICT (sched-devel only; 95938a35c556 "sched: prevent wakeup over-scheduling",
//!   removed by 3e3e13f399ac before 2.6.24): a wakeup that qualifies preempts curr only if it
//!   is the first since curr's last tick or sleep (`!se->peer_preempt++`) or the woken task
//!   has a higher priority; after that the next tick reschedules curr unconditionally and
//!   clears the count (`check_preempt_tick`), as does a sleep or a fork.
//! - HRTICK with PREEMPT_RESTRICT (sched-devel): wakeups never preempt. This is the seed
//!   author's description of the tree under test ("similar to !WAKEUP_PREEMPT", because
//!   HRTICK was incompatible with PREEMPT_RESTRICT; kernel-mechanisms.md, seed 1); the posting
//!   that said so could not be read (r1-sched-eras.md, open question 1), so the mechanism is
//!   taken from that description, not from source.
//!
//! `Modern`: 2.6.32 to 6.5 as read in 3.11 and 4.17 (kernel/sched/fair.c).
//! - `__sched_period(nr)`: `latency`, or `nr * min_granularity` past `sched_nr_latency` (8).
//! - `place_entity`: sleeper `max(vruntime, min_vruntime - thresh)`, `thresh = sysctl_sched_latency`,
//!   halved by GENTLE_FAIR_SLEEPERS (51e0304ce6e5); new task `min_vruntime + sched_vslice`
//!   (START_DEBIT).
//! - `check_preempt_tick`: `delta_exec > ideal_runtime`, else (after `min_granularity`) the
//!   leftmost's vruntime lead over ideal_runtime (f685ceacab07).
//! - `check_preempt_wakeup` / `wakeup_preempt_entity`: `curr->vruntime - p->vruntime >
//!   wakeup_gran`, scaled by the woken task's weight (`calc_delta_fair(gran, se)`).
//! - `wakeup_gran_scale` (a config knob, never in a release): Mel Gorman's "[PATCH 2/2]
//!   sched/fair: Scale wakeup granularity relative to nr_running" (LKML, 20 Sep 2021, against
//!   5.15-rc1; the hunk as quoted in the thread, Message-ID
//!   `<20210921103621.GM3959@techsingularity.net>`): `wakeup_gran(cfs_rq, se)` does
//!   `if (cfs_rq && cfs_rq->nr_running > 1) gran *= min(cfs_rq->nr_running >> 1,
//!   sched_nr_latency)` before `calc_delta_fair`. `check_preempt_wakeup` passes the rq's
//!   cfs_rq, after the wakee's enqueue (so nr_running counts it and curr); the buddy checks
//!   of `pick_next_entity` pass NULL (BUDDIES below).
//!
//! BUDDIES (2.6.32+ design; fair.c of 5.15.100 read: `check_preempt_wakeup`,
//! `pick_next_entity`, `set_next_entity`, `dequeue_entity`, `check_preempt_tick`; 3.11 and
//! 4.17 list the same LAST_BUDDY (on) and NEXT_BUDDY (off) and are taken to follow the
//! same rules, not read here). With `scale = nr_running >= sched_nr_latency` (curr and the
//! wakee counted), NEXT_BUDDY marks every woken task `cfs_rq->next`; a wakeup that preempts
//! marks the wakee `next` whatever the feature, and under LAST_BUDDY with `scale` marks
//! the preempted curr `last`. `pick_next_entity` takes `next`, else `last`, if that buddy
//! is not more than `wakeup_gran(left)` ahead of the leftmost (`wakeup_preempt_entity <
//! 1`, the granularity unscaled). A buddy is forgotten when picked (`set_next_entity`),
//! dequeued, or when the tick finds curr past its ideal runtime. No skip buddy (no yield).
//!
//! NEED_RESCHED (2.6.32+ design; aec0a5142cb5 "sched: don't set LAST_BUDDY if TIF_NEED_RESCHED
//! already set from new task", 2.6.28; read in 5.15.100 `check_preempt_wakeup`): a wakeup
//! that finds curr already flagged for rescheduling (an earlier wakeup's preemption the
//! preemption model holds back, or a wake list's earlier entry) returns after the NEXT_BUDDY
//! mark and before `update_curr`/`wakeup_preempt_entity`: no second preemption check, and
//! neither buddy is moved, so the first preempting wakee stays `next` and runs first. The
//! 2007 designs (2.6.24 and sched-devel) have no such test.
//!
//! The tree (`__enqueue_entity`, `entity_before`: ordered by vruntime) is a `runq::Timeline`
//! keyed by (vruntime, arrival number): equal vruntimes go right (`__enqueue_entity`'s
//! `entity_before` is strict), so among equals the task queued first is leftmost; the
//! leftmost (`__pick_first_entity`) is found by a walk, not cached (`rb_leftmost`).
//! `update_min_vruntime` reads the leftmost, O(log n), as the kernel does.
//!
//! Simplified: no group scheduling, no SCHED_IDLE or
//! SCHED_BATCH, no TREE_AVG/APPROX_AVG (off by default). Tasks created at t = 0 have no parent
//! running on their core, so child_runs_first has nothing to swap with.
//!
//! Over 800 lines with its tests (about 460 of code): one scheduling class is one file, as
//! CFS is one part of the kernel's `fair.c`; its tests follow the code they check.

use super::runq::{Fifo, Timeline};
use super::{calc_delta_fair, Arrival, Policy, Queued, SchedEntity, NICE_0_LOAD, VRUNTIME_BASE};
use crate::engine::config::Config;
use crate::engine::kernel::{CfsDesign, Feat};
use crate::engine::time::Ns;

#[derive(Clone, Debug, Default)]
struct Rq {
    curr: Option<usize>,
    min_vruntime: u64,
    load: u64,
    /// `cfs_rq->next` and `cfs_rq->last` (module doc: BUDDIES).
    next: Option<usize>,
    last: Option<usize>,
}

pub struct Cfs {
    rqs: Vec<Rq>,
    /// Every core's waiting tasks in arrival order.
    fifo: Fifo,
    /// `cfs_rq->tasks_timeline`: the same tasks by (vruntime, arrival number).
    timeline: Timeline<(u64, u64), ()>,
    /// Arrival numbers (`push` order), the tie breaker.
    seq: u64,
    design: CfsDesign,
    latency: Ns,
    min_gran: Ns,
    wakeup_gran: Ns,
    nr_latency: u64,
    /// Whether wakeups may preempt (WAKEUP_PREEMPT, less the HRTICK/PREEMPT_RESTRICT case).
    wakeup_preempt: bool,
    /// The WAKEUP_PREEMPT feature itself (what 2007's `entity_tick` tests).
    wakeup_preempt_feat: bool,
    start_debit: bool,
    fair_sleepers: bool,
    gentle: bool,
    preempt_restrict: bool,
    vslice_nice0: bool,
    /// Scale the wakeup granularity with nr_running (`wakeup_gran_scale`).
    gran_scale: bool,
    /// `se->peer_preempt` per task (PREEMPT_RESTRICT), grown on demand.
    peer_preempt: Vec<u32>,
    /// LAST_BUDDY and NEXT_BUDDY (2.6.32+ design only).
    last_buddy: bool,
    next_buddy: bool,
}

impl Cfs {
    pub fn new(cfg: &Config) -> Self {
        let s = cfg.kernel.cfs_sysctls(cfg.sched_latency, cfg.min_granularity, cfg.wakeup_granularity, cfg.cores);
        let fs = cfg.feats();
        Cfs {
            rqs: vec![Rq { min_vruntime: VRUNTIME_BASE, ..Rq::default() }; cfg.cores as usize],
            fifo: Fifo::new(cfg.cores as usize),
            timeline: Timeline::new(cfg.cores as usize),
            seq: 0,
            design: cfg.kernel.cfs_design(),
            latency: s.latency,
            min_gran: s.min_granularity.max(1),
            wakeup_gran: s.wakeup_granularity,
            nr_latency: s.nr_latency.max(1),
            // sched-devel (Oct 2007): HRTICK could not coexist with PREEMPT_RESTRICT, so with
            // both on, wakeups never preempted (the seed author's description; module doc).
            wakeup_preempt: fs.has(Feat::WakeupPreempt) && !(fs.has(Feat::Hrtick) && fs.has(Feat::PreemptRestrict)),
            wakeup_preempt_feat: fs.has(Feat::WakeupPreempt),
            start_debit: fs.has(Feat::StartDebit),
            fair_sleepers: fs.has(Feat::FairSleepers),
            gentle: fs.has(Feat::GentleFairSleepers),
            preempt_restrict: fs.has(Feat::PreemptRestrict),
            vslice_nice0: cfg.kernel.vslice_has_nice0(),
            gran_scale: cfg.wakeup_gran_scale,
            peer_preempt: Vec::new(),
            last_buddy: fs.has(Feat::LastBuddy),
            next_buddy: fs.has(Feat::NextBuddy),
        }
    }

    /// `clear_buddies`: a buddy that is picked, dequeued or ran its slice is forgotten.
    fn clear_buddies(&mut self, c: usize, task: usize) {
        let rq = &mut self.rqs[c];
        if rq.next == Some(task) {
            rq.next = None;
        }
        if rq.last == Some(task) {
            rq.last = None;
        }
    }

    /// `wakeup_preempt_entity(curr, se) < 1` as `pick_next_entity` asks it of a buddy
    /// against the leftmost: the buddy is not more than `wakeup_gran(left)` ahead (the
    /// granularity unscaled: the buddy checks pass no cfs_rq to `wakeup_gran`).
    fn buddy_fair(&self, se: &[SchedEntity], buddy: usize, left: usize) -> bool {
        let vdiff = se[buddy].vruntime as i128 - se[left].vruntime as i128;
        vdiff <= calc_delta_fair(self.wakeup_gran, se[left].weight) as i128
    }

    fn nr_running(&self, c: usize) -> u64 {
        self.fifo.len(c) as u64 + self.rqs[c].curr.is_some() as u64
    }

    /// `__enqueue_entity`: into the tree at the task's vruntime, after its equals.
    fn push(&mut self, se: &[SchedEntity], c: usize, task: usize) {
        self.seq += 1;
        self.fifo.push(c, task, se[task].weight);
        self.timeline.insert(c, task, (se[task].vruntime, self.seq), ());
    }

    /// `__dequeue_entity`. False if `task` is not queued on `c`.
    fn remove(&mut self, c: usize, task: usize) -> bool {
        self.timeline.remove(c, task);
        self.fifo.remove(c, task)
    }

    /// Tests that move a queued task's vruntime behind the policy's back (the kernel
    /// never does: an entity is dequeued first) put it back in its place with this.
    #[cfg(test)]
    fn rekey(&mut self, se: &[SchedEntity], c: usize) {
        for t in self.fifo.view(c).to_vec() {
            let (key, ()) = self.timeline.entry(t);
            self.timeline.remove(c, t);
            self.timeline.insert(c, t, (se[t].vruntime, key.1), ());
        }
    }

    fn peer(&mut self, t: usize) -> &mut u32 {
        if t >= self.peer_preempt.len() {
            self.peer_preempt.resize(t + 1, 0);
        }
        &mut self.peer_preempt[t]
    }

    /// `__sched_period(nr)`.
    fn sched_period(&self, nr: u64) -> Ns {
        if nr <= self.nr_latency {
            self.latency
        } else if self.design == CfsDesign::Modern {
            nr * self.min_gran
        } else {
            ((self.latency as u128 * nr as u128) / self.nr_latency as u128) as Ns
        }
    }

    /// `sched_slice`: the task's share of the period (`extra` = 1 for a task not yet queued).
    fn sched_slice(&self, c: usize, weight: u64, extra: u64) -> Ns {
        let nr = self.nr_running(c) + extra;
        let load = (self.rqs[c].load + extra * weight).max(weight);
        ((self.sched_period(nr) as u128 * weight as u128) / load as u128) as Ns
    }

    /// START_DEBIT's virtual slice for a task of weight `w` about to join core `c`:
    /// 2007 `sched_vslice_add` (`__sched_vslice(load + w, nr + 1)`), later `sched_vslice`.
    fn start_vslice(&self, c: usize, w: u64) -> u64 {
        match self.design {
            CfsDesign::Modern => calc_delta_fair(self.sched_slice(c, w, 1), w),
            _ => {
                let period = self.sched_period(self.nr_running(c) + 1) as u128;
                let nice0 = if self.vslice_nice0 { NICE_0_LOAD as u128 } else { 1 };
                (period * nice0 / (self.rqs[c].load + w).max(1) as u128) as u64
            }
        }
    }

    #[inline]
    fn update_min_vruntime(&mut self, se: &[SchedEntity], c: usize) {
        let mut v = self.rqs[c].curr.map(|t| se[t].vruntime);
        if let Some(left) = self.leftmost(se, c).map(|t| se[t].vruntime) {
            v = Some(v.map_or(left, |cv| cv.min(left)));
        }
        let rq = &mut self.rqs[c];
        if let Some(v) = v {
            rq.min_vruntime = rq.min_vruntime.max(v);
        }
    }

    fn leftmost(&self, se: &[SchedEntity], c: usize) -> Option<usize> {
        // Ties go to the task queued first, like an rbtree that inserts equal keys to the right.
        let t = self.timeline.first(c)?;
        debug_assert_eq!(self.timeline.entry(t).0 .0, se[t].vruntime, "a queued vruntime never moves");
        Some(t)
    }
}

impl Policy for Cfs {
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, _now: Ns) {
        let w = se[task].weight;
        match how {
            Arrival::New => {
                // place_entity(initial = 1): START_DEBIT starts a new task one slice behind.
                let mut v = self.rqs[c].min_vruntime;
                if self.start_debit {
                    v += self.start_vslice(c, w);
                }
                se[task].vruntime = v;
                *self.peer(task) = 0;
                if self.design == CfsDesign::Vruntime2007 {
                    // task_new_fair, sysctl_sched_child_runs_first = 1: the child goes first.
                    if let Some(parent) = self.rqs[c].curr {
                        if se[parent].vruntime < se[task].vruntime {
                            let pv = se[parent].vruntime;
                            se[parent].vruntime = se[task].vruntime;
                            se[task].vruntime = pv;
                        }
                    }
                }
            }
            Arrival::Wakeup { from } => {
                if from != c {
                    // A sleeper moving rq: renormalise against the new queue's min_vruntime.
                    let v = se[task].vruntime.saturating_sub(self.rqs[from].min_vruntime);
                    se[task].vruntime = v + self.rqs[c].min_vruntime;
                }
                // place_entity(initial = 0)
                let thresh = match self.design {
                    // NEW_FAIR_SLEEPERS: the full latency.
                    CfsDesign::Vruntime2007 if self.fair_sleepers => self.latency,
                    // GENTLE_FAIR_SLEEPERS halves it (2.6.32+).
                    CfsDesign::Modern if self.fair_sleepers => self.latency >> self.gentle as u32,
                    _ => 0,
                };
                let floor = self.rqs[c].min_vruntime.saturating_sub(thresh);
                se[task].vruntime = se[task].vruntime.max(floor);
            }
            Arrival::Migrated { from } => {
                let v = se[task].vruntime.saturating_sub(self.rqs[from].min_vruntime);
                se[task].vruntime = v + self.rqs[c].min_vruntime;
            }
        }
        se[task].started = true;
        self.push(se, c, task);
        self.rqs[c].load += w;
    }

    fn dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) -> bool {
        self.clear_buddies(c, task);
        if self.remove(c, task) {
            self.rqs[c].load -= se[task].weight;
            true
        } else {
            false
        }
    }

    #[inline(always)] // into `Sim::pick_loop` through `AnyPolicy::pick_next`
    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, _now: Ns) -> Option<usize> {
        let left = self.leftmost(se, c)?;
        // pick_next_entity: the next buddy, else the last buddy, if not unfair to `left`.
        let rq = &self.rqs[c];
        let t = match (rq.next, rq.last) {
            (Some(n), _) if self.buddy_fair(se, n, left) => n,
            (_, Some(l)) if self.buddy_fair(se, l, left) => l,
            _ => left,
        };
        // set_next_entity -> clear_buddies.
        self.clear_buddies(c, t);
        self.remove(c, t);
        self.rqs[c].curr = Some(t);
        se[t].prev_sum_exec = se[t].sum_exec;
        Some(t)
    }

    fn put_prev(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        let rq = &mut self.rqs[c];
        debug_assert_eq!(rq.curr, Some(task));
        rq.curr = None;
        self.push(se, c, task);
        self.update_min_vruntime(se, c);
    }

    fn dequeue_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        self.update_min_vruntime(se, c);
        // dequeue_entity(sleep): peer_preempt = 0 (PREEMPT_RESTRICT); clear_buddies.
        *self.peer(task) = 0;
        self.clear_buddies(c, task);
        let rq = &mut self.rqs[c];
        debug_assert_eq!(rq.curr, Some(task));
        rq.curr = None;
        rq.load -= se[task].weight;
    }

    fn update_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, delta: Ns) {
        let s = &mut se[task];
        s.sum_exec += delta;
        s.vruntime += calc_delta_fair(delta, s.weight);
        self.update_min_vruntime(se, c);
    }

    fn task_tick(&mut self, se: &mut [SchedEntity], c: usize, curr: usize, _now: Ns) -> bool {
        let ideal = self.sched_slice(c, se[curr].weight, 0);
        let ran = se[curr].sum_exec - se[curr].prev_sum_exec;
        match self.design {
            CfsDesign::Modern => {
                if self.fifo.is_empty(c) {
                    return false;
                }
                // check_preempt_tick (2.6.32+)
                if ran > ideal {
                    // "ensure it doesn't get re-elected due to buddy favours".
                    self.clear_buddies(c, curr);
                    return true;
                }
                if ran < self.min_gran {
                    return false;
                }
                let Some(left) = self.leftmost(se, c) else { return false };
                let lead = se[curr].vruntime.saturating_sub(se[left].vruntime);
                lead > ideal
            }
            _ => {
                // entity_tick: check_preempt_tick if nr_running > 1 || !WAKEUP_PREEMPT.
                if self.nr_running(c) <= 1 && self.wakeup_preempt_feat {
                    return false;
                }
                let restricted = self.preempt_restrict && *self.peer(curr) > 0;
                *self.peer(curr) = 0;
                ran > ideal || restricted
            }
        }
    }

    fn check_preempt_wakeup(
        &mut self,
        se: &mut [SchedEntity],
        c: usize,
        curr: usize,
        woken: usize,
        resched: bool,
    ) -> bool {
        // `scale = cfs_rq->nr_running >= sched_nr_latency`, the wakee counted (5.15).
        let scale = self.design == CfsDesign::Modern && self.nr_running(c) >= self.nr_latency;
        let marked = self.next_buddy && scale;
        if marked {
            self.rqs[c].next = Some(woken);
        }
        // `if (test_tsk_need_resched(curr)) return;` (module doc: NEED_RESCHED).
        if resched && self.design == CfsDesign::Modern {
            return false;
        }
        if !self.wakeup_preempt {
            return false;
        }
        let lead = se[curr].vruntime as i128 - se[woken].vruntime as i128;
        match self.design {
            CfsDesign::Modern => {
                // wakeup_gran(): the granularity in the woken task's virtual time.
                let mut gran = self.wakeup_gran;
                let nr = self.nr_running(c);
                if self.gran_scale && nr > 1 {
                    gran *= (nr >> 1).min(self.nr_latency);
                }
                let preempt = lead > calc_delta_fair(gran, se[woken].weight) as i128;
                if preempt {
                    // "Bias pick_next to pick the sched entity that is triggering this
                    // preemption" (always), and return the CPU to curr after it (LAST_BUDDY).
                    if !marked {
                        self.rqs[c].next = Some(woken);
                    }
                    if self.last_buddy && scale {
                        self.rqs[c].last = Some(curr);
                    }
                }
                preempt
            }
            _ => {
                // 2007: the granularity in curr's virtual time.
                if lead <= calc_delta_fair(self.wakeup_gran, se[curr].weight) as i128 {
                    return false;
                }
                // PREEMPT_RESTRICT: `now || p->prio < curr->prio || !se->peer_preempt++`.
                if !self.preempt_restrict || se[woken].weight > se[curr].weight {
                    return true;
                }
                let p = self.peer(curr);
                *p += 1;
                *p == 1
            }
        }
    }

    fn slice_left(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<Ns> {
        if self.fifo.is_empty(c) {
            return None;
        }
        let ideal = self.sched_slice(c, se[curr].weight, 0);
        let ran = se[curr].sum_exec - se[curr].prev_sum_exec;
        Some(ideal.saturating_sub(ran))
    }

    fn queued(&self, c: usize) -> Queued<'_> {
        self.fifo.view(c)
    }
}

/// The default weight for a task of nice `nice` (-20..=19).
pub fn weight_of_nice(nice: i32) -> u64 {
    super::PRIO_TO_WEIGHT[(nice.clamp(-20, 19) + 20) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::Kernel;

    fn setup(n: usize) -> (Cfs, Vec<SchedEntity>) {
        let cfg = Config { cores: 1, ..Config::default() };
        let se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; n];
        (Cfs::new(&cfg), se)
    }

    #[test]
    fn slice_is_latency_shared_by_weight() {
        let (mut p, mut se) = setup(3);
        for t in 0..3 {
            p.enqueue(&mut se, 0, t, Arrival::New, 0);
        }
        // 1 core: factor 1, latency 6 ms, 3 tasks -> 2 ms each.
        assert_eq!(p.sched_slice(0, NICE_0_LOAD, 0), 2_000_000);
    }

    #[test]
    fn tick_preempts_after_the_ideal_slice() {
        let (mut p, mut se) = setup(2);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, curr, 2_000_000);
        assert!(!p.task_tick(&mut se, 0, curr, 0), "2 ms < 3 ms slice");
        p.update_curr(&mut se, 0, curr, 1_500_000);
        assert!(p.task_tick(&mut se, 0, curr, 0), "3.5 ms > 3 ms slice");
    }

    #[test]
    fn sleeper_credit_is_bounded_by_half_latency() {
        let (mut p, mut se) = setup(2);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, curr, 100_000_000);
        se[1].vruntime = VRUNTIME_BASE; // slept for ages
        p.enqueue(&mut se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
        assert_eq!(se[1].vruntime, p.rqs[0].min_vruntime - 3_000_000);
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 1, false));
    }

    fn on(kernel: Kernel, cores: u32, features: &[&str], n: usize) -> (Cfs, Vec<SchedEntity>) {
        let mut cfg = Config { cores, ..Config::default() };
        cfg.set_kernel(kernel);
        cfg.features = features.iter().map(|s| s.to_string()).collect();
        let se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; n];
        (Cfs::new(&cfg), se)
    }

    /// Task 0 runs `ran` ns alone, then task 1 wakes after a long sleep: its vruntime.
    fn long_sleeper(p: &mut Cfs, se: &mut [SchedEntity], ran: Ns) -> u64 {
        p.enqueue(se, 0, 0, Arrival::New, 0);
        let curr = p.pick_next(se, 0, 0).unwrap();
        p.update_curr(se, 0, curr, ran);
        se[1].vruntime = VRUNTIME_BASE;
        p.enqueue(se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
        p.rqs[0].min_vruntime - se[1].vruntime
    }

    #[test]
    fn on_2624_a_long_sleeper_gets_the_full_scaled_latency() {
        // 2 CPUs: factor 1 + ilog2(2) = 2, latency 40 ms; NEW_FAIR_SLEEPERS, no halving.
        let (mut p, mut se) = on(Kernel::V2624, 2, &[], 2);
        assert_eq!(long_sleeper(&mut p, &mut se, 500_000_000), 40_000_000);
        let (mut p, mut se) = on(Kernel::V2624, 2, &["NO_NEW_FAIR_SLEEPERS"], 2);
        assert_eq!(long_sleeper(&mut p, &mut se, 500_000_000), 0, "no credit: placed at min_vruntime");
        let (mut p, mut se) = on(Kernel::SchedDevel2007, 2, &[], 2);
        assert_eq!(long_sleeper(&mut p, &mut se, 500_000_000), 20_000_000, "sched-devel: no SMP scaling");
    }

    #[test]
    fn gentle_fair_sleepers_switches_the_halving() {
        // 4.17 on 2 CPUs: latency 6 ms * 2 = 12 ms.
        let (mut p, mut se) = on(Kernel::V417, 2, &[], 2);
        assert_eq!(long_sleeper(&mut p, &mut se, 500_000_000), 6_000_000);
        let (mut p, mut se) = on(Kernel::V417, 2, &["NO_GENTLE_FAIR_SLEEPERS"], 2);
        assert_eq!(long_sleeper(&mut p, &mut se, 500_000_000), 12_000_000);
    }

    #[test]
    fn start_debit_switches_in_every_vruntime_era() {
        for k in [Kernel::SchedDevel2007, Kernel::V2624, Kernel::V311, Kernel::V417] {
            let (mut p, mut se) = on(k, 1, &[], 2);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            let debit = se[0].vruntime - VRUNTIME_BASE;
            let want = match k {
                // 2.6.24: __sched_vslice(1024, 1) = 20 ms * 1024 / 1024.
                Kernel::V2624 => 20_000_000,
                // sched-devel: the same without NICE_0_LOAD (10b777246c6 fixed it).
                Kernel::SchedDevel2007 => 20_000_000 / 1024,
                _ => 6_000_000,
            };
            assert_eq!(debit, want, "{}", k.name());
            let (mut p, mut se) = on(k, 1, &["NO_START_DEBIT"], 2);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            assert_eq!(se[0].vruntime, VRUNTIME_BASE, "{}", k.name());
        }
    }

    /// Two tasks; curr has run `ran` since its pick and leads the other by `lead` in vruntime.
    fn leader(p: &mut Cfs, se: &mut [SchedEntity], ran: Ns, lead: u64) -> usize {
        p.enqueue(se, 0, 0, Arrival::New, 0);
        p.enqueue(se, 0, 1, Arrival::New, 0);
        let curr = p.pick_next(se, 0, 0).unwrap();
        let other = 1 - curr;
        p.update_curr(se, 0, curr, ran);
        se[curr].vruntime = se[other].vruntime + lead;
        curr
    }

    #[test]
    fn on_2624_a_vruntime_lead_alone_does_not_preempt_at_the_tick() {
        // 1 CPU, 2 tasks: 2.6.24 slice 10 ms; curr ran 5 ms but leads by 12 ms (> slice).
        let (mut p, mut se) = on(Kernel::V2624, 1, &[], 2);
        let curr = leader(&mut p, &mut se, 5_000_000, 12_000_000);
        assert!(!p.task_tick(&mut se, 0, curr, 0), "2.6.24: only delta_exec > ideal_runtime");
        p.update_curr(&mut se, 0, curr, 5_100_000);
        assert!(p.task_tick(&mut se, 0, curr, 0), "10.1 ms > 10 ms slice");
        // 4.17 (slice 3 ms): ran 1 ms (>= min_granularity 0.75 ms), lead 4 ms > 3 ms: preempted.
        let (mut p, mut se) = on(Kernel::V417, 1, &[], 2);
        let curr = leader(&mut p, &mut se, 1_000_000, 4_000_000);
        assert!(p.task_tick(&mut se, 0, curr, 0), "2.6.32+: the vruntime lead preempts");
    }

    #[test]
    fn no_wakeup_preempt_stops_wakeup_preemption_and_ticks_a_lone_task() {
        let (mut p, mut se) = on(Kernel::V2624, 1, &["NO_WAKEUP_PREEMPT"], 2);
        let curr = leader(&mut p, &mut se, 1_000_000, 50_000_000);
        assert!(!p.check_preempt_wakeup(&mut se, 0, curr, 1 - curr, false));
        let (mut p, mut se) = on(Kernel::V2624, 1, &[], 2);
        let curr = leader(&mut p, &mut se, 1_000_000, 50_000_000);
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 1 - curr, false), "lead 50 ms > 10 ms granularity");
        // entity_tick: with NO_WAKEUP_PREEMPT check_preempt_tick runs even for a lone task.
        let (mut p, mut se) = on(Kernel::V2624, 1, &["NO_WAKEUP_PREEMPT"], 1);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let t = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, t, 21_000_000);
        assert!(p.task_tick(&mut se, 0, t, 0), "alone, past its 20 ms slice");
        let (mut p, mut se) = on(Kernel::V2624, 1, &[], 1);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let t = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, t, 21_000_000);
        assert!(!p.task_tick(&mut se, 0, t, 0));
    }

    #[test]
    fn scaled_wakeup_granularity_grows_with_nr_running() {
        // 1 CPU (factor 1): gran 1 ms. With curr and 5 queued tasks and the wakee enqueued,
        // nr_running = 7: gran x min(7 >> 1, 8) = 3 ms. A wakee 2 ms behind preempts without
        // the patch and not with it; with 2 tasks (nr 2, x1) both preempt.
        for (queued, scale, preempts) in [(5, false, true), (5, true, false), (0, true, true)] {
            let mut cfg = Config { cores: 1, ..Config::default() };
            cfg.set("kernel", "4.17").unwrap();
            cfg.wakeup_gran_scale = scale;
            let mut p = Cfs::new(&cfg);
            let mut se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; queued + 2];
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            let curr = p.pick_next(&mut se, 0, 0).unwrap();
            for t in 1..=queued {
                p.enqueue(&mut se, 0, t, Arrival::New, 0);
            }
            let w = queued + 1;
            p.enqueue(&mut se, 0, w, Arrival::New, 0);
            se[w].vruntime = se[curr].vruntime - 2_000_000;
            p.rekey(&se, 0); // a queued task moved: back to its place in the tree
            assert_eq!(p.check_preempt_wakeup(&mut se, 0, curr, w, false), preempts, "{queued} queued, scale {scale}");
        }
    }

    #[test]
    fn the_2007_wakeup_granularity_is_in_currs_virtual_time() {
        // curr nice -5 (weight 3121): gran = 10 ms * 1024 / 3121 = 3.28 ms of vruntime.
        let (mut p, mut se) = on(Kernel::V2624, 1, &[], 2);
        se[0].weight = 3121;
        se[1].weight = 3121;
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        se[1].weight = NICE_0_LOAD;
        se[1].vruntime = se[curr].vruntime - 4_000_000;
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 1, false), "4 ms > 3.28 ms");
        // 4.17 scales by the woken task's weight: a nice-0 wakee on 1 CPU, 1 ms.
        let (mut p, mut se) = on(Kernel::V417, 1, &[], 2);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        se[1].vruntime = se[curr].vruntime - 900_000;
        assert!(!p.check_preempt_wakeup(&mut se, 0, curr, 1, false), "0.9 ms < 1 ms");
    }

    #[test]
    fn preempt_restrict_lets_one_wakeup_preempt_then_waits_for_the_tick() {
        let run = |features: &[&str]| {
            let (mut p, mut se) = on(Kernel::SchedDevel2007, 1, features, 3);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            let curr = p.pick_next(&mut se, 0, 0).unwrap();
            p.update_curr(&mut se, 0, curr, 1_000_000);
            se[1].vruntime = se[curr].vruntime - 15_000_000;
            se[2].vruntime = se[curr].vruntime - 15_000_000;
            p.enqueue(&mut se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
            let first = p.check_preempt_wakeup(&mut se, 0, curr, 1, false);
            p.enqueue(&mut se, 0, 2, Arrival::Wakeup { from: 0 }, 0);
            let second = p.check_preempt_wakeup(&mut se, 0, curr, 2, false);
            let tick = p.task_tick(&mut se, 0, curr, 0);
            (first, second, tick)
        };
        assert_eq!(run(&[]), (true, false, true), "second waits; the tick reschedules although curr ran 1 ms");
        assert_eq!(run(&["NO_PREEMPT_RESTRICT"]), (true, true, false));
        // HRTICK with PREEMPT_RESTRICT: wakeups do not preempt at all (seed author's description).
        assert!(!run(&["HRTICK"]).0);
        assert!(run(&["HRTICK", "NO_PREEMPT_RESTRICT"]).0);
    }

    #[test]
    fn preempt_restrict_lets_a_higher_priority_wakee_through() {
        let (mut p, mut se) = on(Kernel::SchedDevel2007, 1, &[], 3);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        for w in [1, 2] {
            se[w].vruntime = se[curr].vruntime - 15_000_000;
        }
        se[2].weight = 1277; // nice -1
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 1, false));
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 2, false), "p->prio < curr->prio preempts at once");
    }

    #[test]
    fn the_2007_period_stretches_by_nr_latency() {
        // sched-devel: nr_latency 20; 25 tasks: period 20 ms * 25 / 20 = 25 ms, 1 ms each.
        let (mut p, mut se) = on(Kernel::SchedDevel2007, 1, &[], 25);
        for t in 0..25 {
            p.enqueue(&mut se, 0, t, Arrival::New, 0);
        }
        assert_eq!(p.sched_slice(0, NICE_0_LOAD, 0), 1_000_000);
        // 2.6.24: nr_latency 5; 10 tasks: 20 ms * 10 / 5 = 40 ms, 4 ms each.
        let (mut p, mut se) = on(Kernel::V2624, 1, &[], 10);
        for t in 0..10 {
            p.enqueue(&mut se, 0, t, Arrival::New, 0);
        }
        assert_eq!(p.sched_slice(0, NICE_0_LOAD, 0), 4_000_000);
    }

    #[test]
    fn a_preempted_task_is_the_last_buddy_and_gets_the_cpu_back_under_load() {
        // 5.15, 1 CPU: gran 1 ms, sched_nr_latency 8. curr and 7 queued tasks; a wakee
        // 2 ms behind curr preempts (nr_running 9 >= 8: `scale`), so curr becomes the
        // last buddy. After the wakee runs and sleeps, the pick returns curr although a
        // queued task is leftmost, as long as curr is within the granularity of it.
        for (features, back) in [(&[][..], true), (&["NO_LAST_BUDDY"][..], false)] {
            let (mut p, mut se) = on(Kernel::V515, 1, features, 9);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            let curr = p.pick_next(&mut se, 0, 0).unwrap();
            for t in 1..=7 {
                p.enqueue(&mut se, 0, t, Arrival::New, 0);
                // Queued tasks slightly behind curr: the leftmost is 0.5 ms behind it.
                se[t].vruntime = se[curr].vruntime - 500_000 + t as u64;
            }
            p.enqueue(&mut se, 0, 8, Arrival::Wakeup { from: 0 }, 0);
            se[8].vruntime = se[curr].vruntime - 2_000_000;
            p.rekey(&se, 0); // a queued task moved: back to its place in the tree
            assert!(p.check_preempt_wakeup(&mut se, 0, curr, 8, false), "2 ms lead > 1 ms");
            p.put_prev(&mut se, 0, curr, 0);
            assert_eq!(p.pick_next(&mut se, 0, 0), Some(8), "the wakee (next buddy, leftmost)");
            p.dequeue_curr(&mut se, 0, 8, 0);
            let want = if back { curr } else { 1 };
            assert_eq!(p.pick_next(&mut se, 0, 0), Some(want), "{features:?}");
        }
    }

    #[test]
    fn a_wakeup_while_a_reschedule_is_pending_moves_no_buddy() {
        // 5.15 `check_preempt_wakeup`: `if (test_tsk_need_resched(curr)) return;` before
        // `wakeup_preempt_entity`. A preempts curr (next = A, last = curr); B, woken before
        // curr reschedules and further behind than A, does not take `next` from A, so A
        // runs first. 2.6.24 (10 ms granularity, no buddies) has no such test: B's check
        // runs and preempts, and the leftmost, B, runs first.
        for (kernel, lead, first) in [(Kernel::V515, 2_000_000, 8), (Kernel::V2624, 20_000_000, 9)] {
            let (mut p, mut se) = on(kernel, 1, &[], 10);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            let curr = p.pick_next(&mut se, 0, 0).unwrap();
            for t in 1..=7 {
                p.enqueue(&mut se, 0, t, Arrival::New, 0);
                se[t].vruntime = se[curr].vruntime - 500_000 + t as u64;
            }
            p.rekey(&se, 0);
            p.enqueue(&mut se, 0, 8, Arrival::Wakeup { from: 0 }, 0);
            se[8].vruntime = se[curr].vruntime - lead;
            p.rekey(&se, 0);
            assert!(p.check_preempt_wakeup(&mut se, 0, curr, 8, false), "{kernel:?}: lead > granularity");
            p.enqueue(&mut se, 0, 9, Arrival::Wakeup { from: 0 }, 0);
            se[9].vruntime = se[curr].vruntime - lead - 500_000;
            p.rekey(&se, 0);
            let second = p.check_preempt_wakeup(&mut se, 0, curr, 9, true);
            assert_eq!(second, kernel != Kernel::V515, "{kernel:?}");
            p.put_prev(&mut se, 0, curr, 0);
            assert_eq!(p.pick_next(&mut se, 0, 0), Some(first), "{kernel:?}");
        }
    }

    #[test]
    fn buddies_need_scale_and_fairness() {
        // Below sched_nr_latency no last buddy is set; a buddy too far ahead of the
        // leftmost (more than the granularity) is passed over.
        let (mut p, mut se) = on(Kernel::V515, 1, &[], 3);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        se[1].vruntime = se[curr].vruntime - 500_000;
        p.enqueue(&mut se, 0, 2, Arrival::Wakeup { from: 0 }, 0);
        se[2].vruntime = se[curr].vruntime - 2_000_000;
        p.rekey(&se, 0); // a queued task moved: back to its place in the tree
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 2, false));
        assert_eq!(p.rqs[0].last, None, "nr_running 3 < 8: no last buddy");
        assert_eq!(p.rqs[0].next, Some(2), "the preempting wakee is always the next buddy");
        // A next buddy 1.5 ms ahead of the leftmost is unfair: the leftmost runs.
        p.put_prev(&mut se, 0, curr, 0);
        se[2].vruntime = se[1].vruntime + 1_500_000;
        p.rekey(&se, 0); // a queued task moved: back to its place in the tree
        assert_eq!(p.pick_next(&mut se, 0, 0), Some(1));
    }
}

/// Issue 30: the tree's leftmost against the scan it replaced (the first smallest vruntime
/// in queue order), over random enqueue / dequeue / pick / run / sleep sequences.
#[cfg(test)]
mod equivalence {
    use super::*;
    use crate::engine::kernel::Kernel;
    use rand::{Rng, SeedableRng};

    fn check(p: &Cfs, se: &[SchedEntity], c: usize) {
        let queue = p.queued(c).to_vec();
        // `min_by_key` keeps the first of equals: the task queued first, as before.
        let scan = queue.iter().copied().min_by_key(|&t| se[t].vruntime);
        assert_eq!(p.leftmost(se, c), scan);
        let mut by_key: Vec<(usize, usize)> = queue.iter().copied().enumerate().collect();
        by_key.sort_by_key(|&(pos, t)| (se[t].vruntime, pos));
        assert_eq!(p.timeline.in_order(c), by_key.iter().map(|&(_, t)| t).collect::<Vec<_>>());
        let load: u64 = queue.iter().copied().chain(p.rqs[c].curr).map(|t| se[t].weight).sum();
        assert_eq!(p.rqs[c].load, load);
    }

    fn run(kernel: Kernel, seed: u64, tasks: usize, steps: usize) -> usize {
        let mut cfg = Config { cores: 2, ..Config::default() };
        cfg.set_kernel(kernel);
        let mut p = Cfs::new(&cfg);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; tasks];
        let mut on: Vec<Option<usize>> = vec![None; tasks];
        let mut last_core = vec![0usize; tasks];
        let mut picks = 0;
        for _ in 0..steps {
            let c = rng.gen_range(0..2usize);
            let r = rng.gen_range(0..100);
            if r < 40 {
                let t = rng.gen_range(0..tasks);
                if on[t].is_some() {
                    continue;
                }
                se[t].weight = [NICE_0_LOAD, NICE_0_LOAD, 820, 1277][rng.gen_range(0..4)];
                if let Some(k) = p.rqs[c].curr {
                    p.update_curr(&mut se, c, k, rng.gen_range(0..10) * 100_000);
                }
                let how = if se[t].started { Arrival::Wakeup { from: last_core[t] } } else { Arrival::New };
                p.enqueue(&mut se, c, t, how, 0);
                on[t] = Some(c);
                last_core[t] = c;
                if let Some(k) = p.rqs[c].curr {
                    if p.check_preempt_wakeup(&mut se, c, k, t, false) {
                        p.put_prev(&mut se, c, k, 0);
                    }
                }
            } else if r < 50 {
                let queued = p.queued(c).to_vec();
                if queued.is_empty() {
                    continue;
                }
                let t = queued[rng.gen_range(0..queued.len())];
                assert!(p.dequeue(&mut se, c, t, 0));
                p.enqueue(&mut se, 1 - c, t, Arrival::Migrated { from: c }, 0);
                on[t] = Some(1 - c);
                last_core[t] = 1 - c;
            } else if let Some(k) = p.rqs[c].curr {
                p.update_curr(&mut se, c, k, rng.gen_range(0..30) * 100_000);
                let tick = p.task_tick(&mut se, c, k, 0);
                match rng.gen_range(0..4) {
                    0 if !tick => {}
                    0 | 1 => p.put_prev(&mut se, c, k, 0),
                    _ => {
                        p.dequeue_curr(&mut se, c, k, 0);
                        on[k] = None;
                    }
                }
            } else if let Some(t) = p.pick_next(&mut se, c, 0) {
                picks += 1;
                on[t] = Some(c);
            }
            for c in 0..2 {
                check(&p, &se, c);
            }
            for (t, at) in on.iter().enumerate() {
                if let Some(at) = *at {
                    assert!(p.queued(at).contains(t) || p.rqs[at].curr == Some(t), "task {t} lost from core {at}");
                }
            }
        }
        picks
    }

    #[test]
    fn the_tree_finds_the_leftmost_the_scan_found_in_every_vruntime_era() {
        for seed in 0..6 {
            for k in [Kernel::SchedDevel2007, Kernel::V2624, Kernel::V417, Kernel::V515] {
                let picks = run(k, seed, 40, 3_000);
                assert!(picks > 300, "{} seed {seed}: {picks} picks", k.name());
            }
        }
    }

    /// 16,384 tasks on one core: a pick, a put_prev and the tick's leftmost examine O(log n)
    /// tree nodes (`Timeline::visits`), where the scans examined every task.
    #[test]
    fn picks_and_enqueues_examine_log_n_nodes_at_16384_tasks() {
        let n = 16_384;
        let mut p = Cfs::new(&Config { cores: 1, ..Config::default() });
        let mut se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; n];
        for t in 0..n {
            p.enqueue(&mut se, 0, t, Arrival::New, 0);
        }
        p.timeline.take_visits();
        let bound = 8 * (n as f64).log2() as u64;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..2_000 {
            let t = p.pick_next(&mut se, 0, 0).unwrap();
            let pick = p.timeline.take_visits();
            p.update_curr(&mut se, 0, t, rng.gen_range(1..40) * 100_000);
            p.task_tick(&mut se, 0, t, 0);
            p.put_prev(&mut se, 0, t, 0);
            let rest = p.timeline.take_visits();
            assert!(pick > 0 && pick <= bound, "pick examined {pick} nodes (bound {bound})");
            assert!(rest > 0 && rest <= 2 * bound, "update_curr + tick + put_prev examined {rest} nodes");
        }
        assert_eq!(p.queued(0).len(), n);
    }
}
