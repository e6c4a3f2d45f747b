//! The timeline's colours: the chrome around its series (light and dark), the colour ids the
//! level of detail paints with, and which palette slot each task gets.

use super::*;

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
pub(super) const SYS_BASE: u8 = 8;
pub(super) const OVERHEAD_BASE: u8 = 16;
pub(super) const IDLE_BASE: u8 = 23;

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
pub(super) fn colour_of(kind: SpanKind, colours: &TaskColours, idle_count: usize) -> u8 {
    match kind {
        SpanKind::Run { task, sys: false } => colours.slot(task),
        SpanKind::Run { task, sys: true } => SYS_BASE + colours.slot(task),
        SpanKind::Overhead { kind } => OVERHEAD_BASE + overhead_index(kind) as u8,
        SpanKind::Idle { state } => IDLE_BASE + idle_shade(state, idle_count),
    }
}
