//! The app shell: the reducer and its context, the runner wiring (re-simulation on every
//! change: a quick preview first, latest wins), and the page layout (controls, metrics, compare, timeline, plots, seed tables).

pub mod state;

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

/// The app's reducer for yew (`app::state` names no yew).
impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        State::reduce(self, action)
    }
}

use crate::ui::app::state::{Action, DistMode, Seeds, State, Tab};
use crate::ui::explore::controls::Controls;
use crate::ui::explore::plots::DistPlot;
use crate::ui::explore::views::{CompareTable, MetricsPanel, SeedView};
use crate::ui::share::{self, EmbedPage, Notices, ShareBar};
use crate::ui::timeline::{Timeline, ViewLink};
use crate::ui::tour::view::{figures_revealed, TourCard, TourOffer};
use crate::ui::worker::runner::Runner;
use crate::ui::StateCtx;

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Start from this state instead of the first preset (tests, share links).
    #[prop_or_default]
    pub initial: Option<Rc<State>>,
}

fn is_phone() -> bool {
    crate::ui::media_matches("(max-width: 720px)")
}

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let initial = props.initial.clone();
    // Without a given state, start from the page's link (`?v=1&...`, see share::url).
    let state = use_reducer(move || initial.map(|s| (*s).clone()).unwrap_or_else(share::initial_state));
    let runner: Rc<RefCell<Option<Runner>>> = use_mut_ref(|| None);
    let phone = use_state(is_phone);

    // Re-simulate at once when the config changes: the runner keeps one job in flight and
    // only the newest config waiting, and answers each change with a quick preview first,
    // so the figures follow a dragged knob (a debounce would hold them until it rests).
    // Effects never run in SSR, so the runner (and every browser call) exists only in the
    // browser.
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        let (gen, config) = (state.gen, state.config.clone());
        // "Run in full" after a cancel (`reruns`) asks again for the same generation.
        use_effect_with((gen, state.reruns), move |_| {
            let mut r = runner.borrow_mut();
            r.get_or_insert_with(|| Runner::new(dispatcher)).request(gen, &config);
        });
    }
    // A new sweep runs on the pool of workers (every core), else on the runner's queue.
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        #[cfg(target_arch = "wasm32")]
        let pool = use_mut_ref(|| None::<Option<crate::ui::worker::pool::web::Pool>>);
        #[cfg(not(target_arch = "wasm32"))]
        let pool = ();
        let sweep = state.sweep.as_ref().map(|s| (s.gen, s.point_configs()));
        use_effect_with(sweep.as_ref().map(|s| s.0), move |_| {
            let Some((gen, points)) = sweep else { return };
            let runner = runner.borrow_mut().get_or_insert_with(|| Runner::new(dispatcher.clone())).clone();
            #[cfg(target_arch = "wasm32")]
            {
                let fallback: Rc<dyn Fn(u64, Vec<crate::engine::Config>)> = {
                    let runner = runner.clone();
                    Rc::new(move |g, p| runner.request_sweep(g, p))
                };
                let mut slot = pool.borrow_mut();
                let p = slot.get_or_insert_with(|| crate::ui::worker::pool::web::Pool::start(dispatcher, fallback));
                if let Some(p) = p {
                    p.want(gen, points);
                    return;
                }
            }
            let _ = &pool;
            runner.request_sweep(gen, points);
        });
    }
    // A pinned A without its full run, once it is no longer the current config, is run on
    // its own (the current config's runs finish it while they are the same).
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        use_effect_with((state.pin_job(), state.reruns), move |(job, _)| {
            let mut r = runner.borrow_mut();
            r.get_or_insert_with(|| Runner::new(dispatcher)).want_pin(job.clone());
        });
    }
    // The main figures as a mean of seeds: the further seeds' runs, asked for again when
    // the config, the pin or the count changes (answers land in their own slots).
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        let jobs = state.replica_jobs();
        let key = (state.gen, state.pin.as_ref().map(|p| p.id), state.main_seeds, state.reruns);
        use_effect_with(key, move |_| {
            let mut r = runner.borrow_mut();
            r.get_or_insert_with(|| Runner::new(dispatcher)).want_replicas(jobs);
        });
    }
    // Cancel stops the long run in flight (the runner restarts its worker).
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        use_effect_with(state.cancel_req.clone(), move |req| {
            if let Some((_, kind)) = req {
                let mut r = runner.borrow_mut();
                r.get_or_insert_with(|| Runner::new(dispatcher)).cancel(kind.clone());
            }
        });
    }
    // A timeline panned past what the live trace kept asks for that stretch again.
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        let job = state.window_req.and_then(|(gen, from)| {
            state.result.as_ref().filter(|r| r.gen == gen).map(|r| (gen, r.config.clone(), from))
        });
        use_effect_with(state.window_req, move |_| {
            if let Some((gen, config, from)) = job {
                let mut r = runner.borrow_mut();
                r.get_or_insert_with(|| Runner::new(dispatcher)).request_window(gen, &config, from);
            }
        });
    }
    // A governor comparison asked for: its runs, one after another.
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        let job = state.gov_compare.as_ref().map(|c| (c.gen, c.configs()));
        use_effect_with(state.gov_compare.as_ref().map(|c| (c.gen, c.serial)), move |_| {
            if let Some((gen, configs)) = job {
                let mut r = runner.borrow_mut();
                r.get_or_insert_with(|| Runner::new(dispatcher)).request_governors(gen, configs);
            }
        });
    }
    // The inspector asked for the decision records of an instant the page holds none for.
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        let job = state.decisions_req.and_then(|(gen, from, to, at)| {
            state.result.as_ref().filter(|r| r.gen == gen).map(|r| (gen, r.config.clone(), (from, to, at)))
        });
        use_effect_with(state.decisions_req, move |_| {
            if let Some((gen, config, range)) = job {
                let mut r = runner.borrow_mut();
                r.get_or_insert_with(|| Runner::new(dispatcher)).request_decisions(gen, &config, range);
            }
        });
    }
    // Seed tables load the first time their tab opens.
    {
        let (runner, dispatcher) = (runner.clone(), state.dispatcher());
        let want = state.tab == Tab::Seeds && state.seeds == Seeds::NotLoaded;
        use_effect_with(want, move |want| {
            if *want {
                dispatcher.dispatch(Action::SeedsLoading);
                let mut r = runner.borrow_mut();
                r.get_or_insert_with(|| Runner::new(dispatcher)).request_seeds();
            }
        });
    }

    // The address bar follows the state. A new preset, page, pin or tour step adds a
    // history entry at once (Back returns to the one before); any other change (a knob,
    // a slider drag) rewrites the current entry, debounced, so drags do not flood history.
    // A state that Back or Forward restored already is the address: nothing to write.
    {
        let url_timer: Rc<RefCell<Option<(gloo::timers::callback::Timeout, String)>>> = use_mut_ref(|| None);
        let last_nav = use_mut_ref(|| None);
        let nav = state.nav_key();
        use_effect_with(state.query(), move |query| {
            let query = query.clone();
            let moved = last_nav.borrow().as_ref().is_some_and(|n| *n != nav);
            *last_nav.borrow_mut() = Some(nav);
            if query == share::current_query() {
                *url_timer.borrow_mut() = None;
            } else if moved {
                // Write the entry being left as it was last seen, then add the new one.
                if let Some((_, pending)) = url_timer.borrow_mut().take() {
                    share::replace_query(&pending);
                }
                share::push_query(&query);
            } else {
                let q = query.clone();
                let timer =
                    gloo::timers::callback::Timeout::new(share::URL_DEBOUNCE_MS, move || share::replace_query(&q));
                *url_timer.borrow_mut() = Some((timer, query));
            }
        });
    }
    {
        let d = state.dispatcher();
        share::use_popstate(Callback::from(move |a| d.dispatch(a)));
    }
    // Drop an rt-app file anywhere on the full app to import it.
    {
        let d = state.dispatcher();
        share::use_drop_import(!state.embed, Callback::from(move |a| d.dispatch(a)));
    }

    html! {
        <ContextProvider<StateCtx> context={state.clone()}>
            if state.embed {
                <EmbedPage />
            } else {
                <Shell collapsed={*phone} />
            }
        </ContextProvider<StateCtx>>
    }
}

