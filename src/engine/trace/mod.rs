//! The trace a run records for drawing and export: per-core spans and instants, bounded.
//!
//! A run records only what falls in `TraceOptions::window` and at most `max_items`
//! spans+instants; past that it stops recording and sets `truncated`, so memory stays
//! bounded however long the run. Times are simulated nanoseconds.

use serde::{Deserialize, Serialize};

use super::explain::records::{Decisions, Explainer};
use super::time::Ns;

pub mod spans;
pub use spans::{Instant, InstantKind, Overhead, PrevState, Span, SpanKind, Switch, TaskInfo, UtilSample};

/// What to record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// Record what overlaps `[window.0, window.1)`.
    pub window: (Ns, Ns),
    /// At most this many spans + instants + switches.
    pub max_items: usize,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions { window: (0, Ns::MAX), max_items: 200_000 }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    pub cores: u16,
    /// Names of the idle states (`POLL`, then the profile's), indexed like `SpanKind::Idle`.
    pub idle_states: Vec<String>,
    pub tasks: Vec<TaskInfo>,
    pub spans: Vec<Span>,
    pub instants: Vec<Instant>,
    /// Every context switch the run counted, in the order made (`Switch`): the export's
    /// `sched_switch` lines. Empty in a trace that did not come from a run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<Switch>,
    /// Recording stopped early at `max_items`.
    pub truncated: bool,
    /// End of simulated time.
    pub end: Ns,
    /// Start of the recorded window (`TraceOptions::window.0`): nothing before it was kept,
    /// though a span that began earlier and overlaps it is. 0 for a trace from the start.
    #[serde(default)]
    pub start: Ns,
    /// Why: the decisions behind the spans (`explain`), recorded with them, as bounded.
    #[serde(default, skip_serializing_if = "Decisions::is_empty")]
    pub decisions: Decisions,
    /// PELT: each CPU's `cfs_rq` `util_avg` (`UtilSample`), in the order recorded, decimated
    /// to changes of `UTIL_STEP` or more (PELT eras only, 3.8+): a counter track.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub util: Vec<UtilSample>,
}

/// A CPU's `util_avg` is sampled when it moved by this much (1/64 of SCHED_CAPACITY_SCALE)
/// since its last sample. That bounds the samples by time, not by updates: a signal moves
/// at most 1024 x (1 - y) ~ 22 a period (1.024 ms; y^32 = 1/2) by decay or growth, so a
/// CPU gives at most about 1.4 samples a ms from that, plus one per attach or detach (a
/// task's arrival or departure, each an event the trace records anyway).
pub const UTIL_STEP: u16 = 16;

/// At most this many decision records (`explain`) in one trace, and at most an eighth of
/// `max_items`: a record is larger than a span (a wakeup's candidates and parts), and the
/// page moves the trace from its worker as JSON.
pub const DECISIONS_MAX: usize = 25_000;

/// The recorder the simulation writes into.
#[derive(Debug)]
pub struct Recorder {
    opts: Option<TraceOptions>,
    pub trace: Trace,
    /// The latest end (or time) of anything recorded: where a cut trace stops.
    last: Ns,
    /// Open decision records (`explain`).
    pub ex: Explainer,
    /// Per core: the `util_avg` last sampled (`util`).
    util_last: Vec<Option<u16>>,
}

impl Recorder {
    pub fn new(opts: Option<TraceOptions>) -> Self {
        let start = opts.map_or(0, |o| o.window.0);
        let cap = opts.map_or(0, |o| (o.max_items / 8).clamp(1, DECISIONS_MAX));
        Recorder {
            opts,
            trace: Trace { start, ..Trace::default() },
            last: 0,
            ex: Explainer::new(cap),
            util_last: Vec::new(),
        }
    }

