//! The page's trace worker (wasm32): a second instance of the simulation worker bin
//! (`worker_loader.js`), started on the first import, that reads files and replays them.
//!
//! A request goes as `[json, File]`: the `File` is a handle, not its bytes (the worker reads
//! it, `worker::trace_io`), so the main thread does no work proportional to the file's size. The
//! worker reads no message while it works, so Cancel terminates it; the next request starts
//! a new one (which has lost the cached model, so a replay sends the file again: it always
//! travels with the request). Requests wait until the worker says Ready (messages posted
//! before its wasm is up would be lost).
//!
//! If the worker cannot start (the constructor throws, its script fails to load or errors
//! before its first message, or it says nothing within `READY_MS`: a script that hangs), the
//! panel says so, why and how to fix it (`TAction::WorkerDown`, `protocol::WorkerDown`), and
//! nothing else changes: the page never reads a trace itself (its wasm has no parser; the
//! worker holds the one copy). The next import tries to start a worker again.
//!
//! The steps that run on the main thread are User Timing measures (`measure`: "schedscope
//! trace: decode", "… render"), so DevTools and the e2e tests can tell which one a long
//! task was.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Event, MessageEvent, Worker};
use yew::Callback;

use crate::engine::config::Config;
use crate::ui::common::marks::{measure, now};
use crate::ui::traces::TAction;
use crate::ui::worker::protocol::Request;
use crate::ui::worker::protocol::Response;

const WORKER_URL: &str = "./worker_loader.js";

struct Live {
    worker: Worker,
    ready: bool,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
    /// Gives the worker up if it has not said Ready within `READY_MS` (dropped on Ready).
    _ready_timer: Option<gloo::timers::callback::Timeout>,
}

/// How long (ms) a starting trace worker may take to say Ready (as the simulation runner's).
const READY_MS: u32 = 8_000;

type Shared<T> = std::rc::Rc<std::cell::RefCell<T>>;

/// The job in flight: its id, the file key and, for a replay, the config's label.
type Job = (u64, String, Option<String>);

pub struct TraceWorker {
    out: Callback<TAction>,
    live: std::rc::Rc<std::cell::RefCell<Option<Live>>>,
    /// The request waiting for Ready.
    waiting: Shared<Option<(Request, web_sys::File)>>,
    /// The last two files opened (by key), for replays: the one shown is one of them (a
    /// newer one may have failed to open).
    files: Vec<(String, web_sys::File)>,
    /// What the job in flight was for: (id, key, label) of a replay, or the key of an open.
    job: Shared<Option<Job>>,
    /// The last job id given (ids only grow, so an answer names its job).
    next_id: u64,
}

fn file_key(f: &web_sys::File) -> String {
    use crate::engine::decimal::shortest;
    format!("{}:{}:{}", f.name(), shortest(f.size()), shortest(f.last_modified()))
}

impl TraceWorker {
    pub fn new(out: Callback<TAction>) -> TraceWorker {
        TraceWorker {
            out,
            live: Default::default(),
            waiting: Default::default(),
            files: Vec::new(),
            job: Default::default(),
            next_id: 0,
        }
    }

