//! The inspector's slice of the app's state (pure): decision records asked for on demand
//! and their answer, and the governor comparison of the current config. Its actions read
//! the current run (`Run`: generation, config and the full run's figures) and may leave a
//! notice; they never change the config.

use std::rc::Rc;

use crate::engine::config::Config;
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
    /// A span of the current run's trace to open in the inspector (`InspectAction::Open`):
    /// (serial, generation, preview, span index); the timeline showing that run takes it.
    pub open: Option<(u64, u64, bool, usize)>,
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
    /// Open span `span` of the run shown for generation `gen` (its preview or full run) in
    /// the inspector: a latency figure clicked (`inspect::find::wakeup_near`).
    Open {
        gen: u64,
        preview: bool,
        span: usize,
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
}

impl InspectState {
    /// Applies `a`; false when the state must stay as it was (a stale answer).
    pub fn reduce(&mut self, a: InspectAction, run: Run, notices: &mut Notices) -> bool {
        match a {
            InspectAction::NeedDecisions { from, to, at } => {
                if run.full.is_some() && self.decisions_req.is_none_or(|(g, .., a)| g != run.gen || a != at) {
                    self.decisions_req = Some((run.gen, from, to, at));
                }
            }
            InspectAction::Open { gen, preview, span } => {
                let serial = self.open.map_or(0, |o| o.0 + 1);
                self.open = Some((serial, gen, preview, span));
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
