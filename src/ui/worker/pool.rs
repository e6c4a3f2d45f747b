//! Sweeps on every core: a pool of Web Workers (`navigator.hardwareConcurrency`, at least
//! one) that run a sweep's points, handed out one at a time as workers free up.
//!
//! Each answer carries its point's index and lands in that point's slot (`SweepAction::Point`),
//! so the plot does not depend on the pool's size or on which worker finished first. The
//! page's own worker (`runner`) keeps the current config's runs; the pool only runs sweeps.
//! `Dispatch` is the pure part (tested natively); the browser half is `web`. Without
//! workers (natively, or when they cannot start) the runner's single job queue runs the
//! sweep as before (`Runner::request_sweep`).

use crate::engine::config::Config;

use crate::ui::worker::protocol::capped;

use crate::ui::worker::scheduler::JobKind;

use crate::ui::worker::protocol::Request;

use crate::ui::worker::protocol::SWEEP_EVENT_BUDGET;

/// Most workers in the pool.
pub const MAX_WORKERS: usize = 16;

/// The pool's size for a machine with `cores` logical CPUs (at least one).
pub fn pool_size(cores: f64) -> usize {
    if cores.is_finite() && cores >= 1.0 {
        (cores as usize).min(MAX_WORKERS)
    } else {
        1
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Slot {
    /// Not ready yet (a worker says Ready once).
    Starting,
    Idle,
    Busy {
        id: u64,
        kind: JobKind,
    },
    /// Failed: never used again.
    Dead,
}

/// Which point goes to which worker.
#[derive(Debug)]
pub struct Dispatch {
    slots: Vec<Slot>,
    gen: u64,
    points: Vec<Config>,
    next: usize,
    next_id: u64,
    /// Points whose worker failed, to run again before the next new one.
    retry: Vec<usize>,
    /// How many workers each point of the current sweep has taken down.
    crashes: Vec<u8>,
}

/// A point that takes down this many workers is given up (its slot gets an error), so one
/// point that always crashes cannot stop every worker of the pool in turn.
pub const CRASHES_TO_GIVE_UP: u8 = 2;

/// What a failed worker leaves behind (`Dispatch::fail`).
#[derive(Debug, PartialEq)]
pub struct Failed {
    /// The points still to run (to retry first, then the new ones), for a fallback when no
    /// worker is left.
    pub left: Vec<(usize, Config)>,
    /// The current sweep's point given up on, with its generation: it took down
    /// `CRASHES_TO_GIVE_UP` workers.
    pub gave_up: Option<(u64, usize)>,
}

impl Dispatch {
    pub fn new(workers: usize) -> Self {
        Dispatch {
            slots: vec![Slot::Starting; workers.max(1)],
            gen: 0,
            points: Vec::new(),
            next: 0,
            next_id: 0,
            retry: Vec::new(),
            crashes: Vec::new(),
        }
    }

    /// A new sweep: its points replace what is waiting (answers of the old one still come,
    /// and the reducer drops them by generation).
    pub fn want(&mut self, gen: u64, points: Vec<Config>) {
        self.gen = gen;
        self.points = points.iter().map(|p| capped(p, SWEEP_EVENT_BUDGET).0).collect();
        self.next = 0;
        self.retry.clear();
        self.crashes = vec![0; self.points.len()];
    }

    pub fn ready(&mut self, slot: usize) {
        if let Some(s @ Slot::Starting) = self.slots.get_mut(slot) {
            *s = Slot::Idle;
        }
    }

    /// The point the worker `slot` is running, if it runs one of the current sweep's.
    pub fn index_of(&self, slot: usize) -> Option<usize> {
        match self.slots.get(slot)? {
            Slot::Busy { kind: JobKind::Sweep { gen, index }, .. } if *gen == self.gen => Some(*index),
            _ => None,
        }
    }

    /// Gives up the workers that have not said Ready (at the ready timeout, or a worker
    /// that could not be created): they are never used; returns their slots, to terminate.
    /// Before, such a slot stayed `Starting` for good and counted as alive, so a pool whose
    /// workers all hung kept the sweep waiting forever instead of falling back.
    pub fn give_up_starting(&mut self, only: Option<usize>) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, s) in self.slots.iter_mut().enumerate() {
            if *s == Slot::Starting && only.is_none_or(|o| o == i) {
                *s = Slot::Dead;
                out.push(i);
            }
        }
        out
    }

    /// Whether any worker is alive.
    pub fn alive(&self) -> bool {
        self.slots.iter().any(|s| *s != Slot::Dead)
    }

    /// The requests to post now: the next points, one per idle worker, in index order.
    pub fn assign(&mut self) -> Vec<(usize, Request)> {
        let mut out = Vec::new();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if *slot != Slot::Idle || (self.retry.is_empty() && self.next >= self.points.len()) {
                continue;
            }
            self.next_id += 1;
            let index = if self.retry.is_empty() {
                self.next += 1;
                self.next - 1
            } else {
                self.retry.remove(0)
            };
            *slot = Slot::Busy { id: self.next_id, kind: JobKind::Sweep { gen: self.gen, index } };
            out.push((i, Request::Run { id: self.next_id, config: self.points[index].clone(), trace_items: 0 }));
        }
        out
    }

    /// The worker `slot` answered the job `id`: it is free again; what the job was for.
    pub fn finish(&mut self, slot: usize, id: u64) -> Option<JobKind> {
        let s = self.slots.get_mut(slot)?;
        if !matches!(s, Slot::Busy { id: i, .. } if *i == id) {
            return None;
        }
        match std::mem::replace(s, Slot::Idle) {
            Slot::Busy { kind, .. } => Some(kind),
            _ => None,
        }
    }

    /// The worker `slot` failed: it is not used again. The point it ran, if it belongs to the
    /// current sweep, is handed out again first, unless it has now taken down
    /// `CRASHES_TO_GIVE_UP` workers: then it is given up.
    pub fn fail(&mut self, slot: usize) -> Failed {
        let mut gave_up = None;
        if let Some(s) = self.slots.get_mut(slot) {
            if let Slot::Busy { kind: JobKind::Sweep { gen, index }, .. } = *s {
                if gen == self.gen && index < self.points.len() {
                    self.crashes[index] = self.crashes[index].saturating_add(1);
                    if self.crashes[index] >= CRASHES_TO_GIVE_UP {
                        gave_up = Some((gen, index));
                    } else {
                        self.retry.push(index);
                    }
                }
            }
            *s = Slot::Dead;
        }
        let left = self.retry.iter().copied().chain(self.next..self.points.len()).map(|i| (i, self.points[i].clone()));
        Failed { left: left.collect(), gave_up }
    }
}

