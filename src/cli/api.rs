//! The command line's config building and JSON output as plain functions, for the Python package (`python/`).
//!
//! A Python config dict is the typed request `schedscope run --preset NAME --set
//! KEY=VALUE ...` makes (`setup::ConfigRequest`), so a bad key gets the CLI's message word for word,
//! and the metrics come out as `run --json` prints them. No Python here: the bindings crate
//! (`python/src/lib.rs`) calls these and turns an `Err` into `ValueError`.

use crate::engine::config::KEYS;
use crate::engine::presets::PRESETS;
use crate::engine::{self, Config, TraceOptions};

use super::setup::{self, ConfigRequest};
use super::{report, usage};

/// The config `preset` plus `sets` (applied in order, as `--set` flags are) describes,
/// validated as the CLI validates it, and the CLI's notes (a key with no effect). Err: the
/// CLI's message.
pub fn config(preset: Option<&str>, sets: &[(String, String)]) -> Result<(Config, Vec<String>), String> {
    let request = ConfigRequest { preset: preset.map(String::from), import: None, sets: sets.to_vec() };
    let setup = request.build().map_err(|e| e.message)?;
    Ok((setup.config, setup.notes))
}

/// The config a share link (or its query, `v=1&preset=...`) describes, as the page reads
/// it (`share::url`). A link is strict here: any part the page would skip with a notice is
/// an error naming each one, since a script has nobody to show a notice to.
pub fn config_from_link(link: &str) -> Result<Config, String> {
    let query = link.split_once('?').map_or(link, |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    let (state, notices) = crate::share::url::parse(query);
    if !notices.is_empty() {
        let each: Vec<String> = notices.iter().map(|n| format!("{}={}: {}", n.key, n.value, n.reason)).collect();
        return Err(format!("the link has parts that cannot be used: {}", each.join("; ")));
    }
    engine::check(&state.config).map_err(|e| format!("{}: {}", e.key, e.message))?;
    Ok(state.config)
}

/// Runs `config`: `(run --json's text, the trace as JSON if asked)`. The trace is the
/// engine's `Trace` (spans, instants, tasks, idle state names), bounded as the CLI's is.
pub fn run_json(config: &Config, trace: bool) -> Result<(String, Option<String>), String> {
    let outcome = setup::simulate(config, trace.then(TraceOptions::default)).map_err(|e| e.message)?;
    let metrics = report::run_json(config, &outcome.metrics).map_err(|e| e.message)?;
    let trace = if trace { Some(report::to_json(&outcome.trace).map_err(|e| e.message)?) } else { None };
    Ok((metrics, trace))
}

/// Every key as `help` lists it: name, group, allowed values, default and help line.
pub fn keys_json() -> String {
    let default = Config::default();
    let keys: Vec<serde_json::Value> = KEYS
        .iter()
        .map(|k| {
            serde_json::json!({
                "name": k.key,
                "group": k.group,
                "values": usage::kind_text(k),
                "default": default.get(k.key).unwrap_or_default(),
                "help": k.help,
            })
        })
        .collect();
    serde_json::Value::Array(keys).to_string()
}

/// Every preset: name, title, what it shows, whether it has a table to validate.
pub fn presets_json() -> String {
    let presets: Vec<serde_json::Value> = PRESETS
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.name,
                "title": p.title,
                "about": p.about,
                "table": p.table.is_some(),
                "corpus": p.table.is_some_and(|t| t.corpus),
            })
        })
        .collect();
    serde_json::Value::Array(presets).to_string()
}

