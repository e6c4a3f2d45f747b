//! The Experiments page in the views module (src/bin/views.rs, its own wasm and yew): registers
//! `window.schedscopeExperiments.show(node, bytes, stage, query, onLoad)`, which decodes the
//! tables (`wire` bytes of `Vec<SeedTable>`) and renders `view::SeedView` into `node`,
//! updating the app already there when `node` is the same element.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::ui::common::lazy::{register, Mounts};
use crate::ui::experiments::view::{LoadRow, SeedView, SeedViewProps, Stage};
use crate::ui::worker::protocol::SeedTable;

thread_local! {
    static MOUNTED: Mounts<SeedView> = Mounts::default();
}

fn show(node: web_sys::Element, bytes: Vec<u8>, stage: u32, query: String, on_load: js_sys::Function) {
    let tables = crate::ui::worker::wire::decode::<Vec<SeedTable>>(&bytes).unwrap_or_else(|e| {
        web_sys::console::error_1(&format!("schedscope experiments: bad tables: {e:?}").into());
        Vec::new()
    });
    let on_load = Callback::from(move |(preset, sets): LoadRow| {
        let pairs = js_sys::Array::new();
        for (k, v) in sets {
            pairs.push(&js_sys::Array::of2(&k.into(), &v.into()));
        }
        let _ = on_load.call2(&JsValue::NULL, &preset.into(), &pairs);
    });
    let props = SeedViewProps { tables: Rc::new(tables), stage: Stage::of_code(stage), query, on_load };
    MOUNTED.with(|m| m.show(node, props));
}

/// Registers `show` on `window` (called once, by the module's `main`).
pub fn start() {
    let show = Closure::<dyn Fn(web_sys::Element, js_sys::Uint8Array, u32, String, js_sys::Function)>::new(
        |node, bytes: js_sys::Uint8Array, stage, query, on_load| show(node, bytes.to_vec(), stage, query, on_load),
    );
    register("schedscopeExperiments", show.as_ref());
    // Lives as long as the page.
    show.forget();
}
