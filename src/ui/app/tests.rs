//! The app's reducer, tested natively as it is (`State::reduce` names no yew): the actions
//! that cross features. Each feature's own slice is tested in its file.

use std::rc::Rc;

use crate::engine::config::{Config, PolicyKind, WorkloadKind};
use crate::engine::metrics::Metrics;
use crate::engine::trace::Trace;
use crate::share::url::{self, View};
use crate::ui::app::state::*;
use crate::ui::sweep::model::plan_sweep;
use crate::ui::sweep::state::SweepAction;
use crate::ui::worker::protocol::{RunProgress, RunResult};
use crate::ui::worker::scheduler::JobKind;

fn reduce(s: Rc<State>, a: Action) -> Rc<State> {
    s.reduce(a)
}

fn ok_run(throughput: f64) -> Result<RunResult, String> {
    Ok(RunResult { metrics: Metrics { throughput, ..Default::default() }, trace: Trace::default() })
}

/// A sweep point's answer: the figure, its unit, and a counter the plot does not show.
fn point(throughput: f64, unit: &str, context_switches: u64) -> Result<Metrics, String> {
    Ok(Metrics { throughput, throughput_unit: unit.into(), context_switches, ..Default::default() })
}

#[test]
fn valid_sets_bump_the_generation_and_invalid_ones_change_nothing() {
    let s = Rc::new(State::default());
    let t = reduce(s.clone(), Action::Set { key: "cores", value: "4".into() });
    assert_eq!((t.config.cores, t.gen, t.last_key), (4, s.gen + 1, Some("cores")));
    let u = reduce(t.clone(), Action::Set { key: "cores", value: "999".into() });
    assert!(Rc::ptr_eq(&t, &u), "an invalid value returns the same state");
    let v = reduce(t.clone(), Action::Set { key: "cores", value: "4".into() });
    assert_eq!(v.gen, t.gen, "setting the same value is not a change");
}

// A crash in the previous config's run that is only heard after the next config is in
// (its full run died while the user typed) used to take the status line for good: the
// new config ran, and the page still said the worker had stopped, never "Up to date".
#[test]
fn a_crash_in_an_older_configs_job_is_a_notice_and_the_status_line_goes_on() {
    use crate::ui::worker::protocol::WorkerDown;
    let crash = || WorkerDown::new("simulation", "RuntimeError: unreachable", true);
    let s = reduce(Rc::new(State::default()), Action::Set { key: "seed", value: "4242".into() });
    let old = s.gen;
    let here =
        reduce(s.clone(), Action::WorkerDown { down: crash(), job: Some(JobKind::Live { gen: old, preview: true }) });
    assert_eq!(here.worker_down, Some(crash()), "a crash in the config shown is its status");
    let s = reduce(here, Action::Set { key: "seed", value: "7".into() });
    assert_eq!(s.worker_down, None, "the next config is a new worker's");
    let late =
        reduce(s.clone(), Action::WorkerDown { down: crash(), job: Some(JobKind::Live { gen: old, preview: false }) });
    assert_eq!(late.worker_down, None, "an older config's crash is not this config's status");
    assert_eq!(late.notices.last().map(|n| n.text.clone()), Some(crash().text), "the page still says so");
    let done = reduce(late, Action::RunDone { gen: s.gen, result: ok_run(1.0), preview: false });
    assert!(!done.running() && done.worker_down.is_none());
    // A crash in a job of no config (a table, A's run) and a worker that cannot start
    // are the status line's, as before.
    let t = reduce(s.clone(), Action::WorkerDown { down: crash(), job: Some(JobKind::Pin { id: 1 }) });
    assert_eq!(t.worker_down, Some(crash()));
    let gone = WorkerDown::new("simulation", "blocked", false);
    let t = reduce(s.clone(), Action::WorkerDown { down: gone.clone(), job: None });
    assert_eq!(t.worker_down, Some(gone));
}

