//! The address bar: the state a page load starts from, the query kept in sync (replaced, or
//! pushed as a history entry), and Back and Forward.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::ui::app::state::{Action, State};

/// Quiet time after the last change before the address bar is rewritten.
pub const URL_DEBOUNCE_MS: u32 = 300;

pub(super) fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The state a page load starts from: the link's, or the first preset without a query.
pub fn initial_state() -> State {
    let search = window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    State::from_query(&search)
}

/// Rewrites the address bar to `?query` without a history entry (unless it already is).
pub fn replace_query(query: &str) {
    set_query(query, false)
}

/// Adds a history entry for `?query` (a new preset, page, pin or tour step), so Back returns
/// to the entry before it. Nothing happens when the address already is `?query`.
pub fn push_query(query: &str) {
    set_query(query, true)
}

/// The address bar to `?query`, as a new history entry (`push`) or in place.
fn set_query(query: &str, push: bool) {
    let Some(w) = window() else { return };
    let l = w.location();
    if l.search().unwrap_or_default().trim_start_matches('?') == query {
        return;
    }
    let target = format!("{}?{query}", l.pathname().unwrap_or_else(|_| "/".into()));
    if let Ok(h) = w.history() {
        let done = if push {
            h.push_state_with_url(&JsValue::NULL, "", Some(&target))
        } else {
            h.replace_state_with_url(&JsValue::NULL, "", Some(&target))
        };
        if let Err(e) = done {
            let what = if push { "add a history entry" } else { "update the address bar" };
            web_sys::console::warn_1(&format!("schedscope: cannot {what}: {e:?}").into());
        }
    }
}

/// The address bar's query without its `?`.
pub fn current_query() -> String {
    window().and_then(|w| w.location().search().ok()).unwrap_or_default().trim_start_matches('?').to_string()
}

/// Back and Forward: on `popstate`, the page goes to the state its new address describes.
#[hook]
pub fn use_popstate(dispatch: Callback<Action>) {
    use_effect_with((), move |_| {
        let listener = window().map(|w| {
            gloo::events::EventListener::new(&w, "popstate", move |_| {
                let (u, _) = crate::share::url::parse(&current_query());
                dispatch.emit(Action::Navigate(Box::new(u)));
            })
        });
        move || drop(listener)
    });
}
