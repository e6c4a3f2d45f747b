//! Result views: the metrics panel and the A/B compare table (the Experiments tables are
//! `ui::experiments`, a module of their own).
//!
//! Every displayed metric carries `data-metric="<metrics key>"` so tests and people can
//! point at it.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::config::Config;
use crate::engine::metrics::{Metrics, StopReason};

use crate::share::table;
use crate::ui::app::state::{Action, RunView};
use crate::ui::common::copy::CopyText;
use crate::ui::common::format::{
    better_way, delta_percent, delta_text, metric_display, metric_label, metric_unit, metric_value, num,
    stop_reason_text, time_scale, verdict,
};
use crate::ui::explore::replicas::Reps;
use crate::ui::inspect::state::InspectAction;
use crate::ui::StateCtx;

#[derive(Properties, PartialEq)]
pub struct MetricsPanelProps {
    pub result: Option<Rc<RunView>>,
    pub running: bool,
    /// The user cancelled the full run: a preview stays a preview.
    #[prop_or_default]
    pub cancelled: bool,
}

/// The current run's figures (zeros when nothing ran yet). `data-gen` is the config
/// generation the figures belong to and `aria-busy` says a newer config is being simulated,
/// so a script can wait for the figures of its own change.
#[function_component(MetricsPanel)]
pub fn metrics_panel(props: &MetricsPanelProps) -> Html {
    let empty = Metrics::default();
    let m = props.result.as_ref().map(|r| &r.metrics).unwrap_or(&empty);
    let ctx = use_context::<StateCtx>();
    let seeds_line = ctx.as_ref().map(|c| seeds_line(c, props.result.as_ref()));
    let stop = props.result.as_ref().and_then(|_| stop_reason_text(m.stop_reason));
    let no_events = props.result.is_some() && m.events == 0;
    html! {
        <section class={classes!("metrics", props.running.then_some("stale"))} aria-label="Metrics" aria-busy={props.running.to_string()}
            data-gen={props.result.as_ref().map(|r| r.gen.to_string())}
            data-digest={props.result.as_ref().map(|r| r.metrics.digest.clone())}
            data-stop={props.result.as_ref().and_then(|r| r.metrics.stop_reason).map(|r| match r {
                StopReason::Completed => "completed",
                StopReason::TimeLimit => "time_limit",
                StopReason::EventBudget => "event_budget",
            })}>
            <dl>
                { for crate::ui::common::format::metrics().map(|d| {
                    let (value, unit) = metric_display(d, m);
                    let unit = match props.result.as_ref() {
                        Some(r) if d.key == "cpu_percent" => crate::ui::common::format::busy_unit(r.config.cores),
                        _ => unit,
                    };
                    // The max is in no panel figure of its own: under the p99, a way to the
                    // worst wakeup.
                    let max = crate::ui::common::format::metric("wakeup_latency_max").filter(|_| d.key == "wakeup_latency_p99");
                    let max_link = max
                        .and_then(|max| Some((max, open_wakeup(ctx.as_ref(), props.result.as_ref(), false, max.key, (max.get)(m))?)))
                        .map(|(max, onclick)| {
                            let (v, u) = metric_display(max, m);
                            html! {
                                <span class="sub" data-metric={max.key}>{"max "}
                                    <button type="button" class="v open-wakeup" {onclick}
                                        title="Open the longest wakeup in the inspector, outlined on the timeline">{v}</button>
                                    <span class="u">{" "}{u}</span></span>
                            }
                        });
                    html! {
                        <div class={classes!("metric", (d.key == "throughput").then_some("main"))} data-metric={d.key} title={d.help}>
                            <dt>{metric_label(d, m)}</dt>
                            <dd>
                                if let Some(onclick) = open_wakeup(ctx.as_ref(), props.result.as_ref(), false, d.key, (d.get)(m)) {
                                    <button type="button" class="v open-wakeup" {onclick}
                                        title="Open this wakeup in the inspector, outlined on the timeline">{value}</button>
                                } else {
                                    <span class="v">{value}</span>
                                }
                                if !unit.is_empty() { <span class="u">{" "}{unit}</span> }
                                { max_link }</dd>
                        </div>
                    }
                }) }
            </dl>
            { seeds_line.unwrap_or_default() }
            <details class="metric-help">
                <summary>{"What these figures measure"}</summary>
                <dl>
                { for crate::ui::common::format::metrics().map(|d| html! {
                    <div data-help={d.key}><dt>{metric_label(d, m)}</dt><dd>{d.help}</dd></div>
                }) }
                </dl>
            </details>
            if props.result.as_ref().is_some_and(|r| r.preview && r.figures_partial()) {
                <p class="note" data-metric="stop_reason">{format!(
                    "Preview: these figures cover the first {} events; {}",
                    crate::ui::common::format::count(m.events),
                    if props.cancelled { "the full run was cancelled (Run in full above)." } else { "the whole run follows." }
                )}</p>
            } else if no_events {
                <p class="note">{"An empty run: no events were recorded in the simulated window, so every figure is zero. Try a longer duration or more work."}</p>
            } else if let Some(s) = stop {
                <p class="note" data-metric="stop_reason">{s}</p>
            }
        </section>
    }
}

