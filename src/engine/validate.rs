//! The seed experiments' and the corpus's tables: reported figures beside simulated ones, and the verdict.
//!
//! RUN LENGTH. Each row runs as its source ran it, or long enough to show it does not
//! matter (`tables::Length`, `measure`): `Source` runs the preset as it is (the source's own
//! loops or duration); `Iterations` (hackbench) runs the source's loops to the end once per
//! seed, the source's iterations for a small row and one for a large one (`task_loops`
//! against the table's `one_above`); `Doubling` (iperf, token) runs the preset's length and
//! twice it, doubling again until every judged figure per unit of work moves < 2%. Every
//! validation run has the largest event budget (`config::MAX_EVENTS`), and each row shows
//! the length used, the change measured and its stop reason. `quick` (the page) runs
//! shortened rows and compares growing columns with the same share of the reported figure;
//! such verdicts are marked as needing the full run. The full run's rows are independent
//! jobs (`row_jobs`, `measure_part`, `assemble`; each iteration of an `Iterations` row is its
//! own job, combined by `combine_parts`): the CLI runs them on every core
//! (`validate_all_with`) and gets the same tables in any order.
//!
//! Why hackbench runs at length (issue 27, session 25). Its rows used to stop once the time
//! per loop over the last half of the work differed by under 2% from the quarter before
//! (past 1,000 of mmtests' 10,000 loops) and extrapolate the rest at that rate
//! (`window_change`, kept for `examples/steady_probe.rs`). Full-length runs of the same
//! configs showed the extrapolation biased, not just noisy: the runs change regime later
//! (Zen 3 at 7 groups +13.9% over three seeds; the CascadeLake vanilla row at 141 groups
//! +9.4% and, seed 21, its patch's gain -17.3% at length against -11.8% extrapolated;
//! BENCHMARKS.md, "hackbench at its length"). All three iterations of every row at length
//! would be ~175 G events (about two hours on two cores), so a row above `one_above` runs
//! one iteration: the source's three are kept where the seeds disagree (1 group is bimodal
//! by seed) and the large rows' seeds agree within ~1.5%.
//!
//! The corpus tables (`corpus.rs`) are judged the same way, with two additions: a row is
//! measured against its own `vs` row (a hackbench row with the patch against the vanilla
//! row of the same size), and a reported change under the table's `noise` passes on the
//! reported sign or on no effect (`judge_noisy`).
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
//!
//! Over 800 lines with its tests (about 690 of code): the rules that judge a row and the
//! jobs that measure it are read together.

use serde::{Deserialize, Serialize};

use super::config::{Config, WorkloadKind};
use super::presets::{row_config, Preset, PRESETS};
use super::tables::{Length, SeedColumn};
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// The length the row ran (`Measured::length`).
    #[serde(default)]
    pub length: String,
    /// The change of its figure per unit of work when the run doubled (None: at length).
    #[serde(default)]
    pub convergence: Option<f64>,
    /// Why its run stopped (`Measured::stop_reason`).
    #[serde(default)]
    pub stop_reason: String,
    /// A quick run: the verdict needs the full `validate`.
    #[serde(default)]
    pub needs_full_run: bool,
    /// A failing row's diagnosed cause (`tables::Miss::text`); None while it passes, and
    /// for a miss nobody has diagnosed.
    #[serde(default)]
    pub miss: Option<String>,
}

