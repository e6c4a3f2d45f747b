//! The seed and corpus tables' types: rows of config changes with the figures their source
//! reported, the columns compared, and how long `validate` runs a row.
//!
//! Data types only, below both the tables' owners: `presets` (the seed experiments, and the
//! list of every preset, which names `corpus`'s) and `corpus` (the validation corpus) build
//! tables of these, `validate` reads them. Nothing here names either owner.

/// One row of a seed table.
#[derive(Clone, Copy, Debug)]
pub struct SeedRow {
    pub label: &'static str,
    /// Config keys set on top of the preset for this row.
    pub sets: &'static [(&'static str, &'static str)],
    /// Per column of the table (in `SeedTable::columns` order), the runs reported on the
    /// list; a row with no figures at all is a prediction of the model.
    pub reported: &'static [&'static [f64]],
    /// The row whose figures this row's change is measured against (0: the table's first
    /// row); a row that is its own `vs` is a baseline.
    pub vs: usize,
}

/// A column the seed reports: the metrics key it is compared with.
#[derive(Clone, Copy, Debug)]
pub struct SeedColumn {
    /// The metrics key (`elapsed_s`, `user_s`, `sys_s`, `cpu_percent`, `throughput`).
    pub key: &'static str,
    /// The seed's own name for it (`real`, `sys`, `CPU`).
    pub label: &'static str,
    pub unit: &'static str,
}

/// A seed experiment's table.
#[derive(Clone, Copy, Debug)]
pub struct SeedTable {
    pub title: &'static str,
    /// Where it was reported.
    pub source: &'static str,
    /// Every column the seed reports; the first is the table's headline metric.
    pub columns: &'static [SeedColumn],
    pub rows: &'static [SeedRow],
    /// A table of the validation corpus (`corpus.rs`) rather than a seed.
    pub corpus: bool,
    /// A reported change smaller than this is the benchmark's noise: the row then passes on
    /// the reported sign or on no effect (`validate::judge_noisy`); 0 for the seeds.
    pub noise: f64,
    /// How long the full `validate` runs each row (`validate::measure`).
    pub length: Length,
    /// The rows `--quick` runs (each with its `vs`); empty: all.
    pub quick_rows: &'static [usize],
    /// How the table is judged and what it assumes, for the reader.
    pub notes: &'static str,
    /// The diagnosed misses: why a row the full `validate` fails misses (empty: none
    /// diagnosed). `validate` puts the cause on a failing row (`validate::Row::miss`).
    pub misses: &'static [Miss],
}

/// A diagnosed miss: rows of a table that the full `validate` fails, what the model lacks
/// for them (a mechanism, or the source a figure needs), and the BENCHMARKS.md section with
/// the experiment that showed it. Shown under a row only while that row fails; a cause is
/// written from an experiment, never to excuse a row nobody looked at.
#[derive(Clone, Copy, Debug)]
pub struct Miss {
    /// Indices into the table's `rows`.
    pub rows: &'static [usize],
    pub cause: &'static str,
    /// The start of a BENCHMARKS.md section title (a test holds that it exists).
    pub section: &'static str,
}

impl Miss {
    /// The cause as `validate` and the Experiments view print it.
    pub fn text(&self) -> String {
        format!("{} (BENCHMARKS.md, \"{}\").", self.cause, self.section)
    }
}

/// How long the full `validate` runs a table's rows (`validate::measure`): as the source
/// ran them, or until the judged figures per unit of work are shown to have settled
/// (`Doubling`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// The preset is the source's own length (nohz-pipe's 1,000,000 round trips, the whole
    /// build, messaging's 5,000 loops): run as it is.
    Source,
    /// The source ran each row `iterations` times at `loops` and reports their mean
    /// (hackbench: mmtests' 10,000 loops and `HACKBENCH_ITERATIONS` = 3, fresh processes):
    /// each iteration here runs the source's `loops` to the end with the row's config and
    /// the next seed (the row's seed, then +1, +2), and the row's figures are the runs'
    /// mean. A row larger than `one_above` (its tasks x `loops`, `validate::task_loops`)
    /// runs one iteration, its own seed: running every iteration of every row at length
    /// costs more than the full `validate` can spend (see `validate` module doc, RUN
    /// LENGTH). Until issue 27's session 25 these rows stopped once the time per loop had
    /// settled and extrapolated the rest; full-length runs showed that biased.
    Iterations { loops: u64, iterations: u32, one_above: u64 },
    /// The preset's length (its `loops`, or its `duration` for a time-limited workload) and
    /// twice that, doubled again (up to 8x) until every judged figure per unit of work moves
    /// < 2%; the figure is the longest run's, scaled to `source` units of work when the
    /// source states them (0: not stated, the per-unit figure stands).
    Doubling { source: u64 },
}

pub const fn col(key: &'static str, label: &'static str, unit: &'static str) -> SeedColumn {
    SeedColumn { key, label, unit }
}