#[test]
fn stale_results_are_dropped() {
    let s = Rc::new(State::default());
    let g1 = s.gen;
    let s = reduce(s, Action::Set { key: "cores", value: "3".into() });
    assert!(s.running());
    let s2 = reduce(s.clone(), Action::RunDone { gen: g1, result: ok_run(1.0), preview: false });
    assert!(s2.result.is_none(), "a result for the old config is not shown");
    let s3 = reduce(s2, Action::RunDone { gen: s.gen, result: ok_run(2.0), preview: false });
    assert_eq!(s3.result.as_ref().unwrap().metrics.throughput, 2.0);
    assert!(!s3.running());
}

#[test]
fn a_preview_shows_until_its_full_run_and_never_replaces_it() {
    let s = reduce(Rc::new(State::default()), Action::Set { key: "cores", value: "3".into() });
    let s = reduce(s, Action::PinA);
    let p = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(1.0), preview: true });
    let shown = p.result.as_ref().expect("the preview is shown");
    assert!(shown.preview && p.running(), "still running: the full run is on its way");
    assert_eq!(p.pin.as_ref().unwrap().result.as_ref().map(|r| r.preview), Some(true));
    let f = reduce(p.clone(), Action::RunDone { gen: s.gen, result: ok_run(2.0), preview: false });
    assert!(!f.running());
    assert_eq!(f.result.as_ref().unwrap().metrics.throughput, 2.0);
    let pinned = f.pin.as_ref().unwrap().result.as_ref().unwrap();
    assert!(!pinned.preview && pinned.metrics.throughput == 2.0, "A gets the full run too");
    let late = reduce(f.clone(), Action::RunDone { gen: s.gen, result: ok_run(3.0), preview: true });
    assert!(Rc::ptr_eq(&late, &f), "a late preview does not replace the full run");
}

#[test]
fn dragging_the_swept_knob_keeps_the_curve_and_other_knobs_replan_it() {
    let s = Rc::new(State::default());
    let s = reduce(s, Action::Set { key: "sched_latency", value: "10ms".into() });
    let sw = s.sweep.current.clone().unwrap();
    assert_eq!(sw.key, "sched_latency");
    assert!(sw.log && sw.values.len() >= 16 && sw.values.len() <= 32);
    assert!(sw.values.contains(&"10ms".to_string()), "planned around the value set (intro's own knob is hz)");
    let s = reduce(s, Action::Sweep(SweepAction::Point { gen: sw.gen, index: 0, result: point(5.0, "ops/s", 77) }));
    let s = reduce(s, Action::Set { key: "sched_latency", value: "12ms".into() });
    let kept = s.sweep.current.clone().unwrap();
    assert_eq!((kept.gen, kept.ys()[0], kept.unit.as_str()), (sw.gen, Some(5.0), "ops/s"));
    assert_eq!(kept.points[0].as_ref().map(|m| m.context_switches), Some(77), "the point keeps all its metrics");
    assert_eq!(kept.done(), 1);
    assert_eq!(kept.base.sched_latency, 12_000_000, "the marker follows the knob");
    let s = reduce(s, Action::Set { key: "cores", value: "4".into() });
    let re = s.sweep.current.clone().unwrap();
    assert_eq!(re.key, "cores");
    assert!(re.gen > sw.gen && re.points.iter().all(Option::is_none));
    let stale =
        reduce(s.clone(), Action::Sweep(SweepAction::Point { gen: sw.gen, index: 0, result: point(1.0, "", 1) }));
    assert!(Rc::ptr_eq(&s, &stale));
}

#[test]
fn run_parameters_do_not_take_the_sweep_over() {
    let s = Rc::new(State::default());
    let s = reduce(s, Action::Set { key: "duration", value: "1s".into() });
    let sw = s.sweep.current.clone().unwrap();
    assert_eq!(sw.key, "hz", "the knob the intro preset is about");
    assert_eq!(sw.base.duration, 1_000_000_000);
    let s = reduce(s, Action::Set { key: "kernel", value: "2.6.21-sd".into() });
    assert_eq!(s.sweep.current.as_ref().unwrap().key, "kernel", "a choice is swept over its options");
    assert_eq!(s.sweep.current.as_ref().unwrap().values[0], "2.6.21-sd");
}

