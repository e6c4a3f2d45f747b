//! The Experiments page, split off the page's wasm (issue 26): its views (`view`) are a
//! second wasm module (src/bin/experiments.rs, entry `lazy`) that the page loads the first
//! time the page opens; `mount` is the app's side of the seam. The app keeps the page's
//! state and its worker jobs (`explore::seeds`, `app::jobs`) and hands the module the
//! tables as wire bytes; the module hands back a row's Load. See ARCHITECTURE.md "Code
//! splitting".

/// The module's entry: wasm32 only (yew renders there).
#[cfg(target_arch = "wasm32")]
pub mod lazy;
pub mod mount;
pub mod scoreboard;
pub mod view;
