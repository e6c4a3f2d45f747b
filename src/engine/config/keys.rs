//! The config keys, and `Config` itself: one entry per key in `config_keys!` gives the
//! field (its name is the key), its default and its `KeyDoc` row (documentation, range,
//! `applies` rule, getter and parser). `Config::set`, `get` and `applies` only look the row
//! up.
//!
//! Adding a key is one entry here (the tests walk every row: its help, its round trip
//! through `get` and `set`, each choice and bound), plus the mechanism that reads it.

use serde::{Deserialize, Serialize};

use super::values::{CStates, Governor, HackbenchMode, IdleMode, Ipc, PeriodicTask, PolicyKind, WorkloadKind};
use super::{
    err, format_tasks, on_off, parse_bool, parse_dur, parse_int, parse_tasks, ConfigError, MAX_CORES, MAX_DURATION,
    MAX_EVENTS, MAX_HACKBENCH_GROUPS, MAX_TASKS,
};
use crate::engine::kernel::{parse_features, CfsDesign, Kernel, PreemptModel};
use crate::engine::profile::{profile, profile_names};
use crate::engine::time::{format_duration, Ns, MS, SEC, US};

/// The kind of value a key takes, for pickers and sliders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// A whole number in `min..=max`.
    Int { min: u64, max: u64 },
    /// A duration in `min..=max`.
    Duration { min: Ns, max: Ns },
    /// `on` or `off`.
    Bool,
    /// One of a fixed list.
    Choice(&'static [&'static str]),
    /// Free text with its own grammar (C-state lists, task lists, `none`).
    Text,
}

/// One config key: its name, documentation and range, when it matters, and how its value
/// is printed and parsed. A key is this one row (and its `Config` field).
#[derive(Clone, Copy, Debug)]
pub struct KeyDoc {
    pub key: &'static str,
    pub group: &'static str,
    pub kind: KeyKind,
    /// One line: what it does in the kernel.
    pub help: &'static str,
    /// Whether the key matters in this config (policy, workload, nohz); the UI disables the
    /// others and the CLI warns about them (`Config::applies`).
    pub applies: fn(&Config) -> bool,
    /// The canonical text of the value (`Config::get`): `set` reads it back unchanged.
    pub get: fn(&Config) -> String,
    /// Parses a trimmed value and sets it (`Config::set`); on error the config is unchanged.
    /// The row itself is passed in, so the range is read from `kind`, never restated.
    pub set: fn(&mut Config, &KeyDoc, &str) -> Result<(), ConfigError>,
}

impl KeyDoc {
    /// A whole number in this key's range.
    pub(super) fn int(&self, v: &str) -> Result<u64, ConfigError> {
        match self.kind {
            KeyKind::Int { min, max } => parse_int(self.key, v, min, max),
            _ => Err(err(self.key, "internal: not an integer key")),
        }
    }

    /// A duration in this key's range.
    pub(super) fn dur(&self, v: &str) -> Result<Ns, ConfigError> {
        match self.kind {
            KeyKind::Duration { min, max } => parse_dur(self.key, v, min, max),
            _ => Err(err(self.key, "internal: not a duration key")),
        }
    }

    /// One of this key's choices, parsed by `parse`.
    pub(super) fn choice<T>(&self, v: &str, parse: impl Fn(&str) -> Option<T>) -> Result<T, ConfigError> {
        let KeyKind::Choice(list) = self.kind else { return Err(err(self.key, "internal: not a choice key")) };
        list.contains(&v)
            .then(|| parse(v))
            .flatten()
            .ok_or_else(|| err(self.key, format!("'{v}' is not one of {}", list.join(", "))))
    }
}

/// The `applies` rule of a key that matters in every config.
fn always(_: &Config) -> bool {
    true
}

