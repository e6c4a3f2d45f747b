//! Trace export in the Chrome JSON trace event format, which Perfetto (ui.perfetto.dev),
//! chrome://tracing and Speedscope open.
//!
//! Layout of the file: `{"traceEvents": [...], "displayTimeUnit": "ns", "metadata": {...}}`.
//! * One process, `schedscope` (pid 1), and one thread per CPU named `CPU n`, sorted by CPU
//!   (`M` metadata events `process_name`, `thread_name`, `thread_sort_index`). The thread id
//!   is `1000 + n`: trace viewers give tid 0 and tid == pid special meanings.
//! * One complete event (`X`) per span: the task's name (`cat` `run`), `idle C6` (`cat`
//!   `idle`) or the overhead kind such as `switch` (`cat` `overhead`).
//! * One instant event (`i`, thread scope `"s": "t"`) per tick, hrtick, IPI, wakeup and
//!   migration, with the other CPU and the task in `args`.
//! * One counter track (`C`) per CPU, `CPU n C-state`, with `args.depth` the idle state's
//!   index: 0 is C0 (running, or polling), 1 the profile's first C-state, and so on.
//!
//! The format counts time in microseconds: `ts` and `dur` are floats that keep the
//! nanoseconds (`1.5` is 1500 ns). Events after the metadata are sorted by time.
//! `metadata` holds the CPU count, the idle state names, whether recording was truncated,
//! and, when given, the config (as key/value text), the machine's topology (`topology`: its
//! `describe` line and each CPU's package, LLC, core and thread, `Topology::place`) and the
//! metrics. With a config whose CPUs span several sockets or LLCs or include SMT siblings,
//! each CPU's track names its place: `CPU 41 · socket 0 · LLC 0 · sibling of 1`.

use std::borrow::Cow;
use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::engine::config::Config;
use crate::engine::metrics::Metrics;
use crate::engine::profile::Topology;
use crate::engine::time::Ns;
use crate::engine::trace::{InstantKind, SpanKind, Trace};

/// The one process id.
pub const PID: u32 = 1;
/// Thread ids are `TID_BASE + cpu`.
pub const TID_BASE: u32 = 1000;

/// The thread id of a CPU's track.
pub fn tid(core: u16) -> u32 {
    TID_BASE + core as u32
}

/// Nanoseconds to the format's microseconds, exact to the nanosecond for any simulated time.
fn us(ns: Ns) -> f64 {
    ns as f64 / 1000.0
}

#[derive(Serialize)]
struct Event<'a> {
    name: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cat: Option<&'static str>,
    ph: &'static str,
    ts: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    dur: Option<f64>,
    pid: u32,
    tid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<&'static str>,
    #[serde(skip_serializing_if = "Value::is_null")]
    args: Value,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct File<'a> {
    trace_events: Vec<Event<'a>>,
    display_time_unit: &'static str,
    metadata: Value,
}

/// One event with its sort key (time, CPU, kind rank: counter, then span, then instant).
struct Keyed<'a> {
    ns: Ns,
    core: u16,
    rank: u8,
    event: Event<'a>,
}

fn task_name(trace: &Trace, task: u32) -> Cow<'_, str> {
    match trace.tasks.get(task as usize) {
        Some(t) => Cow::Borrowed(t.name.as_str()),
        None => Cow::Owned(format!("task {task}")),
    }
}

fn idle_name(trace: &Trace, state: u8) -> String {
    match trace.idle_states.get(state as usize) {
        Some(n) => format!("idle {n}"),
        None => format!("idle state {state}"),
    }
}