#[test]
fn sweep_points_vary_only_their_key() {
    let sw = plan_sweep(&Config::default(), "wakeup_granularity", 1, None).unwrap();
    assert!(sw.xs.as_ref().unwrap().iter().all(|x| *x > 0.0), "zero is dropped from a log axis");
    for (c, v) in sw.point_configs().iter().zip(&sw.values) {
        assert_eq!(c.get("wakeup_granularity").as_ref(), Some(v));
        assert!(same_except(c, &Config::default(), "wakeup_granularity"));
    }
}

#[test]
fn disabled_keys_say_why() {
    let mut c = Config::default();
    assert_eq!(disabled_note(&c, "rr_interval").as_deref(), Some("(not used by CFS)"));
    assert_eq!(disabled_note(&c, "sched_latency"), None);
    assert_eq!(disabled_note(&c, "loops").as_deref(), Some("(not used by rtapp)"));
    c.policy = PolicyKind::Sd;
    assert_eq!(disabled_note(&c, "sched_latency").as_deref(), Some("(not used by SD)"));
    c.nohz = false;
    assert_eq!(disabled_note(&c, "nohz_ratelimit").as_deref(), Some("(not used with nohz off)"));
}

#[test]
fn pinning_keeps_a_and_fills_its_result_when_it_arrives() {
    let s = Rc::new(State::default());
    let s = reduce(s, Action::PinA);
    assert!(s.pin.as_ref().unwrap().result.is_none());
    let s = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(3.0), preview: false });
    assert_eq!(s.pin.as_ref().unwrap().result.as_ref().unwrap().metrics.throughput, 3.0);
    let s = reduce(s, Action::Set { key: "hz", value: "1000".into() });
    assert_eq!(s.pin.as_ref().unwrap().config.hz, 250, "A stays as pinned");
    assert!(reduce(s, Action::Unpin).pin.is_none());
}

fn rep(throughput: f64) -> Result<Metrics, String> {
    Ok(Metrics { throughput, ..Default::default() })
}

#[test]
fn the_main_figures_over_seeds_ask_for_each_further_seed_of_a_and_b_once() {
    let s = Rc::new(State::default());
    assert!(s.replica_jobs().is_empty(), "one seed: nothing more to run");
    let s = reduce(s, Action::MainSeeds(3));
    assert_eq!(url::parse(&s.query()).0.main_seeds, Some(3), "in the link: {}", s.query());
    let seed = s.config.seed;
    let jobs = s.replica_jobs();
    assert_eq!(jobs.iter().map(|(_, c)| c.seed).collect::<Vec<_>>(), [seed + 1, seed + 2]);
    assert!(jobs.iter().all(|(_, c)| Config { seed, ..c.clone() } == s.config), "only the seed differs");
    // Pinned while A is the current config: B's runs are A's, nothing runs twice.
    let s = reduce(s, Action::PinA);
    assert_eq!(s.replica_jobs().len(), 2);
    let gen = s.gen;
    let s = reduce(s, Action::ReplicaDone { a: None, gen, index: 2, result: rep(4.0) });
    assert_eq!(s.shown_reps().unwrap().missing(), [1]);
    assert_eq!(s.pin_reps().unwrap().missing(), [1], "A got B's answer");
    let s = reduce(s, Action::ReplicaDone { a: None, gen: gen - 1, index: 1, result: rep(9.0) });
    assert_eq!(s.shown_reps().unwrap().missing(), [1], "another config's answer is dropped");
    // B moves on: its seeds start over, A keeps its own.
    let s = reduce(s, Action::Set { key: "hz", value: "1000".into() });
    let jobs = s.replica_jobs();
    let (b, a): (Vec<_>, Vec<_>) = jobs.iter().partition(|(k, _)| matches!(k, JobKind::Replica { a: None, .. }));
    assert_eq!((b.len(), a.len()), (2, 1));
    assert_eq!(a[0].1.hz, 250, "A's replica is A's config");
    assert!(b.iter().all(|(_, c)| c.hz == 1000));
    let id = s.pin.as_ref().unwrap().id;
    let gen = s.gen;
    let s = reduce(s, Action::ReplicaDone { a: Some(id), gen, index: 1, result: Err("boom".into()) });
    assert!(s.pin_reps().unwrap().complete(), "a failed seed is not asked for again");
    assert_eq!(s.replica_jobs().len(), 2);
    // Back to one seed: nothing runs and nothing stale is shown.
    let s = reduce(s, Action::MainSeeds(1));
    assert!(s.replica_jobs().is_empty() && s.shown_reps().is_none() && s.pin_reps().is_none());
    assert!(!s.query().contains("seeds="));
}

