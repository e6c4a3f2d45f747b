//! libFuzzer target: any text as an rt-app JSON file; import must not panic, and every
//! config change it returns must be accepted by `Config::set`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schedscope::engine::Config;
use schedscope::share::rtapp;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(r) = rtapp::import(text) {
        let mut cfg = Config::default();
        for (k, v) in &r.config_changes {
            cfg.set(k, v).expect("import returns accepted changes");
        }
    }
});