/// The error a given-up point shows in its slot.
pub fn gave_up_text() -> String {
    format!(
        "this point stopped {CRASHES_TO_GIVE_UP} workers (a panic or out of memory in the engine), so it was left out; \
         run it alone to see the error"
    )
}

#[cfg(target_arch = "wasm32")]
pub mod web {
    //! The browser half: N workers, their handlers, the answers dispatched as actions.
    use std::cell::RefCell;
    use std::rc::Rc;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{Event, MessageEvent, Worker};
    use yew::UseReducerDispatcher;

    use super::{pool_size, Dispatch};
    use crate::engine::config::Config;
    use crate::ui::app::state::{Action, State};
    use crate::ui::sweep::state::SweepAction;
    use crate::ui::worker::protocol::Response;
    use crate::ui::worker::runner::action_for;

    /// A worker's message and error handlers, kept alive as long as the pool.
    type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(Event)>);

    struct Inner {
        dispatch: Dispatch,
        workers: Vec<Option<Worker>>,
        to_state: UseReducerDispatcher<State>,
        /// Called with the sweep's remaining points when no worker is left.
        fallback: Rc<dyn Fn(u64, Vec<Config>)>,
        _handlers: Vec<Handlers>,
    }

    /// The page's pool (kept for the page's lifetime).
    #[derive(Clone)]
    pub struct Pool {
        inner: Rc<RefCell<Inner>>,
    }

    impl Pool {
        /// Starts `navigator.hardwareConcurrency` workers; None when none can start.
        pub fn start(to_state: UseReducerDispatcher<State>, fallback: Rc<dyn Fn(u64, Vec<Config>)>) -> Option<Pool> {
            let cores = web_sys::window().map(|w| w.navigator().hardware_concurrency()).unwrap_or(1.0);
            let n = pool_size(cores);
            let pool = Pool {
                inner: Rc::new(RefCell::new(Inner {
                    dispatch: Dispatch::new(n),
                    workers: Vec::new(),
                    to_state,
                    fallback,
                    _handlers: Vec::new(),
                })),
            };
            for slot in 0..n {
                let Ok(w) = Worker::new("./worker_loader.js") else {
                    pool.inner.borrow_mut().dispatch.give_up_starting(Some(slot));
                    continue;
                };
                let me = pool.clone();
                let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                    let data = e.data();
                    let resp = crate::ui::worker::runner::web::decode(&data);
                    me.answer(slot, resp);
                });
                let me = pool.clone();
                let on_error = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
                    e.prevent_default();
                    me.failed(slot);
                });
                w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                w.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                let mut i = pool.inner.borrow_mut();
                while i.workers.len() < slot {
                    i.workers.push(None);
                }
                i.workers.push(Some(w));
                i._handlers.push((on_message, on_error));
            }
            let started = pool.inner.borrow().workers.iter().any(Option::is_some);
            if started {
                // A worker that neither says Ready nor errors (its script hangs) is given up
                // and terminated; with none left, the sweep goes to the fallback.
                let me = pool.clone();
                gloo::timers::callback::Timeout::new(crate::ui::worker::runner::web::READY_MS, move || {
                    me.ready_timeout()
                })
                .forget();
            }
            started.then_some(pool)
        }

        fn ready_timeout(&self) {
            let (alive, gen, points, fallback) = {
                let mut i = self.inner.borrow_mut();
                for slot in i.dispatch.give_up_starting(None) {
                    if let Some(w) = i.workers.get_mut(slot).and_then(Option::take) {
                        w.set_onmessage(None);
                        w.set_onerror(None);
                        w.terminate();
                    }
                }
                (i.dispatch.alive(), i.dispatch.gen, i.dispatch.points.clone(), i.fallback.clone())
            };
            if !alive && !points.is_empty() {
                fallback(gen, points);
            }
        }

        /// Runs a new sweep's points.
        pub fn want(&self, gen: u64, points: Vec<Config>) {
            self.inner.borrow_mut().dispatch.want(gen, points);
            self.pump();
        }

        fn pump(&self) {
            let i = &mut *self.inner.borrow_mut();
            for (slot, req) in i.dispatch.assign() {
                if let Some(Some(w)) = i.workers.get(slot) {
                    let _ = w.post_message(&crate::ui::worker::runner::web::encode(&req));
                }
            }
        }

        fn answer(&self, slot: usize, resp: Response) {
            let action = {
                let mut i = self.inner.borrow_mut();
                match &resp {
                    Response::Ready => {
                        i.dispatch.ready(slot);
                        None
                    }
                    Response::Run { id, .. } => i.dispatch.finish(slot, *id).and_then(|k| action_for(k, resp)),
                    _ => None,
                }
            };
            if let Some(a) = action {
                let d = self.inner.borrow().to_state.clone();
                d.dispatch(a);
            }
            self.pump();
        }

        fn failed(&self, slot: usize) {
            let (left, alive, gen, fallback) = {
                let mut i = self.inner.borrow_mut();
                if let Some(w) = i.workers.get_mut(slot).and_then(Option::take) {
                    w.terminate();
                }
                let failed = i.dispatch.fail(slot);
                (failed, i.dispatch.alive(), i.dispatch.gen, i.fallback.clone())
            };
            let d = self.inner.borrow().to_state.clone();
            if let Some((gen, index)) = left.gave_up {
                d.dispatch(Action::Sweep(SweepAction::Point { gen, index, result: Err(super::gave_up_text()) }));
            }
            if !alive {
                // Indexes are kept by position: hand the whole remaining list over.
                let all = self.inner.borrow().dispatch.points.clone();
                fallback(gen, all);
            } else {
                self.pump();
            }
            d.dispatch(Action::Notice("A sweep worker failed; its points run on the others.".into()));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::engine::config::Config;
    use crate::ui::app::state::{Action, State};
    use crate::ui::sweep::state::SweepAction;
    use crate::ui::worker::execute::execute;
    use crate::ui::worker::protocol::Response;
    use crate::ui::worker::runner::action_for;

    /// Runs the current sweep of `s` on a pool of `n` workers whose answers come back in
    /// an order that depends on `n` (the last worker handed a point answers first).
    fn run_on_pool(s: Rc<State>, n: usize) -> Rc<State> {
        let sw = s.sweep.current.clone().unwrap();
        let mut d = Dispatch::new(n);
        (0..n).for_each(|i| d.ready(i));
        d.want(sw.gen, sw.point_configs());
        let mut s = s;
        let mut busy: Vec<(usize, Request)> = d.assign();
        while let Some((slot, req)) = busy.pop() {
            let resp = execute(&req);
            let Response::Run { id, .. } = &resp else { panic!() };
            let kind = d.finish(slot, *id).expect("the job in flight on that slot");
            s = s.reduce(action_for(kind, resp).unwrap());
            busy.extend(d.assign());
        }
        s
    }

    #[test]
    fn the_sweep_is_the_same_whatever_the_pool_size() {
        let s = Rc::new(State::default()).reduce(Action::Sweep(SweepAction::View(crate::share::url::SweepView {
            replicas: Some(2),
            ..Default::default()
        })));
        let one = run_on_pool(s.clone(), 1);
        let sw1 = one.sweep.current.clone().unwrap();
        assert_eq!(sw1.done(), sw1.jobs(), "every point ran");
        for n in [2, 3, 5] {
            let other = run_on_pool(s.clone(), n);
            let mut a = (*sw1).clone();
            let mut b = (*other.sweep.current.clone().unwrap()).clone();
            for m in a
                .points
                .iter_mut()
                .chain(a.runs.iter_mut())
                .chain(b.points.iter_mut())
                .chain(b.runs.iter_mut())
                .flatten()
            {
                Rc::make_mut(m).wall_s = 0.0;
            }
            assert_eq!(a, b, "pool of {n}");
        }
    }

    #[test]
    fn points_go_out_one_per_idle_worker_and_a_failed_worker_hands_its_point_back() {
        let mut d = Dispatch::new(2);
        d.want(7, vec![Config::default(); 3]);
        assert!(d.assign().is_empty(), "no worker is ready yet");
        d.ready(0);
        d.ready(1);
        let first = d.assign();
        assert_eq!(first.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [0, 1]);
        assert!(d.assign().is_empty(), "both busy");
        let failed = d.fail(1);
        assert_eq!(failed.left.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [1, 2], "point 1 is run again");
        assert_eq!(failed.gave_up, None);
        assert!(d.alive());
        let id0 = first[0].1.id();
        assert_eq!(d.finish(0, id0), Some(JobKind::Sweep { gen: 7, index: 0 }));
        assert_eq!(d.finish(0, id0), None, "answered once");
        let next = d.assign();
        assert_eq!(next.len(), 1);
        assert_eq!(next[0].0, 0);
        assert!(
            matches!(&next[0].1, Request::Run { id, .. } if d.finish(0, *id) == Some(JobKind::Sweep { gen: 7, index: 1 })),
            "the failed point goes first"
        );
        assert_eq!(pool_size(0.0), 1);
        assert_eq!(pool_size(f64::NAN), 1);
        assert_eq!(pool_size(8.0), 8);
        assert_eq!(pool_size(512.0), MAX_WORKERS);
    }

    /// A point that always crashes takes down two workers and is given up with an error in
    /// its slot; the other points still run, each once. Before, it was handed to every
    /// worker in turn and then to the fallback.
    #[test]
    fn a_point_that_always_crashes_is_given_up_after_two_workers() {
        let mut d = Dispatch::new(4);
        d.want(3, vec![Config::default(); 6]);
        for w in 0..4 {
            d.ready(w);
        }
        let mut ran: Vec<usize> = Vec::new();
        let mut gave_up = Vec::new();
        // Point 2 crashes whichever worker runs it; the others answer.
        let mut jobs: Vec<(usize, Request)> = d.assign();
        let mut guard = 0;
        while !jobs.is_empty() {
            guard += 1;
            assert!(guard < 100, "the sweep ends");
            let mut next = Vec::new();
            for (slot, req) in jobs {
                let Request::Run { id, .. } = req else { unreachable!() };
                let index = d.index_of(slot).expect("a busy slot has its point");
                if index == 2 {
                    let f = d.fail(slot);
                    if let Some(g) = f.gave_up {
                        gave_up.push(g);
                    }
                } else {
                    assert_eq!(d.finish(slot, id), Some(JobKind::Sweep { gen: 3, index }));
                    ran.push(index);
                }
                next.extend(d.assign());
            }
            jobs = next;
        }
        ran.sort();
        assert_eq!(ran, [0, 1, 3, 4, 5], "every other point ran once");
        assert_eq!(gave_up, [(3, 2)], "point 2 is given up once, in this sweep");
        assert_eq!(
            d.slots.iter().filter(|s| **s == Slot::Dead).count(),
            CRASHES_TO_GIVE_UP as usize,
            "two workers lost, not four"
        );
        assert!(d.alive());
        assert!(gave_up_text().contains("left out"));
    }

    /// A worker that never says Ready is given up at the timeout (before, it stayed
    /// `Starting` and counted as alive, so a pool of hung workers never fell back).
    #[test]
    fn workers_that_never_start_are_given_up_and_the_pool_is_then_dead() {
        let mut d = Dispatch::new(3);
        d.want(1, vec![Config::default(); 2]);
        d.ready(1);
        assert_eq!(d.give_up_starting(Some(2)), [2], "a worker that could not be created");
        assert_eq!(d.give_up_starting(None), [0], "only the one still starting");
        assert!(d.alive(), "worker 1 is ready");
        d.ready(0);
        assert!(d.assign().iter().all(|(s, _)| *s == 1), "a given-up worker gets no point even if it answers late");
        let mut none = Dispatch::new(2);
        assert_eq!(none.give_up_starting(None), [0, 1]);
        assert!(!none.alive(), "no worker left: the sweep must fall back");
    }
}
