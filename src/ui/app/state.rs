//! The app's one reducer: `State` + `Action` + `State::reduce` (pure: no yew, no web-sys), and the pure rules it
//! follows (which keys are disabled and why, which knob the sweep plot follows).
//!
//! Invalid input never reaches here as a change: controls validate with `Config::set` on a
//! copy and show the message inline; `Action::Set` re-validates and ignores a bad value.
//!
//! Over 800 lines (about 1,570, 470 of them tests): one `State` of every feature's fields
//! and one `reduce`; issue 28's composed reducer (each feature owning its slice) would split
//! it, not done yet.

use std::rc::Rc;

use crate::engine::config::{key_doc, Config, Policy, WorkloadKind};
use crate::engine::presets::{preset, PRESETS};
use crate::engine::trace::Trace;
use crate::share::rtapp;
use crate::share::url::{self, UrlState, View};

use crate::ui::worker::scheduler::JobKind;

use crate::ui::worker::protocol::RunProgress;

use crate::ui::worker::protocol::RunResult;

use crate::ui::explore::replicas::{replica_config, Reps};
use crate::ui::sweep::model::{plan_sweep, sweep_key, sweepable, Sweep};
use crate::ui::tour::{self, Tour};
use crate::ui::worker::protocol::SeedTable;

/// A finished run as the views show it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    /// The config generation it belongs to.
    pub gen: u64,
    pub config: Config,
    pub metrics: crate::engine::Metrics,
    pub trace: Rc<Trace>,
    /// A quick capped run shown while the full run is still computing
    /// (see `protocol::PREVIEW_EVENT_BUDGET`).
    pub preview: bool,
    /// The trace is a stretch recorded again later in the run (`Action::WindowDone`), so
    /// the timeline keeps the view the user panned to rather than fitting the new trace.
    pub windowed: bool,
}

impl RunView {
    /// Whether these figures stop short of the whole run: a preview cut by its event budget
    /// (a preview that ran to the end has final figures, and only its trace was short).
    pub fn figures_partial(&self) -> bool {
        self.preview && self.metrics.stop_reason == Some(crate::engine::metrics::StopReason::EventBudget)
    }
}

/// A pinned config to compare against ("A"); the current config is "B".
#[derive(Clone, Debug, PartialEq)]
pub struct Pinned {
    /// Identity of this pin (each pin gets a new one), so a late answer for an earlier A is
    /// dropped.
    pub id: u64,
    pub config: Config,
    /// A's run as far as it has come: None, its preview, then its full run. While A is the
    /// current config its answers come from the current run; once B is current and A has no
    /// full result yet, A is run on its own (`State::pin_job`, `Action::PinDone`).
    pub result: Option<Rc<RunView>>,
    /// Why A cannot run (then it never gets a result).
    pub error: Option<String>,
    /// The user stopped A's full run: A keeps its preview (labelled so) until "Run in full".
    pub cancelled: bool,
    /// A's runs with the further seeds when the main figures are a mean (`State::main_seeds`).
    pub reps: Option<Rc<Reps>>,
}

impl Pinned {
    /// Whether A's full run is still to come: no result yet, or only its preview.
    pub fn waiting(&self) -> bool {
        self.error.is_none() && !self.cancelled && self.result.as_ref().is_none_or(|r| r.preview)
    }
}

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

