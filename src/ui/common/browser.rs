//! The few browser calls several features make (the page's address, the clipboard); off the
//! browser (SSR, native tests) they answer as a page without them would.

use wasm_bindgen::prelude::*;
use yew::Callback;

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The app's address without its query (`https://host/path/`).
pub fn page_address() -> String {
    window()
        .map(|w| {
            let l = w.location();
            format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
        })
        .unwrap_or_default()
}

/// The share link of a state's query (`State::query`): the app's address, `?`, the query.
pub fn link_of(query: &str) -> String {
    format!("{}?{query}", page_address())
}

/// Puts `text` on the clipboard; `done(true)` when it is there, `done(false)` when the
/// browser has no clipboard or refused (the caller shows a selected field instead).
pub fn copy_text(text: &str, done: Callback<bool>) {
    let Some(w) = window() else {
        done.emit(false);
        return;
    };
    let nav = w.navigator();
    let has =
        js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard")).is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has {
        done.emit(false);
        return;
    }
    let promise = nav.clipboard().write_text(text);
    let (ok, err) = (done.clone(), done);
    let ok = Closure::once(move |_: JsValue| ok.emit(true));
    let err = Closure::once(move |_: JsValue| err.emit(false));
    let _ = promise.then2(&ok, &err);
    // One of the two is never called: a few bytes per click, the price of no futures crate.
    ok.forget();
    err.forget();
}
