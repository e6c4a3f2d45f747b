//! SVG plots drawn by yew (no chart library): the sweep of the main result across one knob,
//! and the distribution view (wakeup-latency histogram or C-state residency bars).
//!
//! Geometry is computed by pure functions (`Frame`) so axes and ticks are tested natively.

use crate::engine::decimal::Within as _;

use yew::prelude::*;

use crate::engine::config::key_doc;
use crate::engine::decimal::shortest;
use crate::engine::metrics::Metrics;
use crate::engine::time::parse_duration;

use crate::engine::order;
use crate::ui::app::state::DistMode;
use crate::ui::common::format::{duration, key_value, num};
use crate::ui::common::palette::{idle_color, IDLE_OUTLINE, SERIES_A, SERIES_B};
use crate::ui::common::scale::{linear_ticks, log_ticks};
use crate::ui::sweep::model::Sweep;

const W: f64 = 560.0;
const H: f64 = 250.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 46.0;

/// Maps data to the plot area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub x0: f64,
    pub x1: f64,
    pub xlog: bool,
    pub y0: f64,
    pub y1: f64,
}

impl Frame {
    pub fn x(&self, v: f64) -> f64 {
        let f = if self.xlog {
            let (a, b) = (self.x0.max(f64::MIN_POSITIVE).ln(), self.x1.max(f64::MIN_POSITIVE).ln());
            if b > a {
                (v.max(f64::MIN_POSITIVE).ln() - a) / (b - a)
            } else {
                0.5
            }
        } else if self.x1 > self.x0 {
            (v - self.x0) / (self.x1 - self.x0)
        } else {
            0.5
        };
        LEFT + f.within(0.0, 1.0) * (W - LEFT - RIGHT)
    }

    pub fn y(&self, v: f64) -> f64 {
        let f = if self.y1 > self.y0 { (v - self.y0) / (self.y1 - self.y0) } else { 0.0 };
        H - BOTTOM - f.within(0.0, 1.0) * (H - TOP - BOTTOM)
    }
}

/// The y range for values: from 0 (or the minimum, if negative) to a nice maximum.
pub fn y_range(ys: &[f64]) -> (f64, f64) {
    let max = ys.iter().copied().filter(|y| y.is_finite()).fold(0.0, f64::max);
    let min = ys.iter().copied().filter(|y| y.is_finite()).fold(0.0, f64::min);
    if max <= min {
        return (0.0, 1.0);
    }
    let ticks = linear_ticks(min, max, 4);
    let step = if ticks.len() >= 2 { ticks[1] - ticks[0] } else { max - min };
    let top = ticks.last().copied().unwrap_or(max);
    (min, if top < max { top + step } else { top })
}

/// The y range of a result curve: from zero when the values vary a lot, else zoomed to the
/// values (with a margin, ends on ticks) so a 5% effect is visible rather than a flat line.
pub fn y_range_fit(ys: &[f64]) -> (f64, f64) {
    let v: Vec<f64> = ys.iter().copied().filter(|y| y.is_finite()).collect();
    let (min, max) = (v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(0.0, f64::max));
    if v.is_empty() || min <= 0.0 || min < 0.5 * max {
        return y_range(ys);
    }
    let pad = ((max - min) * 0.15).max(max * 0.01);
    let (lo, hi) = (min - pad, max + pad);
    let ticks = linear_ticks(lo, hi, 4);
    let step = if ticks.len() >= 2 { ticks[1] - ticks[0] } else { hi - lo };
    (((lo / step).floor() * step).max(0.0), (hi / step).ceil() * step)
}

/// One step of an SVG path through points: `M` to the first, `L` to the others, at 0.1 px.
pub fn path_step(i: usize, x: f64, y: f64) -> String {
    let (x, y) = (crate::engine::decimal::fixed(x, 1), crate::engine::decimal::fixed(y, 1));
    format!("{}{x},{y}", if i == 0 { "M" } else { "L" })
}

