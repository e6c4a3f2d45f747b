//! The inspector's slice of the app's state (pure): decision records asked for on demand
//! and their answer, and the governor comparison of the current config. Its actions read
//! the current run (`Run`: generation, config and the full run's figures) and may leave a
//! notice; they never change the config.

use std::rc::Rc;

use crate::engine::config::Config;
use crate::engine::time::{Ns, MS};
use crate::engine::trace::{Span, SpanKind, Trace};
use crate::engine::Metrics;
use crate::ui::common::notices::Notices;
use crate::ui::inspect::find::OnDemand;
use crate::ui::inspect::governors::GovCompare;
use crate::ui::worker::protocol::RunResult;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct InspectState {
    /// Decision records asked for by the inspector and not yet in: (gen, from, to, at).
    pub decisions_req: Option<(u64, u64, u64, u64)>,
    /// The last records fetched on demand (`inspect::find::OnDemand`).
    pub on_demand: Option<Rc<OnDemand>>,
    /// The governor comparison of the current config (`inspect::governors`), once asked.
    pub gov_compare: Option<Rc<GovCompare>>,
    /// A span to open in the inspector (`InspectAction::Open`); the timeline showing that
    /// run takes it.
    pub open: Option<OpenSpan>,
    /// The wakeup behind a latency figure asked of the worker (`InspectAction::FindWakeup`)
    /// and not yet in: (gen, percent, serial).
    pub wakeup_req: Option<(u64, u8, u64)>,
    /// A wakeup found past the stretch the timeline holds: (gen, its run as the worker
    /// named it, its records), opened once that stretch arrives (`window_arrived`).
    pub pending: Option<(u64, Span, Rc<OnDemand>)>,
    /// The stretch to load for `pending` (the app asks for it: `take_window_ask`).
    pub window_ask: Option<Ns>,
}

/// A span to open in the inspector: span `span` of the trace of the run shown for
/// generation `gen` (its preview or full run) on B's timeline, or on the pinned A's (`a`).
/// `serial` grows with each ask, so asking for the same span again opens it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSpan {
    pub serial: u64,
    pub gen: u64,
    pub preview: bool,
    pub a: bool,
    pub span: usize,
}

impl OpenSpan {
    /// What a timeline showing `(gen, preview)`, A's (`a`) or B's, takes as its `select`.
    pub fn select_for(open: Option<OpenSpan>, a: bool, gen: u64, preview: bool) -> Option<(u64, usize)> {
        open.filter(|o| o.a == a && o.gen == gen && o.preview == preview).map(|o| (o.serial, o.span))
    }
}

#[allow(clippy::large_enum_variant)] // actions are moved once, not stored
#[derive(Clone, Debug, PartialEq)]
pub enum InspectAction {
    /// The inspector holds no records for an instant of the current full run: fetch those
    /// near `at`, recording `[from, to)` (`protocol::Request::Decisions`).
    NeedDecisions {
        from: u64,
        to: u64,
        at: u64,
    },
    DecisionsDone {
        gen: u64,
        at: u64,
        result: Result<RunResult, String>,
    },
    /// Open span `span` of the run shown for generation `gen` (its preview or full run),
    /// on A's timeline (`a`) or B's, in the inspector: a latency figure clicked
    /// (`inspect::find::wakeup_near`).
    Open {
        gen: u64,
        preview: bool,
        a: bool,
        span: usize,
    },
    /// Find the wakeup behind the current full run's latency figure at `percent` (50, 99;
    /// 100 the max) in the worker (`protocol::Request::Wakeup`), then open it.
    FindWakeup {
        percent: u8,
    },
    /// The worker's answer to `FindWakeup`: the run's figures, the records around the
    /// wakeup and, as the one span, the run it led to.
    WakeupDone {
        gen: u64,
        percent: u8,
        result: Result<RunResult, String>,
    },
    /// Run the current config under each cpuidle governor (`inspect::governors`).
    CompareGovernors,
    GovernorDone {
        gen: u64,
        index: usize,
        result: Result<Metrics, String>,
    },
}

