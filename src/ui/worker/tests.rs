//! The worker's protocol, packing, execution and scheduler, tested natively.

use crate::engine::config::Config;
use crate::engine::metrics::{Metrics, StopReason};
use crate::engine::trace::{Instant, InstantKind, Overhead, Span, SpanKind, Trace, TraceOptions};
use crate::engine::validate;
use crate::ui::worker::execute::*;
use crate::ui::worker::packing::*;
use crate::ui::worker::protocol::*;
use crate::ui::worker::scheduler::*;
use crate::ui::worker::wire::{parse_request, parse_response, to_bytes};

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
    let bytes = to_bytes(&req);
    assert_eq!(parse_request(&bytes), Ok(req));
    let answer = handle(&bytes);
    let resp = parse_response(&answer);
    let Response::Run { id: 4, result: Ok(r) } = resp else { panic!("{resp:?}") };
    assert!(r.trace.spans.is_empty(), "no trace was asked for");
    assert!(matches!(parse_response(&handle(b"{not json")), Response::Garbled { .. }));
    assert!(matches!(parse_response(b"nonsense"), Response::Garbled { .. }));
    assert!(matches!(parse_response(&[]), Response::Garbled { .. }));
}

#[test]
fn a_traced_run_crosses_the_wire_and_comes_back_equal() {
    let config = (crate::engine::presets::preset("nohz-pipe").expect("preset").config)();
    let req = Request::Run { id: 7, config: capped(&config, 20_000).0, trace_items: 5_000 };
    let direct = execute(&req);
    let answer = handle(&to_bytes(&req));
    let Response::Run { result: Ok(d), .. } = &direct else { panic!("{direct:?}") };
    assert!(d.trace.spans.len() > 100 && !d.trace.instants.is_empty(), "a real trace to carry");
    assert!(!d.trace.decisions.is_empty() && d.trace.decisions.len() <= PAGE_DECISIONS);
    // The spans and instants cross as packed records (24 and 18 bytes); the rest (switches,
    // decisions, figures) in less than the JSON they crossed as before.
    let items = 12 + d.trace.spans.len() * 24 + d.trace.instants.len() * 18;
    let rest = serde_json::to_string(&(&d.trace.decisions, &d.trace.switches, &d.metrics)).expect("json").len();
    assert!(
        answer.len() > items && answer.len() < items + rest,
        "{} bytes: {items} packed, {rest} as JSON",
        answer.len()
    );
    // Floats cross bit for bit: the whole answer comes back equal.
    assert_eq!(parse_response(&answer), direct);
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
    let packed = pack_items(&t.spans, &t.instants);
    assert_eq!(unpack_items(&packed), Ok((t.spans.clone(), t.instants.clone())));
    assert_eq!(unpack_items(&[]), Ok((Vec::new(), Vec::new())));
    for bad in [&packed[..packed.len() - 1], &packed[..11], b"XXXX\0\0\0\0\0\0\0\0"] {
        assert!(unpack_items(bad).is_err());
    }
    let mut wrong_kind = packed.clone();
    wrong_kind[12 + 2] = 9;
    assert_eq!(unpack_items(&wrong_kind), Err("packed trace: a span has an unknown kind"));
    let mut huge = packed.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(unpack_items(&huge).is_err());
    // In a whole message too.
    let resp = Response::Run { id: 3, result: Ok(RunResult { metrics: Metrics::default(), trace: t }) };
    assert_eq!(parse_response(&to_bytes(&resp)), resp);
}

