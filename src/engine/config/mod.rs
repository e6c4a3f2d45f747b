//! The simulation's configuration: one `Config`, its keys, their ranges, and text I/O.
//!
//! Keys are the vocabulary shared by the CLI (`--set KEY=VALUE`), the URL codec
//! (`share::url`) and the UI (`input[name=KEY]`). `Config::set` is the one validating
//! parser for a key's text value; `Config::get` prints it back so `set(k, get(k))` is the
//! identity. `KEYS` documents every key: what it does in the kernel, its unit and range.
//!
//! Granularity keys (`sched_latency`, `min_granularity`, `wakeup_granularity`) hold the
//! kernel's *unscaled* defaults; the engine multiplies them by `1 + ilog2(min(cores, 8))`
//! as the kernel does (SCHED_TUNABLESCALING_LOG). For EEVDF, `min_granularity` is the
//! `base_slice`.

use serde::{Deserialize, Serialize};

use super::kernel::{keep_features, parse_features, CfsDesign, Feat, FeatureSet, Kernel, PreemptModel};
use super::profile::{profile, profile_names, Profile};
use super::time::{format_duration, parse_duration, Ns, MS, SEC, US};
pub mod values;
pub use values::{CStates, Governor, HackbenchMode, IdleMode, Ipc, PeriodicTask, Policy, WorkloadKind};

/// Hard caps that keep any config (from a URL, a file, a slider) from freezing a tab.
pub const MAX_CORES: u32 = 128;
pub const MAX_DURATION: Ns = 600 * SEC;
/// (4 G events: hackbench's largest corpus rows at mmtests' 10,000 loops need ~2.5 G.)
pub const MAX_EVENTS: u64 = 4_000_000_000;
/// hackbench's largest table (296 groups of 40 tasks) fits.
pub const MAX_TASKS: usize = 16_384;
/// hackbench groups that fit in `MAX_TASKS` (40 tasks a group and the parent).
pub const MAX_HACKBENCH_GROUPS: u64 = ((MAX_TASKS - 1) / values::HACKBENCH_TASKS_PER_GROUP) as u64;

impl WorkloadKind {
    /// `loops` when a config switches to this workload with `loops` still at the previous
    /// workload's default: hackbench's own `-l` default (100, rt-tests hackbench.c
    /// `loops = 100`), else the config's default.
    pub fn default_loops(self) -> u64 {
        match self {
            WorkloadKind::Hackbench => 100,
            _ => Config::default().loops,
        }
    }

