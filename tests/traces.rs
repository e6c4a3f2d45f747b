//! Real traces: the ftrace / perf script reader on hand-written fixtures, `trace stats`
//! against an independent count, the export -> import -> replay round trip, and mangled
//! input that must never panic.

use std::collections::BTreeMap;

use proptest::prelude::*;
use schedscope::engine::config::Config;
use schedscope::engine::time::MS;
use schedscope::engine::{self, TraceOptions};
use schedscope::share::ftrace::{self, export, model::RunEnd, read, replay};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fixtures/traces/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// On-CPU ns per pid, counted the plain way: per CPU, from a `sched_switch` that puts a pid
/// on it to the next `sched_switch` on that CPU; a CPU whose first switch takes a task off
/// counts that task from the trace's first timestamp, and the task on a CPU at the end runs
/// to the last timestamp. Written apart from the model (string splitting, no shared code).
fn independent_on_cpu(text: &str) -> BTreeMap<u32, u64> {
    let mut switches = Vec::new();
    let (mut first, mut last) = (u64::MAX, 0u64);
    for line in text.lines() {
        let Some(close) = line.find("]") else { continue };
        let Some(open) = line[..close].rfind('[') else { continue };
        let Ok(cpu) = line[open + 1..close].parse::<u32>() else { continue };
        let after = &line[close + 1..];
        let Some(colon) = after.find(": ") else { continue };
        let ts_word = after[..colon].split_whitespace().last().unwrap_or("");
        let Some((s, f)) = ts_word.split_once('.') else { continue };
        let (Ok(s), Ok(f0)) = (s.parse::<u64>(), f.parse::<u64>()) else { continue };
        let ns = s * 1_000_000_000 + f0 * 10u64.pow(9 - f.len() as u32);
        let field = |k: &str| -> Option<u32> {
            let at = after.find(k)? + k.len();
            after[at..].split(' ').next()?.parse().ok()
        };
        let switch = after.contains("sched_switch: ");
        let pids = (field(" prev_pid="), field(" next_pid="));
        if switch && (pids.0.is_none() || pids.1.is_none()) {
            continue; // a cut sched_switch line is no event, and its time not the trace's
        }
        first = first.min(ns);
        last = last.max(ns);
        if let (true, (Some(p), Some(n))) = (switch, pids) {
            switches.push((ns, cpu, p, n));
        }
    }
    switches.sort_by_key(|s| s.0);
    let mut on: BTreeMap<u32, (u32, u64)> = BTreeMap::new();
    let mut seen: BTreeMap<u32, bool> = BTreeMap::new();
    let mut total: BTreeMap<u32, u64> = BTreeMap::new();
    for (ns, cpu, prev, next) in switches {
        let since = match on.remove(&cpu) {
            Some((pid, since)) if pid == prev => Some(since),
            None if !seen.contains_key(&cpu) => Some(first),
            _ => None,
        };
        seen.insert(cpu, true);
        if let (Some(since), true) = (since, prev != 0) {
            *total.entry(prev).or_default() += ns - since;
        }
        if next != 0 {
            on.insert(cpu, (next, ns));
        }
    }
    for (_, (pid, since)) in on {
        *total.entry(pid).or_default() += last - since;
    }
    total
}

fn model_on_cpu(text: &str) -> BTreeMap<u32, u64> {
    let m = read(text).unwrap();
    let mut per: BTreeMap<u32, u64> = BTreeMap::new();
    for t in m.stats().tasks {
        if t.runtime_ns > 0 {
            *per.entry(t.pid).or_default() += t.runtime_ns;
        }
    }
    per
}

fn assert_counts_agree(what: &str, text: &str) {
    // A task seen only at the trace's first instant ran 0 ns: both sides list the rest.
    let a: BTreeMap<u32, u64> = independent_on_cpu(text).into_iter().filter(|&(_, ns)| ns > 0).collect();
    let b = model_on_cpu(text);
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "{what}: pids");
    for (pid, ns) in &a {
        let d = b[pid].abs_diff(*ns);
        assert!(d < 1_000, "{what}: pid {pid}: independent {ns} ns, stats {} ns", b[pid]);
    }
}

#[test]
fn stats_agree_with_an_independent_count_on_every_fixture() {
    for f in [
        "trace_cmd_basic.txt",
        "trace_cmd_numeric.txt",
        "perf_script.txt",
        "edge_cases.txt",
        "real_trappy_idle_unsorted.txt",
        "real_lisa_juno.txt",
    ] {
        assert_counts_agree(f, &fixture(f));
    }
}

#[test]
fn stats_agree_with_an_independent_count_on_a_simulated_trace() {
    let mut c = Config::default();
    c.set("duration", "50ms").unwrap();
    let out = engine::run(&c, Some(TraceOptions::default())).unwrap();
    assert!(!out.trace.truncated);
    let text = export::to_text(&out.trace, None);
    assert_counts_agree("rtapp export", &text);
    // And the export is the engine's own accounting of on-CPU time, to the nanosecond.
    let b = model_on_cpu(&text);
    for (i, t) in out.metrics.tasks.iter().enumerate() {
        let pid = export::default_pid(i);
        let spans: u64 = out
            .trace
            .spans
            .iter()
            .filter_map(|s| match s.kind {
                schedscope::engine::trace::SpanKind::Run { task, .. } if task as usize == i => Some(s.end - s.start),
                _ => None,
            })
            .sum();
        assert!(b.get(&pid).copied().unwrap_or(0) >= spans, "{}: {spans}", t.name);
    }
}

/// A trace recorded on a real machine (TRAPpy's test data, tests/fixtures/traces/README.md):
/// the old report format, timestamps out of order across CPUs, `cpu_idle`, a cut last line.
#[test]
fn a_real_trace_reads_and_replays() {
    let text = fixture("real_trappy_idle_unsorted.txt");
    let m = read(&text).unwrap();
    // The header's `cpus=8`, though CPU 7 logged nothing (and CPU 6 was the last seen).
    assert_eq!(m.cpus, 8);
    assert_eq!(m.notices.len(), 2, "{:?}", m.notices);
    assert!(m.notices[0].contains("line 17") && m.notices[0].contains("truncated"), "{:?}", m.notices);
    assert!(m.notices[1].starts_with("4 of the 8 CPUs (counted from the header's cpus=8) logged no event"));
    let s = m.stats();
    let bash = s.tasks.iter().find(|t| t.pid == 14840).unwrap();
    // From 7115.449781 (switched in on CPU 5) to the last complete event, 7115.450065.
    assert_eq!(bash.runtime_ns, 284_000);
    let kw = s.tasks.iter().find(|t| t.pid == 11630).unwrap();
    // 7115.449607 -> 7115.449621, switched out with prev_state=256 (not runnable).
    assert_eq!(kw.runtime_ns, 14_000);
    // Replay under another policy: every recorded task is in the diff, with simulated time.
    let mut c = ftrace::replay_config(&m, &Config::default());
    c.set("policy", "eevdf").unwrap();
    let (d, out) = ftrace::replay_and_diff(&m, &c).unwrap();
    assert_eq!(d.tasks.len(), m.tasks.len());
    assert!(out.metrics.events > 0);
    let r = d.tasks.iter().find(|r| r.pid == 14840).unwrap();
    assert!(r.runtime_s.simulated > 0.0, "{r:?}");
}

/// LISA's Juno trace: 6.7 s, 50 tasks, forks without `sched_wakeup_new` and exits. Its
/// replay must start each task where the recording first saw it and end it where it
/// exited, or the diff's sleep column measures the bookkeeping, not the model.
#[test]
fn a_real_juno_trace_replays_each_task_over_its_recorded_life() {
    use schedscope::share::ftrace::model::Birth;
    let m = read(&fixture("real_lisa_juno.txt")).unwrap();
    assert_eq!(m.cpus, 6);
    assert_eq!((m.skipped.get("print"), m.skipped.get("sched_overutilized")), (Some(&14), Some(&3)));
    assert_eq!(m.bad_lines, 0, "{:?}", m.notices);
    let task = |pid: u32| m.tasks.iter().position(|t| t.pid == pid).unwrap();
    // shutils-1703 first appears switching in at 76.575 s (forked; no sched_wakeup_new traced).
    let shutils = task(1703);
    assert!(matches!(m.tasks[shutils].birth, Birth::SwitchIn(t) if t > m.start), "{:?}", m.tasks[shutils].birth);
    // sh-1702 runs, then leaves with prev_state=64 (TASK_DEAD in 4.8-4.13) and never returns.
    assert!(m.tasks[task(1702)].exited);
    // sshd-1639 is there from the first line.
    assert_eq!(m.tasks[task(1639)].birth, Birth::Start);

    let c = ftrace::replay_config(&m, &Config::default());
    let (d, _) = ftrace::replay_and_diff(&m, &c).unwrap();
    let row = |pid: u32| d.tasks.iter().find(|r| r.pid == pid).unwrap();
    // Born late and dead early: a replay that started it at 0 or let it sleep after its
    // exit gave it 6.5 s of sleep where the recording shows 4 ms.
    for pid in [1703, 1702, 1704] {
        let r = row(pid);
        assert!((r.sleep_s.simulated - r.sleep_s.recorded).abs() < 0.01, "pid {pid}: {:?}", r.sleep_s);
        assert!((r.runtime_s.simulated - r.runtime_s.recorded).abs() < 0.05 * r.runtime_s.recorded, "pid {pid}");
    }
    let sum = |k: &str| d.summary.iter().find(|s| s.metric == k).unwrap().clone();
    assert!(sum("sleep_s").abs_error_rel < 0.05, "{:?}", sum("sleep_s"));
    assert!(sum("runtime_s").abs_error_rel < 0.01, "{:?}", sum("runtime_s"));
    // The all-tasks latency rows are percentiles over every wakeup, not sums of per-task ones.
    let mut all: Vec<u64> = m.tasks.iter().flat_map(|t| t.latencies.iter().copied()).collect();
    all.sort_unstable();
    let rank = |p: usize| all[(p * all.len()).div_ceil(100) - 1] as f64 / 1e3;
    assert_eq!(sum("wakeup_p50_us").recorded, rank(50));
    assert_eq!(sum("wakeup_p99_us").recorded, rank(99));
    assert_eq!(sum("wakeup_max_us").recorded, *all.last().unwrap() as f64 / 1e3);
    let r = sum("wakeup_p99_us");
    assert!((r.abs_error_rel - (r.simulated - r.recorded).abs() / r.recorded).abs() < 1e-12, "{r:?}");
}

