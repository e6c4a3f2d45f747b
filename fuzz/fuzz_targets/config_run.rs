//! libFuzzer target: lines of `key=value` through `Config::set`, then a run with a small
//! event budget and a bounded trace: no panic, bounded events and trace.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedscope::engine::{self, Config};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut cfg = Config::default();
    for line in text.lines().take(32) {
        if let Some((k, v)) = line.split_once('=') {
            let _ = cfg.set(k, v);
        }
    }
    cfg.set("max_events", "20000").expect("in range");
    let opts = engine::TraceOptions { max_items: 3000, ..Default::default() };
    let o = engine::run(&cfg, Some(opts)).expect("configs built by set are valid");
    assert!(o.metrics.events <= 20000);
    assert!(o.trace.spans.len() + o.trace.instants.len() <= 3000);
});
