//! The movable trace window: which stretch of a long run to record again when the timeline is panned past what the live trace kept.
//!
//! The live trace keeps at most `protocol::LIVE_TRACE_ITEMS` spans and marks, so a long run
//! (a million pipe round trips) keeps only its first stretch. When the user zooms in and pans
//! beyond it, the page asks the worker to simulate the same config again and record from
//! just before the view (`protocol::Request::Window`): the run is deterministic, so its events and
//! figures are the live run's, and only the recorded stretch moves. A view longer than the
//! stretch a trace can hold (Fit on a long run) asks for nothing: no window would cover it.
//!
//! Pure functions, tested natively; `timeline` calls [`wanted`] after each frame.

use crate::engine::time::Ns;
use crate::engine::trace::Trace;

/// Where a trace's recorded stretch starts and stops: `[trace.start, last item]`.
pub fn recorded(trace: &Trace) -> (Ns, Ns) {
    let last_span = trace.spans.iter().map(|s| s.end).max().unwrap_or(0);
    let last = last_span.max(trace.instants.iter().map(|i| i.time + 1).max().unwrap_or(0));
    (trace.start, last.max(trace.start))
}

/// Whether the trace is a part of its run (cut at its item budget, or recorded from later
/// than the start): only such a trace has anything more to load.
pub fn is_partial(trace: &Trace) -> bool {
    trace.truncated || trace.start > 0
}

/// The `from` to ask for when the view `[t0, t1]` (ns) leaves the recorded stretch and
/// a stretch as long as this one would cover it: the view is put a quarter of the way into
/// the new stretch, so a little of what comes before it is kept too. `asked` lists the
/// starts already asked for this run, so an answer that still does not cover the view (its
/// items lie denser) does not make the page ask for the same again.
pub fn wanted(trace: &Trace, t0: f64, t1: f64, asked: &[Ns]) -> Option<Ns> {
    if !(is_partial(trace) && t0.is_finite() && t1.is_finite()) || t1 <= t0 {
        return None;
    }
    let (lo, hi) = recorded(trace);
    let (len, view) = ((hi - lo) as f64, t1 - t0);
    if (t0 >= lo as f64 && t1 <= hi as f64) || view > len || len <= 0.0 {
        return None;
    }
    let from = (t0 - (len - view) / 4.0).max(0.0).min(trace.end as f64) as Ns;
    // Close enough to a start already asked for (within a hundredth of the view): no.
    let near = |a: &Ns| (*a as f64 - from as f64).abs() <= view / 100.0;
    (!asked.iter().any(near)).then_some(from)
}

/// The stretch a link records for the view `[t0, t1]` (ns) of a run `end` ns long: None
/// when the view shows the whole run, else its ends rounded to a thousandth of the view
/// (a power of ten of ns, so the link reads `12340us`, not `12345678ns`).
pub fn link_stretch(t0: f64, t1: f64, end: Ns) -> Option<(Ns, Ns)> {
    if !(t0.is_finite() && t1.is_finite()) || t1 <= t0 || (t0 <= 0.0 && t1 >= end as f64) {
        return None;
    }
    let grain = 10f64.powi(((t1 - t0) / 1000.0).max(1.0).log10().floor() as i32);
    let round = |t: f64| ((t.max(0.0) / grain).round() * grain) as Ns;
    let (a, b) = (round(t0), round(t1));
    Some((a, b.max(a + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::{Span, SpanKind};

    /// A trace of 1-ms spans on one core covering `[from, to)` ms of a 100-ms run.
    fn cut(from: u64, to: u64, truncated: bool) -> Trace {
        let ms = 1_000_000;
        let spans = (from..to)
            .map(|i| Span { core: 0, start: i * ms, end: (i + 1) * ms, kind: SpanKind::Idle { state: 0 } })
            .collect();
        Trace { cores: 1, spans, truncated, end: 100 * ms, start: from * ms, ..Trace::default() }
    }

    const MS: f64 = 1e6;

    #[test]
    fn a_complete_trace_never_asks() {
        let t = cut(0, 100, false);
        assert_eq!(wanted(&t, 90.0 * MS, 95.0 * MS, &[]), None);
    }

    #[test]
    fn a_view_inside_the_recorded_stretch_asks_nothing() {
        let t = cut(0, 25, true);
        assert_eq!(recorded(&t), (0, 25_000_000));
        assert_eq!(wanted(&t, 10.0 * MS, 20.0 * MS, &[]), None);
    }

    #[test]
    fn panning_past_the_cut_asks_for_a_stretch_around_the_view() {
        let t = cut(0, 25, true);
        // Stretch 25 ms, view 5 ms at 60..65: from = 60 - (25 - 5) / 4 = 55 ms.
        assert_eq!(wanted(&t, 60.0 * MS, 65.0 * MS, &[]), Some(55_000_000));
        // Straddling the cut also asks (part of the view is blank).
        assert_eq!(wanted(&t, 22.0 * MS, 27.0 * MS, &[]), Some(17_000_000));
    }

    #[test]
    fn a_window_trace_asks_again_when_panned_back_before_it() {
        let t = cut(55, 80, true);
        assert_eq!(wanted(&t, 10.0 * MS, 15.0 * MS, &[]), Some(5_000_000));
        assert_eq!(wanted(&t, 1.0 * MS, 6.0 * MS, &[]), Some(0), "never before the run's start");
        assert_eq!(wanted(&t, 60.0 * MS, 70.0 * MS, &[]), None);
    }

    #[test]
    fn a_view_longer_than_any_stretch_asks_nothing() {
        // Fit on a long run: no window of 25 ms covers 100 ms, so none is asked for (asking
        // would loop, each answer as short as the last).
        let t = cut(0, 25, true);
        assert_eq!(wanted(&t, 0.0, 100.0 * MS, &[]), None);
    }

    #[test]
    fn a_start_already_asked_for_is_not_asked_again() {
        let t = cut(0, 25, true);
        assert_eq!(wanted(&t, 60.0 * MS, 65.0 * MS, &[55_000_000]), None);
        assert_eq!(wanted(&t, 60.0 * MS, 65.0 * MS, &[55_040_000]), None, "within a hundredth of the view");
        assert_eq!(wanted(&t, 60.0 * MS, 65.0 * MS, &[40_000_000]), Some(55_000_000));
    }

    #[test]
    fn nonsense_views_ask_nothing() {
        let t = cut(0, 25, true);
        assert_eq!(wanted(&t, f64::NAN, 5.0, &[]), None);
        assert_eq!(wanted(&t, 70.0 * MS, 60.0 * MS, &[]), None);
        assert_eq!(wanted(&t, 60.0 * MS, f64::INFINITY, &[]), None);
    }

    #[test]
    fn a_link_records_the_stretch_rounded_and_nothing_for_the_whole_run() {
        assert_eq!(link_stretch(0.0, 100.0 * MS, 100_000_000), None, "the whole run");
        assert_eq!(link_stretch(0.0, 120.0 * MS, 100_000_000), None, "past the end is the whole run too");
        // A 5-ms view: ends rounded to 1 us (a thousandth of the view, a power of ten).
        assert_eq!(link_stretch(12_345_678.0, 17_345_678.0, 100_000_000), Some((12_346_000, 17_346_000)));
        assert_eq!(link_stretch(10.0, 20.0, 100), Some((10, 20)), "tiny views keep whole ns");
        assert_eq!(link_stretch(f64::NAN, 1.0, 10), None);
        assert_eq!(link_stretch(5.0, 5.0, 10), None);
    }
}
