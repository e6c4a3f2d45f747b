//! make -jN of a small kernel (allnoconfig): GNU make's jobserver running gcc, cc1 and as jobs.
//!
//! What is modelled. `make -jN` keeps up to N jobs running, taken from the whole build's
//! ready set: Kbuild descends into directories with recursive make (`$(MAKE) $(build)=dir`,
//! scripts/Makefile.build), and every sub-make shares the top make's N job tokens (GNU make's
//! jobserver: a sub-make holds one implicit slot and reads a token for each further job). So
//! a directory's `built-in.o` link waits for that directory's objects (a dependency), while
//! the other directories' compiles keep the tokens busy: there is no barrier between
//! directories. Here the build is a dependency graph of jobs and N job slots (tasks
//! 1..=N); make (task 0) hands a free slot the best ready job (a ready link first, then the
//! next compile in directory order, then entering the next directory), paying its own fork
//! and jobserver bookkeeping per job, and sleeps until a job ends.
//!
//! A compile job is: fork+exec gcc (system), the gcc driver (user), exec cc1 (system), cc1
//! (user, cut into chunks separated by short system calls: reading headers, page faults),
//! exec as (system), as (user), exit (system). cc1's time is drawn log-uniformly between
//! 20 ms and 400 ms (reference machine) per translation unit. Entering a directory is a job
//! too: fork+exec of the sub-make and its parse of Makefile.build and the directory's
//! Makefile.
//!
//! The serial phases are the real build's dependencies, in the order of the 2.6.2x top
//! Makefile (`vmlinux-dirs: prepare scripts`, `vmlinux: $(vmlinux-lds) $(vmlinux-init)
//! $(vmlinux-main) ... kallsyms.o`):
//! 1. make parses the top Makefile and arch/i386/Makefile, running its `cc-option`
//!    probes (each a gcc + cc1 run on an empty input);
//! 2. scripts/basic (fixdep, split-include, docproc: host compiles, parallel), then
//!    scripts/kconfig's `conf` (conf.c and zconf.tab.c compiled in parallel, linked) and the
//!    `silentoldconfig` run of conf that writes include/config/auto.conf;
//! 3. make re-executes itself because an included makefile (auto.conf) was remade (GNU make
//!    "How Makefiles Are Remade"), so the parse and probes run again;
//! 4. `prepare` (asm-offsets.c compiled to generate asm-offsets.h) and `scripts` (kallsyms,
//!    mk_elfconfig, modpost, file2alias, sumversion host programs), independent of each other;
//! 5. every directory (the parallel part);
//! 6. the final link, a chain: ld .tmp_vmlinux1, kallsyms + as, ld .tmp_vmlinux2, kallsyms +
//!    as, ld vmlinux (allnoconfig keeps KALLSYMS: it is `if EMBEDDED`, default y), then
//!    arch/i386/boot: objcopy, gzip, compiling misc.c, ld, and the build tool.
//!
//! CPU% below N x 100% comes out of these dependencies (and of waits for make), not out of
//! a figure chosen for it. Sizes: a full `ld` of vmlinux reads every object the directory
//! links read, so it is costed as the sum of the directory links; the other phase sizes
//! are estimates given where they are used.
//!
//! Simplified: directories are flat (a parent's `built-in.o` does not wait for its
//! subdirectories' links, only the final link waits for all); which sub-make gets a free
//! token is a fixed priority, where GNU make gives it to whichever process reads the pipe
//! first; the build plan (files per directory, cc1 times) is drawn from the workload's
//! random stream, not read from a real tree.
//! Result: the build's elapsed seconds (lower is better).

use std::collections::{BTreeSet, VecDeque};
use std::ops::Range;

use super::{Costs, Fx, Parent, Result, Step, TaskSpec, Workload};
use crate::engine::rng::SimRng;
use crate::engine::time::{Ns, MS};

