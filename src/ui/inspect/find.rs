//! Which decisions explain a selected span (pure, tested natively): the wakeup that led to a
//! run, the pick that chose it, the idle entry that chose a state, the wakeup an overhead served;
//! and, for a span the page holds no records for, which stretch to simulate again for them.
//!
//! On-demand records: the page keeps only the run's first `protocol::PAGE_DECISIONS` records.
//! For a later span the inspector asks the worker to run the same config again recording
//! only a small window around the span (`ask_range`: about `ASK_BEFORE` trace items before
//! it and `ASK_AFTER` after, measured on the page's own trace, so a dense run gets a short
//! window), and keeps the `protocol::ON_DEMAND_DECISIONS` records nearest it ([`OnDemand`],
//! taken only when its digest is the shown run's).

use crate::engine::explain::{Decisions, IdleRecord, MigrateRecord, PickRecord, WakeRecord};
use crate::engine::time::Ns;
use crate::engine::trace::{Span, SpanKind, Trace};

/// Trace items before and after the span the on-demand window spans (on the page's trace).
pub const ASK_BEFORE: usize = 400;
pub const ASK_AFTER: usize = 200;

/// Decision records fetched for one instant (`protocol::Request::Decisions`).
#[derive(Clone, Debug, PartialEq)]
pub struct OnDemand {
    /// The run they belong to: its generation and digest.
    pub gen: u64,
    pub digest: String,
    /// The instant asked about, and the stretch the records cover.
    pub at: Ns,
    pub covers: (Ns, Ns),
    pub decisions: Decisions,
}

impl OnDemand {
    pub fn new(gen: u64, digest: String, at: Ns, decisions: Decisions) -> Self {
        let covers = crate::engine::explain::span_of(&decisions).unwrap_or((at, at));
        OnDemand { gen, digest, at, covers, decisions }
    }

    /// Whether these records answer for a span starting at `t`: the instant asked, or well
    /// inside the stretch they cover (its middle half, so a span's wakeup before it is kept).
    /// The decisions behind `span` among these records. They were recorded for a window
    /// around `at` (`ask_range`), so they are complete at least up to `at`, even when the
    /// window's last record comes before it (the pick just before the asked run).
    pub fn find(&self, span: &Span) -> Found<'_> {
        decisions_in(&self.decisions, span, self.covers.1.max(self.at))
    }

    pub fn answers(&self, t: Ns) -> bool {
        let (lo, hi) = self.covers;
        t == self.at || (t >= lo + (self.at.max(lo) - lo) / 2 && t <= hi - (hi - self.at.min(hi)) / 2)
    }
}

/// How long before a wakeup's `Wakeup` instant (the waker's cursor, after its ttwu work)
/// the engine may handle it: its record opens then (`Recorder::explaining` at the engine's
/// `now`), so a window asked for that wakeup starts this much earlier.
pub const ASK_WAKE_MARGIN: Ns = 50_000;

/// The stretch `[from, to)` to record for `span`'s decisions, and the instant they are about:
/// from the `ASK_BEFORE`-th item before the span's start to the `ASK_AFTER`-th after its end
/// (items = spans and instants of the page's trace; the run's end when the trace stops first).
/// A run after a wakeup starts no later than that wakeup (`wakeup_before`, less
/// `ASK_WAKE_MARGIN`): a long latency on a busy run holds more than `ASK_BEFORE` items,
/// and a window starting inside it showed only the pick.
pub fn ask_range(trace: &Trace, span: &Span) -> (Ns, Ns, Ns) {
    let at = span.start;
    let times = || trace.spans.iter().map(|s| s.start).chain(trace.instants.iter().map(|i| i.time));
    let mut before: Vec<Ns> = times().filter(|&t| t < at).collect();
    let from = if before.len() > ASK_BEFORE {
        let k = before.len() - ASK_BEFORE;
        *before.select_nth_unstable(k).1
    } else {
        trace.start.min(at)
    };
    let from = wakeup_before(trace, span).map_or(from, |w| from.min(w.saturating_sub(ASK_WAKE_MARGIN)));
    let mut after: Vec<Ns> = times().filter(|&t| t > span.end).collect();
    let to =
        if after.len() > ASK_AFTER { *after.select_nth_unstable(ASK_AFTER).1 } else { trace.end.max(span.end + 1) };
    (from, to, at)
}

