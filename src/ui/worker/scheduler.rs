//! Which job runs next: at most one in flight on the page's worker, latest wins (`Scheduler`),
//! and what each job was for (`JobKind`). Pure; tested natively (`worker::tests`).

use crate::engine::config::Config;
use crate::engine::validate;
use crate::ui::worker::protocol::{
    capped, Request, LIVE_TRACE_ITEMS, ON_DEMAND_TRACE_ITEMS, PREVIEW_EVENT_BUDGET, PREVIEW_TRACE_ITEMS,
};

/// The request the page's runner posts first when it loads with the query `query` (the
/// address bar's `?...`, as `ui::share::initial_state` reads it): the preview of the link's
/// config, under the first id a fresh `Scheduler` gives. The worker `static/early.js` makes
/// computes it before the app has mounted (`execute::Prefetched`, issue 26) and answers the
/// page's request from it only when that request is these very bytes. None where the app's
/// first state is not the link's config alone (a tour step or a compare link: their configs
/// come from the app's own reading), so such a page waits for its own request as before.
pub fn first_request_for_query(query: &str) -> Option<Request> {
    let query = query.trim_start_matches('?');
    let config = if query.is_empty() {
        (crate::engine::presets::PRESETS[0].config)()
    } else {
        let (u, _) = crate::share::url::parse(query);
        if u.tour.is_some() || u.compare.is_some() {
            return None;
        }
        u.config
    };
    let mut s = Scheduler::default();
    s.want_live(1, &config);
    s.next_request()
}

/// What an in-flight job was for, so its answer reaches the right place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The current config's run; `preview` is the quick capped one.
    Live {
        gen: u64,
        preview: bool,
    },
    Sweep {
        gen: u64,
        index: usize,
    },
    /// The full run of the pinned A with this `Pinned::id` (A is no longer the current
    /// config, so the live runs do not finish it).
    Pin {
        id: u64,
    },
    /// One table of the Experiments view; `last` when no table follows it.
    Seeds {
        preset: String,
        last: bool,
    },
    /// The current config's trace from `from` on (`Request::Window`), for a timeline panned
    /// past what the live trace kept.
    Window {
        gen: u64,
        from: u64,
    },
    /// A further-seed run for the mean of the main figures (`ui::replicas`): B's (`a`
    /// None, config generation `gen`) or the pinned A's (`a` its pin id); replica `index`.
    Replica {
        a: Option<u64>,
        gen: u64,
        index: usize,
    },
    /// The decision records of the current config's run near `at` (`Request::Decisions`).
    Decisions {
        gen: u64,
        at: u64,
    },
    /// The wakeup behind the current config's latency figure at `percent` (`Request::Wakeup`).
    Wakeup {
        gen: u64,
        percent: u8,
    },
    /// Row `index` of a governor comparison (`inspect::governors`): the config under one governor.
    Governor {
        gen: u64,
        index: usize,
    },
}

impl JobKind {
    /// The config generation whose view this job feeds, for the jobs whose answers the
    /// reducer drops once a newer config is shown (the live runs, a window, decisions).
    pub fn view_gen(&self) -> Option<u64> {
        match self {
            JobKind::Live { gen, .. }
            | JobKind::Window { gen, .. }
            | JobKind::Decisions { gen, .. }
            | JobKind::Wakeup { gen, .. } => Some(*gen),
            _ => None,
        }
    }
}

/// A sweep waiting to be run point by point.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    pub gen: u64,
    /// Configs of the points, in order.
    pub points: Vec<Config>,
    pub next: usize,
}