/// The trace as a Chrome JSON trace (see the module doc). `metrics` and `config` go into
/// `metadata` when given.
pub fn to_json(trace: &Trace, metrics: Option<&Metrics>, config: Option<&Config>) -> String {
    let cores: BTreeSet<u16> = (0..trace.cores)
        .chain(trace.spans.iter().map(|s| s.core))
        .chain(trace.instants.iter().map(|i| i.core))
        .collect();

    let meta = |name: &'static str, tid: u32, args: Value| Event {
        name: Cow::Borrowed(name),
        cat: None,
        ph: "M",
        ts: 0.0,
        dur: None,
        pid: PID,
        tid,
        s: None,
        args,
    };
    let mut events = vec![meta("process_name", tid(0), json!({ "name": "schedscope" }))];
    let topo = config.map(|c| c.profile().topo);
    let placed = topo.filter(|t| spans_groups(t, trace.cores));
    for &c in &cores {
        let name = match placed {
            Some(t) => track_name(&t, c, trace.cores),
            None => format!("CPU {c}"),
        };
        events.push(meta("thread_name", tid(c), json!({ "name": name })));
        events.push(meta("thread_sort_index", tid(c), json!({ "sort_index": c })));
    }

    let mut keyed: Vec<Keyed> = Vec::with_capacity(trace.spans.len() * 2 + trace.instants.len());
    for span in &trace.spans {
        let (name, cat, args) = match span.kind {
            SpanKind::Run { task, sys } => {
                let group = trace.tasks.get(task as usize).map(|t| t.group.as_str()).unwrap_or("");
                (task_name(trace, task), "run", json!({ "task": task, "sys": sys, "group": group }))
            }
            SpanKind::Idle { state } => (
                Cow::Owned(idle_name(trace, state)),
                "idle",
                json!({ "state": state, "state_name": trace.idle_states.get(state as usize) }),
            ),
            SpanKind::Overhead { kind } => (Cow::Borrowed(kind.name()), "overhead", Value::Null),
        };
        keyed.push(Keyed {
            ns: span.start,
            core: span.core,
            rank: 1,
            event: Event {
                name,
                cat: Some(cat),
                ph: "X",
                ts: us(span.start),
                dur: Some(us(span.end.saturating_sub(span.start))),
                pid: PID,
                tid: tid(span.core),
                s: None,
                args,
            },
        });
    }

    // Counter tracks, from the one derivation the timeline's counter lanes draw too
    // (`explain::counters`): the C-state depth per CPU (the state's index while idle, 0 (C0)
    // between idle spans), and from the decision records nr_running per CPU at each pick
    // (the queue the pick saw) and each idle entry (0), rq->avg_idle at each idle entry, and
    // PELT's cfs_rq util_avg from the trace's samples ("CPU n util_avg", issue 31).
    let tracks = crate::engine::explain::counters(trace);
    let counter = |ns: Ns, core: u16, name: String, cat: &'static str, args: Value| Keyed {
        ns,
        core,
        rank: 0,
        event: Event {
            name: Cow::Owned(name),
            cat: Some(cat),
            ph: "C",
            ts: us(ns),
            dur: None,
            pid: PID,
            tid: tid(core),
            s: None,
            args,
        },
    };
    for (c, t) in tracks.cores.iter().enumerate() {
        let c = c as u16;
        for &(ns, depth) in &t.cstate {
            keyed.push(counter(ns, c, format!("CPU {c} C-state"), "cstate", json!({ "depth": depth })));
        }
        for &(ns, n) in &t.nr_running {
            keyed.push(counter(ns, c, format!("CPU {c} nr_running"), "nr_running", json!({ "nr_running": n })));
        }
        for &(ns, v) in &t.avg_idle {
            keyed.push(counter(ns, c, format!("CPU {c} avg_idle"), "avg_idle", json!({ "avg_idle_us": us(v) })));
        }
        for &(ns, v) in &t.util_avg {
            keyed.push(counter(ns, c, format!("CPU {c} util_avg"), "util_avg", json!({ "util_avg": v })));
        }
    }

    // Why each migration happened (`explain::MigrateRecord`), keyed to its instant.
    let moves: std::collections::BTreeMap<(Ns, u32, u16), &crate::engine::explain::MigrateRecord> =
        trace.decisions.migrations.iter().map(|r| ((r.time, r.task, r.to), r)).collect();
    for inst in &trace.instants {
        let (name, args) = match inst.kind {
            InstantKind::Tick => ("tick", Value::Null),
            InstantKind::Hrtick => ("hrtick", Value::Null),
            InstantKind::Ipi { from } => ("ipi", json!({ "from_cpu": from })),
            InstantKind::Wakeup { from, task } => {
                ("wakeup", json!({ "task": task_name(trace, task), "task_id": task, "from_cpu": from }))
            }
            InstantKind::Migrate { from, task } => {
                let mut args = json!({ "task": task_name(trace, task), "task_id": task, "from_cpu": from });
                if let (Some(r), Value::Object(m)) = (moves.get(&(inst.time, task, inst.core)), &mut args) {
                    m.insert("reason".into(), json!(r.cause.name()));
                    m.insert("path".into(), json!(r.cause.text()));
                    if !r.domain.is_empty() {
                        m.insert("domain".into(), json!(r.domain));
                    }
                    for (k, v) in &r.figures {
                        m.insert(k.clone(), json!(v));
                    }
                    if !r.hot.is_empty() {
                        m.insert("task_hot".into(), json!(r.hot));
                    }
                }
                ("migrate", args)
            }
        };
        keyed.push(Keyed {
            ns: inst.time,
            core: inst.core,
            rank: 2,
            event: Event {
                name: Cow::Borrowed(name),
                cat: Some(name),
                ph: "i",
                ts: us(inst.time),
                dur: None,
                pid: PID,
                tid: tid(inst.core),
                s: Some("t"),
                args,
            },
        });
    }

    // Stable: equal keys keep generation order (a core's counter steps stay in order).
    crate::engine::order::sort_by_key(&mut keyed, |k| (k.ns, k.core, k.rank));
    events.extend(keyed.into_iter().map(|k| k.event));

    let mut metadata = Map::new();
    metadata.insert("tool".into(), json!("schedscope"));
    metadata.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    metadata.insert("cores".into(), json!(trace.cores));
    metadata.insert("idle_states".into(), json!(trace.idle_states));
    metadata.insert("end_ns".into(), json!(trace.end));
    metadata.insert("truncated".into(), json!(trace.truncated));
    if let Some(c) = config {
        let pairs: Map<String, Value> = c.to_pairs().into_iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
        metadata.insert("config".into(), Value::Object(pairs));
    }
    if let Some(t) = topo {
        let cpus: Vec<Value> = cores
            .iter()
            .map(|&c| {
                let p = t.place(u32::from(c));
                json!({ "cpu": c, "package": p.package, "llc": p.llc, "core": p.core, "thread": p.thread })
            })
            .collect();
        metadata.insert("topology".into(), json!({ "machine": t.describe(), "cpus": cpus }));
    }
    if let Some(m) = metrics {
        metadata.insert("metrics".into(), serde_json::to_value(m).unwrap_or(Value::Null));
    }

    let file = File { trace_events: events, display_time_unit: "ns", metadata: Value::Object(metadata) };
    // Serializing plain structs, strings and finite-or-null numbers cannot fail.
    serde_json::to_string(&file).unwrap_or_else(|e| format!("{{\"traceEvents\":[],\"error\":\"{e}\"}}"))
}