/// A bin bound as a short label: two significant digits below 100 (`1.5`, `0.082`), whole
/// numbers above (`164`, `1,943`).
pub fn bin_label(x: f64) -> String {
    if !x.is_finite() || x == 0.0 || x.abs() >= 100.0 {
        return short(x.round());
    }
    let decimals = (1 - x.abs().log10().floor() as i32).max(0) as usize;
    let s = crate::engine::decimal::fixed(x, decimals);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn y_axis(frame: &Frame, unit: &str) -> Html {
    let ticks = linear_ticks(frame.y0, frame.y1, 4);
    html! {
        <g class="axis y">
            <line x1={shortest(LEFT)} x2={shortest(LEFT)} y1={shortest(TOP)} y2={shortest(H - BOTTOM)} />
            { for ticks.iter().map(|t| {
                let y = frame.y(*t);
                html! { <g>
                    <line class="grid" x1={shortest(LEFT)} x2={shortest(W - RIGHT)} y1={shortest(y)} y2={shortest(y)} />
                    <text x={shortest(LEFT - 6.0)} y={shortest(y + 4.0)} text-anchor="end">{y_tick(*t)}</text>
                </g> }
            }) }
            <text class="label" transform={format!("translate(14 {}) rotate(-90)", shortest((TOP + H - BOTTOM) / 2.0))}
                text-anchor="middle">{unit.to_string()}</text>
        </g>
    }
}

/// A y axis with `yunit` and an x axis with linear ticks and `xlabel` (the Pareto view).
pub fn axes(frame: &Frame, yunit: &str, xlabel: &str) -> Html {
    let ticks = linear_ticks(frame.x0, frame.x1, 5);
    html! { <>
        { y_axis(frame, yunit) }
        <g class="axis x">
            <line x1={shortest(LEFT)} x2={shortest(W - RIGHT)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM)} />
            { for ticks.iter().map(|v| { let x = frame.x(*v); html! { <g>
                <line x1={shortest(x)} x2={shortest(x)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM + 5.0)} />
                <text x={shortest(x)} y={shortest(H - BOTTOM + 17.0)} text-anchor="middle">{y_tick(*v)}</text>
            </g> } }) }
        </g>
        { x_label(xlabel.to_string()) }
    </> }
}

fn x_label(text: String) -> Html {
    html! { <text class="label" x={shortest((LEFT + W - RIGHT) / 2.0)} y={shortest(H - 6.0)} text-anchor="middle">{text}</text> }
}

/// Width of one character of an 11 px tick label, in the plot's viewBox units (a little
/// over the average of a sans-serif face, so labels estimated to fit do fit).
const TICK_CHAR_W: f64 = 6.4;

/// How a categorical axis's labels fit their slots: on one row, alternating between two rows
/// (each label then has two slots), or cut to `max_chars` with the full name in its title.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickFit {
    pub two_rows: bool,
    pub max_chars: Option<usize>,
}

impl TickFit {
    /// The fit of `labels`, each centred in a slot `slot` units wide: two labels `k` slots
    /// apart on one row need half of each one's width within `k` slots.
    pub fn of<'a>(labels: impl Iterator<Item = &'a str>, slot: f64) -> TickFit {
        let w: Vec<f64> = labels.map(|l| l.chars().count() as f64 * TICK_CHAR_W).collect();
        let fits = |k: usize| w.windows(k + 1).all(|p| (p[0] + p[k]) / 2.0 <= k as f64 * slot - 6.0);
        if fits(1) {
            return TickFit::default();
        }
        let max_chars = (!fits(2)).then(|| (((2.0 * slot - 6.0) / TICK_CHAR_W).floor() as usize).max(2));
        TickFit { two_rows: true, max_chars }
    }
}

/// Label `i`'s row (0 or 1) and its shown text under `fit`.
fn tick_fit(label: &str, i: usize, fit: &TickFit) -> (f64, String) {
    let row = if fit.two_rows && i % 2 == 1 { 1.0 } else { 0.0 };
    let shown = match fit.max_chars {
        Some(n) if label.chars().count() > n => label.chars().take(n - 1).chain(['…']).collect(),
        _ => label.to_string(),
    };
    (row, shown)
}

