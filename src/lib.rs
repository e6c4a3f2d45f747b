//! schedscope: a laboratory for Linux CPU scheduling (engine, CLI and web UI in one crate).
//!
//! `engine` is the deterministic simulation (no web imports); `share` is the boundary
//! formats (URL, Perfetto trace, CSV, rt-app import); `ui` is the Yew app; `cli` the
//! native command line.

pub mod engine;
pub mod share;
pub mod ui;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
