//! `run` and `sweep`: build a config from a preset, an rt-app file and `--set`s, simulate it.
//!
//! The config is assembled in a fixed order: the preset's config (or `Config::default()`),
//! then the `--import` file's keys, then each `--set` in command-line order, so a `--set`
//! always has the last word. Everything is validated before the first simulated event.

use std::path::Path;
use std::time::Instant;

use super::args::{self, Flag, Parsed};
use super::{report, share_adapter, usage, CliError, Out};
use crate::engine::config::{key_doc, Config, KEYS};
use crate::engine::presets::{preset, Preset, PRESETS};
use crate::engine::{self, Metrics, TraceOptions};

/// Larger rt-app files than this are refused instead of read into memory.
const MAX_IMPORT_BYTES: u64 = 4 << 20;
/// A sweep runs at most this many values.
pub const MAX_SWEEP_VALUES: usize = 1000;

const RUN_FLAGS: &[Flag] = &[
    Flag::value("--preset", "NAME"),
    Flag::repeated("--set", "KEY=VALUE"),
    Flag::value("--import", "FILE"),
    Flag::switch("--json"),
    Flag::value("--trace", "FILE"),
    Flag::value("--trace-text", "FILE"),
    Flag::value("--from-trace", "FILE"),
];

const SWEEP_FLAGS: &[Flag] = &[
    Flag::value("--preset", "NAME"),
    Flag::repeated("--set", "KEY=VALUE"),
    Flag::value("--import", "FILE"),
    Flag::value("--param", "KEY"),
    Flag::value("--values", "V1,V2,..."),
    Flag::switch("--json"),
    Flag::switch("--csv"),
];

/// A validated starting point: which preset, the config, and remarks for stderr.
#[derive(Clone, Debug)]
pub struct Setup {
    pub preset: Option<&'static Preset>,
    pub config: Config,
    pub notes: Vec<String>,
}

impl Setup {
    /// The config the changes are measured against (the preset's, or the default).
    pub fn base(&self) -> Config {
        self.preset.map(|p| (p.config)()).unwrap_or_default()
    }
}

/// Looks a preset up, or says which exist.
pub fn find_preset(name: &str) -> Result<&'static Preset, CliError> {
    preset(name).ok_or_else(|| {
        let names: Vec<_> = PRESETS.iter().map(|p| p.name).collect();
        CliError::usage(format!("--preset: unknown preset '{name}' (allowed: {})", names.join(", ")))
    })
}

/// Splits `KEY=VALUE` from `--set`.
pub fn split_set(text: &str) -> Result<(&str, &str), CliError> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim(), v)),
        _ => {
            Err(CliError::usage(format!("--set: '{text}' is not KEY=VALUE (e.g. --set cores=4; see schedscope help)")))
        }
    }
}

fn read_import(path: &str) -> Result<String, CliError> {
    let fail = |why: String| CliError::usage(format!("--import: cannot read '{path}': {why}"));
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if meta.is_dir() {
        return Err(fail("it is a directory".into()));
    }
    if meta.len() > MAX_IMPORT_BYTES {
        return Err(fail(format!("larger than {} MiB", MAX_IMPORT_BYTES >> 20)));
    }
    std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))
}

