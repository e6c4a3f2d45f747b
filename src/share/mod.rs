//! Boundary formats between the engine and the world: the URL codec (`url`), the
//! Chrome/Perfetto trace export (`perfetto`) and its reader (`perfetto_import`), CSV exports (`csv`), rt-app import (`rtapp`) and
//! text for a terminal (`text`: control characters escaped), plain-text A/B tables for an
//! email (`table`).
//!
//! Everything here is pure Rust over engine types (no yew, web-sys or gloo): the UI and the
//! CLI call it. Every reader here is total: bad input gives notices or an error that points
//! at the offending part, never a panic.

pub mod csv;
pub mod ftrace;
pub mod perfetto;
pub mod perfetto_import;
pub mod rtapp;
pub mod table;
pub mod text;
pub mod url;
