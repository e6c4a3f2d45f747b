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
//! Over 800 lines (about 1,350): the component still holds its frame loop, pointer and key
//! handling, the arrival of a large trace and `ViewLink`; issue 28 asks for a component under
//! 200 lines with canvas, window and hit testing in their own files, not done yet.

pub mod counters;
pub mod draw;
pub mod nav;
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

/// One time axis for several timelines (`TimelineProps::link`).
#[derive(Clone, Default)]
pub struct ViewLink(Rc<RefCell<LinkState>>);

#[derive(Default)]
struct LinkState {
    on: bool,
    /// The window last published, and a count of publications.
    view: Option<View>,
    version: u64,
    members: Vec<Weak<RefCell<Inner>>>,
}

impl PartialEq for ViewLink {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl ViewLink {
    /// A link, on or off.
    pub fn new(on: bool) -> Self {
        ViewLink(Rc::new(RefCell::new(LinkState { on, ..LinkState::default() })))
    }

    pub fn is_on(&self) -> bool {
        self.0.borrow().on
    }

    /// Turns the link on or off; on, the next window drawn is everyone's.
    pub fn set_on(&self, on: bool) {
        let members: Vec<_> = {
            let mut l = self.0.borrow_mut();
            l.on = on;
            l.view = None;
            l.members.retain(|m| m.strong_count() > 0);
            l.members.iter().filter_map(Weak::upgrade).collect()
        };
        for m in members {
            request_redraw(&m);
        }
    }
}

/// Zoom factor of one +/- press or arrow key.
const ZOOM_STEP: f64 = 0.2;

/// What the frame loop needs; shared by the event handlers through `use_mut_ref`.
struct Inner {
    trace: Rc<Trace>,
    index: TraceIndex,
    label: String,
    view: View,
    canvas: Option<HtmlCanvasElement>,
    ctx: Option<CanvasRenderingContext2d>,
    scratch: Option<Scratch>,
    layout: Option<Layout>,
    /// The scene for (view, layout), rebuilt only when either changes.
    base: Option<(View, Layout, Scene)>,
    aria: String,
    /// Pointer position in device pixels, for the tooltip.
    hover: Option<(f64, f64)>,
    /// Pointers down: (id, x, y) in CSS pixels, for drag and pinch.
    pointers: Vec<(i32, f64, f64)>,
    playing: bool,
    /// Simulated ns per wall-clock second.
    speed: f64,
    /// Playback cursor time.
    cursor: Option<f64>,
    last_frame: Option<f64>,
    raf: Option<AnimationFrame>,
    stopped: Option<UseStateSetter<bool>>,
    observer: Option<(ResizeObserver, Closure<dyn FnMut()>)>,
    wheel: Option<EventListener>,
    /// The shared window, its publication this timeline last saw, and the window it had then.
    link: Option<ViewLink>,
    link_seen: (u64, Option<View>),
    /// Idle cores (no task ran) folded into one lane (`TraceIndex::collapse_idle`).
    collapse: bool,
    /// The canvas box's CSS width, read once and again after a resize: reading it on every
    /// frame forced a synchronous layout each time the page had changed.
    css_w: Option<f64>,
    /// Where to ask for another stretch of a cut trace, and the starts asked for this run.
    on_window: Option<Callback<Ns>>,
    /// The task outlined (`TimelineProps::highlight`) and its outlines for the base view.
    highlight: Option<u32>,
    highlight_scene: Option<draw::Scene>,
    asked: Vec<Ns>,
    /// What Fit shows: the recorded stretch.
    fit_view: View,
    /// A stretch to ask for, emitted once the frame has let go of this state (the callback
    /// dispatches, and a re-render borrows it).
    window_ask: Option<Ns>,
    /// Drag-to-zoom: the CSS x where the drag began and where it is now.
    select: Option<(f64, f64)>,
    /// A plain drag selects a range to zoom to (the toolbar's toggle) instead of panning.
    select_mode: bool,
    /// The minimap under the lanes: its canvas and context, the whole run's busy shares,
    /// and the (view, width) it was last drawn for.
    mini: Option<(HtmlCanvasElement, CanvasRenderingContext2d)>,
    minimap: Option<nav::Minimap>,
    mini_seen: Option<(View, u32, bool)>,
    /// The optional counter tracks under the lanes (`timeline_counters`).
    counters: crate::ui::timeline::counters::Counters,
    /// A trace given but not shown yet (trace, label, keep_view): `frame` takes it in over
    /// a few frames (`Arrival`), so a 100,000-item trace makes no long task.
    pending: Option<(Rc<Trace>, String, bool)>,
    arrival: Arrival,
}

/// Where a new trace is on its way to the canvas: a frame takes the steps that fit in
/// `INDEX_SLICE_MS` (all of them for a small trace). One frame that read the canvas box (a
/// synchronous layout of the page the trace panel had just changed: 12-27 ms), indexed and
/// drew a 100 MB import's timeline was a 53-59 ms task on a 2-core machine (issue 14's bound
/// is 50 ms).
#[derive(Debug, Default)]
enum Arrival {
    /// Shown (or none given).
    #[default]
    Shown,
    /// Came to a canvas not measured yet (just mounted): nothing is read this frame, so the
    /// page's layout runs after its callbacks, where the browser does it anyway.
    Came,
    /// Being indexed, `INDEX_SLICE_MS` a frame (`draw::IndexBuilder`).
    Indexing(draw::IndexBuilder),
    /// Indexed: take the index in (`adopt`), size the canvas and take its contexts.
    Indexed(TraceIndex),
    /// Ready: draw (the scene and the paint).
    Ready,
}

/// How long (ms) a frame indexes a new trace before it lets the browser paint.
const INDEX_SLICE_MS: f64 = 6.0;
/// Items indexed between two looks at the clock (the first 4,096 of a 100 MB import took
/// 13 ms before the builder was optimised).
const INDEX_PIECE: usize = 1_024;

impl Default for Inner {
    fn default() -> Self {
        Inner {
            trace: Rc::new(Trace::default()),
            index: TraceIndex::default(),
            label: String::new(),
            view: View::fit(1),
            canvas: None,
            ctx: None,
            scratch: None,
            layout: None,
            base: None,
            aria: String::new(),
            hover: None,
            pointers: Vec::new(),
            playing: false,
            speed: draw::SPEEDS[draw::DEFAULT_SPEED].1,
            cursor: None,
            last_frame: None,
            raf: None,
            stopped: None,
            observer: None,
            wheel: None,
            collapse: true,
            link: None,
            link_seen: (0, None),
            css_w: None,
            on_window: None,
            highlight: None,
            highlight_scene: None,
            asked: Vec::new(),
            fit_view: View::fit(1),
            window_ask: None,
            select: None,
            select_mode: false,
            mini: None,
            minimap: None,
            mini_seen: None,
            counters: Default::default(),
            pending: None,
            arrival: Arrival::Shown,
        }
    }
}

impl Inner {
    /// `keep_view`: the trace is another stretch of the same run, so the view stays.
    fn set_trace(&mut self, trace: Rc<Trace>, label: String, keep_view: bool) {
        let index = TraceIndex::new(&trace);
        self.adopt(trace, index, label, keep_view);
    }

