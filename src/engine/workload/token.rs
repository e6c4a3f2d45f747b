//! Token passing between pinned threads over pipes, as in Doug Smythies' cpuidle dwell tests.
//!
//! `pairs` pairs of threads; each thread is pinned to its own CPU (`sched_setaffinity` to one
//! CPU: `select_task_rq` in kernel/sched/core.c skips the class's `select_task_rq` when
//! `nr_cpus_allowed == 1`, and `can_migrate_task` in kernel/sched/fair.c refuses a
//! destination outside `p->cpus_ptr`). Thread A of pair p is on CPU 2p, B on CPU 2p+1 (modulo
//! `cores`): different cores, since the engine's cores are physical ones (no SMT).
//! Each pair has two pipes, A->B and B->A, and one token. A thread loops {read its in-pipe
//! (blocking until the token arrives); `work` of computation; write the token to its
//! out-pipe}. A starts holding the token. Each read and write is a system call costed as in
//! `pipe.rs` (the profile's entry/exit plus `PIPE_OP_REF` of pipe work), and the write wakes
//! the blocked reader synchronously (pipe_write -> wake_up_interruptible_sync_poll: WF_SYNC).
//! A read that finds its pipe empty first pays the release's wait, its locked instructions
//! (`pipe::first_wait`; hackbench's module doc: EMPTY READ), then sleeps; the pipe's
//! cache lines are not modelled here (each pipe stays between two pinned CPUs).
//! `work` is CPU time on the simulated machine (like rt-app's run), not reference work.
//!
//! One *loop* is one pass: a token hand-off and the work at the stop it reaches; each pair
//! makes `loops` passes, concurrently. Result: microseconds per loop, the elapsed time over
//! `loops` (lower is better). Smythies' program and its exact loop accounting were not read
//! (validation-corpus.md section 3 only describes it); this is a reading of that description.

use super::pipe::{first_wait, PIPE_OP_REF};
use super::{Costs, Fx, Result, Step, TaskSpec, Workload};
use crate::engine::kernel::Kernel;
use crate::engine::time::Ns;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Read,
    AfterRead,
    Work,
    Write,
    AfterWrite,
}

pub struct Token {
    pairs: usize,
    loops: u64,
    work: Ns,
    /// Passes made by each pair.
    passes: Vec<u64>,
    /// Tokens waiting in each pair's pipes: [A->B, B->A].
    data: Vec<[u64; 2]>,
    /// Whether each thread is blocked in read.
    waiting: Vec<bool>,
    phase: Vec<Phase>,
    /// Which thread of each pair last took the token out of a pipe (for the alternation check).
    last_reader: Vec<Option<usize>>,
    /// Reads that took the token from the thread that did not just hand it over (must stay 0).
    pub out_of_turn: u64,
    /// A pipe read's or write's system call (`PIPE_OP_REF` on this machine) and the
    /// release's pipe wait (`first_wait`), computed once; whether each thread has paid the
    /// wait in its current read.
    op_ns: Ns,
    wait_ns: Ns,
    looked: Vec<bool>,
}

impl Token {
    pub fn new(pairs: usize, loops: u64, work: Ns, kernel: Kernel, costs: Costs) -> Self {
        let pairs = pairs.max(1);
        let phase = (0..2 * pairs).map(|i| if i % 2 == 0 { Phase::Work } else { Phase::Read }).collect();
        Token {
            pairs,
            loops,
            work,
            passes: vec![0; pairs],
            data: vec![[0; 2]; pairs],
            waiting: vec![false; 2 * pairs],
            phase,
            last_reader: vec![None; pairs],
            out_of_turn: 0,
            op_ns: costs.syscall(PIPE_OP_REF),
            wait_ns: first_wait(kernel.pipe_wake(), &costs),
            looked: vec![false; 2 * pairs],
        }
    }

    /// The CPU thread `task` is pinned to (before `% cores`).
    pub fn cpu_of(task: usize) -> usize {
        task
    }

    fn pair_done(&self, p: usize) -> bool {
        self.passes[p] >= self.loops
    }
}

impl Workload for Token {
    fn tasks(&mut self) -> Vec<TaskSpec> {
        (0..2 * self.pairs)
            .map(|i| TaskSpec {
                name: format!("token-{}{}", i / 2, if i % 2 == 0 { 'A' } else { 'B' }),
                group: format!("pair-{}", i / 2),
                ws_bytes: 16 << 10, // a small loop: stack, pipe buffers, libc (as pipe.rs)
                touch_bytes_per_us: 16 << 10,
                nice: 0,
                core: Self::cpu_of(i),
                mm: 0, // threads of one program (the module doc)
            })
            .collect()
    }

    fn pinned(&self, task: usize) -> Option<usize> {
        Some(Self::cpu_of(task))
    }

