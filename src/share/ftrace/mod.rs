//! Real traces: read `trace-cmd report` / `trace_pipe` / `perf script` text of sched
//! tracepoints (`parse`), rebuild per-task runs, sleeps and wakeups and their statistics
//! (`model`), draw a recording as the engine's `Trace` and write a simulated `Trace` as
//! `trace-cmd report` text (`export`), and replay a recording as a program under any
//! config and compare (`replay`, `replay_and_diff`). `tracedat` reads trace-cmd's binary
//! `trace.dat` into the same model, and `detect` tells the formats apart by content.
//!
//! Everything is total: a bad line is a notice with its line number; a file with no event
//! at all is an error naming the first bad line.

pub mod export;
pub mod model;
pub mod parse;
pub mod replay;
pub mod tracedat;

use std::sync::Arc;

use crate::engine::config::{Config, MAX_CORES, MAX_DURATION};
use crate::engine::time::{Ns, MS, SEC};
use crate::engine::workload::replay::Program;
use crate::engine::{self, Outcome, TraceOptions};

pub use model::{read, Model, ReadError, Stats, TaskStat};

/// What a trace file is, told by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// trace-cmd's binary trace.dat (`tracedat`).
    TraceDat,
    /// A JSON object: schedscope's Perfetto export, or Chrome JSON.
    Perfetto,
    /// Another binary file (a NUL byte in the first 4 KiB).
    Binary,
    /// `trace-cmd report` / `trace_pipe` / `perf script` text.
    Text,
}

/// The format of a file whose first bytes are `head` (4 KiB are enough).
pub fn detect(head: &[u8]) -> Format {
    if head.starts_with(tracedat::MAGIC) {
        return Format::TraceDat;
    }
    let start = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
    if head.get(start) == Some(&b'{') {
        return Format::Perfetto;
    }
    if head.iter().take(4096).any(|&b| b == 0) {
        return Format::Binary;
    }
    Format::Text
}

/// Reads a whole trace file into a model: a trace.dat, text of any dialect, or Chrome
/// JSON holding systrace text (`systemTraceEvents`, what Android's systrace writes: the
/// ftrace text is a string in the JSON).
pub fn read_bytes(bytes: &[u8]) -> Result<Model, ReadError> {
    match detect(bytes) {
        Format::TraceDat => tracedat::read(bytes),
        Format::Perfetto => {
            #[derive(serde::Deserialize)]
            struct Systrace {
                #[serde(rename = "systemTraceEvents")]
                text: Option<serde_json::Value>,
            }
            match serde_json::from_slice::<Systrace>(bytes) {
                Ok(Systrace { text: Some(serde_json::Value::String(t)) }) => read(&t),
                // Fuchsia's exporter (and Perfetto's for Fuchsia traces) writes an object
                // of events there (`{"type": "fuchsia", "events": [...]}`), not ftrace text.
                Ok(Systrace { text: Some(_) }) => Err(ReadError {
                    message: "\"systemTraceEvents\" holds no systrace text (an object or a number: Fuchsia's \
                              event form is not read); a systrace JSON has the ftrace text as a string there"
                        .into(),
                }),
                Ok(_) => Err(ReadError {
                    message: "a JSON trace without \"systemTraceEvents\" (systrace text): for schedscope's own \
                              Perfetto export use the page's Import trace"
                        .into(),
                }),
                Err(e) => {
                    Err(ReadError { message: format!("line {}, column {}: not valid JSON: {e}", e.line(), e.column()) })
                }
            }
        }
        _ => read(&String::from_utf8_lossy(bytes)),
    }
}

/// Trace items a replay records for the comparison (beyond it the diff says it is cut).
pub const REPLAY_TRACE_ITEMS: usize = 4_000_000;

/// The config a replay starts from: `base` with the trace's CPU count (at most the
/// engine's `MAX_CORES`) and a time limit of three times the recording (at least 100 ms,
/// at most the `duration` key's `MAX_DURATION`), so a slower replay can finish.
/// `replay_notes` says what of this the user should know.
pub fn replay_config(m: &Model, base: &Config) -> Config {
    let mut c = base.clone();
    c.cores = m.cpus.clamp(1, MAX_CORES);
    let d = m.duration().saturating_mul(3).clamp(100 * MS, MAX_DURATION);
    c.duration = d.div_ceil(MS) * MS;
    c
}

/// What a replay of `m` under `config` cannot do as recorded, or an error when it cannot
/// be replayed at all (a recording longer than the engine simulates).
pub fn replay_notes(m: &Model, config: &Config) -> Result<Vec<String>, String> {
    let rec = m.duration();
    if rec > MAX_DURATION {
        return Err(format!(
            "the trace covers {} s (from {} s to {} s); a replay simulates at most {} s (the duration key's \
             limit): cut the recording (trace-cmd report --ts-diff / a shorter capture)",
            secs(rec),
            secs(m.start),
            secs(m.end),
            MAX_DURATION / SEC
        ));
    }
    let mut notes = Vec::new();
    if m.cpus > MAX_CORES {
        notes.push(format!(
            "the trace has {} CPUs; the engine simulates at most {MAX_CORES}: a task recorded on CPU N \
             starts on CPU N mod {MAX_CORES}",
            m.cpus
        ));
    }
    if config.duration < rec {
        notes.push(format!(
            "the replay's duration ({} s) is shorter than the recording ({} s): it covers the start only",
            secs(config.duration),
            secs(rec)
        ));
    } else if config.duration < rec.saturating_mul(3) && config.duration == MAX_DURATION {
        notes.push(format!(
            "the replay's time limit is {} s (the duration key's limit), less than three times the \
             recording: a slower replay may be cut",
            MAX_DURATION / SEC
        ));
    }
    Ok(notes)
}

fn secs(ns: Ns) -> String {
    format!("{:.6}", ns as f64 / 1e9)
}

/// `s` cut to at most `max` bytes (at a character boundary) with `…` when cut: for
/// echoing a value from a file or a link in a message without echoing all of it.
pub fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut n = max;
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    format!("{}… ({} bytes)", &s[..n], s.len())
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
    let sim = sim_stats(&out, &replay::lives(m))
        .map_err(|e| format!("internal: the replay's own trace could not be read back: {e}"))?;
    Ok((replay::diff(&m.stats(), &sim), out))
}
