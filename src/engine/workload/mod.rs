//! Workloads: the programs simulated tasks run, as state machines asked "what next?".
//!
//! When a task needs work (it was just created, its burst ended, or it woke up), the
//! simulation calls `Workload::next` on the CPU it runs on. The answer is a `Step`: run a
//! burst of CPU work (user or system), block until another task wakes it, sleep until a
//! time, or exit. Wakeups of other tasks go into `Fx` and take effect at the end of the
//! step that caused them (a pipe write wakes the reader when the write completes).
//! Work is given in reference nanoseconds (a 2.4 GHz Core 2 of 2007) and divided by the
//! profile's speed; system calls add the profile's syscall entry/exit cost.

pub mod hackbench;
pub mod iperf;
pub mod kbuild;
pub mod pipe;
pub mod replay;
pub mod rtapp;
pub mod schbench;
pub mod stressng;
pub mod token;

use super::config::{Config, WorkloadKind};
use std::sync::Arc;

use super::profile::{C2c, Place, Profile, Topology};
use super::rng::{stream, SimRng};
use super::time::Ns;

/// A task the workload starts with.
#[derive(Clone, Debug)]
pub struct TaskSpec {
    pub name: String,
    pub group: String,
    /// Bytes of cache the task's working set occupies (capped at the LLC by the engine).
    pub ws_bytes: u64,
    /// Bytes of new cache lines it touches per microsecond of running (how fast it evicts others).
    pub touch_bytes_per_us: u64,
    pub nice: i32,
    /// Core the task is created on (`core % cores`).
    pub core: usize,
    /// Its address space: tasks with the same id are threads of one process (one
    /// `mm_struct`), so a switch between them skips `switch_mm` (`sim::schedule::LoadedMm`).
    /// Each workload sets it as its program creates tasks (fork: a new mm; pthread_create:
    /// the creator's); an exec gives the task a fresh one (`Fx::exec`).
    pub mm: u32,
}

/// Who creates a task with fork, clone or `pthread_create` (`Workload::parent`): the
/// simulation places it as `wake_up_new_task` does (`sim::fork`), from the parent's CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parent {
    /// An earlier task of the workload.
    Task(usize),
    /// A process outside the simulation (a benchmark's main thread that only creates
    /// tasks and waits), running on this CPU (`% cores`) while it creates them.
    Cpu(usize),
}

/// What a task does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Run `ns` of CPU work; `sys` when it is kernel work (a system call).
    Run { ns: Ns, sys: bool },
    /// Wait until another task wakes it.
    Block,
    /// Sleep until an absolute time (a timer wakes it).
    SleepUntil(Ns),
    /// The task is done.
    Exit,
}

/// Side effects of a step, applied by the simulation when the step's burst ends.
#[derive(Debug)]
pub struct Fx {
    /// Tasks to wake: (task, synchronous wakeup as a pipe/socket write does: WF_SYNC).
    pub wakes: Vec<(usize, bool)>,
    /// The task started a new program (exec): its cache state starts fresh, nothing to refill.
    pub exec: bool,
    /// Input, set by the simulation before `next`: the CPU the task runs on (`sched_getcpu`).
    pub cpu: usize,
    /// Of the `Step::Run` returned, the ns at its start that the CPU waits rather than
    /// works (cache lines in flight from another core, a spin on a held lock): they take
    /// that long whatever the SMT sibling does (`sim::schedule` module doc: SMT). The
    /// simulation takes it (resets it to 0) with the step.
    pub stall: Ns,
    /// Input, set with `cpu`: the speed at which `cpu` runs now, permille of a lone
    /// thread's (below 1000 while its SMT sibling is busy: `sim::schedule` module doc,
    /// SMT). A burst's work takes `work x 1000 / rate` ns of wall time (its stall does not
    /// stretch); a workload that times something by another task's clock, such as the
    /// moment a lock's holder unlocks (`pipe::Lines::locked_op`), needs it.
    pub rate: u64,
}

impl Default for Fx {
    fn default() -> Self {
        Fx { wakes: Vec::new(), exec: false, cpu: 0, stall: 0, rate: 1000 }
    }
}

