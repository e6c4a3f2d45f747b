//! Runs simulation jobs for the page in a Web Worker (the `worker` bin, loaded from
//! `worker_loader.js`) once it says it is ready. The page never simulates: its wasm holds
//! no engine run (the linker drops it), so a worker that cannot start or dies leaves the
//! page saying so (`Action::WorkerDown`, `protocol::WorkerDown`: the cause and how to
//! fix it), with the config kept; a worker that dies in a job is replaced (the job that
//! killed it is not retried), one that cannot start is not retried. A worker that is
//! terminated or has died is let go at once (`forget_worker`): nothing is posted to it
//! afterwards, and no job waits for its answer, so the next job goes to its replacement.
//!
//! The `scheduler::Scheduler` keeps one job in flight and the newest request waiting, so a
//! dragged slider never queues stale work. Answers become reducer actions; the reducer
//! drops those whose generation is stale. Browser calls only happen on wasm32 (the SSR
//! test never starts a runner).
//!
//! A long run (the current config's full run, or the pinned A's) reports progress between
//! chunks (`protocol::Response::Progress`), shown in the status line. The worker computes a run
//! in one go and reads no message meanwhile, so Cancel terminates it and starts a fresh
//! worker (`cancel`); the same happens to a long full run that a newer config has made
//! stale, so the new config's preview does not wait behind it.

use std::cell::RefCell;
use std::rc::Rc;

use yew::UseReducerDispatcher;

/// Where the runner's answers go: the app's reducer (tests collect them).
type Dispatch = Rc<dyn Fn(Action)>;

use crate::engine::config::Config;

use crate::ui::worker::protocol::capped;

use crate::ui::worker::scheduler::JobKind;

use crate::ui::worker::protocol::Request;

use crate::ui::worker::protocol::Response;

use crate::ui::worker::scheduler::Scheduler;

use crate::ui::app::state::{Action, SeedsAction, State};
use crate::ui::inspect::state::InspectAction;
use crate::ui::sweep::state::SweepAction;
use crate::ui::worker::protocol::SWEEP_EVENT_BUDGET;

/// How long a knob must rest before the current config's full run is started (previews
/// answer each change meanwhile).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const FULL_RUN_QUIET_MS: u32 = 150;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    /// The worker was created and has not said Ready yet, or the last one died and its
    /// replacement is on its way: work waits.
    Starting,
    Worker,
    /// No worker could start: nothing runs (the page says why).
    Down,
}

struct Inner {
    sched: Scheduler,
    backend: Backend,
    dispatch: Dispatch,
    /// The request in flight.
    in_flight: Option<Request>,
    /// The job in flight has reported progress (it is a long one).
    progressed: bool,
    sweep_gen: u64,
    #[cfg(target_arch = "wasm32")]
    web: web::Web,
    /// What was posted to the worker, in order (natively there is none: tests read this).
    #[cfg(test)]
    sent: Vec<Request>,
}

/// A handle the app keeps (in `use_mut_ref`) for the page's lifetime.
#[derive(Clone)]
pub struct Runner {
    inner: Rc<RefCell<Inner>>,
}

/// Maps an answer to the action it produces (pure; tested natively).
pub fn action_for(kind: JobKind, resp: Response) -> Option<Action> {
    match (kind, resp) {
        (JobKind::Live { gen, preview }, Response::Run { result, .. }) => {
            // A complete preview is the full run (its full run is not started).
            let preview = preview && result.as_ref().is_ok_and(|r| !r.complete());
            Some(Action::RunDone { gen, result, preview })
        }
        (JobKind::Pin { id }, Response::Run { result, .. }) => Some(Action::PinDone { id, result }),
        (JobKind::Sweep { gen, index }, Response::Run { result, .. }) => {
            Some(Action::Sweep(SweepAction::Point { gen, index, result: result.map(|r| r.metrics) }))
        }
        (JobKind::Seeds { last, .. }, Response::Seeds { tables, .. }) => {
            Some(Action::Seeds(SeedsAction::Done { tables, last }))
        }
        (JobKind::Window { gen, from }, Response::Run { result, .. }) => Some(Action::WindowDone { gen, from, result }),
        (JobKind::Replica { a, gen, index }, Response::Run { result, .. }) => {
            Some(Action::ReplicaDone { a, gen, index, result: result.map(|r| r.metrics) })
        }
        (JobKind::Decisions { gen, at }, Response::Run { result, .. }) => {
            Some(Action::Inspect(InspectAction::DecisionsDone { gen, at, result }))
        }
        (JobKind::Wakeup { gen, percent }, Response::Run { result, .. }) => {
            Some(Action::Inspect(InspectAction::WakeupDone { gen, percent, result }))
        }
        (JobKind::Governor { gen, index }, Response::Run { result, .. }) => {
            Some(Action::Inspect(InspectAction::GovernorDone { gen, index, result: result.map(|r| r.metrics) }))
        }
        // Only the long runs a person waits for show their progress.
        (kind @ (JobKind::Live { preview: false, .. } | JobKind::Pin { .. }), Response::Progress { progress, .. }) => {
            Some(Action::Progress { kind, progress })
        }
        (_, Response::Garbled { error }) => {
            Some(Action::Notice(format!("A simulation answer was unreadable: {error}")))
        }
        _ => None,
    }
}