    fn next(&mut self, task: usize, _now: Ns, fx: &mut Fx) -> Step {
        let (p, side) = (task / 2, task % 2);
        let other = task ^ 1;
        // A (side 0) reads B->A (1) and writes A->B (0); B the reverse.
        let (rpipe, wpipe) = if side == 0 { (1, 0) } else { (0, 1) };
        loop {
            match self.phase[task] {
                Phase::Read => {
                    if self.pair_done(p) {
                        return Step::Exit;
                    }
                    if self.data[p][rpipe] > 0 {
                        self.data[p][rpipe] -= 1;
                        if self.last_reader[p] == Some(task) {
                            self.out_of_turn += 1;
                        }
                        self.last_reader[p] = Some(task);
                        self.looked[task] = false;
                        self.phase[task] = Phase::AfterRead;
                        return Step::Run { ns: self.op_ns, sys: true };
                    }
                    if !std::mem::replace(&mut self.looked[task], true) {
                        return Step::Run { ns: self.wait_ns, sys: true };
                    }
                    self.waiting[task] = true;
                    return Step::Block;
                }
                Phase::AfterRead => self.phase[task] = Phase::Work,
                Phase::Work => {
                    self.phase[task] = Phase::Write;
                    if self.work > 0 {
                        return Step::Run { ns: self.work, sys: false };
                    }
                }
                Phase::Write => {
                    self.phase[task] = Phase::AfterWrite;
                    return Step::Run { ns: self.op_ns, sys: true };
                }
                Phase::AfterWrite => {
                    self.data[p][wpipe] += 1;
                    self.passes[p] += 1;
                    if self.waiting[other] {
                        self.waiting[other] = false;
                        fx.wakes.push((other, true));
                    }
                    if self.pair_done(p) {
                        return Step::Exit;
                    }
                    self.phase[task] = Phase::Read;
                }
            }
        }
    }

    fn done(&self) -> bool {
        (0..self.pairs).all(|p| self.pair_done(p))
    }

    fn result(&self, elapsed: Ns) -> Result {
        let done = self.passes.iter().copied().min().unwrap_or(0);
        let per = if done == 0 { 0.0 } else { elapsed as f64 / done as f64 / 1000.0 };
        Result { value: per, unit: "us/loop", higher_is_better: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn costs() -> Costs {
        Costs { syscall: 100, speed_permille: 1000, ..Costs::new(&crate::engine::profile::PROFILES[0]) }
    }

    /// Drives the state machine without a scheduler: runs every runnable thread's steps,
    /// in thread order, and records who ran each work burst.
    fn drive(t: &mut Token) -> Vec<usize> {
        let n = 2 * t.pairs;
        let mut runnable = vec![true; n];
        let mut exited = vec![false; n];
        let mut works = Vec::new();
        for _ in 0..100_000 {
            if exited.iter().all(|&e| e) {
                break;
            }
            for task in 0..n {
                if !runnable[task] || exited[task] {
                    continue;
                }
                let mut fx = Fx::default();
                match t.next(task, 0, &mut fx) {
                    Step::Run { sys: false, .. } => works.push(task),
                    Step::Run { .. } => {}
                    Step::Block => runnable[task] = false,
                    Step::Exit => exited[task] = true,
                    Step::SleepUntil(_) => unreachable!(),
                }
                for (w, sync) in fx.wakes {
                    assert!(sync, "a pipe write wakes synchronously");
                    runnable[w] = true;
                }
            }
        }
        assert!(exited.iter().all(|&e| e), "every thread exits");
        works
    }

    #[test]
    fn the_token_alternates_strictly_within_each_pair() {
        let mut t = Token::new(2, 50, 1_000, Kernel::V66, costs());
        let works = drive(&mut t);
        assert!(t.done());
        assert_eq!(t.out_of_turn, 0);
        for p in 0..2 {
            let seq: Vec<usize> = works.iter().copied().filter(|&k| k / 2 == p).collect();
            assert_eq!(seq.len(), 50, "one work burst per pass");
            for (i, k) in seq.iter().enumerate() {
                assert_eq!(*k, 2 * p + i % 2, "pair {p}: A, B, A, B ...");
            }
        }
    }

    #[test]
    fn a_read_of_an_empty_pipe_pays_the_release_s_wait_before_it_sleeps() {
        // pipe::pipe_wait_locked: 3.11's `pipe_wait` 4 locked instructions, 6.6's exclusive
        // wait 7, 8 ns of reference work each; then the block (before: 0 ns).
        for (kernel, locked) in [(Kernel::V311, 4), (Kernel::V66, 7)] {
            let mut t = Token::new(1, 5, 0, kernel, costs());
            let mut fx = Fx::default();
            assert_eq!(t.next(1, 0, &mut fx), Step::Run { ns: costs().work(locked * 8), sys: true }, "{kernel:?}");
            assert_eq!(t.next(1, 0, &mut fx), Step::Block, "{kernel:?}");
        }
    }

    #[test]
    fn threads_are_pinned_to_distinct_cpus() {
        let mut t = Token::new(3, 1, 0, Kernel::V66, costs());
        let specs = t.tasks();
        let cpus: Vec<_> = (0..specs.len()).map(|i| t.pinned(i).unwrap()).collect();
        assert_eq!(cpus, (0..6).collect::<Vec<_>>());
        assert!(specs.iter().zip(&cpus).all(|(s, &c)| s.core == c));
    }
}
