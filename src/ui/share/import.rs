//! Import: an rt-app workload or a guided tour, from the file picker or dropped on the page.
//! The page reads the file's text and a worker of its own parses it (`Request::Import`,
//! `worker::export::ask`): the page's wasm holds no JSON parser (issue 26).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::address::window;
use crate::ui::app::state::Action;
use crate::ui::common::file_button::file_button;
use crate::ui::StateCtx;

/// Largest file the importer reads (matches `share::rtapp::MAX_FILE_BYTES`).
const MAX_IMPORT_BYTES: f64 = crate::share::rtapp::MAX_FILE_BYTES as f64;

/// Reads an rt-app or tour file, has a worker parse it and dispatches what it read
/// (`Action::Imported`). The reader lives in `holder` until it answers (dropping it would
/// cancel the read).
pub fn read_import(
    file: web_sys::File,
    dispatch: Callback<Action>,
    holder: Rc<RefCell<Option<gloo::file::callbacks::FileReader>>>,
) {
    let name = file.name();
    if file.size() > MAX_IMPORT_BYTES {
        dispatch.emit(Action::Notice(format!(
            "Cannot import {name}: it is {} kB; rt-app files larger than {} kB are not read. Nothing was changed.",
            crate::engine::decimal::fixed(file.size() / 1000.0, 0),
            crate::engine::decimal::fixed(MAX_IMPORT_BYTES / 1000.0, 0)
        )));
        return;
    }
    let blob = gloo::file::File::from(file);
    let reader = gloo::file::callbacks::read_as_text(&blob, move |res| match res {
        Ok(text) => parse_in_worker(name, text, dispatch),
        Err(e) => dispatch.emit(Action::Notice(format!("Cannot read {name}: {e}. Nothing was changed."))),
    });
    *holder.borrow_mut() = Some(reader);
}

/// Posts the text to a worker (`execute::import`) and dispatches its answer.
fn parse_in_worker(name: String, text: String, dispatch: Callback<Action>) {
    use crate::ui::worker::protocol::{Request, Response};
    crate::ui::worker::export::ask(Request::Import { id: 0, text }, move |r| {
        dispatch.emit(match r {
            Ok(Response::Imported { result, .. }) => Action::Imported { name, result },
            // Not `{:?}` of the answer: that would link every message type's Debug into the page.
            Ok(_) => Action::Notice(format!(
                "Cannot import {name}: the worker did not answer an import. Nothing was changed."
            )),
            Err(e) => Action::Notice(format!("Cannot import {name}: {e}. Nothing was changed.")),
        })
    });
}

/// The "Import rt-app…" button: the picked file is read and its import dispatched.
#[function_component(ImportButton)]
pub fn import_button() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let on_file = {
        let dispatch = ctx.dispatcher();
        Callback::from(move |file: web_sys::File| {
            let d = dispatch.clone();
            read_import(file, Callback::from(move |a| d.dispatch(a)), reader.clone());
        })
    };
    file_button(
        "Import rt-app…",
        "Import an rt-app JSON workload or a guided tour (or drop the file on the page)",
        "rtapp-import",
        ".json,application/json",
        on_file,
    )
}

/// Installs drag-and-drop import on the window while mounted (not in embeds).
#[hook]
pub fn use_drop_import(enabled: bool, dispatch: Callback<Action>) {
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    use_effect_with(enabled, move |enabled| {
        let mut listeners = Vec::new();
        if let (true, Some(w)) = (*enabled, window()) {
            let opts = gloo::events::EventListenerOptions::enable_prevent_default();
            listeners.push(gloo::events::EventListener::new_with_options(&w, "dragover", opts, |e| {
                e.prevent_default();
            }));
            listeners.push(gloo::events::EventListener::new_with_options(&w, "drop", opts, move |e| {
                e.prevent_default();
                let file = e
                    .dyn_ref::<web_sys::DragEvent>()
                    .and_then(|d| d.data_transfer())
                    .and_then(|t| t.files())
                    .and_then(|f| f.get(0));
                // A recorded trace goes to the trace panel (`ui::traces`), the rest is rt-app or a tour.
                #[cfg(target_arch = "wasm32")]
                let file = file.filter(|f| !crate::ui::traces::claim_drop(f));
                if let Some(file) = file {
                    read_import(file, dispatch.clone(), reader.clone());
                }
            }));
        }
        move || drop(listeners)
    });
}