    /// Shows `trace` with its `index` (uncollapsed: `collapse` is applied here).
    fn adopt(&mut self, trace: Rc<Trace>, index: TraceIndex, label: String, keep_view: bool) {
        self.index = if self.collapse { index.collapse_idle() } else { index };
        let (from, to) = crate::ui::timeline::window::recorded(&trace);
        // Fit shows what was recorded; a cut trace whose other stretches can be loaded lets
        // the view reach the whole run.
        self.fit_view = View { t0: from as f64, t1: to.max(from + 1) as f64 }.clamp(self.index.end);
        if self.on_window.is_some() && crate::ui::timeline::window::is_partial(&trace) {
            self.index.end = self.index.end.max(trace.end);
        }
        if keep_view {
            self.view = self.view.clamp(self.index.end);
        } else {
            self.view = self.fit_view;
            self.asked.clear();
        }
        self.minimap = Some(nav::Minimap::new(&trace, MINIMAP_COLS, self.index.end));
        self.mini_seen = None;
        self.trace = trace;
        self.label = label;
        self.base = None;
        self.hover = None;
        self.cursor = None;
    }

    fn plot_w(&self) -> f64 {
        self.layout.map_or(800.0, |l| l.plot_w() as f64)
    }

    fn dpr(&self) -> f64 {
        self.layout.map_or(1.0, |l| l.dpr)
    }

