//! How the CLI and Python build what they run: a typed `ConfigRequest` (preset, rt-app
//! import, keys in order) validated into a `Setup`, and `simulate`.
//!
//! The config is assembled in a fixed order: the preset's config (or `Config::default()`),
//! then the `--import` file's keys, then each `--set` in command-line order, so a `--set`
//! always has the last word. Everything is validated before the first simulated event. This
//! file names no other command's file, so every command can use it (`layering`).

use std::time::Instant;

use super::args::Parsed;
use super::{share_adapter, CliError};
use crate::engine::config::Config;
use crate::engine::presets::{preset, Preset, PRESETS};
use crate::engine::{self, Metrics, TraceOptions};

/// Larger rt-app files than this are refused instead of read into memory.
const MAX_IMPORT_BYTES: u64 = 4 << 20;
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

/// What a config is built from, typed: the CLI's `--preset`, `--import` and `--set` flags
/// (`from_flags`) and Python's config dict (`cli::api::config`) both fill one, so both get
/// the same config and the same messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigRequest {
    /// A preset name (None: `Config::default()`).
    pub preset: Option<String>,
    /// An rt-app JSON file whose keys apply after the preset's.
    pub import: Option<String>,
    /// Keys and values applied last, in order (a later one has the last word).
    pub sets: Vec<(String, String)>,
}

impl ConfigRequest {
    /// The request `--preset`, `--import` and each `--set KEY=VALUE` make.
    pub fn from_flags(parsed: &Parsed) -> Result<ConfigRequest, CliError> {
        let sets = parsed
            .all("--set")
            .into_iter()
            .map(|text| split_set(text).map(|(k, v)| (k.to_string(), v.to_string())))
            .collect::<Result<_, _>>()?;
        Ok(ConfigRequest {
            preset: parsed.get("--preset").map(String::from),
            import: parsed.get("--import").map(String::from),
            sets,
        })
    }

    /// Builds and validates the config: the preset's (or the default), then the import's
    /// keys, then each set in order; then the whole config is checked, and a set key that
    /// has no effect with it gets a note.
    pub fn build(&self) -> Result<Setup, CliError> {
        let preset = self.preset.as_deref().map(find_preset).transpose()?;
        let mut config = preset.map(|p| (p.config)()).unwrap_or_default();
        let mut notes = Vec::new();
        if let Some(path) = self.import.as_deref() {
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
        for (key, value) in &self.sets {
            let key = key.trim();
            if key.is_empty() {
                return Err(CliError::usage(format!(
                    "--set: '{key}={value}' is not KEY=VALUE (e.g. --set cores=4; see schedscope help)"
                )));
            }
            config.set(key, value)?;
            set_keys.push(key);
        }
        engine::check(&config)?;
        for key in set_keys {
            if config.applies(key) == Ok(false) {
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
}

/// Builds and validates the config that `parsed` describes (`ConfigRequest`).
pub fn setup(parsed: &Parsed) -> Result<Setup, CliError> {
    ConfigRequest::from_flags(parsed)?.build()
}

/// Simulates `config`, filling `wall_s` with the host seconds it took.
pub fn simulate(config: &Config, trace: Option<TraceOptions>) -> Result<engine::Outcome, CliError> {
    let start = Instant::now();
    let mut outcome = engine::run(config, trace)?;
    outcome.metrics.wall_s = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// One sweep row: the parameter's canonical value and what the run measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepRow {
    pub value: String,
    pub metrics: Metrics,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::{self, Flag};

    const FLAGS: &[Flag] =
        &[Flag::value("--preset", "NAME"), Flag::repeated("--set", "KEY=VALUE"), Flag::value("--import", "FILE")];

    fn parsed(s: &str) -> Parsed {
        let words: Vec<String> = s.split_whitespace().map(String::from).collect();
        args::parse("run", &words, FLAGS).unwrap()
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
        assert!(e.message.starts_with("cores: ") && e.message.contains("1 to 256"), "{}", e.message);
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
    fn a_missing_import_fails_before_running() {
        let e = setup(&parsed("--import /nonexistent/schedscope.json")).unwrap_err();
        assert!(e.message.starts_with("--import: cannot read"), "{}", e.message);
    }

    #[test]
    fn a_typed_request_is_the_flags_request() {
        let flags = ConfigRequest::from_flags(&parsed("--preset intro --set cores=4 --set hz=1000")).unwrap();
        let typed = ConfigRequest {
            preset: Some("intro".into()),
            import: None,
            sets: vec![("cores".into(), "4".into()), ("hz".into(), "1000".into())],
        };
        assert_eq!(flags, typed);
        assert_eq!(flags.build().unwrap().config, typed.build().unwrap().config);
        // A key is a key: one holding `=` is an unknown key by its whole name, an empty one is refused.
        let odd = |k: &str| ConfigRequest { sets: vec![(k.into(), "1".into())], ..Default::default() }.build();
        assert!(
            odd("co=res").unwrap_err().message.starts_with("co=res: unknown key"),
            "{}",
            odd("co=res").unwrap_err().message
        );
        assert!(odd(" ").unwrap_err().message.starts_with("--set: "));
        assert_eq!(odd(" cores ").unwrap().config.cores, 1);
    }
}
