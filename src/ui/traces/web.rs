//! The page's trace worker (wasm32): a second instance of the simulation worker bin
//! (`worker_loader.js`), started on the first import, that reads files and replays them.
//!
//! A request goes as `[json, File]`: the `File` is a handle, not its bytes (the worker reads
//! it, `worker_io`), so the main thread does no work proportional to the file's size. The
//! worker reads no message while it works, so Cancel terminates it; the next request starts
//! a new one (which has lost the cached model, so a replay sends the file again: it always
//! travels with the request). Requests wait until the worker says Ready (messages posted
//! before its wasm is up would be lost).
//!
//! If the worker cannot start (the constructor throws, or its script fails to load or errors
//! before its first message), the page reads the file itself (`PageSide`): `FileReader`
//! callbacks of `job::CHUNK_BYTES` each, one chunk parsed per task (so the page stays
//! responsive between chunks), the same progress bar and Cancel (dropping the reader aborts
//! it), and the same `job::Stream` / `job::complete` as the worker, so the numbers are the
//! same. The panel says the trace is read on the page and why. The last step (the model
//! built from all lines, its statistics and timeline) is one task on the page then.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Event, MessageEvent, Worker};
use yew::Callback;

use super::{job, TAction};
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

/// The page reading traces itself, once the worker could not start.
#[derive(Default)]
struct PageSide {
    /// Why the worker could not start (set once: later requests go straight to the page).
    why: Option<String>,
    read: Option<PageRead>,
}

/// A file the page is reading: the request, the file, the parse so far and the pending read.
struct PageRead {
    req: Request,
    file: web_sys::File,
    stream: job::Stream,
    _reader: Option<gloo::file::callbacks::FileReader>,
}
/// The job in flight: its id, the file key and, for a replay, the config's label.
type Job = (u64, String, Option<String>);