    /// Zooms by `factor` around CSS x `x` (None: the centre).
    fn zoom(&mut self, factor: f64, x: Option<f64>) {
        let frac = match (x, self.layout) {
            (Some(x), Some(l)) => l.frac_at(x * l.dpr),
            _ => 0.5,
        };
        self.view = self.view.zoom_at(factor, frac, self.index.end);
    }

    /// Takes a new trace in: `frame` indexes and shows it over the next frames (`Arrival`).
    /// A canvas whose box is known needs no layout frame (nothing will read the box).
    fn receive(&mut self, trace: Rc<Trace>, label: String, keep_view: bool) {
        self.pending = Some((trace, label, keep_view));
        self.arrival =
            if self.css_w.is_some() { Arrival::Indexing(draw::IndexBuilder::default()) } else { Arrival::Came };
    }

    /// Steps a new trace's arrival on as far as `INDEX_SLICE_MS` allows; false once it is
    /// ready to draw in this frame (a small trace: all in one frame, as before `Arrival`).
    fn arrive(&mut self) -> bool {
        let t0 = crate::ui::common::marks::now();
        let over = || crate::ui::common::marks::now() - t0 >= INDEX_SLICE_MS;
        loop {
            match std::mem::take(&mut self.arrival) {
                Arrival::Came => {
                    self.arrival = Arrival::Indexing(draw::IndexBuilder::default());
                    return true;
                }
                Arrival::Indexing(mut b) => {
                    let Some((trace, _, _)) = &self.pending else { return false };
                    let t = crate::ui::common::marks::now();
                    let done = loop {
                        if b.step(trace, INDEX_PIECE) {
                            break true;
                        }
                        if over() {
                            break false;
                        }
                    };
                    self.arrival = if done { Arrival::Indexed(b.finish(trace)) } else { Arrival::Indexing(b) };
                    crate::ui::common::marks::measure("schedscope timeline: index", t);
                    if !done || over() {
                        return true;
                    }
                }
                Arrival::Indexed(index) => {
                    let t = crate::ui::common::marks::now();
                    if let Some((trace, label, keep_view)) = self.pending.take() {
                        self.adopt(trace, index, label, keep_view);
                    }
                    // The box was laid out frames ago: reading it now costs no layout.
                    self.prepare();
                    if self.scratch.is_none() {
                        self.scratch = Scratch::new();
                    }
                    crate::ui::common::marks::measure("schedscope timeline: adopt", t);
                    self.arrival = Arrival::Ready;
                    return over();
                }
                a @ (Arrival::Ready | Arrival::Shown) => {
                    self.arrival = a;
                    return false;
                }
            }
        }
    }

