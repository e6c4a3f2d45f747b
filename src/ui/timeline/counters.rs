//! Counter tracks under the timeline's lanes: queue depth (nr_running) per CPU, avg_idle, the chosen C-state, PELT's util_avg, and a task's vruntime and lag.
//!
//! The data is `engine::explain::counters` (the one derivation the Perfetto export's `"C"`
//! tracks use too): the C-state from the idle spans, nr_running and avg_idle from the
//! decision records (each pick's runqueue, each idle entry), a task's `vruntime - V` and
//! EEVDF lag from the runqueues the picks saw; `util_avg` from the trace's PELT samples
//! (`Trace::util`, on a fixed 0..1024 scale). Decision-based tracks stop where the page's
//! records stop (`protocol::PAGE_DECISIONS`), and the legend says so.
//!
//! Drawn on a second canvas under the main one, on the same time axis (`Layout::x_of`, the
//! same gutter), in the timeline's animation frame (`Counters::draw`, a one-line hook in
//! `timeline.rs`). Level of detail as the lanes: one value per pixel column (the column's
//! largest), merged into runs of equal columns, so a frame is a few hundred rects whatever
//! the trace's length. `scene` is pure and tested natively.

use crate::engine::decimal::Within as _;

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::explain::{self, CounterTracks};
use crate::engine::time::Ns;
use crate::engine::trace::Trace;
use crate::ui::timeline::draw::{Align, Layout, Scene, Text, View};

/// Heights in CSS pixels: a track's title row, a CPU's row (fewer pixels on big machines),
/// the task track.
pub const TITLE_CSS: f64 = 16.0;
pub const TASK_CSS: f64 = 44.0;

/// A CPU row's height for `cores` CPUs.
pub fn row_css(cores: usize) -> f64 {
    (96.0 / cores.max(1) as f64).within(5.0, 16.0).floor()
}

/// The CPUs the tracks show: those on which a task ran (as the lanes fold the others, a
/// CPU idle all along has nothing to show but its C-state); all of them if none ran.
pub fn shown_cores(trace: &Trace) -> Vec<usize> {
    let idle = crate::ui::timeline::draw::TraceIndex::idle_cores(trace);
    let all = crate::ui::timeline::draw::TraceIndex::lanes_of(trace);
    let busy: Vec<usize> = (0..all).filter(|c| !idle.contains(c)).collect();
    if busy.is_empty() {
        (0..all).collect()
    } else {
        busy
    }
}

/// The counter canvas's height in CSS pixels for `cores` CPU rows a track.
pub fn css_height(cores: usize) -> f64 {
    KINDS as f64 * (TITLE_CSS + cores as f64 * row_css(cores)) + TITLE_CSS + TASK_CSS + 4.0
}

/// The per-CPU tracks: nr_running, avg_idle, C-state, util_avg.
const KINDS: usize = 4;
const NR_COLOUR: &str = "#3182bd";
const UTIL_COLOUR: &str = "#d6616b";
const AVG_IDLE_COLOUR: &str = "#31a354";
const CSTATE_COLOUR: &str = "#756bb1";
const VRUNTIME_COLOUR: &str = "#e6550d";
const LAG_COLOUR: &str = "#636363";

/// A step series (value holds from one sample to the next, the last until `end`) reduced
/// to one value per pixel column of the view (the largest; None where there is no data).
pub fn columns(series: &[(Ns, f64)], end: Ns, view: &View, width: usize) -> Vec<Option<f64>> {
    let mut col: Vec<Option<f64>> = vec![None; width];
    if width == 0 || view.len() <= 0.0 {
        return col;
    }
    let x = |t: f64| (t - view.t0) / view.len() * width as f64;
    // From the first sample that still holds at the view's start.
    let first = series.partition_point(|&(t, _)| (t as f64) < view.t0).saturating_sub(1);
    for (i, &(t, v)) in series.iter().enumerate().skip(first) {
        let until = series.get(i + 1).map_or(end, |n| n.0).max(t);
        if t as f64 > view.t1 {
            break;
        }
        // Columns [a, b]: the one the sample starts in up to the last it covers part of.
        let a = x(t as f64).floor();
        let (a, b) = (a.max(0.0), (x(until as f64).ceil() - 1.0).max(a).min(width as f64 - 1.0));
        if b < 0.0 || a > width as f64 - 1.0 {
            continue;
        }
        for c in col.iter_mut().take(b as usize + 1).skip(a as usize) {
            *c = Some(c.map_or(v, |o: f64| o.max(v)));
        }
    }
    col
}

