//! The app's hooks: `use_runner` (the one reconciling effect that hands the runner what
//! `State::wanted_jobs` asks for) and `use_address_bar` (the address bar follows the state).
//! Effects never run in SSR, so the runner (and every browser call) exists only in the
//! browser.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::engine::config::Config;
use crate::ui::app::jobs::{reconcile, JobSink, Wanted};
use crate::ui::app::state::{Action, SeedsAction, State};
use crate::ui::share;
use crate::ui::worker::runner::Runner;
use crate::ui::worker::scheduler::JobKind;

/// The page's runner, made on the first job, and (on wasm32) its pool of sweep workers.
struct Jobs {
    runner: Option<Runner>,
    #[cfg(target_arch = "wasm32")]
    pool: Option<Option<crate::ui::worker::pool::web::Pool>>,
    dispatcher: UseReducerDispatcher<State>,
}

impl Jobs {
    fn runner(&mut self) -> Runner {
        let d = self.dispatcher.clone();
        self.runner.get_or_insert_with(|| Runner::new(d)).clone()
    }
}

impl JobSink for Jobs {
    // Re-simulate at once when the config changes: the runner keeps one job in flight and
    // only the newest config waiting, and answers each change with a quick preview first,
    // so the figures follow a dragged knob (a debounce would hold them until it rests).
    fn live(&mut self, gen: u64, config: &Config) {
        self.runner().request(gen, config);
    }

    // A new sweep runs on the pool of workers (every core), else on the runner's queue.
    fn sweep(&mut self, gen: u64, points: Vec<Config>) {
        let runner = self.runner();
        #[cfg(target_arch = "wasm32")]
        {
            let fallback: Rc<dyn Fn(u64, Vec<Config>)> = {
                let runner = runner.clone();
                Rc::new(move |g, p| runner.request_sweep(g, p))
            };
            let d = self.dispatcher.clone();
            let p = self.pool.get_or_insert_with(|| crate::ui::worker::pool::web::Pool::start(d, fallback));
            if let Some(p) = p {
                p.want(gen, points);
                return;
            }
        }
        runner.request_sweep(gen, points);
    }

    fn pin(&mut self, job: Option<(u64, Config)>) {
        self.runner().want_pin(job);
    }

    fn replicas(&mut self, jobs: Vec<(JobKind, Config)>) {
        self.runner().want_replicas(jobs);
    }

    // Cancel stops the long run in flight (the runner restarts its worker).
    fn cancel(&mut self, kind: JobKind) {
        self.runner().cancel(kind);
    }

    fn window(&mut self, gen: u64, config: &Config, from: u64) {
        self.runner().request_window(gen, config, from);
    }

    fn decisions(&mut self, gen: u64, config: &Config, range: (u64, u64, u64)) {
        self.runner().request_decisions(gen, config, range);
    }

    fn wakeup(&mut self, gen: u64, config: &Config, percent: u8) {
        self.runner().request_wakeup(gen, config, percent);
    }

    fn governors(&mut self, gen: u64, configs: Vec<Config>) {
        self.runner().request_governors(gen, configs);
    }

    fn seeds(&mut self) {
        self.dispatcher.dispatch(Action::Seeds(SeedsAction::Loading));
        self.runner().request_seeds();
    }
}

/// Runs what the state wants: one effect, on every change of `State::wanted_jobs`, tells
/// the runner what is new since the last (`app::jobs::reconcile`).
#[hook]
pub fn use_runner(state: &UseReducerHandle<State>) {
    let jobs = {
        let dispatcher = state.dispatcher();
        use_mut_ref(move || Jobs {
            runner: None,
            #[cfg(target_arch = "wasm32")]
            pool: None,
            dispatcher,
        })
    };
    let applied = use_mut_ref(Wanted::default);
    use_effect_with(state.wanted_jobs(), move |now| {
        reconcile(&applied.borrow(), now, &mut *jobs.borrow_mut());
        *applied.borrow_mut() = now.clone();
    });
}

/// The address bar follows the state. A new preset, page, pin or tour step adds a history
/// entry at once (Back returns to the one before); any other change (a knob, a slider
/// drag) rewrites the current entry, debounced, so drags do not flood history. A state
/// that Back or Forward restored already is the address: nothing to write.
#[hook]
pub fn use_address_bar(state: &UseReducerHandle<State>) {
    let url_timer: Rc<RefCell<Option<(gloo::timers::callback::Timeout, String)>>> = use_mut_ref(|| None);
    let last_nav = use_mut_ref(|| None);
    let nav = state.nav_key();
    use_effect_with(state.query(), move |query| {
        let query = query.clone();
        let moved = last_nav.borrow().as_ref().is_some_and(|n| *n != nav);
        *last_nav.borrow_mut() = Some(nav);
        if query == share::current_query() {
            *url_timer.borrow_mut() = None;
        } else if moved {
            // Write the entry being left as it was last seen, then add the new one.
            if let Some((_, pending)) = url_timer.borrow_mut().take() {
                share::replace_query(&pending);
            }
            share::push_query(&query);
        } else {
            let q = query.clone();
            let timer = gloo::timers::callback::Timeout::new(share::URL_DEBOUNCE_MS, move || share::replace_query(&q));
            *url_timer.borrow_mut() = Some((timer, query));
        }
    });
}