#[test]
fn a_seeds_link_opens_with_the_mean_asked_for_and_bad_counts_are_clamped() {
    let (u, n) = url::parse("v=1&preset=intro&seeds=5");
    assert!(n.is_empty());
    let s = State::from_url(&u, &n);
    assert_eq!((s.main_seeds, s.replica_jobs().len()), (5, 4));
    assert_eq!(Rc::new(s).reduce(Action::MainSeeds(1000)).main_seeds, crate::ui::explore::replicas::MAX_SEEDS);
}

#[test]
fn choosing_the_shown_preset_again_keeps_the_sweep_and_its_points() {
    let s = Rc::new(State::default());
    let sw = s.sweep.current.clone().unwrap();
    let s = reduce(s, Action::Sweep(SweepAction::Point { gen: sw.gen, index: 0, result: point(5.0, "ops/s", 1) }));
    let again = reduce(s.clone(), Action::LoadPreset(s.preset.clone()));
    assert_eq!(again.gen, s.gen);
    assert_eq!(again.sweep.current, s.sweep.current, "the runner only runs a sweep of a new generation");
    let other = reduce(again, Action::LoadPreset("rr-kbuild".into()));
    let re = other.sweep.current.as_ref().unwrap();
    assert!(other.gen > s.gen && re.gen == other.gen && re.key == "rr_interval");
}

#[test]
fn rows_and_presets_load_with_messages_for_bad_input() {
    let s = Rc::new(State::default());
    let s = reduce(
        s,
        Action::LoadRow {
            preset: "intro".into(),
            sets: vec![("hz".into(), "1000".into()), ("bogus".into(), "1".into())],
        },
    );
    assert_eq!(s.config.hz, 1000);
    assert_eq!(s.notices.len(), 1);
    assert!(s.notices[0].text.contains("bogus"));
    let s = reduce(s, Action::LoadPreset("nope".into()));
    assert_eq!(s.notices.len(), 2);
    let id = s.notices[0].id;
    assert_eq!(reduce(s, Action::Dismiss(id)).notices.len(), 1);
}

#[test]
fn load_opens_exactly_the_run_the_quick_table_shows() {
    // Issue 17: the page's tables run a tenth of the pipe loops (`validate::quicken`) but
    // Load opened the row at full length, so its figures did not match the table's.
    let t = crate::engine::validate::validate_preset("nohz-pipe", true).expect("the seed table");
    for row in &t.rows {
        let s = reduce(Rc::new(State::default()), Action::LoadRow { preset: t.preset.clone(), sets: row.sets.clone() });
        let m = crate::engine::run(&s.config, None).expect("runs").metrics;
        for (col, cell) in t.columns.iter().zip(&row.cells) {
            let got = crate::engine::validate::metric_of(&m, &col.key);
            assert_eq!(got, cell.simulated, "{} / {}: the loaded run is the table's", row.label, col.key);
        }
        let n = s.notices.last().expect("a notice says the run is shortened");
        assert!(n.text.contains("loops=100000") && n.text.contains("loops=1000000"), "{}", n.text);
    }
}

