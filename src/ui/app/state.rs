//! The app's state, composed (pure: no yew, no web-sys). Each feature owns its slice and its
//! `reduce`: the sweep (`sweep::state`), the inspector (`inspect::state`), the tour
//! (`tour::state`), the Experiments tables (`explore::seeds`) and the notices
//! (`common::notices`). This top level keeps what crosses features: the config and its
//! generation (a config change bumps it and asks the sweep to follow), the current run and
//! the pinned A, the link's views, and the actions that touch several slices (a preset, a
//! link, an import, Back and Forward). What runs is not stored here: `app::jobs` derives it
//! from the state (`State::wanted_jobs`).
//!
//! Invalid input never reaches here as a change: controls validate with `Config::set` on a
//! copy and show the message inline; `Action::Set` re-validates and ignores a bad value.

use std::rc::Rc;

use crate::engine::config::{key_doc, Config, PolicyKind, WorkloadKind};
use crate::engine::presets::{preset, PRESETS};
use crate::share::url::{UrlState, View};

use crate::ui::common::notices::Notices;
use crate::ui::explore::replicas::{replica_config, Reps};
use crate::ui::inspect::state::{InspectAction, InspectState, Run};
use crate::ui::sweep::model::{sweep_key, sweepable};
use crate::ui::sweep::state::{SweepAction, SweepState};
use crate::ui::tour::state::TourState;
use crate::ui::worker::protocol::{Imported, RunProgress, RunResult};
use crate::ui::worker::scheduler::JobKind;

pub use crate::ui::app::run::{Pinned, RunView};
pub use crate::ui::common::notices::Notice;
pub use crate::ui::explore::seeds::{Seeds, SeedsAction};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DistMode {
    Latency,
    CStates,
}

/// What makes a history entry (`State::nav_key`): preset, page, views, pin id, tour step.
pub type NavKey = (String, Tab, Vec<View>, Option<u64>, Option<(String, usize)>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Explore,
    Seeds,
}

/// The sweep's metric when none is picked: the preset's own (`Preset::metric`) while the
/// config runs the preset's workload, else the main result (another workload's figures
/// are not what the preset is about).
pub fn default_sweep_metric(preset_name: &str, config: &crate::engine::Config) -> &'static str {
    match preset(preset_name) {
        Some(p) if (p.config)().workload == config.workload => p.metric,
        _ => "throughput",
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub config: Config,
    /// The preset the config came from.
    pub preset: String,
    /// Bumps on every change of `config`.
    pub gen: u64,
    /// The knob changed last (the sweep follows it when it can be swept).
    pub last_key: Option<&'static str>,
    pub result: Option<Rc<RunView>>,
    pub run_error: Option<String>,
    pub pin: Option<Rc<Pinned>>,
    /// A link's B config, installed once A (pinned) has its full result: the runner runs
    /// one config at a time, so A runs first, then B becomes the current config.
    pub pending_b: Option<Config>,
    /// How far the long run in flight has come (the current config's full run or the
    /// pinned A's), while it reports progress.
    pub progress: Option<(JobKind, RunProgress)>,
    /// The generation whose full run the user cancelled: its preview stays, labelled so.
    pub cancelled: Option<u64>,
    /// The stretch of the current run's trace asked for (generation, from ns) and not yet
    /// in: a timeline panned past what the live trace kept (`timeline::window`).
    pub window_req: Option<(u64, u64)>,
    /// The main figures (metrics panel, A/B table) are the mean of this many seeds
    /// (`seeds=N`); 1 is the plain run.
    pub main_seeds: u32,
    /// The current config's runs with the further seeds (`replicas`), for this generation.
    pub reps: Option<Rc<Reps>>,
    /// The simulation worker could not start or died (`protocol::WorkerDown`): the status line
    /// says so instead of a run's state. A crash is forgotten at the next config (a new
    /// worker runs it), and one in an older config's job is only a notice; a worker that
    /// cannot start stays so until the page is reloaded.
    pub worker_down: Option<crate::ui::worker::protocol::WorkerDown>,
    pub dist: DistMode,
    pub tab: Tab,
    /// Embedded (`?embed=1`): only `views` are shown, with minimal chrome.
    pub embed: bool,
    /// The timeline's visible stretch (ns), as the timeline last reported it or a link
    /// opened it (`t0`, `t1`); None: the whole run. In the link, not a history entry.
    pub stretch: Option<(u64, u64)>,
    /// The views a link opened (`view=`), kept so the link round-trips; empty = default.
    /// `View::Seeds` is never here: it is `tab` (`Tab::Seeds`).
    pub views: Vec<View>,
    /// The features' slices.
    pub sweep: SweepState,
    pub inspect: InspectState,
    pub tour: TourState,
    pub seeds: Seeds,
    pub notices: Notices,
    pub(super) next_pin: u64,
}

