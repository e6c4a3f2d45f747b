//! The drawing model's tests (natively, on generated traces).

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
        let mut want: Vec<(Ns, Ns)> =
            trace.spans.iter().filter(|s| s.core as usize == c && s.end > s.start).map(|s| (s.start, s.end)).collect();
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
    let (ls, ds) =
        (build_scene(&trace, &index, &View::fit(1_000), &light), build_scene(&trace, &index, &View::fit(1_000), &dark));
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
fn a_long_axis_base_stays_on_the_canvas_and_clear_of_the_ticks() {
    // Zoomed to 11 ns at 15.744 ms: the ticks are "+1.982 µs"... after a base "15.742 ms +"
    // wider than the gutter (the wide inspector's screenshot cut its first digits off).
    let trace = trace_of(1, vec![run(0, 0, 40 * MS, 0)], 40 * MS);
    let layout = Layout::new(900.0, 1, 2.0);
    let view = View { t0: 15_743_981.0, t1: 15_743_992.0 };
    let scene = build_scene(&trace, &TraceIndex::new(&trace), &view, &layout);
    let width = |t: &Text| t.text.chars().count() as f64 * t.px * 0.6;
    let base = scene.texts.iter().find(|t| t.text.ends_with(" +")).expect("a base label");
    let (left, right) = match base.align {
        Align::Right => (base.x - width(base), base.x),
        Align::Left => (base.x, base.x + width(base)),
        Align::Center => (base.x - width(base) / 2.0, base.x + width(base) / 2.0),
    };
    assert!(left >= 0.0, "the base starts off the canvas: {base:?}");
    let ticks: Vec<&Text> = scene.texts.iter().filter(|t| t.text.starts_with('+')).collect();
    assert!(ticks.len() >= 3, "{:?}", scene.texts);
    for t in ticks {
        assert!(t.x - width(t) / 2.0 >= right, "a tick label overlaps the base {base:?}: {t:?}");
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
    let run = |core: u16, start: Ns| Span { core, start, end: start + 10, kind: SpanKind::Run { task: 0, sys: false } };
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

/// Issue 29 (a phone): while playing, the time readout followed the cursor over the axis's
/// labels. It sits in the gutter's corner instead, inside the gutter, with the digits that fit;
/// paused, the precise time stays at the cursor.
#[test]
fn while_playing_the_time_readout_keeps_off_the_axis_labels() {
    let trace = Trace {
        cores: 2,
        spans: vec![Span { core: 0, start: 0, end: 300_000_000, kind: SpanKind::Run { task: 0, sys: false } }],
        tasks: tasks(1),
        end: 300_000_000,
        ..Default::default()
    };
    let index = TraceIndex::new(&trace);
    let layout = Layout::new(390.0, index.lanes, 3.0);
    let t = 123_456_789.0;
    let x = layout.x_of(&View { t0: 0.0, t1: 300e6 }, t);
    let sc = play_cursor(&trace, &index, &layout, t, x, true);
    let readout = sc.texts.iter().find(|r| r.text.ends_with(" ms")).expect("a time readout");
    let boxes: Vec<[f64; 4]> =
        sc.fills.iter().filter(|f| !f.colour.starts_with("rgba")).flat_map(|f| f.rects.clone()).collect();
    assert!(boxes.iter().all(|b| b[0] + b[2] <= layout.gutter), "in the gutter: {boxes:?} vs {}", layout.gutter);
    assert!(readout.x < layout.gutter && readout.text.starts_with("123.4"), "{readout:?}");
    let width = readout.text.chars().count() as f64 * readout.px * 0.62;
    assert!(width <= layout.gutter, "fits: {} ({width} px)", readout.text);
    let paused = play_cursor(&trace, &index, &layout, t, x, false);
    assert!(paused.texts.iter().any(|r| r.text == "123.456789 ms"), "paused: every digit");
}

/// Issue 29: the span the inspector explains is outlined on the canvas (it was not: only a
/// task picked in the trace table was). The frame is around that span's lane and time, and
/// nothing is drawn for a span out of the view.
#[test]
fn the_inspected_span_is_outlined_where_it_is_drawn() {
    let trace = trace_of(2, vec![run(0, 0, 1_000, 1), run(1, 2_000, 3_000, 2), run(1, 5_000, 6_000, 1)], 10_000);
    let index = TraceIndex::new(&trace);
    let layout = Layout::new(1_000.0 + GUTTER_CSS, 2, 1.0);
    let view = View { t0: 0.0, t1: 10_000.0 };
    let sc = outline(&trace, &index, &view, &layout, 1);
    let segs: Vec<[f64; 4]> = sc.strokes.iter().flat_map(|s| s.segs.iter().copied()).collect();
    assert_eq!(segs.len(), 4, "a frame: {segs:?}");
    let (x0, x1) = (layout.x_of(&view, 2_000.0), layout.x_of(&view, 3_000.0));
    let xs = segs.iter().flat_map(|s| [s[0], s[2]]);
    let (lo, hi) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    assert!(lo <= x0 && hi >= x1 && hi - lo < (x1 - x0) + 10.0, "around 2..3 us: {lo}..{hi} vs {x0}..{x1}");
    let (y, h) = layout.band(1, Band::Main);
    assert!(segs.iter().all(|s| s[1] >= y && s[3] <= y + h), "on CPU 1's lane");
    // The hit test at the frame's middle finds the same span.
    assert_eq!(hit_test(&trace, &index, &view, &layout, (x0 + x1) / 2.0, y + h / 2.0), Some(1));
    let away = View { t0: 6_500.0, t1: 10_000.0 };
    assert!(outline(&trace, &index, &away, &layout, 1).strokes.is_empty(), "out of view");
    assert!(outline(&trace, &index, &view, &layout, 9).strokes.is_empty(), "no such span");
}

/// Issue 31: a run over two sockets groups its lanes by socket and LLC (Linux numbers the
/// second threads after every first one, so they are groups of their own), a rule and a label
/// a group; the tooltip names a CPU's sibling and group. A run on one LLC without siblings
/// draws exactly as before, and a frame's cost grows by two rects and one text a group.
#[test]
fn lanes_group_by_socket_and_llc_and_name_siblings_only_on_a_big_machine() {
    use crate::ui::common::topology::LaneTopology;
    let topo = crate::engine::profile::profile("cascadelake-2s").unwrap().topo;
    let trace = gen_trace(80, 20, 7);
    let plain = TraceIndex::new(&trace);
    let index = plain.clone().with_topology(&LaneTopology::of(&topo, 80));
    let groups: Vec<(usize, &str)> = index.groups.iter().map(|(l, s, _)| (*l, s.as_str())).collect();
    assert_eq!(
        groups,
        [
            (0, "socket 0 \u{b7} LLC 0"),
            (20, "socket 1 \u{b7} LLC 1"),
            (40, "socket 0 \u{b7} LLC 0 \u{b7} 2nd threads"),
            (60, "socket 1 \u{b7} LLC 1 \u{b7} 2nd threads")
        ]
    );
    let layout = Layout::new(1000.0, 80, 1.0);
    let view = View::fit(index.end);
    let (scene, base) = (build_scene(&trace, &index, &view, &layout), build_scene(&trace, &plain, &view, &layout));
    for (_, g) in &groups {
        assert!(scene.texts.iter().any(|t| t.text == *g), "{g} is drawn");
    }
    let rects = |s: &Scene| s.fills.iter().map(|f| f.rects.len()).sum::<usize>();
    assert_eq!(scene.texts.len(), base.texts.len() + 4);
    assert_eq!(rects(&scene), rects(&base) + 4 + 3, "a tag a group and a rule between groups");
    let said = summary(&trace, &index, &view, 0, "");
    assert!(said.contains("; lanes in 4 groups by socket and LLC: socket 0 \u{b7} LLC 0, socket 1"), "{said}");
    assert!(!summary(&trace, &plain, &view, 0, "").contains("groups by socket"));
    // On a phone's plot (390 CSS px) the labels take their short form.
    let phone = build_scene(&trace, &index, &view, &Layout::new(390.0, 80, 1.0));
    assert!(phone.texts.iter().any(|t| t.text == "s0/LLC0/2nd") && !phone.texts.iter().any(|t| t.text == groups[2].1));
    let i = trace.spans.iter().position(|s| s.core == 41).unwrap();
    let lines = describe_placed(&trace, &index, i);
    assert!(lines[0].starts_with("CPU 41 (sibling of 1): "), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("socket 0 \u{b7} LLC 0 \u{b7} 2nd threads"));

    // Idle CPUs folded: the busy lanes keep their groups, the "N idle" lane starts none.
    let sparse = trace_of(80, vec![run(0, 0, 100, 0), run(45, 0, 100, 1)], 100);
    let folded = TraceIndex::new(&sparse).collapse_idle().with_topology(&LaneTopology::of(&topo, 80));
    assert_eq!(folded.lane_names, ["CPU 0", "CPU 45", "78 idle"]);
    let lanes: Vec<usize> = folded.groups.iter().map(|g| g.0).collect();
    assert_eq!(lanes, [0, 1]);

    // Eight CPUs of the same machine: one LLC, no siblings, nothing changes.
    let small = gen_trace(8, 20, 7);
    let plain = TraceIndex::new(&small);
    assert_eq!(plain.clone().with_topology(&LaneTopology::of(&topo, 8)), plain);
}
