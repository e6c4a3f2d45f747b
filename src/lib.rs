//! schedscope: a laboratory for Linux CPU scheduling: the share formats, the CLI and the web UI over the engine crate.
//!
//! `engine` is the deterministic simulation (no web imports); `share` is the boundary
//! formats (URL, Perfetto trace, CSV, rt-app import); `ui` is the Yew app; `cli` the
//! native command line.

/// The engine is its own crate (`src/engine/`, serde and rand only), so a web import there
/// does not compile; this name keeps every `schedscope::engine::...` path.
pub use schedscope_engine as engine;
pub mod share;
/// The web app: only with the `web` feature (Trunk's build and the UI's tests).
#[cfg(feature = "web")]
pub mod ui;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
/// The import graph of a source folder, for the layering tidy tests of `ui` and `cli`.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod layering;
