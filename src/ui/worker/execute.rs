//! How the worker runs one job (`execute`) and its message handler (`handle_with`):
//! only the worker bin calls these, so the page's wasm never links the engine's run. A run is
//! simulated in chunks (`engine::run_chunked_while`) and reports `Response::Progress` every
//! `PROGRESS_CHUNK_EVENTS`; a preview also stops at `PREVIEW_WALL_MS` of wall time; the worker reads no message while it computes, so a
//! run is cancelled by terminating the worker (`runner`).

use crate::engine::metrics::Metrics;
use crate::engine::trace::TraceOptions;
use crate::engine::validate;
use crate::ui::worker::protocol::{
    Export, Imported, Request, Response, RunProgress, RunResult, ON_DEMAND_DECISIONS, PAGE_DECISIONS,
    PREVIEW_EVENT_BUDGET, PREVIEW_TRACE_ITEMS, PROGRESS_CHUNK_EVENTS,
};
use crate::ui::worker::wire::{parse_request, to_bytes};

/// At most this many bytes of decision records (in the wire format) go to the page with a
/// run: they are decoded on the main thread. A count alone did not bound them: a pick
/// record carries up to `explain::PICK_EXCERPT` runqueue entries, and hackbench's first
/// 3,000 records (all picks over queues of thousands) were 7 MB of JSON, the larger part of
/// a 9 MB answer whose parse was a 226 ms task on the main thread (issue 29, before the
/// binary wire format); the bound holds the answer's size whatever the format. The inspector asks for the
/// records near an instant on demand (`Request::Decisions`).
pub const PAGE_DECISION_BYTES: usize = 2_000_000;

/// Keeps the first `max` decision records in time (all kinds together), in their order,
/// and no more than `PAGE_DECISION_BYTES` of them.
pub fn bound_decisions(d: &mut crate::engine::explain::Decisions, max: usize) {
    // (time, kind, index), in time; sizes are measured only up to where the page's share ends.
    let mut at: Vec<(u64, u8, usize)> = d.wakeups.iter().enumerate().map(|(i, r)| (r.time, 0, i)).collect();
    at.extend(d.picks.iter().enumerate().map(|(i, r)| (r.time, 1, i)));
    at.extend(d.idles.iter().enumerate().map(|(i, r)| (r.time, 2, i)));
    at.extend(d.wasted.iter().enumerate().map(|(i, r)| (r.start, 3, i)));
    at.extend(d.migrations.iter().enumerate().map(|(i, r)| (r.time, 4, i)));
    at.sort_unstable();
    let (mut bytes, mut scratch) = (0, Vec::new());
    let Some(stop) = at.iter().enumerate().position(|(n, &(_, kind, i))| {
        bytes += match kind {
            0 => wire_len(&d.wakeups[i], &mut scratch),
            1 => wire_len(&d.picks[i], &mut scratch),
            2 => wire_len(&d.idles[i], &mut scratch),
            3 => wire_len(&d.wasted[i], &mut scratch),
            _ => wire_len(&d.migrations[i], &mut scratch),
        };
        n >= max || bytes > PAGE_DECISION_BYTES
    }) else {
        return;
    };
    let cut = at[stop].0;
    d.wakeups.retain(|r| r.time < cut);
    d.picks.retain(|r| r.time < cut);
    d.idles.retain(|r| r.time < cut);
    d.wasted.retain(|r| r.start < cut);
    d.migrations.retain(|r| r.time < cut);
}

/// A preview stops after the chunk of `PREVIEW_CHUNK_EVENTS` that passes this much wall
/// time (ms) in the worker: a drag gets figures about this often however costly the config
/// (its figures are then those of `max_events` = the events it ran, and say how many).
pub const PREVIEW_WALL_MS: f64 = 120.0;
/// A preview's chunk: a few ms of engine time in wasm.
pub const PREVIEW_CHUNK_EVENTS: u64 = 20_000;

thread_local! {
    /// The worker's clock in ms (`set_clock`: the worker bin gives the browser's).
    static CLOCK: std::cell::Cell<Option<fn() -> f64>> = const { std::cell::Cell::new(None) };
}

/// Gives the worker a wall clock (ms) for bounding previews by time: the browser's comes
/// from the worker bin (this module names no web crate); natively the process's is used.
pub fn set_clock(clock: fn() -> f64) {
    CLOCK.with(|c| c.set(Some(clock)));
}