impl Row {
    /// A failing row's cause as `validate` and the Experiments view print it: the diagnosed
    /// one, else that none is known (at a quick run's length, or at all).
    pub fn cause(&self) -> &str {
        match (&self.miss, self.needs_full_run) {
            (Some(m), _) => m,
            (None, true) => "none diagnosed at this length.",
            (None, false) => "not diagnosed yet.",
        }
    }
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

/// Columns whose figure grows with the work done (a run of twice the loops has twice the
/// figure): compared per unit of work when a run's length is checked, and scaled to the
/// source's length.
fn scales_with_length(key: &str) -> bool {
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

/// The change in a figure per unit of work under which a run counts as settled (the issue's
/// "moves less than 2% when the run doubles").
pub const SETTLED: f64 = 0.02;
/// Doublings a `Length::Doubling` run may take (1x, 2x, 4x, 8x the preset's length).
const MAX_DOUBLINGS: u32 = 3;

/// One row's run, measured as its table's `Length` asks (or as `quick` shortens it).
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The metrics of the (longest) run.
    pub metrics: Metrics,
    /// Per table column, the simulated figure at the source's length (`quick`: the run's own).
    pub figures: Vec<f64>,
    /// `quick` only: the factor the reported figures of growing columns are compared at
    /// (the run's share of the source's work); 1 otherwise.
    pub reported_scale: f64,
    /// The length used, for the reader ("10000 loops (the source's)").
    pub length: String,
    /// The change of the figure per unit of work when the run doubled (None: run at length).
    pub convergence: Option<f64>,
    /// Why the run stopped: `completed`, `time_limit`, `event_budget`.
    pub stop_reason: String,
    /// `quick` shortened the run or skipped its length check: the verdict needs the full run.
    pub needs_full_run: bool,
}

/// The unit of work a config's length counts: its loops, or its duration for a
/// time-limited workload, with the amount.
fn units(c: &Config) -> (&'static str, u64) {
    match c.workload {
        WorkloadKind::Pipe | WorkloadKind::Token | WorkloadKind::Hackbench => ("loops", c.loops),
        _ => ("ns", c.duration),
    }
}

fn with_units(mut c: Config, n: u64) -> Config {
    match units(&c).0 {
        "loops" => c.loops = n,
        _ => c.duration = n.min(super::config::MAX_DURATION),
    }
    c
}

fn units_text(key: &str, n: u64) -> String {
    if key == "loops" {
        format!("{n} loops")
    } else {
        super::time::format_duration(n)
    }
}

fn stop_text(m: &Metrics) -> String {
    match m.stop_reason {
        Some(super::metrics::StopReason::Completed) => "completed",
        Some(super::metrics::StopReason::TimeLimit) => "time_limit",
        Some(super::metrics::StopReason::EventBudget) => "event_budget",
        None => "-",
    }
    .into()
}

/// Runs `c` with the largest event budget (`config::MAX_EVENTS`): a validation run stops on
/// its work or its duration, never on the budget.
fn run_full(mut c: Config) -> Option<Metrics> {
    c.max_events = super::config::MAX_EVENTS;
    super::run(&c, None).ok().map(|o| o.metrics)
}

/// How much the time per unit of work changed between the last half of the work done
/// and the quarter before it (`samples`: (work done, time), in order), if both windows hold work.
pub fn window_change(samples: &[(u64, u64)]) -> Option<(f64, f64)> {
    let &(w, t) = samples.last()?;
    let at = |target: u64| samples.iter().find(|s| s.0 >= target).copied();
    let (wh, th) = at(w / 2)?;
    let (wq, tq) = at(w / 4)?;
    if !(w > wh && wh > wq) {
        return None;
    }
    let late = (t - th) as f64 / (w - wh) as f64;
    let early = (th - tq) as f64 / (wh - wq) as f64;
    (early > 0.0).then(|| ((late / early - 1.0).abs(), late))
}

/// One iteration of a `Length::Iterations` row: the source's `loops`, run to the end.
fn run_at_length(mut c: Config, loops: u64, columns: &[SeedColumn]) -> Option<Measured> {
    c.loops = loops;
    let m = run_full(c)?;
    Some(Measured {
        figures: columns.iter().map(|col| metric_of(&m, col.key)).collect(),
        reported_scale: 1.0,
        length: format!("{loops} loops (the source's)"),
        convergence: None,
        stop_reason: stop_text(&m),
        needs_full_run: false,
        metrics: m,
    })
}

/// A run's size as `Length::Iterations` weighs it: its tasks (a hackbench row's groups x
/// 40 and the parent; 2 otherwise) times `units` of work.
pub fn task_loops(c: &Config, units: u64) -> u64 {
    let tasks = if c.workload == WorkloadKind::Hackbench { 1 + 40 * u64::from(c.groups) } else { 2 };
    tasks.saturating_mul(units)
}

/// The source's `iterations` runs of a row (its config with seeds `seed`, `seed + 1`, ...),
/// each measured by `one`: the figures are their mean, the metrics the first run's, the
/// convergence the largest change (if any), and the row is unsettled if any run is.
fn run_iterations(c: Config, iterations: u32, one: impl Fn(Config) -> Option<Measured>) -> Option<Measured> {
    let n = iterations.max(1);
    let runs: Vec<Option<Measured>> = (0..n).map(|k| one(iteration_config(&c, k))).collect();
    combine_iterations(c.seed, runs)
}

/// Iteration `k` of a row: its config with the seed `k` after the row's.
fn iteration_config(c: &Config, k: u32) -> Config {
    let mut ck = c.clone();
    ck.seed = c.seed.wrapping_add(u64::from(k));
    ck
}

/// The row of `runs` (iteration k ran with seed `seed + k`; see `run_iterations`), or None
/// if any run failed.
fn combine_iterations(seed: u64, runs: Vec<Option<Measured>>) -> Option<Measured> {
    let runs: Vec<Measured> = runs.into_iter().collect::<Option<_>>()?;
    let n = u32::try_from(runs.len()).ok().filter(|&n| n > 0)?;
    if n == 1 {
        return runs.into_iter().next();
    }
    let seeds = format!("seeds {} to {}", seed, seed.wrapping_add(u64::from(n - 1)));
    let figures =
        (0..runs[0].figures.len()).map(|i| runs.iter().map(|r| r.figures[i]).sum::<f64>() / f64::from(n)).collect();
    let convergence = runs.iter().filter_map(|r| r.convergence).reduce(f64::max);
    let unsettled = runs.iter().any(|r| r.stop_reason == "unsettled");
    let each = runs.iter().map(|r| r.length.as_str()).collect::<Vec<_>>().join("; ");
    let spread: Vec<String> =
        runs.iter().map(|r| format!("{:.4}", r.figures.first().copied().unwrap_or(0.0))).collect();
    let mut first = runs.into_iter().next()?;
    first.length = format!("mean of {n} iterations ({seeds}: {}); {}", spread.join(" / "), each);
    first.figures = figures;
    first.convergence = convergence;
    if unsettled {
        first.stop_reason = "unsettled".into();
    }
    Some(first)
}

/// `Length::Doubling`: the preset's length, doubled until every judged figure per unit of
/// work moves less than `SETTLED`.
fn run_doubling(c: Config, source: u64, columns: &[SeedColumn], judged: &[bool]) -> Option<Measured> {
    let (key, base) = units(&c);
    let per_unit = |m: &Metrics, n: u64| -> Vec<f64> {
        columns
            .iter()
            .map(|col| metric_of(m, col.key) / if scales_with_length(col.key) { n as f64 } else { 1.0 })
            .collect()
    };
    let mut n = base.max(1);
    let mut m = run_full(with_units(c.clone(), n))?;
    let mut per = per_unit(&m, n);
    let mut change = f64::INFINITY;
    for _ in 0..MAX_DOUBLINGS {
        let n2 = n.saturating_mul(2);
        let m2 = run_full(with_units(c.clone(), n2))?;
        let per2 = per_unit(&m2, n2);
        change = per
            .iter()
            .zip(&per2)
            .zip(judged)
            .filter(|(_, &j)| j)
            .map(|((a, b), _)| if *a == 0.0 { 0.0 } else { (b / a - 1.0).abs() })
            .fold(0.0, f64::max);
        (n, m, per) = (n2, m2, per2);
        if change < SETTLED {
            break;
        }
    }
    let target = if source > 0 { source } else { n };
    let figures = columns
        .iter()
        .zip(&per)
        .map(|(col, p)| if scales_with_length(col.key) { p * target as f64 } else { *p })
        .collect();
    let mut length = format!("{} and {} (doubled)", units_text(key, n / 2), units_text(key, n));
    if source > 0 && source != n && columns.iter().any(|c| scales_with_length(c.key)) {
        length.push_str(&format!(", per unit at the source's {}", units_text(key, source)));
    }
    if change >= SETTLED {
        length.push_str(", not settled");
    }
    Some(Measured {
        figures,
        reported_scale: 1.0,
        length,
        convergence: Some(change),
        stop_reason: stop_text(&m),
        needs_full_run: false,
        metrics: m,
    })
}

/// Runs row `i` of preset `p`'s table: as its `Length` asks, or (`quick`) shortened as
/// the page runs it, with the reported figures of growing columns compared at the same
/// share of the source's work (the verdict then needs the full run).
pub fn measure(p: &Preset, i: usize, quick: bool) -> Option<Measured> {
    let t = p.table?;
    let r = t.rows.get(i)?;
    let cfg = row_config(p, r);
    let judged: Vec<bool> = (0..t.columns.len()).map(|k| r.reported.get(k).is_some_and(|v| !v.is_empty())).collect();
    if quick {
        let (key, preset_units) = units(&cfg);
        let source = match t.length {
            Length::Iterations { loops, .. } => loops,
            _ => preset_units,
        };
        let q = quicken(cfg);
        let ran = units(&q).1;
        let m = run_full(q)?;
        let shortened = ran != source;
        return Some(Measured {
            figures: t.columns.iter().map(|col| metric_of(&m, col.key)).collect(),
            reported_scale: if shortened && key == "loops" && source > 0 { ran as f64 / source as f64 } else { 1.0 },
            length: if shortened {
                format!("{} of {} (quick)", units_text(key, ran), units_text(key, source))
            } else {
                format!("{} (quick)", units_text(key, ran))
            },
            convergence: None,
            stop_reason: stop_text(&m),
            needs_full_run: shortened || !matches!(t.length, Length::Source),
            metrics: m,
        });
    }
    match t.length {
        Length::Source => {
            let (key, n) = units(&cfg);
            let cfg_is_build = cfg.workload == WorkloadKind::Kbuild;
            let m = run_full(cfg)?;
            Some(Measured {
                figures: t.columns.iter().map(|col| metric_of(&m, col.key)).collect(),
                reported_scale: 1.0,
                length: if cfg_is_build {
                    "the whole build (the source's)".into()
                } else {
                    format!("{} (the source's)", units_text(key, n))
                },
                convergence: None,
                stop_reason: stop_text(&m),
                needs_full_run: false,
                metrics: m,
            })
        }
        Length::Iterations { loops, .. } => {
            let n = parts(&t, &cfg, false);
            run_iterations(cfg, n, |c| run_at_length(c, loops, t.columns))
        }
        Length::Doubling { source } => run_doubling(cfg, source, t.columns, &judged),
    }
}

/// One measurement to make: the unit the CLI spreads over threads. A row is one job, or one
/// per iteration of a `Length::Iterations` row in the full run (`parts`), so that the
/// iterations of the largest rows run side by side instead of one after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowJob {
    pub preset: &'static str,
    pub row: usize,
    /// Which of the row's `parts` this job measures (`measure_part`).
    pub part: u32,
    /// How many jobs measure the row (`parts`); `assemble` combines them.
    pub parts: u32,
    /// A rough size (simulated tasks x units of work), to start the largest jobs first.
    pub cost: u64,
}

