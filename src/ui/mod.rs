//! The Yew web UI (stub being written).

/// Starts the app (wasm32 only).
pub fn start() {}

pub mod timeline;
pub mod timeline_draw;
