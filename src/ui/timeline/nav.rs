//! Getting around the timeline (pure, tested natively): drag-to-zoom's window, "zoom to
//! this" for a selected span (a wakeup's whole latency in view), and the minimap of the
//! whole run (each CPU's busy share per column, and where the view sits in it).
//!
//! `timeline` wires these to the pointer and the toolbar; nothing here touches the browser.

use crate::engine::decimal::Within as _;

use crate::engine::time::Ns;
use crate::engine::trace::{InstantKind, SpanKind, Trace};

use crate::ui::timeline::draw::{Layout, View};

/// A drag shorter than this (CSS px) is a click, not a range to zoom to.
pub const MIN_DRAG_CSS: f64 = 4.0;

/// The window a drag from CSS x `x0` to `x1` selects (either direction), or None for a
/// drag too short to mean a range.
pub fn selection_view(view: &View, layout: &Layout, x0: f64, x1: f64, end: Ns) -> Option<View> {
    if !(x0.is_finite() && x1.is_finite()) || (x1 - x0).abs() < MIN_DRAG_CSS {
        return None;
    }
    let t = |x: f64| view.time_at(layout.frac_at(x * layout.dpr).within(0.0, 1.0));
    let (a, b) = (t(x0.min(x1)), t(x0.max(x1)));
    Some(View { t0: a, t1: b }.clamp(end))
}

/// The window that shows span `i` in context: for a run that began at the end of a wakeup,
/// from the wakeup to the run's start (its whole latency) and a little of the run; else
/// the span itself; with a quarter of the window's length either side, at least 2 µs.
pub fn focus_view(trace: &Trace, i: usize, end: Ns) -> Option<View> {
    let sp = trace.spans.get(i)?;
    let (from, to) = match sp.kind {
        SpanKind::Run { task, .. } => match wakeup_before(trace, task, sp.core, sp.start) {
            Some(w) => (w, sp.start + (sp.end - sp.start).min(sp.start - w).max(1)),
            None => (sp.start, sp.end),
        },
        _ => (sp.start, sp.end),
    };
    let len = ((to - from) as f64).max(2_000.0);
    let pad = len / 4.0;
    let mid = (from + to) as f64 / 2.0;
    Some(View { t0: mid - len / 2.0 - pad, t1: mid + len / 2.0 + pad }.clamp(end))
}

/// When `task` was woken onto `core` for the run starting at `start`: the decision record's
/// time when it is kept, else the last wakeup mark for it on that core since its previous run.
pub fn wakeup_before(trace: &Trace, task: u32, core: u16, start: Ns) -> Option<Ns> {
    let d = &trace.decisions;
    if let Some(w) = d.wakeups.iter().rev().find(|r| r.task == task && r.target == core && r.ran_at == Some(start)) {
        return Some(w.time);
    }
    let prev_end = trace
        .spans
        .iter()
        .filter(|s| s.end <= start && matches!(s.kind, SpanKind::Run { task: t, .. } if t == task))
        .map(|s| s.end)
        .max()
        .unwrap_or(0);
    trace
        .instants
        .iter()
        .filter(|m| m.core == core && m.time <= start && m.time >= prev_end)
        .filter(|m| matches!(m.kind, InstantKind::Wakeup { task: t, .. } if t == task))
        .map(|m| m.time)
        .max()
}

/// The minimap: per row, each column's busy share (0..1) of the whole run. One row per CPU
/// up to `MAX_ROWS` CPUs, else one row for the machine (the mean over CPUs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Minimap {
    pub rows: Vec<Vec<f32>>,
    /// The run's length the columns divide (ns).
    pub end: Ns,
}

/// Most CPUs the minimap draws a row each for.
pub const MAX_ROWS: usize = 8;
/// Columns either side a drawn minimap column is averaged with (`Minimap::columns`).
pub const SMOOTH: usize = 2;
/// CSS pixels per drawn minimap column.
pub const MINIMAP_COL_CSS: f64 = 3.0;

/// Below this plot width (CSS px) a new trace opens at a readable stretch, not the whole run.
pub const NARROW_PLOT_CSS: f64 = 600.0;
/// CSS pixels the busiest CPU's spans get on average in that first view.
pub const READABLE_SPAN_CSS: f64 = 10.0;