/// How many independent runs measure a row of `t` whose config is `c`: in the full run, a
/// `Length::Iterations` row's iterations (each its own seed, `run_iterations`): the
/// source's, or one for a row larger than `one_above` (`task_loops`); else 1.
pub fn parts(t: &super::tables::SeedTable, c: &Config, quick: bool) -> u32 {
    match (quick, t.length) {
        (false, Length::Iterations { loops, one_above, .. }) if task_loops(c, loops) > one_above => 1,
        (false, Length::Iterations { iterations, .. }) => iterations.max(1),
        _ => 1,
    }
}

/// Part `k` of row `i`'s measurement (`parts`): iteration `k` of a `Length::Iterations` row
/// in the full run (the row's config with seed + k), else (k = 0) the whole `measure`.
/// `combine_parts` of every part is `measure`.
pub fn measure_part(p: &Preset, i: usize, quick: bool, k: u32) -> Option<Measured> {
    let t = p.table?;
    match (quick, t.length) {
        (false, Length::Iterations { loops, .. }) => {
            let cfg = row_config(p, t.rows.get(i)?);
            (k < parts(&t, &cfg, quick)).then(|| run_at_length(iteration_config(&cfg, k), loops, t.columns))?
        }
        _ => (k == 0).then(|| measure(p, i, quick))?,
    }
}