/// The wakeup that led to a run, as the page's trace shows it: the time of the task's last
/// `Wakeup` instant on the run's CPU before the run, when the task did not run in between.
pub fn wakeup_before(trace: &Trace, span: &Span) -> Option<Ns> {
    let SpanKind::Run { task, .. } = span.kind else { return None };
    let woke = trace
        .instants
        .iter()
        .filter(|i| i.core == span.core && i.time <= span.start)
        .filter(|i| matches!(i.kind, crate::engine::trace::InstantKind::Wakeup { task: k, .. } if k == task))
        .map(|i| i.time)
        .max()?;
    let ran = trace.spans.iter().any(|s| {
        matches!(s.kind, SpanKind::Run { task: k, .. } if k == task) && s.start >= woke && s.start < span.start
    });
    (!ran).then_some(woke)
}

/// The decisions behind one span.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found<'a> {
    pub wake: Option<&'a WakeRecord>,
    pub pick: Option<&'a PickRecord>,
    pub idle: Option<&'a IdleRecord>,
    /// Why the task came to this CPU since it last ran (a run's span only).
    pub moved: Option<&'a MigrateRecord>,
}

pub fn decisions_for<'a>(trace: &'a Trace, span: &Span) -> Found<'a> {
    match crate::engine::explain::span_of(&trace.decisions) {
        // The page keeps the first records: they are complete up to the last one.
        Some((_, last)) => decisions_in(&trace.decisions, span, last),
        None => Found::default(),
    }
}

impl Found<'_> {
    pub fn is_empty(&self) -> bool {
        self.wake.is_none() && self.pick.is_none() && self.idle.is_none() && self.moved.is_none()
    }
}