/// Declares `Config`, its `Default` and `KEYS` from one list, so a key is written once: its
/// field (name, doc, type), its default, and its row (the row's `key` is the field's name).
/// The fields that are not keys (`policy`, which follows `kernel`) come after them.
macro_rules! config_keys {
    (
        keys { $( $(#[$attr:meta])* $field:ident: $ty:ty = $default:expr => { $($row:tt)* } )* }
        derived { $( $(#[$dattr:meta])* $dfield:ident: $dty:ty = $ddefault:expr, )* }
    ) => {
        /// The simulation's configuration: one field per key (`KEYS`), in `KEYS` order.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub struct Config {
            $( $(#[$attr])* pub $field: $ty, )*
            $( $(#[$dattr])* pub $dfield: $dty, )*
        }

        impl Default for Config {
            /// A small machine everyone can read in one screen: 2 cores, CFS of 4.17, HZ=250,
            /// four periodic tasks. The `intro` preset is this config.
            fn default() -> Self {
                Config { $( $field: $default, )* $( $dfield: $ddefault, )* }
            }
        }

        /// Every config key, grouped as the UI shows them.
        pub const KEYS: &[KeyDoc] = &[ $( KeyDoc { key: stringify!($field), $($row)* }, )* ];
    };
}

config_keys! {
keys {
    cpu: String = "skylake-sp".into() => {
        group: "Machine",
        kind: KeyKind::Text,
        help: "Hardware profile: its C-state table and the cost of switches, syscalls, timer reprograms and IPIs.",
        applies: always,
        get: |c| c.cpu.clone(),
        set: set_cpu,
    }
    cores: u32 = 2 => {
        group: "Machine",
        kind: KeyKind::Int { min: 1, max: MAX_CORES as u64 },
        help: "Number of CPUs the scheduler runs on.",
        applies: always,
        get: |c| c.cores.to_string(),
        set: |c, d, v| {
            c.cores = d.int(v)? as u32;
            Ok(())
        },
    }
    hz: u32 = 250 => {
        group: "Machine",
        kind: KeyKind::Choice(&["100", "250", "300", "1000"]),
        help: "CONFIG_HZ: the periodic tick rate; without hrtick a slice can only end on a tick.",
        applies: always,
        get: |c| c.hz.to_string(),
        set: |c, d, v| {
            c.hz = d.choice(v, |s| s.parse().ok())?;
            Ok(())
        },
    }
    /// The release whose mechanisms and defaults the run follows.
    kernel: Kernel = Kernel::V417 => {
        group: "Scheduler",
        // Must list `kernel::KERNELS` in order (a test checks it): the picker's options.
        kind: KeyKind::Choice(&["2.6.21-sd", "2.6.23", "sched-devel-2007", "2.6.24", "3.11", "4.17", "5.15", "6.6", "6.12"]),
        help: "The kernel release whose scheduler, idle loop and defaults the run follows (SD, CFS or EEVDF by era); sets the era's tunables.",
        applies: always,
        get: |c| c.kernel.name().into(),
        set: set_kernel_key,
    }
    /// `sched_features` this config changes from the era's defaults (canonical, see `kernel`).
    features: Vec<String> = Vec::new() => {
        group: "Scheduler",
        kind: KeyKind::Text,
        help: "sched_features changed from the era's defaults, as written to debugfs: HRTICK NO_WAKEUP_PREEMPTION ...",
        applies: |c| c.policy != PolicyKind::Sd,
        get: |c| c.features.join(" "),
        set: |c, d, v| {
            c.features = parse_features(c.kernel, v).map_err(|m| err(d.key, m))?;
            Ok(())
        },
    }
    sched_latency: Ns = 6 * MS => {
        group: "Scheduler",
        kind: KeyKind::Duration { min: 100 * US, max: SEC },
        help: "sysctl_sched_latency (unscaled): the period in which every runnable task runs once.",
        applies: |c| c.policy == PolicyKind::Cfs,
        get: |c| format_duration(c.sched_latency),
        set: |c, d, v| {
            c.sched_latency = d.dur(v)?;
            Ok(())
        },
    }
    min_granularity: Ns = 750 * US => {
        group: "Scheduler",
        kind: KeyKind::Duration { min: 50 * US, max: SEC },
        help: "sysctl_sched_min_granularity (unscaled; EEVDF's base_slice): the shortest slice.",
        applies: |c| c.policy != PolicyKind::Sd,
        get: |c| format_duration(c.min_granularity),
        set: |c, d, v| {
            c.min_granularity = d.dur(v)?;
            Ok(())
        },
    }
    wakeup_granularity: Ns = MS => {
        group: "Scheduler",
        kind: KeyKind::Duration { min: 0, max: SEC },
        help: "sysctl_sched_wakeup_granularity (unscaled): how far behind a woken task must be to preempt.",
        applies: |c| c.policy == PolicyKind::Cfs,
        get: |c| format_duration(c.wakeup_granularity),
        set: |c, d, v| {
            c.wakeup_granularity = d.dur(v)?;
            Ok(())
        },
    }
    /// Mel Gorman's "Scale wakeup granularity relative to nr_running" (LKML, Sep 2021; never
    /// merged): CFS's wakeup preemption uses `gran * min(nr_running >> 1, sched_nr_latency)`.
    wakeup_gran_scale: bool = false => {
        group: "Scheduler",
        kind: KeyKind::Bool,
        help: "CFS (2.6.32-6.5): Mel Gorman's 2021 patch 'Scale wakeup granularity relative to nr_running' (not merged): wakeup preemption needs gran x min(nr_running/2, sched_nr_latency).",
        applies: |c| c.kernel.cfs_design() == CfsDesign::Modern && c.policy == PolicyKind::Cfs,
        get: |c| on_off(c.wakeup_gran_scale),
        set: |c, d, v| {
            c.wakeup_gran_scale = parse_bool(d.key, v)?;
            Ok(())
        },
    }
    /// EEVDF's first `pick_eevdf` (147f3efaa241, May 2023; 6.6-rc1 and the tip tree of Aug
    /// 2023), replaced by b01db23d5923 "sched/eevdf: Fix pick_eevdf()" (Sep 2023) before
    /// 6.6.0 (`policy::eevdf`, `Eevdf::pick_v1`).
    #[serde(default)]
    pick_eevdf_v1: bool = false => {
        group: "Scheduler",
        kind: KeyKind::Bool,
        help: "EEVDF (6.6): pick_eevdf as first merged (6.6-rc1, the tip tree of Aug 2023), before 'sched/eevdf: Fix pick_eevdf()' (b01db23d5923, in 6.6.0): its walk of the vruntime-ordered tree can pass over the earliest eligible deadline.",
        applies: |c| c.kernel == Kernel::V66 && c.policy == PolicyKind::Eevdf,
        get: |c| on_off(c.pick_eevdf_v1),
        set: |c, d, v| {
            c.pick_eevdf_v1 = parse_bool(d.key, v)?;
            Ok(())
        },
    }
    /// `preempt=none|voluntary|full`; `None`: the era's default (`Kernel::preempt_default`).
    #[serde(default)]
    preempt: Option<PreemptModel> = None => {
        group: "Scheduler",
        kind: KeyKind::Choice(&["default", "none", "voluntary", "full"]),
        help: "Preemption model (preempt= boot parameter from 5.12, a build choice before): full preempts kernel-mode work at once; none and voluntary only when it ends (return to user space). default: the era's (Kconfig's PREEMPT_NONE).",
        applies: always,
        get: |c| c.preempt.map_or("default", PreemptModel::name).into(),
        set: set_preempt,
    }
    migration_cost: Ns = 500 * US => {
        group: "Scheduler",
        kind: KeyKind::Duration { min: 0, max: 100 * MS },
        help: "sysctl_sched_migration_cost: cache-hot threshold, and the nohz rate limit's avg_idle bound.",
        applies: always,
        get: |c| format_duration(c.migration_cost),
        set: |c, d, v| {
            c.migration_cost = d.dur(v)?;
            Ok(())
        },
    }
    rr_interval: Ns = 6 * MS => {
        group: "Scheduler",
        kind: KeyKind::Duration { min: 100 * US, max: 10 * SEC },
        help: "SD/BFS quantum: the longest two equal-priority tasks wait for each other.",
        applies: |c| c.policy == PolicyKind::Sd,
        get: |c| format_duration(c.rr_interval),
        set: |c, d, v| {
            c.rr_interval = d.dur(v)?;
            Ok(())
        },
    }
    cstates: CStates = CStates::All => {
        group: "Idle",
        kind: KeyKind::Text,
        help: "Idle states the firmware and idle driver expose: 'all', a comma list, or 'off' (C-states disabled in the BIOS: the driver's shallowest state, e.g. C1 by MWAIT or HLT; not idle=poll).",
        applies: always,
        get: get_cstates,
        set: set_cstates,
    }
    governor: Governor = Governor::Menu => {
        group: "Idle",
        kind: KeyKind::Choice(Governor::NAMES),
        help: "cpuidle governor that predicts the idle length and picks a C-state.",
        applies: always,
        get: |c| c.governor.name().into(),
        set: |c, d, v| {
            c.governor = d.choice(v, Governor::parse)?;
            Ok(())
        },
    }
    latency_limit: Option<Ns> = None => {
        group: "Idle",
        kind: KeyKind::Text,
        help: "PM QoS CPU latency limit ('none' or a duration): states with a longer exit latency are not used.",
        applies: always,
        get: |c| c.latency_limit.map(format_duration).unwrap_or_else(|| "none".into()),
        set: |c, d, v| {
            c.latency_limit = match v {
                "none" | "off" => None,
                t => Some(parse_dur(d.key, t, 0, 10 * MS)?),
            };
            Ok(())
        },
    }
    idle: IdleMode = IdleMode::Default => {
        group: "Idle",
        kind: KeyKind::Choice(IdleMode::NAMES),
        help: "idle= boot parameter: default (cpuidle driver and governor), poll (spin with the polling flag: no IPI, no governor; tick kept from 4.17), or halt (HLT, no governor).",
        applies: always,
        get: |c| c.idle.name().into(),
        set: |c, d, v| {
            c.idle = d.choice(v, IdleMode::parse)?;
            Ok(())
        },
    }
    nohz: bool = true => {
        group: "nohz",
        kind: KeyKind::Bool,
        help: "NO_HZ_IDLE: stop the periodic tick when a CPU idles (one clock-event reprogram).",
        applies: always,
        get: |c| on_off(c.nohz),
        set: |c, d, v| {
            c.nohz = parse_bool(d.key, v)?;
            Ok(())
        },
    }
    nohz_ratelimit: bool = false => {
        group: "nohz",
        kind: KeyKind::Bool,
        help: "'sched: ratelimit nohz': keep the tick when avg_idle is under migration_cost.",
        applies: |c| c.nohz,
        get: |c| on_off(c.nohz_ratelimit),
        set: |c, d, v| {
            c.nohz_ratelimit = parse_bool(d.key, v)?;
            Ok(())
        },
    }
    nohz_exit_reprograms: u32 = 1 => {
        group: "nohz",
        kind: KeyKind::Int { min: 1, max: 2 },
        help: "Clock-event reprograms on idle exit: 2 is the 3.11-rc regression (commit 968320b), 1 the fix.",
        applies: |c| c.nohz,
        get: |c| c.nohz_exit_reprograms.to_string(),
        set: |c, d, v| {
            c.nohz_exit_reprograms = d.int(v)? as u32;
            Ok(())
        },
    }
    workload: WorkloadKind = WorkloadKind::Rtapp => {
        group: "Workload",
        kind: KeyKind::Choice(WorkloadKind::NAMES),
        help: "pipe ping-pong, iperf -P N over loopback, make -jN, rt-app periodic tasks, pinned token passing, hackbench groups, schbench message and worker threads, or stress-ng's pipe stressor.",
        applies: always,
        get: |c| c.workload.name().into(),
        set: set_workload,
    }
    loops: u64 = 100_000 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 10_000_000 },
        help: "pipe: round trips (perf bench sched pipe -l); token: passes of each pair's token; hackbench: messages per sender and receiver (-l; 100 when a config switches to hackbench, as hackbench's own default).",
        applies: |c| matches!(c.workload, WorkloadKind::Pipe | WorkloadKind::Token | WorkloadKind::Hackbench),
        get: |c| c.loops.to_string(),
        set: |c, d, v| {
            c.loops = d.int(v)?;
            Ok(())
        },
    }
    streams: u32 = 4 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 64 },
        help: "iperf: parallel TCP streams over loopback (-P).",
        applies: |c| c.workload == WorkloadKind::Iperf,
        get: |c| c.streams.to_string(),
        set: |c, d, v| {
            c.streams = d.int(v)? as u32;
            Ok(())
        },
    }
    jobs: u32 = 4 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 64 },
        help: "kbuild: make -j jobs.",
        applies: |c| c.workload == WorkloadKind::Kbuild,
        get: |c| c.jobs.to_string(),
        set: |c, d, v| {
            c.jobs = d.int(v)? as u32;
            Ok(())
        },
    }
    tasks: Vec<PeriodicTask> = vec![
        PeriodicTask { count: 2, run: 3 * MS, period: 10 * MS, slice: 0 },
        PeriodicTask { count: 2, run: 500 * US, period: 2 * MS, slice: 0 },
    ] => {
        group: "Workload",
        kind: KeyKind::Text,
        help: "rtapp: groups COUNTxRUN/PERIOD, comma separated (2x3ms/10ms); @slice=300us sets a 6.12 custom slice.",
        applies: |c| c.workload == WorkloadKind::Rtapp,
        get: |c| format_tasks(&c.tasks),
        set: |c, d, v| {
            c.tasks = parse_tasks(v).map_err(|m| err(d.key, m))?;
            Ok(())
        },
    }
    /// token: pairs of pinned threads passing a token over pipes.
    pairs: u32 = 2 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 32 },
        help: "token: pairs of threads, each thread pinned to its own CPU, passing a token over pipes.",
        applies: |c| c.workload == WorkloadKind::Token,
        get: |c| c.pairs.to_string(),
        set: |c, d, v| {
            c.pairs = d.int(v)? as u32;
            Ok(())
        },
    }
    /// token: computation at each stop of the token.
    // Not a figure from the corpus (Smythies does not state his work per stop): 10 us,
    // a stop several times longer than the pipe hand-off itself.
    work: Ns = 10 * US => {
        group: "Workload",
        kind: KeyKind::Duration { min: 0, max: 100 * MS },
        help: "token: computation at each stop of the token (CPU time on this machine).",
        applies: |c| c.workload == WorkloadKind::Token,
        get: |c| format_duration(c.work),
        set: |c, d, v| {
            c.work = d.dur(v)?;
            Ok(())
        },
    }
    groups: u32 = 10 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: MAX_HACKBENCH_GROUPS },
        help: "hackbench: groups of 20 senders and 20 receivers (-g; 40 tasks a group, plus the parent).",
        applies: |c| c.workload == WorkloadKind::Hackbench,
        get: |c| c.groups.to_string(),
        set: |c, d, v| {
            let n = d.int(v).map_err(|e| {
                err(d.key, format!("{} (40 tasks a group; the engine runs at most {MAX_TASKS} tasks)", e.message))
            })?;
            c.groups = n as u32;
            Ok(())
        },
    }
    msg_size: u32 = 100 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 4096 },
        help: "hackbench: bytes per message (-s; at most PIPE_BUF, so every write is atomic).",
        applies: |c| c.workload == WorkloadKind::Hackbench,
        get: |c| c.msg_size.to_string(),
        set: |c, d, v| {
            c.msg_size = d.int(v)? as u32;
            Ok(())
        },
    }
    hackbench_mode: HackbenchMode = HackbenchMode::Process => {
        group: "Workload",
        kind: KeyKind::Choice(HackbenchMode::NAMES),
        help: "hackbench: children are forked processes or threads (-T).",
        applies: |c| c.workload == WorkloadKind::Hackbench,
        get: |c| c.hackbench_mode.name().into(),
        set: |c, d, v| {
            c.hackbench_mode = d.choice(v, HackbenchMode::parse)?;
            Ok(())
        },
    }
    ipc: Ipc = Ipc::Socket => {
        group: "Workload",
        kind: KeyKind::Choice(Ipc::NAMES),
        help: "hackbench: AF_UNIX socketpair (default) or pipe (-p).",
        applies: |c| c.workload == WorkloadKind::Hackbench,
        get: |c| c.ipc.name().into(),
        set: |c, d, v| {
            c.ipc = d.choice(v, Ipc::parse)?;
            Ok(())
        },
    }
    /// schbench: -m, -t (0: the CPUs shared out), -n, -F (KB), -s, and not -L.
    // schbench.c's defaults.
    schbench_message_threads: u32 = 1 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 64 },
        help: "schbench: message threads (-m), each posting requests to its own workers over futexes.",
        applies: |c| c.workload == WorkloadKind::Schbench,
        get: |c| c.schbench_message_threads.to_string(),
        set: |c, d, v| {
            c.schbench_message_threads = d.int(v)? as u32;
            Ok(())
        },
    }
    /// stress-ng-pipe: workers (`--pipe N`).
    workers: u32 = 4 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 4096 },
        help: "stress-ng-pipe: workers (--pipe N), each a writer and a reader process over one pipe.",
        applies: |c| c.workload == WorkloadKind::StressNgPipe,
        get: |c| c.workers.to_string(),
        set: |c, d, v| {
            c.workers = d.int(v)? as u32;
            Ok(())
        },
    }
    schbench_workers: u32 = 0 => {
        group: "Workload",
        kind: KeyKind::Int { min: 0, max: 255 },
        help: "schbench: worker threads per message thread (-t); 0 is schbench's default, the CPUs shared out among the message threads.",
        applies: |c| c.workload == WorkloadKind::Schbench,
        get: |c| c.schbench_workers.to_string(),
        set: |c, d, v| {
            c.schbench_workers = d.int(v)? as u32;
            Ok(())
        },
    }
    schbench_operations: u32 = 5 => {
        group: "Workload",
        kind: KeyKind::Int { min: 0, max: 1000 },
        help: "schbench: matrix multiplies per request (-n).",
        applies: |c| c.workload == WorkloadKind::Schbench,
        get: |c| c.schbench_operations.to_string(),
        set: |c, d, v| {
            c.schbench_operations = d.int(v)? as u32;
            Ok(())
        },
    }
    schbench_footprint: u32 = 256 => {
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 1 << 20 },
        help: "schbench: cache footprint in KB (-F): each worker's three matrices, sqrt(KB*1024/24) on a side.",
        applies: |c| c.workload == WorkloadKind::Schbench,
        get: |c| c.schbench_footprint.to_string(),
        set: |c, d, v| {
            c.schbench_footprint = d.int(v)? as u32;
            Ok(())
        },
    }
    schbench_sleep: Ns = 100 * US => {
        group: "Workload",
        kind: KeyKind::Duration { min: 0, max: SEC },
        help: "schbench: usleep at the start of each request (-s; the kernel adds its 50 us timer slack).",
        applies: |c| c.workload == WorkloadKind::Schbench,
        get: |c| format_duration(c.schbench_sleep),
        set: |c, d, v| {
            c.schbench_sleep = d.dur(v)?;
            Ok(())
        },
    }
    schbench_locking: bool = true => {
        group: "Workload",
        kind: KeyKind::Bool,
        help: "schbench: take the per-CPU lock around the matrix math (off is -L): a worker preempted there makes the next one on its CPU spin.",
        applies: |c| c.workload == WorkloadKind::Schbench,
        get: |c| on_off(c.schbench_locking),
        set: |c, d, v| {
            c.schbench_locking = parse_bool(d.key, v)?;
            Ok(())
        },
    }
    duration: Ns = 200 * MS => {
        group: "Run",
        kind: KeyKind::Duration { min: MS, max: MAX_DURATION },
        help: "Simulated time limit (workloads with a fixed amount of work stop earlier).",
        applies: always,
        get: |c| format_duration(c.duration),
        set: |c, d, v| {
            c.duration = d.dur(v)?;
            Ok(())
        },
    }
    seed: u64 = 1 => {
        group: "Run",
        kind: KeyKind::Int { min: 0, max: u64::MAX },
        help: "Seed of the simulation's random streams: same config and seed, same result.",
        applies: always,
        get: |c| c.seed.to_string(),
        set: |c, d, v| {
            c.seed = d.int(v)?;
            Ok(())
        },
    }
    max_events: u64 = 50_000_000 => {
        group: "Run",
        kind: KeyKind::Int { min: 1_000, max: MAX_EVENTS },
        help: "Event budget: the run stops (and says so) after this many events.",
        applies: always,
        get: |c| c.max_events.to_string(),
        set: |c, d, v| {
            c.max_events = d.int(v)?;
            Ok(())
        },
    }
}
derived {
    /// The scheduling class: always `kernel.policy()` (kept as a field for the hot paths).
    policy: PolicyKind = PolicyKind::Cfs,
}
}

