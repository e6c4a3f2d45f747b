//! A file export as a worker job (issue 26): the page's wasm holds no exporter (Perfetto
//! JSON, trace-cmd text, CSV and serde_json's writer are the worker's), so an export starts
//! a worker of its own, posts the run the page holds (`Request::Export`, `SweepCsv`) once it
//! is ready, hands the text to `done` and terminates it. Its own worker, not the runner's:
//! an export never waits behind a run, and a run never waits behind an export. Natively (the
//! UI's server-side tests) the job runs in place.

#[cfg(target_arch = "wasm32")]
pub use web::run;

/// Runs `req` here and now (no worker outside a browser).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(req: crate::ui::worker::protocol::Request, done: impl FnOnce(Result<String, String>) + 'static) {
    done(match crate::ui::worker::execute::execute(&req) {
        crate::ui::worker::protocol::Response::Exported { result, .. } => result,
        other => Err(format!("not an export: {other:?}")),
    })
}

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;
    use std::rc::Rc;

    use wasm_bindgen::prelude::*;
    use web_sys::{Event, MessageEvent, Worker};

    use crate::ui::worker::protocol::{Request, Response};
    use crate::ui::worker::runner::web::{decode, encode, js_message};

    type Done = Box<dyn FnOnce(Result<String, String>)>;
    type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(Event)>);

    /// Runs `req` in a new worker; `done` gets the file's text or why there is none (once).
    pub fn run(req: Request, done: impl FnOnce(Result<String, String>) + 'static) {
        let worker = match Worker::new("./worker_loader.js") {
            Ok(w) => w,
            Err(e) => return done(Err(format!("the export worker could not start ({})", js_message(&e)))),
        };
        let done: Rc<RefCell<Option<Done>>> = Rc::new(RefCell::new(Some(Box::new(done))));
        let handlers: Rc<RefCell<Option<Handlers>>> = Rc::default();
        // Ends the job: the worker goes, and its handlers are dropped after this task (one of
        // them is running now).
        let finish = {
            let (worker, done, handlers) = (worker.clone(), done.clone(), handlers.clone());
            move |r: Result<String, String>| {
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
                            finish(Err("the run could not be sent to the export worker".into()))
                        }
                    }
                }
                Response::Exported { result, .. } => finish(result),
                Response::Garbled { error } => finish(Err(error)),
                _ => {}
            })
        };
        let on_error = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            e.prevent_default();
            let why = js_sys::Reflect::get(&e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string());
            finish(Err(format!("the export worker stopped ({})", why.unwrap_or_else(|| "no message".into()))))
        });
        use wasm_bindgen::JsCast;
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *handlers.borrow_mut() = Some((on_message, on_error));
    }
}