#[derive(Properties, PartialEq)]
pub struct SweepPlotProps {
    pub sweep: std::rc::Rc<Sweep>,
    /// The pinned A curve is not swept; this is only the current config.
    #[prop_or_default]
    pub title: AttrValue,
    /// The figure on the y axis (`engine::metrics::value`); the main result by default.
    #[prop_or_else(|| AttrValue::from("throughput"))]
    pub metric: AttrValue,
    /// The pinned A's value of `metric` (its mean over seeds when the main figures are a
    /// mean), drawn as a dashed level across the plot so B's curve reads against it.
    #[prop_or_default]
    pub a_value: Option<f64>,
}

/// The main result across the range of one knob, filled point by point.
#[function_component(SweepPlot)]
pub fn sweep_plot(props: &SweepPlotProps) -> Html {
    let sw = &props.sweep;
    let doc = key_doc(sw.key);
    let is_dur = doc.is_some_and(|d| matches!(d.kind, crate::engine::config::KeyKind::Duration { .. }));
    let all_stats = crate::ui::sweep::model::cell_stats(sw, &props.metric);
    let ys: Vec<Option<f64>> = all_stats.iter().map(|s| s.map(|s| s.mean)).collect();
    // A cell stopped at the sweep's budget is a partial run: not drawn as a result.
    let cut = crate::ui::sweep::model::cut_cells(sw);
    let stats: Vec<Option<_>> = all_stats.iter().zip(&cut).map(|(s, c)| s.filter(|_| !c)).collect();
    let drawn: Vec<Option<f64>> = stats.iter().map(|s| s.map(|s| s.mean)).collect();
    let every_cut = cut.iter().zip(&all_stats).filter(|(_, s)| s.is_some()).all(|(c, _)| *c)
        && all_stats.iter().any(Option::is_some);
    let a_value = props.a_value.filter(|v| v.is_finite());
    let known: Vec<f64> = stats.iter().flatten().flat_map(|s| [s.min, s.max]).chain(a_value).collect();
    let (y0, y1) = y_range_fit(&known);
    let n = sw.values.len();
    let current = sw.base.get(sw.key).unwrap_or_default();
    // Numeric x, or the index of a category.
    let (xs, frame): (Vec<f64>, Frame) = match &sw.xs {
        Some(xs) => {
            let (lo, hi) = (xs.first().copied().unwrap_or(0.0), xs.last().copied().unwrap_or(1.0));
            (xs.clone(), Frame { x0: lo, x1: hi, xlog: sw.log, y0, y1 })
        }
        None => ((0..n).map(|i| i as f64).collect(), Frame { x0: -0.5, x1: n as f64 - 0.5, xlog: false, y0, y1 }),
    };
    let cur_x: Option<f64> = match &sw.xs {
        Some(_) if is_dur => parse_duration(&current).ok().map(|v| v as f64),
        Some(_) => current.parse::<f64>().ok(),
        None => sw.values.iter().position(|v| *v == current).map(|i| i as f64),
    };
    let path: String = xs
        .iter()
        .zip(&drawn)
        .filter_map(|(x, y)| y.map(|y| (frame.x(*x), frame.y(y))))
        .enumerate()
        .map(|(i, (x, y))| path_step(i, x, y))
        .collect();
    let x_ticks: Vec<(f64, String)> = match &sw.xs {
        Some(_) => {
            let t = if sw.log { log_ticks(frame.x0, frame.x1) } else { linear_ticks(frame.x0, frame.x1, 5) };
            t.into_iter().map(|v| (v, if is_dur { duration(v as u64) } else { short(v) })).collect()
        }
        None => sw.values.iter().enumerate().map(|(i, v)| (i as f64, v.clone())).collect(),
    };
    let fit = match &sw.xs {
        Some(_) => TickFit::default(),
        None => TickFit::of(x_ticks.iter().map(|(_, t)| t.as_str()), (W - LEFT - RIGHT) / n.max(1) as f64),
    };
    // The min-max band of the replicas: along the maxima, back along the minima.
    let band: String = if sw.replicas > 1 {
        let pts: Vec<(f64, f64, f64)> = xs
            .iter()
            .zip(&stats)
            .filter_map(|(x, s)| s.map(|s| (frame.x(*x), frame.y(s.min), frame.y(s.max))))
            .collect();
        let top = pts.iter().map(|(x, _, hi)| (*x, *hi));
        let bottom = pts.iter().rev().map(|(x, lo, _)| (*x, *lo));
        let d: String = top.chain(bottom).enumerate().map(|(i, (x, y))| path_step(i, x, y)).collect();
        if d.is_empty() {
            d
        } else {
            d + "Z"
        }
    } else {
        String::new()
    };
    let (done, n) = (sw.done(), sw.jobs());
    let sample = sw.points.iter().flatten().next().map(|m| m.as_ref());
    let (mlabel, munit) = crate::engine::metrics::label_unit(&props.metric, sample);
    let munit = if props.metric.as_str() == "throughput" && munit.is_empty() { sw.unit.clone() } else { munit };
    let unit = if munit.is_empty() { mlabel.clone() } else { munit };
    let label = format!("{} across {}", crate::ui::common::format::with_unit(&mlabel, &unit), sw.key);
    html! {
        <figure class="plot sweep" data-sweep-key={sw.key} data-metric={props.metric.clone()}
            data-ys={ys.iter().map(|y| y.map(shortest).unwrap_or_default()).collect::<Vec<_>>().join(",")}
            data-cut={cut.iter().map(|c| if *c { "1" } else { "0" }).collect::<Vec<_>>().join(",")}>
            <figcaption>
                <span>{format!("{} across ", capitalize(&mlabel))}<code>{sw.key}</code>
                    if sw.replicas > 1 { {format!(" · mean of {} seeds, band min–max", sw.replicas)} }{if sw.log { " (log scale)" } else { "" }}
                    if a_value.is_some() { <span class="key a">{" · dashed: A (pinned)"}</span> }
                    if y0 > 0.0 { <span class="zoomed">{format!(" · y axis from {}", short(y0))}</span> }</span>
                if done < n {
                    <span class="progress" role="status">
                        <progress max={n.to_string()} value={done.to_string()}></progress>
                        {format!(" {done}/{n}")}
                    </span>
                }
            </figcaption>
            <svg viewBox={format!("0 0 {} {}", shortest(W), shortest(H))} role="img" aria-label={label}>
                { y_axis(&frame, &unit) }
                <g class="axis x">
                    <line x1={shortest(LEFT)} x2={shortest(W - RIGHT)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM)} />
                    { for x_ticks.iter().enumerate().map(|(i, (v, t))| { let x = frame.x(*v);
                        let (row, shown) = tick_fit(t, i, &fit);
                        let cut_label = shown != *t;
                        html! { <g>
                        <line x1={shortest(x)} x2={shortest(x)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM + 5.0 + row * 12.0)} />
                        <text class={classes!((row > 0.0).then_some("row2"))} x={shortest(x)} y={shortest(H - BOTTOM + 17.0 + row * 12.0)} text-anchor="middle">{shown}
                            if cut_label { <title>{t.clone()}</title> }</text>
                    </g> } }) }
                </g>
                { x_label(doc.map(|d| format!("{} ({})", sw.key, key_value(d, &current))).unwrap_or_default()) }
                if let Some(cx) = cur_x {
                    <line class="marker" x1={shortest(frame.x(cx))} x2={shortest(frame.x(cx))}
                        y1={shortest(TOP)} y2={shortest(H - BOTTOM)} />
                }
                if !band.is_empty() { <path class="band" d={band} fill={SERIES_B} fill-opacity="0.18" stroke="none" /> }
                if let Some(av) = a_value {
                    <g class="a-level" data-a-value={shortest(av)}>
                        <line x1={shortest(LEFT)} x2={shortest(W - RIGHT)} y1={shortest(frame.y(av))} y2={shortest(frame.y(av))}
                            stroke={SERIES_A} stroke-dasharray="6 4" stroke-width="1.5" />
                        <text x={shortest(W - RIGHT - 4.0)} y={shortest(frame.y(av) - 5.0)} text-anchor="end" fill={SERIES_A}>{"A (pinned)"}</text>
                    </g>
                }
                <path class="curve" d={path} stroke={SERIES_B} />
                { for xs.iter().zip(&drawn).zip(ys.iter().zip(&cut)).map(|((x, y), (partial, c))| match (y, partial) {
                    (Some(y), _) => html! { <circle cx={shortest(frame.x(*x))} cy={shortest(frame.y(*y))} r="3" fill={SERIES_B} /> },
                    (None, Some(v)) if *c => html! { <circle class="cut" cx={shortest(frame.x(*x))} cy={shortest(H - BOTTOM)} r="4"
                        fill="none" stroke={SERIES_B}><title>{format!("stopped at the sweep's budget: {} is a partial run's figure, not a result", num(*v))}</title></circle> },
                    _ => html! { <circle class="pending" cx={shortest(frame.x(*x))} cy={shortest(H - BOTTOM)} r="2" /> },
                }) }
                if every_cut {
                    <text class="no-result" x={shortest((LEFT + W - RIGHT) / 2.0)} y={shortest((TOP + H - BOTTOM) / 2.0)} text-anchor="middle">
                        {"No whole-run figure: every point stopped at the sweep's budget"}</text>
                }
            </svg>
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct DistPlotProps {
    pub mode: DistMode,
    pub metrics: Metrics,
    /// A's metrics when comparing (drawn beside B).
    #[prop_or_default]
    pub a: Option<Metrics>,
}

