//! Determinism, natively: every preset (shortened by `common::quick`) gives the digest recorded
//! in tests/golden/digests.json, and the same config run twice gives the same metrics.
//!
//! After a change that is meant to alter results, regenerate the file and review its diff:
//! `SCHEDSCOPE_BLESS=1 cargo test --test all determinism::`. tests/wasm.rs checks the browser build
//! against the same file, so native and wasm must agree.

use crate::common;

use std::path::Path;

use schedscope::engine::{self, presets::PRESETS};

#[test]
fn every_preset_matches_the_golden_digest() {
    let got = common::digests();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/digests.json");
    if std::env::var_os("SCHEDSCOPE_BLESS").is_some_and(|v| v == "1") {
        let text = serde_json::to_string_pretty(&got).expect("a string map serializes") + "\n";
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        eprintln!("blessed {} digests into {}", got.len(), path.display());
        return;
    }
    // Read the file as it is now (not the copy compiled in) so a fresh bless is seen at once,
    // and check that the compiled-in copy the wasm test uses is the same.
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    assert_eq!(common::parse_golden(&text), common::parse_golden(common::GOLDEN_JSON));
    let diffs = common::differences(&common::parse_golden(&text), &got);
    assert!(
        diffs.is_empty(),
        "digests differ from tests/golden/digests.json:\n  {}\nIf the change is intended: SCHEDSCOPE_BLESS=1 cargo test --test all determinism::",
        diffs.join("\n  ")
    );
}

#[test]
fn the_same_config_twice_gives_the_same_metrics() {
    for p in PRESETS {
        let cfg = common::quick((p.config)());
        let mut a = engine::run(&cfg, None).expect("presets are valid").metrics;
        let mut b = engine::run(&cfg, None).expect("presets are valid").metrics;
        // Host time is the one field allowed to differ.
        a.wall_s = 0.0;
        b.wall_s = 0.0;
        assert_eq!(a, b, "preset {}", p.name);
    }
}

#[test]
fn differences_reports_changed_missing_and_new_presets() {
    let golden = common::parse_golden(r#"{"a": "1", "b": "2", "gone": "3"}"#);
    let got = common::parse_golden(r#"{"a": "1", "b": "9", "new": "4"}"#);
    let d = common::differences(&golden, &got);
    assert_eq!(d.len(), 3, "{d:?}");
    assert!(d[0].starts_with("b: golden \"2\", got \"9\""), "{d:?}");
    assert!(d[1].starts_with("gone:"), "{d:?}");
    assert!(d[2].starts_with("new:"), "{d:?}");
    assert!(common::differences(&golden, &golden).is_empty());
}