    /// `duration` likewise: hackbench ends when its messages are done, so its limit is only
    /// a cap (60 s); the others run for the config's default.
    pub fn default_duration(self) -> Ns {
        match self {
            WorkloadKind::Hackbench => 60 * SEC,
            _ => Config::default().duration,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub cores: u32,
    pub cpu: String,
    pub hz: u32,
    /// The release whose mechanisms and defaults the run follows.
    pub kernel: Kernel,
    /// The scheduling class: always `kernel.policy()` (kept as a field for the hot paths).
    pub policy: Policy,
    /// `sched_features` this config changes from the era's defaults (canonical, see `kernel`).
    pub features: Vec<String>,
    pub sched_latency: Ns,
    pub min_granularity: Ns,
    pub wakeup_granularity: Ns,
    /// Mel Gorman's "Scale wakeup granularity relative to nr_running" (LKML, Sep 2021; never
    /// merged): CFS's wakeup preemption uses `gran * min(nr_running >> 1, sched_nr_latency)`.
    pub wakeup_gran_scale: bool,
    /// `preempt=none|voluntary|full`; `None`: the era's default (`Kernel::preempt_default`).
    #[serde(default)]
    pub preempt: Option<PreemptModel>,
    pub migration_cost: Ns,
    pub rr_interval: Ns,
    pub cstates: CStates,
    pub governor: Governor,
    pub latency_limit: Option<Ns>,
    pub idle: IdleMode,
    pub nohz: bool,
    pub nohz_ratelimit: bool,
    pub nohz_exit_reprograms: u32,
    pub workload: WorkloadKind,
    pub loops: u64,
    pub streams: u32,
    pub jobs: u32,
    pub tasks: Vec<PeriodicTask>,
    /// token: pairs of pinned threads passing a token over pipes.
    pub pairs: u32,
    /// token: computation at each stop of the token.
    pub work: Ns,
    pub groups: u32,
    pub msg_size: u32,
    pub hackbench_mode: HackbenchMode,
    pub ipc: Ipc,
    /// schbench: -m, -t (0: the CPUs shared out), -n, -F (KB), -s, and not -L.
    pub schbench_message_threads: u32,
    pub schbench_workers: u32,
    pub schbench_operations: u32,
    pub schbench_footprint: u32,
    pub schbench_sleep: Ns,
    pub schbench_locking: bool,
    /// stress-ng-pipe: workers (`--pipe N`).
    pub workers: u32,
    pub duration: Ns,
    pub seed: u64,
    pub max_events: u64,
}

impl Default for Config {
    /// A small machine everyone can read in one screen: 2 cores, CFS of 4.17, HZ=250,
    /// four periodic tasks. The `intro` preset is this config.
    fn default() -> Self {
        Config {
            cores: 2,
            cpu: "skylake-sp".into(),
            hz: 250,
            kernel: Kernel::V417,
            policy: Policy::Cfs,
            features: Vec::new(),
            sched_latency: 6 * MS,
            min_granularity: 750 * US,
            wakeup_granularity: MS,
            wakeup_gran_scale: false,
            preempt: None,
            migration_cost: 500 * US,
            rr_interval: 6 * MS,
            cstates: CStates::All,
            governor: Governor::Menu,
            latency_limit: None,
            idle: IdleMode::Default,
            nohz: true,
            nohz_ratelimit: false,
            nohz_exit_reprograms: 1,
            workload: WorkloadKind::Rtapp,
            loops: 100_000,
            streams: 4,
            jobs: 4,
            tasks: vec![
                PeriodicTask { count: 2, run: 3 * MS, period: 10 * MS, slice: 0 },
                PeriodicTask { count: 2, run: 500 * US, period: 2 * MS, slice: 0 },
            ],
            pairs: 2,
            // Not a figure from the corpus (Smythies does not state his work per stop): 10 us,
            // a stop several times longer than the pipe hand-off itself.
            work: 10 * US,
            groups: 10,
            msg_size: 100,
            hackbench_mode: HackbenchMode::Process,
            ipc: Ipc::Socket,
            // schbench.c's defaults.
            schbench_message_threads: 1,
            schbench_workers: 0,
            schbench_operations: 5,
            schbench_footprint: 256,
            schbench_sleep: 100 * US,
            schbench_locking: true,
            workers: 4,
            duration: 200 * MS,
            seed: 1,
            max_events: 50_000_000,
        }
    }
}

/// A rejected key or value: names the key and says what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub key: String,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl std::error::Error for ConfigError {}

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

/// Documentation for one key.
#[derive(Clone, Copy, Debug)]
pub struct KeyDoc {
    pub key: &'static str,
    pub group: &'static str,
    pub kind: KeyKind,
    /// One line: what it does in the kernel.
    pub help: &'static str,
}

/// Every config key, grouped as the UI shows them.
pub const KEYS: &[KeyDoc] = &[
    KeyDoc {
        key: "cpu",
        group: "Machine",
        kind: KeyKind::Text,
        help: "Hardware profile: its C-state table and the cost of switches, syscalls, timer reprograms and IPIs.",
    },
    KeyDoc {
        key: "cores",
        group: "Machine",
        kind: KeyKind::Int { min: 1, max: MAX_CORES as u64 },
        help: "Number of CPUs the scheduler runs on.",
    },
    KeyDoc {
        key: "hz",
        group: "Machine",
        kind: KeyKind::Choice(&["100", "250", "300", "1000"]),
        help: "CONFIG_HZ: the periodic tick rate; without hrtick a slice can only end on a tick.",
    },
    KeyDoc {
        key: "kernel",
        group: "Scheduler",
        // Must list `kernel::KERNELS` in order (a test checks it): the picker's options.
        kind: KeyKind::Choice(&["2.6.21-sd", "2.6.23", "sched-devel-2007", "2.6.24", "3.11", "4.17", "5.15", "6.6", "6.12"]),
        help: "The kernel release whose scheduler, idle loop and defaults the run follows (SD, CFS or EEVDF by era); sets the era's tunables.",
    },
    KeyDoc {
        key: "features",
        group: "Scheduler",
        kind: KeyKind::Text,
        help: "sched_features changed from the era's defaults, as written to debugfs: HRTICK NO_WAKEUP_PREEMPTION ...",
    },
    KeyDoc {
        key: "sched_latency",
        group: "Scheduler",
        kind: KeyKind::Duration { min: 100 * US, max: SEC },
        help: "sysctl_sched_latency (unscaled): the period in which every runnable task runs once.",
    },
    KeyDoc {
        key: "min_granularity",
        group: "Scheduler",
        kind: KeyKind::Duration { min: 50 * US, max: SEC },
        help: "sysctl_sched_min_granularity (unscaled; EEVDF's base_slice): the shortest slice.",
    },
    KeyDoc {
        key: "wakeup_granularity",
        group: "Scheduler",
        kind: KeyKind::Duration { min: 0, max: SEC },
        help: "sysctl_sched_wakeup_granularity (unscaled): how far behind a woken task must be to preempt.",
    },
    KeyDoc {
        key: "wakeup_gran_scale",
        group: "Scheduler",
        kind: KeyKind::Bool,
        help: "CFS (2.6.32-6.5): Mel Gorman's 2021 patch 'Scale wakeup granularity relative to nr_running' (not merged): wakeup preemption needs gran x min(nr_running/2, sched_nr_latency).",
    },
    KeyDoc {
        key: "preempt",
        group: "Scheduler",
        kind: KeyKind::Choice(&["default", "none", "voluntary", "full"]),
        help: "Preemption model (preempt= boot parameter from 5.12, a build choice before): full preempts kernel-mode work at once; none and voluntary only when it ends (return to user space). default: the era's (Kconfig's PREEMPT_NONE).",
    },
    KeyDoc {
        key: "migration_cost",
        group: "Scheduler",
        kind: KeyKind::Duration { min: 0, max: 100 * MS },
        help: "sysctl_sched_migration_cost: cache-hot threshold, and the nohz rate limit's avg_idle bound.",
    },
    KeyDoc {
        key: "rr_interval",
        group: "Scheduler",
        kind: KeyKind::Duration { min: 100 * US, max: 10 * SEC },
        help: "SD/BFS quantum: the longest two equal-priority tasks wait for each other.",
    },
    KeyDoc {
        key: "cstates",
        group: "Idle",
        kind: KeyKind::Text,
        help: "Idle states the firmware and idle driver expose: 'all', a comma list, or 'off' (C-states disabled in the BIOS: the driver's shallowest state, e.g. C1 by MWAIT or HLT; not idle=poll).",
    },
    KeyDoc {
        key: "governor",
        group: "Idle",
        kind: KeyKind::Choice(&["menu", "ladder", "teo"]),
        help: "cpuidle governor that predicts the idle length and picks a C-state.",
    },
    KeyDoc {
        key: "latency_limit",
        group: "Idle",
        kind: KeyKind::Text,
        help: "PM QoS CPU latency limit ('none' or a duration): states with a longer exit latency are not used.",
    },
    KeyDoc {
        key: "idle",
        group: "Idle",
        kind: KeyKind::Choice(&["default", "poll", "halt"]),
        help: "idle= boot parameter: default (cpuidle driver and governor), poll (spin with the polling flag: no IPI, no governor; tick kept from 4.17), or halt (HLT, no governor).",
    },
    KeyDoc {
        key: "nohz",
        group: "nohz",
        kind: KeyKind::Bool,
        help: "NO_HZ_IDLE: stop the periodic tick when a CPU idles (one clock-event reprogram).",
    },
    KeyDoc {
        key: "nohz_ratelimit",
        group: "nohz",
        kind: KeyKind::Bool,
        help: "'sched: ratelimit nohz': keep the tick when avg_idle is under migration_cost.",
    },
    KeyDoc {
        key: "nohz_exit_reprograms",
        group: "nohz",
        kind: KeyKind::Int { min: 1, max: 2 },
        help: "Clock-event reprograms on idle exit: 2 is the 3.11-rc regression (commit 968320b), 1 the fix.",
    },
    KeyDoc {
        key: "workload",
        group: "Workload",
        kind: KeyKind::Choice(&["pipe", "iperf", "kbuild", "rtapp", "token", "hackbench", "schbench", "stress-ng-pipe"]),
        help: "pipe ping-pong, iperf -P N over loopback, make -jN, rt-app periodic tasks, pinned token passing, hackbench groups, schbench message and worker threads, or stress-ng's pipe stressor.",
    },
    KeyDoc {
        key: "loops",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 10_000_000 },
        help: "pipe: round trips (perf bench sched pipe -l); token: passes of each pair's token; hackbench: messages per sender and receiver (-l; 100 when a config switches to hackbench, as hackbench's own default).",
    },
    KeyDoc {
        key: "streams",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 64 },
        help: "iperf: parallel TCP streams over loopback (-P).",
    },
    KeyDoc { key: "jobs", group: "Workload", kind: KeyKind::Int { min: 1, max: 64 }, help: "kbuild: make -j jobs." },
    KeyDoc {
        key: "tasks",
        group: "Workload",
        kind: KeyKind::Text,
        help: "rtapp: groups COUNTxRUN/PERIOD, comma separated (2x3ms/10ms); @slice=300us sets a 6.12 custom slice.",
    },
    KeyDoc {
        key: "pairs",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 32 },
        help: "token: pairs of threads, each thread pinned to its own CPU, passing a token over pipes.",
    },
    KeyDoc {
        key: "work",
        group: "Workload",
        kind: KeyKind::Duration { min: 0, max: 100 * MS },
        help: "token: computation at each stop of the token (CPU time on this machine).",
    },
    KeyDoc {
        key: "groups",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: MAX_HACKBENCH_GROUPS },
        help: "hackbench: groups of 20 senders and 20 receivers (-g; 40 tasks a group, plus the parent).",
    },
    KeyDoc {
        key: "msg_size",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 4096 },
        help: "hackbench: bytes per message (-s; at most PIPE_BUF, so every write is atomic).",
    },
    KeyDoc {
        key: "hackbench_mode",
        group: "Workload",
        kind: KeyKind::Choice(&["process", "thread"]),
        help: "hackbench: children are forked processes or threads (-T).",
    },
    KeyDoc {
        key: "ipc",
        group: "Workload",
        kind: KeyKind::Choice(&["socket", "pipe"]),
        help: "hackbench: AF_UNIX socketpair (default) or pipe (-p).",
    },
    KeyDoc {
        key: "schbench_message_threads",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 64 },
        help: "schbench: message threads (-m), each posting requests to its own workers over futexes.",
    },
    KeyDoc {
        key: "workers",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 4096 },
        help: "stress-ng-pipe: workers (--pipe N), each a writer and a reader process over one pipe.",
    },
    KeyDoc {
        key: "schbench_workers",
        group: "Workload",
        kind: KeyKind::Int { min: 0, max: 255 },
        help: "schbench: worker threads per message thread (-t); 0 is schbench's default, the CPUs shared out among the message threads.",
    },
    KeyDoc {
        key: "schbench_operations",
        group: "Workload",
        kind: KeyKind::Int { min: 0, max: 1000 },
        help: "schbench: matrix multiplies per request (-n).",
    },
    KeyDoc {
        key: "schbench_footprint",
        group: "Workload",
        kind: KeyKind::Int { min: 1, max: 1 << 20 },
        help: "schbench: cache footprint in KB (-F): each worker's three matrices, sqrt(KB*1024/24) on a side.",
    },
    KeyDoc {
        key: "schbench_sleep",
        group: "Workload",
        kind: KeyKind::Duration { min: 0, max: SEC },
        help: "schbench: usleep at the start of each request (-s; the kernel adds its 50 us timer slack).",
    },
    KeyDoc {
        key: "schbench_locking",
        group: "Workload",
        kind: KeyKind::Bool,
        help: "schbench: take the per-CPU lock around the matrix math (off is -L): a worker preempted there makes the next one on its CPU spin.",
    },
    KeyDoc {
        key: "duration",
        group: "Run",
        kind: KeyKind::Duration { min: MS, max: MAX_DURATION },
        help: "Simulated time limit (workloads with a fixed amount of work stop earlier).",
    },
    KeyDoc {
        key: "seed",
        group: "Run",
        kind: KeyKind::Int { min: 0, max: u64::MAX },
        help: "Seed of the simulation's random streams: same config and seed, same result.",
    },
    KeyDoc {
        key: "max_events",
        group: "Run",
        kind: KeyKind::Int { min: 1_000, max: MAX_EVENTS },
        help: "Event budget: the run stops (and says so) after this many events.",
    },
];