/// Runs of equal columns: (first column, count, value).
fn runs(cols: &[Option<f64>]) -> Vec<(usize, usize, f64)> {
    let mut out: Vec<(usize, usize, f64)> = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        let Some(v) = *c else { continue };
        match out.last_mut() {
            Some(r) if r.0 + r.1 == i && r.2 == v => r.1 += 1,
            _ => out.push((i, 1, v)),
        }
    }
    out
}

/// Where the decision records end (tracks derived from them stop there) and the trace's.
fn ends(trace: &Trace) -> (Ns, Ns) {
    let rec = crate::ui::timeline::window::recorded(trace).1;
    (explain::span_of(&trace.decisions).map_or(0, |s| s.1), rec)
}

/// The largest value of each kind over the whole trace (the scales stay put while panning).
fn maxima(t: &CounterTracks) -> (f64, f64, f64) {
    let m = |f: &dyn Fn(&explain::CoreCounters) -> f64| t.cores.iter().map(f).fold(0.0, f64::max);
    (
        m(&|c| c.nr_running.iter().map(|s| s.1 as f64).fold(0.0, f64::max)),
        m(&|c| c.avg_idle.iter().map(|s| s.1 as f64).fold(0.0, f64::max)),
        m(&|c| c.cstate.iter().map(|s| s.1 as f64).fold(0.0, f64::max)),
    )
}