    /// Sizes the canvas to its box and the device pixel ratio, and caches the context.
    fn prepare(&mut self) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d, Layout)> {
        let canvas = self.canvas.clone()?;
        let css_w = match self.css_w {
            Some(w) => w,
            None => {
                let parent_w = canvas.parent_element().map_or(0, |p| p.client_width());
                let w = if parent_w > 0 { parent_w as f64 } else { 800.0 };
                // A box not laid out yet (0 wide) is asked again next frame.
                self.css_w = (parent_w > 0).then_some(w);
                w
            }
        };
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let layout = Layout::new(css_w, self.index.lanes, dpr).themed(prefers_dark());
        if canvas.width() != layout.width as u32 || canvas.height() != layout.height as u32 {
            canvas.set_width(layout.width as u32);
            canvas.set_height(layout.height as u32);
            let style = canvas.style();
            let _ = style.set_property("height", &format!("{}px", Layout::css_height(self.index.lanes)));
        }
        if self.ctx.is_none() {
            self.ctx = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into().ok());
        }
        self.layout = Some(layout);
        Some((canvas, self.ctx.clone()?, layout))
    }

    /// Draws one frame; returns true when playback just reached the end.
    fn render(&mut self, now: f64) -> bool {
        let Some((canvas, ctx, layout)) = self.prepare() else { return false };
        let mut ended = false;
        if self.playing {
            let dt_ms = self.last_frame.map_or(0.0, |t| (now - t).clamp(0.0, 100.0));
            self.last_frame = Some(now);
            let end = self.index.end as f64;
            let mut c = self.cursor.filter(|c| *c >= self.view.t0 && *c <= self.view.t1).unwrap_or(self.view.t0);
            c += self.speed * dt_ms / 1000.0;
            if c >= end {
                c = end;
                self.playing = false;
                ended = true;
            }
            if c > self.view.t1 {
                // Page forward: the cursor sweeps the view, then the view jumps a page.
                self.view = self.view.pan(c - self.view.t0, self.index.end);
            }
            self.cursor = Some(c);
        } else {
            self.last_frame = None;
        }
        let fresh = matches!(&self.base, Some((v, l, _)) if *v == self.view && *l == layout);
        if !fresh {
            let scene = draw::build_scene(&self.trace, &self.index, &self.view, &layout);
            let aria = draw::summary(&self.trace, &self.index, &self.view, scene.visible_spans, &self.label);
            if aria != self.aria {
                let _ = canvas.set_attribute("aria-label", &aria);
                self.aria = aria;
            }
            self.base = Some((self.view, layout, scene));
            self.highlight_scene =
                self.highlight.map(|t| draw::highlight(&self.trace, &self.index, &self.view, &layout, t));
        }
        if self.scratch.is_none() {
            self.scratch = Scratch::new();
        }
        if let Some((_, _, scene)) = &self.base {
            paint(&ctx, scene, self.scratch.as_ref());
        }
        if let Some(h) = &self.highlight_scene {
            paint(&ctx, h, None);
        }
        let lines = self
            .hover
            .and_then(|(x, y)| draw::hit_test(&self.trace, &self.index, &self.view, &layout, x, y))
            .map(|i| draw::describe(&self.trace, i))
            .unwrap_or_default();
        let (hx, hy) = self.hover.unwrap_or((0.0, 0.0));
        let cursor =
            self.cursor.filter(|c| *c >= self.view.t0 && *c <= self.view.t1).map(|c| layout.x_of(&self.view, c));
        if let (Some(x), Some(t)) = (cursor, self.cursor) {
            paint(&ctx, &draw::play_cursor(&self.trace, &self.index, &layout, t, x, self.playing), None);
        }
        paint(&ctx, &draw::overlay(&layout, &lines, hx, hy, cursor), None);
        if let Some((a, b)) = self.select {
            let s = layout.dpr;
            let (x0, x1) = ((a.min(b) * s).max(layout.gutter), (a.max(b) * s).min(layout.width));
            ctx.set_fill_style_str(if layout.chrome.background == draw::DARK.background {
                "rgba(120,170,255,0.25)"
            } else {
                "rgba(0,114,178,0.18)"
            });
            ctx.fill_rect(x0, layout.axis_h, (x1 - x0).max(1.0), layout.height - layout.axis_h);
        }
        self.paint_minimap(&layout);
        self.counters.draw(&self.trace, &self.view, &layout, |c, sc| paint(c, sc, None));
        if self.on_window.is_some() {
            if let Some(from) =
                crate::ui::timeline::window::wanted(&self.trace, self.view.t0, self.view.t1, &self.asked)
            {
                self.asked.push(from);
                self.window_ask = Some(from);
            }
        }
        ended
    }
}

