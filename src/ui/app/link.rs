//! The state and its link (pure): a share link's state (`State::from_url`), the link a state
//! prints (`url_state`, `query`; `from_url` and `url_state` are each other's inverse), what
//! makes a history entry (`nav_key`) and Back and Forward (`navigate`).

use std::rc::Rc;

use crate::engine::config::{key_doc, Config};
use crate::engine::presets::{preset, PRESETS};
use crate::share::url::{self, UrlState, View};
use crate::ui::app::state::{NavKey, State, Tab};
use crate::ui::sweep::model::{plan_sweep, sweep_key, sweepable};
use crate::ui::tour;

impl State {
    /// The state a page loaded with the address bar's `search` (`?...`) starts from: the
    /// link's (`from_url`), or the first preset's when there is no query.
    pub fn from_query(search: &str) -> Self {
        if search.trim_start_matches('?').is_empty() {
            return State::default();
        }
        let (u, notices) = url::parse(search);
        State::from_url(&u, &notices)
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
        s.stretch = u.stretch;
        s.main_seeds = u.main_seeds.unwrap_or(1).clamp(1, crate::ui::explore::replicas::MAX_SEEDS);
        if u.sweep_view != s.sweep.view {
            s.sweep.view = u.sweep_view.clone();
            let key = s.sweep.key().unwrap_or_else(|| sweep_key(&s.config, None));
            s.sweep.replan(&s.config, key, None);
        }
        s.views = u.views.iter().copied().filter(|v| *v != View::Seeds).collect();
        if u.views.contains(&View::Seeds) && !u.embed {
            s.tab = Tab::Seeds;
        }
        s.tour.open = u.tour.clone();
        // A link naming only a tour step (no B of its own) opens that step's configs.
        if let Some((name, step)) = &u.tour {
            match tour::builtin(name) {
                Some(t) if u.compare.is_none() => {
                    let step = (*step).clamp(1, t.steps.len());
                    s.tour.open = Some((t.name.clone(), step));
                    let (a, b) = t.steps[step - 1].configs(&t);
                    s.preset = t.preset.clone();
                    s.set_config(a.clone(), None);
                    if let Some(b) = b {
                        s.pin(a, None);
                        s.pending_b = Some(b);
                    }
                }
                Some(t) => s.tour.open = Some((t.name.clone(), (*step).clamp(1, t.steps.len()))),
                None => {
                    s.tour.open = None;
                    s.notices.push(format!("The link opens a tour '{name}' that this page does not know; no tour."));
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
                s.sweep.replan(&s.config, sweep_key(&s.config, Some(key)), None);
            } else {
                s.notices.push(format!(
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
            s.notices.push_with(text, notices.iter().map(|n| n.to_string()).collect());
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
        let swept = self.sweep.key();
        // `from_url` plans the sweep on A (the link's main config) and B keeps its key.
        let usual = sweep_key(&config, preset(&self.preset).map(|p| p.knob));
        let mut sweep_view = self.sweep.view.clone();
        let usual_y = [&self.config, &config].map(|c| super::state::default_sweep_metric(&self.preset, c));
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
            tour: self.tour.open.clone(),
            main_seeds: (self.main_seeds > 1).then_some(self.main_seeds),
            stretch: self.stretch,
        }
    }

    /// What makes a history entry when it changes (`ui::app` pushes one): the preset, the
    /// page (explorer or Experiments), the views, the pin and the tour step. A knob's
    /// value is not in it: dragging a slider rewrites the current entry instead.
    pub fn nav_key(&self) -> NavKey {
        (self.preset.clone(), self.tab, self.views.clone(), self.pin.as_ref().map(|p| p.id), self.tour.open.clone())
    }

    /// The state the page goes to on Back or Forward: the link `u` describes, keeping what
    /// the page already knows (the Experiments tables, notices, the run when the config
    /// is the same) and counting generations and pins on, so no late answer is mistaken
    /// for the new config's.
    pub(super) fn navigate(&self, u: &UrlState) -> State {
        let mut n = State::from_url(u, &[]);
        n.seeds = self.seeds.clone();
        n.notices = self.notices.clone();
        n.dist = self.dist;
        n.worker_down = self.worker_down.clone().filter(|w| !w.crashed);
        n.tour.custom = self.tour.custom.clone();
        if n.tour.open == self.tour.open {
            n.tour.reply = self.tour.reply.clone();
        }
        if n.config == self.config {
            n.gen = self.gen;
            n.result = self.result.clone();
            n.run_error = self.run_error.clone();
            n.progress = self.progress.clone();
            n.cancelled = self.cancelled;
            if n.sweep.key() == self.sweep.key() {
                n.sweep.current = self.sweep.current.clone();
            }
            n.reps = self.reps.clone();
        } else {
            n.gen = self.gen + 1;
        }
        if n.sweep.current.as_ref().is_some_and(|sw| sw.gen != n.gen) {
            let key = n.sweep.key().unwrap_or_default();
            n.sweep.current = plan_sweep(&n.config, key, n.gen, None).map(Rc::new);
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
}