/// What the controls show depends on: the config's generation (`State::gen` bumps on every
/// change of `config`, see `set_config`) and the preset's name (re-choosing a preset with the
/// same config changes only the name). `ui::ConfigCtx` compares these.
#[derive(Clone, PartialEq, Debug)]
pub struct ConfigKey {
    gen: u64,
    preset: String,
}

impl Default for State {
    fn default() -> Self {
        let p = &PRESETS[0];
        State::with_config((p.config)(), p.name)
    }
}

impl State {
    pub fn with_config(config: Config, preset: &str) -> Self {
        let mut s = State {
            config,
            preset: preset.to_string(),
            gen: 1,
            last_key: None,
            result: None,
            run_error: None,
            pin: None,
            pending_b: None,
            progress: None,
            cancelled: None,
            window_req: None,
            main_seeds: 1,
            reps: None,
            worker_down: None,
            dist: DistMode::Latency,
            tab: Tab::Explore,
            embed: false,
            stretch: None,
            views: Vec::new(),
            sweep: SweepState::default(),
            inspect: InspectState::default(),
            tour: TourState::default(),
            seeds: Seeds::NotLoaded,
            notices: Notices::default(),
            next_pin: 0,
        };
        // The sweep starts on the knob the preset's experiment is about.
        s.last_key = preset_knob(&s.preset);
        s.sweep.replan(&s.config, sweep_key(&s.config, s.last_key), None);
        s
    }

    /// The current config's full run, once it is in.
    pub fn full_run(&self) -> Option<&Rc<RunView>> {
        self.result.as_ref().filter(|r| r.gen == self.gen && !r.preview)
    }