/// Milliseconds from a fixed point: the clock given, else natively the process's, else
/// (wasm without one) a clock that stands still, so no preview is cut by time.
fn clock_ms() -> f64 {
    if let Some(clock) = CLOCK.with(|c| c.get()) {
        return clock();
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        thread_local!(static START: std::time::Instant = std::time::Instant::now());
        START.with(|s| s.elapsed().as_secs_f64() * 1e3)
    }
    #[cfg(target_arch = "wasm32")]
    {
        0.0
    }
}

/// A record's size in the page's wire format (`wire`), what the page reads and decodes.
/// Written into `scratch` (cleared first, kept for the next record), so sizing a run's
/// records allocates once, not once a record; `Wire` has only `put` to size a value with.
fn wire_len<T: crate::ui::worker::wire::Wire>(r: &T, scratch: &mut Vec<u8>) -> usize {
    scratch.clear();
    r.put(scratch);
    scratch.len()
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
            // A preview (a knob moving) is bounded by time as well as by events: it stops
            // after the chunk that passes `PREVIEW_WALL_MS`, whatever a config costs per event.
            let preview =
                *trace_items > 0 && *trace_items <= PREVIEW_TRACE_ITEMS && config.max_events <= PREVIEW_EVENT_BUDGET;
            let chunk = if preview { PREVIEW_CHUNK_EVENTS } else { PROGRESS_CHUNK_EVENTS };
            let started = clock_ms();
            let mut report = report;
            let mut reported = 0;
            let between = |p: crate::engine::sim::Progress| {
                if p.events >= reported + PROGRESS_CHUNK_EVENTS {
                    reported = p.events;
                    report(p);
                }
                !(preview && clock_ms() - started > PREVIEW_WALL_MS)
            };
            let result = crate::engine::run_chunked_while(config, opts, chunk, between)
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
            // A window cut at its budget stops recording decisions there (a long latency on
            // many CPUs: the pick of the run asked about was missing, and with it the
            // wakeup): a larger budget then, up to `WAKEUP_TRACE_MAX` (only the records
            // nearest `at` travel back).
            let mut items = *trace_items;
            let result = loop {
                let opts = TraceOptions { window: (from, to), max_items: items };
                match crate::engine::run(config, Some(opts)) {
                    Ok(o) if o.trace.truncated && items < WAKEUP_TRACE_MAX => items = (items * 4).max(1_000),
                    other => break other,
                }
            };
            let result = result
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
        Request::Export { id, format, config, run } => {
            let text = match format {
                Export::Perfetto => crate::share::perfetto::to_json(&run.trace, Some(&run.metrics), Some(config)),
                Export::TraceText => crate::share::ftrace::export::to_text_for(&run.trace, config),
                Export::MetricsCsv => crate::share::csv::metrics_csv(&run.metrics),
            };
            Response::Exported { id: *id, result: Ok(text) }
        }
        Request::SweepCsv { id, key, rows } => {
            let rows: Vec<(String, Option<&Metrics>)> = rows.iter().map(|(v, m)| (v.clone(), m.as_ref())).collect();
            Response::Exported { id: *id, result: Ok(crate::share::csv::sweep_csv(key, &rows)) }
        }
        Request::Import { id, text } => Response::Imported { id: *id, result: import(text) },
        Request::Wakeup { id, config, percent } => Response::Run { id: *id, result: find_wakeup(config, *percent) },
        Request::TraceOpen { text, .. } | Request::TraceReplay { text, .. } => crate::ui::traces::job::execute(
            req,
            &mut crate::ui::traces::job::chunks_of(text),
            text.len() as u64,
            progress,
        ),
    }
}

/// The trace budget of `find_wakeup`'s second run, which records only from the wakeup to
/// the switch it led to (a long latency on many CPUs holds tens of thousands of spans).
pub const WAKEUP_TRACE_ITEMS: usize = crate::ui::worker::protocol::LIVE_TRACE_ITEMS;
/// At most this many items in that run (about 100 MB of spans in the worker): past it the
/// parts of a latency may be short of the spans they are read from.
pub const WAKEUP_TRACE_MAX: usize = 16 * WAKEUP_TRACE_ITEMS;

