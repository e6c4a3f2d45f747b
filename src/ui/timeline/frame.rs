//! The timeline's state behind the canvas (`Inner`, shared by the event handlers) and its
//! frame loop: a new trace's arrival over a few frames (`Arrival`), the linked window, the
//! scene for the view and the minimap, drawn on an animation frame when asked.

use crate::engine::decimal::Within as _;

use super::*;

/// Zoom factor of one +/- press or arrow key.
pub(super) const ZOOM_STEP: f64 = 0.2;

/// What the frame loop needs; shared by the event handlers through `use_mut_ref`.
pub(super) struct Inner {
    pub(super) trace: Rc<Trace>,
    pub(super) index: TraceIndex,
    pub(super) label: String,
    pub(super) view: View,
    pub(super) canvas: Option<HtmlCanvasElement>,
    pub(super) ctx: Option<CanvasRenderingContext2d>,
    pub(super) scratch: Option<Scratch>,
    pub(super) layout: Option<Layout>,
    /// The scene for (view, layout), rebuilt only when either changes.
    pub(super) base: Option<(View, Layout, Scene)>,
    pub(super) aria: String,
    /// Pointer position in device pixels, for the tooltip.
    pub(super) hover: Option<(f64, f64)>,
    /// Pointers down: (id, x, y) in CSS pixels, for drag and pinch.
    pub(super) pointers: Vec<(i32, f64, f64)>,
    pub(super) playing: bool,
    /// Simulated ns per wall-clock second.
    pub(super) speed: f64,
    /// Playback cursor time.
    pub(super) cursor: Option<f64>,
    pub(super) last_frame: Option<f64>,
    pub(super) raf: Option<AnimationFrame>,
    pub(super) stopped: Option<UseStateSetter<bool>>,
    pub(super) observer: Option<(ResizeObserver, Closure<dyn FnMut()>)>,
    pub(super) wheel: Option<EventListener>,
    /// The shared window, its publication this timeline last saw, and the window it had then.
    pub(super) link: Option<ViewLink>,
    pub(super) link_seen: (u64, Option<View>),
    /// Idle cores (no task ran) folded into one lane (`TraceIndex::collapse_idle`).
    pub(super) collapse: bool,
    /// The run's machine (`TimelineProps::topo`): lanes grouped by socket and LLC.
    pub(super) topo: Option<crate::engine::profile::Topology>,
    /// The canvas box's CSS width, read once and again after a resize: reading it on every
    /// frame forced a synchronous layout each time the page had changed.
    pub(super) css_w: Option<f64>,
    /// Where to ask for another stretch of a cut trace, and the starts asked for this run.
    pub(super) on_window: Option<Callback<Ns>>,
    /// The task outlined (`TimelineProps::highlight`) and its outlines for the base view.
    pub(super) highlight: Option<u32>,
    pub(super) highlight_scene: Option<draw::Scene>,
    /// The inspector's span (an index into `trace.spans`), outlined over the base scene.
    pub(super) selected: Option<usize>,
    /// A span of the trace still arriving to move the view to once it is adopted (`focus`).
    pub(super) focus_after: Option<usize>,
    pub(super) asked: Vec<Ns>,
    /// What Fit shows: the recorded stretch.
    pub(super) fit_view: View,
    /// A stretch to ask for, emitted once the frame has let go of this state (the callback
    /// dispatches, and a re-render borrows it).
    pub(super) window_ask: Option<Ns>,
    /// Drag-to-zoom: the CSS x where the drag began and where it is now.
    pub(super) select: Option<(f64, f64)>,
    /// A plain drag selects a range to zoom to (the toolbar's toggle) instead of panning.
    pub(super) select_mode: bool,
    /// The minimap under the lanes: its canvas and context, the whole run's busy shares,
    /// and the (view, width) it was last drawn for.
    pub(super) mini: Option<(HtmlCanvasElement, CanvasRenderingContext2d)>,
    pub(super) minimap: Option<nav::Minimap>,
    pub(super) mini_seen: Option<(View, u32, bool)>,
    /// The optional counter tracks under the lanes (`timeline_counters`).
    pub(super) counters: crate::ui::timeline::counters::Counters,
    /// A trace given but not shown yet (trace, label, keep_view): `frame` takes it in over
    /// a few frames (`Arrival`), so a 100,000-item trace makes no long task.
    pub(super) pending: Option<(Rc<Trace>, String, bool)>,
    pub(super) arrival: Arrival,
    /// The visible stretch for the page's link (`TimelineProps::stretch`, `on_stretch`).
    pub(super) stretch: StretchSync,
}