    /// What the inspector's actions read of the current run.
    fn run_for_inspect(&self) -> Run<'_> {
        let full = self.full_run();
        Run { gen: self.gen, config: &self.config, full: full.map(|r| &r.metrics), trace: full.map(|r| &*r.trace) }
    }

    /// The metric the sweep plots: the view's, else `default_sweep_metric`.
    pub fn sweep_metric(&self) -> String {
        self.sweep.view.y.clone().unwrap_or_else(|| default_sweep_metric(&self.preset, &self.config).to_string())
    }

    /// True while the shown result is for an older config or only its preview.
    pub fn running(&self) -> bool {
        self.result.as_ref().map(|r| (r.gen, r.preview)) != Some((self.gen, false))
            && self.run_error.is_none()
            && self.cancelled != Some(self.gen)
    }

    /// Whether the user cancelled the current config's full run (its preview is shown).
    pub fn cancelled_here(&self) -> bool {
        self.cancelled == Some(self.gen)
    }

    /// The progress of the current config's full run, or of the pinned A's, if it is the
    /// one reporting.
    pub fn shown_progress(&self) -> Option<(JobKind, RunProgress)> {
        let (kind, p) = self.progress.clone()?;
        let current = match &kind {
            JobKind::Live { gen, preview: false } => *gen == self.gen,
            JobKind::Pin { id } => self.pin.as_ref().is_some_and(|a| a.id == *id && a.waiting()),
            _ => false,
        };
        current.then_some((kind, p))
    }

    /// True while the comparison is not final: A (pinned) has no full result yet, or a
    /// link's B still waits for it. The page is up to date only when neither this nor
    /// `running` holds.
    pub fn comparing(&self) -> bool {
        self.pending_b.is_some() || self.pin.as_ref().is_some_and(|p| p.waiting())
    }

    /// The pinned A that needs a run of its own: it has no full result and is not the
    /// current config (whose runs fill A while they are the same). Its id and config.
    pub fn pin_job(&self) -> Option<(u64, Config)> {
        let p = self.pin.as_ref()?;
        (p.waiting() && p.config != self.config).then(|| (p.id, p.config.clone()))
    }

    /// Pins `config` as A with what is known of its run so far.
    pub(super) fn pin(&mut self, config: Config, result: Option<Rc<RunView>>) {
        self.next_pin += 1;
        // A pinned from the current config keeps the further seeds it already has.
        let reps = self.shown_reps().filter(|r| r.config == config).map(|r| {
            let mut r = (**r).clone();
            r.owner = self.next_pin;
            Rc::new(r)
        });
        self.pin = Some(Rc::new(Pinned { id: self.next_pin, config, result, error: None, cancelled: false, reps }));
    }

    /// The runs the mean of `main_seeds` still needs: B's (the current config) and A's
    /// (pinned), each with its job and config, B's first.
    pub fn replica_jobs(&self) -> Vec<(JobKind, Config)> {
        if self.main_seeds <= 1 {
            return Vec::new();
        }
        let fresh = |owner: u64, c: &Config| Reps::new(owner, c, self.main_seeds);
        let missing = |reps: Option<&Rc<Reps>>, owner: u64, c: &Config| {
            let reps = reps.filter(|r| r.owner == owner && r.seeds() == self.main_seeds as usize);
            reps.map(|r| r.missing()).unwrap_or_else(|| fresh(owner, c).missing())
        };
        let mut jobs: Vec<(JobKind, Config)> = missing(self.reps.as_ref(), self.gen, &self.config)
            .into_iter()
            .map(|index| (JobKind::Replica { a: None, gen: self.gen, index }, replica_config(&self.config, index)))
            .collect();
        // While A is the current config, B's runs are A's too (`Action::ReplicaDone`).
        if let Some(p) = self.pin.as_ref().filter(|p| p.error.is_none() && p.config != self.config) {
            jobs.extend(missing(p.reps.as_ref(), p.id, &p.config).into_iter().map(|index| {
                (JobKind::Replica { a: Some(p.id), gen: self.gen, index }, replica_config(&p.config, index))
            }));
        }
        jobs
    }

    /// B's further-seed runs, when they belong to the current config and count.
    pub fn shown_reps(&self) -> Option<&Rc<Reps>> {
        let n = self.main_seeds as usize;
        self.reps.as_ref().filter(|r| n > 1 && r.owner == self.gen && r.seeds() == n)
    }

    /// A's further-seed runs, when they count.
    pub fn pin_reps(&self) -> Option<&Rc<Reps>> {
        let n = self.main_seeds as usize;
        let p = self.pin.as_ref()?;
        p.reps.as_ref().filter(|r| n > 1 && r.owner == p.id && r.seeds() == n)
    }

    /// The key of what the controls show (`ConfigKey`).
    pub fn config_key(&self) -> ConfigKey {
        ConfigKey { gen: self.gen, preset: self.preset.clone() }
    }

    /// Installs a new config: bumps the generation and keeps or replans the sweep.
    pub(super) fn set_config(&mut self, config: Config, key: Option<&'static str>) {
        if config == self.config {
            return;
        }
        self.config = config;
        self.gen += 1;
        self.run_error = None;
        self.worker_down = self.worker_down.take().filter(|w| !w.crashed);
        self.cancelled = None;
        if matches!(self.progress, Some((JobKind::Live { .. }, _))) {
            self.progress = None;
        }
        if key.is_some() {
            self.last_key = key;
        }
        self.sweep.follow(&self.config, self.last_key);
    }
}