impl Inner {
    /// Draws the minimap (the whole run's busy shares, the view as a window over them),
    /// aligned with the plot area above it; only when the view, width or theme changed.
    fn paint_minimap(&mut self, layout: &Layout) {
        let (Some((canvas, ctx)), Some(m)) = (&self.mini, &self.minimap) else { return };
        let dark = layout.chrome.background == draw::DARK.background;
        let key = (self.view, layout.width as u32, dark);
        if self.mini_seen == Some(key) {
            return;
        }
        self.mini_seen = Some(key);
        let (w, h) = (layout.width, (MINIMAP_CSS_H * layout.dpr).round());
        if canvas.width() != w as u32 || canvas.height() != h as u32 {
            canvas.set_width(w as u32);
            canvas.set_height(h as u32);
        }
        ctx.set_global_alpha(1.0);
        ctx.set_fill_style_str(layout.chrome.gutter);
        ctx.fill_rect(0.0, 0.0, w, h);
        let (x0, pw) = (layout.gutter, layout.plot_w() as f64);
        let rows = m.rows.len().max(1);
        let row_h = (h - 2.0) / rows as f64;
        ctx.set_fill_style_str(crate::ui::common::palette::SERIES_B);
        for (r, row) in m.rows.iter().enumerate() {
            let cw = pw / row.len().max(1) as f64;
            for (c, share) in row.iter().enumerate().filter(|(_, s)| **s > 0.0) {
                ctx.set_global_alpha(0.15 + 0.85 * *share as f64);
                ctx.fill_rect(x0 + c as f64 * cw, 1.0 + r as f64 * row_h, cw.ceil(), (row_h - 1.0).max(1.0));
            }
        }
        ctx.set_global_alpha(1.0);
        // What the trace does not hold (a cut live trace of a long run) is said, not left blank.
        let mut note_at = None;
        if crate::ui::timeline::window::is_partial(&self.trace) {
            let (from, to) = crate::ui::timeline::window::recorded(&self.trace);
            let e = m.end.max(1) as f64;
            let (r0, r1) = (x0 + (from as f64 / e).clamp(0.0, 1.0) * pw, x0 + (to as f64 / e).clamp(0.0, 1.0) * pw);
            ctx.set_fill_style_str(if dark { "rgba(255,255,255,0.06)" } else { "rgba(0,0,0,0.06)" });
            ctx.fill_rect(x0, 0.0, r0 - x0, h);
            ctx.fill_rect(r1, 0.0, x0 + pw - r1, h);
            if x0 + pw - r1 > 260.0 * layout.dpr {
                note_at = Some(r1 + 8.0 * layout.dpr);
            }
        }
        let (a, b) = m.window(&self.view);
        let (wx0, wx1) = (x0 + a * pw, x0 + (b * pw).max(a * pw + 2.0 * layout.dpr));
        ctx.set_fill_style_str(if dark { "rgba(0,0,0,0.45)" } else { "rgba(255,255,255,0.6)" });
        ctx.fill_rect(x0, 0.0, wx0 - x0, h);
        ctx.fill_rect(wx1, 0.0, (x0 + pw - wx1).max(0.0), h);
        ctx.set_stroke_style_str(layout.chrome.cursor);
        ctx.set_line_width(1.5 * layout.dpr);
        ctx.stroke_rect(wx0, 0.75 * layout.dpr, wx1 - wx0, h - 1.5 * layout.dpr);
        ctx.set_fill_style_str(layout.chrome.text);
        ctx.set_font(&format!("{}px sans-serif", (10.0 * layout.dpr).round()));
        let _ = ctx.fill_text("whole run", 4.0 * layout.dpr, h * 0.7);
        if let Some(x) = note_at {
            let _ = ctx.fill_text("not recorded yet: click there to record that stretch", x, h * 0.7);
        }
    }

    /// The minimap was clicked or dragged at CSS x `x`: centre the view there.
    fn minimap_to(&mut self, x: f64) {
        let (Some(m), Some(l)) = (&self.minimap, self.layout) else { return };
        let frac = l.frac_at(x * l.dpr);
        self.view = m.centre_on(&self.view, frac, self.index.end);
    }
}

/// Columns of the minimap's busy shares.
const MINIMAP_COLS: usize = 600;
/// The minimap's height in CSS pixels.
const MINIMAP_CSS_H: f64 = 22.0;

/// Asks for one animation frame unless one is pending.
fn request_redraw(cell: &Rc<RefCell<Inner>>) {
    let Ok(mut st) = cell.try_borrow_mut() else { return };
    if st.raf.is_some() || st.canvas.is_none() {
        return;
    }
    let weak: Weak<RefCell<Inner>> = Rc::downgrade(cell);
    st.raf = Some(request_animation_frame(move |now| {
        if let Some(cell) = weak.upgrade() {
            frame(&cell, now);
        }
    }));
}

