//! Scheduling policies behind one trait: CFS (2.6.23's and the vruntime one), EEVDF and SD.
//!
//! A policy owns the per-core runqueues (which tasks wait, in what order) and the
//! per-task scheduling state in `Task::se`; the simulation (`sim`) owns time, cores,
//! costs and wakeup placement. Runqueues are kept in O(log n) structures (`runq`): the
//! arrival order in a `runq::Fifo` (what `queued` shows), the pick order in a `runq::Timeline`
//! as the kernel's rbtree (issue 30: with 16,384 tasks on one CPU, linear scans took 97% of the run).
//!
//! Protocol: `pick_next` removes the chosen task from the queue and makes it the core's
//! `curr`; `put_prev` gives a still-runnable `curr` back; `dequeue_curr` drops a `curr`
//! that exits, `block_curr` one that sleeps (6.12 EEVDF may keep it queued, `delayed`);
//! `enqueue`/`dequeue` move waiting tasks (wakeups, migration).

pub mod cfs;
pub mod cfs_2623;
pub mod eevdf;
pub mod rbtree;
pub mod runq;
pub mod sd;

use super::config::{Config, PolicyKind};
use super::kernel::CfsDesign;
use super::time::Ns;
pub use runq::Queued;

/// The weight of a nice-0 task (`NICE_0_LOAD` without the fixed-point shift).
pub const NICE_0_LOAD: u64 = 1024;
/// vruntimes start here so that subtracting a sleeper credit never underflows.
pub const VRUNTIME_BASE: u64 = 1 << 50;

/// `sched_prio_to_weight`, nice -20 ..= 19 (kernel/sched/core.c).
pub const PRIO_TO_WEIGHT: [u64; 40] = [
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904, 3906, 3121, 2501,
    1991, 1586, 1277, 1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
];

/// Per-task scheduling state, shared by all policies (each uses its own fields).
#[derive(Clone, Debug, Default)]
pub struct SchedEntity {
    pub weight: u64,
    pub vruntime: u64,
    /// EEVDF virtual deadline; SD's deadline in ns.
    pub deadline: u64,
    /// EEVDF lag saved at dequeue (V - v).
    pub vlag: i64,
    /// Total CPU time.
    pub sum_exec: Ns,
    /// `sum_exec` when the task was last picked (for slice checks).
    pub prev_sum_exec: Ns,
    /// SD: what is left of the current quantum.
    pub rr_left: Ns,
    /// Whether the task has ever been enqueued.
    pub started: bool,
    /// A custom slice (6.12 `sched_attr.sched_runtime` on SCHED_OTHER, `se->custom_slice`),
    /// already clamped; 0: none, the base slice.
    pub custom_slice: Ns,
}

/// 6.12 `__setscheduler_params` (kernel/sched/syscalls.c, 857b158dc5e8): a SCHED_OTHER
/// task's `sched_runtime` becomes its slice, clamped to 0.1 ms..100 ms; 0 keeps the base slice.
pub fn custom_slice(sched_runtime: Ns) -> Ns {
    if sched_runtime == 0 {
        0
    } else {
        sched_runtime.clamp(100_000, 100_000_000)
    }
}

/// How a task arrives on a runqueue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// First enqueue after creation.
    New,
    /// Woken from sleep or a blocking wait; `from` is the core it last ran on.
    Wakeup { from: usize },
    /// Moved from another core by the load balancer.
    Migrated { from: usize },
}

