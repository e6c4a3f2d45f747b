//! What the page wants run, derived from the state (pure: no yew, no web-sys).
//!
//! `State::wanted_jobs` says, for the state as it is, which jobs the page needs: the
//! current config's runs, the sweep, the pinned A's full run, the further seeds, a job to
//! stop (a Cancel), a stretch of the timeline, decision records, a governor comparison and
//! the Experiments tables. Nothing in the state exists only to make a job run again (no
//! request counters): a job is asked for when its entry appears or changes identity.
//! `reconcile` compares what was asked for last with what is wanted now and tells a
//! `JobSink` (the runner, in `app::hooks::use_runner`) only what is new, in a fixed order.

use std::fmt::Debug;
use std::rc::Rc;

use crate::engine::config::Config;
use crate::ui::app::state::{Seeds, State, Tab};
use crate::ui::inspect::governors::GovCompare;
use crate::ui::sweep::model::Sweep;
use crate::ui::worker::scheduler::JobKind;

/// A job's payload with the identity that decides whether it is new: two `Keyed` are equal
/// when their keys are (a replica answered shrinks the list, and must not ask again for
/// the runs already given out).
#[derive(Clone, Debug)]
pub struct Keyed<K, V> {
    pub key: K,
    pub value: V,
}

impl<K: PartialEq, V> PartialEq for Keyed<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

/// The further seeds of the main figures, keyed by (generation, pin id, seeds).
pub type Replicas = Keyed<(u64, Option<u64>, u32), Vec<(JobKind, Config)>>;

/// Every job the page wants for a state. Equal when nothing new is wanted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wanted {
    /// The current config's preview and full run (None once the user cancelled it).
    pub live: Option<(u64, Config)>,
    /// The sweep (by its identity; its points are listed only when it is new, since this
    /// is derived on every render).
    pub sweep: Option<Keyed<u64, Rc<Sweep>>>,
    /// The pinned A's own full run (`State::pin_job`).
    pub pin: Option<(u64, Config)>,
    /// The further seeds of the main figures, for (generation, pin, seeds).
    pub replicas: Replicas,
    /// Jobs the user stopped (Cancel): the current config's full run, A's full run.
    pub stop: Vec<JobKind>,
    /// A stretch of the current run's trace: (gen, from) and the run's config.
    pub window: Option<Keyed<(u64, u64), Config>>,
    /// A governor comparison: (gen, serial).
    pub governors: Option<Keyed<(u64, u64), Rc<GovCompare>>>,
    /// Decision records: (gen, from, to, at) and the run's config.
    pub decisions: Option<Keyed<(u64, u64, u64, u64), Config>>,
    /// The wakeup behind a latency figure: (gen, percent, serial) and the run's config.
    pub wakeup: Option<Keyed<(u64, u8, u64), Config>>,
    /// The Experiments tables (their page is open and they are not loaded).
    pub seeds: bool,
}

impl Default for Replicas {
    fn default() -> Self {
        Keyed { key: (0, None, 0), value: Vec::new() }
    }
}

impl State {
    /// The jobs this state wants (see the module doc).
    pub fn wanted_jobs(&self) -> Wanted {
        let run_config = |gen: u64| self.result.as_ref().filter(|r| r.gen == gen).map(|r| r.config.clone());
        let mut stop = Vec::new();
        if self.cancelled_here() {
            stop.push(JobKind::Live { gen: self.gen, preview: false });
        }
        if let Some(p) = self.pin.as_ref().filter(|p| p.cancelled) {
            stop.push(JobKind::Pin { id: p.id });
        }
        Wanted {
            live: (!self.cancelled_here()).then(|| (self.gen, self.config.clone())),
            sweep: self.sweep.current.as_ref().map(|s| Keyed { key: s.gen, value: s.clone() }),
            pin: self.pin_job(),
            replicas: Keyed {
                key: (self.gen, self.pin.as_ref().map(|p| p.id), self.main_seeds),
                value: self.replica_jobs(),
            },
            stop,
            window: self
                .window_req
                .and_then(|(gen, from)| run_config(gen).map(|c| Keyed { key: (gen, from), value: c })),
            governors: self.inspect.gov_compare.as_ref().map(|c| Keyed { key: (c.gen, c.serial), value: c.clone() }),
            decisions: self.inspect.decisions_req.and_then(|k| run_config(k.0).map(|c| Keyed { key: k, value: c })),
            wakeup: self.inspect.wakeup_req.and_then(|k| run_config(k.0).map(|c| Keyed { key: k, value: c })),
            seeds: self.tab == Tab::Seeds && self.seeds == Seeds::NotLoaded,
        }
    }
}