/// The wakeup behind a latency figure (`Request::Wakeup`). The figures' p50 and p99 are
/// the histogram's `percentile` (`engine::sim`): the bucket holding the sample of rank
/// `ceil(count * p / 100)` in increasing latency; that sample is the wakeup, ties in
/// latency broken by the earlier wakeup (max: rank `count`, the largest). Three runs of the
/// same config: the first keeps every sample (`Sim::log_latencies`) and picks that one;
/// the second records only `[woke, ran]` and stops there, so the wakeup's record
/// (`explain`) is opened and closed inside it (an on-demand window that starts after the
/// wakeup misses it), with a budget that holds every span over the latency; a third records
/// a short window before the switch for the pick (the second's decision budget,
/// `trace::DECISIONS_MAX`, may end first). The answer's figures are the first run's (the whole run's, whose
/// digest the page checks); its decisions are the `ON_DEMAND_DECISIONS` nearest the switch,
/// the wakeup's own among them; its one span is the run the wakeup led to.
pub fn find_wakeup(config: &crate::engine::Config, percent: u8) -> Result<RunResult, String> {
    crate::engine::check(config).map_err(|e| e.to_string())?;
    let mut sim = crate::engine::sim::Sim::new(config, None);
    sim.log_latencies();
    while !sim.advance(PROGRESS_CHUNK_EVENTS) {}
    let (out, mut samples) = sim.into_outcome_and_latencies();
    let mut metrics = out.metrics;
    finite(&mut metrics);
    let mut trace = crate::engine::trace::Trace::default();
    crate::engine::order::sort_by_key(&mut samples, |s| (s.ran.saturating_sub(s.woke), s.woke, s.task));
    let n = samples.len() as u64;
    let rank = (n * percent.min(100) as u64).div_ceil(100).max(1);
    let Some(&w) = samples.get(rank as usize - 1) else { return Ok(RunResult { metrics, trace }) };
    // The record opens when the engine handles the wakeup (`explaining` at its `now`),
    // which can come before `woke` (the waker's cursor, after its ttwu work and any
    // overheads queued before it): the window starts that much earlier, more if needed.
    // Its latency parts are read from the target's spans over the latency, so the window's
    // trace must not be cut: a larger budget if it was (a long latency on many CPUs).
    let mut wake = None;
    'margins: for margin in [50_000, 1_000_000, 20_000_000, u64::MAX] {
        let mut items = WAKEUP_TRACE_ITEMS;
        loop {
            let opts = TraceOptions { window: (w.woke.saturating_sub(margin), w.ran + 1), max_items: items };
            let o = crate::engine::run_chunked_while(config, Some(opts), PREVIEW_CHUNK_EVENTS, |p| p.now <= w.ran)
                .map_err(|e| e.to_string())?;
            let found = o.trace.decisions.wakeups.iter().find(|r| r.task == w.task && r.ran_at == Some(w.ran));
            let Some(found) = found else { continue 'margins };
            if !o.trace.truncated || items >= WAKEUP_TRACE_MAX {
                wake = Some(found.clone());
                break 'margins;
            }
            items *= 4;
        }
    }
    // The pick that switched it in, and what else happened then: a short window before the
    // switch (the long window's decision budget may have run out before it).
    let opts = TraceOptions { window: (w.ran.saturating_sub(50_000), w.ran + 1), max_items: WAKEUP_TRACE_ITEMS };
    let near = crate::engine::run_chunked_while(config, Some(opts), PREVIEW_CHUNK_EVENTS, |p| p.now <= w.ran)
        .map_err(|e| e.to_string())?;
    let mut d = near.trace.decisions;
    d.wakeups.retain(|r| !(r.task == w.task && r.ran_at == Some(w.ran)));
    d.wakeups.extend(wake);
    crate::engine::order::sort_by_key(&mut d.wakeups, |r| r.time);
    trace.decisions = crate::engine::explain::nearest(&d, w.ran, ON_DEMAND_DECISIONS);
    trace.cores = near.trace.cores;
    let kind = crate::engine::trace::SpanKind::Run { task: w.task, sys: false };
    trace.spans.push(crate::engine::trace::Span { core: w.core, start: w.ran, end: w.ran + 1, kind });
    Ok(RunResult { metrics, trace })
}

