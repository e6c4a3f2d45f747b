//! Engine tests that read like the spec: each kernel mechanism, then properties over random configs.

use proptest::prelude::*;
use schedscope::engine::config::{Config, PeriodicTask, PolicyKind, WorkloadKind};
use schedscope::engine::presets::{preset, PRESETS};
use schedscope::engine::sim::run_with_accounts;
use schedscope::engine::time::{Ns, MS, US};
use schedscope::engine::trace::{Overhead, SpanKind, Trace, TraceOptions};
use schedscope::engine::{profile::profile, run};

fn cfg_with(base: Config, sets: &[(&str, &str)]) -> Config {
    let mut c = base;
    for (k, v) in sets {
        c.set(k, v).unwrap_or_else(|e| panic!("{e}"));
    }
    c
}

fn traced(c: &Config) -> (schedscope::engine::Metrics, Trace) {
    let o = run(c, Some(TraceOptions::default())).expect("valid config");
    (o.metrics, o.trace)
}

/// Contiguous stretches a task ran on core 0 (overheads inside a stretch are skipped over).
fn stretches(t: &Trace, core: u16) -> Vec<(u32, Ns, Ns)> {
    let mut out: Vec<(u32, Ns, Ns)> = Vec::new();
    for s in t.spans.iter().filter(|s| s.core == core) {
        match s.kind {
            SpanKind::Run { task, .. } => match out.last_mut() {
                Some(last) if last.0 == task => last.2 = s.end,
                _ => out.push((task, s.start, s.end)),
            },
            SpanKind::Overhead { kind: Overhead::Tick | Overhead::Reprogram } => {}
            _ => {
                // A switch or idle ends the stretch.
                out.push((u32::MAX, s.start, s.end));
            }
        }
    }
    out.into_iter().filter(|s| s.0 != u32::MAX).collect()
}

fn two_hogs(hz: &str, hrtick: &str) -> Config {
    let mut c = Config {
        cores: 1,
        policy: PolicyKind::Cfs,
        workload: WorkloadKind::Rtapp,
        // Each activation needs the whole period: both tasks are always runnable.
        tasks: vec![PeriodicTask { count: 2, run: 20 * MS, period: 20 * MS, slice: 0 }],
        duration: 100 * MS,
        ..Config::default()
    };
    c.set("hz", hz).unwrap();
    c.set("hrtick", hrtick).unwrap();
    c
}

#[test]
fn a_cut_trace_still_shows_cores_idle_all_along_up_to_where_it_stops() {
    // nohz-pipe: two cores ping-pong, ten sleep in C6 the whole run.
    let c = cfg_with((preset("nohz-pipe").unwrap().config)(), &[("max_events", "50000")]);
    let o = run(&c, Some(TraceOptions { window: (0, Ns::MAX), max_items: 2_000 })).expect("runs");
    let t = &o.trace;
    assert!(t.truncated);
    let cut = t.spans.iter().map(|s| s.end).chain(t.instants.iter().map(|i| i.time)).max().unwrap();
    for core in 0..t.cores {
        let lane: Vec<_> = t.spans.iter().filter(|s| s.core == core).collect();
        assert!(!lane.is_empty(), "core {core} has no span at all");
        let mut by_start = lane.clone();
        by_start.sort_by_key(|s| s.start);
        for w in by_start.windows(2) {
            assert!(w[0].end <= w[1].start, "core {core}: {:?} overlaps {:?}", w[0], w[1]);
        }
    }
    assert!(t.spans.iter().all(|s| s.end <= cut), "nothing past where the trace stops ({cut} ns)");
    assert!(t.spans.len() + t.instants.len() <= 2_000, "never more than max_items");
    let idle_all_along = t.spans.iter().filter(|s| s.core >= 2 && matches!(s.kind, SpanKind::Idle { .. })).count();
    assert!(idle_all_along >= 10, "the ten sleeping cores show their idle state");
    // The figures are those of the untraced run.
    assert_eq!(o.metrics.digest, run(&c, None).unwrap().metrics.digest);
}

#[test]
fn hrtick_ends_a_slice_within_10us_of_its_ideal_end() {
    // 1 core, 2 CPU hogs: the ideal slice is sched_latency / 2 = 3 ms.
    let (m, t) = traced(&two_hogs("250", "on"));
    assert!(m.hrtick_fires > 5, "{m:?}");
    // After the first 30 ms (a late starter catching up on its sleeper credit) tasks alternate.
    let s: Vec<_> = stretches(&t, 0).into_iter().filter(|s| s.1 > 30 * MS).collect();
    let inner = &s[..s.len() - 1];
    assert!(inner.len() >= 5);
    // A stretch is one slice, or several when the same task stays leftmost and is picked
    // again: each slice ends within 10 us of its ideal end.
    let mut single = 0;
    for &(_, a, b) in inner {
        let len = b - a;
        let k = (len + MS) / (3 * MS);
        assert!(k >= 1 && len.abs_diff(k * 3 * MS) <= k * 10 * US, "stretch {len} ns");
        single += (k == 1) as usize;
    }
    assert!(single * 2 >= inner.len(), "mostly single slices");
}

#[test]
fn without_hrtick_a_slice_overruns_by_up_to_one_tick() {
    let (m, t) = traced(&two_hogs("250", "off"));
    assert_eq!(m.hrtick_fires, 0);
    let s: Vec<_> = stretches(&t, 0).into_iter().filter(|s| s.1 > 30 * MS).collect();
    let inner = &s[..s.len() - 1];
    let tick = 4 * MS;
    let mut overran = false;
    for &(_, a, b) in inner {
        let len = b - a;
        assert!(len >= 3 * MS - 10 * US && len <= 3 * MS + tick + 10 * US, "stretch {len} ns");
        overran |= len > 3 * MS + 100 * US;
    }
    assert!(overran, "at HZ=250 some slice must end late");
}

