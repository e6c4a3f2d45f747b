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
//! If the worker cannot start (the constructor throws, its script fails to load or errors
//! before its first message, or it says nothing within `READY_MS`: a script that hangs), the
//! page reads the file itself (`PageSide`): `FileReader` callbacks of `job::CHUNK_BYTES`
//! each, every chunk parsed in pieces of about `SLICE_MS` a task with a fresh task between
//! (`parse`, `yield_then`: a chunk parsed in one task was 60-130 ms, and a Cancel click came
//! only after the read had ended), the same progress bar and Cancel (dropping the reader
//! aborts it; a pending piece finds its read gone), and the same `job::Stream` /
//! `job::complete` as the worker, so the numbers are the same. The panel says the trace is
//! read on the page and why. The last steps run a task each: the model built from all lines
//! (`Stream::finish`, one call into `share::ftrace`, so one task however large the file:
//! 42-136 ms for 24-100 MB on a busy 2-core machine), its timeline (`job::timeline`), its
//! statistics (`job::complete_open`), then the render.
//!
//! The steps that run on the main thread are User Timing measures (`measure`: "schedscope
//! trace: decode", "… page model", "… page timeline", "… page answer", "… render"), so DevTools and the e2e
//! tests can tell which one a long task was.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Event, MessageEvent, Worker};
use yew::Callback;

use super::{job, TAction};
use crate::engine::config::Config;
use crate::ui::jobs::{to_text, Request, Response};
use crate::ui::marks::{measure, now};

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

/// The page reading traces itself, once the worker could not start.
#[derive(Default)]
struct PageSide {
    /// Why the worker could not start (set once: later requests go straight to the page).
    why: Option<String>,
    read: Option<PageRead>,
}

