//! The seed experiments' tables: reported figures beside simulated ones, and the verdict.
//!
//! For every row of every seed table (presets.rs) the simulation runs the row's config
//! and reports the metric beside the mean of the reported runs. What must match is the
//! relative change against the table's first row (seed-measurements.md): a row passes
//! when the simulated change has the reported sign and is within 0.5x to 1.5x of the
//! reported size. Rows without reported figures are predictions: shown, never judged.
//! `quick` shortens the pipe runs (a tenth of the loops, the same for every row, which
//! keeps relative changes comparable). It leaves iperf alone: a quarter second is mostly
//! the streams' start-up transient, which hides the steady-state difference.

use serde::{Deserialize, Serialize};

use super::config::{Config, WorkloadKind};
use super::presets::{row_config, PRESETS};
use super::Metrics;

/// One row of a seed table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// The counters that explain the row.
    pub context_switches: u64,
    pub timer_reprograms: u64,
    pub ipis: u64,
    pub refill_s: f64,
    pub user_s: f64,
    pub sys_s: f64,
}

/// One seed experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub preset: String,
    pub title: String,
    pub source: String,
    pub metric: String,
    pub unit: String,
    pub rows: Vec<Row>,
}

/// The verdict rule: same sign, size within 0.5x..1.5x of the reported change.
pub fn judge(reported_change: f64, simulated_change: f64) -> bool {
    if reported_change == 0.0 {
        return simulated_change.abs() < 0.01;
    }
    let ratio = simulated_change / reported_change;
    (0.5..=1.5).contains(&ratio)
}

/// Shortens a config for quick validation (the same factor on every row of a table).
pub fn quicken(mut c: Config) -> Config {
    if c.workload == WorkloadKind::Pipe {
        c.loops = (c.loops / 10).max(1);
    }
    c
}

fn metric_of(m: &Metrics, key: &str) -> f64 {
    match key {
        "elapsed_s" => m.elapsed_s,
        _ => m.throughput,
    }
}

/// Runs one seed table.
pub fn validate_preset(name: &str, quick: bool) -> Option<Table> {
    let p = super::presets::preset(name)?;
    let t = p.table?;
    let mut rows: Vec<Row> = Vec::new();
    let mut base_sim = 0.0;
    let mut base_rep = 0.0;
    for (i, r) in t.rows.iter().enumerate() {
        let mut cfg = row_config(p, r);
        if quick {
            cfg = quicken(cfg);
        }
        let out = super::run(&cfg, None).ok()?;
        let sim = metric_of(&out.metrics, t.metric);
        let rep = (!r.reported.is_empty()).then(|| r.reported.iter().sum::<f64>() / r.reported.len() as f64);
        if i == 0 {
            base_sim = sim;
            base_rep = rep.unwrap_or(0.0);
        }
        let sim_change = if base_sim == 0.0 { 0.0 } else { sim / base_sim - 1.0 };
        let rep_change = rep.map(|v| if base_rep == 0.0 { 0.0 } else { v / base_rep - 1.0 });
        let pass = match (i, rep_change) {
            (0, _) | (_, None) => None,
            (_, Some(rc)) => Some(judge(rc, sim_change)),
        };
        let m = &out.metrics;
        rows.push(Row {
            label: r.label.to_string(),
            sets: r.sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            reported: rep,
            simulated: sim,
            reported_change: if i == 0 { None } else { rep_change },
            simulated_change: if i == 0 { 0.0 } else { sim_change },
            pass,
            context_switches: m.context_switches,
            timer_reprograms: m.timer_reprograms,
            ipis: m.ipis,
            refill_s: m.overhead_s.get("refill").copied().unwrap_or(0.0),
            user_s: m.user_s,
            sys_s: m.sys_s,
        });
    }
    Some(Table {
        preset: p.name.to_string(),
        title: t.title.to_string(),
        source: t.source.to_string(),
        metric: t.metric.to_string(),
        unit: t.unit.to_string(),
        rows,
    })
}

/// Runs every seed table. `quick` uses shorter runs (for tests and the UI).
pub fn validate_all(quick: bool) -> Vec<Table> {
    PRESETS.iter().filter(|p| p.table.is_some()).filter_map(|p| validate_preset(p.name, quick)).collect()
}

#[cfg(test)]
mod tests {
    use super::judge;

    #[test]
    fn judge_needs_sign_and_size() {
        assert!(judge(-0.19, -0.19));
        assert!(judge(-0.19, -0.10));
        assert!(!judge(-0.19, -0.09));
        assert!(!judge(-0.19, 0.19));
        assert!(judge(0.144, 0.2));
        assert!(!judge(0.144, 0.22));
    }
}
