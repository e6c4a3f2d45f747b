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
