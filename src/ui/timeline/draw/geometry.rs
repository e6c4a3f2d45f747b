//! The timeline's geometry: the visible window (`View`, zoom and pan), where lanes and bands
//! go in device pixels (`Layout`), and the time axis's ticks.

use crate::engine::decimal::Within as _;

use super::*;

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
        let len = self.len().within(MIN_SPAN_NS.min(end_f), end_f);
        let t0 = self.t0.within(0.0, end_f - len);
        View { t0, t1: t0 + len }
    }

    /// Zooms by `factor` (<1 zooms in) keeping the time under `frac` fixed, unless that
    /// would leave the trace or pass the zoom limits.
    pub fn zoom_at(self, factor: f64, frac: f64, end: Ns) -> View {
        let factor = if factor.is_finite() && factor > 0.0 { factor } else { 1.0 };
        let frac = if frac.is_finite() { frac.within(0.0, 1.0) } else { 0.5 };
        let end_f = end.max(1) as f64;
        let anchor = self.time_at(frac);
        let len = (self.len() * factor).within(MIN_SPAN_NS.min(end_f), end_f);
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
    /// Text and lanes at this many times their CSS size (`ui_scale`: larger on a wide screen).
    pub ui: f64,
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
        Self::scaled(css_width, lanes, dpr, 1.0)
    }

    /// Text and lanes a little larger on a wide canvas, so a projected timeline reads from
    /// the back of the room: 1 up to a 1,100 CSS px canvas, growing with its width, at most
    /// 1.6 (a 1920 px screen's results column, about 1,500 px, gives 1.36).
    pub fn ui_scale(css_width: f64) -> f64 {
        if css_width.is_finite() {
            (css_width / 1100.0).within(1.0, 1.6)
        } else {
            1.0
        }
    }

    /// A layout whose text, gutter, axis and lanes are `ui` times their CSS size.
    pub fn scaled(css_width: f64, lanes: usize, dpr: f64, ui: f64) -> Layout {
        let dpr = if dpr.is_finite() && dpr > 0.0 { dpr.within(0.5, 4.0) } else { 1.0 };
        let ui = if ui.is_finite() { ui.within(1.0, 2.0) } else { 1.0 };
        let css_width = if css_width.is_finite() { css_width.within(GUTTER_CSS + 20.0, 16_384.0) } else { 800.0 };
        let s = dpr * ui;
        Layout {
            dpr,
            width: (css_width * dpr).round(),
            height: (Self::css_height(lanes) * s).round(),
            gutter: (GUTTER_CSS * s).round(),
            axis_h: (AXIS_CSS * s).round(),
            lane_h: Self::lane_css(lanes) * s,
            lanes: lanes.max(1),
            ui,
            chrome: &LIGHT,
        }
    }

    /// Device pixels per scaled CSS pixel: what text, marks and padding are sized by.
    pub fn px(&self) -> f64 {
        self.dpr * self.ui
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

pub(super) const UNITS: [(Ns, &str); 4] = [(SEC, "s"), (MS, "ms"), (US, "µs"), (1, "ns")];

/// The largest unit not above `t` (ns for anything below a microsecond).
pub(super) fn unit_for(t: Ns) -> (Ns, &'static str) {
    UNITS.into_iter().find(|(u, _)| *u <= t).unwrap_or((1, "ns"))
}

/// Decimals needed to print multiples of `step` in `unit` exactly.
pub(super) fn decimals(step: Ns, unit: Ns) -> usize {
    let mut d = 0;
    let mut q = unit;
    while step % q != 0 && q >= 10 {
        q /= 10;
        d += 1;
    }
    d
}

pub(super) fn fmt_in(t: Ns, unit: Ns, name: &str, d: usize) -> String {
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
