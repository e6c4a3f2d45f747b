//! The app shell: the composed reducer (`state`, with each feature's slice in its folder)
//! and its context, the jobs the state wants (`jobs`, pure) run through one hook
//! (`hooks::use_runner`), the address bar (`hooks::use_address_bar`), and the page layout
//! (controls, metrics, compare, timeline, plots, seed tables).

pub mod hooks;
pub mod jobs;
pub mod link;
pub mod run;
pub mod state;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use yew::prelude::*;

/// The app's reducer for yew (`app::state` names no yew).
impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        State::reduce(self, action)
    }
}

use crate::ui::app::state::{Action, DistMode, State, Tab};
use crate::ui::experiments::mount::ExperimentsMount;
use crate::ui::explore::controls::Controls;
use crate::ui::explore::plots::DistPlot;
use crate::ui::explore::views::{CompareTable, MetricsPanel};
use crate::ui::inspect::state::InspectAction;
use crate::ui::inspect::state::OpenSpan;
use crate::ui::share::{self, notices, EmbedPage, ShareBar};
use crate::ui::timeline::{Timeline, ViewLink};
use crate::ui::tour::mount::{figures_revealed, tour_offer, TourCard};
use crate::ui::{ConfigView, StateCtx};

#[derive(Properties, Default)]
pub struct AppProps {
    /// Start from this state instead of the first preset (tests, share links).
    #[prop_or_default]
    pub initial: Option<Rc<State>>,
}