/// Follows or publishes the linked window (`ViewLink`): a window another timeline published
/// since this one last looked is adopted; a window this one changed on its own is published,
/// and the others are asked to redraw.
fn sync_link(cell: &Rc<RefCell<Inner>>) {
    let others: Vec<Rc<RefCell<Inner>>> = {
        let Ok(mut st) = cell.try_borrow_mut() else { return };
        let Some(link) = st.link.clone() else { return };
        let Ok(mut l) = link.0.try_borrow_mut() else { return };
        if !l.on {
            return;
        }
        match l.view {
            Some(v) if l.version != st.link_seen.0 => {
                let end = st.index.end;
                st.view = v.clamp(end);
                st.link_seen = (l.version, Some(st.view));
                Vec::new()
            }
            _ if l.view.is_none() || st.link_seen.1 != Some(st.view) => {
                l.view = Some(st.view);
                l.version += 1;
                st.link_seen = (l.version, Some(st.view));
                let me = Rc::as_ptr(cell);
                l.members.iter().filter_map(Weak::upgrade).filter(|o| Rc::as_ptr(o) != me).collect()
            }
            _ => Vec::new(),
        }
    };
    for o in others {
        request_redraw(&o);
    }
}

fn frame(cell: &Rc<RefCell<Inner>>, now: f64) {
    // This frame's handle is spent; keep it alive until the callback returns.
    let _spent = cell.borrow_mut().raf.take();
    // A new trace's arrival (`Arrival`) takes this frame while it is not ready to draw.
    if cell.borrow_mut().arrive() {
        request_redraw(cell);
        return;
    }
    sync_link(cell);
    let (ended, playing, stopped, ask) = {
        let mut st = cell.borrow_mut();
        let t0 = crate::ui::common::marks::now();
        let ended = st.render(now);
        if matches!(st.arrival, Arrival::Ready) {
            st.arrival = Arrival::Shown;
            crate::ui::common::marks::measure("schedscope timeline: first frame", t0);
        }
        let ask = st.window_ask.take().and_then(|from| st.on_window.clone().map(|cb| (cb, from)));
        (ended, st.playing, st.stopped.clone(), ask)
    };
    if let Some((cb, from)) = ask {
        cb.emit(from);
    }
    if ended {
        if let Some(set) = stopped {
            set.set(false);
        }
    }
    if playing {
        request_redraw(cell);
    }
}

/// A small canvas the span image goes through (`putImageData` cannot scale).
struct Scratch {
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
}

impl Scratch {
    fn new() -> Option<Scratch> {
        let canvas: HtmlCanvasElement =
            web_sys::window()?.document()?.create_element("canvas").ok()?.dyn_into().ok()?;
        let ctx = canvas.get_context("2d").ok().flatten()?.dyn_into().ok()?;
        Some(Scratch { canvas, ctx })
    }
}

/// Draws the span bands: the RGBA rows go onto the scratch canvas with one `putImageData`,
/// then each row is stretched over its band with `drawImage` (smoothing off, so columns
/// stay sharp). `ImageData` and `putImageData` are reached through `Reflect` because the
/// crate's web-sys feature list has no `ImageData`.
fn paint_spans(ctx: &CanvasRenderingContext2d, img: &draw::SpanImage, scratch: &Scratch) -> Result<(), JsValue> {
    if img.width == 0 || img.rows.is_empty() {
        return Ok(());
    }
    let (w, h) = (img.width as u32, img.rows.len() as u32);
    if scratch.canvas.width() != w || scratch.canvas.height() != h {
        scratch.canvas.set_width(w);
        scratch.canvas.set_height(h);
    }
    let data = js_sys::Uint8ClampedArray::from(&img.rgba[..]);
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"ImageData".into())?.dyn_into()?;
    let image = js_sys::Reflect::construct(&ctor, &js_sys::Array::of3(&data, &w.into(), &h.into()))?;
    let put: js_sys::Function = js_sys::Reflect::get(&scratch.ctx, &"putImageData".into())?.dyn_into()?;
    put.call3(&scratch.ctx, &image, &0.into(), &0.into())?;
    ctx.set_image_smoothing_enabled(false);
    for (row, (y, bh)) in img.rows.iter().enumerate() {
        ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
            &scratch.canvas,
            0.0,
            row as f64,
            img.width as f64,
            1.0,
            img.x,
            *y,
            img.width as f64,
            *bh,
        )?;
    }
    Ok(())
}