pub struct TraceWorker {
    out: Callback<TAction>,
    live: std::rc::Rc<std::cell::RefCell<Option<Live>>>,
    /// The request waiting for Ready.
    waiting: Shared<Option<(Request, web_sys::File)>>,
    page: Shared<PageSide>,
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
            page: Default::default(),
        }
    }

    fn start(&self) -> Result<(), String> {
        if self.live.borrow().is_some() {
            return Ok(());
        }
        let worker = Worker::new(WORKER_URL).map_err(|e| js_message(&e))?;
        let (out, live, waiting, job) = (self.out.clone(), self.live.clone(), self.waiting.clone(), self.job.clone());
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let data = e.data();
            let resp = crate::ui::runner::web::decode(&data);
            match resp {
                Response::Ready => {
                    if let Some(l) = live.borrow_mut().as_mut() {
                        l.ready = true;
                        if let Some((req, file)) = waiting.borrow_mut().take() {
                            post(&l.worker, &to_text(&req), &file);
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
        let (out, live2, page, waiting, job) =
            (self.out.clone(), self.live.clone(), self.page.clone(), self.waiting.clone(), self.job.clone());
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
            // It never started: the page reads traces itself from now on.
            page.borrow_mut().why = Some(msg);
            let pending = waiting.borrow_mut().take();
            if let Some((req, file)) = pending {
                on_page(&page, &job, &out, req, file);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.live.borrow_mut() = Some(Live { worker, ready: false, _on_message: on_message, _on_error: on_error });
        Ok(())
    }

    fn send(&mut self, req: Request, file: web_sys::File) {
        if self.page.borrow().why.is_none() {
            if let Err(e) = self.start() {
                self.page.borrow_mut().why = Some(e);
            }
        }
        if self.page.borrow().why.is_some() {
            on_page(&self.page, &self.job, &self.out, req, file);
            return;
        }
        let live = self.live.borrow();
        match live.as_ref() {
            Some(l) if l.ready => post(&l.worker, &to_text(&req), &file),
            _ => *self.waiting.borrow_mut() = Some((req, file)),
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
        // Dropping the page's pending `FileReader` aborts it.
        self.page.borrow_mut().read = None;
        if let Some(l) = self.live.borrow_mut().take() {
            l.worker.set_onmessage(None);
            l.worker.terminate();
        }
    }
}

/// The text of a thrown JS value (an `Error`'s message).
fn js_message(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "no Web Worker".into())
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

/// Runs `req` on the page (the worker could not start): reads `file` a chunk a task if the
/// request needs it, then answers as the worker would.
fn on_page(
    page: &Shared<PageSide>,
    job: &Shared<Option<Job>>,
    out: &Callback<TAction>,
    req: Request,
    file: web_sys::File,
) {
    let why = page.borrow().why.clone().unwrap_or_default();
    out.emit(TAction::OnPage(why));
    let id = match &req {
        Request::TraceOpen { id, .. } | Request::TraceReplay { id, .. } => *id,
        _ => return,
    };
    if !job::needs_read(&req) {
        let (job, out) = (job.clone(), out.clone());
        gloo::timers::callback::Timeout::new(0, move || answer(&job, &out, job::complete(&req, None))).forget();
        return;
    }
    let stream = job::Stream::new(id, file.size() as u64);
    page.borrow_mut().read = Some(PageRead { req, file, stream, _reader: None });
    step(page.clone(), job.clone(), out.clone());
}

/// Reads the next chunk of the page's file (its callback parses it and reads the next), or,
/// at the end, answers the request.
fn step(page: Shared<PageSide>, job: Shared<Option<Job>>, out: Callback<TAction>) {
    let mut p = page.borrow_mut();
    let Some(r) = p.read.as_mut() else { return };
    let (at, total) = (r.stream.bytes(), r.file.size() as u64);
    if at >= total {
        let Some(r) = p.read.take() else { return };
        drop(p);
        gloo::timers::callback::Timeout::new(0, move || {
            let resp = job::complete(&r.req, Some(r.stream.finish()));
            answer(&job, &out, resp);
        })
        .forget();
        return;
    }
    let end = (at + job::CHUNK_BYTES as u64).min(total);
    let Ok(slice) = r.file.slice_with_f64_and_f64(at as f64, end as f64) else {
        let Some(r) = p.read.take() else { return };
        drop(p);
        fail_read(&job, &out, &r.req, at);
        return;
    };
    let (page2, job2, out2) = (page.clone(), job.clone(), out.clone());
    let reader = gloo::file::callbacks::read_as_bytes(&gloo::file::Blob::from(slice), move |bytes| {
        let mut p = page2.borrow_mut();
        let Some(r) = p.read.as_mut() else { return };
        let pushed = match bytes {
            Ok(b) => r.stream.push(&b).map_err(Some),
            Err(_) => Err(None),
        };
        match pushed {
            Ok(Response::TraceProgress { id, bytes, total }) => {
                drop(p);
                out2.emit(TAction::Progress { id, bytes, total });
                step(page2, job2, out2);
            }
            Ok(_) => {}
            Err(why) => {
                let Some(r) = p.read.take() else { return };
                drop(p);
                match why {
                    Some(why) => answer(&job2, &out2, refused(&r.req, why)),
                    None => fail_read(&job2, &out2, &r.req, at),
                }
            }
        }
    });
    r._reader = Some(reader);
}

/// The answer to `req` when its file is refused or unreadable.
fn refused(req: &Request, why: String) -> Response {
    match req {
        Request::TraceReplay { id, .. } => Response::TraceReplayed { id: *id, result: Err(why) },
        Request::TraceOpen { id, .. } => Response::TraceOpened { id: *id, result: Err(why) },
        _ => Response::Garbled { error: why },
    }
}

fn fail_read(job: &Shared<Option<Job>>, out: &Callback<TAction>, req: &Request, at: u64) {
    answer(job, out, refused(req, format!("the file could not be read past byte {at}")));
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
