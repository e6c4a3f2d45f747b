//! The sweep's model (pure: no yew, no web-sys): `Sweep` (the cells row-major and the
//! further replicas after them; `point_configs` is the job order), planning around a config
//! (`plan_sweep_n`, `with_view` for a 2-D grid and replicas), each cell's statistics
//! (`cell_stats`), the Pareto front, and the notes under a flat or cut sweep.

use std::rc::Rc;

use crate::engine::config::{key_doc, Config, KeyKind, PolicyKind};
use crate::engine::metrics::{self, Metrics};
use crate::share::url::{SweepView, MAX_REPLICAS};
use crate::ui::common::scale::{mapping, SWEEP_POINTS};

/// The result plot across one knob.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// Identity of this sweep: answers for another gen are stale.
    pub gen: u64,
    pub key: &'static str,
    /// The config the sweep varies (its value of `key` is the marked one).
    pub base: Config,
    /// Config text of each point, in order.
    pub values: Vec<String>,
    /// Numeric x of each point (ns for durations), or None for a categorical axis.
    pub xs: Option<Vec<f64>>,
    pub log: bool,
    /// Each point's metrics once it has run (the plot shows their `throughput`; the sweep
    /// CSV writes them all). Shared, so the reducer's copy of the sweep per answer is cheap.
    pub points: Vec<Option<Rc<crate::engine::Metrics>>>,
    pub unit: String,
    pub failed: usize,
    /// The second swept key of a 2-D sweep (a heatmap): `points` is then the grid, row-major
    /// (`values` outer, `values2` inner). See `ui::sweep`.
    pub key2: Option<&'static str>,
    pub values2: Vec<String>,
    /// Seeds per point; replica r > 0 of cell i is `runs[(r - 1) * cells + i]`.
    pub replicas: usize,
    pub runs: Vec<Option<Rc<crate::engine::Metrics>>>,
}

impl Sweep {
    pub fn done(&self) -> usize {
        self.points.iter().chain(&self.runs).filter(|p| p.is_some()).count() + self.failed
    }

    /// How many runs the sweep needs (every cell, every replica).
    pub fn jobs(&self) -> usize {
        self.points.len() + self.runs.len()
    }

    /// The plotted figure of each point (None until it has run).
    pub fn ys(&self) -> Vec<Option<f64>> {
        self.points.iter().map(|p| p.as_ref().map(|m| m.throughput)).collect()
    }

    /// Configs of every run, in job order (the base with `key` set to each value): every
    /// cell (row-major with `key2`), then each further replica of all cells (seed + r).
    pub fn point_configs(&self) -> Vec<Config> {
        let mut cells = Vec::with_capacity(self.points.len());
        for v in &self.values {
            let mut c = self.base.clone();
            let _ = c.set(self.key, v);
            match self.key2 {
                Some(k2) => cells.extend(self.values2.iter().map(|v2| {
                    let mut c2 = c.clone();
                    let _ = c2.set(k2, v2);
                    c2
                })),
                None => cells.push(c),
            }
        }
        (0..self.replicas.max(1))
            .flat_map(|r| {
                cells.iter().map(move |c| {
                    let mut c = c.clone();
                    c.seed = c.seed.wrapping_add(r as u64);
                    c
                })
            })
            .collect()
    }
}

/// Keys a sweep can vary: numeric keys with a slider, booleans and choices (not run
/// parameters like `duration`, `seed` or `max_events`, whose curves explain nothing).
pub fn sweepable(key: &str) -> bool {
    let Some(doc) = key_doc(key) else { return false };
    if matches!(key, "duration" | "seed" | "max_events") {
        return false;
    }
    match doc.kind {
        KeyKind::Int { .. } | KeyKind::Duration { .. } => mapping(doc).is_some(),
        KeyKind::Bool | KeyKind::Choice(_) => true,
        KeyKind::Text => false,
    }
}