#[test]
fn a_long_run_shows_progress_and_a_cancel_keeps_the_preview_labelled() {
    let s = reduce(Rc::new(State::default()), Action::Set { key: "cores", value: "3".into() });
    let s = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(1.0), preview: true });
    let full = JobKind::Live { gen: s.gen, preview: false };
    let p = RunProgress { now: 2_000_000_000, duration: 10_000_000_000, events: 3_000_000, max_events: 50_000_000 };
    let stale =
        reduce(s.clone(), Action::Progress { kind: JobKind::Live { gen: s.gen - 1, preview: false }, progress: p });
    assert!(Rc::ptr_eq(&stale, &s), "an older config's report is dropped");
    let s = reduce(s, Action::Progress { kind: full.clone(), progress: p });
    assert_eq!(s.shown_progress(), Some((full.clone(), p)));
    assert!((p.fraction() - 0.2).abs() < 1e-9);
    let c = reduce(s, Action::Cancel);
    assert_eq!(c.wanted_jobs().stop, [full], "the runner is told which job to stop");
    assert_eq!(c.wanted_jobs().live, None, "and not to run it again");
    assert!(c.cancelled_here() && !c.running() && c.shown_progress().is_none());
    assert!(c.result.as_ref().unwrap().preview, "the figures stay a preview");
    let late = reduce(c.clone(), Action::RunDone { gen: c.gen, result: ok_run(1.5), preview: true });
    assert!(late.result.as_ref().unwrap().preview);
    let again = reduce(c.clone(), Action::RunAgain);
    assert!(again.wanted_jobs().live.is_some() && !again.cancelled_here() && again.running());
    assert!(again.wanted_jobs().stop.is_empty(), "the runs are asked for again");
    let done = reduce(again.clone(), Action::RunDone { gen: again.gen, result: ok_run(2.0), preview: false });
    assert!(!done.running() && !done.result.as_ref().unwrap().preview);
    // A change after a cancel runs the new config in full as usual.
    let next = reduce(c, Action::Set { key: "hz", value: "1000".into() });
    assert!(!next.cancelled_here() && next.running());
}

fn from_link(q: &str) -> State {
    let (u, n) = url::parse(q);
    State::from_url(&u, &n)
}

#[test]
fn a_link_sets_preset_config_sweep_and_views_and_prints_back_the_same() {
    let q = "v=1&preset=rr-kbuild&rr_interval=5ms&embed=1&view=plot,metrics&sweep=hz";
    let s = from_link(q);
    assert_eq!((s.preset.as_str(), s.config.rr_interval, s.embed), ("rr-kbuild", 5_000_000, true));
    assert_eq!(s.views, vec![View::Plot, View::Metrics]);
    assert_eq!(s.sweep.current.as_ref().unwrap().key, "hz");
    assert!(s.notices.is_empty());
    assert_eq!(s.query(), q);
    assert_eq!(s.full_app_query(), "v=1&preset=rr-kbuild&rr_interval=5ms&sweep=hz");
    // The usual sweep key is not spelled out.
    assert_eq!(from_link("v=1&preset=rr-kbuild&sweep=rr_interval").query(), "v=1&preset=rr-kbuild");
}

#[test]
fn the_experiments_page_is_in_the_link_and_back_returns_to_the_explorer() {
    let s = reduce(Rc::new(State::default()), Action::Tab(Tab::Seeds));
    assert_eq!(s.query(), "v=1&preset=intro&view=seeds");
    let opened = from_link("v=1&preset=intro&view=seeds");
    assert_eq!((opened.tab, opened.views.clone()), (Tab::Seeds, vec![]));
    assert_ne!(s.nav_key(), State::default().nav_key(), "a new page is a history entry");
    // Back: the explorer's link, the same config: the run shown stays.
    let (u, _) = url::parse("v=1&preset=intro");
    let back = reduce(s.clone(), Action::Navigate(Box::new(u)));
    assert_eq!((back.tab, back.gen), (Tab::Explore, s.gen));
    assert_eq!(back.query(), "v=1&preset=intro");
    // A knob is not a history entry; a preset or a pin is.
    let knob = reduce(back.clone(), Action::Set { key: "hz", value: "1000".into() });
    assert_eq!(knob.nav_key(), back.nav_key());
    assert_ne!(reduce(back.clone(), Action::PinA).nav_key(), back.nav_key());
    assert_ne!(reduce(back.clone(), Action::LoadPreset("nohz-pipe".into())).nav_key(), back.nav_key());
    // Back to another config counts generations on, so a late answer is not taken for it.
    let (u, _) = url::parse("v=1&preset=nohz-pipe");
    let other = reduce(knob.clone(), Action::Navigate(Box::new(u)));
    assert!(other.gen > knob.gen && other.result.is_none());
    assert_eq!(other.preset, "nohz-pipe");
    // A pinned comparison comes back with a fresh pin id.
    let (u, _) = url::parse("v=1&preset=intro&compare=1&b.hz=1000");
    let cmp = reduce(knob.clone(), Action::Navigate(Box::new(u)));
    assert!(cmp.pin.as_ref().unwrap().id > knob.next_pin);
}