/// Looks up a key's row.
pub fn key_doc(key: &str) -> Option<&'static KeyDoc> {
    KEYS.iter().find(|k| k.key == key)
}

fn set_cpu(c: &mut Config, d: &KeyDoc, v: &str) -> Result<(), ConfigError> {
    if profile(v).is_none() {
        return Err(err(d.key, format!("unknown cpu '{v}' (allowed: {})", profile_names().join(", "))));
    }
    c.cpu = v.to_string();
    // A list of states may not exist on the new CPU: keep only the known ones.
    if let CStates::Only(list) = &c.cstates {
        let p = c.profile();
        let kept: Vec<String> = list.iter().filter(|n| p.cstates.iter().any(|s| &s.name == n)).cloned().collect();
        c.cstates = if kept.is_empty() { CStates::Off } else { CStates::Only(kept) };
    }
    Ok(())
}

fn set_kernel_key(c: &mut Config, d: &KeyDoc, v: &str) -> Result<(), ConfigError> {
    let k = Kernel::parse(v)
        .ok_or_else(|| err(d.key, format!("unknown kernel '{v}' (allowed: {})", Kernel::names().join(", "))))?;
    c.set_kernel(k);
    Ok(())
}

fn set_preempt(c: &mut Config, d: &KeyDoc, v: &str) -> Result<(), ConfigError> {
    c.preempt = d.choice(v, |s| match s {
        "default" => Some(None),
        "none" => Some(Some(PreemptModel::None)),
        "voluntary" => Some(Some(PreemptModel::Voluntary)),
        "full" => Some(Some(PreemptModel::Full)),
        _ => None,
    })?;
    Ok(())
}