impl Runner {
    pub fn new(dispatch: UseReducerDispatcher<State>) -> Self {
        Self::with_dispatch(Rc::new(move |a| dispatch.dispatch(a)))
    }

    fn with_dispatch(dispatch: Dispatch) -> Self {
        let inner = Rc::new(RefCell::new(Inner {
            sched: Scheduler::default(),
            backend: Backend::Starting,
            dispatch,
            in_flight: None,
            progressed: false,
            sweep_gen: 0,
            #[cfg(target_arch = "wasm32")]
            web: web::Web::default(),
            #[cfg(test)]
            sent: Vec::new(),
        }));
        let runner = Runner { inner };
        #[cfg(target_arch = "wasm32")]
        web::start_worker(&runner);
        runner
    }

    /// Asks for the preview and live runs of `config` (the preview capped for interactivity).
    pub fn request(&self, gen: u64, config: &Config) {
        {
            let mut i = self.inner.borrow_mut();
            i.sched.want_live(gen, config);
            // A long full run of an older config would hold the new preview back: stop it.
            if i.progressed && i.backend == Backend::Worker && i.sched.in_flight_is_stale_live(gen) {
                i.sched.abandon();
                drop(i);
                self.restart_worker();
            }
        }
        self.release_full_later(gen);
        self.pump();
    }

