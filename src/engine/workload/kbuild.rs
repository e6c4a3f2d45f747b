//! make -jN of a small kernel (allnoconfig): job chains of gcc, cc1 and as under one make.
//!
//! The build plan is drawn from the workload's random stream: `FILES` translation units in
//! `DIRS` directories; each compile costs a cc1 time drawn log-uniformly between 20 ms and
//! 400 ms (reference machine), cut into chunks separated by short system calls (reading
//! headers, page faults). A job is: fork+exec gcc (system), the gcc driver (user), exec
//! cc1 (system), cc1 (user), exec as (system), as (user), exit (system), then it wakes
//! make. make runs a serial prologue (reading Makefiles, scripts), starts up to N jobs of a
//! directory, waits for them, links the directory (`ld -r`), and ends with the final
//! link: serial phases are why a 2-CPU build shows ~170% CPU, not 200%. cc1's working set
//! is several MB (kernel-mechanisms.md), so a switch between compiles costs a cache refill.
//! Figures are estimates chosen so the totals resemble the seed build's user/system split
//! (about 54 s user, 5 s system on the reference Core 2); no figure is tuned per preset.
//! Result: the build's elapsed seconds (lower is better).

use std::collections::VecDeque;

use super::{Costs, Fx, Result, Step, TaskSpec, Workload};
use crate::engine::rng::SimRng;
use crate::engine::time::{Ns, MS, SEC};

const FILES: usize = 310;
const DIRS: usize = 30;

#[derive(Clone, Copy, Debug)]
enum Op {
    User(Ns),
    Sys(Ns),
    /// Exec a new program: fresh cache state.
    Exec(Ns),
    /// The job is over: tell make.
    Finish,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MakeState {
    /// Running a scripted serial phase.
    Script,
    /// Starting jobs / waiting for them in directory `dir`.
    Dir,
    Done,
}

pub struct Kbuild {
    jobs: usize,
    costs: Costs,
    /// Per directory: the cc1 times of its files.
    dirs: Vec<Vec<Ns>>,
    dir: usize,
    next_file: usize,
    running: usize,
    finished_in_dir: usize,
    /// Scripts per task (make is task 0, job slots 1..=jobs).
    script: Vec<VecDeque<Op>>,
    free_slots: Vec<usize>,
    make_state: MakeState,
    make_waiting: bool,
    slot_waiting: Vec<bool>,
    rng: SimRng,
    finished: bool,
}

impl Kbuild {
    pub fn new(jobs: usize, costs: Costs, mut rng: SimRng) -> Self {
        let mut dirs = vec![Vec::new(); DIRS];
        for f in 0..FILES {
            // Directories are uneven: a few hold many files (kernel/, mm/, fs/).
            let d = if f % 3 == 0 { rng.range(0, 4) as usize } else { rng.range(0, DIRS as u64 - 1) as usize };
            dirs[d].push(rng.log_uniform(20 * MS, 400 * MS));
        }
        dirs.retain(|d| !d.is_empty());
        let mut script = vec![VecDeque::new(); jobs + 1];
        // Prologue: make parses the Makefiles, runs scripts/ (kconfig, headers).
        script[0].extend([Op::User(1_200 * MS), Op::Sys(150 * MS), Op::User(300 * MS)]);
        Kbuild {
            jobs,
            costs,
            dirs,
            dir: 0,
            next_file: 0,
            running: 0,
            finished_in_dir: 0,
            script,
            free_slots: (1..=jobs).rev().collect(),
            make_state: MakeState::Script,
            make_waiting: false,
            slot_waiting: vec![false; jobs + 1],
            rng,
            finished: false,
        }
    }

    fn job_script(&mut self, cc1: Ns) -> VecDeque<Op> {
        let mut s = VecDeque::new();
        s.push_back(Op::Exec(4 * MS)); // fork + exec gcc, page faults
        s.push_back(Op::User(3 * MS)); // gcc driver
        s.push_back(Op::Exec(3 * MS)); // exec cc1
        let mut left = cc1;
        while left > 0 {
            let chunk = self.rng.log_uniform(2 * MS, 20 * MS).min(left);
            s.push_back(Op::User(chunk));
            left -= chunk;
            if left > 0 {
                s.push_back(Op::Sys(40_000)); // read a header, fault in a page
            }
        }
        s.push_back(Op::Exec(2 * MS)); // exec as
        s.push_back(Op::User(5 * MS)); // assemble
        s.push_back(Op::Sys(MS)); // exit, reaped by make
        s.push_back(Op::Finish);
        s
    }

