//! The sweep panel: which metric the sweep plots (any of `engine::metrics::NAMED`), a
//! second knob (a 2-D sweep drawn as a heatmap), replicas over seeds (a min-max band), a
//! Pareto view of two metrics, and why a flat sweep is flat (`engine::knobs`).
//!
//! The plan and its figures are the pure `model` (`Sweep`, cells row-major, replicas after
//! the cells; a view, `share::url::SweepView`, turned into a plan; a plan's answers into
//! figures); this module draws them. The points run on a pool of workers (`worker::pool`).
//!
//! The panel is drawn by the views module loaded after the first figure (issue 26's code
//! splitting): `mount` is the app's side (the page's wasm has none of the drawing), `seam`
//! what crosses, `lazy` the module's side. `SweepPanel` names no app state.

use crate::engine::decimal::Within as _;

/// The module's side of the seam: wasm32 only (yew renders there).
#[cfg(target_arch = "wasm32")]
pub mod lazy;
pub mod model;
pub mod mount;
pub mod seam;
#[cfg(all(test, feature = "ssr"))]
mod ssr;
pub mod state;

use std::rc::Rc;

use crate::ui::common::copy::CopyText;
use model::{cell_stats, cut_note, inert_note, pareto_front, sweepable, Sweep};

use yew::prelude::*;

use crate::engine::metrics::{self, Metrics};
use crate::share::url::SweepView;

use crate::ui::common::format::num;
use crate::ui::explore::controls::select_value;
use crate::ui::explore::plots::{short, SweepPlot};

/// A metric's label for a picker: `Wakeup latency p99`, `C6 residency` (the registry's title).
fn metric_label(key: &str, m: Option<&Metrics>) -> String {
    let (label, unit) = metrics::label_unit(key, m);
    crate::ui::common::format::with_unit(&label, &unit)
}

