//! Embedding: the iframe snippet for a link (pure), the "Embed" dialog that writes it, and
//! the embedded page (`?embed=1`).

use yew::prelude::*;

use super::files::attr_escape;
use super::notices;
use crate::engine::presets::preset;
use crate::share::url::View;
use crate::ui::app::state::{Action, State};
use crate::ui::common::browser::{copy_text, page_address};
use crate::ui::explore::views::{CompareTable, MetricsPanel};
use crate::ui::timeline::Timeline;
use crate::ui::StateCtx;

/// Views an embed shows when the link names none.
pub const DEFAULT_EMBED_VIEWS: [View; 2] = [View::Timeline, View::Metrics];
/// Default iframe size in the embed dialog (CSS pixels).
pub const DEFAULT_EMBED_SIZE: (u32, u32) = (960, 540);

/// The query of an embed of `state` showing `views` (in `View::ALL` order, deduplicated;
/// none means the embed's default).
pub fn embed_query(state: &State, views: &[View]) -> String {
    let mut u = state.url_state();
    u.embed = true;
    u.views = View::EMBEDDABLE.into_iter().filter(|v| views.contains(v)).collect();
    if u.views == DEFAULT_EMBED_VIEWS {
        u.views.clear();
    }
    crate::share::url::to_query(&u)
}

/// The iframe snippet for `page` (the app's address without a query) and an embed query.
pub fn embed_snippet(page: &str, query: &str, width: u32, height: u32) -> String {
    format!(
        "<iframe src=\"{}\" width=\"{width}\" height=\"{height}\" loading=\"lazy\" title=\"schedscope\" \
         style=\"border:1px solid #ccc;border-radius:6px\"></iframe>",
        attr_escape(&format!("{page}?{query}"))
    )
}

#[derive(Properties, PartialEq)]
pub struct EmbedDialogProps {
    pub on_close: Callback<()>,
}

/// The "Embed" dialog: view checkboxes, a size, and the iframe snippet to copy.
#[function_component(EmbedDialog)]
pub fn embed_dialog(props: &EmbedDialogProps) -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let views = use_state(|| if ctx.views.is_empty() { DEFAULT_EMBED_VIEWS.to_vec() } else { ctx.views.clone() });
    let size = use_state(|| DEFAULT_EMBED_SIZE);
    let copied = use_state(|| None::<bool>);
    let snippet = embed_snippet(&page_address(), &embed_query(&ctx, &views), size.0, size.1);

    let checkbox = |v: View| {
        let checked = views.contains(&v);
        let (views, copied) = (views.clone(), copied.clone());
        let onchange = Callback::from(move |e: Event| {
            let on = e.target_dyn_into::<web_sys::HtmlInputElement>().is_some_and(|i| i.checked());
            let mut list: Vec<View> = views.iter().copied().filter(|x| *x != v).collect();
            if on {
                list.push(v);
            }
            views.set(list);
            copied.set(None);
        });
        let id = format!("embed-view-{}", v.name());
        html! {
            <label for={id.clone()} style="margin-right:.6rem">
                <input type="checkbox" id={id} name="embed-view" value={v.name()} {checked} {onchange} />
                {" "}{v.name()}
            </label>
        }
    };
    let dim = |label: &'static str, get: fn((u32, u32)) -> u32, put: fn((u32, u32), u32) -> (u32, u32)| {
        let size2 = size.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_dyn_into::<web_sys::HtmlInputElement>().and_then(|i| i.value().parse::<u32>().ok());
            if let Some(v) = v {
                size2.set(put(*size2, v.clamp(200, 4000)));
            }
        });
        html! {
            <label style="margin-right:.6rem">{label}{" "}
                <input type="number" name={format!("embed-{}", label.to_ascii_lowercase())} min="200" max="4000" step="10"
                    value={get(*size).to_string()} {onchange} style="width:6rem" />
            </label>
        }
    };
    let on_copy = {
        let (copied, snippet) = (copied.clone(), snippet.clone());
        Callback::from(move |_| {
            let copied = copied.clone();
            copy_text(&snippet, Callback::from(move |ok| copied.set(Some(ok))));
        })
    };
    let close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <section class="embed-dialog panel" role="dialog" aria-label="Embed this view"
            style="flex:1 1 100%;display:flex;flex-direction:column;gap:.5rem">
            <h2 style="margin:0;font-size:1rem">{"Embed in slides or docs"}</h2>
            <div role="group" aria-label="Views shown">{ for View::EMBEDDABLE.into_iter().map(checkbox) }</div>
            <div>{ dim("Width", |s| s.0, |s, v| (v, s.1)) }{ dim("Height", |s| s.1, |s, v| (s.0, v)) }</div>
            <textarea name="embed-snippet" readonly=true rows="3" aria-label="iframe snippet" value={snippet}
                style="width:100%;box-sizing:border-box;font-family:monospace;font-size:.8rem" />
            <div style="display:flex;gap:.5rem;align-items:center">
                <button type="button" name="copy-snippet" onclick={on_copy}>{"Copy snippet"}</button>
                <button type="button" onclick={close}>{"Close"}</button>
                { match *copied {
                    Some(true) => html! { <span role="status">{"Snippet copied."}</span> },
                    Some(false) => html! { <span role="status">{"Select the snippet and copy it (Ctrl+C)."}</span> },
                    None => html! {},
                } }
            </div>
        </section>
    }
}

