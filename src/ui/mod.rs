//! The Yew web UI (being written).

pub mod format;
pub mod palette;
pub mod scale;
pub mod timeline;

/// Starts the app (wasm32 only).
pub fn start() {}
