//! Simulation jobs: the wire protocol between the page and the worker, how one job runs,
//! and the scheduler that keeps at most one job in flight with latest-wins semantics.
//!
//! No yew or web-sys here: the worker bin (`src/bin/worker.rs`) calls `execute` (only the
//! worker: the page's wasm never reaches it, so the linker leaves the engine's run out of
//! the page), and the scheduler is tested natively. Messages are
//! serde_json strings (a boundary format owned here, not the engine's types), except a
//! run's spans and instants: they travel beside the JSON as packed little-endian records
//! (`pack_items`), 24 and 18 bytes each, in a transferred buffer. Tens of thousands of
//! them as JSON cost the page a UTF-16 copy and a parse of megabytes per answer, which
//! froze the main thread for 100 ms and more while a knob was dragged.
//!
//! A run's full answer uses the config's own `max_events` (the engine's cap, which the user
//! sets): only the quick preview and sweep points have smaller budgets, and
//! the live trace is bounded by `LIVE_TRACE_ITEMS` (a cut trace says so: `truncated`). A
//! run is simulated in chunks of `PROGRESS_CHUNK_EVENTS` (`engine::run_chunked`) and reports
//! `Response::Progress` between them; the worker cannot read a message while it computes,
//! so a run is cancelled by terminating the worker and starting a new one (`runner`).

use serde::{Deserialize, Serialize};

use crate::engine::config::Config;
use crate::engine::metrics::{Metrics, StopReason};
use crate::engine::trace::{Instant, InstantKind, Overhead, Span, SpanKind, Trace, TraceOptions};
use crate::engine::validate;

/// A run reports its progress after every this many events (a few tens of ms in wasm).
pub const PROGRESS_CHUNK_EVENTS: u64 = 1_000_000;
/// Event budget of the quick preview that answers each change first (a few ms of engine
/// time even in wasm), so figures follow a dragged knob; most presets finish within it,
/// and then the preview *is* the full run and no second run is made.
pub const PREVIEW_EVENT_BUDGET: u64 = 250_000;
/// At most this many spans + instants in a preview's trace (a smaller message to parse on
/// the main thread while the knob moves).
pub const PREVIEW_TRACE_ITEMS: usize = 20_000;
/// Event budget of each sweep point (there are up to 32 of them).
pub const SWEEP_EVENT_BUDGET: u64 = 500_000;
/// At most this many spans + instants in the live trace: 4.4 MB packed at most, decoded in
/// a few ms, and enough for the whole of every preset but the long pipe runs (whose figures
/// are still the whole run's: only the trace stops, and says so).
pub const LIVE_TRACE_ITEMS: usize = 200_000;
/// At most this many decision records (`engine::explain`) travel with a trace to the page:
/// the first ones in time. They cross as JSON (about 500 bytes each); the 25,000 the engine
/// keeps for a live trace were 12 MB, a parse of over 100 ms on the main thread. The
/// inspector says where they stop and how to get the rest (`run --explain`).
pub const PAGE_DECISIONS: usize = 3_000;

/// Keeps the first `max` decision records in time (all kinds together), in their order.
pub fn bound_decisions(d: &mut crate::engine::explain::Decisions, max: usize) {
    if d.len() <= max {
        return;
    }
    let mut times: Vec<u64> = d.wakeups.iter().map(|r| r.time).collect();
    times.extend(d.picks.iter().map(|r| r.time));
    times.extend(d.idles.iter().map(|r| r.time));
    times.extend(d.wasted.iter().map(|r| r.start));
    times.sort_unstable();
    let cut = times[max];
    d.wakeups.retain(|r| r.time < cut);
    d.picks.retain(|r| r.time < cut);
    d.idles.retain(|r| r.time < cut);
    d.wasted.retain(|r| r.start < cut);
}

/// A worker that could not start (`crashed` false) or died in a job (`crashed`), and what the
/// page says about it: the browser's words, what it means and how to fix it. The page never
/// simulates or reads a trace itself, so this is all it can do; the config is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerDown {
    pub crashed: bool,
    pub text: String,
}

impl WorkerDown {
    /// `worker` names it ("simulation", "trace"); `why` is the browser's message.
    pub fn new(worker: &str, why: &str, crashed: bool) -> WorkerDown {
        let text = if crashed {
            format!(
                "The {worker} worker stopped in the middle of a job ({why}). That is a bug in schedscope, not in your \
                 settings: the job was dropped and a new worker started; your settings are kept. Please report \
                 this page's link."
            )
        } else {
            format!(
                "The {worker} worker could not start ({why}). schedscope runs every simulation and reads every trace \
                 in a Web Worker, never on the page itself, so nothing runs until one starts; your settings are kept \
                 in the link. To fix it: reload the page; use a current Chrome, Edge, Firefox or Safari with \
                 JavaScript and WebAssembly allowed (a content blocker or a strict policy may block \
                 worker_loader.js); if you serve the files yourself, serve the whole dist/ folder over http(s), \
                 not from file://."
            )
        };
        WorkerDown { crashed, text }
    }
}

/// What the page asks the worker to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // one request per job, sent once: its size does not matter
pub enum Request {
    /// Simulate `config`; record a trace of at most `trace_items` items (0: none).
    Run { id: u64, config: Config, trace_items: usize },
    /// Compute one seed or corpus table, quick (`validate::validate_preset(preset, true)`):
    /// one job per table, so the first tables show while the corpus's longer ones run and
    /// a knob's preview can go between them.
    Seeds { id: u64, preset: String },
    /// Simulate `config` again and record its trace from `from` on (at most `trace_items`
    /// items): the stretch of a long run that the live trace, cut at its item budget, did not
    /// keep. Same config, same events: the figures are the live run's.
    Window { id: u64, config: Config, from: u64, trace_items: usize },
    /// Read a recorded trace (`ui::traces::job`): `text`, or in the worker the file that
    /// travels beside the message (`text` empty). `key` names the file for the replay cache.
    TraceOpen { id: u64, key: String, text: String },
    /// Replay the trace `key` (parsed again from `text` or the file beside when the worker
    /// does not hold it) under `config` and diff it against the recording.
    TraceReplay { id: u64, key: String, config: Config, text: String },
    /// Simulate `config` again recording only `[from, to)` (at most `trace_items` items) and
    /// answer with the decision records nearest `at` (`explain::nearest`, at most
    /// `ON_DEMAND_DECISIONS`) and no spans: the inspector's records for an instant the page
    /// holds none for (`inspect::find::ask_range`). Same config, same figures.
    Decisions { id: u64, config: Config, from: u64, to: u64, at: u64, trace_items: usize },
}

/// At most this many decision records answer a `Request::Decisions` (a few hundred KB).
pub const ON_DEMAND_DECISIONS: usize = 300;
/// The trace budget of a `Request::Decisions` run (its decision budget is an eighth of it).
pub const ON_DEMAND_TRACE_ITEMS: usize = 8_000;

