//! `trace stats`, `trace diff` and `run --from-trace`: recorded ftrace / perf script text,
//! or trace-cmd's binary trace.dat.
//!
//! A replay's config is assembled as `run`'s is, with the trace in the middle: the preset
//! (or the default), then the trace's CPU count and a time limit of three times the
//! recording (`share::ftrace::replay_config`), then each `--set`.

use super::args::{self, Flag, Parsed};
use super::report::to_json;
use super::setup::{find_preset, split_set};
use super::{usage, CliError, Out};
use crate::engine::{self, Config};
use crate::share::ftrace::{self, Model};

/// Larger trace files than this are refused.
const MAX_TRACE_BYTES: u64 = 1 << 30;

const STATS_FLAGS: &[Flag] = &[Flag::switch("--json")];
const DIFF_FLAGS: &[Flag] =
    &[Flag::value("--preset", "NAME"), Flag::repeated("--set", "KEY=VALUE"), Flag::switch("--json")];

/// Reads and parses a trace file; what was skipped goes to `notes`.
pub fn load(flag: &str, path: &str, notes: &mut Vec<String>) -> Result<Model, CliError> {
    let fail = |why: String| CliError::usage(format!("{flag}: cannot read '{path}': {why}"));
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if meta.is_dir() {
        return Err(fail("it is a directory".into()));
    }
    if meta.len() > MAX_TRACE_BYTES {
        return Err(fail(format!("larger than {} MiB", MAX_TRACE_BYTES >> 20)));
    }
    let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
    // trace.dat (binary, `share::ftrace::tracedat`) or text, told by content.
    let m = ftrace::read_bytes(&bytes).map_err(|e| CliError::usage(format!("{flag}: {path}: {e}")))?;
    if !m.skipped.is_empty() {
        let list: Vec<String> = m.skipped.iter().map(|(k, v)| format!("{k} ({v})")).collect();
        notes.push(format!("{path}: events not used, skipped: {}", list.join(", ")));
    }
    if m.bad_lines > 0 {
        notes.push(format!("{path}: {} lines could not be read", m.bad_lines));
    }
    notes.extend(m.notices.iter().map(|n| format!("{path}: {n}")));
    Ok(m)
}

/// The replay config: preset, the trace's machine size and time limit, then `--set`s.
pub fn replay_setup(parsed: &Parsed, m: &Model) -> Result<Config, CliError> {
    let base = parsed.get("--preset").map(find_preset).transpose()?.map(|p| (p.config)()).unwrap_or_default();
    let mut config = ftrace::replay_config(m, &base);
    for text in parsed.all("--set") {
        let (key, value) = split_set(text)?;
        config.set(key, value)?;
    }
    engine::check(&config)?;
    Ok(config)
}

/// `replay_setup`, then what the replay cannot do as recorded (notes) or why it cannot run.
fn replay_setup_noted(parsed: &Parsed, m: &Model, notes: &mut Vec<String>) -> Result<Config, CliError> {
    let config = replay_setup(parsed, m)?;
    notes.extend(ftrace::replay_notes(m, &config).map_err(CliError::usage)?);
    Ok(config)
}

fn file_arg<'a>(cmd: &str, words: &'a [String]) -> Result<(&'a str, &'a [String]), CliError> {
    match words.first() {
        Some(f) if !f.starts_with('-') => Ok((f.as_str(), &words[1..])),
        _ => Err(CliError::usage(format!("trace {cmd}: expected a FILE (trace-cmd report or perf script text)"))),
    }
}

/// `schedscope trace ...`.
pub fn trace(words: &[String]) -> Result<Out, CliError> {
    let Some(sub) = words.first() else {
        return Err(CliError::usage("trace: expected a subcommand (allowed: stats, diff)"));
    };
    let rest = &words[1..];
    match sub.as_str() {
        "-h" | "--help" | "help" => Ok(Out { text: usage::usage(), ..Out::default() }),
        "stats" => stats(rest),
        "diff" => diff(rest),
        other => Err(CliError::usage(format!("trace: unknown subcommand '{other}' (allowed: stats, diff)"))),
    }
}

fn stats(words: &[String]) -> Result<Out, CliError> {
    if words.iter().any(|w| w == "-h" || w == "--help") {
        return Ok(Out { text: usage::usage(), ..Out::default() });
    }
    let (path, rest) = file_arg("stats", words)?;
    let parsed = args::parse("trace stats", rest, STATS_FLAGS)?;
    let mut notes = Vec::new();
    let m = load("trace stats", path, &mut notes)?;
    let s = m.stats();
    let text = if parsed.has("--json") {
        to_json(&s)?
    } else {
        let mut t = format!(
            "{} events over {:.6} s on {} CPUs, {} tasks\n\n",
            s.events,
            s.duration_s,
            s.cpus.len(),
            s.tasks.len()
        );
        t.push_str(&format!(
            "{:>8}  {:<16} {:>11} {:>11} {:>11} {:>8} {:>8} {:>6} {:>10} {:>10} {:>10}\n",
            "pid",
            "comm",
            "runtime_s",
            "wait_s",
            "sleep_s",
            "switches",
            "wakeups",
            "migr",
            "p50_us",
            "p99_us",
            "max_us"
        ));
        for r in &s.tasks {
            t.push_str(&format!(
                "{:>8}  {:<16} {:>11.6} {:>11.6} {:>11.6} {:>8} {:>8} {:>6} {:>10.1} {:>10.1} {:>10.1}\n",
                r.pid,
                r.comm,
                r.runtime_s,
                r.wait_s,
                r.sleep_s,
                r.switches_in,
                r.wakeups,
                r.migrations,
                r.wakeup_p50_us,
                r.wakeup_p99_us,
                r.wakeup_max_us
            ));
        }
        t.push_str(&format!("\n{:>4} {:>11} {:>11}\n", "cpu", "busy_s", "idle_s"));
        for c in &s.cpus {
            t.push_str(&format!("{:>4} {:>11.6} {:>11.6}\n", c.cpu, c.busy_s, c.idle_s));
        }
        t
    };
    Ok(Out { text, notes, status: 0 })
}