/// The tracks' display list in device pixels, for a canvas `layout.width` wide.
pub fn scene(trace: &Trace, tracks: &CounterTracks, task: Option<u32>, view: &View, layout: &Layout) -> Scene {
    let mut sc = Scene::default();
    let s = layout.dpr;
    let ch = layout.chrome;
    let shown = shown_cores(trace);
    let cores = shown.len();
    let (row, title) = ((row_css(cores) * s).round(), (TITLE_CSS * s).round());
    let w = layout.plot_w();
    let (rec_end, trace_end) = ends(trace);
    let (nr_max, ai_max, cs_max) = maxima(tracks);
    let text = |sc: &mut Scene, x: f64, y: f64, t: String, px: f64, align: Align| {
        sc.texts.push(Text { x, y, text: t, colour: ch.text, px: px * s, align, mono: false })
    };
    let mut y = 0.0;
    let kinds: [(&str, &'static str, f64, Ns); KINDS] = [
        ("nr_running (queue depth)", NR_COLOUR, nr_max, rec_end),
        ("avg_idle", AVG_IDLE_COLOUR, ai_max, rec_end),
        ("C-state", CSTATE_COLOUR, cs_max, trace_end),
        ("util_avg (PELT, cfs_rq)", UTIL_COLOUR, 1024.0, trace_end),
    ];
    for (k, (name, colour, max, end)) in kinds.iter().enumerate() {
        let mut scale = match k {
            0 => format!("0 to {}", *max as u64),
            1 => format!("0 to {}", crate::ui::common::format::duration(*max as Ns)),
            3 => "0 to 1024".to_string(),
            _ => format!("0 (C0) to {}", trace.idle_states.get(*max as usize).cloned().unwrap_or_default()),
        };
        // A view past the records the page holds: say so where the bars would be.
        if k < 2 && (*end as f64) < view.t0 {
            scale += &format!(
                " \u{2014} no records in this view: the page keeps the first {} decisions, up to {}",
                trace.decisions.len(),
                crate::ui::common::format::duration(*end)
            );
        }
        text(&mut sc, layout.gutter + 4.0 * s, y + title / 2.0, format!("{name}: {scale}"), 11.0, Align::Left);
        y += title;
        for (row_i, &c) in shown.iter().enumerate() {
            let Some(cc) = tracks.cores.get(c) else { continue };
            let series: Vec<(Ns, f64)> = match k {
                0 => cc.nr_running.iter().map(|&(t, v)| (t, v as f64)).collect(),
                1 => cc.avg_idle.iter().map(|&(t, v)| (t, v as f64)).collect(),
                3 => cc.util_avg.iter().map(|&(t, v)| (t, v as f64)).collect(),
                _ => cc.cstate.iter().map(|&(t, v)| (t, v as f64)).collect(),
            };
            let top = y + row_i as f64 * row;
            sc.stroke(ch.grid, 1.0, false).segs.push([layout.gutter, top + row - 0.5, layout.width, top + row - 0.5]);
            if row >= 9.0 * s {
                text(&mut sc, layout.gutter - 4.0 * s, top + row / 2.0, format!("CPU {c}"), 9.0, Align::Right);
            }
            let f = sc.fill(colour);
            for (x, n, v) in runs(&columns(&series, *end, view, w)) {
                let h = if *max > 0.0 { (v / max * (row - 2.0)).max(if v > 0.0 { 1.0 } else { 0.0 }) } else { 0.0 };
                if h > 0.0 {
                    f.rects.push([layout.gutter + x as f64, top + row - 1.0 - h, n as f64, h]);
                }
            }
        }
        y += cores as f64 * row;
    }
    // The task's vruntime - V and lag (EEVDF), around a zero line.
    let samples = task.and_then(|t| tracks.tasks.get(t as usize)).map(|t| &t.samples[..]).unwrap_or(&[]);
    let name = task.and_then(|t| trace.tasks.get(t as usize)).map_or("no task".to_string(), |k| k.name.clone());
    let eevdf = samples.iter().any(|s| s.2.is_some());
    let big = samples.iter().map(|s| s.1.unsigned_abs().max(s.2.map_or(0, |l| l.unsigned_abs()))).max().unwrap_or(0);
    text(
        &mut sc,
        layout.gutter + 4.0 * s,
        y + title / 2.0,
        format!(
            "{name}: vruntime \u{2212} V{}, \u{00b1}{} of virtual time",
            if eevdf { " and lag (V \u{2212} v)" } else { "" },
            crate::ui::common::format::duration(big)
        ),
        11.0,
        Align::Left,
    );
    y += title;
    let (top, h) = (y, (TASK_CSS * s).round());
    let mid = top + h / 2.0;
    sc.stroke(ch.grid, 1.0, true).segs.push([layout.gutter, mid, layout.width, mid]);
    let yv = |v: i64| if big == 0 { mid } else { mid - v as f64 / big as f64 * (h / 2.0 - 2.0) };
    for (k, colour) in [(0, VRUNTIME_COLOUR), (1, LAG_COLOUR)] {
        if k == 1 && !eevdf {
            continue;
        }
        let pts: Vec<(f64, f64)> = samples
            .iter()
            .filter(|p| p.0 as f64 >= view.t0 && p.0 as f64 <= view.t1)
            .map(|p| (layout.x_of(view, p.0 as f64), yv(if k == 0 { p.1 } else { p.2.unwrap_or(0) })))
            .collect();
        let st = sc.stroke(colour, 1.5 * s, false);
        for p in pts.windows(2) {
            st.segs.push([p[0].0, p[0].1, p[1].0, p[1].1]);
        }
        let f = sc.fill(colour);
        for p in pts.iter().take(2_000) {
            f.rects.push([p.0 - 1.5 * s, p.1 - 1.5 * s, 3.0 * s, 3.0 * s]);
        }
    }
    // Where the decision records stop, a dashed line over the decision tracks.
    if rec_end > 0 && (rec_end as f64) < view.t1 && (rec_end as f64) > view.t0 {
        let x = layout.x_of(view, rec_end as f64);
        sc.stroke(ch.text, 1.0, true).segs.push([x, 0.0, x, y - title]);
    }
    sc
}

/// Edits from the toolbar and the legend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Edit {
    On(bool),
    Task(Option<u32>),
}

/// The counter tracks' state inside the timeline (`timeline::Inner::counters`).
#[derive(Default)]
pub struct Counters {
    pub on: bool,
    pub task: Option<u32>,
    pub node: NodeRef,
    ctx: Option<web_sys::CanvasRenderingContext2d>,
    /// The tracks of the trace (by identity), derived once.
    tracks: Option<(usize, Rc<CounterTracks>)>,
}