/// Everything that changes the state: the features' own actions, wrapped, and those that
/// cross features.
#[allow(clippy::large_enum_variant)] // actions are moved once, not stored
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Set one key from its text (ignored when invalid).
    Set {
        key: &'static str,
        value: String,
    },
    LoadPreset(String),
    /// Load a preset plus the keys of one seed-table row, shortened as the page's quick
    /// tables run it (`validate::quicken`), so its figures are the table's.
    LoadRow {
        preset: String,
        sets: Vec<(String, String)>,
    },
    PinA,
    Unpin,
    /// The current run's timeline was panned past its recorded stretch: record it again
    /// from `from` ns (ignored unless the run shown is the current config's full run).
    NeedWindow {
        from: u64,
    },
    /// The current run's trace from `from` on (`protocol::Request::Window`).
    WindowDone {
        gen: u64,
        from: u64,
        result: Result<RunResult, String>,
    },
    RunDone {
        gen: u64,
        result: Result<RunResult, String>,
        /// The quick capped run that comes before the full one.
        preview: bool,
    },
    /// The full run of the pinned A with this `Pinned::id` (see `State::pin_job`).
    PinDone {
        id: u64,
        result: Result<RunResult, String>,
    },
    /// A long run in flight reports how far it has come.
    Progress {
        kind: JobKind,
        progress: RunProgress,
    },
    /// Stop the long run that reports progress (the figures stay a labelled preview).
    Cancel,
    /// Run in full what was cancelled.
    RunAgain,
    Notice(String),
    /// The simulation worker could not start or died (the runner says why), in `job` if it
    /// died in one.
    WorkerDown {
        down: crate::ui::worker::protocol::WorkerDown,
        job: Option<JobKind>,
    },
    /// An imported file as the worker read it (`name` is the file name,
    /// `worker::execute::import`): a tour opens at its first step; an rt-app workload's
    /// config changes apply all together or not at all; notices say what was approximated
    /// or what is wrong.
    Imported {
        name: String,
        result: crate::ui::worker::protocol::Imported,
    },
    Dismiss(u64),
    /// The timeline's visible stretch changed (None: it shows the whole run).
    Stretch(Option<(u64, u64)>),
    Dist(DistMode),
    Tab(Tab),
    /// Set several keys at once (a heatmap cell: both swept knobs), keeping the sweep.
    SetCell(Vec<(&'static str, String)>),
    /// Back or Forward: go to the state this link describes (`State::navigate`).
    Navigate(Box<UrlState>),
    /// Open a guided tour at a step (1-based): its configs are loaded (A the preset, B the
    /// step's knobs); `None` closes the tour and keeps the configs.
    Tour(Option<(String, usize)>),
    /// The reader's answer to the open step.
    TourAnswer(String),
    /// Show the main figures as the mean of this many seeds (1: the plain run).
    MainSeeds(u32),
    /// A further-seed run of B (`a` None, config generation `gen`) or of the pinned A
    /// (`a` its pin id): replica `index` (1-based, seed + index).
    ReplicaDone {
        a: Option<u64>,
        gen: u64,
        index: usize,
        result: Result<crate::engine::Metrics, String>,
    },
    /// The sweep's own actions (`sweep::state`).
    Sweep(SweepAction),
    /// The inspector's own actions (`inspect::state`).
    Inspect(InspectAction),
    /// The Experiments tables' own actions (`explore::seeds`).
    Seeds(SeedsAction),
}

impl State {
    /// The reducer (`app` makes it yew's `Reducible`; this file names no yew, so it is
    /// tested natively as it is): the features' actions go to their slices, the rest
    /// is handled here.
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if let Action::Stretch(st) = action {
            // The same stretch again (A and B's linked timelines both report): no render.
            return if self.stretch == st { self } else { Rc::new(State { stretch: st, ..(*self).clone() }) };
        }
        let mut s = (*self).clone();
        // A link's B config waits for A's run; any change by the user comes first.
        if matches!(
            action,
            Action::Set { .. } | Action::LoadPreset(_) | Action::LoadRow { .. } | Action::PinA | Action::Unpin
        ) {
            s.pending_b = None;
        }
        match action {
            Action::Set { key, value } => {
                let mut c = s.config.clone();
                if c.set(key, &value).is_err() {
                    return self;
                }
                s.set_config(c, Some(key));
            }
            Action::LoadPreset(name) => match preset(&name) {
                Some(p) => {
                    s.preset = p.name.to_string();
                    // A new preset's sweep plots its own main result, not the last one's pick.
                    s.sweep.view.y = None;
                    let config = (p.config)();
                    // Re-choosing the config already shown changes nothing: replanning the
                    // sweep without a new generation would leave it empty, never run.
                    if config != s.config {
                        s.last_key = Some(p.knob).filter(|k| sweepable(k));
                        s.sweep.current = None; // a new preset starts from its own knob
                        s.set_config(config, None);
                        if s.sweep.current.is_none() {
                            s.sweep.replan(&s.config, sweep_key(&s.config, s.last_key), None);
                        }
                    }
                }
                None => s.notices.push(format!("No preset named '{name}'.")),
            },
            Action::LoadRow { preset: name, sets } => match preset(&name) {
                Some(p) => {
                    let mut full = (p.config)();
                    for (k, v) in &sets {
                        if let Err(e) = full.set(k, v) {
                            s.notices.push(format!("Row setting skipped: {e}"));
                        }
                    }
                    // The page's tables are the quick ones: open the run the row shows.
                    let c = crate::engine::validate::quicken(full.clone());
                    let shortened: Vec<String> = c.diff(&full).iter().map(|(k, v)| format!("{k}={v}")).collect();
                    if !shortened.is_empty() {
                        let back: Vec<String> = full.diff(&c).iter().map(|(k, v)| format!("{k}={v}")).collect();
                        s.notices.push(format!(
                            "Loaded as the quick table ran it ({}); set {} for the full experiment.",
                            shortened.join(", "),
                            back.join(", ")
                        ));
                    }
                    s.preset = p.name.to_string();
                    s.tab = Tab::Explore;
                    s.last_key = sets.iter().rev().find_map(|(k, _)| key_doc(k).map(|d| d.key));
                    s.set_config(c, None);
                }
                None => s.notices.push(format!("The table names a preset '{name}' that does not exist.")),
            },
            Action::PinA => {
                // A may start with the current preview; its full run still comes, from the
                // current run or (once B differs) from `pin_job`.
                let result = s.result.clone().filter(|r| r.gen == s.gen);
                s.pin(s.config.clone(), result);
            }
            Action::Unpin => s.pin = None,
            Action::NeedWindow { from } => {
                let full = s.result.as_ref().filter(|r| r.gen == s.gen && !r.preview);
                if full.is_some_and(|r| crate::ui::timeline::window::is_partial(&r.trace)) {
                    s.window_req = Some((s.gen, from));
                }
            }
            Action::WindowDone { gen, from, result } => {
                if s.window_req == Some((gen, from)) {
                    s.window_req = None;
                }
                let Some(view) = s.result.as_mut().filter(|r| r.gen == gen && gen == s.gen && !r.preview) else {
                    return self; // stale: another config, or no full run to put it in
                };
                match result {
                    // The same config's run again: its figures must be the same ones.
                    Ok(r) if r.metrics.digest == view.metrics.digest => {
                        let view = Rc::make_mut(view);
                        view.trace = Rc::new(r.trace);
                        view.windowed = true;
                        s.inspect.window_arrived(gen, &view.trace, &mut s.notices);
                        if let Some(from) = s.inspect.take_window_ask() {
                            s.window_req = Some((gen, from));
                        }
                    }
                    Ok(_) => s.notices.push(
                        "The timeline's stretch came from a different run (its digest differs); it was not shown.",
                    ),
                    Err(e) => s.notices.push(format!("The timeline could not load that stretch: {e}")),
                }
            }
            Action::RunDone { gen, result, preview } => {
                let full_shown = s.result.as_ref().is_some_and(|r| r.gen == gen && !r.preview);
                if gen != s.gen || (preview && full_shown) {
                    return self; // stale, or a preview after its full run
                }
                if !preview && matches!(s.progress, Some((JobKind::Live { .. }, _))) {
                    s.progress = None;
                }
                match result {
                    Ok(r) => {
                        let view = Rc::new(RunView {
                            gen,
                            config: s.config.clone(),
                            metrics: r.metrics,
                            trace: Rc::new(r.trace),
                            preview,
                            windowed: false,
                        });
                        // The current config's runs are A's while they are the same config, and
                        // never replace A's full result with a preview.
                        if let Some(pin) = &mut s.pin {
                            if pin.waiting() && pin.config == s.config {
                                Rc::make_mut(pin).result = Some(view.clone());
                            }
                        }
                        s.result = Some(view);
                        s.run_error = None;
                        // A link's B waits for A's full run: a preview of A is not A's result.
                        if !preview {
                            if let Some(b) = s.pending_b.take() {
                                s.set_config(b, None);
                            }
                        }
                    }
                    Err(e) => {
                        if let Some(pin) = &mut s.pin {
                            if pin.waiting() && pin.config == s.config {
                                Rc::make_mut(pin).error = Some(e.clone());
                            }
                        }
                        s.run_error = Some(e);
                        if let Some(b) = s.pending_b.take() {
                            s.set_config(b, None);
                        }
                    }
                }
            }
            Action::PinDone { id, result } => {
                if matches!(s.progress, Some((JobKind::Pin { id: p }, _)) if p == id) {
                    s.progress = None;
                }
                let Some(pin) = &mut s.pin else { return self };
                if pin.id != id || !pin.waiting() {
                    return self; // an earlier A's, or A already has its full run
                }
                let pin = Rc::make_mut(pin);
                match result {
                    Ok(r) => {
                        pin.result = Some(Rc::new(RunView {
                            gen: s.gen,
                            config: pin.config.clone(),
                            metrics: r.metrics,
                            trace: Rc::new(r.trace),
                            preview: false,
                            windowed: false,
                        }))
                    }
                    Err(e) => pin.error = Some(e),
                }
            }
            Action::Progress { kind, progress } => {
                s.progress = Some((kind, progress));
                if s.shown_progress().is_none() {
                    return self; // a stale job's report: nothing to show
                }
            }
            Action::Cancel => {
                let Some((kind, _)) = s.shown_progress() else { return self };
                s.progress = None;
                match &kind {
                    JobKind::Pin { .. } => {
                        if let Some(pin) = &mut s.pin {
                            Rc::make_mut(pin).cancelled = true;
                        }
                    }
                    _ => s.cancelled = Some(s.gen),
                }
            }
            Action::RunAgain => {
                s.cancelled = None;
                if let Some(pin) = &mut s.pin {
                    if pin.cancelled {
                        Rc::make_mut(pin).cancelled = false;
                    }
                }
            }
            Action::Notice(text) => s.notices.push(text),
            // A crash in a job of an older config than the one shown (its answer would
            // have been dropped) is not this config's state: the status line goes on with
            // this config's runs, which the new worker takes, and a notice says it happened.
            Action::WorkerDown { down, job } => match job.and_then(|j| j.view_gen()) {
                Some(gen) if down.crashed && gen != s.gen => s.notices.push(down.text),
                _ => s.worker_down = Some(down),
            },
            Action::Imported { name, result: Imported::Tour(r) } => match r {
                Err(e) => s.notices.push(format!("Cannot import the tour {name}: {e}. Nothing was changed.")),
                Ok(t) => {
                    let open = t.name.clone();
                    s.notices.push(format!("Imported the tour '{}' from {name} ({} steps).", t.title, t.steps.len()));
                    s.tour.custom = Some(Rc::new(t));
                    return Rc::new(s).reduce(Action::Tour(Some((open, 1))));
                }
            },
            Action::Imported { name, result: Imported::Rtapp(r) } => match r {
                Err(e) => s.notices.push(format!("Cannot import {name}: {e}. Nothing was changed.")),
                Ok(r) => {
                    let mut c = s.config.clone();
                    for (k, v) in &r.config_changes {
                        if let Err(e) = c.set(k, v) {
                            s.notices
                                .push(format!("Cannot import {name}: {k}={v}: {}. Nothing was changed.", e.message));
                            return Rc::new(s);
                        }
                    }
                    let changed: Vec<String> = r.config_changes.iter().map(|(k, _)| k.clone()).collect();
                    let text = format!("Imported {name} (set {}).", changed.join(", "));
                    s.last_key = None;
                    s.pending_b = None;
                    s.set_config(c, None);
                    s.notices.push_with(text, r.notices);
                }
            },
            Action::Dismiss(id) => s.notices.dismiss(id),
            Action::Dist(d) => s.dist = d,
            Action::Stretch(_) => {}
            Action::Tab(t) => s.tab = t,
            Action::SetCell(sets) => {
                let mut c = s.config.clone();
                if sets.iter().any(|(k, v)| c.set(k, v).is_err()) {
                    return self;
                }
                s.pending_b = None;
                s.last_key = s.sweep.key();
                s.set_config(c, None);
            }
            Action::Navigate(u) => return Rc::new(s.navigate(&u)),
            Action::Tour(None) => s.tour.close(),
            Action::Tour(Some((name, step))) => {
                let Some(t) = s.tour.find(&name) else {
                    s.notices.push(format!("No tour named '{name}'."));
                    return Rc::new(s);
                };
                let step = step.clamp(1, t.steps.len());
                let (a, b) = t.steps[step - 1].configs(&t);
                let u = UrlState {
                    preset: Some(t.preset.clone()),
                    config: a,
                    embed: s.embed,
                    views: s.views.clone(),
                    compare: b,
                    sweep: None,
                    tour: None,
                    sweep_view: s.sweep.view.clone(),
                    main_seeds: (s.main_seeds > 1).then_some(s.main_seeds),
                    stretch: None,
                };
                let mut n = s.navigate(&u);
                n.tour.open = Some((t.name.clone(), step));
                n.tour.reply = None;
                n.tour.custom = s.tour.custom.clone();
                return Rc::new(n);
            }
            Action::TourAnswer(reply) => s.tour.answer(reply),
            Action::MainSeeds(n) => s.main_seeds = n.clamp(1, crate::ui::explore::replicas::MAX_SEEDS),
            Action::Sweep(a) => {
                if !s.sweep.reduce(a, &self.config) {
                    return self;
                }
            }
            Action::Inspect(a) => {
                let run = self.run_for_inspect();
                if !s.inspect.reduce(a, run, &mut s.notices) {
                    return self;
                }
                if let Some(from) = s.inspect.take_window_ask() {
                    s.window_req = Some((s.gen, from));
                }
            }
            Action::Seeds(a) => s.seeds.reduce(a),
            Action::ReplicaDone { a: None, gen, index, result } => {
                if gen != s.gen || s.main_seeds <= 1 {
                    return self;
                }
                let n = s.main_seeds;
                let reps = match s.reps.take() {
                    Some(r) if r.owner == gen && r.seeds() == n as usize => r,
                    _ => Rc::new(Reps::new(gen, &s.config, n)),
                };
                let mut reps = Rc::unwrap_or_clone(reps);
                reps.put(index, result.clone());
                s.reps = Some(Rc::new(reps));
                // The current config's runs are A's while they are the same config.
                if let Some(pin) = s.pin.as_ref().filter(|p| p.config == s.config).map(|p| p.id) {
                    return Rc::new(s).reduce(Action::ReplicaDone { a: Some(pin), gen, index, result });
                }
            }
            Action::ReplicaDone { a: Some(id), index, result, .. } => {
                let n = s.main_seeds;
                let Some(pin) = s.pin.as_mut().filter(|p| p.id == id && n > 1) else { return self };
                let pin = Rc::make_mut(pin);
                let mut reps = match pin.reps.take() {
                    Some(r) if r.owner == id && r.seeds() == n as usize => Rc::unwrap_or_clone(r),
                    _ => Reps::new(id, &pin.config, n),
                };
                reps.put(index, result);
                pin.reps = Some(Rc::new(reps));
            }
        }
        Rc::new(s)
    }
}

