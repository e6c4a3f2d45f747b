//! The page-worker protocol: what the page asks (`Request`), what the worker answers
//! (`Response`), the budgets both sides agree on, and what the page says when no worker
//! runs (`WorkerDown`). Messages cross as `wire`'s compact binary format (a boundary format
//! owned by `ui::worker`, not the engine's or the CLI's), one byte buffer each.
//!
//! A run's full answer uses the config's own `max_events` (the engine's cap, which the user
//! sets): only the quick preview and sweep points have smaller budgets, and the live trace
//! is bounded by `LIVE_TRACE_ITEMS` (a cut trace says so: `truncated`). No yew or web-sys.

use crate::engine::decimal::Within as _;

use crate::engine::config::Config;
use crate::engine::metrics::{Metrics, StopReason};
use crate::engine::trace::Trace;
use crate::share::ftrace::{replay::Diff, Stats};

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
/// the first ones in time. They crossed as JSON (about 500 bytes each: the 25,000 the engine
/// keeps for a live trace were 12 MB, a parse of over 100 ms on the main thread; `wire` is
/// smaller and quicker, and the bound stays). The inspector says where they stop and how to
/// get the rest (`run --explain`).
pub const PAGE_DECISIONS: usize = 3_000;

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
#[derive(Clone, Debug, PartialEq)]
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
    /// Write a run the page holds (its config, figures and trace) as a file (`Export`): the
    /// exporters (`share::perfetto`, `share::ftrace::export`, `share::csv`) live in the worker
    /// only, not in the page's wasm (issue 26). Answered by `Response::Exported`.
    Export { id: u64, format: Export, config: Config, run: RunResult },
    /// Write a sweep as CSV (`share::csv::sweep_csv`): the swept key and each point's value
    /// and figures (`None`: not run or failed). Answered by `Response::Exported`.
    SweepCsv { id: u64, key: String, rows: Vec<(String, Option<Metrics>)> },
    /// Read a file the reader imported (`ui::share::import`): a guided tour or an rt-app
    /// workload (`execute::import`). The parsers (`tour::parse`, `share::rtapp`, serde_json)
    /// live in the worker only (issue 26). Answered by `Response::Imported`.
    Import { id: u64, text: String },
    /// Simulate `config` again and find the wakeup behind a latency figure: the one at
    /// `percent`'s rank among the run's samples as the figure counts them (100: the
    /// largest), as `execute::find_wakeup` says. Answered by `Response::Run`: the run's
    /// figures, the decision records around that wakeup (its own among them) and, as the
    /// trace's one span, the run it led to (its CPU, its task, `start` the switch);
    /// no span when the run had no wakeup.
    Wakeup { id: u64, config: Config, percent: u8 },
}

/// An imported file read: which kind it is, and what it gives or why it cannot be used
/// (the message names the line of a tour's problem, the JSON path of an rt-app file's).
#[derive(Clone, Debug, PartialEq)]
pub enum Imported {
    Tour(Result<crate::ui::tour::Tour, String>),
    Rtapp(Result<crate::share::rtapp::ImportResult, String>),
}

/// The files `Request::Export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// Chrome/Perfetto JSON (`share::perfetto::to_json`).
    Perfetto,
    /// `trace-cmd report` text in the config's era's form (`ftrace::export::to_text_for`).
    TraceText,
    /// The figures as `key,value` CSV (`share::csv::metrics_csv`).
    MetricsCsv,
}

/// `static/early.js` tells the worker it makes the page's query as `[PREFETCH_TAG, query]`
/// (`execute::Prefetched`): the one message that is not `wire` bytes.
pub const PREFETCH_TAG: &str = "schedscope:first";

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
            | Request::Decisions { id, .. }
            | Request::Export { id, .. }
            | Request::SweepCsv { id, .. }
            | Request::Import { id, .. }
            | Request::Wakeup { id, .. } => *id,
        }
    }

    /// The request's kind, id, and a run's seed and trace budget, as one line of JSON: what
    /// the browser tests' routed worker loaders look at (`self.schedscope_describe` in the
    /// worker; the messages themselves are binary).
    pub fn summary(&self) -> String {
        let (kind, id) = match self {
            Request::Run { id, .. } => ("run", id),
            Request::Seeds { id, .. } => ("seeds", id),
            Request::Window { id, .. } => ("window", id),
            Request::TraceOpen { id, .. } => ("trace_open", id),
            Request::TraceReplay { id, .. } => ("trace_replay", id),
            Request::Decisions { id, .. } => ("decisions", id),
            Request::Export { id, .. } => ("export", id),
            Request::SweepCsv { id, .. } => ("sweep_csv", id),
            Request::Import { id, .. } => ("import", id),
            Request::Wakeup { id, .. } => ("wakeup", id),
        };
        let run = match self {
            Request::Run { config, trace_items, .. }
            | Request::Window { config, trace_items, .. }
            | Request::Decisions { config, trace_items, .. } => {
                format!(",\"seed\":{},\"trace_items\":{trace_items}", config.seed)
            }
            _ => String::new(),
        };
        format!("{{\"kind\":\"{kind}\",\"id\":{id}{run}}}")
    }
}

/// A run's figures and (possibly empty) trace.
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
        f(self.now, self.duration).max(f(self.events, self.max_events)).within(0.0, 1.0)
    }
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq)]
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
        result: Result<Opened, String>,
    },
    /// A trace replayed and diffed (the simulated trace's items travel packed).
    TraceReplayed {
        id: u64,
        result: Result<Replayed, String>,
    },
    /// A file written (`Request::Export`, `Request::SweepCsv`): its text, or why not.
    Exported {
        id: u64,
        result: Result<String, String>,
    },
    /// An imported file read (`Request::Import`).
    Imported {
        id: u64,
        result: Imported,
    },
    /// A message the worker could not read.
    Garbled {
        error: String,
    },
}

/// `config` with its event budget capped for interactive use; also says whether it was capped.
pub fn capped(config: &Config, budget: u64) -> (Config, bool) {
    let mut c = config.clone();
    let was = c.max_events > budget;
    c.max_events = c.max_events.min(budget);
    (c, was)
}

/// A recorded trace read: its statistics (`trace stats`), drawn as the timeline's `Trace`.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    pub format: String,
    pub bytes: u64,
    pub stats: Stats,
    pub cpus: u32,
    /// Wakeup edges in the recording, and how many the replay follows as dependencies.
    pub wakes: u64,
    /// The recording on the engine's timeline (`ftrace::export::to_trace`); its task i is
    /// `stats.tasks[i]`.
    pub trace: Trace,
    /// The timeline stops here (ns from the trace's start): `traces::job::TRACE_ITEMS` reached.
    pub cut: Option<u64>,
}

/// A replay under a config, against the recording (`ftrace::replay_and_diff`, as `trace diff`).
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    pub diff: Diff,
    /// The simulated run's trace, task i the replay of recorded task i.
    pub trace: Trace,
    /// The timeline stops here (ns): `traces::job::TRACE_ITEMS` reached.
    pub cut: Option<u64>,
    /// The config the replay ran (the page's, with the trace's CPU count and time limit).
    pub config: Config,
    pub events: u64,
}