/// Keeps one job in flight: the latest config's preview first, then its full run, then the
/// pinned A's full run (once no full run is held), then the Experiments tables (one job
/// per table, so a preview can go between two), then sweep points one at a time. A newer config or sweep replaces waiting
/// work, so stale work is never started (an answer to stale work is dropped by generation
/// in the reducer). While a knob moves, only previews run: a full run waits until the
/// runner releases it (`release_full`, after the knob has rested), so its big answer never
/// lands on the page mid-drag.
#[derive(Debug, Default)]
pub struct Scheduler {
    pub(super) next_id: u64,
    in_flight: Option<(u64, JobKind)>,
    preview: Option<(u64, Config)>,
    /// The latest config's full run, until it is released.
    held: Option<(u64, Config)>,
    live: Option<(u64, Config)>,
    /// The pinned A's full run (`Pinned::id`, capped config).
    pin: Option<(u64, Config)>,
    sweep: Option<SweepPlan>,
    /// Experiments tables still to compute, in order.
    seeds: std::collections::VecDeque<String>,
    /// A stretch of the current config's trace, asked for by a panned timeline.
    window: Option<(u64, Config, u64)>,
    /// Further-seed runs for the mean of the main figures, in order.
    replicas: std::collections::VecDeque<(JobKind, Config)>,
    /// Decision records asked for by the inspector: (gen, config, from, to, at).
    decisions: Option<(u64, Config, u64, u64, u64)>,
    /// The wakeup behind a latency figure, asked for by the metrics panel: (gen, config, percent).
    wakeup: Option<(u64, Config, u8)>,
    /// A governor comparison's runs still to start: (gen, row, config), in order.
    governors: std::collections::VecDeque<(u64, usize, Config)>,
}

impl Scheduler {
    /// Asks for a preview of `config` now and holds its full run (with the config's own
    /// `max_events`) until `release_full`; both replace older waiting ones.
    pub fn want_live(&mut self, gen: u64, config: &Config) {
        self.preview = Some((gen, capped(config, PREVIEW_EVENT_BUDGET).0));
        self.held = Some((gen, config.clone()));
        self.live = None;
        self.window = None;
        self.decisions = None;
        self.wakeup = None;
    }

    /// Asks for a governor comparison's runs (replaces one still waiting): full runs, no trace.
    pub fn want_governors(&mut self, gen: u64, configs: Vec<Config>) {
        self.governors = configs.into_iter().enumerate().map(|(i, c)| (gen, i, c)).collect();
    }

    /// Asks for `gen`'s decision records near `at`, recorded in `[from, to)` (replaces a
    /// waiting ask). `config` is the run's config, so the figures are the same.
    pub fn want_decisions(&mut self, gen: u64, config: &Config, (from, to, at): (u64, u64, u64)) {
        self.decisions = Some((gen, config.clone(), from, to, at));
    }

    /// Asks for the wakeup behind `gen`'s latency figure at `percent` (replaces a waiting ask).
    pub fn want_wakeup(&mut self, gen: u64, config: &Config, percent: u8) {
        self.wakeup = Some((gen, config.clone(), percent));
    }

    /// Asks for `gen`'s trace from `from` on (replaces a waiting one). `config` is the run's
    /// config as the live run had it, so the events and figures are the same.
    pub fn want_window(&mut self, gen: u64, config: &Config, from: u64) {
        self.window = Some((gen, config.clone(), from));
    }

    /// Lets the held full run of `gen` start (nothing if a newer config replaced it).
    pub fn release_full(&mut self, gen: u64) {
        if self.held.as_ref().is_some_and(|(g, _)| *g == gen) {
            self.live = self.held.take();
        }
    }

    /// The preview of `gen` was complete (see `RunResult::complete`): its full run would
    /// give the same answer, so it is not started.
    pub fn preview_complete(&mut self, gen: u64) {
        for slot in [&mut self.held, &mut self.live] {
            if slot.as_ref().is_some_and(|(g, _)| *g == gen) {
                *slot = None;
            }
        }
    }

    /// Whether nothing of a config newer than `gen` is waiting.
    fn latest(&self, gen: u64) -> bool {
        [&self.preview, &self.held, &self.live].iter().all(|w| w.as_ref().is_none_or(|(g, _)| *g == gen))
    }