#[test]
fn a_wakeup_from_a_cstate_starts_after_exactly_its_exit_latency() {
    let c = cfg_with((preset("nohz-pipe").unwrap().config)(), &[("loops", "2000")]);
    let (_, t) = traced(&c);
    let p = profile("x5675").unwrap();
    let mut checked = 0;
    for core in 0..t.cores {
        let spans: Vec<_> = t.spans.iter().filter(|s| s.core == core).collect();
        for w in spans.windows(2) {
            if let SpanKind::Idle { state } = w[0].kind {
                if state == 0 {
                    continue;
                }
                let exit = p.cstates[state as usize - 1].exit_latency;
                assert_eq!(w[1].start, w[0].end, "the exit starts when idle ends");
                assert_eq!(w[1].kind, SpanKind::Overhead { kind: Overhead::CStateExit });
                assert_eq!(w[1].end - w[1].start, exit, "{}", p.cstates[state as usize - 1].name);
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} C-state exits seen");
}

fn pipe(sets: &[(&str, &str)]) -> schedscope::engine::Metrics {
    let mut all = vec![("loops", "5000")];
    all.extend_from_slice(sets);
    run(&cfg_with((preset("nohz-pipe").unwrap().config)(), &all), None).unwrap().metrics
}

#[test]
fn the_nohz_rate_limit_keeps_the_tick_on_short_idles() {
    let off = pipe(&[("nohz_exit_reprograms", "1")]);
    let on = pipe(&[("nohz_exit_reprograms", "1"), ("nohz_ratelimit", "on")]);
    assert!(off.nohz_entries > 9_000, "every idle enters nohz: {}", off.nohz_entries);
    // Only the first idles, before avg_idle has learnt they are short, stop the tick.
    assert!(on.nohz_entries < 50, "{}", on.nohz_entries);
}

#[test]
fn two_exit_reprograms_count_twice_as_many_as_one() {
    let one = pipe(&[("nohz_exit_reprograms", "1")]);
    let two = pipe(&[("nohz_exit_reprograms", "2")]);
    // Each stopped tick costs one reprogram on entry and k on exit.
    let exits1 = one.timer_reprograms - one.nohz_entries;
    let exits2 = two.timer_reprograms - two.nohz_entries;
    assert!(exits1 > 9_000);
    assert!(exits2.abs_diff(2 * exits1) <= 40, "{exits1} vs {exits2}");
}

#[test]
fn a_polling_idle_core_gets_no_ipi() {
    let cstates_on = pipe(&[]);
    let idle_poll = pipe(&[("idle", "poll")]);
    let alias = pipe(&[("resched_ipi", "off")]);
    assert!(cstates_on.ipis > 9_000);
    assert_eq!(idle_poll.ipis, 0);
    assert_eq!(alias.ipis, 0);
}

/// Defect 2: C-states off in the BIOS is not idle=poll. On 3.11 the generic idle loop
/// clears the polling flag before every idle state, so each remote wakeup still sends the
/// IPI, and the core wakes from C1 (intel_idle's table, demoted by the package C-state limit).
#[test]
fn bios_cstates_off_keeps_the_ipi_and_a_c1_exit_on_3_11() {
    let bios_off = pipe(&[("cstates", "off")]);
    let idle_poll = pipe(&[("cstates", "off"), ("idle", "poll")]);
    assert!(bios_off.ipis > 9_000, "{}", bios_off.ipis);
    assert_eq!(idle_poll.ipis, 0);
    assert_ne!(bios_off.digest, idle_poll.digest);
    let c = cfg_with((preset("nohz-pipe").unwrap().config)(), &[("loops", "2000"), ("cstates", "off")]);
    let (_, t) = traced(&c);
    let c1 = profile("x5675").unwrap().cstates[0].exit_latency;
    let exits: Vec<Ns> = t
        .spans
        .iter()
        .filter(|s| s.kind == SpanKind::Overhead { kind: Overhead::CStateExit })
        .map(|s| s.end - s.start)
        .collect();
    assert!(exits.len() > 1000, "{}", exits.len());
    assert!(exits.iter().all(|&e| e == c1), "every exit is C1's {c1} ns");
    assert!(t.spans.iter().all(|s| !matches!(s.kind, SpanKind::Idle { state } if state > 1)), "hardware stays in C1");
}

/// Later eras: MWAIT polls (mwait_idle_with_hints sets the flag), HLT never does.
#[test]
fn mwait_polls_after_2013_and_hlt_never() {
    let mwait = pipe(&[("kernel", "6.6"), ("cstates", "off")]);
    let hlt = pipe(&[("kernel", "6.6"), ("idle", "halt")]);
    let old = pipe(&[("cstates", "off")]);
    assert!(mwait.ipis * 10 < old.ipis, "6.6 {} vs 3.11 {}", mwait.ipis, old.ipis);
    assert!(hlt.ipis > 9_000, "{}", hlt.ipis);
}

/// Defect 3: from 4.17 the governor decides whether the tick stops; pipe ping-pong's
/// micro-idles keep it, where 3.11 stops and restarts it on every idle.
#[test]
fn since_4_17_micro_idles_keep_the_tick() {
    let v311 = pipe(&[("nohz_exit_reprograms", "1")]);
    for k in ["4.17", "6.6"] {
        let new = pipe(&[("nohz_exit_reprograms", "1"), ("kernel", k)]);
        assert!(v311.nohz_entries > 9_000, "{}", v311.nohz_entries);
        assert!(new.nohz_entries * 20 < v311.nohz_entries, "{k}: {} vs {}", new.nohz_entries, v311.nohz_entries);
        assert!(new.timer_reprograms * 20 < v311.timer_reprograms, "{k}");
    }
}

#[test]
fn a_shorter_rr_interval_means_more_switches_and_more_refill() {
    let p = preset("rr-kbuild").unwrap();
    let short = run(&cfg_with((p.config)(), &[("rr_interval", "1ms")]), None).unwrap().metrics;
    let long = run(&cfg_with((p.config)(), &[("rr_interval", "16ms")]), None).unwrap().metrics;
    assert!(short.context_switches > 5 * long.context_switches);
    assert!(short.overhead_s["refill"] > long.overhead_s["refill"]);
    assert!(short.user_s > long.user_s, "refill is user time");
    // Each forced switch is kernel time, but 2.6.21's `time` prints the tick's raw samples
    // (`Kernel::cputime`): an expiry is found by the tick, which sampled user mode just
    // before the switch, so the extra switches' cost is never sampled as system time (the
    // next test holds that on two hogs). What the build's sampled system time does between
    // 1 and 16 ms is the phase of its system bursts against the tick: at a 1 ms quantum
    // every switch follows a tick, and the fixed-length estimates of exec, exit and make's
    // per-job work (workload/kbuild.rs) beat with it (BENCHMARKS.md, "rr-kbuild's system
    // time"): up to about 4.5% either way as the estimates move by 5-10%.
    let extra_switch = short.overhead_s["switch"] - long.overhead_s["switch"];
    let extra_sys = short.sys_s - long.sys_s;
    assert!(extra_switch > 0.0);
    assert!(extra_sys.abs() < 0.05 * long.sys_s, "system time moves little: {extra_sys} s");
}

/// 2.6.21 (SD) `time`: kernel/exit.c `wait_task_zombie` adds the raw tick counts `p->utime`
/// and `p->stime` to the parent's totals, one tick period per sample. Two hogs on one core
/// at HZ=1000 with a 1 ms rr_interval switch at every tick, right after the tick sampled
/// user mode: `time` shows no system time and whole ticks of user time. Under 2.6.23's CFS
/// (exact spans here) the same hogs' switches are system time.
#[test]
fn on_2_6_21_time_prints_the_tick_samples_so_a_switch_at_the_tick_is_user_time() {
    let hogs = |kernel: &str| {
        let mut c = two_hogs("1000", "off");
        c.set("kernel", kernel).unwrap();
        c.set("duration", "200ms").unwrap();
        c
    };
    let mut sd = hogs("2.6.21-sd");
    sd.set("rr_interval", "1ms").unwrap();
    let m = run(&sd, None).unwrap().metrics;
    assert!(m.context_switches > 150, "{} switches", m.context_switches);
    assert!(m.overhead_s["switch"] > 0.0);
    assert_eq!(m.sys_s, 0.0, "no tick lands in a switch");
    let ticks_s = m.ticks as f64 * 1e-3;
    assert!((m.user_s - ticks_s).abs() < 2e-3, "user {} s vs {} ticks", m.user_s, m.ticks);
    let cfs = run(&hogs("2.6.23"), None).unwrap().metrics;
    assert!(cfs.context_switches > 0);
    assert!(
        cfs.sys_s >= cfs.overhead_s["switch"] * 0.99,
        "sys {} s, switches {} s",
        cfs.sys_s,
        cfs.overhead_s["switch"]
    );
}

/// Runs `c` with a trace and checks that no woken task started before its wakeup: no
/// latency was clamped, and no task was running across the instant it was woken.
fn assert_no_early_runs(c: &Config, what: &str) -> u64 {
    // Every item kept: the check needs the whole trace (the default budget is the page's).
    let all = TraceOptions { window: (0, u64::MAX), max_items: 4_000_000 };
    let (o, checks) = schedscope::engine::sim::run_checked(c, Some(all));
    assert_eq!(checks.latency_clamps, 0, "{what}: wakeup latencies clamped to 0");
    let t = &o.trace;
    assert!(!t.truncated, "{what}: the trace must be complete for this check");
    let mut runs: Vec<Vec<(Ns, Ns)>> = vec![Vec::new(); t.tasks.len()];
    for s in &t.spans {
        if let SpanKind::Run { task, .. } = s.kind {
            runs[task as usize].push((s.start, s.end));
        }
    }
    let mut woken = 0;
    for i in &t.instants {
        if let schedscope::engine::trace::InstantKind::Wakeup { task, .. } = i.kind {
            woken += 1;
            let early = runs[task as usize].iter().find(|&&(a, b)| a < i.time && i.time < b);
            assert!(early.is_none(), "{what}: task {task} woken at {} ran over {early:?}", i.time);
        }
    }
    woken
}

#[test]
fn a_woken_task_never_runs_before_it_is_woken() {
    // Defect 5: a remote wakeup was enqueued at global time while its waker, still paying
    // overheads, was up to 265 us ahead; the target could run the task "before" it was woken.
    let eevdf = (preset("eevdf-vs-cfs").unwrap().config)();
    let cfs = cfg_with(eevdf.clone(), &[("policy", "cfs")]);
    let pipe = cfg_with((preset("nohz-pipe").unwrap().config)(), &[("loops", "5000")]);
    // The revert of 'runlen' (0ac8deb): a wakee whose CPU ran ahead (a 133 us C6 exit)
    // blocked after its waker's time, and was enqueued on another CPU at the waker's.
    // On 40 CPUs: on the preset's 80 (issue 31) 81 tasks mostly keep a CPU each and block
    // too rarely (783 wakeups) to exercise it.
    let hb = cfg_with(
        (preset("hackbench-wakeup-gran-clx").unwrap().config)(),
        &[("groups", "2"), ("cores", "40"), ("loops", "200")],
    );
    for (c, what) in [
        (&eevdf, "eevdf-vs-cfs"),
        (&cfs, "eevdf-vs-cfs policy=cfs"),
        (&pipe, "nohz-pipe"),
        (&hb, "hackbench-wakeup-gran-clx"),
    ] {
        let woken = assert_no_early_runs(c, what);
        assert!(woken > 1000, "{what}: only {woken} wakeups");
    }
}

#[test]
fn ttwu_queue_moves_the_enqueue_to_the_target() {
    use schedscope::engine::kernel::Kernel;
    // 6.x ttwu_queue_cond queues a wakeup of an idle CPU even in the same LLC: the target
    // enqueues it in its IPI handler, in the idle task, so the waker's sys loses the ttwu.
    let base = (preset("eevdf-vs-cfs").unwrap().config)();
    let on = run(&base, None).unwrap().metrics;
    let off = run(&cfg_with(base.clone(), &[("features", "NO_TTWU_QUEUE")]), None).unwrap().metrics;
    assert_ne!(on.digest, off.digest, "TTWU_QUEUE changes who pays the enqueue");
    assert!(on.sys_s < off.sys_s, "queued wakeups are enqueued by idle targets: {} vs {}", on.sys_s, off.sys_s);
    // 3.11 queues only across LLCs: pip1m stays on one socket, so the feature changes nothing.
    let pipe = cfg_with((preset("nohz-pipe").unwrap().config)(), &[("loops", "3000")]);
    let a = run(&pipe, None).unwrap().metrics;
    let b = run(&cfg_with(pipe.clone(), &[("features", "NO_TTWU_QUEUE")]), None).unwrap().metrics;
    assert_eq!(a.digest, b.digest);
    // The era rule: none in 2007; across LLCs only in 3.x/4.x; 6.x also to an idle CPU.
    assert!(!Kernel::V2624.ttwu_queues(false, 1));
    assert!(Kernel::V311.ttwu_queues(false, 1) && !Kernel::V311.ttwu_queues(true, 0));
    assert!(Kernel::V66.ttwu_queues(true, 0) && !Kernel::V66.ttwu_queues(true, 1));
    assert!(!Kernel::V311.wakelist_ipi_skips_polling() && Kernel::V417.wakelist_ipi_skips_polling());
}

#[test]
fn system_time_counts_the_kernel_work_a_task_does() {
    // Defect 7: sys was only the workload's syscalls. Now the switches, the ttwu and the
    // IPIs a task sends are its sys; the idle side (C-state exit, nohz reprograms) is not.
    let syscalls_only = pipe(&[("idle", "poll"), ("cstates", "off")]);
    let with_ipis = pipe(&[]);
    let p = profile("x5675").unwrap();
    let ipi_sends = with_ipis.ipis as f64 * p.ipi_send as f64 / 1e9;
    let diff = with_ipis.sys_s - syscalls_only.sys_s;
    assert!(with_ipis.ipis > 9_000 && syscalls_only.ipis == 0);
    assert!(diff > 0.5 * ipi_sends, "the IPIs the wakers send are their sys: {diff} vs {ipi_sends}");
    let switches = with_ipis.context_switches as f64 * p.ctx_switch as f64 / 1e9;
    assert!(with_ipis.sys_s > switches, "switches are sys: {} vs {switches}", with_ipis.sys_s);
    // The nohz exit reprograms run in the idle task, but 3.11 leaves the rq clock stale
    // across the switch from idle (issue 27 e: `Kernel::idle_switch_keeps_stale_clock`),
    // so `time` charges them to the woken task: one more per exit adds sys too.
    let one = pipe(&[("nohz_exit_reprograms", "1")]);
    let two = pipe(&[("nohz_exit_reprograms", "2")]);
    assert!(two.elapsed_s > one.elapsed_s);
    assert!(two.sys_s > one.sys_s, "{} vs {}", one.sys_s, two.sys_s);
}

#[test]
fn every_preset_runs_and_says_why_it_stopped() {
    for p in PRESETS {
        let mut c = (p.config)();
        c.set("duration", "50ms").unwrap();
        let m = run(&c, None).unwrap().metrics;
        assert!(m.events > 0 && m.stop_reason.is_some(), "{}", p.name);
    }
}

#[test]
fn the_event_budget_stops_a_run_and_says_so() {
    let c = cfg_with((preset("nohz-pipe").unwrap().config)(), &[("max_events", "1000")]);
    let m = run(&c, None).unwrap().metrics;
    assert_eq!(m.stop_reason, Some(schedscope::engine::metrics::StopReason::EventBudget));
    assert!(m.events <= 1000);
}

// ---------------------------------------------------------------- properties

fn arb_config() -> impl Strategy<Value = Config> {
    (
        0usize..4,
        1u32..6,
        prop::sample::select(vec!["100", "250", "1000"]),
        prop::sample::select(schedscope::engine::kernel::Kernel::names()),
        any::<bool>(),
        prop::sample::select(vec!["all", "off", "C1"]),
        prop::sample::select(vec!["menu", "ladder", "teo"]),
        (any::<bool>(), any::<bool>(), 1u32..3, any::<bool>()),
        prop::sample::select(vec!["pipe", "iperf", "kbuild", "rtapp"]),
        any::<u64>(),
    )
        .prop_map(|(cpu, cores, hz, pol, hrtick, cst, gov, (nohz, rl, rep, ipi), wl, seed)| {
            let mut c = Config::default();
            let cpus = ["core2duo", "q6600", "x5675", "skylake-sp"];
            for (k, v) in [
                ("cpu", cpus[cpu].to_string()),
                ("cores", cores.to_string()),
                ("hz", hz.to_string()),
                ("kernel", pol.to_string()),
                ("cstates", cst.to_string()),
                ("governor", gov.to_string()),
                ("nohz", if nohz { "on" } else { "off" }.to_string()),
                ("nohz_ratelimit", if rl { "on" } else { "off" }.to_string()),
                ("nohz_exit_reprograms", rep.to_string()),
                ("resched_ipi", if ipi { "on" } else { "off" }.to_string()),
                ("workload", wl.to_string()),
                ("loops", "300".to_string()),
                ("streams", "3".to_string()),
                ("jobs", "3".to_string()),
                ("duration", "30ms".to_string()),
                ("seed", seed.to_string()),
            ] {
                c.set(k, &v).unwrap();
            }
            if hrtick && c.kernel.features().iter().any(|f| f.name == "HRTICK") {
                c.set("features", "HRTICK").unwrap();
            }
            c
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn cores_never_run_two_things_and_tasks_never_run_twice(c in arb_config()) {
        let (_, t) = traced(&c);
        for core in 0..t.cores {
            let mut spans: Vec<_> = t.spans.iter().filter(|s| s.core == core).collect();
            spans.sort_by_key(|s| s.start);
            for w in spans.windows(2) {
                prop_assert!(w[0].end <= w[1].start, "core {core} overlaps: {:?} {:?}", w[0], w[1]);
            }
        }
        let mut runs: Vec<_> = t.spans.iter().filter_map(|s| match s.kind {
            SpanKind::Run { task, .. } => Some((task, s.start, s.end, s.core)),
            _ => None,
        }).collect();
        runs.sort();
        for w in runs.windows(2) {
            if w[0].0 == w[1].0 {
                prop_assert!(w[0].2 <= w[1].1, "task {} on two cores: {:?} {:?}", w[0].0, w[0], w[1]);
            }
        }
        for s in &t.spans {
            prop_assert!(s.start < s.end && s.end <= t.end);
        }
    }

    #[test]
    fn cpu_time_is_conserved(c in arb_config()) {
        let (o, accounts) = run_with_accounts(&c);
        let end = (o.metrics.elapsed_s * 1e9).round() as u64;
        for (i, (run, idle, over)) in accounts.iter().enumerate() {
            let total = run + idle + over;
            prop_assert!(total.abs_diff(end) <= 1, "core {i}: {run}+{idle}+{over}={total} vs {end}");
        }
        for t in &o.metrics.tasks {
            prop_assert!(t.runtime_ns <= end, "{} ran {} of {}", t.name, t.runtime_ns, end);
        }
    }

    #[test]
    fn same_config_and_seed_give_the_same_digest(c in arb_config()) {
        let a = run(&c, None).unwrap().metrics;
        let b = run(&c, None).unwrap().metrics;
        prop_assert_eq!(a.digest, b.digest);
        prop_assert_eq!(a.events, b.events);
    }
}

#[test]
fn validate_reproduces_every_reported_headline_row() {
    // Every table's headline column (iperf's throughput, rr-kbuild's elapsed, pip1m's
    // real) passes its relative check, except where the table names the miss
    // (`SeedTable::misses`): pip1m's C-states-off row, whose reported round trip is below
    // the model's own polling floor (BENCHMARKS.md, "pip1m and C-states"). The other columns
    // are judged too and some fail honestly (rr-kbuild's system time); a failing row must
    // carry its diagnosed cause, and a diagnosed row that passes makes the list stale.
    // Was a known miss (issue 27, preempt=): under the era default PREEMPT_NONE a 2.6.23
    // receiver no longer preempts its sender inside the send syscall and the sched-devel
    // row's gain fell to +4.1% (reported +14.5%); with the per-domain balancer (issue 31:
    // no machine-wide move every 4 ticks) it passes again (quick: +8.5%).
    // Was a known miss (issue 27/31): the patch's gain was -9.2% to -9.9% (reported -19.0%)
    // against a baseline 1.6x the seed's absolute time. Since 3.11's MWAIT wakes on the
    // waker's store of TIF_NEED_RESCHED rather than after the IPI's flight (pip27,
    // sim/idle_path.rs), each wakeup is 0.56 us shorter and the gain is -10.2%: a pass at
    // the judge's edge (ratio 0.54, `validate::judge` needs 0.5), the absolute gap remaining.
    let tables = schedscope::engine::validate::validate_seeds(false);
    assert_eq!(tables.len(), 3, "three seed experiments");
    let mut headline_misses = Vec::new();
    for t in &tables {
        let spec = schedscope::engine::presets::preset(&t.preset).and_then(|p| p.table).unwrap();
        for (i, r) in t.rows.iter().enumerate() {
            assert_eq!(r.cells.len(), t.columns.len(), "{} / {}", t.preset, r.label);
            let diagnosed = spec.misses.iter().any(|m| m.rows.contains(&i));
            assert_eq!(
                r.pass == Some(false),
                diagnosed,
                "{} / {}: a miss without its cause, or a stale cause",
                t.preset,
                r.label
            );
            assert_eq!(r.miss.is_some(), diagnosed, "{} / {}", t.preset, r.label);
            if r.cells[0].pass == Some(false) {
                headline_misses.push(format!("{} / {}", t.preset, r.label));
            }
        }
        assert!(t.rows.iter().any(|r| r.cells[0].pass == Some(true)), "{} judged no row", t.preset);
    }
    assert_eq!(headline_misses, ["nohz-pipe / + Peter's patch + Mike's nohz rate limit, C-states off"]);
}

#[test]
fn every_diagnosed_miss_names_real_rows_and_a_benchmarks_section() {
    let bench = std::fs::read_to_string(format!("{}/BENCHMARKS.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let headings: Vec<&str> = bench.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    let mut n = 0;
    for p in schedscope::engine::presets::PRESETS {
        let Some(t) = p.table else { continue };
        for m in t.misses {
            n += 1;
            assert!(!m.rows.is_empty() && m.rows.iter().all(|&i| i < t.rows.len()), "{}: {:?}", p.name, m.rows);
            assert!(m.rows.iter().all(|&i| t.rows[i].vs != i), "{}: a baseline is never judged", p.name);
            assert!(m.cause.len() > 80 && !m.cause.contains("BENCHMARKS.md"), "{}: {}", p.name, m.cause);
            assert!(headings.iter().any(|h| h.starts_with(m.section)), "{}: no section \"{}\"", p.name, m.section);
        }
        for (k, a) in t.misses.iter().enumerate() {
            for b in &t.misses[k + 1..] {
                assert!(a.rows.iter().all(|i| !b.rows.contains(i)), "{}: a row with two causes", p.name);
            }
        }
    }
    assert!(n >= 8, "the misses of the last full validate are diagnosed ({n})");
}

// ------------------------------------------------------------ EEVDF (6.6, 6.12) and the hrtick

/// `n` CPU hogs on one core (each activation needs its whole period) under `kernel`.
fn hogs_on_one_core(n: u32, kernel: &str, sets: &[(&str, &str)]) -> Config {
    let mut c = Config {
        cores: 1,
        workload: WorkloadKind::Rtapp,
        tasks: vec![PeriodicTask { count: n, run: 10 * MS, period: 10 * MS, slice: 0 }],
        duration: 1_000 * MS,
        ..Config::default()
    };
    c.set("kernel", kernel).unwrap();
    cfg_with(c, sets)
}

#[test]
fn eevdf_with_hrtick_switches_at_the_slice_rate_not_every_10us() {
    // Issue 12, defect 1: the deadline was renewed only by the tick's check, which an armed
    // hrtick skips, so the hrtick re-armed for 0 (10 us) forever: ~37,000 switches/s here.
    // fair.c update_deadline runs in every update_curr: one switch per base_slice (0.75 ms
    // on one CPU), i.e. about 1,333 per second.
    for kernel in ["6.6", "6.12"] {
        let m = run(&hogs_on_one_core(3, kernel, &[("features", "HRTICK")]), None).unwrap().metrics;
        let per_s = m.context_switches as f64 / m.elapsed_s;
        let slice_rate = 1e9 / (750 * US) as f64;
        assert!(per_s > slice_rate / 2.0 && per_s < slice_rate * 2.0, "{kernel}: {per_s:.0} switches/s");
        assert!((m.hrtick_fires as f64) < slice_rate * 2.0 * m.elapsed_s, "{kernel}: {} hrtick fires", m.hrtick_fires);
        let cfs = run(&hogs_on_one_core(3, "4.17", &[("features", "HRTICK")]), None).unwrap().metrics;
        assert!(
            m.context_switches < 10 * cfs.context_switches,
            "{kernel}: {} vs CFS {}",
            m.context_switches,
            cfs.context_switches
        );
    }
}

#[test]
fn eevdf_without_hrtick_renews_the_deadline_at_each_tick() {
    // No hrtick: the tick's update_curr finds curr past its 0.75 ms deadline every 4 ms
    // (HZ=250) and reschedules: one switch per tick, equal shares.
    let m = run(&hogs_on_one_core(3, "6.6", &[("hz", "250")]), None).unwrap().metrics;
    let per_s = m.context_switches as f64 / m.elapsed_s;
    assert!((200.0..330.0).contains(&per_s), "{per_s:.0} switches/s");
    let runs: Vec<_> = m.tasks.iter().map(|t| t.runtime_ns).collect();
    let (lo, hi) = (*runs.iter().min().unwrap(), *runs.iter().max().unwrap());
    assert!(hi - lo < 20 * MS, "fair shares: {runs:?}");
}

#[test]
fn an_hrtick_arm_reprograms_only_when_it_is_the_earliest_timer() {
    // hrtimer_start_range_ns -> hrtimer_reprogram skips `if (expires >= expires_next)`.
    // HZ=100 (10 ms tick), one busy core, nohz off: the only other timer is the tick.
    let short = run(&hogs_on_one_core(3, "6.6", &[("features", "HRTICK"), ("hz", "100"), ("nohz", "off")]), None)
        .unwrap()
        .metrics;
    // 0.75 ms slices: all but the arms within 0.75 ms of a tick become the earliest timer.
    assert!(short.hrtick_fires > 1_000, "{}", short.hrtick_fires);
    assert!(
        short.timer_reprograms * 10 >= short.hrtick_fires * 9 && short.timer_reprograms <= short.hrtick_fires + 1,
        "{} reprograms for {} hrticks",
        short.timer_reprograms,
        short.hrtick_fires
    );
    // 20 ms slices end after the next tick: the hrtick is queued behind it, no reprogram.
    let long = run(
        &hogs_on_one_core(
            3,
            "6.6",
            &[("features", "HRTICK"), ("hz", "100"), ("nohz", "off"), ("min_granularity", "20ms")],
        ),
        None,
    )
    .unwrap()
    .metrics;
    assert!(long.hrtick_fires > 20, "{}", long.hrtick_fires);
    assert_eq!(long.timer_reprograms, 0, "no arm was the earliest timer");
}

#[test]
fn eevdf_run_to_parity_and_place_lag_are_switchable() {
    // The validation corpus compares these: NO_RUN_TO_PARITY lets a wakee with an earlier
    // deadline preempt a curr that has not used its slice; NO_PLACE_LAG places at V.
    let base = (preset("eevdf-vs-cfs").unwrap().config)();
    let m = |f: &str| run(&cfg_with(base.clone(), &[("features", f)]), None).unwrap().metrics;
    let (on, no_rtp, no_lag) = (m(""), m("NO_RUN_TO_PARITY"), m("NO_PLACE_LAG"));
    assert_ne!(on.digest, no_rtp.digest);
    assert_ne!(on.digest, no_lag.digest);
    // One core, a hog and four short tasks waking every millisecond: without RUN_TO_PARITY
    // a wakee with an earlier deadline preempts the hog before it has used its slice.
    let mut one = Config::default();
    for (k, v) in [("kernel", "6.6"), ("cores", "1"), ("tasks", "1x10ms/10ms,4x100us/1ms"), ("duration", "1s")] {
        one.set(k, v).unwrap();
    }
    let p = |f: &str| run(&cfg_with(one.clone(), &[("features", f)]), None).unwrap().metrics.preemptions;
    assert!(p("NO_RUN_TO_PARITY") > p(""), "{} vs {}", p("NO_RUN_TO_PARITY"), p(""));
    for k in ["6.6", "6.12"] {
        let d = |f: &str| run(&cfg_with(base.clone(), &[("kernel", k), ("features", f)]), None).unwrap().metrics.digest;
        assert_ne!(d(""), d("NO_PLACE_DEADLINE_INITIAL NO_RUN_TO_PARITY"), "{k}");
    }
}

// ---------------------------------------------------------------- CFS of each era (issue 12, defect 4)

/// One core, HZ=1000: a CPU hog and periodic sleepers (`run/period` each), on `kernel`.
fn hog_and_sleepers(kernel: &str, features: &str, sleepers: &[(Ns, Ns)], hz: &str) -> Config {
    let mut tasks = vec![PeriodicTask { count: 1, run: 20 * MS, period: 20 * MS, slice: 0 }];
    tasks.extend(sleepers.iter().map(|&(run, period)| PeriodicTask { count: 1, run, period, slice: 0 }));
    let c = Config { cores: 1, workload: WorkloadKind::Rtapp, tasks, duration: 2_000 * MS, ..Config::default() };
    cfg_with(c, &[("kernel", kernel), ("features", features), ("hz", hz)])
}

#[test]
fn on_2624_a_sleeper_placed_a_full_latency_back_preempts_the_hog_at_once() {
    // 2.6.24, 1 CPU: placed at min_vruntime - 20 ms (NEW_FAIR_SLEEPERS), it leads the hog by
    // 20 ms > the 10 ms wakeup granularity, so every wakeup preempts. With 2.6.32's halved
    // credit (10 ms, not > 10 ms) it would wait for the tick.
    let m = run(&hog_and_sleepers("2.6.24", "", &[(MS, 30 * MS)], "1000"), None).unwrap().metrics;
    assert!(m.wakeup_latency_us.count > 50);
    assert!(m.wakeup_latency_us.p50 < 50.0, "p50 {} us", m.wakeup_latency_us.p50);
}

#[test]
fn on_2624_without_wakeup_preemption_the_tick_waits_for_the_slice_not_the_vruntime_lead() {
    // NO_WAKEUP_PREEMPT: the woken sleeper runs when the hog's 10 ms slice is used up
    // (2.6.24's check_preempt_tick); the 2.6.32+ vruntime-lead test would switch within a tick.
    let m = run(&hog_and_sleepers("2.6.24", "NO_WAKEUP_PREEMPT", &[(MS, 30 * MS)], "1000"), None).unwrap().metrics;
    assert!(m.wakeup_latency_us.p50 > 2_000.0, "p50 {} us", m.wakeup_latency_us.p50);
}

#[test]
fn on_2623_two_hogs_share_the_latency_through_their_keys() {
    // 2.6.23, 1 CPU: a hog picked with a stale key that lies `s/2` (the fair_clock it waited)
    // under the other's gains 1 ms of key per ms, and sched_granularity(2) = 20/2 - 20/4 = 5 ms:
    // the lead passes it at `5 + s/2`, so stretches settle at s = 10 ms = latency / nr (the
    // kernel comment's design), and past ideal_runtime (10 ms) the granularity drops to 0: one
    // tick more.
    let c = cfg_with(two_hogs("1000", "off"), &[("kernel", "2.6.23"), ("duration", "400ms")]);
    let (_, t) = traced(&c);
    let s = stretches(&t, 0);
    let mid: Vec<Ns> = s[6..s.len() - 1].iter().map(|x| x.2 - x.1).collect();
    assert!(mid.len() > 20);
    for d in &mid {
        assert!((10 * MS..=11 * MS).contains(d), "stretch {d} ns in {mid:?}");
    }
}

#[test]
fn on_2623_no_fair_sleepers_removes_the_sleeper_credit() {
    let with = run(&hog_and_sleepers("2.6.23", "", &[(MS, 30 * MS)], "1000"), None).unwrap().metrics;
    let without = run(&hog_and_sleepers("2.6.23", "NO_FAIR_SLEEPERS", &[(MS, 30 * MS)], "1000"), None).unwrap().metrics;
    assert!(
        with.wakeup_latency_us.p50 < without.wakeup_latency_us.p50,
        "{} vs {}",
        with.wakeup_latency_us.p50,
        without.wakeup_latency_us.p50
    );
}

#[test]
fn preempt_restrict_makes_repeated_wakeups_wait_for_the_tick() {
    // sched-devel, HZ=100: after one sleeper's wakeup preempted the hog, the next one against it
    // waits for the hog's next tick (up to 10 ms); NO_PREEMPT_RESTRICT preempts each time.
    let sleepers = [(MS, 25 * MS), (MS, 35 * MS), (MS, 45 * MS)];
    let on = run(&hog_and_sleepers("sched-devel-2007", "", &sleepers, "100"), None).unwrap().metrics;
    let off =
        run(&hog_and_sleepers("sched-devel-2007", "NO_PREEMPT_RESTRICT", &sleepers, "100"), None).unwrap().metrics;
    assert!(
        on.wakeup_latency_us.p99 > off.wakeup_latency_us.p99 + 1_000.0,
        "{} vs {}",
        on.wakeup_latency_us.p99,
        off.wakeup_latency_us.p99
    );
    assert!(on.preemptions < off.preemptions || on.wakeup_latency_us.max > off.wakeup_latency_us.max);
}

// ---------------------------------------------------------------- token passing (issue 13)

/// Smythies' dwell test on the i5-10600K: `pairs` pinned pairs passing a token over pipes.
fn token(sets: &[(&str, &str)]) -> Config {
    let base = [
        ("cpu", "i5-10600k"),
        ("cores", "6"),
        ("kernel", "6.6"),
        ("hz", "1000"),
        ("governor", "teo"),
        ("workload", "token"),
        ("loops", "2000"),
        ("duration", "10s"),
    ];
    cfg_with(cfg_with(Config::default(), &base), sets)
}

/// A task's work bursts (user time, not the pipe system calls): (task, core, start, end).
fn work_bursts(t: &Trace) -> Vec<(u32, u16, Ns, Ns)> {
    let mut v: Vec<_> = t
        .spans
        .iter()
        .filter_map(|s| match s.kind {
            SpanKind::Run { task, sys: false } => Some((task, s.core, s.start, s.end)),
            _ => None,
        })
        .collect();
    v.sort_by_key(|b| (b.2, b.0));
    v
}

#[test]
fn the_token_alternates_strictly_between_the_two_threads_of_a_pair() {
    let c = token(&[("loops", "300")]);
    let (m, t) = traced(&c);
    assert_eq!(m.stop_reason, Some(schedscope::engine::metrics::StopReason::Completed));
    for pair in 0..2u32 {
        // A burst can be split by a tick or an IPI: merge the pieces of one stop first.
        let mut stops: Vec<(u32, Ns, Ns)> = Vec::new();
        for (task, _, s, e) in work_bursts(&t).into_iter().filter(|b| b.0 / 2 == pair) {
            match stops.last_mut() {
                Some(last) if last.0 == task => last.2 = e,
                _ => stops.push((task, s, e)),
            }
        }
        assert_eq!(stops.len(), 300, "pair {pair}: one stop per pass");
        for (i, w) in stops.windows(2).enumerate() {
            assert_ne!(w[0].0, w[1].0, "pair {pair}, pass {i}: the same thread kept the token");
            assert!(w[0].2 <= w[1].1, "pair {pair}, pass {i}: the next thread ran before it got the token");
        }
    }
}

#[test]
fn the_time_per_loop_grows_with_the_work_at_each_stop() {
    let per = |work: &str| run(&token(&[("work", work)]), None).unwrap().metrics.throughput;
    let (small, medium, large) = (per("1us"), per("10us"), per("100us"));
    assert!(small < medium && medium < large, "{small} {medium} {large}");
    // Each loop carries one stop's work: the extra work shows up in full (at least).
    assert!(large - medium >= 90.0, "{medium} -> {large}");
}

#[test]
fn pinned_token_threads_never_migrate() {
    // cores=6: each thread alone on its CPU. cores=3: CPU 0 holds 0A and 1B, so without the
    // pin a wakeup finding CPU 0 busy (select_idle_sibling) or a balancer would move one of
    // them to an idle CPU (checked: the test fails with either the wakeup or the balancer pin
    // taken out).
    for cores in ["6", "3"] {
        let c = token(&[("cores", cores), ("loops", "500")]);
        let (m, t) = traced(&c);
        let n: u32 = cores.parse().unwrap();
        assert_eq!(m.migrations, 0, "cores={cores}");
        for s in &t.spans {
            if let SpanKind::Run { task, .. } = s.kind {
                assert_eq!(s.core as u32, task % n, "cores={cores}: task {task} ran off its CPU");
            }
        }
        assert!(!t.instants.iter().any(|i| matches!(i.kind, schedscope::engine::trace::InstantKind::Migrate { .. })));
    }
}

// ---------------------------------------------------------------- hackbench

mod hackbench_wl {
    use schedscope::engine::config::{Config, Ipc};
    use schedscope::engine::kernel::Kernel;
    use schedscope::engine::metrics::StopReason;
    use schedscope::engine::run;
    use schedscope::engine::workload::hackbench::{Hackbench, Mode, FDS, TASKS_PER_GROUP};
    use schedscope::engine::workload::{Costs, Fx, Step, Workload};

    fn bench(groups: usize, loops: u64, msg: u64, ipc: Ipc, kernel: Kernel) -> Hackbench {
        let costs = Costs::new(Config::default().profile());
        Hackbench::new(groups, loops, msg, Mode::Process, ipc, kernel, costs)
    }

    /// Runs the workload alone under a seeded random "scheduler" (any runnable task may run
    /// next), checking that a wakeup only ever targets a blocked task. Returns how many times
    /// a sender blocked.
    fn drive_random(h: &mut Hackbench, seed: u64) -> u64 {
        let n = h.tasks().len();
        // The children start asleep in poll() (`Workload::sleeps_at_start`), as the engine starts them.
        let mut runnable: Vec<bool> = (0..n).map(|t| !h.sleeps_at_start(t)).collect();
        let mut exited = vec![false; n];
        let mut fx = Fx::default();
        let (mut x, mut now, mut sender_blocks) = (seed | 1, 0u64, 0u64);
        for _ in 0..50_000_000u64 {
            if h.done() {
                return sender_blocks;
            }
            let ready: Vec<usize> = (0..n).filter(|&t| runnable[t]).collect();
            assert!(!ready.is_empty(), "deadlock: nothing runnable and not done");
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let t = ready[(x % ready.len() as u64) as usize];
            let step = h.next(t, now, &mut fx);
            for (w, sync) in fx.wakes.drain(..) {
                assert!(sync, "hackbench's wakeups are WF_SYNC");
                assert!(!runnable[w] && !exited[w], "task {w} woken while not blocked");
                runnable[w] = true;
            }
            match step {
                Step::Run { ns, .. } => now += ns,
                Step::Block => {
                    runnable[t] = false;
                    if t > 0 && (t - 1) % TASKS_PER_GROUP >= FDS && h.sender_blocked(t) {
                        sender_blocks += 1;
                    }
                }
                Step::Exit => {
                    runnable[t] = false;
                    exited[t] = true;
                }
                Step::SleepUntil(_) => panic!("hackbench never sleeps on a timer"),
            }
        }
        panic!("did not finish");
    }

    #[test]
    fn hackbench_every_message_sent_is_received_exactly_once() {
        for (ipc, msg) in [(Ipc::Socket, 100), (Ipc::Pipe, 100), (Ipc::Pipe, 4096), (Ipc::Socket, 4096)] {
            for seed in [1, 7, 99] {
                let (groups, loops) = (2, 30);
                let mut h = bench(groups, loops, msg, ipc, Kernel::V66);
                let blocks = drive_random(&mut h, seed);
                let total = (groups * FDS * FDS) as u64 * loops;
                assert_eq!(h.totals(), (total, total), "{ipc:?} {msg}: all sent, each received once");
                for c in 0..groups * FDS {
                    assert_eq!(h.queued(c), (0, 0), "{ipc:?}: nothing left in receiver {c}'s buffer");
                }
                if msg == 4096 {
                    assert!(blocks > 0, "{ipc:?}: big messages fill the buffers and block senders");
                }
            }
        }
    }

    #[test]
    fn hackbench_a_sender_blocks_on_a_full_buffer_and_the_receivers_drain_wakes_it() {
        for (ipc, kernel) in [(Ipc::Socket, Kernel::V66), (Ipc::Pipe, Kernel::V66), (Ipc::Pipe, Kernel::V417)] {
            let mut h = bench(1, 1000, 100, ipc, kernel);
            let mut fx = Fx::default();
            // Children get ready and poll; the parent reads the ready bytes and starts them.
            for t in 1..=TASKS_PER_GROUP {
                while let Step::Run { .. } = h.next(t, 0, &mut fx) {}
            }
            while let Step::Run { .. } = h.next(0, 0, &mut fx) {}
            assert_eq!(fx.wakes.len(), TASKS_PER_GROUP, "the start byte wakes every child");
            fx.wakes.clear();
            // Sender 0 and 1 (tasks 21, 22) write until receiver 0's buffer is full.
            for s in [21, 22] {
                while let Step::Run { .. } = h.next(s, 0, &mut fx) {}
                assert!(h.sender_blocked(s), "{ipc:?}: sender {s} sleeps on the full buffer");
            }
            assert!(fx.wakes.is_empty(), "receivers are not waiting yet");
            // Receiver 0 (task 1) reads until the kernel's condition wakes the writers.
            let mut reads = 0;
            while fx.wakes.is_empty() {
                assert!(matches!(h.next(1, 0, &mut fx), Step::Run { .. }));
                reads += 1;
            }
            let woken: Vec<usize> = fx.wakes.iter().map(|w| w.0).collect();
            match (ipc, kernel) {
                // unix_write_space: every waiting sender, once wmem is a quarter of sndbuf.
                (Ipc::Socket, _) => assert_eq!(woken, [21, 22]),
                // pipe_read frees a page: exclusive writer waits from 5.6, all before.
                (Ipc::Pipe, Kernel::V66) => assert_eq!(woken, [21]),
                (Ipc::Pipe, _) => assert_eq!(woken, [21, 22]),
            }
            assert!(reads > 1, "{ipc:?}: one read alone does not wake the writers");
        }
    }

    fn hb(groups: &str, loops: &str) -> Config {
        let mut c = Config::default();
        for (k, v) in [("workload", "hackbench"), ("groups", groups), ("loops", loops), ("duration", "60s")] {
            c.set(k, v).unwrap_or_else(|e| panic!("{e}"));
        }
        c
    }

    #[test]
    fn hackbench_completes_and_its_time_grows_with_groups() {
        let mut last = 0.0;
        for g in ["1", "2", "4"] {
            let m = run(&hb(g, "10"), None).expect("runs").metrics;
            assert_eq!(m.stop_reason, Some(StopReason::Completed), "groups={g}");
            assert_eq!(m.throughput_unit, "s");
            assert!(!m.higher_is_better);
            assert!(m.throughput > last, "groups={g}: {} s after {last} s", m.throughput);
            assert!(m.throughput <= m.elapsed_s);
            last = m.throughput;
        }
    }

    #[test]
    fn hackbench_groups_are_capped_by_max_tasks_and_the_engine_runs_that_many() {
        let mut c = Config::default();
        c.set("groups", "409").unwrap();
        let e = c.set("groups", "410").unwrap_err();
        assert!(e.message.contains("1 to 409") && e.message.contains("tasks"), "{}", e.message);
        assert!(c.set("ipc", "tcp").unwrap_err().message.contains("socket, pipe"));
        assert!(c.set("hackbench_mode", "fork").unwrap_err().message.contains("process, thread"));
        assert!(c.set("msg_size", "0").is_err());
        // The default 10 groups are 401 tasks (more than the old cap of 256).
        let m = run(&hb("10", "1"), None).expect("runs").metrics;
        assert_eq!(m.tasks.len(), 1 + 10 * TASKS_PER_GROUP);
        assert_eq!(m.stop_reason, Some(StopReason::Completed));
        // 300 groups (12001 tasks) on 64 cores.
        let mut big = hb("300", "1");
        big.set("cores", "64").unwrap();
        let m = run(&big, None).expect("runs").metrics;
        assert_eq!(m.tasks.len(), 1 + 300 * TASKS_PER_GROUP);
        assert_eq!(m.stop_reason, Some(StopReason::Completed));
    }
}

// ------------------------------------------------------------ the validation corpus

#[test]
fn scaled_wakeup_granularity_cuts_wakeup_preemptions_of_an_overloaded_machine() {
    // hackbench pipes, 12 groups (480 tasks) on 8 cores of 5.15: with the patch a woken
    // task needs gran x min(nr_running/2, 8) of lead, so fewer wakeups preempt.
    let base = Config {
        cpu: "cascadelake-2s".into(),
        cores: 8,
        hz: 250,
        workload: WorkloadKind::Hackbench,
        groups: 12,
        // 300 loops: at 100 (each sender ~1.5 ms of CPU, under one slice) the count is too
        // short to show the mechanism (issue 27): with `switch_mm` charged by mm the patch's
        // effect there ranged from -4% to +18% over seeds 1-5 while vanilla stayed put; at
        // 300 it is a 33-62% cut for seeds 1-3, with one switch cost or two.
        loops: 300,
        ipc: schedscope::engine::config::Ipc::Pipe,
        duration: 60_000 * MS,
        ..Config::default()
    };
    let base = cfg_with(base, &[("kernel", "5.15")]);
    let vanilla = run(&base, None).unwrap().metrics;
    let scaled = run(&cfg_with(base.clone(), &[("wakeup_gran_scale", "on")]), None).unwrap().metrics;
    assert_eq!(vanilla.stop_reason, scaled.stop_reason);
    // At least 10% fewer. This was 20% while the old balancer moved one task machine-wide
    // every 4 ticks: it made ~16k remote wakeup preemptions (IPIs ~ preemptions) of which the
    // patch cut half. 5.15's per-domain balancer has little to move here (480 tasks spread
    // evenly), so vanilla made ~1.2k at 100 loops and the patch cut 13.9%; BENCHMARKS.md "PELT, sched
    // domains and the per-domain balancer" has the experiment (each part switched off). At 300
    // loops vanilla makes ~10k and the patch cuts 37% (the count itself moves by half with a
    // 10% change of the switch cost: chaotic). The direction is the mechanism;
    // the threshold is below it by more than a tenth of the remaining preemptions.
    assert!(
        scaled.preemptions * 10 < vanilla.preemptions * 9,
        "preemptions {} -> {}: at least 10% fewer",
        vanilla.preemptions,
        scaled.preemptions
    );
    // Lightly loaded (40 tasks on 128 cores) the knob changes no wakeup preemption: a wakee
    // rarely finds its CPU busy. It was a digest check; since cost27's sourced pipe costs a
    // run can still schedule differently (seed 1: 4 preemptions either way, another digest,
    // seeds 2-5 the same digest), so the check is on what the knob scales.
    let light = cfg_with(base.clone(), &[("groups", "1"), ("cores", "128"), ("cpu", "zen3-2s")]);
    let a = run(&light, None).unwrap().metrics;
    let b = run(&cfg_with(light, &[("wakeup_gran_scale", "on")]), None).unwrap().metrics;
    assert_eq!(a.preemptions, b.preemptions, "40 tasks on 128 cores: the same wakeup preemptions");
    assert!(a.preemptions * 100 < a.wakeups, "lightly loaded: under 1% of wakeups preempt");
}

#[test]
fn the_corpus_tables_judge_their_rows_against_their_reference_rows() {
    use schedscope::engine::validate::validate_preset;
    // The RUN_TO_PARITY table: two rows, both columns reported; the second row is judged
    // against the first, with an absolute error for every reported cell.
    let t = validate_preset("messaging-run-to-parity", true).expect("a corpus table");
    assert!(t.corpus);
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.rows[0].vs, t.rows[0].label, "the first row is its own baseline");
    assert!(t.rows[1].pass.is_some());
    for r in &t.rows {
        assert!(r.cells.iter().all(|c| c.abs_error.is_some()), "{}: every cell has an absolute error", r.label);
    }
    // RUN_TO_PARITY (6.6): the current task keeps the CPU until its deadline unless the
    // woken task may preempt: fewer switches (the size of the change is what the table judges).
    assert!(t.rows[1].context_switches < t.rows[0].context_switches);
}

fn schbench(sets: &[(&str, &str)]) -> schedscope::engine::Metrics {
    let mut all = vec![("workload", "schbench"), ("cores", "8"), ("duration", "300ms")];
    all.extend_from_slice(sets);
    run(&cfg_with(Config::default(), &all), None).unwrap().metrics
}

#[test]
fn schbench_rps_scales_with_workers_until_the_cpus_are_saturated() {
    let rps = |w: &str| schbench(&[("schbench_workers", w)]).workload["average_rps"];
    let (r1, r4, r8, r16) = (rps("1"), rps("4"), rps("8"), rps("16"));
    assert!(r4 > 3.5 * r1, "4 workers on 8 CPUs: {r4} vs {r1}");
    assert!(r8 > 1.7 * r4, "8 workers on 8 CPUs: {r8} vs {r4}");
    assert!(r16 < 1.15 * r8, "16 workers on 8 CPUs are saturated: {r16} vs {r8}");
}

#[test]
fn schbench_wakeup_latency_includes_the_message_threads_wakeup_path() {
    // More workers per message thread: the later ones in its list wait for the futex_wake
    // calls ahead of them (and for the message thread itself to be woken and run).
    let lat = |sets: &[(&str, &str)]| schbench(sets).workload["wakeup_mean_us"];
    let (one, six) = (lat(&[("schbench_workers", "1")]), lat(&[("schbench_workers", "6")]));
    assert!(six > one, "6 workers {six} us vs 1 worker {one} us");
    // Deep C-states on the idle CPUs the workers are woken on cost their exit latency.
    let cfg = [("schbench_workers", "2"), ("cpu", "skylake-sp")];
    let poll = lat(&[cfg[0], cfg[1], ("idle", "poll")]);
    let deep = lat(&[cfg[0], cfg[1], ("idle", "default")]);
    assert!(deep > poll, "C-states {deep} us vs idle=poll {poll} us");
}

#[test]
fn schbench_bad_values_get_a_clear_error() {
    let mut c = Config::default();
    for (k, v, want) in [
        ("schbench_workers", "256", "0 to 255"),
        ("schbench_message_threads", "0", "1 to 64"),
        ("schbench_locking", "maybe", "on or off"),
        ("schbench_sleep", "2s", "out of range"),
        ("workload", "schbench2", "schbench"),
    ] {
        let e = c.set(k, v).unwrap_err();
        assert_eq!(e.key, k);
        assert!(e.message.contains(want), "{k}={v}: {}", e.message);
    }
    c.set("workload", "schbench").unwrap();
    assert!(c.applies("schbench_locking") == Ok(true) && c.applies("groups") == Ok(false));
}