/// `text` with its first letter upper case.
pub fn capitalize(text: &str) -> String {
    let mut c = text.chars();
    c.next().map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect()).unwrap_or_default()
}

/// A compact number for tick labels: `1`, `2.5`, `0.25`, `1,000`.
pub fn short(x: f64) -> String {
    let s = num(x);
    if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A y tick label that fits left of the axis beside the rotated unit: `600k`, `1.5M` from
/// 10,000 up (`600,000` ran into the unit), `short` below.
pub fn y_tick(x: f64) -> String {
    let a = x.abs();
    if !x.is_finite() || a < 10_000.0 {
        return short(x);
    }
    let (v, suffix) = if a >= 1e9 {
        (x / 1e9, "G")
    } else if a >= 1e6 {
        (x / 1e6, "M")
    } else {
        (x / 1e3, "k")
    };
    format!("{}{suffix}", short((v * 100.0).round() / 100.0))
}

/// Bars: (label, value) of one run.
pub fn dist_bars(mode: DistMode, m: &Metrics) -> Vec<(String, f64)> {
    match mode {
        DistMode::Latency => {
            m.wakeup_latency_hist.iter().map(|(hi, c)| (format!("≤{}", bin_label(*hi)), *c as f64)).collect()
        }
        DistMode::CStates => {
            let mut bars: Vec<(String, f64)> = m.cstate_residency.iter().map(|(k, v)| (k.clone(), v * 100.0)).collect();
            order::sort_by_key(&mut bars, |(name, _)| idle_depth_key(name));
            bars
        }
    }
}

/// Orders idle state names from shallow to deep: POLL, then `C<n><suffix>` by n and suffix
/// (C1, C1E, C3, C6, C10), anything else last by name.
pub fn idle_depth_key(name: &str) -> (u32, String) {
    if name == "POLL" {
        return (0, String::new());
    }
    let digits: String = name.strip_prefix('C').unwrap_or("").chars().take_while(char::is_ascii_digit).collect();
    match digits.parse::<u32>() {
        Ok(n) => (n.saturating_add(1), name[1 + digits.len()..].to_string()),
        Err(_) => (u32::MAX, name.to_string()),
    }
}

/// The x categories of B's bars and A's: latency bins in the order of their bounds (A's bins
/// between B's, not after them), idle states from shallow to deep (`idle_depth_key`).
pub fn dist_categories(mode: DistMode, b: &Metrics, a: Option<&Metrics>) -> Vec<String> {
    let mut cats: Vec<String> = Vec::new();
    let mut push = |l: String| {
        if !cats.contains(&l) {
            cats.push(l);
        }
    };
    match mode {
        DistMode::Latency => {
            let mut bounds: Vec<f64> = b
                .wakeup_latency_hist
                .iter()
                .chain(a.iter().flat_map(|a| &a.wakeup_latency_hist))
                .map(|(hi, _)| *hi)
                .collect();
            order::sort_by(&mut bounds, f64::total_cmp);
            for hi in bounds {
                push(format!("≤{}", bin_label(hi)));
            }
        }
        DistMode::CStates => {
            for m in std::iter::once(b).chain(a) {
                for (l, _) in dist_bars(mode, m) {
                    push(l);
                }
            }
            order::sort_by_key(&mut cats, |name| idle_depth_key(name));
        }
    }
    cats
}

/// A and B's bars of one category: centred this many slots either side of it, this many
/// slots wide, so a pair nearly touches and pairs stand apart (at ±0.25 and 0.38 wide the
/// gaps inside and between pairs were equal: the bars read as interleaved).
const PAIR_OFFSET: f64 = 0.2;
const PAIR_WIDTH: f64 = 0.36;

/// Wakeup-latency histogram or C-state residency, as bars.
#[function_component(DistPlot)]
pub fn dist_plot(props: &DistPlotProps) -> Html {
    let b = dist_bars(props.mode, &props.metrics);
    let a = props.a.as_ref().map(|m| dist_bars(props.mode, m));
    let (unit, xl, empty) = match props.mode {
        DistMode::Latency => ("wakeups", "wakeup latency (µs, upper bound of bin)", "No wakeups were measured."),
        DistMode::CStates => ("% of idle time", "idle state", "No idle time was measured."),
    };
    if b.is_empty() && a.as_ref().is_none_or(|a| a.is_empty()) {
        return html! { <figure class="plot dist empty"><p class="empty">{empty}</p></figure> };
    }
    let cats = dist_categories(props.mode, &props.metrics, props.a.as_ref());
    let all: Vec<f64> = b.iter().chain(a.iter().flatten()).map(|(_, v)| *v).collect();
    let (y0, y1) = y_range(&all);
    let frame = Frame { x0: -0.5, x1: cats.len() as f64 - 0.5, xlog: false, y0, y1 };
    let slot = (W - LEFT - RIGHT) / cats.len().max(1) as f64;
    type Series<'a> = (&'a Vec<(String, f64)>, &'a str, f64);
    let series: Vec<Series> = match &a {
        Some(a) => vec![(a, SERIES_A, -PAIR_OFFSET), (&b, SERIES_B, PAIR_OFFSET)],
        None => vec![(&b, "", 0.0)],
    };
    let bw = slot * if a.is_some() { PAIR_WIDTH } else { 0.7 };
    // Idle states are shaded by depth as on the timeline (POLL lightest), counting POLL
    // even when it is not among the bars.
    let poll_missing = u8::from(cats.first().is_none_or(|c| c != "POLL"));
    let n_states = (cats.len() as u8).saturating_add(poll_missing);
    html! {
        <figure class="plot dist">
            if a.is_some() {
                <figcaption class="legend"><span class="key a">{"A (pinned)"}</span><span class="key b">{"B (current)"}</span></figcaption>
            }
            <svg viewBox={format!("0 0 {} {}", shortest(W), shortest(H))} role="img" aria-label={format!("{xl}: {unit}")}>
                { y_axis(&frame, unit) }
                <line class="axis-line" x1={shortest(LEFT)} x2={shortest(W - RIGHT)} y1={shortest(H - BOTTOM)} y2={shortest(H - BOTTOM)} />
                { for series.iter().flat_map(|(data, colour, off)| { let cats = &cats; data.iter().map(move |(l, v)| {
                    let i = cats.iter().position(|c| c == l).unwrap_or(0);
                    let cx = frame.x(i as f64) + off * slot;
                    let fill = if colour.is_empty() {
                        match props.mode { DistMode::CStates => idle_color(i as u8 + poll_missing, n_states), DistMode::Latency => SERIES_B.to_string() }
                    } else { colour.to_string() };
                    let (yt, yb) = (frame.y(*v), frame.y(y0.max(0.0)));
                    html! { <rect x={shortest(cx - bw / 2.0)} y={shortest(yt)} width={shortest(bw)}
                        height={shortest((yb - yt).max(0.0))} fill={fill}
                        stroke={(props.mode == DistMode::CStates && colour.is_empty()).then_some(IDLE_OUTLINE)} stroke-width="0.8"><title>{format!("{l}: {}", num(*v))}</title></rect> }
                }) }) }
                // At most about eight labels, so they never run into each other.
                { for cats.iter().enumerate().filter(|(i, _)| i % cats.len().div_ceil(8).max(1) == 0).map(|(i, c)| html! {
                    <text x={shortest(frame.x(i as f64))} y={shortest(H - BOTTOM + 17.0)} text-anchor="middle">{c.clone()}</text>
                }) }
                { x_label(xl.to_string()) }
            </svg>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_states_go_shallow_to_deep_with_the_timeline_shades() {
        let mut names = vec!["C6", "POLL", "C1E", "C10", "C3", "C1", "X"];
        names.sort_by_key(|n| idle_depth_key(n));
        assert_eq!(names, ["POLL", "C1", "C1E", "C3", "C6", "C10", "X"]);
        let mut m = Metrics::default();
        for (k, v) in [("C6", 0.5), ("POLL", 0.1), ("C1", 0.4)] {
            m.cstate_residency.insert(k.to_string(), v);
        }
        let bars: Vec<String> = dist_bars(DistMode::CStates, &m).into_iter().map(|(l, _)| l).collect();
        assert_eq!(bars, ["POLL", "C1", "C6"], "not alphabetical (POLL last)");
        assert_eq!(dist_categories(DistMode::CStates, &m, None), bars);
        assert_eq!(
            crate::ui::common::palette::idle_color(0, 3),
            crate::ui::timeline::draw::IDLE_COLOURS[crate::ui::timeline::draw::idle_shade(0, 3) as usize]
        );
    }

    #[test]
    fn a_and_b_bars_come_in_pairs() {
        let inside = 2.0 * PAIR_OFFSET - PAIR_WIDTH;
        let between = 1.0 - 2.0 * PAIR_OFFSET - PAIR_WIDTH;
        assert!(inside >= 0.0, "A and B do not overlap");
        assert!(between >= 4.0 * inside, "pairs stand apart: {inside} inside a pair, {between} between pairs");
    }

    #[test]
    fn frames_map_ends_to_the_plot_area() {
        let f = Frame { x0: 1.0, x1: 1000.0, xlog: true, y0: 0.0, y1: 10.0 };
        assert_eq!(f.x(1.0), LEFT);
        assert_eq!(f.x(1000.0), W - RIGHT);
        assert!((f.x(31.6227766) - (LEFT + (W - LEFT - RIGHT) / 2.0)).abs() < 0.01, "log midpoint");
        assert_eq!(f.y(0.0), H - BOTTOM);
        assert_eq!(f.y(10.0), TOP);
        assert_eq!(f.y(99.0), TOP, "clamped");
        let flat = Frame { x0: 5.0, x1: 5.0, xlog: false, y0: 0.0, y1: 0.0 };
        assert!(flat.x(5.0).is_finite() && flat.y(5.0).is_finite());
    }

    #[test]
    fn y_ranges_start_at_zero_and_end_on_a_tick() {
        assert_eq!(y_range(&[]), (0.0, 1.0));
        assert_eq!(y_range(&[0.0, 0.0]), (0.0, 1.0), "all-zero (stub engine) runs still draw");
        assert_eq!(y_range(&[3.0, 7.3]), (0.0, 8.0));
        assert_eq!(y_range(&[f64::NAN, 4.0]), (0.0, 4.0));
    }

    #[test]
    fn result_curves_zoom_in_on_small_effects_and_start_at_zero_on_large_ones() {
        let (lo, hi) = y_range_fit(&[33.72, 34.01, 35.27]);
        assert!(lo > 20.0 && lo < 33.72 && hi > 35.27 && hi < 40.0, "{lo}..{hi}");
        assert_eq!(y_range_fit(&[1.0, 10.0]), y_range(&[1.0, 10.0]), "a 10x spread starts at 0");
        assert_eq!(y_range_fit(&[]), (0.0, 1.0));
        let (lo, hi) = y_range_fit(&[5.0, 5.0]);
        assert!(lo < 5.0 && hi > 5.0, "a flat curve still gets a range around it: {lo}..{hi}");
    }

    #[test]
    fn large_y_ticks_get_a_suffix_and_small_ones_stay_as_they_are() {
        assert_eq!(y_tick(600_000.0), "600k");
        assert_eq!(y_tick(12_500.0), "12.5k");
        assert_eq!(y_tick(1_500_000.0), "1.5M");
        assert_eq!(y_tick(2e9), "2G");
        assert_eq!(y_tick(9_000.0), "9,000");
        assert_eq!(y_tick(17.2), "17.2");
        assert_eq!(y_tick(0.0), "0");
        assert_eq!(y_tick(-20_000.0), "-20k");
    }

    #[test]
    fn latency_bins_of_a_and_b_are_ordered_by_their_bounds() {
        let b = Metrics { wakeup_latency_hist: vec![(1.0, 5), (2.0, 1), (14.0, 2)], ..Default::default() };
        let a = Metrics { wakeup_latency_hist: vec![(1.5, 5), (2.0, 3), (3.6, 2)], ..Default::default() };
        assert_eq!(dist_categories(DistMode::Latency, &b, Some(&a)), ["≤1", "≤1.5", "≤2", "≤3.6", "≤14"]);
        assert_eq!(dist_categories(DistMode::Latency, &b, None), ["≤1", "≤2", "≤14"]);
        let mut c = Metrics::default();
        c.cstate_residency.insert("C6".into(), 0.5);
        let mut d = Metrics::default();
        d.cstate_residency.insert("C1".into(), 0.5);
        d.cstate_residency.insert("C6".into(), 0.5);
        assert_eq!(dist_categories(DistMode::CStates, &c, Some(&d)), ["C1", "C6"], "by depth, whoever has it");
    }

    #[test]
    fn bin_labels_are_short() {
        assert_eq!(bin_label(1.024), "1");
        assert_eq!(bin_label(1.536), "1.5");
        assert_eq!(bin_label(0.0816), "0.082");
        assert_eq!(bin_label(163.8), "164");
        assert_eq!(bin_label(1943.2), "1,943");
    }

    #[test]
    fn distribution_bars_come_from_the_metrics() {
        let mut m = Metrics { wakeup_latency_hist: vec![(1.0, 5), (10.0, 2)], ..Default::default() };
        m.cstate_residency.insert("C1".into(), 0.25);
        assert_eq!(dist_bars(DistMode::Latency, &m), vec![("≤1".to_string(), 5.0), ("≤10".to_string(), 2.0)]);
        assert_eq!(dist_bars(DistMode::CStates, &m), vec![("C1".to_string(), 25.0)]);
    }
}
