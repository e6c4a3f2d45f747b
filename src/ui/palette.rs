//! The one colour palette of the UI and the timeline: colour-blind-safe (Okabe-Ito for tasks,
//! Paul Tol's "muted" set for overheads, a blue-grey ramp for idle depth).
//!
//! Pure data and functions (no web-sys): the timeline canvas and the SVG plots both read
//! from here so a task has the same colour everywhere.

use crate::engine::trace::Overhead;

/// Colours for tasks (by task group index, wrapping). Okabe & Ito (2008), without black.
pub const TASK_COLORS: &[&str] = &["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"];

/// Series colours for compare views and plots: A (the pinned config) and B (the current one).
pub const SERIES_A: &str = "#E69F00";
pub const SERIES_B: &str = "#0072B2";

/// Colour of one kind of overhead (Paul Tol's muted scheme, distinct from the task colours).
pub fn overhead_color(kind: Overhead) -> &'static str {
    match kind {
        Overhead::Switch => "#882255",
        Overhead::Refill => "#999933",
        Overhead::Reprogram => "#332288",
        Overhead::Ipi => "#CC6677",
        Overhead::CStateExit => "#44AA99",
        Overhead::Tick => "#117733",
        Overhead::Wakeup => "#DDCC77",
    }
}

/// Colour of idle state `depth` (0 is POLL) out of `of` states (including POLL): a
/// blue-grey ramp from light (shallow, costs nothing to leave) to dark (deep).
pub fn idle_color(depth: u8, of: u8) -> String {
    let last = of.saturating_sub(1).max(1) as u32;
    let d = (depth as u32).min(last);
    // Lightness 88% for POLL down to 48% for the deepest state.
    let lightness = 88 - (40 * d) / last;
    format!("hsl(210, 18%, {lightness}%)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overheads_have_distinct_colours_not_used_by_tasks() {
        let mut seen: Vec<&str> = Vec::new();
        for kind in Overhead::ALL {
            let c = overhead_color(kind);
            assert!(!seen.contains(&c), "{kind:?} repeats {c}");
            assert!(!TASK_COLORS.contains(&c), "{kind:?} looks like a task");
            seen.push(c);
        }
    }

    #[test]
    fn idle_ramp_darkens_with_depth_and_tolerates_odd_input() {
        assert_eq!(idle_color(0, 4), "hsl(210, 18%, 88%)");
        assert_eq!(idle_color(3, 4), "hsl(210, 18%, 48%)");
        assert_eq!(idle_color(9, 4), "hsl(210, 18%, 48%)", "depth past the table clamps");
        assert_eq!(idle_color(0, 0), "hsl(210, 18%, 88%)", "an empty table does not divide by zero");
        assert_eq!(idle_color(1, 1), "hsl(210, 18%, 48%)");
    }
}
