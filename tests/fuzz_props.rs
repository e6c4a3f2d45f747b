//! Robustness: hostile input through the URL parser, the rt-app importer, the trace readers
//! (text dialects and trace.dat) and config -> run,
//! plus the engine's invariants checked on every preset.
//!
//! The proptests run `FUZZ_CASES` cases each (default 64: seconds, part of `cargo test`).
//! A long campaign: `FUZZ_CASES=200000 cargo test --profile fast --test all fuzz_props::` (see
//! fuzz/README.md). Properties: no panic; every run stops within its event budget; the
//! trace stays within `max_items`; configs the parsers hand back pass `engine::check`.

use crate::common;

use proptest::prelude::*;
use schedscope::engine::config::{Config, KeyKind, KEYS};
use schedscope::engine::presets::PRESETS;
use schedscope::engine::sim::run_checked;
use schedscope::engine::time::Ns;
use schedscope::engine::trace::{SpanKind, Trace, TraceOptions};
use schedscope::engine::{self, Outcome};
use schedscope::share::{ftrace, rtapp, url};

/// Event budget of a fuzzed run (small: a case must take milliseconds).
const BUDGET: u64 = 20_000;
/// Trace bound of a fuzzed run.
const MAX_ITEMS: usize = 3_000;

fn cases() -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(64)
}

// ------------------------------------------------------------ invariants

/// Every invariant the engine promises, on one finished run. `Err` says which failed.
fn check_invariants(
    what: &str,
    o: &Outcome,
    past_events: u64,
    accounts: &[(Ns, Ns, Ns)],
    end: Ns,
) -> Result<(), String> {
    if past_events != 0 {
        return Err(format!("{what}: {past_events} events popped in the past"));
    }
    // CPU time conserved: each core's run + idle + overhead is the elapsed time.
    for (i, (run, idle, over)) in accounts.iter().enumerate() {
        let total = run + idle + over;
        if total != end {
            return Err(format!("{what}: core {i}: run {run} + idle {idle} + overhead {over} = {total} != {end}"));
        }
    }
    // Per-task runtime never above elapsed.
    for t in &o.metrics.tasks {
        if t.runtime_ns > end {
            return Err(format!("{what}: task {} ran {} ns of {end}", t.name, t.runtime_ns));
        }
    }
    check_trace(what, &o.trace)
}

/// A core never does two things at once (runs two tasks, or a task and an overhead), and a
/// task never runs on two cores at once.
fn check_trace(what: &str, t: &Trace) -> Result<(), String> {
    for core in 0..t.cores {
        let mut spans: Vec<_> = t.spans.iter().filter(|s| s.core == core).collect();
        spans.sort_by_key(|s| (s.start, s.end));
        for w in spans.windows(2) {
            if w[0].end > w[1].start {
                return Err(format!("{what}: core {core} overlaps: {:?} {:?}", w[0], w[1]));
            }
        }
    }
    let mut runs: Vec<_> = t
        .spans
        .iter()
        .filter_map(|s| match s.kind {
            SpanKind::Run { task, .. } => Some((task, s.start, s.end, s.core)),
            _ => None,
        })
        .collect();
    runs.sort();
    for w in runs.windows(2) {
        if w[0].0 == w[1].0 && w[0].2 > w[1].1 {
            return Err(format!("{what}: task {} on two cores at once: {:?} {:?}", w[0].0, w[0], w[1]));
        }
    }
    for s in &t.spans {
        if s.start >= s.end || s.end > t.end {
            return Err(format!("{what}: span outside the run: {s:?} (end {})", t.end));
        }
    }
    Ok(())
}

/// Runs with a trace and checks every invariant plus the budgets.
fn run_and_check(what: &str, cfg: &Config, max_items: usize) -> Result<Outcome, String> {
    engine::check(cfg).map_err(|e| format!("{what}: invalid config: {e}"))?;
    let opts = TraceOptions { max_items, ..TraceOptions::default() };
    let (o, checks) = run_checked(cfg, Some(opts));
    if o.metrics.events > cfg.max_events {
        return Err(format!("{what}: {} events over the budget {}", o.metrics.events, cfg.max_events));
    }
    if o.trace.spans.len() + o.trace.instants.len() > max_items {
        return Err(format!(
            "{what}: trace holds {} items, max {max_items}",
            o.trace.spans.len() + o.trace.instants.len()
        ));
    }
    check_invariants(what, &o, checks.past_events, &checks.accounts, checks.end)?;
    Ok(o)
}

#[test]
fn every_preset_keeps_every_invariant() {
    for p in PRESETS {
        let cfg = common::quick((p.config)());
        let o = run_and_check(p.name, &cfg, usize::MAX).unwrap_or_else(|e| panic!("{e}"));
        assert!(o.metrics.events > 0, "{}: no events", p.name);
        assert!(!o.trace.truncated, "{}: the whole short run is traced", p.name);
    }
}