#[test]
fn a_bad_link_keeps_the_good_values_and_lists_the_rest_in_one_notice() {
    let s = from_link("v=1&preset=nope&hz=1000&cores=999&bogus=1");
    assert_eq!(s.config.hz, 1000);
    assert_eq!(s.config.cores, Config::default().cores);
    assert_eq!(s.notices.len(), 1);
    let n = &s.notices[0];
    assert!(n.text.contains("3 problems"), "{}", n.text);
    assert!(n.details.iter().any(|d| d.starts_with("preset=nope")));
    assert!(n.details.iter().any(|d| d.starts_with("cores=999")));
    assert!(n.details.iter().any(|d| d.starts_with("bogus=1")));
    assert_eq!(s.preset, "intro", "the preset whose config is the default one");
    assert_eq!(s.query(), "v=1&preset=intro&hz=1000", "the cleaned link");
}

#[test]
fn a_compare_link_pins_a_runs_it_then_switches_to_b() {
    let q = "v=1&preset=intro&compare=1&b.kernel=6.6";
    let s = Rc::new(from_link(q));
    let a = s.pin.as_ref().unwrap().config.clone();
    assert_eq!(s.config, a, "A runs first");
    assert_eq!(s.pending_b.as_ref().unwrap().policy, PolicyKind::Eevdf);
    assert_eq!(s.query(), q, "the link is stable while B waits");
    let s = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(4.0), preview: false });
    assert_eq!(s.pin.as_ref().unwrap().result.as_ref().unwrap().metrics.throughput, 4.0);
    assert_eq!(s.config.policy, PolicyKind::Eevdf, "B is current once A has its result");
    assert!(s.pending_b.is_none() && s.running());
    assert_eq!(s.query(), q);
    // A user change before A's result drops the link's B.
    let s = Rc::new(from_link(q));
    let s = reduce(s, Action::Set { key: "cores", value: "3".into() });
    assert!(s.pending_b.is_none());
}

#[test]
fn a_compare_links_a_is_not_final_with_its_preview() {
    // Issue 17: A's preview (cut by its event budget) was pinned as if final and B was
    // installed at once, so A's full run never came and the page said "Up to date".
    let q = "v=1&preset=nohz-pipe&compare=1&b.nohz_exit_reprograms=1";
    let s = Rc::new(from_link(q));
    let a = s.config.clone();
    let p = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(1.0), preview: true });
    assert!(p.pin.as_ref().unwrap().result.as_ref().is_some_and(|r| r.preview), "A is shown as a preview");
    assert_eq!(p.config, a, "A's preview is not A's result: B waits for A's full run");
    assert!(p.pending_b.is_some() && p.running(), "still running");
    assert_eq!(p.query(), q);
    let f = reduce(p.clone(), Action::RunDone { gen: p.gen, result: ok_run(2.0), preview: false });
    let pinned = f.pin.as_ref().unwrap().result.clone().unwrap();
    assert!(!pinned.preview && pinned.metrics.throughput == 2.0, "A's full run is A's result");
    assert_eq!(f.config.nohz_exit_reprograms, 1, "then B is current");
    assert!(f.pending_b.is_none() && f.running());
    let b = reduce(f.clone(), Action::RunDone { gen: f.gen, result: ok_run(3.0), preview: false });
    assert!(!b.running());
    assert_eq!(b.pin.as_ref().unwrap().result.as_ref().unwrap().metrics.throughput, 2.0, "A stays A");
}

