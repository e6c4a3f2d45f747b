//! The page's trace worker (wasm32): a second instance of the simulation worker bin
//! (`worker_loader.js`), started on the first import, that reads files and replays them.
//!
//! A request goes as `[json, File]`: the `File` is a handle, not its bytes (the worker reads
//! it, `worker_io`), so the main thread does no work proportional to the file's size. The
//! worker reads no message while it works, so Cancel terminates it; the next request starts
//! a new one (which has lost the cached model, so a replay sends the file again: it always
//! travels with the request). Requests wait until the worker says Ready (messages posted
//! before its wasm is up would be lost).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Event, MessageEvent, Worker};
use yew::Callback;

use super::TAction;
use crate::engine::config::Config;
use crate::ui::jobs::{to_text, Request, Response};

const WORKER_URL: &str = "./worker_loader.js";

struct Live {
    worker: Worker,
    ready: bool,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

type Shared<T> = std::rc::Rc<std::cell::RefCell<T>>;
/// The job in flight: its id, the file key and, for a replay, the config's label.
type Job = (u64, String, Option<String>);

pub struct TraceWorker {
    out: Callback<TAction>,
    live: std::rc::Rc<std::cell::RefCell<Option<Live>>>,
    /// The request waiting for Ready.
    waiting: std::rc::Rc<std::cell::RefCell<Option<(String, web_sys::File)>>>,
    /// The last two files opened (by key), for replays: the one shown is one of them (a
    /// newer one may have failed to open).
    files: Vec<(String, web_sys::File)>,
    /// What the job in flight was for: (id, key, label) of a replay, or the key of an open.
    job: Shared<Option<Job>>,
    /// The last job id given (ids only grow, so an answer names its job).
    next_id: u64,
}

fn file_key(f: &web_sys::File) -> String {
    format!("{}:{}:{}", f.name(), f.size(), f.last_modified())
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
        let worker = Worker::new(WORKER_URL).map_err(|e| e.as_string().unwrap_or_else(|| "no Web Worker".into()))?;
        let (out, live, waiting, job) = (self.out.clone(), self.live.clone(), self.waiting.clone(), self.job.clone());
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let data = e.data();
            let resp = crate::ui::runner::web::decode(&data);
            match resp {
                Response::Ready => {
                    if let Some(l) = live.borrow_mut().as_mut() {
                        l.ready = true;
                        if let Some((json, file)) = waiting.borrow_mut().take() {
                            post(&l.worker, &json, &file);
                        }
                    }
                }
                Response::TraceProgress { id, bytes, total } => out.emit(TAction::Progress { id, bytes, total }),
                // The answer was unpacked in this task; the page renders it in the next one,
                // so neither is a long task (e2e `traces.test.mjs` watches for them).
                Response::TraceOpened { id, result } => {
                    let key = job.borrow_mut().take().map(|j| j.1).unwrap_or_default();
                    later(&out, TAction::Opened { id, key, result });
                }
                Response::TraceReplayed { id, result } => {
                    let label = job.borrow_mut().take().and_then(|j| j.2).unwrap_or_default();
                    later(&out, TAction::Replayed { id, label, result });
                }
                Response::Garbled { error } => {
                    out.emit(TAction::Fail(format!("The trace worker's answer was unreadable: {error}")))
                }
                _ => {}
            }
        });
        let (out, live2) = (self.out.clone(), self.live.clone());
        let on_error = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            e.prevent_default();
            let msg = js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "unknown error".into());
            if let Some(l) = live2.borrow_mut().take() {
                l.worker.terminate();
            }
            out.emit(TAction::Fail(format!("The trace worker failed ({msg}); nothing else was changed.")));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.live.borrow_mut() = Some(Live { worker, ready: false, _on_message: on_message, _on_error: on_error });
        Ok(())
    }

    fn send(&mut self, req: &Request, file: web_sys::File) {
        if let Err(e) = self.start() {
            self.out.emit(TAction::Fail(format!("Cannot read traces here: {e}.")));
            return;
        }
        let json = to_text(req);
        let live = self.live.borrow();
        match live.as_ref() {
            Some(l) if l.ready => post(&l.worker, &json, &file),
            _ => *self.waiting.borrow_mut() = Some((json, file)),
        }
    }

    /// Reads `file`.
    pub fn open(&mut self, file: web_sys::File) {
        let name = file.name();
        if file.size() > super::MAX_TRACE_BYTES {
            self.out.emit(TAction::Fail(format!(
                "Cannot import {name}: it is {}; the page reads traces up to {}. Nothing was changed.",
                super::size_text(file.size() as u64),
                super::size_text(super::MAX_TRACE_BYTES as u64)
            )));
            return;
        }
        let key = file_key(&file);
        self.stop_job();
        self.next_id += 1;
        let id = self.next_id;
        self.out.emit(TAction::Start { id, name, total: file.size() as u64, replay: false });
        *self.job.borrow_mut() = Some((id, key.clone(), None));
        self.send(&Request::TraceOpen { id, key: key.clone(), text: String::new() }, file.clone());
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
        self.send(&Request::TraceReplay { id, key: k, config, text: String::new() }, file);
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

/// Emits `a` from a fresh task (a zero timeout; it runs once, so it is not kept).
fn later(out: &Callback<TAction>, a: TAction) {
    let out = out.clone();
    gloo::timers::callback::Timeout::new(0, move || out.emit(a)).forget();
}

fn post(worker: &Worker, json: &str, file: &web_sys::File) {
    let msg = js_sys::Array::of2(&JsValue::from_str(json), file);
    let _ = worker.post_message(&msg);
}