#[test]
fn every_preset_keeps_its_invariants_with_a_truncated_trace() {
    // A bounded trace still satisfies the trace invariants, and stops at max_items.
    for p in PRESETS {
        let cfg = common::quick((p.config)());
        let o = run_and_check(p.name, &cfg, 50).unwrap_or_else(|e| panic!("{e}"));
        if o.metrics.events > 100 {
            assert!(o.trace.truncated, "{}: 50 items cannot hold {} events' trace", p.name, o.metrics.events);
        }
    }
}

#[test]
fn the_event_budget_stops_every_preset() {
    for p in PRESETS {
        let mut cfg = (p.config)();
        cfg.set("max_events", "1000").unwrap();
        let (o, checks) = run_checked(&cfg, None);
        assert!(o.metrics.events <= 1000, "{}: {} events", p.name, o.metrics.events);
        check_invariants(p.name, &o, checks.past_events, &checks.accounts, checks.end)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

// ------------------------------------------------------------ generators

/// A value for `key`: mostly plausible (in or near its range), sometimes garbage.
fn arb_value(kind: KeyKind) -> BoxedStrategy<String> {
    let garbage = prop_oneof![
        Just(String::new()),
        Just("-1".to_string()),
        Just("18446744073709551616".to_string()),
        Just("NaN".to_string()),
        Just("1e9".to_string()),
        "\\PC{0,12}",
    ];
    let plausible: BoxedStrategy<String> = match kind {
        KeyKind::Int { min, max } => {
            let hi = max.min(min.saturating_add(1 << 20));
            prop_oneof![min..=hi, Just(max), Just(min), any::<u64>()].prop_map(|n| n.to_string()).boxed()
        }
        KeyKind::Duration { min, max } => prop_oneof![
            (min..=max.min(min.saturating_mul(1000).max(min))).prop_map(|n| format!("{n}ns")),
            (0u64..5000, prop::sample::select(vec!["ns", "us", "ms", "s", "h", ""]))
                .prop_map(|(n, u)| format!("{n}{u}")),
            Just(format!("{max}ns")),
        ]
        .boxed(),
        KeyKind::Bool => prop::sample::select(vec!["on", "off", "true", "0", "yes"]).prop_map(String::from).boxed(),
        KeyKind::Choice(list) => prop::sample::select(list.to_vec()).prop_map(String::from).boxed(),
        KeyKind::Text => prop_oneof![
            prop::sample::select(vec![
                "all",
                "off",
                "C1,C6",
                "C1E,C3,POLL",
                "none",
                "0ms",
                "10ms",
                "x5675",
                "core2duo",
                "q6600",
                "skylake-sp",
                "2x3ms/10ms",
                "4x1ms/4ms,1x5ms/20ms",
                "256x1us/1ms",
                "0x1ms/2ms",
                "1x2ms/1ms",
            ])
            .prop_map(String::from),
            "[0-9]{1,3}x[0-9]{1,4}(us|ms)/[0-9]{1,4}(us|ms)",
        ]
        .boxed(),
    };
    prop_oneof![4 => plausible, 1 => garbage].boxed()
}

/// A config key (sometimes an unknown one) and a value for it.
fn arb_pair() -> impl Strategy<Value = (String, String)> {
    prop::sample::select(KEYS.to_vec()).prop_flat_map(|k| (Just(k.key.to_string()), arb_value(k.kind)))
}

/// A query string: known keys with fuzzed values, UI keys, B-side keys, and junk.
fn arb_query() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => arb_pair().prop_map(|(k, v)| format!("{k}={}", url::percent_encode(&v))),
        1 => arb_pair().prop_map(|(k, v)| format!("b.{k}={v}")),
        1 => prop::sample::select(vec![
            "v=1", "v=99", "preset=nohz-pipe", "preset=nope", "embed", "embed=maybe", "compare=1",
            "view=timeline", "view=metrics,plots", "sweep=hz", "sweep=nope", "%", "%zz", "=", "&&", "a=b=c",
        ])
        .prop_map(String::from),
        1 => "\\PC{0,20}",
    ];
    (any::<bool>(), prop::collection::vec(piece, 0..12)).prop_map(|(q, parts)| {
        let s = parts.join("&");
        if q {
            format!("?{s}")
        } else {
            s
        }
    })
}