impl Request {
    pub fn id(&self) -> u64 {
        match self {
            Request::Run { id, .. }
            | Request::Seeds { id, .. }
            | Request::Window { id, .. }
            | Request::TraceOpen { id, .. }
            | Request::TraceReplay { id, .. }
            | Request::Decisions { id, .. } => *id,
        }
    }
}

/// A run's figures and (possibly empty) trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub metrics: Metrics,
    pub trace: Trace,
}

impl RunResult {
    /// Whether a capped run came out exactly as an uncapped one would: it stopped for
    /// another reason than the event budget and its trace was not cut.
    pub fn complete(&self) -> bool {
        self.metrics.stop_reason != Some(StopReason::EventBudget) && !self.trace.truncated
    }
}

/// A seed experiment's table and rows, as the engine's validation produces them (they
/// serialize both ways, so the worker ships them as they are).
pub use crate::engine::validate::{Row as SeedRow, Table as SeedTable};

/// How far a run in progress has come (`engine::sim::Progress` on the wire).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunProgress {
    /// Simulated time reached and the run's `duration`, ns.
    pub now: u64,
    pub duration: u64,
    /// Events handled so far and the run's `max_events`.
    pub events: u64,
    pub max_events: u64,
}

impl RunProgress {
    /// The fraction done (0..=1): the further of simulated time and events, since a run
    /// stops at whichever limit comes first (a pipe run stops on its loops, before either).
    pub fn fraction(&self) -> f64 {
        let f = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        f(self.now, self.duration).max(f(self.events, self.max_events)).clamp(0.0, 1.0)
    }
}

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
    /// The run `id` is still going (sent between chunks; its `Run` answer follows).
    Progress {
        id: u64,
        progress: RunProgress,
    },
    /// A trace being read: `bytes` of `total` so far.
    TraceProgress {
        id: u64,
        bytes: u64,
        total: u64,
    },
    /// A recorded trace read (its timeline trace's items travel packed, as a run's do).
    TraceOpened {
        id: u64,
        result: Result<super::traces::job::Opened, String>,
    },
    /// A trace replayed and diffed (the simulated trace's items travel packed).
    TraceReplayed {
        id: u64,
        result: Result<super::traces::job::Replayed, String>,
    },
    /// A message the worker could not read.
    Garbled {
        error: String,
    },
}

/// Runs one job (in the worker; natively in tests).
pub fn execute(req: &Request) -> Response {
    execute_with(req, &mut |_| {})
}

