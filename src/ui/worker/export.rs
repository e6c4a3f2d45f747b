//! A file export or import as a worker job (issue 26): the page's wasm holds no exporter
//! (Perfetto JSON, trace-cmd text, CSV and serde_json's writer are the worker's) and no
//! importer (the tour and rt-app parsers, serde_json's reader), so such a job starts a
//! worker of its own, posts the request (`Request::Export`, `SweepCsv`, `Import`) once it is
//! ready, hands the answer to `done` and terminates it. Its own worker, not the runner's:
//! it never waits behind a run, and a run never waits behind it. Natively (the UI's
//! server-side tests) the job runs in place.

use crate::ui::worker::protocol::{Request, Response};

/// Runs an export (`Request::Export`, `SweepCsv`): `done` gets the file's text or why there
/// is none (once).
pub fn run(req: Request, done: impl FnOnce(Result<String, String>) + 'static) {
    ask(req, move |r| {
        done(match r {
            Ok(Response::Exported { result, .. }) => result,
            Ok(_) => Err("the worker's answer is not a file".into()),
            Err(e) => Err(e),
        })
    })
}

#[cfg(target_arch = "wasm32")]
pub use web::ask;

/// Runs `req` here and now (no worker outside a browser).
#[cfg(not(target_arch = "wasm32"))]
pub fn ask(req: Request, done: impl FnOnce(Result<Response, String>) + 'static) {
    done(Ok(crate::ui::worker::execute::execute(&req)))
}

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;
    use std::rc::Rc;

    use wasm_bindgen::prelude::*;
    use web_sys::{Event, MessageEvent, Worker};

    use crate::ui::worker::protocol::{Request, Response};
    use crate::ui::worker::runner::web::{decode, encode, js_message};

    type Done = Box<dyn FnOnce(Result<Response, String>)>;
    type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(Event)>);

    /// Runs `req` in a new worker; `done` gets its answer (`Exported`, `Imported`,
    /// `Garbled`) or why there is none (once).
    pub fn ask(req: Request, done: impl FnOnce(Result<Response, String>) + 'static) {
        let worker = match Worker::new("./worker_loader.js") {
            Ok(w) => w,
            Err(e) => return done(Err(format!("the worker could not start ({})", js_message(&e)))),
        };
        let done: Rc<RefCell<Option<Done>>> = Rc::new(RefCell::new(Some(Box::new(done))));
        let handlers: Rc<RefCell<Option<Handlers>>> = Rc::default();
        // Ends the job: the worker goes, and its handlers are dropped after this task (one of
        // them is running now).
        let finish = {
            let (worker, done, handlers) = (worker.clone(), done.clone(), handlers.clone());
            move |r: Result<Response, String>| {
                worker.set_onmessage(None);
                worker.set_onerror(None);
                worker.terminate();
                let held = handlers.borrow_mut().take();
                gloo::timers::callback::Timeout::new(0, move || drop(held)).forget();
                if let Some(d) = done.borrow_mut().take() {
                    d(r)
                }
            }
        };
        let on_message = {
            let (worker, finish) = (worker.clone(), finish.clone());
            let mut req = Some(req);
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| match decode(&e.data()) {
                Response::Ready => {
                    if let Some(r) = req.take() {
                        if worker.post_message(&encode(&r)).is_err() {
                            finish(Err("the request could not be sent to the worker".into()))
                        }
                    }
                }
                Response::Garbled { error } => finish(Err(error)),
                r @ (Response::Exported { .. } | Response::Imported { .. }) => finish(Ok(r)),
                _ => {}
            })
        };
        let on_error = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            e.prevent_default();
            let why = js_sys::Reflect::get(&e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string());
            finish(Err(format!("the worker stopped ({})", why.unwrap_or_else(|| "no message".into()))))
        });
        use wasm_bindgen::JsCast;
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *handlers.borrow_mut() = Some((on_message, on_error));
    }
}
