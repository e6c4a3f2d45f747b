//! Real traces: read `trace-cmd report` / `trace_pipe` / `perf script` text of sched
//! tracepoints (`parse`), rebuild per-task runs, sleeps and wakeups and their statistics
//! (`model`), draw a recording as the engine's `Trace` and write a simulated `Trace` as
//! `trace-cmd report` text (`export`), and replay a recording as a program under any
//! config and compare (`replay`, `replay_and_diff`).
//!
//! Everything is total: a bad line is a notice with its line number; a file with no event
//! at all is an error naming the first bad line.

pub mod export;
pub mod model;
pub mod parse;
pub mod replay;

use std::sync::Arc;

use crate::engine::config::Config;
use crate::engine::time::{Ns, MS};
use crate::engine::workload::replay::Program;
use crate::engine::{self, Outcome, TraceOptions};

pub use model::{read, Model, ReadError, Stats, TaskStat};

/// Trace items a replay records for the comparison (beyond it the diff says it is cut).
pub const REPLAY_TRACE_ITEMS: usize = 4_000_000;

/// The config a replay starts from: `base` with the trace's CPU count and a time limit
/// of three times the recording (at least 100 ms), so a slower replay can finish.
pub fn replay_config(m: &Model, base: &Config) -> Config {
    let mut c = base.clone();
    c.cores = m.cpus.clamp(1, 128);
    let d = (m.duration().saturating_mul(3)).max(100 * MS);
    c.duration = d.div_ceil(MS) * MS;
    c
}

/// Replays `prog` under `config`, recording the whole trace.
pub fn replay(config: &Config, prog: Arc<Program>) -> Result<Outcome, String> {
    let opts = TraceOptions { window: (0, Ns::MAX), max_items: REPLAY_TRACE_ITEMS };
    engine::run_replay(config, Some(opts), prog).map_err(|e| format!("{}: {}", e.key, e.message))
}

/// The statistics of a simulated run, measured the way a recording's are (its trace
/// exported as text and read back), so both sides of a diff share one definition.
/// `lives` says how each task's birth and death are written (`replay::lives` for a replay).
pub fn sim_stats(out: &Outcome, lives: &[export::Life]) -> Result<Stats, String> {
    let text = export::to_text_with(&out.trace, None, lives);
    read(&text).map(|m| m.stats()).map_err(|e| e.message)
}

/// Recorded vs replayed under `config`.
pub fn replay_and_diff(m: &Model, config: &Config) -> Result<(replay::Diff, Outcome), String> {
    let out = replay(config, replay::shared_program_for(m, config))?;
    let sim = sim_stats(&out, &replay::lives(m))?;
    Ok((replay::diff(&m.stats(), &sim), out))
}