/// Keys kept so that old links and scripts keep working: each stands for a `kernel`,
/// `features` or `idle` setting (see `Config::set`). Not listed in `KEYS`, never printed.
pub const ALIASES: &[(&str, &str)] = &[
    (
        "policy",
        "cfs|eevdf|sd: picks an era of that class (kept if the era already is one): sd 2.6.21-sd, cfs 4.17, eevdf 6.6",
    ),
    ("hrtick", "on|off: the era's HRTICK feature"),
    ("wakeup_preempt", "on|off: the era's WAKEUP_PREEMPT(ION) feature"),
    (
        "hrtick_disables_wakeup_preempt",
        "on|off: ignored; HRTICK vs PREEMPT_RESTRICT is part of kernel=sched-devel-2007",
    ),
    ("resched_ipi", "on|off: off is idle=poll, on is idle=default"),
];

/// Looks up a key's documentation.
pub fn key_doc(key: &str) -> Option<&'static KeyDoc> {
    KEYS.iter().find(|k| k.key == key)
}

/// Longest key or value a message quotes whole.
pub const ECHO_MAX: usize = 80;

/// `s` cut to `ECHO_MAX` bytes at a character boundary, saying how long it was.
fn shorten_echo(s: &str) -> String {
    let mut n = ECHO_MAX.min(s.len());
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    format!("{}… ({} bytes)", &s[..n], s.len())
}