/// `execute`, handing a `Response::Progress` to `progress` between chunks of a long run.
pub fn execute_with(req: &Request, progress: &mut dyn FnMut(Response)) -> Response {
    match req {
        Request::Run { id, config, trace_items } | Request::Window { id, config, trace_items, from: _ } => {
            let from = if let Request::Window { from, .. } = req { (*from).min(config.duration) } else { 0 };
            let opts = (*trace_items > 0)
                .then_some(TraceOptions { window: (from, config.duration.max(from)), max_items: *trace_items });
            let report = |p: crate::engine::sim::Progress| {
                let progress_now =
                    RunProgress { now: p.now, duration: p.duration, events: p.events, max_events: p.max_events };
                progress(Response::Progress { id: *id, progress: progress_now })
            };
            let result = crate::engine::run_chunked(config, opts, PROGRESS_CHUNK_EVENTS, report)
                .map(|o| {
                    let (mut metrics, mut trace) = (o.metrics, o.trace);
                    finite(&mut metrics);
                    bound_decisions(&mut trace.decisions, PAGE_DECISIONS);
                    RunResult { metrics, trace }
                })
                .map_err(|e| e.to_string());
            Response::Run { id: *id, result }
        }
        Request::Decisions { id, config, from, to, at, trace_items } => {
            let (from, to) = ((*from).min(config.duration), (*to).max(*from + 1));
            let opts = TraceOptions { window: (from, to), max_items: *trace_items };
            let result = crate::engine::run(config, Some(opts))
                .map(|o| {
                    let (mut metrics, mut trace) = (o.metrics, o.trace);
                    finite(&mut metrics);
                    trace.decisions = crate::engine::explain::nearest(&trace.decisions, *at, ON_DEMAND_DECISIONS);
                    (trace.spans, trace.instants) = (Vec::new(), Vec::new());
                    RunResult { metrics, trace }
                })
                .map_err(|e| e.to_string());
            Response::Run { id: *id, result }
        }
        Request::Seeds { id, preset } => {
            Response::Seeds { id: *id, tables: validate::validate_preset(preset, true).into_iter().collect() }
        }
        Request::TraceOpen { text, .. } | Request::TraceReplay { text, .. } => {
            super::traces::job::execute(req, &mut super::traces::job::chunks_of(text), text.len() as u64, progress)
        }
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

/// The worker's message handler: JSON request in; JSON response out with a run's spans and
/// instants packed apart (`pack_items`; empty when there are none). Never panics on input.
pub fn handle_text(text: &str) -> (String, Vec<u8>) {
    handle_text_with(text, &mut |_| {})
}

/// `handle_text`, handing each progress report of a long run to `progress` as JSON text.
pub fn handle_text_with(text: &str, progress: &mut dyn FnMut(String)) -> (String, Vec<u8>) {
    let mut resp = match serde_json::from_str::<Request>(text) {
        Ok(req) => execute_with(&req, &mut |p| progress(to_text(&p))),
        Err(e) => Response::Garbled { error: e.to_string() },
    };
    respond(&mut resp)
}

/// A response as the worker sends it: JSON, and the trace items it carries packed apart.
pub fn respond(resp: &mut Response) -> (String, Vec<u8>) {
    let packed = match resp_trace(resp) {
        Some(t) => pack_items(t),
        None => Vec::new(),
    };
    (to_text(&*resp), packed)
}

/// The trace a response carries, if any (its items travel packed).
fn resp_trace(resp: &mut Response) -> Option<&mut Trace> {
    match resp {
        Response::Run { result: Ok(r), .. } => Some(&mut r.trace),
        Response::TraceOpened { result: Ok(o), .. } => Some(&mut o.trace),
        Response::TraceReplayed { result: Ok(r), .. } => Some(&mut r.trace),
        _ => None,
    }
}

/// Reads a worker response and puts back the spans and instants packed beside it.
pub fn parse_message(text: &str, packed: &[u8]) -> Response {
    let mut resp = parse_response(text);
    if let Some(t) = resp_trace(&mut resp) {
        if let Err(error) = unpack_items(packed, t) {
            return Response::Garbled { error };
        }
    }
    resp
}

const PACK_MAGIC: &[u8; 4] = b"SSt1";
const SPAN_BYTES: usize = 24;
const INSTANT_BYTES: usize = 18;

/// Moves `trace`'s spans and instants into a byte buffer: a header (magic, span count,
/// instant count) then fixed-size little-endian records. Empty when there is nothing.
pub fn pack_items(trace: &mut Trace) -> Vec<u8> {
    let (spans, instants) = (std::mem::take(&mut trace.spans), std::mem::take(&mut trace.instants));
    if spans.is_empty() && instants.is_empty() {
        return Vec::new();
    }
    let mut b = Vec::with_capacity(12 + spans.len() * SPAN_BYTES + instants.len() * INSTANT_BYTES);
    b.extend_from_slice(PACK_MAGIC);
    b.extend_from_slice(&(spans.len() as u32).to_le_bytes());
    b.extend_from_slice(&(instants.len() as u32).to_le_bytes());
    for s in &spans {
        let (tag, small, task) = match s.kind {
            SpanKind::Run { task, sys } => (0u8, sys as u8, task),
            SpanKind::Idle { state } => (1, state, 0),
            SpanKind::Overhead { kind } => (2, Overhead::ALL.iter().position(|o| *o == kind).unwrap_or(0) as u8, 0),
        };
        b.extend_from_slice(&s.core.to_le_bytes());
        b.extend_from_slice(&[tag, small]);
        b.extend_from_slice(&task.to_le_bytes());
        b.extend_from_slice(&s.start.to_le_bytes());
        b.extend_from_slice(&s.end.to_le_bytes());
    }
    for i in &instants {
        let (tag, from, task) = match i.kind {
            InstantKind::Tick => (0u8, 0u16, 0u32),
            InstantKind::Hrtick => (1, 0, 0),
            InstantKind::Ipi { from } => (2, from, 0),
            InstantKind::Wakeup { from, task } => (3, from, task),
            InstantKind::Migrate { from, task } => (4, from, task),
        };
        b.extend_from_slice(&i.core.to_le_bytes());
        b.extend_from_slice(&[tag, 0]);
        b.extend_from_slice(&from.to_le_bytes());
        b.extend_from_slice(&task.to_le_bytes());
        b.extend_from_slice(&i.time.to_le_bytes());
    }
    b
}

/// Reads what `pack_items` wrote into `trace` (nothing for an empty buffer); an error names
/// what is wrong and leaves `trace` unchanged.
pub fn unpack_items(b: &[u8], trace: &mut Trace) -> Result<(), String> {
    if b.is_empty() {
        return Ok(());
    }
    let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    if b.len() < 12 || &b[..4] != PACK_MAGIC {
        return Err("packed trace: bad header".into());
    }
    let (ns, ni) = (u32_at(4) as usize, u32_at(8) as usize);
    let want = ns.checked_mul(SPAN_BYTES).zip(ni.checked_mul(INSTANT_BYTES)).and_then(|(a, c)| a.checked_add(c));
    if want.and_then(|w| w.checked_add(12)) != Some(b.len()) {
        return Err(format!("packed trace: {} bytes do not hold {ns} spans and {ni} instants", b.len()));
    }
    // Fixed-size records read through arrays: no bounds check per field.
    let (span_bytes, instant_bytes) = b[12..].split_at(ns * SPAN_BYTES);
    let u16_of = |r: &[u8], o: usize| u16::from_le_bytes([r[o], r[o + 1]]);
    let mut spans = Vec::with_capacity(ns);
    for (k, r) in span_bytes.chunks_exact(SPAN_BYTES).enumerate() {
        let r: &[u8; SPAN_BYTES] = r.try_into().map_err(|_| "packed trace: short span".to_string())?;
        let (tag, small) = (r[2], r[3]);
        let task = u32::from_le_bytes([r[4], r[5], r[6], r[7]]);
        let kind = match tag {
            0 => SpanKind::Run { task, sys: small != 0 },
            1 => SpanKind::Idle { state: small },
            2 => match Overhead::ALL.get(small as usize) {
                Some(&kind) => SpanKind::Overhead { kind },
                None => return Err(format!("packed trace: span {k} has overhead kind {small}")),
            },
            _ => return Err(format!("packed trace: span {k} has kind {tag}")),
        };
        let start = u64::from_le_bytes([r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]]);
        let end = u64::from_le_bytes([r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23]]);
        spans.push(Span { core: u16_of(r, 0), start, end, kind });
    }
    let mut instants = Vec::with_capacity(ni);
    for (k, r) in instant_bytes.chunks_exact(INSTANT_BYTES).enumerate() {
        let r: &[u8; INSTANT_BYTES] = r.try_into().map_err(|_| "packed trace: short instant".to_string())?;
        let (from, task) = (u16_of(r, 4), u32::from_le_bytes([r[6], r[7], r[8], r[9]]));
        let kind = match r[2] {
            0 => InstantKind::Tick,
            1 => InstantKind::Hrtick,
            2 => InstantKind::Ipi { from },
            3 => InstantKind::Wakeup { from, task },
            4 => InstantKind::Migrate { from, task },
            t => return Err(format!("packed trace: instant {k} has kind {t}")),
        };
        let time = u64::from_le_bytes([r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17]]);
        instants.push(Instant { core: u16_of(r, 0), time, kind });
    }
    trace.spans = spans;
    trace.instants = instants;
    Ok(())
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
    /// The current config's run; `preview` is the quick capped one.
    Live {
        gen: u64,
        preview: bool,
    },
    Sweep {
        gen: u64,
        index: usize,
    },
    /// The full run of the pinned A with this `Pinned::id` (A is no longer the current
    /// config, so the live runs do not finish it).
    Pin {
        id: u64,
    },
    /// One table of the Experiments view; `last` when no table follows it.
    Seeds {
        preset: String,
        last: bool,
    },
    /// The current config's trace from `from` on (`Request::Window`), for a timeline panned
    /// past what the live trace kept.
    Window {
        gen: u64,
        from: u64,
    },
    /// A further-seed run for the mean of the main figures (`ui::replicas`): B's (`a`
    /// None, config generation `gen`) or the pinned A's (`a` its pin id); replica `index`.
    Replica {
        a: Option<u64>,
        gen: u64,
        index: usize,
    },
    /// The decision records of the current config's run near `at` (`Request::Decisions`).
    Decisions {
        gen: u64,
        at: u64,
    },
    /// Row `index` of a governor comparison (`inspect::governors`): the config under one governor.
    Governor {
        gen: u64,
        index: usize,
    },
}

/// A sweep waiting to be run point by point.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    pub gen: u64,
    /// Configs of the points, in order.
    pub points: Vec<Config>,
    pub next: usize,
}

