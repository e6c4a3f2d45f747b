//! The Yew web UI: a reducer (`state`), controls generated from the engine's `KEYS`,
//! metrics, plots, compare and seed views, and a runner that simulates in a Web Worker.
//!
//! Pure logic (formatting, scales, the reducer, the job scheduler) lives in modules with no
//! browser calls and is tested natively; `ssr_tests` renders the app with yew's SSR.

pub mod app;
pub mod common;
pub mod experiments;
pub mod explore;
pub mod inspect;
pub mod share;
pub mod sweep;
pub mod timeline;
pub mod tour;
pub mod traces;
pub mod worker;

#[cfg(test)]
mod layering;
#[cfg(all(test, feature = "ssr"))]
mod ssr_tests;

/// The shared state handle every component reads through `use_context`. Equal when it was
/// made from the same `State` (the same `Rc`: `State::reduce` makes a new one for every
/// change, as `use_reducer` re-renders on), not by comparing the states: yew's handle
/// compares them whole (`State`, its runs and their traces), on every render of the
/// provider, and that derived comparison was page code (issue 26).
#[derive(Clone)]
pub struct StateCtx {
    /// Shared by the clones: its first snapshot keeps the state at `at` alive, so the
    /// address is not reused while a clone can still be compared.
    handle: std::rc::Rc<yew::UseReducerHandle<app::state::State>>,
    /// The address of the state this context was made from (the handle's deref is the
    /// current state, whichever clone reads it).
    at: usize,
}

impl StateCtx {
    pub fn new(handle: yew::UseReducerHandle<app::state::State>) -> StateCtx {
        let at = &*handle as *const app::state::State as usize;
        StateCtx { handle: std::rc::Rc::new(handle), at }
    }
    pub fn dispatch(&self, action: app::state::Action) {
        self.handle.dispatch(action)
    }
    pub fn dispatcher(&self) -> yew::UseReducerDispatcher<app::state::State> {
        self.handle.dispatcher()
    }
}

impl PartialEq for StateCtx {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at
    }
}

impl std::ops::Deref for StateCtx {
    type Target = app::state::State;
    fn deref(&self) -> &app::state::State {
        &self.handle
    }
}

/// What the controls read, handed to them as a prop: the config, the preset it came from, and
/// the dispatcher. Equal while the state's `ConfigKey` is (the config's generation and the
/// preset), so a run's answer, a progress report or a notice (each a new `State`, so a new
/// `StateCtx`) leaves the controls unrendered: they were ~300 of the page's 524 elements,
/// reconciled in the answer's task and on every slider preview (issue 26). A prop, not a second
/// context: a `ContextProvider` of its own cost 1.9 KB of page weight. It gives no other field
/// of the state: a reader of one would not be re-rendered when it changes.
#[derive(Clone)]
pub struct ConfigView {
    state: StateCtx,
    key: app::state::ConfigKey,
}

impl ConfigView {
    pub fn new(state: &StateCtx) -> ConfigView {
        ConfigView { state: state.clone(), key: state.config_key() }
    }
    pub fn config(&self) -> &crate::engine::config::Config {
        &self.state.config
    }
    pub fn preset(&self) -> &str {
        &self.state.preset
    }
    pub fn dispatcher(&self) -> yew::UseReducerDispatcher<app::state::State> {
        self.state.dispatcher()
    }
}

impl PartialEq for ConfigView {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

/// The stylesheet's phone layout (static/style.css `@media (max-width: 720px)`): the Controls
/// in a drawer, the result line kept in view.
pub const PHONE_QUERY: &str = "(max-width: 720px)";

/// Whether the page's CSS media query `query` matches (false off the browser, as in SSR).
pub fn media_matches(query: &str) -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window().and_then(|w| w.match_media(query).ok().flatten()).is_some_and(|m| m.matches())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = query;
        false
    }
}

/// Whether the page is in its phone layout (`PHONE_QUERY`; false off the browser).
pub fn is_phone() -> bool {
    media_matches(PHONE_QUERY)
}

/// Starts the app (wasm32): installs the panic view first, then renders `App` into
/// `<main id="app">` (or the body).
#[cfg(target_arch = "wasm32")]
pub fn start() {
    // Through yew: `Renderer::render` installs its own console hook unless one is set here,
    // which would silently replace ours.
    yew::set_custom_panic_hook(Box::new(panic_view));
    let document = web_sys::window().and_then(|w| w.document());
    let root = document.as_ref().and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            yew::Renderer::<app::App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<app::App>::new().render();
        }
    }
}

/// Panics on purpose (`wasmBindings.debug_panic()` from the console or a test) to show the
/// error view exactly as a real bug would. It only ever affects the page that calls it.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn debug_panic() {
    panic!("debug_panic() was called: this is the view a real bug would show");
}

/// Natively there is no page (the CLI is the native entry point).
#[cfg(not(target_arch = "wasm32"))]
pub fn start() {}

/// Replaces the page with an error view, in plain DOM (yew may be mid-render and is not
/// trusted after a panic). Text only: nothing reaches inner_html.
#[cfg(target_arch = "wasm32")]
fn panic_view(info: &std::panic::PanicHookInfo<'_>) {
    let message = info.to_string();
    web_sys::console::error_1(&format!("schedscope panicked: {message}").into());
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let Some(body) = document.body() else { return };
    let location = window.location();
    let href = location.href().unwrap_or_default();
    let path = location.pathname().unwrap_or_else(|_| "/".into());
    let el = |tag: &str, text: &str| {
        let e = document.create_element(tag).ok()?;
        if !text.is_empty() {
            e.set_text_content(Some(text));
        }
        Some(e)
    };
    let build = || -> Option<web_sys::Element> {
        let main = el("main", "")?;
        main.set_class_name("crash");
        main.set_attribute("role", "alert").ok()?;
        let add = |tag: &str, text: &str| -> Option<()> {
            let child: web_sys::Element = el(tag, text)?;
            main.append_child(&child).ok().map(|_| ())
        };
        add("h1", "schedscope stopped")?;
        add(
            "p",
            "An internal error stopped the simulation page. Nothing you did was lost on a server: \
             the settings live in the link. Reset to the defaults, or report the link below.",
        )?;
        add("pre", &message)?;
        // A link, not a button: it works without running any more WebAssembly.
        let reset = el("a", "Reset to defaults")?;
        reset.set_attribute("href", &path).ok()?;
        reset.set_class_name("button");
        main.append_child(&reset).ok()?;
        add("p", "For a bug report, include this link:")?;
        let link = el("input", "")?;
        link.set_attribute("readonly", "").ok()?;
        link.set_attribute("aria-label", "Link to the page that failed").ok()?;
        link.set_attribute("value", &href).ok()?;
        main.append_child(&link).ok()?;
        Some(main)
    };
    if let Some(main) = build() {
        body.set_text_content(None);
        let _ = body.append_child(&main);
    }
}
