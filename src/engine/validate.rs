//! The seed experiments' and the corpus's tables: reported figures beside simulated ones, and the verdict.
//!
//! The corpus tables (`corpus.rs`) are judged the same way, with three additions: a row is
//! measured against its own `vs` row (a hackbench row with the patch against the vanilla
//! row of the same size), a reported change under the table's `noise` passes on the
//! reported sign or on no effect (`judge_noisy`), and a preset that runs fewer loops than
//! the reported experiment (`reported_loops`) compares its absolute times and counts with
//! the same fraction of the reported ones.
//!
//! For every row of every seed table (presets.rs) the simulation runs the row's config
//! and reports, for EVERY column the seed reports (iperf's throughput; rr-kbuild's
//! elapsed, user, system and CPU%; pip1m's real and sys), the simulated figure beside the
//! mean of the reported runs. Two errors per cell:
//! - the relative check: the change against the table's first row (seed-measurements.md).
//!   A cell passes when the simulated change has the reported sign and is within 0.5x to
//!   1.5x of the reported size (`judge`); a row passes when all its judged cells do.
//! - the absolute error: simulated / reported - 1, shown beside it (the target is
//!   within 25%; it is shown, not part of the verdict, since absolute figures depend on
//!   hardware the model only approximates).
//!
//! Rows without reported figures are predictions: shown, never judged.
//! `quick` shortens the pipe runs (a tenth of the loops, the same for every row, which
//! keeps relative changes comparable; absolute pipe times and their errors are then a
//! tenth: the absolute error is computed against a tenth of the reported figure). It
//! leaves iperf alone: a quarter second is mostly the streams' start-up transient, which
//! hides the steady-state difference.

use serde::{Deserialize, Serialize};

use super::config::{Config, WorkloadKind};
use super::presets::{row_config, PRESETS};
use super::Metrics;

/// One column of a seed table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// The metrics key (`elapsed_s`, `user_s`, `sys_s`, `cpu_percent`, `throughput`).
    pub key: String,
    /// The seed's name for it (`real`, `sys`, `CPU`).
    pub label: String,
    pub unit: String,
}

/// One row's figures in one column.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The metrics key of the column.
    pub column: String,
    /// The reported figure (mean of the runs), if the row has one.
    pub reported: Option<f64>,
    pub simulated: f64,
    /// Relative change against the table's first row (0.10 = +10%); None on the first row.
    pub reported_change: Option<f64>,
    /// 0 on the first row.
    pub simulated_change: f64,
    /// The relative check (`judge`); None for the first row and for predictions.
    pub pass: Option<bool>,
    /// Absolute error, simulated / reported - 1 (0.10 = 10% over); None without a reported figure.
    pub abs_error: Option<f64>,
}

/// One row of a seed table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub label: String,
    /// Keys set on top of the preset's config for this row.
    pub sets: Vec<(String, String)>,
    /// The headline column's figures (the first of `cells`), for short views.
    pub reported: Option<f64>,
    pub simulated: f64,
    pub reported_change: Option<f64>,
    pub simulated_change: f64,
    /// The row's verdict: every judged cell passes. None for a baseline and for rows the model predicts.
    pub pass: Option<bool>,
    /// The row its change is measured against (its own label for a baseline).
    pub vs: String,
    /// Every column, in the table's order.
    pub cells: Vec<Cell>,
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
    /// The headline column's key and unit (`columns[0]`).
    pub metric: String,
    pub unit: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// A table of the validation corpus rather than a seed.
    #[serde(default)]
    pub corpus: bool,
    /// How the table is judged and what it assumes.
    #[serde(default)]
    pub notes: String,
}

/// The verdict rule: same sign, size within 0.5x..1.5x of the reported change.
pub fn judge(reported_change: f64, simulated_change: f64) -> bool {
    if reported_change == 0.0 {
        return simulated_change.abs() < 0.01;
    }
    let ratio = simulated_change / reported_change;
    (0.5..=1.5).contains(&ratio)
}

/// The corpus's rule for a noisy benchmark: a reported change under `noise` passes when the
/// simulated one is under `noise` too ("no effect"), or has the reported sign and stays
/// within 1.5 x `noise` (`judge`'s band around a change at the noise level: a 98% change
/// does not pass for having the sign of a reported 0.5%); larger reported changes as `judge`.
pub fn judge_noisy(reported_change: f64, simulated_change: f64, noise: f64) -> bool {
    if reported_change.abs() < noise {
        let same_sign = simulated_change.signum() == reported_change.signum();
        return simulated_change.abs() < noise || (same_sign && simulated_change.abs() <= 1.5 * noise);
    }
    judge(reported_change, simulated_change)
}