/// The embedded page: only the link's views, a one-line header, and a link to the full app.
#[function_component(EmbedPage)]
pub fn embed_page() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let s: &State = &ctx;
    // A tour step's embed shows only its question and its figure (the card) over the timeline.
    let views = if s.tour.open.is_some() {
        vec![View::Timeline]
    } else if s.views.is_empty() {
        DEFAULT_EMBED_VIEWS.to_vec()
    } else {
        s.views.clone()
    };
    let title = preset(&s.preset).map(|p| p.title).unwrap_or("custom config");
    let b = s.result.clone();
    let a = s.pin.as_ref().and_then(|p| p.result.clone());
    let running = s.running();
    let status = match (&s.run_error, running || s.comparing()) {
        (Some(e), _) => {
            html! { <span class="status error" role="alert">{format!("Cannot run this config: {e}")}</span> }
        }
        (None, true) => html! { <span class="status running" role="status">{"Simulating…"}</span> },
        (None, false) => html! {},
    };
    // A link that compares shows A over B on one time axis (a tour's question compares them).
    let link = use_memo((), |_| crate::ui::timeline::ViewLink::new(true));
    let on_stretch = {
        let ctx = ctx.clone();
        use_callback((), move |st: Option<(u64, u64)>, _| ctx.dispatch(Action::Stretch(st)))
    };
    let view = |v: View| -> Html {
        match v {
            View::Timeline => html! {
                <section class="panel" aria-label="Timeline" data-view="timeline" style="min-width:0">
                    if let Some(a) = &a {
                        <h3 class="series a">{"A"}</h3>
                        <Timeline trace={a.trace.clone()} label="A" preview={a.preview} partial={a.figures_partial()}
                            link={(*link).clone()} stretch={s.stretch} on_stretch={on_stretch.clone()}
                            topo={Some(a.config.profile().topo)} />
                        <h3 class="series b">{"B"}</h3>
                    }
                    if let Some(r) = &b {
                        <Timeline trace={r.trace.clone()} label={if a.is_some() { "B" } else { "current" }}
                            preview={r.preview} partial={r.figures_partial()} stretch={s.stretch} on_stretch={on_stretch.clone()}
                            link={a.is_some().then(|| (*link).clone())} topo={Some(r.config.profile().topo)} />
                    } else {
                        <p class="note">{"Waiting for the first run…"}</p>
                    }
                </section>
            },
            View::Plot => html! {
                <section class="panel" aria-label="Sweep" data-view="plot" style="min-width:0">
                    if let Some(sw) = &s.sweep.current {
                        <crate::ui::sweep::mount::SweepMount sweep={sw.clone()} plot_only=true />
                    }
                </section>
            },
            View::Metrics => html! {
                <div data-view="metrics" style="min-width:0"><MetricsPanel result={b.clone()} {running} /></div>
            },
            View::Compare => html! {
                <section class="panel" aria-label="Compare A and B" data-view="compare" style="min-width:0">
                    if s.pin.is_some() {
                        <CompareTable a={a.clone()} b={b.clone()} a_error={s.pin.as_ref().and_then(|p| p.error.clone())}
                            b_waiting={s.pending_b.is_some()}
                        b_stale={s.result.as_ref().is_some_and(|r| r.gen != s.gen)} b_config={s.config.clone()} />
                    } else {
                        <p class="note">{"This link compares nothing (add compare=1 and b. keys)."}</p>
                    }
                </section>
            },
            // `State::from_url` keeps the Experiments page out of an embed's views.
            View::Seeds => html! {},
        }
    };
    html! {
        <div class="embed" style="box-sizing:border-box;width:100vw;height:100vh;overflow:auto;padding:.4rem .5rem;display:flex;flex-direction:column;gap:.4rem">
            <header style="display:flex;gap:.6rem;align-items:baseline;font-size:.85rem;flex-wrap:wrap">
                <strong>{"schedscope"}</strong>
                <span>{title}</span>
                { status }
                <a class="open-full" href={format!("?{}", s.full_app_query())} target="_blank" rel="noopener noreferrer"
                    style="margin-left:auto">{"open in schedscope ↗"}</a>
            </header>
            { notices(&ctx) }
            <crate::ui::tour::mount::TourCard />
            { for views.into_iter().map(view) }
        </div>
    }
}
