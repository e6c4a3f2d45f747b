//! EEVDF (Linux 6.6+): lag, eligibility, virtual deadlines, RUN_TO_PARITY.
//!
//! Follows kernel/sched/fair.c as summarised in kernel-mechanisms.md: `V` is the
//! load-weighted mean vruntime of the runnable tasks (curr included); a task is eligible
//! when `V >= v_i`; the pick is the eligible task with the earliest virtual deadline
//! `deadline = vruntime + base_slice * NICE_0 / w`; a task that reaches its deadline gets a
//! new one and the core reschedules; a dequeued task saves its lag `V - v` (clamped to
//! one slice either way) and is placed at `V - lag` when it wakes; RUN_TO_PARITY lets the
//! current task run on while it is still eligible (up to its 0-lag point), so wakeups do
//! not preempt it before then. `min_granularity` is `base_slice` (scaled like the kernel).
//! Simplified: V is computed by a scan of the (small) runqueue, not kept incrementally;
//! no lag scaling by the number of tasks (PLACE_LAG's `(load + w) / load` factor).

use super::{calc_delta_fair, remove, Arrival, Policy, SchedEntity, VRUNTIME_BASE};
use crate::engine::config::Config;
use crate::engine::kernel::Feat;
use crate::engine::time::Ns;

#[derive(Clone, Debug, Default)]
struct Rq {
    queue: Vec<usize>,
    curr: Option<usize>,
    /// Last computed V, kept for placing tasks on an empty queue.
    last_v: u64,
}

pub struct Eevdf {
    rqs: Vec<Rq>,
    base_slice: Ns,
    wakeup_preempt: bool,
}

impl Eevdf {
    pub fn new(cfg: &Config) -> Self {
        Eevdf {
            rqs: vec![Rq { last_v: VRUNTIME_BASE, ..Rq::default() }; cfg.cores as usize],
            base_slice: (cfg.min_granularity * cfg.granularity_factor()).max(1),
            wakeup_preempt: cfg.feats().has(Feat::WakeupPreempt),
        }
    }

    /// avg_vruntime: V over curr + queued (weighted mean).
    fn avg_vruntime(&mut self, se: &[SchedEntity], c: usize) -> u64 {
        let rq = &mut self.rqs[c];
        let base = rq.last_v;
        let (mut num, mut den) = (0i128, 0i128);
        for t in rq.queue.iter().copied().chain(rq.curr) {
            num += (se[t].vruntime as i128 - base as i128) * se[t].weight as i128;
            den += se[t].weight as i128;
        }
        if den > 0 {
            rq.last_v = (base as i128 + num.div_euclid(den)) as u64;
        }
        rq.last_v
    }

    fn vslice(&self, w: u64) -> u64 {
        calc_delta_fair(self.base_slice, w)
    }

    fn pick(&mut self, se: &[SchedEntity], c: usize, include_curr: bool) -> Option<usize> {
        let v = self.avg_vruntime(se, c);
        let rq = &self.rqs[c];
        let cands = rq.queue.iter().copied().chain(if include_curr { rq.curr } else { None });
        let best = cands.clone().filter(|&t| se[t].vruntime <= v).min_by_key(|&t| (se[t].deadline, t));
        // Never nothing: if no task is eligible by rounding, take the smallest vruntime.
        best.or_else(|| cands.min_by_key(|&t| (se[t].vruntime, t)))
    }
}

