//! The seed experiments' tables: reported figures beside simulated ones. (stub, being written)

use serde::Serialize;

/// One row of a seed table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub label: String,
    /// Keys set on top of the preset's config for this row.
    pub sets: Vec<(String, String)>,
    /// The figure reported on the mailing list (mean of the runs), if the row has one.
    pub reported: Option<f64>,
    pub simulated: f64,
    /// Relative change against the table's first row, reported and simulated (0.10 = +10%).
    pub reported_change: Option<f64>,
    pub simulated_change: f64,
    /// None for the first row and for rows the model predicts.
    pub pass: Option<bool>,
}

/// One seed experiment.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub preset: String,
    pub title: String,
    pub metric: String,
    pub unit: String,
    pub rows: Vec<Row>,
}

/// Runs every seed table. `quick` uses shorter runs (for tests and the UI).
pub fn validate_all(_quick: bool) -> Vec<Table> {
    Vec::new()
}
