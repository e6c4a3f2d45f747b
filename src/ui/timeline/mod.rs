//! The per-core timeline: a Yew component that draws a `Trace` on a canvas, with zoom, pan, playback and tooltips.
//!
//! Usage: `html! { <Timeline trace={Rc::clone(&trace)} label="CFS" /> }`.
//!
//! Yew renders the toolbar, the legend and an empty `<canvas>`; it re-renders only when the
//! props change (or the play/speed controls). The canvas itself is drawn from a ref in an
//! animation-frame loop (`gloo::render::request_animation_frame`): an event (pointer, wheel,
//! key, resize, new trace) asks for one frame; playback keeps asking while it plays. The
//! frame handle lives in the component's state, so unmounting cancels it (no `.forget()`).
//! A large new trace takes a few frames to arrive (`Arrival`): on a new canvas one for the
//! page's layout, then its index built a slice a frame (`timeline::draw::IndexBuilder`), one
//! to take it in, then the first draw; a small one still arrives and is drawn in one frame.
//! Each step is named for the browser's performance tools (`marks`), and the trace shown
//! until then stays with its own index.
//! Everything drawn comes from `draw` as a display list in device pixels; the 2D
//! context is cached and the canvas is sized to `devicePixelRatio` for crisp lines.
//!
//! Export: [`render_png_data_url`] draws a trace (or a window of it) onto an off-screen
//! canvas and returns a `data:image/png;base64,...` URL; the "Save PNG" button uses it for
//! the current view. [`canvas_png_data_url`] snapshots any canvas as is.
//!
//! Files: `link` (`ViewLink`), `frame` (the state behind the canvas and its frame loop),
//! `paint` (a scene onto a canvas, PNG export); the pure ones: `draw` (index, geometry,
//! level of detail, scene, hit testing), `nav` (minimap and keys), `window` (the stretch of a
//! cut trace to ask for), `counters` and `runqueue`. This file is the component: its props,
//! toolbar and event handlers (about 550 lines; issue 28's 200 would take the handlers out
//! of the component too, not done).

pub mod counters;
pub mod draw;
mod frame;
mod link;
pub mod nav;
mod paint;
pub mod runqueue;
pub mod window;

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, HtmlAnchorElement, HtmlCanvasElement, HtmlElement, HtmlSelectElement, KeyboardEvent,
    PointerEvent, ResizeObserver, WheelEvent,
};
use yew::prelude::*;

use crate::engine::time::Ns;
use crate::engine::trace::{Overhead, Trace};
use draw::{Align, Layout, Scene, TraceIndex, View};
use frame::*;
pub use link::ViewLink;
use paint::*;
pub use paint::{canvas_png_data_url, render_png_data_url};

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub trace: Rc<Trace>,
    /// Names the run (e.g. the policy) in the canvas's aria-label and the PNG file name.
    #[prop_or_default]
    pub label: AttrValue,
    /// The trace is a preview's (`protocol::PREVIEW_TRACE_ITEMS`); `partial`: so are its figures
    /// (cut by the preview's event budget). The note under a cut trace says so.
    #[prop_or_default]
    pub preview: bool,
    #[prop_or_default]
    pub partial: bool,
    /// Called with a `from` (ns) when the view leaves the recorded stretch of a cut trace
    /// (`window::wanted`): the page records that stretch again. None: nothing to load.
    #[prop_or_default]
    pub on_window: Option<Callback<Ns>>,
    /// The trace is such a stretch: keep the view when it arrives (do not fit it).
    #[prop_or_default]
    pub keep_view: bool,
    /// A stretch asked for is being simulated.
    #[prop_or_default]
    pub window_loading: bool,
    /// Timelines sharing one `ViewLink` show the same time window: zooming or panning one
    /// moves the others (A and B in the compare view), while the link is on.
    #[prop_or_default]
    pub link: Option<ViewLink>,
    /// Outline this task's runs (a row picked in the trace table, `ui::traces`).
    #[prop_or_default]
    pub highlight: Option<u32>,
}

fn offset(e: &web_sys::MouseEvent) -> (f64, f64) {
    (e.offset_x() as f64, e.offset_y() as f64)
}