/// Shortens a config for quick validation (the same factor on every row of a table): a
/// tenth of the pipe round trips, the token passes and a long hackbench's messages (a
/// short hackbench keeps its loops: fewer would no longer fill a pipe; its table runs
/// fewer rows instead, `SeedTable::quick_rows`).
pub fn quicken(mut c: Config) -> Config {
    let long_hackbench = c.workload == WorkloadKind::Hackbench && c.loops >= 1000;
    if matches!(c.workload, WorkloadKind::Pipe | WorkloadKind::Token) || long_hackbench {
        c.loops = (c.loops / 10).max(1);
    }
    c
}

/// Columns whose figure grows with the loops run (compared with the same fraction of the
/// reported figure when a run is shortened).
fn scales_with_loops(key: &str) -> bool {
    matches!(key, "elapsed_s" | "user_s" | "sys_s" | "context_switches")
}

/// The figure of a table column (`Column::key`) in a run's metrics.
pub fn metric_of(m: &Metrics, key: &str) -> f64 {
    super::metrics::value(m, key).unwrap_or(m.throughput)
}

/// The mean of reported runs (None for none).
fn mean(runs: &[f64]) -> Option<f64> {
    (!runs.is_empty()).then(|| runs.iter().sum::<f64>() / runs.len() as f64)
}

/// A cell's arithmetic: `reported`/`simulated` of this row, `base` = the first row's
/// (reported, simulated), `first` for the first row itself.
pub fn cell(column: &str, reported: Option<f64>, simulated: f64, base: (Option<f64>, f64), first: bool) -> Cell {
    cell_judged(column, reported, simulated, base, first, 0.0)
}

/// `cell` with the table's noise level (`judge_noisy`; 0: `judge`).
pub fn cell_judged(
    column: &str,
    reported: Option<f64>,
    simulated: f64,
    base: (Option<f64>, f64),
    first: bool,
    noise: f64,
) -> Cell {
    let change = |v: f64, b: f64| if b == 0.0 { 0.0 } else { v / b - 1.0 };
    let simulated_change = if first { 0.0 } else { change(simulated, base.1) };
    let reported_change = match (first, reported, base.0) {
        (false, Some(r), Some(b)) => Some(change(r, b)),
        _ => None,
    };
    Cell {
        column: column.to_string(),
        reported,
        simulated,
        reported_change,
        simulated_change,
        pass: reported_change.map(|rc| judge_noisy(rc, simulated_change, noise)),
        abs_error: reported.and_then(|r| (r != 0.0).then(|| simulated / r - 1.0)),
    }
}

/// One cell's (reported, simulated) figures.
type Figures = (Option<f64>, f64);

/// Runs one seed or corpus table.
pub fn validate_preset(name: &str, quick: bool) -> Option<Table> {
    let p = super::presets::preset(name)?;
    let t = p.table?;
    let mut rows: Vec<Row> = Vec::new();
    // Per table row: its (reported, simulated) per column, once run.
    let mut figures: Vec<Option<Vec<Figures>>> = vec![None; t.rows.len()];
    for (i, r) in t.rows.iter().enumerate() {
        if quick && !t.quick_rows.is_empty() && !t.quick_rows.contains(&i) {
            continue;
        }
        let mut cfg = row_config(p, r);
        let full_loops = if t.reported_loops > 0 { t.reported_loops } else { cfg.loops };
        if quick {
            cfg = quicken(cfg);
        }
        // A shortened run does a fraction of the work: compare its absolute figures with
        // the same fraction of the reported ones.
        let scale = if full_loops > 0 && cfg.loops != full_loops && cfg.workload != WorkloadKind::Token {
            cfg.loops as f64 / full_loops as f64
        } else {
            1.0
        };
        let out = super::run(&cfg, None).ok()?;
        let m = &out.metrics;
        let baseline = r.vs == i;
        let own: Vec<Figures> = t
            .columns
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let sim = metric_of(m, c.key);
                let scaled = if scales_with_loops(c.key) { scale } else { 1.0 };
                (r.reported.get(k).and_then(|runs| mean(runs)).map(|v| v * scaled), sim)
            })
            .collect();
        let base = if baseline { own.clone() } else { figures[r.vs].clone()? };
        let cells: Vec<Cell> = t
            .columns
            .iter()
            .enumerate()
            .map(|(k, c)| cell_judged(c.key, own[k].0, own[k].1, base[k], baseline, t.noise))
            .collect();
        figures[i] = Some(own);
        let judged: Vec<bool> = cells.iter().filter_map(|c| c.pass).collect();
        let head = &cells[0];
        rows.push(Row {
            label: r.label.to_string(),
            sets: r.sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            reported: head.reported,
            simulated: head.simulated,
            reported_change: head.reported_change,
            simulated_change: head.simulated_change,
            pass: (!judged.is_empty()).then(|| judged.iter().all(|&p| p)),
            vs: t.rows[r.vs].label.to_string(),
            cells,
            context_switches: m.context_switches,
            timer_reprograms: m.timer_reprograms,
            ipis: m.ipis,
            refill_s: m.overhead_s.get("refill").copied().unwrap_or(0.0),
            user_s: m.user_s,
            sys_s: m.sys_s,
        });
    }
    let head = t.columns[0];
    Some(Table {
        preset: p.name.to_string(),
        title: t.title.to_string(),
        source: t.source.to_string(),
        metric: head.key.to_string(),
        unit: head.unit.to_string(),
        columns: t
            .columns
            .iter()
            .map(|c| Column { key: c.key.to_string(), label: c.label.to_string(), unit: c.unit.to_string() })
            .collect(),
        rows,
        corpus: t.corpus,
        notes: t.notes.to_string(),
    })
}