/// The main result in one line, kept at the bottom of a phone's screen (`.result-line`,
/// shown only on narrow screens by the stylesheet): with Controls open the metrics panel is
/// far below, and a change gave no visible feedback (issue 29, item 5). With A pinned, A's
/// and B's figures and the change; a link to the figures. Nothing before the first result.
pub fn result_line(a: Option<&RunView>, b: Option<&RunView>, running: bool) -> Html {
    let Some(b) = b else { return html! {} };
    let Some(main) = crate::ui::common::format::metric("throughput") else { return html! {} };
    let show = |m: &Metrics| {
        let (v, u) = metric_display(main, m);
        if u.is_empty() {
            v
        } else {
            format!("{v} {u}")
        }
    };
    let text = match a {
        // The unit once, after B: on a 390 px screen "A 100.0 % periods met → B 1…" cut the change.
        Some(a) => {
            let ((va, ua), (vb, ub)) = (metric_display(main, &a.metrics), metric_display(main, &b.metrics));
            let va = if ua == ub { va } else { show(&a.metrics) };
            let change = delta_text(delta_percent((main.get)(&a.metrics), (main.get)(&b.metrics)));
            format!("A {va} → B {} ({change})", if ub.is_empty() { vb } else { format!("{vb} {ub}") })
        }
        None => show(&b.metrics),
    };
    html! {
        <>
            <a class={classes!("result-line", running.then_some("stale"))} href="#results" data-line="result"
                aria-busy={running.to_string()}>
                <span class="k">{metric_label(main, &b.metrics)}</span>{" "}<span class="v">{text}</span>
                if running { <span class="u">{" (updating\u{2026})"}</span> }
            </a>
            <ResultLineWatch gen={b.gen} {running} />
        </>
    }
}

#[derive(Properties, PartialEq)]
struct ResultLineWatchProps {
    gen: u64,
    running: bool,
}

/// Keeps the result line out of the way while the figure it repeats is on screen: with the
/// metrics panel's main figure in view the line said the same thing twice (issue 29, item
/// 5). It marks the line `data-covered` (the stylesheet hides it) after each result and on
/// scroll, resize and any change of the page's height (content above the panel arriving).
#[function_component(ResultLineWatch)]
fn result_line_watch(p: &ResultLineWatchProps) -> Html {
    use wasm_bindgen::JsCast;
    use_effect_with((), |_| {
        let win = web_sys::window();
        let listen =
            |name: &'static str| win.as_ref().map(|w| gloo::events::EventListener::new(w, name, |_| mark_covered()));
        let listeners = (listen("scroll"), listen("resize"));
        let on_resize = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(mark_covered);
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
        if let (Some(o), Some(body)) = (&observer, win.and_then(|w| w.document()).and_then(|d| d.body())) {
            o.observe(&body);
        }
        move || {
            if let Some(o) = observer {
                o.disconnect();
            }
            drop((listeners, on_resize));
        }
    });
    use_effect_with((p.gen, p.running), |_| mark_covered());
    html! {}
}