/// The key the sweep follows: the preferred one if it can be swept, else the policy's
/// main knob.
pub fn sweep_key(config: &Config, preferred: Option<&'static str>) -> &'static str {
    match preferred {
        Some(k) if sweepable(k) => k,
        _ => match config.policy {
            PolicyKind::Cfs => "sched_latency",
            PolicyKind::Eevdf => "min_granularity",
            PolicyKind::Sd => "rr_interval",
        },
    }
}

/// Plans the sweep of `key` around `config` (all points unknown yet).
pub fn plan_sweep(config: &Config, key: &'static str, gen: u64, unit: Option<String>) -> Option<Sweep> {
    plan_sweep_n(config, key, gen, unit, SWEEP_POINTS)
}

/// `plan_sweep` with about `n` points on a numeric axis (fewer for a heatmap's axes).
pub fn plan_sweep_n(config: &Config, key: &'static str, gen: u64, unit: Option<String>, n: usize) -> Option<Sweep> {
    let doc = key_doc(key)?;
    let current = config.get(key)?;
    let (values, xs, log): (Vec<String>, Option<Vec<f64>>, bool) = match doc.kind {
        KeyKind::Bool => (vec!["off".into(), "on".into()], None, false),
        KeyKind::Choice(options) => (options.iter().map(|o| o.to_string()).collect(), None, false),
        KeyKind::Int { .. } | KeyKind::Duration { .. } => {
            let mut m = mapping(doc)?;
            let now = match doc.kind {
                KeyKind::Duration { .. } => crate::engine::time::parse_duration(&current).ok()?,
                _ => current.parse().ok()?,
            };
            // More CPUs than the machine profile has are another machine: the sweep stays
            // within the profile (and the current value, if it is beyond).
            if doc.key == "cores" {
                m.max = m.max.min(u64::from(config.profile().topo.cpus()).max(now)).max(m.min);
                m.log = m.max / m.lo.max(1) > 1000;
            }
            let raw = m.sweep(n, now);
            // Zero cannot sit on a log axis: a log sweep starts at the mapping's low end.
            let raw: Vec<u64> = raw.into_iter().filter(|v| !m.log || *v >= m.lo).collect();
            let text = |v: u64| match doc.kind {
                KeyKind::Duration { .. } => crate::engine::time::format_duration(v),
                _ => v.to_string(),
            };
            (raw.iter().map(|v| text(*v)).collect(), Some(raw.iter().map(|v| *v as f64).collect()), m.log)
        }
        KeyKind::Text => return None,
    };
    let n = values.len();
    Some(Sweep {
        gen,
        key,
        base: config.clone(),
        values,
        xs,
        log,
        points: vec![None; n],
        unit: unit.unwrap_or_default(),
        failed: 0,
        key2: None,
        values2: Vec::new(),
        replicas: 1,
        runs: Vec::new(),
    })
}

/// Points per axis of a 2-D sweep (8 x 8 = 64 runs).
pub const GRID_POINTS: usize = 8;

/// `sw` drawn as `view` says: a grid when `view.key2` names another sweepable key, and
/// room for `view.replicas` seeds per cell.
pub fn with_view(sw: Sweep, view: &SweepView) -> Sweep {
    let key2 = view.key2.as_deref().and_then(key_doc).map(|d| d.key).filter(|k| sweepable(k) && *k != sw.key);
    let mut sw = match key2 {
        Some(k2) => {
            let (Some(first), Some(second)) = (
                plan_sweep_n(&sw.base, sw.key, sw.gen, Some(sw.unit.clone()), GRID_POINTS),
                plan_sweep_n(&sw.base, k2, sw.gen, None, GRID_POINTS),
            ) else {
                return sw;
            };
            let mut g = first;
            g.key2 = Some(k2);
            g.values2 = second.values;
            g.points = vec![None; g.values.len() * g.values2.len()];
            g
        }
        None => sw,
    };
    let r = view.replicas.unwrap_or(1).clamp(1, MAX_REPLICAS) as usize;
    sw.replicas = r;
    sw.runs = vec![None; sw.points.len() * (r - 1)];
    sw
}

/// A cell's figure over its replicas so far.
pub use crate::ui::explore::replicas::SeedStats as Spread;

/// The figure `metric` of each cell (None until its first replica is in): mean, min, max
/// over the replicas in. The order of the answers does not matter: each has its slot.
pub fn cell_stats(sw: &Sweep, metric: &str) -> Vec<Option<Spread>> {
    (0..sw.points.len())
        .map(|i| {
            sw.points[i].as_ref()?;
            crate::ui::explore::replicas::spread(cell_runs(sw, i).map(|m| value(m, metric)))
        })
        .collect()
}

/// The runs of cell `i` that are in: its first replica, then the further ones.
fn cell_runs(sw: &Sweep, i: usize) -> impl Iterator<Item = &Rc<Metrics>> {
    let cells = sw.points.len();
    std::iter::once(&sw.points[i]).chain((1..sw.replicas).map(move |r| &sw.runs[(r - 1) * cells + i])).flatten()
}

/// Each cell as a point of `share::table::sweep_text`: its value (both values on a grid),
/// `metric` over its replicas, and whether one of its runs stopped at the event budget.
pub fn text_points(sw: &Sweep, metric: &str) -> Vec<crate::share::table::SweepPoint> {
    let n2 = sw.values2.len().max(1);
    cell_stats(sw, metric)
        .into_iter()
        .enumerate()
        .map(|(i, st)| {
            let value = match sw.key2 {
                Some(_) => format!("{} {}", sw.values[i / n2], sw.values2.get(i % n2).map_or("", String::as_str)),
                None => sw.values[i].clone(),
            };
            let cut = cell_runs(sw, i).any(|m| m.stop_reason == Some(metrics::StopReason::EventBudget));
            let spread = st.map(|s| crate::share::table::Spread { mean: s.mean, min: s.min, max: s.max });
            crate::share::table::SweepPoint { value, spread, cut }
        })
        .collect()
}

/// Whether each cell has a run that stopped at the sweep's event budget: its figures are
/// a partial run's, so the plots do not draw it as a result (`cut_note` says why).
pub fn cut_cells(sw: &Sweep) -> Vec<bool> {
    (0..sw.points.len())
        .map(|i| cell_runs(sw, i).any(|m| m.stop_reason == Some(metrics::StopReason::EventBudget)))
        .collect()
}

/// The range a heatmap's colour scale spans: the cells' min and max, each pulled in to
/// Tukey's fence (1.5 interquartile ranges beyond the quartiles) when it lies beyond, so
/// one outlying cell does not wash the others into one colour (it is drawn at the end of
/// the scale, which the legend marks with ≥ or ≤). None without a finite value.
pub fn colour_range(values: &[f64]) -> Option<(f64, f64)> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let q = |f: f64| {
        let at = f * (v.len() - 1) as f64;
        let (i, frac) = (at.floor() as usize, at.fract());
        v[i] + (v[(i + 1).min(v.len() - 1)] - v[i]) * frac
    };
    let (q1, q3) = (q(0.25), q(0.75));
    let fence = 1.5 * (q3 - q1);
    let (min, max) = (v[0], v[v.len() - 1]);
    let (lo, hi) = (min.max(q1 - fence), max.min(q3 + fence));
    // Most cells equal (no spread between the quartiles): the fences would clip every other
    // cell to one colour; the whole range it is.
    Some(if hi > lo { (lo, hi) } else { (min, max) })
}

