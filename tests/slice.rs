//! Custom slices on rt-app tasks: `tasks=...@slice=`, rt-app's `dl-runtime` on SCHED_OTHER, and
//! what 6.12's PREEMPT_SHORT does with them (6.6 ignores `sched_attr.sched_runtime` for fair tasks).

use schedscope::engine::config::Config;
use schedscope::engine::run;
use schedscope::share::rtapp::import;

/// One core, HZ=1000: two CPU hogs and a sleeper running 1 ms every 30 ms, `slice` being
/// the sleeper's `@slice=` ("" for none). With two hogs the running one is eligible when the
/// sleeper wakes (it was picked as the one behind), so RUN_TO_PARITY can protect it.
fn hog_and_sleeper(kernel: &str, slice: &str) -> Config {
    let mut c = Config::default();
    let tasks = format!("2x20ms/20ms,1x1ms/30ms{slice}");
    for (k, v) in [
        ("kernel", kernel),
        ("cores", "1"),
        ("hz", "1000"),
        ("workload", "rtapp"),
        ("tasks", tasks.as_str()),
        ("duration", "2s"),
    ] {
        c.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    c
}

#[test]
fn a_slice_survives_a_link_and_old_task_lists_read_as_before() {
    let mut c = Config::default();
    c.set("tasks", "2x3ms/10ms@slice=300us,500us/2ms").unwrap();
    assert_eq!(c.tasks[0].slice, 300_000);
    assert_eq!(c.tasks[1].slice, 0);
    assert_eq!(c.get("tasks").unwrap(), "2x3ms/10ms@slice=300us,1x500us/2ms");
    c.set("tasks", "2x3ms/10ms").unwrap();
    assert_eq!(c.get("tasks").unwrap(), "2x3ms/10ms", "no slice, no suffix");
    assert!(c.set("tasks", "2x3ms/10ms@prio=3").is_err());
}

#[test]
fn rtapp_dl_runtime_on_sched_other_becomes_the_tasks_slice() {
    // The shape of rt-app's doc/examples/custom-slice.json: a SCHED_OTHER thread with a
    // dl-runtime (microseconds) next to a SCHED_DEADLINE one.
    let json = r#"{ "tasks": {
        "a": { "run": 2000, "sleep": 8000, "policy": "SCHED_OTHER", "dl-runtime": 300 },
        "b": { "run": 2000, "sleep": 8000, "policy": "SCHED_DEADLINE", "dl-runtime": 3000 },
        "c": { "run": 2000, "sleep": 8000, "dl-runtime": 500 }
    } }"#;
    let r = import(json).unwrap();
    let tasks = &r.config_changes.iter().find(|(k, _)| k == "tasks").unwrap().1;
    assert_eq!(tasks, "1x2ms/10ms@slice=300us,1x2ms/10ms,1x2ms/10ms@slice=500us");
    assert!(r.notices.iter().any(|n| n.starts_with("tasks.a.dl-runtime") && n.contains("6.12")), "{:?}", r.notices);
    assert!(r.notices.iter().any(|n| n.starts_with("tasks.b.dl-runtime") && n.contains("ignored")), "{:?}", r.notices);

    // A global default policy other than SCHED_OTHER carries no slice.
    let fifo = r#"{ "global": { "default_policy": "SCHED_FIFO" },
        "tasks": { "c": { "run": 2000, "sleep": 8000, "dl-runtime": 500 } } }"#;
    let r = import(fifo).unwrap();
    assert_eq!(r.config_changes.iter().find(|(k, _)| k == "tasks").unwrap().1, "1x2ms/10ms");
}

#[test]
fn on_6_12_a_short_slice_preempts_the_hog_at_wakeup_where_the_base_slice_waits() {
    // PREEMPT_SHORT (6.12 check_preempt_wakeup_fair): a wakee whose deadline, from its 0.1 ms
    // slice, is earlier than the hog's cancels the hog's RUN_TO_PARITY protection and is
    // picked at once. With the base slice the hog keeps the CPU to its own deadline.
    let short = run(&hog_and_sleeper("6.12", "@slice=100us"), None).unwrap().metrics;
    let base = run(&hog_and_sleeper("6.12", ""), None).unwrap().metrics;
    assert!(short.wakeup_latency_us.count > 50 && base.wakeup_latency_us.count > 50);
    assert!(
        short.wakeup_latency_us.p50 * 4.0 < base.wakeup_latency_us.p50,
        "short {} us vs base {} us",
        short.wakeup_latency_us.p50,
        base.wakeup_latency_us.p50
    );
}

#[test]
fn on_6_6_a_slice_changes_nothing() {
    // 6.6's __setparam_fair has no custom slice: the run is the same to the last event.
    let with = run(&hog_and_sleeper("6.6", "@slice=100us"), None).unwrap().metrics;
    let without = run(&hog_and_sleeper("6.6", ""), None).unwrap().metrics;
    assert_eq!(with.digest, without.digest);
    // ...and 6.12 does differ, so the comparison above can fail.
    let with = run(&hog_and_sleeper("6.12", "@slice=100us"), None).unwrap().metrics;
    let without = run(&hog_and_sleeper("6.12", ""), None).unwrap().metrics;
    assert_ne!(with.digest, without.digest);
}