/// A fork traced as `sched_wakeup_new`, a task first seen switching in (its fork not
/// traced) and an exit: the replay's export writes each as the recording showed it.
#[test]
fn a_replay_export_shows_births_and_exits_as_recorded() {
    let text = "cpus=2
          a-10    [000]     1.000100: sched_wakeup_new: comm=b pid=11 prio=120 target_cpu=001
     <idle>-0     [001]     1.000110: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120
          b-11    [001]     1.000500: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120
          a-10    [000]     1.001000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=c next_pid=12 next_prio=120
          c-12    [000]     1.002000: sched_switch: prev_comm=c prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
     <idle>-0     [000]     1.003000: sched_wakeup: comm=a pid=10 prio=120 target_cpu=000
     <idle>-0     [000]     1.003005: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120
          a-10    [000]     1.004000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
";
    let m = read(text).unwrap();
    let c = ftrace::replay_config(&m, &Config::default());
    let out = ftrace::replay(&c, replay::shared_program_for(&m, &c)).unwrap();
    let sim = export::to_text_with(&out.trace, None, &replay::lives(&m));
    let lines = |pat: &str| sim.lines().filter(|l| l.contains(pat)).count();
    assert_eq!(lines("sched_wakeup_new: comm=b-11 "), 1, "{sim}");
    assert_eq!(lines("sched_wakeup: comm=b-11 "), 0, "{sim}");
    assert_eq!(lines("_wak"), 4, "b's waking and wakeup_new, a's waking and wakeup: {sim}");
    assert_eq!(lines("sched_waking: comm=c-12 "), 0, "c's fork was not traced, so its start is not written: {sim}");
    assert_eq!(lines("prev_comm=b-11 prev_pid=1000 prev_prio=120 prev_state=X"), 1, "{sim}");
    assert_eq!(lines("prev_comm=c-12 prev_pid=1002 prev_prio=120 prev_state=S"), 1, "{sim}");
    // Counted alike: c starts 0.9 ms after the trace in both, b never sleeps in either
    // (a's timed sleep ends up to a C-state exit later in the replay: the model's, kept).
    let (rec, sim) = (m.stats(), read(&sim).unwrap().stats());
    for (i, r) in rec.tasks.iter().enumerate() {
        let s = sim.tasks.iter().find(|s| s.pid == export::default_pid(i)).unwrap();
        assert_eq!(r.wakeups, s.wakeups, "{} wakeups", r.comm);
        assert!(
            (r.sleep_s - s.sleep_s).abs() < 250e-6,
            "{} sleep: {} recorded, {} simulated",
            r.comm,
            r.sleep_s,
            s.sleep_s
        );
    }
    // Without the lives, the export has b and c sleep to the end and c wake at its start.
    let plain = read(&export::to_text(&out.trace, None)).unwrap().stats();
    assert!(plain.tasks.iter().zip(&rec.tasks).any(|(p, r)| (p.sleep_s - r.sleep_s).abs() > 1e-3));
}

#[test]
fn basic_trace_cmd_stats() {
    let m = read(&fixture("trace_cmd_basic.txt")).unwrap();
    let s = m.stats();
    let ping = s.tasks.iter().find(|t| t.pid == 101).unwrap();
    // Runs 0-1.010, 2.010-4.000, 6.100-8.000 ms.
    assert_eq!(ping.runtime_ns, 1_010_000 + 1_990_000 + 1_900_000);
    assert_eq!(ping.wakeups, 2);
    // Slept 1.010-2.003, 4.000-6.000 and 8.000 to the end (10.000); waited 2.003-2.010 and 6.000-6.100.
    assert_eq!(((ping.sleep_s * 1e9).round() as u64), 993_000 + 2_000_000 + 2_000_000);
    assert_eq!(((ping.wait_s * 1e9).round() as u64), 7_000 + 100_000);
    assert_eq!(ping.wakeup_max_us, 100.0);
    let bg = s.tasks.iter().find(|t| t.pid == 300).unwrap();
    assert_eq!(bg.comm, "bg worker");
    assert_eq!(s.cpus.len(), 2);
    assert!((s.cpus[1].busy_s - 0.0095).abs() < 1e-12, "{:?}", s.cpus[1]);
    // sched_waking is present but sched_wakeup too: only sched_wakeup counts.
    assert_eq!(s.tasks.iter().find(|t| t.pid == 102).unwrap().wakeups, 1);
    // Wakeups from a task are dependency edges; the one from idle is not.
    assert_eq!(m.wakes.iter().filter(|w| w.waker.is_some()).count(), 2);
}

#[test]
fn numeric_prev_state_and_exit() {
    let m = read(&fixture("trace_cmd_numeric.txt")).unwrap();
    let a = m.tasks.iter().find(|t| t.pid == 10).unwrap();
    assert!(a.exited);
    assert_eq!(a.runs.last().unwrap().how, RunEnd::Exited);
    assert_eq!(a.runs[0].how, RunEnd::Preempted);
    let b = m.tasks.iter().find(|t| t.pid == 11).unwrap();
    assert_eq!(b.runs[0].how, RunEnd::Slept);
    // b was woken while never seen before: the wakeup counts, its wait 0.5 ms.
    assert_eq!(b.wakeups, 1);
    assert_eq!(b.wait, 500_000);
}

#[test]
fn perf_script_with_waking_migrate_and_skipped_events() {
    let m = read(&fixture("perf_script.txt")).unwrap();
    assert_eq!(m.skipped.get("sched_stat_runtime"), Some(&1));
    let make = m.tasks.iter().find(|t| t.comm == "make").unwrap();
    assert_eq!(make.runtime, 300_000);
    assert_eq!(m.migrations.len(), 1);
    assert_eq!(m.wakes.len(), 1);
    assert_eq!(m.wakes[0].target, 1);
}

#[test]
fn edge_cases_mid_run_reuse_truncation_and_notices() {
    let m = read(&fixture("edge_cases.txt")).unwrap();
    // x ran from the trace's start (10.000000) to 10.000300 though its switch-in is not in the trace.
    assert_eq!(m.tasks.iter().find(|t| t.pid == 20).unwrap().runtime, 300_000);
    // pid 30 is two tasks.
    let thirty: Vec<_> = m.tasks.iter().filter(|t| t.pid == 30).collect();
    assert_eq!(thirty.len(), 2, "{thirty:?}");
    assert_eq!(thirty[0].comm, "old");
    assert_eq!(thirty[1].comm, "new prog");
    assert_eq!(thirty[1].runtime, 1_000_000);
    assert_eq!(m.skipped.get("irq_handler_entry"), Some(&1));
    assert_eq!(m.bad_lines, 2);
    assert!(m.notices[0].starts_with("line 13: expected"), "{:?}", m.notices);
    assert!(m.notices[1].contains("the last line: truncated"), "{:?}", m.notices);
    assert_eq!(m.cstates, vec![(1, 10_000_301_000, 10_000_500_000, 2)]);
    let tr = export::to_trace(&m);
    assert_eq!(tr.cores, 2);
    assert!(tr.spans.iter().any(|s| matches!(s.kind, schedscope::engine::trace::SpanKind::Idle { state: 2 })));
}

#[test]
fn a_file_without_events_is_an_error_with_a_line_number() {
    let e = read("hello\nworld\n").unwrap_err();
    assert!(e.message.contains("line 1: expected"), "{e}");
    assert!(read("").is_err());
    assert!(read("# only a header\n").unwrap_err().message.contains("no sched_switch"));
}

fn round_trip(cfg: &Config) -> Vec<(String, f64, f64)> {
    let orig = engine::run(cfg, Some(TraceOptions { window: (0, u64::MAX), max_items: 4_000_000 })).unwrap();
    assert!(!orig.trace.truncated);
    let text = export::to_text(&orig.trace, None);
    let m = read(&text).unwrap();
    let before = ftrace::sim_stats(&orig, &[]).unwrap();
    let rc = ftrace::replay_config(&m, cfg);
    let out = ftrace::replay(&rc, replay::shared_program_for(&m, &rc)).unwrap();
    let after = ftrace::sim_stats(&out, &[]).unwrap();
    let d = replay::diff(&before, &after);
    d.tasks.iter().map(|r| (r.comm.clone(), r.runtime_s.recorded, r.runtime_s.simulated)).collect()
}

