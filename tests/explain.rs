//! Decision records (`engine::explain`, issue 15): the wakeup latency split adds up to what
//! the metrics count, EEVDF's picks follow its rule, idle verdicts match the scoreboard,
//! tracing changes no result, and the derived metrics reach the lookups, exports and CLI.

use crate::common;

use schedscope::engine::explain::{Delivery, Part};
use schedscope::engine::{self, presets::preset, validate::metric_of, Config, TraceOptions};

fn cfg(name: &str) -> Config {
    common::quick((preset(name).expect("preset").config)())
}

fn full() -> Option<TraceOptions> {
    Some(TraceOptions { window: (0, u64::MAX), max_items: 5_000_000 })
}

#[test]
fn nohz_pipe_wakeup_parts_add_up_to_the_latency_the_metrics_count() {
    let c = cfg("nohz-pipe");
    let plain = engine::run(&c, None).unwrap();
    let traced = engine::run(&c, full()).unwrap();
    assert!(!traced.trace.truncated);
    assert_eq!(plain.metrics.digest, traced.metrics.digest, "recording decisions changes nothing");
    let d = &traced.trace.decisions;
    // A latency whose switch falls past the run's end (a core ran ahead) is not counted.
    let end = traced.trace.end;
    let ran: Vec<_> = d.wakeups.iter().filter(|r| r.ran_at.is_some_and(|at| at <= end)).collect();
    assert_eq!(ran.len() as u64, traced.metrics.wakeup_latency_us.count, "one closed record per counted latency");
    let mut max = 0;
    for r in &ran {
        let sum: u64 = r.parts.iter().map(|p| p.1).sum();
        assert_eq!(sum, r.latency().unwrap(), "parts add up: {r:?}");
        max = max.max(sum);
    }
    assert_eq!(max as f64 / 1e3, traced.metrics.wakeup_latency_us.max, "the largest is the metrics' max");
    // A cross-CPU pipe wakeup on 3.11 sends an IPI, but the target's MWAIT wakes on the
    // store of TIF_NEED_RESCHED first (pip27, sim/idle_path.rs): the latency pays the C-state
    // exit, the tick restart and the IPI's handler, not the IPI's send and flight. It ends
    // at the switch that runs the task (its own switch cost is not in it).
    let has = |r: &schedscope::engine::explain::WakeRecord, p: Part| r.parts.iter().any(|x| x.0 == p);
    let full_path = [Part::CStateExit, Part::Reprogram, Part::Handler];
    assert!(ran.iter().all(|r| !has(r, Part::Refill)), "no refill before the switch");
    let store: Vec<_> = ran.iter().filter(|r| r.delivery == Some(Delivery::FlagStore)).collect();
    assert!(store.len() * 2 > ran.len(), "most wakeups are woken by the store: {} of {}", store.len(), ran.len());
    let whole = store
        .iter()
        .filter(|r| full_path.iter().all(|&p| has(r, p)) && !has(r, Part::IpiSend) && !has(r, Part::IpiFlight))
        .count();
    assert!(whole * 2 > store.len(), "most pay the whole path, no IPI flight: {whole} of {}", store.len());
    for r in &ran {
        assert!(r.candidates.iter().any(|k| k.cpu == r.target), "the winner was a candidate: {r:?}");
    }
}

#[test]
fn eevdf_picks_are_the_leftmost_eligible_deadline() {
    let c = cfg("eevdf-vs-cfs");
    let out = engine::run(&c, full()).unwrap();
    let picks = &out.trace.decisions.picks;
    assert!(!picks.is_empty());
    let mut contested = 0;
    for p in picks {
        assert_eq!(p.class, "eevdf");
        assert_eq!(p.rule_pick, Some(p.chosen), "the policy picked what the rule picks: {p:?}");
        let chosen = p.queue.iter().find(|e| e.task == p.chosen).unwrap();
        if p.queue.iter().any(|e| e.eligible) {
            assert!(chosen.eligible);
            let min = p.queue.iter().filter(|e| e.eligible).map(|e| e.deadline).min().unwrap();
            assert_eq!(chosen.deadline, min);
        }
        for e in &p.queue {
            assert_eq!(e.eligible, e.lag >= 0, "eligible iff lag = V - v >= 0");
        }
        contested += (p.queue.len() > 1) as u32;
    }
    assert!(contested >= 3, "some picks chose among several tasks: {contested}");
    // The same config under CFS picks the leftmost vruntime.
    let mut cfs = c.clone();
    cfs.set("policy", "cfs").unwrap();
    let out = engine::run(&cfs, full()).unwrap();
    assert!(out.trace.decisions.picks.iter().all(|p| p.rule_pick == Some(p.chosen)));
}

