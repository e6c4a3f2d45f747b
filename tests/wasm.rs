//! Browser tests (wasm-bindgen-test in headless Chromium): the engine compiled to wasm gives
//! the same digests as the native build, recorded in tests/golden/digests.json.
//!
//! Run with `./scripts/test wasm` (or `CHROMEDRIVER=/usr/bin/chromedriver cargo test
//! --target wasm32-unknown-unknown --test wasm`; Chromium's flags are in webdriver.json).
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_preset_gives_the_native_digest_in_the_browser() {
    let golden = common::parse_golden(common::GOLDEN_JSON);
    let got = common::digests();
    let diffs = common::differences(&golden, &got);
    assert!(diffs.is_empty(), "wasm digests differ from the native golden file:\n  {}", diffs.join("\n  "));
}

#[wasm_bindgen_test]
fn the_default_config_runs_in_the_browser() {
    let cfg = common::quick(schedscope::engine::Config::default());
    let outcome = schedscope::engine::run(&cfg, None).expect("the default config is valid");
    let golden = common::parse_golden(common::GOLDEN_JSON);
    assert_eq!(Some(&outcome.metrics.digest), golden.get("intro"), "the intro preset is the default config");
}
