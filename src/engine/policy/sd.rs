//! Staircase Deadline / BFS-style round robin with an `rr_interval` quantum.
//!
//! After kernel-mechanisms.md ("rr_interval"): tasks of equal priority run round-robin
//! with a quantum `rr_interval`; each task carries a deadline `now + rr_interval` set when
//! its quantum is refilled; the pick is the earliest deadline. On expiry (detected at the
//! tick nearest to the quantum's end, so accuracy is limited by HZ, as in SD and BFS
//! without dithering) the quantum is
//! refilled, a new deadline set, and the task goes behind the others: a forced switch. A
//! task that slept keeps its remaining quantum and its earlier deadline, so on waking it
//! preempts a task with a later deadline. Simplified: every task has the same priority
//! (the prio ratio is 1); per-core queues with the engine's balancer stand in for BFS's
//! single global queue; the hrtick is not used by this policy (SD predates it).

use super::{remove, Arrival, Policy, SchedEntity};
use crate::engine::config::Config;
use crate::engine::time::Ns;

#[derive(Clone, Debug, Default)]
struct Rq {
    queue: Vec<usize>,
    curr: Option<usize>,
}

pub struct Sd {
    rqs: Vec<Rq>,
    rr_interval: Ns,
    /// Half a tick: expiry is seen at the tick nearest to the quantum's end.
    half_tick: Ns,
    wakeup_preempt: bool,
}

impl Sd {
    pub fn new(cfg: &Config) -> Self {
        Sd {
            rqs: vec![Rq::default(); cfg.cores as usize],
            rr_interval: cfg.rr_interval,
            half_tick: crate::engine::time::SEC / cfg.hz.max(1) as u64 / 2,
            wakeup_preempt: true,
        }
    }

    fn refill(&self, s: &mut SchedEntity, now: Ns) {
        s.rr_left = self.rr_interval;
        s.deadline = now + self.rr_interval;
    }
}

impl Policy for Sd {
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, now: Ns) {
        if how == Arrival::New || se[task].rr_left == 0 {
            self.refill(&mut se[task], now);
        }
        se[task].started = true;
        self.rqs[c].queue.push(task);
    }

    fn dequeue(&mut self, _se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) -> bool {
        remove(&mut self.rqs[c].queue, task)
    }

    #[inline(always)] // into `Sim::pick_loop` through `AnyPolicy::pick_next`
    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, _now: Ns) -> Option<usize> {
        // Earliest deadline; ties by queue position (FIFO), which is round robin.
        let (pos, &t) = self.rqs[c].queue.iter().enumerate().min_by_key(|&(i, &t)| (se[t].deadline, i))?;
        self.rqs[c].queue.remove(pos);
        self.rqs[c].curr = Some(t);
        se[t].prev_sum_exec = se[t].sum_exec;
        Some(t)
    }

    fn put_prev(&mut self, _se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        self.rqs[c].curr = None;
        self.rqs[c].queue.push(task);
    }

    fn dequeue_curr(&mut self, _se: &mut [SchedEntity], c: usize, _task: usize, _now: Ns) {
        self.rqs[c].curr = None;
    }

    fn update_curr(&mut self, se: &mut [SchedEntity], _c: usize, task: usize, delta: Ns) {
        let s = &mut se[task];
        s.sum_exec += delta;
        s.rr_left = s.rr_left.saturating_sub(delta);
    }

    fn task_tick(&mut self, se: &mut [SchedEntity], c: usize, curr: usize, now: Ns) -> bool {
        // The tick sees the quantum as used up when less than half a tick of it is left:
        // without dithering, a quantum is a whole number of ticks (at least one).
        if se[curr].rr_left > self.half_tick {
            return false;
        }
        // Quantum expired: refill, new deadline, and switch if anyone else waits.
        self.refill(&mut se[curr], now);
        !self.rqs[c].queue.is_empty()
    }

    fn check_preempt_wakeup(&mut self, se: &mut [SchedEntity], _c: usize, curr: usize, woken: usize) -> bool {
        self.wakeup_preempt && se[woken].deadline < se[curr].deadline
    }

    fn slice_left(&self, _se: &[SchedEntity], _c: usize, _curr: usize) -> Option<Ns> {
        None
    }

    fn queued(&self, c: usize) -> &[usize] {
        &self.rqs[c].queue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::MS;

    #[test]
    fn quantum_expiry_refills_and_rotates() {
        let cfg = Config { cores: 1, hz: 1000, rr_interval: 2 * MS, ..Config::default() };
        let mut p = Sd::new(&cfg);
        let mut se = vec![SchedEntity { weight: 1024, ..Default::default() }; 2];
        p.enqueue(&mut se, 0, 0, Arrival::New, 0);
        p.enqueue(&mut se, 0, 1, Arrival::New, 0);
        let a = p.pick_next(&mut se, 0, 0).unwrap();
        p.update_curr(&mut se, 0, a, MS);
        assert!(!p.task_tick(&mut se, 0, a, MS));
        p.update_curr(&mut se, 0, a, MS);
        assert!(p.task_tick(&mut se, 0, a, 2 * MS), "expired with another task waiting");
        p.put_prev(&mut se, 0, a, 2 * MS);
        assert_ne!(p.pick_next(&mut se, 0, 2 * MS), Some(a), "the other task runs next");
    }
}
