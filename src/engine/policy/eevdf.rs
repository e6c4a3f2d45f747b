//! EEVDF as released in 6.6 and 6.12: lag, eligibility, virtual deadlines, RUN_TO_PARITY, PLACE_LAG, DELAY_DEQUEUE.
//!
//! Follows kernel/sched/fair.c of v6.6.0 and v6.12.0 (read in full; see
//! `notes/r1-sched-eras.md`, sections 6.6 and 6.12). Per core:
//! - `V` (`avg_vruntime`) is the load-weighted mean vruntime of the runnable tasks, curr
//!   included, rounded down; a task is eligible when `V >= v_i` (`entity_eligible`).
//! - `update_curr` charges curr and calls `update_deadline`: once `vruntime >= deadline`,
//!   `slice = sysctl_sched_base_slice` and `deadline = vruntime + calc_delta_fair(slice)`,
//!   and, if others are runnable (`cfs_rq->nr_running > 1`), `resched_curr`. This runs in
//!   every `update_curr` the engine makes (tick, hrtick, wakeup, burst end), and the
//!   reschedule reaches the engine through `take_resched`. 6.6's `entity_tick` has no
//!   `check_preempt_tick`: the tick reschedules only through this.
//! - 6.12 PREEMPT_SHORT: `update_curr` also reschedules when `did_preempt_short`: curr's
//!   RUN_TO_PARITY stash no longer matches its deadline and curr is not eligible.
//!   At wakeup, `do_preempt_short` (the wakee's slice is shorter, it is eligible, and its
//!   deadline is earlier or curr is not eligible) cancels curr's RUN_TO_PARITY stash
//!   before `pick_eevdf` decides (fair.c v6.12, read in a 6.12.67 tree; 85e511df3cec).
//! - 6.12 custom slices (syscalls.c `__setscheduler_params`, 857b158dc5e8): a SCHED_OTHER
//!   task's `sched_attr.sched_runtime`, clamped to 0.1..100 ms (`policy::custom_slice`,
//!   unscaled), is its `se->slice` for its virtual deadline (`place_entity`,
//!   `update_deadline`), the hrtick (`slice - ran`) and the lag clamp; other tasks keep
//!   the base slice. A workload gives it through `Workload::sched_runtime` (none does yet).
//! - The pick (`pick_eevdf`) is the eligible task with the earliest virtual deadline (ties
//!   by task id; the kernel's depend on the tree's shape); if none is eligible by rounding,
//!   the smallest vruntime (6.6's "EEVDF scheduling fail, picking leftmost").
//!   `set_next_entity` stashes `se->vlag = se->deadline` (the "HACK" comment): here
//!   `Rq::picked_deadline`.
//! - RUN_TO_PARITY (6.6 and 6.12 alike): in `pick_eevdf`, curr is dropped if not eligible,
//!   and kept outright while `curr->vlag == curr->deadline`, i.e. until `update_deadline`
//!   has renewed its deadline since it was picked. It acts in `check_preempt_wakeup`
//!   (`pick_eevdf(cfs_rq) == pse` decides). NO_RUN_TO_PARITY: the plain EEVDF pick decides.
//! - Placement (`place_entity`): `vruntime = V - lag`, with PLACE_LAG's
//!   `lag = vlag * (W + w_i) / W` (W = load on the queue, curr included; `div_s64`
//!   truncates) when the queue is not empty, else 0; `deadline = vruntime + vslice`.
//!   PLACE_DEADLINE_INITIAL halves vslice for an `ENQUEUE_INITIAL` enqueue, which only
//!   6.12's `wake_up_new_task` passes (`Kernel::eevdf_initial_enqueue`: 6.6.0 re-places a
//!   new task without the flag, so it starts with a full slice). NO_PLACE_LAG: lag 0.
//! - Lag saved at every dequeue (`update_entity_lag`): `vlag = V - v`, clamped to
//!   `calc_delta_fair(max(2 * slice, TICK_NSEC))` either way.
//! - 6.12 PLACE_REL_DEADLINE: a task dequeued not to sleep (here: migrated by the load
//!   balancer) keeps `deadline - vruntime` and gets it back on its new queue.
//! - The hrtick (`hrtick_start_fair`, identical in 6.6 and 6.12): armed while
//!   `rq->cfs.h_nr_running > 1` for `delta = se->slice - (sum_exec_runtime -
//!   prev_sum_exec_runtime)`, real time since the pick, not virtual time to the deadline;
//!   `delta < 0` reschedules curr instead (`hrtick_delta`). The 10 us floor is
//!   `hrtick_start`'s (`sim::tick`).
//! - base_slice: `sysctl_sched_base_slice = 750000ULL` (0.75 ms) in v6.6.0 and v6.12.0,
//!   times `1 + ilog2(min(ncpus, 8))` (`config.min_granularity` holds it unscaled). Upstream
//!   2ae891b82695 ("sched: Reduce the default slice to avoid tasks getting an extra tick",
//!   2025) made it 0.70 ms and was backported to later 6.6.y stable releases; the
//!   released tags modelled here have 0.75 ms.
//!
//! Runqueue (issue 30; 6.6 fair.c `avg_vruntime_add`/`avg_vruntime_sub`/`avg_vruntime`,
//! `__enqueue_entity`, `__pick_eevdf`): V is kept incrementally, as `cfs_rq->avg_vruntime`
//! (`sum (v_i - base) * w_i`) and `cfs_rq->avg_load` (`sum w_i`) over the queued tasks,
//! updated at every enqueue and dequeue; `avg_vruntime` adds curr and divides, rounding down
//! (the kernel's `if (avg < 0) avg -= (load - 1)` before `div_s64`). Simplified: the base is
//! the fixed `VRUNTIME_BASE`, not min_vruntime (`avg_vruntime_update` re-bases when it moves),
//! and the sums are i128, so nothing overflows and no re-basing is needed; the floor of the
//! exact mean does not depend on the base, so V is the value the scan computed before.
//! The queued tasks are in a `runq::Timeline` ordered by (deadline, task id) with the smallest
//! (vruntime, task id) per subtree, as 6.8+ and 6.12 keep it (sorted by deadline,
//! `min_vruntime_cb`; 2227a957e1d5, "sched/eevdf: Sort the rbtree by virtual deadline"), and
//! the pick is 6.12's heap search: go left while the left subtree has an eligible task, else
//! take the node if eligible, else go right: the eligible task with the earliest deadline in
//! O(log n). 6.6.0 sorts its tree by vruntime and keeps `min_deadline` per subtree
//! (`min_deadline_cb`; its `__pick_eevdf` walks the eligible prefix, as fixed by b01db23d5923
//! "sched/eevdf: Fix pick_eevdf()"): a different tree that returns the same entity, the
//! earliest eligible deadline (here ties by task id in both eras, as before). 6.12's O(1)
//! leftmost fast path is the same answer and is not taken separately.
//! The pick after a preemption is `pick_next_task_fair`'s `simple:` path (put_prev, then
//! `pick_next_entity(cfs_rq, NULL)`), as without CONFIG_FAIR_GROUP_SCHED: the preempted
//! task competes as any queued task, so RUN_TO_PARITY acts at wakeup only (with
//! FAIR_GROUP_SCHED the pick also sees curr and its stash). The simulator charges curr
//! (`update_curr`, so `update_deadline`) before every enqueue and wakeup check (`sim::wakeup`).
//! - 6.12 DELAY_DEQUEUE (on; fair.c v6.12 `dequeue_entity`, read in a 6.12.67 tree): a
//!   task that sleeps while not eligible is not dequeued (`set_delayed`): it stays in the
//!   queue, counted in V and in nr_running, until `pick_next_entity` picks it (then
//!   `dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED)` saves its lag, dequeues it and the
//!   pick starts `again`) or it is woken: core.c `ttwu_runnable` finds it still queued and
//!   calls `enqueue_task(ENQUEUE_DELAYED)` -> `requeue_delayed_entity` on that CPU, without
//!   `select_task_rq` (`sim::wakeup`), then `wakeup_preempt`. DELAY_ZERO: a positive lag
//!   is clipped to 0 at that dequeue (`finish_delayed_dequeue_entity`), and a delayed task
//!   woken with positive lag is placed again at V with lag 0 (`requeue_delayed_entity`).
//!   An exiting task is never delayed (`task_dead_fair` dequeues it). The load balancer
//!   here does not move a delayed task (simplified; 6.12.0's `detach_tasks` can).
//!
//! - `pick_eevdf_v1` (config key; 6.6 only): the pick as first merged (147f3efaa241, May
//!   2023), which the tip tree of Aug 2023 and 6.6-rc1 ran: a walk of the tree sorted by
//!   vruntime with `min_deadline` per subtree (`rbtree::RbTimeline`, lib/rbtree.c's shape),
//!   that follows the least deadline and never comes back, so it can miss the earliest
//!   eligible deadline when the least one is not eligible (`pick_v1`). Replaced by
//!   b01db23d5923 "sched/eevdf: Fix pick_eevdf()" (Ben Segall, Sep 2023) before 6.6.0.
//!   Not modelled with it: 8dafa9d0eb1a's heap-integrity fix (the `min_deadline` that
//!   `reweight_entity` left stale: group entities, which the engine has none of).
//!
//! Not modelled: NEXT_BUDDY (off by default).
//!
//! Over 800 lines with its tests (about 490 of code): one scheduling class is one file, as
//! EEVDF is one part of the kernel's `fair.c`; its tests follow the code they check.