/// What every policy implements. `se` is indexed by task id.
pub trait Policy {
    /// Adds a waiting task to core `c`'s queue.
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, now: Ns);
    /// Removes a waiting (not running) task, e.g. to migrate it. Returns false if absent.
    fn dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns) -> bool;
    /// Chooses the next task for core `c` (which has no `curr`), making it `curr`.
    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, now: Ns) -> Option<usize>;
    /// Puts a still-runnable `curr` back in the queue.
    fn put_prev(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns);
    /// `curr` exits (or blocks, by default): it leaves the runqueue.
    fn dequeue_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns);
    /// `curr` sleeps (blocks or waits on a timer): `dequeue_task(DEQUEUE_SLEEP)`. Default:
    /// it leaves the runqueue (`dequeue_curr`); 6.12's DELAY_DEQUEUE may keep it there.
    fn block_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns) {
        self.dequeue_curr(se, c, task, now)
    }
    /// Whether a sleeping `task` is still on a runqueue, delayed (6.12 DELAY_DEQUEUE): its
    /// wakeup requeues it there (`ttwu_runnable`) without `select_task_rq`. Default: never.
    fn delayed(&self, _task: usize) -> bool {
        false
    }
    /// Charges `delta` ns of CPU time to `curr`.
    fn update_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, delta: Ns);
    /// The periodic tick (or the hrtick's expiry) on a core running `curr`: true to reschedule.
    fn task_tick(&mut self, se: &mut [SchedEntity], c: usize, curr: usize, now: Ns) -> bool;
    /// Should `woken`, just enqueued on core `c`, preempt `curr`? `resched`: curr already
    /// has TIF_NEED_RESCHED (a reschedule is pending), which the CFS of 2.6.28+ and the EEVDF of 6.6 and 6.12 check
    /// before comparing (`test_tsk_need_resched(curr)`; `policy::cfs` module doc).
    fn check_preempt_wakeup(
        &mut self,
        se: &mut [SchedEntity],
        c: usize,
        curr: usize,
        woken: usize,
        resched: bool,
    ) -> bool;
    /// Time until `curr`'s slice ends, if it should be enforced by the hrtick (more than
    /// one task runnable); `None` otherwise.
    fn slice_left(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<Ns>;
    /// Waiting tasks on core `c` (not counting `curr`), in the order they were queued.
    fn queued(&self, c: usize) -> Queued<'_>;
    /// `hrtick_start_fair`'s signed `delta = slice - ran` for `curr` when the hrtick applies
    /// (more than one task runnable), `None` otherwise. Negative: the slice is used up and
    /// the kernel reschedules `curr` instead of arming. Default: `slice_left`, never negative.
    fn hrtick_delta(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<i64> {
        self.slice_left(se, c, curr).map(|d| d.min(i64::MAX as Ns) as i64)
    }
    /// Whether the last `update_curr` on core `c` asked to reschedule `curr` (EEVDF's
    /// `update_deadline` -> `resched_curr`); reading clears it. Default: never.
    fn take_resched(&mut self, _c: usize) -> bool {
        false
    }
}

/// The policies as one enum: the simulation calls a policy several times per event,
/// and a `match` lets each call inline where a `Box<dyn Policy>` needed an indirect call.
/// `repr(u8)`: a tag byte of its own (as `workload::AnyWorkload`), read in one load.
#[repr(u8)]
pub enum AnyPolicy {
    Cfs(cfs::Cfs),
    /// 2.6.23's wait_runtime CFS (`kernel=2.6.23`).
    Cfs2623(cfs_2623::Cfs2623),
    Eevdf(eevdf::Eevdf),
    Sd(sd::Sd),
}

macro_rules! each {
    ($self:ident, $p:ident => $e:expr) => {
        match $self {
            AnyPolicy::Cfs($p) => $e,
            AnyPolicy::Cfs2623($p) => $e,
            AnyPolicy::Eevdf($p) => $e,
            AnyPolicy::Sd($p) => $e,
        }
    };
}

impl Policy for AnyPolicy {
    #[inline]
    fn enqueue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, how: Arrival, now: Ns) {
        each!(self, p => p.enqueue(se, c, task, how, now))
    }
    #[inline]
    fn dequeue(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns) -> bool {
        each!(self, p => p.dequeue(se, c, task, now))
    }
    // Always: `Sim::pick_loop`, its one hot caller, is past LLVM's inlining threshold.
    #[inline(always)]
    fn pick_next(&mut self, se: &mut [SchedEntity], c: usize, now: Ns) -> Option<usize> {
        each!(self, p => p.pick_next(se, c, now))
    }
    #[inline]
    fn put_prev(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns) {
        each!(self, p => p.put_prev(se, c, task, now))
    }
    #[inline]
    fn dequeue_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns) {
        each!(self, p => p.dequeue_curr(se, c, task, now))
    }
    #[inline]
    fn block_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, now: Ns) {
        each!(self, p => p.block_curr(se, c, task, now))
    }
    #[inline]
    fn delayed(&self, task: usize) -> bool {
        each!(self, p => p.delayed(task))
    }
    #[inline]
    fn update_curr(&mut self, se: &mut [SchedEntity], c: usize, task: usize, delta: Ns) {
        each!(self, p => p.update_curr(se, c, task, delta))
    }
    #[inline]
    fn task_tick(&mut self, se: &mut [SchedEntity], c: usize, curr: usize, now: Ns) -> bool {
        each!(self, p => p.task_tick(se, c, curr, now))
    }
    #[inline]
    fn check_preempt_wakeup(
        &mut self,
        se: &mut [SchedEntity],
        c: usize,
        curr: usize,
        woken: usize,
        resched: bool,
    ) -> bool {
        each!(self, p => p.check_preempt_wakeup(se, c, curr, woken, resched))
    }
    #[inline]
    fn slice_left(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<Ns> {
        each!(self, p => p.slice_left(se, c, curr))
    }
    #[inline]
    fn queued(&self, c: usize) -> Queued<'_> {
        each!(self, p => p.queued(c))
    }
    #[inline]
    fn hrtick_delta(&self, se: &[SchedEntity], c: usize, curr: usize) -> Option<i64> {
        each!(self, p => p.hrtick_delta(se, c, curr))
    }
    #[inline]
    fn take_resched(&mut self, c: usize) -> bool {
        each!(self, p => p.take_resched(c))
    }
}

/// Builds the policy a config asks for.
pub fn build(cfg: &Config) -> AnyPolicy {
    match cfg.policy {
        PolicyKind::Cfs => match cfg.kernel.cfs_design() {
            CfsDesign::WaitRuntime => AnyPolicy::Cfs2623(cfs_2623::Cfs2623::new(cfg)),
            CfsDesign::Vruntime2007 | CfsDesign::Modern => AnyPolicy::Cfs(cfs::Cfs::new(cfg)),
        },
        PolicyKind::Eevdf => AnyPolicy::Eevdf(eevdf::Eevdf::new(cfg)),
        PolicyKind::Sd => AnyPolicy::Sd(sd::Sd::new(cfg)),
    }
}

/// `delta * NICE_0_LOAD / weight` (calc_delta_fair).
#[inline]
pub fn calc_delta_fair(delta: Ns, weight: u64) -> u64 {
    if weight == NICE_0_LOAD {
        delta
    } else {
        ((delta as u128 * NICE_0_LOAD as u128) / weight.max(1) as u128) as u64
    }
}
