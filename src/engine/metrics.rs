//! What a run measured: the counters and derived figures every view and the CLI print.
//!
//! Counters are integers gathered during the run; floats are derived from them at the end
//! (IEEE division is exact-same on every target, so metrics are deterministic). `wall_s`
//! is the only host-dependent field and is excluded from `digest`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Why the run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The workload finished its fixed amount of work.
    Completed,
    /// Simulated time reached `duration`.
    TimeLimit,
    /// The event budget `max_events` ran out.
    EventBudget,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
    pub count: u64,
}

/// Per-task totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskStats {
    pub name: String,
    /// On-CPU time: from each `sched_switch` that puts the task on a CPU to the one that
    /// takes it off (or the run's end), as a trace reader measures it (`trace stats`).
    /// Includes the kernel work done in its context (`overhead_ns`).
    pub runtime_ns: u64,
    /// The part of `runtime_ns` that is not the task's own bursts: the switch into it, its
    /// cache refill, the wakeups it performs, IPIs it sends and handlers that interrupt it.
    #[serde(default)]
    pub overhead_ns: u64,
    pub refill_ns: u64,
    pub switches_in: u64,
    pub wakeups: u64,
}

/// How often the governor's state was right, too deep or too shallow, and what the misses cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GovernorScore {
    pub right: u64,
    /// Deeper than the idle lasted for: an exit latency paid for nothing.
    pub too_deep: u64,
    /// Shallower than the idle allowed: residency missed.
    pub too_shallow: u64,
    /// Extra exit latency of too-deep choices, us.
    pub miss_latency_us: f64,
    /// Extra energy of all misses against the best state, mJ.
    pub miss_energy_mj: f64,
}