use super::rbtree::RbTimeline;
use super::runq::{Fifo, MinVruntime, Timeline};
use super::{calc_delta_fair, Arrival, Policy, Queued, SchedEntity, VRUNTIME_BASE};
use crate::engine::config::Config;
use crate::engine::kernel::{Feat, Kernel};
use crate::engine::time::{Ns, SEC};

#[derive(Clone, Debug, Default)]
struct Rq {
    curr: Option<usize>,
    /// `cfs_rq->avg_vruntime`: `sum (v_i - VRUNTIME_BASE) * w_i` over the queued tasks.
    avg_vruntime: i128,
    /// `cfs_rq->avg_load`: `sum w_i` over the queued tasks.
    avg_load: u64,
    /// Last computed V, kept for placing tasks on an empty queue.
    last_v: u64,
    /// `se->vlag = se->deadline` at `set_next_entity`: curr's deadline when it was picked.
    picked_deadline: u64,
    /// `update_curr` asked for `resched_curr` (read by `take_resched`).
    resched: bool,
}

pub struct Eevdf {
    rqs: Vec<Rq>,
    /// Every core's queued tasks in arrival order (`Policy::queued`).
    fifo: Fifo,
    /// The same tasks by (deadline, task id), with the least (vruntime, task id) per subtree.
    timeline: Timeline<(u64, u32), MinVruntime>,
    /// `sysctl_sched_base_slice`, scaled.
    base_slice: Ns,
    /// `TICK_NSEC` = (NSEC_PER_SEC + HZ/2) / HZ, for the lag clamp.
    tick_nsec: Ns,
    wakeup_preempt: bool,
    run_to_parity: bool,
    place_lag: bool,
    /// PLACE_DEADLINE_INITIAL and an era whose first enqueue carries ENQUEUE_INITIAL.
    initial_half_slice: bool,
    preempt_short: bool,
    /// 6.12 honours `se->custom_slice` (`sched_attr.sched_runtime`); 6.6 has none.
    custom_slices: bool,
    place_rel_deadline: bool,
    /// PLACE_REL_DEADLINE: `deadline - vruntime` of a task taken off a queue to migrate.
    rel_deadline: Vec<Option<u64>>,
    /// 6.12 DELAY_DEQUEUE and DELAY_ZERO.
    delay_dequeue: bool,
    delay_zero: bool,
    /// `se->sched_delayed` per task: asleep but still on its runqueue (grown on demand).
    sched_delayed: Vec<bool>,
    /// 6.6-rc1's `pick_eevdf` (before b01db23d5923) over the kernel's vruntime-ordered tree.
    pick_v1: bool,
    rb: RbTimeline,
}

impl Eevdf {
    pub fn new(cfg: &Config) -> Self {
        let fs = cfg.feats();
        let hz = cfg.hz.max(1) as u64;
        Eevdf {
            rqs: vec![Rq { last_v: VRUNTIME_BASE, ..Rq::default() }; cfg.cores.max(1) as usize],
            fifo: Fifo::new(cfg.cores.max(1) as usize),
            timeline: Timeline::new(cfg.cores.max(1) as usize),
            base_slice: (cfg.min_granularity * cfg.granularity_factor()).max(1),
            tick_nsec: (SEC + hz / 2) / hz,
            wakeup_preempt: fs.has(Feat::WakeupPreempt),
            run_to_parity: fs.has(Feat::RunToParity),
            place_lag: fs.has(Feat::PlaceLag),
            initial_half_slice: fs.has(Feat::PlaceDeadlineInitial) && cfg.kernel.eevdf_initial_enqueue(),
            preempt_short: fs.has(Feat::PreemptShort),
            custom_slices: cfg.kernel.custom_slices(),
            place_rel_deadline: fs.has(Feat::PlaceRelDeadline),
            rel_deadline: Vec::new(),
            delay_dequeue: fs.has(Feat::DelayDequeue),
            delay_zero: fs.has(Feat::DelayZero),
            sched_delayed: Vec::new(),
            pick_v1: cfg.pick_eevdf_v1 && cfg.kernel == Kernel::V66,
            rb: RbTimeline::new(cfg.cores.max(1) as usize),
        }
    }

    fn is_delayed(&self, task: usize) -> bool {
        self.sched_delayed.get(task).copied().unwrap_or(false)
    }

    fn set_delayed(&mut self, task: usize, on: bool) {
        if self.sched_delayed.len() <= task {
            self.sched_delayed.resize(task + 1, false);
        }
        self.sched_delayed[task] = on;
    }

    /// `__enqueue_entity` + `avg_vruntime_add`: `task` joins core `c`'s tree with its
    /// current vruntime, deadline and weight (none changes while it is queued).
    fn push(&mut self, se: &[SchedEntity], c: usize, task: usize) {
        let s = &se[task];
        self.fifo.push(c, task, s.weight);
        self.timeline.insert(c, task, (s.deadline, task as u32), MinVruntime(s.vruntime, task as u32));
        if self.pick_v1 {
            self.rb.insert(c, task, s.vruntime, s.deadline);
        }
        let rq = &mut self.rqs[c];
        rq.avg_vruntime += (s.vruntime as i128 - VRUNTIME_BASE as i128) * s.weight as i128;
        rq.avg_load += s.weight;
    }