    /// Asks for the full run of the pinned A (`id`, its config as it is), or forgets it
    /// (None: A needs none any more).
    pub fn want_pin(&mut self, job: Option<(u64, Config)>) {
        self.pin = job;
    }

    /// Asks for a sweep (replaces the one in progress).
    pub fn want_sweep(&mut self, gen: u64, points: Vec<Config>) {
        self.sweep = Some(SweepPlan { gen, points, next: 0 });
    }

    /// Asks for the further-seed runs of the main figures (replaces the waiting ones).
    pub fn want_replicas(&mut self, jobs: Vec<(JobKind, Config)>) {
        self.replicas = jobs.into_iter().filter(|(k, _)| matches!(k, JobKind::Replica { .. })).collect();
    }

    /// Asks for every table of the Experiments view (`validate::table_presets`), one job each.
    pub fn want_seeds(&mut self) {
        self.seeds = validate::table_presets().into_iter().map(String::from).collect();
    }

    pub fn busy(&self) -> bool {
        self.in_flight.is_some()
    }

    /// The next request to send, if nothing is in flight and something is waiting.
    pub fn next_request(&mut self) -> Option<Request> {
        if self.in_flight.is_some() {
            return None;
        }
        self.next_id += 1;
        let id = self.next_id;
        if let Some((gen, config)) = self.preview.take() {
            self.in_flight = Some((id, JobKind::Live { gen, preview: true }));
            return Some(Request::Run { id, config, trace_items: PREVIEW_TRACE_ITEMS });
        }
        if let Some((gen, config)) = self.live.take() {
            self.in_flight = Some((id, JobKind::Live { gen, preview: false }));
            return Some(Request::Run { id, config, trace_items: LIVE_TRACE_ITEMS });
        }
        // A person is looking at the timeline, waiting for it: before the pin, tables, sweeps.
        if self.held.is_none() {
            if let Some((gen, config, from)) = self.window.take() {
                self.in_flight = Some((id, JobKind::Window { gen, from }));
                return Some(Request::Window { id, config, from, trace_items: LIVE_TRACE_ITEMS });
            }
            if let Some((gen, config, from, to, at)) = self.decisions.take() {
                self.in_flight = Some((id, JobKind::Decisions { gen, at }));
                return Some(Request::Decisions { id, config, from, to, at, trace_items: ON_DEMAND_TRACE_ITEMS });
            }
            if let Some((gen, config, percent)) = self.wakeup.take() {
                self.in_flight = Some((id, JobKind::Wakeup { gen, percent }));
                return Some(Request::Wakeup { id, config, percent });
            }
        }
        // Not while a full run is held: the knob is still moving and its previews go first.
        if self.held.is_none() {
            if let Some((pin, config)) = self.pin.take() {
                self.in_flight = Some((id, JobKind::Pin { id: pin }));
                return Some(Request::Run { id, config, trace_items: LIVE_TRACE_ITEMS });
            }
        }
        // The figures the reader looks at, before the tables and the sweep; not while a
        // knob moves (its previews go first).
        if self.held.is_none() {
            if let Some((kind, config)) = self.replicas.pop_front() {
                self.in_flight = Some((id, kind));
                return Some(Request::Run { id, config, trace_items: 0 });
            }
        }
        if let Some((gen, index, config)) = self.governors.pop_front() {
            self.in_flight = Some((id, JobKind::Governor { gen, index }));
            return Some(Request::Run { id, config, trace_items: 0 });
        }
        if let Some(preset) = self.seeds.pop_front() {
            self.in_flight = Some((id, JobKind::Seeds { preset: preset.clone(), last: self.seeds.is_empty() }));
            return Some(Request::Seeds { id, preset });
        }
        if let Some(plan) = &mut self.sweep {
            if let Some(config) = plan.points.get(plan.next).cloned() {
                self.in_flight = Some((id, JobKind::Sweep { gen: plan.gen, index: plan.next }));
                plan.next += 1;
                return Some(Request::Run { id, config, trace_items: 0 });
            }
            self.sweep = None;
        }
        // No request: its id is not used up, so a page's first request is id 1 whether the
        // worker's Ready (which asks for one) came before its first job or after
        // (`first_request_for_query` names that id).
        self.next_id -= 1;
        None
    }

