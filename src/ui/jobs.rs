//! Simulation jobs: the wire protocol between the page and the worker, how one job runs,
//! and the scheduler that keeps at most one job in flight with latest-wins semantics.
//!
//! No yew or web-sys here: the worker bin (`src/bin/worker.rs`) and the main-thread
//! fallback both call `execute`, and the scheduler is tested natively. Messages are
//! serde_json strings (a boundary format owned here, not the engine's types).

use serde::{Deserialize, Serialize};

use crate::engine::config::Config;
use crate::engine::metrics::Metrics;
use crate::engine::trace::{Trace, TraceOptions};
use crate::engine::validate;

/// Event budget of the live run while a person drags a knob.
pub const LIVE_EVENT_BUDGET: u64 = 2_000_000;
/// Event budget of each sweep point (there are up to 32 of them).
pub const SWEEP_EVENT_BUDGET: u64 = 500_000;
/// At most this many spans + instants in the live trace (bounded message size).
pub const LIVE_TRACE_ITEMS: usize = 60_000;

/// What the page asks the worker to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Simulate `config`; record a trace when `trace` is set.
    Run { id: u64, config: Config, trace: bool },
    /// Compute the seed tables (`validate::validate_all(true)`).
    Seeds { id: u64 },
}

impl Request {
    pub fn id(&self) -> u64 {
        match self {
            Request::Run { id, .. } | Request::Seeds { id } => *id,
        }
    }
}

/// A run's figures and (possibly empty) trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub metrics: Metrics,
    pub trace: Trace,
}

/// A seed experiment's table and rows, as the engine's validation produces them (they
/// serialize both ways, so the worker ships them as they are).
pub use crate::engine::validate::{Row as SeedRow, Table as SeedTable};

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // one message at a time; boxing buys nothing
pub enum Response {
    /// The worker is listening (sent once after start).
    Ready,
    Run {
        id: u64,
        result: Result<RunResult, String>,
    },
    Seeds {
        id: u64,
        tables: Vec<SeedTable>,
    },
    /// A message the worker could not read.
    Garbled {
        error: String,
    },
}

/// Runs one job (in the worker, or on the main thread as a fallback).
pub fn execute(req: &Request) -> Response {
    match req {
        Request::Run { id, config, trace } => {
            let opts = trace.then_some(TraceOptions { window: (0, config.duration), max_items: LIVE_TRACE_ITEMS });
            let result = crate::engine::run(config, opts)
                .map(|o| {
                    let mut metrics = o.metrics;
                    finite(&mut metrics);
                    RunResult { metrics, trace: o.trace }
                })
                .map_err(|e| e.to_string());
            Response::Run { id: *id, result }
        }
        Request::Seeds { id } => Response::Seeds { id: *id, tables: validate::validate_all(true) },
    }
}

/// Replaces non-finite floats by 0: JSON has no NaN, and one NaN would garble the answer.
pub fn finite(m: &mut Metrics) {
    let fix = |x: &mut f64| {
        if !x.is_finite() {
            *x = 0.0
        }
    };
    for x in [&mut m.elapsed_s, &mut m.throughput, &mut m.user_s, &mut m.sys_s, &mut m.idle_s, &mut m.cpu_percent] {
        fix(x);
    }
    fix(&mut m.wall_s);
    let p = &mut m.wakeup_latency_us;
    for x in [&mut p.p50, &mut p.p99, &mut p.max] {
        fix(x);
    }
    m.cstate_residency.values_mut().for_each(fix);
    m.overhead_s.values_mut().for_each(fix);
    m.wakeup_latency_hist.iter_mut().for_each(|(b, _)| fix(b));
}

/// The worker's message handler: JSON request in, JSON response out (never panics on input).
pub fn handle_text(text: &str) -> String {
    let resp = match serde_json::from_str::<Request>(text) {
        Ok(req) => execute(&req),
        Err(e) => Response::Garbled { error: e.to_string() },
    };
    to_text(&resp)
}

/// Serializes a message (these types always serialize).
pub fn to_text<T: Serialize>(msg: &T) -> String {
    serde_json::to_string(msg).unwrap_or_else(|e| format!("{{\"Garbled\":{{\"error\":\"{e}\"}}}}"))
}