/// Whether a run of `n` CPUs of `t` spans more than one (socket, LLC, thread) group: then
/// its tracks name their place (a small machine's stay `CPU n`, as the timeline's lanes do).
fn spans_groups(t: &Topology, n: u16) -> bool {
    let key = |c: u32| {
        let p = t.place(c);
        (p.package, p.llc, p.thread)
    };
    (1..u32::from(n)).any(|c| key(c) != key(0))
}

/// A CPU's track name with its place: "CPU 41 · socket 0 · LLC 0 · sibling of 1" (the sibling
/// when it is simulated too), from the engine's `Topology::place` and `sibling`.
fn track_name(t: &Topology, c: u16, n: u16) -> String {
    let p = t.place(u32::from(c));
    let mut s = format!("CPU {c} \u{b7} socket {} \u{b7} LLC {}", p.package, p.llc);
    if let Some(sib) = t.sibling(u32::from(c)).filter(|&x| x < u32::from(n)) {
        s.push_str(&format!(" \u{b7} sibling of {sib}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::{Instant, Overhead, Span, TaskInfo};

    const ODD: &str = "we\"ird\\ name\n\t<ü🚀>,{}";

    fn sample() -> Trace {
        let span = |core, start, end, kind| Span { core, start, end, kind };
        let inst = |core, time, kind| Instant { core, time, kind };
        Trace {
            cores: 2,
            idle_states: vec!["POLL".into(), "C1".into(), "C6".into()],
            tasks: vec![
                TaskInfo { name: "worker-0".into(), group: "worker".into() },
                TaskInfo { name: ODD.into(), group: "odd".into() },
            ],
            // Deliberately not in time order, as a recorder may push them.
            spans: vec![
                span(1, 5_000, 7_500, SpanKind::Run { task: 1, sys: true }),
                span(0, 0, 1_001, SpanKind::Run { task: 0, sys: false }),
                span(0, 1_001, 1_500, SpanKind::Overhead { kind: Overhead::Switch }),
                span(0, 1_500, 4_000, SpanKind::Idle { state: 2 }),
                span(0, 4_000, 4_200, SpanKind::Idle { state: 1 }),
                span(0, 4_200, 4_300, SpanKind::Overhead { kind: Overhead::CStateExit }),
                span(1, 0, 5_000, SpanKind::Idle { state: 0 }),
                span(1, 7_500, 9_000, SpanKind::Run { task: 7, sys: false }),
            ],
            instants: vec![
                inst(0, 4_000, InstantKind::Tick),
                inst(1, 5_000, InstantKind::Wakeup { from: 0, task: 1 }),
                inst(1, 4_999, InstantKind::Ipi { from: 0 }),
                inst(0, 1_000, InstantKind::Hrtick),
                inst(1, 6_000, InstantKind::Migrate { from: 0, task: 0 }),
            ],
            switches: Vec::new(),
            truncated: false,
            end: 9_000,
            start: 0,
            decisions: crate::engine::explain::Decisions {
                migrations: vec![crate::engine::explain::MigrateRecord {
                    time: 6_000,
                    task: 0,
                    from: 0,
                    to: 1,
                    cause: crate::engine::explain::MoveCause::NewIdle,
                    domain: "MC(2)".into(),
                    figures: vec![("imbalance, tasks (calculate_imbalance: migrate_task)".into(), 1)],
                    hot: "task_hot: cold, the task has not run yet".into(),
                }],
                ..Default::default()
            },
            // Out of time order across CPUs, as cores running ahead push them.
            util: vec![
                crate::engine::trace::UtilSample { core: 1, time: 7_500, util: 512 },
                crate::engine::trace::UtilSample { core: 0, time: 1_000, util: 100 },
                crate::engine::trace::UtilSample { core: 1, time: 5_000, util: 300 },
            ],
        }
    }

    fn parsed(trace: &Trace) -> (Value, Vec<Value>) {
        let text = to_json(trace, Some(&Metrics::default()), Some(&Config::default()));
        let v: Value = serde_json::from_str(&text).expect("valid JSON");
        let events = v["traceEvents"].as_array().expect("traceEvents array").clone();
        (v, events)
    }

    fn of_ph<'a>(events: &'a [Value], ph: &str) -> Vec<&'a Value> {
        events.iter().filter(|e| e["ph"] == ph).collect()
    }

    #[test]
    fn every_event_has_the_required_fields() {
        let (v, events) = parsed(&sample());
        assert_eq!(v["displayTimeUnit"], "ns");
        assert_eq!(v["metadata"]["cores"], 2);
        assert_eq!(v["metadata"]["config"]["cores"], "2");
        assert!(v["metadata"]["metrics"].is_object());
        for e in &events {
            let ph = e["ph"].as_str().expect("ph");
            assert!(["M", "X", "i", "C"].contains(&ph), "{e}");
            assert!(e["ts"].is_number(), "{e}");
            assert_eq!(e["pid"], PID, "{e}");
            assert!(e["tid"].is_u64(), "{e}");
            assert!(e["name"].is_string(), "{e}");
            if ph == "X" {
                assert!(e["dur"].as_f64().expect("dur") > 0.0, "{e}");
            }
            if ph == "i" {
                assert_eq!(e["s"], "t", "{e}");
            }
        }
    }

    #[test]
    fn one_track_per_cpu_with_names_and_order() {
        let (_, events) = parsed(&sample());
        let m = of_ph(&events, "M");
        assert_eq!(m.len(), 1 + 2 * 2);
        assert_eq!(m[0]["name"], "process_name");
        assert_eq!(m[0]["args"]["name"], "schedscope");
        for c in 0..2u16 {
            let named = m.iter().find(|e| e["name"] == "thread_name" && e["tid"] == tid(c)).expect("thread_name");
            assert_eq!(named["args"]["name"], format!("CPU {c}"));
            let sorted = m.iter().find(|e| e["name"] == "thread_sort_index" && e["tid"] == tid(c)).expect("sort");
            assert_eq!(sorted["args"]["sort_index"], c);
        }
        // Metadata first, then time order.
        let first_other = events.iter().position(|e| e["ph"] != "M").unwrap();
        assert!(events[first_other..].iter().all(|e| e["ph"] != "M"));
        let ts: Vec<f64> = events[first_other..].iter().map(|e| e["ts"].as_f64().unwrap()).collect();
        assert!(ts.windows(2).all(|w| w[0] <= w[1]), "{ts:?}");
    }

    #[test]
    fn every_span_becomes_one_complete_event() {
        let t = sample();
        let (_, events) = parsed(&t);
        let x = of_ph(&events, "X");
        assert_eq!(x.len(), t.spans.len());
        for s in &t.spans {
            let matching: Vec<_> = x
                .iter()
                .filter(|e| {
                    e["tid"] == tid(s.core)
                        && e["ts"].as_f64() == Some(s.start as f64 / 1000.0)
                        && e["dur"].as_f64() == Some((s.end - s.start) as f64 / 1000.0)
                })
                .collect();
            assert_eq!(matching.len(), 1, "{s:?}");
        }
        let names: Vec<&str> = x.iter().map(|e| e["name"].as_str().unwrap()).collect();
        for want in ["worker-0", ODD, "switch", "idle C6", "idle C1", "idle POLL", "cstate_exit", "task 7"] {
            assert!(names.contains(&want), "{want} missing from {names:?}");
        }
        // Nanosecond precision in microsecond fields.
        let first = x.iter().find(|e| e["name"] == "worker-0").unwrap();
        assert_eq!(first["dur"].as_f64(), Some(1.001));
        let cats: BTreeSet<&str> = x.iter().map(|e| e["cat"].as_str().unwrap()).collect();
        assert_eq!(cats, ["idle", "overhead", "run"].into_iter().collect());
    }

    #[test]
    fn odd_task_names_are_escaped_and_survive() {
        let text = to_json(&sample(), None, None);
        assert!(!text.contains('\n'), "raw newline inside the JSON text");
        let v: Value = serde_json::from_str(&text).unwrap();
        let events = v["traceEvents"].as_array().unwrap();
        assert!(events.iter().any(|e| e["name"] == ODD && e["ph"] == "X"));
        assert!(events.iter().any(|e| e["name"] == "wakeup" && e["args"]["task"] == ODD));
        assert!(v["metadata"].get("metrics").is_none());
    }

    #[test]
    fn instants_and_counters() {
        let t = sample();
        let (_, events) = parsed(&t);
        let i = of_ph(&events, "i");
        assert_eq!(i.len(), t.instants.len());
        let ipi = i.iter().find(|e| e["name"] == "ipi").unwrap();
        assert_eq!((ipi["tid"].as_u64(), ipi["args"]["from_cpu"].as_u64()), (Some(tid(1) as u64), Some(0)));
        let mig = i.iter().find(|e| e["name"] == "migrate").unwrap();
        assert_eq!(mig["args"]["task"], "worker-0");
        // Issue 31: the reason from the migration's record, keyed to the instant.
        assert_eq!((mig["args"]["reason"].as_str(), mig["args"]["domain"].as_str()), (Some("newidle"), Some("MC(2)")));
        assert_eq!(mig["args"]["imbalance, tasks (calculate_imbalance: migrate_task)"], 1);
        assert!(mig["args"]["task_hot"].as_str().unwrap().starts_with("task_hot: cold"));
        // PELT's util_avg per CPU, a counter track in time order.
        let util = |c: u16| -> Vec<(f64, u64)> {
            of_ph(&events, "C")
                .iter()
                .filter(|e| e["name"] == format!("CPU {c} util_avg"))
                .map(|e| (e["ts"].as_f64().unwrap(), e["args"]["util_avg"].as_u64().unwrap()))
                .collect()
        };
        assert_eq!(util(0), vec![(1.0, 100)]);
        assert_eq!(util(1), vec![(5.0, 300), (7.5, 512)]);
        // CPU 0: C6 at 1.5us, C1 at 4us (back to back, no 0 between), 0 at 4.2us.
        let c0: Vec<(f64, u64)> = of_ph(&events, "C")
            .iter()
            .filter(|e| e["name"] == "CPU 0 C-state")
            .map(|e| (e["ts"].as_f64().unwrap(), e["args"]["depth"].as_u64().unwrap()))
            .collect();
        assert_eq!(c0, vec![(1.5, 2), (4.0, 1), (4.2, 0)]);
        let c1 = of_ph(&events, "C").iter().filter(|e| e["name"] == "CPU 1 C-state").count();
        assert_eq!(c1, 2);
    }

    #[test]
    fn an_empty_trace_is_a_valid_file() {
        let (v, events) = parsed(&Trace::default());
        assert_eq!(events.len(), 1, "only the process name");
        assert_eq!(v["metadata"]["truncated"], false);
    }

    /// Issue 31: a run over two sockets names each CPU's place in its track, and the metadata
    /// gives every CPU's package, LLC, core and thread, from the engine's `Topology`; a run on
    /// one LLC without siblings keeps `CPU n` tracks.
    #[test]
    fn a_two_socket_run_names_each_cpu_s_socket_llc_and_sibling() {
        let mut config = Config::default();
        config.set("cpu", "cascadelake-2s").unwrap();
        config.set("cores", "80").unwrap();
        let trace = Trace { cores: 80, ..Trace::default() };
        let v: Value = serde_json::from_str(&to_json(&trace, None, Some(&config))).unwrap();
        let name = |c: u16| {
            let events = v["traceEvents"].as_array().unwrap();
            let e = events.iter().find(|e| e["name"] == "thread_name" && e["tid"] == tid(c)).unwrap();
            e["args"]["name"].as_str().unwrap().to_string()
        };
        assert_eq!(name(1), "CPU 1 \u{b7} socket 0 \u{b7} LLC 0 \u{b7} sibling of 41");
        assert_eq!(name(20), "CPU 20 \u{b7} socket 1 \u{b7} LLC 1 \u{b7} sibling of 60");
        assert_eq!(name(41), "CPU 41 \u{b7} socket 0 \u{b7} LLC 0 \u{b7} sibling of 1");
        let topo = &v["metadata"]["topology"];
        assert_eq!(topo["machine"], "2 sockets x 20 cores x 2 threads = 80 CPUs, 1 LLC per socket");
        assert_eq!(topo["cpus"][60], json!({ "cpu": 60, "package": 1, "llc": 1, "core": 20, "thread": 1 }));

        config.set("cores", "8").unwrap();
        let small = Trace { cores: 8, ..Trace::default() };
        let v: Value = serde_json::from_str(&to_json(&small, None, Some(&config))).unwrap();
        let events = v["traceEvents"].as_array().unwrap();
        let names: Vec<&str> =
            events.iter().filter(|e| e["name"] == "thread_name").map(|e| e["args"]["name"].as_str().unwrap()).collect();
        assert_eq!(names, (0..8).map(|c| format!("CPU {c}")).collect::<Vec<_>>());
        assert_eq!(v["metadata"]["topology"]["cpus"].as_array().unwrap().len(), 8);
    }
}