    fn op_step(&self, op: Op, fx: &mut Fx) -> Step {
        match op {
            Op::User(ns) => Step::Run { ns: self.costs.work(ns), sys: false },
            Op::Sys(ns) => Step::Run { ns: self.costs.syscall(ns), sys: true },
            Op::Exec(ns) => {
                fx.exec = true;
                Step::Run { ns: self.costs.syscall(ns), sys: true }
            }
            Op::Finish => Step::Block,
        }
    }

    fn make_next(&mut self, fx: &mut Fx) -> Step {
        loop {
            if let Some(op) = self.script[0].pop_front() {
                return self.op_step(op, fx);
            }
            match self.make_state {
                MakeState::Done => return Step::Exit,
                MakeState::Script => {
                    if self.dir >= self.dirs.len() {
                        self.make_state = MakeState::Done;
                        self.finished = true;
                        return Step::Exit;
                    }
                    self.make_state = MakeState::Dir;
                }
                MakeState::Dir => {
                    let files = self.dirs[self.dir].len();
                    if self.next_file < files && self.running < self.jobs {
                        let cc1 = self.dirs[self.dir][self.next_file];
                        self.next_file += 1;
                        self.running += 1;
                        let slot = self.free_slots.pop().unwrap_or(1);
                        self.script[slot] = self.job_script(cc1);
                        if self.slot_waiting[slot] {
                            self.slot_waiting[slot] = false;
                            fx.wakes.push((slot, false));
                        }
                        // make's own work to start a job: fork, job server bookkeeping.
                        return Step::Run { ns: self.costs.syscall(300_000), sys: true };
                    }
                    if self.finished_in_dir < files {
                        self.make_waiting = true;
                        return Step::Block;
                    }
                    // Directory done: link it, then the next one (the last gets the final link).
                    self.dir += 1;
                    self.next_file = 0;
                    self.finished_in_dir = 0;
                    self.make_state = MakeState::Script;
                    self.script[0].push_back(Op::User(30 * MS)); // ld -r built-in.o
                    if self.dir == self.dirs.len() {
                        // vmlinux: ld, kallsyms passes, objcopy.
                        self.script[0].extend([Op::User(2_500 * MS), Op::Sys(400 * MS), Op::User(SEC / 2)]);
                    }
                }
            }
        }
    }
}

impl Workload for Kbuild {
    fn tasks(&mut self) -> Vec<TaskSpec> {
        let mut v = vec![TaskSpec {
            name: "make".into(),
            group: "make".into(),
            ws_bytes: 1 << 20,
            touch_bytes_per_us: 50,
            nice: 0,
            core: 0,
        }];
        for j in 1..=self.jobs {
            v.push(TaskSpec {
                name: format!("job{j}"),
                group: "cc1".into(),
                ws_bytes: 2_560 << 10,  // cc1: several MB (kernel-mechanisms.md); 2.5 MB estimate
                touch_bytes_per_us: 75, // estimate: new lines touched per us of compiling
                nice: 0,
                core: j,
            });
        }
        v
    }

    fn next(&mut self, task: usize, _now: Ns, fx: &mut Fx) -> Step {
        if task == 0 {
            return self.make_next(fx);
        }
        match self.script[task].pop_front() {
            Some(Op::Finish) => {
                self.running -= 1;
                self.finished_in_dir += 1;
                self.free_slots.push(task);
                if self.make_waiting {
                    self.make_waiting = false;
                    fx.wakes.push((0, false));
                }
                self.slot_waiting[task] = true;
                Step::Block
            }
            Some(op) => self.op_step(op, fx),
            None => {
                self.slot_waiting[task] = true;
                Step::Block
            }
        }
    }

    fn done(&self) -> bool {
        self.finished
    }

    fn result(&self, elapsed: Ns) -> Result {
        Result { value: elapsed as f64 / 1e9, unit: "s", higher_is_better: false }
    }
}
