//! The deterministic scheduler simulation: pure Rust, no web imports (no yew, web-sys, gloo).
//!
//! `run(config, trace)` simulates `config` and returns its metrics and, if asked, a
//! bounded trace. Same config and seed give the same outcome on every target.
//! Layers: `queue` (event kernel: time, sequence, cancellation), `sim` (cores, timers,
//! idle, wakeups, costs), `policy` (CFS, EEVDF, SD behind one trait), `idle` (cpuidle
//! governors), `workload` (pipe, iperf, kbuild, rtapp, hackbench, schbench, token), `presets` and `validate` (the
//! seed experiments).

// The engine was a module of the `schedscope` crate; its files still name each other
// `crate::engine::...`, which this alias keeps meaning the same thing.
use crate as engine;

pub mod config;
pub mod corpus;
pub mod decimal;
pub mod explain;
pub mod idle;
pub mod kernel;
pub mod knobs;
#[cfg(test)]
mod layering;
pub mod metrics;
pub mod order;
pub mod policy;
pub mod presets;
pub mod profile;
pub mod queue;
pub mod rng;
pub mod sim;
pub mod tables;
pub mod time;
pub mod trace;
pub mod validate;
pub mod workload;

pub use config::{Config, ConfigError};
pub use metrics::Metrics;
pub use trace::{Trace, TraceOptions};

/// The result of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub metrics: Metrics,
    /// Empty unless a trace was requested.
    pub trace: Trace,
}

/// Simulates `config`. Errors only for configs that fail cross-field validation
/// (single keys are validated by `Config::set`); every run terminates, by its simulated
/// time limit or its event budget, and says which in `metrics.stop_reason`.
pub fn run(config: &Config, trace: Option<TraceOptions>) -> Result<Outcome, ConfigError> {
    check(config)?;
    Ok(sim::Sim::new(config, trace).run())
}

/// Simulates a recorded program (`workload::replay`) under `config`; `config.workload`
/// is ignored, everything else applies.
pub fn run_replay(
    config: &Config,
    trace: Option<TraceOptions>,
    program: std::sync::Arc<workload::replay::Program>,
) -> Result<Outcome, ConfigError> {
    check(config)?;
    let wl = workload::AnyWorkload::Replay(workload::replay::Replay::new(program));
    Ok(sim::Sim::with_workload(config, trace, wl).run())
}

/// `run` in chunks of `chunk` events, calling `between` with the progress after each chunk
/// that did not end the run (a page shows it, or stops the run from outside). The same
/// outcome as `run` (`sim::Sim::advance`).
pub fn run_chunked(
    config: &Config,
    trace: Option<TraceOptions>,
    chunk: u64,
    mut between: impl FnMut(sim::Progress),
) -> Result<Outcome, ConfigError> {
    check(config)?;
    let mut sim = sim::Sim::new(config, trace);
    while !sim.advance(chunk.max(1)) {
        between(sim.progress());
    }
    Ok(sim.into_outcome())
}

/// `run_chunked`, where `between` may end the run after a chunk by returning false: it
/// then stops as the config with `max_events` = the events handled so far would (the same
/// outcome, `StopReason::EventBudget`). The page bounds its previews by time this way.
pub fn run_chunked_while(
    config: &Config,
    trace: Option<TraceOptions>,
    chunk: u64,
    mut between: impl FnMut(sim::Progress) -> bool,
) -> Result<Outcome, ConfigError> {
    check(config)?;
    let mut sim = sim::Sim::new(config, trace);
    while !sim.advance(chunk.max(1)) {
        if !between(sim.progress()) {
            sim.end_budget_here();
            sim.advance(1);
            break;
        }
    }
    Ok(sim.into_outcome())
}

/// Cross-field and range validation of a whole config (for configs built in code or
/// deserialized, which did not pass through `Config::set`).
pub fn check(config: &Config) -> Result<(), ConfigError> {
    // Re-parsing every key's canonical text applies the same ranges as `set`.
    let mut probe = Config { cpu: config.cpu.clone(), ..Config::default() };
    for (key, value) in config.to_pairs() {
        probe.set(key, &value)?;
    }
    if probe != *config {
        return Err(ConfigError { key: "config".into(), message: "a value does not survive validation".into() });
    }
    Ok(())
}
