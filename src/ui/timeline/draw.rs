//! The timeline's drawing model: view maths, level of detail, axis ticks, hit tests (no web imports).
//!
//! `timeline.rs` (the Yew component) owns the canvas and the event handlers; everything it
//! draws comes from here as a [`Scene`]: filled rects batched by colour, stroked segments,
//! triangles and texts, all in *device* pixels (CSS pixels times `devicePixelRatio`), so the
//! component only replays the batches. That keeps every decision testable natively.
//!
//! Level of detail: [`TraceIndex`] sorts each core's spans by start once per trace (with a
//! running maximum of their ends, so a binary search finds the first span that reaches into
//! the view even when spans nest). For a view, each lane has two bands (run/idle on top,
//! overheads below) and every band is reduced to one colour per pixel column: each span adds
//! its coverage of each column it touches, the colour with the most coverage wins, and equal
//! neighbouring columns merge into one rect. A band therefore never yields more rects than
//! it has columns, however many spans are in view, and every column a visible span touches
//! is painted (by that span, or by one that covers more of the column).
//!
//! The page's wasm is built for size (`wasm-ui` profile, opt-level z), where LLVM inlines
//! almost nothing: the per-span helpers of that reduction are `#[inline(always)]`, which cut
//! the scene of a 100,000-item import from 12-18 ms to 3-5 ms in Chromium.
//!
//! Over 800 lines (about 2,100, 600 of them tests): index, geometry, level of detail, the
//! scene, hit testing and the legend are one pure file; issue 28 asks for them apart, not
//! done yet.

use crate::engine::order;
use crate::engine::time::{Ns, MS, SEC, US};
use crate::engine::trace::{InstantKind, Overhead, Span, SpanKind, Trace};

// ---------------------------------------------------------------- palette

// The series colours (tasks, sys bursts, overheads, idle shades) live in `ui::palette`, so
// the plots and the legend use the very same ones.
pub use crate::ui::common::palette::{
    idle_shade, IDLE_COLOURS, IDLE_COLOURS_DARK, OVERHEAD_COLOURS, SYS_COLOURS, TASK_COLOURS,
};

pub const BACKGROUND: &str = "#FFFFFF";
pub const GUTTER: &str = "#F6F6F6";
pub const OVERHEAD_BAND: &str = "#FBFBFB";
pub const GRID: &str = "#E2E2E2";
pub const TEXT: &str = "#222222";
pub const TICK_MARK: &str = "#555555";
pub const HRTICK_MARK: &str = "#D55E00";
pub const WAKEUP_ARROW: &str = "#1A1A1A";
pub const IPI_ARROW: &str = "#AA4499";
pub const MIGRATE_ARROW: &str = "#777777";
pub const CURSOR: &str = "#000000";
pub const TOOLTIP_BG: &str = "#FFFFF0";

/// The timeline's colours around its series (background, grid, text, marks, idle shades),
/// light or dark to match the page. Task and overhead colours are the same in both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chrome {
    pub background: &'static str,
    pub gutter: &'static str,
    pub overhead_band: &'static str,
    pub grid: &'static str,
    pub text: &'static str,
    pub tick_mark: &'static str,
    pub wakeup_arrow: &'static str,
    pub migrate_arrow: &'static str,
    pub cursor: &'static str,
    pub tooltip_bg: &'static str,
    /// Idle shades, shallow to deep: deeper recedes further into the background.
    pub idle: [&'static str; 8],
}

pub const LIGHT: Chrome = Chrome {
    background: BACKGROUND,
    gutter: GUTTER,
    overhead_band: OVERHEAD_BAND,
    grid: GRID,
    text: TEXT,
    tick_mark: TICK_MARK,
    wakeup_arrow: WAKEUP_ARROW,
    migrate_arrow: MIGRATE_ARROW,
    cursor: CURSOR,
    tooltip_bg: TOOLTIP_BG,
    idle: IDLE_COLOURS,
};

/// On the page's dark panel (`--panel: #171e26`): idle shades go from a mid tone (POLL) to
/// just above the background (the deepest state), turning in hue as on light
/// (`palette::IDLE_COLOURS_DARK`).
pub const DARK: Chrome = Chrome {
    background: "#171E26",
    gutter: "#1C242D",
    overhead_band: "#1A2129",
    grid: "#2C3742",
    text: "#E6EBF0",
    tick_mark: "#9AA7B4",
    wakeup_arrow: "#E6EBF0",
    migrate_arrow: "#8A96A3",
    cursor: "#FFFFFF",
    tooltip_bg: "#0F141A",
    idle: IDLE_COLOURS_DARK,
};

/// Colour ids index this table: 0..8 task run, 8..16 sys, 16..23 overheads, 23..31 idle.
pub fn colour_table(chrome: &Chrome) -> Vec<&'static str> {
    let mut t = Vec::with_capacity(COLOURS);
    t.extend_from_slice(&TASK_COLOURS);
    t.extend_from_slice(&SYS_COLOURS);
    t.extend_from_slice(&OVERHEAD_COLOURS);
    t.extend_from_slice(&chrome.idle);
    t
}
pub const COLOURS: usize = 31;
const SYS_BASE: u8 = 8;
const OVERHEAD_BASE: u8 = 16;
const IDLE_BASE: u8 = 23;

/// Where the trace's recording ends: the last span's end or just past the last instant.
pub fn recorded_end(trace: &Trace) -> Ns {
    let last_span = trace.spans.iter().map(|s| s.end).max().unwrap_or(0);
    last_span.max(trace.instants.iter().map(|i| i.time + 1).max().unwrap_or(0))
}

/// Which palette slot each task gets: per task while there are at most 8 tasks, otherwise
/// per group (`TaskInfo::group`, in order of first appearance), wrapping past 8.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskColours {
    slot: Vec<u8>,
    /// Legend entries: (palette slot, name), one per task or per group.
    pub legend: Vec<(u8, String)>,
    pub by_group: bool,
}

impl TaskColours {
    pub fn new(trace: &Trace) -> Self {
        let n = TASK_COLOURS.len();
        if trace.tasks.len() <= n {
            let legend = trace.tasks.iter().enumerate().map(|(i, t)| (i as u8, t.name.clone())).collect();
            return TaskColours { slot: (0..trace.tasks.len()).map(|i| i as u8).collect(), legend, by_group: false };
        }
        let mut groups: Vec<&str> = Vec::new();
        let mut slot = Vec::with_capacity(trace.tasks.len());
        for t in &trace.tasks {
            let g = match groups.iter().position(|g| *g == t.group) {
                Some(g) => g,
                None => {
                    groups.push(&t.group);
                    groups.len() - 1
                }
            };
            slot.push((g % n) as u8);
        }
        let legend = groups.iter().enumerate().map(|(i, g)| ((i % n) as u8, g.to_string())).collect();
        TaskColours { slot, legend, by_group: true }
    }

    #[inline(always)]
    pub fn slot(&self, task: u32) -> u8 {
        self.slot.get(task as usize).copied().unwrap_or((task as usize % TASK_COLOURS.len()) as u8)
    }
}

/// The legend's names of the marks, in the order the legend shows them.
pub const MARK_LABELS: [&str; 5] = ["tick", "hrtick", "wakeup \u{2192}", "IPI \u{21E2}", "migration \u{21E2}"];

/// The legend's name of an overhead kind: unique beside the marks' names ("tick" is the
/// tick mark, "tick handler" the CPU time the tick costs; "wakeup" the arrow, "wakeup path"
/// the cost of `try_to_wake_up`).
pub fn overhead_label(kind: Overhead) -> &'static str {
    match kind {
        Overhead::Switch => "context switch",
        Overhead::Refill => "cache refill",
        Overhead::Reprogram => "timer reprogram",
        Overhead::Ipi => "IPI cost",
        Overhead::CStateExit => "C-state exit",
        Overhead::Tick => "tick handler",
        Overhead::Wakeup => "wakeup path",
    }
}

pub fn overhead_index(kind: Overhead) -> usize {
    Overhead::ALL.iter().position(|k| *k == kind).unwrap_or(0)
}

#[inline(always)]
fn colour_of(kind: SpanKind, colours: &TaskColours, idle_count: usize) -> u8 {
    match kind {
        SpanKind::Run { task, sys: false } => colours.slot(task),
        SpanKind::Run { task, sys: true } => SYS_BASE + colours.slot(task),
        SpanKind::Overhead { kind } => OVERHEAD_BASE + overhead_index(kind) as u8,
        SpanKind::Idle { state } => IDLE_BASE + idle_shade(state, idle_count),
    }
}

// ---------------------------------------------------------------- index

/// Per-core span and instant order, built once per trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceIndex {
    /// Per core: span indices sorted by (start, end).
    pub spans: Vec<Vec<u32>>,
    /// Per core: running maximum of `end` along `spans` (monotone, for binary search).
    max_end: Vec<Vec<Ns>>,
    /// Per core: `start` along `spans`.
    starts: Vec<Vec<Ns>>,
    /// Per core: instant indices sorted by time.
    pub instants: Vec<Vec<u32>>,
    /// Lanes drawn: `trace.cores`, or more if a span names a higher core; fewer once idle
    /// cores are collapsed (`collapse_idle`). The per-lane vectors above are per lane.
    pub lanes: usize,
    /// The lane each core is drawn in (the identity unless idle cores are collapsed).
    pub lane_of_core: Vec<usize>,
    /// Each lane's gutter label: `CPU n`, or `N idle` for the collapsed lane.
    pub lane_names: Vec<String>,
    /// Cores folded into the last lane (empty when nothing is collapsed).
    pub collapsed: Vec<usize>,
    /// The cores on which no task ran in the whole trace (`idle_cores`, found while indexing).
    pub idle: Vec<usize>,
    /// Time the view may reach: the trace end or the last span end, at least 1 ns.
    pub end: Ns,
    pub colours: TaskColours,
}

impl TraceIndex {
    /// Lanes a trace needs: `trace.cores`, or more if a span or instant names a higher core.
    pub fn lanes_of(trace: &Trace) -> usize {
        let max_core = trace
            .spans
            .iter()
            .map(|s| s.core as usize + 1)
            .chain(trace.instants.iter().map(|i| i.core as usize + 1))
            .max()
            .unwrap_or(0);
        (trace.cores as usize).max(max_core).max(1)
    }

    /// The index of `trace`, built in one go (`IndexBuilder` builds it a slice at a time).
    pub fn new(trace: &Trace) -> Self {
        IndexBuilder::default().finish(trace)
    }

    /// The cores on which no task ran in the whole trace (a cheap scan, for the page to size
    /// the canvas before the index is built).
    pub fn idle_cores(trace: &Trace) -> Vec<usize> {
        let lanes = Self::lanes_of(trace);
        let mut ran = vec![false; lanes];
        for sp in &trace.spans {
            if matches!(sp.kind, SpanKind::Run { .. }) {
                if let Some(r) = ran.get_mut(sp.core as usize) {
                    *r = true;
                }
            }
        }
        (0..lanes).filter(|&c| !ran[c]).collect()
    }

    /// Lanes drawn for `trace` with idle cores collapsed or not (`collapse_idle`).
    pub fn lanes_shown(trace: &Trace, collapse: bool) -> usize {
        Self::shown(Self::lanes_of(trace), Self::idle_cores(trace).len(), collapse)
    }

    /// Lanes drawn for `lanes` lanes of which `idle` are idle cores (`collapse_idle`).
    pub fn shown(lanes: usize, idle: usize, collapse: bool) -> usize {
        if collapse && idle >= 2 {
            lanes - idle + 1
        } else {
            lanes
        }
    }

