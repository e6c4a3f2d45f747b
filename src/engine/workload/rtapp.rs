//! rt-app-style periodic tasks: each task runs `run` of CPU time every `period`.
//!
//! The shape of an rt-app JSON file's `run` + `timer` loop: a task wakes at each
//! activation, runs its budget, and sleeps until the next activation (absolute timer, so
//! late activations do not drift). A period is "met" when the run completes before the
//! next activation. Run times are wall-clock budgets on the simulated machine, as rt-app
//! calibrates them, so they are not scaled by CPU speed. Tasks start at offsets drawn
//! from the workload's random stream. Result: the percentage of periods met.
//! A group's `slice` is each task's `sched_attr.sched_runtime` (`sched_runtime`), as rt-app's
//! `__set_thread_sched_other_attrs` passes `dl-runtime` on SCHED_OTHER; 6.12 honours it.

use super::{Costs, Fx, Parent, Result, Step, TaskSpec, Workload};
use crate::engine::config::PeriodicTask;
use crate::engine::rng::SimRng;
use crate::engine::time::Ns;

struct Task {
    run: Ns,
    /// `sched_attr.sched_runtime`, 0 for none.
    slice: Ns,
    period: Ns,
    /// Start of the current activation.
    activation: Ns,
    running: bool,
}

pub struct Rtapp {
    tasks: Vec<Task>,
    met: u64,
    missed: u64,
}

impl Rtapp {
    pub fn new(groups: &[PeriodicTask], _costs: Costs, mut rng: SimRng) -> Self {
        let mut tasks = Vec::new();
        for g in groups {
            for _ in 0..g.count {
                let offset = rng.range(0, g.period - 1);
                tasks.push(Task { run: g.run, slice: g.slice, period: g.period, activation: offset, running: false });
            }
        }
        Rtapp { tasks, met: 0, missed: 0 }
    }
}

impl Workload for Rtapp {
    /// rt-app's main thread creates every task's thread.
    fn parent(&self, task: usize) -> Option<Parent> {
        let _ = task;
        Some(Parent::Cpu(0))
    }

    fn tasks(&mut self) -> Vec<TaskSpec> {
        self.tasks
            .iter()
            .enumerate()
            .map(|(i, t)| TaskSpec {
                name: format!("rt-app-{i}"),
                group: format!("{}us/{}us", t.run / 1000, t.period / 1000),
                ws_bytes: 256 << 10,
                touch_bytes_per_us: 1_000,
                nice: 0,
                core: i,
                mm: 0, // rt-app runs its tasks as threads of one process
            })
            .collect()
    }

    fn next(&mut self, task: usize, now: Ns, _fx: &mut Fx) -> Step {
        let t = &mut self.tasks[task];
        if t.running {
            // The run just completed.
            t.running = false;
            if now <= t.activation + t.period {
                self.met += 1;
            } else {
                self.missed += 1;
            }
            t.activation += t.period;
            // Skip activations already past, as an absolute timer would fire at once.
            if t.activation + t.period <= now {
                let behind = (now - t.activation) / t.period;
                t.activation += behind * t.period;
            }
        }
        if now < t.activation {
            return Step::SleepUntil(t.activation);
        }
        t.running = true;
        Step::Run { ns: t.run, sys: false }
    }

    fn sched_runtime(&self, task: usize) -> Option<Ns> {
        Some(self.tasks[task].slice).filter(|&s| s > 0)
    }

    fn done(&self) -> bool {
        false
    }

    fn result(&self, _elapsed: Ns) -> Result {
        let total = self.met + self.missed;
        let pct = if total == 0 { 100.0 } else { self.met as f64 * 100.0 / total as f64 };
        Result { value: pct, unit: "% periods met", higher_is_better: true }
    }
}