    /// `__dequeue_entity` + `avg_vruntime_sub`, with the values `task` was queued with.
    /// False if it is not on core `c`'s queue.
    fn remove(&mut self, se: &[SchedEntity], c: usize, task: usize) -> bool {
        if !self.fifo.contains(c, task) {
            return false;
        }
        let w = self.fifo.weight(task);
        let ((deadline, _), MinVruntime(v, _)) = self.timeline.entry(task);
        debug_assert_eq!((v, deadline, w), (se[task].vruntime, se[task].deadline, se[task].weight));
        self.timeline.remove(c, task);
        self.fifo.remove(c, task);
        if self.pick_v1 {
            self.rb.erase(c, task);
        }
        let rq = &mut self.rqs[c];
        rq.avg_vruntime -= (v as i128 - VRUNTIME_BASE as i128) * w as i128;
        rq.avg_load -= w;
        true
    }

    /// Tests that move a queued task's vruntime or deadline behind the policy's back (the
    /// kernel never does: an entity is dequeued first) put it back in its place with this.
    #[cfg(test)]
    fn rekey(&mut self, se: &[SchedEntity], c: usize) {
        for t in self.fifo.view(c).to_vec() {
            let w = self.fifo.weight(t);
            let ((_, _), MinVruntime(v, _)) = self.timeline.entry(t);
            self.timeline.remove(c, t);
            self.timeline.insert(c, t, (se[t].deadline, t as u32), MinVruntime(se[t].vruntime, t as u32));
            if self.pick_v1 {
                self.rb.erase(c, t);
                self.rb.insert(c, t, se[t].vruntime, se[t].deadline);
            }
            let rq = &mut self.rqs[c];
            rq.avg_vruntime += (se[t].vruntime as i128 - v as i128) * w as i128;
        }
    }

    /// `dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED)` from `pick_next_entity`: the
    /// picked task was delayed; its lag is saved now (`update_entity_lag`, while it still
    /// counts in V) and it leaves the queue; DELAY_ZERO clips a positive lag to 0
    /// (`finish_delayed_dequeue_entity`).
    fn finish_delayed_dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize) {
        self.save_lag(se, c, task);
        self.remove(se, c, task);
        self.set_delayed(task, false);
        if self.delay_zero && se[task].vlag > 0 {
            se[task].vlag = 0;
        }
    }

    /// `requeue_delayed_entity` (6.12): a delayed task is woken where it is queued. With
    /// DELAY_ZERO, if its lag has turned positive it is placed again at V with lag 0
    /// (`place_entity(cfs_rq, se, 0)`, taken off the tree first so V excludes it).
    fn requeue_delayed(&mut self, se: &mut [SchedEntity], c: usize, task: usize) {
        if self.delay_zero {
            self.save_lag(se, c, task);
            if se[task].vlag > 0 {
                self.remove(se, c, task);
                let v = self.avg_vruntime(se, c);
                se[task].vlag = 0;
                se[task].vruntime = v;
                se[task].deadline = v + self.vslice(&se[task]);
                self.push(se, c, task);
            }
        }
        self.set_delayed(task, false);
    }

    /// avg_vruntime: V over curr + queued (weighted mean, rounded down), O(1).
    fn avg_vruntime(&mut self, se: &[SchedEntity], c: usize) -> u64 {
        let rq = &mut self.rqs[c];
        let (mut num, mut den) = (rq.avg_vruntime, rq.avg_load as i128);
        if let Some(t) = rq.curr {
            num += (se[t].vruntime as i128 - VRUNTIME_BASE as i128) * se[t].weight as i128;
            den += se[t].weight as i128;
        }
        if den > 0 {
            rq.last_v = (VRUNTIME_BASE as i128 + num.div_euclid(den)) as u64;
        }
        rq.last_v
    }

    /// Load on the queue, curr included (`cfs_rq->avg_load` + curr's weight).
    fn load(&self, se: &[SchedEntity], c: usize) -> u64 {
        let rq = &self.rqs[c];
        rq.avg_load + rq.curr.map_or(0, |t| se[t].weight)
    }

    /// `se->slice`: the custom slice (6.12) or `sysctl_sched_base_slice`.
    fn slice(&self, s: &SchedEntity) -> Ns {
        if self.custom_slices && s.custom_slice > 0 {
            s.custom_slice
        } else {
            self.base_slice
        }
    }

    /// `calc_delta_fair(se->slice, se)`.
    fn vslice(&self, s: &SchedEntity) -> u64 {
        calc_delta_fair(self.slice(s), s.weight)
    }

    /// `entity_eligible`: `V >= v` (V rounded down).
    fn eligible(&mut self, se: &[SchedEntity], c: usize, task: usize) -> bool {
        se[task].vruntime <= self.avg_vruntime(se, c)
    }

    /// 6.12 `do_preempt_short`: the wakee has a shorter slice, is eligible, and either has
    /// the earlier deadline or curr is not eligible.
    fn do_preempt_short(&mut self, se: &[SchedEntity], c: usize, pse: usize, curr: usize) -> bool {
        self.preempt_short
            && self.slice(&se[pse]) < self.slice(&se[curr])
            && self.eligible(se, c, pse)
            && ((se[pse].deadline as i64).wrapping_sub(se[curr].deadline as i64) < 0 || !self.eligible(se, c, curr))
    }

    /// update_entity_lag: `V - v`, clamped to `calc_delta_fair(max(2 * slice, TICK_NSEC))`.
    fn save_lag(&mut self, se: &mut [SchedEntity], c: usize, task: usize) {
        let v = self.avg_vruntime(se, c);
        let limit = calc_delta_fair((2 * self.slice(&se[task])).max(self.tick_nsec), se[task].weight) as i64;
        se[task].vlag = (v as i64).wrapping_sub(se[task].vruntime as i64).clamp(-limit, limit);
    }

    /// pick_eevdf over the queue (and `curr`, if given): earliest eligible deadline.
    fn pick(&mut self, se: &[SchedEntity], c: usize, curr: Option<usize>) -> Option<usize> {
        let v = self.avg_vruntime(se, c);
        let rq = &self.rqs[c];
        if let Some(k) = curr {
            // RUN_TO_PARITY: an eligible curr whose deadline is the one it was picked with.
            if self.run_to_parity && se[k].vruntime <= v && se[k].deadline == rq.picked_deadline {
                return Some(k);
            }
        }
        if self.pick_v1 {
            return self.pick_v1(se, c, curr, v);
        }
        // __pick_eevdf's heap search over the tree, then curr if eligible and earlier.
        let tree = self.timeline.first_where(c, |m| m.0 <= v);
        let key = |t: usize| (se[t].deadline, t);
        let eligible_curr = curr.filter(|&k| se[k].vruntime <= v);
        let best = match (tree, eligible_curr) {
            (Some(a), Some(b)) => Some(if key(b) < key(a) { b } else { a }),
            (a, b) => a.or(b),
        };
        if best.is_some() {
            return best;
        }
        // Never nothing: if no task is eligible by rounding, take the smallest vruntime.
        let least = self.timeline.total(c).map(|m| (m.0, m.1 as usize));
        let curr_v = curr.map(|k| (se[k].vruntime, k));
        [least, curr_v].into_iter().flatten().min().map(|(_, t)| t)
    }
}