/// Translation units of the build (estimate for an allnoconfig 2.6.2x tree; not from a source).
const FILES: usize = 310;
/// Directories they live in (estimate).
const DIRS: usize = 30;
/// cc1 time of one translation unit on the reference machine, drawn log-uniformly (estimate).
const CC1_MIN: Ns = 20 * MS;
const CC1_MAX: Ns = 400 * MS;
/// `ld -r` of one directory's objects into built-in.o (estimate).
const DIR_LINK: Ns = 30 * MS;
/// make's own work to start one job: fork, jobserver token, bookkeeping (estimate).
const MAKE_PER_JOB: Ns = 300_000;

#[derive(Clone, Copy, Debug)]
enum Op {
    User(Ns),
    Sys(Ns),
    /// Exec a new program: fresh cache state.
    Exec(Ns),
    /// The job is over: tell make.
    Finish,
}

/// Dispatch order among ready jobs (lower first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// A sub-make whose objects are done goes on to its link.
    Link = 0,
    /// Compiles and the serial phases' jobs.
    Work = 1,
    /// Entering the next directory (a new sub-make).
    Descend = 2,
}

/// One job of the build graph.
struct Item {
    ops: Vec<Op>,
    class: Class,
    /// Jobs this one still waits for.
    deps: u32,
    /// Jobs waiting for this one.
    then: Vec<usize>,
}

enum Phase {
    /// make's own serial work (parsing, probes).
    Make(Vec<Op>),
    /// A set of jobs run through the jobserver; the phase ends when all are done.
    Jobs(Range<usize>),
}

pub struct Kbuild {
    jobs: usize,
    costs: Costs,
    items: Vec<Item>,
    phases: Vec<Phase>,
    phase: usize,
    /// Jobs of the current phase not yet finished.
    left_in_phase: usize,
    ready: BTreeSet<(Class, usize)>,
    /// Scripts per task (make is task 0, job slots 1..=jobs).
    script: Vec<VecDeque<Op>>,
    /// The item each slot runs.
    slot_item: Vec<usize>,
    free_slots: Vec<usize>,
    make_waiting: bool,
    slot_waiting: Vec<bool>,
    finished: bool,
}

/// A gcc run: driver, cc1 for `cc1` reference ns in chunks between system calls, as.
fn compile_ops(rng: &mut SimRng, cc1: Ns) -> Vec<Op> {
    let mut s = vec![
        Op::Exec(4 * MS), // fork + exec gcc, page faults
        Op::User(3 * MS), // gcc driver
        Op::Exec(3 * MS), // exec cc1
    ];
    let mut left = cc1;
    while left > 0 {
        let chunk = rng.log_uniform(2 * MS, 20 * MS).min(left);
        s.push(Op::User(chunk));
        left -= chunk;
        if left > 0 {
            s.push(Op::Sys(40_000)); // read a header, fault in a page
        }
    }
    s.push(Op::Exec(2 * MS)); // exec as
    s.push(Op::User(5 * MS)); // assemble
    s.push(Op::Sys(MS)); // exit, reaped by make
    s
}

/// A short program (ld, kallsyms, gzip, conf...): exec, `user` ns of work, exit.
fn tool_ops(user: Ns) -> Vec<Op> {
    vec![Op::Exec(2 * MS), Op::User(user), Op::Sys(MS)]
}

/// make parsing the top Makefile: its own reading (estimate 100 ms) and the `cc-option`
/// probes, each a gcc + cc1 start on an empty input (about 15 in the 2.6.2x top and i386
/// Makefiles: an estimate from counting `cc-option` calls, not measured).
fn parse_ops() -> Vec<Op> {
    let mut s = vec![Op::User(100 * MS)];
    for _ in 0..15 {
        s.extend([Op::Exec(4 * MS), Op::User(3 * MS), Op::Exec(3 * MS), Op::User(5 * MS), Op::Sys(MS)]);
    }
    s
}

struct Plan {
    rng: SimRng,
    items: Vec<Item>,
}