/// Row `i`'s measurement from its parts (`measure_part` for k = 0, 1, ..., in order).
pub fn combine_parts(p: &Preset, i: usize, parts: Vec<Option<Measured>>) -> Option<Measured> {
    let seed = row_config(p, p.table?.rows.get(i)?).seed;
    combine_iterations(seed, parts)
}

/// Every measurement `validate_all(quick)` makes, in table order (seeds, then corpus), a
/// row's parts together.
pub fn row_jobs(quick: bool) -> Vec<RowJob> {
    let mut jobs = Vec::new();
    for name in table_presets() {
        let Some(p) = super::presets::preset(name) else { continue };
        let Some(t) = p.table else { continue };
        for (i, r) in t.rows.iter().enumerate() {
            if quick && !t.quick_rows.is_empty() && !t.quick_rows.contains(&i) {
                continue;
            }
            let c = row_config(p, r);
            let parts = parts(&t, &c, quick);
            let work = match (quick, t.length) {
                (false, Length::Iterations { loops, .. }) => loops,
                _ => units(&c).1 / if units(&c).0 == "loops" { 1 } else { 1_000_000 },
            };
            for part in 0..parts {
                jobs.push(RowJob { preset: p.name, row: i, part, parts, cost: task_loops(&c, work) });
            }
        }
    }
    jobs
}

