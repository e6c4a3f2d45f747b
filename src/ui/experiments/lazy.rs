//! The Experiments module's entry (src/bin/experiments.rs, its own wasm and yew): registers
//! `window.schedscopeExperiments.show(node, bytes, stage, query, onLoad)`, which decodes the
//! tables (`wire` bytes of `Vec<SeedTable>`) and renders `view::SeedView` into `node`,
//! updating the app already there when `node` is the same element.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::ui::experiments::view::{LoadRow, SeedView, SeedViewProps, Stage};
use crate::ui::worker::protocol::SeedTable;

thread_local! {
    static MOUNTED: RefCell<Option<(web_sys::Element, yew::AppHandle<SeedView>)>> = const { RefCell::new(None) };
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
    MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        match m.as_mut() {
            Some((at, app)) if js_sys::Object::is(at, &node) => app.update(props),
            _ => {
                // The app re-rendered the page (a new node): the old one is gone with it.
                if let Some((_, old)) = m.take() {
                    old.destroy();
                }
                let app = yew::Renderer::<SeedView>::with_root_and_props(node.clone(), props).render();
                *m = Some((node, app));
            }
        }
    });
}

/// Registers `show` on `window` (called once, by the module's `main`).
pub fn start() {
    let show = Closure::<dyn Fn(web_sys::Element, js_sys::Uint8Array, u32, String, js_sys::Function)>::new(
        |node, bytes: js_sys::Uint8Array, stage, query, on_load| show(node, bytes.to_vec(), stage, query, on_load),
    );
    let api = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&api, &"show".into(), show.as_ref());
    // Lives as long as the page.
    show.forget();
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"schedscopeExperiments".into(), &api);
    }
}