    fn start(&self) -> Result<(), String> {
        if self.live.borrow().is_some() {
            return Ok(());
        }
        let worker = Worker::new(WORKER_URL).map_err(|e| crate::ui::worker::runner::web::js_message(&e))?;
        let (out, live, waiting, job) = (self.out.clone(), self.live.clone(), self.waiting.clone(), self.job.clone());
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let (t0, data) = (now(), e.data());
            let resp = crate::ui::worker::runner::web::decode(&data);
            if matches!(resp, Response::TraceOpened { .. } | Response::TraceReplayed { .. }) {
                measure("schedscope trace: decode", t0);
            }
            match resp {
                Response::Ready => {
                    if let Some(l) = live.borrow_mut().as_mut() {
                        l.ready = true;
                        l._ready_timer = None;
                        if let Some((req, file)) = waiting.borrow_mut().take() {
                            post(&l.worker, &req, &file);
                        }
                    }
                }
                Response::TraceProgress { id, bytes, total } => out.emit(TAction::Progress { id, bytes, total }),
                // The answer was unpacked in this task; the page renders it in the next one,
                // so neither is a long task (e2e `traces.test.mjs` watches for them).
                r @ (Response::TraceOpened { .. } | Response::TraceReplayed { .. }) => answer(&job, &out, r),
                Response::Garbled { error } => {
                    out.emit(TAction::Fail(format!("The trace worker's answer was unreadable: {error}")))
                }
                _ => {}
            }
        });
        let (out, live2, waiting, job) = (self.out.clone(), self.live.clone(), self.waiting.clone(), self.job.clone());
        let on_error = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            e.prevent_default();
            let msg = js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "its script did not load".into());
            let Some(l) = live2.borrow_mut().take() else { return };
            l.worker.set_onmessage(None);
            l.worker.terminate();
            if l.ready {
                *job.borrow_mut() = None;
                out.emit(TAction::Fail(format!("The trace worker failed ({msg}); nothing else was changed.")));
                return;
            }
            drop(l);
            down(&waiting, &job, &out, &msg);
        });
        // A worker that neither says Ready nor errors (its script hangs) is given up too.
        let (out, live2, waiting, job) = (self.out.clone(), self.live.clone(), self.waiting.clone(), self.job.clone());
        let ready_timer = gloo::timers::callback::Timeout::new(READY_MS, move || {
            let Some(l) = live2.borrow_mut().take_if(|l| !l.ready) else { return };
            l.worker.set_onmessage(None);
            l.worker.set_onerror(None);
            l.worker.terminate();
            // Dropped from its own callback: the handlers and this timer go once it returns.
            gloo::timers::callback::Timeout::new(0, move || drop(l)).forget();
            down(&waiting, &job, &out, &format!("it did not answer within {} s", READY_MS / 1000));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.live.borrow_mut() = Some(Live {
            worker,
            ready: false,
            _on_message: on_message,
            _on_error: on_error,
            _ready_timer: Some(ready_timer),
        });
        Ok(())
    }

    fn send(&mut self, req: Request, file: web_sys::File) {
        if let Err(e) = self.start() {
            *self.waiting.borrow_mut() = Some((req, file));
            down(&self.waiting, &self.job, &self.out, &e);
            return;
        }
        let live = self.live.borrow();
        match live.as_ref() {
            Some(l) if l.ready => post(&l.worker, &req, &file),
            _ => *self.waiting.borrow_mut() = Some((req, file)),
        }
    }

    /// Reads `file`.
    pub fn open(&mut self, file: web_sys::File) {
        let name = file.name();
        if file.size() > crate::ui::traces::MAX_TRACE_BYTES {
            self.out.emit(TAction::Fail(format!(
                "Cannot import {name}: it is {}; the page reads traces up to {}. Nothing was changed.",
                crate::ui::traces::size_text(file.size() as u64),
                crate::ui::traces::size_text(crate::ui::traces::MAX_TRACE_BYTES as u64)
            )));
            return;
        }
        let key = file_key(&file);
        self.stop_job();
        self.next_id += 1;
        let id = self.next_id;
        self.out.emit(TAction::Start { id, name, total: file.size() as u64, replay: false });
        *self.job.borrow_mut() = Some((id, key.clone(), None));
        self.send(Request::TraceOpen { id, key: key.clone(), text: String::new() }, file.clone());
        self.files.retain(|(k, _)| *k != key);
        self.files.push((key, file));
        if self.files.len() > 2 {
            self.files.remove(0);
        }
    }

    /// Replays the file `key` under `config`.
    pub fn replay(&mut self, key: String, config: Config, label: String) {
        let Some((k, file)) = self.files.iter().find(|(k, _)| *k == key).cloned() else {
            self.out.emit(TAction::Fail("Import the trace again to replay it (the file is no longer at hand).".into()));
            return;
        };
        self.stop_job();
        self.next_id += 1;
        let id = self.next_id;
        self.out.emit(TAction::Start { id, name: file.name(), total: file.size() as u64, replay: true });
        *self.job.borrow_mut() = Some((id, k.clone(), Some(label)));
        self.send(Request::TraceReplay { id, key: k, config, text: String::new() }, file);
    }

    /// A job is in flight: stop it (the worker reads no message while it works).
    fn stop_job(&mut self) {
        if self.job.borrow().is_some() {
            self.cancel();
        }
    }

    /// Terminates the worker (the job in flight is lost); the next request starts another.
    pub fn cancel(&mut self) {
        *self.job.borrow_mut() = None;
        *self.waiting.borrow_mut() = None;
        if let Some(l) = self.live.borrow_mut().take() {
            l.worker.set_onmessage(None);
            l.worker.terminate();
        }
    }
}

/// The worker never started (`why`): the request that waited for it is dropped and the
/// panel says why and how to fix it (the page never reads a trace itself).
fn down(
    waiting: &Shared<Option<(Request, web_sys::File)>>,
    job: &Shared<Option<Job>>,
    out: &Callback<TAction>,
    why: &str,
) {
    *waiting.borrow_mut() = None;
    *job.borrow_mut() = None;
    out.emit(TAction::WorkerDown(crate::ui::worker::protocol::WorkerDown::new("trace", why, false).text));
}

/// Hands the answer to the job in flight to the panel, from a fresh task (the answer was
/// unpacked or computed in this one). An answer to a job no longer in flight is dropped.
fn answer(job: &Shared<Option<Job>>, out: &Callback<TAction>, r: Response) {
    let mine = |id: u64| job.borrow_mut().take_if(|j| j.0 == id);
    match r {
        Response::TraceOpened { id, result } => {
            let Some(j) = mine(id) else { return };
            later(out, TAction::Opened { id, key: j.1, result });
        }
        Response::TraceReplayed { id, result } => {
            let Some(j) = mine(id) else { return };
            later(out, TAction::Replayed { id, label: j.2.unwrap_or_default(), result });
        }
        _ => {}
    }
}

/// Emits `a` from a fresh task (a zero timeout; it runs once, so it is not kept). The
/// panel's render of it (Yew renders in a microtask of this task) is marked `render`.
fn later(out: &Callback<TAction>, a: TAction) {
    let out = out.clone();
    gloo::timers::callback::Timeout::new(0, move || {
        let t0 = now();
        out.emit(a);
        let done = Closure::once_into_js(move || measure("schedscope trace: render", t0));
        let queue = js_sys::Reflect::get(&js_sys::global(), &"queueMicrotask".into());
        if let Ok(q) = queue.and_then(|q| q.dyn_into::<js_sys::Function>()) {
            let _ = q.call1(&JsValue::UNDEFINED, &done);
        }
    })
    .forget();
}

fn post(worker: &Worker, req: &Request, file: &web_sys::File) {
    let msg = js_sys::Array::of2(&crate::ui::worker::runner::web::encode(req), file);
    let _ = worker.post_message(&msg);
}
