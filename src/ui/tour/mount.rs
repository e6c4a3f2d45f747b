//! The app's side of the tour card (issue 26's code splitting): `TourCard` builds the card
//! (`seam::Card`) from the state and, in the browser, hands it as `wire` bytes to the views
//! module (`common::lazy`, asked for once a tour is open: the card is a tour link's first
//! screen, and the figures wait for the answer anyway), which draws `view::TourCardView`
//! into a `<div>` this component's yew leaves empty; the reader's moves come back as
//! actions (`Action::Tour`, `Action::TourAnswer`). Meanwhile an open tour says "Loading the
//! tour…", and if the module fails, why, with a button that closes the tour (its figures
//! wait for an answer; the config untouched; the next step opened retries). Natively (the SSR tests) the card is drawn in
//! place. Also the page's own small pieces: `tour_offer` and `figures_revealed`.

use yew::prelude::*;

use crate::ui::app::state::{Action, State};
use crate::ui::tour::seam::Card;
use crate::ui::StateCtx;

/// Whether the open step's figures may show: no tour, or the reader has answered.
pub fn figures_revealed(s: &State) -> bool {
    s.tour.revealed()
}

/// "Take the tour" for the current preset, when it has one and no tour is open. A plain
/// function of the state its caller reads anyway, not a component (issue 26).
pub fn tour_offer(ctx: &StateCtx) -> Html {
    if ctx.tour.open.is_some() {
        return html! {};
    }
    let Some(t) = crate::ui::tour::for_preset(&ctx.preset) else { return html! {} };
    let onclick = {
        let (ctx, name) = (ctx.clone(), t.name.clone());
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Tour(Some((name.clone(), 1)))))
    };
    html! {
        <button type="button" class="tour-start" data-tour={t.name.clone()} {onclick}
            title={format!("{} steps: predict, then see", t.steps.len())}>{format!("Take the tour: {}", t.title)}</button>
    }
}

/// Natively: the card in place.
#[cfg(not(target_arch = "wasm32"))]
#[function_component(TourCard)]
pub fn tour_card() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let card = Card::of(&ctx);
    let name = card.as_ref().map(|c| c.name.clone()).unwrap_or_default();
    let on_go = {
        let ctx = ctx.clone();
        Callback::from(move |n: u32| ctx.dispatch(Action::Tour(Some((name.clone(), n as usize)))))
    };
    let on_close = {
        let ctx = ctx.clone();
        Callback::from(move |()| ctx.dispatch(Action::Tour(None)))
    };
    let on_answer = Callback::from(move |reply: String| ctx.dispatch(Action::TourAnswer(reply)));
    html! { <crate::ui::tour::view::TourCardView {card} {on_go} {on_close} {on_answer} /> }
}

#[cfg(target_arch = "wasm32")]
pub use web::TourCard;

#[cfg(target_arch = "wasm32")]
mod web {
    use std::rc::Rc;

    use wasm_bindgen::prelude::*;

    use super::*;
    use crate::ui::common::lazy::LazyMount;

    /// In the browser: the module's mount (`lazy::LazyMount`), asked for once a tour is open.
    #[function_component(TourCard)]
    pub fn tour_card() -> Html {
        let ctx = use_context::<StateCtx>().expect("StateCtx");
        let card = Card::of(&ctx);
        let (name, n) = card.as_ref().map(|c| (c.name.clone(), c.n)).unwrap_or_default();
        // A new step or tour retries after a failure.
        let retry = name.bytes().fold(u64::from(n), |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        // The module's callbacks: `onGo(step)`, `onClose()`, `onAnswer(text)`; made once per tour.
        let args: Rc<Vec<JsValue>> = {
            let d = ctx.dispatcher();
            use_memo(name, move |name| {
                let (dg, dc, da, name) = (d.clone(), d.clone(), d, name.clone());
                vec![
                    Closure::<dyn Fn(u32)>::new(move |n: u32| {
                        dg.dispatch(Action::Tour(Some((name.clone(), n as usize))))
                    })
                    .into_js_value(),
                    Closure::<dyn Fn()>::new(move || dc.dispatch(Action::Tour(None))).into_js_value(),
                    Closure::<dyn Fn(String)>::new(move |reply: String| da.dispatch(Action::TourAnswer(reply)))
                        .into_js_value(),
                ]
            })
        };
        let open = card.is_some();
        let bytes = Rc::new(crate::ui::worker::wire::encode(&card));
        // The figures wait for an answer the card would take: a failure offers to close the tour.
        let close = {
            let ctx = ctx.clone();
            Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Tour(None)))
        };
        html! {
            <LazyMount api="schedscopeTour" wanted={open} {bytes} {args} class="tour-mount" {retry}
                loading={open.then(|| ("Loading the tour…".into(), "note tour-loading".into()))}
                show_failure={open} what="The tour"
                then="Your config is as it was; open the step again to try again, or ">
                <button type="button" class="tour-close" onclick={close}>{"close the tour"}</button>{"."}
            </LazyMount>
        }
    }
}