    /// Folds the cores on which no task ran in the whole trace into one last lane (when
    /// there are two or more), drawn with the first of them: on Seed 3's twelve CPUs, two
    /// busy lanes and one "10 idle". Busy cores keep their order.
    pub fn collapse_idle(mut self) -> Self {
        let idle = self.idle.clone();
        if idle.len() < 2 || !self.collapsed.is_empty() {
            return self;
        }
        let ran: Vec<bool> = (0..self.lanes).map(|c| !idle.contains(&c)).collect();
        let order: Vec<usize> = (0..self.lanes).filter(|&c| ran[c]).chain([idle[0]]).collect();
        fn pick<T>(v: &mut Vec<Vec<T>>, order: &[usize]) {
            let mut old = std::mem::take(v);
            *v = order.iter().map(|&c| std::mem::take(&mut old[c])).collect();
        }
        pick(&mut self.spans, &order);
        pick(&mut self.max_end, &order);
        pick(&mut self.starts, &order);
        pick(&mut self.instants, &order);
        let last = order.len() - 1;
        self.lane_of_core = (0..self.lanes).map(|c| order.iter().position(|&o| o == c).unwrap_or(last)).collect();
        self.lane_names = order[..last].iter().map(|c| format!("CPU {c}")).collect();
        self.lane_names.push(format!("{} idle", idle.len()));
        self.lanes = order.len();
        self.collapsed = idle;
        self
    }

    /// Positions in `self.spans[core]` of the spans that may overlap `[t0, t1)`: every
    /// overlapping span is in the range (a few nested ones ending before t0 may be too).
    pub fn span_range(&self, core: usize, t0: Ns, t1: Ns) -> std::ops::Range<usize> {
        let (Some(ends), Some(starts)) = (self.max_end.get(core), self.starts.get(core)) else { return 0..0 };
        let first = ends.partition_point(|&e| e <= t0);
        let last = first + starts[first..].partition_point(|&s| s < t1);
        first..last
    }

    /// Positions in `self.instants[core]` of the instants in `[t0, t1)`.
    pub fn instant_range(&self, trace: &Trace, core: usize, t0: Ns, t1: Ns) -> std::ops::Range<usize> {
        let Some(order) = self.instants.get(core) else { return 0..0 };
        let time = |i: &u32| trace.instants.get(*i as usize).map_or(0, |x| x.time);
        order.partition_point(|i| time(i) < t0)..order.partition_point(|i| time(i) < t1)
    }
}

/// Builds a [`TraceIndex`] a slice of the trace at a time, so the page can spread a large
/// trace's index over several frames (`timeline.rs`, `Arrival`): `step` takes the next items,
/// `finish` sorts what came out of order and completes the index.
///
/// Why slices: the page's wasm runs a function that has run only once in V8's baseline
/// compiler (Liftoff; a function is optimised for its next calls, not during a long loop),
/// and it is built for size (`wasm-ui` profile). One pass over a 100 MB import's
/// 100,000-item timeline took 12-29 ms there (1.7 ms natively), and that frame was over
/// issue 14's 50 ms bound with the page's layout and paint after it.
///
/// Traces usually come in order (the trace worker sorts an import's, `job::in_order`), so
/// each lane's order, starts and running maximum of ends are pushed as the spans go by; a
/// lane is sorted (and re-read) only if a span came out of order.
#[derive(Clone, Debug, Default)]
pub struct IndexBuilder {
    spans: Vec<Vec<u32>>,
    starts: Vec<Vec<Ns>>,
    max_end: Vec<Vec<Ns>>,
    /// Per lane: the last (start, end) pushed, and whether the lane is still in order.
    last: Vec<(Ns, Ns)>,
    sorted: Vec<bool>,
    instants: Vec<Vec<u32>>,
    last_time: Vec<Ns>,
    instants_sorted: Vec<bool>,
    /// Whether a task ran on each core (`idle_cores`).
    ran: Vec<bool>,
    /// The latest span end, and just past the latest instant (`recorded_end`).
    recorded: Ns,
    next_span: usize,
    next_instant: usize,
}

impl IndexBuilder {
    /// Makes room for core `c`.
    fn lane(&mut self, c: usize) {
        if c >= self.spans.len() {
            let n = c + 1;
            self.spans.resize_with(n, Vec::new);
            self.starts.resize_with(n, Vec::new);
            self.max_end.resize_with(n, Vec::new);
            self.last.resize(n, (0, 0));
            self.sorted.resize(n, true);
            self.instants.resize_with(n, Vec::new);
            self.last_time.resize(n, 0);
            self.instants_sorted.resize(n, true);
            self.ran.resize(n, false);
        }
    }

    /// Takes up to `items` more spans and instants of `trace`; true once all are taken.
    pub fn step(&mut self, trace: &Trace, items: usize) -> bool {
        let mut left = items;
        while left > 0 && self.next_span < trace.spans.len() {
            let (i, s) = (self.next_span, &trace.spans[self.next_span]);
            self.next_span += 1;
            left -= 1;
            let c = s.core as usize;
            self.lane(c);
            self.recorded = self.recorded.max(s.end);
            if matches!(s.kind, SpanKind::Run { .. }) {
                self.ran[c] = true;
            }
            if s.end <= s.start {
                continue;
            }
            let m = self.max_end[c].last().map_or(s.end, |&m| m.max(s.end));
            self.sorted[c] &= self.last[c] <= (s.start, s.end);
            self.last[c] = (s.start, s.end);
            self.spans[c].push(i as u32);
            self.starts[c].push(s.start);
            self.max_end[c].push(m);
        }
        while left > 0 && self.next_instant < trace.instants.len() {
            let (i, x) = (self.next_instant, &trace.instants[self.next_instant]);
            self.next_instant += 1;
            left -= 1;
            let c = x.core as usize;
            self.lane(c);
            self.recorded = self.recorded.max(x.time + 1);
            self.instants_sorted[c] &= self.last_time[c] <= x.time;
            self.last_time[c] = x.time;
            self.instants[c].push(i as u32);
        }
        self.next_span >= trace.spans.len() && self.next_instant >= trace.instants.len()
    }

    /// The index, from what `step` took (the rest of `trace` is taken first).
    pub fn finish(mut self, trace: &Trace) -> TraceIndex {
        self.step(trace, usize::MAX);
        let lanes = (trace.cores as usize).max(self.spans.len()).max(1);
        self.lane(lanes - 1);
        for c in (0..lanes).filter(|&c| !self.sorted[c]) {
            let key = |i: u32| {
                let s = &trace.spans[i as usize];
                (s.start, s.end)
            };
            order::sort_by_key(&mut self.spans[c], |&i| key(i));
            let mut m = 0;
            self.max_end[c] = self.spans[c]
                .iter()
                .map(|&i| {
                    m = m.max(trace.spans[i as usize].end);
                    m
                })
                .collect();
            self.starts[c] = self.spans[c].iter().map(|&i| trace.spans[i as usize].start).collect();
        }
        for c in (0..lanes).filter(|&c| !self.instants_sorted[c]) {
            order::sort_by_key(&mut self.instants[c], |&i| trace.instants[i as usize].time);
        }
        // A truncated trace ends where recording stopped: fitting the whole run would show
        // an empty canvas with the recorded part squeezed into its first pixels.
        let run_end = if trace.truncated { 0 } else { trace.end };
        let end = run_end.max(self.recorded).max(1);
        TraceIndex {
            spans: self.spans,
            max_end: self.max_end,
            starts: self.starts,
            instants: self.instants,
            lanes,
            end,
            colours: TaskColours::new(trace),
            lane_of_core: (0..lanes).collect(),
            lane_names: (0..lanes).map(|c| format!("CPU {c}")).collect(),
            collapsed: Vec::new(),
            idle: (0..lanes).filter(|&c| !self.ran[c]).collect(),
        }
    }
}

// ---------------------------------------------------------------- view

/// The visible time window, in simulated ns as floats (smooth zooming; nothing in the
/// engine is ordered by these).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub t0: f64,
    pub t1: f64,
}

/// The narrowest view: 10 ns.
pub const MIN_SPAN_NS: f64 = 10.0;

impl View {
    /// The whole trace.
    pub fn fit(end: Ns) -> View {
        View { t0: 0.0, t1: end.max(1) as f64 }
    }

    pub fn len(&self) -> f64 {
        self.t1 - self.t0
    }

    /// Time at fraction `frac` (0 = left edge, 1 = right edge) of the view.
    pub fn time_at(&self, frac: f64) -> f64 {
        self.t0 + frac * self.len()
    }

    /// Keeps the length within `[MIN_SPAN_NS, end]` and shifts the window inside `[0, end]`.
    /// Non-finite input falls back to the whole trace.
    pub fn clamp(self, end: Ns) -> View {
        let end_f = end.max(1) as f64;
        if !(self.t0.is_finite() && self.t1.is_finite()) || self.t1 <= self.t0 {
            return View::fit(end);
        }
        let len = self.len().clamp(MIN_SPAN_NS.min(end_f), end_f);
        let t0 = self.t0.clamp(0.0, end_f - len);
        View { t0, t1: t0 + len }
    }

    /// Zooms by `factor` (<1 zooms in) keeping the time under `frac` fixed, unless that
    /// would leave the trace or pass the zoom limits.
    pub fn zoom_at(self, factor: f64, frac: f64, end: Ns) -> View {
        let factor = if factor.is_finite() && factor > 0.0 { factor } else { 1.0 };
        let frac = if frac.is_finite() { frac.clamp(0.0, 1.0) } else { 0.5 };
        let end_f = end.max(1) as f64;
        let anchor = self.time_at(frac);
        let len = (self.len() * factor).clamp(MIN_SPAN_NS.min(end_f), end_f);
        let t0 = anchor - frac * len;
        View { t0, t1: t0 + len }.clamp(end)
    }

    /// Moves by `dt` ns (positive = later).
    pub fn pan(self, dt: f64, end: Ns) -> View {
        let dt = if dt.is_finite() { dt } else { 0.0 };
        View { t0: self.t0 + dt, t1: self.t1 + dt }.clamp(end)
    }

    /// Drag by `dx` pixels over a plot `plot_w` pixels wide: the content follows the pointer.
    pub fn pan_px(self, dx: f64, plot_w: f64, end: Ns) -> View {
        self.pan(-dx * self.len() / plot_w.max(1.0), end)
    }

    /// Playback: moves by `dt` ns; returns the new view and whether it reached the end.
    pub fn advance(self, dt: f64, end: Ns) -> (View, bool) {
        let v = self.pan(dt, end);
        let done = v.t1 >= end.max(1) as f64;
        (v, done)
    }

    /// The integer ns window covering the view (for index queries).
    pub fn ns_range(&self) -> (Ns, Ns) {
        (self.t0.max(0.0).floor() as Ns, (self.t1.max(0.0).ceil() as Ns).max(1))
    }
}

/// Playback speeds: label and simulated ns per wall-clock second.
pub const SPEEDS: [(&str, f64); 7] = [
    ("1 µs/s (1/1,000,000x)", 1e3),
    ("10 µs/s (1/100,000x)", 1e4),
    ("100 µs/s (1/10,000x)", 1e5),
    ("1 ms/s (1/1,000x)", 1e6),
    ("10 ms/s (1/100x)", 1e7),
    ("100 ms/s (1/10x)", 1e8),
    ("1 s/s (real time)", 1e9),
];
pub const DEFAULT_SPEED: usize = 4;

// ---------------------------------------------------------------- layout

/// Where things go, in device pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub dpr: f64,
    pub width: f64,
    pub height: f64,
    /// Left gutter holding "CPU n".
    pub gutter: f64,
    pub axis_h: f64,
    pub lane_h: f64,
    pub lanes: usize,
    /// Light or dark colours (`LIGHT` unless `themed`).
    pub chrome: &'static Chrome,
}

pub const GUTTER_CSS: f64 = 52.0;
pub const AXIS_CSS: f64 = 24.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// Run and idle spans.
    Main,
    /// Overheads.
    Overhead,
}

impl Layout {
    /// Lane height in CSS pixels: 40 px a CPU up to 16 CPUs, so a lane reads from the back
    /// of a lecture room; compressed beyond that so a big machine still fits a screen.
    pub fn lane_css(lanes: usize) -> f64 {
        match lanes {
            0..=16 => 40.0,
            17..=32 => 24.0,
            _ => 16.0,
        }
    }