fn err(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError { key: key.to_string(), message: message.into() }
}

fn parse_bool(key: &str, v: &str) -> Result<bool, ConfigError> {
    match v {
        "on" | "1" | "true" | "yes" => Ok(true),
        "off" | "0" | "false" | "no" => Ok(false),
        _ => Err(err(key, format!("'{v}' is not on or off"))),
    }
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

fn parse_int(key: &str, v: &str, min: u64, max: u64) -> Result<u64, ConfigError> {
    let n: u64 =
        v.trim().parse().map_err(|_| err(key, format!("'{v}' is not a whole number (allowed {min} to {max})")))?;
    if n < min || n > max {
        return Err(err(key, format!("{n} is out of range (allowed {min} to {max})")));
    }
    Ok(n)
}

fn parse_dur(key: &str, v: &str, min: Ns, max: Ns) -> Result<Ns, ConfigError> {
    let d = parse_duration(v).map_err(|m| err(key, m))?;
    if d < min || d > max {
        return Err(err(
            key,
            format!(
                "{} is out of range (allowed {} to {})",
                format_duration(d),
                format_duration(min),
                format_duration(max)
            ),
        ));
    }
    Ok(d)
}

/// Parses `2x3ms/10ms,1x500us/2ms@slice=300us` (a missing `COUNTx` means 1; `@slice=` sets
/// the group's `sched_attr.sched_runtime`, 0 or absent for none).
pub fn parse_tasks(v: &str) -> Result<Vec<PeriodicTask>, String> {
    let mut out = Vec::new();
    let mut total = 0usize;
    for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (count, rest) = match part.split_once('x') {
            Some((c, r)) => (c.trim().parse::<u32>().map_err(|_| format!("'{c}' is not a task count in '{part}'"))?, r),
            None => (1, part),
        };
        let (rest, slice) = match rest.split_once('@') {
            Some((r, attr)) => {
                let v = attr
                    .trim()
                    .strip_prefix("slice=")
                    .ok_or_else(|| format!("'{part}': after '@' only slice=DURATION is known"))?;
                (r, if v.trim() == "0" { 0 } else { parse_duration(v)? })
            }
            None => (rest, 0),
        };
        let (run, period) = rest.split_once('/').ok_or_else(|| format!("'{part}' is not RUN/PERIOD"))?;
        let run = parse_duration(run)?;
        let period = parse_duration(period)?;
        if slice > MAX_DURATION {
            return Err(format!(
                "'{part}': a slice of at most {} (the kernel clamps to 100ms)",
                format_duration(MAX_DURATION)
            ));
        }
        if count == 0 {
            return Err(format!("'{part}' has a count of 0"));
        }
        if run == 0 || period < 10 * US || run > period {
            return Err(format!("'{part}': need 0 < RUN <= PERIOD and PERIOD >= 10us"));
        }
        total += count as usize;
        if total > MAX_TASKS {
            return Err(format!("more than {MAX_TASKS} tasks"));
        }
        out.push(PeriodicTask { count, run, period, slice });
    }
    if out.is_empty() {
        return Err("no task groups (write e.g. 2x3ms/10ms)".into());
    }
    Ok(out)
}

/// Prints task groups in the form `parse_tasks` reads.
pub fn format_tasks(tasks: &[PeriodicTask]) -> String {
    tasks
        .iter()
        .map(|t| {
            let slice = if t.slice > 0 { format!("@slice={}", format_duration(t.slice)) } else { String::new() };
            format!("{}x{}/{}{slice}", t.count, format_duration(t.run), format_duration(t.period))
        })
        .collect::<Vec<_>>()
        .join(",")
}