/// Measures one job (`measure_part`).
pub fn measure_job(j: &RowJob, quick: bool) -> Option<Measured> {
    measure_part(super::presets::preset(j.preset)?, j.row, quick, j.part)
}

/// The tables of `jobs` (as `row_jobs` lists them) from their measurements, in order: a
/// row's parts are combined (`combine_parts`).
pub fn assemble(jobs: &[RowJob], measured: Vec<Option<Measured>>) -> Vec<Table> {
    let mut tables = Vec::new();
    let mut measured = measured.into_iter();
    let mut k = 0;
    while k < jobs.len() {
        let name = jobs[k].preset;
        let mut rows = Vec::new();
        while k < jobs.len() && jobs[k].preset == name {
            let row = jobs[k].row;
            let mut parts = Vec::new();
            while k < jobs.len() && jobs[k].preset == name && jobs[k].row == row {
                parts.push(measured.next().flatten());
                k += 1;
            }
            let m = if parts.len() == 1 {
                parts.pop().flatten()
            } else {
                super::presets::preset(name).and_then(|p| combine_parts(p, row, parts))
            };
            rows.push((row, m));
        }
        if let Some(t) = table_of(name, rows) {
            tables.push(t);
        }
    }
    tables
}

/// `validate_all` with the row runs done by `run_rows` (the CLI runs them on every core);
/// `run_rows` answers one measurement per job, in the jobs' order.
pub fn validate_all_with(quick: bool, run_rows: impl FnOnce(&[RowJob]) -> Vec<Option<Measured>>) -> Vec<Table> {
    let jobs = row_jobs(quick);
    let measured = run_rows(&jobs);
    assemble(&jobs, measured)
}