impl Policy for Eevdf {
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, _now: Ns) {
        let v = self.avg_vruntime(se, c);
        let vs = self.vslice(se[task].weight);
        match how {
            Arrival::New => {
                se[task].vruntime = v;
                se[task].deadline = v + vs / 2; // PLACE_DEADLINE_INITIAL
            }
            Arrival::Wakeup { .. } | Arrival::Migrated { .. } => {
                let lag = se[task].vlag;
                se[task].vruntime = (v as i128 - lag as i128).max(0) as u64;
                se[task].deadline = se[task].vruntime + vs;
            }
        }
        se[task].started = true;
        self.rqs[c].queue.push(task);
    }

    fn dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) -> bool {
        let v = self.avg_vruntime(se, c);
        if remove(&mut self.rqs[c].queue, task) {
            let limit = self.vslice(se[task].weight) as i64;
            se[task].vlag = (v as i64).wrapping_sub(se[task].vruntime as i64).clamp(-limit, limit);
            true
        } else {
            false
        }
    }

    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, _now: Ns) -> Option<usize> {
        let t = self.pick(se, c, false)?;
        remove(&mut self.rqs[c].queue, t);
        self.rqs[c].curr = Some(t);
        se[t].prev_sum_exec = se[t].sum_exec;
        Some(t)
    }

    fn put_prev(&mut self, _se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        let rq = &mut self.rqs[c];
        debug_assert_eq!(rq.curr, Some(task));
        rq.curr = None;
        rq.queue.push(task);
    }

    fn dequeue_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        let v = self.avg_vruntime(se, c);
        let limit = self.vslice(se[task].weight) as i64;
        se[task].vlag = (v as i64).wrapping_sub(se[task].vruntime as i64).clamp(-limit, limit);
        self.rqs[c].curr = None;
    }

    fn update_curr(&mut self, se: &mut [SchedEntity], _c: usize, task: usize, delta: Ns) {
        let s = &mut se[task];
        s.sum_exec += delta;
        s.vruntime += calc_delta_fair(delta, s.weight);
    }

    fn task_tick(&mut self, se: &mut [SchedEntity], c: usize, curr: usize, _now: Ns) -> bool {
        // update_deadline: a task past its deadline gets a new one and the core reschedules.
        if se[curr].vruntime >= se[curr].deadline {
            se[curr].deadline = se[curr].vruntime + self.vslice(se[curr].weight);
            return !self.rqs[c].queue.is_empty();
        }
        false
    }

    fn check_preempt_wakeup(&mut self, se: &mut [SchedEntity], c: usize, curr: usize, woken: usize) -> bool {
        if !self.wakeup_preempt {
            return false;
        }
        let v = self.avg_vruntime(se, c);
        // RUN_TO_PARITY: curr runs on while it is still eligible.
        if se[curr].vruntime < v {
            return false;
        }
        self.pick(se, c, true) == Some(woken)
    }

    fn slice_left(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<Ns> {
        if self.rqs[c].queue.is_empty() {
            return None;
        }
        let left_v = se[curr].deadline.saturating_sub(se[curr].vruntime);
        // Back from virtual to real time for this task's weight.
        Some(((left_v as u128 * se[curr].weight as u128) / super::NICE_0_LOAD as u128) as Ns)
    }

    fn queued(&self, c: usize) -> &[usize] {
        &self.rqs[c].queue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::policy::NICE_0_LOAD;

    #[test]
    fn picks_earliest_deadline_among_eligible_and_rotates() {
        let cfg = Config { cores: 1, policy: crate::engine::config::Policy::Eevdf, ..Config::default() };
        let mut p = Eevdf::new(&cfg);
        let mut se = vec![SchedEntity { weight: NICE_0_LOAD, ..Default::default() }; 3];
        for t in 0..3 {
            p.enqueue(&mut se, 0, t, Arrival::New, 0);
        }
        let mut order = Vec::new();
        for _ in 0..6 {
            let t = p.pick_next(&mut se, 0, 0).unwrap();
            order.push(t);
            // run to the deadline
            let need = se[t].deadline - se[t].vruntime;
            p.update_curr(&mut se, 0, t, need);
            assert!(p.task_tick(&mut se, 0, t, 0));
            p.put_prev(&mut se, 0, t, 0);
        }
        for t in 0..3 {
            assert_eq!(order.iter().filter(|&&x| x == t).count(), 2, "fair rotation {order:?}");
        }
    }
}