/// Wheel: vertical zooms around the pointer, horizontal pans.
fn on_wheel(cell: &Rc<RefCell<Inner>>, e: &WheelEvent) {
    e.prevent_default();
    {
        let mut st = cell.borrow_mut();
        let unit = match e.delta_mode() {
            1 => 16.0,
            2 => 400.0,
            _ => 1.0,
        };
        let (dx, dy) = (e.delta_x() * unit, e.delta_y() * unit);
        let (x, _) = offset(e);
        if dy.abs() >= dx.abs() {
            st.zoom((dy * 0.0015).clamp(-1.0, 1.0).exp(), Some(x));
        } else {
            let (pw, dpr, end) = (st.plot_w(), st.dpr(), st.index.end);
            st.view = st.view.pan_px(-dx * dpr, pw, end);
        }
        st.hover = Some((x * st.dpr(), offset(e).1 * st.dpr()));
    }
    request_redraw(cell);
}

#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let canvas_ref = use_node_ref();
    let mini_ref = use_node_ref();
    let inner = use_mut_ref(Inner::default);
    if let Ok(mut st) = inner.try_borrow_mut() {
        st.on_window = props.on_window.clone();
        if st.highlight != props.highlight {
            st.highlight = props.highlight;
            st.base = None;
        }
    }
    // Counter tracks (`timeline_counters`): a toolbar toggle and a canvas under the lanes.
    let (counters_ref, counters_on) = (use_node_ref(), use_state(|| false));
    if let Ok(mut st) = inner.try_borrow_mut() {
        st.counters.node = counters_ref.clone();
    }
    let on_counters = {
        let (inner, on) = (inner.clone(), counters_on.clone());
        Callback::from(move |e: crate::ui::timeline::counters::Edit| {
            if let crate::ui::timeline::counters::Edit::On(v) = e {
                on.set(v);
            }
            inner.borrow_mut().counters.edit(e);
            request_redraw(&inner);
        })
    };
    let playing = use_state(|| false);
    let speed = use_state(|| draw::DEFAULT_SPEED);
    // The inspector's span (`inspect`), and where a pointer went down (a tap selects).
    let selected = use_state(|| None::<usize>);
    let down = use_mut_ref(|| None::<(f64, f64)>);

    // Mount: canvas, resize observer, non-passive wheel listener; unmount drops them all.
    {
        let (inner, canvas_ref, playing) = (inner.clone(), canvas_ref.clone(), playing.clone());
        let mini_ref = mini_ref.clone();
        use_effect_with((), move |_| {
            if let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() {
                let mut st = inner.borrow_mut();
                st.mini = mini_ref.cast::<HtmlCanvasElement>().and_then(|c| {
                    let ctx = c.get_context("2d").ok().flatten()?.dyn_into::<CanvasRenderingContext2d>().ok()?;
                    Some((c, ctx))
                });
                st.canvas = Some(canvas.clone());
                st.stopped = Some(playing.setter());
                let weak = Rc::downgrade(&inner);
                let on_resize = Closure::<dyn FnMut()>::new(move || {
                    if let Some(cell) = weak.upgrade() {
                        if let Ok(mut st) = cell.try_borrow_mut() {
                            st.css_w = None;
                        }
                        request_redraw(&cell);
                    }
                });
                if let (Ok(obs), Some(parent)) =
                    (ResizeObserver::new(on_resize.as_ref().unchecked_ref()), canvas.parent_element())
                {
                    obs.observe(&parent);
                    st.observer = Some((obs, on_resize));
                }
                let weak = Rc::downgrade(&inner);
                st.wheel = Some(EventListener::new_with_options(
                    &canvas,
                    "wheel",
                    EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        if let (Some(cell), Some(e)) = (weak.upgrade(), e.dyn_ref::<WheelEvent>()) {
                            on_wheel(&cell, e);
                        }
                    },
                ));
            }
            move || {
                let mut st = inner.borrow_mut();
                if let Some((obs, _)) = st.observer.take() {
                    obs.disconnect();
                }
                st.wheel = None;
                st.raf = None;
                st.canvas = None;
                st.ctx = None;
                st.mini = None;
                st.stopped = None;
            }
        });
    }

    // Join the shared window (if any); leaving happens when this timeline is dropped.
    {
        let inner = inner.clone();
        use_effect_with(props.link.clone(), move |link| {
            if let Some(l) = link {
                let mut ls = l.0.borrow_mut();
                ls.members.retain(|m| m.strong_count() > 0);
                ls.members.push(Rc::downgrade(&inner));
            }
            if let Ok(mut st) = inner.try_borrow_mut() {
                st.link = link.clone();
                st.link_seen = (0, None);
            }
            request_redraw(&inner);
        });
    }

    // A task outlined or no longer: redraw (the prop was taken in above).
    {
        let inner = inner.clone();
        use_effect_with(props.highlight, move |_| request_redraw(&inner));
    }

    // A new trace (by identity) or label: re-index, fit, redraw (a large one over frames: `Arrival`).
    {
        let inner = inner.clone();
        let key = (Rc::as_ptr(&props.trace) as usize, props.label.clone());
        let trace = props.trace.clone();
        let keep_view = props.keep_view;
        let selected = selected.clone();
        use_effect_with(key, move |(_, label)| {
            selected.set(None);
            inner.borrow_mut().receive(trace, label.to_string(), keep_view);
            request_redraw(&inner);
        });
    }

    let act = |f: fn(&mut Inner)| {
        let inner = inner.clone();
        Callback::from(move |_: MouseEvent| {
            f(&mut inner.borrow_mut());
            request_redraw(&inner);
        })
    };
    let select_mode = use_state(|| false);
    let toggle_select = {
        let (inner, select_mode) = (inner.clone(), select_mode.clone());
        Callback::from(move |_: MouseEvent| {
            let on = !*select_mode;
            inner.borrow_mut().select_mode = on;
            select_mode.set(on);
        })
    };
    let zoom_to_selected = {
        let (inner, selected) = (inner.clone(), selected.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(i) = *selected else { return };
            {
                let mut st = inner.borrow_mut();
                if let Some(v) = nav::focus_view(&st.trace, i, st.index.end) {
                    st.view = v;
                }
            }
            request_redraw(&inner);
        })
    };
    let on_mini = {
        let inner = inner.clone();
        Callback::from(move |e: PointerEvent| {
            // A press, or a drag with a button held, moves the view there.
            if e.type_() == "pointermove" && e.buttons() == 0 {
                return;
            }
            if e.type_() == "pointerdown" {
                if let Some(t) = e.target_dyn_into::<HtmlElement>() {
                    let _ = t.set_pointer_capture(e.pointer_id());
                }
            }
            inner.borrow_mut().minimap_to(offset(&e).0);
            request_redraw(&inner);
        })
    };
    let zoom_in = act(|st| st.zoom(ZOOM_STEP, None));
    let zoom_out = act(|st| st.zoom(1.0 / ZOOM_STEP, None));
    let fit = act(|st| st.view = st.fit_view);

    let toggle_play = {
        let (inner, playing) = (inner.clone(), playing.clone());
        Callback::from(move |_: MouseEvent| {
            let now = {
                let mut st = inner.borrow_mut();
                st.playing = !st.playing;
                if st.playing && st.cursor.is_some_and(|c| c >= st.index.end as f64) {
                    // Replay from the start of the trace.
                    st.view = st.view.pan(-st.view.t0, st.index.end);
                    st.cursor = None;
                }
                st.playing
            };
            playing.set(now);
            request_redraw(&inner);
        })
    };
    let on_speed = {
        let (inner, speed) = (inner.clone(), speed.clone());
        Callback::from(move |e: Event| {
            let Some(sel) = e.target_dyn_into::<HtmlSelectElement>() else { return };
            let i = sel.value().parse::<usize>().unwrap_or(draw::DEFAULT_SPEED).min(draw::SPEEDS.len() - 1);
            inner.borrow_mut().speed = draw::SPEEDS[i].1;
            speed.set(i);
        })
    };
    let save_png = {
        let inner = inner.clone();
        Callback::from(move |_: MouseEvent| {
            let st = inner.borrow();
            let (t0, t1) = st.view.ns_range();
            let css_w = st.layout.map_or(1200.0, |l| l.width / l.dpr);
            let url = render_png_data_url(&st.trace, Some((t0, t1)), css_w as u32, st.dpr().max(2.0), &st.label);
            let result = url.and_then(|url| {
                let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
                let a: HtmlAnchorElement =
                    doc.create_element("a").ok().and_then(|a| a.dyn_into().ok()).ok_or("cannot create a link")?;
                a.set_href(&url);
                let name = if st.label.is_empty() { "timeline".to_string() } else { format!("timeline-{}", st.label) };
                a.set_download(&format!("{}.png", name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_")));
                a.click();
                Ok(())
            });
            if let Err(e) = result {
                web_sys::console::warn_1(&format!("timeline PNG export failed: {e}").into());
            }
        })
    };

    let on_pointer_down = {
        let (inner, down) = (inner.clone(), down.clone());
        Callback::from(move |e: PointerEvent| {
            if let Some(t) = e.target_dyn_into::<HtmlElement>() {
                let _ = t.focus();
                let _ = t.set_pointer_capture(e.pointer_id());
            }
            let (x, y) = offset(&e);
            *down.borrow_mut() = Some((x, y));
            let mut st = inner.borrow_mut();
            // Shift-drag (or a drag in select mode) marks a stretch to zoom to.
            if (e.shift_key() || st.select_mode) && st.pointers.is_empty() {
                st.select = Some((x, x));
                drop(st);
                request_redraw(&inner);
                return;
            }
            st.pointers.retain(|p| p.0 != e.pointer_id());
            st.pointers.push((e.pointer_id(), x, y));
            let dpr = st.dpr();
            st.hover = Some((x * dpr, y * dpr));
            drop(st);
            request_redraw(&inner);
        })
    };
    let on_pointer_move = {
        let inner = inner.clone();
        Callback::from(move |e: PointerEvent| {
            let (x, y) = offset(&e);
            let mut st = inner.borrow_mut();
            if let Some((a, _)) = st.select {
                st.select = Some((a, x));
                drop(st);
                request_redraw(&inner);
                return;
            }
            let (dpr, pw, end) = (st.dpr(), st.plot_w(), st.index.end);
            let id = e.pointer_id();
            match st.pointers.iter().position(|p| p.0 == id) {
                Some(k) if st.pointers.len() >= 2 => {
                    // Pinch: the two pointers' horizontal distance sets the zoom, their midpoint pans.
                    let other = st.pointers[1 - k.min(1)];
                    let (old, new) = ((st.pointers[k].1 - other.1).abs(), (x - other.1).abs());
                    let mid_old = (st.pointers[k].1 + other.1) / 2.0;
                    let mid_new = (x + other.1) / 2.0;
                    if old > 10.0 && new > 10.0 {
                        st.zoom(old / new, Some(mid_new));
                    }
                    st.view = st.view.pan_px((mid_new - mid_old) * dpr, pw, end);
                    st.pointers[k] = (id, x, y);
                    st.hover = None;
                }
                Some(k) => {
                    let dx = x - st.pointers[k].1;
                    st.view = st.view.pan_px(dx * dpr, pw, end);
                    st.pointers[k] = (id, x, y);
                    st.hover = Some((x * dpr, y * dpr));
                }
                None => st.hover = Some((x * dpr, y * dpr)),
            }
            drop(st);
            request_redraw(&inner);
        })
    };
    let on_pointer_up = {
        let (inner, down, selected) = (inner.clone(), down.clone(), selected.clone());
        Callback::from(move |e: PointerEvent| {
            let (x, y) = offset(&e);
            let picked = {
                let mut st = inner.borrow_mut();
                st.select.take().map(|(a, _)| {
                    if let Some(l) = st.layout {
                        if let Some(v) = nav::selection_view(&st.view, &l, a, x, st.index.end) {
                            st.view = v;
                        }
                    }
                })
            };
            if picked.is_some() {
                down.borrow_mut().take();
                request_redraw(&inner);
            } else if let Some(hit) = down.borrow_mut().take().and_then(|d| inspect_tap(&inner.borrow(), d, (x, y))) {
                selected.set(Some(hit));
            }
            inner.borrow_mut().pointers.retain(|p| p.0 != e.pointer_id());
            if let Some(t) = e.target_dyn_into::<HtmlElement>() {
                let _ = t.release_pointer_capture(e.pointer_id());
            }
        })
    };
    let on_pointer_leave = {
        let inner = inner.clone();
        Callback::from(move |_: PointerEvent| {
            inner.borrow_mut().hover = None;
            request_redraw(&inner);
        })
    };
    let on_key = {
        let (inner, selected) = (inner.clone(), selected.clone());
        Callback::from(move |e: KeyboardEvent| {
            let mut st = inner.borrow_mut();
            let (len, end) = (st.view.len(), st.index.end);
            match e.key().as_str() {
                k @ ("Enter" | "[" | "]") => {
                    let dir = if k == "[" { -1 } else { 1 };
                    let cur = if k == "Enter" { None } else { *selected };
                    let t = (st.view.t0 + st.view.t1) / 2.0;
                    if let Some(i) = crate::ui::inspect::find::step(&st.trace, &st.index.spans, cur, dir, t) {
                        selected.set(Some(i));
                    }
                }
                "ArrowLeft" => st.view = st.view.pan(-0.1 * len, end),
                "ArrowRight" => st.view = st.view.pan(0.1 * len, end),
                "ArrowUp" | "+" | "=" => st.zoom(ZOOM_STEP, None),
                "ArrowDown" | "-" | "_" => st.zoom(1.0 / ZOOM_STEP, None),
                "Home" => st.view = st.view.pan(-st.view.t0, end),
                "End" => st.view = st.view.pan(end as f64, end),
                "f" | "F" | "0" => st.view = st.fit_view,
                "z" | "Z" => match selected.and_then(|i| nav::focus_view(&st.trace, i, end)) {
                    Some(v) => st.view = v,
                    None => return,
                },
                _ => return,
            }
            e.prevent_default();
            st.hover = None;
            drop(st);
            request_redraw(&inner);
        })
    };

    let trace = &props.trace;
    let colours = draw::TaskColours::new(trace);
    let collapse = use_state(|| true);
    // Two scans of every span, done once per trace (not on each render: a 100,000-item
    // trace's scans cost the page's wasm milliseconds, `draw::IndexBuilder`).
    let (cpus, idle_cores) = *use_memo(Rc::as_ptr(trace) as usize, {
        let trace = trace.clone();
        move |_| (TraceIndex::lanes_of(&trace), TraceIndex::idle_cores(&trace).len())
    });
    let lanes = TraceIndex::shown(cpus, idle_cores, *collapse);
    let toggle_idle = {
        let (inner, collapse) = (inner.clone(), collapse.clone());
        Callback::from(move |_: MouseEvent| {
            let now = !*collapse;
            {
                let mut st = inner.borrow_mut();
                st.collapse = now;
                let (trace, label, view) = (st.trace.clone(), st.label.clone(), st.view);
                st.set_trace(trace, label, true);
                st.view = view;
            }
            collapse.set(now);
            request_redraw(&inner);
        })
    };
    let swatch = |colour: &str, border: bool| {
        let b = if border { "1px solid #999" } else { "1px solid transparent" };
        html! { <span class="timeline-swatch" aria-hidden="true" style={format!("display:inline-block;width:0.9em;height:0.9em;margin-right:0.3em;vertical-align:middle;background:{colour};border:{b}")}></span> }
    };
    let item =
        |colours: Html, text: String| html! { <li style="display:inline-block;margin-right:1em">{colours}{text}</li> };
    let idle_count = trace.idle_states.len();
    let chrome = if prefers_dark() { &draw::DARK } else { &draw::LIGHT };
    let aria = if props.label.is_empty() {
        format!("Timeline of {cpus} CPUs")
    } else {
        format!("{}: timeline of {cpus} CPUs", props.label)
    };
    let label_text = if colours.by_group { "Task groups (user, sys)" } else { "Tasks (user, sys)" };
    html! {
        <div class="timeline">
            <div class="timeline-toolbar" role="toolbar" aria-label="Timeline controls">
                <button type="button" onclick={zoom_in} aria-label="Zoom in" title="Zoom in (+ or up arrow)">{"+"}</button>
                <button type="button" onclick={zoom_out} aria-label="Zoom out" title="Zoom out (- or down arrow)">{"\u{2212}"}</button>
                <button type="button" onclick={fit} title="Show the whole trace (F)">{"Fit"}</button>
                <button type="button" class="select-zoom" onclick={toggle_select} aria-pressed={(*select_mode).to_string()}
                    title="Drag across the timeline to zoom to that stretch (or hold Shift while dragging)">{"Zoom to range"}</button>
                if selected.is_some() {
                    <button type="button" class="zoom-to" onclick={zoom_to_selected}
                        title="Zoom to the selected span: a woken run with its whole wakeup latency">{"Zoom to selection"}</button>
                }
                <button type="button" onclick={toggle_play} aria-pressed={(*playing).to_string()}>
                    { if *playing { "Pause" } else { "Play" } }
                </button>
                <label>{" Speed "}
                    <select onchange={on_speed} aria-label="Playback speed (simulated time per second)">
                        { for draw::SPEEDS.iter().enumerate().map(|(i, (name, _))| html! {
                            <option value={i.to_string()} selected={i == *speed}>{*name}</option>
                        }) }
                    </select>
                </label>
                <button type="button" onclick={save_png} title="Download the current view as a PNG image">{"Save PNG"}</button>
                { crate::ui::timeline::counters::toggle(*counters_on, on_counters.clone()) }
                if idle_cores >= 2 {
                    <button type="button" class="idle-lanes" onclick={toggle_idle} aria-pressed={(!*collapse).to_string()}
                        title="CPUs on which no task ran: one lane, or a lane each">
                        { if *collapse { format!("Show {idle_cores} idle CPUs") } else { "Collapse idle CPUs".to_string() } }
                    </button>
                }
            </div>
            <div class="timeline-canvas-box" style="position:relative;width:100%">
                <canvas ref={canvas_ref} role="img" aria-label={aria} tabindex="0"
                    style={format!("display:block;width:100%;height:{}px;touch-action:none;cursor:grab", Layout::css_height(lanes))}
                    onpointerdown={on_pointer_down} onpointermove={on_pointer_move} onpointerup={on_pointer_up.clone()}
                    onpointercancel={on_pointer_up} onpointerleave={on_pointer_leave} onkeydown={on_key}>
                    {"Per-CPU timeline (needs canvas support)."}
                </canvas>
                <canvas ref={mini_ref} class="minimap" aria-label="Minimap of the whole run: click or drag to move the view"
                    style={format!("display:block;width:100%;height:{MINIMAP_CSS_H}px;touch-action:none;cursor:pointer;margin-top:2px")}
                    onpointerdown={on_mini.clone()} onpointermove={on_mini}></canvas>
            </div>
            <crate::ui::timeline::counters::CounterLanes trace={props.trace.clone()} on={*counters_on} node={counters_ref} on_edit={on_counters} />
            <crate::ui::inspect::Inspector trace={props.trace.clone()} span={*selected}
                on_close={{ let selected = selected.clone(); Callback::from(move |_| selected.set(None)) }} />
            if trace.spans.is_empty() {
                <p class="timeline-note">{"This run recorded no timeline spans (tracing off, or a window outside the run)."}</p>
            }
            if trace.truncated {
                <p class="timeline-note">{
                    if props.preview {
                        format!(
                            "The timeline shows the first {} of {}: a preview keeps at most {} spans and marks. {}",
                            crate::ui::common::format::duration(draw::recorded_end(trace)),
                            crate::ui::common::format::duration(trace.end),
                            crate::ui::common::format::count(crate::ui::worker::protocol::PREVIEW_TRACE_ITEMS as u64),
                            if props.partial {
                                "The preview itself stops early; the full run follows."
                            } else {
                                "The figures cover the whole run; the full timeline follows."
                            },
                        )
                    } else {
                        let (from, to) = crate::ui::timeline::window::recorded(trace);
                        format!(
                            "The timeline shows {} of {}: the live trace keeps at most {} spans and marks. The figures cover the whole run.{}",
                            if from == 0 {
                                format!("the first {}", crate::ui::common::format::duration(to))
                            } else {
                                format!("{} to {}", crate::ui::common::format::duration(from), crate::ui::common::format::duration(to))
                            },
                            crate::ui::common::format::duration(trace.end),
                            crate::ui::common::format::count(crate::ui::worker::protocol::LIVE_TRACE_ITEMS as u64),
                            if props.on_window.is_some() {
                                " Zoom in and pan past the recorded stretch to record that part of the run instead (the run is simulated again, to the same figures)."
                            } else {
                                ""
                            },
                        )
                    }
                }</p>
            } else if trace.start > 0 {
                <p class="timeline-note">{format!(
                    "The timeline shows {} to the end ({}): pan back before it to record that part again.",
                    crate::ui::common::format::duration(trace.start),
                    crate::ui::common::format::duration(trace.end),
                )}</p>
            }
            if props.window_loading {
                <p class="timeline-note" role="status">{"Recording the stretch you panned to (simulating the run again)\u{2026}"}</p>
            }
            <ul class="timeline-legend" aria-label="Legend" style="list-style:none;padding:0;margin:0.3em 0;font-size:0.85em">
                <li style="display:inline-block;margin-right:0.6em"><strong>{label_text}{": "}</strong></li>
                { for colours.legend.iter().map(|(slot, name)| item(
                    html! { <>{swatch(draw::TASK_COLOURS[*slot as usize], false)}{swatch(draw::SYS_COLOURS[*slot as usize], false)}</> },
                    name.clone())) }
            </ul>
            <ul class="timeline-legend" style="list-style:none;padding:0;margin:0.3em 0;font-size:0.85em">
                <li style="display:inline-block;margin-right:0.6em"><strong>{"Overheads (lower band): "}</strong></li>
                { for Overhead::ALL.iter().map(|k| item(swatch(draw::OVERHEAD_COLOURS[draw::overhead_index(*k)], false), draw::overhead_label(*k).to_string())) }
            </ul>
            <ul class="timeline-legend" style="list-style:none;padding:0;margin:0.3em 0;font-size:0.85em">
                <li style="display:inline-block;margin-right:0.6em"><strong>{"Idle: "}</strong></li>
                { for trace.idle_states.iter().enumerate().map(|(i, name)| item(
                    swatch(chrome.idle[draw::idle_shade(i as u8, idle_count) as usize], true), name.clone())) }
                <li style="display:inline-block;margin-right:0.6em"><strong>{"Marks: "}</strong></li>
                { item(swatch(chrome.tick_mark, false), draw::MARK_LABELS[0].into()) }
                { item(swatch(draw::HRTICK_MARK, false), draw::MARK_LABELS[1].into()) }
                { item(swatch(chrome.wakeup_arrow, false), draw::MARK_LABELS[2].into()) }
                { item(swatch(draw::IPI_ARROW, false), draw::MARK_LABELS[3].into()) }
                { item(swatch(chrome.migrate_arrow, false), draw::MARK_LABELS[4].into()) }
            </ul>
            <p class="timeline-help" style="font-size:0.8em;margin:0.2em 0">
                {"Drag or use \u{2190} \u{2192} (Home, End) to pan; wheel, pinch, + and \u{2212} to zoom; Shift-drag (or Zoom to range) to zoom to a stretch; the strip below is the whole run: click it to go there; hover a span for details; click or tap it (or Enter, [ and ]) to inspect why, then Zoom to selection (Z)."}
            </p>
        </div>
    }
}

/// A tap or click (the pointer moved under 6 CSS px since it went down) selects the span under it.
fn inspect_tap(st: &Inner, down: (f64, f64), up: (f64, f64)) -> Option<usize> {
    if (up.0 - down.0).abs() > 6.0 || (up.1 - down.1).abs() > 6.0 {
        return None;
    }
    let (layout, dpr) = (st.layout?, st.dpr());
    draw::hit_test(&st.trace, &st.index, &st.view, &layout, up.0 * dpr, up.1 * dpr)
}

/// Whether the page is in dark colours (`prefers-color-scheme`, as the stylesheet decides).
fn prefers_dark() -> bool {
    crate::ui::media_matches("(prefers-color-scheme: dark)")
}