#[test]
fn idle_verdicts_are_the_scoreboard_and_energy_is_bounded() {
    for name in ["token-governors", "nohz-pipe"] {
        let c = cfg(name);
        let out = engine::run(&c, full()).unwrap();
        let m = &out.metrics;
        let s = m.governor_score;
        let closed = out.trace.decisions.idles.iter().filter(|r| r.verdict.is_some()).count() as u64;
        assert_eq!(closed, s.right + s.too_deep + s.too_shallow, "{name}");
        assert!(closed > 0, "{name}");
        assert!(out.trace.decisions.idles.iter().all(|r| !r.tick_reason.is_empty()));
        let p = schedscope::engine::profile::power_model(c.profile());
        let cores = c.cores as f64;
        let all_busy = p.active_mw as f64 * 1e-3 * m.elapsed_s * cores;
        assert!(m.energy_j > 0.0 && m.energy_j <= all_busy * 1.0001, "{name}: {} vs {all_busy}", m.energy_j);
        assert_eq!(metric_of(m, "energy_j"), m.energy_j);
        assert_eq!(metric_of(m, "wasted_cpu_s"), m.wasted_cpu_s);
        assert!(metric_of(m, "governor_right") <= 1.0);
    }
}

#[test]
fn governors_score_differently_on_the_same_run() {
    let mut seen = Vec::new();
    for g in ["menu", "teo", "ladder"] {
        let mut c = cfg("token-governors");
        c.set("governor", g).unwrap();
        seen.push(engine::run(&c, None).unwrap().metrics.governor_score);
    }
    assert!(seen.iter().all(|s| s.right + s.too_deep + s.too_shallow > 0));
    assert!(seen[0] != seen[2], "menu and ladder do not score alike: {seen:?}");
}