fn assert_within_5pct(what: &str, rows: &[(String, f64, f64)]) {
    assert!(!rows.is_empty());
    for (name, a, b) in rows {
        assert!((b - a).abs() <= 0.05 * a.max(1e-6), "{what}: {name}: original {a} s, replay {b} s");
    }
}

#[test]
fn round_trip_periodic_tasks_keep_on_cpu_time_within_5pct() {
    let mut c = Config::default();
    c.set("duration", "200ms").unwrap();
    assert_within_5pct("rtapp", &round_trip(&c));
}

/// Pipe's bursts are microseconds, and the switch and wakeup costs the engine charges
/// between them are written into the text as the task's on-CPU time (a real trace does the
/// same); the replay takes the profile's path costs out of each run (`replay::PathCosts`).
#[test]
fn round_trip_pipe_keeps_on_cpu_time_within_5pct() {
    let mut c = Config::default();
    c.set("workload", "pipe").unwrap();
    c.set("duration", "20ms").unwrap();
    assert_within_5pct("pipe", &round_trip(&c));
}

#[test]
fn replay_under_another_policy_runs_and_diffs() {
    let m = read(&fixture("trace_cmd_basic.txt")).unwrap();
    let mut c = ftrace::replay_config(&m, &Config::default());
    c.set("policy", "eevdf").unwrap();
    let (d, out) = ftrace::replay_and_diff(&m, &c).unwrap();
    assert_eq!(d.tasks.len(), m.tasks.len());
    assert!(out.metrics.elapsed_s > 0.0);
    assert!(c.duration >= 100 * MS);
    let ping = d.tasks.iter().find(|r| r.pid == 101).unwrap();
    assert!(ping.runtime_s.simulated > 0.0, "{ping:?}");
}

