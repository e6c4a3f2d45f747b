//! The tour card: the open step's question, the reader's answer, then the reveal (the
//! step's figure for A and B, and the explanation). Shown above the figures in the
//! explorer and alone with the timeline in an embed (`tour=NAME&step=N&embed=1`).

use yew::prelude::*;

use crate::ui::app::state::{Action, State};
use crate::ui::common::format::{metric, metric_display, metric_label};
use crate::ui::StateCtx;

/// Renders `text` with `backticked` spans as `<code>`.
fn with_code(text: &str) -> Html {
    html! { <>{ for text.split('`').enumerate().map(|(i, part)| if i % 2 == 1 {
        html! { <code>{part.to_string()}</code> }
    } else {
        html! { {part.to_string()} }
    }) }</> }
}

/// Whether the open step's figures may show: no tour, or the reader has answered.
pub fn figures_revealed(s: &State) -> bool {
    s.tour.revealed()
}

#[function_component(TourCard)]
pub fn tour_card() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let number = use_node_ref();
    let Some((tour, n)) = ctx.tour.step() else { return html! {} };
    let st = &tour.steps[n - 1];
    let total = tour.steps.len();
    let go = |to: usize| {
        let (ctx, name) = (ctx.clone(), tour.name.clone());
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Tour(Some((name.clone(), to)))))
    };
    let close = {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Tour(None)))
    };
    let answer = |reply: String| {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::TourAnswer(reply.clone())))
    };
    let submit_number = {
        let (ctx, number) = (ctx.clone(), number.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(input) = number.cast::<web_sys::HtmlInputElement>() {
                ctx.dispatch(Action::TourAnswer(input.value()));
            }
        })
    };
    let def = metric(&st.metric);
    let reply = ctx.tour.reply.clone();
    // The figure once revealed: A -> B when the step compares, else the run's value.
    let b = ctx.result.as_ref().filter(|r| r.gen == ctx.gen);
    let a = ctx.pin.as_ref().and_then(|p| p.result.as_ref());
    let figure = def.map(|d| {
        let show = |m: &crate::engine::Metrics| {
            let (v, u) = metric_display(d, m);
            if u.is_empty() {
                v
            } else {
                format!("{v} {u}")
            }
        };
        let label = metric_label(d, b.map(|r| &r.metrics).unwrap_or(&Default::default()));
        let text = match (a, b) {
            (Some(a), Some(b)) => format!("{label}: A {} → B {}", show(&a.metrics), show(&b.metrics)),
            (None, Some(b)) => format!("{label}: {}", show(&b.metrics)),
            _ => format!("{label}: simulating…"),
        };
        let busy = ctx.running() || ctx.comparing();
        html! { <p class="tour-figure" data-metric={d.key} aria-busy={busy.to_string()}>{text}
        if busy { <span class="u">{" (simulating…)"}</span> }</p> }
    });
    html! {
        <section class="tour panel" aria-label="Guided tour" data-tour={tour.name.clone()} data-step={n.to_string()}>
            <header class="tour-head">
                <strong>{tour.title.clone()}</strong>
                <span class="tour-count">{format!(" · step {n} of {total}: ")}{st.title.clone()}</span>
                if !ctx.embed { <button type="button" class="tour-close" onclick={close.clone()} aria-label="Close the tour">{"×"}</button> }
            </header>
            if !st.set.is_empty() {
                <p class="tour-set">{"A is the preset; B sets "}
                    { for st.set.iter().map(|(k, v)| html! { <code>{format!("{k}={v} ")}</code> }) }</p>
            }
            <p class="tour-point">{"Look at: "}<strong>{def.map(|d| d.title).unwrap_or("")}</strong>
                if let Some(r) = &st.region { {" · in the timeline, "}{r.clone()} }</p>
            <p class="tour-question"><strong>{st.question.clone()}</strong></p>
            if reply.is_none() {
                if st.number.is_some() {
                    <form class="tour-answer" onsubmit={submit_number}>
                        <input ref={number} type="number" step="any" name="tour-number" aria-label="Your answer" required=true />
                        <button type="submit">{"Answer"}</button>
                    </form>
                } else {
                    <div class="tour-answer" role="group" aria-label="Choices">
                        { for st.choices.iter().enumerate().map(|(i, c)| html! {
                            <button type="button" class="tour-choice" data-choice={i.to_string()} onclick={answer(i.to_string())}>{c.clone()}</button>
                        }) }
                    </div>
                }
                <p class="note">{"Answer first: the figures show once you have."}</p>
            } else if let Some(r) = &reply {
                <div class="tour-reveal" role="status">
                    <p class={classes!("tour-verdict", if st.is_right(r) { "right" } else { "wrong" })}>
                        { if st.is_right(r) { "Right. " } else { "Not quite. " } }
                        {"The answer: "}<strong>{st.right_answer()}</strong>
                    </p>
                    { figure.unwrap_or_default() }
                    <p class="tour-explain">{ with_code(&st.explain) }</p>
                    if n == total {
                        <p class="tour-end">{format!("That was the last of the {total} steps of \"{}\". The knobs are yours now: change any of them and the figures follow{}", tour.title, if ctx.embed { "." } else { ", or close the tour." })}</p>
                    }
                </div>
            }
            if !ctx.embed {
                <nav class="tour-nav" aria-label="Tour steps">
                    <button type="button" disabled={n == 1} onclick={go(n.saturating_sub(1).max(1))}>{"← Previous"}</button>
                    if n == total {
                        <button type="button" class="tour-finish" onclick={close.clone()}>{"Finish the tour"}</button>
                    } else {
                        <button type="button" class="tour-next" onclick={go(n + 1)}>{"Next step →"}</button>
                    }
                </nav>
            }
        </section>
    }
}

/// "Take the tour" for the current preset, when it has one and no tour is open.
#[function_component(TourOffer)]
pub fn tour_offer() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
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