impl Plan {
    fn add(&mut self, ops: Vec<Op>, class: Class, after: &[usize]) -> usize {
        let id = self.items.len();
        self.items.push(Item { ops, class, deps: after.len() as u32, then: Vec::new() });
        for &a in after {
            self.items[a].then.push(id);
        }
        id
    }
    fn compile(&mut self, after: &[usize]) -> usize {
        let cc1 = self.rng.log_uniform(CC1_MIN, CC1_MAX);
        let ops = compile_ops(&mut self.rng, cc1);
        self.add(ops, Class::Work, after)
    }
    fn tool(&mut self, user: Ns, after: &[usize]) -> usize {
        self.add(tool_ops(user), Class::Work, after)
    }
    /// A chain of tools, each after the previous; returns the last.
    fn chain(&mut self, users: &[Ns], after: &[usize]) -> usize {
        let mut prev = after.to_vec();
        let mut last = 0;
        for &u in users {
            last = self.tool(u, &prev);
            prev = vec![last];
        }
        last
    }
}

impl Kbuild {
    pub fn new(jobs: usize, costs: Costs, mut rng: SimRng) -> Self {
        let jobs = jobs.max(1);
        // The tree: directories are uneven, a few hold many files (kernel/, mm/, fs/).
        let mut dirs = vec![Vec::new(); DIRS];
        for f in 0..FILES {
            let d = if f % 3 == 0 { rng.range(0, 4) as usize } else { rng.range(0, DIRS as u64 - 1) as usize };
            dirs[d].push(rng.log_uniform(CC1_MIN, CC1_MAX));
        }
        dirs.retain(|d| !d.is_empty());
        let mut plan = Plan { rng, items: Vec::new() };
        let mut phases = vec![Phase::Make(parse_ops())];

        // scripts/basic, then scripts/kconfig's conf and its silentoldconfig run (estimates:
        // linking conf 20 ms, conf reading every Kconfig file 150 ms).
        let start = plan.items.len();
        let basic: Vec<usize> = (0..3).map(|_| plan.compile(&[])).collect();
        let conf_objs: Vec<usize> = (0..2).map(|_| plan.compile(&basic)).collect();
        plan.chain(&[20 * MS, 150 * MS], &conf_objs);
        phases.push(Phase::Jobs(start..plan.items.len()));
        // make restarts on the remade auto.conf.
        phases.push(Phase::Make(parse_ops()));

        // prepare (asm-offsets) and scripts (five host programs, each linked: 10 ms estimate).
        let start = plan.items.len();
        plan.compile(&[]);
        for _ in 0..5 {
            let o = plan.compile(&[]);
            plan.tool(10 * MS, &[o]);
        }
        phases.push(Phase::Jobs(start..plan.items.len()));

        // The directories: enter (sub-make: exec 2 ms, parse 15 ms, estimates), compile, link.
        let start = plan.items.len();
        let mut links = Vec::new();
        for files in &dirs {
            let enter = plan.add(vec![Op::Exec(2 * MS), Op::User(15 * MS), Op::Sys(MS)], Class::Descend, &[]);
            let mut objs = Vec::new();
            for &cc1 in files {
                let ops = compile_ops(&mut plan.rng, cc1);
                objs.push(plan.add(ops, Class::Work, &[enter]));
            }
            links.push(plan.add(tool_ops(DIR_LINK), Class::Link, &objs));
        }
        phases.push(Phase::Jobs(start..plan.items.len()));

        // The final link: each full ld reads what all directory links read (their sum);
        // kallsyms + as of its output (100 ms, estimate); arch/i386/boot: objcopy 50 ms,
        // gzip of the ~1 MB image 200 ms, misc.c compiled, ld 30 ms, build tool 10 ms (estimates).
        let start = plan.items.len();
        let full_ld = DIR_LINK * links.len() as Ns;
        let tmp = plan.chain(&[full_ld, 100 * MS, full_ld, 100 * MS, full_ld, 50 * MS, 200 * MS], &[]);
        let misc = plan.compile(&[tmp]);
        plan.chain(&[30 * MS, 10 * MS], &[misc]);
        phases.push(Phase::Jobs(start..plan.items.len()));

        let mut k = Kbuild {
            jobs,
            costs,
            items: plan.items,
            phases,
            phase: 0,
            left_in_phase: 0,
            ready: BTreeSet::new(),
            script: vec![VecDeque::new(); jobs + 1],
            slot_item: vec![usize::MAX; jobs + 1],
            free_slots: (1..=jobs).rev().collect(),
            make_waiting: false,
            slot_waiting: vec![false; jobs + 1],
            finished: false,
        };
        k.enter_phase();
        k
    }

