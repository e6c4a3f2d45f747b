//! The tour card in the views module (src/bin/views.rs, its own wasm and yew): registers
//! `window.schedscopeTour.show(node, bytes, onGo, onClose, onAnswer)`, which decodes the
//! card (`seam::Card` as `wire` bytes, None when no tour is open) and renders
//! `view::TourCardView` into `node`, updating the app already there when `node` is the same
//! element. The reader's moves call `onGo(step)`, `onClose()` and `onAnswer(text)`.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::ui::common::lazy::{register, Mounts};
use crate::ui::tour::seam::Card;
use crate::ui::tour::view::{TourCardView, TourCardViewProps};

thread_local! {
    static MOUNTED: Mounts<TourCardView> = Mounts::default();
}

fn show(
    node: web_sys::Element,
    bytes: Vec<u8>,
    on_go: js_sys::Function,
    on_close: js_sys::Function,
    on_answer: js_sys::Function,
) {
    let card = match crate::ui::worker::wire::decode::<Option<Card>>(&bytes) {
        Ok(c) => c,
        Err(e) => {
            web_sys::console::error_1(&format!("schedscope tour: bad card: {e:?}").into());
            return;
        }
    };
    let on_go = Callback::from(move |n: u32| {
        let _ = on_go.call1(&JsValue::NULL, &n.into());
    });
    let on_close = Callback::from(move |()| {
        let _ = on_close.call0(&JsValue::NULL);
    });
    let on_answer = Callback::from(move |reply: String| {
        let _ = on_answer.call1(&JsValue::NULL, &reply.into());
    });
    MOUNTED.with(|m| m.show(node, TourCardViewProps { card, on_go, on_close, on_answer }));
}

/// Registers `show` on `window` (called once, by the module's `main`).
pub fn start() {
    type Show = dyn Fn(web_sys::Element, js_sys::Uint8Array, js_sys::Function, js_sys::Function, js_sys::Function);
    let show = Closure::<Show>::new(|node, bytes: js_sys::Uint8Array, on_go, on_close, on_answer| {
        show(node, bytes.to_vec(), on_go, on_close, on_answer)
    });
    register("schedscopeTour", show.as_ref());
    // Lives as long as the page.
    show.forget();
}