/// Marks the result line covered while the metrics panel's main figure lies wholly on screen.
/// Only in the phone layout, the one that shows the line: the figure's place is read with
/// `getBoundingClientRect`, a layout forced in the middle of the task that rendered a result
/// or a knob's change, and on a desktop that was a layout per keypress for a line never shown
/// (issue 26's keyboard latency, BENCHMARKS "The result line's forced layout"). A window made
/// narrow is measured again by the resize listener.
fn mark_covered() {
    if !crate::ui::is_phone() {
        return;
    }
    let Some(win) = web_sys::window() else { return };
    let Some(doc) = win.document() else { return };
    let Some(line) = doc.query_selector(".result-line").ok().flatten() else { return };
    let q = |sel: &str| doc.query_selector(sel).ok().flatten();
    let figure = q("section.metrics .metric.main").or_else(|| q("section.metrics"));
    let h = win.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let on_screen = figure.is_some_and(|f| {
        let r = f.get_bounding_client_rect();
        r.height() > 0.0 && r.top() >= 0.0 && r.bottom() <= h
    });
    let _ = if on_screen { line.set_attribute("data-covered", "") } else { line.remove_attribute("data-covered") };
}

/// A latency figure (p50, p99, max) as a way into the inspector (issue 29): a click opens
/// the wakeup behind the figure on the timeline of that run. For the current config's full
/// run the worker finds exactly that wakeup (`InspectAction::FindWakeup`: the sample of the
/// figure's rank, and its records); for another run shown (a preview, the pinned A) the one
/// whose latency is nearest the figure among the run's kept records (`find::wakeup_near`),
/// with a notice when the nearest differs (the page keeps the first `PAGE_DECISIONS`);
/// A's figures (`a`, the A/B table) open on A's timeline. None for other figures, or when
/// there is no wakeup to open.
fn open_wakeup(
    ctx: Option<&StateCtx>,
    result: Option<&Rc<RunView>>,
    a: bool,
    key: &str,
    us: f64,
) -> Option<Callback<MouseEvent>> {
    let percent = match key {
        "wakeup_latency_p50" => 50,
        "wakeup_latency_p99" => 99,
        "wakeup_latency_max" => 100,
        _ => return None,
    };
    let (ctx, r) = (ctx?.clone(), result?.clone());
    if !a && ctx.full_run().is_some_and(|f| Rc::ptr_eq(f, &r)) {
        return (r.metrics.wakeup_latency_us.count > 0).then(|| {
            Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Inspect(InspectAction::FindWakeup { percent })))
        });
    }
    if !r.trace.decisions.wakeups.iter().any(|w| w.ran_at.is_some()) {
        return None;
    }
    Some(Callback::from(move |_: MouseEvent| {
        let Some((span, lat)) = crate::ui::inspect::find::wakeup_near(&r.trace, us) else {
            ctx.dispatch(Action::Notice("No kept wakeup record leads to a run on this timeline.".into()));
            return;
        };
        ctx.dispatch(Action::Inspect(InspectAction::Open { gen: r.gen, preview: r.preview, a, span }));
        let got = lat as f64 / 1_000.0;
        if (got - us).abs() > (us * 0.01).max(0.5) {
            ctx.dispatch(Action::Notice(format!(
                "Opened the nearest wakeup the page keeps records for: {} µs (the figure, {} µs, is over every \
                 wakeup of the run; the page keeps its first {} decisions; `schedscope run --explain` lists them all).",
                num(got),
                num(us),
                crate::ui::common::format::count(crate::ui::worker::protocol::PAGE_DECISIONS as u64)
            )));
        }
    }))
}

