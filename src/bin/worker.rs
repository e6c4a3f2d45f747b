//! The simulation Web Worker (wasm32): answers `ui::worker` requests off the main thread.
//! Natively it does nothing (the CLI is the native entry point).

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    // Previews are bounded by the worker's wall time (`execute::PREVIEW_WALL_MS`).
    schedscope::ui::worker::execute::set_clock(js_sys::Date::now);
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    // Every message is a Uint8Array of `ui::worker::wire` bytes, its buffer transferred.
    let send = move |to: &web_sys::DedicatedWorkerGlobalScope, bytes: Vec<u8>| {
        let array = js_sys::Uint8Array::from(bytes.as_slice());
        let _ = to.post_message_with_transfer(&array, &js_sys::Array::of1(&array.buffer()));
    };
    // The page's first run, computed from its query before the page asks (`execute::Prefetched`).
    let mut prefetched = schedscope::ui::worker::execute::Prefetched::default();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let data = e.data();
        // Progress reports go out between chunks of a long run (the page may terminate this
        // worker to cancel it: it reads no message until the run is done).
        let progress_to = reply.clone();
        let mut progress = move |p: Vec<u8>| send(&progress_to, p);
        let bytes_of = |v: JsValue| v.dyn_into::<js_sys::Uint8Array>().map(|b| b.to_vec()).unwrap_or_default();
        // `[request, File]`: a trace request whose file the worker reads itself (`ui::traces`).
        let pair =
            data.dyn_ref::<js_sys::Array>().and_then(|a| Some((a.get(0), a.get(1).dyn_into::<web_sys::Blob>().ok()?)));
        // `[PREFETCH_TAG, query]`: early.js's page query; nothing is answered.
        let query = data
            .dyn_ref::<js_sys::Array>()
            .filter(|a| a.get(0).as_string().as_deref() == Some(schedscope::ui::worker::protocol::PREFETCH_TAG))
            .map(|a| a.get(1).as_string().unwrap_or_default());
        if let Some(query) = query {
            prefetched.run_for_query(&query);
            return;
        }
        let answer = match pair {
            Some((request, blob)) => schedscope::ui::worker::trace_io::handle(&bytes_of(request), blob, &mut progress),
            None => prefetched.handle_with(&bytes_of(data), &mut progress),
        };
        send(&reply, answer);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker does.
    on_message.forget();
    // For the browser tests' routed loaders, which decide from a request whether to crash
    // this worker: `self.schedscope_describe(bytes)` is `Request::summary` (or "").
    let describe = Closure::<dyn Fn(JsValue) -> String>::new(|v: JsValue| {
        let bytes = v.dyn_into::<js_sys::Uint8Array>().map(|b| b.to_vec()).unwrap_or_default();
        schedscope::ui::worker::wire::parse_request(&bytes).map(|r| r.summary()).unwrap_or_default()
    });
    let _ = js_sys::Reflect::set(&scope, &JsValue::from_str("schedscope_describe"), describe.as_ref());
    describe.forget();
    send(&scope, schedscope::ui::worker::wire::to_bytes(&schedscope::ui::worker::protocol::Response::Ready));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