    /// What the job `id` is for, if it is the one in flight (a progress report's job).
    pub fn in_flight_kind(&self, id: u64) -> Option<JobKind> {
        self.in_flight.as_ref().filter(|(i, _)| *i == id).map(|(_, k)| k.clone())
    }

    /// Whether the job in flight is a full run of another config than `current` (its answer
    /// would be dropped): a long one is worth stopping so the newer config's preview does
    /// not wait behind it.
    pub fn in_flight_is_stale_live(&self, current: u64) -> bool {
        matches!(&self.in_flight, Some((_, JobKind::Live { gen, preview: false })) if *gen != current)
    }

    /// Stops waiting for the job in flight if it is `kind` (the user cancelled it, or it
    /// is stale): it is not retried. False when another job is in flight (`kind` finished).
    pub fn cancel(&mut self, kind: &JobKind) -> bool {
        if self.in_flight.as_ref().is_some_and(|(_, k)| k == kind) {
            self.in_flight = None;
            return true;
        }
        false
    }

    /// Marks the job `id` done and says what it was for (None for an unknown id).
    pub fn finish(&mut self, id: u64) -> Option<JobKind> {
        match &self.in_flight {
            Some((i, _)) if *i == id => self.in_flight.take().map(|(_, k)| k),
            _ => None,
        }
    }

    /// Puts back a job whose runner died before answering, unless newer work replaced it.
    pub fn retry(&mut self, kind: JobKind, req: Request) {
        match (kind, req) {
            // Unless a newer config is waiting, the preview goes first again.
            (JobKind::Live { gen, preview: true }, Request::Run { config, .. })
                if self.preview.is_none() && self.latest(gen) =>
            {
                self.preview = Some((gen, config));
            }
            (JobKind::Live { gen, preview: false }, Request::Run { config, .. })
                if self.live.is_none() && self.latest(gen) =>
            {
                self.live = Some((gen, config));
            }
            (JobKind::Sweep { gen, index }, _) => {
                if let Some(plan) = &mut self.sweep {
                    if plan.gen == gen {
                        plan.next = plan.next.min(index);
                    }
                }
            }
            (JobKind::Pin { id }, Request::Run { config, .. }) if self.pin.is_none() => {
                self.pin = Some((id, config));
            }
            (JobKind::Seeds { preset, .. }, _) => self.seeds.push_front(preset),
            (kind @ JobKind::Replica { .. }, Request::Run { config, .. }) => self.replicas.push_front((kind, config)),
            (JobKind::Window { gen, from }, Request::Window { config, .. })
                if self.window.is_none() && self.latest(gen) =>
            {
                self.window = Some((gen, config, from));
            }
            (JobKind::Governor { gen, index }, Request::Run { config, .. }) => {
                self.governors.push_front((gen, index, config));
            }
            (JobKind::Decisions { gen, at }, Request::Decisions { config, from, to, .. })
                if self.decisions.is_none() && self.latest(gen) =>
            {
                self.decisions = Some((gen, config, from, to, at));
            }
            (JobKind::Wakeup { gen, percent }, Request::Wakeup { config, .. })
                if self.wakeup.is_none() && self.latest(gen) =>
            {
                self.wakeup = Some((gen, config, percent));
            }
            _ => {}
        }
    }

    /// Forgets the job in flight (its runner died) so the next one can start.
    pub fn abandon(&mut self) -> Option<JobKind> {
        self.in_flight.take().map(|(_, k)| k)
    }
}
