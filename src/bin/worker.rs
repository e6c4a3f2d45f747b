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
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let data = e.data();
        // Progress reports go out between chunks of a long run (the page may terminate this
        // worker to cancel it: it reads no message until the run is done).
        let progress_to = reply.clone();
        let mut progress = move |p: String| {
            let _ = progress_to.post_message(&JsValue::from_str(&p));
        };
        // `[json, File]`: a trace request whose file the worker reads itself (`ui::traces`).
        let pair = data
            .dyn_ref::<js_sys::Array>()
            .and_then(|a| Some((a.get(0).as_string()?, a.get(1).dyn_into::<web_sys::Blob>().ok()?)));
        let (answer, packed) = match pair {
            Some((json, blob)) => schedscope::ui::worker::trace_io::handle(&json, blob, &mut progress),
            None => {
                schedscope::ui::worker::execute::handle_text_with(&data.as_string().unwrap_or_default(), &mut progress)
            }
        };
        if packed.is_empty() {
            let _ = reply.post_message(&JsValue::from_str(&answer));
            return;
        }
        // [json, bytes], the bytes' buffer transferred rather than copied.
        let bytes = js_sys::Uint8Array::from(packed.as_slice());
        let msg = js_sys::Array::of2(&JsValue::from_str(&answer), &bytes);
        let _ = reply.post_message_with_transfer(&msg, &js_sys::Array::of1(&bytes.buffer()));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker does.
    on_message.forget();
    let ready = schedscope::ui::worker::protocol::to_text(&schedscope::ui::worker::protocol::Response::Ready);
    let _ = scope.post_message(&JsValue::from_str(&ready));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