/// What the inspector's actions read of the page: the current generation, its config and
/// its full run's figures (None while only a preview or an older run is shown).
pub struct Run<'a> {
    pub gen: u64,
    pub config: &'a Config,
    pub full: Option<&'a Metrics>,
    /// The full run's trace (with `full`).
    pub trace: Option<&'a Trace>,
}

impl InspectState {
    /// Opens the run `found` (a worker's `Request::Wakeup` answer) on `trace`, the timeline's
    /// trace of `gen`, with its records `od`: the task's first span on that CPU from the
    /// switch on (the switch and the refill are the task's: its start). False when `trace`
    /// does not hold it.
    fn place(&mut self, gen: u64, trace: &Trace, found: Span, od: &OnDemand) -> bool {
        let SpanKind::Run { task, .. } = found.kind else { return false };
        let at = trace
            .spans
            .iter()
            .enumerate()
            .filter(|(_, s)| s.core == found.core && s.start >= found.start && s.start <= found.start + MS)
            .filter(|(_, s)| matches!(s.kind, SpanKind::Run { task: t, .. } if t == task))
            .min_by_key(|(_, s)| s.start);
        let Some((i, s)) = at else { return false };
        self.on_demand = Some(Rc::new(OnDemand { at: s.start, ..od.clone() }));
        let serial = self.open.map_or(0, |o| o.serial + 1);
        self.open = Some(OpenSpan { serial, gen, preview: false, a: false, span: i });
        true
    }

    /// The stretch `pending` needs loaded, once (the app turns it into a `Request::Window`).
    pub fn take_window_ask(&mut self) -> Option<Ns> {
        self.window_ask.take()
    }

    /// A stretch of `gen`'s run arrived on the timeline (`trace`): opens the pending wakeup
    /// if it is there. A stretch cut by its item budget before the run (a busier part of
    /// the run than the one held when it was asked) is asked again from later: as long as
    /// the one that arrived, with the run at 3/4 of it. It starts later each time, so the
    /// asks end; when none can hold the run, a notice says so.
    pub fn window_arrived(&mut self, gen: u64, trace: &Trace, notices: &mut Notices) {
        let Some((g, found, od)) = self.pending.take() else { return };
        if g != gen || self.place(gen, trace, found, &od) {
            return;
        }
        // How far the stretch reached on the run's CPU: other CPUs, ahead of global time
        // when the budget ran out, can reach past the run when its own CPU did not.
        let core = trace.spans.iter().filter(|s| s.core == found.core);
        let end = core.map(|s| s.end).max().unwrap_or(trace.start).max(trace.start);
        let from = found.start.saturating_sub((end - trace.start) * 3 / 4);
        if trace.truncated && end <= found.start && from > trace.start {
            self.pending = Some((g, found, od));
            self.window_ask = Some(from);
        } else if end > found.start {
            // The stretch holds the run's CPU past it, and no span of the task starts there:
            // it was switched in and out with no time between (a woken task that blocks
            // again at once, e.g. a hackbench receiver finding its socket empty).
            notices.push(format!(
                "That wakeup's run, at {}, took no time (switched in and straight out), so the timeline has no \
                 span to open; `schedscope run --explain` with this config shows its record.",
                crate::engine::time::human_duration(found.start)
            ));
        } else {
            notices.push(format!(
                "That wakeup's run, at {}, did not load on the timeline; `schedscope run --explain` with this \
                 config shows it.",
                crate::engine::time::human_duration(found.start)
            ));
        }
    }

