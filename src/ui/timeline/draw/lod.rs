//! Level of detail: each lane's bands reduced to one colour per pixel column (`lod_lane`), and
//! the marks and arrows into a lane, bounded per view (`lane_marks`).

use super::*;

// ---------------------------------------------------------------- level of detail

pub(super) const EMPTY: u8 = u8::MAX;
/// Colours tracked per column; past this the smallest share is replaced (approximate but bounded).
pub(super) const SLOTS: usize = 4;
pub(super) type Slots = [(u8, f32); SLOTS];

#[inline(always)]
pub(super) fn add_cover(slots: &mut Slots, colour: u8, cover: f32) {
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
pub(super) fn dominant(slots: &Slots) -> u8 {
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
pub(super) fn columns(s: &Span, view: &View, cols: usize) -> Option<(f64, f64)> {
    let per_col = view.len() / cols as f64;
    let x0 = ((s.start as f64 - view.t0) / per_col).max(0.0);
    let x1 = ((s.end as f64 - view.t0) / per_col).min(cols as f64);
    if (s.end as f64) <= view.t0 || (s.start as f64) >= view.t1 || x1 < x0 {
        return None;
    }
    Some((x0, x1))
}

#[inline(always)]
pub(super) fn paint(acc: &mut [Slots], x0: f64, x1: f64, colour: u8) {
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

pub(super) fn merge(acc: &[Slots], out: &mut Vec<ColRect>) {
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