/// The visible stretch and the page's link: a new trace opens at the page's stretch (a
/// link's `t0`/`t1`, or the last one reported), and a view the reader moved is reported
/// (`window::link_stretch`) once it has been still for `STRETCH_QUIET_MS`.
#[derive(Default)]
pub(super) struct StretchSync {
    pub(super) open_at: Option<(Ns, Ns)>,
    pub(super) report: Option<Callback<Option<(Ns, Ns)>>>,
    /// The view last adopted or reported: only a view that moved from it is reported (a
    /// preview clamping the page's stretch to its shorter trace is not the reader's doing).
    seen: Option<View>,
    timer: Option<gloo::timers::callback::Timeout>,
}

const STRETCH_QUIET_MS: u32 = 250;

/// Where a new trace is on its way to the canvas: a frame takes the steps that fit in
/// `INDEX_SLICE_MS` (all of them for a small trace). One frame that read the canvas box (a
/// synchronous layout of the page the trace panel had just changed: 12-27 ms), indexed and
/// drew a 100 MB import's timeline was a 53-59 ms task on a 2-core machine (issue 14's bound
/// is 50 ms).
#[derive(Debug, Default)]
pub(super) enum Arrival {
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
pub(super) const INDEX_SLICE_MS: f64 = 6.0;
/// Items indexed between two looks at the clock (the first 4,096 of a 100 MB import took
/// 13 ms before the builder was optimised).
pub(super) const INDEX_PIECE: usize = 1_024;

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
            topo: None,
            link: None,
            link_seen: (0, None),
            css_w: None,
            on_window: None,
            highlight: None,
            highlight_scene: None,
            selected: None,
            focus_after: None,
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
            stretch: StretchSync::default(),
        }
    }
}

impl Inner {
    /// `keep_view`: the trace is another stretch of the same run, so the view stays.
    pub(super) fn set_trace(&mut self, trace: Rc<Trace>, label: String, keep_view: bool) {
        let index = TraceIndex::new(&trace);
        self.adopt(trace, index, label, keep_view);
    }