/// Keeps one job in flight: the latest config's preview first, then its full run, then the
/// pinned A's full run (once no full run is held), then the Experiments tables (one job
/// per table, so a preview can go between two), then sweep points one at a time. A newer config or sweep replaces waiting
/// work, so stale work is never started (an answer to stale work is dropped by generation
/// in the reducer). While a knob moves, only previews run: a full run waits until the
/// runner releases it (`release_full`, after the knob has rested), so its big answer never
/// lands on the page mid-drag.
#[derive(Debug, Default)]
pub struct Scheduler {
    next_id: u64,
    in_flight: Option<(u64, JobKind)>,
    preview: Option<(u64, Config)>,
    /// The latest config's full run, until it is released.
    held: Option<(u64, Config)>,
    live: Option<(u64, Config)>,
    /// The pinned A's full run (`Pinned::id`, capped config).
    pin: Option<(u64, Config)>,
    sweep: Option<SweepPlan>,
    /// Experiments tables still to compute, in order.
    seeds: std::collections::VecDeque<String>,
    /// A stretch of the current config's trace, asked for by a panned timeline.
    window: Option<(u64, Config, u64)>,
    /// Further-seed runs for the mean of the main figures, in order.
    replicas: std::collections::VecDeque<(JobKind, Config)>,
    /// Decision records asked for by the inspector: (gen, config, from, to, at).
    decisions: Option<(u64, Config, u64, u64, u64)>,
    /// A governor comparison's runs still to start: (gen, row, config), in order.
    governors: std::collections::VecDeque<(u64, usize, Config)>,
}

impl Scheduler {
    /// Asks for a preview of `config` now and holds its full run (with the config's own
    /// `max_events`) until `release_full`; both replace older waiting ones.
    pub fn want_live(&mut self, gen: u64, config: &Config) {
        self.preview = Some((gen, capped(config, PREVIEW_EVENT_BUDGET).0));
        self.held = Some((gen, config.clone()));
        self.live = None;
        self.window = None;
        self.decisions = None;
    }

    /// Asks for a governor comparison's runs (replaces one still waiting): full runs, no trace.
    pub fn want_governors(&mut self, gen: u64, configs: Vec<Config>) {
        self.governors = configs.into_iter().enumerate().map(|(i, c)| (gen, i, c)).collect();
    }

    /// Asks for `gen`'s decision records near `at`, recorded in `[from, to)` (replaces a
    /// waiting ask). `config` is the run's config, so the figures are the same.
    pub fn want_decisions(&mut self, gen: u64, config: &Config, (from, to, at): (u64, u64, u64)) {
        self.decisions = Some((gen, config.clone(), from, to, at));
    }

    /// Asks for `gen`'s trace from `from` on (replaces a waiting one). `config` is the run's
    /// config as the live run had it, so the events and figures are the same.
    pub fn want_window(&mut self, gen: u64, config: &Config, from: u64) {
        self.window = Some((gen, config.clone(), from));
    }

    /// Lets the held full run of `gen` start (nothing if a newer config replaced it).
    pub fn release_full(&mut self, gen: u64) {
        if self.held.as_ref().is_some_and(|(g, _)| *g == gen) {
            self.live = self.held.take();
        }
    }

    /// The preview of `gen` was complete (see `RunResult::complete`): its full run would
    /// give the same answer, so it is not started.
    pub fn preview_complete(&mut self, gen: u64) {
        for slot in [&mut self.held, &mut self.live] {
            if slot.as_ref().is_some_and(|(g, _)| *g == gen) {
                *slot = None;
            }
        }
    }

    /// Whether nothing of a config newer than `gen` is waiting.
    fn latest(&self, gen: u64) -> bool {
        [&self.preview, &self.held, &self.live].iter().all(|w| w.as_ref().is_none_or(|(g, _)| *g == gen))
    }

    /// Asks for the full run of the pinned A (`id`, its config as it is), or forgets it
    /// (None: A needs none any more).
    pub fn want_pin(&mut self, job: Option<(u64, Config)>) {
        self.pin = job;
    }

    /// Asks for a sweep (replaces the one in progress).
    pub fn want_sweep(&mut self, gen: u64, points: Vec<Config>) {
        self.sweep = Some(SweepPlan { gen, points, next: 0 });
    }

    /// Asks for the further-seed runs of the main figures (replaces the waiting ones).
    pub fn want_replicas(&mut self, jobs: Vec<(JobKind, Config)>) {
        self.replicas = jobs.into_iter().filter(|(k, _)| matches!(k, JobKind::Replica { .. })).collect();
    }

    /// Asks for every table of the Experiments view (`validate::table_presets`), one job each.
    pub fn want_seeds(&mut self) {
        self.seeds = validate::table_presets().into_iter().map(String::from).collect();
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
        if let Some((gen, config)) = self.preview.take() {
            self.in_flight = Some((id, JobKind::Live { gen, preview: true }));
            return Some(Request::Run { id, config, trace_items: PREVIEW_TRACE_ITEMS });
        }
        if let Some((gen, config)) = self.live.take() {
            self.in_flight = Some((id, JobKind::Live { gen, preview: false }));
            return Some(Request::Run { id, config, trace_items: LIVE_TRACE_ITEMS });
        }
        // A person is looking at the timeline, waiting for it: before the pin, tables, sweeps.
        if self.held.is_none() {
            if let Some((gen, config, from)) = self.window.take() {
                self.in_flight = Some((id, JobKind::Window { gen, from }));
                return Some(Request::Window { id, config, from, trace_items: LIVE_TRACE_ITEMS });
            }
            if let Some((gen, config, from, to, at)) = self.decisions.take() {
                self.in_flight = Some((id, JobKind::Decisions { gen, at }));
                return Some(Request::Decisions { id, config, from, to, at, trace_items: ON_DEMAND_TRACE_ITEMS });
            }
        }
        // Not while a full run is held: the knob is still moving and its previews go first.
        if self.held.is_none() {
            if let Some((pin, config)) = self.pin.take() {
                self.in_flight = Some((id, JobKind::Pin { id: pin }));
                return Some(Request::Run { id, config, trace_items: LIVE_TRACE_ITEMS });
            }
        }
        // The figures the reader looks at, before the tables and the sweep; not while a
        // knob moves (its previews go first).
        if self.held.is_none() {
            if let Some((kind, config)) = self.replicas.pop_front() {
                self.in_flight = Some((id, kind));
                return Some(Request::Run { id, config, trace_items: 0 });
            }
        }
        if let Some((gen, index, config)) = self.governors.pop_front() {
            self.in_flight = Some((id, JobKind::Governor { gen, index }));
            return Some(Request::Run { id, config, trace_items: 0 });
        }
        if let Some(preset) = self.seeds.pop_front() {
            self.in_flight = Some((id, JobKind::Seeds { preset: preset.clone(), last: self.seeds.is_empty() }));
            return Some(Request::Seeds { id, preset });
        }
        if let Some(plan) = &mut self.sweep {
            if let Some(config) = plan.points.get(plan.next).cloned() {
                self.in_flight = Some((id, JobKind::Sweep { gen: plan.gen, index: plan.next }));
                plan.next += 1;
                return Some(Request::Run { id, config, trace_items: 0 });
            }
            self.sweep = None;
        }
        None
    }