    /// Starts phase `self.phase`: make's work goes on its script, jobs with no
    /// dependencies become ready.
    fn enter_phase(&mut self) {
        while let Some(p) = self.phases.get(self.phase) {
            match p {
                Phase::Make(ops) => {
                    self.script[0].extend(ops.iter().copied());
                    self.phase += 1;
                }
                Phase::Jobs(r) => {
                    let r = r.clone();
                    self.left_in_phase = r.len();
                    for i in r {
                        if self.items[i].deps == 0 {
                            self.ready.insert((self.items[i].class, i));
                        }
                    }
                    if self.left_in_phase > 0 {
                        return;
                    }
                    self.phase += 1;
                }
            }
        }
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
            if self.phase >= self.phases.len() {
                self.finished = true;
                return Step::Exit;
            }
            if self.left_in_phase == 0 {
                self.phase += 1;
                self.enter_phase();
                continue;
            }
            if !self.free_slots.is_empty() {
                if let Some(&(class, item)) = self.ready.iter().next() {
                    self.ready.remove(&(class, item));
                    let slot = self.free_slots.pop().unwrap_or(1);
                    self.slot_item[slot] = item;
                    self.script[slot] = self.items[item].ops.iter().copied().chain([Op::Finish]).collect();
                    if self.slot_waiting[slot] {
                        self.slot_waiting[slot] = false;
                        fx.wakes.push((slot, false));
                    }
                    return Step::Run { ns: self.costs.syscall(MAKE_PER_JOB), sys: true };
                }
            }
            self.make_waiting = true;
            return Step::Block;
        }
    }

    fn job_done(&mut self, slot: usize, fx: &mut Fx) {
        let item = std::mem::replace(&mut self.slot_item[slot], usize::MAX);
        if item != usize::MAX {
            self.left_in_phase = self.left_in_phase.saturating_sub(1);
            for k in 0..self.items[item].then.len() {
                let d = self.items[item].then[k];
                self.items[d].deps -= 1;
                if self.items[d].deps == 0 {
                    self.ready.insert((self.items[d].class, d));
                }
            }
        }
        self.free_slots.push(slot);
        if self.make_waiting {
            self.make_waiting = false;
            fx.wakes.push((0, false));
        }
    }
}

impl Workload for Kbuild {
    /// make forks each job.
    fn parent(&self, task: usize) -> Option<Parent> {
        (task > 0).then_some(Parent::Task(0))
    }