#[test]
fn nan_metrics_cross_the_wire_bit_for_bit() {
    let mut m = Metrics { throughput: f64::NAN, elapsed_s: f64::INFINITY, ..Default::default() };
    m.cstate_residency.insert("C6".into(), f64::NAN);
    let resp = parse_response(&to_bytes(&Response::Run {
        id: 1,
        result: Ok(RunResult { metrics: m.clone(), trace: Trace::default() }),
    }));
    let Response::Run { id: 1, result: Ok(r) } = resp else { panic!("{resp:?}") };
    assert!(r.metrics.throughput.is_nan() && r.metrics.elapsed_s == f64::INFINITY);
    assert!(r.metrics.cstate_residency["C6"].is_nan());
    // The worker still answers finite figures (what the page shows and exports).
    finite(&mut m);
    assert_eq!((m.throughput, m.elapsed_s, m.cstate_residency["C6"]), (0.0, 0.0, 0.0));
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
    let cut = crate::ui::timeline::window::recorded(&live.trace).1;
    let from = cut * 3;
    assert!(from < live.trace.end, "the window starts inside the run");
    let req = Request::Window { id: 2, config: config.clone(), from, trace_items: 2_000 };
    let Response::Run { id: 2, result: Ok(w) } = execute(&req) else { panic!("a window answers like a run") };
    assert_eq!(w.metrics.digest, live.metrics.digest, "same config, same events, same figures");
    assert_eq!((w.trace.start, w.trace.end), (from, live.trace.end));
    assert!(!w.trace.spans.is_empty() && w.trace.spans.iter().all(|s| s.end > from), "only what overlaps the window");
    assert!(w.trace.instants.iter().all(|i| i.time >= from));
    assert!(w.trace.spans.len() + w.trace.instants.len() <= 2_000);
    // It is what the whole trace holds there: the spans starting in the window's first
    // stretch are the full trace's.
    let whole = crate::engine::run(&config, Some(TraceOptions::default())).expect("runs").trace;
    let (lo, hi) = crate::ui::timeline::window::recorded(&w.trace);
    let first = |t: &Trace| {
        let mut v: Vec<Span> =
            t.spans.iter().filter(|s| s.start >= lo && s.end <= lo + (hi - lo) / 2).copied().collect();
        v.sort_by_key(|s| (s.core, s.start, s.end));
        v
    };
    assert!(!first(&w.trace).is_empty());
    assert_eq!(first(&w.trace), first(&whole));
    // The wire: the window's start survives the round trip.
    let Response::Run { result: Ok(back), .. } = parse_response(&handle(&to_bytes(&req))) else { panic!("round trip") };
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
    let Response::Run { result: Ok(r), .. } = parse_response(&to_bytes(&Response::Run { id: 1, result: Ok(r) })) else {
        panic!("round trip")
    };
    assert!(to_bytes(&r.trace.decisions).len() < 1_000_000, "bounded");
}

/// Every preset's real answers (a preview run with its trace, decisions and switches, and
/// the requests that asked for them) cross the wire and come back equal; so do a seed
/// table, an opened trace and a replay.
#[test]
fn every_presets_answers_round_trip_on_the_wire() {
    let mut big = Vec::new();
    for p in crate::engine::presets::PRESETS {
        let config = capped(&(p.config)(), 30_000).0;
        for req in [
            Request::Run { id: 1, config: config.clone(), trace_items: 4_000 },
            Request::Window { id: 2, config: config.clone(), from: config.duration / 3, trace_items: 500 },
            Request::Decisions {
                id: 3,
                config: config.clone(),
                from: 0,
                to: config.duration / 2,
                at: 1_000,
                trace_items: 800,
            },
        ] {
            assert_eq!(parse_request(&to_bytes(&req)).as_ref(), Ok(&req), "{}", p.name);
            let resp = execute(&req);
            let Response::Run { result: Ok(r), .. } = &resp else { panic!("{}: {resp:?}", p.name) };
            let bytes = to_bytes(&resp);
            assert_eq!(parse_response(&bytes), resp, "{}", p.name);
            if big.len() < bytes.len() && !r.trace.decisions.is_empty() && !r.trace.switches.is_empty() {
                big = bytes;
            }
        }
    }
    assert!(!big.is_empty(), "a preset answers with decisions and switches");
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/traces/real_lisa_juno.txt"))
            .expect("fixture");
    for req in [
        Request::TraceOpen { id: 4, key: "k".into(), text: text.clone() },
        Request::TraceReplay { id: 5, key: "k".into(), config: Config::default(), text },
    ] {
        assert_eq!(parse_request(&to_bytes(&req)).as_ref(), Ok(&req));
        let resp = execute(&req);
        assert!(
            matches!(
                &resp,
                Response::TraceOpened { result: Ok(_), .. } | Response::TraceReplayed { result: Ok(_), .. }
            ),
            "{resp:?}"
        );
        assert_eq!(parse_response(&to_bytes(&resp)), resp);
    }
    let cell = |pass| validate::Cell {
        column: "c".into(),
        reported: Some(1.5),
        simulated: -2.25,
        reported_change: None,
        simulated_change: 0.1,
        pass,
        abs_error: Some(f64::MAX),
    };
    let row = validate::Row {
        label: "r".into(),
        sets: vec![("cores".into(), "4".into())],
        reported: Some(3.0),
        simulated: 2.0,
        reported_change: Some(-0.5),
        simulated_change: -0.4,
        pass: Some(true),
        vs: "base".into(),
        cells: vec![cell(Some(false)), cell(None)],
        context_switches: u64::MAX,
        timer_reprograms: 1,
        ipis: 0,
        refill_s: 1e-9,
        user_s: 1.0,
        sys_s: 2.0,
        length: "1000 loops".into(),
        convergence: Some(0.01),
        stop_reason: "completed".into(),
        needs_full_run: true,
        miss: Some("a cause (BENCHMARKS.md, \"x\").".into()),
    };
    let table = validate::Table {
        preset: "p".into(),
        title: "t".into(),
        source: "LKML".into(),
        metric: "elapsed_s".into(),
        unit: "s".into(),
        columns: vec![validate::Column { key: "k".into(), label: "l".into(), unit: "%".into() }],
        rows: vec![row.clone(), validate::Row { pass: None, convergence: None, miss: None, ..row }],
        corpus: true,
        notes: "ü, 日本".into(),
    };
    for resp in [
        Response::Seeds { id: 6, tables: vec![table.clone(), table] },
        Response::Ready,
        Response::Progress { id: 7, progress: RunProgress { now: 1, duration: 2, events: 3, max_events: u64::MAX } },
        Response::TraceProgress { id: 8, bytes: 9, total: 10 },
        Response::Run { id: 9, result: Err("no such cpu".into()) },
        Response::Garbled { error: "x".into() },
    ] {
        assert_eq!(parse_response(&to_bytes(&resp)), resp);
    }
    // A request garbled on the way in gets an answer saying so.
    assert!(matches!(parse_response(&handle(&big)), Response::Garbled { .. }), "a response is not a request");
}