fn get_cstates(c: &Config) -> String {
    match &c.cstates {
        CStates::All => "all".into(),
        CStates::Off => "off".into(),
        CStates::Only(list) => list.join(","),
    }
}

fn set_cstates(c: &mut Config, d: &KeyDoc, v: &str) -> Result<(), ConfigError> {
    let key = d.key;
    c.cstates = match v {
        // An unset shell variable (`cstates=$S`) must not turn C-states off.
        "" => return Err(err(key, "empty (allowed: all, off, or a list of state names)")),
        "all" => CStates::All,
        "off" | "none" => CStates::Off,
        list => {
            let p = profile(&c.cpu).ok_or_else(|| err(key, "unknown cpu"))?;
            let mut names = Vec::new();
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let Some(s) = p.cstates.iter().find(|s| s.name.eq_ignore_ascii_case(name)) else {
                    let known: Vec<_> = p.cstates.iter().map(|s| s.name).collect();
                    return Err(err(
                        key,
                        format!("{} has no state '{name}' (has {}; or all, off)", p.name, known.join(", ")),
                    ));
                };
                if !names.iter().any(|n: &String| n == s.name) {
                    names.push(s.name.to_string());
                }
            }
            if names.is_empty() {
                return Err(err(key, format!("'{v}' names no state (allowed: all, off, or state names)")));
            }
            // Keep table order so the printed form is canonical.
            let ordered =
                p.cstates.iter().filter(|s| names.iter().any(|n| n == s.name)).map(|s| s.name.to_string()).collect();
            CStates::Only(ordered)
        }
    };
    Ok(())
}

