//! The main figures as the mean of N seeds (`seeds=N`): the runs of seeds 2..N of a config,
//! their mean, minimum and maximum with the config's own run, and the rule that tells an
//! effect from seed noise in the A/B table.
//!
//! The extra runs are full runs of the same config with `seed + r` (r = 1..N-1); the
//! config's own run is replica 0. Nothing here depends on the order the answers come in:
//! each has its slot. Pure (no browser calls); tested natively.

use std::rc::Rc;

use crate::engine::config::Config;
use crate::engine::metrics::Metrics;

/// Most seeds the main figures may average (the URL's limit too).
pub const MAX_SEEDS: u32 = crate::share::url::MAX_REPLICAS;

/// The counts the page offers.
pub const CHOICES: [u32; 5] = [1, 3, 5, 10, 16];

/// The extra runs of one config (A's or B's).
#[derive(Clone, Debug, PartialEq)]
pub struct Reps {
    /// Whose runs these are: the config generation (B) or the pin id (A).
    pub owner: u64,
    /// The config they are runs of (with its own seed; replica r runs `seed + r`).
    pub config: Config,
    /// Replica r (1-based) is `runs[r - 1]`.
    pub runs: Vec<Option<Rc<Metrics>>>,
    /// Replicas that failed (1-based; their slot stays empty and is not asked for again).
    pub failed: Vec<usize>,
}

impl Reps {
    pub fn new(owner: u64, config: &Config, seeds: u32) -> Self {
        let n = seeds.clamp(1, MAX_SEEDS) as usize;
        Reps { owner, config: config.clone(), runs: vec![None; n - 1], failed: Vec::new() }
    }

    /// How many runs the figures need, the config's own included.
    pub fn seeds(&self) -> usize {
        self.runs.len() + 1
    }

    /// The replicas still to run (1-based), in order: neither in nor failed.
    pub fn missing(&self) -> Vec<usize> {
        (1..=self.runs.len()).filter(|r| self.runs[r - 1].is_none() && !self.failed.contains(r)).collect()
    }

    /// Puts replica `r`'s answer in its slot (a late duplicate changes nothing).
    pub fn put(&mut self, r: usize, result: Result<Metrics, String>) {
        let Some(slot) = r.checked_sub(1).and_then(|i| self.runs.get_mut(i)) else { return };
        match result {
            Ok(m) if slot.is_none() => *slot = Some(Rc::new(m)),
            Ok(_) => {}
            Err(_) if !self.failed.contains(&r) => self.failed.push(r),
            Err(_) => {}
        }
    }

    /// Whether every replica has answered (a failed one counts as answered: its figure is
    /// left out of the mean, and the page says so).
    pub fn complete(&self) -> bool {
        self.missing().is_empty()
    }
}

/// The config of replica `r`: the same config with the seed `r` after its own.
pub fn replica_config(config: &Config, r: usize) -> Config {
    Config { seed: config.seed.wrapping_add(r as u64), ..config.clone() }
}

/// A figure over several seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedStats {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// Runs counted.
    pub n: usize,
}

/// `get` over the config's own run and the replicas in so far (`spread`).
pub fn stats(main: &Metrics, reps: &Reps, get: impl Fn(&Metrics) -> f64) -> Option<SeedStats> {
    spread(std::iter::once(main).chain(reps.runs.iter().flatten().map(|m| &**m)).map(get))
}

/// Mean, minimum and maximum of the finite `values` (None without any). The sweep's cells
/// over their replicas are the same figure (`sweep::cell_stats`).
pub fn spread(values: impl Iterator<Item = f64>) -> Option<SeedStats> {
    let values: Vec<f64> = values.filter(|v| v.is_finite()).collect();
    if values.is_empty() {
        return None;
    }
    let n = values.len();
    let mean = values.iter().sum::<f64>() / n as f64;
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some(SeedStats { mean, min, max, n })
}

/// Whether B's seed range and A's overlap: then their difference is within what the seed
/// alone changes, and the A/B table does not call it better or worse.
pub fn within_seed_noise(a: &SeedStats, b: &SeedStats) -> bool {
    a.min <= b.max && b.min <= a.max
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(throughput: f64) -> Metrics {
        Metrics { throughput, ..Metrics::default() }
    }

    #[test]
    fn replicas_run_the_seeds_after_the_configs_own() {
        let c = Config { seed: 7, ..Config::default() };
        assert_eq!(replica_config(&c, 2).seed, 9);
        assert_eq!(replica_config(&c, 2), Config { seed: 9, ..c.clone() }, "only the seed differs");
        let r = Reps::new(1, &c, 3);
        assert_eq!((r.seeds(), r.missing()), (3, vec![1, 2]));
        assert_eq!(Reps::new(1, &c, 0).seeds(), 1, "0 seeds is the plain run");
        assert_eq!(Reps::new(1, &c, 99).seeds(), MAX_SEEDS as usize);
        let top = Config { seed: u64::MAX, ..Config::default() };
        assert_eq!(replica_config(&top, 1).seed, 0, "wraps, never overflows");
    }

    #[test]
    fn stats_are_the_mean_min_max_of_the_runs_in_whatever_order_they_came() {
        let c = Config::default();
        let mut r = Reps::new(1, &c, 3);
        assert_eq!(stats(&m(10.0), &r, |m| m.throughput), Some(SeedStats { mean: 10.0, min: 10.0, max: 10.0, n: 1 }));
        r.put(2, Ok(m(16.0)));
        r.put(1, Ok(m(13.0)));
        r.put(1, Ok(m(99.0)));
        r.put(5, Ok(m(99.0)));
        r.put(0, Ok(m(99.0)));
        assert!(r.complete());
        assert_eq!(stats(&m(10.0), &r, |m| m.throughput), Some(SeedStats { mean: 13.0, min: 10.0, max: 16.0, n: 3 }));
        let mut f = Reps::new(1, &c, 2);
        f.put(1, Err("boom".into()));
        f.put(1, Err("boom".into()));
        assert_eq!((f.failed.clone(), f.missing(), f.complete()), (vec![1], vec![], true), "not asked for again");
        assert_eq!(stats(&m(f64::NAN), &f, |m| m.throughput), None);
    }

    #[test]
    fn overlapping_seed_ranges_are_noise_and_separate_ones_are_an_effect() {
        let s = |min, max| SeedStats { mean: (min + max) / 2.0, min, max, n: 3 };
        assert!(within_seed_noise(&s(1.0, 2.0), &s(1.5, 3.0)));
        assert!(within_seed_noise(&s(1.0, 2.0), &s(2.0, 3.0)), "touching ranges are not separate");
        assert!(!within_seed_noise(&s(1.0, 2.0), &s(2.1, 3.0)));
        assert!(!within_seed_noise(&s(2.1, 3.0), &s(1.0, 2.0)));
    }
}
