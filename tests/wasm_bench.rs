//! Browser benchmark (wasm-bindgen-test in headless Chromium): the engine's events per second
//! on the `nohz-pipe` preset, and the bare event-queue loop beside it, compiled to wasm. Prints
//! figures to compare with the native `schedscope bench` in the same session; asserts only that
//! the engine ran events, never a time (see BENCHMARKS.md for the command and the figures).
//!
//! Run (release, the build Trunk ships):
//! `CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_WEBDRIVER_JSON=$PWD/webdriver.json
//! WASM_BINDGEN_TEST_TIMEOUT=300 cargo test --release --target wasm32-unknown-unknown --test wasm_bench -- --nocapture`
#![cfg(target_arch = "wasm32")]

use std::hint::black_box;

use schedscope::engine::presets::preset;
use schedscope::engine::queue::bare_loop;
use schedscope::engine::sim::{probe_queue, Ev};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Same budget and repeat count as the native `bench` (src/cli/bench.rs).
const EVENTS: u64 = 2_000_000;
const REPEATS: usize = 3;

/// Milliseconds from the page's high-resolution clock (falls back to `Date.now()`).
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or_else(js_sys::Date::now)
}

/// Best wall time of `REPEATS` runs of `f`, in seconds.
fn best_of(mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        let start = now_ms();
        f();
        best = best.min((now_ms() - start) / 1e3);
    }
    best.max(1e-9)
}

#[wasm_bindgen_test]
fn engine_events_per_second_in_the_browser() {
    let chosen = preset("nohz-pipe").expect("the nohz-pipe preset exists");
    let mut config = (chosen.config)();
    config.set("max_events", &EVENTS.to_string()).expect("max_events accepts 2,000,000");

    let mut events = 0;
    let engine_s = best_of(|| {
        let outcome = schedscope::engine::run(black_box(&config), None).expect("the preset is valid");
        events = outcome.metrics.events;
        black_box(&outcome);
    });
    assert!(events > 0, "the engine ran no events on nohz-pipe");

    let width = probe_queue(&config).mean_len.max(1);
    let bare_s = best_of(|| {
        black_box(bare_loop::<Ev>(black_box(events), black_box(width)));
    });
    let engine_rate = events as f64 / engine_s;
    let bare_rate = events as f64 / bare_s;
    console_log!(
        "wasm_bench nohz-pipe: events {events} (budget {EVENTS}); engine {:.2} M events/s (best of {REPEATS}: {:.3} s); \
         bare queue (width {width}) {:.2} M events/s ({:.3} s); ratio {:.2}",
        engine_rate / 1e6,
        engine_s,
        bare_rate / 1e6,
        bare_s,
        engine_rate / bare_rate
    );
}
