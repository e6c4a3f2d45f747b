//! The timeline's input as numbers (pure, tested natively): what a wheel turn, a pinch, a tap and a key do.
//!
//! `timeline::input` reads the browser's events and applies these to the view; nothing here
//! touches the browser.

use crate::engine::decimal::Within as _;

/// What a wheel turn does: vertical zooms (by this factor, around the pointer), horizontal
/// pans (by this many CSS pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wheel {
    Zoom(f64),
    Pan(f64),
}

/// A wheel event's deltas in its `deltaMode` (0 pixels, 1 lines, 2 pages) as a zoom or a pan.
pub fn wheel(delta_mode: u32, dx: f64, dy: f64) -> Wheel {
    let unit = match delta_mode {
        1 => 16.0,
        2 => 400.0,
        _ => 1.0,
    };
    let (dx, dy) = (dx * unit, dy * unit);
    if dy.abs() >= dx.abs() {
        Wheel::Zoom((dy * 0.0015).within(-1.0, 1.0).exp())
    } else {
        Wheel::Pan(-dx)
    }
}

/// One pointer of two moved (CSS x): the zoom their horizontal distance sets (none while
/// they are within 10 px), around their new midpoint, and the pan of that midpoint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pinch {
    pub zoom: Option<f64>,
    pub at: f64,
    pub pan: f64,
}

/// The pinch when a pointer moves from `was` to `x` while the other one is at `other`.
pub fn pinch(was: f64, x: f64, other: f64) -> Pinch {
    let (old, new) = ((was - other).abs(), (x - other).abs());
    let (mid_old, mid_new) = ((was + other) / 2.0, (x + other) / 2.0);
    Pinch { zoom: (old > 10.0 && new > 10.0).then(|| old / new), at: mid_new, pan: mid_new - mid_old }
}

/// A tap or click: the pointer moved under 6 CSS px each way since it went down.
pub fn is_tap(down: (f64, f64), up: (f64, f64)) -> bool {
    !((up.0 - down.0).abs() > 6.0 || (up.1 - down.1).abs() > 6.0)
}

/// What a key on the focused canvas does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Key {
    /// Inspect the next (`dir` 1) or previous (-1) span from the selected one (or, with
    /// `from_selected` false, from the view's middle).
    Step {
        from_selected: bool,
        dir: i32,
    },
    /// Pan by this fraction of the view's length.
    Pan(f64),
    ZoomIn,
    ZoomOut,
    Home,
    End,
    Fit,
    /// Zoom to the selected span.
    Focus,
}

/// The key (`KeyboardEvent.key`) as an action; None: not the timeline's.
pub fn key(name: &str) -> Option<Key> {
    Some(match name {
        "Enter" => Key::Step { from_selected: false, dir: 1 },
        "[" => Key::Step { from_selected: true, dir: -1 },
        "]" => Key::Step { from_selected: true, dir: 1 },
        "ArrowLeft" => Key::Pan(-0.1),
        "ArrowRight" => Key::Pan(0.1),
        "ArrowUp" | "+" | "=" => Key::ZoomIn,
        "ArrowDown" | "-" | "_" => Key::ZoomOut,
        "Home" => Key::Home,
        "End" => Key::End,
        "f" | "F" | "0" => Key::Fit,
        "z" | "Z" => Key::Focus,
        _ => return None,
    })
}

/// The PNG's file name for a run's label: `timeline-<label>.png`, unsafe characters as `_`.
pub fn png_name(label: &str) -> String {
    let name = if label.is_empty() { "timeline".to_string() } else { format!("timeline-{label}") };
    format!("{}.png", name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wheel_zooms_vertically_and_pans_horizontally_in_its_units() {
        assert_eq!(wheel(0, 0.0, 0.0), Wheel::Zoom(1.0));
        assert!(matches!(wheel(0, 0.0, 100.0), Wheel::Zoom(f) if f > 1.0));
        assert!(matches!(wheel(0, 0.0, -100.0), Wheel::Zoom(f) if f < 1.0));
        // A page is at most e (the factor is clamped).
        assert_eq!(wheel(2, 0.0, 10.0), Wheel::Zoom(1f64.exp()));
        assert_eq!(wheel(1, 2.0, 1.0), Wheel::Pan(-32.0));
    }

    #[test]
    fn pinch_zooms_only_apart_and_pans_the_midpoint() {
        let p = pinch(100.0, 120.0, 0.0);
        assert_eq!(p, Pinch { zoom: Some(100.0 / 120.0), at: 60.0, pan: 10.0 });
        assert_eq!(pinch(5.0, 8.0, 0.0).zoom, None);
    }

    #[test]
    fn a_tap_moves_at_most_six_pixels() {
        assert!(is_tap((10.0, 10.0), (16.0, 4.0)));
        assert!(!is_tap((10.0, 10.0), (16.5, 10.0)));
        assert!(!is_tap((10.0, 10.0), (10.0, 3.0)));
    }

    #[test]
    fn keys_and_file_names() {
        assert_eq!(key("["), Some(Key::Step { from_selected: true, dir: -1 }));
        assert_eq!(key("Enter"), Some(Key::Step { from_selected: false, dir: 1 }));
        assert_eq!(key("="), Some(Key::ZoomIn));
        assert_eq!(key("q"), None);
        assert_eq!(png_name(""), "timeline.png");
        assert_eq!(png_name("CFS 6.6/a"), "timeline-CFS_6_6_a.png");
    }
}