/// The first view of a trace on a narrow screen (issue 29 item 5: a phone showed the whole
/// run in ~300 px, a barcode). From the start of `fit` (the recorded stretch), long enough
/// that the busiest CPU's spans (runs and idle periods; the overheads' lower band aside)
/// average `READABLE_SPAN_CSS` each over a `plot_css` wide plot; `fit` itself when that is
/// the whole of it or the screen is wide. Not the reader's move: it stays out of the link.
pub fn readable_view(trace: &Trace, fit: View, plot_css: f64) -> View {
    if !(plot_css.is_finite() && plot_css > 0.0 && plot_css < NARROW_PLOT_CSS) || fit.len() <= 0.0 {
        return fit;
    }
    let cores = trace.spans.iter().map(|s| s.core as usize + 1).max().unwrap_or(0);
    let mut per_core = vec![0usize; cores];
    for s in &trace.spans {
        let lane = !matches!(s.kind, SpanKind::Overhead { .. });
        if lane && (s.end as f64) > fit.t0 && (s.start as f64) < fit.t1 {
            per_core[s.core as usize] += 1;
        }
    }
    let busiest = per_core.into_iter().max().unwrap_or(0) as f64;
    let fits = plot_css / READABLE_SPAN_CSS;
    if busiest <= fits {
        return fit;
    }
    // Never narrower than a thousandth of the recorded stretch (one CPU's burst of tiny spans).
    let len = (fit.len() * fits / busiest).max(fit.len() / 1000.0);
    View { t0: fit.t0, t1: fit.t0 + len }
}

impl Minimap {
    /// The minimap spans the whole run (`trace.end`) even when the trace stops earlier or
    /// the view cannot reach past the recording (`end`): A's minimap in A/B said 58 ms
    /// where B's said 243 ms for runs of the same length. What was not recorded is empty.
    pub fn new(trace: &Trace, cols: usize, end: Ns) -> Minimap {
        let cols = cols.clamp(1, 4096);
        let cores = trace.spans.iter().map(|s| s.core as usize + 1).max().unwrap_or(0).max(trace.cores as usize).max(1);
        let end = end.max(trace.end).max(1);
        let mut busy = vec![vec![0f64; cols]; cores];
        let w = end as f64 / cols as f64;
        for sp in trace.spans.iter().filter(|s| matches!(s.kind, SpanKind::Run { .. } | SpanKind::Overhead { .. })) {
            let (a, b) = (sp.start.min(end) as f64, sp.end.min(end) as f64);
            if b <= a {
                continue;
            }
            let row = &mut busy[sp.core as usize];
            let (c0, c1) = ((a / w) as usize, ((b / w) as usize).min(cols - 1));
            for (c, cell) in row.iter_mut().enumerate().take(c1 + 1).skip(c0) {
                let (lo, hi) = (c as f64 * w, (c + 1) as f64 * w);
                *cell += (b.min(hi) - a.max(lo)).max(0.0);
            }
        }
        let share = |v: f64| (v / w).within(0.0, 1.0) as f32;
        let rows = if cores <= MAX_ROWS {
            busy.iter().map(|r| r.iter().map(|v| share(*v)).collect()).collect()
        } else {
            vec![(0..cols).map(|c| share(busy.iter().map(|r| r[c]).sum::<f64>() / cores as f64)).collect()]
        };
        Minimap { rows, end }
    }

    /// The rows as `n` columns to draw (issue 29 item 5: on a phone the strip was a barcode,
    /// 600 columns of a periodic load alternating busy and idle under ~300 px): each column
    /// the mean busy share of the stored columns it covers, then the mean with its two
    /// neighbours either side, so a periodic load reads as its level and a change of load
    /// still shows where it happens (within two columns).
    pub fn columns(&self, n: usize) -> Vec<Vec<f32>> {
        let n = n.max(1);
        self.rows
            .iter()
            .map(|row| {
                let len = row.len().max(1);
                let coarse: Vec<f32> = (0..n)
                    .map(|c| {
                        let (a, b) = (c * len / n, ((c + 1) * len / n).max(c * len / n + 1).min(len));
                        let cells = row.get(a..b).unwrap_or(&[]);
                        if cells.is_empty() {
                            0.0
                        } else {
                            cells.iter().sum::<f32>() / cells.len() as f32
                        }
                    })
                    .collect();
                (0..n)
                    .map(|c| {
                        let near = &coarse[c.saturating_sub(SMOOTH)..(c + SMOOTH + 1).min(n)];
                        near.iter().sum::<f32>() / near.len() as f32
                    })
                    .collect()
            })
            .collect()
    }

    /// The view's left and right edges as fractions of the minimap's width.
    pub fn window(&self, view: &View) -> (f64, f64) {
        let e = self.end.max(1) as f64;
        ((view.t0 / e).within(0.0, 1.0), (view.t1 / e).within(0.0, 1.0))
    }