/// The same start when it is the same `Rc` (as `StateCtx`: no whole-`State` comparison on the page).
impl PartialEq for AppProps {
    fn eq(&self, other: &Self) -> bool {
        match (&self.initial, &other.initial) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let initial = props.initial.clone();
    // Without a given state, start from the page's link (`?v=1&...`, see share::url).
    let state = use_reducer(move || initial.map(|s| (*s).clone()).unwrap_or_else(share::initial_state));
    let phone = use_state(crate::ui::is_phone);
    hooks::use_runner(&state);
    hooks::use_address_bar(&state);
    {
        let d = state.dispatcher();
        share::use_popstate(Callback::from(move |a| d.dispatch(a)));
    }
    // Drop an rt-app file anywhere on the full app to import it.
    {
        let d = state.dispatcher();
        share::use_drop_import(!state.embed, Callback::from(move |a| d.dispatch(a)));
    }

    let ctx = StateCtx::new(state.clone());
    html! {
        <ContextProvider<StateCtx> context={ctx.clone()}>
            if state.embed {
                <EmbedPage />
            } else {
                { shell(&ctx, *phone) }
            }
        </ContextProvider<StateCtx>>
    }
}

/// The full app's frame: the header, the notices, and the controls beside the results (or
/// the Experiments page). A plain function of the state `App` renders on every change of
/// anyway, not a component (issue 26: each component is page code); inside the provider, so
/// the components it holds read the state as before.
fn shell(ctx: &StateCtx, collapsed: bool) -> Html {
    let tab = |t: Tab, label: &'static str| {
        let pressed = (ctx.tab == t).to_string();
        let ctx = ctx.clone();
        let onclick = Callback::from(move |_| ctx.dispatch(Action::Tab(t)));
        html! { <button type="button" class="tab" aria-pressed={pressed} {onclick}>{label}</button> }
    };
    // The skip link moves focus past the controls (dozens of tab stops) to the results; it
    // focuses rather than following `#results`, which would add a history entry.
    let skip = Callback::from(|e: MouseEvent| {
        use wasm_bindgen::JsCast;
        e.prevent_default();
        let target = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("results"));
        if let Some(el) = target.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
    html! {
        <div class="shell">
            <a class="skip" href="#results" onclick={skip}>{"Skip to the results"}</a>
            <header class="top">
                <h1>{"schedscope"}</h1>
                <p class="tagline">{"A laboratory for Linux CPU scheduling: pick a preset, drag a knob, see why throughput moves."}</p>
                <nav aria-label="Views">{ tab(Tab::Explore, "Explore") }{ tab(Tab::Seeds, "Experiments") }</nav>
            </header>
            { notices(ctx) }
            if ctx.tab == Tab::Seeds {
                <div class="seeds-page"><h2>{"Experiments: reported vs simulated"}</h2><ExperimentsMount /></div>
            } else {
                <div class="layout">
                    <aside class="controls" aria-label="Controls"><Controls {collapsed} config={ConfigView::new(ctx)} /></aside>
                    <Results />
                </div>
            }
        </div>
    }
}

#[function_component(Results)]
fn results() -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let s: &State = &ctx;
    let running = s.running();
    let cancel = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Cancel))
    };
    let again = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::RunAgain))
    };
    // One callback for the page's life, so the timeline's props stay equal between renders.
    let on_window = {
        let ctx = ctx.clone();
        use_callback((), move |from: u64, _| ctx.dispatch(Action::NeedWindow { from }))
    };
    // The visible stretch goes into the link (`t0`, `t1`).
    let on_stretch = {
        let ctx = ctx.clone();
        use_callback((), move |st: Option<(u64, u64)>, _| ctx.dispatch(Action::Stretch(st)))
    };
    let on_gov = {
        let ctx = ctx.clone();
        use_callback((), move |_: (), _| ctx.dispatch(Action::Inspect(InspectAction::CompareGovernors)))
    };
    let progress = s.shown_progress();
    let a_cancelled = s.pin.as_ref().is_some_and(|p| p.cancelled);
    let status = match (&s.run_error, running, &progress) {
        // No worker: nothing runs, and the page says why and how to fix it (the config stays).
        _ if s.worker_down.is_some() => {
            let text = s.worker_down.as_ref().map(|w| w.text.clone()).unwrap_or_default();
            html! { <span class="status error worker-down" role="alert">{text}</span> }
        }
        (Some(e), ..) => {
            html! { <span class="status error" role="alert">{format!("Cannot run this config: {e}")}</span> }
        }
        // A long run reports how far it has come; it can be stopped.
        (None, _, Some((kind, p))) => {
            let shown = s.result.as_ref().filter(|r| r.gen == s.gen && r.preview);
            let who = match (kind, shown) {
                (crate::ui::worker::scheduler::JobKind::Pin { .. }, _) => "Simulating A".to_string(),
                (_, Some(r)) if r.figures_partial() => "Preview · simulating the rest".to_string(),
                (_, Some(_)) => "Recording the full timeline".to_string(),
                (_, None) => "Simulating".to_string(),
            };
            html! {
                <span class="status running progress" role="status" data-progress={crate::engine::decimal::fixed(p.fraction(), 3)}
                    title="A long run: the figures shown are the preview's until it ends">
                    {format!(
                        "{who}: {} of ≤ {} simulated · {} events",
                        crate::ui::common::format::duration(p.now),
                        crate::ui::common::format::duration(p.duration),
                        crate::ui::common::format::count(p.events)
                    )}
                    <button type="button" class="cancel" onclick={cancel.clone()}
                        title="Stop this run; the figures shown stay a labelled preview">{"Cancel"}</button>
                </span>
            }
        }
        (None, false, _) if s.cancelled_here() || (a_cancelled && !s.comparing()) => html! {
            <span class="status cancelled" role="status">
                {if s.cancelled_here() { "Cancelled: the figures are a preview" } else { "Cancelled: A's figures are a preview" }}
                <button type="button" class="run-again" onclick={again.clone()}>{"Run in full"}</button>
            </span>
        },
        (None, true, _) if s.result.as_ref().is_some_and(|r| r.preview && r.gen == s.gen && r.figures_partial()) => {
            // What the preview covered, not its budget: one bounded by time stops earlier.
            let m = s.result.as_ref().map(|r| &r.metrics);
            let (events, sim) = m.map_or((0, 0), |m| (m.events, (m.elapsed_s.max(0.0) * 1e9) as u64));
            html! {
                <span class="status running" role="status" title="Figures of the first events; the whole run follows">
                    {format!("Preview: the first {} events ({} simulated) · simulating the rest…",
                        crate::ui::common::format::count(events), crate::ui::common::format::duration(sim))}
                </span>
            }
        }
        (None, true, _) if s.result.as_ref().is_some_and(|r| r.preview && r.gen == s.gen) => html! {
            <span class="status running" role="status" title="The figures are final; a longer trace is being recorded">
                {"Recording the full timeline…"}
            </span>
        },
        (None, true, _) => html! { <span class="status running" role="status">{"Simulating…"}</span> },
        // B is final; A is not yet (see `State::comparing`).
        (None, false, _) if s.comparing() => html! {
            <span class="status running" role="status" title="B's figures are final; A's full run is being simulated">
                {"Simulating A…"}
            </span>
        },
        // The run is final; the further seeds of the mean are still coming.
        (None, false, _) if !s.replica_jobs().is_empty() => html! {
            <span class="status running seeds" role="status" title="The figures are the first seed's until every seed is in">
                {format!("Running the other seeds… ({} runs to go)", s.replica_jobs().len())}
            </span>
        },
        (None, false, _) => html! { <span class="status ok" role="status">{"Up to date"}</span> },
    };
    let pin = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::PinA))
    };
    let unpin = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.dispatch(Action::Unpin))
    };
    let dist = |d: DistMode, label: &'static str| {
        let pressed = (ctx.dist == d).to_string();
        let ctx = ctx.clone();
        let onclick = Callback::from(move |_| ctx.dispatch(Action::Dist(d)));
        html! { <button type="button" aria-pressed={pressed} {onclick}>{label}</button> }
    };
    let b = s.result.clone();
    let a = s.pin.as_ref().and_then(|p| p.result.clone());
    let metrics = b.as_ref().map(|r| r.metrics.clone()).unwrap_or_default();
    // A and B share one time axis unless the reader unlinks them.
    let link = use_memo((), |_| ViewLink::new(true));
    let linked = use_state(|| true);
    let toggle_link = {
        let (link, linked) = (link.clone(), linked.clone());
        Callback::from(move |_: Event| {
            let on = !*linked;
            link.set_on(on);
            linked.set(on);
        })
    };
    html! {
        <div class="results" id="results" tabindex="-1">
            <div class="toolbar">
                { status }
                if s.pin.is_some() {
                    <button type="button" onclick={pin.clone()} title="Replace A with the current config">{"Re-pin A"}</button>
                    <button type="button" onclick={unpin}>{"Unpin A"}</button>
                } else {
                    <button type="button" onclick={pin} title="Keep this config as A and compare what you change next (B) against it">{"Pin as A"}</button>
                }
                { tour_offer(&ctx) }
            </div>
            <ShareBar />
            <TourCard />
            if !figures_revealed(s) {
                <p class="note tour-hidden">{"The figures are hidden until you answer the tour's question."}</p>
            } else {
                <MetricsPanel result={b.clone()} {running} cancelled={s.cancelled_here()} />
                { crate::ui::explore::views::result_line(a.as_deref(), b.as_deref(), running) }
            }
            if s.pin.is_some() && figures_revealed(s) {
                <section class="panel" aria-label="Compare A and B">
                    <h2>{"A (pinned) vs B (current)"}</h2>
                    <CompareTable a={a.clone()} b={b.clone()} a_error={s.pin.as_ref().and_then(|p| p.error.clone())}
                        b_waiting={s.pending_b.is_some()}
                        b_stale={s.result.as_ref().is_some_and(|r| r.gen != s.gen)} b_config={s.config.clone()} />
                </section>
            }
            <section class="panel" aria-label="Timeline">
                <h2>{"Timeline"}</h2>
                if let Some(a) = &a {
                    <label class="link-axes"><input type="checkbox" name="link-axes" checked={*linked} onchange={toggle_link} />
                        {" One time axis for A and B (zoom and pan together)"}</label>
                    <h3 class="series a">{"A"}</h3>
                    <Timeline trace={a.trace.clone()} label="A" preview={a.preview} partial={a.figures_partial()} link={(*link).clone()}
                        topo={Some(a.config.profile().topo)}
                        stretch={s.stretch} on_stretch={on_stretch.clone()}
                        select={OpenSpan::select_for(s.inspect.open, true, a.gen, a.preview)} />
                    <h3 class="series b">{"B"}</h3>
                }
                if let Some(r) = &b {
                    <Timeline trace={r.trace.clone()} label={if a.is_some() { "B" } else { "current" }} topo={Some(r.config.profile().topo)}
                            preview={r.preview} partial={r.figures_partial()} keep_view={r.windowed}
                            window_loading={s.window_req.is_some_and(|(g, _)| g == r.gen)}
                            on_window={(!r.preview && r.gen == s.gen).then(|| on_window.clone())}
                            link={a.is_some().then(|| (*link).clone())} stretch={s.stretch} on_stretch={on_stretch.clone()}
                            select={OpenSpan::select_for(s.inspect.open, false, r.gen, r.preview)} />
                } else {
                    <p class="note">{"Waiting for the first run…"}</p>
                }
            </section>
            // Below the timeline, not above it: the scoreboard's figures are in the metrics
            // already, and this panel pushed the timeline under the fold at 1280x800.
            if figures_revealed(s) && b.as_ref().is_some_and(|r| crate::ui::inspect::governors::has_cstates(&r.trace)) {
                <crate::ui::inspect::governors::GovernorCompare cmp={s.inspect.gov_compare.clone().filter(|c| c.gen == s.gen)}
                    current={s.config.get("governor").unwrap_or_default()} on_compare={on_gov.clone()} />
            }
            <crate::ui::traces::TracesPanel />
            <div class="plots">
                <section class="panel" aria-label="Sweep">
                    <h2>{"What this knob does"}</h2>
                    if let Some(sw) = &s.sweep.current {
                        <crate::ui::sweep::mount::SweepMount sweep={sw.clone()} />
                    } else {
                        <p class="note">{"Change a numeric knob to see the result across its range."}</p>
                    }
                </section>
                <section class="panel" aria-label="Distribution">
                    <h2>{"Distribution"}</h2>
                    <div class="toggle" role="group" aria-label="Distribution shown">
                        { dist(DistMode::Latency, "Wakeup latency") }{ dist(DistMode::CStates, "C-state residency") }
                    </div>
                    <DistPlot mode={s.dist} {metrics} a={a.as_ref().map(|a| a.metrics.clone())} />
                </section>
            </div>
        </div>
    }
}
