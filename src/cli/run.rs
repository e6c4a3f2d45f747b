//! `run` and `sweep`: the commands over `setup` (a config from a preset, an rt-app file and
//! `--set`s), the parallel runner `sweep.rs`, `trace.rs`'s replay and `report`'s tables.

use std::path::Path;

use super::args::{self, count_flag, Flag, Parsed};
use super::setup::{setup, simulate, Setup, SweepRow};
use super::{report, share_adapter, usage, CliError, Out};
use crate::engine::config::{key_doc, Config, KEYS};
use crate::engine::{self, Metrics, TraceOptions};

/// `run --explain TIME` prints the decisions this close to TIME.
const EXPLAIN_WINDOW: crate::engine::time::Ns = 20 * crate::engine::time::US;
/// ... recorded from a trace this wide around TIME (the nearest decisions if none is that close).
const EXPLAIN_TRACE: crate::engine::time::Ns = crate::engine::time::MS;
/// A sweep runs at most this many values.
pub const MAX_SWEEP_VALUES: usize = 1000;

const RUN_FLAGS: &[Flag] = &[
    Flag::value("--preset", "NAME"),
    Flag::repeated("--set", "KEY=VALUE"),
    Flag::value("--import", "FILE"),
    Flag::switch("--json"),
    Flag::value("--trace", "FILE"),
    Flag::value("--explain", "TIME"),
    Flag::value("--trace-text", "FILE"),
    Flag::value("--trace-text-raw", "FILE"),
    Flag::value("--from-trace", "FILE"),
];

const SWEEP_FLAGS: &[Flag] = &[
    Flag::value("--preset", "NAME"),
    Flag::repeated("--set", "KEY=VALUE"),
    Flag::value("--import", "FILE"),
    Flag::value("--param", "KEY"),
    Flag::value("--values", "V1,V2,..."),
    Flag::value("--param2", "KEY"),
    Flag::value("--values2", "V1,V2,..."),
    Flag::value("--replicas", "N"),
    Flag::value("--metric", "NAME"),
    Flag::value("--jobs", "N"),
    Flag::switch("--json"),
    Flag::switch("--csv"),
];

/// The key `flag` names, or a message listing the keys.
fn key_flag(flag: &str, param: &str) -> Result<&'static str, CliError> {
    key_doc(param).map(|d| d.key).ok_or_else(|| {
        let known: Vec<_> = KEYS.iter().map(|k| k.key).collect();
        CliError::usage(format!("{flag}: unknown key '{param}' (known: {})", known.join(", ")))
    })
}

/// The values of `flag` (`--values`), checked for count.
fn values_flag<'a>(parsed: &'a Parsed, flag: &str) -> Result<Vec<&'a str>, CliError> {
    let list = parsed.get(flag).ok_or_else(|| CliError::usage(format!("{flag}: missing (e.g. {flag} 1ms,16ms)")))?;
    let values = split_values(list);
    if values.is_empty() {
        return Err(CliError::usage(format!("{flag}: no values given (e.g. {flag} 1ms,16ms)")));
    }
    if values.len() > MAX_SWEEP_VALUES {
        return Err(CliError::usage(format!("{flag}: {} values, at most {MAX_SWEEP_VALUES} allowed", values.len())));
    }
    Ok(values)
}

/// Refuses an output path whose directory does not exist, before anything runs.
fn check_output(flag: &str, path: &str) -> Result<(), CliError> {
    let p = Path::new(path);
    if p.is_dir() {
        return Err(CliError::usage(format!("{flag}: '{path}' is a directory (expected a file name)")));
    }
    let parent = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(CliError::usage(format!("{flag}: directory '{}' does not exist", parent.display())));
    }
    Ok(())
}

