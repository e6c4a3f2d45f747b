//! The Yew web UI (being written).

pub mod palette;
pub mod timeline;

/// Starts the app (wasm32 only).
pub fn start() {}