    fn tasks(&mut self) -> Vec<TaskSpec> {
        let mut v = vec![TaskSpec {
            name: "make".into(),
            group: "make".into(),
            ws_bytes: 1 << 20,      // estimate: make's rule database for a small tree
            touch_bytes_per_us: 50, // estimate, as cc1's
            nice: 0,
            core: 0,
            mm: 0,
        }];
        for j in 1..=self.jobs {
            v.push(TaskSpec {
                name: format!("job{j}"),
                group: "cc1".into(),
                ws_bytes: 2_560 << 10, // cc1: several MB (kernel-mechanisms.md); 2.5 MB estimate
                // estimate (the value first written, before any validation run; 75 was set to
                // make a seed row pass and is reverted): new cache lines touched per us.
                touch_bytes_per_us: 50,
                nice: 0,
                core: j,
                // A process forked by make; each cc1 it execs gets a fresh mm (`Fx::exec`).
                mm: j as u32,
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
                self.job_done(task, fx);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::stream;

    /// A toy 2-CPU machine: runnable tasks share the CPUs round-robin in 1 ms slices.
    /// Returns (mean runnable job slots while the compile phase runs, CPU% of the whole run).
    /// The compile phase is from the first to the last moment all N slots were runnable.
    fn drive(w: &mut Kbuild, cpus: usize) -> (f64, f64) {
        let n = w.tasks().len();
        // Remaining burst per task; None = blocked (waiting for a wakeup), Some(0) = needs `next`.
        let mut burst: Vec<Option<Ns>> = vec![Some(0); n];
        let mut exited = vec![false; n];
        let (mut now, mut busy) = (0u64, 0u64);
        let mut samples: Vec<(Ns, usize)> = Vec::new();
        let mut rr = 0usize;
        let q = MS;
        while !w.done() && now < 3_600 * 1_000 * MS {
            // Ask every task that needs its next step (a wakeup may ask an earlier one again).
            while let Some(t) = (0..n).find(|&t| burst[t] == Some(0) && !exited[t]) {
                while burst[t] == Some(0) && !exited[t] {
                    let mut fx = Fx::default();
                    match w.next(t, now, &mut fx) {
                        Step::Run { ns, .. } => burst[t] = Some(ns.max(1)),
                        Step::Block => burst[t] = None,
                        Step::Exit => exited[t] = true,
                        Step::SleepUntil(_) => unreachable!(),
                    }
                    for (k, _) in fx.wakes {
                        if burst[k].is_none() {
                            burst[k] = Some(0);
                        }
                    }
                }
            }
            let runnable: Vec<usize> = (0..n).filter(|&t| !exited[t] && matches!(burst[t], Some(b) if b > 0)).collect();
            samples.push((now, runnable.iter().filter(|&&t| t > 0).count()));
            if runnable.is_empty() {
                break;
            }
            let mut used = 0;
            for i in 0..cpus.min(runnable.len()) {
                let t = runnable[(rr + i) % runnable.len()];
                let b = burst[t].unwrap();
                let d = b.min(q);
                burst[t] = Some(b - d);
                used += d;
            }
            rr += 1;
            busy += used;
            now += q;
        }
        let slots = n - 1;
        let first = samples.iter().position(|s| s.1 == slots).unwrap_or(0);
        let last = samples.iter().rposition(|s| s.1 == slots).unwrap_or(0);
        let window = &samples[first..=last];
        let mean = window.iter().map(|s| s.1 as f64).sum::<f64>() / window.len() as f64;
        (mean, busy as f64 * 100.0 / now as f64)
    }

    fn build(jobs: usize) -> Kbuild {
        let costs = Costs { syscall: 250, speed_permille: 1000, ..Costs::new(&crate::engine::profile::PROFILES[0]) };
        Kbuild::new(jobs, costs, SimRng::new(2, stream::WORKLOAD))
    }

    #[test]
    fn the_jobserver_keeps_n_jobs_runnable_across_directories() {
        // With a barrier per directory, the slots idle while a directory's last compiles
        // finish; a jobserver hands them the next directory's work.
        let (mean, _) = drive(&mut build(8), 2);
        assert!(mean > 7.5, "mean runnable jobs during the compile phase: {mean:.2}");
    }

    #[test]
    fn cpu_percent_comes_from_the_serial_phases() {
        let (_, cpu8) = drive(&mut build(8), 2);
        let (_, cpu1) = drive(&mut build(1), 2);
        assert!(cpu8 < 200.0 && cpu8 > cpu1, "j8 {cpu8:.0}% j1 {cpu1:.0}%");
        assert!(cpu1 <= 101.0, "one job slot and a sleeping make use one CPU: {cpu1:.0}%");
    }

    #[test]
    fn every_job_runs_once_and_the_build_ends() {
        let mut w = build(3);
        let total = w.items.len();
        drive(&mut w, 2);
        assert!(w.done());
        assert!(w.items.iter().all(|i| i.deps == 0));
        assert!(w.ready.is_empty() && total > FILES);
    }
}