/// Runs the seed tables. `quick` uses shorter runs (for tests).
pub fn validate_seeds(quick: bool) -> Vec<Table> {
    tables(quick, false)
}

/// Runs the corpus tables.
pub fn validate_corpus(quick: bool) -> Vec<Table> {
    tables(quick, true)
}

/// Runs every table: the seeds first, then the corpus. `quick` uses shorter runs (the UI).
pub fn validate_all(quick: bool) -> Vec<Table> {
    let mut all = validate_seeds(quick);
    all.extend(validate_corpus(quick));
    all
}

/// The presets with a table, in the order `validate_all` runs them (seeds, then corpus).
pub fn table_presets() -> Vec<&'static str> {
    let with = |corpus: bool| PRESETS.iter().filter(move |p| p.table.is_some_and(|t| t.corpus == corpus));
    with(false).chain(with(true)).map(|p| p.name).collect()
}

fn tables(quick: bool, corpus: bool) -> Vec<Table> {
    PRESETS
        .iter()
        .filter(|p| p.table.is_some_and(|t| t.corpus == corpus))
        .filter_map(|p| validate_preset(p.name, quick))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{cell, judge};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn a_cell_has_both_changes_its_verdict_and_its_absolute_error() {
        // pip1m's sys, by hand: reported 6.575 s (mean of 6.60, 6.55) then 5.485 s (mean of
        // 5.45, 5.52): -16.578%; simulated 8.0 s then 7.0 s: -12.5%, ratio 0.754: a pass.
        // Absolute error of the second row: 7.0 / 5.485 - 1 = +27.62%.
        let base = (Some(6.575), 8.0);
        let first = cell("sys_s", Some(6.575), 8.0, base, true);
        assert_eq!((first.reported_change, first.simulated_change, first.pass), (None, 0.0, None));
        assert!(close(first.abs_error.unwrap(), 0.216730038), "{:?}", first.abs_error); // 8 / 6.575 - 1
        let second = cell("sys_s", Some(5.485), 7.0, base, false);
        assert!(close(second.reported_change.unwrap(), -0.165779468), "{:?}", second.reported_change);
        assert!(close(second.simulated_change, -0.125));
        assert_eq!(second.pass, Some(true));
        assert!(close(second.abs_error.unwrap(), 0.276207839), "{:?}", second.abs_error);
        // rr-kbuild's system time: 4.83 -> 4.81 s is -0.414%; a simulated +3% is the wrong sign.
        let sys = cell("sys_s", Some(4.81), 5.15, (Some(4.83), 5.0), false);
        assert!(close(sys.reported_change.unwrap(), -0.004140787));
        assert_eq!(sys.pass, Some(false));
        assert!(close(sys.abs_error.unwrap(), 0.070686071)); // 5.15 / 4.81 - 1
                                                             // A prediction: no reported figure, no verdict, no absolute error.
        let p = cell("elapsed_s", None, 3.0, (Some(4.0), 4.0), false);
        assert_eq!((p.reported_change, p.pass, p.abs_error), (None, None, None));
        assert!(close(p.simulated_change, -0.25));
    }

    #[test]
    fn noise_level_changes_pass_on_sign_or_no_effect() {
        use super::judge_noisy;
        // hackbench, 1 group: the time grows 2.58% with the patch (the table's -2.56% gain),
        // under the 5% noise: a slowdown up to 7.5% passes, no effect passes, a 6% speedup
        // does not, nor a 10% slowdown (far beyond the noise).
        assert!(judge_noisy(0.0258, 0.07, 0.05));
        assert!(!judge_noisy(0.0258, 0.10, 0.05));
        assert!(!judge_noisy(-0.005, -0.985, 0.01), "token: -98.5% is not a -0.5% noise");
        assert!(judge_noisy(0.0258, -0.01, 0.05));
        assert!(!judge_noisy(0.0258, -0.06, 0.05));
        // Above the noise, the usual rule.
        assert!(judge_noisy(-0.23, -0.20, 0.05));
        assert!(!judge_noisy(-0.23, -0.02, 0.05));
    }

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