impl GovernorScore {
    /// Fraction of idle periods where the governor chose right (0 when there were none).
    pub fn right_fraction(&self) -> f64 {
        let n = self.right + self.too_deep + self.too_shallow;
        if n == 0 {
            0.0
        } else {
            self.right as f64 / n as f64
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Time to finish the workload's fixed amount of work, else the simulated duration.
    pub elapsed_s: f64,
    /// The workload's main result (see `throughput_unit`).
    pub throughput: f64,
    pub throughput_unit: String,
    /// Which way is better for `throughput`: true when higher is better.
    pub higher_is_better: bool,
    pub stop_reason: Option<StopReason>,
    pub events: u64,
    pub context_switches: u64,
    pub migrations: u64,
    pub ipis: u64,
    pub timer_reprograms: u64,
    pub nohz_entries: u64,
    pub ticks: u64,
    pub hrtick_fires: u64,
    pub wakeups: u64,
    pub preemptions: u64,
    /// State name -> fraction of all idle time spent in it.
    pub cstate_residency: BTreeMap<String, f64>,
    /// State name -> number of entries.
    pub cstate_entries: BTreeMap<String, u64>,
    pub wakeup_latency_us: Percentiles,
    /// Histogram of wakeup latency: (upper bound in us, count), log-spaced.
    pub wakeup_latency_hist: Vec<(f64, u64)>,
    /// CPU time in tasks' user bursts (including their cache refill), seconds.
    pub user_s: f64,
    /// CPU time in tasks' system-call bursts, seconds.
    pub sys_s: f64,
    /// Overhead kind -> CPU seconds.
    pub overhead_s: BTreeMap<String, f64>,
    pub idle_s: f64,
    /// (user + sys) / elapsed, in percent (170 means 1.7 CPUs busy on average).
    pub cpu_percent: f64,
    /// Host seconds the run took (not part of the digest).
    pub wall_s: f64,
    pub tasks: Vec<TaskStats>,
    /// The workload's own figures (`Workload::extra`, e.g. schbench's percentiles); empty,
    /// and left out of the JSON, for workloads that have none. Not part of the digest.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub workload: BTreeMap<String, f64>,
    /// Energy estimate of the run, joules: busy time at the profile's active power, idle
    /// time at its states' power (`profile::power_model`, sources and assumptions there).
    /// Derived, not in the digest.
    #[serde(default)]
    pub energy_j: f64,
    /// `energy_j` per unit of work: per unit of `throughput` times `elapsed_s` when
    /// throughput is a rate (J per op), else per run (J).
    #[serde(default)]
    pub energy_per_work: f64,
    /// CPU seconds a CPU stayed idle while a task waited on another CPU longer than
    /// `explain::WASTE_THRESHOLD` (the "Wasted Cores" check). Not in the digest.
    #[serde(default)]
    pub wasted_cpu_s: f64,
    /// The governor scoreboard over every idle period with a cpuidle governor: the chosen
    /// state against the best in hindsight. Not in the digest.
    #[serde(default)]
    pub governor_score: GovernorScore,
    /// FNV-1a over the integer counters and per-task totals: equal configs give equal digests
    /// on every target.
    pub digest: String,
}

/// A figure of `Metrics` by name: the one registry of metrics. The metrics panel and the
/// A/B table (`panel`), the sweep's y axis, the heatmap, the Pareto view, the CLI's
/// `sweep --metric` and `compare --metric`, the URL's `sweep_y=`/`pareto=`, tours and
/// Python's `schedscope.metrics()` all read `NAMED`, so a metric added here appears in each.
#[derive(Clone, Copy, Debug)]
pub struct Named {
    /// The one spelling of the metric (URLs, flags, `data-metric`, tours).
    pub key: &'static str,
    /// Its name for people: the panel's row, a picker's option, an axis.
    pub title: &'static str,
    /// The unit on an axis (`throughput`'s comes from the run: `Metrics::throughput_unit`);
    /// a count's unit is the thing counted.
    pub unit: &'static str,
    /// Which way is better: Some(true) higher, Some(false) lower, None neither (and
    /// `throughput` by the run's own `Metrics::higher_is_better`).
    pub higher_is_better: Option<bool>,
    /// A whole number of things (printed grouped, without a unit, in the panel).
    pub count: bool,
    /// Shown in the page's metrics panel and A/B table (in `NAMED` order).
    pub panel: bool,
    pub get: fn(&Metrics) -> f64,
    /// One line for people: what it counts, over what, and the basis of a percentage.
    pub help: &'static str,
}

/// Every named metric, the panel's first in the panel's order, then the others, as pickers
/// list them. Per-state C-state residency (`residency.C6`, percent of idle time) and a
/// workload's own figures (`workload.p99_us`) are named too (`value`), with the names a run
/// has (`names_in`). Adding a metric: one entry here and its line in the test below.
pub const NAMED: &[Named] = &[
    Named {
        key: "throughput",
        title: "Result",
        unit: "",
        higher_is_better: None,
        count: false,
        panel: true,
        get: |m| m.throughput,
        help: "The workload's own figure of merit over the whole run; its name and unit say which (time per round trip, Gbit/s, seconds to finish, periods met).",
    },
    Named {
        key: "elapsed_s",
        title: "Elapsed",
        unit: "s",
        higher_is_better: None,
        count: false,
        panel: true,
        get: |m| m.elapsed_s,
        help: "Simulated wall-clock time from the start until the workload finished its work (or the duration limit).",
    },
    Named {
        key: "cpu_percent",
        title: "CPU busy",
        unit: "%",
        higher_is_better: None,
        count: false,
        panel: true,
        get: |m| m.cpu_percent,
        help: "CPU time in tasks (user + system) over elapsed time, summed over all CPUs like time's CPU%: 200% is two CPUs busy all along.",
    },
    Named {
        key: "context_switches",
        title: "Context switches",
        unit: "switches",
        higher_is_better: Some(false),
        count: true,
        panel: true,
        get: |m| m.context_switches as f64,
        help: "Times any CPU switched from one task to another (idle included), summed over all CPUs for the whole run.",
    },
    Named {
        key: "migrations",
        title: "Migrations",
        unit: "migrations",
        higher_is_better: Some(false),
        count: true,
        panel: true,
        get: |m| m.migrations as f64,
        help: "Times a task was moved to another CPU's runqueue (at wakeup or by load balancing), over the whole run.",
    },
    Named {
        key: "ipis",
        title: "Resched IPIs",
        unit: "IPIs",
        higher_is_better: None,
        count: true,
        panel: true,
        get: |m| m.ipis as f64,
        help: "Reschedule interrupts sent to another CPU so it looks at its runqueue (a polling idle CPU needs none); neither better nor worse on its own.",
    },
    Named {
        key: "timer_reprograms",
        title: "Timer reprograms",
        unit: "reprograms",
        higher_is_better: Some(false),
        count: true,
        panel: true,
        get: |m| m.timer_reprograms as f64,
        help: "Writes of a CPU's clock-event device (stopping or restarting the tick, hrtick), summed over all CPUs.",
    },
    Named {
        key: "nohz_entries",
        title: "nohz entries",
        unit: "entries",
        higher_is_better: None,
        count: true,
        panel: true,
        get: |m| m.nohz_entries as f64,
        help: "Times an idle CPU stopped its periodic tick (nohz idle), summed over all CPUs.",
    },
    Named {
        key: "ticks",
        title: "Ticks",
        unit: "ticks",
        higher_is_better: None,
        count: true,
        panel: true,
        get: |m| m.ticks as f64,
        help: "Scheduler ticks handled, summed over all CPUs (HZ per second on each CPU whose tick runs).",
    },
    Named {
        key: "hrtick_fires",
        title: "hrtick fires",
        unit: "fires",
        higher_is_better: None,
        count: true,
        panel: true,
        get: |m| m.hrtick_fires as f64,
        help: "High-resolution tick timers that fired to end a slice on time (hrtick on only).",
    },
    Named {
        key: "wakeup_latency_p50",
        title: "Wakeup latency p50",
        unit: "µs",
        higher_is_better: Some(false),
        count: false,
        panel: true,
        get: |m| m.wakeup_latency_us.p50,
        help: "Median time from a task's wakeup to its running on a CPU, over every wakeup in the run.",
    },
    Named {
        key: "wakeup_latency_p99",
        title: "Wakeup latency p99",
        unit: "µs",
        higher_is_better: Some(false),
        count: false,
        panel: true,
        get: |m| m.wakeup_latency_us.p99,
        help: "99th percentile of the time from a task's wakeup to its running on a CPU, over every wakeup in the run.",
    },
    Named {
        key: "energy_j",
        title: "Energy (estimate)",
        unit: "J",
        higher_is_better: Some(false),
        count: false,
        panel: true,
        get: |m| m.energy_j,
        help: "Estimated energy of the run's CPUs: busy time at the profile's active power plus idle time at each C-state's power (profile::power_model; assumptions marked there).",
    },
    Named {
        key: "energy_per_work",
        title: "Energy per unit of work",
        unit: "J",
        higher_is_better: Some(false),
        count: false,
        panel: true,
        get: |m| m.energy_per_work,
        help: "Energy divided by the work done (the main result's units of work): lower is more efficient.",
    },
    Named {
        key: "wasted_cpu_s",
        title: "Wasted CPU (idle while a task waited)",
        unit: "s",
        higher_is_better: Some(false),
        count: false,
        panel: true,
        get: |m| m.wasted_cpu_s,
        help: "CPU time spent idle while a runnable task waited over 1 ms on another CPU (the Wasted Cores pathology), summed over CPUs.",
    },
    Named {
        key: "governor_right_periods",
        title: "Governor: right state",
        unit: "periods",
        higher_is_better: Some(true),
        count: true,
        panel: true,
        get: |m| m.governor_score.right as f64,
        help: "Idle periods whose chosen C-state was the best one in hindsight (deep enough to pay off, no deeper).",
    },
    Named {
        key: "governor_too_deep",
        title: "Governor: too deep",
        unit: "periods",
        higher_is_better: Some(false),
        count: true,
        panel: true,
        get: |m| m.governor_score.too_deep as f64,
        help: "Idle periods too short for the chosen C-state's target residency: its exit latency was paid for little saving.",
    },
    Named {
        key: "governor_too_shallow",
        title: "Governor: too shallow",
        unit: "periods",
        higher_is_better: Some(false),
        count: true,
        panel: true,
        get: |m| m.governor_score.too_shallow as f64,
        help: "Idle periods long enough for a deeper C-state than the one chosen: power left on the table.",
    },
    Named {
        key: "governor_miss_energy_mj",
        title: "Governor misses' energy",
        unit: "mJ",
        higher_is_better: Some(false),
        count: false,
        panel: true,
        get: |m| m.governor_score.miss_energy_mj,
        help: "Energy the governor's wrong choices cost against the best state in hindsight, in millijoules.",
    },
    Named {
        key: "wakeup_latency_max",
        title: "Wakeup latency max",
        unit: "µs",
        higher_is_better: Some(false),
        count: false,
        panel: false,
        get: |m| m.wakeup_latency_us.max,
        help: "The longest time any task waited from its wakeup to its running on a CPU, over the whole run.",
    },
    Named {
        key: "preemptions",
        title: "Preemptions",
        unit: "preemptions",
        higher_is_better: None,
        count: true,
        panel: false,
        get: |m| m.preemptions as f64,
        help: "Times a running task went back to its runqueue still runnable (it was preempted), summed over all CPUs.",
    },
    Named {
        key: "wakeups",
        title: "Wakeups",
        unit: "wakeups",
        higher_is_better: None,
        count: true,
        panel: false,
        get: |m| m.wakeups as f64,
        help: "Wakeups of sleeping tasks (a runnable task woken again does not count), over the whole run.",
    },
    Named {
        key: "user_s",
        title: "User time",
        unit: "s",
        higher_is_better: Some(false),
        count: false,
        panel: false,
        get: |m| m.user_s,
        help: "CPU time in the tasks' user-mode bursts, their cache refill included, summed over all CPUs.",
    },
    Named {
        key: "sys_s",
        title: "System time",
        unit: "s",
        higher_is_better: Some(false),
        count: false,
        panel: false,
        get: |m| m.sys_s,
        help: "CPU time in the tasks' system calls and the kernel work charged to them, summed over all CPUs.",
    },
    Named {
        key: "idle_s",
        title: "Idle time",
        unit: "s",
        higher_is_better: None,
        count: false,
        panel: false,
        get: |m| m.idle_s,
        help: "CPU time the CPUs spent idle, summed over all CPUs (elapsed times CPUs, less the busy time).",
    },
    Named {
        key: "events",
        title: "Events",
        unit: "events",
        higher_is_better: None,
        count: true,
        panel: false,
        get: |m| m.events as f64,
        help: "Events the simulator handled (a cancelled one still counts): the cost of the run, not of the system.",
    },
    Named {
        key: "governor_miss_latency_us",
        title: "Governor misses' latency",
        unit: "µs",
        higher_is_better: Some(false),
        count: false,
        panel: false,
        get: |m| m.governor_score.miss_latency_us,
        help: "Exit latency the governor's too-deep choices added against the best state in hindsight, summed over them, in µs.",
    },
    Named {
        key: "governor_right",
        title: "Governor: share right",
        unit: "fraction",
        higher_is_better: Some(true),
        count: false,
        panel: false,
        get: |m| m.governor_score.right_fraction(),
        help: "Fraction of idle periods (0 to 1) whose chosen C-state was the best one in hindsight; 0 when there were none.",
    },
];

/// Old spellings of `NAMED` keys (the page's and the CSV's `wakeup_latency_us.p99`, the
/// scoreboard's `governor_score.right`), accepted wherever a metric is named (`named`,
/// `canonical`) and never printed, so old tours, links and scripts keep working.
pub const ALIASES: &[(&str, &str)] = &[
    ("wakeup_latency_us.p50", "wakeup_latency_p50"),
    ("wakeup_latency_us.p99", "wakeup_latency_p99"),
    ("wakeup_latency_us.max", "wakeup_latency_max"),
    ("governor_score.right", "governor_right_periods"),
    ("governor_score.too_deep", "governor_too_deep"),
    ("governor_score.too_shallow", "governor_too_shallow"),
    ("governor_score.miss_energy_mj", "governor_miss_energy_mj"),
];

/// The metrics the page's panel and A/B table show, in their order.
pub fn panel() -> impl Iterator<Item = &'static Named> {
    NAMED.iter().filter(|n| n.panel)
}

/// Prefix of a per-state residency metric: `residency.C6` is the percent of idle time in C6.
pub const RESIDENCY_PREFIX: &str = "residency.";
/// Prefix of a workload's own figure (`Metrics::workload`): `workload.p99_us`.
pub const WORKLOAD_PREFIX: &str = "workload.";

/// The named metric `key` (or an old spelling of it, `ALIASES`), if it is one of `NAMED`.
pub fn named(key: &str) -> Option<&'static Named> {
    let key = ALIASES.iter().find(|(old, _)| *old == key).map_or(key, |(_, new)| *new);
    NAMED.iter().find(|n| n.key == key)
}

