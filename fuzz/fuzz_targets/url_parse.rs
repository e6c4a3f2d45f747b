//! libFuzzer target: any text as a share-link query; parse must not panic and must give
//! configs that validate and run within a small event budget.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedscope::engine;
use schedscope::share::url;

fuzz_target!(|data: &[u8]| {
    let Ok(q) = std::str::from_utf8(data) else { return };
    let (state, _notices) = url::parse(q);
    for side in std::iter::once(&state.config).chain(state.compare.as_ref()) {
        let mut cfg = side.clone();
        cfg.set("max_events", "20000").expect("in range");
        engine::check(&cfg).expect("parse returns valid configs");
        let opts = engine::TraceOptions { max_items: 3000, ..Default::default() };
        let o = engine::run(&cfg, Some(opts)).expect("valid");
        assert!(o.metrics.events <= 20000);
        assert!(o.trace.spans.len() + o.trace.instants.len() <= 3000);
    }
});
