//! What the page holds of a run (pure): `RunView`, a finished run as the views show it, and
//! `Pinned`, the config kept as A with its run so far.

use std::rc::Rc;

use crate::engine::config::Config;
use crate::engine::trace::Trace;
use crate::ui::explore::replicas::Reps;

/// A finished run as the views show it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    /// The config generation it belongs to.
    pub gen: u64,
    pub config: Config,
    pub metrics: crate::engine::Metrics,
    pub trace: Rc<Trace>,
    /// A quick capped run shown while the full run is still computing
    /// (see `protocol::PREVIEW_EVENT_BUDGET`).
    pub preview: bool,
    /// The trace is a stretch recorded again later in the run (`Action::WindowDone`), so
    /// the timeline keeps the view the user panned to rather than fitting the new trace.
    pub windowed: bool,
}

impl RunView {
    /// Whether these figures stop short of the whole run: a preview cut by its event budget
    /// (a preview that ran to the end has final figures, and only its trace was short).
    pub fn figures_partial(&self) -> bool {
        self.preview && self.metrics.stop_reason == Some(crate::engine::metrics::StopReason::EventBudget)
    }
}

/// A pinned config to compare against ("A"); the current config is "B".
#[derive(Clone, Debug, PartialEq)]
pub struct Pinned {
    /// Identity of this pin (each pin gets a new one), so a late answer for an earlier A is
    /// dropped.
    pub id: u64,
    pub config: Config,
    /// A's run as far as it has come: None, its preview, then its full run. While A is the
    /// current config its answers come from the current run; once B is current and A has no
    /// full result yet, A is run on its own (`State::pin_job`, `Action::PinDone`).
    pub result: Option<Rc<RunView>>,
    /// Why A cannot run (then it never gets a result).
    pub error: Option<String>,
    /// The user stopped A's full run: A keeps its preview (labelled so) until "Run in full".
    pub cancelled: bool,
    /// A's runs with the further seeds when the main figures are a mean (`State::main_seeds`).
    pub reps: Option<Rc<Reps>>,
}

impl Pinned {
    /// Whether A's full run is still to come: no result yet, or only its preview.
    pub fn waiting(&self) -> bool {
        self.error.is_none() && !self.cancelled && self.result.as_ref().is_none_or(|r| r.preview)
    }
}