impl Counters {
    pub fn edit(&mut self, e: Edit) {
        match e {
            Edit::On(on) => self.on = on,
            Edit::Task(t) => self.task = t,
        }
    }

    fn tracks(&mut self, trace: &Rc<Trace>) -> Rc<CounterTracks> {
        let key = Rc::as_ptr(trace) as usize;
        match &self.tracks {
            Some((k, t)) if *k == key => t.clone(),
            _ => {
                let t = Rc::new(explain::counters(trace));
                self.tracks = Some((key, t.clone()));
                t
            }
        }
    }

    /// Draws the tracks for the main canvas's `layout` and `view` (nothing while off).
    pub fn draw(
        &mut self,
        trace: &Rc<Trace>,
        view: &View,
        layout: &Layout,
        paint: impl Fn(&web_sys::CanvasRenderingContext2d, &Scene),
    ) {
        use wasm_bindgen::JsCast;
        if !self.on {
            return;
        }
        let Some(canvas) = self.node.cast::<web_sys::HtmlCanvasElement>() else { return };
        let tracks = self.tracks(trace);
        let cores = shown_cores(trace).len();
        let (w, h) = (layout.width as u32, (css_height(cores) * layout.dpr).round() as u32);
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
            self.ctx = None;
        }
        if self.ctx.is_none() {
            self.ctx = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into().ok());
        }
        let Some(ctx) = &self.ctx else { return };
        ctx.set_fill_style_str(layout.chrome.background);
        ctx.fill_rect(0.0, 0.0, w as f64, h as f64);
        // The legend's picker starts on the first task, as this does.
        let task = self.task.or(Some(0));
        paint(ctx, &scene(trace, &tracks, task, view, layout));
    }
}

/// The toolbar's toggle.
pub fn toggle(on: bool, on_edit: Callback<Edit>) -> Html {
    let click = on_edit.reform(move |_: MouseEvent| Edit::On(!on));
    html! {
        <button type="button" class="counters-toggle" aria-pressed={on.to_string()} onclick={click}
            title="Counter tracks under the lanes: queue depth, avg_idle, C-state, a task's vruntime and lag">
            {"Counters"}
        </button>
    }
}

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    pub trace: Rc<Trace>,
    pub on: bool,
    pub node: NodeRef,
    pub on_edit: Callback<Edit>,
}

