//! The config's value types: the enums and records a key's text parses into.
//!
//! They sit below everything that reads a config (`kernel` names the scheduling class an
//! era runs, `workload::hackbench` its mode and transport), so this file imports nothing
//! of the engine but `time`: `config` re-exports them, and the modules under it import
//! them from here, never from `config` itself, which would be a circle (`config` reads
//! `kernel`).

use serde::{Deserialize, Serialize};

use crate::engine::time::Ns;

/// An enum whose variants each have one text name (the key's value): `NAMES` in declaration
/// order (a picker's options, the list an error message gives), `name` and `parse`.
macro_rules! named {
    ($(#[$m:meta])* pub enum $t:ident { $($(#[$vm:meta])* $v:ident = $s:literal,)+ }) => {
        $(#[$m])*
        pub enum $t {
            $($(#[$vm])* $v,)+
        }

        impl $t {
            /// Every variant's name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($s),+];

            /// The name `Config::set` reads and `Config::get` prints.
            pub fn name(self) -> &'static str {
                match self {
                    $($t::$v => $s,)+
                }
            }

            /// The variant named `s`.
            pub fn parse(s: &str) -> Option<Self> {
                match s {
                    $($s => Some($t::$v),)+
                    _ => None,
                }
            }
        }
    };
}

/// hackbench's senders and receivers per group (`num_fds`, 20 by default).
pub const HACKBENCH_FDS: usize = 20;
/// hackbench's tasks per group: its senders and receivers.
pub const HACKBENCH_TASKS_PER_GROUP: usize = 2 * HACKBENCH_FDS;

named! {
    /// The scheduling class (`policy`): derived from `kernel` (`Kernel::policy`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum PolicyKind {
        Cfs = "cfs",
        Eevdf = "eevdf",
        Sd = "sd",
    }
}

named! {
    /// The cpuidle governor (`governor`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Governor {
        Menu = "menu",
        Ladder = "ladder",
        Teo = "teo",
    }
}

named! {
    /// The program the simulated tasks run (`workload`, one file each under `workload/`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum WorkloadKind {
        Pipe = "pipe",
        Iperf = "iperf",
        Kbuild = "kbuild",
        Rtapp = "rtapp",
        Token = "token",
        Hackbench = "hackbench",
        Schbench = "schbench",
        /// stress-ng `--pipe N` (`workload/stressng.rs`).
        #[serde(rename = "stress-ng-pipe")]
        StressNgPipe = "stress-ng-pipe",
    }
}

/// One rt-app-style periodic task group: `count` tasks that each run `run` every `period`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodicTask {
    pub count: u32,
    pub run: Ns,
    pub period: Ns,
    /// The tasks' `sched_attr.sched_runtime` (rt-app's `dl-runtime` on SCHED_OTHER): a custom
    /// slice that 6.12 honours (clamped to 0.1..100 ms, `policy::custom_slice`) and older
    /// kernels ignore; 0 sets none. Written `@slice=DURATION` after the period.
    #[serde(default)]
    pub slice: Ns,
}

named! {
    /// The `idle=` boot parameter: which idle routine the kernel uses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum IdleMode {
        /// The cpuidle driver and governor pick among the enabled states.
        Default = "default",
        /// `idle=poll`: the idle task spins with TIF_POLLING_NRFLAG set; no driver, no governor.
        Poll = "poll",
        /// `idle=halt`: HLT, no driver, no governor.
        Halt = "halt",
    }
}

/// Which C-states the idle driver may use (POLL is always available).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CStates {
    /// Every state of the profile.
    All,
    /// C-states disabled in the BIOS: what the profile's idle driver still uses
    /// (`profile::BiosOff`; e.g. intel_idle's table demoted to C1, or HLT). Not idle=poll.
    Off,
    /// Only these, by name (`C1,C1E`).
    Only(Vec<String>),
}

named! {
    /// `hackbench_mode`: children are processes (`fork`) or threads (`pthread_create`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum HackbenchMode {
        Process = "process",
        Thread = "thread",
    }
}

named! {
    /// `ipc`: AF_UNIX `socketpair` (hackbench's default) or `pipe` (`-p`/`--pipe`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Ipc {
        Socket = "socket",
        Pipe = "pipe",
    }
}