/// A file the page is reading: the request (job `id`), the file, the parse so far, the
/// chunk being parsed (from byte `at`) and the pending read.
struct PageRead {
    id: u64,
    req: Request,
    file: web_sys::File,
    stream: job::Stream,
    chunk: Vec<u8>,
    at: usize,
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
            let (t0, data) = (now(), e.data());
            let resp = crate::ui::runner::web::decode(&data);
            if matches!(resp, Response::TraceOpened { .. } | Response::TraceReplayed { .. }) {
                measure("schedscope trace: decode", t0);
            }
            match resp {
                Response::Ready => {
                    if let Some(l) = live.borrow_mut().as_mut() {
                        l.ready = true;
                        l._ready_timer = None;
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
            drop(l);
            to_page(&page, &waiting, &job, &out, msg);
        });
        // A worker that neither says Ready nor errors (its script hangs) is given up too.
        let (out, live2, page, waiting, job) =
            (self.out.clone(), self.live.clone(), self.page.clone(), self.waiting.clone(), self.job.clone());
        let ready_timer = gloo::timers::callback::Timeout::new(READY_MS, move || {
            let Some(l) = live2.borrow_mut().take_if(|l| !l.ready) else { return };
            l.worker.set_onmessage(None);
            l.worker.set_onerror(None);
            l.worker.terminate();
            // Dropped from its own callback: the handlers and this timer go once it returns.
            gloo::timers::callback::Timeout::new(0, move || drop(l)).forget();
            to_page(&page, &waiting, &job, &out, format!("it did not answer within {} s", READY_MS / 1000));
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

/// The worker never started (`why`): the page reads traces itself from now on, starting
/// with the request that waited for it.
fn to_page(
    page: &Shared<PageSide>,
    waiting: &Shared<Option<(Request, web_sys::File)>>,
    job: &Shared<Option<Job>>,
    out: &Callback<TAction>,
    why: String,
) {
    page.borrow_mut().why = Some(why);
    let pending = waiting.borrow_mut().take();
    if let Some((req, file)) = pending {
        on_page(page, job, out, req, file);
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

/// Runs `req` on the page (the worker could not start): reads `file` a chunk at a time if
/// the request needs it (`read_next`, `parse`), then answers as the worker would.
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
    page.borrow_mut().read = Some(PageRead { id, req, file, stream, chunk: Vec::new(), at: 0, _reader: None });
    read_next(page.clone(), job.clone(), out.clone());
}

/// Reads the next chunk of the page's file (its callback starts `parse`), or, at the end,
/// builds the answer: the model in one task, the answer from it in the next (`finish`).
fn read_next(page: Shared<PageSide>, job: Shared<Option<Job>>, out: Callback<TAction>) {
    let mut p = page.borrow_mut();
    let Some(r) = p.read.as_mut() else { return };
    let (at, total, id) = (r.stream.bytes(), r.file.size() as u64, r.id);
    if at >= total {
        let Some(r) = p.read.take() else { return };
        drop(p);
        finish(job, out, r);
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
        let Some(r) = p.read.as_mut().filter(|r| r.id == id) else { return };
        match bytes {
            Ok(b) => {
                r.stream.sniff(&b);
                r.chunk = b;
                r.at = 0;
                drop(p);
                parse(page2, job2, out2, id);
            }
            Err(_) => {
                let Some(r) = p.read.take() else { return };
                drop(p);
                fail_read(&job2, &out2, &r.req, at);
            }
        }
    });
    r._reader = Some(reader);
}

/// Parses the chunk read, `PIECE_BYTES` at a time, for at most `SLICE_MS` of this task; the
/// rest in a next task (`yield_then`), so a click (Cancel) or a frame gets in between. A
/// chunk done: its progress, then the next read. `id` names the read (a cancelled one's
/// pending task finds another read, or none, and stops).
fn parse(page: Shared<PageSide>, job: Shared<Option<Job>>, out: Callback<TAction>, id: u64) {
    let t0 = now();
    let mut p = page.borrow_mut();
    let Some(r) = p.read.as_mut().filter(|r| r.id == id) else { return };
    let mut progress = None;
    while r.at < r.chunk.len() {
        let end = (r.at + PIECE_BYTES).min(r.chunk.len());
        match r.stream.push(&r.chunk[r.at..end]) {
            Ok(resp) => progress = Some(resp),
            Err(why) => {
                let Some(r) = p.read.take() else { return };
                drop(p);
                answer(&job, &out, refused(&r.req, why));
                return;
            }
        }
        r.at = end;
        if now() - t0 >= SLICE_MS {
            break;
        }
    }
    if r.at < r.chunk.len() {
        drop(p);
        yield_then(move || parse(page, job, out, id));
        return;
    }
    r.chunk = Vec::new();
    drop(p);
    if let Some(Response::TraceProgress { id, bytes, total }) = progress {
        out.emit(TAction::Progress { id, bytes, total });
    }
    read_next(page, job, out);
}

/// The file read: the model (`Stream::finish`) in one task; for an open its timeline
/// (`job::timeline`) in the next, the rest of the answer (`job::complete_open`: statistics,
/// or the replay) in a third; the panel renders it in a fourth (`answer`). Each is marked
/// for the browser's performance tools (`measure`).
fn finish(job: Shared<Option<Job>>, out: Callback<TAction>, r: PageRead) {
    let PageRead { id, req, stream, .. } = r;
    yield_then(move || {
        if job.borrow().as_ref().is_none_or(|j| j.0 != id) {
            return;
        }
        let t0 = now();
        let read = stream.finish();
        measure("schedscope trace: page model", t0);
        yield_then(move || {
            if job.borrow().as_ref().is_none_or(|j| j.0 != id) {
                return;
            }
            // An open: its timeline in this task, the statistics in the next.
            let t0 = now();
            let timeline = matches!(req, Request::TraceOpen { .. }).then(|| job::timeline(&read)).flatten();
            if timeline.is_some() {
                measure("schedscope trace: page timeline", t0);
            }
            yield_then(move || {
                if job.borrow().as_ref().is_none_or(|j| j.0 != id) {
                    return;
                }
                let t0 = now();
                let resp = job::complete_open(&req, Some(read), timeline);
                measure("schedscope trace: page answer", t0);
                answer(&job, &out, resp);
            });
        });
    });
}

/// Bytes parsed between two looks at the clock (about 1-3 ms of parsing in wasm).
const PIECE_BYTES: usize = 32 << 10;
/// The page parses for about this long (ms) before it lets the browser in.
const SLICE_MS: f64 = 8.0;

type Task = Box<dyn FnOnce()>;

thread_local! {
    /// The tasks `yield_then` queued, and the channel whose messages run them (one message
    /// a task, in order), made on first use (`Some(None)`: there is no `MessageChannel`).
    static NEXT: std::cell::RefCell<(std::collections::VecDeque<Task>, Option<Option<JsValue>>)> =
        std::cell::RefCell::new((Default::default(), None));
}

/// Runs `f` in a fresh task: a `MessageChannel` message (a zero timeout is clamped to 4 ms
/// once nested), or a zero timeout where there is none. Input and rendering get in first.
fn yield_then(f: impl FnOnce() + 'static) {
    let post = NEXT.with(|n| {
        let mut n = n.borrow_mut();
        let port = n.1.get_or_insert_with(channel).clone();
        if port.is_some() {
            n.0.push_back(Box::new(f));
            return port;
        }
        gloo::timers::callback::Timeout::new(0, f).forget();
        None
    });
    if let Some(c) = post {
        let port = js_sys::Reflect::get(&c, &"port2".into()).unwrap_or(JsValue::UNDEFINED);
        let send =
            js_sys::Reflect::get(&port, &"postMessage".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        if let Some(send) = send {
            let _ = send.call1(&port, &JsValue::UNDEFINED);
        }
    }
}

/// A `MessageChannel` whose first port runs the next queued task on each message (kept in
/// `NEXT`, so both ports live as long as the page; tasks are posted to its second port).
fn channel() -> Option<JsValue> {
    let c =
        js_sys::Reflect::get(&js_sys::global(), &"MessageChannel".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
    let c = js_sys::Reflect::construct(&c, &js_sys::Array::new()).ok()?;
    let one = js_sys::Reflect::get(&c, &"port1".into()).ok()?;
    let run = Closure::<dyn FnMut()>::new(|| {
        let task = NEXT.with(|n| n.borrow_mut().0.pop_front());
        if let Some(task) = task {
            task();
        }
    });
    js_sys::Reflect::set(&one, &"onmessage".into(), run.as_ref()).ok()?;
    // The handler lives as long as the page.
    run.forget();
    Some(c)
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

fn post(worker: &Worker, json: &str, file: &web_sys::File) {
    let msg = js_sys::Array::of2(&JsValue::from_str(json), file);
    let _ = worker.post_message(&msg);
}
