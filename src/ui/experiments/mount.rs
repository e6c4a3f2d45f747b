//! The app's side of the Experiments seam: `ExperimentsMount` asks boot.js's
//! `schedscopeLazy("experiments")` for the module once, says "Loading…" meanwhile (and
//! why, if it fails: the explorer and the config are untouched), then calls the module's
//! `schedscopeExperiments.show(node, tables, stage, query, onLoad)` whenever the tables
//! change. `node` is a `<div>` yew renders empty, so the module's own yew owns its children.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::app::state::{Action, Seeds};
use crate::ui::experiments::view::Stage;
use crate::ui::StateCtx;

#[derive(Clone, PartialEq)]
enum Load {
    Loading,
    Ready,
    Failed(String),
}

/// What a thrown JS value says.
fn text_of(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "unknown error".into())
}

/// A property of `window`.
fn global(name: &str) -> Option<JsValue> {
    let w = web_sys::window()?;
    js_sys::Reflect::get(&w, &name.into()).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

/// Loads the module (boot.js's loader) and tells `done` how it went.
fn start_loading(done: Callback<Result<(), String>>) {
    let loader = global("schedscopeLazy").and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(loader) = loader else {
        done.emit(Err("the page's loader (boot.js) is missing".into()));
        return;
    };
    let promise = match loader.call1(&JsValue::NULL, &"experiments".into()) {
        Ok(p) => p,
        Err(e) => return done.emit(Err(text_of(&e))),
    };
    let then = js_sys::Reflect::get(&promise, &"then".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(then) = then else {
        return done.emit(Err("the loader returned no promise".into()));
    };
    let ok = {
        let done = done.clone();
        Closure::once_into_js(move |_: JsValue| done.emit(Ok(())))
    };
    let err = {
        let done = done.clone();
        Closure::once_into_js(move |e: JsValue| done.emit(Err(text_of(&e))))
    };
    if let Err(e) = then.call2(&promise, &ok, &err) {
        done.emit(Err(text_of(&e)));
    }
}

/// Hands the module the tables (`wire` bytes of `Vec<SeedTable>`) and how far they are.
fn show(node: &web_sys::Element, seeds: &Seeds, query: &str, on_load: &JsValue) -> Result<(), String> {
    let empty = Vec::new();
    let (tables, stage) = match seeds {
        Seeds::NotLoaded | Seeds::Loading => (&empty, Stage::Waiting),
        Seeds::Partial(t) => (&**t, Stage::Partial),
        Seeds::Loaded(t) => (&**t, Stage::Loaded),
    };
    let bytes = js_sys::Uint8Array::from(crate::ui::worker::wire::encode(tables).as_slice());
    let show = global("schedscopeExperiments")
        .and_then(|api| js_sys::Reflect::get(&api, &"show".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("the module has no show()")?;
    let args = js_sys::Array::of5(node, &bytes, &stage.code().into(), &query.into(), on_load);
    show.apply(&JsValue::NULL, &args).map(|_| ()).map_err(|e| text_of(&e))
}

/// Where the Experiments page goes: the module's mount node, and a line while it loads or
/// if it could not.
#[function_component(ExperimentsMount)]
pub fn experiments_mount() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let node = use_node_ref();
    let load = use_state(|| Load::Loading);
    {
        let load = load.clone();
        use_effect_with((), move |_| {
            start_loading(Callback::from(move |r: Result<(), String>| {
                load.set(match r {
                    Ok(()) => Load::Ready,
                    Err(e) => Load::Failed(e),
                })
            }));
        });
    }
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
            if *load == Load::Loading {
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