/// JSON-ish rt-app input: valid-looking task sets with random fields, and mangled text.
fn arb_rtapp() -> impl Strategy<Value = String> {
    let num = prop_oneof![
        Just("0".to_string()),
        Just("-5".to_string()),
        Just("1e30".to_string()),
        (0u64..100_000_000).prop_map(|n| n.to_string())
    ];
    let event = (
        prop::sample::select(vec!["run", "runtime", "sleep", "timer", "lock", "unlock", "barrier", "yield", "bogus"]),
        num.clone(),
    )
        .prop_map(|(k, v)| {
            if k == "timer" {
                format!("\"timer\": {{\"ref\": \"t\", \"period\": {v}}}")
            } else {
                format!("\"{k}\": {v}")
            }
        });
    let task = (
        "[a-z]{1,6}",
        prop::collection::vec(event, 0..5),
        prop_oneof![Just(String::new()), num.clone().prop_map(|n| format!("\"instance\": {n},"))],
        prop_oneof![Just(String::new()), num.clone().prop_map(|n| format!("\"loop\": {n},"))],
        prop_oneof![
            Just(String::new()),
            Just("\"policy\": \"SCHED_FIFO\",".to_string()),
            (-30i32..30).prop_map(|n| format!("\"priority\": {n},"))
        ],
    )
        .prop_map(|(name, evs, inst, lp, pol)| {
            format!("\"{name}\": {{ {inst} {lp} {pol} \"run0\": 1, {} }}", evs.join(", "))
        });
    let doc = (
        prop::collection::vec(task, 0..6),
        prop_oneof![Just(String::new()), num.prop_map(|n| format!(", \"global\": {{\"duration\": {n}}}"))],
    )
        .prop_map(|(tasks, global)| format!("{{\"tasks\": {{ {} }}{global}}}", tasks.join(", ")));
    prop_oneof![
        4 => doc.clone(),
        // Cut a plausible document short or splice junk into it.
        1 => (doc.clone(), any::<prop::sample::Index>()).prop_map(|(d, i)| {
            let mut at = i.index(d.len() + 1);
            while !d.is_char_boundary(at) { at -= 1; }
            d[..at].to_string()
        }),
        1 => (doc, "\\PC{0,8}", any::<prop::sample::Index>()).prop_map(|(d, junk, i)| {
            let mut at = i.index(d.len() + 1);
            while !d.is_char_boundary(at) { at -= 1; }
            format!("{}{junk}{}", &d[..at], &d[at..])
        }),
        1 => "\\PC{0,64}",
    ]
}

/// Trace text: lines of every dialect the reader knows (trace-cmd report with flags, TGID,
/// the sched_switch plugin, perf script), with fuzzed pids, CPUs, times and states, and
/// hostile lines (long, many fields, absurd times, control characters).
fn arb_trace_text() -> impl Strategy<Value = String> {
    let state = prop::sample::select(vec!["R", "R+", "S", "D", "X", "x", "Z", "P", "I", "0", "1", "64", "4096", "?"]);
    let line = (0u32..6, 0u32..6, 0u64..3_000_000, 0u32..5, state, 0u8..6).prop_map(|(p, n, t, cpu, st, form)| {
        let ts = format!("{}.{:06}", 100 + t / 1_000_000, t % 1_000_000);
        match form {
            0 => format!(
                "t-{p} [{cpu:03}] d..2. {ts}: sched_switch: prev_comm=t{p} prev_pid={p} prev_prio=120 \
                 prev_state={st} ==> next_comm=t{n} next_pid={n} next_prio=120"
            ),
            1 => format!("t-{p} (-----) [{cpu:03}] .N.1. {ts}: sched_switch: t{p}:{p} [120] {st} ==> t {n}:{n} [120]"),
            2 => format!("t-{p} [{cpu:03}] {ts}: sched_wakeup: comm=t{n} pid={n} prio=120 target_cpu={cpu:03}"),
            3 => {
                format!("    t{p} {p} [{cpu:03}] {ts}: sched:sched_waking: comm=t{n} pid={n} prio=120 target_cpu={cpu}")
            }
            4 => format!(
                "t-{p} [{cpu:03}] {ts}: sched_migrate_task: comm=t{n} pid={n} prio=120 orig_cpu={cpu} dest_cpu={p}"
            ),
            _ => format!("<idle>-0 [{cpu:03}] {ts}: cpu_idle: state={st} cpu_id={cpu}"),
        }
    });
    let hostile = prop::sample::select(vec![
        "[1]".repeat(30_000),
        format!("a-1 [000] 1.0: sched_switch: {}", " k=".repeat(100)),
        "a-1 [000] 18446744073.709551: sched_switch: prev_comm=a prev_pid=1 prev_state=S ==> next_comm=b next_pid=2"
            .into(),
        "a-1 [1023] 1.0: sched_wakeup: comm=\u{1b}]0;x\u{7} pid=5 target_cpu=99999".into(),
        "cpus=99999999".into(),
        "CPU 0/KVM-9 [001] 100.000001: sched_switch: CPU 0/KVM:9 [120] S ==> :0 [120]".into(),
    ]);
    let piece = prop_oneof![8 => line, 1 => hostile, 1 => "\\PC{0,40}"];
    prop::collection::vec(piece, 0..40).prop_map(|l| l.join("\n"))
}