impl Eevdf {
    /// 6.6-rc1 `pick_eevdf` (63304558ba5d's tree; replaced by b01db23d5923 "sched/eevdf:
    /// Fix pick_eevdf()", Sep 2023, before 6.6.0): from the root of the vruntime-ordered
    /// tree, an ineligible node sends the walk left; an eligible one becomes `best` if its
    /// deadline is earlier, and ends the walk if it holds its subtree's least deadline;
    /// else the walk goes left if the left subtree holds that least deadline, right
    /// otherwise, and never comes back: if the least deadline on the right is not
    /// eligible, an eligible earlier deadline in a left subtree passed over is missed.
    /// Then curr if eligible with an earlier deadline; if nothing, the leftmost.
    fn pick_v1(&self, se: &[SchedEntity], c: usize, curr: Option<usize>, v: u64) -> Option<usize> {
        let before = |a: u64, b: u64| (a.wrapping_sub(b) as i64) < 0;
        let mut best: Option<usize> = None;
        let mut node = self.rb.root(c);
        while let Some(n) = node {
            let x = self.rb.view(n);
            if x.vruntime > v {
                node = x.left;
                continue;
            }
            if best.is_none_or(|b| before(x.deadline, se[b].deadline)) {
                best = Some(n);
                if x.deadline == x.min_deadline {
                    break;
                }
            }
            if let Some(l) = x.left {
                if self.rb.view(l).min_deadline == x.min_deadline {
                    node = Some(l);
                    continue;
                }
            }
            node = x.right;
        }
        let curr = curr.filter(|&k| se[k].vruntime <= v);
        if let Some(k) = curr {
            if best.is_none_or(|b| before(se[k].deadline, se[b].deadline)) {
                best = Some(k);
            }
        }
        best.or_else(|| {
            let mut n = self.rb.root(c)?;
            while let Some(l) = self.rb.view(n).left {
                n = l;
            }
            Some(n)
        })
    }
}

