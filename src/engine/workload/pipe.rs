//! pipe ping-pong, like `perf bench sched pipe`: two tasks, two pipes, `loops` round trips.
//!
//! Task A: {write p1; read p2} x loops. Task B: {read p1; write p2} x loops. Exactly one
//! task is runnable at a time; each write wakes the reader synchronously (WF_SYNC). Each
//! read and write is a system call: the profile's entry/exit cost plus the pipe work
//! (copying 1 byte, waking the other side: ~0.5 us on the 2007 reference, an estimate in
//! line with `perf bench sched pipe` figures of about 2-5 us per same-CPU round trip).
//! Result: microseconds per round trip (lower is better); elapsed is the whole run.

use super::{Costs, Fx, Result, Step, TaskSpec, Workload};
use crate::engine::time::Ns;

/// Kernel work of one pipe read or write on the reference machine.
pub(crate) const PIPE_OP_REF: Ns = 500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Write,
    AfterWrite,
    Read,
    AfterRead,
    Done,
}

pub struct Pipe {
    loops: u64,
    done_loops: u64,
    costs: Costs,
    /// Bytes waiting in p1 (A -> B) and p2 (B -> A).
    data: [u64; 2],
    /// Whether A / B is blocked in read.
    waiting: [bool; 2],
    phase: [Phase; 2],
}

impl Pipe {
    pub fn new(loops: u64, costs: Costs) -> Self {
        Pipe { loops, done_loops: 0, costs, data: [0; 2], waiting: [false; 2], phase: [Phase::Write, Phase::Read] }
    }
}

impl Workload for Pipe {
    fn tasks(&mut self) -> Vec<TaskSpec> {
        ["pipe-A", "pipe-B"]
            .iter()
            .enumerate()
            .map(|(i, n)| TaskSpec {
                name: n.to_string(),
                group: n.to_string(),
                ws_bytes: 16 << 10, // a small loop: stack, pipe buffers, libc
                touch_bytes_per_us: 16 << 10,
                nice: 0,
                core: i,
            })
            .collect()
    }

    fn next(&mut self, task: usize, _now: Ns, fx: &mut Fx) -> Step {
        // A (0) writes p1 (0) and reads p2 (1); B (1) writes p2 (1) and reads p1 (0).
        let (wpipe, rpipe, other) = if task == 0 { (0, 1, 1) } else { (1, 0, 0) };
        loop {
            match self.phase[task] {
                Phase::Done => return Step::Exit,
                Phase::Write => {
                    self.phase[task] = Phase::AfterWrite;
                    return Step::Run { ns: self.costs.syscall(PIPE_OP_REF), sys: true };
                }
                Phase::AfterWrite => {
                    self.data[wpipe] += 1;
                    if self.waiting[other] {
                        self.waiting[other] = false;
                        fx.wakes.push((other, true));
                    }
                    self.phase[task] =
                        if task == 1 && self.done_loops >= self.loops { Phase::Done } else { Phase::Read };
                }
                Phase::Read => {
                    if self.data[rpipe] > 0 {
                        self.data[rpipe] -= 1;
                        self.phase[task] = Phase::AfterRead;
                        return Step::Run { ns: self.costs.syscall(PIPE_OP_REF), sys: true };
                    }
                    self.waiting[task] = true;
                    return Step::Block;
                }
                Phase::AfterRead => {
                    if task == 0 {
                        self.done_loops += 1;
                        self.phase[0] = if self.done_loops >= self.loops { Phase::Done } else { Phase::Write };
                    } else {
                        self.phase[1] = Phase::Write;
                    }
                }
            }
        }
    }

    fn done(&self) -> bool {
        self.done_loops >= self.loops
    }

    fn result(&self, elapsed: Ns) -> Result {
        let per = if self.done_loops == 0 { 0.0 } else { elapsed as f64 / self.done_loops as f64 / 1000.0 };
        Result { value: per, unit: "us/round trip", higher_is_better: false }
    }
}
