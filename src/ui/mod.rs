//! The Yew web UI (being written).

pub mod format;
pub mod jobs;
pub mod palette;
pub mod scale;
pub mod state;
pub mod timeline;

/// Starts the app (wasm32 only).
pub fn start() {}
