//! Pure numeric helpers for sliders and plots: log slider mapping, sweep values, axis ticks.
//!
//! Sliders are integer positions `0..=SLIDER_STEPS`. Durations map logarithmically over
//! their key's range (a key whose minimum is 0 keeps position 0 for 0 and maps the rest
//! from 1 us); integers map linearly unless their range spans more than three decades.

use crate::engine::config::{KeyDoc, KeyKind};
use crate::engine::time::US;

/// Positions of every slider (`<input type=range min=0 max=SLIDER_STEPS>`).
pub const SLIDER_STEPS: u32 = 1000;

/// Points in a sweep of a numeric key.
pub const SWEEP_POINTS: usize = 24;

/// How a numeric key's value maps to a slider or an axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mapping {
    /// The key's minimum (may be 0).
    pub min: u64,
    pub max: u64,
    /// Log scale between `lo` and `max` (`lo` > 0); position 0 is `min` when `min` < `lo`.
    pub log: bool,
    pub lo: u64,
}

/// The mapping of a key, or None for keys without a slider (booleans, choices, text, seed).
pub fn mapping(doc: &KeyDoc) -> Option<Mapping> {
    match doc.kind {
        KeyKind::Duration { min, max } => {
            let lo = min.max(US).min(max);
            Some(Mapping { min, max, log: true, lo })
        }
        KeyKind::Int { min, max } => {
            if doc.key == "seed" || max <= min {
                return None;
            }
            let lo = min.max(1);
            let log = max / lo > 1000;
            Some(Mapping { min, max, log, lo })
        }
        _ => None,
    }
}

impl Mapping {
    /// The slider position of `value`.
    pub fn to_pos(&self, value: u64) -> u32 {
        let v = value.clamp(self.min, self.max);
        if self.log {
            if v < self.lo {
                return 0;
            }
            let (lo, hi) = ((self.lo as f64).ln(), (self.max as f64).ln());
            if hi <= lo {
                return 0;
            }
            let f = ((v as f64).ln() - lo) / (hi - lo);
            let first = if self.min < self.lo { 1.0 } else { 0.0 };
            let p = (first + f * (SLIDER_STEPS as f64 - first)).round() as u32;
            // from_pos rounds to two digits: over many decades a step is finer than that
            // rounding, and the nearest position can show a neighbouring value (10000 ->
            // position 664 -> 9900 on 1..2^20). Prefer a neighbour that shows `v` itself.
            [p, p + 1, p.saturating_sub(1)]
                .into_iter()
                .find(|&q| q <= SLIDER_STEPS && self.from_pos(q) == v)
                .unwrap_or(p)
        } else {
            let span = (self.max - self.min) as f64;
            (((v - self.min) as f64 / span) * SLIDER_STEPS as f64).round() as u32
        }
    }

    /// The value at slider position `pos`, rounded to two significant digits on log scales
    /// so the text reads `6.3ms`, not `6312047ns`.
    pub fn from_pos(&self, pos: u32) -> u64 {
        let pos = pos.min(SLIDER_STEPS);
        if self.log {
            let first = if self.min < self.lo { 1 } else { 0 };
            if pos < first {
                return self.min;
            }
            let f = (pos - first) as f64 / (SLIDER_STEPS - first) as f64;
            let (lo, hi) = ((self.lo as f64).ln(), (self.max as f64).ln());
            let v = (lo + f * (hi - lo)).exp();
            round_sig(v.round() as u64, 2).clamp(self.lo, self.max)
        } else {
            let span = (self.max - self.min) as f64;
            self.min + ((pos as f64 / SLIDER_STEPS as f64) * span).round() as u64
        }
    }

    /// The value one keyboard step from `value` (`steps` slider positions, negative = down),
    /// skipping positions that round to the same value, so every arrow key press changes
    /// the knob until it reaches an end of its range.
    pub fn step(&self, value: u64, steps: i64) -> u64 {
        let mut pos = self.to_pos(value) as i64;
        loop {
            pos += steps;
            if pos < 0 || pos > SLIDER_STEPS as i64 {
                return if steps < 0 { self.min } else { self.max };
            }
            let v = self.from_pos(pos as u32);
            if (steps > 0 && v > value) || (steps < 0 && v < value) {
                return v;
            }
        }
    }

    /// `n` values across the range (log-spaced on log scales), rounded, sorted, deduplicated,
    /// always including `current` so the marker sits on the curve.
    pub fn sweep(&self, n: usize, current: u64) -> Vec<u64> {
        let n = n.max(2);
        let mut out: Vec<u64> = if !self.log && self.max - self.min < n as u64 {
            (self.min..=self.max).collect()
        } else {
            (0..n)
                .map(|i| {
                    let f = i as f64 / (n - 1) as f64;
                    if self.log {
                        let (lo, hi) = ((self.lo as f64).ln(), (self.max as f64).ln());
                        round_sig((lo + f * (hi - lo)).exp().round() as u64, 2).clamp(self.lo, self.max)
                    } else {
                        self.min + (f * (self.max - self.min) as f64).round() as u64
                    }
                })
                .collect()
        };
        out.push(current.clamp(self.min, self.max));
        crate::engine::order::sort(&mut out);
        out.dedup();
        out
    }
}

/// Rounds to `digits` significant decimal digits.
pub fn round_sig(v: u64, digits: u32) -> u64 {
    if v == 0 {
        return 0;
    }
    let len = v.ilog10() + 1;
    if len <= digits {
        return v;
    }
    let p = 10u64.pow(len - digits);
    ((v + p / 2) / p) * p
}

