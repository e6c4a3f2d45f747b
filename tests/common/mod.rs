//! Helpers shared by the native golden-digest test (tests/determinism.rs) and the browser
//! test (tests/wasm.rs), so both targets run exactly the same shortened configs.

use std::collections::BTreeMap;

use schedscope::engine::{self, presets::PRESETS, Config};

/// The golden file, as compiled into the test binary (the browser cannot read files).
pub const GOLDEN_JSON: &str = include_str!("../golden/digests.json");

/// Shortens a preset so that every preset runs in well under a second even in a debug wasm
/// build: 20 ms of simulated time, and at most 2000 round trips for the pipe workload.
pub fn quick(mut cfg: Config) -> Config {
    cfg.set("duration", "20ms").expect("20ms is a valid duration");
    if cfg.applies("loops") == Ok(true) {
        let loops = cfg.loops.min(2_000).to_string();
        cfg.set("loops", &loops).expect("a smaller loop count is valid");
    }
    cfg
}

/// Preset name -> digest of its quick run, for every preset.
pub fn digests() -> BTreeMap<String, String> {
    PRESETS
        .iter()
        .map(|p| {
            let cfg = quick((p.config)());
            let outcome = engine::run(&cfg, None).unwrap_or_else(|e| panic!("preset {}: {e}", p.name));
            (p.name.to_string(), outcome.metrics.digest)
        })
        .collect()
}

/// Parses the golden file: a JSON object from preset name to digest.
pub fn parse_golden(text: &str) -> BTreeMap<String, String> {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("tests/golden/digests.json is not a name -> digest map: {e}"))
}

/// Describes every difference between the golden digests and the computed ones (empty if equal).
pub fn differences(golden: &BTreeMap<String, String>, got: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (name, want) in golden {
        match got.get(name) {
            None => out.push(format!("{name}: in the golden file but no longer a preset")),
            Some(have) if have != want => out.push(format!("{name}: golden {want:?}, got {have:?}")),
            Some(_) => {}
        }
    }
    for name in got.keys().filter(|n| !golden.contains_key(*n)) {
        out.push(format!("{name}: a preset missing from the golden file"));
    }
    out
}
