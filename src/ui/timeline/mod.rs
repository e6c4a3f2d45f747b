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
//! `paint` (a scene onto a canvas, PNG export), `input` (the event handlers), `hooks` (the
//! props into that state), `toolbar`, `legend`; the pure ones: `draw` (index, geometry, level of detail, scene, hit testing), `gesture` (wheel,
//! pinch, tap and keys as numbers), `nav` (minimap and zoom targets), `notes` (the note under
//! a cut trace), `window` (the stretch of a cut trace to ask for), `counters` and `runqueue`.
//! This file is the component: its props, hooks and markup.

pub mod counters;
pub mod draw;
mod frame;
pub mod gesture;
mod hooks;
mod input;
mod legend;
mod link;
pub mod nav;
pub mod notes;
mod paint;
pub mod runqueue;
mod toolbar;
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
use crate::engine::trace::Trace;
use draw::{Align, Layout, Scene, TraceIndex, View};
use frame::*;
use input::{attach, detach};
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
    /// The stretch (ns) a new trace opens at instead of the whole run (a link's `t0`/`t1`).
    #[prop_or_default]
    pub stretch: Option<(Ns, Ns)>,
    /// Told the visible stretch (None: the whole run) once a view the reader moved is still.
    #[prop_or_default]
    pub on_stretch: Option<Callback<Option<(Ns, Ns)>>>,
    /// Open this span (an index into `trace.spans`) in the inspector and move the view to it
    /// (`nav::focus_view`): a latency figure clicked in the metrics panel. The first number
    /// is a serial, so asking for the same span again (after closing it) opens it again.
    #[prop_or_default]
    pub select: Option<(u64, usize)>,
    /// The run's machine: lanes grouped by socket and LLC, siblings named in the tooltip
    /// (`draw::TraceIndex::with_topology`). None (an import): lanes as they come.
    #[prop_or_default]
    pub topo: Option<crate::engine::profile::Topology>,
}

#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let canvas_ref = use_node_ref();
    let mini_ref = use_node_ref();
    let inner = use_mut_ref(Inner::default);
    if let Ok(mut st) = inner.try_borrow_mut() {
        st.on_window = props.on_window.clone();
        st.topo = props.topo;
        st.stretch.open_at = props.stretch;
        st.stretch.report = props.on_stretch.clone();
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
        Callback::from(move |e: counters::Edit| {
            if let counters::Edit::On(v) = e {
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
            attach(&inner, canvas_ref.cast(), mini_ref.cast(), playing.setter());
            move || detach(&inner)
        });
    }

    hooks::use_props(&inner, props, &selected, &canvas_ref);
    if let Ok(mut st) = inner.try_borrow_mut() {
        if st.selected != *selected {
            st.selected = *selected;
            drop(st);
            request_redraw(&inner);
        }
    }

    let select_mode = use_state(|| false);
    let collapse = use_state(|| true);
    let trace = &props.trace;
    let colours = draw::TaskColours::new(trace);
    // Two scans of every span, done once per trace (not on each render: a 100,000-item
    // trace's scans cost the page's wasm milliseconds, `draw::IndexBuilder`).
    let (cpus, idle_cores) = *use_memo(Rc::as_ptr(trace) as usize, {
        let trace = trace.clone();
        move |_| (TraceIndex::lanes_of(&trace), TraceIndex::idle_cores(&trace).len())
    });
    let lanes = TraceIndex::shown(cpus, idle_cores, *collapse);
    let aria = if props.label.is_empty() {
        format!("Timeline of {cpus} CPUs")
    } else {
        format!("{}: timeline of {cpus} CPUs", props.label)
    };
    let on_pointer_up = input::pointer_up(&inner, &down, &selected);
    let on_mini = input::minimap(&inner);
    html! {
        <div class="timeline">
            { toolbar::toolbar(toolbar::Toolbar {
                inner: &inner, select_mode: &select_mode, selected: &selected, playing: &playing, speed: &speed,
                counters_on: *counters_on, on_counters: on_counters.clone(), idle_cores, collapse: &collapse,
            }) }
            <div class="timeline-canvas-box" style="position:relative;width:100%">
                <canvas ref={canvas_ref} role="img" aria-label={aria} tabindex="0"
                    style={format!("display:block;width:100%;height:{}px;touch-action:none;cursor:grab", crate::engine::decimal::shortest(Layout::css_height(lanes)))}
                    onpointerdown={input::pointer_down(&inner, &down)} onpointermove={input::pointer_move(&inner)} onpointerup={on_pointer_up.clone()}
                    onpointercancel={on_pointer_up} onpointerleave={input::pointer_leave(&inner)} onkeydown={input::key(&inner, &selected)}>
                    {"Per-CPU timeline (needs canvas support)."}
                </canvas>
                <canvas ref={mini_ref} class="minimap" aria-label="Minimap of the whole run: click or drag to move the view"
                    style={format!("display:block;width:100%;height:{}px;touch-action:none;cursor:pointer;margin-top:2px", crate::engine::decimal::shortest(MINIMAP_CSS_H))}
                    onpointerdown={on_mini.clone()} onpointermove={on_mini}></canvas>
            </div>
            <counters::CounterLanes trace={props.trace.clone()} on={*counters_on} node={counters_ref} on_edit={on_counters} />
            <crate::ui::inspect::Inspector trace={props.trace.clone()} span={*selected}
                on_close={{ let selected = selected.clone(); Callback::from(move |_| selected.set(None)) }} />
            if trace.spans.is_empty() {
                <p class="timeline-note">{"This run recorded no timeline spans (tracing off, or a window outside the run)."}</p>
            }
            if let Some(note) = notes::stretch(trace, props.preview, props.partial, props.on_window.is_some()) {
                <p class="timeline-note">{note}</p>
            }
            if props.window_loading {
                <p class="timeline-note" role="status">{"Recording the stretch you panned to (simulating the run again)\u{2026}"}</p>
            }
            { legend::legend(trace, &colours, prefers_dark()) }
        </div>
    }
}

/// Whether the page is in dark colours (`prefers-color-scheme`, as the stylesheet decides).
fn prefers_dark() -> bool {
    crate::ui::media_matches("(prefers-color-scheme: dark)")
}
