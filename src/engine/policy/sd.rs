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
//! The queue is ordered by (deadline, arrival) in a `runq::Timeline`, O(log n) per pick.

use super::runq::{Fifo, Timeline};
use super::{Arrival, Policy, Queued, SchedEntity};
use crate::engine::config::Config;
use crate::engine::time::Ns;

#[derive(Clone, Debug, Default)]
struct Rq {
    curr: Option<usize>,
}

pub struct Sd {
    rqs: Vec<Rq>,
    /// Every core's waiting tasks in arrival order.
    fifo: Fifo,
    /// The same tasks by (deadline, arrival number): the earliest deadline first, ties FIFO.
    timeline: Timeline<(u64, u64), ()>,
    /// Arrival numbers (`push` order), the tie breaker.
    seq: u64,
    rr_interval: Ns,
    /// Half a tick: expiry is seen at the tick nearest to the quantum's end.
    half_tick: Ns,
    wakeup_preempt: bool,
}

impl Sd {
    pub fn new(cfg: &Config) -> Self {
        Sd {
            rqs: vec![Rq::default(); cfg.cores as usize],
            fifo: Fifo::new(cfg.cores as usize),
            timeline: Timeline::new(cfg.cores as usize),
            seq: 0,
            rr_interval: cfg.rr_interval,
            half_tick: crate::engine::time::SEC / cfg.hz.max(1) as u64 / 2,
            wakeup_preempt: true,
        }
    }

    fn refill(&self, s: &mut SchedEntity, now: Ns) {
        s.rr_left = self.rr_interval;
        s.deadline = now + self.rr_interval;
    }

    fn push(&mut self, se: &[SchedEntity], c: usize, task: usize) {
        self.seq += 1;
        self.fifo.push(c, task, se[task].weight);
        self.timeline.insert(c, task, (se[task].deadline, self.seq), ());
    }

    fn remove(&mut self, c: usize, task: usize) -> bool {
        self.timeline.remove(c, task);
        self.fifo.remove(c, task)
    }
}

impl Policy for Sd {
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, now: Ns) {
        if how == Arrival::New || se[task].rr_left == 0 {
            self.refill(&mut se[task], now);
        }
        se[task].started = true;
        self.push(se, c, task);
    }

    fn dequeue(&mut self, _se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) -> bool {
        self.remove(c, task)
    }

    #[inline(always)] // into `Sim::pick_loop` through `AnyPolicy::pick_next`
    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, _now: Ns) -> Option<usize> {
        // Earliest deadline; ties by queue position (FIFO), which is round robin.
        let t = self.timeline.first(c)?;
        debug_assert_eq!(self.timeline.entry(t).0 .0, se[t].deadline, "a queued deadline never moves");
        self.remove(c, t);
        self.rqs[c].curr = Some(t);
        se[t].prev_sum_exec = se[t].sum_exec;
        Some(t)
    }

    fn put_prev(&mut self, se: &mut [SchedEntity], c: usize, task: usize, _now: Ns) {
        self.rqs[c].curr = None;
        self.push(se, c, task);
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
        !self.fifo.is_empty(c)
    }

    fn check_preempt_wakeup(
        &mut self,
        se: &mut [SchedEntity],
        _c: usize,
        curr: usize,
        woken: usize,
        _resched: bool,
    ) -> bool {
        self.wakeup_preempt && se[woken].deadline < se[curr].deadline
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

/// Issue 30: the tree's pick against the scan it replaced (earliest deadline, ties in queue order).
#[cfg(test)]
mod equivalence {
    use super::*;
    use crate::engine::time::MS;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_tree_picks_what_the_scan_picked() {
        let cfg = Config { cores: 1, hz: 250, rr_interval: 6 * MS, ..Config::default() };
        for seed in 0..4 {
            let mut p = Sd::new(&cfg);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut se = vec![SchedEntity { weight: 1024, ..Default::default() }; 30];
            let mut queued_or_curr = [false; 30];
            let mut now = 0;
            for _ in 0..4_000 {
                now += rng.gen_range(0..4) * MS;
                let t = rng.gen_range(0..30);
                match (p.rqs[0].curr, rng.gen_range(0..3)) {
                    (_, 0) if !queued_or_curr[t] => {
                        let how = if se[t].started { Arrival::Wakeup { from: 0 } } else { Arrival::New };
                        p.enqueue(&mut se, 0, t, how, now);
                        queued_or_curr[t] = true;
                    }
                    (Some(k), 1) => {
                        p.update_curr(&mut se, 0, k, rng.gen_range(0..4) * MS);
                        p.task_tick(&mut se, 0, k, now);
                        p.put_prev(&mut se, 0, k, now);
                    }
                    (Some(k), _) => {
                        p.dequeue_curr(&mut se, 0, k, now);
                        queued_or_curr[k] = false;
                    }
                    (None, _) => {
                        let queue = p.queued(0).to_vec();
                        let scan = queue.iter().enumerate().min_by_key(|&(i, &t)| (se[t].deadline, i)).map(|(_, &t)| t);
                        assert_eq!(p.pick_next(&mut se, 0, now), scan);
                    }
                }
            }
        }
    }
}