/// Reads a worker response.
pub fn parse_response(text: &str) -> Response {
    serde_json::from_str(text).unwrap_or_else(|e| Response::Garbled { error: e.to_string() })
}

/// `config` with its event budget capped for interactive use; also says whether it was capped.
pub fn capped(config: &Config, budget: u64) -> (Config, bool) {
    let mut c = config.clone();
    let was = c.max_events > budget;
    c.max_events = c.max_events.min(budget);
    (c, was)
}

/// What an in-flight job was for, so its answer reaches the right place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobKind {
    Live { gen: u64 },
    Sweep { gen: u64, index: usize },
    Seeds,
}

/// A sweep waiting to be run point by point.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    pub gen: u64,
    /// Configs of the points, in order.
    pub points: Vec<Config>,
    pub next: usize,
}

/// Keeps one job in flight: the latest live run first, then seed tables, then sweep
/// points one at a time. A newer live run or sweep replaces a waiting one, so stale work
/// is never started (an answer to stale work is dropped by generation in the reducer).
#[derive(Debug, Default)]
pub struct Scheduler {
    next_id: u64,
    in_flight: Option<(u64, JobKind)>,
    live: Option<(u64, Config)>,
    sweep: Option<SweepPlan>,
    seeds: bool,
}

impl Scheduler {
    /// Asks for a live run of `config` (replaces a waiting one).
    pub fn want_live(&mut self, gen: u64, config: Config) {
        self.live = Some((gen, config));
    }

    /// Asks for a sweep (replaces the one in progress).
    pub fn want_sweep(&mut self, gen: u64, points: Vec<Config>) {
        self.sweep = Some(SweepPlan { gen, points, next: 0 });
    }

    pub fn want_seeds(&mut self) {
        self.seeds = true;
    }

    pub fn busy(&self) -> bool {
        self.in_flight.is_some()
    }

    /// The next request to send, if nothing is in flight and something is waiting.
    pub fn next_request(&mut self) -> Option<Request> {
        if self.in_flight.is_some() {
            return None;
        }
        self.next_id += 1;
        let id = self.next_id;
        if let Some((gen, config)) = self.live.take() {
            self.in_flight = Some((id, JobKind::Live { gen }));
            return Some(Request::Run { id, config, trace: true });
        }
        if std::mem::take(&mut self.seeds) {
            self.in_flight = Some((id, JobKind::Seeds));
            return Some(Request::Seeds { id });
        }
        if let Some(plan) = &mut self.sweep {
            if let Some(config) = plan.points.get(plan.next).cloned() {
                self.in_flight = Some((id, JobKind::Sweep { gen: plan.gen, index: plan.next }));
                plan.next += 1;
                return Some(Request::Run { id, config, trace: false });
            }
            self.sweep = None;
        }
        None
    }

    /// Marks the job `id` done and says what it was for (None for an unknown id).
    pub fn finish(&mut self, id: u64) -> Option<JobKind> {
        match &self.in_flight {
            Some((i, _)) if *i == id => self.in_flight.take().map(|(_, k)| k),
            _ => None,
        }
    }

    /// Puts back a job whose runner died before answering, unless newer work replaced it.
    pub fn retry(&mut self, kind: JobKind, req: Request) {
        match (kind, req) {
            (JobKind::Live { gen }, Request::Run { config, .. }) if self.live.is_none() => {
                self.live = Some((gen, config));
            }
            (JobKind::Sweep { gen, index }, _) => {
                if let Some(plan) = &mut self.sweep {
                    if plan.gen == gen {
                        plan.next = plan.next.min(index);
                    }
                }
            }
            (JobKind::Seeds, _) => self.seeds = true,
            _ => {}
        }
    }

