//! User Timing measures for the browser's performance tools: the page's steps that may be
//! long (a trace's decode and render, the timeline's index and first frame) are named, so
//! DevTools and the e2e tests (`performance.getEntriesByType('measure')`) can tell which one
//! a long task was.

use wasm_bindgen::JsCast;

/// The page's clock (ms).
pub fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or_else(js_sys::Date::now)
}

/// A User Timing entry `name` from `start` (ms, `now`) to now. `performance.measure` is
/// reached through `Reflect` because the crate's web-sys feature list lacks its options form.
pub fn measure(name: &str, start: f64) {
    let Some(perf) = web_sys::window().and_then(|w| w.performance()) else { return };
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"start".into(), &start.into());
    let _ = js_sys::Reflect::set(&opts, &"end".into(), &perf.now().into());
    if let Ok(f) = js_sys::Reflect::get(&perf, &"measure".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = f.call2(&perf, &name.into(), &opts);
    }
}