#[test]
fn pinning_a_preview_still_gets_a_its_full_run() {
    let s = reduce(Rc::new(State::default()), Action::Set { key: "cores", value: "3".into() });
    let s = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(1.0), preview: true });
    let s = reduce(s, Action::PinA);
    assert!(s.pin.as_ref().unwrap().waiting() && s.comparing(), "not up to date while A is a preview");
    assert_eq!(s.pin_job(), None, "A is the current config: its full run is the current one");
    // B changes before A's full run came: that run is now stale, so A runs on its own.
    let s = reduce(s, Action::Set { key: "hz", value: "1000".into() });
    let (id, a) = s.pin_job().expect("A needs its own full run");
    assert_eq!((a.cores, a.hz), (3, 250));
    let b = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(5.0), preview: false });
    assert!(!b.running() && b.comparing(), "B is final, A is not: not up to date");
    assert!(b.pin.as_ref().unwrap().result.as_ref().unwrap().preview, "A's figures are still the preview");
    let stale = reduce(b.clone(), Action::PinDone { id: id + 1, result: ok_run(9.0) });
    assert!(Rc::ptr_eq(&stale, &b), "an answer for another pin is dropped");
    let done = reduce(b, Action::PinDone { id, result: ok_run(2.0) });
    let pin = done.pin.as_ref().unwrap();
    assert!(!pin.waiting() && pin.result.as_ref().unwrap().metrics.throughput == 2.0);
    assert!(!done.comparing() && done.pin_job().is_none());
    let late = reduce(done.clone(), Action::PinDone { id, result: ok_run(7.0) });
    assert!(Rc::ptr_eq(&late, &done), "A keeps its full run");
    // A that cannot run says so instead of waiting for ever.
    let s = reduce(done, Action::Set { key: "hz", value: "100".into() });
    let s = reduce(s, Action::PinA);
    assert!(s.pin.as_ref().unwrap().result.is_none() && s.pin_job().is_none());
    let s = reduce(s, Action::Set { key: "cores", value: "2".into() });
    let (id, _) = s.pin_job().unwrap();
    let e = reduce(s, Action::PinDone { id, result: Err("no".into()) });
    assert!(!e.comparing() && e.pin.as_ref().unwrap().error.as_deref() == Some("no"));
}

#[test]
fn imports_apply_all_their_changes_or_none() {
    use crate::ui::worker::execute::import;
    let s = Rc::new(State::default());
    let text = r#"{ "tasks": { "t": { "run": 1000, "timer": { "ref": "a", "period": 4000 } } }, "global": { "duration": 1 } }"#;
    let t = reduce(s.clone(), Action::Imported { name: "a.json".into(), result: import(text) });
    assert_eq!(t.config.workload, WorkloadKind::Rtapp);
    assert_eq!(t.config.duration, 1_000_000_000);
    assert!(t.gen > s.gen);
    assert!(t.notices.last().unwrap().text.starts_with("Imported a.json"));
    let bad = r#"{ "tasks": { "t": { "run": -1, "sleep": 10 } } }"#;
    let u = reduce(t.clone(), Action::Imported { name: "b.json".into(), result: import(bad) });
    assert_eq!((u.config.clone(), u.gen), (t.config.clone(), t.gen), "nothing changed");
    let msg = &u.notices.last().unwrap().text;
    assert!(msg.contains("Cannot import b.json") && msg.contains("tasks.t"), "{msg}");
}

/// A run whose trace was cut (`truncated`), with digest `digest`.
fn cut_run(digest: &str, start: u64) -> Result<RunResult, String> {
    let trace = Trace { truncated: true, start, end: 1_000_000, ..Trace::default() };
    Ok(RunResult { metrics: Metrics { digest: digest.into(), ..Default::default() }, trace })
}