/// The one spelling of the metric `key` names: a `NAMED` key for it or its alias, a
/// residency or workload name as it is (None: not a metric).
pub fn canonical(key: &str) -> Option<String> {
    match named(key) {
        Some(n) => Some(n.key.to_string()),
        None if is_metric(key) => Some(key.to_string()),
        None => None,
    }
}

/// Whether `key` names a metric: one of `NAMED`, or a residency or workload figure (whose
/// names depend on the run, so any non-empty name is accepted).
pub fn is_metric(key: &str) -> bool {
    named(key).is_some()
        || [RESIDENCY_PREFIX, WORKLOAD_PREFIX].iter().any(|p| key.strip_prefix(p).is_some_and(|r| !r.is_empty()))
}

/// The value of the metric `key` in `m` (None for an unknown key; 0 for a residency or
/// workload figure the run does not have: a state never entered spent 0% there).
pub fn value(m: &Metrics, key: &str) -> Option<f64> {
    if let Some(n) = named(key) {
        return Some((n.get)(m));
    }
    if let Some(state) = key.strip_prefix(RESIDENCY_PREFIX).filter(|s| !s.is_empty()) {
        return Some(m.cstate_residency.get(state).copied().unwrap_or(0.0) * 100.0);
    }
    if let Some(k) = key.strip_prefix(WORKLOAD_PREFIX).filter(|s| !s.is_empty()) {
        return Some(m.workload.get(k).copied().unwrap_or(0.0));
    }
    None
}