/// One table from its rows' measurements ((row index, measurement), in row order).
fn table_of(name: &str, measured: Vec<(usize, Option<Measured>)>) -> Option<Table> {
    let p = super::presets::preset(name)?;
    let t = p.table?;
    let mut rows: Vec<Row> = Vec::new();
    // Per table row: its (reported, simulated) per column, once run.
    let mut figures: Vec<Option<Vec<Figures>>> = vec![None; t.rows.len()];
    for (i, me) in measured {
        let r = &t.rows[i];
        let me = me?;
        let m = &me.metrics;
        let baseline = r.vs == i;
        let own: Vec<Figures> = t
            .columns
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let scaled = if scales_with_length(c.key) { me.reported_scale } else { 1.0 };
                (r.reported.get(k).and_then(|runs| mean(runs)).map(|v| v * scaled), me.figures[k])
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
        let pass = (!judged.is_empty()).then(|| judged.iter().all(|&p| p));
        let miss =
            if pass == Some(false) { t.misses.iter().find(|m| m.rows.contains(&i)).map(|m| m.text()) } else { None };
        let head = &cells[0];
        rows.push(Row {
            label: r.label.to_string(),
            sets: r.sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            reported: head.reported,
            simulated: head.simulated,
            reported_change: head.reported_change,
            simulated_change: head.simulated_change,
            pass,
            vs: t.rows[r.vs].label.to_string(),
            cells,
            context_switches: m.context_switches,
            timer_reprograms: m.timer_reprograms,
            ipis: m.ipis,
            refill_s: m.overhead_s.get("refill").copied().unwrap_or(0.0),
            user_s: m.user_s,
            sys_s: m.sys_s,
            length: me.length.clone(),
            convergence: me.convergence,
            stop_reason: me.stop_reason.clone(),
            needs_full_run: me.needs_full_run,
            miss,
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

/// Runs one seed or corpus table, row after row.
pub fn validate_preset(name: &str, quick: bool) -> Option<Table> {
    let p = super::presets::preset(name)?;
    let t = p.table?;
    let rows = (0..t.rows.len())
        .filter(|i| !(quick && !t.quick_rows.is_empty() && !t.quick_rows.contains(i)))
        .map(|i| (i, measure(p, i, quick)))
        .collect();
    table_of(name, rows)
}

/// Runs the seed tables. `quick` uses shorter runs (for tests).
pub fn validate_seeds(quick: bool) -> Vec<Table> {
    tables(quick, false)
}

/// Runs the corpus tables.
pub fn validate_corpus(quick: bool) -> Vec<Table> {
    tables(quick, true)
}

/// Runs every table: the seeds first, then the corpus, one row after another. `quick`
/// uses shorter runs (the UI).
pub fn validate_all(quick: bool) -> Vec<Table> {
    validate_all_with(quick, |jobs| jobs.iter().map(|j| measure_job(j, quick)).collect())
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

    #[test]
    fn a_row_of_several_iterations_is_the_mean_of_one_run_per_seed_and_unsettled_if_any_is() {
        use super::{run_iterations, Measured};
        let c = crate::engine::config::Config { seed: 40, ..Default::default() };
        // Each run's figure is its seed; the seed-41 run does not settle.
        let one = |ck: crate::engine::config::Config| {
            Some(Measured {
                metrics: Default::default(),
                figures: vec![ck.seed as f64, 2.0 * ck.seed as f64],
                reported_scale: 1.0,
                length: format!("run {}", ck.seed),
                convergence: Some(ck.seed as f64 / 1000.0),
                stop_reason: if ck.seed == 41 { "unsettled" } else { "steady" }.into(),
                needs_full_run: false,
            })
        };
        let m = run_iterations(c.clone(), 3, one).unwrap();
        assert_eq!(m.figures, vec![41.0, 82.0], "the mean of seeds 40, 41 and 42");
        assert_eq!(m.stop_reason, "unsettled");
        assert_eq!(m.convergence, Some(0.042), "the largest change of the three");
        assert!(
            m.length.starts_with("mean of 3 iterations (seeds 40 to 42: 40.0000 / 41.0000 / 42.0000)"),
            "{}",
            m.length
        );
        assert!(m.length.contains("run 40; run 41; run 42"), "{}", m.length);
        // One iteration is the run itself.
        let single = run_iterations(c, 1, one).unwrap();
        assert_eq!((single.figures, single.length.as_str()), (vec![40.0, 80.0], "run 40"));
        // A run that fails fails the row.
        assert!(run_iterations(crate::engine::config::Config::default(), 3, |_| None).is_none());
    }

    /// A fake measurement of iteration `seed`: its figure is its seed.
    fn fake(seed: u64) -> super::Measured {
        super::Measured {
            metrics: Default::default(),
            figures: vec![seed as f64],
            reported_scale: 1.0,
            length: format!("run {seed}"),
            convergence: None,
            stop_reason: "completed".into(),
            needs_full_run: false,
        }
    }

    #[test]
    fn the_full_run_measures_each_iteration_of_a_small_row_as_its_own_job_and_a_large_row_once() {
        use super::{row_jobs, RowJob};
        let of = |quick: bool, preset: &str| -> Vec<RowJob> {
            row_jobs(quick).into_iter().filter(|j| j.preset == preset).collect()
        };
        let name = "hackbench-wakeup-gran-clx";
        let p = crate::engine::presets::preset(name).unwrap();
        let t = p.table.unwrap();
        let full = of(false, name);
        // Rows up to 30 groups (12.0 M task-loops) run mmtests' 3 iterations; from 48 groups
        // (19.2 M) one: the 15 M bound between them.
        let mut k = 0;
        for (i, r) in t.rows.iter().enumerate() {
            let groups = crate::engine::presets::row_config(p, r).groups;
            let n = if groups <= 30 { 3 } else { 1 };
            for part in 0..n {
                let j = full[k];
                assert_eq!((j.row, j.part, j.parts), (i, part, n), "{groups} groups: {j:?}");
                k += 1;
            }
        }
        assert_eq!(k, full.len());
        assert!(t.rows.iter().any(|r| crate::engine::presets::row_config(p, r).groups >= 48), "both kinds exist");
        // The parts of a row cost the same; a larger row costs more.
        assert_eq!(full[0].cost, full[2].cost);
        assert!(full.last().unwrap().cost > full[0].cost);
        // Quick runs, and tables that are not `Iterations`, are one job per row.
        assert!(of(true, name).iter().all(|j| (j.part, j.parts) == (0, 1)));
        assert!(of(false, "token-governors").iter().all(|j| (j.part, j.parts) == (0, 1)));
        // A part past the row's iterations measures nothing (row 0: 1 group, 3 iterations).
        assert!(super::measure_part(p, 0, false, 3).is_none());
        let last = t.rows.len() - 1;
        assert!(super::measure_part(p, last, false, 1).is_none(), "296 groups run one iteration");
        assert!(super::measure_part(crate::engine::presets::preset("token-governors").unwrap(), 0, false, 1).is_none());
    }

    /// One iteration of a hackbench row runs the source's loops to the end: the figure is the
    /// whole run's time, not an extrapolation, and the same as a plain run of that config.
    #[test]
    fn an_iteration_runs_the_sources_loops_to_the_end() {
        let p = crate::engine::presets::preset("hackbench-wakeup-gran-clx").unwrap();
        let t = p.table.unwrap();
        let mut c = crate::engine::presets::row_config(p, &t.rows[0]);
        c.groups = 1;
        let m = super::run_at_length(c.clone(), 300, t.columns).unwrap();
        assert_eq!(
            (m.length.as_str(), m.stop_reason.as_str(), m.convergence),
            ("300 loops (the source's)", "completed", None)
        );
        c.loops = 300;
        c.max_events = crate::engine::config::MAX_EVENTS;
        let plain = crate::engine::run(&c, None).unwrap().metrics;
        assert_eq!(m.figures, vec![plain.elapsed_s]);
    }

    #[test]
    fn a_rows_parts_are_combined_as_its_iterations_run_in_one_job_would_be() {
        use super::{assemble, row_jobs, run_iterations};
        let name = "hackbench-wakeup-gran-zen3";
        let p = crate::engine::presets::preset(name).unwrap();
        let jobs: Vec<_> = row_jobs(false).into_iter().filter(|j| j.preset == name).collect();
        // Each job's measurement is the one of its seed, as if it had run.
        let seed_of = |j: &super::RowJob| crate::engine::presets::row_config(p, &p.table.unwrap().rows[j.row]).seed;
        let measured = jobs.iter().map(|j| Some(fake(seed_of(j) + u64::from(j.part)))).collect();
        let tables = assemble(&jobs, measured);
        assert_eq!(tables.len(), 1);
        let t = &tables[0];
        assert_eq!(t.rows.len(), p.table.unwrap().rows.len());
        for (i, row) in t.rows.iter().enumerate() {
            let c = crate::engine::presets::row_config(p, &p.table.unwrap().rows[i]);
            let n = super::parts(&p.table.unwrap(), &c, false);
            let whole = run_iterations(c.clone(), n, |ck| Some(fake(ck.seed))).unwrap();
            assert_eq!(row.simulated, whole.figures[0], "row {i}");
            let mean = if n == 3 { c.seed as f64 + 1.0 } else { c.seed as f64 };
            assert_eq!(row.simulated, mean, "the mean of seeds s, s+1, s+2, or seed s alone (row {i})");
            assert_eq!(row.length, whole.length);
            assert_eq!((row.convergence, row.stop_reason.as_str()), (whole.convergence, "completed"));
        }
        // A failed part fails its row (and so the table, as a failed row does).
        let mut measured: Vec<_> = jobs.iter().map(|j| Some(fake(seed_of(j) + u64::from(j.part)))).collect();
        measured[1] = None;
        assert!(assemble(&jobs, measured).is_empty());
    }

    #[test]
    fn a_run_is_steady_only_when_its_last_half_keeps_the_pace_of_the_quarter_before() {
        // `window_change` is the steady_probe example's measure (it no longer stops a row).
        use super::window_change;
        // 1 us per unit of work throughout: no change.
        let even: Vec<(u64, u64)> = (1..=64).map(|w| (w * 100, w * 100_000)).collect();
        let (change, rate) = window_change(&even).unwrap();
        assert!(change < 1e-9 && (rate - 1000.0).abs() < 1e-9, "{change} {rate}");
        // The 48-group CascadeLake shape: 0.36 ms a loop, then 0.5 from a third of the way:
        // the last half is slower than the quarter before it by far more than 2%.
        let mut t = 0;
        let shifted: Vec<(u64, u64)> = (1..=64)
            .map(|w| {
                t += if w < 24 { 360 } else { 500 };
                (w, t)
            })
            .collect();
        assert!(window_change(&shifted).unwrap().0 > super::SETTLED);
        // Too few samples to have two windows.
        assert_eq!(window_change(&[(10, 100)]), None);
    }

    #[test]
    fn the_full_run_doubles_a_row_until_it_settles_and_quick_says_it_needs_the_full_run() {
        let p = crate::engine::presets::preset("token-governors").unwrap();
        let full = super::measure(p, 1, false).unwrap();
        assert_eq!(full.length, "20000 loops and 40000 loops (doubled)");
        assert!(full.convergence.is_some_and(|c| c < super::SETTLED), "{:?}", full.convergence);
        assert_eq!((full.stop_reason.as_str(), full.needs_full_run), ("completed", false));
        let quick = super::measure(p, 1, true).unwrap();
        assert!(quick.needs_full_run && quick.convergence.is_none(), "{quick:?}");
        assert_eq!(quick.length, "2000 loops of 20000 loops (quick)");
    }

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