    /// Forgets the job in flight (its runner died) so the next one can start.
    pub fn abandon(&mut self) -> Option<JobKind> {
        self.in_flight.take().map(|(_, k)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(seed: u64) -> Config {
        Config { seed, ..Config::default() }
    }

    #[test]
    fn one_job_in_flight_and_the_latest_live_run_wins() {
        let mut s = Scheduler::default();
        s.want_live(1, cfg(1));
        let Some(Request::Run { id, config, trace: true }) = s.next_request() else { panic!("a live run with trace") };
        assert_eq!(config.seed, 1);
        assert_eq!(s.next_request(), None, "nothing new while one is in flight");
        s.want_live(2, cfg(2));
        s.want_live(3, cfg(3));
        assert_eq!(s.finish(id), Some(JobKind::Live { gen: 1 }));
        let Some(Request::Run { id, config, .. }) = s.next_request() else { panic!() };
        assert_eq!(config.seed, 3, "gen 2 was never started");
        assert_eq!(s.finish(id), Some(JobKind::Live { gen: 3 }));
        assert_eq!(s.next_request(), None);
    }

    #[test]
    fn sweeps_run_point_by_point_after_live_runs_and_are_replaced() {
        let mut s = Scheduler::default();
        s.want_sweep(5, vec![cfg(10), cfg(11), cfg(12)]);
        let Some(Request::Run { id, trace: false, config }) = s.next_request() else { panic!() };
        assert_eq!(config.seed, 10);
        s.want_live(6, cfg(1));
        assert_eq!(s.finish(id), Some(JobKind::Sweep { gen: 5, index: 0 }));
        let Some(Request::Run { id, trace: true, .. }) = s.next_request() else { panic!("live first") };
        s.finish(id);
        s.want_sweep(6, vec![cfg(20)]);
        let Some(Request::Run { id, config, .. }) = s.next_request() else { panic!() };
        assert_eq!(config.seed, 20, "the old sweep's remaining points are dropped");
        assert_eq!(s.finish(id), Some(JobKind::Sweep { gen: 6, index: 0 }));
        assert_eq!(s.next_request(), None);
    }

    #[test]
    fn unknown_answers_are_ignored_and_abandon_frees_the_slot() {
        let mut s = Scheduler::default();
        s.want_seeds();
        let Some(Request::Seeds { id }) = s.next_request() else { panic!() };
        assert_eq!(s.finish(id + 7), None);
        assert!(s.busy());
        assert_eq!(s.abandon(), Some(JobKind::Seeds));
        assert!(!s.busy());
    }

    #[test]
    fn retried_jobs_run_again_unless_replaced() {
        let mut s = Scheduler::default();
        s.want_sweep(2, vec![cfg(10), cfg(11)]);
        let req = s.next_request().unwrap();
        let kind = s.abandon().unwrap();
        s.retry(kind, req);
        let Some(Request::Run { config, .. }) = s.next_request() else { panic!() };
        assert_eq!(config.seed, 10, "the lost sweep point is run again");
        s.abandon();
        s.want_live(1, cfg(1));
        let req = s.next_request().unwrap();
        let kind = s.abandon().unwrap();
        s.want_live(2, cfg(2));
        s.retry(kind, req);
        let Some(Request::Run { config, .. }) = s.next_request() else { panic!() };
        assert_eq!(config.seed, 2, "a newer live run wins over the retried one");
    }

    #[test]
    fn the_wire_format_round_trips_and_garbage_gets_an_answer() {
        let req = Request::Run { id: 4, config: cfg(9), trace: false };
        let text = to_text(&req);
        assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), req);
        let resp = parse_response(&handle_text(&text));
        let Response::Run { id: 4, result: Ok(r) } = resp else { panic!("{resp:?}") };
        assert!(r.trace.spans.is_empty(), "no trace was asked for");
        assert!(matches!(parse_response(&handle_text("{not json")), Response::Garbled { .. }));
        assert!(matches!(parse_response("nonsense"), Response::Garbled { .. }));
    }

    #[test]
    fn nan_metrics_still_cross_the_wire() {
        let mut m = Metrics { throughput: f64::NAN, elapsed_s: f64::INFINITY, ..Default::default() };
        m.cstate_residency.insert("C6".into(), f64::NAN);
        finite(&mut m);
        let text = to_text(&Response::Run { id: 1, result: Ok(RunResult { metrics: m, trace: Trace::default() }) });
        assert!(matches!(parse_response(&text), Response::Run { id: 1, result: Ok(_) }), "{text}");
    }

    #[test]
    fn interactive_caps_only_lower_the_budget() {
        let (c, was) = capped(&Config::default(), LIVE_EVENT_BUDGET);
        assert!(was);
        assert_eq!(c.max_events, LIVE_EVENT_BUDGET);
        let small = Config { max_events: 5_000, ..Config::default() };
        assert_eq!(capped(&small, LIVE_EVENT_BUDGET), (small.clone(), false));
    }
}