#[test]
fn exports_carry_the_new_metrics_and_counter_tracks() {
    let c = cfg("nohz-pipe");
    let out = engine::run(&c, full()).unwrap();
    let csv = schedscope::share::csv::metrics_csv(&out.metrics);
    for k in ["energy_j,", "energy_per_work,", "wasted_cpu_s,", "governor_too_deep,"] {
        assert!(csv.contains(k), "csv lacks {k}");
    }
    let json = schedscope::share::perfetto::to_json(&out.trace, Some(&out.metrics), Some(&c));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let counters: Vec<&str> = v["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "C")
        .filter_map(|e| e["name"].as_str())
        .collect();
    for want in ["CPU 0 nr_running", "CPU 1 avg_idle", "CPU 1 C-state"] {
        assert!(counters.contains(&want), "no counter track {want}");
    }
}

#[test]
fn cli_explain_prints_the_decisions_at_an_instant() {
    let bin = env!("CARGO_BIN_EXE_schedscope");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().expect("runs");
    let out = run(&["run", "--preset", "nohz-pipe", "--set", "loops=200", "--explain", "1ms"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("wakeup @") && text.contains("latency") && text.contains("C-state exit"), "{text}");
    assert!(text.contains("idle @") && text.contains("cpuidle_select"), "{text}");
    let bad = run(&["run", "--preset", "nohz-pipe", "--explain", "soon"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--explain"));
}

/// Issue 29 item 1 / issue 30 defect 3: each pick record copied the whole runqueue, so a
/// traced run of 16,384 runnable tasks held GBs of records (the page's worker died with
/// "RuntimeError: unreachable" on hackbench groups=208: 20.7 M queue entries, 2.6 GB of
/// JSON). A record now keeps an excerpt: its bytes are bounded whatever the queue's length.
#[test]
fn decision_records_stay_bounded_with_16384_runnable_tasks() {
    use schedscope::engine::explain::PICK_EXCERPT;
    let mut c = Config::default();
    for (k, v) in [("kernel", "6.6"), ("cores", "1"), ("tasks", "16384x10us/10us"), ("duration", "200ms")] {
        c.set(k, v).unwrap();
    }
    let out = engine::run(&c, Some(TraceOptions::default())).unwrap();
    let d = &out.trace.decisions;
    assert!(d.picks.len() >= 50, "a busy run picks often: {}", d.picks.len());
    let deepest = d.picks.iter().map(|p| p.nr_queued()).max().unwrap();
    assert!(deepest > 16_000, "the runqueue held every task: {deepest}");
    for p in &d.picks {
        assert!(p.queue.len() <= PICK_EXCERPT + 3, "an excerpt, not the runqueue: {}", p.queue.len());
        assert!(p.queue.iter().any(|e| e.task == p.chosen), "the chosen task is in the excerpt");
        assert_eq!(p.more() + p.queue.len(), p.nr_queued());
    }
    let bytes = d.heap_bytes();
    assert!(bytes <= d.len() * 4096, "{bytes} bytes for {} records", d.len());
    assert!(bytes < 32 << 20, "{bytes} bytes of records");
    let names: Vec<String> = out.trace.tasks.iter().map(|t| t.name.clone()).collect();
    let cut =
        schedscope::engine::explain::Decisions { picks: d.picks[d.picks.len() - 1..].to_vec(), ..Default::default() };
    let text = schedscope::engine::explain::render(&cut, &names);
    assert!(text.contains("more queued"), "a cut excerpt says so: {text}");
}

/// Issue 31: every migration in a trace has its decision record, keyed to its instant
/// (time, task, CPU) and saying the path that moved it; recording them changes no digest;
/// the Perfetto export puts the reason in the migrate instant's args and the CLI's
/// `--explain` prints it.
#[test]
fn every_migration_says_why() {
    use schedscope::engine::explain::MoveCause;
    use schedscope::engine::trace::InstantKind;
    let mut c = (preset("intro").expect("preset").config)();
    for (k, v) in
        [("cpu", "zen3-2s"), ("cores", "16"), ("workload", "hackbench"), ("groups", "2"), ("duration", "20ms")]
    {
        c.set(k, v).unwrap();
    }
    let o = engine::run(&c, full()).unwrap();
    assert_eq!(o.metrics.digest, engine::run(&c, None).unwrap().metrics.digest, "records only");
    let d = &o.trace.decisions;
    let moves: Vec<_> = o
        .trace
        .instants
        .iter()
        .filter_map(|i| match i.kind {
            InstantKind::Migrate { from, task } => Some((i.time, task, i.core, from)),
            _ => None,
        })
        .collect();
    assert!(moves.len() > 50, "{} migrations", moves.len());
    assert_eq!(moves.len(), d.migrations.len(), "one record per migration");
    for &(time, task, to, from) in &moves {
        let r = d.migrations.iter().find(|r| (r.time, r.task, r.to) == (time, task, to)).expect("keyed to its instant");
        assert_eq!(r.from, from);
        assert_eq!(r.cause.balancer(), !r.domain.is_empty(), "a balancer move names its domain: {r:?}");
        assert_eq!(r.cause.balancer(), !r.hot.is_empty(), "and what task_hot found: {r:?}");
    }
    let has = |c: MoveCause| d.migrations.iter().any(|r| r.cause == c);
    assert!(has(MoveCause::SelectIdleSibling) && has(MoveCause::NewIdle), "wakeups and newidle pulls");
    // The intro preset's era (4.17) on Zen 3: SMT pairs, an MC level of a CCX, DIE (PKG from 6.12).
    let newidle = d.migrations.iter().find(|r| r.cause == MoveCause::NewIdle).unwrap();
    assert!(["SMT(", "MC(", "DIE("].iter().any(|n| newidle.domain.starts_with(n)), "{newidle:?}");

    let json = schedscope::share::perfetto::to_json(&o.trace, None, None);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let migrates: Vec<&serde_json::Value> =
        v["traceEvents"].as_array().unwrap().iter().filter(|e| e["name"] == "migrate").collect();
    assert_eq!(migrates.len(), moves.len());
    for e in &migrates {
        let why = e["args"]["reason"].as_str().expect("a reason in every migrate instant's args");
        assert!(["select_idle_sibling", "wake_affine", "affinity", "periodic", "newidle", "nohz_idle"].contains(&why));
        if why == "newidle" {
            assert!(e["args"]["domain"].is_string() && e["args"]["task_hot"].is_string(), "{e}");
        }
    }

    let at = format!("{}ns", newidle.time);
    let bin = env!("CARGO_BIN_EXE_schedscope");
    let args = ["run", "--preset", "intro", "--set", "cpu=zen3-2s", "--set", "cores=16", "--set", "workload=hackbench"];
    let rest = ["--set", "groups=2", "--set", "duration=20ms", "--explain", &at];
    let out = std::process::Command::new(bin).args(args).args(rest).output().expect("runs");
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.contains(&format!("CPU {} -> CPU {} (newidle) at the {} domain", newidle.from, newidle.to, newidle.domain)),
        "{out}"
    );
}