/// Builds and validates the config that `parsed` describes.
pub fn setup(parsed: &Parsed) -> Result<Setup, CliError> {
    let preset = parsed.get("--preset").map(find_preset).transpose()?;
    let mut config = preset.map(|p| (p.config)()).unwrap_or_default();
    let mut notes = Vec::new();
    if let Some(path) = parsed.get("--import") {
        let text = read_import(path)?;
        let imported =
            share_adapter::import_rtapp(&text).map_err(|m| CliError::usage(format!("--import: {path}: {m}")))?;
        for (key, value) in &imported.config_changes {
            config
                .set(key, value)
                .map_err(|e| CliError::usage(format!("--import: {path}: {}: {}", e.key, e.message)))?;
        }
        notes.extend(imported.notices.into_iter().map(|n| format!("--import: {n}")));
    }
    let mut set_keys = Vec::new();
    for text in parsed.all("--set") {
        let (key, value) = split_set(text)?;
        config.set(key, value)?;
        set_keys.push(key);
    }
    engine::check(&config)?;
    for key in set_keys {
        if !config.applies(key) {
            notes.push(format!(
                "{key} has no effect with this config (policy={}, workload={}, nohz={})",
                config.get("policy").unwrap_or_default(),
                config.get("workload").unwrap_or_default(),
                config.get("nohz").unwrap_or_default()
            ));
        }
    }
    notes.dedup();
    Ok(Setup { preset, config, notes })
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

/// Simulates `config`, filling `wall_s` with the host seconds it took.
pub fn simulate(config: &Config, trace: Option<TraceOptions>) -> Result<engine::Outcome, CliError> {
    let start = Instant::now();
    let mut outcome = engine::run(config, trace)?;
    outcome.metrics.wall_s = start.elapsed().as_secs_f64();
    Ok(outcome)
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
    let want_trace = trace_path.or(text_path).map(|_| TraceOptions { max_items: 4_000_000, ..TraceOptions::default() });
    let (setup, outcome) = if parsed.get("--from-trace").is_some() {
        let (config, outcome, notes) = super::trace::run_from_trace(&parsed)?;
        (Setup { preset: None, config, notes }, outcome)
    } else {
        let setup = setup(&parsed)?;
        let outcome = simulate(&setup.config, want_trace)?;
        (setup, outcome)
    };
    if let Some(path) = text_path {
        let text = share_adapter::trace_text(&outcome.trace);
        std::fs::write(path, text)
            .map_err(|e| CliError::failure(format!("--trace-text: cannot write '{path}': {e}")))?;
    }
    if let Some(path) = trace_path {
        let json = share_adapter::perfetto_json(&outcome.trace, Some(&outcome.metrics), Some(&setup.config))
            .map_err(|m| CliError::failure(format!("--trace: {m}")))?;
        std::fs::write(path, json).map_err(|e| CliError::failure(format!("--trace: cannot write '{path}': {e}")))?;
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
    Ok(Out { text, notes: setup.notes, status: 0 })
}

/// Splits a `--values` list: on `;` if there is one (values such as task lists contain
/// commas), else on `,`.
pub fn split_values(text: &str) -> Vec<&str> {
    let sep = if text.contains(';') { ';' } else { ',' };
    text.split(sep).map(str::trim).filter(|v| !v.is_empty()).collect()
}

/// One sweep row: the parameter's canonical value and what the run measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepRow {
    pub value: String,
    pub metrics: Metrics,
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
    if key_doc(param).is_none() {
        let known: Vec<_> = KEYS.iter().map(|k| k.key).collect();
        return Err(CliError::usage(format!("--param: unknown key '{param}' (known: {})", known.join(", "))));
    }
    let list =
        parsed.get("--values").ok_or_else(|| CliError::usage("--values: missing (sweep needs --values V1,V2,...)"))?;
    let values = split_values(list);
    if values.is_empty() {
        return Err(CliError::usage("--values: no values given (e.g. --values 1ms,16ms)"));
    }
    if values.len() > MAX_SWEEP_VALUES {
        return Err(CliError::usage(format!("--values: {} values, at most {MAX_SWEEP_VALUES} allowed", values.len())));
    }
    let setup = setup(&parsed)?;
    // Every value is checked before the first run.
    let mut configs = Vec::with_capacity(values.len());
    for v in values {
        let mut c = setup.config.clone();
        c.set(param, v).map_err(|e| CliError::usage(format!("--values: {}: {}", e.key, e.message)))?;
        engine::check(&c).map_err(|e| CliError::usage(format!("--values: {}: {}", e.key, e.message)))?;
        configs.push(c);
    }
    let mut notes = setup.notes.clone();
    if !setup.config.applies(param) {
        notes.push(format!("{param} has no effect with this config: every row will measure the same thing"));
    }
    let mut rows = Vec::with_capacity(configs.len());
    for c in &configs {
        let outcome = simulate(c, None)?;
        rows.push(SweepRow { value: c.get(param).unwrap_or_default(), metrics: outcome.metrics });
    }
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

    fn parsed(s: &str) -> Parsed {
        let words: Vec<String> = s.split_whitespace().map(String::from).collect();
        args::parse("run", &words, RUN_FLAGS).unwrap()
    }

    #[test]
    fn sets_apply_in_order_over_the_preset() {
        let s = setup(&parsed("--preset intro --set cores=4 --set cores=8 --set duration=10ms")).unwrap();
        assert_eq!((s.config.cores, s.config.duration), (8, 10 * crate::engine::time::MS));
        assert_eq!(s.config.diff(&s.base()), vec![("cores", "8".to_string()), ("duration", "10ms".to_string())]);
    }

    #[test]
    fn bad_sets_name_the_key() {
        let e = setup(&parsed("--set cores=0")).unwrap_err();
        assert_eq!(e.status, super::super::EXIT_USAGE);
        assert!(e.message.starts_with("cores: ") && e.message.contains("1 to 128"), "{}", e.message);
        assert!(setup(&parsed("--set nope=1")).unwrap_err().message.starts_with("nope: unknown key"));
        assert!(setup(&parsed("--set cores")).unwrap_err().message.starts_with("--set: 'cores' is not KEY=VALUE"));
        assert!(setup(&parsed("--set =4")).unwrap_err().message.starts_with("--set:"));
    }

    #[test]
    fn keys_that_do_not_apply_get_a_note() {
        let s = setup(&parsed("--set rr_interval=5ms")).unwrap();
        assert!(s.notes.iter().any(|n| n.starts_with("rr_interval has no effect")), "{:?}", s.notes);
        assert!(setup(&parsed("--set policy=sd --set rr_interval=5ms")).unwrap().notes.is_empty());
    }

    #[test]
    fn values_split_on_semicolons_when_present() {
        assert_eq!(split_values("1ms, 16ms,,5000ms"), vec!["1ms", "16ms", "5000ms"]);
        assert_eq!(split_values("2x3ms/10ms,1x1ms/2ms;4x1ms/4ms"), vec!["2x3ms/10ms,1x1ms/2ms", "4x1ms/4ms"]);
    }

    #[test]
    fn missing_import_and_bad_trace_paths_fail_before_running() {
        let e = setup(&parsed("--import /nonexistent/schedscope.json")).unwrap_err();
        assert!(e.message.starts_with("--import: cannot read"), "{}", e.message);
        assert!(check_output("--trace", "/nonexistent-dir/t.json").unwrap_err().message.contains("does not exist"));
        assert!(check_output("--trace", "/").is_err());
        assert!(check_output("--trace", "t.json").is_ok());
    }
}