    /// Core `core`'s `util_avg` after a PELT update at `time`: kept when it moved by
    /// `UTIL_STEP` or more since the core's last sample (the first always), inside the window,
    /// while the trace records, and for at most a quarter of `max_items` samples.
    #[cold]
    #[inline(never)]
    pub fn util(&mut self, core: usize, time: Ns, util: u64) {
        let Some(o) = self.opts else { return };
        if time < o.window.0 || time >= o.window.1 || self.trace.truncated || self.trace.util.len() >= o.max_items / 4 {
            return;
        }
        let v = util.min(1024) as u16;
        if self.util_last.len() <= core {
            self.util_last.resize(core + 1, None);
        }
        if self.util_last[core].is_some_and(|last| last.abs_diff(v) < UTIL_STEP) {
            return;
        }
        self.util_last[core] = Some(v);
        self.trace.util.push(UtilSample { core: core as u16, time, util: v });
    }

    /// A context switch (`Switch`), recorded like an instant (window, budget).
    #[inline]
    pub fn switch(&mut self, sw: Switch) {
        let Some(o) = self.opts else { return };
        if sw.time < o.window.0 || sw.time >= o.window.1 || self.trace.truncated {
            return;
        }
        if self.room() {
            self.trace.switches.push(sw);
            self.last = self.last.max(sw.time);
        }
    }

    /// A span still open when the run ends (a core idle or running since `start`). In a
    /// trace cut at its item limit it is kept, clipped to where the trace stops, so a core
    /// idle all along does not show as a blank lane; `room` keeps one item per core back
    /// for these, and the trace never holds more than `max_items`.
    pub fn closing_span(&mut self, core: usize, start: Ns, end: Ns, kind: SpanKind) {
        let Some(o) = self.opts else { return };
        if !self.trace.truncated {
            return self.span(core, start, end, kind);
        }
        let end = end.min(self.last).min(o.window.1);
        let start = start.max(o.window.0);
        if start < end && self.items() < o.max_items {
            self.trace.spans.push(Span { core: core as u16, start, end, kind });
        }
    }

    #[inline]
    pub fn enabled(&self) -> bool {
        self.opts.is_some() && !self.trace.truncated
    }

    /// Whether a trace is being recorded at all (open decision records may need updating).
    #[inline]
    pub fn on(&self) -> bool {
        self.opts.is_some()
    }

    /// Whether decisions are recorded now: the trace records at `t` and the budget allows.
    #[inline]
    pub fn explaining(&self, t: Ns) -> bool {
        match self.opts {
            Some(o) => {
                !self.trace.truncated && t >= o.window.0 && t < o.window.1 && self.trace.decisions.len() < self.ex.cap
            }
            None => false,
        }
    }

    /// Items recorded: spans, instants and switches.
    #[inline]
    fn items(&self) -> usize {
        self.trace.spans.len() + self.trace.instants.len() + self.trace.switches.len()
    }

    #[inline]
    fn room(&mut self) -> bool {
        let Some(o) = self.opts else { return false };
        // One item per core is kept back for the spans still open at the end.
        let reserve = (self.trace.cores as usize).min(o.max_items / 2);
        if self.items() >= o.max_items - reserve {
            self.trace.truncated = true;
            return false;
        }
        true
    }

    #[inline]
    pub fn span(&mut self, core: usize, start: Ns, end: Ns, kind: SpanKind) {
        let Some(o) = self.opts else { return };
        if end <= start || end <= o.window.0 || start >= o.window.1 || self.trace.truncated {
            return;
        }
        if self.room() {
            self.trace.spans.push(Span { core: core as u16, start, end, kind });
            self.last = self.last.max(end);
        }
    }

    #[inline]
    pub fn instant(&mut self, core: usize, time: Ns, kind: InstantKind) {
        let Some(o) = self.opts else { return };
        if time < o.window.0 || time >= o.window.1 || self.trace.truncated {
            return;
        }
        if self.room() {
            self.trace.instants.push(Instant { core: core as u16, time, kind });
            self.last = self.last.max(time);
        }
    }
}