/// `decisions_for` over any set of records (the page's, or those fetched on demand).
///
/// Records stop somewhere (the page keeps the first ones; a window starts later): a span
/// after `complete_until`, the time up to which the records are complete, gets none,
/// rather than the last pick or idle entry before the cut.
pub fn decisions_in<'a>(d: &'a Decisions, span: &Span, complete_until: Ns) -> Found<'a> {
    let core = span.core;
    if d.is_empty() || span.start > complete_until {
        return Found::default();
    }
    match span.kind {
        SpanKind::Run { task, .. } => {
            // The core's last pick before the span, if it chose this task.
            let pick =
                d.picks.iter().rev().find(|p| p.core == core && p.time <= span.start).filter(|p| p.chosen == task);
            // A wakeup's latency ends at the switch (`trace_sched_switch`, `ran_at`): at or
            // after that pick, at or before this span's start (the switch and the cache
            // refill come between). Not only on the wakeup's target: the load balancer can
            // move a task that waits (`detach_tasks` takes queued tasks), and then it runs on
            // the CPU that pulled it; the task and the switch's time name its record.
            let from = pick.map_or(span.start, |p| p.time);
            let wake = d
                .wakeups
                .iter()
                .rev()
                .find(|r| r.task == task && r.ran_at.is_some_and(|at| from <= at && at <= span.start));
            // The task's last move before this run, if it came here since its previous pick
            // (on any CPU): a wakeup's placement or a balancer's pull.
            let before = d.picks.iter().rev().find(|p| p.chosen == task && p.time < from).map_or(0, |p| p.time);
            let moved = d
                .migrations
                .iter()
                .rev()
                .find(|r| r.task == task && r.time <= span.start)
                .filter(|r| r.to == core && r.time >= before);
            Found { wake, pick, idle: None, moved }
        }
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

/// What ran on a wakeup's target CPU during its latency `[r.time, ran_at)`, by what the
/// page's trace shows: each other task's run time, then idle and overheads, largest first.
/// The engine's breakdown (`explain::records::split_latency`) can only see spans already
/// closed when the wakeup ends, so the task that held the CPU until then reads as "other";
/// the page's trace holds every span, and this names it.
pub fn ran_instead(trace: &Trace, r: &WakeRecord) -> Vec<(String, Ns)> {
    let Some(at) = r.ran_at else { return Vec::new() };
    let mut out: Vec<(String, Ns)> = Vec::new();
    let mut add = |name: String, d: Ns| match out.iter_mut().find(|(n, _)| *n == name) {
        Some(e) => e.1 += d,
        None => out.push((name, d)),
    };
    for s in trace.spans.iter().filter(|s| s.core == r.target && s.end > r.time && s.start < at) {
        let d = s.end.min(at) - s.start.max(r.time);
        match s.kind {
            SpanKind::Run { task, .. } if task != r.task => {
                add(trace.tasks.get(task as usize).map_or_else(|| format!("task {task}"), |t| t.name.clone()), d)
            }
            SpanKind::Run { .. } => {}
            SpanKind::Idle { .. } => add("idle".into(), d),
            SpanKind::Overhead { kind } => add(crate::ui::timeline::draw::overhead_label(kind).to_string(), d),
        }
    }
    crate::engine::order::sort_by(&mut out, |a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// The wakeup behind a latency figure (the metrics panel's p50, p99 or max, in µs): among the
/// page's wake records, the one whose latency is nearest `us` (the earliest of equals), and
/// the run it led to (the index of that span in `trace.spans`, which the inspector opens),
/// with its latency in ns. None when no kept record has both within the records' stretch. The figure is over every
/// wakeup of the run and the page keeps only its first records (`protocol::PAGE_DECISIONS`),
/// so the caller says when the nearest differs from the figure.
pub fn wakeup_near(trace: &Trace, us: f64) -> Option<(usize, Ns)> {
    let want = us * 1_000.0;
    // Only runs the page's records explain (`decisions_for`: up to the last record), so the
    // inspector shows the wakeup at once rather than a window simulated again around its run,
    // which can start after the wakeup and miss it.
    let (_, last) = crate::engine::explain::span_of(&trace.decisions)?;
    let mut best: Option<(f64, usize, Ns)> = None;
    for r in &trace.decisions.wakeups {
        let (Some(at), Some(lat)) = (r.ran_at, r.latency()) else { continue };
        let off = (lat as f64 - want).abs();
        if best.is_some_and(|b| b.0 <= off) {
            continue;
        }
        // The run it led to, as the inspector finds it: the task's first on the target CPU
        // from the switch on whose decisions (`decisions_for`) are this wakeup.
        let run = trace
            .spans
            .iter()
            .enumerate()
            .filter(|(_, s)| s.core == r.target && s.start >= at && s.start <= last)
            .filter(|(_, s)| matches!(s.kind, SpanKind::Run { task, .. } if task == r.task))
            .take(3)
            .find(|(_, s)| decisions_for(trace, s).wake.is_some_and(|w| std::ptr::eq(w, r)));
        if let Some((i, _)) = run {
            best = Some((off, i, lat));
        }
    }
    best.map(|b| (b.1, b.2))
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
        // A pick is the core's last before the run: never an older one that chose the same task.
        for s in t.spans.iter().filter(|s| matches!(s.kind, SpanKind::Run { .. })) {
            if let Some(p) = decisions_for(t, s).pick {
                let later = t.decisions.picks.iter().any(|q| q.core == s.core && q.time > p.time && q.time <= s.start);
                assert!(!later, "a later pick on CPU {} before {}", s.core, s.start);
            }
        }
    }

    /// A task woken onto one CPU and pulled by the load balancer while it waited runs on the
    /// CPU that pulled it: its run is still explained by its wakeup (the record was looked
    /// for on the wakeup's target only, and a p99 click on messaging opened an unexplained run).
    #[test]
    fn a_run_pulled_by_the_balancer_is_explained_by_its_wakeup() {
        let mut cfg = (preset("messaging-run-to-parity").unwrap().config)();
        cfg.set("duration", "10ms").unwrap();
        // 4 groups (161 threads on 40 CPUs): CPUs go idle and pull woken tasks that wait. At
        // the preset's 20, fork placement (`sim::fork`) spreads the threads so that no such
        // pull falls in the trace's first 200,000 items.
        cfg.set("groups", "4").unwrap();
        let out = crate::engine::run(&cfg, Some(TraceOptions::default())).unwrap();
        let t = &out.trace;
        let moved = t
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::Run { .. }))
            .filter_map(|s| decisions_for(t, s).wake.map(|w| (s, w)))
            .filter(|(s, w)| w.target != s.core)
            .count();
        assert!(moved > 0, "runs on another CPU than their wakeup's target, explained: {moved}");
    }

    /// Issue 29: clicking p50, p99 or max opens that wakeup. The run found is the one the
    /// inspector explains by the record whose latency is the figure's.
    #[test]
    fn a_latency_figure_finds_the_wakeup_and_the_run_it_led_to() {
        let mut cfg = (preset("nohz-pipe").unwrap().config)();
        cfg.set("loops", "300").unwrap();
        let out = crate::engine::run(&cfg, Some(TraceOptions::default())).unwrap();
        let t = &out.trace;
        let max = t.decisions.wakeups.iter().filter_map(|w| w.latency()).max().unwrap();
        for us in [max as f64 / 1_000.0, out.metrics.wakeup_latency_us.p50] {
            let (i, lat) = wakeup_near(t, us).expect("a wakeup near the figure");
            let w = decisions_for(t, &t.spans[i]).wake.expect("the run is explained by a wakeup");
            assert_eq!(w.latency(), Some(lat), "the inspector shows the record found");
            let nearest = t.decisions.wakeups.iter().filter_map(|w| w.latency()).map(|l| (l as f64 - us * 1e3).abs());
            assert_eq!((lat as f64 - us * 1e3).abs(), nearest.fold(f64::MAX, f64::min), "the nearest latency");
        }
        assert_eq!(wakeup_near(t, max as f64 / 1_000.0).unwrap().1, max, "max is a record's own latency");
        assert_eq!(wakeup_near(&Trace::default(), 10.0), None);
    }

    /// The page's records stop early on a busy run (hackbench, 40 CPUs: about 3 ms of 30): the
    /// wakeup found for its p99 is one those records explain, not a run after them (whose
    /// records, simulated again around the run, missed a wakeup 2.5 ms earlier: seen in
    /// Chromium, the inspector showed only the pick).
    #[test]
    fn on_a_busy_run_the_wakeup_found_is_one_the_pages_records_explain() {
        use crate::ui::worker::execute::execute;
        use crate::ui::worker::protocol::{Request, Response, LIVE_TRACE_ITEMS, PAGE_DECISIONS};
        let mut cfg = (preset("messaging-run-to-parity").unwrap().config)();
        cfg.set("duration", "100ms").unwrap();
        let Response::Run { result: Ok(r), .. } =
            execute(&Request::Run { id: 1, config: cfg, trace_items: LIVE_TRACE_ITEMS })
        else {
            panic!("the run")
        };
        let t = &r.trace;
        assert!(t.decisions.len() >= PAGE_DECISIONS * 9 / 10, "the records stop early: {}", t.decisions.len());
        for us in [r.metrics.wakeup_latency_us.p50, r.metrics.wakeup_latency_us.p99, r.metrics.wakeup_latency_us.max] {
            let (i, lat) = wakeup_near(t, us).expect("a wakeup");
            let w = decisions_for(t, &t.spans[i]).wake.expect("explained by the page's records");
            assert_eq!(w.latency(), Some(lat));
        }
    }

    /// Issue 29: a wakeup of 16.8 ms read "other: the core's other work" for 14 ms. What
    /// held the CPU is in the page's trace: the other tasks' runs cover the "other" time.
    #[test]
    fn what_ran_instead_names_the_tasks_that_held_the_cpu() {
        // perf bench sched messaging on EEVDF: 1,224 of 1,670 wakeups in its first 100 ms had an
        // "other" part, up to 3.6 ms.
        let mut cfg = (preset("messaging-run-to-parity").unwrap().config)();
        cfg.set("duration", "100ms").unwrap();
        let out = crate::engine::run(&cfg, Some(TraceOptions::default())).unwrap();
        let t = &out.trace;
        let other =
            |w: &WakeRecord| w.parts.iter().find(|p| p.0 == crate::engine::explain::Part::Other).map_or(0, |p| p.1);
        // Among the wakeups the (bounded) trace covers: its spans on the target go past the end.
        let covered =
            |w: &&WakeRecord| t.spans.iter().any(|s| s.core == w.target && s.end >= w.ran_at.unwrap_or(Ns::MAX));
        let w = t
            .decisions
            .wakeups
            .iter()
            .filter(|w| w.latency().is_some())
            .filter(covered)
            .max_by_key(|w| other(w))
            .unwrap();
        assert!(other(w) > 0, "a wakeup with an 'other' part");
        let ran = ran_instead(t, w);
        // The core's other work: the other tasks' runs and its kernel work for them (the
        // wakeup path of the tasks woken onto it, switches, ticks). Since hackbench starts at
        // its kick (800 children woken from CPU 0), a wakeup early in the run can wait
        // behind the wakeup path of the others woken onto the same CPU.
        let busy: Ns = ran.iter().filter(|(n, _)| n != "idle").map(|r| r.1).sum();
        assert!(busy >= other(w), "what ran ({ran:?}) covers 'other' ({} ns)", other(w));
        let tasks: Ns = ran.iter().filter(|(n, _)| t.tasks.iter().any(|k| &k.name == n)).map(|r| r.1).sum();
        assert!(tasks > 0, "other tasks ran: {ran:?}");
        let total: Ns = ran.iter().map(|r| r.1).sum();
        assert!(total <= w.latency().unwrap(), "inside the latency");
        assert!(ran.windows(2).all(|p| p[0].1 >= p[1].1), "largest first");
    }

    // The regression this caught (2026-12-02, after the export branch's one-event counting):
    // the on-demand window's last record is the pick just before the late run (32277928 for
    // a run at 32279131), and a guard on "nothing after the last record" returned nothing for
    // the run asked about. The guard is now the time the records are complete up to
    // (`OnDemand::find`: at least the instant asked).
    #[test]
    fn a_late_wakeup_gets_its_records_on_demand_and_they_add_up() {
        use crate::ui::worker::execute::execute;
        use crate::ui::worker::protocol::Request;
        use crate::ui::worker::protocol::Response;
        use crate::ui::worker::protocol::LIVE_TRACE_ITEMS;
        use crate::ui::worker::protocol::ON_DEMAND_DECISIONS;
        use crate::ui::worker::protocol::PAGE_DECISIONS;
        let mut cfg = (preset("nohz-pipe").unwrap().config)();
        cfg.set("loops", "2000").unwrap();
        let run = |req| match execute(&req) {
            Response::Run { result: Ok(r), .. } => r,
            other => panic!("{other:?}"),
        };
        let page = run(Request::Run { id: 1, config: cfg.clone(), trace_items: LIVE_TRACE_ITEMS });
        let t = &page.trace;
        assert!(t.decisions.len() <= PAGE_DECISIONS);
        let last = crate::engine::explain::span_of(&t.decisions).unwrap().1;
        // Late runs, long after the page's records stop: none of them is explained.
        let late: Vec<&Span> = t
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::Run { .. }) && s.start > last + (t.end - last) / 2)
            .collect();
        assert!(late.len() > 100 && late.iter().all(|s| decisions_for(t, s).is_empty()));
        let mut explained = 0;
        for s in late.iter().step_by(late.len() / 5) {
            let (from, to, at) = ask_range(t, s);
            assert!(from < at && at < to && to - from < t.end / 20, "a small window: {from}..{to} around {at}");
            let r = run(Request::Decisions { id: 2, config: cfg.clone(), from, to, at, trace_items: 8_000 });
            assert_eq!(r.metrics.digest, page.metrics.digest, "the same run");
            assert!(r.trace.spans.is_empty() && r.trace.decisions.len() <= ON_DEMAND_DECISIONS);
            let od = OnDemand::new(1, r.metrics.digest.clone(), at, r.trace.decisions);
            assert!(od.answers(at));
            let f = od.find(s);
            assert!(f.pick.is_some(), "the pick that chose the task at {at}");
            if let Some(w) = f.wake {
                let sum: Ns = w.parts.iter().map(|p| p.1).sum();
                assert_eq!(Some(sum), w.latency(), "{w:?}");
                explained += 1;
            }
        }
        assert!(explained >= 3, "most late runs follow a wakeup: {explained}");
    }

    /// Issue 29 (item 2): the on-demand window started `ASK_BEFORE` items before the run, so
    /// for a long latency on a busy run (hackbench-like messaging, 40 CPUs, far into the
    /// run in a stretch a panned timeline loaded) it started after the wakeup and the
    /// inspector showed only the pick. The window now reaches back to the wakeup the page's
    /// trace shows for the run (its `Wakeup` instant), and the record found is that one,
    /// whole: its parts add up.
    #[test]
    fn an_on_demand_window_holds_the_wakeup_of_a_long_latency_far_in_the_run() {
        use crate::engine::trace::InstantKind;
        use crate::ui::worker::execute::execute;
        use crate::ui::worker::protocol::{Request, Response, LIVE_TRACE_ITEMS, ON_DEMAND_TRACE_ITEMS};
        let mut cfg = (preset("messaging-run-to-parity").unwrap().config)();
        cfg.set("duration", "100ms").unwrap();
        let run = |req| match execute(&req) {
            Response::Run { result: Ok(r), .. } => r,
            other => panic!("{other:?}"),
        };
        let page = run(Request::Window { id: 1, config: cfg.clone(), from: 12_000_000, trace_items: LIVE_TRACE_ITEMS });
        let t = &page.trace;
        let mut times: Vec<Ns> = t.spans.iter().map(|s| s.start).chain(t.instants.iter().map(|i| i.time)).collect();
        times.sort_unstable();
        let between = |a: Ns, b: Ns| times.partition_point(|&x| x < b) - times.partition_point(|&x| x <= a);
        // Runs whose wakeup, on the page's trace, is well over `ASK_BEFORE` items earlier:
        // per (task, CPU), each run after the task's last wakeup there with no run between.
        let mut last: std::collections::HashMap<(u32, u16), (Ns, bool)> = Default::default();
        let mut events: Vec<(Ns, u8, usize)> = t.spans.iter().enumerate().map(|(i, s)| (s.start, 1, i)).collect();
        events.extend(t.instants.iter().enumerate().map(|(i, x)| (x.time, 0, i)));
        events.sort_unstable();
        let mut far: Vec<(&Span, Ns)> = Vec::new();
        for (_, kind, i) in events {
            if kind == 0 {
                if let InstantKind::Wakeup { task, .. } = t.instants[i].kind {
                    last.insert((task, t.instants[i].core), (t.instants[i].time, false));
                }
                continue;
            }
            let s = &t.spans[i];
            let SpanKind::Run { task, .. } = s.kind else { continue };
            for (&(_, core), e) in last.iter_mut().filter(|((k, _), _)| *k == task) {
                if core == s.core && !e.1 && e.0 > t.start + 100_000 && between(e.0, s.start) > 2 * ASK_BEFORE {
                    far.push((s, e.0));
                }
                e.1 = true;
            }
        }
        assert!(far.len() >= 3, "long latencies: {}", far.len());
        for &(s, woke) in far.iter().step_by(far.len() / 3).take(3) {
            let (from, to, at) = ask_range(t, s);
            assert!(from < woke, "the window starts before the wakeup ({from} < {woke})");
            let r = run(Request::Decisions {
                id: 2,
                config: cfg.clone(),
                from,
                to,
                at,
                trace_items: ON_DEMAND_TRACE_ITEMS,
            });
            let od = OnDemand::new(1, r.metrics.digest.clone(), at, r.trace.decisions);
            let w = od.find(s).wake.unwrap_or_else(|| panic!("the wakeup at {woke} of the run at {}", s.start));
            assert_eq!(w.time, woke, "that wakeup");
            assert_eq!(w.parts.iter().map(|p| p.1).sum::<Ns>(), w.latency().unwrap(), "its parts add up");
        }
    }
}