#[test]
fn a_window_replaces_the_trace_of_the_same_full_run_only() {
    let s = reduce(Rc::new(State::default()), Action::Set { key: "cores", value: "3".into() });
    let g = s.gen;
    // Not for a preview: the full run's trace comes anyway.
    let p = reduce(s.clone(), Action::RunDone { gen: g, result: cut_run("d1", 0), preview: true });
    assert_eq!(reduce(p, Action::NeedWindow { from: 500 }).window_req, None);
    let f = reduce(s.clone(), Action::RunDone { gen: g, result: cut_run("d1", 0), preview: false });
    let w = reduce(f.clone(), Action::NeedWindow { from: 500 });
    assert_eq!(w.window_req, Some((g, 500)));
    // The answer replaces the trace (kept in view) and keeps the figures.
    let done = reduce(w.clone(), Action::WindowDone { gen: g, from: 500, result: cut_run("d1", 500) });
    let r = done.result.as_ref().unwrap();
    assert!(r.windowed && r.trace.start == 500 && !r.preview && done.window_req.is_none());
    // A different digest is another run: refused, with a notice.
    let odd = reduce(w.clone(), Action::WindowDone { gen: g, from: 500, result: cut_run("d2", 500) });
    assert_eq!(odd.result.as_ref().unwrap().trace.start, 0);
    assert!(odd.notices.last().is_some_and(|n| n.text.contains("different run")));
    // A stale answer (the config changed meanwhile) is dropped.
    let moved = reduce(w, Action::Set { key: "cores", value: "4".into() });
    let stale = reduce(moved.clone(), Action::WindowDone { gen: g, from: 500, result: cut_run("d1", 500) });
    assert_eq!(stale.result, moved.result);
    // A complete trace has nothing more to load.
    let whole = Ok(RunResult { metrics: Metrics::default(), trace: Trace::default() });
    let c = reduce(s.clone(), Action::RunDone { gen: g, result: whole, preview: false });
    assert_eq!(reduce(c, Action::NeedWindow { from: 500 }).window_req, None);
}

#[test]
fn a_tour_started_on_the_run_shown_goes_on_to_its_b() {
    // The e2e walk caught it: the tour pins A (the preset, already run and shown) and waits
    // for A's full run, which never came because the config had not changed.
    let s = Rc::new(State::default());
    assert_eq!(s.preset, "intro");
    let s = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(1.0), preview: false });
    let t = reduce(s.clone(), Action::Tour(Some(("intro".into(), 1))));
    let pin = t.pin.as_ref().expect("A is pinned");
    assert!(!pin.waiting(), "A has the run that was shown");
    assert!(t.pending_b.is_none() && t.config != pin.config, "B is the current config");
    assert!(t.gen > s.gen, "B gets runs of its own");
}

/// The controls' prop (`ui::ConfigView`) is equal while `ConfigKey` is: what a run's answer and
/// the other actions of a run leave alone keeps it, so the controls (~300 of the page's 524
/// elements) are not re-rendered by the answer's task nor by a preview's (issue 26).
#[test]
fn a_runs_answer_keeps_the_controls_key_and_a_config_or_preset_change_moves_it() {
    let s = Rc::new(State::default());
    let key = s.config_key();
    let p = RunProgress { now: 1, duration: 10, events: 3, max_events: 50 };
    let mut t = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(1.0), preview: true });
    for a in [
        Action::RunDone { gen: s.gen, result: ok_run(2.0), preview: false },
        Action::Progress { kind: JobKind::Live { gen: s.gen, preview: false }, progress: p },
        Action::Notice("a notice".into()),
        Action::PinA,
        Action::Dist(DistMode::CStates),
        Action::Tab(Tab::Seeds),
    ] {
        t = reduce(t, a);
        assert_eq!(t.config_key(), key, "a run's answer, its progress and the page's other state keep it");
    }
    let set = reduce(t.clone(), Action::Set { key: "cores", value: "3".into() });
    assert_ne!(set.config_key(), key, "a new config");
    let other = State::with_config(s.config.clone(), "nohz-pipe");
    assert_eq!((other.gen, &other.config), (s.gen, &s.config));
    assert_ne!(other.config_key(), key, "the same config under another preset's name");
    // The controls read the config through that prop only: the state's context changes
    // with every answer, and every reader of it is re-rendered then.
    let controls = include_str!("../explore/controls.rs");
    assert!(!controls.contains("use_context"), "the controls read `ConfigView`, no context");
}