    /// What the job `id` is for, if it is the one in flight (a progress report's job).
    pub fn in_flight_kind(&self, id: u64) -> Option<JobKind> {
        self.in_flight.as_ref().filter(|(i, _)| *i == id).map(|(_, k)| k.clone())
    }

    /// Whether the job in flight is a full run of another config than `current` (its answer
    /// would be dropped): a long one is worth stopping so the newer config's preview does
    /// not wait behind it.
    pub fn in_flight_is_stale_live(&self, current: u64) -> bool {
        matches!(&self.in_flight, Some((_, JobKind::Live { gen, preview: false })) if *gen != current)
    }

    /// Stops waiting for the job in flight if it is `kind` (the user cancelled it, or it
    /// is stale): it is not retried. False when another job is in flight (`kind` finished).
    pub fn cancel(&mut self, kind: &JobKind) -> bool {
        if self.in_flight.as_ref().is_some_and(|(_, k)| k == kind) {
            self.in_flight = None;
            return true;
        }
        false
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
            // Unless a newer config is waiting, the preview goes first again.
            (JobKind::Live { gen, preview: true }, Request::Run { config, .. })
                if self.preview.is_none() && self.latest(gen) =>
            {
                self.preview = Some((gen, config));
            }
            (JobKind::Live { gen, preview: false }, Request::Run { config, .. })
                if self.live.is_none() && self.latest(gen) =>
            {
                self.live = Some((gen, config));
            }
            (JobKind::Sweep { gen, index }, _) => {
                if let Some(plan) = &mut self.sweep {
                    if plan.gen == gen {
                        plan.next = plan.next.min(index);
                    }
                }
            }
            (JobKind::Pin { id }, Request::Run { config, .. }) if self.pin.is_none() => {
                self.pin = Some((id, config));
            }
            (JobKind::Seeds { preset, .. }, _) => self.seeds.push_front(preset),
            (kind @ JobKind::Replica { .. }, Request::Run { config, .. }) => self.replicas.push_front((kind, config)),
            (JobKind::Window { gen, from }, Request::Window { config, .. })
                if self.window.is_none() && self.latest(gen) =>
            {
                self.window = Some((gen, config, from));
            }
            (JobKind::Governor { gen, index }, Request::Run { config, .. }) => {
                self.governors.push_front((gen, index, config));
            }
            (JobKind::Decisions { gen, at }, Request::Decisions { config, from, to, .. })
                if self.decisions.is_none() && self.latest(gen) =>
            {
                self.decisions = Some((gen, config, from, to, at));
            }
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

    #[test]
    fn further_seeds_run_after_the_full_run_and_a_then_before_tables_and_sweeps() {
        let mut s = Scheduler::default();
        let rep = |index| (JobKind::Replica { a: None, gen: 1, index }, cfg(10 + index as u64));
        s.want_sweep(1, vec![cfg(1)]);
        s.want_seeds();
        s.want_replicas(vec![rep(1), rep(2), (JobKind::Sweep { gen: 1, index: 0 }, cfg(0))]);
        s.want_live(1, &cfg(9));
        let kinds = |s: &mut Scheduler| {
            let r = s.next_request().expect("a job");
            let k = s.in_flight_kind(r.id()).unwrap();
            s.finish(r.id());
            (k, r)
        };
        assert!(matches!(kinds(&mut s).0, JobKind::Live { preview: true, .. }));
        // The held full run keeps the further seeds waiting (a knob may still be moving).
        let mut t = Scheduler::default();
        t.want_live(1, &cfg(9));
        t.want_replicas(vec![rep(1)]);
        let r = t.next_request().unwrap();
        t.finish(r.id());
        assert!(t.next_request().is_none(), "nothing while the full run is held");
        t.release_full(1);
        assert!(matches!(kinds(&mut t).0, JobKind::Live { preview: false, .. }));
        let (k, r) = kinds(&mut t);
        assert_eq!(k, JobKind::Replica { a: None, gen: 1, index: 1 });
        assert!(matches!(r, Request::Run { trace_items: 0, ref config, .. } if config.seed == 11), "{r:?}");
        // A replica whose worker died goes first again.
        t.want_replicas(vec![rep(1), rep(2)]);
        let r = t.next_request().unwrap();
        let k = t.abandon().unwrap();
        t.retry(k, r);
        assert_eq!(kinds(&mut t).0, JobKind::Replica { a: None, gen: 1, index: 1 });
        assert_eq!(kinds(&mut t).0, JobKind::Replica { a: None, gen: 1, index: 2 });
        assert!(t.next_request().is_none());
        // Before the tables and the sweep; only replica jobs are kept.
        s.release_full(1);
        assert!(matches!(kinds(&mut s).0, JobKind::Live { preview: false, .. }));
        let order: Vec<JobKind> = (0..4).map(|_| kinds(&mut s).0).collect();
        assert_eq!(order[0], JobKind::Replica { a: None, gen: 1, index: 1 });
        assert_eq!(order[1], JobKind::Replica { a: None, gen: 1, index: 2 });
        assert!(matches!(order[2], JobKind::Seeds { .. }), "{order:?}");
    }

    fn cfg(seed: u64) -> Config {
        Config { seed, ..Config::default() }
    }

    /// `config` run through `execute` with an event budget and a trace size; must succeed.
    fn run_ok(config: &Config, budget: u64, trace_items: usize) -> RunResult {
        match execute(&Request::Run { id: 1, config: capped(config, budget).0, trace_items }) {
            Response::Run { result: Ok(r), .. } => r,
            other => panic!("the run failed: {other:?}"),
        }
    }

    /// Takes the next request, which must be a run, and returns (id, seed, trace items, budget).
    fn next_run(s: &mut Scheduler) -> (u64, u64, usize, u64) {
        match s.next_request() {
            Some(Request::Run { id, config, trace_items }) => (id, config.seed, trace_items, config.max_events),
            other => panic!("expected a run, got {other:?}"),
        }
    }

    #[test]
    fn one_job_in_flight_and_the_latest_config_wins() {
        let mut s = Scheduler::default();
        s.want_live(1, &cfg(1));
        let (id, seed, items, budget) = next_run(&mut s);
        assert_eq!((seed, items, budget), (1, PREVIEW_TRACE_ITEMS, PREVIEW_EVENT_BUDGET), "the preview goes first");
        assert_eq!(s.next_request(), None, "nothing new while one is in flight");
        s.want_live(2, &cfg(2));
        s.want_live(3, &cfg(3));
        assert_eq!(s.finish(id), Some(JobKind::Live { gen: 1, preview: true }));
        let (id, seed, items, _) = next_run(&mut s);
        assert_eq!((seed, items), (3, PREVIEW_TRACE_ITEMS), "gen 2 was never started, nor gen 1's full run");
        assert_eq!(s.finish(id), Some(JobKind::Live { gen: 3, preview: true }));
        assert_eq!(s.next_request(), None, "the full run is held while the knob may still move");
        s.release_full(2); // a stale release changes nothing
        assert_eq!(s.next_request(), None);
        s.release_full(3);
        let (id, seed, items, budget) = next_run(&mut s);
        assert_eq!(
            (seed, items, budget),
            (3, LIVE_TRACE_ITEMS, cfg(3).max_events),
            "then the full run, with the config's own budget"
        );
        assert_eq!(s.finish(id), Some(JobKind::Live { gen: 3, preview: false }));
        assert_eq!(s.next_request(), None);
    }

    #[test]
    fn a_complete_preview_saves_the_full_run() {
        let mut s = Scheduler::default();
        s.want_live(4, &cfg(4));
        let (id, ..) = next_run(&mut s);
        assert_eq!(s.finish(id), Some(JobKind::Live { gen: 4, preview: true }));
        s.preview_complete(3); // an older generation's answer changes nothing
        s.preview_complete(4);
        s.release_full(4);
        assert_eq!(s.next_request(), None, "the full run of gen 4 was dropped");
        // The engine agrees: a short run that ends before the preview budget is the same run.
        let small = Config { duration: 1_000_000, ..Config::default() };
        let preview = run_ok(&small, PREVIEW_EVENT_BUDGET, PREVIEW_TRACE_ITEMS);
        assert!(preview.complete());
        assert_eq!(preview, run_ok(&small, u64::MAX, LIVE_TRACE_ITEMS));
        // A run cut by its budget is not complete.
        let long = Config { duration: 10_000_000_000, ..Config::default() };
        assert!(!run_ok(&long, 1_000, 10).complete());
    }

    #[test]
    fn a_worker_down_says_why_what_is_kept_and_how_to_fix_it() {
        let start = WorkerDown::new("simulation", "blocked by the test", false);
        assert!(!start.crashed);
        for want in [
            "could not start (blocked by the test)",
            "never on the page",
            "settings are kept",
            "reload the page",
            "http(s)",
        ] {
            assert!(start.text.contains(want), "{want:?} in {:?}", start.text);
        }
        let crash = WorkerDown::new("trace", "RuntimeError: unreachable", true);
        assert!(crash.crashed);
        for want in
            ["trace worker stopped", "(RuntimeError: unreachable)", "bug in schedscope", "settings are kept", "report"]
        {
            assert!(crash.text.contains(want), "{want:?} in {:?}", crash.text);
        }
    }

    #[test]
    fn sweeps_run_point_by_point_after_live_runs_and_are_replaced() {
        let mut s = Scheduler::default();
        s.want_sweep(5, vec![cfg(10), cfg(11), cfg(12)]);
        let (id, seed, items, _) = next_run(&mut s);
        assert_eq!((seed, items), (10, 0), "sweep points carry no trace");
        s.want_live(6, &cfg(1));
        assert_eq!(s.finish(id), Some(JobKind::Sweep { gen: 5, index: 0 }));
        let (id, _, items, _) = next_run(&mut s);
        assert_eq!(items, PREVIEW_TRACE_ITEMS, "live first");
        s.finish(id);
        s.release_full(6);
        let (id, _, items, _) = next_run(&mut s);
        assert_eq!(items, LIVE_TRACE_ITEMS, "the released full run before the sweep");
        s.finish(id);
        s.want_sweep(6, vec![cfg(20)]);
        let (id, seed, ..) = next_run(&mut s);
        assert_eq!(seed, 20, "the old sweep's remaining points are dropped");
        assert_eq!(s.finish(id), Some(JobKind::Sweep { gen: 6, index: 0 }));
        assert_eq!(s.next_request(), None);
    }

    #[test]
    fn the_pinned_a_runs_in_full_after_the_current_config_and_before_the_sweep() {
        let mut s = Scheduler::default();
        s.want_sweep(7, vec![cfg(30)]);
        s.want_live(7, &cfg(2));
        s.want_pin(Some((1, Config { max_events: u64::MAX, ..cfg(1) })));
        let (id, seed, ..) = next_run(&mut s);
        assert_eq!(seed, 2, "B's preview first");
        s.finish(id);
        let (id, seed, ..) = next_run(&mut s);
        assert_eq!(seed, 30, "not A while B's full run is held: the knob may still move");
        s.finish(id);
        s.want_sweep(7, vec![cfg(31)]);
        s.release_full(7);
        let (id, seed, ..) = next_run(&mut s);
        assert_eq!(s.finish(id), Some(JobKind::Live { gen: 7, preview: false }));
        assert_eq!(seed, 2);
        let (id, seed, items, budget) = next_run(&mut s);
        assert_eq!((seed, items, budget), (1, LIVE_TRACE_ITEMS, u64::MAX), "then A, with its own budget");
        assert_eq!(s.finish(id), Some(JobKind::Pin { id: 1 }));
        assert_eq!(next_run(&mut s).1, 31, "then the sweep");
        s.abandon();
        s.want_pin(Some((2, cfg(1))));
        s.want_pin(None);
        assert_eq!(s.next_request(), None, "a forgotten A is not run");
    }

    #[test]
    fn unknown_answers_are_ignored_and_abandon_frees_the_slot() {
        let mut s = Scheduler::default();
        s.want_seeds();
        let Some(Request::Seeds { id, preset }) = s.next_request() else { panic!() };
        assert_eq!(preset, "hrtick-iperf", "the seeds come first");
        assert_eq!(s.finish(id + 7), None);
        assert!(s.busy());
        assert_eq!(s.abandon(), Some(JobKind::Seeds { preset, last: false }));
        assert!(!s.busy());
    }

    #[test]
    fn experiments_tables_are_one_job_each_and_a_preview_goes_between_them() {
        let mut s = Scheduler::default();
        s.want_seeds();
        let names = validate::table_presets();
        assert!(names.len() >= 7 && names.contains(&"token-governors"));
        let mut got = Vec::new();
        for (i, _) in names.iter().enumerate() {
            let Some(Request::Seeds { id, preset }) = s.next_request() else { panic!("table {i}") };
            assert_eq!(s.finish(id), Some(JobKind::Seeds { preset: preset.clone(), last: i + 1 == names.len() }));
            got.push(preset);
            if i == 0 {
                // A knob moved while the first table ran: its preview runs before the next table.
                s.want_live(1, &cfg(1));
                assert!(matches!(s.next_request(), Some(Request::Run { .. })));
                s.finish(s.next_id);
                s.preview_complete(1);
            }
        }
        assert_eq!(got, names);
        assert_eq!(s.next_request(), None);
    }

    #[test]
    fn retried_jobs_run_again_unless_replaced() {
        let mut s = Scheduler::default();
        s.want_sweep(2, vec![cfg(10), cfg(11)]);
        let req = s.next_request().unwrap();
        let kind = s.abandon().unwrap();
        s.retry(kind, req);
        let (_, seed, ..) = next_run(&mut s);
        assert_eq!(seed, 10, "the lost sweep point is run again");
        s.abandon();
        s.want_live(1, &cfg(1));
        let req = s.next_request().unwrap();
        let kind = s.abandon().unwrap();
        s.retry(kind, req);
        let (_, seed, items, _) = next_run(&mut s);
        assert_eq!((seed, items), (1, PREVIEW_TRACE_ITEMS), "the lost preview is run again");
        s.abandon();
        s.release_full(1);
        let req = s.next_request().unwrap();
        let kind = s.abandon().unwrap();
        assert_eq!(kind, JobKind::Live { gen: 1, preview: false });
        s.want_live(2, &cfg(2));
        s.retry(kind, req);
        let (_, seed, ..) = next_run(&mut s);
        assert_eq!(seed, 2, "a newer config wins over the retried run");
    }

    #[test]
    fn the_wire_format_round_trips_and_garbage_gets_an_answer() {
        let req = Request::Run { id: 4, config: cfg(9), trace_items: 0 };
        let text = to_text(&req);
        assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), req);
        let (answer, packed) = handle_text(&text);
        let resp = parse_message(&answer, &packed);
        let Response::Run { id: 4, result: Ok(r) } = resp else { panic!("{resp:?}") };
        assert!(r.trace.spans.is_empty() && packed.is_empty(), "no trace was asked for");
        let (garbled, _) = handle_text("{not json");
        assert!(matches!(parse_message(&garbled, &[]), Response::Garbled { .. }));
        assert!(matches!(parse_response("nonsense"), Response::Garbled { .. }));
    }

    #[test]
    fn a_traced_run_crosses_the_wire_packed_and_comes_back_equal() {
        let config = (crate::engine::presets::preset("nohz-pipe").expect("preset").config)();
        let req = Request::Run { id: 7, config: capped(&config, 20_000).0, trace_items: 5_000 };
        let direct = execute(&req);
        let (answer, packed) = handle_text(&to_text(&req));
        let Response::Run { result: Ok(d), .. } = &direct else { panic!("{direct:?}") };
        assert!(d.trace.spans.len() > 100 && !d.trace.instants.is_empty(), "a real trace to carry");
        assert_eq!(packed.len(), 12 + d.trace.spans.len() * 24 + d.trace.instants.len() * 18);
        let decisions = serde_json::to_string(&d.trace.decisions).expect("json").len();
        assert!(answer.len() - decisions < 20_000, "the items are not in the JSON too ({} bytes)", answer.len());
        assert!(!d.trace.decisions.is_empty() && d.trace.decisions.len() <= PAGE_DECISIONS);
        let back = parse_message(&answer, &packed);
        let Response::Run { result: Ok(b), .. } = &back else { panic!("{back:?}") };
        // (Metrics' floats cross as JSON text, which may differ in the last bit.)
        assert_eq!(b.trace, d.trace, "the trace comes back exactly");
        assert_eq!(b.metrics.digest, d.metrics.digest);
    }

    #[test]
    fn every_item_kind_round_trips_and_broken_buffers_are_refused() {
        let mut t = Trace {
            spans: vec![
                Span { core: 65_535, start: 1, end: u64::MAX, kind: SpanKind::Run { task: u32::MAX, sys: true } },
                Span { core: 0, start: 5, end: 6, kind: SpanKind::Idle { state: 7 } },
            ],
            instants: [
                InstantKind::Tick,
                InstantKind::Hrtick,
                InstantKind::Ipi { from: 3 },
                InstantKind::Wakeup { from: 2, task: 9 },
                InstantKind::Migrate { from: 1, task: 4 },
            ]
            .into_iter()
            .enumerate()
            .map(|(k, kind)| Instant { core: k as u16, time: 10 * k as u64, kind })
            .collect(),
            ..Trace::default()
        };
        t.spans.extend(Overhead::ALL.map(|kind| Span { core: 1, start: 2, end: 3, kind: SpanKind::Overhead { kind } }));
        let want = t.clone();
        let packed = pack_items(&mut t);
        assert!(t.spans.is_empty() && t.instants.is_empty(), "the items moved into the buffer");
        let mut back = Trace::default();
        unpack_items(&packed, &mut back).expect("unpacks");
        assert_eq!(back, want);
        let mut untouched = Trace::default();
        for bad in [&packed[..packed.len() - 1], &packed[..11], b"XXXX\0\0\0\0\0\0\0\0"] {
            assert!(unpack_items(bad, &mut untouched).is_err());
        }
        let mut wrong_kind = packed.clone();
        wrong_kind[12 + 2] = 9;
        assert!(unpack_items(&wrong_kind, &mut untouched).unwrap_err().contains("span 0"));
        let mut huge = packed.clone();
        huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unpack_items(&huge, &mut untouched).is_err());
        assert_eq!(untouched, Trace::default());
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
        let (c, was) = capped(&Config::default(), PREVIEW_EVENT_BUDGET);
        assert!(was);
        assert_eq!(c.max_events, PREVIEW_EVENT_BUDGET);
        let small = Config { max_events: 5_000, ..Config::default() };
        assert_eq!(capped(&small, PREVIEW_EVENT_BUDGET), (small.clone(), false));
    }

    #[test]
    fn the_full_run_is_the_whole_run_and_reports_progress_on_the_way() {
        // Issue 17: nohz-pipe (8M events) stopped at the page's hidden 2M budget, whatever
        // max_events said. Its full run now has the config's own budget and the CLI's digest.
        let config = (crate::engine::presets::preset("nohz-pipe").expect("preset").config)();
        let mut s = Scheduler::default();
        s.want_live(1, &config);
        let (id, ..) = next_run(&mut s);
        s.finish(id);
        s.release_full(1);
        let req = s.next_request().expect("the full run");
        let Request::Run { config: sent, trace_items, .. } = &req else { panic!("{req:?}") };
        assert_eq!((sent, *trace_items), (&config, LIVE_TRACE_ITEMS), "the config as it is, max_events and all");
        let mut reports = Vec::new();
        let resp = execute_with(&req, &mut |p| reports.push(p));
        let Response::Run { result: Ok(r), .. } = resp else { panic!("{resp:?}") };
        let cli = crate::engine::run(&config, None).expect("runs");
        assert_eq!(r.metrics.digest, cli.metrics.digest, "the CLI's run");
        assert_ne!(r.metrics.stop_reason, Some(StopReason::EventBudget));
        assert!(
            r.trace.truncated && r.trace.spans.len() + r.trace.instants.len() <= LIVE_TRACE_ITEMS,
            "the trace stays bounded"
        );
        let events: Vec<u64> = reports
            .iter()
            .map(|p| match p {
                Response::Progress { progress, .. } => progress.events,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(events.len() as u64, r.metrics.events / PROGRESS_CHUNK_EVENTS, "one report per chunk");
        assert!(events.windows(2).all(|w| w[0] < w[1]) && events[0] == PROGRESS_CHUNK_EVENTS);
        // Cancelling forgets the job in flight; a cancel for another job changes nothing.
        let mut s = Scheduler::default();
        s.want_live(2, &config);
        let (id, ..) = next_run(&mut s);
        assert_eq!(s.in_flight_kind(id), Some(JobKind::Live { gen: 2, preview: true }));
        assert!(!s.cancel(&JobKind::Live { gen: 2, preview: false }) && s.busy());
        s.finish(id);
        s.release_full(2);
        let (id, ..) = next_run(&mut s);
        assert!(!s.in_flight_is_stale_live(2));
        s.want_live(3, &cfg(3));
        assert!(s.in_flight_is_stale_live(3), "a newer config waits behind gen 2's full run");
        assert!(s.cancel(&JobKind::Live { gen: 2, preview: false }) && !s.busy());
        assert_eq!(s.finish(id), None, "a cancelled job's late answer is unknown");
        assert_eq!(next_run(&mut s).1, 3, "the newer config's preview starts");
    }

    /// nohz-pipe shortened, and its trace kept to 2,000 items so the live trace is cut.
    fn long_pipe() -> Config {
        let mut c = (crate::engine::presets::preset("nohz-pipe").expect("preset").config)();
        c.set("loops", "20000").expect("loops");
        c
    }

    #[test]
    fn a_window_is_the_same_run_recorded_from_later() {
        // Issue 17: the live trace of a long run kept only its first stretch, wherever the
        // user panned. A window request runs the same config again and records from `from`.
        let config = long_pipe();
        let live = match execute(&Request::Run { id: 1, config: config.clone(), trace_items: 2_000 }) {
            Response::Run { result: Ok(r), .. } => r,
            other => panic!("{other:?}"),
        };
        assert!(live.trace.truncated && live.trace.start == 0);
        let cut = crate::ui::trace_window::recorded(&live.trace).1;
        let from = cut * 3;
        assert!(from < live.trace.end, "the window starts inside the run");
        let req = Request::Window { id: 2, config: config.clone(), from, trace_items: 2_000 };
        let Response::Run { id: 2, result: Ok(w) } = execute(&req) else { panic!("a window answers like a run") };
        assert_eq!(w.metrics.digest, live.metrics.digest, "same config, same events, same figures");
        assert_eq!((w.trace.start, w.trace.end), (from, live.trace.end));
        assert!(
            !w.trace.spans.is_empty() && w.trace.spans.iter().all(|s| s.end > from),
            "only what overlaps the window"
        );
        assert!(w.trace.instants.iter().all(|i| i.time >= from));
        assert!(w.trace.spans.len() + w.trace.instants.len() <= 2_000);
        // It is what the whole trace holds there: the spans starting in the window's first
        // stretch are the full trace's.
        let whole = crate::engine::run(&config, Some(TraceOptions::default())).expect("runs").trace;
        let (lo, hi) = crate::ui::trace_window::recorded(&w.trace);
        let first = |t: &Trace| {
            let mut v: Vec<Span> =
                t.spans.iter().filter(|s| s.start >= lo && s.end <= lo + (hi - lo) / 2).copied().collect();
            v.sort_by_key(|s| (s.core, s.start, s.end));
            v
        };
        assert!(!first(&w.trace).is_empty());
        assert_eq!(first(&w.trace), first(&whole));
        // The wire: the window's start survives the JSON + packed buffer round trip.
        let (text, packed) = handle_text(&to_text(&req));
        let Response::Run { result: Ok(back), .. } = parse_message(&text, &packed) else { panic!("round trip") };
        assert_eq!(back.trace, w.trace);
    }

    #[test]
    fn a_window_goes_after_the_live_runs_and_a_new_config_drops_it() {
        let config = long_pipe();
        let mut s = Scheduler::default();
        s.want_live(1, &config);
        s.want_window(1, &config, 5_000);
        assert_eq!(next_run(&mut s).2, PREVIEW_TRACE_ITEMS, "the preview first");
        s.finish(1);
        assert_eq!(s.next_request(), None, "not while the full run is held");
        s.release_full(1);
        let (id, ..) = next_run(&mut s);
        s.finish(id);
        s.want_pin(Some((7, cfg(9))));
        match s.next_request() {
            Some(Request::Window { from: 5_000, trace_items: LIVE_TRACE_ITEMS, config: c, id }) => {
                assert_eq!(c, config);
                assert_eq!(s.in_flight_kind(id), Some(JobKind::Window { gen: 1, from: 5_000 }));
                // A runner that died gives it back.
                s.abandon();
                s.retry(
                    JobKind::Window { gen: 1, from: 5_000 },
                    Request::Window { id, config: c, from: 5_000, trace_items: 1 },
                );
            }
            other => panic!("the window before the pin: {other:?}"),
        }
        // A newer config replaces it before it starts again.
        s.want_live(2, &cfg(2));
        assert_eq!(next_run(&mut s).1, 2);
        s.abandon();
        s.release_full(2);
        assert_eq!(next_run(&mut s).1, 2, "the new full run");
        s.abandon();
        assert_eq!(next_run(&mut s).1, 9, "then the pin: the old window is gone");
    }

    #[test]
    fn the_page_gets_the_first_decisions_only() {
        // The live trace of nohz-pipe carried 25,000 decision records as 12 MB of JSON.
        let mut c = (crate::engine::presets::preset("nohz-pipe").expect("preset").config)();
        c.set("loops", "2000").expect("loops");
        let whole = crate::engine::run(&c, Some(TraceOptions { window: (0, c.duration), max_items: LIVE_TRACE_ITEMS }))
            .expect("runs")
            .trace
            .decisions;
        assert!(whole.len() > PAGE_DECISIONS, "{} records: more than the page keeps", whole.len());
        let Response::Run { result: Ok(r), .. } =
            execute(&Request::Run { id: 1, config: c, trace_items: LIVE_TRACE_ITEMS })
        else {
            panic!("runs")
        };
        let d = &r.trace.decisions;
        assert!(d.len() <= PAGE_DECISIONS && d.len() > PAGE_DECISIONS - 10, "{}", d.len());
        // The first ones, of every kind, unchanged.
        assert_eq!(d.wakeups[..], whole.wakeups[..d.wakeups.len()]);
        assert_eq!(d.picks[..], whole.picks[..d.picks.len()]);
        assert_eq!(d.idles[..], whole.idles[..d.idles.len()]);
        let last = d.wakeups.last().map_or(0, |w| w.time);
        assert!(whole.wakeups[d.wakeups.len()].time >= last);
        assert!(serde_json::to_string(d).expect("json").len() < 2_500_000, "bounded JSON");
    }
}
