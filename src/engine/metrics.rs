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
    pub runtime_ns: u64,
    pub refill_ns: u64,
    pub switches_in: u64,
    pub wakeups: u64,
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
    /// FNV-1a over the integer counters and per-task totals: equal configs give equal digests
    /// on every target.
    pub digest: String,
}