    /// Applies `a`; false when the state must stay as it was (a stale answer).
    pub fn reduce(&mut self, a: InspectAction, run: Run, notices: &mut Notices) -> bool {
        match a {
            InspectAction::NeedDecisions { from, to, at } => {
                if run.full.is_some() && self.decisions_req.is_none_or(|(g, .., a)| g != run.gen || a != at) {
                    self.decisions_req = Some((run.gen, from, to, at));
                }
            }
            InspectAction::Open { gen, preview, a, span } => {
                let serial = self.open.map_or(0, |o| o.serial + 1);
                self.open = Some(OpenSpan { serial, gen, preview, a, span });
            }
            InspectAction::FindWakeup { percent } => {
                if run.full.is_some() {
                    let serial = self.wakeup_req.map_or(0, |w| w.2 + 1);
                    self.wakeup_req = Some((run.gen, percent, serial));
                }
            }
            InspectAction::WakeupDone { gen, percent, result } => {
                if self.wakeup_req.is_some_and(|w| w.0 == gen && w.1 == percent) {
                    self.wakeup_req = None;
                }
                let (Some(full), Some(trace)) = (run.full.filter(|_| gen == run.gen), run.trace) else { return false };
                let r = match result {
                    Ok(r) if r.metrics.digest == full.digest => r,
                    Ok(_) => {
                        notices.push("The wakeup came from a different run (its digest differs); not shown.");
                        return true;
                    }
                    Err(e) => {
                        notices.push(format!("The wakeup could not be found: {e}"));
                        return true;
                    }
                };
                let Some(&found) = r.trace.spans.first() else {
                    notices.push("The run has no wakeup that ran.");
                    return true;
                };
                let wake = r.trace.decisions.wakeups.iter().find(|w| w.ran_at == Some(found.start)).map(|w| w.time);
                let od = OnDemand::new(gen, r.metrics.digest, found.start, r.trace.decisions);
                if self.place(gen, trace, found, &od) {
                    return true;
                }
                // A part of its run (`timeline::window::is_partial`): more of it can load.
                if trace.truncated || trace.start > 0 {
                    // Past the stretch the timeline holds: load a stretch holding the
                    // run (`Request::Window`), then open it (`window_arrived`). A stretch as
                    // long as the one held fits the item budget: from a little before the
                    // wakeup, or, for a latency longer than that, with the run at 3/4 of it.
                    let held = trace.spans.iter().map(|s| s.end).max().unwrap_or(0).saturating_sub(trace.start);
                    let back = found.start.saturating_sub(wake.unwrap_or(found.start)) + MS / 10;
                    self.pending = Some((gen, found, Rc::new(od)));
                    self.window_ask = Some(found.start.saturating_sub(back.min(held * 3 / 4)));
                } else {
                    notices.push(format!(
                        "That wakeup's run, at {}, is not on the timeline; `schedscope run --explain` with this \
                         config shows it.",
                        crate::engine::time::human_duration(found.start)
                    ));
                }
            }
            InspectAction::CompareGovernors => {
                let serial = self.gov_compare.as_ref().map_or(0, |c| c.serial + 1);
                self.gov_compare = Some(Rc::new(GovCompare::new(run.gen, serial, run.config.clone())));
            }
            InspectAction::GovernorDone { gen, index, result } => {
                if let Some(c) = self.gov_compare.as_mut().filter(|c| c.gen == gen && index < c.rows.len()) {
                    Rc::make_mut(c).rows[index] = Some(result.map(Rc::new));
                }
            }
            InspectAction::DecisionsDone { gen, at, result } => {
                if self.decisions_req.is_some_and(|(g, .., a)| g == gen && a == at) {
                    self.decisions_req = None;
                }
                let Some(full) = run.full.filter(|_| gen == run.gen) else { return false };
                match result {
                    Ok(r) if r.metrics.digest == full.digest => {
                        let od = OnDemand::new(gen, r.metrics.digest, at, r.trace.decisions);
                        self.on_demand = Some(Rc::new(od));
                    }
                    Ok(_) => notices.push("The decisions came from a different run (its digest differs); not shown."),
                    Err(e) => notices.push(format!("The decisions could not be found: {e}")),
                }
            }
        }
        true
    }
}
