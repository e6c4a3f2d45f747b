//! The app's side of the Experiments seam: `ExperimentsMount` asks for the views module
//! (`common::lazy`, boot.js's `schedscopeLazy("views")`) once, says "Loading…" meanwhile (and
//! why, if it fails: the explorer and the config are untouched), then calls the module's
//! `schedscopeExperiments.show(node, tables, stage, query, onLoad)` whenever the tables
//! change. `node` is a `<div>` yew renders empty, so the module's own yew owns its children.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::app::state::{Action, Seeds};
use crate::ui::common::lazy::{self, text_of, Load};
use crate::ui::experiments::view::Stage;
use crate::ui::StateCtx;

/// Hands the module the tables (`wire` bytes of `Vec<SeedTable>`) and how far they are.
fn show(node: &web_sys::Element, seeds: &Seeds, query: &str, on_load: &JsValue) -> Result<(), String> {
    let empty = Vec::new();
    let (tables, stage) = match seeds {
        Seeds::NotLoaded | Seeds::Loading => (&empty, Stage::Waiting),
        Seeds::Partial(t) => (&**t, Stage::Partial),
        Seeds::Loaded(t) => (&**t, Stage::Loaded),
    };
    let bytes = js_sys::Uint8Array::from(crate::ui::worker::wire::encode(tables).as_slice());
    let show = lazy::api("schedscopeExperiments")?;
    let args = js_sys::Array::of5(node, &bytes, &stage.code().into(), &query.into(), on_load);
    show.apply(&JsValue::NULL, &args).map(|_| ()).map_err(|e| text_of(&e))
}

/// Where the Experiments page goes: the module's mount node, and a line while it loads or
/// if it could not.
#[function_component(ExperimentsMount)]
pub fn experiments_mount() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let node = use_node_ref();
    let load = lazy::use_views(true);
    // A row's Load, from the module: `(preset, [[key, value], …])`.
    let on_load: Rc<JsValue> = {
        let d = ctx.dispatcher();
        use_memo((), move |_| {
            Closure::<dyn Fn(String, js_sys::Array)>::new(move |preset: String, sets: js_sys::Array| {
                let sets = sets
                    .iter()
                    .filter_map(|p| {
                        let p: js_sys::Array = p.dyn_into().ok()?;
                        Some((p.get(0).as_string()?, p.get(1).as_string()?))
                    })
                    .collect();
                d.dispatch(Action::LoadRow { preset, sets });
            })
            .into_js_value()
        })
    };
    {
        let (node, on_load, failed) = (node.clone(), on_load.clone(), load.setter());
        let ready = *load == Load::Ready;
        use_effect_with((ctx.seeds.clone(), ready, ctx.query()), move |(seeds, ready, query)| {
            if let (true, Some(el)) = (*ready, node.cast::<web_sys::Element>()) {
                if let Err(e) = show(&el, seeds, query, &on_load) {
                    failed.set(Load::Failed(e));
                }
            }
        });
    }
    html! {
        <>
            if matches!(*load, Load::Idle | Load::Loading) {
                <p class="note" role="status">{"Loading the Experiments page…"}</p>
            }
            if let Load::Failed(e) = &*load {
                <p class="status error" role="alert">{format!(
                    "The Experiments page could not be loaded ({e}). The explorer and your config are as they were; reload the page to try again."
                )}</p>
            }
            <div class="experiments-mount" ref={node}></div>
        </>
    }
}