impl Config {
    /// The hardware profile named by `cpu` (validated by `set`, so always present).
    pub fn profile(&self) -> &'static Profile {
        profile(&self.cpu).unwrap_or(&super::profile::PROFILES[0])
    }

    /// Sets one key from its text value, validating it. On error nothing changes.
    /// A message quotes at most `ECHO_MAX` bytes of the key and the value (a 100 KB value
    /// was echoed whole: issue 30).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        self.set_unquoted(key, value).map_err(|mut e| {
            let v = value.trim();
            if v.len() > ECHO_MAX {
                e.message = e.message.replace(v, &shorten_echo(v));
            }
            if e.key.len() > ECHO_MAX {
                e.message = e.message.replace(&e.key, &shorten_echo(&e.key));
                e.key = shorten_echo(&e.key);
            }
            e
        })
    }

    fn set_unquoted(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let v = value.trim();
        if ALIASES.iter().any(|(a, _)| *a == key) {
            return self.set_alias(key, v);
        }
        let doc = key_doc(key).ok_or_else(|| {
            err(key, format!("unknown key (known: {})", KEYS.iter().map(|k| k.key).collect::<Vec<_>>().join(", ")))
        })?;
        let int = |v: &str| match doc.kind {
            KeyKind::Int { min, max } => parse_int(key, v, min, max),
            _ => unreachable_kind(key),
        };
        let dur = |v: &str| match doc.kind {
            KeyKind::Duration { min, max } => parse_dur(key, v, min, max),
            _ => Err(err(key, "internal: not a duration key")),
        };
        match key {
            "cores" => self.cores = int(v)? as u32,
            "cpu" => {
                if profile(v).is_none() {
                    return Err(err(key, format!("unknown cpu '{v}' (allowed: {})", profile_names().join(", "))));
                }
                self.cpu = v.to_string();
                // A list of states may not exist on the new CPU: keep only the known ones.
                if let CStates::Only(list) = &self.cstates {
                    let p = self.profile();
                    let kept: Vec<String> =
                        list.iter().filter(|n| p.cstates.iter().any(|s| &s.name == n)).cloned().collect();
                    self.cstates = if kept.is_empty() { CStates::Off } else { CStates::Only(kept) };
                }
            }
            "hz" => {
                self.hz = match v {
                    "100" | "250" | "300" | "1000" => v.parse().unwrap_or(250),
                    _ => return Err(err(key, format!("'{v}' is not one of 100, 250, 300, 1000"))),
                }
            }
            "kernel" => {
                let k = Kernel::parse(v).ok_or_else(|| {
                    err(key, format!("unknown kernel '{v}' (allowed: {})", Kernel::names().join(", ")))
                })?;
                self.set_kernel(k);
            }
            "features" => self.features = parse_features(self.kernel, v).map_err(|m| err(key, m))?,
            "sched_latency" => self.sched_latency = dur(v)?,
            "min_granularity" => self.min_granularity = dur(v)?,
            "wakeup_granularity" => self.wakeup_granularity = dur(v)?,
            "wakeup_gran_scale" => self.wakeup_gran_scale = parse_bool(key, v)?,
            "preempt" => {
                self.preempt = match v {
                    "default" => None,
                    "none" => Some(PreemptModel::None),
                    "voluntary" => Some(PreemptModel::Voluntary),
                    "full" => Some(PreemptModel::Full),
                    _ => return Err(err(key, format!("'{v}' is not one of default, none, voluntary, full"))),
                }
            }
            "migration_cost" => self.migration_cost = dur(v)?,
            "rr_interval" => self.rr_interval = dur(v)?,
            "cstates" => {
                self.cstates = match v {
                    // An unset shell variable (`cstates=$S`) must not turn C-states off.
                    "" => return Err(err(key, "empty (allowed: all, off, or a list of state names)")),
                    "all" => CStates::All,
                    "off" | "none" => CStates::Off,
                    list => {
                        let p = profile(&self.cpu).ok_or_else(|| err(key, "unknown cpu"))?;
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
                        } else {
                            // Keep table order so the printed form is canonical.
                            let ordered = p
                                .cstates
                                .iter()
                                .filter(|s| names.iter().any(|n| n == s.name))
                                .map(|s| s.name.to_string())
                                .collect();
                            CStates::Only(ordered)
                        }
                    }
                }
            }
            "governor" => {
                self.governor = match v {
                    "menu" => Governor::Menu,
                    "ladder" => Governor::Ladder,
                    "teo" => Governor::Teo,
                    _ => return Err(err(key, format!("'{v}' is not one of menu, ladder, teo"))),
                }
            }
            "latency_limit" => {
                self.latency_limit = match v {
                    "none" | "off" => None,
                    d => Some(parse_dur(key, d, 0, 10 * MS)?),
                }
            }
            "idle" => {
                self.idle = match v {
                    "default" => IdleMode::Default,
                    "poll" => IdleMode::Poll,
                    "halt" => IdleMode::Halt,
                    _ => return Err(err(key, format!("'{v}' is not one of default, poll, halt"))),
                }
            }
            "nohz" => self.nohz = parse_bool(key, v)?,
            "nohz_ratelimit" => self.nohz_ratelimit = parse_bool(key, v)?,
            "nohz_exit_reprograms" => self.nohz_exit_reprograms = int(v)? as u32,
            "workload" => {
                let was = self.workload;
                self.workload = match v {
                    "pipe" => WorkloadKind::Pipe,
                    "iperf" => WorkloadKind::Iperf,
                    "kbuild" => WorkloadKind::Kbuild,
                    "rtapp" => WorkloadKind::Rtapp,
                    "token" => WorkloadKind::Token,
                    "hackbench" => WorkloadKind::Hackbench,
                    "schbench" => WorkloadKind::Schbench,
                    "stress-ng-pipe" => WorkloadKind::StressNgPipe,
                    _ => {
                        return Err(err(
                            key,
                            format!(
                                "'{v}' is not one of pipe, iperf, kbuild, rtapp, token, hackbench, schbench, stress-ng-pipe"
                            ),
                        ))
                    }
                };
                // A workload's defaults follow the switch unless the user changed them.
                if self.loops == was.default_loops() {
                    self.loops = self.workload.default_loops();
                }
                if self.duration == was.default_duration() {
                    self.duration = self.workload.default_duration();
                }
            }
            "loops" => self.loops = int(v)?,
            "streams" => self.streams = int(v)? as u32,
            "jobs" => self.jobs = int(v)? as u32,
            "tasks" => self.tasks = parse_tasks(v).map_err(|m| err(key, m))?,
            "pairs" => self.pairs = int(v)? as u32,
            "work" => self.work = dur(v)?,
            "groups" => {
                self.groups = int(v).map_err(|e| {
                    err(key, format!("{} (40 tasks a group; the engine runs at most {MAX_TASKS} tasks)", e.message))
                })? as u32
            }
            "msg_size" => self.msg_size = int(v)? as u32,
            "hackbench_mode" => {
                self.hackbench_mode = match v {
                    "process" => HackbenchMode::Process,
                    "thread" => HackbenchMode::Thread,
                    _ => return Err(err(key, format!("'{v}' is not one of process, thread"))),
                }
            }
            "ipc" => {
                self.ipc = match v {
                    "socket" => Ipc::Socket,
                    "pipe" => Ipc::Pipe,
                    _ => return Err(err(key, format!("'{v}' is not one of socket, pipe"))),
                }
            }
            "schbench_message_threads" => self.schbench_message_threads = int(v)? as u32,
            "schbench_workers" => self.schbench_workers = int(v)? as u32,
            "workers" => self.workers = int(v)? as u32,
            "schbench_operations" => self.schbench_operations = int(v)? as u32,
            "schbench_footprint" => self.schbench_footprint = int(v)? as u32,
            "schbench_sleep" => self.schbench_sleep = dur(v)?,
            "schbench_locking" => self.schbench_locking = parse_bool(key, v)?,
            "duration" => self.duration = dur(v)?,
            "seed" => self.seed = int(v)?,
            "max_events" => self.max_events = int(v)?,
            _ => return Err(err(key, "known key without a parser (a bug)")),
        }
        Ok(())
    }

    /// The canonical text of one key's value (what `set` reads back).
    pub fn get(&self, key: &str) -> Option<String> {
        Some(match key {
            "cores" => self.cores.to_string(),
            "cpu" => self.cpu.clone(),
            "hz" => self.hz.to_string(),
            "kernel" => self.kernel.name().into(),
            "features" => self.features.join(" "),
            "policy" => match self.policy {
                Policy::Cfs => "cfs",
                Policy::Eevdf => "eevdf",
                Policy::Sd => "sd",
            }
            .into(),
            "hrtick" => on_off(self.feats().has(Feat::Hrtick)),
            "wakeup_preempt" => on_off(self.feats().has(Feat::WakeupPreempt)),
            "hrtick_disables_wakeup_preempt" => on_off(self.kernel == Kernel::SchedDevel2007),
            "sched_latency" => format_duration(self.sched_latency),
            "min_granularity" => format_duration(self.min_granularity),
            "wakeup_granularity" => format_duration(self.wakeup_granularity),
            "wakeup_gran_scale" => on_off(self.wakeup_gran_scale),
            "preempt" => self.preempt.map_or("default", PreemptModel::name).into(),
            "migration_cost" => format_duration(self.migration_cost),
            "rr_interval" => format_duration(self.rr_interval),
            "cstates" => match &self.cstates {
                CStates::All => "all".into(),
                CStates::Off => "off".into(),
                CStates::Only(list) => list.join(","),
            },
            "governor" => match self.governor {
                Governor::Menu => "menu",
                Governor::Ladder => "ladder",
                Governor::Teo => "teo",
            }
            .into(),
            "latency_limit" => self.latency_limit.map(format_duration).unwrap_or_else(|| "none".into()),
            "idle" => match self.idle {
                IdleMode::Default => "default",
                IdleMode::Poll => "poll",
                IdleMode::Halt => "halt",
            }
            .into(),
            "resched_ipi" => on_off(self.idle != IdleMode::Poll),
            "nohz" => on_off(self.nohz),
            "nohz_ratelimit" => on_off(self.nohz_ratelimit),
            "nohz_exit_reprograms" => self.nohz_exit_reprograms.to_string(),
            "workload" => match self.workload {
                WorkloadKind::Pipe => "pipe",
                WorkloadKind::Iperf => "iperf",
                WorkloadKind::Kbuild => "kbuild",
                WorkloadKind::Rtapp => "rtapp",
                WorkloadKind::Token => "token",
                WorkloadKind::Hackbench => "hackbench",
                WorkloadKind::Schbench => "schbench",
                WorkloadKind::StressNgPipe => "stress-ng-pipe",
            }
            .into(),
            "loops" => self.loops.to_string(),
            "streams" => self.streams.to_string(),
            "jobs" => self.jobs.to_string(),
            "tasks" => format_tasks(&self.tasks),
            "pairs" => self.pairs.to_string(),
            "work" => format_duration(self.work),
            "groups" => self.groups.to_string(),
            "msg_size" => self.msg_size.to_string(),
            "hackbench_mode" => match self.hackbench_mode {
                HackbenchMode::Process => "process",
                HackbenchMode::Thread => "thread",
            }
            .into(),
            "ipc" => match self.ipc {
                Ipc::Socket => "socket",
                Ipc::Pipe => "pipe",
            }
            .into(),
            "schbench_message_threads" => self.schbench_message_threads.to_string(),
            "schbench_workers" => self.schbench_workers.to_string(),
            "workers" => self.workers.to_string(),
            "schbench_operations" => self.schbench_operations.to_string(),
            "schbench_footprint" => self.schbench_footprint.to_string(),
            "schbench_sleep" => format_duration(self.schbench_sleep),
            "schbench_locking" => on_off(self.schbench_locking),
            "duration" => format_duration(self.duration),
            "seed" => self.seed.to_string(),
            "max_events" => self.max_events.to_string(),
            _ => return None,
        })
    }

    /// Switches the era: its class, and its tunable defaults for every tunable still at the
    /// old era's default (a value the user changed is kept); keeps the feature overrides the
    /// new era also has.
    pub fn set_kernel(&mut self, k: Kernel) {
        let (old, new) = (self.kernel.tunables(), k.tunables());
        let follow = |v: &mut Ns, was: Ns, now: Ns| {
            if *v == was {
                *v = now;
            }
        };
        follow(&mut self.sched_latency, old.sched_latency, new.sched_latency);
        follow(&mut self.min_granularity, old.min_granularity, new.min_granularity);
        follow(&mut self.wakeup_granularity, old.wakeup_granularity, new.wakeup_granularity);
        follow(&mut self.migration_cost, old.migration_cost, new.migration_cost);
        follow(&mut self.rr_interval, old.rr_interval, new.rr_interval);
        self.kernel = k;
        self.policy = k.policy();
        self.features = keep_features(k, &self.features);
    }

    /// The preemption model the run uses: the config's, else the era's default.
    pub fn preempt_model(&self) -> PreemptModel {
        self.preempt.unwrap_or_else(|| self.kernel.preempt_default())
    }

    /// The era's features with this config's overrides (resolve once per run, not per event).
    pub fn feats(&self) -> FeatureSet {
        FeatureSet::resolve(self.kernel, &self.features)
    }

    /// One of the old keys (`ALIASES`): translated into `kernel`, `features` or `idle`.
    fn set_alias(&mut self, key: &str, v: &str) -> Result<(), ConfigError> {
        let feature = |c: &mut Config, feat: Feat, on: bool| -> Result<(), ConfigError> {
            let Some(name) = super::kernel::feature_name(c.kernel, feat) else {
                if on == c.kernel.implied(feat) {
                    return Ok(());
                }
                return Err(err(
                    key,
                    format!(
                        "kernel {} cannot turn this {} (no such feature in that release)",
                        c.kernel.name(),
                        if on { "on" } else { "off" }
                    ),
                ));
            };
            let mut words = c.features.clone();
            words.push(if on { name.to_string() } else { format!("NO_{name}") });
            c.features = parse_features(c.kernel, &words.join(" ")).map_err(|m| err(key, m))?;
            Ok(())
        };
        match key {
            "policy" => {
                let p = match v {
                    "cfs" => Policy::Cfs,
                    "eevdf" => Policy::Eevdf,
                    "sd" => Policy::Sd,
                    _ => return Err(err(key, format!("'{v}' is not one of cfs, eevdf, sd"))),
                };
                let k = self.kernel.for_policy(p);
                if k != self.kernel {
                    self.set_kernel(k);
                }
            }
            "hrtick" => feature(self, Feat::Hrtick, parse_bool(key, v)?)?,
            "wakeup_preempt" => feature(self, Feat::WakeupPreempt, parse_bool(key, v)?)?,
            "hrtick_disables_wakeup_preempt" => {
                parse_bool(key, v)?;
            }
            "resched_ipi" => self.idle = if parse_bool(key, v)? { IdleMode::Default } else { IdleMode::Poll },
            _ => return Err(err(key, "alias without a parser (a bug)")),
        }
        Ok(())
    }

    /// All keys with their canonical values, in `KEYS` order.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        KEYS.iter().filter_map(|k| self.get(k.key).map(|v| (k.key, v))).collect()
    }

    /// The keys to set on `base`, in `KEYS` order, to get this config, as `key=value` text.
    /// Replayed, not compared key by key: setting a key can move a later one that is still
    /// at its default (`kernel` moves the tunables, `workload` moves `loops` and `duration`),
    /// so a later key is listed whenever the replay has it differ, even if it equals `base`'s.
    pub fn diff(&self, base: &Config) -> Vec<(&'static str, String)> {
        let mut cur = base.clone();
        let mut out = Vec::new();
        for k in KEYS {
            let (Some(want), Some(have)) = (self.get(k.key), cur.get(k.key)) else { continue };
            if want != have {
                // Our own printed values always parse; if one ever did not, listing it is
                // still right (the reader reports it).
                let _ = cur.set(k.key, &want);
                out.push((k.key, want));
            }
        }
        out
    }

    /// Whether a key matters for the current policy/workload (the UI disables the others).
    pub fn applies(&self, key: &str) -> bool {
        match key {
            "rr_interval" => self.policy == Policy::Sd,
            "sched_latency" | "wakeup_granularity" => self.policy == Policy::Cfs,
            "wakeup_gran_scale" => self.kernel.cfs_design() == CfsDesign::Modern && self.policy == Policy::Cfs,
            "min_granularity" | "features" => self.policy != Policy::Sd,
            "nohz_ratelimit" | "nohz_exit_reprograms" => self.nohz,
            "loops" => matches!(self.workload, WorkloadKind::Pipe | WorkloadKind::Token | WorkloadKind::Hackbench),
            "streams" => self.workload == WorkloadKind::Iperf,
            "jobs" => self.workload == WorkloadKind::Kbuild,
            "tasks" => self.workload == WorkloadKind::Rtapp,
            "pairs" | "work" => self.workload == WorkloadKind::Token,
            "groups" | "msg_size" | "hackbench_mode" | "ipc" => self.workload == WorkloadKind::Hackbench,
            "workers" => self.workload == WorkloadKind::StressNgPipe,
            "schbench_message_threads"
            | "schbench_workers"
            | "schbench_operations"
            | "schbench_footprint"
            | "schbench_sleep"
            | "schbench_locking" => self.workload == WorkloadKind::Schbench,
            _ => true,
        }
    }

    /// The era's tunable scaling factor: `1 + ilog2(min(cores, 8))` from 2.6.32, uncapped before.
    pub fn granularity_factor(&self) -> u64 {
        self.kernel.granularity_factor(self.cores)
    }
}