    /// Canvas height in CSS pixels for `lanes` lanes.
    pub fn css_height(lanes: usize) -> f64 {
        AXIS_CSS + lanes.max(1) as f64 * Self::lane_css(lanes) + 2.0
    }

    pub fn new(css_width: f64, lanes: usize, dpr: f64) -> Layout {
        let dpr = if dpr.is_finite() && dpr > 0.0 { dpr.clamp(0.5, 4.0) } else { 1.0 };
        let css_width = if css_width.is_finite() { css_width.clamp(GUTTER_CSS + 20.0, 16_384.0) } else { 800.0 };
        Layout {
            dpr,
            width: (css_width * dpr).round(),
            height: (Self::css_height(lanes) * dpr).round(),
            gutter: (GUTTER_CSS * dpr).round(),
            axis_h: (AXIS_CSS * dpr).round(),
            lane_h: Self::lane_css(lanes) * dpr,
            lanes: lanes.max(1),
            chrome: &LIGHT,
        }
    }

    /// The same layout in dark colours when `dark`.
    pub fn themed(mut self, dark: bool) -> Layout {
        self.chrome = if dark { &DARK } else { &LIGHT };
        self
    }

    /// Width of the plot area in whole device pixels (one LOD column each).
    pub fn plot_w(&self) -> usize {
        (self.width - self.gutter).max(1.0) as usize
    }

    pub fn lane_y(&self, lane: usize) -> f64 {
        (self.axis_h + lane as f64 * self.lane_h).round()
    }

    /// (top, height) of a lane's band.
    pub fn band(&self, lane: usize, band: Band) -> (f64, f64) {
        let y = self.lane_y(lane);
        let split = (y + self.lane_h * 0.68).round();
        let bottom = (y + self.lane_h - 2.0 * self.dpr).round();
        match band {
            Band::Main => (y + self.dpr.round(), split - y - self.dpr.round()),
            Band::Overhead => (split, (bottom - split).max(1.0)),
        }
    }

    /// Which lane and band a device-pixel y falls in.
    pub fn lane_at(&self, y: f64) -> Option<(usize, Band)> {
        if y < self.axis_h || !y.is_finite() {
            return None;
        }
        let lane = ((y - self.axis_h) / self.lane_h) as usize;
        if lane >= self.lanes {
            return None;
        }
        let (oy, _) = self.band(lane, Band::Overhead);
        Some((lane, if y >= oy { Band::Overhead } else { Band::Main }))
    }

    /// Device-pixel x of time `t`.
    pub fn x_of(&self, view: &View, t: f64) -> f64 {
        self.gutter + (t - view.t0) / view.len() * self.plot_w() as f64
    }

    /// Fraction of the plot width at device-pixel x (may fall outside 0..1).
    pub fn frac_at(&self, x: f64) -> f64 {
        (x - self.gutter) / self.plot_w() as f64
    }
}

// ---------------------------------------------------------------- axis

/// Axis ticks for a view.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// 1, 2 or 5 times a power of ten, in ns.
    pub step: Ns,
    /// `ns`, `us`, `ms` or `s`: the unit every label ends with.
    pub unit: &'static str,
    /// Tick times and labels (`0.2 ms`, or `+350 ns` relative to `base`).
    pub ticks: Vec<(Ns, String)>,
    /// When absolute labels would need more than 3 decimals (deep zoom far into a trace),
    /// labels are relative to this time, printed as `base_label`.
    pub base: Option<(Ns, String)>,
}

const UNITS: [(Ns, &str); 4] = [(SEC, "s"), (MS, "ms"), (US, "µs"), (1, "ns")];

/// The largest unit not above `t` (ns for anything below a microsecond).
fn unit_for(t: Ns) -> (Ns, &'static str) {
    UNITS.into_iter().find(|(u, _)| *u <= t).unwrap_or((1, "ns"))
}

/// Decimals needed to print multiples of `step` in `unit` exactly.
fn decimals(step: Ns, unit: Ns) -> usize {
    let mut d = 0;
    let mut q = unit;
    while step % q != 0 && q >= 10 {
        q /= 10;
        d += 1;
    }
    d
}

fn fmt_in(t: Ns, unit: Ns, name: &str, d: usize) -> String {
    if d == 0 {
        return format!("{} {name}", t / unit);
    }
    let q = unit / 10u64.pow(d as u32);
    format!("{}.{:0d$} {name}", t / unit, (t % unit) / q.max(1))
}

/// An exact time, trailing zeros trimmed: `1.234567 ms`, `3 s`, `850 ns`.
pub fn precise_time(t: Ns) -> String {
    let (u, name) = unit_for(t.max(1));
    let s = fmt_in(t, u, name, decimals(1, u));
    match s.split_once(' ') {
        Some((num, unit)) if num.contains('.') => format!("{} {unit}", num.trim_end_matches('0').trim_end_matches('.')),
        _ => s,
    }
}

/// Ticks for the view `[t0, t1]`: the smallest step of 1, 2 or 5 times a power of ten that
/// gives at most 10 intervals, so 4 to 11 ticks for any view of at least 10 ns.
pub fn axis_ticks(t0: f64, t1: f64) -> Axis {
    let t0 = if t0.is_finite() { t0.max(0.0) } else { 0.0 };
    let t1 = if t1.is_finite() && t1 > t0 { t1 } else { t0 + 1.0 };
    let len = t1 - t0;
    let mut step: Ns = 1;
    'find: for p in 0..19 {
        for m in [1, 2, 5] {
            step = m * 10u64.pow(p);
            if len / step as f64 <= 10.0 {
                break 'find;
            }
        }
    }
    let first = (t0 / step as f64).ceil() as Ns * step;
    let last = t1.floor() as Ns;
    let (unit, name) = unit_for(last);
    let d = decimals(step, unit);
    let (base, unit, name, d) = if d <= 3 {
        (None, unit, name, d)
    } else {
        let block = step.saturating_mul(1000);
        let b = first / block * block;
        let (u, n) = unit_for(last - b);
        (Some((b, precise_time(b))), u, n, decimals(step, u))
    };
    let offset = base.as_ref().map_or(0, |b| b.0);
    let prefix = if base.is_some() { "+" } else { "" };
    let mut ticks = Vec::new();
    let mut t = first;
    while t <= last {
        ticks.push((t, format!("{prefix}{}", fmt_in(t - offset, unit, name, d))));
        t += step;
    }
    Axis { step, unit: name, ticks, base }
}

// ---------------------------------------------------------------- level of detail

const EMPTY: u8 = u8::MAX;
/// Colours tracked per column; past this the smallest share is replaced (approximate but bounded).
const SLOTS: usize = 4;
type Slots = [(u8, f32); SLOTS];

#[inline(always)]
fn add_cover(slots: &mut Slots, colour: u8, cover: f32) {
    let mut weakest = 0;
    for i in 0..SLOTS {
        if slots[i].0 == colour {
            slots[i].1 += cover;
            return;
        }
        if slots[i].0 == EMPTY {
            slots[i] = (colour, cover);
            return;
        }
        if slots[i].1 < slots[weakest].1 {
            weakest = i;
        }
    }
    if cover > slots[weakest].1 {
        slots[weakest] = (colour, cover);
    }
}

#[inline(always)]
fn dominant(slots: &Slots) -> u8 {
    let mut best = (EMPTY, 0.0f32);
    for &(c, v) in slots {
        if c != EMPTY && (best.0 == EMPTY || v > best.1 || (v == best.1 && c < best.0)) {
            best = (c, v);
        }
    }
    best.0
}

/// One merged run of columns `[c0, c1)` painted with colour id `colour`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColRect {
    pub colour: u8,
    pub c0: u32,
    pub c1: u32,
}

/// A lane reduced to pixel columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaneLod {
    pub main: Vec<ColRect>,
    pub overhead: Vec<ColRect>,
    /// Spans overlapping the view (for the summary).
    pub visible: usize,
}

/// Span `s` as a column interval of the view: None if it does not overlap it.
#[inline(always)]
fn columns(s: &Span, view: &View, cols: usize) -> Option<(f64, f64)> {
    let per_col = view.len() / cols as f64;
    let x0 = ((s.start as f64 - view.t0) / per_col).max(0.0);
    let x1 = ((s.end as f64 - view.t0) / per_col).min(cols as f64);
    if (s.end as f64) <= view.t0 || (s.start as f64) >= view.t1 || x1 < x0 {
        return None;
    }
    Some((x0, x1))
}

#[inline(always)]
fn paint(acc: &mut [Slots], x0: f64, x1: f64, colour: u8) {
    let n = acc.len();
    let c0 = (x0.floor() as usize).min(n - 1);
    let c1 = ((x1.ceil() as usize).saturating_sub(1)).clamp(c0, n - 1);
    // Anything visible counts, however thin: a lone 1 ns span still owns its column.
    const MIN: f32 = 1e-6;
    if c0 == c1 {
        add_cover(&mut acc[c0], colour, ((x1 - x0) as f32).max(MIN));
        return;
    }
    add_cover(&mut acc[c0], colour, ((c0 + 1) as f64 - x0).max(0.0) as f32 + MIN);
    for slots in &mut acc[c0 + 1..c1] {
        add_cover(slots, colour, 1.0);
    }
    add_cover(&mut acc[c1], colour, (x1 - c1 as f64).max(0.0) as f32 + MIN);
}

fn merge(acc: &[Slots], out: &mut Vec<ColRect>) {
    let mut cur: Option<ColRect> = None;
    for (c, slots) in acc.iter().enumerate() {
        let colour = dominant(slots);
        match &mut cur {
            Some(r) if r.colour == colour && r.c1 == c as u32 => r.c1 += 1,
            _ => {
                if let Some(r) = cur.take() {
                    out.push(r);
                }
                if colour != EMPTY {
                    cur = Some(ColRect { colour, c0: c as u32, c1: c as u32 + 1 });
                }
            }
        }
    }
    out.extend(cur);
}

/// Reduces lane `core` to at most `cols` rects per band for `view`.
pub fn lod_lane(trace: &Trace, index: &TraceIndex, core: usize, view: &View, cols: usize) -> LaneLod {
    let cols = cols.max(1);
    let mut main = vec![[(EMPTY, 0.0f32); SLOTS]; cols];
    let mut over = vec![[(EMPTY, 0.0f32); SLOTS]; cols];
    let (t0, t1) = view.ns_range();
    let mut visible = 0;
    let idle_count = trace.idle_states.len();
    if let Some(order) = index.spans.get(core) {
        for &i in &order[index.span_range(core, t0, t1)] {
            let s = &trace.spans[i as usize];
            let Some((x0, x1)) = columns(s, view, cols) else { continue };
            visible += 1;
            let colour = colour_of(s.kind, &index.colours, idle_count);
            match s.kind {
                SpanKind::Overhead { .. } => paint(&mut over, x0, x1, colour),
                _ => paint(&mut main, x0, x1, colour),
            }
        }
    }
    let mut lod = LaneLod { visible, ..LaneLod::default() };
    merge(&main, &mut lod.main);
    merge(&over, &mut lod.overhead);
    lod
}

/// What an arrow between lanes stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    Wakeup,
    Ipi,
    Migrate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub col: u32,
    pub from: u16,
    pub to: u16,
    pub kind: ArrowKind,
}

/// Marks for a lane: tick and hrtick columns (one per column at most) and arrows into it
/// (one per column, source lane and kind at most).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaneMarks {
    pub ticks: Vec<u32>,
    pub hrticks: Vec<u32>,
    pub arrows: Vec<Arrow>,
    /// Arrows stopped at the budget.
    pub truncated: bool,
    /// Every arrival, one per column and kind (no budget: at most 3 per column).
    pub arrivals: Vec<(u32, ArrowKind)>,
}

/// Arrows drawn in one view at most (past this, the densest view still shows the pattern).
pub const MAX_ARROWS: usize = 5_000;

