//! The views loaded on first use (issue 26's code splitting; ARCHITECTURE.md "Code
//! splitting"): one second wasm, the `views` module (src/bin/views.rs, its own yew), that
//! static/boot.js `schedscopeLazy("views")` imports once. The page's side: `LazyMount` (every
//! view's mount: `use_views`, loading, ready or why not, and the call of the function a view
//! registered on `window` with its wire bytes); the
//! module's side: `Mounts` (one yew app per mount node, updated in place).

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The module's name for boot.js (`views.js`, `views_bg.wasm`).
pub const MODULE: &str = "views";

/// How far the module is.
#[derive(Clone, PartialEq, Debug)]
pub enum Load {
    /// Not asked for yet (the mount waits for the first figure).
    Idle,
    Loading,
    Ready,
    Failed(String),
}

/// What a thrown JS value says.
pub fn text_of(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "unknown error".into())
}

/// A property of `window`.
fn global(name: &str) -> Option<JsValue> {
    let w = web_sys::window()?;
    js_sys::Reflect::get(&w, &name.into()).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

/// Calls `window[name].show(...args)`, registered by the module's entry for one view; a
/// missing function or a throw comes back as its text.
fn show(name: &str, args: &js_sys::Array) -> Result<(), String> {
    global(name)
        .and_then(|api| js_sys::Reflect::get(&api, &"show".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| format!("the views module has no {name}.show()"))?
        .apply(&JsValue::NULL, args)
        .map(|_| ())
        .map_err(|e| text_of(&e))
}

/// Loads the module (boot.js's loader) and tells `done` how it went.
fn start_loading(done: Callback<Result<(), String>>) {
    let loader = global("schedscopeLazy").and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(loader) = loader else {
        done.emit(Err("the page's loader (boot.js) is missing".into()));
        return;
    };
    let promise = match loader.call1(&JsValue::NULL, &MODULE.into()) {
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

/// Loads the module if need be (boot.js imports it once), then calls `window[name].show(...args)`;
/// a failure, the module's or the call's, goes to `fail`.
pub fn call(name: &'static str, args: js_sys::Array, fail: Callback<String>) {
    start_loading(Callback::from(move |r: Result<(), String>| {
        let r = r.and_then(|()| show(name, &args));
        if let Err(e) = r {
            fail.emit(e);
        }
    }));
}

/// The module, asked for once `wanted` holds (boot.js imports it once; a failure is
/// forgotten there, so the next mount retries, and so does a view that sets the handle back
/// to `Idle`). The handle's setter lets a view's call that fails say so.
#[hook]
pub fn use_views(wanted: bool) -> UseStateHandle<Load> {
    let load = use_state(|| Load::Idle);
    {
        let load = load.clone();
        let idle = *load == Load::Idle;
        use_effect_with((wanted, idle), move |(wanted, _)| {
            if *wanted && *load == Load::Idle {
                load.set(Load::Loading);
                let load = load.setter();
                start_loading(Callback::from(move |r: Result<(), String>| {
                    load.set(match r {
                        Ok(()) => Load::Ready,
                        Err(e) => Load::Failed(e),
                    })
                }));
            }
        });
    }
    load
}

#[derive(Properties, PartialEq)]
pub struct LazyMountProps {
    /// The view's name on `window` (`register`): its `show(node, bytes, ...args)` draws it.
    pub api: AttrValue,
    /// Ask for the module (a mount waits for the first figure, or for its view to be opened).
    pub wanted: bool,
    /// The view's inputs as `worker::wire` bytes; compared by value, so the module is called
    /// again only when they change.
    pub bytes: Rc<Vec<u8>>,
    /// What `show` gets after the bytes (the view's callbacks, made once by the mount).
    pub args: Rc<Vec<JsValue>>,
    /// The class of the `<div>` the module draws into (this yew leaves it empty).
    pub class: AttrValue,
    /// The line while the module loads, and its class; None: no line.
    #[prop_or_default]
    pub loading: Option<(AttrValue, AttrValue)>,
    /// Whether a failure is shown, and what it names: "{what} could not be loaded ({why}). {then}".
    pub show_failure: bool,
    pub what: AttrValue,
    pub then: AttrValue,
    /// After a failure, a new value asks again (the inspector's selection, the tour's step).
    #[prop_or_default]
    pub retry: u64,
    /// After the failure's text (the tour's close button).
    #[prop_or_default]
    pub children: Html,
}

/// Hands the module a view's inputs (`window[api].show(node, bytes, ...args)`).
fn show_in(api_name: &str, node: &web_sys::Element, bytes: &[u8], args: &[JsValue]) -> Result<(), String> {
    let all = js_sys::Array::of2(node, &js_sys::Uint8Array::from(bytes));
    for a in args {
        all.push(a);
    }
    show(api_name, &all)
}

/// One mount for every view of the module (one instance of its hooks on the page, not one per
/// view): asks for the module when `wanted`, says so meanwhile, hands it the bytes whenever
/// they change, and says why if it could not.
#[function_component(LazyMount)]
pub fn lazy_mount(p: &LazyMountProps) -> Html {
    let node = use_node_ref();
    let load = use_views(p.wanted);
    {
        let load = load.clone();
        use_effect_with(p.retry, move |_| {
            if matches!(*load, Load::Failed(_)) {
                load.set(Load::Idle);
            }
        });
    }
    {
        let (node, failed) = (node.clone(), load.setter());
        let ready = *load == Load::Ready;
        let deps = (p.bytes.clone(), ready, p.args.clone(), p.api.clone());
        use_effect_with(deps, move |(bytes, ready, args, api)| {
            if let (true, Some(el)) = (*ready, node.cast::<web_sys::Element>()) {
                if let Err(e) = show_in(api, &el, bytes, args) {
                    failed.set(Load::Failed(e));
                }
            }
        });
    }
    html! {
        <>
            if let (Some((text, class)), Load::Idle | Load::Loading) = (&p.loading, &*load) {
                <p class={class.clone()} role="status">{text.clone()}</p>
            }
            if let (true, Load::Failed(e)) = (p.show_failure, &*load) {
                <p class="status error" role="alert">{format!("{} could not be loaded ({e}). {}", p.what, p.then)}{p.children.clone()}</p>
            }
            <div class={p.class.clone()} ref={node}></div>
        </>
    }
}

/// The module's yew apps, one per mount node: the same node updates its app's props, a new
/// one (the page re-rendered its mount) replaces it. (wasm32 only, where yew renders.)
#[cfg(target_arch = "wasm32")]
pub struct Mounts<C: BaseComponent>(std::cell::RefCell<Option<(web_sys::Element, yew::AppHandle<C>)>>);

#[cfg(target_arch = "wasm32")]
impl<C: BaseComponent> Default for Mounts<C> {
    fn default() -> Self {
        Mounts(std::cell::RefCell::new(None))
    }
}

#[cfg(target_arch = "wasm32")]
impl<C: BaseComponent> Mounts<C> {
    pub fn show(&self, node: web_sys::Element, props: C::Properties) {
        let mut m = self.0.borrow_mut();
        match m.as_mut() {
            Some((at, app)) if js_sys::Object::is(at, &node) => app.update(props),
            _ => {
                if let Some((_, old)) = m.take() {
                    old.destroy();
                }
                let app = yew::Renderer::<C>::with_root_and_props(node.clone(), props).render();
                *m = Some((node, app));
            }
        }
    }
}

/// App roots the page's yew holds: its one app (`ui::start`; no portals).
#[cfg(target_arch = "wasm32")]
const PAGE_ROOTS: u32 = 1;

#[cfg(target_arch = "wasm32")]
#[function_component(Nothing)]
fn nothing() -> Html {
    html! {}
}

/// Numbers the module's app roots past the page's (called once, by the module's `main`,
/// before any view is shown). Each yew numbers its roots from 1 (yew 0.23,
/// dom_bundle/subtree_root.rs `next_root_id`) and handles, in the capture phase on its own
/// root, every event whose closest numbered element has its number, running its own
/// listener of the element's listener number. The module's first root was 1 like the
/// page's, so a click in it also ran the page's listener of the same number: the
/// inspector's close button opened the Experiments page. Each throwaway app here takes one
/// number.
#[cfg(target_arch = "wasm32")]
pub fn reserve_roots() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    for _ in 0..PAGE_ROOTS {
        if let Ok(el) = doc.create_element("div") {
            yew::Renderer::<Nothing>::with_root(el).render().destroy();
        }
    }
}

/// Registers `window[name] = { show }` (the module's entry, once per view; lives as long as
/// the page).
pub fn register(name: &str, show: &JsValue) {
    let api = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&api, &"show".into(), show);
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &name.into(), &api);
    }
}
