//! How the worker runs one job (`execute`) and its message handler (`handle_with`):
//! only the worker bin calls these, so the page's wasm never links the engine's run. A run is
//! simulated in chunks of `PROGRESS_CHUNK_EVENTS` (`engine::run_chunked`) and reports
//! `Response::Progress` between them; the worker reads no message while it computes, so a
//! run is cancelled by terminating the worker (`runner`).

use crate::engine::metrics::Metrics;
use crate::engine::trace::TraceOptions;
use crate::engine::validate;
use crate::ui::worker::protocol::{
    Export, Request, Response, RunProgress, RunResult, ON_DEMAND_DECISIONS, PAGE_DECISIONS, PROGRESS_CHUNK_EVENTS,
};
use crate::ui::worker::wire::{parse_request, to_bytes};

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
        Request::TraceOpen { text, .. } | Request::TraceReplay { text, .. } => crate::ui::traces::job::execute(
            req,
            &mut crate::ui::traces::job::chunks_of(text),
            text.len() as u64,
            progress,
        ),
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