    /// Shows `trace` with its `index` (uncollapsed: `collapse` is applied here).
    pub(super) fn adopt(&mut self, trace: Rc<Trace>, index: TraceIndex, label: String, keep_view: bool) {
        self.index = if self.collapse { index.collapse_idle() } else { index };
        if let Some(t) = self.topo {
            let lanes = crate::ui::common::topology::LaneTopology::of(&t, u32::from(trace.cores));
            self.index = std::mem::take(&mut self.index).with_topology(&lanes);
        }
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
            self.view = match self.stretch.open_at {
                Some((a, b)) => View { t0: a as f64, t1: b as f64 }.clamp(self.index.end),
                // A phone opens at a stretch it can show (`nav::readable_view`); Fit shows all.
                None => {
                    let css_w = self.css_width();
                    let plot = Layout::scaled(css_w, self.index.lanes, 1.0, Layout::ui_scale(css_w)).plot_w() as f64;
                    nav::readable_view(&trace, self.fit_view, plot).clamp(self.index.end)
                }
            };
            self.asked.clear();
        }
        self.stretch.seen = Some(self.view);
        self.minimap = Some(nav::Minimap::new(&trace, MINIMAP_COLS, self.index.end));
        self.mini_seen = None;
        self.trace = trace;
        self.label = label;
        self.base = None;
        self.hover = None;
        self.cursor = None;
    }

    /// Moves the view to span `i` of the shown trace (`nav::focus_view`) and outlines it;
    /// on a partial trace the view stays within the recorded stretch, since a view past it
    /// asks for another stretch, whose arrival clears the selection. False when there is
    /// no such span.
    pub(super) fn focus(&mut self, i: usize) -> bool {
        let Some(mut v) = nav::focus_view(&self.trace, i, self.index.end) else { return false };
        if crate::ui::timeline::window::is_partial(&self.trace) {
            let (lo, hi) = crate::ui::timeline::window::recorded(&self.trace);
            v = View { t0: v.t0.max(lo as f64), t1: v.t1.min(hi as f64) };
        }
        self.view = v;
        self.selected = Some(i);
        true
    }

    pub(super) fn plot_w(&self) -> f64 {
        self.layout.map_or(800.0, |l| l.plot_w() as f64)
    }

    pub(super) fn dpr(&self) -> f64 {
        self.layout.map_or(1.0, |l| l.dpr)
    }

    /// Zooms by `factor` around CSS x `x` (None: the centre).
    pub(super) fn zoom(&mut self, factor: f64, x: Option<f64>) {
        let frac = match (x, self.layout) {
            (Some(x), Some(l)) => l.frac_at(x * l.dpr),
            _ => 0.5,
        };
        self.view = self.view.zoom_at(factor, frac, self.index.end);
    }

    /// Takes a new trace in: `frame` indexes and shows it over the next frames (`Arrival`).
    /// A canvas whose box is known needs no layout frame (nothing will read the box).
    pub(super) fn receive(&mut self, trace: Rc<Trace>, label: String, keep_view: bool) {
        self.pending = Some((trace, label, keep_view));
        self.arrival =
            if self.css_w.is_some() { Arrival::Indexing(draw::IndexBuilder::default()) } else { Arrival::Came };
    }

    /// Steps a new trace's arrival on as far as `INDEX_SLICE_MS` allows; false once it is
    /// ready to draw in this frame (a small trace: all in one frame, as before `Arrival`).
    pub(super) fn arrive(&mut self) -> bool {
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
                        if let Some(i) = self.focus_after.take() {
                            self.focus(i);
                        }
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

    /// The canvas box's CSS width, read once (800 before the box is laid out).
    pub(super) fn css_width(&mut self) -> f64 {
        if let Some(w) = self.css_w {
            return w;
        }
        let parent_w = self.canvas.as_ref().and_then(|c| c.parent_element()).map_or(0, |p| p.client_width());
        // A box not laid out yet (0 wide) is asked again next frame.
        self.css_w = (parent_w > 0).then_some(parent_w as f64);
        if parent_w > 0 {
            parent_w as f64
        } else {
            800.0
        }
    }

    /// Sizes the canvas to its box and the device pixel ratio, and caches the context.
    pub(super) fn prepare(&mut self) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d, Layout)> {
        let canvas = self.canvas.clone()?;
        let css_w = self.css_width();
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let ui = Layout::ui_scale(css_w);
        let layout = Layout::scaled(css_w, self.index.lanes, dpr, ui).themed(prefers_dark());
        if canvas.width() != layout.width as u32 || canvas.height() != layout.height as u32 {
            canvas.set_width(layout.width as u32);
            canvas.set_height(layout.height as u32);
            let style = canvas.style();
            let _ = style.set_property(
                "height",
                &format!("{}px", crate::engine::decimal::shortest(Layout::css_height(self.index.lanes) * ui)),
            );
        }
        if self.ctx.is_none() {
            self.ctx = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into().ok());
        }
        self.layout = Some(layout);
        Some((canvas, self.ctx.clone()?, layout))
    }

    /// Draws one frame; returns true when playback just reached the end.
    pub(super) fn render(&mut self, now: f64) -> bool {
        let Some((canvas, ctx, layout)) = self.prepare() else { return false };
        let mut ended = false;
        if self.playing {
            let dt_ms = self.last_frame.map_or(0.0, |t| (now - t).within(0.0, 100.0));
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
        if let Some(i) = self.selected {
            paint(&ctx, &draw::outline(&self.trace, &self.index, &self.view, &layout, i), None);
        }
        let lines = self
            .hover
            .and_then(|(x, y)| draw::hit_test(&self.trace, &self.index, &self.view, &layout, x, y))
            .map(|i| draw::describe_placed(&self.trace, &self.index, i))
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
    pub(super) fn paint_minimap(&mut self, layout: &Layout) {
        let (Some((canvas, ctx)), Some(m)) = (&self.mini, &self.minimap) else { return };
        let dark = layout.chrome.background == draw::DARK.background;
        let key = (self.view, layout.width as u32, dark);
        if self.mini_seen == Some(key) {
            return;
        }
        self.mini_seen = Some(key);
        // As tall and its label as large as the lanes' scale (`Layout::ui`: a projector's).
        let (w, h) = (layout.width, (MINIMAP_CSS_H * layout.px()).round());
        if canvas.width() != w as u32 || canvas.height() != h as u32 {
            canvas.set_width(w as u32);
            canvas.set_height(h as u32);
            let _ = canvas
                .style()
                .set_property("height", &format!("{}px", crate::engine::decimal::shortest(MINIMAP_CSS_H * layout.ui)));
        }
        ctx.set_global_alpha(1.0);
        ctx.set_fill_style_str(layout.chrome.gutter);
        ctx.fill_rect(0.0, 0.0, w, h);
        let (x0, pw) = (layout.gutter, layout.plot_w() as f64);
        let rows = m.rows.len().max(1);
        let row_h = (h - 2.0) / rows as f64;
        // Each CPU's busy share as the height of an area in its row, a few CSS px a column
        // (`Minimap::columns`): shades of one colour a sub-pixel column each were a barcode.
        let n = (pw / (nav::MINIMAP_COL_CSS * layout.dpr)).round().max(1.0) as usize;
        let cw = pw / n as f64;
        ctx.set_fill_style_str(crate::ui::common::palette::SERIES_B);
        for (r, row) in m.columns(n).iter().enumerate() {
            let (top, band) = (1.0 + r as f64 * row_h, (row_h - 1.0).max(1.0));
            ctx.set_global_alpha(0.12);
            ctx.fill_rect(x0, top, pw, band);
            ctx.set_global_alpha(0.85);
            ctx.begin_path();
            ctx.move_to(x0, top + band);
            for (c, share) in row.iter().enumerate() {
                let y = top + band * (1.0 - *share as f64);
                ctx.line_to(x0 + c as f64 * cw, y);
                ctx.line_to(x0 + (c + 1) as f64 * cw, y);
            }
            ctx.line_to(x0 + pw, top + band);
            ctx.close_path();
            ctx.fill();
        }
        ctx.set_global_alpha(1.0);
        // What the trace does not hold (a cut live trace of a long run) is said, not left blank.
        let mut note_at = None;
        if crate::ui::timeline::window::is_partial(&self.trace) {
            let (from, to) = crate::ui::timeline::window::recorded(&self.trace);
            let e = m.end.max(1) as f64;
            let (r0, r1) = (x0 + (from as f64 / e).within(0.0, 1.0) * pw, x0 + (to as f64 / e).within(0.0, 1.0) * pw);
            ctx.set_fill_style_str(if dark { "rgba(255,255,255,0.06)" } else { "rgba(0,0,0,0.06)" });
            ctx.fill_rect(x0, 0.0, r0 - x0, h);
            ctx.fill_rect(r1, 0.0, x0 + pw - r1, h);
            if x0 + pw - r1 > 260.0 * layout.dpr {
                note_at = Some(r1 + 8.0 * layout.dpr);
            }
        }
        let (a, b) = m.window(&self.view);
        let (wx0, wx1) = (x0 + a * pw, x0 + (b * pw).max(a * pw + 2.0 * layout.dpr));
        // Dimmed, not washed out: on a phone most of the run lies outside its first view.
        ctx.set_fill_style_str(if dark { "rgba(0,0,0,0.35)" } else { "rgba(255,255,255,0.45)" });
        ctx.fill_rect(x0, 0.0, wx0 - x0, h);
        ctx.fill_rect(wx1, 0.0, (x0 + pw - wx1).max(0.0), h);
        ctx.set_stroke_style_str(layout.chrome.cursor);
        ctx.set_line_width(1.5 * layout.dpr);
        ctx.stroke_rect(wx0, 0.75 * layout.dpr, wx1 - wx0, h - 1.5 * layout.dpr);
        ctx.set_fill_style_str(layout.chrome.text);
        ctx.set_font(&format!("{}px sans-serif", crate::engine::decimal::shortest((10.0 * layout.px()).round())));
        let _ = ctx.fill_text("whole run", 4.0 * layout.px(), h * 0.7);
        if let Some(x) = note_at {
            let _ = ctx.fill_text("not recorded yet: click there to record that stretch", x, h * 0.7);
        }
    }

    /// The minimap was clicked or dragged at CSS x `x`: centre the view there.
    pub(super) fn minimap_to(&mut self, x: f64) {
        let (Some(m), Some(l)) = (&self.minimap, self.layout) else { return };
        let frac = l.frac_at(x * l.dpr);
        self.view = m.centre_on(&self.view, frac, self.index.end);
    }
}

/// Columns of the minimap's busy shares.
pub(super) const MINIMAP_COLS: usize = 600;
/// The minimap's height in CSS pixels.
pub(super) const MINIMAP_CSS_H: f64 = 22.0;

/// Asks for one animation frame unless one is pending.
pub(super) fn request_redraw(cell: &Rc<RefCell<Inner>>) {
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
pub(super) fn sync_link(cell: &Rc<RefCell<Inner>>) {
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
                // A view taken from the linked timeline is not this reader's move: the
                // timeline it came from reports it (a compare link stays as it was opened).
                st.stretch.seen = Some(st.view);
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

impl Inner {
    /// Reports a view the reader moved (zoom, pan, Fit, play) to the page once it is still.
    fn report_stretch(&mut self) {
        let Some(cb) = self.stretch.report.clone() else { return };
        // Nothing before a trace was adopted (the link's stretch is not the empty view's).
        if self.stretch.seen.is_none_or(|v| v == self.view) {
            return;
        }
        self.stretch.seen = Some(self.view);
        let value = crate::ui::timeline::window::link_stretch(self.view.t0, self.view.t1, self.trace.end);
        self.stretch.timer = Some(gloo::timers::callback::Timeout::new(STRETCH_QUIET_MS, move || cb.emit(value)));
    }
}

pub(super) fn frame(cell: &Rc<RefCell<Inner>>, now: f64) {
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
        st.report_stretch();
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