/// `schedscope run`.
pub fn run(words: &[String]) -> Result<Out, CliError> {
    let parsed = args::parse("run", words, RUN_FLAGS)?;
    if parsed.help {
        return Ok(Out { text: usage::usage(), ..Out::default() });
    }
    let trace_path = parsed.get("--trace");
    if let Some(path) = trace_path {
        check_output("--trace", path)?;
    }
    let text_path = parsed.get("--trace-text");
    if let Some(path) = text_path {
        check_output("--trace-text", path)?;
    }
    let raw_path = parsed.get("--trace-text-raw");
    if let Some(path) = raw_path {
        check_output("--trace-text-raw", path)?;
    }
    let explain_at = match parsed.get("--explain") {
        Some(text) => Some(
            crate::engine::time::parse_duration(text)
                .map_err(|m| CliError::usage(format!("--explain: '{text}' is not a time ({m}); e.g. 2ms, 1500us")))?,
        ),
        None => None,
    };
    let want_trace = match explain_at {
        // The decisions near the instant: a window around it, so a long run stays cheap.
        Some(t) => Some(TraceOptions {
            window: (t.saturating_sub(EXPLAIN_TRACE), t.saturating_add(EXPLAIN_TRACE)),
            ..TraceOptions::default()
        }),
        None => trace_path
            .or(text_path)
            .or(raw_path)
            .map(|_| TraceOptions { max_items: 4_000_000, ..TraceOptions::default() }),
    };
    // A replay's export writes births and deaths as its recording showed them.
    let (setup, outcome, lives) = if parsed.get("--from-trace").is_some() {
        let (config, outcome, notes, lives) = super::trace::run_from_trace(&parsed)?;
        (Setup { preset: None, config, notes }, outcome, lives)
    } else {
        let setup = setup(&parsed)?;
        let outcome = simulate(&setup.config, want_trace)?;
        (setup, outcome, Vec::new())
    };
    if let Some(t) = explain_at {
        let near = crate::engine::explain::near_or_nearest(&outcome.trace.decisions, t, EXPLAIN_WINDOW);
        let names: Vec<String> = outcome.trace.tasks.iter().map(|k| k.name.clone()).collect();
        let mut text = format!(
            "decisions within {} of {} (schedscope run --explain):\n",
            crate::engine::time::human_duration(EXPLAIN_WINDOW),
            crate::engine::time::human_duration(t)
        );
        if near.is_empty() {
            text.push_str("none: nothing was decided within 1 ms of it (is the time inside the run?)\n");
        }
        text.push_str(&crate::engine::explain::render(&near, &names));
        return Ok(Out { text, notes: setup.notes, status: 0 });
    }
    // The text in the config's era's sched_switch format (`R+` from 3.2), readable or raw.
    for (flag, path, raw) in [("--trace-text", text_path, false), ("--trace-text-raw", raw_path, true)] {
        if let Some(path) = path {
            let dialect = crate::share::ftrace::export::Dialect { kernel: setup.config.kernel, raw };
            let text = share_adapter::trace_text(&outcome.trace, &lives, dialect);
            std::fs::write(path, text).map_err(|e| CliError::failure(format!("{flag}: cannot write '{path}': {e}")))?;
        }
    }
    if let Some(path) = trace_path {
        let json = share_adapter::perfetto_json(&outcome.trace, Some(&outcome.metrics), Some(&setup.config))
            .map_err(|m| CliError::failure(format!("--trace: {m}")))?;
        std::fs::write(path, json).map_err(|e| CliError::failure(format!("--trace: cannot write '{path}': {e}")))?;
    }
    // A run cut by its event budget reports the cut's figures; `--json` readers see only
    // `stop_reason`, so say it on stderr as well, with the key that raises it.
    let mut notes = setup.notes.clone();
    if outcome.metrics.stop_reason == Some(crate::engine::metrics::StopReason::EventBudget) {
        notes.push(format!(
            "the run stopped on its event budget after {} events (max_events={}): its figures cover a partial run; raise it with --set max_events=N (at most {})",
            outcome.metrics.events,
            setup.config.max_events,
            crate::engine::config::MAX_EVENTS
        ));
    }
    let text = if parsed.has("--json") {
        report::run_json(&setup.config, &outcome.metrics)?
    } else {
        let mut t = report::run_table(setup.preset, &setup.config.diff(&setup.base()), &outcome.metrics);
        let own = report::schbench_text(&outcome.metrics);
        if !own.is_empty() {
            t.push_str("\nschbench's report:\n");
            t.push_str(&own);
        }
        t
    };
    Ok(Out { text, notes, status: 0 })
}

/// Splits a `--values` list: on `;` if there is one (values such as task lists contain
/// commas), else on `,`.
pub fn split_values(text: &str) -> Vec<&str> {
    let sep = if text.contains(';') { ';' } else { ',' };
    text.split(sep).map(str::trim).filter(|v| !v.is_empty()).collect()
}