#[derive(Clone, Debug, PartialEq)]
pub enum Seeds {
    NotLoaded,
    Loading,
    /// Some tables are in, more are being computed.
    Partial(Rc<Vec<SeedTable>>),
    Loaded(Rc<Vec<SeedTable>>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub id: u64,
    pub text: String,
    /// Items listed under the text (what a link or an import could not use, and why).
    pub details: Vec<String>,
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
    pub sweep: Option<Rc<Sweep>>,
    pub pin: Option<Rc<Pinned>>,
    pub notices: Vec<Notice>,
    pub dist: DistMode,
    pub tab: Tab,
    pub seeds: Seeds,
    /// Embedded (`?embed=1`): only `views` are shown, with minimal chrome.
    pub embed: bool,
    /// The views a link opened (`view=`), kept so the link round-trips; empty = default.
    /// `View::Seeds` is never here: it is `tab` (`Tab::Seeds`).
    pub views: Vec<View>,
    /// The guided tour open and its step (1-based), from `tour=NAME&step=N`.
    pub tour: Option<(String, usize)>,
    /// The reader's answer to the open step (a choice index or a number, as text); the
    /// step's figures show only once it is given.
    pub tour_reply: Option<String>,
    /// A tour imported from a file (links to it work only where it is imported).
    pub custom_tour: Option<Rc<Tour>>,
    /// A link's B config, installed once A (pinned) has its full result: the runner runs
    /// one config at a time, so A runs first, then B becomes the current config.
    pub pending_b: Option<Config>,
    /// How far the long run in flight has come (the current config's full run or the
    /// pinned A's), while it reports progress.
    pub progress: Option<(JobKind, RunProgress)>,
    /// The generation whose full run the user cancelled: its preview stays, labelled so.
    pub cancelled: Option<u64>,
    /// The last Cancel press (a count, so each press is an effect) and the job it stops.
    pub cancel_req: Option<(u64, JobKind)>,
    /// Bumped by "Run in full" after a cancel, so the runs are asked for again.
    pub reruns: u64,
    /// The stretch of the current run's trace asked for (generation, from ns) and not yet
    /// in: a timeline panned past what the live trace kept (`timeline::window`).
    pub window_req: Option<(u64, u64)>,
    /// Decision records asked for by the inspector and not yet in: (gen, from, to, at).
    pub decisions_req: Option<(u64, u64, u64, u64)>,
    /// The last records fetched on demand (`inspect::find::OnDemand`).
    pub on_demand: Option<Rc<crate::ui::inspect::find::OnDemand>>,
    /// The governor comparison of the current config (`inspect::governors`), once asked.
    pub gov_compare: Option<Rc<crate::ui::inspect::governors::GovCompare>>,
    /// The sweep's metric, second key, replicas and Pareto axis (`share::url::SweepView`).
    pub sweep_view: url::SweepView,
    /// Identity of the last sweep planned (`Sweep::gen`): a new plan is run afresh.
    pub sweep_serial: u64,
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
    next_notice: u64,
    next_pin: u64,
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
            sweep: None,
            pin: None,
            notices: Vec::new(),
            dist: DistMode::Latency,
            tab: Tab::Explore,
            seeds: Seeds::NotLoaded,
            embed: false,
            views: Vec::new(),
            tour: None,
            tour_reply: None,
            custom_tour: None,
            pending_b: None,
            progress: None,
            cancelled: None,
            cancel_req: None,
            reruns: 0,
            window_req: None,
            decisions_req: None,
            on_demand: None,
            gov_compare: None,
            sweep_view: url::SweepView::default(),
            sweep_serial: 0,
            main_seeds: 1,
            reps: None,
            worker_down: None,
            next_notice: 0,
            next_pin: 0,
        };
        // The sweep starts on the knob the preset's experiment is about.
        s.last_key = preset_knob(&s.preset);
        s.sweep = s.plan(sweep_key(&s.config, s.last_key), None);
        s
    }

    /// Plans a new sweep of `key` around the config, drawn as `sweep_view` says.
    fn plan(&mut self, key: &'static str, unit: Option<String>) -> Option<Rc<Sweep>> {
        self.sweep_serial += 1;
        let sw = plan_sweep(&self.config, key, self.sweep_serial, unit)?;
        Some(Rc::new(crate::ui::sweep::model::with_view(sw, &self.sweep_view)))
    }

    /// The metric the sweep plots: the view's, else `default_sweep_metric`.
    pub fn sweep_metric(&self) -> String {
        self.sweep_view.y.clone().unwrap_or_else(|| default_sweep_metric(&self.preset, &self.config).to_string())
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
    fn pin(&mut self, config: Config, result: Option<Rc<RunView>>) {
        self.next_pin += 1;
        // A pinned from the current config keeps the further seeds it already has.
        let reps = self.shown_reps().filter(|r| r.config == config).map(|r| {
            let mut r = (**r).clone();
            r.owner = self.next_pin;
            Rc::new(r)
        });
        self.pin = Some(Rc::new(Pinned { id: self.next_pin, config, result, error: None, cancelled: false, reps }));
    }

    /// The state a share link describes (see `share::url`), with one notice listing what
    /// the link could not use. In the URL, A is the main config and B (`compare`) is
    /// relative to it; here B is the current config and A is pinned. B waits in
    /// `pending_b` until A's full result arrives (a preview is not enough: once B is
    /// current, nothing would finish A's run).
    pub fn from_url(u: &UrlState, notices: &[url::Notice]) -> Self {
        // Without `preset=` the link is relative to the default config: name the preset
        // that is exactly that config, so the picker shows where the values came from.
        let preset = u.preset.clone().unwrap_or_else(|| {
            PRESETS.iter().find(|p| (p.config)() == Config::default()).map(|p| p.name.to_string()).unwrap_or_default()
        });
        let mut s = State::with_config(u.config.clone(), &preset);
        s.embed = u.embed;
        s.main_seeds = u.main_seeds.unwrap_or(1).clamp(1, crate::ui::explore::replicas::MAX_SEEDS);
        if u.sweep_view != s.sweep_view {
            s.sweep_view = u.sweep_view.clone();
            let key = s.sweep.as_ref().map(|sw| sw.key).unwrap_or_else(|| sweep_key(&s.config, None));
            s.sweep = s.plan(key, None);
        }
        s.views = u.views.iter().copied().filter(|v| *v != View::Seeds).collect();
        if u.views.contains(&View::Seeds) && !u.embed {
            s.tab = Tab::Seeds;
        }
        s.tour = u.tour.clone();
        // A link naming only a tour step (no B of its own) opens that step's configs.
        if let Some((name, step)) = &u.tour {
            match tour::builtin(name) {
                Some(t) if u.compare.is_none() => {
                    let step = (*step).clamp(1, t.steps.len());
                    s.tour = Some((t.name.clone(), step));
                    let (a, b) = t.steps[step - 1].configs(&t);
                    s.preset = t.preset.clone();
                    s.set_config(a.clone(), None);
                    if let Some(b) = b {
                        s.pin(a, None);
                        s.pending_b = Some(b);
                    }
                }
                Some(t) => s.tour = Some((t.name.clone(), (*step).clamp(1, t.steps.len()))),
                None => {
                    s.tour = None;
                    s.notice(format!("The link opens a tour '{name}' that this page does not know; no tour."));
                }
            }
        }
        if let Some(b) = &u.compare {
            s.pin(u.config.clone(), None);
            if *b != u.config {
                s.pending_b = Some(b.clone());
            }
        }
        if let Some(key) = u.sweep.as_deref().and_then(key_doc).map(|d| d.key) {
            if sweepable(key) {
                s.last_key = Some(key);
                s.sweep = s.plan(sweep_key(&s.config, Some(key)), None);
            } else {
                s.notice(format!(
                    "The link asks to sweep '{key}', which has no range to sweep; showing the usual knob."
                ));
            }
        }
        if !notices.is_empty() {
            let text = format!(
                "Part of this link was not used ({} {}); everything else was loaded:",
                notices.len(),
                if notices.len() == 1 { "problem" } else { "problems" }
            );
            s.notice_with(text, notices.iter().map(|n| n.to_string()).collect());
        }
        s
    }

    /// What a share link must say to restore this state (the inverse of `from_url`).
    pub fn url_state(&self) -> UrlState {
        let (config, compare) = match (&self.pin, &self.pending_b) {
            (Some(p), Some(b)) => (p.config.clone(), Some(b.clone())),
            (Some(p), None) => (p.config.clone(), Some(self.config.clone())),
            (None, _) => (self.config.clone(), None),
        };
        let swept = self.sweep.as_ref().map(|s| s.key);
        // `from_url` plans the sweep on A (the link's main config) and B keeps its key.
        let usual = sweep_key(&config, preset(&self.preset).map(|p| p.knob));
        let mut sweep_view = self.sweep_view.clone();
        let usual_y = [&self.config, &config].map(|c| default_sweep_metric(&self.preset, c));
        if sweep_view.y.as_deref().is_some_and(|y| usual_y.iter().all(|u| *u == y)) {
            sweep_view.y = None;
        }
        let mut views = self.views.clone();
        if self.tab == Tab::Seeds && !self.embed {
            views.push(View::Seeds);
        }
        UrlState {
            preset: preset(&self.preset).map(|p| p.name.to_string()),
            config,
            embed: self.embed,
            views,
            compare,
            sweep: swept.filter(|k| *k != usual).map(str::to_string),
            sweep_view,
            tour: self.tour.clone(),
            main_seeds: (self.main_seeds > 1).then_some(self.main_seeds),
        }
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

    /// The tour named `name`: the imported one first, then the built-in ones.
    pub fn find_tour(&self, name: &str) -> Option<Tour> {
        match &self.custom_tour {
            Some(t) if t.name == name => Some((**t).clone()),
            _ => tour::builtin(name),
        }
    }

    /// The open tour and its step, if any.
    pub fn tour_step(&self) -> Option<(Tour, usize)> {
        let (name, step) = self.tour.as_ref()?;
        let t = self.find_tour(name)?;
        let step = (*step).clamp(1, t.steps.len());
        Some((t, step))
    }

    /// What makes a history entry when it changes (`ui::app` pushes one): the preset, the
    /// page (explorer or Experiments), the views, the pin and the tour step. A knob's
    /// value is not in it: dragging a slider rewrites the current entry instead.
    pub fn nav_key(&self) -> NavKey {
        (self.preset.clone(), self.tab, self.views.clone(), self.pin.as_ref().map(|p| p.id), self.tour.clone())
    }

    /// The state the page goes to on Back or Forward: the link `u` describes, keeping what
    /// the page already knows (the Experiments tables, notices, the run when the config
    /// is the same) and counting generations and pins on, so no late answer is mistaken
    /// for the new config's.
    fn navigate(&self, u: &UrlState) -> State {
        let mut n = State::from_url(u, &[]);
        n.seeds = self.seeds.clone();
        n.notices = self.notices.clone();
        n.next_notice = self.next_notice;
        n.dist = self.dist;
        n.reruns = self.reruns;
        n.worker_down = self.worker_down.clone().filter(|w| !w.crashed);
        n.custom_tour = self.custom_tour.clone();
        if n.tour == self.tour {
            n.tour_reply = self.tour_reply.clone();
        }
        if n.config == self.config {
            n.gen = self.gen;
            n.result = self.result.clone();
            n.run_error = self.run_error.clone();
            n.progress = self.progress.clone();
            n.cancelled = self.cancelled;
            if n.sweep.as_ref().map(|s| s.key) == self.sweep.as_ref().map(|s| s.key) {
                n.sweep = self.sweep.clone();
            }
            n.reps = self.reps.clone();
        } else {
            n.gen = self.gen + 1;
        }
        if n.sweep.as_ref().is_some_and(|sw| sw.gen != n.gen) {
            let key = n.sweep.as_ref().map(|sw| sw.key).unwrap_or_default();
            n.sweep = plan_sweep(&n.config, key, n.gen, None).map(Rc::new);
        }
        n.next_pin = self.next_pin;
        match (&n.pin, &self.pin) {
            (Some(a), Some(old)) if a.config == old.config => n.pin = Some(old.clone()),
            (Some(a), _) => {
                let config = a.config.clone();
                n.pin(config, None);
            }
            (None, _) => {}
        }
        // A kept full run of the pinned A's config is A's result: nothing runs that config
        // again (it did not change, so no new generation), and a tour's or link's B waits
        // for it. Without this a tour started on the preset shown stayed "Simulating A".
        if let Some(r) = n.result.clone().filter(|r| r.gen == n.gen && !r.preview && r.config == n.config) {
            if let Some(pin) = &mut n.pin {
                if pin.waiting() && pin.config == n.config {
                    Rc::make_mut(pin).result = Some(r);
                    if let Some(b) = n.pending_b.take() {
                        n.set_config(b, None);
                    }
                }
            }
        }
        n
    }

    /// The query string (without `?`) of this state's share link.
    pub fn query(&self) -> String {
        url::to_query(&self.url_state())
    }

    /// The query of the full app showing this state (embedding and its views removed).
    pub fn full_app_query(&self) -> String {
        let mut u = self.url_state();
        u.embed = false;
        u.views.clear();
        url::to_query(&u)
    }

    fn notice(&mut self, text: impl Into<String>) {
        self.notice_with(text, Vec::new());
    }

    fn notice_with(&mut self, text: impl Into<String>, details: Vec<String>) {
        self.next_notice += 1;
        self.notices.push(Notice { id: self.next_notice, text: text.into(), details });
        // Keep the list short: old notices scroll away.
        if self.notices.len() > 4 {
            self.notices.remove(0);
        }
    }

    /// Installs a new config: bumps the generation and keeps or replans the sweep.
    fn set_config(&mut self, config: Config, key: Option<&'static str>) {
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
        // Follow the last knob when it can be swept, else keep the current sweep's key.
        let preferred = self.last_key.filter(|k| sweepable(k)).or(self.sweep.as_ref().map(|s| s.key));
        let key = sweep_key(&self.config, preferred);
        let keep = self.sweep.as_ref().is_some_and(|s| {
            s.key == key && s.base.diff(&self.config).iter().all(|(k, _)| *k == key || Some(*k) == s.key2)
        });
        if keep {
            // Only the swept knob moved: the curve stands, the marker moves.
            if let Some(s) = &mut self.sweep {
                Rc::make_mut(s).base = self.config.clone();
            }
        } else {
            let unit = self.sweep.as_ref().map(|s| s.unit.clone());
            self.sweep = self.plan(key, unit);
        }
    }
}

/// Everything that changes the state.
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
    /// The inspector holds no records for an instant of the current full run: fetch those
    /// near `at`, recording `[from, to)` (`protocol::Request::Decisions`).
    NeedDecisions {
        from: u64,
        to: u64,
        at: u64,
    },
    DecisionsDone {
        gen: u64,
        at: u64,
        result: Result<RunResult, String>,
    },
    /// Run the current config under each cpuidle governor (`inspect::governors`).
    CompareGovernors,
    GovernorDone {
        gen: u64,
        index: usize,
        result: Result<crate::engine::Metrics, String>,
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
    SweepPoint {
        gen: u64,
        index: usize,
        /// The point's full metrics, or why it failed.
        result: Result<crate::engine::Metrics, String>,
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
    SeedsLoading,
    /// One Experiments job's tables; `last` when no more follow.
    SeedsDone {
        tables: Vec<SeedTable>,
        last: bool,
    },
    Notice(String),
    /// The simulation worker could not start or died (the runner says why), in `job` if it
    /// died in one.
    WorkerDown {
        down: crate::ui::worker::protocol::WorkerDown,
        job: Option<JobKind>,
    },
    /// An rt-app JSON file's text (`name` is the file name): its config changes apply all
    /// together or not at all; notices say what was approximated or what is wrong.
    Import {
        name: String,
        text: String,
    },
    Dismiss(u64),
    Dist(DistMode),
    Tab(Tab),
    /// Draw the sweep another way (metric, second key, replicas, Pareto axis); a new second
    /// key or replica count plans the sweep again.
    SweepView(url::SweepView),
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
}

impl State {
    /// The reducer (`app` makes it yew's `Reducible`; this file names no yew, so it is
    /// tested natively as it is).
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
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
                    s.sweep_view.y = None;
                    let config = (p.config)();
                    // Re-choosing the config already shown changes nothing: replanning the
                    // sweep without a new generation would leave it empty, never run.
                    if config != s.config {
                        s.last_key = Some(p.knob).filter(|k| sweepable(k));
                        s.sweep = None; // a new preset starts from its own knob
                        s.set_config(config, None);
                        if s.sweep.is_none() {
                            s.sweep = s.plan(sweep_key(&s.config, s.last_key), None);
                        }
                    }
                }
                None => s.notice(format!("No preset named '{name}'.")),
            },
            Action::LoadRow { preset: name, sets } => match preset(&name) {
                Some(p) => {
                    let mut full = (p.config)();
                    for (k, v) in &sets {
                        if let Err(e) = full.set(k, v) {
                            s.notice(format!("Row setting skipped: {e}"));
                        }
                    }
                    // The page's tables are the quick ones: open the run the row shows.
                    let c = crate::engine::validate::quicken(full.clone());
                    let shortened: Vec<String> = c.diff(&full).iter().map(|(k, v)| format!("{k}={v}")).collect();
                    if !shortened.is_empty() {
                        let back: Vec<String> = full.diff(&c).iter().map(|(k, v)| format!("{k}={v}")).collect();
                        s.notice(format!(
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
                None => s.notice(format!("The table names a preset '{name}' that does not exist.")),
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
            Action::NeedDecisions { from, to, at } => {
                let full = s.result.as_ref().filter(|r| r.gen == s.gen && !r.preview);
                if full.is_some() && s.decisions_req.is_none_or(|(g, .., a)| g != s.gen || a != at) {
                    s.decisions_req = Some((s.gen, from, to, at));
                }
            }
            Action::CompareGovernors => {
                let serial = s.gov_compare.as_ref().map_or(0, |c| c.serial + 1);
                let c = crate::ui::inspect::governors::GovCompare::new(s.gen, serial, s.config.clone());
                s.gov_compare = Some(Rc::new(c));
            }
            Action::GovernorDone { gen, index, result } => {
                if let Some(c) = s.gov_compare.as_mut().filter(|c| c.gen == gen && index < c.rows.len()) {
                    Rc::make_mut(c).rows[index] = Some(result.map(Rc::new));
                }
            }
            Action::DecisionsDone { gen, at, result } => {
                if s.decisions_req.is_some_and(|(g, .., a)| g == gen && a == at) {
                    s.decisions_req = None;
                }
                let Some(view) = s.result.as_ref().filter(|r| r.gen == gen && gen == s.gen && !r.preview) else {
                    return self;
                };
                match result {
                    Ok(r) if r.metrics.digest == view.metrics.digest => {
                        let od = crate::ui::inspect::find::OnDemand::new(gen, r.metrics.digest, at, r.trace.decisions);
                        s.on_demand = Some(Rc::new(od));
                    }
                    Ok(_) => s.notice("The decisions came from a different run (its digest differs); not shown."),
                    Err(e) => s.notice(format!("The decisions could not be found: {e}")),
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
                    }
                    Ok(_) => s.notice(
                        "The timeline's stretch came from a different run (its digest differs); it was not shown.",
                    ),
                    Err(e) => s.notice(format!("The timeline could not load that stretch: {e}")),
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
            Action::SweepPoint { gen, index, result } => {
                let Some(sw) = &mut s.sweep else { return self };
                if sw.gen != gen || index >= sw.jobs() {
                    return self;
                }
                let sw = Rc::make_mut(sw);
                match result {
                    Ok(m) => {
                        if !m.throughput_unit.is_empty() {
                            sw.unit = m.throughput_unit.clone();
                        }
                        let cells = sw.points.len();
                        let slot = if index < cells { &mut sw.points[index] } else { &mut sw.runs[index - cells] };
                        *slot = Some(Rc::new(m));
                    }
                    Err(_) => sw.failed += 1,
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
                let n = s.cancel_req.as_ref().map_or(0, |c| c.0) + 1;
                match &kind {
                    JobKind::Pin { .. } => {
                        if let Some(pin) = &mut s.pin {
                            Rc::make_mut(pin).cancelled = true;
                        }
                    }
                    _ => s.cancelled = Some(s.gen),
                }
                s.cancel_req = Some((n, kind));
            }
            Action::RunAgain => {
                s.cancelled = None;
                if let Some(pin) = &mut s.pin {
                    if pin.cancelled {
                        Rc::make_mut(pin).cancelled = false;
                    }
                }
                s.reruns += 1;
            }
            Action::SeedsLoading => s.seeds = Seeds::Loading,
            Action::SeedsDone { tables, last } => {
                let mut all = match &s.seeds {
                    Seeds::Partial(so_far) => so_far.as_ref().clone(),
                    _ => Vec::new(),
                };
                all.extend(tables);
                s.seeds = if last { Seeds::Loaded(Rc::new(all)) } else { Seeds::Partial(Rc::new(all)) };
            }
            Action::Notice(text) => s.notice(text),
            // A crash in a job of an older config than the one shown (its answer would
            // have been dropped) is not this config's state: the status line goes on with
            // this config's runs, which the new worker takes, and a notice says it happened.
            Action::WorkerDown { down, job } => match job.and_then(|j| j.view_gen()) {
                Some(gen) if down.crashed && gen != s.gen => s.notice(down.text),
                _ => s.worker_down = Some(down),
            },
            Action::Import { name, text } if tour::looks_like_tour(&text) => match tour::parse(&text) {
                Err(e) => s.notice(format!("Cannot import the tour {name}: {e}. Nothing was changed.")),
                Ok(t) => {
                    let open = t.name.clone();
                    s.notice(format!("Imported the tour '{}' from {name} ({} steps).", t.title, t.steps.len()));
                    s.custom_tour = Some(Rc::new(t));
                    return Rc::new(s).reduce(Action::Tour(Some((open, 1))));
                }
            },
            Action::Import { name, text } => match rtapp::import(&text) {
                Err(e) => s.notice(format!("Cannot import {name}: {e}. Nothing was changed.")),
                Ok(r) => {
                    let mut c = s.config.clone();
                    for (k, v) in &r.config_changes {
                        if let Err(e) = c.set(k, v) {
                            s.notice(format!("Cannot import {name}: {k}={v}: {}. Nothing was changed.", e.message));
                            return Rc::new(s);
                        }
                    }
                    let changed: Vec<String> = r.config_changes.iter().map(|(k, _)| k.clone()).collect();
                    let text = format!("Imported {name} (set {}).", changed.join(", "));
                    s.last_key = None;
                    s.pending_b = None;
                    s.set_config(c, None);
                    s.notice_with(text, r.notices);
                }
            },
            Action::Dismiss(id) => s.notices.retain(|n| n.id != id),
            Action::Dist(d) => s.dist = d,
            Action::Tab(t) => s.tab = t,
            Action::SweepView(v) => {
                let replan = (&v.key2, v.replicas) != (&s.sweep_view.key2, s.sweep_view.replicas);
                s.sweep_view = v;
                if replan {
                    let key = s.sweep.as_ref().map(|sw| sw.key).unwrap_or_else(|| sweep_key(&s.config, None));
                    let unit = s.sweep.as_ref().map(|sw| sw.unit.clone());
                    s.sweep = s.plan(key, unit);
                }
            }
            Action::SetCell(sets) => {
                let mut c = s.config.clone();
                if sets.iter().any(|(k, v)| c.set(k, v).is_err()) {
                    return self;
                }
                s.pending_b = None;
                s.last_key = s.sweep.as_ref().map(|sw| sw.key);
                s.set_config(c, None);
            }
            Action::Navigate(u) => return Rc::new(s.navigate(&u)),
            Action::Tour(None) => {
                s.tour = None;
                s.tour_reply = None;
            }
            Action::Tour(Some((name, step))) => {
                let Some(t) = s.find_tour(&name) else {
                    s.notice(format!("No tour named '{name}'."));
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
                    sweep_view: s.sweep_view.clone(),
                    main_seeds: (s.main_seeds > 1).then_some(s.main_seeds),
                };
                let mut n = s.navigate(&u);
                n.tour = Some((t.name.clone(), step));
                n.tour_reply = None;
                n.custom_tour = s.custom_tour.clone();
                return Rc::new(n);
            }
            Action::TourAnswer(reply) => s.tour_reply = Some(reply),
            Action::MainSeeds(n) => s.main_seeds = n.clamp(1, crate::ui::explore::replicas::MAX_SEEDS),
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
    if config.applies(key) {
        return None;
    }
    let policy = match config.policy {
        Policy::Cfs => "CFS",
        Policy::Eevdf => "EEVDF",
        Policy::Sd => "SD",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::metrics::Metrics;

    fn reduce(s: Rc<State>, a: Action) -> Rc<State> {
        s.reduce(a)
    }

    #[test]
    fn experiments_tables_accumulate_until_the_last_one() {
        let table = |name: &str| SeedTable {
            preset: name.into(),
            title: name.into(),
            source: String::new(),
            metric: "elapsed_s".into(),
            unit: "s".into(),
            columns: Vec::new(),
            rows: Vec::new(),
            corpus: false,
            notes: String::new(),
        };
        let s = reduce(Rc::new(State::default()), Action::SeedsLoading);
        let s = reduce(s, Action::SeedsDone { tables: vec![table("a")], last: false });
        assert!(matches!(&s.seeds, Seeds::Partial(t) if t.len() == 1));
        let s = reduce(s, Action::SeedsDone { tables: vec![table("b")], last: true });
        let Seeds::Loaded(t) = &s.seeds else { panic!("{:?}", s.seeds) };
        assert_eq!(t.iter().map(|t| t.preset.as_str()).collect::<Vec<_>>(), ["a", "b"], "in order, none lost");
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
        let here = reduce(
            s.clone(),
            Action::WorkerDown { down: crash(), job: Some(JobKind::Live { gen: old, preview: true }) },
        );
        assert_eq!(here.worker_down, Some(crash()), "a crash in the config shown is its status");
        let s = reduce(here, Action::Set { key: "seed", value: "7".into() });
        assert_eq!(s.worker_down, None, "the next config is a new worker's");
        let late = reduce(
            s.clone(),
            Action::WorkerDown { down: crash(), job: Some(JobKind::Live { gen: old, preview: false }) },
        );
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
        let sw = s.sweep.clone().unwrap();
        assert_eq!(sw.key, "sched_latency");
        assert!(sw.log && sw.values.len() >= 16 && sw.values.len() <= 32);
        assert!(sw.values.contains(&"10ms".to_string()), "planned around the value set (intro's own knob is hz)");
        let s = reduce(s, Action::SweepPoint { gen: sw.gen, index: 0, result: point(5.0, "ops/s", 77) });
        let s = reduce(s, Action::Set { key: "sched_latency", value: "12ms".into() });
        let kept = s.sweep.clone().unwrap();
        assert_eq!((kept.gen, kept.ys()[0], kept.unit.as_str()), (sw.gen, Some(5.0), "ops/s"));
        assert_eq!(kept.points[0].as_ref().map(|m| m.context_switches), Some(77), "the point keeps all its metrics");
        assert_eq!(kept.done(), 1);
        assert_eq!(kept.base.sched_latency, 12_000_000, "the marker follows the knob");
        let s = reduce(s, Action::Set { key: "cores", value: "4".into() });
        let re = s.sweep.clone().unwrap();
        assert_eq!(re.key, "cores");
        assert!(re.gen > sw.gen && re.points.iter().all(Option::is_none));
        let stale = reduce(s.clone(), Action::SweepPoint { gen: sw.gen, index: 0, result: point(1.0, "", 1) });
        assert!(Rc::ptr_eq(&s, &stale));
    }

    #[test]
    fn run_parameters_do_not_take_the_sweep_over() {
        let s = Rc::new(State::default());
        let s = reduce(s, Action::Set { key: "duration", value: "1s".into() });
        let sw = s.sweep.clone().unwrap();
        assert_eq!(sw.key, "hz", "the knob the intro preset is about");
        assert_eq!(sw.base.duration, 1_000_000_000);
        let s = reduce(s, Action::Set { key: "kernel", value: "2.6.21-sd".into() });
        assert_eq!(s.sweep.as_ref().unwrap().key, "kernel", "a choice is swept over its options");
        assert_eq!(s.sweep.as_ref().unwrap().values[0], "2.6.21-sd");
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
        c.policy = Policy::Sd;
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
        let sw = s.sweep.clone().unwrap();
        let s = reduce(s, Action::SweepPoint { gen: sw.gen, index: 0, result: point(5.0, "ops/s", 1) });
        let again = reduce(s.clone(), Action::LoadPreset(s.preset.clone()));
        assert_eq!(again.gen, s.gen);
        assert_eq!(again.sweep, s.sweep, "the runner only runs a sweep of a new generation");
        let other = reduce(again, Action::LoadPreset("rr-kbuild".into()));
        let re = other.sweep.as_ref().unwrap();
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
            let s =
                reduce(Rc::new(State::default()), Action::LoadRow { preset: t.preset.clone(), sets: row.sets.clone() });
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
        assert_eq!(c.cancel_req, Some((1, full)), "the runner is told which job to stop");
        assert!(c.cancelled_here() && !c.running() && c.shown_progress().is_none());
        assert!(c.result.as_ref().unwrap().preview, "the figures stay a preview");
        let late = reduce(c.clone(), Action::RunDone { gen: c.gen, result: ok_run(1.5), preview: true });
        assert!(late.result.as_ref().unwrap().preview);
        let again = reduce(c.clone(), Action::RunAgain);
        assert!(again.reruns == c.reruns + 1 && !again.cancelled_here() && again.running());
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
        assert_eq!(s.sweep.as_ref().unwrap().key, "hz");
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
        assert_eq!(s.pending_b.as_ref().unwrap().policy, Policy::Eevdf);
        assert_eq!(s.query(), q, "the link is stable while B waits");
        let s = reduce(s.clone(), Action::RunDone { gen: s.gen, result: ok_run(4.0), preview: false });
        assert_eq!(s.pin.as_ref().unwrap().result.as_ref().unwrap().metrics.throughput, 4.0);
        assert_eq!(s.config.policy, Policy::Eevdf, "B is current once A has its result");
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
        let s = Rc::new(State::default());
        let text = r#"{ "tasks": { "t": { "run": 1000, "timer": { "ref": "a", "period": 4000 } } }, "global": { "duration": 1 } }"#;
        let t = reduce(s.clone(), Action::Import { name: "a.json".into(), text: text.into() });
        assert_eq!(t.config.workload, WorkloadKind::Rtapp);
        assert_eq!(t.config.duration, 1_000_000_000);
        assert!(t.gen > s.gen);
        assert!(t.notices.last().unwrap().text.starts_with("Imported a.json"));
        let bad = r#"{ "tasks": { "t": { "run": -1, "sleep": 10 } } }"#;
        let u = reduce(t.clone(), Action::Import { name: "b.json".into(), text: bad.into() });
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
}
