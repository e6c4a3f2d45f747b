//! The CLI's one door to `share`: rt-app import, Perfetto and trace-cmd text export, the sweep CSV
//! (and `trace`, which reads recorded traces through `share::ftrace`).

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

/// A sweep as CSV, in the very format the web UI's "Sweep CSV" export writes:
/// `param,value,<every metric, flattened>`, one line per value.
pub fn sweep_csv(param: &str, rows: &[(String, &Metrics)]) -> String {
    let rows: Vec<(String, Option<&Metrics>)> = rows.iter().map(|(v, m)| (v.clone(), Some(*m))).collect();
    crate::share::csv::sweep_csv(param, &rows)
}

/// A simulated run's trace as `trace-cmd report` text (`lives`: a replay's births and
/// deaths as recorded, `ftrace::replay::lives`; empty for a simulation).
pub fn trace_text(
    trace: &Trace,
    lives: &[crate::share::ftrace::export::Life],
    dialect: crate::share::ftrace::export::Dialect,
) -> String {
    crate::share::ftrace::export::to_text_in(trace, None, lives, dialect)
}
