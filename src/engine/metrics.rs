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

/// A figure of `Metrics` that views and the CLI name by key (the sweep's y axis, the
/// heatmap, the Pareto view, `schedscope sweep --metric`). One list, here, so a metric added
/// to `Metrics` and to `NAMED` appears in every picker.
#[derive(Clone, Copy, Debug)]
pub struct Named {
    pub key: &'static str,
    /// A short label for pickers and axes.
    pub label: &'static str,
    /// The unit on an axis (`throughput`'s comes from the run: `Metrics::throughput_unit`).
    pub unit: &'static str,
    /// Which way is better: Some(true) higher, Some(false) lower, None neither.
    pub higher_is_better: Option<bool>,
    pub get: fn(&Metrics) -> f64,
}

/// Every named metric, in picker order. Per-state C-state residency (`residency.C6`, percent
/// of idle time) and a workload's own figures (`workload.p99_us`) are named too (`value`),
/// with the names a run has (`names_in`).
pub const NAMED: &[Named] = &[
    Named { key: "throughput", label: "main result", unit: "", higher_is_better: None, get: |m| m.throughput },
    Named { key: "elapsed_s", label: "elapsed", unit: "s", higher_is_better: Some(false), get: |m| m.elapsed_s },
    Named {
        key: "wakeup_latency_p50",
        label: "p50 wakeup latency",
        unit: "µs",
        higher_is_better: Some(false),
        get: |m| m.wakeup_latency_us.p50,
    },
    Named {
        key: "wakeup_latency_p99",
        label: "p99 wakeup latency",
        unit: "µs",
        higher_is_better: Some(false),
        get: |m| m.wakeup_latency_us.p99,
    },
    Named {
        key: "wakeup_latency_max",
        label: "max wakeup latency",
        unit: "µs",
        higher_is_better: Some(false),
        get: |m| m.wakeup_latency_us.max,
    },
    Named {
        key: "context_switches",
        label: "context switches",
        unit: "switches",
        higher_is_better: Some(false),
        get: |m| m.context_switches as f64,
    },
    Named {
        key: "preemptions",
        label: "preemptions",
        unit: "preemptions",
        higher_is_better: None,
        get: |m| m.preemptions as f64,
    },
    Named {
        key: "migrations",
        label: "migrations",
        unit: "migrations",
        higher_is_better: None,
        get: |m| m.migrations as f64,
    },
    Named { key: "wakeups", label: "wakeups", unit: "wakeups", higher_is_better: None, get: |m| m.wakeups as f64 },
    Named { key: "ticks", label: "ticks", unit: "ticks", higher_is_better: Some(false), get: |m| m.ticks as f64 },
    Named {
        key: "hrtick_fires",
        label: "hrtick fires",
        unit: "fires",
        higher_is_better: None,
        get: |m| m.hrtick_fires as f64,
    },
    Named {
        key: "timer_reprograms",
        label: "timer reprograms",
        unit: "reprograms",
        higher_is_better: Some(false),
        get: |m| m.timer_reprograms as f64,
    },
    Named {
        key: "nohz_entries",
        label: "nohz entries",
        unit: "entries",
        higher_is_better: None,
        get: |m| m.nohz_entries as f64,
    },
    Named { key: "ipis", label: "IPIs", unit: "IPIs", higher_is_better: Some(false), get: |m| m.ipis as f64 },
    Named { key: "user_s", label: "user time", unit: "s", higher_is_better: Some(false), get: |m| m.user_s },
    Named { key: "sys_s", label: "system time", unit: "s", higher_is_better: Some(false), get: |m| m.sys_s },
    Named { key: "idle_s", label: "idle time", unit: "s", higher_is_better: None, get: |m| m.idle_s },
    Named { key: "cpu_percent", label: "CPU", unit: "%", higher_is_better: None, get: |m| m.cpu_percent },
    Named { key: "events", label: "events", unit: "events", higher_is_better: None, get: |m| m.events as f64 },
    Named { key: "energy_j", label: "energy", unit: "J", higher_is_better: Some(false), get: |m| m.energy_j },
    Named {
        key: "energy_per_work",
        label: "energy per unit of work",
        unit: "J",
        higher_is_better: Some(false),
        get: |m| m.energy_per_work,
    },
    Named {
        key: "wasted_cpu_s",
        label: "wasted CPU (idle while a task waits)",
        unit: "s",
        higher_is_better: Some(false),
        get: |m| m.wasted_cpu_s,
    },
    Named {
        key: "governor_right",
        label: "idle states chosen right",
        unit: "fraction",
        higher_is_better: Some(true),
        get: |m| m.governor_score.right_fraction(),
    },
    Named {
        key: "governor_too_deep",
        label: "idle states too deep",
        unit: "periods",
        higher_is_better: Some(false),
        get: |m| m.governor_score.too_deep as f64,
    },
    Named {
        key: "governor_too_shallow",
        label: "idle states too shallow",
        unit: "periods",
        higher_is_better: Some(false),
        get: |m| m.governor_score.too_shallow as f64,
    },
    Named {
        key: "governor_miss_energy_mj",
        label: "energy lost to idle-state misses",
        unit: "mJ",
        higher_is_better: Some(false),
        get: |m| m.governor_score.miss_energy_mj,
    },
];

/// Prefix of a per-state residency metric: `residency.C6` is the percent of idle time in C6.
pub const RESIDENCY_PREFIX: &str = "residency.";
/// Prefix of a workload's own figure (`Metrics::workload`): `workload.p99_us`.
pub const WORKLOAD_PREFIX: &str = "workload.";

/// The named metric `key`, if it is one of `NAMED`.
pub fn named(key: &str) -> Option<&'static Named> {
    NAMED.iter().find(|n| n.key == key)
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

/// The label and unit of `key` for an axis (`m` gives `throughput`'s unit).
pub fn label_unit(key: &str, m: Option<&Metrics>) -> (String, String) {
    if let Some(n) = named(key) {
        let unit = if n.key == "throughput" {
            m.map(|m| m.throughput_unit.clone()).unwrap_or_default()
        } else {
            n.unit.into()
        };
        return (n.label.to_string(), unit);
    }
    if let Some(state) = key.strip_prefix(RESIDENCY_PREFIX) {
        return (format!("{state} residency"), "% of idle time".into());
    }
    (key.strip_prefix(WORKLOAD_PREFIX).unwrap_or(key).to_string(), String::new())
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
        assert_eq!(label_unit("throughput", Some(&m)), ("main result".into(), "ops/s".into()));
        let names = names_in(Some(&m));
        assert_eq!(names[0], "throughput");
        assert!(names.contains(&"residency.C6".to_string()));
        let mut keys: Vec<&str> = NAMED.iter().map(|n| n.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), NAMED.len(), "no metric is named twice");
    }
}
