//! The inspector in the views module (src/bin/views.rs, its own wasm and yew): registers
//! `window.schedscopeInspector.show(node, bytes, onClose)`, which decodes the panel's inputs
//! (`seam::Seam` as `wire` bytes: the selected span's lines and records) and renders
//! `view::InspectView` into `node`, updating the app already there when `node` is the same
//! element. Its close button calls `onClose()`.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::ui::common::lazy::{register, Mounts};
use crate::ui::inspect::seam::Seam;
use crate::ui::inspect::view::{InspectView, InspectViewProps};

thread_local! {
    static MOUNTED: Mounts<InspectView> = Mounts::default();
}

fn show(node: web_sys::Element, bytes: Vec<u8>, on_close: js_sys::Function) {
    let seam = match crate::ui::worker::wire::decode::<Seam>(&bytes) {
        Ok(s) => s,
        Err(e) => {
            web_sys::console::error_1(&format!("schedscope inspector: bad inputs: {e:?}").into());
            return;
        }
    };
    let on_close = Callback::from(move |()| {
        let _ = on_close.call0(&JsValue::NULL);
    });
    MOUNTED.with(|m| m.show(node, InspectViewProps { seam, on_close }));
}

/// Registers `show` on `window` (called once, by the module's `main`).
pub fn start() {
    let show = Closure::<dyn Fn(web_sys::Element, js_sys::Uint8Array, js_sys::Function)>::new(
        |node, bytes: js_sys::Uint8Array, on_close| show(node, bytes.to_vec(), on_close),
    );
    register("schedscopeInspector", show.as_ref());
    // Lives as long as the page.
    show.forget();
}