/// The counter canvas and its legend (a task picker for the vruntime track).
#[function_component(CounterLanes)]
pub fn counter_lanes(p: &LanesProps) -> Html {
    let chosen = use_state(|| 0u32);
    if !p.on {
        // No canvas at all while off: the page's other canvases stay the only ones.
        return html! {};
    }
    let t = &p.trace;
    let shown = shown_cores(t);
    let cores = shown.len();
    let hidden = crate::ui::timeline::draw::TraceIndex::lanes_of(t).saturating_sub(cores);
    let (rec_end, _) = ends(t);
    let pick = {
        let (chosen, on_edit) = (chosen.clone(), p.on_edit.clone());
        Callback::from(move |e: Event| {
            let v = e.target_dyn_into::<web_sys::HtmlSelectElement>().map(|s| s.value()).unwrap_or_default();
            let t = v.parse().ok();
            chosen.set(t.unwrap_or(0));
            on_edit.emit(Edit::Task(t));
        })
    };
    let sw = |c: &str| html! { <span aria-hidden="true" style={format!("display:inline-block;width:0.9em;height:0.9em;margin-right:0.3em;vertical-align:middle;background:{c}")}></span> };
    html! {
        <div class="timeline-counters">
            <canvas ref={p.node.clone()} role="img" class="counters"
                aria-label="Counter tracks: queue depth, avg_idle, C-state and util_avg per CPU, and a task's vruntime and lag"
                style={format!("display:block;width:100%;height:{}px;margin-top:6px", crate::engine::decimal::shortest(css_height(cores)))}></canvas>
            <ul class="timeline-legend counter-legend" aria-label="Counter tracks" style="list-style:none;padding:0;margin:0.3em 0;font-size:0.85em">
                <li style="display:inline-block;margin-right:1em">{sw(NR_COLOUR)}{"nr_running: the runqueue each pick saw (0 at idle entry)"}</li>
                <li style="display:inline-block;margin-right:1em">{sw(AVG_IDLE_COLOUR)}{"avg_idle (rq->avg_idle at idle entry)"}</li>
                <li style="display:inline-block;margin-right:1em">{sw(CSTATE_COLOUR)}{"C-state depth"}</li>
                <li style="display:inline-block;margin-right:1em">{sw(UTIL_COLOUR)}{"util_avg (PELT)"}</li>
                <li style="display:inline-block;margin-right:1em">{sw(VRUNTIME_COLOUR)}{"vruntime \u{2212} V"}</li>
                <li style="display:inline-block;margin-right:1em">{sw(LAG_COLOUR)}{"lag (EEVDF)"}</li>
                <li style="display:inline-block"><label>{"Task "}
                    <select name="counter-task" onchange={pick} aria-label="Task whose vruntime and lag are drawn">
                        { for t.tasks.iter().enumerate().map(|(i, k)| html! {
                            <option value={i.to_string()} selected={i as u32 == *chosen}>{k.name.clone()}</option>
                        }) }
                    </select></label></li>
            </ul>
            if rec_end > 0 {
                <p class="timeline-note counter-note" style="font-size:0.85em">{format!(
                    "nr_running, avg_idle and vruntime come from the decision records the page holds, up to {} (the dashed line); the C-state track covers the whole recorded trace.{}",
                    crate::ui::common::format::duration(rec_end),
                    if hidden > 0 { format!(" {hidden} CPUs on which no task ran are not drawn.") } else { String::new() }
                )}</p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_series_fills_the_columns_it_holds_over() {
        let v = View { t0: 0.0, t1: 100.0 };
        let cols = columns(&[(10, 1.0), (50, 3.0), (60, 0.0)], 80, &v, 10);
        assert_eq!(
            cols,
            vec![None, Some(1.0), Some(1.0), Some(1.0), Some(1.0), Some(3.0), Some(0.0), Some(0.0), None, None]
        );
        // A sample before the view still holds into it; a column shows the largest value in it.
        let w = View { t0: 55.0, t1: 65.0 };
        assert_eq!(columns(&[(10, 1.0), (50, 3.0), (60, 0.0)], 80, &w, 2), vec![Some(3.0), Some(0.0)]);
        assert_eq!(runs(&cols), vec![(1, 4, 1.0), (5, 1, 3.0), (6, 2, 0.0)]);
    }

    #[test]
    fn the_scene_draws_a_bar_per_run_and_labels_each_track() {
        let mut cfg = (crate::engine::presets::preset("nohz-pipe").unwrap().config)();
        cfg.set("loops", "200").unwrap();
        let trace = crate::engine::run(&cfg, Some(crate::engine::TraceOptions::default())).unwrap().trace;
        let tracks = explain::counters(&trace);
        assert_eq!(tracks.cores.len(), trace.cores as usize);
        assert!(tracks.cores.iter().any(|c| !c.nr_running.is_empty() && !c.cstate.is_empty()));
        let (lo, hi) = crate::ui::timeline::window::recorded(&trace);
        let view = View { t0: lo as f64, t1: hi as f64 };
        let layout = Layout::new(800.0, trace.cores as usize, 1.0);
        let sc = scene(&trace, &tracks, Some(0), &view, &layout);
        let rects: usize = sc.fills.iter().map(|f| f.rects.len()).sum();
        assert!(rects > 20 && rects < 20_000, "{rects} rects");
        let titles: Vec<&str> = sc.texts.iter().map(|t| t.text.as_str()).collect();
        assert!(titles.iter().any(|t| t.starts_with("nr_running")), "{titles:?}");
        assert!(titles.iter().any(|t| t.starts_with("C-state")), "{titles:?}");
        assert!(titles.iter().any(|t| t.starts_with("util_avg")), "{titles:?}");
        assert!(titles.iter().any(|t| t.contains("vruntime")), "{titles:?}");
        // Everything inside the canvas.
        let h = css_height(shown_cores(&trace).len());
        for f in &sc.fills {
            for r in &f.rects {
                assert!(r[0] >= layout.gutter - 2.0 && r[1] >= 0.0 && r[1] + r[3] <= h + 0.5, "{r:?}");
            }
        }
    }
}