#[derive(Properties, PartialEq)]
struct ShellProps {
    collapsed: bool,
}

#[function_component(Shell)]
fn shell(props: &ShellProps) -> Html {
    let ctx = use_context::<StateCtx>().expect("StateCtx");
    let tab = |t: Tab, label: &'static str| {
        let pressed = (ctx.tab == t).to_string();
        let ctx = ctx.clone();
        let onclick = Callback::from(move |_| ctx.dispatch(Action::Tab(t)));
        html! { <button type="button" class="tab" aria-pressed={pressed} {onclick}>{label}</button> }
    };
    html! {
        <div class="shell">
            <header class="top">
                <h1>{"schedscope"}</h1>
                <p class="tagline">{"A laboratory for Linux CPU scheduling: pick a preset, drag a knob, see why throughput moves."}</p>
                <nav aria-label="Views">{ tab(Tab::Explore, "Explore") }{ tab(Tab::Seeds, "Experiments") }</nav>
            </header>
            <Notices />
            if ctx.tab == Tab::Seeds {
                <div class="seeds-page"><h2>{"Experiments: reported vs simulated"}</h2><SeedView /></div>
            } else {
                <div class="layout">
                    <aside class="controls" aria-label="Controls"><Controls collapsed={props.collapsed} /></aside>
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
    let on_gov = {
        let ctx = ctx.clone();
        use_callback((), move |_: (), _| ctx.dispatch(Action::CompareGovernors))
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
                <span class="status running progress" role="status" data-progress={format!("{:.3}", p.fraction())}
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
            html! {
                <span class="status running" role="status" title="Figures of the first events; the whole run follows">
                    {format!("Preview ({} events) · simulating the rest…", crate::ui::common::format::count(crate::ui::worker::protocol::PREVIEW_EVENT_BUDGET))}
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
        <div class="results">
            <div class="toolbar">
                { status }
                if s.pin.is_some() {
                    <button type="button" onclick={pin.clone()} title="Replace A with the current config">{"Re-pin A"}</button>
                    <button type="button" onclick={unpin}>{"Unpin A"}</button>
                } else {
                    <button type="button" onclick={pin} title="Keep this config as A and compare what you change next (B) against it">{"Pin as A"}</button>
                }
                <TourOffer />
            </div>
            <ShareBar />
            <TourCard />
            if !figures_revealed(s) {
                <p class="note tour-hidden">{"The figures are hidden until you answer the tour's question."}</p>
            } else {
                <MetricsPanel result={b.clone()} {running} cancelled={s.cancelled_here()} />
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
                    <Timeline trace={a.trace.clone()} label="A" preview={a.preview} partial={a.figures_partial()} link={(*link).clone()} />
                    <h3 class="series b">{"B"}</h3>
                }
                if let Some(r) = &b {
                    <Timeline trace={r.trace.clone()} label={if a.is_some() { "B" } else { "current" }}
                            preview={r.preview} partial={r.figures_partial()} keep_view={r.windowed}
                            window_loading={s.window_req.is_some_and(|(g, _)| g == r.gen)}
                            on_window={(!r.preview && r.gen == s.gen).then(|| on_window.clone())}
                            link={a.is_some().then(|| (*link).clone())} />
                } else {
                    <p class="note">{"Waiting for the first run…"}</p>
                }
            </section>
            // Below the timeline, not above it: the scoreboard's figures are in the metrics
            // already, and this panel pushed the timeline under the fold at 1280x800.
            if figures_revealed(s) && b.as_ref().is_some_and(|r| crate::ui::inspect::governors::has_cstates(&r.trace)) {
                <crate::ui::inspect::governors::GovernorCompare cmp={s.gov_compare.clone().filter(|c| c.gen == s.gen)}
                    current={s.config.get("governor").unwrap_or_default()} on_compare={on_gov.clone()} />
            }
            <crate::ui::traces::TracesPanel />
            <div class="plots">
                <section class="panel" aria-label="Sweep">
                    <h2>{"What this knob does"}</h2>
                    if let Some(sw) = &s.sweep {
                        <crate::ui::sweep::SweepPanel sweep={sw.clone()} />
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
