//! The sweep panel in the views module (src/bin/views.rs, its own wasm and yew): registers
//! `window.schedscopeSweep.show(node, bytes, onView, onCell)`, which decodes the panel's
//! inputs (`seam::Seam` as `wire` bytes) and renders `SweepPanel` into `node`, updating the
//! app already there when `node` is the same element. A picker calls `onView(bytes)` (a
//! `SweepView`), a heatmap cell `onCell([[key, value], …])`.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::share::url::SweepView;
use crate::ui::common::lazy::{register, Mounts};
use crate::ui::sweep::seam::Seam;
use crate::ui::sweep::SweepPanel;

thread_local! {
    static MOUNTED: Mounts<SweepPanel> = Mounts::default();
}

fn show(node: web_sys::Element, bytes: Vec<u8>, on_view: js_sys::Function, on_cell: js_sys::Function) {
    let seam = match crate::ui::worker::wire::decode::<Seam>(&bytes) {
        Ok(s) => s,
        Err(e) => {
            web_sys::console::error_1(&format!("schedscope sweep: bad inputs: {e:?}").into());
            return;
        }
    };
    let on_view = Callback::from(move |v: SweepView| {
        let b = js_sys::Uint8Array::from(crate::ui::worker::wire::encode(&v).as_slice());
        let _ = on_view.call1(&JsValue::NULL, &b);
    });
    let on_cell = Callback::from(move |sets: Vec<(&'static str, String)>| {
        let pairs = js_sys::Array::new();
        for (k, v) in sets {
            pairs.push(&js_sys::Array::of2(&k.into(), &v.into()));
        }
        let _ = on_cell.call1(&JsValue::NULL, &pairs);
    });
    MOUNTED.with(|m| m.show(node, super::panel_props(seam, on_view, on_cell)));
}

/// Registers `show` on `window` (called once, by the module's `main`).
pub fn start() {
    let show = Closure::<dyn Fn(web_sys::Element, js_sys::Uint8Array, js_sys::Function, js_sys::Function)>::new(
        |node, bytes: js_sys::Uint8Array, on_view, on_cell| show(node, bytes.to_vec(), on_view, on_cell),
    );
    register("schedscopeSweep", show.as_ref());
    // Lives as long as the page.
    show.forget();
}