    /// Releases `gen`'s full run once no newer change has come for `FULL_RUN_QUIET_MS`
    /// (each request replaces the timer; natively at once).
    fn release_full_later(&self, gen: u64) {
        #[cfg(target_arch = "wasm32")]
        {
            let me = self.clone();
            let t = gloo::timers::callback::Timeout::new(FULL_RUN_QUIET_MS, move || {
                me.inner.borrow_mut().sched.release_full(gen);
                me.pump();
            });
            self.inner.borrow_mut().web.full_timer = Some(t);
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.inner.borrow_mut().sched.release_full(gen);
    }

    /// Runs a sweep's points on this runner's worker (one job at a time, after the live
    /// runs): the path when the page has no pool of workers (`ui::sweep::pool`).
    pub fn request_sweep(&self, gen: u64, points: Vec<Config>) {
        {
            let mut i = self.inner.borrow_mut();
            if gen == i.sweep_gen {
                return;
            }
            i.sweep_gen = gen;
            let points = points.iter().map(|p| capped(p, SWEEP_EVENT_BUDGET).0).collect();
            i.sched.want_sweep(gen, points);
        }
        self.pump();
    }

    /// Asks for the further-seed runs of the main figures (`State::replica_jobs`).
    pub fn want_replicas(&self, jobs: Vec<(JobKind, Config)>) {
        self.inner.borrow_mut().sched.want_replicas(jobs);
        self.pump();
    }

    /// Asks for the full run of the pinned A (`State::pin_job`), or forgets it (None).
    pub fn want_pin(&self, job: Option<(u64, Config)>) {
        self.inner.borrow_mut().sched.want_pin(job);
        self.pump();
    }

    /// Stops the job `kind` if it is the one in flight on the worker (the user pressed
    /// Cancel): the worker is terminated and a new one started; the job is not retried.
    pub fn cancel(&self, kind: JobKind) {
        let stop = {
            let mut i = self.inner.borrow_mut();
            i.backend == Backend::Worker && i.sched.cancel(&kind)
        };
        if stop {
            self.restart_worker();
        }
        self.pump();
    }

    /// Terminates the worker (whatever it computes is lost) and starts a new one; work
    /// waits until it is ready.
    fn restart_worker(&self) {
        self.forget_worker();
        #[cfg(target_arch = "wasm32")]
        web::start_worker(self);
    }

    /// Lets the worker go, now: it is terminated and detached (no message is posted to it
    /// again, none of its events is heard), its job is forgotten (it will never answer;
    /// the job is not retried) and work waits for the replacement's Ready. Returns the job
    /// that was in flight. Without this, a job started between a crash and the restart
    /// went to the dead worker and stayed in flight for ever: every later job waited
    /// behind it and the page never ran again.
    fn forget_worker(&self) -> Option<JobKind> {
        let mut i = self.inner.borrow_mut();
        i.in_flight = None;
        i.progressed = false;
        i.backend = Backend::Starting;
        #[cfg(target_arch = "wasm32")]
        web::retire(&mut i.web);
        i.sched.abandon()
    }

    /// Asks for the trace of `gen`'s run from `from` on (`protocol::Request::Window`).
    pub fn request_window(&self, gen: u64, config: &Config, from: u64) {
        self.inner.borrow_mut().sched.want_window(gen, config, from);
        self.pump();
    }

    /// Asks for the decision records of `gen`'s run near `at` (`protocol::Request::Decisions`).
    pub fn request_decisions(&self, gen: u64, config: &Config, range: (u64, u64, u64)) {
        self.inner.borrow_mut().sched.want_decisions(gen, config, range);
        self.pump();
    }

    /// Asks for the wakeup behind `gen`'s latency figure at `percent` (`protocol::Request::Wakeup`).
    pub fn request_wakeup(&self, gen: u64, config: &Config, percent: u8) {
        self.inner.borrow_mut().sched.want_wakeup(gen, config, percent);
        self.pump();
    }

    /// Asks for a governor comparison's runs (`inspect::governors`).
    pub fn request_governors(&self, gen: u64, configs: Vec<Config>) {
        self.inner.borrow_mut().sched.want_governors(gen, configs);
        self.pump();
    }

    pub fn request_seeds(&self) {
        self.inner.borrow_mut().sched.want_seeds();
        self.pump();
    }

    /// Starts the next job if the runner is free.
    fn pump(&self) {
        let (req, backend) = {
            let mut i = self.inner.borrow_mut();
            if i.backend != Backend::Worker {
                return;
            }
            let Some(req) = i.sched.next_request() else { return };
            i.in_flight = Some(req.clone());
            i.progressed = false;
            (req, i.backend)
        };
        self.send(req, backend);
    }

    fn send(&self, req: Request, backend: Backend) {
        #[cfg(target_arch = "wasm32")]
        if backend == Backend::Worker && !web::post(self, &req) {
            self.worker_failed("a request could not be posted to it".into());
        }
        // Natively there is no page and no worker (the SSR tests never start a runner);
        // the runner's own tests read what would have been posted.
        #[cfg(test)]
        self.inner.borrow_mut().sent.push(req.clone());
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (req, backend);
    }

    /// Handles one answer: marks its job done, dispatches, starts the next.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn answer(&self, resp: Response) {
        if let Response::Progress { id, .. } = &resp {
            // Not an answer: the job goes on.
            let (action, dispatch) = {
                let mut i = self.inner.borrow_mut();
                let Some(kind) = i.sched.in_flight_kind(*id) else { return };
                i.progressed = true;
                (action_for(kind, resp), i.dispatch.clone())
            };
            if let Some(a) = action {
                dispatch(a);
            }
            return;
        }
        let (action, dispatch) = {
            let mut i = self.inner.borrow_mut();
            let kind = match &resp {
                Response::Ready => {
                    if i.backend == Backend::Starting {
                        i.backend = Backend::Worker;
                    }
                    None
                }
                Response::Run { id, .. } | Response::Seeds { id, .. } => i.sched.finish(*id),
                Response::Garbled { .. } => i.sched.abandon(),
                // Progress, and the trace worker's answers (`ui::traces`), are not this runner's.
                _ => None,
            };
            if kind.is_some() {
                i.in_flight = None;
            }
            if let (Some(JobKind::Live { gen, preview: true }), Response::Run { result: Ok(r), .. }) = (&kind, &resp) {
                if r.complete() {
                    i.sched.preview_complete(*gen);
                }
            }
            let garbled = matches!(resp, Response::Garbled { .. });
            let action = match kind {
                Some(k) => action_for(k, resp),
                None if garbled => action_for(JobKind::Seeds { preset: String::new(), last: true }, resp),
                None => None,
            };
            (action, i.dispatch.clone())
        };
        // The borrow is released: dispatching may re-render and call back into the runner.
        if let Some(a) = action {
            dispatch(a);
        }
        self.pump();
    }