/// `metric` of `m` (an unknown name reads as the main result).
pub fn value(m: &Metrics, metric: &str) -> f64 {
    metrics::value(m, metric).unwrap_or(m.throughput)
}

/// Why the swept knob seems to do nothing: a rule over the current run's counters
/// (`engine::knobs::why_inert`), else, once the sweep is done, the plain fact that every
/// point gave the same counters.
pub fn inert_note(sw: &Sweep, current: Option<&Metrics>) -> Option<String> {
    if let Some(why) = current.and_then(|m| crate::engine::knobs::why_inert(sw.key, &sw.base, m)) {
        return Some(format!("{} does nothing here: {why}.", sw.key));
    }
    let done: Vec<&Metrics> = sw.points.iter().flatten().map(|m| m.as_ref()).collect();
    (sw.key2.is_none()
        && done.len() == sw.points.len()
        && done.len() > 1
        && done.windows(2).all(|w| w[0].digest == w[1].digest))
    .then(|| format!("{} does nothing here: every point of the sweep gave the same counters.", sw.key))
}

/// A note when points stopped at the sweep's event budget (`protocol::SWEEP_EVENT_BUDGET`):
/// their figures are the first events', not the whole run's, so a curve of elapsed time or
/// counts is not comparable with the main figures.
pub fn cut_note(sw: &Sweep) -> Option<String> {
    let done: Vec<&Metrics> = sw.points.iter().chain(&sw.runs).flatten().map(|m| m.as_ref()).collect();
    let cut = done.iter().filter(|m| m.stop_reason == Some(metrics::StopReason::EventBudget)).count();
    (cut > 0).then(|| {
        format!(
            "{cut} of {} points stopped at the sweep's budget of {} events: their figures are a partial run's, so they are not drawn as results (open marks on the x axis); the metrics above are the whole run's.",
            done.len(),
            crate::ui::common::format::count(crate::ui::worker::protocol::SWEEP_EVENT_BUDGET)
        )
    })
}

/// The indexes of the cells on the Pareto front of (x, y): no other cell is at least as
/// good on both and better on one. `hx`/`hy`: whether higher is better on each axis.
pub fn pareto_front(points: &[(f64, f64)], hx: bool, hy: bool) -> Vec<usize> {
    let better = |a: f64, b: f64, higher: bool| if higher { a > b } else { a < b };
    let at_least = |a: f64, b: f64, higher: bool| a == b || better(a, b, higher);
    let mut front: Vec<usize> = (0..points.len())
        .filter(|&i| {
            let (x, y) = points[i];
            !points
                .iter()
                .any(|&(ox, oy)| at_least(ox, x, hx) && at_least(oy, y, hy) && (better(ox, x, hx) || better(oy, y, hy)))
        })
        .collect();
    crate::engine::order::sort_by(&mut front, |&a, &b| points[a].0.total_cmp(&points[b].0).then(a.cmp(&b)));
    front
}