    /// The view of the same length centred on fraction `frac` of the run (a click or drag
    /// on the minimap).
    pub fn centre_on(&self, view: &View, frac: f64, end: Ns) -> View {
        let frac = if frac.is_finite() { frac.within(0.0, 1.0) } else { 0.5 };
        let t = frac * self.end.max(1) as f64;
        let half = view.len() / 2.0;
        View { t0: t - half, t1: t + half }.clamp(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::{Instant, Span};
    use crate::ui::timeline::runqueue::runqueue_at;

    fn run(core: u16, start: Ns, end: Ns, task: u32) -> Span {
        Span { core, start, end, kind: SpanKind::Run { task, sys: false } }
    }

    fn trace(spans: Vec<Span>, instants: Vec<Instant>, end: Ns) -> Trace {
        Trace { cores: 2, spans, instants, end, ..Trace::default() }
    }

    #[test]
    fn the_minimap_spans_the_whole_run_when_the_trace_was_cut() {
        // 58 ms recorded of a 243 ms run, shown without loadable windows (A in A/B).
        let ms = 1_000_000;
        let t = trace(vec![run(0, 0, 58 * ms, 1)], vec![], 243 * ms);
        let m = Minimap::new(&t, 100, 58 * ms);
        assert_eq!(m.end, 243 * ms);
        assert!(m.rows[0][30] == 0.0 && m.rows[0][10] == 1.0, "the unrecorded part is empty");
    }

    #[test]
    fn a_drag_zooms_to_the_stretch_under_it_in_either_direction() {
        let layout = Layout::new(1052.0, 2, 1.0); // a 1000 px plot after the 52 px gutter
        let view = View { t0: 0.0, t1: 1_000_000.0 };
        let v = selection_view(&view, &layout, 152.0, 352.0, 1_000_000).unwrap();
        assert_eq!((v.t0, v.t1), (100_000.0, 300_000.0));
        assert_eq!(selection_view(&view, &layout, 352.0, 152.0, 1_000_000), Some(v), "right to left too");
        assert_eq!(selection_view(&view, &layout, 152.0, 154.0, 1_000_000), None, "a click is not a range");
        let past = selection_view(&view, &layout, 900.0, 5000.0, 1_000_000).unwrap();
        assert_eq!(past.t1, 1_000_000.0, "a drag past the edge stops at it");
        assert_eq!(selection_view(&view, &layout, f64::NAN, 3.0, 10), None);
    }

    #[test]
    fn zoom_to_a_woken_run_shows_its_whole_wakeup_latency() {
        let wake = Instant { core: 1, time: 40_000, kind: InstantKind::Wakeup { from: 0, task: 3 } };
        let old = Instant { core: 1, time: 1_000, kind: InstantKind::Wakeup { from: 0, task: 3 } };
        let t = trace(vec![run(1, 2_000, 10_000, 3), run(1, 47_000, 900_000, 3)], vec![old, wake], 1_000_000);
        assert_eq!(wakeup_before(&t, 3, 1, 47_000), Some(40_000), "the wakeup since its last run");
        let v = focus_view(&t, 1, t.end).unwrap();
        assert!(v.t0 < 40_000.0 && v.t1 > 47_000.0, "wakeup and run start in view: {v:?}");
        assert!(v.len() < 30_000.0, "zoomed in on the latency, not the 853 µs run: {v:?}");
        let v = focus_view(&t, 0, t.end).unwrap();
        assert!(v.t0 < 1_000.0 && v.t1 > 2_000.0, "the first run's own wakeup: {v:?}");
        // Without a wakeup, the span itself, at least 2 µs wide.
        let lone = trace(vec![run(0, 2_000, 10_000, 3)], vec![], 1_000_000);
        let v = focus_view(&lone, 0, lone.end).unwrap();
        assert!(v.t0 < 2_000.0 && v.t1 > 10_000.0 && v.len() <= 12_000.0, "{v:?}");
        let tiny = trace(vec![run(0, 5_000, 5_010, 1)], vec![], 1_000_000);
        assert!(focus_view(&tiny, 0, tiny.end).unwrap().len() >= 2_000.0);
        assert_eq!(focus_view(&tiny, 9, tiny.end), None);
    }

    #[test]
    fn the_runqueue_at_an_instant_comes_from_the_picks_and_wakeups_around_it() {
        let mut cfg = (crate::engine::presets::preset("eevdf-vs-cfs").unwrap().config)();
        cfg.set("duration", "100ms").unwrap();
        let out = crate::engine::run(&cfg, Some(crate::engine::TraceOptions::default())).unwrap();
        let t = &out.trace;
        // At each pick with others queued, the waiting tasks are that queue less the chosen one.
        let p = t.decisions.picks.iter().find(|p| p.queue.len() >= 3).expect("a busy pick");
        let mut want: Vec<u32> = p.queue.iter().map(|e| e.task).filter(|&k| k != p.chosen).collect();
        let mut got = runqueue_at(t, p.core, p.time).unwrap();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want);
        assert!(!got.contains(&p.chosen), "the running task is not waiting");
        // Past the records: unknown, not empty.
        let last = t.decisions.picks.iter().map(|p| p.time).max().unwrap();
        assert_eq!(runqueue_at(t, 0, last + 10_000_000_000), None);
        let empty = Trace::default();
        assert_eq!(runqueue_at(&empty, 0, 5), None);
    }

    #[test]
    fn a_narrow_screen_opens_at_a_stretch_where_the_spans_are_wide_enough_to_read() {
        // CPU 0: 200 runs of 1 µs every 10 µs over 2 ms; CPU 1: one long run.
        let mut spans: Vec<Span> = (0..200).map(|i| run(0, i * 10_000, i * 10_000 + 1_000, 1)).collect();
        spans.push(run(1, 0, 2_000_000, 2));
        let t = trace(spans, vec![], 2_000_000);
        let fit = View { t0: 0.0, t1: 2_000_000.0 };
        // 300 px at 10 px a span: 30 of CPU 0's 200 spans, so 3/20 of the run, from its start.
        let v = readable_view(&t, fit, 300.0);
        assert_eq!((v.t0, v.t1), (0.0, 300_000.0));
        assert_eq!(readable_view(&t, fit, 1200.0), fit, "a wide screen shows the whole run");
        let calm = trace(vec![run(0, 0, 2_000_000, 1)], vec![], 2_000_000);
        assert_eq!(readable_view(&calm, fit, 300.0), fit, "few spans: the whole run reads");
        // The recorded stretch of a cut trace starts later: so does the view.
        let late = View { t0: 500_000.0, t1: 2_000_000.0 };
        let v = readable_view(&t, late, 300.0);
        assert_eq!(v.t0, 500_000.0);
        assert!(v.len() < late.len());
    }

    #[test]
    fn the_drawn_minimap_averages_columns_and_smooths_a_periodic_load_to_its_level() {
        // Busy and idle alternating every stored column: 50% busy throughout.
        let m = Minimap { rows: vec![(0..600).map(|c| (c % 2) as f32).collect()], end: 1 };
        let cols = m.columns(100);
        assert_eq!(cols[0].len(), 100);
        assert!(cols[0].iter().all(|v| (v - 0.5).abs() < 1e-6), "{:?}", &cols[0][..5]);
        // A step from idle to busy half way stays a step, spread over the smoothing.
        let step = Minimap { rows: vec![(0..600).map(|c| if c < 300 { 0.0 } else { 1.0 }).collect()], end: 1 };
        let cols = &step.columns(100)[0];
        assert_eq!((cols[0], cols[99]), (0.0, 1.0));
        assert!(cols[..48].iter().all(|v| *v == 0.0) && cols[52..].iter().all(|v| *v == 1.0));
        // More columns asked than stored: each drawn column reads its stored one.
        let few = Minimap { rows: vec![vec![1.0, 0.0]], end: 1 };
        assert_eq!(few.columns(4)[0].len(), 4);
    }

    #[test]
    fn the_minimap_holds_each_cpus_busy_share_and_where_the_view_is() {
        let t = trace(vec![run(0, 0, 500, 1), run(1, 250, 1000, 2)], vec![], 1000);
        let m = Minimap::new(&t, 4, t.end);
        assert_eq!(m.rows, vec![vec![1.0, 1.0, 0.0, 0.0], vec![0.0, 1.0, 1.0, 1.0]]);
        let half = Minimap::new(&trace(vec![run(0, 0, 125, 1)], vec![], 1000), 4, 1000);
        assert_eq!(half.rows[0], vec![0.5, 0.0, 0.0, 0.0]);
        let view = View { t0: 250.0, t1: 500.0 };
        assert_eq!(m.window(&view), (0.25, 0.5));
        let c = m.centre_on(&view, 1.0, 1000);
        assert_eq!((c.t0, c.t1), (750.0, 1000.0), "stays inside the run");
        // Many CPUs: one row, the mean.
        let wide = Trace { cores: 12, spans: vec![run(11, 0, 1000, 1)], end: 1000, ..Trace::default() };
        let m = Minimap::new(&wide, 2, 1000);
        assert_eq!(m.rows.len(), 1);
        assert!((m.rows[0][0] - 1.0 / 12.0).abs() < 1e-6);
    }
}
