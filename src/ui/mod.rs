//! The Yew web UI (being written).

pub mod palette;

/// Starts the app (wasm32 only).
pub fn start() {}