pub fn lane_marks(
    trace: &Trace,
    index: &TraceIndex,
    core: usize,
    view: &View,
    cols: usize,
    arrows_left: usize,
) -> LaneMarks {
    let cols = cols.max(1);
    let mut m = LaneMarks::default();
    let (t0, t1) = view.ns_range();
    let per_col = view.len() / cols as f64;
    // Last column used per (source lane, kind), so arrows dedupe per column.
    let mut last: Vec<u32> = vec![u32::MAX; index.lanes * 3];
    let mut last_arrival = [u32::MAX; 3];
    for &i in &index.instants[core][index.instant_range(trace, core, t0, t1)] {
        let x = &trace.instants[i as usize];
        let t = x.time as f64;
        if t < view.t0 || t >= view.t1 {
            continue;
        }
        let col = (((t - view.t0) / per_col) as u32).min(cols as u32 - 1);
        let (from, kind) = match x.kind {
            InstantKind::Tick => {
                if m.ticks.last() != Some(&col) {
                    m.ticks.push(col);
                }
                continue;
            }
            InstantKind::Hrtick => {
                if m.hrticks.last() != Some(&col) {
                    m.hrticks.push(col);
                }
                continue;
            }
            InstantKind::Wakeup { from, .. } => (from, ArrowKind::Wakeup),
            InstantKind::Ipi { from } => (from, ArrowKind::Ipi),
            InstantKind::Migrate { from, .. } => (from, ArrowKind::Migrate),
        };
        if last_arrival[kind as usize] != col {
            last_arrival[kind as usize] = col;
            m.arrivals.push((col, kind));
        }
        if m.arrows.len() >= arrows_left {
            m.truncated = true;
            continue;
        }
        let from = index.lane_of_core.get(from as usize).copied().unwrap_or(index.lanes - 1).min(index.lanes - 1);
        let slot = from * 3 + kind as usize;
        if last[slot] != col {
            last[slot] = col;
            m.arrows.push(Arrow { col, from: from as u16, to: core as u16, kind });
        }
    }
    m
}

// ---------------------------------------------------------------- scene

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub x: f64,
    /// Vertical middle of the text.
    pub y: f64,
    pub text: String,
    pub colour: &'static str,
    /// Font size in device pixels.
    pub px: f64,
    pub align: Align,
    pub mono: bool,
}

/// Rects `[x, y, w, h]` and triangles `[x0, y0, x1, y1, x2, y2]` filled with one colour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fill {
    pub colour: &'static str,
    pub rects: Vec<[f64; 4]>,
    pub tris: Vec<[f64; 6]>,
}

/// Line segments `[x0, y0, x1, y1]` stroked with one colour and width.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stroke {
    pub colour: &'static str,
    pub width: f64,
    pub dashed: bool,
    pub segs: Vec<[f64; 4]>,
}

/// The span bands as pixels: row `k` of `rgba` (`width` pixels, RGBA, transparent where no
/// span) is drawn at `x` stretched over `rows[k]` = (top, height). Drawing the LOD as one
/// image instead of one `fillRect` per merged run keeps a frame to a few canvas calls: in
/// headless Chromium 43,000 `fillRect`s took 60-120 ms per frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpanImage {
    pub x: f64,
    pub width: usize,
    pub rows: Vec<(f64, f64)>,
    pub rgba: Vec<u8>,
    /// Merged runs painted (the LOD's rect count).
    pub runs: usize,
}

impl SpanImage {
    /// Appends a row drawn over `(top, height)`: each `(column, rgb)` paints `w` pixels
    /// from that column (later pairs win), the rest stays transparent.
    pub fn push_row(&mut self, at: (f64, f64), px: impl Iterator<Item = (u32, [u8; 3])>, w: usize) {
        let start = self.rgba.len();
        self.rgba.resize(start + self.width * 4, 0);
        let line = &mut self.rgba[start..];
        for (c, [r, g, b]) in px {
            self.runs += 1;
            for col in c as usize..(c as usize + w).min(self.width) {
                line[col * 4..col * 4 + 4].copy_from_slice(&[r, g, b, 255]);
            }
        }
        self.rows.push(at);
    }
}

/// `#RRGGBB` to bytes (anything else is black).
pub fn hex_rgb(hex: &str) -> [u8; 3] {
    let h = hex.trim_start_matches('#');
    let byte = |i: usize| h.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()).unwrap_or(0);
    [byte(0), byte(2), byte(4)]
}

/// A display list in device pixels: fills (the span image drawn before fill `image_at`),
/// then strokes, then texts, each in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub fills: Vec<Fill>,
    pub spans: Option<SpanImage>,
    pub image_at: usize,
    pub strokes: Vec<Stroke>,
    pub texts: Vec<Text>,
    /// Spans overlapping the view.
    pub visible_spans: usize,
    /// First fill batch of the current layer.
    layer: usize,
}

impl Scene {
    /// The batch for `colour` in the current layer (batches of earlier layers are not
    /// reused, so what a later layer draws stays on top).
    pub fn fill(&mut self, colour: &'static str) -> &mut Fill {
        let i = match self.fills[self.layer..].iter().position(|f| f.colour == colour) {
            Some(i) => self.layer + i,
            None => {
                self.fills.push(Fill { colour, ..Fill::default() });
                self.fills.len() - 1
            }
        };
        &mut self.fills[i]
    }

    pub fn stroke(&mut self, colour: &'static str, width: f64, dashed: bool) -> &mut Stroke {
        let i = match self.strokes.iter().position(|s| s.colour == colour && s.width == width && s.dashed == dashed) {
            Some(i) => i,
            None => {
                self.strokes.push(Stroke { colour, width, dashed, segs: Vec::new() });
                self.strokes.len() - 1
            }
        };
        &mut self.strokes[i]
    }

    /// Starts a layer: fills from now on are drawn after every earlier fill.
    pub fn layer(&mut self) {
        self.layer = self.fills.len();
    }

    /// Rects drawn, counting each merged span run as one (for the level-of-detail bound).
    pub fn rect_count(&self) -> usize {
        self.fills.iter().map(|f| f.rects.len()).sum::<usize>() + self.spans.as_ref().map_or(0, |i| i.runs)
    }

    fn text(&mut self, x: f64, y: f64, text: String, px: f64, align: Align, colour: &'static str) {
        self.texts.push(Text { x, y, text, colour, px, align, mono: false });
    }
}