    /// The worker failed (`why`, the browser's words). Before it ever said Ready it could
    /// not start: the runner stops (`Backend::Down`) and the page says why and how to fix it,
    /// the work waiting where it is. After, it died in a job (a bug, e.g. "RuntimeError:
    /// unreachable"): that job is dropped, not retried (it would die again), the page says
    /// so, and a new worker takes the next job. Nothing ever runs on the main thread.
    ///
    /// The dead worker is let go here, synchronously (`forget_worker`), and only its
    /// replacement's start waits for a fresh task: a config changed, a full run released or
    /// an answer handled in between must not post its job to the dead worker.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn worker_failed(&self, why: String) {
        let crashed = {
            let mut i = self.inner.borrow_mut();
            if i.backend == Backend::Down {
                return;
            }
            let crashed = i.backend == Backend::Worker;
            if !crashed {
                i.in_flight = None;
                i.progressed = false;
                i.backend = Backend::Down;
            }
            crashed
        };
        let job = if crashed { self.forget_worker() } else { None };
        let dispatch = self.inner.borrow().dispatch.clone();
        let down = crate::ui::worker::protocol::WorkerDown::new("simulation", &why, crashed);
        dispatch(Action::WorkerDown { down, job });
        // From a fresh task: this runs inside the dead worker's own error handler.
        #[cfg(target_arch = "wasm32")]
        if crashed {
            let me = self.clone();
            gloo::timers::callback::Timeout::new(0, move || {
                // Unless something else started one meanwhile.
                if me.inner.borrow().web.worker.is_none() {
                    web::start_worker(&me);
                }
            })
            .forget();
        }
    }
}

#[cfg(target_arch = "wasm32")]
pub(crate) mod web {
    //! The browser half: the Worker object, its handlers, the ready timeout.
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{Event, MessageEvent, Worker};

    use crate::ui::worker::wire::{parse_response, to_bytes};

    use crate::ui::worker::protocol::Request;

    use super::{Backend, Runner};
    use crate::ui::worker::protocol::Response;

    /// A worker's message as a `Response`: a Uint8Array of `wire` bytes (anything else is
    /// `Garbled`). The page's runner, the sweep pool and the trace panel's worker all read
    /// their answers through this.
    pub fn decode(data: &JsValue) -> Response {
        let bytes = data.dyn_ref::<js_sys::Uint8Array>().map(|b| b.to_vec()).unwrap_or_default();
        parse_response(&bytes)
    }

    /// A request as the Uint8Array the page posts (`wire`).
    pub fn encode(req: &Request) -> JsValue {
        js_sys::Uint8Array::from(to_bytes(req).as_slice()).into()
    }

    #[derive(Default)]
    pub struct Web {
        pub worker: Option<Worker>,
        // Handlers and the timeout are only held so they live as long as the worker.
        pub _on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
        pub _on_error: Option<Closure<dyn FnMut(Event)>>,
        pub _ready_timeout: Option<gloo::timers::callback::Timeout>,
        pub full_timer: Option<gloo::timers::callback::Timeout>,
    }

    /// Where Trunk puts the worker's loader (`data-loader-shim` on the worker link).
    const WORKER_URL: &str = "./worker_loader.js";
    /// How long (ms) a starting worker may take to say Ready.
    pub const READY_MS: u32 = 8_000;