/// `ns` of work at `rate` permille of a lone thread's speed, in wall-time ns (rounded up,
/// as the simulation lays a burst: `sim::schedule::resume`).
#[inline]
pub fn at_rate(ns: Ns, rate: u64) -> Ns {
    if rate >= 1000 {
        ns
    } else {
        (ns * 1000).div_ceil(rate.max(1))
    }
}

/// Machine facts a workload needs to cost its work.
#[derive(Clone, Debug)]
pub struct Costs {
    pub syscall: Ns,
    pub speed_permille: u64,
    /// Where each CPU sits and what a cache line costs between two (`pipe::Lines`).
    pub topo: Topology,
    pub c2c: C2c,
    /// `topo.places()`: `transfer` reads two entries instead of dividing eight times
    /// (`Topology::distance_in`).
    places: Arc<[Place]>,
}

impl Costs {
    pub fn new(p: &Profile) -> Self {
        let places = p.topo.places().into();
        Costs { syscall: p.syscall, speed_permille: p.speed_permille.max(1), topo: p.topo, c2c: p.c2c, places }
    }
    /// `lines` cache lines last written on CPU `from`, moved to CPU `to`.
    #[inline]
    pub fn transfer(&self, from: usize, to: usize, lines: u64) -> Ns {
        self.c2c.at(self.topo.distance_in(&self.places, from, to)) * lines
    }
    /// Reference-machine work scaled to this CPU.
    #[inline]
    pub fn work(&self, reference_ns: Ns) -> Ns {
        // The same quotient in u64 when the product fits (a 128-bit division is a library call).
        match reference_ns.checked_mul(1000) {
            Some(p) => (p / self.speed_permille).max(1),
            None => (reference_ns as u128 * 1000 / self.speed_permille as u128).max(1) as Ns,
        }
    }
    /// A system call doing `reference_ns` of kernel work.
    #[inline]
    pub fn syscall(&self, reference_ns: Ns) -> Ns {
        self.syscall + self.work(reference_ns)
    }
}

/// The main result of a workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Result {
    pub value: f64,
    pub unit: &'static str,
    pub higher_is_better: bool,
}

pub trait Workload {
    /// The tasks that exist at time 0.
    fn tasks(&mut self) -> Vec<TaskSpec>;
    /// Called on the task's CPU when it needs its next step.
    fn next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step;
    /// The fixed amount of work is done (time-limited workloads never are).
    fn done(&self) -> bool;
    /// The main result, given the elapsed simulated time.
    fn result(&self, elapsed: Ns) -> Result;
    /// The one CPU a task may run on (`sched_setaffinity` to a single CPU; taken `% cores`), if any.
    fn pinned(&self, _task: usize) -> Option<usize> {
        None
    }
    /// Who creates the task (fork, clone, `pthread_create`), if its program creates it:
    /// then it starts where the era's fork placement puts it (`sim::fork`), and
    /// `TaskSpec::core` is kept only for a task with no parent or a pinned one.
    fn parent(&self, _task: usize) -> Option<Parent> {
        None
    }
    /// The task blocks as soon as its parent has created it, before the part the program
    /// measures (hackbench's children in `ready()`): the run starts with it blocked on
    /// its CPU, waiting for a wakeup, and the fork placement of the tasks created after it
    /// sees its CPU idle (`sim::fork`).
    fn sleeps_at_start(&self, _task: usize) -> bool {
        false
    }
    /// A task's `sched_attr.sched_runtime` (a custom slice, honoured from 6.12), if it sets one.
    fn sched_runtime(&self, _task: usize) -> Option<Ns> {
        None
    }
    /// Figures of the workload's own beyond the main result (name, value), in a fixed
    /// order, given the elapsed simulated time; `Metrics::workload`. Empty for most.
    fn extra(&self, _elapsed: Ns) -> Vec<(String, f64)> {
        Vec::new()
    }
    /// Units of the fixed amount of work done so far and in all (hackbench's messages
    /// read), for a run judged in steady state (`validate`); None for time-limited workloads.
    fn progress(&self) -> Option<(u64, u64)> {
        None
    }
}

