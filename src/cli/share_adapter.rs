//! The CLI's one door to `share`: rt-app import and Perfetto export.
//!
//! `share::rtapp` and `share::perfetto` are written on another branch; until they are
//! merged this build has neither, and both adapters say so as a clear error. Wiring them
//! is a change to the two function bodies only:
//!
//! ```text
//! import_rtapp:    crate::share::rtapp::import(text)
//!                      .map(|r| Imported { config_changes: r.config_changes, notices: r.notices })
//!                      .map_err(|e| format!("{}: {}", e.path, e.message))
//! perfetto_json:   Ok(crate::share::perfetto::to_json(trace, metrics))
//! ```

use crate::engine::{Metrics, Trace};

/// What an rt-app file says, as config keys to set and remarks for the user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// `(key, value)` pairs for `Config::set`, in order.
    pub config_changes: Vec<(String, String)>,
    /// What the import approximated or ignored, one line each.
    pub notices: Vec<String>,
}

/// Reads an rt-app JSON document. The error names where in the document it is wrong.
pub fn import_rtapp(text: &str) -> Result<Imported, String> {
    let _ = text;
    Err("rt-app import not available in this build (share::rtapp is not part of it)".into())
}

/// A Perfetto (Chrome trace-event) JSON document for `trace`.
pub fn perfetto_json(trace: &Trace, metrics: Option<&Metrics>) -> Result<String, String> {
    let _ = (trace, metrics);
    Err("Perfetto export not available in this build (share::perfetto is not part of it)".into())
}
