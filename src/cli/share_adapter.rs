//! The CLI's one door to `share`: rt-app import and Perfetto export.

use crate::engine::{Config, Metrics, Trace};
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
    crate::share::rtapp::import(text)
        .map(|r| Imported { config_changes: r.config_changes, notices: r.notices })
        .map_err(|e| if e.path.is_empty() { e.message } else { format!("{}: {}", e.path, e.message) })
}

/// A Perfetto (Chrome trace-event) JSON document for `trace`.
pub fn perfetto_json(trace: &Trace, metrics: Option<&Metrics>, config: Option<&Config>) -> Result<String, String> {
    Ok(crate::share::perfetto::to_json(trace, metrics, config))
}
