//! CFS as in 2.6.23 to 6.5: vruntime, `sched_slice`, tick and wakeup preemption, sleeper placement.
//!
//! Follows kernel/sched_fair.c (kernel-mechanisms.md): `update_curr` charges
//! `delta * NICE_0_LOAD / weight`; `check_preempt_tick` reschedules when the task ran
//! longer than its ideal slice, or (after `min_granularity`) when its vruntime leads the
//! leftmost by more than the slice; `place_entity` gives a waking sleeper
//! `max(vruntime, min_vruntime - latency/2)` and a new task `min_vruntime + slice`
//! (START_DEBIT); `check_preempt_wakeup` preempts when curr's vruntime exceeds the
//! woken task's by more than `wakeup_granularity` scaled by the woken task's weight.
//! Simplified: no group scheduling, no buddies (NEXT_BUDDY/LAST_BUDDY), no SCHED_IDLE.
//! The hrtick disables wakeup preemption when both HRTICK and PREEMPT_RESTRICT are on
//! (the late-2007 HRTICK vs PREEMPT_RESTRICT interaction).

#[cfg(test)]
use super::NICE_0_LOAD;
use super::{calc_delta_fair, remove, Arrival, Policy, SchedEntity, VRUNTIME_BASE};
use crate::engine::config::Config;
use crate::engine::kernel::Feat;
use crate::engine::time::Ns;

#[derive(Clone, Debug, Default)]
struct Rq {
    queue: Vec<usize>,
    curr: Option<usize>,
    min_vruntime: u64,
    load: u64,
}

pub struct Cfs {
    rqs: Vec<Rq>,
    latency: Ns,
    min_gran: Ns,
    wakeup_gran: Ns,
    nr_latency: u64,
    wakeup_preempt: bool,
}

impl Cfs {
    pub fn new(cfg: &Config) -> Self {
        let f = cfg.granularity_factor();
        let latency = cfg.sched_latency * f;
        let min_gran = (cfg.min_granularity * f).max(1);
        Cfs {
            rqs: vec![Rq { min_vruntime: VRUNTIME_BASE, ..Rq::default() }; cfg.cores as usize],
            latency,
            min_gran,
            wakeup_gran: cfg.wakeup_granularity * f,
            nr_latency: (latency / min_gran).max(1),
            wakeup_preempt: {
                // sched-devel (Oct 2007): HRTICK could not coexist with PREEMPT_RESTRICT, so
                // with both on, wakeups never preempted (seed-measurements.md, seed 1).
                let fs = cfg.feats();
                fs.has(Feat::WakeupPreempt) && !(fs.has(Feat::Hrtick) && fs.has(Feat::PreemptRestrict))
            },
        }
    }

    fn nr_running(&self, c: usize) -> u64 {
        let rq = &self.rqs[c];
        rq.queue.len() as u64 + rq.curr.is_some() as u64
    }

    /// `sched_slice`: the task's share of the period.
    fn sched_slice(&self, c: usize, weight: u64, extra: u64) -> Ns {
        let nr = self.nr_running(c) + extra;
        let period = if nr > self.nr_latency { nr * self.min_gran } else { self.latency };
        let load = (self.rqs[c].load + extra * weight).max(weight);
        ((period as u128 * weight as u128) / load as u128) as Ns
    }

    fn update_min_vruntime(&mut self, se: &[SchedEntity], c: usize) {
        let rq = &mut self.rqs[c];
        let mut v = rq.curr.map(|t| se[t].vruntime);
        if let Some(left) = rq.queue.iter().map(|&t| se[t].vruntime).min() {
            v = Some(v.map_or(left, |cv| cv.min(left)));
        }
        if let Some(v) = v {
            rq.min_vruntime = rq.min_vruntime.max(v);
        }
    }

