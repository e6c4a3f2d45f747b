//! The Experiments page's module (wasm32 only; issue 26's code splitting): a second wasm with
//! its own yew, loaded by the page the first time the Experiments tab opens (static/boot.js
//! `schedscopeLazy`, src/ui/experiments). Natively it does nothing.

#[cfg(target_arch = "wasm32")]
fn main() {
    schedscope::ui::experiments::lazy::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