/// Reads an imported file: a tour when it looks like one (`tour::looks_like_tour`), else an
/// rt-app workload. The errors are the parsers' (a tour's with its line, an rt-app file's
/// with its JSON path).
pub fn import(text: &str) -> Imported {
    if crate::ui::tour::looks_like_tour(text) {
        Imported::Tour(crate::ui::tour::parse(text).map_err(|e| e.to_string()))
    } else {
        Imported::Rtapp(crate::share::rtapp::import(text).map_err(|e| e.to_string()))
    }
}

/// Replaces non-finite floats by 0 (the page's figures and exports are finite; JSON has no NaN).
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

/// The worker's message handler: a request's bytes in (`wire`), the response's bytes out.
/// Never panics on input.
pub fn handle(bytes: &[u8]) -> Vec<u8> {
    handle_with(bytes, &mut |_| {})
}

/// `handle`, handing each progress report of a long run to `progress` as bytes.
pub fn handle_with(bytes: &[u8], progress: &mut dyn FnMut(Vec<u8>)) -> Vec<u8> {
    let resp = match parse_request(bytes) {
        Ok(req) => execute_with(&req, &mut |p| progress(to_bytes(&p))),
        Err(error) => Response::Garbled { error },
    };
    to_bytes(&resp)
}

/// The page's first run, computed before the page asks for it (issue 26). `static/early.js`
/// hands the worker it makes the page's query as soon as the worker exists; the worker
/// computes `scheduler::first_request_for_query` of it (`run_for_query`) while the app's own
/// wasm compiles and mounts, and keeps the request's bytes and the answer's. The page's first
/// request, when it comes, is answered from the kept answer if its bytes are the kept
/// request's (its id included): the same request of a deterministic engine, so the same
/// answer. Any other request drops it and is computed as usual. Kept for one request only.
#[derive(Default)]
pub struct Prefetched {
    kept: Option<(Vec<u8>, Vec<u8>)>,
}

impl Prefetched {
    /// Computes the page's first request for `query`, if it has one, and keeps its answer.
    pub fn run_for_query(&mut self, query: &str) {
        self.kept = crate::ui::worker::scheduler::first_request_for_query(query)
            .map(|req| (to_bytes(&req), to_bytes(&execute(&req))));
    }

    /// Whether an answer is kept (tests).
    #[cfg(test)]
    pub fn holds_an_answer(&self) -> bool {
        self.kept.is_some()
    }

    /// `handle_with`, answering the kept request's very bytes with the kept answer, once.
    pub fn handle_with(&mut self, bytes: &[u8], progress: &mut dyn FnMut(Vec<u8>)) -> Vec<u8> {
        match self.kept.take() {
            Some((request, answer)) if request == bytes => answer,
            _ => handle_with(bytes, progress),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::worker::wire::{encode, MAGIC};

    /// `wire_len` reuses one buffer across records: each size must still be the record's
    /// own encoding, not what an earlier (longer) record left in the buffer.
    #[test]
    fn a_records_wire_length_is_its_encodings_whatever_the_buffer_held() {
        let c = (crate::engine::presets::preset("intro").expect("preset").config)();
        let opts = TraceOptions { window: (0, c.duration), max_items: 1_000_000 };
        let d = crate::engine::run(&c, Some(opts)).expect("runs").trace.decisions;
        assert!(!d.wakeups.is_empty() && !d.picks.is_empty() && !d.idles.is_empty(), "records of each kind");
        let mut scratch = vec![0xa5; 4096];
        let own = |v: Vec<u8>| v.len() - MAGIC.len();
        // Longest first, so a leftover would show.
        let mut picks: Vec<_> = d.picks.iter().collect();
        picks.sort_by_key(|r| std::cmp::Reverse(own(encode(*r))));
        for r in picks {
            assert_eq!(wire_len(r, &mut scratch), own(encode(r)));
        }
        for r in &d.wakeups {
            assert_eq!(wire_len(r, &mut scratch), own(encode(r)));
        }
        for r in &d.idles {
            assert_eq!(wire_len(r, &mut scratch), own(encode(r)));
        }
        for r in &d.wasted {
            assert_eq!(wire_len(r, &mut scratch), own(encode(r)));
        }
    }
}