/// The main result over several seeds: the picker (`seeds=N`) and, once runs are in, their
/// mean and range in the main figure's unit. `data-mean`, `data-min`, `data-max` and
/// `data-n` carry the raw numbers for scripts.
fn seeds_line(ctx: &StateCtx, result: Option<&Rc<RunView>>) -> Html {
    let n = ctx.main_seeds;
    let on_pick = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let v = crate::ui::explore::controls::select_value(&e);
            ctx.dispatch(Action::MainSeeds(v.parse().unwrap_or(1)));
        })
    };
    let d = crate::ui::common::format::metric("throughput").expect("the registry names the main result");
    // Only a full run of the config the further seeds belong to is their replica 0.
    let reps = ctx.shown_reps().filter(|r| result.is_some_and(|res| res.gen == r.owner && !res.preview));
    let stats = reps.zip(result).and_then(|(reps, res)| crate::ui::explore::replicas::stats(&res.metrics, reps, d.get));
    let m = result.map(|r| &r.metrics);
    let summary = match (stats, reps, m) {
        (Some(st), Some(reps), Some(m)) => {
            let (div, unit) = time_scale(st.mean.abs().max(st.max.abs()), &metric_unit(d, m));
            // Every seed gave the same figure: say so (a range `0.2423–0.2423` reads as a
            // measured spread; the seed changed nothing in this run).
            let range = if st.n > 1 && st.min == st.max {
                "every seed gave exactly the same figure (nothing this run does draws on the seed)".to_string()
            } else {
                format!("range {}–{}", num(st.min / div), num(st.max / div))
            };
            let progress = (st.n < reps.seeds()).then(|| format!(" · {}/{} seeds in", st.n, reps.seeds()));
            let first = reps.config.seed;
            html! { <span class="seeds-stats" data-mean={crate::engine::decimal::shortest(st.mean)} data-min={crate::engine::decimal::shortest(st.min)}
                    data-max={crate::engine::decimal::shortest(st.max)} data-n={st.n.to_string()}>
                <strong>{format!("{} {unit}", num(st.mean / div))}</strong>
                {format!(" mean of {} seeds (seed {first} to {}), {range}", st.n, first.wrapping_add(st.n as u64 - 1))}
                {progress.unwrap_or_default()}
                if !reps.failed.is_empty() { {format!(" · {} failed", reps.failed.len())} }
            </span> }
        }
        _ if n > 1 => {
            html! { <span class="seeds-stats pending">{format!("The other {} seeds run after the full run.", n - 1)}</span> }
        }
        _ => html! {},
    };
    html! {
        <p class="seeds-line" data-metric="throughput_seeds">
            <label>{"Result over "}
                <select name="main_seeds" onchange={on_pick} aria-label="Seeds the main figures average">
                    { for crate::ui::explore::replicas::CHOICES.iter().map(|c| html! {
                        <option value={c.to_string()} selected={*c == n}>{if *c == 1 { "one seed".to_string() } else { format!("{c} seeds") }}</option>
                    }) }
                </select>
            </label>
            {" "}{summary}
        </p>
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareProps {
    pub a: Option<Rc<RunView>>,
    pub b: Option<Rc<RunView>>,
    /// Why A cannot run.
    #[prop_or_default]
    pub a_error: Option<String>,
    /// B is a link's config, waiting for A's full run (`State::pending_b`).
    #[prop_or_default]
    pub b_waiting: bool,
    /// `b` is the answer for an earlier config (the current one is being simulated).
    #[prop_or_default]
    pub b_stale: bool,
    /// The current config (B), which the diff line names even while `b` is stale.
    #[prop_or_default]
    pub b_config: Option<Config>,
}

/// A against B: both values and B's change relative to A, coloured by which way is better.
/// A side whose figures are only a preview says so in its heading and a note, and no change
/// is computed against it (`data-preview` on the table names the sides that are previews);
/// the same for a B that is an earlier config's answer (`data-updating="b"`).
#[function_component(CompareTable)]
pub fn compare_table(props: &CompareProps) -> Html {
    if let Some(e) = &props.a_error {
        return html! { <p class="note" role="alert">{format!("A cannot run: {e}")}</p> };
    }
    if props.b_waiting {
        return html! { <p class="note">{"Simulating A first; B follows once A's full run is in."}</p> };
    }
    let (Some(a), Some(b)) = (&props.a, &props.b) else {
        return html! { <p class="note">{"Waiting for both runs…"}</p> };
    };
    // A stale B is an earlier config's figures, preview or not: it says "updating".
    let (a_partial, b_partial) = (a.figures_partial(), b.figures_partial() && !props.b_stale);
    let partial = a_partial || b_partial || props.b_stale;
    let sides: Vec<&str> = [(a_partial, "a"), (b_partial, "b")].iter().filter(|(p, _)| *p).map(|(_, s)| *s).collect();
    let heading = |side: &'static str, is_preview: bool, stale: bool| -> Html {
        if is_preview {
            html! { <th scope="col" class={side} title="Figures of the first events only; the full run follows">
            {side.to_ascii_uppercase()}<span class="u">{" (preview)"}</span></th> }
        } else if stale {
            html! { <th scope="col" class={side} title="Figures of the config before the last change; its run follows">
            {side.to_ascii_uppercase()}<span class="u">{" (updating)"}</span></th> }
        } else {
            html! { <th scope="col" class={side}>{side.to_ascii_uppercase()}</th> }
        }
    };
    let preview_note = match (a_partial, b_partial) {
        (true, true) => Some(("A and B are previews", "runs")),
        (true, false) => Some(("A is a preview", "run")),
        (false, true) => Some(("B is a preview", "run")),
        (false, false) => None,
    };
    let b_config = props.b_config.as_ref().unwrap_or(&b.config);
    let diffs = b_config.diff(&a.config);
    // Over several seeds (`seeds=N`): the means, once every seed of both sides is in.
    let ctx = use_context::<StateCtx>();
    let seeds = ctx.as_ref().map_or(1, |c| c.main_seeds as usize);
    let ra = ctx.as_ref().and_then(|c| c.pin_reps().cloned()).filter(|r| r.config == a.config && !a.preview);
    let rb = ctx.as_ref().and_then(|c| c.shown_reps().cloned()).filter(|r| r.owner == b.gen && !b.preview);
    let means = match (&ra, &rb) {
        (Some(ra), Some(rb)) if seeds > 1 && !partial && ra.complete() && rb.complete() => {
            Some((ra.clone(), rb.clone()))
        }
        _ => None,
    };
    let seeds_in = |r: &Option<Rc<crate::ui::explore::replicas::Reps>>| {
        r.as_ref().map_or(1, |r| 1 + r.runs.iter().flatten().count())
    };
    let seeds_note = if seeds <= 1 || partial {
        None
    } else if means.is_some() {
        Some(format!("Each figure is the mean of {seeds} seeds (each side's seed and the {} after it); a change is coloured only where A's and B's seed ranges do not overlap, and ≈ marks one within them.", seeds - 1))
    } else {
        Some(format!(
            "Figures of one seed so far: the other seeds are running (A {}/{seeds}, B {}/{seeds}).",
            seeds_in(&ra),
            seeds_in(&rb)
        ))
    };
    html! {
        <div class="compare">
            <p class="diff">{"B differs from A in: "}
                if diffs.is_empty() { <em>{"nothing yet — change a knob"}</em> }
                { for diffs.iter().map(|(k, v)| html! { <code>{format!("{k}={v} ")}</code> }) }
                if a.config.seed != b_config.seed { <strong>{" (different seeds: not a paired comparison)"}</strong> }
            </p>
            if let Some((who, runs)) = preview_note {
                <p class="note">{format!(
                    "{who} of the first {} events, not final figures; the change column waits for the full {runs}.",
                    crate::ui::common::format::count(crate::ui::worker::protocol::PREVIEW_EVENT_BUDGET),
                )}</p>
            }
            if let Some(n) = seeds_note { <p class="note seeds-note">{n}</p> }
            <table data-preview={(!sides.is_empty()).then(|| sides.join(" "))} data-updating={props.b_stale.then_some("b")}
                data-seeds={means.as_ref().map(|_| seeds.to_string())}>
                <thead><tr><th scope="col">{"metric"}</th>{ heading("a", a_partial, false) }{ heading("b", b_partial, props.b_stale) }<th scope="col">{"Δ B vs A"}</th></tr></thead>
                <tbody>
                { for crate::ui::common::format::metrics().map(|d| {
                    let seed_stats = means.as_ref().and_then(|(ra, rb)| {
                        let st = |m: &Metrics, r: &crate::ui::explore::replicas::Reps| crate::ui::explore::replicas::stats(m, r, d.get);
                        st(&a.metrics, ra).zip(st(&b.metrics, rb))
                    });
                    let (va, vb) = match seed_stats {
                        Some((sa, sb)) => (sa.mean, sb.mean),
                        None => ((d.get)(&a.metrics), (d.get)(&b.metrics)),
                    };
                    let noise = seed_stats.is_some_and(|(sa, sb)| crate::ui::explore::replicas::within_seed_noise(&sa, &sb));
                    let v = match seed_stats {
                        _ if partial => None,
                        Some(_) if noise => None,
                        Some(_) => better_way(d, &b.metrics, va, vb),
                        None => verdict(d, &a.metrics, &b.metrics),
                    };
                    let cls = match v { Some(true) => "better", Some(false) => "worse", None => "" };
                    let delta = if partial { "…".to_string() } else { delta_text(delta_percent(va, vb)) };
                    let delta = if noise && va != vb { format!("≈ {delta}") } else { delta };
                    // One scale per row, from the larger side, so A and B read in the same unit.
                    let (div, unit) = if d.count { (1.0, metric_unit(d, &b.metrics)) } else { time_scale(va.abs().max(vb.abs()), &metric_unit(d, &b.metrics)) };
                    let cell = |m: &Metrics, v: f64| match (d.count, seed_stats) {
                        (true, None) => metric_value(d, m),
                        (true, Some(_)) => crate::ui::common::format::count_mean(v),
                        _ => num(v / div),
                    };
                    let range = |s: Option<crate::ui::explore::replicas::SeedStats>| s.map(|s| format!("seeds range {}–{}", num(s.min / div), num(s.max / div)));
                    html! {
                        <tr data-compare={d.key} title={d.help}>
                            <th scope="row">{metric_label(d, &b.metrics)}<span class="u">{" "}{unit}</span></th>
                            <td class="a" data-metric={d.key} data-side="a" data-value={crate::engine::decimal::shortest(va)} title={range(seed_stats.map(|s| s.0))}>
                                // A's latency figures open A's wakeup on A's timeline (B's: the metrics panel).
                                if let Some(onclick) = open_wakeup(ctx.as_ref(), Some(a), true, d.key, (d.get)(&a.metrics)).filter(|_| seed_stats.is_none()) {
                                    <button type="button" class="v open-wakeup" {onclick}
                                        title="Open this wakeup of A in the inspector, outlined on A's timeline">{cell(&a.metrics, va)}</button>
                                } else { {cell(&a.metrics, va)} }
                            </td>
                            <td class="b" data-metric={d.key} data-side="b" data-value={crate::engine::decimal::shortest(vb)} title={range(seed_stats.map(|s| s.1))}>{cell(&b.metrics, vb)}</td>
                            <td class={classes!("delta", cls, noise.then_some("noise"))}>{delta}
                                if !cls.is_empty() { <span class="sr">{format!(" ({cls})")}</span> }
                                if noise { <span class="sr">{" (within the seed range)"}</span> }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            if !partial { <CopyText what="the A/B table" text={email_text(a, b, b_config, means.as_ref(), ctx.as_ref())} /> }
        </div>
    }
}

/// The A/B table as plain text for an email (`share::table`, as `schedscope compare` prints
/// it): the CLI's metrics over each side's seeds, the link and both configs. Made on press.
fn email_text(
    a: &Rc<RunView>,
    b: &Rc<RunView>,
    b_config: &Config,
    means: Option<&(Rc<Reps>, Rc<Reps>)>,
    ctx: Option<&StateCtx>,
) -> Callback<(), String> {
    let (a, b, b_config, means) = (a.clone(), b.clone(), b_config.clone(), means.cloned());
    // The page's address is asked on press: off the browser (the SSR tests) there is none.
    let query = ctx.map(|c| c.query()).unwrap_or_default();
    Callback::from(move |()| {
        let link = crate::ui::common::browser::link_of(&query);
        let runs = |first: &Metrics, more: Option<&Rc<Reps>>| -> Vec<Metrics> {
            std::iter::once(first.clone())
                .chain(more.into_iter().flat_map(|r| r.runs.iter().flatten().map(|m| (**m).clone())))
                .collect()
        };
        let ra = runs(&a.metrics, means.as_ref().map(|m| &m.0));
        let rb = runs(&b.metrics, means.as_ref().map(|m| &m.1));
        let seeds: Vec<u64> = (0..ra.len() as u64).map(|r| a.config.seed.wrapping_add(r)).collect();
        let rows = table::rows(table::DEFAULT_METRICS, &ra, &rb);
        table::email_text(&rows, &a.config, &b_config, &seeds, &link)
    })
}