fn set_workload(c: &mut Config, d: &KeyDoc, v: &str) -> Result<(), ConfigError> {
    let was = c.workload;
    c.workload = d.choice(v, WorkloadKind::parse)?;
    // A workload's defaults follow the switch unless the user changed them.
    if c.loops == was.default_loops() {
        c.loops = c.workload.default_loops();
    }
    if c.duration == was.default_duration() {
        c.duration = c.workload.default_duration();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::ALIASES;
    use super::*;

    /// The texts to try for a row: its choices, its bounds, or a few values of its grammar.
    fn samples(d: &KeyDoc) -> Vec<String> {
        match d.kind {
            KeyKind::Choice(list) => list.iter().map(|s| s.to_string()).collect(),
            KeyKind::Int { min, max } => vec![min.to_string(), max.to_string(), ((min + max / 2).min(max)).to_string()],
            KeyKind::Duration { min, max } => {
                vec![format_duration(min), format_duration(max), format_duration(min.max(MS).min(max))]
            }
            KeyKind::Bool => vec!["on".into(), "off".into()],
            KeyKind::Text => match d.key {
                "cpu" => profile_names().iter().map(|s| s.to_string()).collect(),
                "features" => vec!["HRTICK".into(), "NO_WAKEUP_PREEMPTION".into(), String::new()],
                "cstates" => vec!["all".into(), "off".into(), "C1".into()],
                "latency_limit" => vec!["none".into(), "1us".into(), "10ms".into()],
                "tasks" => vec!["2x3ms/10ms,1x500us/2ms@slice=300us".into(), "1x1ms/1ms".into()],
                other => panic!("{other}: a text key without samples in this test"),
            },
        }
    }

    #[test]
    fn every_row_round_trips_every_sample_through_set_and_get() {
        let mut tried = 0;
        for d in KEYS {
            let c = Config::default();
            // The default value reads back to the same config.
            let v = (d.get)(&c);
            let mut back = Config::default();
            back.set(d.key, &v).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, c, "{}={v}", d.key);
            for s in samples(d) {
                let mut c = Config::default();
                c.set(d.key, &s).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(c.get(d.key).as_deref(), Some(s.as_str()), "{} printed back", d.key);
                let mut again = c.clone();
                again.set(d.key, &s).unwrap();
                assert_eq!(again, c, "{}={s} set twice", d.key);
                tried += 1;
            }
        }
        assert!(tried > 100, "{tried}");
    }

    #[test]
    fn every_bound_is_enforced_and_the_message_names_the_range() {
        for d in KEYS {
            let mut c = Config::default();
            let below_above = match d.kind {
                KeyKind::Int { min, max } => {
                    let mut v = vec![];
                    if min > 0 {
                        v.push((min - 1).to_string());
                    }
                    if max < u64::MAX {
                        v.push((max + 1).to_string());
                    }
                    v.into_iter().map(|t| (t, format!("(allowed {min} to {max})"))).collect()
                }
                KeyKind::Duration { min, max } => {
                    let range = format!("(allowed {} to {})", format_duration(min), format_duration(max));
                    let mut v = vec![(format!("{}ns", max + 1), range.clone())];
                    if min > 0 {
                        v.push((format!("{}ns", min - 1), range));
                    }
                    v
                }
                KeyKind::Choice(list) => vec![("nope".to_string(), list.join(", "))],
                KeyKind::Bool => vec![("maybe".to_string(), "is not on or off".to_string())],
                KeyKind::Text => vec![],
            };
            for (v, says) in below_above {
                let e = c.set(d.key, &v).unwrap_err();
                assert_eq!(e.key, d.key);
                assert!(e.message.contains(&says), "{}={v}: {}", d.key, e.message);
                assert_eq!(c, Config::default(), "{}={v} refused, nothing changed", d.key);
            }
        }
    }

    /// The messages as the match this table replaced wrote them (tests/, the UI and the
    /// CLI's users read them).
    #[test]
    fn the_messages_are_those_of_before() {
        let msg = |k: &str, v: &str| Config::default().set(k, v).unwrap_err().message;
        assert_eq!(msg("hz", "200"), "'200' is not one of 100, 250, 300, 1000");
        assert_eq!(msg("governor", "x"), "'x' is not one of menu, ladder, teo");
        assert_eq!(msg("idle", "x"), "'x' is not one of default, poll, halt");
        assert_eq!(msg("preempt", "x"), "'x' is not one of default, none, voluntary, full");
        assert_eq!(
            msg("workload", "x"),
            "'x' is not one of pipe, iperf, kbuild, rtapp, token, hackbench, schbench, stress-ng-pipe"
        );
        assert_eq!(msg("hackbench_mode", "x"), "'x' is not one of process, thread");
        assert_eq!(msg("ipc", "x"), "'x' is not one of socket, pipe");
        assert_eq!(msg("policy", "x"), "'x' is not one of cfs, eevdf, sd");
        assert_eq!(msg("cores", "x"), "'x' is not a whole number (allowed 1 to 256)");
        assert_eq!(msg("cores", "0"), "0 is out of range (allowed 1 to 256)");
        assert_eq!(
            msg("groups", "1000"),
            "1000 is out of range (allowed 1 to 409) (40 tasks a group; the engine runs at most 16384 tasks)"
        );
        assert_eq!(msg("nohz", "x"), "'x' is not on or off");
        assert!(msg("kernel", "x").starts_with("unknown kernel 'x' (allowed: 2.6.21-sd, "), "{}", msg("kernel", "x"));
        assert!(msg("cpu", "x").starts_with("unknown cpu 'x' (allowed: "));
        assert!(msg("nonsense", "1").starts_with("unknown key (known: cpu, cores, hz, kernel, "));
    }

    #[test]
    fn every_key_is_one_row_with_help_and_a_group() {
        let groups = ["Machine", "Scheduler", "Idle", "nohz", "Workload", "Run"];
        for (i, d) in KEYS.iter().enumerate() {
            assert!(d.help.len() > 10 && !d.help.contains('\n'), "{}: help", d.key);
            assert!(groups.contains(&d.group), "{}: group {}", d.key, d.group);
            assert!(KEYS[..i].iter().all(|e| e.key != d.key), "{} has two rows", d.key);
            assert!(ALIASES.iter().all(|(a, _)| *a != d.key), "{} is also an alias", d.key);
        }
        // Every alias reads and writes (they are not rows).
        for (a, _) in ALIASES {
            let mut c = Config::default();
            let v = c.get(a).unwrap_or_else(|| panic!("{a}: no getter"));
            c.set(a, &v).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
