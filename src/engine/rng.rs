//! The simulation's randomness: one seed, one ChaCha8 stream per source.
//!
//! Streams are derived from the config's `seed` and a fixed stream id, so a workload's
//! draws do not depend on what the scheduler did (common random numbers: two policies
//! see the same workload). Never `StdRng` (not reproducible across versions) and never
//! floats for anything that orders events.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::time::Ns;

/// Stream ids, one per source of randomness.
pub mod stream {
    pub const WORKLOAD: u64 = 1;
    pub const PLACEMENT: u64 = 2;
    /// The phase of each CPU's softlockup watchdog hrtimer (`sim::tick`).
    pub const WATCHDOG: u64 = 3;
}

/// A seeded random stream.
#[derive(Clone, Debug)]
pub struct SimRng(ChaCha8Rng);

impl SimRng {
    pub fn new(seed: u64, stream_id: u64) -> Self {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        r.set_stream(stream_id);
        SimRng(r)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        self.0.gen_range(lo..=hi)
    }

    /// A duration around `mean` with a spread of +-`spread_pct` percent (uniform).
    pub fn around(&mut self, mean: Ns, spread_pct: u64) -> Ns {
        let d = mean / 100 * spread_pct.min(100);
        self.range(mean.saturating_sub(d), mean + d)
    }

    /// Log-uniform-ish heavy tail: `lo * 2^(k/8)` for a uniform k, capped at `hi`.
    /// Integer only, so the same on every target.
    pub fn log_uniform(&mut self, lo: Ns, hi: Ns) -> Ns {
        if hi <= lo {
            return lo;
        }
        let lo = lo.max(1);
        let steps = (64 - (hi / lo).leading_zeros() as u64) * 8;
        let k = self.range(0, steps);
        let mut v = lo << (k / 8);
        // 2^(1/8) ~= 1.0905: apply the fractional eighths as integer ratios.
        for _ in 0..(k % 8) {
            v = v / 10_000 * 10_905;
        }
        v.clamp(lo, hi)
    }

    /// True with probability `num/den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.range(0, den.saturating_sub(1)) < num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_independent_and_repeatable() {
        let mut a = SimRng::new(7, stream::WORKLOAD);
        let mut b = SimRng::new(7, stream::WORKLOAD);
        let mut c = SimRng::new(7, stream::PLACEMENT);
        let va: Vec<_> = (0..8).map(|_| a.range(0, 1_000_000)).collect();
        let vb: Vec<_> = (0..8).map(|_| b.range(0, 1_000_000)).collect();
        let vc: Vec<_> = (0..8).map(|_| c.range(0, 1_000_000)).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
    }

    #[test]
    fn log_uniform_stays_in_range() {
        let mut r = SimRng::new(1, 1);
        for _ in 0..1000 {
            let v = r.log_uniform(100, 10_000);
            assert!((100..=10_000).contains(&v));
        }
    }
}