/// About `n` "nice" ticks (1, 2, 5 x 10^k steps) covering `[lo, hi]` on a linear axis.
pub fn linear_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() * step;
    let mut out = Vec::new();
    let mut t = first;
    while t <= hi + step * 1e-9 && out.len() < 50 {
        // Snap -0.0 and float noise.
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// Ticks on a log axis over `[lo, hi]` (both > 0): decades, plus 2 and 5 when there are
/// few decades.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo) {
        return vec![lo.max(f64::MIN_POSITIVE)];
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let mults: &[f64] = if b - a <= 3 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    let mut out = Vec::new();
    for e in a..=b {
        for m in mults {
            let t = m * 10f64.powi(e);
            if t >= lo * (1.0 - 1e-9) && t <= hi * (1.0 + 1e-9) {
                out.push(t);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::{key_doc, KEYS};
    use crate::engine::time::{MS, SEC};

    fn map(key: &str) -> Mapping {
        mapping(key_doc(key).unwrap()).unwrap()
    }

    #[test]
    fn duration_sliders_are_logarithmic_and_hit_the_ends() {
        let m = map("rr_interval"); // 100us..10s
        assert!(m.log);
        assert_eq!(m.from_pos(0), 100 * US);
        assert_eq!(m.from_pos(SLIDER_STEPS), 10 * SEC);
        // Halfway on a log scale over 5 decades is ~31.6ms, rounded to 2 digits.
        assert_eq!(m.from_pos(SLIDER_STEPS / 2), 32 * MS);
        assert_eq!(m.to_pos(6 * MS), 356);
    }

    #[test]
    fn zero_minimum_keeps_position_zero_for_zero() {
        let m = map("wakeup_granularity"); // 0..1s
        assert_eq!(m.from_pos(0), 0);
        assert_eq!(m.to_pos(0), 0);
        assert_eq!(m.from_pos(1), US);
        assert_eq!(m.from_pos(SLIDER_STEPS), SEC);
    }

    #[test]
    fn every_slider_round_trips_within_rounding() {
        for doc in KEYS {
            let Some(m) = mapping(doc) else { continue };
            for pos in (0..=SLIDER_STEPS).step_by(37) {
                let v = m.from_pos(pos);
                assert!(v >= m.min && v <= m.max, "{}: {v}", doc.key);
                // The value's own position shows the same value (the thumb does not jump).
                let back = m.to_pos(v);
                assert_eq!(m.from_pos(back), v, "{}: pos {pos} -> {v} -> {back}", doc.key);
                assert!(m.from_pos(pos.saturating_sub(37)) <= v, "{}: not monotone at {pos}", doc.key);
            }
        }
    }

    #[test]
    fn keyboard_steps_always_change_the_value_until_an_end() {
        let m = map("rr_interval");
        // 10ms rounds to 2 digits: one raw position up is still 10ms, a key step is not.
        assert_eq!(m.from_pos(m.to_pos(10 * MS) + 1), 10 * MS, "the case this guards against");
        assert_eq!(m.step(10 * MS, 1), 11 * MS);
        assert_eq!(m.step(10 * MS, -1), 9_900 * US);
        assert_eq!(m.step(10 * SEC, 1), 10 * SEC, "stays at the top");
        assert_eq!(m.step(100 * US, -1), 100 * US, "stays at the bottom");
        assert!(m.step(6 * MS, 100) > m.step(6 * MS, 1), "page steps are bigger");
        for doc in KEYS {
            let Some(m) = mapping(doc) else { continue };
            let mut v = m.min;
            let mut n = 0;
            while v < m.max {
                let next = m.step(v, 1);
                assert!(next > v, "{}: stuck at {v}", doc.key);
                v = next;
                n += 1;
            }
            assert!(n <= SLIDER_STEPS as usize + 1, "{}", doc.key);
        }
    }

    #[test]
    fn integer_sliders_are_linear_unless_the_range_is_huge() {
        assert!(!map("cores").log);
        assert_eq!(map("cores").from_pos(SLIDER_STEPS), 256);
        assert!(map("loops").log);
        assert!(mapping(key_doc("seed").unwrap()).is_none(), "seed has no slider");
        assert!(mapping(key_doc("nohz").unwrap()).is_none());
    }

    #[test]
    fn sweeps_cover_the_range_and_include_the_current_value() {
        let m = map("sched_latency");
        let s = m.sweep(SWEEP_POINTS, 6 * MS);
        assert!(s.len() >= 16 && s.len() <= 32, "{}", s.len());
        assert_eq!(s[0], 100 * US);
        assert_eq!(*s.last().unwrap(), SEC);
        assert!(s.contains(&(6 * MS)));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        let small = map("nohz_exit_reprograms").sweep(SWEEP_POINTS, 1);
        assert_eq!(small, vec![1, 2]);
    }

    #[test]
    fn significant_digit_rounding() {
        assert_eq!(round_sig(6_312_047, 2), 6_300_000);
        assert_eq!(round_sig(95, 2), 95);
        assert_eq!(round_sig(996, 2), 1000);
        assert_eq!(round_sig(0, 2), 0);
    }

    #[test]
    fn ticks_are_nice() {
        assert_eq!(linear_ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(linear_ticks(0.0, 0.0, 5), vec![0.0]);
        assert_eq!(log_ticks(1.0, 100.0), vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]);
        assert_eq!(log_ticks(1e2, 1e9).len(), 8);
    }
}