/// `schedscope sweep`.
pub fn sweep(words: &[String]) -> Result<Out, CliError> {
    let parsed = args::parse("sweep", words, SWEEP_FLAGS)?;
    if parsed.help {
        return Ok(Out { text: usage::usage(), ..Out::default() });
    }
    if parsed.has("--json") && parsed.has("--csv") {
        return Err(CliError::usage("--csv: cannot be combined with --json (pick one output format)"));
    }
    let param = parsed.get("--param").ok_or_else(|| CliError::usage("--param: missing (sweep needs --param KEY)"))?;
    let param = key_flag("--param", param)?;
    if parsed.get("--values").is_none() {
        return Err(CliError::usage("--values: missing (sweep needs --values V1,V2,...)"));
    }
    let values = values_flag(&parsed, "--values")?;
    let param2 = parsed.get("--param2").map(|p| key_flag("--param2", p)).transpose()?;
    let values2 = match param2 {
        Some(_) => values_flag(&parsed, "--values2")?,
        None if parsed.get("--values2").is_some() => {
            return Err(CliError::usage("--values2: given without --param2 (the key they are values of)"))
        }
        None => Vec::new(),
    };
    if param2 == Some(param) {
        return Err(CliError::usage(format!("--param2: '{param}' is already --param (pick another key)")));
    }
    let replicas = count_flag(&parsed, "--replicas", 1, super::sweep::MAX_REPLICAS, 1)?;
    let jobs = count_flag(&parsed, "--jobs", 1, super::sweep::MAX_JOBS, super::sweep::default_jobs())?;
    let metric = parsed.get("--metric").unwrap_or("throughput");
    // An old spelling (`metrics::ALIASES`) is read, and reported, as its one key.
    let Some(metric) = crate::engine::metrics::canonical(metric) else {
        let known: Vec<_> = crate::engine::metrics::NAMED.iter().map(|n| n.key).collect();
        return Err(CliError::usage(format!(
            "--metric: unknown metric '{metric}' (known: {}, residency.STATE, workload.NAME)",
            known.join(", ")
        )));
    };
    let metric = metric.as_str();
    let setup = setup(&parsed)?;
    let check = |c: &mut Config, key: &str, v: &str, flag: &str| -> Result<(), CliError> {
        c.set(key, v).map_err(|e| CliError::usage(format!("{flag}: {}: {}", e.key, e.message)))?;
        engine::check(c).map_err(|e| CliError::usage(format!("{flag}: {}: {}", e.key, e.message)))
    };
    // Every value is checked before the first run; cells in row-major order (param, then param2).
    let mut configs = Vec::with_capacity(values.len() * values2.len().max(1));
    for v in &values {
        let mut c = setup.config.clone();
        check(&mut c, param, v, "--values")?;
        match param2 {
            Some(p2) => {
                for v2 in &values2 {
                    let mut c2 = c.clone();
                    check(&mut c2, p2, v2, "--values2")?;
                    configs.push(c2);
                }
            }
            None => configs.push(c),
        }
    }
    let mut notes = setup.notes.clone();
    for key in std::iter::once(param).chain(param2) {
        if setup.config.applies(key) == Ok(false) {
            notes.push(format!("{key} has no effect with this config: every row will measure the same thing"));
        }
    }
    // Replica r of every cell after replica r-1 of all of them; each run on the next free thread.
    let runs: Vec<Config> =
        (0..replicas).flat_map(|r| configs.iter().map(move |c| super::sweep::replica_config(c, r))).collect();
    let results = super::sweep::run_all(&runs, jobs)?;
    if param2.is_some() || replicas > 1 {
        let n = configs.len();
        let cells: Vec<super::sweep::Cell> = configs
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let reps: Vec<Metrics> = (0..replicas).map(|r| results[r * n + i].clone()).collect();
                super::sweep::Cell {
                    value: c.get(param).unwrap_or_default(),
                    value2: param2.and_then(|p| c.get(p)),
                    metric: metric.to_string(),
                    spread: super::sweep::spread(&reps, metric),
                    runs: reps,
                }
            })
            .collect();
        if parsed.has("--csv") {
            return Err(CliError::usage("--csv: not available with --param2 or --replicas (use --json)"));
        }
        let text = if parsed.has("--json") {
            report::to_json(&cells)?
        } else {
            let v2: Vec<String> = match param2 {
                Some(p2) => configs.iter().take(values2.len()).map(|c| c.get(p2).unwrap_or_default()).collect(),
                None => Vec::new(),
            };
            let mut t = report::preamble_text(setup.preset, &setup.config.diff(&setup.base()));
            t.push('\n');
            t.push_str(&super::sweep::grid_text(param, param2, metric, &cells, &v2));
            t
        };
        return Ok(Out { text, notes, status: 0 });
    }
    let rows: Vec<SweepRow> = configs
        .iter()
        .zip(results)
        .map(|(c, metrics)| SweepRow { value: c.get(param).unwrap_or_default(), metrics })
        .collect();
    let text = if parsed.has("--json") {
        report::to_json(&rows)?
    } else if parsed.has("--csv") {
        let pairs: Vec<(String, &Metrics)> = rows.iter().map(|r| (r.value.clone(), &r.metrics)).collect();
        share_adapter::sweep_csv(param, &pairs)
    } else {
        report::sweep_table(setup.preset, &setup.config.diff(&setup.base()), param, &rows)
    };
    Ok(Out { text, notes, status: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_on_semicolons_when_present() {
        assert_eq!(split_values("1ms, 16ms,,5000ms"), vec!["1ms", "16ms", "5000ms"]);
        assert_eq!(split_values("2x3ms/10ms,1x1ms/2ms;4x1ms/4ms"), vec!["2x3ms/10ms,1x1ms/2ms", "4x1ms/4ms"]);
    }

    #[test]
    fn bad_trace_paths_fail_before_running() {
        assert!(check_output("--trace", "/nonexistent-dir/t.json").unwrap_err().message.contains("does not exist"));
        assert!(check_output("--trace", "/").is_err());
        assert!(check_output("--trace", "t.json").is_ok());
    }
}
