//! Wakeup preemption and the scheduling classes: each mechanism's defining behaviour, in scripted runs.

use std::sync::Arc;

use schedscope::engine::config::Config;
use schedscope::engine::time::{Ns, MS, US};
use schedscope::engine::trace::{InstantKind, TraceOptions};
use schedscope::engine::workload::replay::{Op, Program, ReplayTask};
use schedscope::engine::{run_replay, Metrics};

fn cfg(sets: &[(&str, &str)]) -> Config {
    let mut c = Config::default();
    for (k, v) in sets {
        c.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    c
}

fn task(name: &str, cpu: usize, ops: Vec<Op>) -> ReplayTask {
    ReplayTask { name: name.to_string(), pid: 0, nice: 0, cpu, ops }
}

fn replay(c: &Config, tasks: Vec<ReplayTask>) -> Metrics {
    run_replay(c, None, Arc::new(Program { tasks })).expect("valid config").metrics
}

/// The latency of W's one wakeup: W shares core 1 with the hog H, blocks after `w_runs`,
/// and X, busy on core 0, wakes it at `at` (between two of core 1's ticks at HZ=250), so
/// W's enqueue and the preemption check happen on core 1 from outside, while H runs.
fn remote_wake_latency_us(kernel: &str, h_first: bool, w_runs: Ns, at: Ns) -> f64 {
    let c = cfg(&[("kernel", kernel), ("cores", "2"), ("hz", "250"), ("duration", "100ms")]);
    let w_ops = vec![Op::Run(w_runs), Op::Block, Op::Run(100 * US), Op::Exit];
    let h = task("h", 1, vec![Op::Run(40 * MS), Op::Exit]);
    let (tasks, w) = if h_first { (vec![h, task("w", 1, w_ops)], 1) } else { (vec![task("w", 1, w_ops), h], 0) };
    let mut tasks = tasks;
    tasks.push(task("x", 0, vec![Op::Run(at), Op::Wake(w), Op::Run(20 * MS), Op::Exit]));
    let m = replay(&c, tasks);
    assert_eq!(m.wakeup_latency_us.count, 1, "W's one wakeup");
    m.wakeup_latency_us.max
}

#[test]
fn cfs_charges_curr_before_the_wakeup_preemption_check() {
    // 4.17, 2 CPUs: wakeup granularity 2 ms. W runs 1 ms first and blocks; H runs on
    // alone and was last charged at the 8 ms tick. At 11 ms X wakes W: `enqueue_entity`
    // opens with `update_curr`, so H's vruntime includes the 3 ms since the tick and its
    // lead over W exceeds the granularity: W preempts at once (an IPI away). Charged only
    // at the tick, H's lead stays under it and W waits for the 12 ms tick and beyond.
    let lat = remote_wake_latency_us("4.17", false, MS, 11 * MS);
    assert!(lat < 50.0, "W waited {lat} us");
}

#[test]
fn eevdf_charges_curr_before_pick_eevdf_at_a_wakeup() {
    // 6.6, 2 CPUs: base slice 1.5 ms, no hrtick, HZ=250. W runs 1 ms first and blocks with
    // lag -0.5 ms; H runs alone, its deadline renewed at the 4 and 8 ms ticks (to 8.5 ms of
    // vruntime). X wakes W at 11 ms. `enqueue_entity` and `check_preempt_wakeup_fair` call
    // `update_curr` first: H's vruntime is 10 ms, `update_deadline` renews its deadline to
    // 11.5 (H alone until the enqueue: no reschedule), W is placed at V + 1 ms, ineligible:
    // no preemption, and H's deadline is not reached at the 12 ms tick, only at 16 ms.
    // With H as last charged at 8 ms (the old engine), its deadline stayed 8.5: the 12 ms
    // tick renewed it with W queued and W ran at 12 ms, 1 ms after its wakeup.
    let lat = remote_wake_latency_us("6.6", false, MS, 11 * MS);
    assert!((4_900.0..5_100.0).contains(&lat), "W waited {lat} us");
}

/// W runs 2 ms first on core 1 (H waits), then blocks with negative lag; X on core 0
/// wakes it at 2.5 ms while core 2 idles. (W's wakeup latency in us, when W first moved
/// to another core, if it did).
fn delayed_wake(features: &str) -> (f64, Option<Ns>) {
    let c = cfg(&[("kernel", "6.12"), ("cores", "3"), ("hz", "250"), ("duration", "100ms"), ("features", features)]);
    let tasks = vec![
        task("w", 1, vec![Op::Run(2 * MS), Op::Block, Op::Run(100 * US), Op::Exit]),
        task("h", 1, vec![Op::Run(40 * MS), Op::Exit]),
        task("x", 0, vec![Op::Run(2500 * US), Op::Wake(0), Op::Run(20 * MS), Op::Exit]),
    ];
    let o = run_replay(&c, Some(TraceOptions::default()), Arc::new(Program { tasks })).expect("valid config");
    assert_eq!(o.metrics.wakeup_latency_us.count, 1, "W's one wakeup");
    let moved = o.trace.instants.iter().find_map(|i| match i.kind {
        InstantKind::Migrate { task: 0, .. } => Some(i.time),
        _ => None,
    });
    (o.metrics.wakeup_latency_us.max, moved)
}

#[test]
fn delay_dequeue_keeps_an_ineligible_sleeper_queued_and_wakes_it_in_place() {
    // 6.12 (DELAY_DEQUEUE on by default): W sleeps after running ahead of V (ineligible),
    // so it stays on core 1's runqueue, delayed. X's wakeup finds it still queued
    // (`p->on_rq`): `ttwu_runnable` requeues it there without `select_task_rq`, so it does
    // not move to the idle core 2; still ineligible, it waits for H's slice to end at a
    // later tick. With NO_DELAY_DEQUEUE it left the runqueue when it slept and
    // `select_idle_sibling` sends it to core 2, where it runs at once.
    // (From core 1's next tick, 4 ms, the idle load balancer it kicks may then take it to
    // the idle core 2: `nohz_balancer_kick` with nr_running >= 2, `sim::balance`; not the
    // wakeup's doing.)
    let (lat, moved) = delayed_wake("");
    assert!(moved.is_none_or(|t| t >= 4 * MS), "woken in place, not moved at its wakeup: {moved:?}");
    assert!(lat > 1_000.0, "it waits on core 1 behind H: {lat} us");
    let (lat, moved) = delayed_wake("NO_DELAY_DEQUEUE");
    assert!(moved.is_some_and(|t| t < 3 * MS), "moved to the idle core at its wakeup: {moved:?}");
    assert!(lat < 1_000.0, "{lat} us");
}

/// K runs a 10 ms kernel-mode burst on core 1 (from 1 ms on); W, asleep since the start,
/// is woken from core 0 at 3 ms and preempts K (a long sleeper). W's wakeup latency in us.
fn wake_during_syscall(preempt: &str) -> f64 {
    let c = cfg(&[("kernel", "4.17"), ("cores", "2"), ("hz", "250"), ("duration", "100ms"), ("preempt", preempt)]);
    let m = replay(
        &c,
        vec![
            // K is enqueued first: START_DEBIT then places W ahead of it, so W runs (and
            // blocks) first.
            task("k", 1, vec![Op::Run(MS), Op::Sys(10 * MS), Op::Run(MS), Op::Exit]),
            task("w", 1, vec![Op::Block, Op::Run(100 * US), Op::Exit]),
            task("x", 0, vec![Op::Run(3 * MS), Op::Wake(1), Op::Run(20 * MS), Op::Exit]),
        ],
    );
    assert_eq!(m.wakeup_latency_us.count, 1, "W's one wakeup");
    m.wakeup_latency_us.max
}

#[test]
fn only_full_preemption_takes_a_task_off_the_cpu_in_kernel_mode() {
    // full (CONFIG_PREEMPT): the reschedule IPI preempts K inside its syscall at once.
    let full = wake_during_syscall("full");
    assert!(full < 50.0, "full: {full} us");
    // none and voluntary: K keeps the CPU until its syscall returns to user space, ~8 ms
    // after the wakeup (no cond_resched point inside the burst is modelled).
    for model in ["none", "voluntary", "default"] {
        let lat = wake_during_syscall(model);
        assert!((7_900.0..8_200.0).contains(&lat), "{model}: {lat} us");
    }
}