fn unreachable_kind(key: &str) -> Result<u64, ConfigError> {
    Err(err(key, "internal: not an integer key"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_get_and_set() {
        let c = Config::default();
        for k in KEYS {
            let v = c.get(k.key).unwrap_or_else(|| panic!("no getter for {}", k.key));
            let mut d = Config::default();
            d.set(k.key, &v).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(d, c, "{}", k.key);
        }
    }

    #[test]
    fn the_kernel_choices_are_every_era() {
        // The picker offers these: 5.15 was missing, so a 5.15 config showed "6.12" selected.
        let KeyKind::Choice(list) = key_doc("kernel").unwrap().kind else { panic!("kernel is a choice") };
        assert_eq!(list.to_vec(), Kernel::names());
    }

    #[test]
    fn errors_name_the_key_and_range() {
        let mut c = Config::default();
        let e = c.set("cores", "129").unwrap_err();
        assert_eq!(e.key, "cores");
        assert!(e.message.contains("1 to 128"), "{}", e.message);
        let e = c.set("rr_interval", "20s").unwrap_err();
        assert!(e.message.contains("100us") && e.message.contains("10s"), "{}", e.message);
        assert!(c.set("nonsense", "1").is_err());
        assert_eq!(c, Config::default(), "failed sets change nothing");
    }

    /// Issue 30, defect 9: `cstates=` (an unset shell variable) silently meant off,
    /// `features=HRTICK NO_HRTICK` silently became empty, and a 100 KB value was echoed
    /// whole in the error.
    #[test]
    fn empty_contradicting_and_huge_values_are_refused_plainly() {
        let mut c = Config::default();
        assert!(c.set("cstates", "").unwrap_err().message.starts_with("empty"));
        assert!(c.set("cstates", " , ").unwrap_err().message.contains("names no state"));
        c.set("kernel", "6.6").unwrap();
        let e = c.set("features", "HRTICK NO_HRTICK").unwrap_err();
        assert!(e.message.contains("both HRTICK and NO_HRTICK"), "{}", e.message);
        let huge = "x".repeat(100_000);
        let e = c.set("cpu", &huge).unwrap_err();
        assert!(e.message.len() < 1_000 && e.message.contains("(100000 bytes)"), "{}", &e.message[..200]);
        let e = c.set(&huge, "1").unwrap_err();
        assert!(e.key.len() < 200 && e.message.len() < 2_000, "{}", e.key.len());
    }

    #[test]
    fn cstates_lists_are_checked_against_the_cpu() {
        let mut c = Config::default();
        c.set("cpu", "x5675").unwrap();
        c.set("cstates", "c6,C1").unwrap();
        assert_eq!(c.get("cstates").unwrap(), "C1,C6");
        assert!(c.set("cstates", "C7").is_err());
        c.set("cpu", "sapphire-rapids").unwrap();
        assert_eq!(c.get("cstates").unwrap(), "C1,C6", "both exist on SPR");
    }

    #[test]
    fn task_lists_parse_and_print() {
        let t = parse_tasks("2x3ms/10ms, 500us/2ms").unwrap();
        assert_eq!(format_tasks(&t), "2x3ms/10ms,1x500us/2ms");
        let t = parse_tasks("2x3ms/10ms@slice=300us, 500us/2ms@slice=0").unwrap();
        assert_eq!((t[0].slice, t[1].slice), (300 * US, 0));
        assert_eq!(format_tasks(&t), "2x3ms/10ms@slice=300us,1x500us/2ms");
        assert_eq!(parse_tasks(&format_tasks(&t)).unwrap(), t);
        for bad in ["", "3ms", "0x1ms/2ms", "2x3ms/1ms", "20000x1ms/2ms", "1ms/2ms@300us", "1ms/2ms@slice=x"] {
            assert!(parse_tasks(bad).is_err(), "{bad}");
        }
    }

    /// Applies `diff` the way a link is read: each key in `KEYS` order on `base`.
    fn replay(base: &Config, keys: &[(&'static str, String)]) -> Config {
        let mut c = base.clone();
        for (k, v) in keys {
            c.set(k, v).unwrap();
        }
        c
    }

    #[test]
    fn switching_to_hackbench_takes_its_loops_and_a_cap_for_duration_unless_set() {
        let mut c = Config::default();
        c.set("workload", "hackbench").unwrap();
        assert_eq!((c.loops, c.duration), (100, 60 * SEC), "hackbench -l 100; the run ends when done");
        c.set("workload", "pipe").unwrap();
        assert_eq!((c.loops, c.duration), (Config::default().loops, Config::default().duration));
        c.set("loops", "7").unwrap();
        c.set("workload", "hackbench").unwrap();
        assert_eq!(c.loops, 7, "a value the user set is kept");
    }

    #[test]
    fn diff_replays_keys_that_an_earlier_key_moves() {
        // On a 2.6.23 base, switch to 4.17 and put sched_latency back at 2.6.23's 20 ms: the
        // kernel switch moves sched_latency to 6 ms, so 20 ms must be listed although it
        // equals the base. Comparing key by key lost it (the link read back 6 ms).
        let mut base = Config::default();
        base.set("kernel", "2.6.23").unwrap();
        let mut c = base.clone();
        c.set("kernel", "4.17").unwrap();
        c.set("sched_latency", "20ms").unwrap();
        let d = c.diff(&base);
        assert!(d.iter().any(|(k, v)| *k == "sched_latency" && v == "20ms"), "{d:?}");
        assert_eq!(replay(&base, &d), c);
        // The same for a workload's loops.
        let base = Config::default();
        let mut c = base.clone();
        c.set("workload", "hackbench").unwrap();
        c.set("loops", &base.loops.to_string()).unwrap();
        assert_eq!(replay(&base, &c.diff(&base)), c);
        assert!(Config::default().diff(&Config::default()).is_empty());
    }

    /// Which keys apply, written out from each key's help text rather than read from the
    /// rules: the class's tunables, nohz's sub-keys, and each workload's own keys.
    #[test]
    fn each_key_applies_where_its_help_says() {
        const SCHBENCH: &[&str] = &[
            "schbench_message_threads",
            "schbench_workers",
            "schbench_operations",
            "schbench_footprint",
            "schbench_sleep",
            "schbench_locking",
        ];
        let own: &[(&str, &[&str])] = &[
            ("pipe", &["loops"]),
            ("token", &["loops", "pairs", "work"]),
            ("hackbench", &["loops", "groups", "msg_size", "hackbench_mode", "ipc"]),
            ("iperf", &["streams"]),
            ("kbuild", &["jobs"]),
            ("rtapp", &["tasks"]),
            ("stress-ng-pipe", &["workers"]),
            ("schbench", SCHBENCH),
        ];
        let workload_keys: Vec<&str> = own.iter().flat_map(|(_, k)| k.iter().copied()).collect();
        // Per era: the class's keys that do not apply.
        let eras: &[(&str, &[&str])] = &[
            ("2.6.21-sd", &["sched_latency", "min_granularity", "wakeup_granularity", "wakeup_gran_scale", "features"]),
            ("2.6.23", &["rr_interval", "wakeup_gran_scale"]),
            ("sched-devel-2007", &["rr_interval", "wakeup_gran_scale"]),
            ("4.17", &["rr_interval"]),
            ("6.6", &["rr_interval", "sched_latency", "wakeup_granularity", "wakeup_gran_scale"]),
        ];
        let mut checked = 0;
        for (kernel, era_off) in eras {
            for (workload, mine) in own {
                for nohz in ["on", "off"] {
                    let mut c = Config::default();
                    for (k, v) in [("kernel", *kernel), ("workload", *workload), ("nohz", nohz)] {
                        c.set(k, v).unwrap();
                    }
                    for doc in KEYS {
                        let k = doc.key;
                        let off = era_off.contains(&k)
                            || (workload_keys.contains(&k) && !mine.contains(&k))
                            || (nohz == "off" && ["nohz_ratelimit", "nohz_exit_reprograms"].contains(&k));
                        assert_eq!(c.applies(k), !off, "{k} on kernel={kernel} workload={workload} nohz={nohz}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn granularity_scales_like_the_kernel() {
        let mut c = Config::default();
        for (cores, f) in [(1, 1), (2, 2), (4, 3), (8, 4), (64, 4)] {
            c.cores = cores;
            assert_eq!(c.granularity_factor(), f);
        }
    }
}