fn diff(words: &[String]) -> Result<Out, CliError> {
    if words.iter().any(|w| w == "-h" || w == "--help") {
        return Ok(Out { text: usage::usage(), ..Out::default() });
    }
    let (path, rest) = file_arg("diff", words)?;
    let parsed = args::parse("trace diff", rest, DIFF_FLAGS)?;
    let mut notes = Vec::new();
    let m = load("trace diff", path, &mut notes)?;
    let config = replay_setup_noted(&parsed, &m, &mut notes)?;
    let (d, out) = ftrace::replay_and_diff(&m, &config).map_err(CliError::failure)?;
    if out.trace.truncated {
        notes.push("the replay's trace was cut at its item limit: simulated figures cover its start only".into());
    }
    let text = if parsed.has("--json") {
        #[derive(serde::Serialize)]
        struct J<'a> {
            config: Vec<(&'static str, String)>,
            diff: &'a ftrace::replay::Diff,
        }
        to_json(&J { config: config.to_pairs(), diff: &d })?
    } else {
        let mut t = format!(
            "recorded {:.6} s, replayed in {:.6} s (cores={}, policy={})\n\n",
            d.recorded_duration_s,
            d.simulated_duration_s,
            config.cores,
            config.get("policy").unwrap_or_default()
        );
        t.push_str(&format!("{:<16} {:>12} {:>12} {:>12} {:>9}\n", "metric", "recorded", "simulated", "diff", "error"));
        for s in &d.summary {
            t.push_str(&format!(
                "{:<16} {:>12.6} {:>12.6} {:>+12.6} {:>8.1}%\n",
                s.metric,
                s.recorded,
                s.simulated,
                s.diff,
                s.abs_error_rel * 100.0
            ));
        }
        t.push_str(&format!(
            "\n{:>8}  {:<16} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n",
            "pid", "comm", "run_rec_s", "run_sim_s", "wait_rec_s", "wait_sim_s", "p99_rec_us", "p99_sim_us"
        ));
        for r in &d.tasks {
            t.push_str(&format!(
                "{:>8}  {:<16} {:>11.6} {:>11.6} {:>11.6} {:>11.6} {:>11.1} {:>11.1}\n",
                r.pid,
                r.comm,
                r.runtime_s.recorded,
                r.runtime_s.simulated,
                r.wait_s.recorded,
                r.wait_s.simulated,
                r.wakeup_p99_us.recorded,
                r.wakeup_p99_us.simulated
            ));
        }
        t
    };
    Ok(Out { text, notes, status: 0 })
}

/// `run --from-trace FILE`: the replay's metrics, as `run` prints them.
/// Also how the replay's export writes each task's birth and death (`replay::lives`).
pub fn run_from_trace(
    parsed: &Parsed,
) -> Result<(Config, engine::Outcome, Vec<String>, Vec<ftrace::export::Life>), CliError> {
    let mut notes = Vec::new();
    let path = parsed.get("--from-trace").unwrap_or_default();
    if parsed.get("--import").is_some() {
        return Err(CliError::usage("--from-trace: cannot be combined with --import (the trace is the workload)"));
    }
    let m = load("--from-trace", path, &mut notes)?;
    let config = replay_setup_noted(parsed, &m, &mut notes)?;
    notes.push(format!(
        "--from-trace: replaying {} tasks of {path} ({} CPUs, {:.6} s recorded); workload keys do not apply",
        m.tasks.len(),
        m.cpus,
        m.duration() as f64 / 1e9
    ));
    let start = std::time::Instant::now();
    let mut out =
        ftrace::replay(&config, ftrace::replay::shared_program_for(&m, &config)).map_err(CliError::failure)?;
    out.metrics.wall_s = start.elapsed().as_secs_f64();
    Ok((config, out, notes, ftrace::replay::lives(&m)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn errors_name_the_file_and_what_is_wrong() {
        assert!(trace(&words("")).unwrap_err().message.contains("stats, diff"));
        assert!(trace(&words("frob")).unwrap_err().message.contains("'frob'"));
        assert!(trace(&words("stats")).unwrap_err().message.contains("expected a FILE"));
        let e = trace(&words("stats /nonexistent/t.txt")).unwrap_err();
        assert!(e.message.starts_with("trace stats: cannot read '/nonexistent/t.txt'"), "{}", e.message);
    }
}
