//! What a trace is made of: spans, instants, switches and task facts.
//!
//! The vocabulary below both the recorder (`trace`, which collects them) and the decision
//! records (`explain::records`, which read a wakeup's spans to split its latency): it names
//! nothing of either. `trace` re-exports every type, so `trace::Span` is the name to use
//! above them.

use serde::{Deserialize, Serialize};

use crate::engine::time::Ns;

/// What a core spends a stretch of CPU time on, other than running a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Overhead {
    /// Direct context switch (`__schedule`, `switch_to`).
    Switch,
    /// Cache refill after a switch or a migration (charged to the task as user time).
    Refill,
    /// Clock-event device reprogram (nohz stop/restart, hrtick arm).
    Reprogram,
    /// Sending or handling a reschedule IPI.
    Ipi,
    /// Leaving a C-state (its exit latency).
    CStateExit,
    /// The periodic tick's handler.
    Tick,
    /// Wakeup work on the waker (`try_to_wake_up`).
    Wakeup,
}

impl Overhead {
    pub const ALL: [Overhead; 7] = [
        Overhead::Switch,
        Overhead::Refill,
        Overhead::Reprogram,
        Overhead::Ipi,
        Overhead::CStateExit,
        Overhead::Tick,
        Overhead::Wakeup,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Overhead::Switch => "switch",
            Overhead::Refill => "refill",
            Overhead::Reprogram => "reprogram",
            Overhead::Ipi => "ipi",
            Overhead::CStateExit => "cstate_exit",
            Overhead::Tick => "tick",
            Overhead::Wakeup => "wakeup",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SpanKind {
    /// A task runs; `sys` when the burst is kernel work (a system call).
    Run {
        task: u32,
        sys: bool,
    },
    /// The core idles in a state: 0 is POLL, n is the profile's `cstates[n - 1]`.
    Idle {
        state: u8,
    },
    Overhead {
        kind: Overhead,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub core: u16,
    pub start: Ns,
    pub end: Ns,
    pub kind: SpanKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum InstantKind {
    /// The periodic tick fired on `core`.
    Tick,
    /// The hrtick timer fired (slice end).
    Hrtick,
    /// A reschedule IPI was sent from `from` to `core`.
    Ipi { from: u16 },
    /// `task` was woken by a task on `from` and placed on `core`.
    Wakeup { from: u16, task: u32 },
    /// `task` moved to `core` from `from` (load balancing).
    Migrate { from: u16, task: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instant {
    pub core: u16,
    pub time: Ns,
    pub kind: InstantKind,
}

/// How the task leaving the CPU left it, as `sched_switch`'s `prev_state` reports it
/// (`__trace_sched_switch_state`, include/trace/events/sched.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrevState {
    /// Preempted in the kernel, during a system-call burst (`__schedule(preempt=true)`:
    /// `R+` from 3.2, `R` before).
    Preempted,
    /// Runnable, not a kernel preemption (`R`): preempted on the way back to user space,
    /// or woken again before the switch.
    Runnable,
    /// Blocked or sleeping, TASK_INTERRUPTIBLE (`S`).
    Sleeping,
    /// Exited (`X`).
    Dead,
}

/// A context switch on `core` at `time`, exactly where the engine counts one
/// (`Metrics::context_switches`): `__schedule` calls `trace_sched_switch` only when
/// `prev != next`. `None` is the idle task (pid 0, `swapper/N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Switch {
    pub core: u16,
    pub time: Ns,
    pub prev: Option<u32>,
    pub prev_state: PrevState,
    pub next: Option<u32>,
}

/// A CPU's `cfs_rq` `util_avg` (0..=1024) at a PELT update (`sim::pelt`), kept when it
/// moved by `trace::UTIL_STEP` or more since the CPU's last sample (`Trace::util`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UtilSample {
    pub core: u16,
    pub time: Ns,
    pub util: u16,
}

/// Static facts about a task, for legends and exports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskInfo {
    pub name: String,
    /// Tasks of one kind share a group (`sender`, `cc1`), for colouring.
    pub group: String,
}
