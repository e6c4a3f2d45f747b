//! The views module (wasm32 only; issue 26's code splitting): a second wasm with its own yew
//! holding the views the first figure does not need (the Experiments page, the sweep panel, the inspector, the tour card, the plots' SVG and PNG files),
//! loaded by the page the first time one of them is shown (static/boot.js
//! `schedscopeLazy("views")`, src/ui/common/lazy.rs). Natively it does nothing.

#[cfg(target_arch = "wasm32")]
fn main() {
    // Before any view: the module's yew roots must not share the page's numbers.
    schedscope::ui::common::lazy::reserve_roots();
    schedscope::ui::experiments::lazy::start();
    schedscope::ui::sweep::lazy::start();
    schedscope::ui::inspect::lazy::start();
    schedscope::ui::tour::lazy::start();
    schedscope::ui::share::plots::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