    /// The text of a thrown JS value (an `Error`'s message).
    pub fn js_message(e: &JsValue) -> String {
        e.as_string()
            .or_else(|| js_sys::Reflect::get(e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
            .unwrap_or_else(|| "no Web Worker".into())
    }

    /// Terminates the worker and detaches it (Cancel: a worker busy with a run reads no
    /// message, so this is the one way to stop it; a dead one is let go the same way), and
    /// cancels its ready timeout. Its handlers are kept until the next worker's replace
    /// them: this may run inside one of them.
    pub fn retire(web: &mut Web) {
        if let Some(w) = web.worker.take() {
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
        web._ready_timeout = None;
    }

    /// The worker `static/early.js` started at page load, before the app's own wasm (so it
    /// loads and compiles meanwhile: the first figure waits for it), with the events it sent
    /// before the app took it over; or the reason it could not be made. Taken once.
    fn adopt_early() -> Option<Result<(Worker, js_sys::Array), String>> {
        let window = web_sys::window()?;
        let key = JsValue::from_str("schedscopeEarlyWorker");
        let early = js_sys::Reflect::get(&window, &key).ok().filter(|v| v.is_object())?;
        let _ = js_sys::Reflect::delete_property(window.unchecked_ref::<js_sys::Object>(), &key);
        let field = |name: &str| js_sys::Reflect::get(&early, &JsValue::from_str(name)).ok();
        if let Some(e) = field("error").and_then(|e| e.as_string()) {
            return Some(Err(e));
        }
        let worker = field("worker")?.dyn_into::<Worker>().ok()?;
        let events = field("events").and_then(|e| e.dyn_into::<js_sys::Array>().ok()).unwrap_or_default();
        Some(Ok((worker, events)))
    }

    /// A worker's `error` event: what it says, else that its script did not load.
    fn on_error_event(runner: &Runner, e: &Event) {
        e.prevent_default();
        // An ErrorEvent has a message; read it without needing that web-sys feature.
        let msg = js_sys::Reflect::get(e, &JsValue::from_str("message"))
            .ok()
            .and_then(|m| m.as_string())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "its script did not load".into());
        runner.worker_failed(msg);
    }

    pub fn start_worker(runner: &Runner) {
        let made = match adopt_early() {
            Some(early) => early,
            None => Worker::new(WORKER_URL).map(|w| (w, js_sys::Array::new())).map_err(|e| js_message(&e)),
        };
        let (worker, early_events) = match made {
            Ok(w) => w,
            Err(why) => {
                runner.inner.borrow_mut().backend = Backend::Starting;
                runner.worker_failed(why);
                return;
            }
        };
        let me = runner.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let data = e.data();
            let resp = decode(&data);
            me.answer(resp);
        });
        let me = runner.clone();
        let on_error = Closure::<dyn FnMut(Event)>::new(move |e: Event| on_error_event(&me, &e));
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let me = runner.clone();
        let ready_timeout = gloo::timers::callback::Timeout::new(READY_MS, move || {
            if me.inner.borrow().backend == Backend::Starting {
                me.worker_failed(format!("it did not answer within {} s", READY_MS / 1000));
            }
        });
        {
            let mut i = runner.inner.borrow_mut();
            i.backend = Backend::Starting;
            // The timers stay: a restarted worker must not lose a held full run's release.
            i.web.worker = Some(worker);
            i.web._on_message = Some(on_message);
            i.web._on_error = Some(on_error);
            i.web._ready_timeout = Some(ready_timeout);
        }
        // A Ready the early worker sent before the app took it is taken at once: it
        // dispatches nothing, and the first request (posted right after this, in the same
        // effect) then goes out before the first paint instead of after it (issue 26).
        let ready_first =
            early_events.get(0).dyn_into::<MessageEvent>().is_ok_and(|m| decode(&m.data()) == Response::Ready);
        if ready_first {
            early_events.shift();
            runner.answer(Response::Ready);
        }
        // What else it said (its failure), in order, from a fresh task (the app may be
        // mid-render).
        if early_events.length() > 0 {
            let me = runner.clone();
            gloo::timers::callback::Timeout::new(0, move || {
                for e in early_events.iter() {
                    match e.dyn_into::<MessageEvent>() {
                        Ok(m) => me.answer(decode(&m.data())),
                        Err(e) => on_error_event(&me, e.unchecked_ref()),
                    }
                }
            })
            .forget();
        }
    }