fn mangle(text: &str, ops: &[(u8, usize, u8)]) -> String {
    let mut b = text.as_bytes().to_vec();
    for &(op, at, byte) in ops {
        if b.is_empty() {
            break;
        }
        let at = at % b.len();
        match op % 5 {
            0 => {
                b.remove(at);
            }
            1 => b.insert(at, byte),
            2 => b[at] = byte,
            3 => b.truncate(at),
            _ => {
                // Duplicate a stretch (lines out of order, repeated).
                let end = (at + byte as usize * 4).min(b.len());
                let piece = b[at..end].to_vec();
                let to = (at * 7) % b.len();
                b.splice(to..to, piece);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn mangled_traces_never_panic(f in 0usize..4, ops in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 0..40)) {
        let name = ["trace_cmd_basic.txt", "trace_cmd_numeric.txt", "perf_script.txt", "edge_cases.txt"][f];
        let text = mangle(&fixture(name), &ops);
        if let Ok(m) = read(&text) {
            let s = m.stats();
            prop_assert_eq!(s.tasks.len(), m.tasks.len());
            let tr = export::to_trace(&m);
            prop_assert!(tr.spans.iter().all(|s| s.start <= s.end && (s.core as u32) < m.cpus.max(1)));
            let prog = replay::program(&m);
            prop_assert_eq!(prog.tasks.len(), m.tasks.len());
            let _ = export::to_text(&tr, None);
        }
    }
}

/// The page reads large files in chunks (`model::Reader`): any split, even inside a line or
/// a character, gives the same model as one read.
#[test]
fn a_trace_read_in_chunks_is_the_same_model_at_every_split() {
    for name in ["trace_cmd_basic.txt", "perf_script.txt", "edge_cases.txt", "trace_cmd_numeric.txt"] {
        let text = fixture(name);
        let whole = read(&text).unwrap();
        let bytes = text.as_bytes();
        for step in [1usize, 7, 64, 333] {
            let mut r = ftrace::model::Reader::default();
            let mut at = 0;
            let mut carry = Vec::new();
            while at < bytes.len() {
                let end = (at + step).min(bytes.len());
                carry.extend_from_slice(&bytes[at..end]);
                // Push what is valid UTF-8 so far (the page's worker does the same).
                let ok = match std::str::from_utf8(&carry) {
                    Ok(s) => s.len(),
                    Err(e) => e.valid_up_to(),
                };
                r.push(std::str::from_utf8(&carry[..ok]).unwrap());
                carry.drain(..ok);
                at = end;
            }
            assert_eq!(r.finish().unwrap(), whole, "{name} in chunks of {step}");
        }
    }
}

/// Perfetto JSON round trip: a simulated run exported by `perfetto::to_json` reads back as
/// the same trace (spans, instants, tasks, idle states), so its `trace stats` are the run's.
#[test]
fn perfetto_export_imports_back_as_the_same_trace() {
    use schedscope::share::{perfetto, perfetto_import};
    for workload in ["rtapp", "pipe"] {
        let mut c = Config::default();
        c.set("workload", workload).unwrap();
        c.set("duration", "20ms").unwrap();
        let out = engine::run(&c, Some(TraceOptions { window: (0, u64::MAX), max_items: 200_000 })).unwrap();
        let json = perfetto::to_json(&out.trace, Some(&out.metrics), Some(&c));
        assert!(perfetto_import::looks_like(&json));
        let back = perfetto_import::to_trace(&json).unwrap();
        let mut want = out.trace.clone();
        want.decisions = Default::default();
        // The Perfetto file holds spans and instants, not the run's switch records: both
        // sides' text is written from the switches their spans show (`derived_switches`).
        want.switches.clear();
        let key = |t: &schedscope::engine::trace::Trace| {
            let mut s = t.spans.clone();
            s.sort_by_key(|s| (s.start, s.core, s.end));
            let mut i = t.instants.clone();
            i.sort_by_key(|i| (i.time, i.core));
            (s, i)
        };
        assert_eq!(key(&back), key(&want), "{workload}: spans and instants");
        assert_eq!((back.cores, &back.idle_states, back.end), (want.cores, &want.idle_states, want.end));
        let named = |t: &schedscope::engine::trace::Trace| t.tasks.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        // Tasks that never ran nor were woken are not in the file; those that are keep their names.
        for (i, n) in named(&back).iter().enumerate() {
            assert_eq!(n, &want.tasks[i].name);
        }
        let a = read(&export::to_text(&back, None)).unwrap().stats();
        let b = read(&export::to_text(&want, None)).unwrap().stats();
        assert_eq!(a.tasks, b.tasks, "{workload}: trace stats of the imported trace");
    }
}

#[test]
fn perfetto_import_errors_name_the_line_or_the_event() {
    use schedscope::share::perfetto_import::to_trace;
    let e = to_trace("{\n\"traceEvents\": [\n{\"ph\": \"X\" \"ts\": 1}\n]}").unwrap_err();
    assert!(e.message.starts_with("line 3, column"), "{e}");
    let e = to_trace(
        r#"{"traceEvents":[{"ph":"M","tid":1000},{"ph":"i","name":"wakeup","tid":1001,"ts":5.0,"args":{"from_cpu":0}}],"metadata":{"tool":"schedscope"}}"#,
    )
    .unwrap_err();
    assert_eq!(e.message, "traceEvents[1]: expected args.task_id");
    assert!(to_trace("{\"traceEvents\":[]}").unwrap_err().message.contains("schedscope's own"));
}

/// The fixtures the page's e2e test imports: a file with no event names its first bad line;
/// a trace.dat is told by its magic and read (one cut after its magic says so).
#[test]
fn the_error_fixtures_say_where_and_what() {
    let e = read(&fixture("not_a_trace.txt")).unwrap_err();
    assert!(e.message.contains("line 3: expected 'COMM-PID [CPU] TIMESTAMP"), "{e}");
    #[cfg(feature = "web")]
    {
        let dat =
            std::fs::read(format!("{}/tests/fixtures/traces/magic_only.dat", env!("CARGO_MANIFEST_DIR"))).unwrap();
        use schedscope::ui::traces::job;
        assert_eq!(job::detect(&dat), job::Format::TraceDat);
        assert_eq!(job::refusal(job::Format::TraceDat), None);
        let e = ftrace::read_bytes(&dat).unwrap_err();
        assert!(e.message.starts_with("trace.dat: "), "{e}");
    }
}

// ------------------------------------------------------------ issue 30: hostile files

/// One switch line on `cpu` at `ts` (text) from `prev` to `next` (pids; 0 is idle).
pub(crate) fn sw(cpu: u32, ts: &str, prev: u32, state: &str, next: u32) -> String {
    format!(
        "t-{prev} [{cpu:03}] {ts}: sched_switch: prev_comm=t{prev} prev_pid={prev} prev_prio=120 \
         prev_state={state} ==> next_comm=t{next} next_pid={next} next_prio=120\n"
    )
}

/// Issue 30, defects 2 and 3: a line longer than `MAX_LINE` is a bad line named by its
/// number (it was read quadratically, `[1]` x 200,000 in 46 s, and a 60 MB line of ` k=`
/// cost 975 MB in `fields()`), and so is a line with more fields than `MAX_FIELDS`; the
/// lines around it still count.
#[test]
fn an_overlong_line_or_too_many_fields_is_a_bad_line_named_by_number() {
    let good = sw(0, "1.000000", 0, "R", 5) + &sw(0, "1.000100", 5, "S", 0);
    for bad in ["[1]".repeat(200_000), format!("a-1 [000] 1.0: sched_switch: {}", " k=".repeat(30_000))] {
        let text = format!("{good}{bad}\n{good}");
        let m = read(&text).unwrap();
        assert_eq!(m.bad_lines, 1);
        assert!(m.notices[0].starts_with("line 3: longer than 65536 bytes"), "{:?}", m.notices);
        // Chunked reading keeps only a bounded part of the long line and says the same.
        let mut r = ftrace::model::Reader::default();
        for piece in text.as_bytes().chunks(4096) {
            r.push(std::str::from_utf8(piece).unwrap());
        }
        assert_eq!(r.finish().unwrap().notices, m.notices);
    }
    let many = format!("a-1 [000] 1.0: sched_switch: {}\n", " k=1".repeat(65));
    let m = read(&format!("{good}{many}")).unwrap();
    assert!(m.notices[0].starts_with("line 3: sched_switch: more than 64 key=value fields"), "{:?}", m.notices);
    // A skipped event's fields are not read at all.
    let skipped = format!("a-1 [000] 1.0: print: {}\n", " k=1".repeat(65));
    assert_eq!(read(&format!("{good}{skipped}")).unwrap().bad_lines, 0);
}

/// Issue 30, defect 5: a 584-year timestamp is a bad line, and a recording longer than a
/// replay can simulate is refused with the reason instead of wrapping the time limit (and
/// `trace diff` then blaming the user's file); a long one gets the key's limit, noted.
#[test]
fn absurd_timestamps_and_overlong_recordings_are_refused_with_the_reason() {
    let text = sw(0, "1.000000", 0, "R", 5) + &sw(0, "18446744073.709551", 5, "S", 0);
    let m = read(&text).unwrap();
    assert_eq!(m.bad_lines, 1);
    assert!(m.notices[0].contains("line 2: timestamp 18446744073 s is beyond"), "{:?}", m.notices);
    let long = sw(0, "1.000000", 0, "R", 5) + &sw(0, "1001.000000", 5, "S", 0);
    let m = read(&long).unwrap();
    let c = ftrace::replay_config(&m, &Config::default());
    assert_eq!(c.duration, schedscope::engine::config::MAX_DURATION);
    let e = ftrace::replay_notes(&m, &c).unwrap_err();
    assert!(e.contains("the trace covers 1000.000000 s") && e.contains("at most 600 s"), "{e}");
    let mid = sw(0, "1.000000", 0, "R", 5) + &sw(0, "301.000000", 5, "S", 0);
    let m = read(&mid).unwrap();
    let c = ftrace::replay_config(&m, &Config::default());
    assert_eq!(c.duration, schedscope::engine::config::MAX_DURATION);
    let notes = ftrace::replay_notes(&m, &c).unwrap();
    assert!(notes[0].contains("time limit is 600 s"), "{notes:?}");
}

/// Issue 30, defect 6: CPUs that logged nothing are named in a notice (a stray `[1023]`
/// made 1,024 CPUs silently), a header's absurd `cpus=` is ignored with a notice, and a
/// replay of more CPUs than the engine has says where the tasks go.
#[test]
fn silent_cpus_and_absurd_cpu_counts_are_noted() {
    let text = sw(0, "1.000000", 0, "R", 5) + &sw(1023, "1.000100", 0, "R", 6) + &sw(0, "1.000200", 5, "S", 0);
    let m = read(&text).unwrap();
    assert_eq!(m.cpus, 1024);
    assert!(
        m.notices.iter().any(|n| n.contains("1022 of the 1024 CPUs (counted from CPU 1023 on line 2) logged no event")),
        "{:?}",
        m.notices
    );
    let c = ftrace::replay_config(&m, &Config::default());
    let notes = ftrace::replay_notes(&m, &c).unwrap();
    assert!(notes.iter().any(|n| n.contains("1024 CPUs; the engine simulates at most 256")), "{notes:?}");
    let m = read(&format!("cpus=99999999\n{}", sw(0, "1.000000", 0, "R", 5))).unwrap();
    assert_eq!(m.cpus, 1);
    assert!(m.notices[0].starts_with("line 1: the header's cpus=99999999 is not a CPU count"), "{:?}", m.notices);
}

/// Issue 30, defect 6: a `prev_pid` that the trace has running on another CPU (a lost
/// event) made a CPU busy longer than the trace; now each CPU's busy time is within the
/// trace and the contradiction is noted with its line.
#[test]
fn contradicting_lines_never_make_a_cpu_busier_than_the_trace() {
    // CPU 0: 10 runs from the start, 11 from 0.2 s; at 0.6 s CPU 0 says 12 switched out,
    // a task never seen running (it was counted from the trace's start, over 10 and 11).
    let text = sw(0, "0.200000", 10, "S", 11) + &sw(0, "0.600000", 12, "S", 0) + &sw(1, "0.600000", 0, "R", 0);
    let m = read(&text).unwrap();
    for (c, &b) in m.busy.iter().enumerate() {
        assert!(b <= m.duration(), "CPU {c} busy {b} ns in a {} ns trace", m.duration());
    }
    // pid 10 runs on CPU 1, then switches out on CPU 0: its CPU 1 run ends there.
    let text = sw(1, "0.000000", 0, "R", 10) + &sw(0, "0.400000", 10, "S", 12) + &sw(1, "0.600000", 12, "S", 0);
    let m = read(&text).unwrap();
    let ten = m.tasks.iter().find(|t| t.pid == 10).unwrap();
    assert_eq!(ten.runtime, 400_000_000);
    for (c, &b) in m.busy.iter().enumerate() {
        assert!(b <= m.duration(), "CPU {c} busy {b} ns in a {} ns trace", m.duration());
    }
    assert!(
        m.notices.iter().any(|n| n.starts_with("line 2: pid 10 switches out on CPU 0 while running on CPU 1")),
        "{:?}",
        m.notices
    );
}

// ------------------------------------------------------------ trace.dat (issue 30)

fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/traces/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A model's figures without its notices (a text and a binary file say different things
/// about their lines).
fn figures(m: &ftrace::Model) -> (Vec<ftrace::TaskStat>, Vec<ftrace::model::CpuStat>, u64, u64, u64) {
    let s = m.stats();
    (s.tasks, s.cpus, m.start, m.end, m.events)
}

/// Each public trace.dat reads natively to the same per-task and per-CPU figures as its
/// own `trace-cmd report -N -t` text (trace-cmd 3.1.6; `-N`: the kernel's print formats,
/// `-t`: nanoseconds), and the version 7 copies (plain, and zstd-compressed by trace-cmd
/// itself) to the same as the version 6 originals.
#[test]
fn trace_dat_files_read_as_their_trace_cmd_report_text() {
    for (dat, text) in [
        ("real_trappy_raw_trace.dat", "real_trappy_raw_trace.report.txt"),
        ("real_trappy_raw_trace.v7.dat", "real_trappy_raw_trace.report.txt"),
        ("real_trappy_raw_trace.zstd.dat", "real_trappy_raw_trace.report.txt"),
        ("real_trappy_trace_idle.dat", "real_trappy_trace_idle.report.txt"),
        ("real_trappy_trace_idle.zstd.dat", "real_trappy_trace_idle.report.txt"),
        // trace-cmd's default text: the sched_switch plugin's `prev:1 [120] S ==> next:2 [120]`.
        ("real_trappy_raw_trace.dat", "real_trappy_raw_trace.report-plugin.txt"),
        ("real_trappy_trace_idle.dat", "real_trappy_trace_idle.report-plugin.txt"),
    ] {
        let b = ftrace::read_bytes(&fixture_bytes(dat)).unwrap_or_else(|e| panic!("{dat}: {e}"));
        let t = read(&fixture(text)).unwrap();
        assert!(b.events > 20 && b.tasks.len() > 5, "{dat}: {} events", b.events);
        assert_eq!(figures(&b), figures(&t), "{dat}");
        assert_eq!((b.cpus, &b.cstates, &b.wakes), (t.cpus, &t.cstates, &t.wakes), "{dat}");
    }
    // trace_idle has cpu_idle and an exiting task (prev_state=x, TASK_DEAD in that kernel).
    let m = ftrace::read_bytes(&fixture_bytes("real_trappy_trace_idle.dat")).unwrap();
    assert!(!m.cstates.is_empty());
    assert!(m.tasks.iter().any(|t| t.exited));
}

/// The text of a `trace-cmd report` of a trace.dat names a task `trace-cmd` on most lines;
/// such lines were taken for the report's header and dropped (half the events of trappy's
/// raw_trace.dat). `CPU 0/KVM` (QEMU's vCPU threads) was dropped the same way.
#[test]
fn tasks_named_like_report_headers_are_read() {
    let m = read(&fixture("real_trappy_raw_trace.report.txt")).unwrap();
    assert_eq!(m.events, 755);
    let text = "CPU 0/KVM-4242 [001] 5.000000: sched_switch: prev_comm=CPU 0/KVM prev_pid=4242 prev_prio=120 \
                prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\nCPU 3 is empty\nversion = 6\n";
    let m = read(text).unwrap();
    assert_eq!((m.events, m.bad_lines, m.tasks[0].comm.as_str()), (1, 0, "CPU 0/KVM"));
}

/// A damaged trace.dat is an error or a model, never a panic: every prefix of a real one,
/// and bytes flipped through its header and pages. One compressed with an algorithm other
/// than zlib and zstd is refused with the command that writes a plain copy.
#[test]
fn damaged_and_compressed_trace_dat_files_are_refused_plainly() {
    let good = fixture_bytes("real_trappy_trace_idle.dat");
    for cut in (0..good.len()).step_by(good.len() / 97) {
        let _ = ftrace::read_bytes(&good[..cut]);
    }
    let e = ftrace::read_bytes(&good[..4000]).unwrap_err();
    assert!(e.message.starts_with("trace.dat: cut short reading"), "{e}");
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut bad = good.clone();
        for _ in 0..8 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let at = (rng % bad.len() as u64) as usize;
            bad[at] ^= (rng >> 32) as u8 | 1;
        }
        let _ = ftrace::read_bytes(&bad);
    }
    let mut z = b"\x17\x08\x44tracing7\0\0\x08\0\x10\0\0lz4\x001.9\0".to_vec();
    z.extend_from_slice(&[0; 8]);
    let e = ftrace::read_bytes(&z).unwrap_err();
    assert!(e.message.contains("compressed with lz4") && e.message.contains("--compression none"), "{e}");
    let e = ftrace::read_bytes(b"\x17\x08\x44tracing9\0\0\x08\0\x10\0\0").unwrap_err();
    assert!(e.message.contains("file version 9 is not read"), "{e}");
}