/// Caps a config so a fuzzed run is quick: the small budget, a bounded trace.
fn bounded(mut cfg: Config) -> Config {
    cfg.set("max_events", &BUDGET.to_string()).expect("the fuzz budget is in range");
    cfg
}

/// A real trace.dat (TRAPpy's, see tests/fixtures/traces/README.md), read once: the plain
/// version 6 file, or (`zstd`) trace-cmd's zstd-compressed version 7 copy of it.
fn trace_dat(zstd: bool) -> &'static [u8] {
    static DAT: [std::sync::OnceLock<Vec<u8>>; 2] = [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let name = if zstd { "real_trappy_raw_trace.zstd.dat" } else { "real_trappy_raw_trace.dat" };
    DAT[zstd as usize].get_or_init(|| {
        std::fs::read(format!("{}/tests/fixtures/traces/{name}", env!("CARGO_MANIFEST_DIR"))).expect("the fixture")
    })
}

/// A model read from fuzzed input keeps its figures within the trace.
fn check_trace_model(what: &str, m: Result<ftrace::Model, ftrace::ReadError>) -> Result<(), TestCaseError> {
    if let Ok(m) = m {
        for (c, &b) in m.busy.iter().enumerate() {
            prop_assert!(b <= m.duration(), "{}: CPU {} busy {} ns in {} ns", what, c, b, m.duration());
        }
        prop_assert!(m.cpus >= 1 && m.cpus <= ftrace::model::MAX_CPUS);
        prop_assert!(m.notices.len() <= 64, "{} notices", m.notices.len());
    }
    Ok(())
}

// ------------------------------------------------------------ properties

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn config_set_then_run_never_panics_and_stays_bounded(pairs in prop::collection::vec(arb_pair(), 0..10)) {
        let mut cfg = Config::default();
        for (k, v) in &pairs {
            // A refused value leaves the config as it was; that is the contract.
            let before = cfg.clone();
            if cfg.set(k, v).is_err() {
                prop_assert_eq!(&cfg, &before, "a refused {}={:?} changed the config", k, v);
            }
        }
        let cfg = bounded(cfg);
        run_and_check(&format!("{pairs:?}"), &cfg, MAX_ITEMS).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn url_parse_never_panics_and_gives_runnable_configs(q in arb_query()) {
        let (state, notices) = url::parse(&q);
        prop_assert!(notices.len() <= 64, "{} notices", notices.len());
        for side in std::iter::once(&state.config).chain(state.compare.as_ref()) {
            let cfg = bounded(side.clone());
            run_and_check(&q, &cfg, MAX_ITEMS).map_err(TestCaseError::fail)?;
        }
        // What a link says survives being written back out and read again.
        let again = url::parse(&url::to_query(&state)).0;
        prop_assert_eq!(&again.config, &state.config, "round trip of {:?}", q);
    }

    #[test]
    fn url_parse_survives_arbitrary_text(q in "\\PC{0,200}") {
        let (state, _) = url::parse(&q);
        prop_assert!(engine::check(&state.config).is_ok());
    }

    #[test]
    fn trace_text_reads_without_panic_and_keeps_cpus_within_the_trace(text in arb_trace_text()) {
        check_trace_model(&text, ftrace::read_bytes(text.as_bytes()))?;
        // The same text in chunks is the same model.
        let mut r = ftrace::model::Reader::default();
        for piece in text.as_bytes().chunks(97) {
            r.push(&String::from_utf8_lossy(piece));
        }
        if text.is_ascii() {
            prop_assert_eq!(r.finish().ok(), ftrace::read(&text).ok());
        }
    }

    #[test]
    fn trace_dat_cut_or_flipped_never_panics(zstd in any::<bool>(), cut in 0usize..100_000, flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..), 0..16)) {
        let mut bytes = trace_dat(zstd).to_vec();
        for (i, x) in flips {
            let at = i.index(bytes.len());
            bytes[at] ^= x;
        }
        bytes.truncate(bytes.len() - cut.min(bytes.len()));
        check_trace_model("trace.dat", ftrace::read_bytes(&bytes))?;
    }

    #[test]
    fn rtapp_import_never_panics_and_its_changes_apply(text in arb_rtapp()) {
        if let Ok(r) = rtapp::import(&text) {
            let mut cfg = Config::default();
            for (k, v) in &r.config_changes {
                cfg.set(k, v).map_err(|e| TestCaseError::fail(format!("import gave {k}={v:?}, refused: {e}\n{text}")))?;
            }
            run_and_check(&text, &bounded(cfg), MAX_ITEMS).map_err(TestCaseError::fail)?;
        }
    }
}
