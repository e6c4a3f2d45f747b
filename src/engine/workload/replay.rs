//! Replay of a recorded program: each task's CPU bursts, sleeps and who wakes whom, from a trace.
//!
//! `share::ftrace::replay` derives a `Program` from a `trace-cmd report` / `perf script`
//! text; this workload runs it under whatever config the simulation has, so the policy,
//! tick, idle governor and machine decide the schedule anew. A task's program is a list of
//! `Op`s: run N ns of CPU work (the sum of its recorded runs between two sleeps: time it
//! was preempted is a scheduling outcome, not work, so it is dropped), wake another task
//! at this point of its work, block until a task wakes it, sleep N ns (a wakeup that came
//! from idle, an interrupt or a timer), exit.
//!
//! What a trace cannot tell, and this replay therefore assumes:
//! - Work is exact as on-CPU time on the recorded machine, and is replayed as wall-clock
//!   time (like rt-app budgets): it is not scaled by the profile's speed, and cache
//!   effects that made it longer or shorter there are not separated out.
//! - A wakeup from a task is a dependency (the wakee waits for the waker to reach that
//!   point of its work); a wakeup from idle or interrupt context is a timed sleep of the
//!   recorded length. A timer that fired on a busy CPU is seen as a wakeup by the task
//!   that happened to be running, so it becomes a dependency on that task.
//! - How long a blocked task would have slept had it run elsewhere (an I/O completion,
//!   a lock held by a task outside the trace) is not known: recorded sleep lengths are kept.
//! - Nice values come from `prio` (120 + nice); real-time priorities are not modelled.
//! - Tasks outside the trace (and kernel threads it shows) are replayed like the others.
//! - A task first seen switching in with no wakeup before was forked untraced or was
//!   runnable since the start; the program starts it when it was first seen (a timed sleep).
//!
//! A wakeup that arrives before its wakee has blocked (the waker ran faster in the
//! replay) is kept as a token, as a semaphore would, so no wakeup is lost.

use std::sync::Arc;

use super::{Fx, Result, Step, TaskSpec, Workload};
use crate::engine::time::Ns;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Run(Ns),
    /// Kernel-mode CPU work (a syscall's), run as system time.
    Sys(Ns),
    /// Kernel-mode time spent waiting (cache lines in flight, a spin on a held lock): run
    /// as system time at a lone thread's speed whatever the SMT sibling does (`Fx::stall`).
    /// No trace tells a stall from work; test programs use it.
    Stall(Ns),
    Wake(usize),
    Block,
    Sleep(Ns),
    Exit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayTask {
    pub name: String,
    pub pid: u32,
    pub nice: i32,
    /// CPU the task is first seen on.
    pub cpu: usize,
    pub ops: Vec<Op>,
}

/// A recorded program, shared between runs (`Arc`: replays under many configs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub tasks: Vec<ReplayTask>,
}

pub struct Replay {
    prog: Arc<Program>,
    pc: Vec<usize>,
    blocked: Vec<bool>,
    tokens: Vec<u32>,
    exited: usize,
}

impl Replay {
    pub fn new(prog: Arc<Program>) -> Self {
        let n = prog.tasks.len();
        Replay { prog, pc: vec![0; n], blocked: vec![false; n], tokens: vec![0; n], exited: 0 }
    }

    fn exit(&mut self, task: usize) -> Step {
        if self.pc[task] != usize::MAX {
            self.pc[task] = usize::MAX;
            self.exited += 1;
        }
        Step::Exit
    }
}

impl Workload for Replay {
    fn tasks(&mut self) -> Vec<TaskSpec> {
        self.prog
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| TaskSpec {
                name: t.name.clone(),
                group: t.name.split('-').next().unwrap_or("task").to_string(),
                // Small working sets: the recorded run times already include the machine's cache effects.
                ws_bytes: 16 << 10,
                touch_bytes_per_us: 100,
                nice: t.nice,
                core: t.cpu,
                // SIMPLIFIED: each recorded task its own mm; sched_switch names pids, not
                // thread groups, so threads of one process pay switch_mm here.
                mm: i as u32,
            })
            .collect()
    }

    fn next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step {
        let prog = Arc::clone(&self.prog);
        let ops = &prog.tasks[task].ops;
        loop {
            let Some(op) = ops.get(self.pc[task]) else {
                return self.exit(task);
            };
            self.pc[task] += 1;
            match *op {
                Op::Wake(w) if w < self.blocked.len() => {
                    if std::mem::take(&mut self.blocked[w]) {
                        fx.wakes.push((w, false));
                    } else {
                        self.tokens[w] += 1;
                    }
                }
                Op::Wake(_) => {}
                Op::Run(ns) => return Step::Run { ns: ns.max(1), sys: false },
                Op::Sys(ns) => return Step::Run { ns: ns.max(1), sys: true },
                Op::Stall(ns) => {
                    fx.stall = ns.max(1);
                    return Step::Run { ns: ns.max(1), sys: true };
                }
                Op::Block => {
                    if self.tokens[task] > 0 {
                        self.tokens[task] -= 1;
                        continue;
                    }
                    self.blocked[task] = true;
                    return Step::Block;
                }
                Op::Sleep(ns) => return Step::SleepUntil(now + ns),
                Op::Exit => return self.exit(task),
            }
        }
    }

    fn done(&self) -> bool {
        self.exited >= self.prog.tasks.len()
    }

    fn result(&self, elapsed: Ns) -> Result {
        Result { value: elapsed as f64 / 1e9, unit: "s to replay", higher_is_better: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_early_wakeup_is_kept_and_exit_ends_the_program() {
        let prog = Program {
            tasks: vec![
                ReplayTask {
                    name: "a-1".into(),
                    pid: 1,
                    nice: 0,
                    cpu: 0,
                    ops: vec![Op::Run(10), Op::Wake(1), Op::Exit],
                },
                ReplayTask {
                    name: "b-2".into(),
                    pid: 2,
                    nice: 0,
                    cpu: 1,
                    ops: vec![Op::Run(50), Op::Block, Op::Run(5)],
                },
            ],
        };
        let mut r = Replay::new(Arc::new(prog));
        let mut fx = Fx::default();
        assert_eq!(r.next(0, 0, &mut fx), Step::Run { ns: 10, sys: false });
        assert_eq!(r.next(1, 0, &mut fx), Step::Run { ns: 50, sys: false });
        // a wakes b before b blocked: a token, no wake sent.
        assert_eq!(r.next(0, 10, &mut fx), Step::Exit);
        assert!(fx.wakes.is_empty());
        assert_eq!(r.next(1, 50, &mut fx), Step::Run { ns: 5, sys: false });
        assert!(!r.done());
        assert_eq!(r.next(1, 55, &mut fx), Step::Exit);
        assert!(r.done());
        assert_eq!(r.next(1, 56, &mut fx), Step::Exit);
    }
}
