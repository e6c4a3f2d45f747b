//! The one colour palette of the UI and the timeline: colour-blind-safe (Okabe-Ito for tasks,
//! Paul Tol's "muted" set for overheads, a muted cubehelix-like ramp for idle depth).
//!
//! Pure data and functions (no web-sys): the timeline canvas and the SVG plots both read
//! from here so a task has the same colour everywhere.

/// Task colours: the Okabe-Ito colour-blind-safe palette (black softened to `#333333` so
/// text and arrows stay distinguishable from a black task).
pub const TASK_COLOURS: [&str; 8] =
    ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#333333"];
/// The same colours mixed 55% towards white: a task's `sys` (kernel) bursts.
pub const SYS_COLOURS: [&str; 8] =
    ["#8CC0DC", "#F4D48C", "#8CD3C0", "#E8C3D7", "#B3DDF5", "#ECB78C", "#F8F3AA", "#A3A3A3"];
/// Overheads, in `Overhead::ALL` order, from Paul Tol's colour-blind-safe "muted" scheme,
/// drawn in the lane's lower band so they never read as a task.
pub const OVERHEAD_COLOURS: [&str; 7] = ["#882255", "#CC6677", "#332288", "#AA4499", "#44AA99", "#999933", "#DDCC77"];
/// Idle shades from POLL (lightest) to the deepest C-state (darkest): lightness falls
/// with depth (deeper recedes) while the hue turns from sage through blue-grey to plum, so
/// C1, C1E and C6 are told apart by colour on a projector, not only by a step of grey.
/// Muted, so an idle span never reads as one of the saturated task colours.
pub const IDLE_COLOURS: [&str; 8] =
    ["#F5F5F0", "#E0E8D8", "#C8DCD8", "#B0C4D8", "#A8A8CC", "#9C8CB4", "#806E94", "#5C4E6C"];

/// The same ramp for the dark theme: the hues of `IDLE_COLOURS` (sage, blue-grey, plum),
/// with lightness falling from a mid tone (POLL) towards the dark panel (`#171e26`), so
/// depth still recedes and C1, C1E and C6 still differ in hue, not only in grey.
pub const IDLE_COLOURS_DARK: [&str; 8] =
    ["#8A9382", "#74876E", "#5E7F7A", "#557088", "#5A5A90", "#63508A", "#503F6E", "#3C3052"];

/// Outline of an idle-shaded bar or swatch (the lightest shades vanish on a light panel).
pub const IDLE_OUTLINE: &str = "#8A8A8A";

/// Series colours for compare views and plots: A (the pinned config) and B (the current one).
pub const SERIES_A: &str = "#E69F00";
pub const SERIES_B: &str = "#0072B2";

/// Idle state `state` of `count` states mapped onto the 8 shades, POLL lightest, deepest darkest.
pub fn idle_shade(state: u8, count: usize) -> u8 {
    let last = IDLE_COLOURS.len() - 1;
    if count <= 1 {
        return 0;
    }
    let s = (state as usize).min(count - 1);
    ((s * last + (count - 1) / 2) / (count - 1)).min(last) as u8
}

/// The colour of idle state `depth` (0 is POLL) out of `of` states (including POLL): the
/// timeline's shade for it, so a C-state has one colour in every view.
pub fn idle_color(depth: u8, of: u8) -> String {
    IDLE_COLOURS[idle_shade(depth, of as usize) as usize].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::Overhead;

    fn rgb(hex: &str) -> [f64; 3] {
        let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
        [(v >> 16) as f64, ((v >> 8) & 0xff) as f64, (v & 0xff) as f64]
    }

    #[test]
    fn idle_shades_recede_with_depth_and_three_states_differ_in_colour_on_both_themes() {
        for ramp in [IDLE_COLOURS, IDLE_COLOURS_DARK] {
            let light: Vec<f64> = ramp.iter().map(|c| rgb(c).iter().sum::<f64>()).collect();
            assert!(light.windows(2).all(|w| w[1] < w[0]), "lightness falls with depth: {ramp:?}");
            // POLL, C1, C1E, C6 (4 states): each pair of neighbours visibly apart.
            let shades: Vec<[f64; 3]> = (0..4).map(|s| rgb(ramp[idle_shade(s, 4) as usize])).collect();
            for w in shades.windows(2) {
                let d = w[0].iter().zip(&w[1]).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt();
                assert!(d > 40.0, "neighbouring states too close ({d:.0}) in {ramp:?}");
            }
            // Not a grey ramp: the deep states carry a hue.
            let deep = rgb(ramp[7]);
            assert!(deep[2] - deep[1] > 15.0, "the deepest state is plum, not grey: {ramp:?}");
        }
    }

    #[test]
    fn overheads_have_distinct_colours_not_used_by_tasks() {
        let mut seen: Vec<&str> = Vec::new();
        for c in OVERHEAD_COLOURS {
            assert!(!seen.contains(&c), "{c} repeats");
            assert!(!TASK_COLOURS.contains(&c), "{c} looks like a task");
            seen.push(c);
        }
        assert_eq!(OVERHEAD_COLOURS.len(), Overhead::ALL.len(), "one colour per overhead kind");
    }

    #[test]
    fn idle_ramp_darkens_with_depth_and_tolerates_odd_input() {
        assert_eq!(idle_color(0, 4), IDLE_COLOURS[0], "POLL is the lightest");
        assert_eq!(idle_color(3, 4), IDLE_COLOURS[7], "the deepest of four is the darkest");
        assert_eq!(idle_color(9, 4), IDLE_COLOURS[7], "depth past the table clamps");
        assert_eq!(idle_color(0, 0), IDLE_COLOURS[0], "an empty table does not divide by zero");
        let luma = |hex: &str| {
            let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
            let (r, g, b) = ((v >> 16) & 255, (v >> 8) & 255, v & 255);
            2126 * r + 7152 * g + 722 * b
        };
        let shades: Vec<u32> = IDLE_COLOURS.iter().map(|c| luma(c)).collect();
        assert!(shades.windows(2).all(|w| w[0] > w[1]), "darker with every level: {shades:?}");
    }

    #[test]
    fn four_idle_states_get_distinct_hues_not_only_greys() {
        // POLL, C1, C1E, C6 (Seed 3's CPU): no two shades are greys of one another.
        let picked: Vec<&str> = (0..4).map(|d| IDLE_COLOURS[idle_shade(d, 4) as usize]).collect();
        let grey = |hex: &str| {
            let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
            let (r, g, b) = ((v >> 16) & 255, (v >> 8) & 255, v & 255);
            r.max(g).max(b) - r.min(g).min(b) < 8
        };
        assert_eq!(picked.iter().filter(|c| grey(c)).count(), 1, "only POLL is near-grey: {picked:?}");
        for c in &picked {
            assert!(!TASK_COLOURS.contains(c));
        }
    }
}