/// Every named metric (`engine::metrics::NAMED`): key, title, unit, better (`higher`,
/// `lower` or null; the main result's depends on the workload), count, panel, help and
/// aliases (the old spellings that name it: the JSON path a flattened `run --json` has).
pub fn metrics_json() -> String {
    let metrics: Vec<serde_json::Value> = crate::engine::metrics::NAMED
        .iter()
        .map(|n| {
            serde_json::json!({
                "key": n.key,
                "title": n.title,
                "unit": n.unit,
                "better": n.higher_is_better.map(|h| if h { "higher" } else { "lower" }),
                "count": n.count,
                "panel": n.panel,
                "help": n.help,
                "aliases": crate::engine::metrics::ALIASES
                    .iter()
                    .filter(|(_, key)| *key == n.key)
                    .map(|(old, _)| *old)
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::Value::Array(metrics).to_string()
}

/// The value of every named metric in `metrics` (the `metrics` object of `run --json`), in
/// `NAMED` order. Err: the text is not such an object.
pub fn metric_values(metrics: &str) -> Result<Vec<(&'static str, f64)>, String> {
    let m: engine::Metrics = serde_json::from_str(metrics).map_err(|e| format!("not run --json's metrics: {e}"))?;
    Ok(crate::engine::metrics::NAMED.iter().map(|n| (n.key, (n.get)(&m))).collect())
}

/// `validate --json`'s tables (every seed and corpus table, `quick` as `--quick`).
pub fn validate_json(quick: bool) -> Result<String, String> {
    report::to_json(&engine::validate::validate_all(quick)).map_err(|e| e.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dict_config_is_the_cli_config() {
        let sets = [("cores".to_string(), "4".to_string()), ("hz".to_string(), "250".to_string())];
        let (c, notes) = config(Some("intro"), &sets).unwrap();
        let mut want = (PRESETS.iter().find(|p| p.name == "intro").unwrap().config)();
        want.set("cores", "4").unwrap();
        want.set("hz", "250").unwrap();
        assert_eq!(c, want);
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn mistakes_get_the_cli_messages() {
        let bad = |p: Option<&str>, k: &str, v: &str| config(p, &[(k.to_string(), v.to_string())]).unwrap_err();
        assert!(bad(Some("nope"), "cores", "2").starts_with("--preset: unknown preset 'nope' (allowed: intro"));
        assert!(bad(None, "cores", "999").starts_with("cores: "), "{}", bad(None, "cores", "999"));
        assert!(bad(None, "nokey", "1").contains("nokey"));
        // A dict key is one key: `=` in it is part of its name, not a split into key and value.
        assert!(bad(None, "cores=2", "1").starts_with("cores=2: unknown key"), "{}", bad(None, "cores=2", "1"));
    }

    #[test]
    fn run_json_is_the_cli_json() {
        let (c, _) = config(Some("intro"), &[]).unwrap();
        let (text, trace) = run_json(&c, true).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let direct = engine::run(&c, None).unwrap().metrics;
        assert_eq!(v["metrics"]["digest"], serde_json::json!(direct.digest));
        let t: serde_json::Value = serde_json::from_str(&trace.unwrap()).unwrap();
        assert!(t["spans"].as_array().is_some_and(|s| !s.is_empty()));
        // Every named metric from the JSON is the run's own figure.
        let values = metric_values(&v["metrics"].to_string()).unwrap();
        assert_eq!(values.len(), crate::engine::metrics::NAMED.len());
        for (key, got) in values {
            assert_eq!(Some(got), crate::engine::metrics::value(&direct, key), "{key}");
        }
        assert!(metric_values("{}").unwrap_err().starts_with("not run --json's metrics"));
    }

    #[test]
    fn a_link_is_the_page_config_and_its_mistakes_are_errors() {
        let c = config_from_link("https://example.org/schedscope/?v=1&preset=intro&cores=4#x").unwrap();
        assert_eq!(c, config(Some("intro"), &[("cores".into(), "4".into())]).unwrap().0);
        assert_eq!(config_from_link("v=1&preset=intro&cores=4").unwrap(), c);
        let e = config_from_link("v=1&preset=intro&cores=9999").unwrap_err();
        assert!(e.starts_with("the link has parts that cannot be used: cores=9999: "), "{e}");
    }

    #[test]
    fn keys_and_presets_list_everything() {
        let keys: Vec<serde_json::Value> = serde_json::from_str(&keys_json()).unwrap();
        assert_eq!(keys.len(), KEYS.len());
        assert!(keys.iter().any(|k| k["name"] == "hz" && k["values"] == "100|250|300|1000" && k["default"] == "250"));
        let presets: Vec<serde_json::Value> = serde_json::from_str(&presets_json()).unwrap();
        assert_eq!(presets.len(), PRESETS.len());
        let metrics: Vec<serde_json::Value> = serde_json::from_str(&metrics_json()).unwrap();
        let keys: Vec<&str> = metrics.iter().filter_map(|m| m["key"].as_str()).collect();
        let named: Vec<&str> = crate::engine::metrics::NAMED.iter().map(|n| n.key).collect();
        assert_eq!(keys, named);
        let p99 = metrics.iter().find(|m| m["key"] == "wakeup_latency_p99").unwrap();
        assert_eq!(
            (&p99["better"], &p99["unit"], &p99["count"]),
            (&serde_json::json!("lower"), &serde_json::json!("µs"), &serde_json::json!(false))
        );
        assert!(metrics.iter().any(|m| m["key"] == "ipis" && m["better"].is_null()));
        assert_eq!(p99["aliases"], serde_json::json!(["wakeup_latency_us.p99"]));
    }
}
