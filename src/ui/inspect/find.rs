//! Which decisions explain a selected span (pure, tested natively): the wakeup that led to a
//! run, the pick that chose it, the idle entry that chose a state, the wakeup an overhead served.

use crate::engine::explain::{IdleRecord, PickRecord, WakeRecord};
use crate::engine::trace::{Span, SpanKind, Trace};

/// The decisions behind one span.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found<'a> {
    pub wake: Option<&'a WakeRecord>,
    pub pick: Option<&'a PickRecord>,
    pub idle: Option<&'a IdleRecord>,
}

pub fn decisions_for<'a>(trace: &'a Trace, span: &Span) -> Found<'a> {
    let d = &trace.decisions;
    let core = span.core;
    match span.kind {
        SpanKind::Run { task, .. } => Found {
            // The task runs at the end of its wakeup latency: `ran_at` is this span's start.
            wake: d.wakeups.iter().rev().find(|r| r.task == task && r.target == core && r.ran_at == Some(span.start)),
            pick: d.picks.iter().rev().find(|p| p.core == core && p.chosen == task && p.time <= span.start),
            idle: None,
        },
        SpanKind::Idle { .. } => {
            Found { idle: d.idles.iter().rev().find(|r| r.core == core && r.time <= span.start), ..Found::default() }
        }
        SpanKind::Overhead { .. } => Found {
            wake: d
                .wakeups
                .iter()
                .rev()
                .find(|r| r.target == core && r.time <= span.start && r.ran_at.is_some_and(|at| span.end <= at)),
            ..Found::default()
        },
    }
}

/// Keyboard selection: from `current`, the next (`dir` > 0) or previous span on the same
/// core; with nothing selected, the span at time `t` (or the first after it) on core 0.
/// `lanes` are per core span indices sorted by start (`TraceIndex::spans`).
pub fn step(trace: &Trace, lanes: &[Vec<u32>], current: Option<usize>, dir: i32, t: f64) -> Option<usize> {
    match current.and_then(|i| trace.spans.get(i).map(|s| (i, s.core as usize))) {
        Some((i, core)) => {
            let lane = lanes.get(core)?;
            let pos = lane.iter().position(|&k| k as usize == i)?;
            let next = if dir > 0 { pos.checked_add(1) } else { pos.checked_sub(1) }?;
            lane.get(next).map(|&k| k as usize)
        }
        None => {
            let lane = lanes.first()?;
            lane.iter().find(|&&k| trace.spans[k as usize].end as f64 > t).or(lane.last()).map(|&k| k as usize)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{presets::preset, TraceOptions};

    #[test]
    fn a_run_after_a_wakeup_finds_its_wake_and_pick() {
        let mut cfg = (preset("nohz-pipe").unwrap().config)();
        cfg.set("loops", "300").unwrap();
        let out = crate::engine::run(&cfg, Some(TraceOptions::default())).unwrap();
        let t = &out.trace;
        let hits = t
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::Run { .. }))
            .filter(|s| decisions_for(t, s).wake.is_some_and(|w| w.latency().is_some()))
            .count();
        assert!(hits > 100, "runs explained by their wakeup: {hits}");
        let idle = t.spans.iter().find(|s| matches!(s.kind, SpanKind::Idle { .. })).unwrap();
        assert!(decisions_for(t, idle).idle.is_some());
    }
}