/// Whether `a` and `b` differ in no key but `key`.
pub fn same_except(a: &Config, b: &Config, key: &str) -> bool {
    a.diff(b).iter().all(|(k, _)| *k == key)
}

/// The knob a preset's experiment is about, if the sweep can vary it.
pub fn preset_knob(name: &str) -> Option<&'static str> {
    preset(name).map(|p| p.knob).filter(|k| sweepable(k))
}

/// Why a key is disabled for this config (`(not used by SD)`), or None when it applies.
pub fn disabled_note(config: &Config, key: &str) -> Option<String> {
    if config.applies(key) != Ok(false) {
        return None;
    }
    let policy = match config.policy {
        PolicyKind::Cfs => "CFS",
        PolicyKind::Eevdf => "EEVDF",
        PolicyKind::Sd => "SD",
    };
    let workload = match config.workload {
        WorkloadKind::Pipe => "pipe",
        WorkloadKind::Iperf => "iperf",
        WorkloadKind::Kbuild => "kbuild",
        WorkloadKind::Rtapp => "rtapp",
        WorkloadKind::Token => "token",
        WorkloadKind::Hackbench => "hackbench",
        WorkloadKind::Schbench => "schbench",
        WorkloadKind::StressNgPipe => "stress-ng-pipe",
    };
    Some(match key {
        "loops" | "streams" | "jobs" | "tasks" | "pairs" | "work" | "groups" | "msg_size" | "hackbench_mode"
        | "ipc" => {
            format!("(not used by {workload})")
        }
        k if k.starts_with("schbench_") => format!("(not used by {workload})"),
        "nohz_ratelimit" | "nohz_exit_reprograms" => "(not used with nohz off)".into(),
        _ => format!("(not used by {policy})"),
    })
}