/// Replays a scene on a 2D context: one `fillStyle` per colour batch, the span image at its
/// place among the fills, then strokes and texts.
fn paint(ctx: &CanvasRenderingContext2d, scene: &Scene, scratch: Option<&Scratch>) {
    for (i, f) in scene.fills.iter().enumerate() {
        if i == scene.image_at {
            paint_image(ctx, scene, scratch);
        }
        ctx.set_fill_style_str(f.colour);
        if !f.rects.is_empty() {
            ctx.begin_path();
            for r in &f.rects {
                ctx.rect(r[0], r[1], r[2], r[3]);
            }
            ctx.fill();
        }
        if !f.tris.is_empty() {
            ctx.begin_path();
            for t in &f.tris {
                ctx.move_to(t[0], t[1]);
                ctx.line_to(t[2], t[3]);
                ctx.line_to(t[4], t[5]);
                ctx.close_path();
            }
            ctx.fill();
        }
    }
    if scene.image_at >= scene.fills.len() {
        paint_image(ctx, scene, scratch);
    }
    let dash = js_sys::Array::of2(&JsValue::from(4.0), &JsValue::from(3.0));
    let solid = js_sys::Array::new();
    for s in &scene.strokes {
        ctx.set_stroke_style_str(s.colour);
        ctx.set_line_width(s.width);
        let _ = ctx.set_line_dash(if s.dashed { &dash } else { &solid });
        ctx.begin_path();
        for g in &s.segs {
            ctx.move_to(g[0], g[1]);
            ctx.line_to(g[2], g[3]);
        }
        ctx.stroke();
    }
    let _ = ctx.set_line_dash(&solid);
    ctx.set_text_baseline("middle");
    let mut font = String::new();
    for t in &scene.texts {
        let f = format!(
            "{}px {}",
            t.px.round(),
            if t.mono { "ui-monospace, Menlo, Consolas, monospace" } else { "system-ui, sans-serif" }
        );
        if f != font {
            ctx.set_font(&f);
            font = f;
        }
        ctx.set_fill_style_str(t.colour);
        ctx.set_text_align(match t.align {
            Align::Left => "left",
            Align::Center => "center",
            Align::Right => "right",
        });
        let _ = ctx.fill_text(&t.text, t.x, t.y);
    }
}

fn paint_image(ctx: &CanvasRenderingContext2d, scene: &Scene, scratch: Option<&Scratch>) {
    if let (Some(img), Some(scratch)) = (&scene.spans, scratch) {
        if let Err(e) = paint_spans(ctx, img, scratch) {
            web_sys::console::warn_1(&format!("timeline: cannot draw the spans: {e:?}").into());
        }
    }
}

/// The canvas's current pixels as a `data:image/png;base64,...` URL.
pub fn canvas_png_data_url(canvas: &HtmlCanvasElement) -> Result<String, String> {
    canvas.to_data_url_with_type("image/png").map_err(|e| format!("the browser refused to export the canvas: {e:?}"))
}

/// Draws `trace` off-screen and returns it as a PNG data URL: the whole trace, or
/// `window` (start, end in ns, clamped to the trace), `css_width` CSS pixels wide (height
/// follows from the number of cores) at `scale` device pixels per CSS pixel (2 for slides).
/// Errors (no document, no 2D context) come back as a message.
pub fn render_png_data_url(
    trace: &Trace,
    window: Option<(Ns, Ns)>,
    css_width: u32,
    scale: f64,
    label: &str,
) -> Result<String, String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document to draw in")?;
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(|e| format!("cannot create a canvas: {e:?}"))?
        .dyn_into()
        .map_err(|_| "cannot create a canvas".to_string())?;
    let index = TraceIndex::new(trace);
    // In the colours on screen, like the plots' PNG exports.
    let layout = Layout::new(css_width as f64, index.lanes, scale).themed(prefers_dark());
    let (legend_h, _) = draw::png_legend(trace, &index, &layout, layout.height, label);
    canvas.set_width(layout.width as u32);
    canvas.set_height((layout.height + legend_h) as u32);
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the browser gave no 2D canvas context")?;
    let view = match window {
        Some((a, b)) => View { t0: a as f64, t1: b as f64 }.clamp(index.end),
        None => View::fit(index.end),
    };
    let scene = draw::build_scene(trace, &index, &view, &layout);
    paint(&ctx, &scene, Scratch::new().as_ref());
    // The legend and the caption go in a band below the axis and lanes (`png_legend`).
    let (_, legend) = draw::png_legend(trace, &index, &layout, layout.height, label);
    paint(&ctx, &legend, None);
    canvas_png_data_url(&canvas)
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