/// The title and unit of `key` for an axis or a picker (`m` gives `throughput`'s name and
/// unit: `result_title`).
pub fn label_unit(key: &str, m: Option<&Metrics>) -> (String, String) {
    if let Some(n) = named(key) {
        if n.key == "throughput" {
            let unit = m.map(|m| m.throughput_unit.clone()).unwrap_or_default();
            return (result_title(&unit), unit);
        }
        return (n.title.to_string(), n.unit.into());
    }
    if let Some(state) = key.strip_prefix(RESIDENCY_PREFIX) {
        return (format!("{state} residency"), "% of idle time".into());
    }
    (key.strip_prefix(WORKLOAD_PREFIX).unwrap_or(key).to_string(), String::new())
}

/// The main result's title from its unit: "Time per round trip", "Throughput", "Time to
/// finish", "Requests per second"; "Result" when the unit says nothing.
pub fn result_title(unit: &str) -> String {
    match unit.split_once('/') {
        _ if unit.is_empty() => "Result".into(),
        Some((_, per)) if unit.starts_with("us") || unit.starts_with("ms") || unit.starts_with("ns") => {
            format!("Time per {per}")
        }
        Some(("Gbit" | "Mbit", "s")) => "Throughput".into(),
        Some((what, "s")) if !what.is_empty() => {
            let mut c = what.chars();
            let first: String = c.next().map(|f| f.to_ascii_uppercase().to_string()).unwrap_or_default();
            format!("{first}{} per second", c.as_str())
        }
        _ if unit == "s" => "Time to finish".into(),
        _ if unit.starts_with('%') => format!("Result ({})", unit.trim_start_matches('%').trim()),
        _ => "Result".into(),
    }
}