/// The legend and caption band of an exported PNG, drawn below the timeline (from y = `top`):
/// tasks, idle states, overheads and marks as swatches with their names, flowing into rows,
/// then `label` (the caption: which run) on a line of its own, so no text lands on an axis
/// label. Returns the band's height (device pixels) and its scene.
pub fn png_legend(trace: &Trace, index: &TraceIndex, layout: &Layout, top: f64, label: &str) -> (f64, Scene) {
    let mut sc = Scene::default();
    let s = layout.dpr;
    let ch = layout.chrome;
    let (px, row_h, sw, pad) = (11.0 * s, 18.0 * s, 10.0 * s, 8.0 * s);
    // Estimated text width: the canvas's system font averages about 0.58 em a character.
    let text_w = |t: &str| t.chars().count() as f64 * px * 0.58;
    let mut items: Vec<(Option<&'static str>, String)> = Vec::new();
    items.push((None, "Tasks:".into()));
    for (slot, name) in &index.colours.legend {
        items.push((Some(TASK_COLOURS[*slot as usize % TASK_COLOURS.len()]), name.clone()));
    }
    let idle_count = trace.idle_states.len();
    if idle_count > 0 {
        items.push((None, "Idle:".into()));
        for (i, name) in trace.idle_states.iter().enumerate() {
            items.push((Some(ch.idle[idle_shade(i as u8, idle_count) as usize]), name.clone()));
        }
    }
    items.push((None, "Overheads:".into()));
    for k in Overhead::ALL {
        items.push((Some(OVERHEAD_COLOURS[overhead_index(k)]), overhead_label(k).into()));
    }
    items.push((None, "Marks:".into()));
    let marks = [ch.tick_mark, HRTICK_MARK, ch.wakeup_arrow, IPI_ARROW, ch.migrate_arrow];
    for (c, name) in marks.iter().zip(MARK_LABELS) {
        items.push((Some(c), name.to_string()));
    }
    let (x0, x1) = (pad, layout.width - pad);
    let (mut x, mut y) = (x0, top + pad + row_h / 2.0);
    let mut placed = Vec::new();
    for (colour, name) in items {
        let w = text_w(&name) + colour.map_or(0.0, |_| sw + 4.0 * s) + 12.0 * s;
        if x + w > x1 && x > x0 {
            x = x0;
            y += row_h;
        }
        placed.push((x, y, colour, name));
        x += w;
    }
    if !label.is_empty() {
        y += row_h;
    }
    let height = (y + row_h / 2.0 + pad - top).ceil();
    sc.fill(ch.background).rects.push([0.0, top, layout.width, height]);
    for (x, y, colour, name) in placed {
        let tx = match colour {
            Some(c) => {
                sc.fill(c).rects.push([x, y - sw / 2.0, sw, sw]);
                x + sw + 4.0 * s
            }
            None => x,
        };
        sc.text(tx, y, name, px, Align::Left, ch.text);
    }
    if !label.is_empty() {
        sc.text(x1, y, label.to_string(), px, Align::Right, ch.text);
    }
    (height, sc)
}

/// Builds everything but the hover overlay for `view` on `layout`.
pub fn build_scene(trace: &Trace, index: &TraceIndex, view: &View, layout: &Layout) -> Scene {
    let mut sc = Scene::default();
    let cols = layout.plot_w();
    let (w, h, gx, s) = (layout.width, layout.height, layout.gutter, layout.dpr);
    let ch = layout.chrome;
    sc.fill(ch.background).rects.push([0.0, 0.0, w, h]);
    sc.fill(ch.gutter).rects.push([0.0, 0.0, gx, h]);
    for lane in 0..index.lanes {
        let (y, bh) = layout.band(lane, Band::Overhead);
        sc.fill(ch.overhead_band).rects.push([gx, y, w - gx, bh]);
    }
    // Axis and grid.
    let axis = axis_ticks(view.t0, view.t1);
    let lanes_bottom = layout.lane_y(index.lanes);
    let label_px = 11.0 * s;
    // Label every k-th tick so labels stay at least ~70 CSS px apart.
    let tick_px = axis.step as f64 / view.len() * cols as f64;
    let every = ((70.0 * s / tick_px.max(1.0)).ceil() as usize).max(1);
    for (k, (t, label)) in axis.ticks.iter().enumerate() {
        let x = layout.x_of(view, *t as f64).round() + 0.5;
        sc.fill(ch.grid).rects.push([x - 0.5, layout.axis_h - 5.0 * s, 1.0, lanes_bottom - layout.axis_h + 5.0 * s]);
        if k % every == 0 {
            // Keep the label inside the plot (estimated width: ~0.6 em per character).
            let half = label.chars().count() as f64 * label_px * 0.3;
            let lx = x.clamp(gx + half, (w - half).max(gx + half));
            sc.text(lx, layout.axis_h * 0.45, label.clone(), label_px, Align::Center, layout.chrome.text);
        }
    }
    if let Some((_, base)) = &axis.base {
        sc.text(gx - 4.0 * s, layout.axis_h * 0.45, format!("{base} +"), label_px, Align::Right, layout.chrome.text);
    }
    sc.stroke(ch.tick_mark, 1.0, false).segs.push([gx, layout.axis_h - 0.5, w, layout.axis_h - 0.5]);
    // Spans, over the backgrounds and grid: one pixel row per band, stretched to its height.
    sc.layer();
    sc.image_at = sc.fills.len();
    let rgb: Vec<[u8; 3]> = colour_table(ch).iter().map(|h| hex_rgb(h)).collect();
    let mut img =
        SpanImage { x: gx, width: cols, rows: Vec::with_capacity(index.lanes * 2), rgba: Vec::new(), runs: 0 };
    img.rgba.resize(cols * index.lanes * 2 * 4, 0);
    for lane in 0..index.lanes {
        let lod = lod_lane(trace, index, lane, view, cols);
        sc.visible_spans += lod.visible;
        for (band, rects) in [(Band::Main, &lod.main), (Band::Overhead, &lod.overhead)] {
            let row = img.rows.len();
            img.rows.push(layout.band(lane, band));
            img.runs += rects.len();
            let line = &mut img.rgba[row * cols * 4..(row + 1) * cols * 4];
            for r in rects {
                let [red, green, blue] = rgb[r.colour as usize];
                for px in line[r.c0 as usize * 4..r.c1 as usize * 4].chunks_exact_mut(4) {
                    px.copy_from_slice(&[red, green, blue, 255]);
                }
            }
        }
        let name = index.lane_names.get(lane).cloned().unwrap_or_else(|| format!("CPU {lane}"));
        let (y, label) = (layout.lane_y(lane) + layout.lane_h * 0.45, name);
        sc.text(6.0 * s, y, label, 11.0 * s, Align::Left, layout.chrome.text);
    }
    // Tick marks and arrowheads on top of the spans.
    sc.layer();
    let mut arrows_left = MAX_ARROWS;
    let marks: Vec<LaneMarks> = (0..index.lanes)
        .map(|lane| {
            let m = lane_marks(trace, index, lane, view, cols, arrows_left);
            arrows_left -= m.arrows.len();
            m
        })
        .collect();
    // Past one arrow per ~8 CSS px, shafts would hide the spans: draw only the heads.
    let dense = marks.iter().any(|m| m.truncated)
        || marks.iter().map(|m| m.arrows.len()).sum::<usize>() as f64 > cols as f64 / (8.0 * s);
    // Marks are pixel rows of the span image too (thousands of tiny fills are slow to
    // draw): per lane an hrtick row, a tick row over it, and, when dense, an arrival row.
    let mark_w = (s.round() as usize).max(1);
    for (lane, marks) in marks.iter().enumerate() {
        let (y, bh) = layout.band(lane, Band::Main);
        let hr = hex_rgb(HRTICK_MARK);
        img.push_row((y, (bh * 0.38).round()), marks.hrticks.iter().map(|&c| (c, hr)), mark_w);
        let tk = hex_rgb(ch.tick_mark);
        img.push_row((y, (bh * 0.22).round()), marks.ticks.iter().map(|&c| (c, tk)), mark_w);
        if dense {
            // Arrivals only, coloured by kind (a wakeup wins a shared column).
            let mut sorted = marks.arrivals.clone();
            order::sort_by_key(&mut sorted, |a| std::cmp::Reverse(a.1 as u8));
            let colour = |k: ArrowKind| {
                hex_rgb(match k {
                    ArrowKind::Wakeup => ch.wakeup_arrow,
                    ArrowKind::Ipi => IPI_ARROW,
                    ArrowKind::Migrate => ch.migrate_arrow,
                })
            };
            let h = (3.0 * s).round();
            img.push_row((y + bh - h, h), sorted.into_iter().map(|(c, k)| (c, colour(k))), mark_w);
            continue;
        }
        for a in &marks.arrows {
            let x = gx + a.col as f64 + 0.5;
            let (colour, dashed) = match a.kind {
                ArrowKind::Wakeup => (ch.wakeup_arrow, false),
                ArrowKind::Ipi => (IPI_ARROW, true),
                ArrowKind::Migrate => (ch.migrate_arrow, true),
            };
            let (fy, fh) = layout.band(a.from as usize, Band::Main);
            let (ty, th) = layout.band(a.to as usize, Band::Main);
            let (y0, y1) = (fy + fh * 0.5, ty + th * 0.5);
            let head = 4.0 * s;
            if a.from == a.to {
                // Same-core wakeup: a small downward head at the lane top.
                sc.fill(colour).tris.push([x - head, ty, x + head, ty, x, ty + head * 1.5]);
                continue;
            }
            let dir = if y1 > y0 { 1.0 } else { -1.0 };
            sc.stroke(colour, s.max(1.0), dashed).segs.push([x, y0, x, y1 - dir * head]);
            sc.fill(colour).tris.push([
                x - head * 0.8,
                y1 - dir * head * 1.6,
                x + head * 0.8,
                y1 - dir * head * 1.6,
                x,
                y1,
            ]);
        }
    }
    sc.spans = Some(img);
    sc
}

// ---------------------------------------------------------------- hover

/// The span under device-pixel `(x, y)`: in the band under the pointer if one is within a
/// column and a half, else in the other band; the nearest, then the shortest, wins.
pub fn hit_test(trace: &Trace, index: &TraceIndex, view: &View, layout: &Layout, x: f64, y: f64) -> Option<usize> {
    let (lane, band) = layout.lane_at(y)?;
    let frac = layout.frac_at(x);
    if !(0.0..=1.0).contains(&frac) {
        return None;
    }
    let t = view.time_at(frac);
    let tol = 1.5 * view.len() / layout.plot_w() as f64;
    let lo = (t - tol).max(0.0).floor() as Ns;
    let hi = (t + tol).max(0.0).ceil() as Ns + 1;
    let mut best: [Option<(f64, Ns, usize)>; 2] = [None, None];
    for &i in &index.spans[lane][index.span_range(lane, lo, hi)] {
        let s = &trace.spans[i as usize];
        let dist = if (s.start as f64) <= t && t < s.end as f64 {
            0.0
        } else {
            (s.start as f64 - t).abs().min((t - s.end as f64).abs())
        };
        if dist > tol {
            continue;
        }
        let in_band = matches!(s.kind, SpanKind::Overhead { .. }) == (band == Band::Overhead);
        let slot = &mut best[usize::from(!in_band)];
        let cand = (dist, s.end - s.start, i as usize);
        if slot.is_none_or(|b| (cand.0, cand.1) < (b.0, b.1)) {
            *slot = Some(cand);
        }
    }
    best[0].or(best[1]).map(|b| b.2)
}

/// Tooltip lines for span `i`.
pub fn describe(trace: &Trace, i: usize) -> Vec<String> {
    let Some(s) = trace.spans.get(i) else { return Vec::new() };
    let what = match s.kind {
        SpanKind::Run { task, sys } => {
            let name = trace.tasks.get(task as usize).map_or_else(|| format!("task {task}"), |t| t.name.clone());
            format!("{name} ({})", if sys { "sys" } else { "user" })
        }
        SpanKind::Idle { state } => match trace.idle_states.get(state as usize) {
            Some(n) => format!("idle {n}"),
            None => format!("idle state {state}"),
        },
        SpanKind::Overhead { kind } => format!("overhead: {}", kind.name()),
    };
    vec![
        format!("CPU {}: {what}", s.core),
        format!("start {}", precise_time(s.start)),
        format!("duration {}", crate::ui::common::format::duration(s.end - s.start)),
    ]
}

/// The hover overlay: a playback cursor at device x `cursor` and a tooltip with `lines`
/// near the pointer `(px, py)`, kept inside the canvas.
pub fn overlay(layout: &Layout, lines: &[String], px: f64, py: f64, cursor: Option<f64>) -> Scene {
    let mut sc = Scene::default();
    let s = layout.dpr;
    if let Some(x) = cursor {
        // A white halo keeps the cursor visible over any span colour.
        sc.stroke(layout.chrome.background, 4.0 * s, false).segs.push([x, layout.axis_h, x, layout.height]);
        sc.stroke(layout.chrome.cursor, 2.0 * s, false).segs.push([x, layout.axis_h, x, layout.height]);
    }
    if lines.is_empty() {
        return sc;
    }
    let font = 12.0 * s;
    // Monospace, so the width is known without measuring: ~0.62 em per character.
    let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let (bw, line_h) = (chars * font * 0.62 + 12.0 * s, font * 1.35);
    let bh = line_h * lines.len() as f64 + 8.0 * s;
    let mut x = px + 14.0 * s;
    if x + bw > layout.width {
        x = (px - 14.0 * s - bw).max(0.0);
    }
    let y = (py + 14.0 * s).min(layout.height - bh - s).max(s);
    sc.fill(layout.chrome.tick_mark).rects.push([x - s, y - s, bw + 2.0 * s, bh + 2.0 * s]);
    sc.fill(layout.chrome.tooltip_bg).rects.push([x, y, bw, bh]);
    for (k, l) in lines.iter().enumerate() {
        sc.texts.push(Text {
            x: x + 6.0 * s,
            y: y + 4.0 * s + line_h * (k as f64 + 0.5),
            text: l.clone(),
            colour: layout.chrome.text,
            px: font,
            align: Align::Left,
            mono: true,
        });
    }
    sc
}

/// What the play cursor teaches, at time `t` (device-pixel x `x`): while playing, the trace
/// right of the cursor is veiled (revealed as it plays); a time readout sits on the axis;
/// and each lane says what its CPU runs at that instant (a task, or its idle state).
pub fn play_cursor(trace: &Trace, index: &TraceIndex, layout: &Layout, t: f64, x: f64, playing: bool) -> Scene {
    let mut sc = Scene::default();
    let s = layout.dpr;
    let dark = layout.chrome.background == DARK.background;
    if playing && x < layout.width {
        let veil = if dark { "rgba(23,30,38,0.82)" } else { "rgba(255,255,255,0.82)" };
        sc.fill(veil).rects.push([
            x.max(layout.gutter),
            layout.axis_h,
            layout.width - x.max(layout.gutter),
            layout.height - layout.axis_h,
        ]);
    }
    let px = 11.0 * s;
    let time = precise_time(t.max(0.0) as Ns);
    let w = time.chars().count() as f64 * px * 0.62 + 8.0 * s;
    let bx = (x - w / 2.0).clamp(layout.gutter, (layout.width - w).max(layout.gutter));
    sc.fill(layout.chrome.cursor).rects.push([bx, 1.0 * s, w, layout.axis_h - 2.0 * s]);
    sc.texts.push(Text {
        x: bx + w / 2.0,
        y: layout.axis_h * 0.45,
        text: time,
        colour: layout.chrome.background,
        px,
        align: Align::Center,
        mono: true,
    });
    let tn = t.max(0.0) as Ns;
    for lane in 0..index.lanes {
        let Some(order) = index.spans.get(lane) else { continue };
        let here = order[index.span_range(lane, tn, tn + 1)].iter().map(|&i| &trace.spans[i as usize]).find(|sp| {
            sp.start <= tn && tn < sp.end && matches!(sp.kind, SpanKind::Run { .. } | SpanKind::Idle { .. })
        });
        let name = match here.map(|sp| sp.kind) {
            Some(SpanKind::Run { task, sys }) => {
                let n = trace.tasks.get(task as usize).map_or_else(|| format!("task {task}"), |t| t.name.clone());
                if sys {
                    format!("{n} (sys)")
                } else {
                    n
                }
            }
            Some(SpanKind::Idle { state }) => {
                trace.idle_states.get(state as usize).map_or_else(|| "idle".into(), |n| format!("idle {n}"))
            }
            _ => continue,
        };
        // The CPU's runqueue at the cursor, where the decision records reach.
        let folded = !index.collapsed.is_empty() && lane + 1 == index.lanes;
        let core = index.lane_of_core.iter().position(|&l| l == lane).filter(|_| !folded);
        let running = matches!(here.map(|sp| sp.kind), Some(SpanKind::Run { .. }));
        let waiting = core.and_then(|c| crate::ui::timeline::runqueue::runqueue_at(trace, c as u16, tn));
        let name = match waiting {
            Some(w) if !w.is_empty() => {
                let names: Vec<String> = w
                    .iter()
                    .take(3)
                    .map(|&k| trace.tasks.get(k as usize).map_or_else(|| format!("task {k}"), |t| t.name.clone()))
                    .collect();
                let more = if w.len() > 3 { format!(", +{}", w.len() - 3) } else { String::new() };
                format!("{name} · {} waiting: {}{more}", w.len(), names.join(", "))
            }
            Some(_) if running => format!("{name} · none waiting"),
            _ => name,
        };
        let (y, h) = layout.band(lane, Band::Main);
        let tx = if x + 6.0 * s + name.chars().count() as f64 * px * 0.62 < layout.width {
            x + 6.0 * s
        } else {
            x - 6.0 * s
        };
        let align = if tx > x { Align::Left } else { Align::Right };
        sc.texts.push(Text { x: tx, y: y + h / 2.0, text: name, colour: layout.chrome.text, px, align, mono: false });
    }
    sc
}

/// A sentence for the canvas's aria-label.
pub fn summary(trace: &Trace, index: &TraceIndex, view: &View, visible: usize, label: &str) -> String {
    let (t0, t1) = view.ns_range();
    let names: Vec<&str> = index.colours.legend.iter().take(8).map(|(_, n)| n.as_str()).collect();
    let prefix = if label.is_empty() { String::new() } else { format!("{label}: ") };
    let mut s = format!(
        "{prefix}timeline of {} CPUs showing {} to {} of {}; {visible} spans in view",
        index.lane_of_core.len().max(index.lanes),
        precise_time(t0),
        precise_time(t1),
        precise_time(index.end)
    );
    if !names.is_empty() {
        s += &format!("; {}: {}", if index.colours.by_group { "groups" } else { "tasks" }, names.join(", "));
    }
    if !index.collapsed.is_empty() {
        s += &format!("; {} idle CPUs in one lane", index.collapsed.len());
    }
    if trace.truncated {
        s += "; trace truncated";
    }
    s
}

/// An outline around each run of `task` in the view (a task picked in the trace table,
/// `TimelineProps::highlight`), drawn over the base scene; at least 2 px wide so a short run shows.
pub fn highlight(trace: &Trace, index: &TraceIndex, view: &View, layout: &Layout, task: u32) -> Scene {
    let mut sc = Scene::default();
    let (lo, hi) = (layout.gutter, layout.gutter + layout.plot_w() as f64);
    let w = 2.0 * layout.dpr;
    let mut last: Vec<f64> = vec![f64::NEG_INFINITY; index.lanes.max(1)];
    for s in &trace.spans {
        if s.kind != (SpanKind::Run { task, sys: false }) && s.kind != (SpanKind::Run { task, sys: true }) {
            continue;
        }
        if (s.end as f64) < view.t0 || (s.start as f64) > view.t1 {
            continue;
        }
        let lane = index.lane_of_core.get(s.core as usize).copied().unwrap_or(s.core as usize);
        if lane >= last.len() {
            continue;
        }
        let x0 = layout.x_of(view, s.start as f64).max(lo);
        let x1 = layout.x_of(view, s.end as f64).min(hi).max(x0 + w);
        if x1 <= last[lane] {
            continue;
        }
        last[lane] = x1;
        let (y, h) = layout.band(lane, Band::Main);
        let st = sc.stroke(layout.chrome.cursor, w, false);
        st.segs.push([x0, y, x1, y]);
        st.segs.push([x0, y + h, x1, y + h]);
        st.segs.push([x0, y, x0, y + h]);
        st.segs.push([x1, y, x1, y + h]);
    }
    sc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::parse_duration;
    use crate::engine::trace::{Instant, TaskInfo};

    /// A small deterministic generator (xorshift), so traces need no engine.
    struct Gen(u64);
    impl Gen {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn tasks(n: usize) -> Vec<TaskInfo> {
        (0..n).map(|i| TaskInfo { name: format!("t{i}"), group: format!("g{}", i % 3) }).collect()
    }

    /// `per_core` back-to-back spans on each of `cores` cores (runs, sys runs, idle in 4
    /// states, overheads), 1 to 2000 ns long, plus ticks, wakeups and IPIs.
    fn gen_trace(cores: u16, per_core: usize, seed: u64) -> Trace {
        let mut g = Gen(seed | 1);
        let mut t = Trace {
            cores,
            idle_states: ["POLL", "C1", "C6", "C10"].map(String::from).to_vec(),
            tasks: tasks(6),
            ..Trace::default()
        };
        for core in 0..cores {
            let mut now = 0;
            for _ in 0..per_core {
                let len = 1 + g.below(2000);
                let kind = match g.below(10) {
                    0..=3 => SpanKind::Run { task: g.below(6) as u32, sys: false },
                    4 => SpanKind::Run { task: g.below(6) as u32, sys: true },
                    5..=6 => SpanKind::Idle { state: g.below(4) as u8 },
                    _ => SpanKind::Overhead { kind: Overhead::ALL[g.below(7) as usize] },
                };
                t.spans.push(Span { core, start: now, end: now + len, kind });
                if g.below(8) == 0 {
                    let kind = match g.below(4) {
                        0 => InstantKind::Tick,
                        1 => InstantKind::Hrtick,
                        2 => InstantKind::Wakeup { from: g.below(cores as u64) as u16, task: 1 },
                        _ => InstantKind::Ipi { from: g.below(cores as u64) as u16 },
                    };
                    t.instants.push(Instant { core, time: now, kind });
                }
                now += len;
            }
            t.end = t.end.max(now);
        }
        t
    }

    fn run(core: u16, start: Ns, end: Ns, task: u32) -> Span {
        Span { core, start, end, kind: SpanKind::Run { task, sys: false } }
    }

    fn trace_of(cores: u16, spans: Vec<Span>, end: Ns) -> Trace {
        Trace { cores, idle_states: vec!["POLL".into(), "C6".into()], tasks: tasks(3), spans, end, ..Trace::default() }
    }

    /// Each lane's spans as (start, end), in the index's order.
    fn lane_order(trace: &Trace, index: &TraceIndex) -> Vec<Vec<(Ns, Ns)>> {
        index
            .spans
            .iter()
            .map(|l| l.iter().map(|&i| (trace.spans[i as usize].start, trace.spans[i as usize].end)).collect())
            .collect()
    }

    #[test]
    fn an_index_built_in_slices_is_the_index_built_at_once_and_sorts_what_came_out_of_order() {
        let mut trace = gen_trace(3, 400, 11);
        // Out of order on every lane (reversed), with a zero-length span and an instant on a
        // core past `cores` (a lane of its own).
        trace.spans.reverse();
        trace.spans.push(Span { core: 1, start: 50, end: 50, kind: SpanKind::Idle { state: 0 } });
        trace.instants.push(Instant { core: 4, time: 7, kind: InstantKind::Tick });
        trace.instants.push(Instant { core: 4, time: 3, kind: InstantKind::Tick });
        let whole = TraceIndex::new(&trace);
        let mut b = IndexBuilder::default();
        let mut steps = 0;
        while !b.step(&trace, 7) {
            steps += 1;
        }
        assert!(steps > 100, "{steps} slices");
        assert_eq!(b.finish(&trace), whole);
        // Against a sort done here: every lane in (start, end) order, empty spans left out.
        assert_eq!(whole.lanes, 5);
        for (c, lane) in lane_order(&trace, &whole).iter().enumerate() {
            let mut want: Vec<(Ns, Ns)> = trace
                .spans
                .iter()
                .filter(|s| s.core as usize == c && s.end > s.start)
                .map(|s| (s.start, s.end))
                .collect();
            want.sort();
            assert_eq!(lane, &want, "lane {c}");
        }
        let times: Vec<Ns> = whole.instants[4].iter().map(|&i| trace.instants[i as usize].time).collect();
        assert_eq!(times, vec![3, 7]);
        // In order, the same lanes.
        let mut sorted = trace.clone();
        sorted.spans.sort_by_key(|s| (s.start, s.end));
        assert_eq!(lane_order(&sorted, &TraceIndex::new(&sorted)), lane_order(&trace, &whole));
        assert_eq!(whole.end, recorded_end(&trace).max(trace.end));
    }

    #[test]
    fn lod_is_bounded_by_columns_for_100k_spans() {
        let trace = gen_trace(8, 12_500, 7);
        assert_eq!(trace.spans.len(), 100_000);
        let index = TraceIndex::new(&trace);
        for css_w in [320.0, 1280.0, 2560.0] {
            let layout = Layout::new(css_w, index.lanes, 2.0);
            let cols = layout.plot_w();
            for view in [View::fit(index.end), View { t0: 1e6, t1: 3e6 }] {
                let mut visible = 0;
                for lane in 0..index.lanes {
                    let lod = lod_lane(&trace, &index, lane, &view, cols);
                    assert!(lod.main.len() <= cols && lod.overhead.len() <= cols, "{} {}", lod.main.len(), cols);
                    visible += lod.visible;
                }
                let scene = build_scene(&trace, &index, &view, &layout);
                assert_eq!(scene.visible_spans, visible);
                let img = scene.spans.as_ref().expect("span image");
                assert_eq!(img.width, cols);
                assert!(img.rows.len() <= index.lanes * 5 && img.rgba.len() == img.rows.len() * cols * 4);
                // 2 bands + tick + hrtick (+ arrival) marks per column per lane, plus a few backgrounds.
                let grid = 12;
                let bound = index.lanes * cols * 5 + index.lanes + 2 + grid;
                assert!(scene.rect_count() <= bound, "{} rects > {bound}", scene.rect_count());
            }
            // The whole-trace view really holds all 100,000 spans.
            assert_eq!(build_scene(&trace, &index, &View::fit(index.end), &layout).visible_spans, 100_000);
        }
    }

    #[test]
    fn every_column_a_visible_span_touches_is_painted() {
        let trace = gen_trace(3, 3_000, 11);
        let index = TraceIndex::new(&trace);
        let cols = 700;
        for view in [View::fit(index.end), View { t0: 12_345.0, t1: 80_000.0 }, View { t0: 5e5, t1: 5e5 + 900.0 }] {
            for lane in 0..3 {
                let lod = lod_lane(&trace, &index, lane, &view, cols);
                let painted = |rects: &[ColRect], c: u32| rects.iter().any(|r| r.c0 <= c && c < r.c1);
                let per_col = view.len() / cols as f64;
                for s in trace.spans.iter().filter(|s| s.core as usize == lane) {
                    if s.end as f64 <= view.t0 || s.start as f64 >= view.t1 {
                        continue;
                    }
                    let c = (((s.start as f64 - view.t0) / per_col).max(0.0) as u32).min(cols as u32 - 1);
                    let band = if matches!(s.kind, SpanKind::Overhead { .. }) { &lod.overhead } else { &lod.main };
                    assert!(painted(band, c), "span {s:?} lost in view {view:?}");
                }
            }
        }
    }

    #[test]
    fn a_lone_one_ns_span_still_gets_its_own_pixel() {
        let trace = trace_of(1, vec![run(0, 500_000_000, 500_000_001, 2)], SEC);
        let index = TraceIndex::new(&trace);
        let lod = lod_lane(&trace, &index, 0, &View::fit(SEC), 1000);
        assert_eq!(lod.main, vec![ColRect { colour: 2, c0: 500, c1: 501 }]);
    }

    #[test]
    fn wide_spans_map_to_exact_columns_and_the_larger_share_wins() {
        // 100 ns over 100 columns: one column per ns.
        let spans = vec![run(0, 0, 50, 0), run(0, 50, 100, 1)];
        let trace = trace_of(1, spans, 100);
        let index = TraceIndex::new(&trace);
        let lod = lod_lane(&trace, &index, 0, &View::fit(100), 100);
        assert_eq!(lod.main, vec![ColRect { colour: 0, c0: 0, c1: 50 }, ColRect { colour: 1, c0: 50, c1: 100 }]);
        // 10 columns of 10 ns: column 3 holds 7 ns of task 2 and 3 ns of task 1.
        let spans = vec![run(0, 0, 37, 2), run(0, 37, 100, 1)];
        let trace = trace_of(1, spans, 100);
        let index = TraceIndex::new(&trace);
        let lod = lod_lane(&trace, &index, 0, &View::fit(100), 10);
        assert_eq!(lod.main, vec![ColRect { colour: 2, c0: 0, c1: 4 }, ColRect { colour: 1, c0: 4, c1: 10 }]);
    }

    #[test]
    fn many_thin_spans_of_one_task_outweigh_one_longer_span_of_another() {
        // Column 0 (0..100 ns): task 1 has 10 slivers of 6 ns (60 ns), task 0 one 40 ns span.
        let mut spans = vec![run(0, 0, 40, 0)];
        spans.extend((0..10).map(|k| run(0, 40 + 6 * k, 46 + 6 * k, 1)));
        let trace = trace_of(1, spans, 200);
        let index = TraceIndex::new(&trace);
        let lod = lod_lane(&trace, &index, 0, &View::fit(200), 2);
        assert_eq!(lod.main, vec![ColRect { colour: 1, c0: 0, c1: 1 }]);
    }

    #[test]
    fn span_range_finds_a_long_span_that_started_before_the_view() {
        let spans = vec![run(0, 0, 1_000, 0), run(0, 10, 20, 1), run(0, 30, 40, 1), run(0, 2_000, 3_000, 1)];
        let trace = trace_of(1, spans, 3_000);
        let index = TraceIndex::new(&trace);
        let found: Vec<usize> = index
            .span_range(0, 500, 600)
            .map(|p| index.spans[0][p] as usize)
            .filter(|&i| trace.spans[i].end > 500)
            .collect();
        assert_eq!(found, vec![0]);
        assert_eq!(index.span_range(0, 1_000, 1_500).len(), 0);
    }

    #[test]
    fn axis_ticks_are_nice_and_labelled_in_units() {
        let nice = |s: Ns| {
            let mut m = s;
            while m % 10 == 0 {
                m /= 10;
            }
            matches!(m, 1 | 2 | 5)
        };
        let mut ranges = Vec::new();
        let mut r: Ns = 100;
        while r <= 100 * SEC {
            ranges.extend([r, r * 2, r * 5]);
            r *= 10;
        }
        ranges.push(137);
        ranges.push(7_777_777_777);
        for &len in &ranges {
            for t0 in [0, 3, 1_234_567, 7 * SEC + 300 * MS + 17] {
                let axis = axis_ticks(t0 as f64, (t0 + len) as f64);
                let n = axis.ticks.len();
                assert!((4..=12).contains(&n), "{n} ticks for {len} ns at {t0}");
                assert!(nice(axis.step), "step {}", axis.step);
                let base = axis.base.as_ref().map_or(0, |b| b.0);
                for (t, label) in &axis.ticks {
                    assert!(*t >= t0 && *t <= t0 + len && t % axis.step == 0);
                    let (num, unit) = label.trim_start_matches('+').split_once(' ').expect("number and unit");
                    assert_eq!(unit, axis.unit, "{label}");
                    assert_eq!(parse_duration(&format!("{num}{unit}")), Ok(t - base), "{label} for {t}");
                }
            }
        }
        let unit = |len: Ns| axis_ticks(0.0, len as f64).unit;
        assert_eq!(unit(100), "ns");
        assert_eq!(unit(500), "ns");
        assert_eq!(unit(20 * US), "µs");
        assert_eq!(unit(2 * MS), "ms");
        assert_eq!(unit(100 * SEC), "s");
        let labels: Vec<String> = axis_ticks(0.0, (2 * MS) as f64).ticks.into_iter().map(|t| t.1).collect();
        assert_eq!(labels[..3], ["0.0 ms", "0.2 ms", "0.4 ms"]);
        // Deep zoom far in: relative labels and a printed base.
        let axis = axis_ticks(5e9, 5e9 + 100.0);
        assert_eq!(axis.base.as_ref().map(|b| b.1.as_str()), Some("5 s"));
        assert_eq!(axis.ticks[1].1, "+10 ns");
    }

    #[test]
    fn precise_time_prints_every_digit_and_no_more() {
        assert_eq!(precise_time(1_234_567), "1.234567 ms");
        assert_eq!(precise_time(3 * SEC), "3 s");
        assert_eq!(precise_time(850), "850 ns");
        assert_eq!(precise_time(1_500), "1.5 µs");
        assert_eq!(precise_time(0), "0 ns");
    }

    fn hit_fixture() -> (Trace, TraceIndex, Layout, View) {
        let spans = vec![
            run(0, 0, 400, 0),
            Span { core: 0, start: 400, end: 410, kind: SpanKind::Overhead { kind: Overhead::Switch } },
            run(0, 410, 1_000, 1),
            Span { core: 1, start: 0, end: 1_000, kind: SpanKind::Idle { state: 1 } },
            run(1, 700, 701, 2),
        ];
        let trace = trace_of(2, spans, 1_000);
        let index = TraceIndex::new(&trace);
        // 1000 device px of plot: 1 ns per px.
        let layout = Layout::new(1_000.0 + GUTTER_CSS, 2, 1.0);
        assert_eq!(layout.plot_w(), 1_000);
        (trace, index, layout, View::fit(1_000))
    }

    #[test]
    fn hit_test_returns_the_span_under_the_pointer() {
        let (trace, index, layout, view) = hit_fixture();
        let gx = layout.gutter;
        let main = |lane| layout.band(lane, Band::Main).0 + 3.0;
        let over = |lane| layout.band(lane, Band::Overhead).0 + 2.0;
        let hit = |x: f64, y: f64| hit_test(&trace, &index, &view, &layout, gx + x, y);
        assert_eq!(hit(200.0, main(0)), Some(0));
        assert_eq!(hit(800.0, main(0)), Some(2));
        // The overhead band picks the 10 ns switch, the main band the run next to it; with
        // no run within reach, the main band falls back to the overhead.
        assert_eq!(hit(405.0, over(0)), Some(1));
        assert_eq!(hit(399.5, main(0)), Some(0));
        assert_eq!(hit(399.5, over(0)), Some(1));
        assert_eq!(hit(405.0, main(0)), Some(1));
        // Away from any overhead, the lower band falls back to the run span.
        assert_eq!(hit(800.0, over(0)), Some(2));
        // A 1 ns span beats the idle span it sits on.
        assert_eq!(hit(700.5, main(1)), Some(4));
        assert_eq!(hit(300.0, main(1)), Some(3));
        // Outside the lanes or the plot: nothing.
        assert_eq!(hit(300.0, 1.0), None);
        assert_eq!(hit(-10.0, main(0)), None);
        assert_eq!(hit(300.0, layout.height + 50.0), None);
        assert_eq!(describe(&trace, 1)[0], "CPU 0: overhead: switch");
        assert_eq!(describe(&trace, 3)[0], "CPU 1: idle C6");
        assert_eq!(describe(&trace, 2)[1..], ["start 410 ns".to_string(), "duration 590 ns".to_string()]);
    }

    #[test]
    fn wheel_zoom_keeps_the_pointer_time_and_clamps_to_the_trace() {
        let end = 10 * MS;
        let mut g = Gen(99);
        for _ in 0..500 {
            let len = 1_000 + g.below(end - 1_000);
            let t0 = g.below(end - len) as f64;
            let view = View { t0, t1: t0 + len as f64 };
            let frac = g.below(1001) as f64 / 1000.0;
            for factor in [0.5, 0.8, 1.25, 2.0] {
                let z = view.zoom_at(factor, frac, end);
                assert!(z.t0 >= 0.0 && z.t1 <= end as f64 + 1e-6 && z.len() >= MIN_SPAN_NS);
                let wanted_len = (view.len() * factor).min(end as f64);
                let wanted_t0 = view.time_at(frac) - frac * wanted_len;
                if wanted_t0 >= 0.0 && wanted_t0 + wanted_len <= end as f64 {
                    let moved = (z.time_at(frac) - view.time_at(frac)).abs();
                    assert!(moved < 1e-6 * end as f64, "pointer time moved by {moved}");
                }
            }
        }
        // Zooming out far ends at the whole trace; zooming in far stops at 10 ns.
        let mut v = View { t0: 100.0, t1: 200.0 };
        for _ in 0..100 {
            v = v.zoom_at(2.0, 0.3, end);
        }
        assert_eq!(v, View::fit(end));
        for _ in 0..100 {
            v = v.zoom_at(0.5, 0.3, end);
        }
        assert!((v.len() - MIN_SPAN_NS).abs() < 1e-9);
        // Nonsense input falls back instead of poisoning the view.
        assert_eq!(View { t0: f64::NAN, t1: 5.0 }.clamp(end), View::fit(end));
        assert_eq!(View::fit(end).zoom_at(f64::NAN, 0.5, end), View::fit(end));
    }

    #[test]
    fn panning_and_playback_stay_inside_the_trace() {
        let end = 1_000;
        let v = View { t0: 100.0, t1: 300.0 };
        assert_eq!(v.pan(50.0, end), View { t0: 150.0, t1: 350.0 });
        assert_eq!(v.pan(-500.0, end), View { t0: 0.0, t1: 200.0 });
        assert_eq!(v.pan(5_000.0, end), View { t0: 800.0, t1: 1_000.0 });
        // Dragging right by a quarter of the plot shows earlier time.
        assert_eq!(v.pan_px(100.0, 400.0, end), View { t0: 50.0, t1: 250.0 });
        assert_eq!(v.advance(100.0, end), (View { t0: 200.0, t1: 400.0 }, false));
        assert_eq!(v.advance(900.0, end), (View { t0: 800.0, t1: 1_000.0 }, true));
    }

    #[test]
    fn colours_go_per_task_then_per_group_and_idle_darkens_with_depth() {
        let mut trace = trace_of(1, Vec::new(), 1);
        assert_eq!(TaskColours::new(&trace).slot(2), 2);
        assert!(!TaskColours::new(&trace).by_group);
        trace.tasks = tasks(12); // groups g0, g1, g2
        let c = TaskColours::new(&trace);
        assert!(c.by_group);
        assert_eq!((c.slot(0), c.slot(1), c.slot(3), c.slot(5)), (0, 1, 0, 2));
        assert_eq!(c.legend.len(), 3);
        assert_eq!(c.slot(400), (400 % 8) as u8); // unknown task: still a colour
        assert_eq!(idle_shade(0, 4), 0);
        assert_eq!(idle_shade(3, 4), 7);
        assert_eq!(idle_shade(9, 4), 7);
        let shades: Vec<u8> = (0..6).map(|s| idle_shade(s, 6)).collect();
        assert!(shades.windows(2).all(|w| w[0] < w[1]), "{shades:?}");
        assert_eq!(colour_table(&LIGHT).len(), COLOURS);
        assert_eq!(colour_table(&DARK).len(), COLOURS);
    }

    #[test]
    fn marks_dedupe_per_column_and_arrows_per_source() {
        let mut trace = trace_of(3, vec![run(0, 0, 1_000, 0)], 1_000);
        for t in 0..100 {
            trace.instants.push(Instant { core: 1, time: t, kind: InstantKind::Tick });
        }
        for from in [0, 2, 0] {
            trace.instants.push(Instant { core: 1, time: 500, kind: InstantKind::Wakeup { from, task: 0 } });
        }
        trace.instants.push(Instant { core: 1, time: 501, kind: InstantKind::Ipi { from: 0 } });
        let index = TraceIndex::new(&trace);
        let m = lane_marks(&trace, &index, 1, &View::fit(1_000), 10, MAX_ARROWS);
        assert_eq!(m.ticks, vec![0]);
        let kinds: Vec<(u16, ArrowKind)> = m.arrows.iter().map(|a| (a.from, a.kind)).collect();
        assert_eq!(kinds, vec![(0, ArrowKind::Wakeup), (2, ArrowKind::Wakeup), (0, ArrowKind::Ipi)]);
        assert!(m.arrows.iter().all(|a| a.to == 1 && a.col == 5));
        assert_eq!(m.arrivals, vec![(5, ArrowKind::Wakeup), (5, ArrowKind::Ipi)]);
        assert!(!m.truncated);
        let capped = lane_marks(&trace, &index, 1, &View::fit(1_000), 10, 1);
        assert_eq!((capped.arrows.len(), capped.truncated, capped.arrivals.len()), (1, true, 2));
    }

    fn arrow_trace(n: u64) -> Trace {
        let mut trace = trace_of(2, vec![run(0, 0, 10_000, 0), run(1, 0, 10_000, 1)], 10_000);
        for k in 0..n {
            trace.instants.push(Instant { core: 1, time: k * 10_000 / n, kind: InstantKind::Ipi { from: 0 } });
        }
        trace
    }

    #[test]
    fn few_arrows_get_shafts_on_top_of_spans_and_many_only_heads() {
        let layout = Layout::new(1_052.0, 2, 1.0);
        let shafts =
            |scene: &Scene| scene.strokes.iter().filter(|s| s.colour == IPI_ARROW).map(|s| s.segs.len()).sum::<usize>();
        let sparse = arrow_trace(10);
        let scene = build_scene(&sparse, &TraceIndex::new(&sparse), &View::fit(10_000), &layout);
        assert_eq!(shafts(&scene), 10usize);
        // IPI arrows share their colour with the ipi overhead; their heads must still be drawn last.
        let heads = scene.fills.iter().position(|f| !f.tris.is_empty()).expect("arrowheads");
        assert!(heads >= scene.image_at && scene.spans.is_some());
        assert!(scene.fills[..scene.image_at].iter().all(|f| f.colour != IPI_ARROW));
        let dense = arrow_trace(500);
        let scene = build_scene(&dense, &TraceIndex::new(&dense), &View::fit(10_000), &layout);
        assert_eq!(shafts(&scene), 0usize);
        assert_eq!(scene.fills.iter().map(|f| f.tris.len()).sum::<usize>(), 0);
        // The arrivals are the last row of the image: lane 1's, 500 IPI columns.
        let img = scene.spans.expect("span image");
        let last = &img.rgba[img.rgba.len() - img.width * 4..];
        let ipi = hex_rgb(IPI_ARROW);
        let painted: Vec<usize> = (0..img.width).filter(|&c| last[c * 4 + 3] == 255).collect();
        assert_eq!(painted.len(), 500);
        assert!(painted.iter().all(|&c| last[c * 4..c * 4 + 3] == ipi));
    }

    #[test]
    fn the_span_image_holds_the_lod_colours_and_is_clear_elsewhere() {
        assert_eq!(hex_rgb("#0072B2"), [0x00, 0x72, 0xB2]);
        assert_eq!(hex_rgb("nonsense"), [0, 0, 0]);
        let spans = vec![
            run(0, 0, 500, 0),
            Span { core: 0, start: 500, end: 600, kind: SpanKind::Overhead { kind: Overhead::Tick } },
            Span { core: 1, start: 0, end: 1_000, kind: SpanKind::Idle { state: 1 } },
        ];
        let trace = trace_of(2, spans, 1_000);
        let layout = Layout::new(1_000.0 + GUTTER_CSS, 2, 1.0);
        let scene = build_scene(&trace, &TraceIndex::new(&trace), &View::fit(1_000), &layout);
        let img = scene.spans.expect("span image");
        let px = |row: usize, col: usize| {
            let o = (row * img.width + col) * 4;
            img.rgba[o..o + 4].to_vec()
        };
        let rgba = |hex: &str| [hex_rgb(hex).to_vec(), vec![255]].concat();
        assert_eq!(img.rows[0], layout.band(0, Band::Main));
        assert_eq!(img.rows[3], layout.band(1, Band::Overhead));
        assert_eq!(px(0, 10), rgba(TASK_COLOURS[0]));
        assert_eq!(px(0, 550), vec![0, 0, 0, 0]);
        assert_eq!(px(1, 550), rgba(OVERHEAD_COLOURS[overhead_index(Overhead::Tick)]));
        assert_eq!(px(1, 10), vec![0, 0, 0, 0]);
        assert_eq!(px(2, 999), rgba(IDLE_COLOURS[7])); // C6 is the deepest of POLL, C6
        assert_eq!(img.runs, 3);
    }

    #[test]
    fn the_dark_theme_changes_the_chrome_and_idle_shades_but_not_the_tasks() {
        let spans = vec![run(0, 0, 500, 0), Span { core: 1, start: 0, end: 1_000, kind: SpanKind::Idle { state: 1 } }];
        let trace = trace_of(2, spans, 1_000);
        let index = TraceIndex::new(&trace);
        let light = Layout::new(1_000.0 + GUTTER_CSS, 2, 1.0);
        let dark = light.themed(true);
        assert_ne!(light, dark, "a theme change invalidates the cached scene");
        let (ls, ds) = (
            build_scene(&trace, &index, &View::fit(1_000), &light),
            build_scene(&trace, &index, &View::fit(1_000), &dark),
        );
        assert_eq!(ls.fills[0].colour, LIGHT.background);
        assert_eq!(ds.fills[0].colour, DARK.background);
        assert!(ds.texts.iter().all(|t| t.colour == DARK.text), "every label is light on dark");
        let (li, di) = (ls.spans.expect("light image"), ds.spans.expect("dark image"));
        let px = |img: &SpanImage, row: usize, col: usize| img.rgba[(row * img.width + col) * 4..][..3].to_vec();
        assert_eq!(px(&li, 0, 10), px(&di, 0, 10), "a task keeps its colour");
        assert_eq!(px(&di, 2, 999), hex_rgb(DARK.idle[7]).to_vec(), "the deepest state recedes into the dark");
        // Deeper idle is closer to the background in both themes.
        let lum = |h: &str| hex_rgb(h).iter().map(|&c| c as u32).sum::<u32>();
        for chrome in [LIGHT, DARK] {
            let dist: Vec<u32> = chrome.idle.iter().map(|c| lum(c).abs_diff(lum(chrome.background))).collect();
            assert!(dist.windows(2).all(|w| w[0] <= w[1]) || dist.windows(2).all(|w| w[0] >= w[1]), "{dist:?}");
        }
    }

    #[test]
    fn axis_labels_stay_inside_the_canvas() {
        let trace = trace_of(1, vec![run(0, 0, 40 * MS, 0)], 40 * MS);
        let layout = Layout::new(600.0, 1, 2.0);
        let scene = build_scene(&trace, &TraceIndex::new(&trace), &View::fit(40 * MS), &layout);
        let labels: Vec<&Text> = scene.texts.iter().filter(|t| t.text.ends_with(" ms")).collect();
        assert!(labels.len() >= 3, "{labels:?}");
        for t in labels {
            let half = t.text.chars().count() as f64 * t.px * 0.3;
            assert!(t.x - half >= layout.gutter - 0.01 && t.x + half <= layout.width + 0.01, "{t:?}");
        }
    }

    #[test]
    fn summary_names_the_view() {
        let (trace, index, _, view) = hit_fixture();
        let s = summary(&trace, &index, &view, 5, "CFS");
        assert!(s.starts_with("CFS: timeline of 2 CPUs showing 0 ns to 1 µs of 1 µs; 5 spans"), "{s}");
        assert!(s.contains("tasks: t0, t1, t2"), "{s}");
    }

    #[test]
    fn legend_names_are_unique_and_lanes_are_projector_sized() {
        let mut names: Vec<String> = Overhead::ALL.iter().map(|k| overhead_label(*k).to_string()).collect();
        names.extend(MARK_LABELS.iter().map(|m| m.split(' ').next().unwrap().to_string()));
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "a name appears twice in the legend: {names:?}");
        assert_eq!(Layout::lane_css(2), 40.0);
        assert_eq!(Layout::lane_css(16), 40.0);
        assert!(Layout::lane_css(17) < 40.0 && Layout::lane_css(64) < Layout::lane_css(17));
        assert!(SPEEDS.iter().all(|(n, _)| !n.contains("us/")), "one unit style: µs");
    }

    #[test]
    fn the_png_legend_names_everything_and_keeps_the_caption_off_the_axis() {
        let trace = Trace {
            tasks: vec![TaskInfo { name: "ping".into(), group: "ping".into() }],
            idle_states: vec!["POLL".into(), "C1".into(), "C6".into()],
            end: 1_000,
            ..Default::default()
        };
        let index = TraceIndex::new(&trace);
        let layout = Layout::new(640.0, index.lanes, 2.0);
        let (h, sc) = png_legend(&trace, &index, &layout, layout.height, "schedscope · intro");
        assert!(h > 0.0);
        let texts: Vec<&str> = sc.texts.iter().map(|t| t.text.as_str()).collect();
        for want in ["ping", "C6", "tick handler", "tick", "schedscope · intro"] {
            assert!(texts.contains(&want), "{want} missing from {texts:?}");
        }
        // Everything is below the timeline (so below its axis labels) and inside the band.
        for t in &sc.texts {
            assert!(t.y > layout.height && t.y < layout.height + h, "{t:?}");
            assert!(t.x >= 0.0 && t.x <= layout.width, "{t:?}");
        }
        let caption = sc.texts.iter().find(|t| t.text.starts_with("schedscope")).unwrap();
        assert!(
            sc.texts.iter().filter(|t| t.text != caption.text).all(|t| t.y < caption.y),
            "the caption has its own line"
        );
    }

    #[test]
    fn idle_cores_collapse_into_one_lane_and_arrows_follow() {
        let run =
            |core: u16, start: Ns| Span { core, start, end: start + 10, kind: SpanKind::Run { task: 0, sys: false } };
        let idle = |core: u16| Span { core, start: 0, end: 100, kind: SpanKind::Idle { state: 0 } };
        let mut trace = Trace {
            cores: 5,
            tasks: vec![TaskInfo { name: "t".into(), group: "t".into() }],
            idle_states: vec!["POLL".into()],
            spans: vec![run(1, 0), idle(0), idle(2), run(3, 20), idle(4)],
            end: 100,
            ..Default::default()
        };
        trace.instants.push(Instant { core: 3, time: 20, kind: InstantKind::Wakeup { from: 1, task: 0 } });
        let index = TraceIndex::new(&trace).collapse_idle();
        assert_eq!(index.lanes, 3);
        assert_eq!(index.lane_names, vec!["CPU 1", "CPU 3", "3 idle"]);
        assert_eq!(index.collapsed, vec![0, 2, 4]);
        assert_eq!(index.lane_of_core, vec![2, 0, 2, 1, 2]);
        assert_eq!((TraceIndex::lanes_shown(&trace, true), TraceIndex::lanes_shown(&trace, false)), (3, 5));
        let m = lane_marks(&trace, &index, 1, &View::fit(100), 100, MAX_ARROWS);
        assert_eq!((m.arrows[0].from, m.arrows[0].to), (0, 1), "CPU 1 -> CPU 3 is lane 0 -> lane 1");
        let layout = Layout::new(640.0, index.lanes, 1.0);
        let sc = build_scene(&trace, &index, &View::fit(100), &layout);
        assert!(sc.texts.iter().any(|t| t.text == "3 idle"));
        // One idle core is not worth a lane of its own: nothing changes.
        let one = Trace { spans: vec![run(0, 0), idle(1)], cores: 2, ..trace.clone() };
        assert_eq!(TraceIndex::new(&one).collapse_idle().lanes, 2);
    }

    #[test]
    fn the_play_cursor_reads_the_time_and_what_each_cpu_runs() {
        let trace = Trace {
            cores: 2,
            tasks: vec![TaskInfo { name: "ping".into(), group: "ping".into() }],
            idle_states: vec!["POLL".into(), "C6".into()],
            spans: vec![
                Span { core: 0, start: 0, end: 500, kind: SpanKind::Run { task: 0, sys: false } },
                Span { core: 1, start: 0, end: 1_000, kind: SpanKind::Idle { state: 1 } },
            ],
            end: 1_000,
            ..Default::default()
        };
        let index = TraceIndex::new(&trace);
        let layout = Layout::new(640.0, index.lanes, 1.0);
        let sc = play_cursor(&trace, &index, &layout, 250.0, 300.0, true);
        let texts: Vec<&str> = sc.texts.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.contains(&"ping") && texts.contains(&"idle C6"), "{texts:?}");
        assert!(texts.iter().any(|t| t.contains("ns")), "a time readout: {texts:?}");
        assert!(sc.fills.iter().any(|f| f.colour.starts_with("rgba")), "the unplayed part is veiled");
        let paused = play_cursor(&trace, &index, &layout, 250.0, 300.0, false);
        assert!(!paused.fills.iter().any(|f| f.colour.starts_with("rgba")));
    }
}