    /// Posts a request to the worker; false if there is none or posting failed.
    pub fn post(runner: &Runner, req: &Request) -> bool {
        let i = runner.inner.borrow();
        let Some(w) = &i.web.worker else { return false };
        w.post_message(&encode(req)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::worker::protocol::{RunResult, WorkerDown, LIVE_TRACE_ITEMS, PREVIEW_TRACE_ITEMS};

    /// A runner with no browser: what it posts is in `sent`, what it dispatches in the log.
    fn runner() -> (Runner, Rc<RefCell<Vec<Action>>>) {
        let log = Rc::new(RefCell::new(Vec::new()));
        let to = log.clone();
        (Runner::with_dispatch(Rc::new(move |a| to.borrow_mut().push(a))), log)
    }

    /// What was posted since the last look: (id, seed, trace items) of each request.
    fn posted(r: &Runner) -> Vec<(u64, u64, usize)> {
        let sent = std::mem::take(&mut r.inner.borrow_mut().sent);
        sent.iter()
            .map(|q| match q {
                Request::Run { id, config, trace_items } => (*id, config.seed, *trace_items),
                other => panic!("only runs here: {other:?}"),
            })
            .collect()
    }

    fn seed(seed: u64) -> Config {
        Config { seed, ..Config::default() }
    }

    /// A run's answer; `cut` when its budget stopped it (a preview that is not the full run).
    fn ran(id: u64, cut: bool) -> Response {
        let mut metrics = crate::engine::Metrics::default();
        if cut {
            metrics.stop_reason = Some(crate::engine::metrics::StopReason::EventBudget);
        }
        Response::Run { id, result: Ok(RunResult { metrics, trace: Default::default() }) }
    }

    fn crashes(log: &RefCell<Vec<Action>>) -> Vec<Option<JobKind>> {
        log.borrow()
            .iter()
            .filter_map(|a| match a {
                Action::WorkerDown { down, job } if down.crashed => Some(job.clone()),
                _ => None,
            })
            .collect()
    }

    // CI's "a worker that dies in a job" failure: the crash's restart waited for a fresh
    // task, and the config the user entered meanwhile went to the dead worker, which the
    // restart then terminated; its job stayed in flight, so nothing ever ran again.
    #[test]
    fn a_config_entered_while_the_dead_worker_is_replaced_runs_on_the_new_one() {
        let (r, log) = runner();
        r.answer(Response::Ready);
        r.request(1, &seed(4242));
        let preview = posted(&r);
        assert!(matches!(preview[..], [(_, 4242, n)] if n == PREVIEW_TRACE_ITEMS), "{preview:?}");
        r.worker_failed("RuntimeError: unreachable".into());
        assert_eq!(crashes(&log), [Some(JobKind::Live { gen: 1, preview: true })]);
        // The user enters another seed before the replacement is up: nothing goes to the dead one.
        r.request(2, &seed(7));
        assert_eq!(posted(&r), [], "nothing is posted to a dead worker");
        r.answer(Response::Ready);
        let next = posted(&r);
        assert!(matches!(next[..], [(_, 7, n)] if n == PREVIEW_TRACE_ITEMS), "the new worker runs it: {next:?}");
        r.answer(ran(next[0].0, true));
        let full = posted(&r);
        assert!(matches!(full[..], [(_, 7, n)] if n == LIVE_TRACE_ITEMS), "then its full run: {full:?}");
        r.answer(ran(full[0].0, false));
        let done: Vec<_> = log
            .borrow()
            .iter()
            .filter_map(|a| match a {
                Action::RunDone { gen, preview, .. } => Some((*gen, *preview)),
                _ => None,
            })
            .collect();
        assert_eq!(done, [(2, true), (2, false)]);
        // The dead worker's job is not retried, and nothing is left waiting.
        assert_eq!(posted(&r), []);
        assert!(!r.inner.borrow().sched.busy());
    }

    // The crash of a job that was already stale names it, so the page can tell it from a
    // crash of the config it shows (`Action::WorkerDown`).
    #[test]
    fn a_crash_in_an_older_configs_run_names_that_job_and_the_new_config_runs() {
        let (r, log) = runner();
        r.answer(Response::Ready);
        r.request(1, &seed(4242));
        let p = posted(&r);
        r.answer(ran(p[0].0, true));
        let full = posted(&r);
        assert!(matches!(full[..], [(_, 4242, n)] if n == LIVE_TRACE_ITEMS), "{full:?}");
        // A new config while that full run computes (not long enough to be stopped).
        r.request(2, &seed(7));
        assert_eq!(posted(&r), [], "one job in flight");
        r.worker_failed("RuntimeError: unreachable".into());
        assert_eq!(crashes(&log), [Some(JobKind::Live { gen: 1, preview: false })]);
        r.answer(Response::Ready);
        let next = posted(&r);
        assert!(matches!(next[..], [(_, 7, n)] if n == PREVIEW_TRACE_ITEMS), "{next:?}");
        // A late answer or a second error from the dead worker changes nothing.
        r.answer(ran(full[0].0, false));
        assert!(r.inner.borrow().sched.busy(), "seed 7's preview is still the job in flight");
        assert_eq!(posted(&r), []);
    }

    // A worker that never starts stops the runner: work waits, nothing is posted.
    #[test]
    fn a_worker_that_cannot_start_stops_the_runner() {
        let (r, log) = runner();
        r.request(1, &seed(1));
        r.worker_failed("blocked".into());
        r.answer(Response::Ready);
        r.request(2, &seed(2));
        assert_eq!(posted(&r), []);
        let downs: Vec<_> = log
            .borrow()
            .iter()
            .filter_map(|a| match a {
                Action::WorkerDown { down, job } => Some((down.clone(), job.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(downs, [(WorkerDown::new("simulation", "blocked", false), None)]);
    }

    #[test]
    fn answers_become_the_right_actions() {
        let ok = || Response::Run {
            id: 1,
            result: Ok(RunResult {
                metrics: crate::engine::Metrics {
                    throughput: 2.0,
                    throughput_unit: "ops/s".into(),
                    context_switches: 9,
                    ..Default::default()
                },
                trace: Default::default(),
            }),
        };
        assert!(
            matches!(
                action_for(JobKind::Live { gen: 3, preview: true }, ok()),
                Some(Action::RunDone { gen: 3, result: Ok(_), preview: false })
            ),
            "a complete preview is the full run"
        );
        let cut = || {
            let Response::Run { id, result: Ok(mut r) } = ok() else { unreachable!() };
            r.metrics.stop_reason = Some(crate::engine::metrics::StopReason::EventBudget);
            Response::Run { id, result: Ok(r) }
        };
        assert!(matches!(
            action_for(JobKind::Live { gen: 3, preview: true }, cut()),
            Some(Action::RunDone { gen: 3, preview: true, .. })
        ));
        assert!(matches!(
            action_for(JobKind::Live { gen: 3, preview: false }, cut()),
            Some(Action::RunDone { gen: 3, preview: false, .. })
        ));
        // A sweep point keeps its whole metrics (the sweep CSV writes them), not just the figure.
        let Some(Action::Sweep(SweepAction::Point { gen: 4, index: 2, result: Ok(m) })) =
            action_for(JobKind::Sweep { gen: 4, index: 2 }, ok())
        else {
            panic!("a sweep answer becomes its sweep point");
        };
        assert_eq!((m.throughput, m.throughput_unit.as_str(), m.context_switches), (2.0, "ops/s", 9));
        assert_eq!(
            action_for(JobKind::Seeds { preset: "x".into(), last: true }, Response::Seeds { id: 1, tables: vec![] }),
            Some(Action::Seeds(SeedsAction::Done { tables: vec![], last: true }))
        );
        assert_eq!(action_for(JobKind::Seeds { preset: "x".into(), last: false }, Response::Ready), None);
        // A pinned A's own run answers A, even when its budget cut it (it is A's full run).
        assert!(matches!(action_for(JobKind::Pin { id: 5 }, cut()), Some(Action::PinDone { id: 5, result: Ok(_) })));
    }

    /// The app's job sink (`app::hooks`'s `Jobs`) over a native runner: every wanted job to
    /// the runner (natively there is no pool, so a sweep goes to the runner's queue).
    struct Sink(Runner);

    impl crate::ui::app::jobs::JobSink for Sink {
        fn live(&mut self, gen: u64, config: &Config) {
            self.0.request(gen, config);
        }
        fn sweep(&mut self, gen: u64, points: Vec<Config>) {
            self.0.request_sweep(gen, points);
        }
        fn pin(&mut self, job: Option<(u64, Config)>) {
            self.0.want_pin(job);
        }
        fn replicas(&mut self, jobs: Vec<(JobKind, Config)>) {
            self.0.want_replicas(jobs);
        }
        fn cancel(&mut self, kind: JobKind) {
            self.0.cancel(kind);
        }
        fn window(&mut self, gen: u64, config: &Config, from: u64) {
            self.0.request_window(gen, config, from);
        }
        fn decisions(&mut self, gen: u64, config: &Config, range: (u64, u64, u64)) {
            self.0.request_decisions(gen, config, range);
        }
        fn wakeup(&mut self, gen: u64, config: &Config, percent: u8) {
            self.0.request_wakeup(gen, config, percent);
        }
        fn governors(&mut self, gen: u64, configs: Vec<Config>) {
            self.0.request_governors(gen, configs);
        }
        fn seeds(&mut self) {
            self.0.request_seeds();
        }
    }

    /// The first request the app posts when the page loads with `query` (its state read as
    /// `share::initial_state` reads it, `State::from_query`; its jobs handed over as
    /// `app::hooks::use_runner` does), the worker's Ready read before (`ready_first`: the
    /// early worker's usual case) or after the jobs.
    fn first_posted(query: &str, ready_first: bool) -> Request {
        let state = State::from_query(query);
        let (r, _) = runner();
        if ready_first {
            r.answer(Response::Ready);
        }
        let wanted = state.wanted_jobs();
        crate::ui::app::jobs::reconcile(&Default::default(), &wanted, &mut Sink(r.clone()));
        if !ready_first {
            r.answer(Response::Ready);
        }
        let sent = r.inner.borrow().sent.clone();
        sent.into_iter().next().expect("the page posts a first request")
    }

    /// The request the early worker computes from the page's query before the app has mounted
    /// (`scheduler::first_request_for_query`, issue 26) is, byte for byte, the first one the
    /// app posts for that query: the worker answers the app's request from it only then
    /// (`execute::Prefetched`), so the adopted answer is the one the app asked for. Links whose
    /// first state comes from more than the link's config (a tour step, a compare) have none.
    #[test]
    fn the_workers_first_run_from_the_query_is_the_apps_first_request() {
        use crate::ui::worker::scheduler::first_request_for_query;
        use crate::ui::worker::wire::to_bytes;
        let queries = [
            "",
            "?",
            "?v=1&preset=intro",
            "?v=1&preset=rr-kbuild&rr_interval=5ms",
            "?v=1&preset=nohz-pipe",
            "?v=1&preset=intro&workload=hackbench&groups=8&kernel=6.6",
            "?v=1&preset=intro&seeds=5",
            "?v=1&preset=intro&embed=1&view=timeline",
            "?v=1&preset=intro&view=seeds",
            "?v=1&preset=intro&sweep=hz",
            "?v=1&preset=intro&nonsense=3&hz=banana",
            "?preset=no-such-preset",
            "?v=1&cores=3",
        ];
        for q in queries {
            let predicted = first_request_for_query(q).unwrap_or_else(|| panic!("{q:?}: no first request"));
            for ready_first in [true, false] {
                let posted = first_posted(q, ready_first);
                assert_eq!(to_bytes(&predicted), to_bytes(&posted), "{q:?} (Ready first: {ready_first})");
            }
        }
        // Another config's preview differs from intro's (the bytes do tell them apart).
        assert_ne!(
            to_bytes(&first_request_for_query("").unwrap()),
            to_bytes(&first_posted("?v=1&preset=nohz-pipe", true))
        );
        for q in ["?v=1&preset=intro&compare=1&b.hz=1000", "?v=1&tour=intro&step=2"] {
            assert_eq!(first_request_for_query(q), None, "{q:?}");
        }
    }
}