    fn leftmost(&self, se: &[SchedEntity], c: usize) -> Option<usize> {
        // Ties go to the task queued first, like an rbtree that inserts equal keys to the right.
        self.rqs[c].queue.iter().copied().min_by_key(|&t| se[t].vruntime)
    }
}

impl Policy for Cfs {
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, _now: Ns) {
        let w = se[task].weight;
        match how {
            Arrival::New => {
                // START_DEBIT: a new task starts one slice behind.
                let slice = self.sched_slice(c, w, 1);
                se[task].vruntime = self.rqs[c].min_vruntime + calc_delta_fair(slice, w);
            }
            Arrival::Wakeup { from } => {
                if from != c {
                    // A sleeper moving rq: renormalise against the new queue's min_vruntime.
                    let v = se[task].vruntime.saturating_sub(self.rqs[from].min_vruntime);
                    se[task].vruntime = v + self.rqs[c].min_vruntime;
                }
                let thresh = self.latency / 2; // GENTLE_FAIR_SLEEPERS
                let floor = self.rqs[c].min_vruntime.saturating_sub(thresh);
                se[task].vruntime = se[task].vruntime.max(floor);
            }
            Arrival::Migrated { from } => {
                let v = se[task].vruntime.saturating_sub(self.rqs[from].min_vruntime);
                se[task].vruntime = v + self.rqs[c].min_vruntime;
            }
        }
        se[task].started = true;
        let rq = &mut self.rqs[c];
        rq.queue.push(task);
        rq.load += w;
    }

    fn dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) -> bool {
        let rq = &mut self.rqs[c];
        if remove(&mut rq.queue, task) {
            rq.load -= se[task].weight;
            true
        } else {
            false
        }
    }

    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, _now: Ns) -> Option<usize> {
        let t = self.leftmost(se, c)?;
        remove(&mut self.rqs[c].queue, t);
        self.rqs[c].curr = Some(t);
        se[t].prev_sum_exec = se[t].sum_exec;
        Some(t)
    }

    fn put_prev(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        let rq = &mut self.rqs[c];
        debug_assert_eq!(rq.curr, Some(task));
        rq.curr = None;
        rq.queue.push(task);
        self.update_min_vruntime(se, c);
    }

    fn dequeue_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        self.update_min_vruntime(se, c);
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
        if self.rqs[c].queue.is_empty() {
            return false;
        }
        // check_preempt_tick
        let ideal = self.sched_slice(c, se[curr].weight, 0);
        let ran = se[curr].sum_exec - se[curr].prev_sum_exec;
        if ran > ideal {
            return true;
        }
        if ran < self.min_gran {
            return false;
        }
        let Some(left) = self.leftmost(se, c) else { return false };
        let lead = se[curr].vruntime.saturating_sub(se[left].vruntime);
        lead > ideal
    }

    fn check_preempt_wakeup(&mut self, se: &mut [SchedEntity], _c: usize, curr: usize, woken: usize) -> bool {
        if !self.wakeup_preempt {
            return false;
        }
        // wakeup_gran(): the granularity in the woken task's virtual time.
        let gran = calc_delta_fair(self.wakeup_gran, se[woken].weight);
        let lead = se[curr].vruntime as i128 - se[woken].vruntime as i128;
        lead > gran as i128
    }

    fn slice_left(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<Ns> {
        if self.rqs[c].queue.is_empty() {
            return None;
        }
        let ideal = self.sched_slice(c, se[curr].weight, 0);
        let ran = se[curr].sum_exec - se[curr].prev_sum_exec;
        Some(ideal.saturating_sub(ran))
    }

    fn queued(&self, c: usize) -> &[usize] {
        &self.rqs[c].queue
    }
}

/// The default weight for a task of nice `nice` (-20..=19).
pub fn weight_of_nice(nice: i32) -> u64 {
    super::PRIO_TO_WEIGHT[(nice.clamp(-20, 19) + 20) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(p.check_preempt_wakeup(&mut se, 0, curr, 1));
    }
}
