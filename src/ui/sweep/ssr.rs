//! The sweep panel rendered (yew SSR) as issue 29 found it misleading: points cut by the
//! sweep's budget drawn as results, the y axis of another workload's preset, a heatmap
//! beyond the machine with a scale washed out by one cell and no mark for the current cell.

use std::rc::Rc;

use crate::engine::metrics::{Metrics, StopReason};
use crate::ui::app::state::{Action, State};
use crate::ui::ssr_tests::{from_link, render};
use crate::ui::sweep::model::Sweep;

/// `s` with every cell of its sweep answered by `f(cell index)`.
fn answered(mut s: State, f: impl Fn(usize) -> Metrics) -> State {
    let mut sw: Sweep = (**s.sweep.current.as_ref().expect("a sweep")).clone();
    for (i, p) in sw.points.iter_mut().enumerate() {
        *p = Some(Rc::new(f(i)));
    }
    s.sweep.current = Some(Rc::new(sw));
    s
}

fn run(throughput: f64, stop: StopReason) -> Metrics {
    Metrics { throughput, stop_reason: Some(stop), digest: format!("{throughput}"), ..Default::default() }
}

/// The `d` of the sweep curve's path (yew writes `class` after the other attributes).
fn curve_d(html: &str) -> &str {
    let at = html.find("class=\"curve\"").expect("a sweep curve");
    let start = html[..at].rfind("<path").unwrap();
    html[start..at].split("d=\"").nth(1).unwrap().split('"').next().unwrap()
}

#[tokio::test]
async fn points_cut_by_the_budget_are_not_drawn_as_a_curve() {
    // hackbench on intro: every point stopped at the sweep's budget drew a flat line at
    // the first events' figure.
    let s = answered(from_link("v=1&preset=intro&kernel=6.12&workload=hackbench&groups=208"), |i| {
        run(72.0 + 0.0 * i as f64, StopReason::EventBudget)
    });
    let html = render(s).await;
    assert_eq!(curve_d(&html), "", "no curve through partial runs");
    assert!(html.contains("class=\"cut\""), "each cut point is an open mark");
    assert!(html.contains("No whole-run figure: every point stopped at the sweep"), "the plot says why it is empty");
    assert!(html.contains("they are not drawn as results"), "the note below says so");
}

#[tokio::test]
async fn whole_runs_are_drawn_and_cut_ones_are_left_out_of_the_curve() {
    let s = answered(from_link("v=1&preset=intro"), |i| {
        run(10.0 + i as f64, if i == 0 { StopReason::EventBudget } else { StopReason::Completed })
    });
    let n = s.sweep.current.as_ref().unwrap().points.len();
    let html = render(s).await;
    let d = curve_d(&html);
    assert_eq!(d.matches(['M', 'L']).count(), n - 1, "every whole point on the curve, the cut one not: {d}");
}

#[tokio::test]
async fn the_y_axis_is_the_presets_main_result_for_its_workload_and_a_new_presets_own() {
    // intro plots ticks; on hackbench the main result is the time to finish.
    assert_eq!(from_link("v=1&preset=intro").sweep_metric(), "ticks");
    assert_eq!(from_link("v=1&preset=intro&kernel=6.12&workload=hackbench").sweep_metric(), "throughput");
    // A metric picked on one preset is not kept on the next.
    let s = Rc::new(from_link("v=1&preset=intro&sweep_y=wakeup_latency_p99"));
    assert_eq!(s.sweep_metric(), "wakeup_latency_p99");
    let s = yew::Reducible::reduce(s, Action::LoadPreset("rr-kbuild".into()));
    let own = crate::engine::presets::preset("rr-kbuild").unwrap().metric;
    assert_eq!(s.sweep_metric(), own);
}

#[tokio::test]
async fn kernel_names_on_the_x_axis_do_not_overlap() {
    let s = answered(from_link("v=1&preset=intro&sweep=kernel"), |i| run(1.0 + i as f64, StopReason::Completed));
    let names = s.sweep.current.as_ref().unwrap().values.clone();
    assert!(names.len() >= 8, "{names:?}");
    let html = render(s).await;
    // Alternate labels go to a second row, so each has two slots of room.
    assert!(html.contains("class=\"row2\""), "long category names alternate between two rows");
    let fit = crate::ui::explore::plots::TickFit::of(
        names.iter().map(String::as_str),
        (560.0 - 64.0 - 16.0) / names.len() as f64,
    );
    assert!(fit.two_rows && fit.max_chars.is_none(), "{fit:?}: every kernel name fits whole in two rows");
}

#[tokio::test]
async fn the_heatmap_stays_on_the_machine_marks_you_are_here_and_shrugs_off_an_outlier() {
    let s = from_link("v=1&preset=intro&sweep=hz&sweep2=cores&sweep_y=throughput");
    let sw = s.sweep.current.clone().unwrap();
    assert_eq!(sw.key2, Some("cores"));
    let most = s.config.profile().topo.cpus().max(s.config.cores);
    let top: u32 = sw.values2.iter().map(|v| v.parse::<u32>().unwrap()).max().unwrap();
    assert!(top <= most, "cores swept to {top} on a {most}-CPU machine: {:?}", sw.values2);
    // One cell 100x the others: the others still span the colour ramp.
    let s = answered(s, |i| Metrics {
        throughput_unit: "ops/s".into(),
        ..run(if i == 0 { 10_000.0 } else { 10.0 + i as f64 }, StopReason::Completed)
    });
    let html = render(s).await;
    assert!(html.contains("class=\"you-are-here\""), "the current cell is outlined");
    assert!(html.contains("≥ "), "the legend says the top of the scale is clipped");
    // Issue 29: the unit was a text in the legend's narrow column, cut at the plot's edge.
    assert!(
        html.contains("Ops per second (ops/s) across hz × cores"),
        "the unit in the caption: {}",
        html.split("<figcaption>").nth(1).unwrap_or_default().chars().take(200).collect::<String>()
    );
    let legend = html.split("<g class=\"legend\">").nth(1).and_then(|l| l.split("</g>").next()).unwrap_or_default();
    assert!(!legend.contains("ops/s"), "no unit in the legend's column: {legend}");
    let fills: std::collections::BTreeSet<&str> =
        html.split("class=\"cell").skip(1).filter_map(|c| c.split("fill=\"").nth(1)?.split('"').next()).collect();
    assert!(fills.len() > 10, "the cells keep distinct colours: {fills:?}");
}
