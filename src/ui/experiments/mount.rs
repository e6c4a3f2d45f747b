//! The app's side of the Experiments seam: `ExperimentsMount` asks for the views module
//! (`common::lazy::LazyMount`, boot.js's `schedscopeLazy("views")`) once, says "Loading…"
//! meanwhile (and why, if it fails: the explorer and the config are untouched), then calls
//! the module's `schedscopeExperiments.show(node, tables, stage, query, onLoad)` whenever
//! they change. `node` is a `<div>` yew renders empty, so the module's own yew owns its children.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::app::state::{Action, Seeds};
use crate::ui::common::lazy::LazyMount;
use crate::ui::experiments::view::Stage;
use crate::ui::StateCtx;

/// The tables (`wire` bytes of `Vec<SeedTable>`) and how far they are.
fn tables(seeds: &Seeds) -> (Rc<Vec<u8>>, Stage) {
    let empty = Vec::new();
    let (tables, stage) = match seeds {
        Seeds::NotLoaded | Seeds::Loading => (&empty, Stage::Waiting),
        Seeds::Partial(t) => (&**t, Stage::Partial),
        Seeds::Loaded(t) => (&**t, Stage::Loaded),
    };
    (Rc::new(crate::ui::worker::wire::encode(tables)), stage)
}

/// Where the Experiments page goes: the module's mount (`lazy::LazyMount`), which says
/// "Loading…" meanwhile and why if it could not.
#[function_component(ExperimentsMount)]
pub fn experiments_mount() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let tables = use_memo(ctx.seeds.clone(), tables);
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
    let bytes = tables.0.clone();
    let args = Rc::new(vec![tables.1.code().into(), ctx.query().into(), (*on_load).clone()]);
    html! {
        <LazyMount api="schedscopeExperiments" wanted=true {bytes} {args} class="experiments-mount"
            loading={Some(("Loading the Experiments page…".into(), "note".into()))}
            show_failure=true what="The Experiments page"
            then="The explorer and your config are as they were; reload the page to try again." />
    }
}