/// The workloads as one enum, so the per-step calls inline instead of going through a `Box<dyn Workload>`.
/// `repr(u8)`: a tag byte of its own, so each call's `match` reads one byte; without it the
/// compiler hid the tag in a niche of a variant's field and decoded it at every call (two
/// dispatches a step).
#[allow(clippy::large_enum_variant)] // one per run: size does not matter, inlining does
#[repr(u8)]
pub enum AnyWorkload {
    Pipe(pipe::Pipe),
    Iperf(iperf::Iperf),
    Kbuild(kbuild::Kbuild),
    Rtapp(rtapp::Rtapp),
    Token(token::Token),
    Hackbench(hackbench::Hackbench),
    Schbench(schbench::Schbench),
    StressNgPipe(stressng::StressNgPipe),
    Replay(replay::Replay),
}

macro_rules! each_wl {
    ($self:ident, $w:ident => $e:expr) => {
        match $self {
            AnyWorkload::Pipe($w) => $e,
            AnyWorkload::Iperf($w) => $e,
            AnyWorkload::Kbuild($w) => $e,
            AnyWorkload::Rtapp($w) => $e,
            AnyWorkload::Token($w) => $e,
            AnyWorkload::Hackbench($w) => $e,
            AnyWorkload::Schbench($w) => $e,
            AnyWorkload::StressNgPipe($w) => $e,
            AnyWorkload::Replay($w) => $e,
        }
    };
}

impl AnyWorkload {
    /// Builds the workload a config asks for, with its own random stream.
    pub fn build(cfg: &Config) -> Self {
        let costs = Costs::new(cfg.profile());
        let rng = SimRng::new(cfg.seed, stream::WORKLOAD);
        match cfg.workload {
            WorkloadKind::Pipe => AnyWorkload::Pipe(pipe::Pipe::new(cfg.loops, cfg.kernel, costs)),
            WorkloadKind::Iperf => AnyWorkload::Iperf(iperf::Iperf::new(cfg.streams as usize, costs)),
            WorkloadKind::Kbuild => AnyWorkload::Kbuild(kbuild::Kbuild::new(cfg.jobs as usize, costs, rng)),
            WorkloadKind::Rtapp => AnyWorkload::Rtapp(rtapp::Rtapp::new(&cfg.tasks, costs, rng)),
            WorkloadKind::Token => {
                AnyWorkload::Token(token::Token::new(cfg.pairs as usize, cfg.loops, cfg.work, cfg.kernel, costs))
            }
            WorkloadKind::Hackbench => AnyWorkload::Hackbench(hackbench::Hackbench::new(
                cfg.groups as usize,
                cfg.loops,
                cfg.msg_size as u64,
                cfg.hackbench_mode,
                cfg.ipc,
                cfg.kernel,
                costs,
            )),
            WorkloadKind::StressNgPipe => {
                AnyWorkload::StressNgPipe(stressng::StressNgPipe::new(cfg.workers as usize, cfg.kernel, costs))
            }
            WorkloadKind::Schbench => AnyWorkload::Schbench(schbench::Schbench::new(
                cfg.schbench_message_threads as usize,
                cfg.schbench_workers as usize,
                cfg.schbench_operations as u64,
                cfg.schbench_footprint as u64,
                cfg.schbench_sleep,
                cfg.schbench_locking,
                cfg.cores as usize,
                costs,
            )),
        }
    }
}