/// What the panel draws and what it can ask of the app: built from the app's state by
/// `seam::Seam` (the page hands it across the seam to the lazily loaded module, `lazy`).
#[derive(Properties, PartialEq, Clone)]
pub struct SweepPanelProps {
    pub sweep: Rc<Sweep>,
    /// The y metric (`State::sweep_metric`).
    pub metric: String,
    /// The current config's metrics, when its full run is in.
    pub current: Option<Rc<Metrics>>,
    pub view: SweepView,
    /// The pinned A's level of `metric` (`pinned_level`).
    pub a_value: Option<f64>,
    /// The share link's query, for "Copy as text".
    pub query: String,
    /// Only the plot (the embed's plot view), no pickers, notes or heatmap.
    #[prop_or_default]
    pub plot_only: bool,
    /// A picker changed the view (`SweepAction::View`).
    pub on_view: Callback<SweepView>,
    /// A heatmap cell was clicked: both knobs to its values (`Action::SetCell`).
    pub on_cell: Callback<Vec<(&'static str, String)>>,
}

/// The panel's props from the seam's inputs and the two answers.
pub fn panel_props(
    seam: seam::Seam,
    on_view: Callback<SweepView>,
    on_cell: Callback<Vec<(&'static str, String)>>,
) -> SweepPanelProps {
    let seam::Seam { sweep, metric, current, view, a_value, query, plot_only } = seam;
    SweepPanelProps { sweep, metric, current, view, a_value, query, plot_only, on_view, on_cell }
}

/// The sweep's pickers, its plot or heatmap, the Pareto view and the note on a flat sweep.
#[function_component(SweepPanel)]
pub fn sweep_panel(props: &SweepPanelProps) -> Html {
    let sw = &props.sweep;
    let metric = props.metric.clone();
    if props.plot_only {
        return html! { <SweepPlot sweep={sw.clone()} metric={AttrValue::from(metric)} a_value={props.a_value} /> };
    }
    let current = props.current.as_ref().map(|m| (**m).clone());
    let sample = current.clone().or_else(|| sw.points.iter().flatten().next().map(|m| (**m).clone()));
    let names = metrics::names_in(sample.as_ref());
    let view = props.view.clone();
    let set_view = |f: fn(&mut SweepView, String)| {
        let (on_view, view) = (props.on_view.clone(), view.clone());
        Callback::from(move |e: Event| {
            let mut v = view.clone();
            f(&mut v, select_value(&e));
            on_view.emit(v);
        })
    };
    let on_metric = set_view(|v, s| v.y = Some(s));
    let on_key2 = set_view(|v, s| v.key2 = (!s.is_empty()).then_some(s));
    let on_replicas = set_view(|v, s| v.replicas = s.parse().ok().filter(|n: &u32| *n > 1));
    let on_pareto = set_view(|v, s| v.pareto = (!s.is_empty()).then_some(s));
    let keys2: Vec<&'static str> =
        crate::engine::config::KEYS.iter().map(|k| k.key).filter(|k| sweepable(k) && *k != sw.key).collect();
    let key2 = sw.key2.unwrap_or("");
    let pareto = view.pareto.clone().unwrap_or_default();
    let replicas = sw.replicas;
    let note = inert_note(sw, current.as_ref());
    let cut = cut_note(sw);
    html! {
        <div class="sweep-panel">
            <div class="sweep-pickers">
                <label>{"y: "}
                    <select name="sweep_y" onchange={on_metric} aria-label="Metric on the sweep's y axis">
                        { for names.iter().map(|n| html! {
                            <option value={n.clone()} selected={*n == metric}>{metric_label(n, sample.as_ref())}</option>
                        }) }
                    </select>
                </label>
                <label>{"2nd knob: "}
                    <select name="sweep2" onchange={on_key2} aria-label="Second swept knob (heatmap)">
                        <option value="" selected={key2.is_empty()}>{"none"}</option>
                        { for keys2.iter().map(|k| html! { <option value={*k} selected={*k == key2}>{*k}</option> }) }
                    </select>
                </label>
                <label>{"seeds: "}
                    <select name="replicas" onchange={on_replicas} aria-label="Seeds per point (replicas)">
                        { for [1usize, 2, 3, 5, 8].iter().map(|n| html! {
                            <option value={n.to_string()} selected={*n == replicas}>{n.to_string()}</option>
                        }) }
                    </select>
                </label>
                <label>{"Pareto vs: "}
                    <select name="pareto" onchange={on_pareto} aria-label="x metric of the Pareto view">
                        <option value="" selected={pareto.is_empty()}>{"off"}</option>
                        { for names.iter().filter(|n| **n != metric).map(|n| html! {
                            <option value={n.clone()} selected={*n == pareto}>{metric_label(n, sample.as_ref())}</option>
                        }) }
                    </select>
                </label>
            </div>
            if sw.key2.is_some() {
                <Heatmap sweep={sw.clone()} metric={metric.clone()} on_cell={props.on_cell.clone()} />
            } else {
                <SweepPlot sweep={sw.clone()} metric={AttrValue::from(metric.clone())} a_value={props.a_value} />
            }
            if !pareto.is_empty() {
                <ParetoPlot sweep={sw.clone()} x={pareto} y={metric.clone()} />
            }
            if let Some(n) = note { <p class="note inert" role="note">{n}</p> }
            if let Some(n) = cut { <p class="note sweep-cut" role="note">{n}</p> }
            <CopyText what="the sweep" text={sweep_text(sw, &metric, props.query.clone())} />
        </div>
    }
}

/// The sweep as plain text (`share::table::sweep_text`), made on press.
fn sweep_text(sw: &Sweep, metric: &str, query: String) -> Callback<(), String> {
    let (sw, metric) = (sw.clone(), metric.to_string());
    Callback::from(move |()| {
        let sample = sw.points.iter().flatten().next().map(|m| m.as_ref());
        let (_, unit) = metrics::label_unit(&metric, sample);
        let key = match sw.key2 {
            Some(k2) => format!("{} x {k2}", sw.key),
            None => sw.key.to_string(),
        };
        let link = crate::ui::common::browser::link_of(&query);
        let points = model::text_points(&sw, &metric);
        crate::share::table::sweep_text(&key, &metric, &unit, &points, sw.replicas, &sw.base, &link)
    })
}

const HW: f64 = 560.0;
const HH: f64 = 300.0;
const HL: f64 = 90.0;
const HT: f64 = 10.0;
const HR: f64 = 60.0;
const HB: f64 = 56.0;

/// A colour from light (0) to dark blue (1).
pub fn ramp(f: f64) -> String {
    let f = if f.is_finite() { f.within(0.0, 1.0) } else { 0.0 };
    let lerp = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    format!("#{:02x}{:02x}{:02x}", lerp(240.0, 8.0), lerp(244.0, 48.0), lerp(250.0, 107.0))
}

#[derive(Properties, PartialEq)]
pub struct HeatmapProps {
    pub sweep: Rc<Sweep>,
    pub metric: String,
    pub on_cell: Callback<Vec<(&'static str, String)>>,
}

/// A 2-D sweep as a heatmap: rows are the first knob's values, columns the second's; the
/// current config's cell is outlined; a click moves both knobs to that cell.
#[function_component(Heatmap)]
pub fn heatmap(props: &HeatmapProps) -> Html {
    let sw = &props.sweep;
    let Some(k2) = sw.key2 else { return html! {} };
    let stats = cell_stats(sw, &props.metric);
    let (n1, n2) = (sw.values.len(), sw.values2.len().max(1));
    // A cell stopped at the sweep's budget is a partial run: hatched, outside the scale.
    let cut = model::cut_cells(sw);
    let known: Vec<f64> = stats.iter().zip(&cut).filter(|(_, c)| !**c).filter_map(|(s, _)| s.map(|s| s.mean)).collect();
    let (lo, hi) = model::colour_range(&known).unwrap_or((f64::INFINITY, f64::NEG_INFINITY));
    let (min, max) = known.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(*v), b.max(*v)));
    let (cw, ch) = ((HW - HL - HR) / n2 as f64, (HH - HT - HB) / n1.max(1) as f64);
    let cur1 = sw.base.get(sw.key).unwrap_or_default();
    let cur2 = sw.base.get(k2).unwrap_or_default();
    let (label, unit) = metrics::label_unit(&props.metric, sw.points.iter().flatten().next().map(|m| m.as_ref()));
    let done = sw.done();
    let total = sw.jobs();
    // The current config's cell (you are here), outlined above the others.
    let here: Vec<(usize, usize)> = (0..n1)
        .flat_map(|i| (0..n2).map(move |j| (i, j)))
        .filter(|&(i, j)| sw.values[i] == cur1 && sw.values2.get(j).is_some_and(|v| *v == cur2))
        .collect();
    html! {
        <figure class="plot heatmap" data-sweep-key={sw.key} data-sweep-key2={k2} data-metric={props.metric.clone()}>
            <figcaption>
                // The unit is said here: in the legend's 60-px column beside the grid it was cut.
                <span>{if unit.is_empty() { format!("{label} across {} × {k2}", sw.key) } else { format!("{label} ({unit}) across {} × {k2}", sw.key) }}</span>
                if done < total {
                    <span class="progress" role="status">
                        <progress max={total.to_string()} value={done.to_string()}></progress>{format!(" {done}/{total}")}
                    </span>
                }
            </figcaption>
            <svg viewBox={format!("0 0 {HW} {HH}")} role="img" aria-label={format!("heatmap of {label} across {} and {k2}", sw.key)}>
                <defs><pattern id="cut-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect width="6" height="6" fill="#f4f4f4" /><line x1="0" y1="0" x2="0" y2="6" stroke="#aaa" stroke-width="2" /></pattern></defs>
                { for (0..n1).flat_map(|i| (0..n2).map(move |j| (i, j))).map(|(i, j)| {
                    let s = stats[i * n2 + j];
                    let (v1, v2) = (sw.values[i].clone(), sw.values2.get(j).cloned().unwrap_or_default());
                    let x = HL + j as f64 * cw;
                    let y = HT + (n1 - 1 - i) as f64 * ch;
                    let is_cut = cut[i * n2 + j];
                    let fill = match s {
                        Some(_) if is_cut => "url(#cut-hatch)".to_string(),
                        Some(s) if hi > lo => ramp((s.mean - lo) / (hi - lo)),
                        Some(_) => ramp(0.5),
                        None => "#ffffff".into(),
                    };
                    let current = v1 == cur1 && v2 == cur2;
                    let onclick = {
                        let (on_cell, key, v1, v2) = (props.on_cell.clone(), sw.key, v1.clone(), v2.clone());
                        Callback::from(move |_| on_cell.emit(vec![(key, v1.clone()), (k2, v2.clone())]))
                    };
                    let here = if current { " (you are here)" } else { "" };
                    let title = match s {
                        Some(s) if is_cut => format!("{} = {v1}, {k2} = {v2}{here}: stopped at the sweep's budget ({} is a partial run's figure)", sw.key, num(s.mean)),
                        Some(s) => format!("{} = {v1}, {k2} = {v2}{here}: {}", sw.key, num(s.mean)),
                        None => format!("{} = {v1}, {k2} = {v2}{here}: running…", sw.key),
                    };
                    html! { <rect class={classes!("cell", current.then_some("current"), is_cut.then_some("cut"))} x={x.to_string()} y={y.to_string()}
                        width={(cw - 1.0).max(1.0).to_string()} height={(ch - 1.0).max(1.0).to_string()} fill={fill}
                        data-v1={v1} data-v2={v2} data-y={s.map(|s| s.mean.to_string())} {onclick}><title>{title}</title></rect> }
                }) }
                { for here.iter().map(|(i, j)| {
                    let (x, y) = (HL + *j as f64 * cw, HT + (n1 - 1 - i) as f64 * ch);
                    html! { <g class="you-are-here" data-v1={sw.values[*i].clone()} data-v2={sw.values2.get(*j).cloned().unwrap_or_default()}>
                        <rect x={(x - 1.0).to_string()} y={(y - 1.0).to_string()} width={(cw + 1.0).to_string()} height={(ch + 1.0).to_string()}
                            fill="none" stroke={crate::ui::common::palette::SERIES_A} stroke-width="3" pointer-events="none" />
                        <text x={(x + cw / 2.0).to_string()} y={(y + ch / 2.0 + 4.0).to_string()} text-anchor="middle" pointer-events="none">{"●"}</text>
                    </g> }
                }) }
                { for sw.values.iter().enumerate().map(|(i, v)| html! {
                    <text x={(HL - 6.0).to_string()} y={(HT + (n1 - 1 - i) as f64 * ch + ch / 2.0 + 4.0).to_string()} text-anchor="end">{v.clone()}</text>
                }) }
                { for sw.values2.iter().enumerate().map(|(j, v)| html! {
                    <text x={(HL + j as f64 * cw + cw / 2.0).to_string()} y={(HH - HB + 16.0).to_string()} text-anchor="middle">{v.clone()}</text>
                }) }
                <text class="label" x={((HL + HW - HR) / 2.0).to_string()} y={(HH - 8.0).to_string()} text-anchor="middle">{k2}</text>
                <text class="label" transform={format!("translate(14 {}) rotate(-90)", (HT + HH - HB) / 2.0)} text-anchor="middle">{sw.key}</text>
                if hi >= lo {
                    <g class="legend">
                        <rect x={(HW - HR + 12.0).to_string()} y={HT.to_string()} width="12" height="12" fill={ramp(1.0)} />
                        <text x={(HW - HR + 12.0).to_string()} y={(HT + 26.0).to_string()}>{format!("{}{}", if max > hi { "≥ " } else { "" }, short(hi))}</text>
                        <rect x={(HW - HR + 12.0).to_string()} y={(HH - HB - 30.0).to_string()} width="12" height="12" fill={ramp(0.0)} />
                        <text x={(HW - HR + 12.0).to_string()} y={(HH - HB - 4.0).to_string()}>{format!("{}{}", if min < lo { "≤ " } else { "" }, short(lo))}</text>
                    </g>
                }
            </svg>
        </figure>
    }
}

#[derive(Properties, PartialEq)]
pub struct ParetoProps {
    pub sweep: Rc<Sweep>,
    pub x: String,
    pub y: String,
}

/// Every cell of the sweep at (x metric, y metric), the Pareto front joined.
#[function_component(ParetoPlot)]
pub fn pareto_plot(props: &ParetoProps) -> Html {
    let sw = &props.sweep;
    let (xs, ys) = (cell_stats(sw, &props.x), cell_stats(sw, &props.y));
    let pts: Vec<(usize, f64, f64)> = xs
        .iter()
        .zip(&ys)
        .enumerate()
        .filter_map(|(i, (x, y))| Some((i, x.as_ref()?.mean, y.as_ref()?.mean)))
        .collect();
    let sample = sw.points.iter().flatten().next().map(|m| m.as_ref());
    let hx = metrics::higher_is_better(&props.x, sample).unwrap_or(false);
    let hy = metrics::higher_is_better(&props.y, sample).unwrap_or(false);
    let xy: Vec<(f64, f64)> = pts.iter().map(|p| (p.1, p.2)).collect();
    let front = pareto_front(&xy, hx, hy);
    let (x0, x1) = crate::ui::explore::plots::y_range_fit(&xy.iter().map(|p| p.0).collect::<Vec<_>>());
    let (y0, y1) = crate::ui::explore::plots::y_range_fit(&xy.iter().map(|p| p.1).collect::<Vec<_>>());
    let frame = crate::ui::explore::plots::Frame { x0, x1, xlog: false, y0, y1 };
    let (xl, xu) = metrics::label_unit(&props.x, sample);
    let (yl, yu) = metrics::label_unit(&props.y, sample);
    let line: String = front
        .iter()
        .enumerate()
        .map(|(k, &i)| crate::ui::explore::plots::path_step(k, frame.x(xy[i].0), frame.y(xy[i].1)))
        .collect();
    let label = |i: usize| {
        let c = pts[i].0;
        match sw.key2 {
            Some(k2) => format!(
                "{}={}, {k2}={}",
                sw.key,
                sw.values[c / sw.values2.len().max(1)],
                sw.values2[c % sw.values2.len().max(1)]
            ),
            None => format!("{}={}", sw.key, sw.values[c]),
        }
    };
    html! {
        <figure class="plot pareto" data-x={props.x.clone()} data-y={props.y.clone()}>
            <figcaption><span>{format!("Pareto view: {yl} against {xl} ({} on the front)", front.len())}</span></figcaption>
            <svg viewBox="0 0 560 250" role="img" aria-label={format!("{yl} against {xl}")}>
                { crate::ui::explore::plots::axes(&frame, &crate::ui::common::format::with_unit(&yl, &yu), &crate::ui::common::format::with_unit(&xl, &xu)) }
                <path class="front" d={line} fill="none" stroke={crate::ui::common::palette::SERIES_A} stroke-width="1.5" />
                { for (0..pts.len()).map(|k| {
                    let on = front.contains(&k);
                    html! { <circle class={classes!(on.then_some("front"))} cx={frame.x(xy[k].0).to_string()} cy={frame.y(xy[k].1).to_string()}
                        r={if on { "4" } else { "3" }} fill={if on { crate::ui::common::palette::SERIES_A } else { crate::ui::common::palette::SERIES_B }}>
                        <title>{format!("{}: {} {}, {} {}", label(k), num(xy[k].0), xu, num(xy[k].1), yu)}</title></circle> }
                }) }
            </svg>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::app::state::State;
    use crate::ui::sweep::model::*;

    fn m(throughput: f64, p99: f64) -> Rc<Metrics> {
        let mut m = Metrics { throughput, ..Default::default() };
        m.wakeup_latency_us.p99 = p99;
        Rc::new(m)
    }

    #[test]
    fn a_second_key_makes_a_grid_and_replicas_make_room_for_each_seed() {
        let base = State::default().config;
        let sw = plan_sweep(&base, "hz", 1, None).unwrap();
        let view = SweepView { key2: Some("cores".into()), replicas: Some(3), ..Default::default() };
        let g = with_view(sw.clone(), &view);
        assert_eq!(g.key2, Some("cores"));
        // GRID_POINTS per axis, plus the current value when it is not among them.
        assert!(
            g.values.len() <= GRID_POINTS + 1 && g.values2.len() <= GRID_POINTS + 1,
            "{:?} {:?}",
            g.values,
            g.values2
        );
        let cells = g.values.len() * g.values2.len();
        assert_eq!((g.points.len(), g.runs.len(), g.jobs()), (cells, 2 * cells, 3 * cells));
        let configs = g.point_configs();
        assert_eq!(configs.len(), 3 * cells);
        assert_eq!(configs[1].get("cores"), Some(g.values2[1].clone()), "row-major: the second key moves first");
        assert_eq!(configs[cells].seed, base.seed + 1, "replica 1 of cell 0 comes after every cell");
        assert_eq!(with_view(sw.clone(), &SweepView { key2: Some("hz".into()), ..Default::default() }).key2, None);
        let n = sw.points.len();
        assert_eq!(with_view(sw, &SweepView::default()).jobs(), n, "no view: the 1-D sweep as planned");
    }

    #[test]
    fn points_cut_by_the_sweep_budget_are_said_so() {
        let mut sw = plan_sweep(&State::default().config, "hz", 1, None).unwrap();
        sw.points[0] =
            Some(Rc::new(Metrics { stop_reason: Some(metrics::StopReason::Completed), ..(*m(1.0, 1.0)).clone() }));
        assert_eq!(cut_note(&sw), None, "whole runs need no note");
        sw.points[1] =
            Some(Rc::new(Metrics { stop_reason: Some(metrics::StopReason::EventBudget), ..(*m(1.0, 1.0)).clone() }));
        let n = cut_note(&sw).expect("a note");
        assert!(n.starts_with("1 of 2 points stopped at the sweep's budget of 500,000 events"), "{n}");
    }

    #[test]
    fn stats_are_the_mean_min_max_of_the_replicas_in_whatever_order_they_came() {
        let base = State::default().config;
        let mut sw = with_view(
            plan_sweep(&base, "hz", 1, None).unwrap(),
            &SweepView { replicas: Some(2), ..Default::default() },
        );
        let cells = sw.points.len();
        sw.runs[0] = Some(m(4.0, 1.0));
        assert_eq!(cell_stats(&sw, "throughput")[0], None, "not before its first replica");
        sw.points[0] = Some(m(2.0, 3.0));
        assert_eq!(cell_stats(&sw, "throughput")[0], Some(Spread { mean: 3.0, min: 2.0, max: 4.0, n: 2 }));
        assert_eq!(cell_stats(&sw, "wakeup_latency_p99")[0].unwrap().max, 3.0);
        assert!(cell_stats(&sw, "throughput")[1..cells].iter().all(Option::is_none));
    }

    #[test]
    fn one_outlying_cell_does_not_stretch_the_colour_scale() {
        let mut v: Vec<f64> = (0..63).map(|i| 10.0 + i as f64 * 0.1).collect();
        assert_eq!(colour_range(&v), Some((10.0, 16.2)), "without an outlier: min to max");
        v.push(1000.0);
        let (lo, hi) = colour_range(&v).unwrap();
        assert_eq!(lo, 10.0);
        assert!(hi < 20.0, "the outlier is clipped to the fence: {hi}");
        assert_eq!(colour_range(&[f64::NAN]), None);
        assert_eq!(colour_range(&[3.0]), Some((3.0, 3.0)));
        let mut flat = vec![100.0; 63];
        flat.push(99.9);
        assert_eq!(colour_range(&flat), Some((99.9, 100.0)), "one cell apart from equal others keeps its colour");
    }

    #[test]
    fn the_pareto_front_keeps_what_nothing_beats() {
        // (throughput higher is better, latency lower is better).
        let pts = [(10.0, 5.0), (8.0, 2.0), (7.0, 6.0), (10.0, 9.0), (12.0, 8.0)];
        assert_eq!(pareto_front(&pts, true, false), vec![1, 0, 4]);
        assert_eq!(pareto_front(&[], true, true), Vec::<usize>::new());
    }

    #[test]
    fn a_flat_sweep_says_why() {
        let base = State::default().config;
        let mut sw = plan_sweep(&base, "sched_latency", 1, None).unwrap();
        let quiet = Metrics { digest: "d".into(), ..Default::default() };
        assert!(inert_note(&sw, Some(&quiet)).unwrap().contains("0 preemptions"));
        let busy = Metrics { preemptions: 3, digest: "d".into(), ..Default::default() };
        assert_eq!(inert_note(&sw, Some(&busy)), None, "not until every point is in");
        sw.points.iter_mut().for_each(|p| *p = Some(Rc::new(busy.clone())));
        assert!(inert_note(&sw, Some(&busy)).unwrap().contains("every point of the sweep gave the same counters"));
        sw.points[0] = Some(Rc::new(Metrics { digest: "e".into(), ..busy.clone() }));
        assert_eq!(inert_note(&sw, Some(&busy)), None);
    }
}