/// Where the wanted jobs go: the page's runner (and its pool of sweep workers).
pub trait JobSink {
    /// The preview, then the full run, of `config` (generation `gen`).
    fn live(&mut self, gen: u64, config: &Config);
    fn sweep(&mut self, gen: u64, points: Vec<Config>);
    /// The pinned A's own full run, or none any more.
    fn pin(&mut self, job: Option<(u64, Config)>);
    fn replicas(&mut self, jobs: Vec<(JobKind, Config)>);
    /// Stop `kind` if it is in flight.
    fn cancel(&mut self, kind: JobKind);
    fn window(&mut self, gen: u64, config: &Config, from: u64);
    fn decisions(&mut self, gen: u64, config: &Config, range: (u64, u64, u64));
    /// The wakeup behind the latency figure at `percent` of `gen`'s run.
    fn wakeup(&mut self, gen: u64, config: &Config, percent: u8);
    fn governors(&mut self, gen: u64, configs: Vec<Config>);
    /// The Experiments tables (the sink marks them loading).
    fn seeds(&mut self);
}

/// Tells `sink` what `now` wants that `before` (what was asked for last) did not. The first
/// call gives `Wanted::default()` as `before`.
pub fn reconcile(before: &Wanted, now: &Wanted, sink: &mut impl JobSink) {
    if now.live != before.live {
        if let Some((gen, config)) = &now.live {
            sink.live(*gen, config);
        }
    }
    if now.sweep != before.sweep {
        if let Some(s) = &now.sweep {
            sink.sweep(s.key, s.value.point_configs());
        }
    }
    if now.pin != before.pin {
        sink.pin(now.pin.clone());
    }
    if now.replicas != before.replicas {
        sink.replicas(now.replicas.value.clone());
    }
    for kind in now.stop.iter().filter(|k| !before.stop.contains(k)) {
        sink.cancel(kind.clone());
    }
    if now.window != before.window {
        if let Some(w) = &now.window {
            sink.window(w.key.0, &w.value, w.key.1);
        }
    }
    if now.governors != before.governors {
        if let Some(g) = &now.governors {
            sink.governors(g.key.0, g.value.configs());
        }
    }
    if now.decisions != before.decisions {
        if let Some(d) = &now.decisions {
            let (gen, from, to, at) = d.key;
            sink.decisions(gen, &d.value, (from, to, at));
        }
    }
    if now.wakeup != before.wakeup {
        if let Some(w) = &now.wakeup {
            sink.wakeup(w.key.0, &w.value, w.key.1);
        }
    }
    if now.seeds && !before.seeds {
        sink.seeds();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::metrics::Metrics;
    use crate::engine::trace::Trace;
    use crate::ui::app::state::Action;
    use crate::ui::inspect::state::InspectAction;
    use crate::ui::worker::protocol::{RunProgress, RunResult};

    /// What a sink was told, as text.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl JobSink for Log {
        fn live(&mut self, gen: u64, _: &Config) {
            self.0.push(format!("live {gen}"));
        }
        fn sweep(&mut self, gen: u64, points: Vec<Config>) {
            self.0.push(format!("sweep {gen} ({} points)", points.len()));
        }
        fn pin(&mut self, job: Option<(u64, Config)>) {
            self.0.push(format!("pin {:?}", job.map(|j| j.0)));
        }
        fn replicas(&mut self, jobs: Vec<(JobKind, Config)>) {
            self.0.push(format!("replicas {}", jobs.len()));
        }
        fn cancel(&mut self, kind: JobKind) {
            self.0.push(format!("cancel {kind:?}"));
        }
        fn window(&mut self, gen: u64, _: &Config, from: u64) {
            self.0.push(format!("window {gen} {from}"));
        }
        fn decisions(&mut self, gen: u64, _: &Config, range: (u64, u64, u64)) {
            self.0.push(format!("decisions {gen} {range:?}"));
        }
        fn wakeup(&mut self, gen: u64, _: &Config, percent: u8) {
            self.0.push(format!("wakeup {gen} {percent}"));
        }
        fn governors(&mut self, gen: u64, configs: Vec<Config>) {
            self.0.push(format!("governors {gen} ({})", configs.len()));
        }
        fn seeds(&mut self) {
            self.0.push("seeds".into());
        }
    }

    /// Steps through `actions` from `s` as the page does: one reconcile per new state.
    /// Returns what each step asked for.
    fn walk(s: Rc<State>, actions: Vec<Action>) -> (Rc<State>, Vec<Vec<String>>) {
        let mut before = Wanted::default();
        let mut log = Log::default();
        reconcile(&before, &s.wanted_jobs(), &mut log);
        let mut steps = vec![std::mem::take(&mut log.0)];
        before = s.wanted_jobs();
        let mut s = s;
        for a in actions {
            s = s.reduce(a);
            let now = s.wanted_jobs();
            if now != before {
                reconcile(&before, &now, &mut log);
                before = now;
            }
            steps.push(std::mem::take(&mut log.0));
        }
        (s, steps)
    }

    fn run(digest: &str, truncated: bool) -> Result<RunResult, String> {
        let trace = Trace { truncated, end: 1_000_000, ..Trace::default() };
        Ok(RunResult { metrics: Metrics { digest: digest.into(), ..Default::default() }, trace })
    }

    #[test]
    fn the_first_state_asks_for_its_runs_and_its_sweep_once() {
        let s = Rc::new(State::default());
        let sw = s.sweep.current.clone().unwrap();
        let (_, steps) = walk(s.clone(), vec![Action::Dist(crate::ui::app::state::DistMode::CStates)]);
        let sweep = format!("sweep {} ({} points)", sw.gen, sw.jobs());
        assert_eq!(steps[0], [format!("live {}", s.gen), sweep, "replicas 0".into()], "no pin: nothing to forget");
        assert!(steps[1].is_empty(), "a view change runs nothing");
    }

    #[test]
    fn a_knob_asks_for_the_new_config_and_a_new_sweep_only_when_it_is_replanned() {
        let s = Rc::new(State::default());
        let swept = s.sweep.key().unwrap();
        let (s2, steps) = walk(
            s.clone(),
            vec![
                Action::Set { key: swept, value: s.config.get(swept).unwrap() },
                Action::Set { key: "cores", value: "3".into() },
            ],
        );
        assert!(steps[1].is_empty(), "the same value is no change");
        let sw = s2.sweep.current.as_ref().unwrap();
        assert_eq!(steps[2][0], format!("live {}", s2.gen));
        assert!(steps[2].contains(&format!("sweep {} ({} points)", sw.gen, sw.jobs())), "{:?}", steps[2]);
    }

    #[test]
    fn cancel_stops_the_run_once_and_run_in_full_asks_for_it_again() {
        let s = Rc::new(State::default()).reduce(Action::Set { key: "cores", value: "3".into() });
        let gen = s.gen;
        let s = s.reduce(Action::RunDone { gen, result: run("d", false), preview: true });
        let full = JobKind::Live { gen, preview: false };
        let p = RunProgress { now: 1, duration: 10, events: 1, max_events: 10 };
        let (_, steps) = walk(
            s,
            vec![
                Action::Progress { kind: full.clone(), progress: p },
                Action::Cancel,
                Action::Cancel,
                Action::RunAgain,
                Action::Progress { kind: full.clone(), progress: p },
                Action::Cancel,
            ],
        );
        assert!(steps[1].is_empty());
        assert_eq!(steps[2], [format!("cancel {full:?}")]);
        assert!(steps[3].is_empty(), "a second press has nothing to stop");
        assert_eq!(steps[4], [format!("live {gen}")], "run in full: the preview and the full run again");
        assert_eq!(steps[6], [format!("cancel {full:?}")], "each cancel is heard");
    }

    #[test]
    fn a_pinned_as_run_is_asked_for_and_its_cancel_stops_it() {
        let s = Rc::new(State::default()).reduce(Action::PinA);
        let id = s.pin.as_ref().unwrap().id;
        let (s, steps) = walk(s, vec![Action::Set { key: "hz", value: "1000".into() }]);
        assert!(steps[1].contains(&format!("pin Some({id})")), "{:?}", steps[1]);
        let kind = JobKind::Pin { id };
        let p = RunProgress { now: 1, duration: 10, events: 1, max_events: 10 };
        let (_, steps) =
            walk(s, vec![Action::Progress { kind: kind.clone(), progress: p }, Action::Cancel, Action::RunAgain]);
        assert_eq!(steps[2], ["pin None".to_string(), format!("cancel {kind:?}")], "A is forgotten, then stopped");
        assert_eq!(steps[3], [format!("pin Some({id})")]);
    }

    #[test]
    fn further_seeds_are_asked_for_once_per_config_not_per_answer() {
        let s = Rc::new(State::default());
        let gen = s.gen;
        let rep = |index| Action::ReplicaDone { a: None, gen, index, result: Ok(Metrics::default()) };
        let (_, steps) = walk(s, vec![Action::MainSeeds(3), rep(1), rep(2), Action::MainSeeds(2)]);
        assert_eq!(steps[1], ["replicas 2"]);
        assert!(steps[2].is_empty() && steps[3].is_empty(), "an answer does not ask again: {steps:?}");
        assert_eq!(steps[4], ["replicas 1"]);
    }

    #[test]
    fn windows_decisions_governors_and_tables_are_asked_for_when_they_appear() {
        let s = Rc::new(State::default());
        let gen = s.gen;
        let s = s.reduce(Action::RunDone { gen, result: run("d", true), preview: false });
        let (_, steps) = walk(
            s,
            vec![
                Action::NeedWindow { from: 500 },
                Action::WindowDone { gen, from: 500, result: run("d", true) },
                Action::NeedWindow { from: 500 },
                Action::Inspect(InspectAction::NeedDecisions { from: 1, to: 2, at: 3 }),
                Action::Inspect(InspectAction::CompareGovernors),
                Action::Inspect(InspectAction::CompareGovernors),
                Action::Tab(Tab::Seeds),
                Action::Seeds(crate::ui::app::state::SeedsAction::Loading),
            ],
        );
        assert_eq!(steps[1], [format!("window {gen} 500")]);
        assert!(steps[2].is_empty());
        assert_eq!(steps[3], [format!("window {gen} 500")], "the same stretch again after its answer");
        assert_eq!(steps[4], [format!("decisions {gen} (1, 2, 3)")]);
        assert!(steps[5][0].starts_with(&format!("governors {gen}")));
        assert_eq!(steps[6].len(), 1, "each click runs the comparison again");
        assert_eq!(steps[7], ["seeds"]);
        assert!(steps[8].is_empty(), "loading: not asked again");
    }
}