/// Which way is better for `key` (`throughput` by the run's own `higher_is_better`).
pub fn higher_is_better(key: &str, m: Option<&Metrics>) -> Option<bool> {
    match named(key) {
        Some(n) if n.key == "throughput" => m.map(|m| m.higher_is_better),
        Some(n) => n.higher_is_better,
        None if key.starts_with(RESIDENCY_PREFIX) => None,
        None => None,
    }
}

/// Every metric name a picker offers for a run: `NAMED`, then `m`'s C-states and workload
/// figures in their (sorted) map order.
pub fn names_in(m: Option<&Metrics>) -> Vec<String> {
    let mut out: Vec<String> = NAMED.iter().map(|n| n.key.to_string()).collect();
    if let Some(m) = m {
        out.extend(m.cstate_residency.keys().map(|s| format!("{RESIDENCY_PREFIX}{s}")));
        out.extend(m.workload.keys().map(|s| format!("{WORKLOAD_PREFIX}{s}")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_metrics_read_their_field_and_unknown_names_read_nothing() {
        let mut m = Metrics { ticks: 7, throughput: 2.5, throughput_unit: "ops/s".into(), ..Default::default() };
        m.wakeup_latency_us.p99 = 13.0;
        m.cstate_residency.insert("C6".into(), 0.25);
        assert_eq!(value(&m, "ticks"), Some(7.0));
        assert_eq!(value(&m, "throughput"), Some(2.5));
        assert_eq!(value(&m, "wakeup_latency_p99"), Some(13.0));
        assert_eq!(value(&m, "residency.C6"), Some(25.0));
        assert_eq!(value(&m, "residency.C1"), Some(0.0), "a state never entered spent 0% there");
        assert_eq!(value(&m, "nope"), None);
        assert_eq!(value(&m, "residency."), None);
        assert!(is_metric("workload.p99_us") && !is_metric("workload.") && !is_metric("tick"));
        assert_eq!(label_unit("throughput", Some(&m)), ("Ops per second".into(), "ops/s".into()));
        assert_eq!(label_unit("throughput", None), ("Result".into(), String::new()));
        let names = names_in(Some(&m));
        assert_eq!(names[0], "throughput");
        assert!(names.contains(&"residency.C6".to_string()));
        let mut keys: Vec<&str> = NAMED.iter().map(|n| n.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), NAMED.len(), "no metric is named twice");
    }

    /// A run whose every figure differs, so a registry entry reading the wrong field is seen.
    fn distinct() -> Metrics {
        let mut m = Metrics {
            elapsed_s: 1.5,
            throughput: 2.5,
            throughput_unit: "us/round trip".into(),
            events: 3,
            context_switches: 4,
            migrations: 5,
            ipis: 6,
            timer_reprograms: 7,
            nohz_entries: 8,
            ticks: 9,
            hrtick_fires: 10,
            wakeups: 11,
            preemptions: 12,
            user_s: 13.5,
            sys_s: 14.5,
            idle_s: 15.5,
            cpu_percent: 16.5,
            energy_j: 17.5,
            energy_per_work: 18.5,
            wasted_cpu_s: 19.5,
            ..Default::default()
        };
        m.wakeup_latency_us = Percentiles { p50: 20.5, p99: 21.5, max: 22.5, count: 23 };
        m.governor_score =
            GovernorScore { right: 24, too_deep: 25, too_shallow: 31, miss_latency_us: 26.5, miss_energy_mj: 27.5 };
        m
    }

    /// Each registry entry and the figure it reads in `distinct()`: one line per metric.
    const EXPECTED: &[(&str, f64)] = &[
        ("throughput", 2.5),
        ("elapsed_s", 1.5),
        ("cpu_percent", 16.5),
        ("context_switches", 4.0),
        ("migrations", 5.0),
        ("ipis", 6.0),
        ("timer_reprograms", 7.0),
        ("nohz_entries", 8.0),
        ("ticks", 9.0),
        ("hrtick_fires", 10.0),
        ("wakeup_latency_p50", 20.5),
        ("wakeup_latency_p99", 21.5),
        ("energy_j", 17.5),
        ("energy_per_work", 18.5),
        ("wasted_cpu_s", 19.5),
        ("governor_right_periods", 24.0),
        ("governor_too_deep", 25.0),
        ("governor_too_shallow", 31.0),
        ("governor_miss_energy_mj", 27.5),
        ("wakeup_latency_max", 22.5),
        ("preemptions", 12.0),
        ("wakeups", 11.0),
        ("user_s", 13.5),
        ("sys_s", 14.5),
        ("idle_s", 15.5),
        ("events", 3.0),
        ("governor_miss_latency_us", 26.5),
        ("governor_right", 24.0 / 80.0),
    ];

    #[test]
    fn every_registry_entry_reads_its_own_field_and_is_documented() {
        let m = distinct();
        let keys: Vec<&str> = NAMED.iter().map(|n| n.key).collect();
        let listed: Vec<&str> = EXPECTED.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, listed, "a metric added to NAMED gets its line in EXPECTED (in NAMED order)");
        for (key, want) in EXPECTED {
            assert_eq!(value(&m, key), Some(*want), "{key}");
        }
        for n in NAMED {
            assert!(n.title.len() > 2 && n.help.len() > 30 && !n.help.contains('\n'), "{}: {}", n.key, n.help);
            assert!(n.key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'), "{}", n.key);
            // A count reads a whole number and names what it counts.
            assert!(!n.count || ((n.get)(&m).fract() == 0.0 && !n.unit.is_empty()), "{}", n.key);
        }
        let panel: Vec<&str> = panel().map(|n| n.key).collect();
        assert_eq!(&keys[..panel.len()], &panel[..], "the panel's metrics come first, in the panel's order");
    }

    #[test]
    fn old_spellings_name_the_same_metric_and_are_never_printed() {
        let m = distinct();
        for (old, new) in ALIASES {
            assert_eq!(named(old).map(|n| n.key), Some(*new), "{old}");
            assert_eq!(value(&m, old), value(&m, new), "{old}");
            assert_eq!(canonical(old).as_deref(), Some(*new));
            assert!(!names_in(Some(&m)).iter().any(|k| k == old), "{old} is not offered");
        }
        assert_eq!(canonical("residency.C6").as_deref(), Some("residency.C6"));
        assert_eq!(canonical("wakeup_latency_us"), None);
        assert_eq!(value(&m, "wakeup_latency_us.p99"), Some(21.5));
    }

    #[test]
    fn the_main_result_names_its_measure() {
        assert_eq!(result_title("us/round trip"), "Time per round trip");
        assert_eq!(result_title("us/loop"), "Time per loop");
        assert_eq!(result_title("s"), "Time to finish");
        assert_eq!(result_title("Gbit/s"), "Throughput");
        assert_eq!(result_title("requests/s"), "Requests per second");
        assert_eq!(result_title("% periods met"), "Result (periods met)");
        assert_eq!(result_title(""), "Result");
    }
}