/// Found by the trace fuzz (issue 30): a wakeup on CPU 1023 naming `target_cpu=99999`
/// left CPU 1023 out of the count, and reading the line's CPU then indexed past it (a panic).
#[test]
fn a_line_naming_a_cpu_beyond_the_limit_still_counts_its_own_cpu() {
    let text = sw(0, "1.000000", 0, "R", 5) + "a-1 [1023] 1.000100: sched_wakeup: comm=b pid=6 target_cpu=99999\n";
    let m = read(&text).unwrap();
    assert_eq!(m.cpus, 1024);
}

/// Text dialects (issue 30): 6.x's five-character flag column (`dNs2.`, need-resched-lazy
/// `L`), the TGID column `(1234)` / `(-----)`, `prev_state` as `R+` and as a number, names
/// with spaces, colons and brackets, `irq_handler_entry` of arm64's `IPI` as an IPI mark,
/// and Android systrace text inside Chrome JSON.
#[test]
fn text_dialects_flags_tgid_states_names_and_systrace_json() {
    let lines = [
        "  Web Content-4242  (4240) [001] dNs2. 10.000000: sched_switch: prev_comm=Web Content prev_pid=4242 \
         prev_prio=120 prev_state=R+ ==> next_comm=kworker/1:2 [x] next_pid=77 next_prio=120",
        "  kworker/1:2 [x]-77    (-----) [001] .L..1 10.000500: sched_switch: prev_comm=kworker/1:2 [x] \
         prev_pid=77 prev_prio=120 prev_state=1 ==> next_comm=Web Content next_pid=4242 next_prio=120",
        "  Web Content-4242  (4240) [001] d..2. 10.001000: sched_switch: prev_comm=Web Content prev_pid=4242 \
         prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
    ];
    let text = lines.join("\n");
    let m = read(&text).unwrap();
    assert_eq!((m.events, m.bad_lines), (3, 0), "{:?}", m.notices);
    let web = m.tasks.iter().find(|t| t.pid == 4242).unwrap();
    let kw = m.tasks.iter().find(|t| t.pid == 77).unwrap();
    assert_eq!((web.comm.as_str(), kw.comm.as_str()), ("Web Content", "kworker/1:2 [x]"));
    assert_eq!((web.runtime, kw.runtime, web.wait), (1_000_000 - 500_000, 500_000, 500_000));
    let json = serde_json::json!({ "traceEvents": [], "systemTraceEvents": format!("# tracer: nop\n{text}\n") });
    let j = ftrace::read_bytes(json.to_string().as_bytes()).unwrap();
    assert_eq!(figures(&j), figures(&m));
    // arm64's IPIs are interrupts named "IPI": a mark on the receiving CPU; others skipped.
    let irqs = format!(
        "{text}\n  <idle>-0 [001] d.h1. 10.000700: irq_handler_entry: irq=1 name=IPI\n  \
         <idle>-0 [001] d.h1. 10.000800: irq_handler_entry: irq=5 name=eth0\n"
    );
    let m = read(&irqs).unwrap();
    assert_eq!(m.ipis, vec![(10_000_700_000, 1, 1)]);
    assert_eq!(m.skipped.get("irq_handler_entry"), Some(&1));
    let tr = export::to_trace(&m);
    assert!(tr.instants.iter().any(|i| matches!(i.kind, schedscope::engine::trace::InstantKind::Ipi { .. })));
    let e = ftrace::read_bytes(b"{\"traceEvents\": []}").unwrap_err();
    assert!(e.message.contains("systemTraceEvents"), "{e}");
    // Fuchsia's form, an object of events, was "not valid JSON: invalid type: map".
    let e = ftrace::read_bytes(br#"{"traceEvents": [], "systemTraceEvents": {"type": "fuchsia", "events": []}}"#)
        .unwrap_err();
    assert!(e.message.contains("holds no systrace text") && e.message.contains("Fuchsia"), "{e}");
}

/// A hand-built trace.dat (version 6) of one CPU in either byte order: the kernel's
/// `sched_switch` format of 4.14+, two pages with records of both length forms (type_len
/// 16 and type_len 0 with its length word), a time extend, a discarded event (padding
/// with a delta) and the page-end padding (see `share::ftrace::tracedat`'s module doc).
fn hand_built_dat(be: bool) -> Vec<u8> {
    let u16b = |v: u16| if be { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() };
    let u32b = |v: u32| if be { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() };
    let u64b = |v: u64| if be { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() };
    let header = |type_len: u32, delta: u32| u32b(if be { (type_len << 27) | delta } else { (delta << 5) | type_len });
    let page_size = 4096usize;
    let mut f = b"\x17\x08\x44tracing6\0".to_vec();
    f.push(be as u8);
    f.push(8);
    f.extend(u32b(page_size as u32));
    let hp = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n\
              \tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
    f.extend(b"header_page\0");
    f.extend(u64b(hp.len() as u64));
    f.extend(hp.as_bytes());
    f.extend(b"header_event\0");
    f.extend(u64b(0));
    f.extend(u32b(0)); // no ftrace formats
    let fmt = "name: sched_switch\nID: 316\nformat:\n\
        \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
        \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n\
        \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n\
        \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n\
        \tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n\
        \tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n\
        \tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n\
        \tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\
        \tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:1;\n\
        \tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n\
        \tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n\
        print fmt: \"prev_state=%s%s\", (REC->prev_state & 255) ? __print_flags(REC->prev_state & 255, \"|\", \
        { 0x0001, \"S\" }, { 0x0002, \"D\" }, { 0x0004, \"T\" }, { 0x0008, \"t\" }, { 0x0010, \"X\" }, \
        { 0x0020, \"Z\" }, { 0x0040, \"P\" }, { 0x0080, \"I\" }) : \"R\", REC->prev_state & 256 ? \"+\" : \"\"\n";
    f.extend(u32b(1));
    f.extend(b"sched\0");
    f.extend(u32b(1));
    f.extend(u64b(fmt.len() as u64));
    f.extend(fmt.as_bytes());
    f.extend(u32b(0)); // kallsyms
    f.extend(u32b(0)); // printk
    let cmd = "7 worker\n";
    f.extend(u64b(cmd.len() as u64));
    f.extend(cmd.as_bytes());
    f.extend(u32b(1)); // one CPU
    f.extend(b"flyrecord\0");
    let data_at = (f.len() + 16).div_ceil(page_size) * page_size;
    f.extend(u64b(data_at as u64));
    f.extend(u64b(2 * page_size as u64));
    f.resize(data_at, 0);
    let rec = |prev: u32, state: u64, next: u32| {
        let mut r = u16b(316);
        r.extend([0, 0]);
        r.extend(u32b(prev));
        let comm = |pid: u32| {
            let mut c = if pid == 0 { b"swapper/0".to_vec() } else { b"worker".to_vec() };
            c.resize(16, 0);
            c
        };
        r.extend(comm(prev));
        r.extend(u32b(prev));
        r.extend(u32b(120));
        r.extend(u64b(state));
        r.extend(comm(next));
        r.extend(u32b(next));
        r.extend(u32b(120));
        assert_eq!(r.len(), 64);
        r
    };
    // Page 1 at t = 1 s: idle -> 7 at +1000 ns (type_len 16); a discarded event (padding
    // with a delta of 500 ns, 12 bytes); 7 -> idle (S) after a time extend of 2^27 + 7 ns
    // (type_len 0: the length word is 64 + 4).
    let mut p1 = Vec::new();
    p1.extend(header(16, 1000));
    p1.extend(rec(0, 0, 7));
    p1.extend(header(29, 500));
    p1.extend(u32b(12)); // rb_event_discard: array[0] counts itself, not the header
    p1.extend([0; 8]);
    p1.extend(header(30, 7));
    p1.extend(u32b(1));
    p1.extend(header(0, 0));
    p1.extend(u32b(68));
    p1.extend(rec(7, 1, 0));
    // Page 2 at t = 2 s: idle -> 7 at +0, then 7 preempted (R+: 256) at +3000 ns, then the
    // rest of the page is padding (type_len 29, delta 0).
    let mut p2 = Vec::new();
    p2.extend(header(16, 0));
    p2.extend(rec(0, 0, 7));
    p2.extend(header(16, 3000));
    p2.extend(rec(7, 256, 0));
    p2.extend(header(29, 0));
    for (ts, p) in [(1_000_000_000u64, p1), (2_000_000_000, p2)] {
        let mut page = u64b(ts);
        page.extend(u64b(p.len() as u64));
        page.extend(&p);
        page.resize(page_size, 0);
        f.extend(page);
    }
    f
}

/// The hand-built file reads the same in both byte orders, with every record where the
/// ring buffer's rules put it.
#[test]
fn a_hand_built_trace_dat_reads_in_both_byte_orders() {
    for be in [false, true] {
        let m = ftrace::read_bytes(&hand_built_dat(be)).unwrap_or_else(|e| panic!("be={be}: {e}"));
        assert_eq!(m.events, 4, "be={be}");
        let w = m.tasks.iter().find(|t| t.pid == 7).unwrap();
        assert_eq!(w.comm, "worker");
        let first = 1_000_001_000u64;
        let out = first + 500 + (1 << 27) + 7;
        let runs: Vec<(u64, u64)> = w.runs.iter().map(|r| (r.start, r.end)).collect();
        assert_eq!(runs, vec![(first, out), (2_000_000_000, 2_000_003_000)], "be={be}");
        assert_eq!(w.runs[0].how, RunEnd::Slept);
        assert_eq!(w.runs[1].how, RunEnd::Preempted);
    }
}

/// Per-CPU clock skew (issue 30's dialects): a wakeup stamped on CPU 0 a little after the
/// wakee's switch-in on CPU 1 is not counted as a wakeup with a latency, and the notice
/// says how many such switch-ins there were.
#[test]
fn a_wakeup_stamped_after_its_switch_in_is_noted_as_clock_skew() {
    let text = sw(1, "1.000000", 5, "S", 0)
        + &sw(1, "1.000100", 0, "R", 5)
        + "a-9 [000] 1.000102: sched_wakeup: comm=t5 pid=5 prio=120 target_cpu=001\n"
        + &sw(1, "1.000200", 5, "S", 0);
    let m = read(&text).unwrap();
    let t5 = m.tasks.iter().find(|t| t.pid == 5).unwrap();
    assert_eq!((t5.wakeups, t5.latencies.len()), (0, 0));
    assert!(
        m.notices.iter().any(|n| n.starts_with("1 switch-ins of a sleeping task had no wakeup before them")),
        "{:?}",
        m.notices
    );
}

/// Bytes in a trace.dat's byte order (`be`: big-endian).
#[derive(Clone, Copy)]
pub(crate) struct Order(pub(crate) bool);

impl Order {
    pub(crate) fn u16(self, v: u16) -> Vec<u8> {
        if self.0 { v.to_be_bytes() } else { v.to_le_bytes() }.to_vec()
    }
    fn u32(self, v: u32) -> Vec<u8> {
        if self.0 { v.to_be_bytes() } else { v.to_le_bytes() }.to_vec()
    }
    fn u64(self, v: u64) -> Vec<u8> {
        if self.0 { v.to_be_bytes() } else { v.to_le_bytes() }.to_vec()
    }
    /// A ring-buffer event header (see `share::ftrace::tracedat`'s module doc).
    fn header(self, type_len: u32, delta: u32) -> Vec<u8> {
        self.u32(if self.0 { (type_len << 27) | delta } else { (delta << 5) | type_len })
    }
    /// The common fields every record starts with: `common_type` and `common_pid`.
    fn common(self, id: u16, pid: u32) -> Vec<u8> {
        let mut r = self.u16(id);
        r.extend([0, 0]);
        r.extend(self.u32(pid));
        r
    }
}

/// `header_page` of a 64-bit kernel: the page's timestamp, `commit` and data.
const HEADER_PAGE: &str = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\
    \tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n\
    \tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n\
    \tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

/// The common fields of every event format file.
const COMMON_FIELDS: &str = "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
    \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n\
    \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n\
    \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/// A compression for `DatParts::v7`: the algorithm's name, its block compressor, and the
/// pages in a data chunk.
pub(crate) type Compression<'a> = (&'a str, &'a dyn Fn(&[u8]) -> Vec<u8>, usize);

/// The pieces of a trace.dat, written out as version 6 (`v6`) or version 7 (`v7`).
pub(crate) struct DatParts {
    pub(crate) order: Order,
    pub(crate) page_size: usize,
    /// (system, format file text) of each event.
    pub(crate) formats: Vec<(&'static str, String)>,
    pub(crate) cmdlines: String,
    /// Per CPU, its ring-buffer pages (each `page_size` bytes).
    pub(crate) cpus: Vec<Vec<u8>>,
}

impl DatParts {
    fn start(&self, version: &str) -> Vec<u8> {
        let o = self.order;
        let mut f = format!("\x17\x08\x44tracing{version}\0").into_bytes();
        f.push(o.0 as u8);
        f.push(8);
        f.extend(o.u32(self.page_size as u32));
        f
    }
    fn header_info(&self) -> Vec<u8> {
        let o = self.order;
        let mut f = b"header_page\0".to_vec();
        f.extend(o.u64(HEADER_PAGE.len() as u64));
        f.extend(HEADER_PAGE.as_bytes());
        f.extend(b"header_event\0");
        f.extend(o.u64(0));
        f
    }
    fn event_formats(&self) -> Vec<u8> {
        let o = self.order;
        let systems: std::collections::BTreeSet<&str> = self.formats.iter().map(|(s, _)| *s).collect();
        let mut f = o.u32(systems.len() as u32);
        for sys in systems {
            f.extend(sys.as_bytes());
            f.push(0);
            let mine: Vec<&String> = self.formats.iter().filter(|(s, _)| *s == sys).map(|(_, t)| t).collect();
            f.extend(o.u32(mine.len() as u32));
            for t in mine {
                f.extend(o.u64(t.len() as u64));
                f.extend(t.as_bytes());
            }
        }
        f
    }
    fn cmdlines(&self) -> Vec<u8> {
        let mut f = self.order.u64(self.cmdlines.len() as u64);
        f.extend(self.cmdlines.as_bytes());
        f
    }
    fn pad_to_page(&self, f: &mut Vec<u8>) {
        f.resize(f.len().div_ceil(self.page_size) * self.page_size, 0);
    }

    pub(crate) fn v6(&self) -> Vec<u8> {
        let o = self.order;
        let mut f = self.start("6");
        f.extend(self.header_info());
        f.extend(o.u32(0)); // no ftrace formats
        f.extend(self.event_formats());
        f.extend(o.u32(0)); // kallsyms
        f.extend(o.u32(0)); // printk
        f.extend(self.cmdlines());
        f.extend(o.u32(self.cpus.len() as u32));
        f.extend(b"flyrecord\0");
        let table = f.len();
        f.resize(table + 16 * self.cpus.len(), 0);
        for (i, data) in self.cpus.iter().enumerate() {
            self.pad_to_page(&mut f);
            let (at, size) = (o.u64(f.len() as u64), o.u64(data.len() as u64));
            f[table + 16 * i..table + 16 * i + 8].copy_from_slice(&at);
            f[table + 16 * i + 8..table + 16 * i + 16].copy_from_slice(&size);
            f.extend(data);
        }
        f
    }

    /// Version 7: sections through options. With `z` (the algorithm's name, its block
    /// compressor, and the size of a data chunk in pages), every section but the options
    /// is compressed as trace-cmd 3.x writes it (a 4-byte compressed and uncompressed
    /// size, then the block), and each CPU's pages in chunks (a 4-byte chunk count, then
    /// per chunk the two sizes and the block).
    pub(crate) fn v7(&self, z: Option<Compression>) -> Vec<u8> {
        let o = self.order;
        let mut f = self.start("7");
        match z {
            Some((name, _, _)) => f.extend(format!("{name}\x001.0\0").as_bytes()),
            None => f.extend(b"none\0\0"),
        }
        let options_at = f.len();
        f.extend(o.u64(0)); // the options' offset, filled in below
        let section = |f: &mut Vec<u8>, id: u16, body: &[u8], compress: bool| -> u64 {
            let at = f.len() as u64;
            f.extend(o.u16(id));
            f.extend(o.u16(compress as u16));
            f.extend(o.u32(0));
            let body = match (z, compress) {
                (Some((_, zf, _)), true) => {
                    let c = zf(body);
                    let mut b = o.u32(c.len() as u32);
                    b.extend(o.u32(body.len() as u32));
                    b.extend(c);
                    b
                }
                _ => body.to_vec(),
            };
            f.extend(o.u64(body.len() as u64));
            f.extend(body);
            at
        };
        let zs = z.is_some();
        let hi = section(&mut f, 16, &self.header_info(), zs);
        let ftrace = section(&mut f, 17, &o.u32(0), zs);
        let ev = section(&mut f, 18, &self.event_formats(), zs);
        let cmd = section(&mut f, 21, &self.cmdlines(), zs);
        // The BUFFER section: its header, then each CPU's data from a page boundary.
        let buffer_at = f.len() as u64;
        f.extend(o.u16(3));
        f.extend(o.u16(zs as u16));
        f.extend(o.u32(0));
        let size_at = f.len();
        f.extend(o.u64(0));
        let mut cpu_table = Vec::new();
        for (cpu, data) in self.cpus.iter().enumerate() {
            self.pad_to_page(&mut f);
            let at = f.len() as u64;
            match z {
                Some((_, zf, pages)) => {
                    let chunks: Vec<&[u8]> = data.chunks(pages * self.page_size).collect();
                    f.extend(o.u32(chunks.len() as u32));
                    for c in chunks {
                        let zc = zf(c);
                        f.extend(o.u32(zc.len() as u32));
                        f.extend(o.u32(c.len() as u32));
                        f.extend(zc);
                    }
                }
                None => f.extend(data),
            }
            cpu_table.push((cpu as u32, at, f.len() as u64 - at));
        }
        let size = (f.len() - size_at - 8) as u64;
        f[size_at..size_at + 8].copy_from_slice(&o.u64(size));
        let mut opts = Vec::new();
        let mut opt = |id: u16, data: &[u8]| {
            opts.extend(o.u16(id));
            opts.extend(o.u32(data.len() as u32));
            opts.extend(data);
        };
        opt(8, &o.u32(self.cpus.len() as u32));
        for (id, at) in [(16, hi), (17, ftrace), (18, ev), (21, cmd)] {
            opt(id, &o.u64(at));
        }
        let mut buffer = o.u64(buffer_at);
        buffer.extend(b"\0local\0");
        buffer.extend(o.u32(self.page_size as u32));
        buffer.extend(o.u32(self.cpus.len() as u32));
        for (cpu, at, size) in cpu_table {
            buffer.extend(o.u32(cpu));
            buffer.extend(o.u64(at));
            buffer.extend(o.u64(size));
        }
        opt(3, &buffer);
        opt(0, &o.u64(0));
        let at = section(&mut f, 0, &opts, false);
        f[options_at..options_at + 8].copy_from_slice(&o.u64(at));
        f
    }
}

/// One CPU's ring-buffer pages holding `records` (absolute time, record bytes), in time
/// order: each record with a 4-byte header (`type_len` = its length in words; longer
/// ones with a length word), one page per `per_page` records.
pub(crate) fn pages(o: Order, page_size: usize, records: &[(u64, Vec<u8>)], per_page: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for recs in records.chunks(per_page) {
        let start = recs[0].0;
        let (mut body, mut t) = (Vec::new(), start);
        for (ts, r) in recs {
            let mut r = r.clone();
            r.resize(r.len().div_ceil(4) * 4, 0);
            let delta = (ts - t) as u32;
            t = *ts;
            if r.len() <= 112 {
                body.extend(o.header(r.len() as u32 / 4, delta));
            } else {
                body.extend(o.header(0, delta));
                body.extend(o.u32(r.len() as u32 + 4));
            }
            body.extend(r);
        }
        let mut page = o.u64(start);
        page.extend(o.u64(body.len() as u64));
        page.extend(body);
        page.resize(page_size, 0);
        out.extend(page);
    }
    out
}

/// An event's format file as the kernel prints it: `name`, `ID`, the common fields, then
/// `fields` (each `decl;offset;size;signed`) and the print format.
fn format_file(name: &str, id: u16, fields: &[(&str, usize, usize, bool)], print: &str) -> String {
    let mut s = format!("name: {name}\nID: {id}\nformat:\n{COMMON_FIELDS}");
    for (decl, off, size, signed) in fields {
        s += &format!("\tfield:{decl};\toffset:{off};\tsize:{size};\tsigned:{};\n", *signed as u8);
    }
    s + &format!("\nprint fmt: {print}\n")
}

/// The formats of the events a scheduler trace carries, as a 5.x/6.x x86-64 kernel
/// describes them (include/trace/events/sched.h, irq.h, ipi.h; IDs as one boot assigned them).
pub(crate) fn sched_formats() -> Vec<(&'static str, String)> {
    let comm_pid = [("char comm[16]", 8, 16, true), ("pid_t pid", 24, 4, true), ("int prio", 28, 4, true)];
    let wake = |name: &str, id| {
        let mut f = comm_pid.to_vec();
        f.push(("int target_cpu", 32, 4, true));
        format_file(
            name,
            id,
            &f,
            "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
        )
    };
    let switch = format_file(
        "sched_switch",
        316,
        &[
            ("char prev_comm[16]", 8, 16, true),
            ("pid_t prev_pid", 24, 4, true),
            ("int prev_prio", 28, 4, true),
            ("long prev_state", 32, 8, true),
            ("char next_comm[16]", 40, 16, true),
            ("pid_t next_pid", 56, 4, true),
            ("int next_prio", 60, 4, true),
        ],
        "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", \
         REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | \
         0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? \
         __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | \
         0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, \
         { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, \
         { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | 0x00000001 | \
         0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", \
         REC->next_comm, REC->next_pid, REC->next_prio",
    );
    vec![
        ("sched", switch),
        ("sched", wake("sched_wakeup", 318)),
        ("sched", wake("sched_wakeup_new", 317)),
        ("sched", wake("sched_waking", 319)),
        (
            "irq",
            format_file(
                "irq_handler_entry",
                114,
                &[("int irq", 8, 4, true), ("__data_loc char[] name", 12, 4, false)],
                "\"irq=%d name=%s\", REC->irq, __get_str(name)",
            ),
        ),
        (
            "ipi",
            format_file(
                "ipi_send_cpu",
                88,
                &[
                    ("unsigned int cpu", 8, 4, false),
                    ("void * callsite", 16, 8, false),
                    ("void * callback", 24, 8, false),
                ],
                "\"cpu=%u callsite=%pS callback=%pS\", REC->cpu, (void *)REC->callsite, (void *)REC->callback",
            ),
        ),
        ("ipi", format_file("ipi_entry", 86, &[("const char * reason", 8, 8, false)], "\"(%s)\", REC->reason")),
    ]
}

/// A record of `sched_formats`' events.
fn sched_record(o: Order, ev: &str, pid: u32, args: &[&str]) -> Vec<u8> {
    let comm = |s: &str| {
        let mut c = s.as_bytes().to_vec();
        c.resize(16, 0);
        c
    };
    let n = |i: usize| -> u32 { args[i].parse().unwrap() };
    match ev {
        // prev_comm prev_pid prev_state next_comm next_pid
        "sched_switch" => {
            let mut r = o.common(316, pid);
            r.extend(comm(args[0]));
            r.extend(o.u32(n(1)));
            r.extend(o.u32(120));
            r.extend(o.u64(n(2) as u64));
            r.extend(comm(args[3]));
            r.extend(o.u32(n(4)));
            r.extend(o.u32(120));
            r
        }
        // comm pid target_cpu
        "sched_wakeup" | "sched_wakeup_new" | "sched_waking" => {
            let id = match ev {
                "sched_wakeup" => 318,
                "sched_wakeup_new" => 317,
                _ => 319,
            };
            let mut r = o.common(id, pid);
            r.extend(comm(args[0]));
            r.extend(o.u32(n(1)));
            r.extend(o.u32(120));
            r.extend(o.u32(n(2)));
            r
        }
        // irq name: the name after the fixed fields, found through its __data_loc word
        // (length << 16 | offset).
        "irq_handler_entry" => {
            let mut r = o.common(114, pid);
            r.extend(o.u32(n(0)));
            let name = format!("{}\0", args[1]);
            r.extend(o.u32(((name.len() as u32) << 16) | 16));
            r.extend(name.as_bytes());
            r
        }
        // cpu
        "ipi_send_cpu" => {
            let mut r = o.common(88, pid);
            r.extend(o.u32(n(0)));
            r.extend([0; 4]);
            r.extend(o.u64(0xffff_ffff_8110_2a40));
            r.extend(o.u64(0));
            r
        }
        "ipi_entry" => {
            let mut r = o.common(86, pid);
            r.extend(o.u64(0xffff_ffff_8260_0a10));
            r
        }
        _ => unreachable!("{ev}"),
    }
}

/// (cpu, ns after 1 s, current pid, event, fields for the record, the report's fields).
type ReportEvent<'a> = (u32, u64, u32, &'a str, &'a [&'a str], &'a str);

/// Two CPUs: `worker` (7) wakes `sleeper` (8) on CPU 1 (sched_waking, sched_wakeup and the
/// IPI that sends it: ipi_send_cpu on CPU 0, irq_handler_entry of "IPI" and ipi_entry on
/// CPU 1), forks `child` (9: sched_wakeup_new) and sleeps; the child runs and exits. An
/// interrupt that is not an IPI (eth0) is skipped. Returns the trace.dat's parts and the
/// same events as `trace-cmd report -N -t` prints them.
fn wakeups_dat(be: bool) -> (DatParts, String) {
    let o = Order(be);
    #[rustfmt::skip]
    let events: &[ReportEvent] = &[
        (0, 1000, 0, "sched_switch", &["swapper/0", "0", "0", "worker", "7"],
            "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=7 next_prio=120"),
        (0, 2000, 7, "sched_waking", &["sleeper", "8", "1"], "comm=sleeper pid=8 prio=120 target_cpu=001"),
        (0, 3000, 7, "sched_wakeup", &["sleeper", "8", "1"], "comm=sleeper pid=8 prio=120 target_cpu=001"),
        (0, 4000, 7, "ipi_send_cpu", &["1"], "cpu=1 callsite=ttwu_queue_wakelist+0xf0 callback=0x0"),
        (1, 4500, 0, "irq_handler_entry", &["1", "IPI"], "irq=1 name=IPI"),
        (1, 4600, 0, "ipi_entry", &[], "(Function call interrupts)"),
        (1, 4700, 0, "irq_handler_entry", &["5", "eth0"], "irq=5 name=eth0"),
        (0, 5000, 7, "sched_wakeup_new", &["child", "9", "0"], "comm=child pid=9 prio=120 target_cpu=000"),
        (1, 5500, 0, "sched_switch", &["swapper/1", "0", "0", "sleeper", "8"],
            "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sleeper next_pid=8 next_prio=120"),
        (0, 6000, 7, "sched_switch", &["worker", "7", "1", "child", "9"],
            "prev_comm=worker prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=child next_pid=9 next_prio=120"),
        (0, 8000, 9, "sched_switch", &["child", "9", "16", "swapper/0", "0"],
            "prev_comm=child prev_pid=9 prev_prio=120 prev_state=X ==> next_comm=swapper/0 next_pid=0 next_prio=120"),
        (1, 9000, 8, "sched_switch", &["sleeper", "8", "1", "swapper/1", "0"],
            "prev_comm=sleeper prev_pid=8 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"),
    ];
    let comm = |pid: u32| match pid {
        0 => "<idle>",
        7 => "worker",
        8 => "sleeper",
        _ => "child",
    };
    let mut text = "cpus=2\n".to_string();
    let mut per_cpu = [Vec::new(), Vec::new()];
    for &(cpu, dt, pid, ev, args, report) in events {
        let ts = 1_000_000_000 + dt;
        text += &format!(
            "{:>16}-{pid:<5} [{cpu:03}] {}.{:09}: {:<19} {report}\n",
            comm(pid),
            ts / 1_000_000_000,
            ts % 1_000_000_000,
            format!("{ev}:"),
        );
        per_cpu[cpu as usize].push((ts, sched_record(o, ev, pid, args)));
    }
    let cpus = per_cpu.iter().map(|recs| pages(o, 4096, recs, 3)).collect();
    let parts = DatParts {
        order: o,
        page_size: 4096,
        formats: sched_formats(),
        cmdlines: "7 worker\n8 sleeper\n9 child\n".into(),
        cpus,
    };
    (parts, text)
}

/// Everything a model says but its notices, for comparing a trace.dat's with its text's.
fn whole(m: &ftrace::Model) -> impl PartialEq + std::fmt::Debug + '_ {
    (figures(m), m.cpus, &m.wakes, &m.ipis, &m.migrations, &m.cstates, &m.skipped, &m.tasks)
}

/// A trace.dat carrying sched_waking, sched_wakeup, sched_wakeup_new, ipi_send_cpu,
/// ipi_entry and irq_handler_entry (an "IPI" and an eth0 one), in either byte order and in
/// both versions, reads to the same model as the `trace-cmd report` text of its events.
#[test]
fn a_hand_built_trace_dat_with_wakeups_and_ipis_reads_as_its_report_text() {
    for be in [false, true] {
        let (parts, text) = wakeups_dat(be);
        let t = read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!((t.events, t.bad_lines), (11, 0), "{:?}\n{text}", t.notices);
        assert_eq!(t.ipis, vec![(1_000_004_000, 0, 1), (1_000_004_500, 1, 1)]);
        assert_eq!(
            t.wakes.iter().map(|w| (w.t, w.cpu, w.target)).collect::<Vec<_>>(),
            vec![(1_000_003_000, 0, 1), (1_000_005_000, 0, 0)]
        );
        for (version, dat) in [("v6", parts.v6()), ("v7", parts.v7(None))] {
            let b = ftrace::read_bytes(&dat).unwrap_or_else(|e| panic!("be={be} {version}: {e}"));
            assert_eq!(whole(&b), whole(&t), "be={be} {version}");
        }
    }
}

/// trace-cmd's zlib block: `compress2`'s zlib stream.
pub(crate) fn zlib(b: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(b, 9)
}

/// trace-cmd's zstd block: one frame.
pub(crate) fn zstd(b: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(b, ruzstd::encoding::CompressionLevel::Fastest)
}

/// Version 7 with compression (issue 30): the same file compressed with zlib and with
/// zstd, in both byte orders, with one, two and ten pages to a data chunk, reads to the
/// same model as its `trace-cmd report` text (and so as the plain file). trace-cmd's own
/// zstd copies of the real files are in `trace_dat_files_read_as_their_trace_cmd_report_text`.
#[test]
fn compressed_trace_dat_files_read_as_their_report_text() {
    type Codec<'a> = (&'a str, &'a dyn Fn(&[u8]) -> Vec<u8>);
    let codecs: [Codec; 2] = [("zlib", &zlib), ("zstd", &zstd)];
    for be in [false, true] {
        let (parts, text) = wakeups_dat(be);
        let t = read(&text).unwrap();
        for (name, z) in codecs {
            for pages in [1, 2, 10] {
                let dat = parts.v7(Some((name, z, pages)));
                let b = ftrace::read_bytes(&dat).unwrap_or_else(|e| panic!("be={be} {name} {pages}: {e}"));
                assert_eq!(whole(&b), whole(&t), "be={be} {name} {pages}");
            }
        }
    }
}

/// A compressed trace.dat that lies is refused with a message before anything is
/// allocated: a block claiming 4 GB uncompressed, a zstd frame declaring a 2 GB window,
/// a block that inflates past what it claims, and one that is not the codec's stream.
#[test]
fn compressed_trace_dat_files_that_lie_are_refused_plainly() {
    let (parts, _) = wakeups_dat(false);
    let mut dat = parts.v7(Some(("zlib", &zlib, 2)));
    // The first section (HEADER_INFO): after the 18-byte start, "zlib\01.0\0", the options'
    // offset and the 16-byte section header come its compressed and uncompressed sizes.
    let at = 18 + 9 + 8 + 16 + 4;
    dat[at..at + 4].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    let e = ftrace::read_bytes(&dat).unwrap_err();
    assert!(e.message.contains("section 16 at byte 51 claims 4294967280 bytes uncompressed"), "{e}");
    assert!(e.message.contains("64 times its size"), "{e}");
    // A frame header (no single segment) whose window descriptor says 2^31 bytes.
    let big_window = |_: &[u8]| vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3, 0, 0, 0];
    let e = ftrace::read_bytes(&parts.v7(Some(("zstd", &big_window, 2)))).unwrap_err();
    assert!(e.message.contains("a 2147483648-byte window"), "{e}");
    let twice = |b: &[u8]| zlib(&[b, b].concat());
    let e = ftrace::read_bytes(&parts.v7(Some(("zlib", &twice, 2)))).unwrap_err();
    assert!(e.message.contains("inflates past the size it claims"), "{e}");
    let twice = |b: &[u8]| zstd(&[b, b].concat());
    let e = ftrace::read_bytes(&parts.v7(Some(("zstd", &twice, 2)))).unwrap_err();
    assert!(e.message.contains("inflates past the size it claims"), "{e}");
    for name in ["zlib", "zstd"] {
        let e = ftrace::read_bytes(&parts.v7(Some((name, &|_: &[u8]| b"not a block".to_vec(), 2)))).unwrap_err();
        assert!(e.message.contains(&format!("is not a {name}")), "{name}: {e}");
    }
    // Cut anywhere or flipped anywhere, a compressed file is an error or a model.
    let good = parts.v7(Some(("zstd", &zstd, 2)));
    for cut in 0..good.len() {
        let _ = ftrace::read_bytes(&good[..cut]);
    }
    for i in 0..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x5a;
        let _ = ftrace::read_bytes(&bad);
    }
}