impl Policy for Eevdf {
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, _now: Ns) {
        if self.is_delayed(task) {
            // ttwu_runnable -> enqueue_task(ENQUEUE_DELAYED): still queued here.
            debug_assert!(self.fifo.contains(c, task), "a delayed task is woken on its own queue");
            self.requeue_delayed(se, c, task);
            return;
        }
        // place_entity
        let v = self.avg_vruntime(se, c);
        let vs = self.vslice(&se[task]);
        let load = self.load(se, c);
        let lag = match how {
            // A new task's vlag is 0 (`__sched_fork`).
            Arrival::New => 0,
            _ if !self.place_lag || load == 0 => 0,
            // lag * (W + w_i) / W, truncated toward zero (div_s64).
            _ => (se[task].vlag as i128 * (load + se[task].weight) as i128 / load as i128) as i64,
        };
        let vruntime = (v as i128 - lag as i128) as u64;
        se[task].vruntime = vruntime;
        let rel = self.rel_deadline.get_mut(task).and_then(Option::take);
        se[task].deadline = match (how, rel) {
            (Arrival::Migrated { .. }, Some(rel)) if self.place_rel_deadline => vruntime + rel,
            (Arrival::New, _) if self.initial_half_slice => vruntime + vs / 2,
            _ => vruntime + vs,
        };
        se[task].started = true;
        self.push(se, c, task);
    }

    fn dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) -> bool {
        if !self.fifo.contains(c, task) {
            return false;
        }
        self.save_lag(se, c, task);
        self.remove(se, c, task);
        if self.place_rel_deadline {
            // Not a sleep (a migration): the deadline is kept relative (6.12 dequeue_entity).
            if self.rel_deadline.len() <= task {
                self.rel_deadline.resize(task + 1, None);
            }
            self.rel_deadline[task] = Some(se[task].deadline.saturating_sub(se[task].vruntime));
        }
        true
    }

    #[inline(always)] // into `Sim::pick_loop` through `AnyPolicy::pick_next`
    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, _now: Ns) -> Option<usize> {
        let mut t = self.pick(se, c, None)?;
        while self.is_delayed(t) {
            // pick_next_entity: a delayed pick is dequeued, and pick_task_fair goes `again`.
            self.finish_delayed_dequeue(se, c, t);
            t = self.pick(se, c, None)?;
        }
        self.remove(se, c, t);
        let rq = &mut self.rqs[c];
        rq.curr = Some(t);
        // set_next_entity: `prev_sum_exec_runtime = sum_exec_runtime`, `vlag = deadline`.
        rq.picked_deadline = se[t].deadline;
        rq.resched = false;
        se[t].prev_sum_exec = se[t].sum_exec;
        Some(t)
    }

    fn put_prev(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        let rq = &mut self.rqs[c];
        debug_assert_eq!(rq.curr, Some(task));
        rq.curr = None;
        rq.resched = false;
        self.push(se, c, task);
    }

    fn dequeue_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        self.save_lag(se, c, task);
        let rq = &mut self.rqs[c];
        rq.curr = None;
        rq.resched = false;
    }

    fn block_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns) {
        // 6.12 dequeue_entity(DEQUEUE_SLEEP): `if (sched_feat(DELAY_DEQUEUE) && delay &&
        // !entity_eligible(cfs_rq, se))` set_delayed and stay: put_prev_entity puts it back
        // in the tree (it is still `on_rq`), where it competes until picked.
        if self.delay_dequeue && se[task].vruntime > self.avg_vruntime(se, c) {
            let rq = &mut self.rqs[c];
            rq.curr = None;
            rq.resched = false;
            self.push(se, c, task);
            self.set_delayed(task, true);
            return;
        }
        self.dequeue_curr(se, c, task, now);
    }

    fn delayed(&self, task: usize) -> bool {
        self.is_delayed(task)
    }

    fn update_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, delta: Ns) {
        let vs = self.vslice(&se[task]);
        let s = &mut se[task];
        s.sum_exec += delta;
        s.vruntime += calc_delta_fair(delta, s.weight);
        // update_deadline: the request is used up: a new slice and deadline.
        let renewed = s.vruntime >= s.deadline;
        if renewed {
            s.deadline = s.vruntime + vs;
        }
        if self.fifo.is_empty(c) {
            return; // cfs_rq->nr_running == 1
        }
        // 6.12 did_preempt_short: parity lost (stash != deadline) and curr not eligible.
        let short = !renewed
            && self.preempt_short
            && se[task].deadline != self.rqs[c].picked_deadline
            && se[task].vruntime > self.avg_vruntime(se, c);
        if renewed || short {
            self.rqs[c].resched = true;
        }
    }

    fn take_resched(&mut self, c: usize) -> bool {
        std::mem::take(&mut self.rqs[c].resched)
    }

    fn task_tick(&mut self, _se: &mut [SchedEntity], _c: usize, _curr: usize, _now: Ns) -> bool {
        // entity_tick (6.6, 6.12): update_curr (done by the engine before this call, which
        // is where update_deadline reschedules); there is no check_preempt_tick any more.
        false
    }

    fn check_preempt_wakeup(
        &mut self,
        se: &mut [SchedEntity],
        c: usize,
        curr: usize,
        woken: usize,
        resched: bool,
    ) -> bool {
        // 6.6/6.12 check_preempt_wakeup_fair: "We can come here with TIF_NEED_RESCHED
        // already set" -> `if (test_tsk_need_resched(curr)) return;` before the
        // WAKEUP_PREEMPTION test, `update_curr` and the pick (so a pending reschedule also
        // keeps 6.12's PREEMPT_SHORT from cancelling curr's protection below).
        if resched || !self.wakeup_preempt {
            return false;
        }
        // 6.12 PREEMPT_SHORT: a wakee with a shorter slice cancels curr's RUN_TO_PARITY
        // protection (`se->vlag = se->deadline + 1`), even if it does not preempt now.
        if self.do_preempt_short(se, c, woken, curr) && self.rqs[c].picked_deadline == se[curr].deadline {
            self.rqs[c].picked_deadline = se[curr].deadline.wrapping_add(1);
        }
        // check_preempt_wakeup(_fair): preempt iff pick_eevdf, curr included, picks the wakee.
        self.pick(se, c, Some(curr)) == Some(woken)
    }

    fn slice_left(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<Ns> {
        self.hrtick_delta(se, c, curr).map(|d| d.max(0) as Ns)
    }

    fn hrtick_delta(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<i64> {
        // hrtick_start_fair: only while rq->cfs.h_nr_running > 1; `se->slice - ran`.
        if self.fifo.is_empty(c) {
            return None;
        }
        let ran = se[curr].sum_exec - se[curr].prev_sum_exec;
        Some(self.slice(&se[curr]) as i64 - ran.min(i64::MAX as Ns) as i64)
    }

    fn queued(&self, c: usize) -> Queued<'_> {
        self.fifo.view(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kernel::Kernel;
    use crate::engine::policy::NICE_0_LOAD;
    use crate::engine::time::US;

    fn cfg(kernel: Kernel, features: &str) -> Config {
        let mut c = Config { cores: 1, ..Config::default() };
        c.set("kernel", kernel.name()).unwrap();
        c.set("features", features).unwrap();
        c
    }

    fn nice0(n: usize) -> Vec<SchedEntity> {
        vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; n]
    }

    #[test]
    fn picks_earliest_deadline_among_eligible_and_rotates() {
        let mut p = Eevdf::new(&cfg(Kernel::V66, ""));
        let mut se = nice0(3);
        for t in 0..3 {
            p.enqueue(&mut se, 0, t, Arrival::New, 0);
        }
        let mut order = Vec::new();
        for _ in 0..6 {
            let t = p.pick_next(&mut se, 0, 0).unwrap();
            order.push(t);
            // run to the deadline: update_deadline renews it and asks to reschedule.
            let need = se[t].deadline - se[t].vruntime;
            p.update_curr(&mut se, 0, t, need);
            assert!(p.take_resched(0), "deadline reached with others runnable");
            assert!(!p.take_resched(0), "reading clears it");
            p.put_prev(&mut se, 0, t, 0);
        }
        for t in 0..3 {
            assert_eq!(order.iter().filter(|&&x| x == t).count(), 2, "fair rotation {order:?}");
        }
    }

    /// Seven queued tasks inserted by vruntime (lib/rbtree.c's shape: 2 at the root, 1 on
    /// its left, 4 on its right over 3 and 6), 1-3 eligible, 4-7 not; task 1 has the earliest
    /// eligible deadline and task 7, not eligible, the least deadline of all. Task 8 is curr.
    fn v1_queue(pick_v1: bool) -> (Eevdf, Vec<SchedEntity>) {
        let mut c = cfg(Kernel::V66, "NO_RUN_TO_PARITY");
        c.set("pick_eevdf_v1", if pick_v1 { "on" } else { "off" }).unwrap();
        let mut p = Eevdf::new(&c);
        let mut se = nice0(9);
        let b = VRUNTIME_BASE;
        let v = [0, 0, 10, 20, 100, 101, 102, 103];
        let d = [0, 1000, 2000, 3000, 5000, 5000, 5000, 500];
        for t in 1..=7 {
            se[t].vruntime = b + v[t];
            se[t].deadline = b + d[t];
            p.push(&se, 0, t);
        }
        se[8].vruntime = b + 62;
        se[8].deadline = b + 9000;
        p.rqs[0].curr = Some(8);
        (p, se)
    }

    #[test]
    fn the_first_pick_eevdf_walks_toward_an_ineligible_least_deadline_and_misses_the_earliest_eligible() {
        // V = (0 + 10 + 20 + 100 + 101 + 102 + 103 + 62) / 8 = 62: tasks 1-3 and curr are eligible.
        let (mut p, se) = v1_queue(false);
        assert_eq!(p.avg_vruntime(&se, 0), VRUNTIME_BASE + 62);
        assert_eq!(p.pick(&se, 0, None), Some(1), "6.6.0: the earliest eligible deadline");
        assert!(p.check_preempt_wakeup(&mut se.clone(), 0, 8, 1, false), "6.6.0: task 1 woken preempts curr");
        // 6.6-rc1: root 2 is eligible and becomes best, but its subtree's least deadline (7's)
        // is not on its left, so the walk goes right: 4 is not eligible (left to 3), 3 is
        // later than 2 and has no children. Task 1, on the left, is never seen.
        let (mut p, se) = v1_queue(true);
        assert_eq!(p.rb.root(0), Some(2));
        assert_eq!(p.pick(&se, 0, None), Some(2), "6.6-rc1: the walk's best");
        assert!(!p.check_preempt_wakeup(&mut se.clone(), 0, 8, 1, false), "6.6-rc1: the wakee is not picked");
    }

    #[test]
    fn update_curr_renews_the_deadline_in_every_call_and_reschedules_only_with_company() {
        let mut p = Eevdf::new(&cfg(Kernel::V66, ""));
        let mut se = nice0(2);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let t = p.pick_next(&mut se, 0, 0).unwrap();
        let slice = p.base_slice;
        // Alone: the deadline is renewed but nothing to reschedule (nr_running == 1).
        let d0 = se[t].deadline;
        p.update_curr(&mut se, 0, t, slice);
        assert_eq!(se[t].deadline, d0 + slice, "renewed by a plain update_curr");
        assert!(!p.take_resched(0));
        // Company: the next renewal reschedules; short of the deadline, no reschedule.
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        p.update_curr(&mut se, 0, t, slice / 2);
        assert!(!p.take_resched(0), "half way to the deadline");
        p.update_curr(&mut se, 0, t, slice / 2);
        assert!(p.take_resched(0), "deadline reached");
    }

    #[test]
    fn run_to_parity_keeps_curr_until_its_deadline_moves_and_can_be_switched_off() {
        // Two tasks; curr is eligible and has its picked deadline; a woken task with an
        // earlier deadline preempts only without RUN_TO_PARITY.
        for (features, preempts) in [("", false), ("NO_RUN_TO_PARITY", true)] {
            let mut p = Eevdf::new(&cfg(Kernel::V66, features));
            let mut se = nice0(3);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            p.enqueue(&mut se, 0, 1, Arrival::New, 0);
            let curr = p.pick_next(&mut se, 0, 0).unwrap();
            let other = 1 - curr;
            // curr runs a little, stays at or behind V (eligible): move the other ahead.
            se[other].vruntime += 100 * US;
            p.rekey(&se, 0); // a queued task moved: back to its place in the tree
            p.update_curr(&mut se, 0, curr, 10 * US);
            // A wakee placed with a deadline earlier than curr's (positive lag).
            se[2].vlag = 50_000;
            p.enqueue(&mut se, 0, 2, Arrival::Wakeup { from: 0 }, 0);
            assert!(se[2].deadline < se[curr].deadline);
            assert_eq!(p.check_preempt_wakeup(&mut se, 0, curr, 2, false), preempts, "features '{features}'");
        }
    }

    #[test]
    fn run_to_parity_ends_when_the_deadline_is_renewed() {
        let mut p = Eevdf::new(&cfg(Kernel::V66, ""));
        let mut se = nice0(2);
        se[1].weight = crate::engine::policy::PRIO_TO_WEIGHT[10]; // nice -10: a short vslice
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        // Alone, curr renews its deadline without a reschedule: the stash no longer matches.
        p.update_curr(&mut se, 0, curr, p.base_slice + 10 * US);
        assert!(!p.take_resched(0));
        assert_ne!(se[curr].deadline, p.rqs[0].picked_deadline);
        // A heavy wakee placed at V (curr stays eligible) with an earlier deadline: with
        // the stash gone, RUN_TO_PARITY no longer protects curr.
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        assert!(se[curr].vruntime <= p.avg_vruntime(&se, 0), "curr still eligible");
        assert!(se[1].deadline < se[curr].deadline);
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 1, false));
    }

    #[test]
    fn place_lag_scales_by_load_and_can_be_switched_off() {
        // Two queued nice-0 tasks at the same vruntime (W = 2048); a wakee with lag L is
        // placed at V - L * (W + w) / W = V - 1.5 L; without PLACE_LAG at V.
        for (features, want) in [("", 15_000i64), ("NO_PLACE_LAG", 0)] {
            let mut p = Eevdf::new(&cfg(Kernel::V66, features));
            let mut se = nice0(3);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            p.enqueue(&mut se, 0, 1, Arrival::New, 0);
            let v = p.avg_vruntime(&se, 0);
            se[2].vlag = 10_000;
            p.enqueue(&mut se, 0, 2, Arrival::Wakeup { from: 0 }, 0);
            assert_eq!(v as i64 - se[2].vruntime as i64, want, "features '{features}'");
            assert_eq!(se[2].deadline - se[2].vruntime, p.base_slice);
        }
    }

    #[test]
    fn lag_clamp_is_two_slices_or_a_tick() {
        let mut p = Eevdf::new(&cfg(Kernel::V66, ""));
        let mut se = nice0(2);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        se[1].vruntime += 100 * p.tick_nsec;
        p.rekey(&se, 0); // a queued task moved: back to its place in the tree
        p.dequeue(&mut se, 0, 1, 0);
        let limit = (2 * p.base_slice).max(p.tick_nsec) as i64;
        assert_eq!(se[1].vlag, -limit);
    }

    #[test]
    fn place_deadline_initial_half_slice_in_6_12_and_switchable_overwritten_in_6_6() {
        for (k, features, half) in [
            (Kernel::V612, "", true),
            (Kernel::V612, "NO_PLACE_DEADLINE_INITIAL", false),
            // 6.6.0: wake_up_new_task's enqueue re-places the child without ENQUEUE_INITIAL.
            (Kernel::V66, "", false),
        ] {
            let mut p = Eevdf::new(&cfg(k, features));
            let mut se = nice0(1);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            let want = if half { p.base_slice / 2 } else { p.base_slice };
            assert_eq!(se[0].deadline - se[0].vruntime, want, "{} '{features}'", k.name());
        }
    }

    #[test]
    fn hrtick_delta_is_slice_minus_ran_since_pick_and_goes_negative() {
        let mut p = Eevdf::new(&cfg(Kernel::V66, ""));
        let mut se = nice0(2);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        let t = p.pick_next(&mut se, 0, 0).unwrap();
        assert_eq!(p.hrtick_delta(&se, 0, t), None, "h_nr_running == 1");
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        let slice = p.base_slice as i64;
        assert_eq!(p.hrtick_delta(&se, 0, t), Some(slice));
        p.update_curr(&mut se, 0, t, 2 * p.base_slice);
        assert_eq!(p.hrtick_delta(&se, 0, t), Some(-slice), "used up: the kernel reschedules");
        assert_eq!(p.slice_left(&se, 0, t), Some(0));
    }

    #[test]
    fn preempt_short_reschedules_an_ineligible_curr_that_lost_parity_in_6_12_only() {
        for (k, features, want) in
            [(Kernel::V612, "", true), (Kernel::V612, "NO_PREEMPT_SHORT", false), (Kernel::V66, "", false)]
        {
            let mut p = Eevdf::new(&cfg(k, features));
            let mut se = nice0(2);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            let t = p.pick_next(&mut se, 0, 0).unwrap();
            // Alone past its deadline: renewed, no reschedule, parity lost.
            p.update_curr(&mut se, 0, t, p.base_slice);
            assert!(!p.take_resched(0));
            // Another task at V; curr runs on and falls behind V's eligibility.
            p.enqueue(&mut se, 0, 1, Arrival::New, 0);
            p.update_curr(&mut se, 0, t, 10 * US);
            assert_eq!(p.take_resched(0), want, "{} '{features}'", k.name());
        }
    }

    #[test]
    fn place_rel_deadline_keeps_a_migrated_tasks_deadline_relative_in_6_12() {
        for (k, features, keep) in
            [(Kernel::V612, "", true), (Kernel::V612, "NO_PLACE_REL_DEADLINE", false), (Kernel::V66, "", false)]
        {
            let mut c = cfg(k, features);
            c.cores = 2;
            let mut p = Eevdf::new(&c);
            let mut se = nice0(2);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            p.enqueue(&mut se, 0, 1, Arrival::New, 0);
            se[1].deadline = se[1].vruntime + 123;
            p.rekey(&se, 0); // a queued task moved: back to its place in the tree
            assert!(p.dequeue(&mut se, 0, 1, 0));
            p.enqueue(&mut se, 1, 1, Arrival::Migrated { from: 0 }, 0);
            let rel = se[1].deadline - se[1].vruntime;
            assert_eq!(rel == 123, keep, "{} '{features}': {rel}", k.name());
        }
    }

    #[test]
    fn delay_dequeue_keeps_an_ineligible_sleeper_queued_until_it_is_picked() {
        for (features, delays) in [("", true), ("NO_DELAY_DEQUEUE", false)] {
            let mut p = Eevdf::new(&cfg(Kernel::V612, features));
            let mut se = nice0(2);
            p.enqueue(&mut se, 0, 0, Arrival::New, 0);
            p.enqueue(&mut se, 0, 1, Arrival::New, 0);
            let t = p.pick_next(&mut se, 0, 0).unwrap();
            let other = 1 - t;
            // curr runs ahead of V (ineligible) and sleeps.
            p.update_curr(&mut se, 0, t, 4 * p.base_slice);
            assert!(se[t].vruntime > p.avg_vruntime(&se, 0));
            p.block_curr(&mut se, 0, t, 0);
            assert_eq!(p.delayed(t), delays, "'{features}'");
            assert_eq!(p.queued(0).contains(t), delays, "'{features}': still on the runqueue");
            // The other task is picked; when it leaves, the delayed task is the only
            // candidate: the pick dequeues it and finds nothing to run.
            assert_eq!(p.pick_next(&mut se, 0, 0), Some(other));
            p.dequeue_curr(&mut se, 0, other, 0);
            assert_eq!(p.pick_next(&mut se, 0, 0), None, "'{features}': nothing runnable");
            assert!(!p.delayed(t) && p.queued(0).is_empty());
            if delays {
                // Alone on the queue it was at V: its lag was spent while delayed.
                assert_eq!(se[t].vlag, 0);
            } else {
                assert!(se[t].vlag < 0, "the lag saved when it slept");
            }
        }
    }

    #[test]
    fn a_delayed_task_woken_with_positive_lag_is_placed_again_at_zero_lag() {
        let mut p = Eevdf::new(&cfg(Kernel::V612, ""));
        let mut se = nice0(2);
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        let t = p.pick_next(&mut se, 0, 0).unwrap();
        let other = 1 - t;
        p.update_curr(&mut se, 0, t, 2 * p.base_slice);
        p.block_curr(&mut se, 0, t, 0);
        assert!(p.delayed(t));
        // The other task runs far past it: the sleeper's lag turns positive while delayed.
        assert_eq!(p.pick_next(&mut se, 0, 0), Some(other));
        p.update_curr(&mut se, 0, other, 8 * p.base_slice);
        p.put_prev(&mut se, 0, other, 0);
        // V over the queue less the delayed task: the other task's vruntime.
        let v_without = se[other].vruntime;
        p.enqueue(&mut se, 0, t, Arrival::Wakeup { from: 0 }, 0);
        assert!(!p.delayed(t));
        assert_eq!(se[t].vruntime, v_without, "requeue_delayed_entity: placed at V, lag 0");
        assert_eq!(se[t].deadline - se[t].vruntime, p.base_slice);
    }

    #[test]
    fn a_custom_slice_sets_the_deadline_and_the_hrtick_in_6_12_only() {
        for (k, custom) in [(Kernel::V612, true), (Kernel::V66, false)] {
            let mut p = Eevdf::new(&cfg(k, ""));
            let mut se = nice0(2);
            se[0].custom_slice = crate::engine::policy::custom_slice(300 * US);
            p.enqueue(&mut se, 0, 0, Arrival::Wakeup { from: 0 }, 0);
            p.enqueue(&mut se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
            let want = if custom { 300 * US } else { p.base_slice };
            assert_eq!(se[0].deadline - se[0].vruntime, want, "{}", k.name());
            assert_eq!(se[1].deadline - se[1].vruntime, p.base_slice);
            if custom {
                // The short-slice task is picked first (the earlier deadline).
                assert_eq!(p.pick_next(&mut se, 0, 0), Some(0));
                assert_eq!(p.hrtick_delta(&se, 0, 0), Some(300_000), "se->slice - ran");
            }
        }
        assert_eq!(crate::engine::policy::custom_slice(10 * US), 100 * US, "clamped to 0.1 ms");
        assert_eq!(crate::engine::policy::custom_slice(SEC), 100_000 * US, "clamped to 100 ms");
        assert_eq!(crate::engine::policy::custom_slice(0), 0, "none: the base slice");
    }

    #[test]
    fn preempt_short_lets_a_short_slice_wakee_past_run_to_parity() {
        // curr (base slice) was just picked: RUN_TO_PARITY protects it. A wakee with a
        // shorter custom slice, eligible, with an earlier deadline, preempts in 6.12;
        // with NO_PREEMPT_SHORT (or the same slice) the protection holds.
        for (features, slice, preempts) in [("", 200 * US, true), ("NO_PREEMPT_SHORT", 200 * US, false), ("", 0, false)]
        {
            let mut p = Eevdf::new(&cfg(Kernel::V612, features));
            let mut se = nice0(3);
            p.enqueue(&mut se, 0, 0, Arrival::Wakeup { from: 0 }, 0);
            p.enqueue(&mut se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
            let curr = p.pick_next(&mut se, 0, 0).unwrap();
            se[1 - curr].vruntime += 100 * US;
            p.rekey(&se, 0); // a queued task moved: back to its place in the tree
            p.update_curr(&mut se, 0, curr, 10 * US);
            assert!(se[curr].vruntime <= p.avg_vruntime(&se, 0), "curr still eligible");
            se[2].custom_slice = slice;
            se[2].vlag = 20_000;
            p.enqueue(&mut se, 0, 2, Arrival::Wakeup { from: 0 }, 0);
            let shorter = if slice > 0 { se[2].deadline < se[curr].deadline } else { true };
            assert!(shorter, "the wakee's deadline is earlier");
            assert_eq!(p.check_preempt_wakeup(&mut se, 0, curr, 2, false), preempts, "'{features}' slice {slice}");
        }
    }

    #[test]
    fn a_wakeup_while_a_reschedule_is_pending_neither_preempts_nor_cancels_parity() {
        // 6.6/6.12 check_preempt_wakeup_fair returns at `test_tsk_need_resched(curr)` before
        // anything else: the short-slice wakee that preempts above (6.12, PREEMPT_SHORT)
        // neither preempts again nor cancels curr's RUN_TO_PARITY protection.
        let mut p = Eevdf::new(&cfg(Kernel::V612, ""));
        let mut se = nice0(3);
        p.enqueue(&mut se, 0, 0, Arrival::Wakeup { from: 0 }, 0);
        p.enqueue(&mut se, 0, 1, Arrival::Wakeup { from: 0 }, 0);
        let curr = p.pick_next(&mut se, 0, 0).unwrap();
        se[1 - curr].vruntime += 100 * US;
        p.rekey(&se, 0);
        p.update_curr(&mut se, 0, curr, 10 * US);
        se[2].custom_slice = 200 * US;
        se[2].vlag = 20_000;
        p.enqueue(&mut se, 0, 2, Arrival::Wakeup { from: 0 }, 0);
        assert_eq!(p.rqs[0].picked_deadline, se[curr].deadline, "curr protected");
        assert!(!p.check_preempt_wakeup(&mut se, 0, curr, 2, true), "a reschedule is already pending");
        assert_eq!(p.rqs[0].picked_deadline, se[curr].deadline, "the protection stays");
    }
}

/// Issue 30: the tree and the incremental V against the scans they replaced, written out
/// here as they were, over random enqueue / dequeue / pick / run / sleep sequences.
#[cfg(test)]
mod equivalence {
    use super::*;
    use crate::engine::kernel::Kernel;
    use crate::engine::policy::PRIO_TO_WEIGHT;
    use crate::engine::time::US;
    use rand::{Rng, SeedableRng};

    /// V before issue 30: a scan of curr and the queue relative to the last V, rounded down.
    fn scan_v(se: &[SchedEntity], queue: &[usize], curr: Option<usize>, last_v: u64) -> u64 {
        let (mut num, mut den) = (0i128, 0i128);
        for t in queue.iter().copied().chain(curr) {
            num += (se[t].vruntime as i128 - last_v as i128) * se[t].weight as i128;
            den += se[t].weight as i128;
        }
        if den > 0 {
            (last_v as i128 + num.div_euclid(den)) as u64
        } else {
            last_v
        }
    }

    /// pick_eevdf before issue 30: the earliest eligible deadline by a scan, else the least vruntime.
    fn scan_pick(se: &[SchedEntity], queue: &[usize], curr: Option<usize>, v: u64) -> Option<usize> {
        let cands = queue.iter().copied().chain(curr);
        let best = cands.clone().filter(|&t| se[t].vruntime <= v).min_by_key(|&t| (se[t].deadline, t));
        best.or_else(|| cands.min_by_key(|&t| (se[t].vruntime, t)))
    }

    fn check(p: &mut Eevdf, se: &[SchedEntity], c: usize) {
        let queue = p.queued(c).to_vec();
        let curr = p.rqs[c].curr;
        let want_v = scan_v(se, &queue, curr, p.rqs[c].last_v);
        assert_eq!(p.avg_vruntime(se, c), want_v, "V");
        let load: u64 = queue.iter().copied().chain(curr).map(|t| se[t].weight).sum();
        assert_eq!(p.load(se, c), load);
        // The tree holds the queue, in (deadline, task) order.
        let mut by_key = queue.clone();
        by_key.sort_by_key(|&t| (se[t].deadline, t));
        assert_eq!(p.timeline.in_order(c), by_key);
        assert_eq!(p.pick(se, c, None), scan_pick(se, &queue, None, want_v), "pick, curr out");
        if let Some(k) = curr {
            let parity = p.run_to_parity && se[k].vruntime <= want_v && se[k].deadline == p.rqs[c].picked_deadline;
            let want = if parity { Some(k) } else { scan_pick(se, &queue, Some(k), want_v) };
            assert_eq!(p.pick(se, c, Some(k)), want, "pick, curr in");
        }
    }

    fn run(kernel: Kernel, features: &str, seed: u64, tasks: usize, steps: usize) -> usize {
        let mut cfg = Config { cores: 2, ..Config::default() };
        cfg.set("kernel", kernel.name()).unwrap();
        cfg.set("features", features).unwrap();
        let mut p = Eevdf::new(&cfg);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut se = vec![SchedEntity { weight: 1024, ..Default::default() }; tasks];
        // Where each task is: None asleep (or never started), Some(core) queued or running there.
        let mut on: Vec<Option<usize>> = vec![None; tasks];
        let mut last_core = vec![0usize; tasks];
        let mut picks = 0;
        for _ in 0..steps {
            let c = rng.gen_range(0..2usize);
            let r = rng.gen_range(0..100);
            if r < 40 {
                // A wakeup (or a delayed task's requeue), curr charged first (`sim::wakeup`).
                let t = rng.gen_range(0..tasks);
                if on[t].is_some() && !p.delayed(t) {
                    continue;
                }
                let c = if p.delayed(t) { last_core[t] } else { c };
                if !p.delayed(t) {
                    // Weights and slices change only off the queue; few values, many ties.
                    se[t].weight = [1024, 1024, 1024, PRIO_TO_WEIGHT[19], PRIO_TO_WEIGHT[25]][rng.gen_range(0..5)];
                    se[t].custom_slice = [0, 0, 300 * US][rng.gen_range(0..3)];
                }
                if let Some(k) = p.rqs[c].curr {
                    p.update_curr(&mut se, c, k, rng.gen_range(0..20) * 50 * US);
                }
                let how = if se[t].started { Arrival::Wakeup { from: last_core[t] } } else { Arrival::New };
                p.enqueue(&mut se, c, t, how, 0);
                on[t] = Some(c);
                last_core[t] = c;
                if let Some(k) = p.rqs[c].curr {
                    check(&mut p, &se, c);
                    if p.check_preempt_wakeup(&mut se, c, k, t, false) {
                        p.put_prev(&mut se, c, k, 0);
                    }
                }
            } else if r < 50 {
                // The load balancer moves a queued, not delayed task to the other core.
                let queued: Vec<usize> = p.queued(c).iter().filter(|&t| !p.delayed(t)).collect();
                if queued.is_empty() {
                    continue;
                }
                let t = queued[rng.gen_range(0..queued.len())];
                assert!(p.dequeue(&mut se, c, t, 0));
                p.enqueue(&mut se, 1 - c, t, Arrival::Migrated { from: c }, 0);
                on[t] = Some(1 - c);
                last_core[t] = 1 - c;
            } else if let Some(k) = p.rqs[c].curr {
                p.update_curr(&mut se, c, k, rng.gen_range(0..30) * 50 * US);
                p.take_resched(c);
                match rng.gen_range(0..4) {
                    0 => {}
                    1 => p.put_prev(&mut se, c, k, 0),
                    2 => {
                        p.block_curr(&mut se, c, k, 0);
                        on[k] = None;
                    }
                    _ => {
                        p.dequeue_curr(&mut se, c, k, 0);
                        on[k] = None;
                    }
                }
            } else if let Some(t) = p.pick_next(&mut se, c, 0) {
                picks += 1;
                on[t] = Some(c);
                last_core[t] = c;
            }
            for c in 0..2 {
                check(&mut p, &se, c);
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
    fn the_tree_picks_what_the_scan_picked_in_6_6_and_6_12() {
        for seed in 0..6 {
            for (k, features) in [(Kernel::V66, ""), (Kernel::V66, "NO_RUN_TO_PARITY,NO_PLACE_LAG"), (Kernel::V612, "")]
            {
                let picks = run(k, features, seed, 40, 3_000);
                assert!(picks > 300, "{} '{features}' seed {seed}: {picks} picks", k.name());
            }
        }
    }

    /// 16,384 tasks on one core: a pick, an enqueue and a dequeue examine O(log n) tree
    /// nodes (`Timeline::visits`), where the scans examined every task.
    #[test]
    fn picks_and_enqueues_examine_log_n_nodes_at_16384_tasks() {
        let n = 16_384;
        let mut p = Eevdf::new(&Config { cores: 1, ..Config::default() });
        let mut se = vec![SchedEntity { weight: 1024, ..Default::default() }; n];
        for t in 0..n {
            p.enqueue(&mut se, 0, t, Arrival::New, 0);
        }
        p.timeline.take_visits();
        let bound = 8 * (n as f64).log2() as u64;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..2_000 {
            let t = p.pick_next(&mut se, 0, 0).unwrap();
            let pick = p.timeline.take_visits();
            p.update_curr(&mut se, 0, t, rng.gen_range(1..40) * 50 * US);
            p.put_prev(&mut se, 0, t, 0);
            let enqueue = p.timeline.take_visits();
            assert!(pick > 0 && pick <= bound, "pick examined {pick} nodes (bound {bound})");
            assert!(enqueue > 0 && enqueue <= bound, "put_prev examined {enqueue} nodes (bound {bound})");
        }
        assert_eq!(p.queued(0).len(), n);
    }
}
