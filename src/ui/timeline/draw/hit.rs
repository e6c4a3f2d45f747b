//! Hit testing and what the pointer shows: the span under a pixel, its tooltip, the hover
//! overlay, the play cursor's sentence, the canvas's summary, a task's highlight and the
//! inspector's span outlined.

use crate::engine::decimal::Within as _;

use super::*;

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

/// Tooltip lines for span `i` with its CPU's place when the index knows the machine's
/// topology (`TraceIndex::with_topology`): "CPU 41 (sibling of 1): ..." and a last line with
/// its group ("socket 0 · LLC 0 · 2nd threads").
pub fn describe_placed(trace: &Trace, index: &TraceIndex, i: usize) -> Vec<String> {
    let mut lines = describe(trace, i);
    let title = trace.spans.get(i).and_then(|s| Some((s.core, index.cpu_titles.get(s.core as usize)?)));
    if let (Some((core, (name, group))), Some(first)) = (title, lines.first_mut()) {
        *first = first.replacen(&format!("CPU {core}"), name, 1);
        if !group.is_empty() {
            lines.push(group.clone());
        }
    }
    lines
}

/// The hover overlay: a playback cursor at device x `cursor` and a tooltip with `lines`
/// near the pointer `(px, py)`, kept inside the canvas.
pub fn overlay(layout: &Layout, lines: &[String], px: f64, py: f64, cursor: Option<f64>) -> Scene {
    let mut sc = Scene::default();
    let s = layout.px();
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
    let s = layout.px();
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
    // Playing, the readout sits in the gutter's corner above the CPU names, with the digits
    // that fit: following the cursor it covered the axis's labels, unreadable as it moved
    // (issue 29, a phone). Paused, the reader stopped to read: every digit, at the cursor.
    let (time, tpx, bx, w) = if playing {
        let px = 9.0 * s;
        let w = layout.gutter - 2.0 * s;
        let fits = |t: &String| t.chars().count() as f64 * px * 0.62 + 4.0 * s <= w;
        (gutter_time(t.max(0.0) as Ns, fits), px, 1.0 * s, w)
    } else {
        let time = precise_time(t.max(0.0) as Ns);
        let w = time.chars().count() as f64 * px * 0.62 + 8.0 * s;
        (time, px, (x - w / 2.0).within(layout.gutter, (layout.width - w).max(layout.gutter)), w)
    };
    sc.fill(layout.chrome.cursor).rects.push([bx, 1.0 * s, w, layout.axis_h - 2.0 * s]);
    sc.texts.push(Text {
        x: bx + w / 2.0,
        y: layout.axis_h * 0.45,
        text: time,
        colour: layout.chrome.background,
        px: tpx,
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
    if !index.groups.is_empty() {
        let first = |g: &(usize, String, String)| g.1.clone();
        s += &format!(
            "; lanes in {} groups by socket and LLC: {}",
            index.groups.len(),
            index.groups.iter().map(first).collect::<Vec<_>>().join(", ")
        );
    }
    if !index.collapsed.is_empty() {
        s += &format!("; {} idle CPUs in one lane", index.collapsed.len());
    }
    if trace.truncated {
        s += "; trace truncated";
    }
    s
}

/// A time in as many decimals (three down to none) as `fits` allows, `precise_time`'s unit.
fn gutter_time(t: Ns, fits: impl Fn(&String) -> bool) -> String {
    let (u, name) = unit_for(t.max(1));
    (0..=3).rev().map(|d| fmt_in(t, u, name, d)).find(|s| fits(s)).unwrap_or_else(|| fmt_in(t, u, name, 0))
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
        frame(&mut sc, layout, lane, (x0, x1), w);
    }
    sc
}

/// The inspector's span (`selected`, an index into `trace.spans`) outlined: a thicker frame
/// than a task's highlight, so the item the inspector explains is found on the canvas.
/// Empty when it is out of the view or on no shown lane.
pub fn outline(trace: &Trace, index: &TraceIndex, view: &View, layout: &Layout, selected: usize) -> Scene {
    let mut sc = Scene::default();
    let Some(s) = trace.spans.get(selected) else { return sc };
    if (s.end as f64) < view.t0 || (s.start as f64) > view.t1 {
        return sc;
    }
    let lane = index.lane_of_core.get(s.core as usize).copied().unwrap_or(s.core as usize);
    if lane >= index.lanes {
        return sc;
    }
    let (lo, hi) = (layout.gutter, layout.gutter + layout.plot_w() as f64);
    let w = 3.0 * layout.dpr;
    let x0 = layout.x_of(view, s.start as f64).max(lo);
    let x1 = layout.x_of(view, s.end as f64).min(hi).max(x0 + w);
    frame(&mut sc, layout, lane, (x0 - w / 2.0, x1 + w / 2.0), w);
    sc
}

/// A rectangle of `w`-wide strokes around `[x0, x1]` on `lane`'s main band.
fn frame(sc: &mut Scene, layout: &Layout, lane: usize, (x0, x1): (f64, f64), w: f64) {
    let (y, h) = layout.band(lane, Band::Main);
    let st = sc.stroke(layout.chrome.cursor, w, false);
    st.segs.push([x0, y, x1, y]);
    st.segs.push([x0, y + h, x1, y + h]);
    st.segs.push([x0, y, x0, y + h]);
    st.segs.push([x1, y, x1, y + h]);
}