// ------------------------------------------------------------ rt-app use cases (issue 30)

/// The rt-app use cases LISA ships (workload-automation's `wa/workloads/rt_app/use_cases`;
/// tests/fixtures/rtapp/README.md lists each with how it imports). They are not copied:
/// they descend from rt-app's own GPL-2.0 `doc/examples` (`spreading-tasks.json` is byte
/// for byte rt-app's). The one that needs its own rule, `taskset.json`, is in rt-app's
/// pre-2015 grammar (`exec`, `period`, `lock_order`); a file written here in that grammar is
/// refused at its first `exec`, naming the grammar. Before, the refusal named a sleep key
/// ("expected a whole number of microseconds, found a boolean").
#[test]
fn an_rt_app_file_in_the_pre_2015_grammar_is_refused_naming_it() {
    let old = r#"{
        "tasks": {
            "ThreadA": { "exec": 5000, "period": 24000, "priority": -19, "cpus": [0],
                         "lock_order": ["r0"], "resources": { "r0": { "duration": 1000 } } }
        },
        "resources": 1,
        "global": { "duration": 5, "default_policy": "SCHED_OTHER", "calibration": "CPU0" }
    }"#;
    let e = schedscope::share::rtapp::import(old).unwrap_err();
    assert_eq!(e.path, "tasks.ThreadA.exec", "{e}");
    assert!(e.message.contains("old grammar"), "{e}");
}
