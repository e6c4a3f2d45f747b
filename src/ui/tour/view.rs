//! The tour card (drawn by the views module in the browser, in place natively): the open
//! step's question, the reader's answer, then the reveal (the step's figure for A and B,
//! and the explanation). Shown above the figures in the explorer and alone with the
//! timeline in an embed (`tour=NAME&step=N&embed=1`). It is handed `seam::Card` and no app
//! state; the reader's moves go back as callbacks (`mount.rs` turns them into actions).

use yew::prelude::*;

use crate::ui::tour::seam::Card;

/// Renders `text` with `backticked` spans as `<code>`.
fn with_code(text: &str) -> Html {
    html! { <>{ for text.split('`').enumerate().map(|(i, part)| if i % 2 == 1 {
        html! { <code>{part.to_string()}</code> }
    } else {
        html! { {part.to_string()} }
    }) }</> }
}

#[derive(Properties, PartialEq)]
pub struct TourCardViewProps {
    /// None: no tour open, nothing drawn.
    pub card: Option<Card>,
    /// Open step N (1-based) of the same tour.
    pub on_go: Callback<u32>,
    pub on_close: Callback<()>,
    /// The reader's answer: a choice's index or the number typed, as text.
    pub on_answer: Callback<String>,
}

#[function_component(TourCardView)]
pub fn tour_card_view(p: &TourCardViewProps) -> Html {
    let number = use_node_ref();
    let Some(c) = &p.card else { return html! {} };
    let (n, total) = (c.n, c.total);
    let go = |to: u32| {
        let on_go = p.on_go.clone();
        Callback::from(move |_: MouseEvent| on_go.emit(to))
    };
    let close = {
        let on_close = p.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let answer = |reply: String| {
        let on_answer = p.on_answer.clone();
        Callback::from(move |_: MouseEvent| on_answer.emit(reply.clone()))
    };
    let submit_number = {
        let (on_answer, number) = (p.on_answer.clone(), number.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(input) = number.cast::<web_sys::HtmlInputElement>() {
                on_answer.emit(input.value());
            }
        })
    };
    let figure = c.figure.as_ref().map(|text| {
        html! { <p class="tour-figure" data-metric={c.metric_key.clone()} aria-busy={c.busy.to_string()}>{text.clone()}
        if c.busy { <span class="u">{" (simulating…)"}</span> }</p> }
    });
    html! {
        <section class="tour panel" aria-label="Guided tour" data-tour={c.name.clone()} data-step={n.to_string()}>
            <header class="tour-head">
                <strong>{c.title.clone()}</strong>
                <span class="tour-count">{format!(" · step {n} of {total}: ")}{c.step_title.clone()}</span>
                if !c.embed { <button type="button" class="tour-close" onclick={close.clone()} aria-label="Close the tour">{"×"}</button> }
            </header>
            if !c.set.is_empty() {
                <p class="tour-set">{"A is the preset; B sets "}
                    { for c.set.iter().map(|(k, v)| html! { <code>{format!("{k}={v} ")}</code> }) }</p>
            }
            <p class="tour-point">{"Look at: "}<strong>{c.metric_title.clone()}</strong>
                if let Some(r) = &c.region { {" · in the timeline, "}{r.clone()} }</p>
            <p class="tour-question"><strong>{c.question.clone()}</strong></p>
            if c.reply.is_none() {
                if c.number {
                    <form class="tour-answer" onsubmit={submit_number}>
                        <input ref={number} type="number" step="any" name="tour-number" aria-label="Your answer" required=true />
                        <button type="submit">{"Answer"}</button>
                    </form>
                } else {
                    <div class="tour-answer" role="group" aria-label="Choices">
                        { for c.choices.iter().enumerate().map(|(i, ch)| html! {
                            <button type="button" class="tour-choice" data-choice={i.to_string()} onclick={answer(i.to_string())}>{ch.clone()}</button>
                        }) }
                    </div>
                }
                <p class="note">{"Answer first: the figures show once you have."}</p>
            } else {
                <div class="tour-reveal" role="status">
                    <p class={classes!("tour-verdict", if c.right { "right" } else { "wrong" })}>
                        { if c.right { "Right. " } else { "Not quite. " } }
                        {"The answer: "}<strong>{c.right_answer.clone()}</strong>
                    </p>
                    { figure.unwrap_or_default() }
                    <p class="tour-explain">{ with_code(&c.explain) }</p>
                    if n == total {
                        <p class="tour-end">{format!("That was the last of the {total} steps of \"{}\". The knobs are yours now: change any of them and the figures follow{}", c.title, if c.embed { "." } else { ", or close the tour." })}</p>
                    }
                </div>
            }
            if !c.embed {
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
