//! The trace's index for drawing: each core's spans sorted by start with a running maximum of
//! their ends (`TraceIndex`), built at once or a slice at a time (`IndexBuilder`).

use super::*;
use crate::ui::common::topology::LaneTopology;

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
    /// Lanes that start a topology group (socket, LLC, second threads) with the group's label
    /// and its short form (`with_topology`); empty when the run has one LLC and no siblings,
    /// or no topology.
    pub groups: Vec<(usize, String, String)>,
    /// Per core: its name with its sibling ("CPU 41 (sibling of 1)") and its group's label,
    /// for the tooltip; empty without groups.
    pub cpu_titles: Vec<(String, String)>,
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

    /// Marks the machine's topology (`ui::common::topology::LaneTopology`) on the lanes: a
    /// group starts at each lane whose core's (socket, LLC, thread) differs from the lane
    /// above's; the collapsed idle lane starts none. Done once per trace (after
    /// `collapse_idle`), so a frame only draws `groups`.
    pub fn with_topology(mut self, topo: &LaneTopology) -> Self {
        self.groups.clear();
        self.cpu_titles.clear();
        if topo.is_empty() {
            return self;
        }
        let mut core_of_lane: Vec<Option<usize>> = vec![None; self.lanes];
        for (c, &l) in self.lane_of_core.iter().enumerate() {
            if let Some(slot) = core_of_lane.get_mut(l) {
                slot.get_or_insert(c);
            }
        }
        if !self.collapsed.is_empty() {
            if let Some(last) = core_of_lane.last_mut() {
                *last = None;
            }
        }
        let mut prev = None;
        for (lane, core) in core_of_lane.iter().enumerate() {
            let key = core.and_then(|c| topo.group.get(c));
            if key.is_some() && key != prev {
                if let Some(c) = *core {
                    let (label, short) = (topo.group_label(c), topo.group_short(c));
                    self.groups.push((lane, label.unwrap_or_default(), short.unwrap_or_default()));
                }
            }
            prev = key;
        }
        self.cpu_titles = (0..self.lane_of_core.len())
            .map(|c| (topo.cpu_label(c), topo.group_label(c).unwrap_or_default()))
            .collect();
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
            groups: Vec::new(),
            cpu_titles: Vec::new(),
            idle: (0..lanes).filter(|&c| !self.ran[c]).collect(),
        }
    }
}