/// A cut or corrupted message is refused with a reason or read as some other message, never
/// a panic or a huge allocation: every cut of a real traced answer, every byte of its start
/// flipped, and seeded random bytes after a valid header.
#[test]
fn truncated_or_corrupt_messages_never_crash_the_reader() {
    let config = capped(&(crate::engine::presets::preset("nohz-pipe").expect("preset").config)(), 3_000).0;
    let resp = execute(&Request::Run { id: 1, config: config.clone(), trace_items: 200 });
    let bytes = to_bytes(&resp);
    let req = to_bytes(&Request::Run { id: 1, config, trace_items: 200 });
    assert!(bytes.len() > 1_000, "{} bytes", bytes.len());
    for cut in 0..bytes.len() {
        assert!(matches!(parse_response(&bytes[..cut]), Response::Garbled { .. }), "cut at {cut}");
    }
    for cut in 0..req.len() {
        assert!(parse_request(&req[..cut]).is_err(), "request cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(parse_response(&longer), Response::Garbled { error } if error.contains("after the end")));
    for at in 0..bytes.len().min(3_000) {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[at] ^= x;
            let _ = parse_response(&b);
        }
    }
    for at in 0..req.len() {
        let mut b = req.clone();
        b[at] ^= 0xff;
        let _ = parse_request(&b);
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for n in 0..2_000 {
        let mut b = crate::ui::worker::wire::MAGIC.to_vec();
        for _ in 0..(n % 200) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            b.push(state as u8);
        }
        let _ = parse_response(&b);
        let _ = parse_request(&b);
    }
    // A length that claims more than the message holds is refused before any allocation.
    let mut huge = crate::ui::worker::wire::MAGIC.to_vec();
    huge.extend_from_slice(&[2, 1, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    assert!(matches!(parse_response(&huge), Response::Garbled { error } if error.contains("length past the end")));
}

/// The page's exports are worker jobs: the run the page holds crosses the wire and the worker
/// writes exactly what the exporters write from it.
#[test]
fn exports_are_worker_jobs_that_write_what_the_exporters_write() {
    let config = capped(&(crate::engine::presets::preset("nohz-pipe").expect("preset").config)(), 20_000).0;
    let run = run_ok(&config, 20_000, 2_000);
    assert!(!run.trace.spans.is_empty());
    for (format, want) in [
        (Export::Perfetto, crate::share::perfetto::to_json(&run.trace, Some(&run.metrics), Some(&config))),
        (Export::TraceText, crate::share::ftrace::export::to_text_for(&run.trace, &config)),
        (Export::MetricsCsv, crate::share::csv::metrics_csv(&run.metrics)),
    ] {
        let req = Request::Export { id: 2, format, config: config.clone(), run: run.clone() };
        assert_eq!(parse_request(&to_bytes(&req)).as_ref(), Ok(&req));
        assert_eq!(parse_response(&handle(&to_bytes(&req))), Response::Exported { id: 2, result: Ok(want) });
    }
    let rows = vec![("1ms".to_string(), Some(run.metrics.clone())), ("2ms".to_string(), None)];
    let want = crate::share::csv::sweep_csv("rr_interval", &[("1ms".into(), Some(&run.metrics)), ("2ms".into(), None)]);
    let req = Request::SweepCsv { id: 3, key: "rr_interval".into(), rows };
    assert_eq!(parse_response(&handle(&to_bytes(&req))), Response::Exported { id: 3, result: Ok(want) });
}

/// Imports are worker jobs: the file's text crosses the wire and the worker answers what the
/// parsers read (a tour with every field, an rt-app file's changes and notices), or their
/// error with the tour's line or the rt-app field's path.
#[test]
fn imports_are_worker_jobs_that_answer_what_the_parsers_read() {
    use crate::ui::worker::protocol::Imported;
    let ask = |text: &str| {
        let req = Request::Import { id: 5, text: text.into() };
        assert_eq!(parse_request(&to_bytes(&req)).as_ref(), Ok(&req));
        match parse_response(&handle(&to_bytes(&req))) {
            Response::Imported { id: 5, result } => result,
            other => panic!("{other:?}"),
        }
    };
    let tour_text = include_str!("../tour/tours/rr-kbuild.json");
    let want = crate::ui::tour::parse(tour_text).expect("a built-in tour");
    assert!(want.steps.iter().any(|s| s.number.is_some()) && want.steps.iter().any(|s| s.region.is_some()));
    assert_eq!(ask(tour_text), Imported::Tour(Ok(want)));
    let Imported::Tour(Err(e)) = ask(&tour_text.replacen("\"preset\": \"rr-kbuild\"", "\"preset\": \"nope\"", 1))
    else {
        panic!("a tour's error")
    };
    assert!(e.starts_with("line 4: unknown preset 'nope'"), "{e}");
    let rtapp = include_str!("../../../tests/data/rtapp/periodic.json");
    assert_eq!(ask(rtapp), Imported::Rtapp(Ok(crate::share::rtapp::import(rtapp).expect("imports"))));
    let Imported::Rtapp(Err(e)) = ask(r#"{ "tasks": { "t": { "run": -1, "sleep": 10 } } }"#) else {
        panic!("an rt-app error")
    };
    assert!(e.starts_with("tasks.t"), "{e}");
}

/// Issue 29: a latency figure opens exactly its wakeup. The wakeup `Request::Wakeup` finds
/// for p50, p99 and max is the one of the figure's rank, checked against the whole run's
/// own wake records (`explain`, recorded here for every wakeup): as many wakeups are
/// shorter than it as the rank says, its latency is the max exactly and within the
/// histogram's bucket (1/64 of an octave) of p50 and p99, and the answer holds its record,
/// closed, with its parts summing to it. On a pipe and on a busy run (4 ms: every record fits).
#[test]
fn a_latency_figures_wakeup_is_the_one_of_its_rank() {
    for (preset, set) in [("nohz-pipe", ("loops", "300")), ("messaging-run-to-parity", ("duration", "4ms"))] {
        let mut config = (crate::engine::presets::preset(preset).unwrap().config)();
        config.set(set.0, set.1).unwrap();
        let all =
            crate::engine::run(&config, Some(TraceOptions { window: (0, u64::MAX), max_items: 4_000_000 })).unwrap();
        assert!(!all.trace.truncated, "{preset}: every wakeup recorded");
        // The histogram keeps the samples of switches up to the run's end (`Sim::finish`); a
        // CPU ahead of global time may record a switch-in past it.
        let end = config.duration;
        let mut lats: Vec<u64> = all
            .trace
            .decisions
            .wakeups
            .iter()
            .filter(|w| w.ran_at.is_some_and(|r| r <= end))
            .filter_map(|w| w.latency())
            .collect();
        lats.sort_unstable();
        let p = &all.metrics.wakeup_latency_us;
        assert_eq!(lats.len() as u64, p.count, "{preset}: the records are the figure's samples");
        for (percent, figure) in [(50u8, p.p50), (99, p.p99), (100, p.max)] {
            let req = Request::Wakeup { id: 1, config: config.clone(), percent };
            assert_eq!(parse_request(&to_bytes(&req)).as_ref(), Ok(&req));
            let Response::Run { result: Ok(r), .. } = execute(&req) else { panic!("{preset}") };
            assert_eq!(r.metrics.digest, all.metrics.digest, "{preset}: the whole run's figures");
            let [run] = r.trace.spans[..] else { panic!("{preset} {percent}: one span") };
            let SpanKind::Run { task, .. } = run.kind else { panic!() };
            let w = r.trace.decisions.wakeups.iter().find(|w| w.task == task && w.ran_at == Some(run.start));
            let w = w.unwrap_or_else(|| panic!("{preset} {percent}: the wakeup's record is in the answer"));
            // It runs where it was woken, or a balancer moved it there while it waited (a
            // newidle pull from a stacked runqueue: hackbench's kick wakes every child from
            // one CPU).
            let moved = |m: &&crate::engine::explain::MigrateRecord| {
                m.task == task && m.from == w.target && m.to == run.core && (w.time..=run.start).contains(&m.time)
            };
            assert!(
                w.target == run.core || all.trace.decisions.migrations.iter().any(|m| moved(&m)),
                "{preset} {percent}: woken onto CPU {} and ran on {} with no move between",
                w.target,
                run.core
            );
            let lat = w.latency().unwrap();
            assert_eq!(w.parts.iter().map(|p| p.1).sum::<u64>(), lat, "{preset} {percent}: parts add up");
            let rank = (p.count * percent as u64).div_ceil(100).max(1) as usize;
            assert_eq!(lats[rank - 1], lat, "{preset} {percent}: the sample of rank {rank}");
            let us = lat as f64 / 1e3;
            if percent == 100 {
                assert_eq!(us, figure, "{preset}: the max itself");
            } else {
                assert!((us - figure).abs() <= figure / 64.0 + 0.001, "{preset} p{percent}: {us} µs for {figure}");
            }
        }
    }
}

/// The worker answers the page's first request from the run it computed from the page's
/// query (`Prefetched`, issue 26): the very bytes a fresh computation gives, once; another
/// request (the page moved on, or its first state was not the link's config) is computed as
/// usual, and a query with no first request keeps nothing.
#[test]
fn a_prefetched_first_run_answers_only_its_own_request_and_once() {
    let query = "?v=1&preset=intro";
    let first = first_request_for_query(query).expect("a first request");
    let fresh = handle(&to_bytes(&first));
    assert!(matches!(parse_response(&fresh), Response::Run { id: 1, result: Ok(_) }), "a run's answer");
    let mut p = Prefetched::default();
    p.run_for_query(query);
    assert!(p.holds_an_answer());
    assert_eq!(p.handle_with(&to_bytes(&first), &mut |_| {}), fresh, "the kept answer is the fresh one");
    assert!(!p.holds_an_answer(), "used once");
    // Another request after a prefetch: its own answer, and the kept one is dropped.
    let mut p = Prefetched::default();
    p.run_for_query(query);
    let Request::Run { config, trace_items, .. } = first.clone() else { unreachable!() };
    let other = Request::Run { id: 1, config: Config { seed: config.seed + 1, ..config }, trace_items };
    let answer = p.handle_with(&to_bytes(&other), &mut |_| {});
    assert_eq!(answer, handle(&to_bytes(&other)));
    assert_ne!(answer, fresh, "a different seed, a different run");
    assert!(!p.holds_an_answer());
    // The same request under another id is not the kept one (the reply carries the id).
    let mut p = Prefetched::default();
    p.run_for_query(query);
    let Request::Run { config, trace_items, .. } = first.clone() else { unreachable!() };
    let again = Request::Run { id: 2, config, trace_items };
    assert!(matches!(parse_response(&p.handle_with(&to_bytes(&again), &mut |_| {})), Response::Run { id: 2, .. }));
    // A compare link has no first request from its query: nothing is computed or kept.
    let mut p = Prefetched::default();
    p.run_for_query("?v=1&preset=intro&compare=1&b.hz=1000");
    assert!(!p.holds_an_answer());
}