impl Workload for AnyWorkload {
    fn tasks(&mut self) -> Vec<TaskSpec> {
        each_wl!(self, w => w.tasks())
    }
    // Not inlined: inlined into `Sim::continue_task` (release, LTO), the hackbench state
    // machine's loop invariants were hoisted into continue_task's entry, ~80 instructions
    // of spills paid on every call (BENCHMARKS.md, issue 27, speed-s23).
    #[inline(never)]
    fn next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step {
        each_wl!(self, w => w.next(task, now, fx))
    }
    #[inline]
    fn done(&self) -> bool {
        each_wl!(self, w => w.done())
    }
    fn result(&self, elapsed: Ns) -> Result {
        each_wl!(self, w => w.result(elapsed))
    }
    fn pinned(&self, task: usize) -> Option<usize> {
        each_wl!(self, w => w.pinned(task))
    }
    fn parent(&self, task: usize) -> Option<Parent> {
        each_wl!(self, w => w.parent(task))
    }
    fn sleeps_at_start(&self, task: usize) -> bool {
        each_wl!(self, w => w.sleeps_at_start(task))
    }
    fn sched_runtime(&self, task: usize) -> Option<Ns> {
        each_wl!(self, w => w.sched_runtime(task))
    }
    fn extra(&self, elapsed: Ns) -> Vec<(String, f64)> {
        each_wl!(self, w => w.extra(elapsed))
    }
    fn progress(&self) -> Option<(u64, u64)> {
        each_wl!(self, w => w.progress())
    }
}

/// Builds the workload a config asks for, with its own random stream.
pub fn build(cfg: &Config) -> AnyWorkload {
    AnyWorkload::build(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mm of each task a workload starts with, for `workload` and extra `key=value` sets.
    fn mms(workload: &str, sets: &[(&str, &str)]) -> Vec<u32> {
        let mut cfg = Config::default();
        cfg.set("workload", workload).expect("workload");
        for (k, v) in sets {
            cfg.set(k, v).expect("key");
        }
        build(&cfg).tasks().iter().map(|t| t.mm).collect()
    }

    fn distinct(v: &[u32]) -> usize {
        let mut d = v.to_vec();
        d.sort_unstable();
        d.dedup();
        d.len()
    }

    #[test]
    fn a_transfer_costs_the_lines_at_the_topologys_distance_on_every_profile() {
        // `Costs` reads a table of places; the figure is `Topology::distance`'s, also past
        // the machine's CPUs (a config larger than the machine repeats it).
        for p in crate::engine::profile::PROFILES {
            let costs = Costs::new(p);
            let n = p.topo.cpus() as usize + 3;
            for a in 0..n {
                for b in 0..n {
                    let want = p.c2c.at(p.topo.distance(a as u32, b as u32)) * 3;
                    assert_eq!(costs.transfer(a, b, 3), want, "{}: CPUs {a} and {b}", p.name);
                }
            }
        }
    }

    #[test]
    fn each_workload_gives_its_tasks_the_mms_its_program_creates() {
        // hackbench: process mode forks every worker (parent + 2 x 20 per group, all apart);
        // thread mode runs every group's threads in the one main process.
        let procs = mms("hackbench", &[("groups", "2"), ("hackbench_mode", "process")]);
        assert_eq!(procs.len(), 81);
        assert_eq!(distinct(&procs), 81, "one mm per process");
        let threads = mms("hackbench", &[("groups", "2"), ("hackbench_mode", "thread")]);
        assert_eq!(threads.len(), 81);
        assert!(threads.iter().all(|&m| m == threads[0]), "every thread in main's mm");
        // perf bench sched pipe: two processes.
        assert_eq!(distinct(&mms("pipe", &[])), 2);
        // stress-ng --pipe N: a writer process and its forked reader per instance.
        let sng = mms("stress-ng-pipe", &[("workers", "3")]);
        assert_eq!((sng.len(), distinct(&sng)), (6, 6));
        // iperf 2: the streams are threads of the client (senders) and of the server.
        let ip = mms("iperf", &[("streams", "3")]);
        assert_eq!(distinct(&ip), 2);
        assert!(ip.iter().step_by(2).all(|&m| m == ip[0]) && ip.iter().skip(1).step_by(2).all(|&m| m == ip[1]));
        // make -jN: make and N forked jobs, each its own process.
        let kb = mms("kbuild", &[("jobs", "4")]);
        assert_eq!((kb.len(), distinct(&kb)), (5, 5));
        // Threads of one program: rt-app, schbench, the token passers.
        for (w, sets) in [("rtapp", vec![]), ("schbench", vec![("cores", "4")]), ("token", vec![("pairs", "2")])] {
            let m = mms(w, &sets);
            assert!(m.len() > 1 && distinct(&m) == 1, "{w}: {m:?}");
        }
    }
}
