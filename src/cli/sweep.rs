//! `sweep` on every core: the runs of a sweep spread over scoped threads (`--jobs N`, by
//! default `std::thread::available_parallelism`), with replicas over seeds (`--replicas N`:
//! seeds `seed`, `seed+1`, ...) and a second key (`--param2 KEY --values2 ...`: a grid).
//!
//! Each run is a pure function of its config, and results are put back in the index order
//! of the runs, so the output does not depend on `--jobs` (only `wall_s` does, which is
//! host time).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::setup::simulate;
use super::CliError;
use crate::engine::config::Config;
use crate::engine::metrics::{self, Metrics};

/// Most replicas per point.
pub const MAX_REPLICAS: usize = 64;
/// Most threads.
pub const MAX_JOBS: usize = 256;

/// The default number of threads: the host's cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Runs every config on `jobs` threads; results in the order of `configs`. The first
/// error (in that order) is returned.
pub fn run_all(configs: &[Config], jobs: usize) -> Result<Vec<Metrics>, CliError> {
    let jobs = jobs.clamp(1, configs.len().max(1));
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Result<Metrics, CliError>>>> = Mutex::new((0..configs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = configs.get(i) else { break };
                let r = simulate(c, None).map(|o| o.metrics);
                if let Ok(mut s) = slots.lock() {
                    s[i] = Some(r);
                }
            });
        }
    });
    let slots = slots.into_inner().map_err(|_| CliError::usage("sweep: a worker thread panicked"))?;
    slots.into_iter().map(|r| r.unwrap_or_else(|| Err(CliError::usage("sweep: a run did not finish")))).collect()
}

/// `config` with its seed moved by `replica` (replica 0 is the config itself).
pub fn replica_config(config: &Config, replica: usize) -> Config {
    let mut c = config.clone();
    c.seed = c.seed.wrapping_add(replica as u64);
    c
}

/// Mean, minimum and maximum of `metric` over a point's replicas.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    pub n: usize,
}

/// The spread of `metric` over `runs` (an unknown metric reads as the main result).
pub fn spread(runs: &[Metrics], metric: &str) -> Spread {
    let vs: Vec<f64> = runs.iter().map(|m| metrics::value(m, metric).unwrap_or(m.throughput)).collect();
    let n = vs.len();
    let mean = if n == 0 { 0.0 } else { vs.iter().sum::<f64>() / n as f64 };
    let min = vs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = vs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Spread { mean, min: if n == 0 { 0.0 } else { min }, max: if n == 0 { 0.0 } else { max }, n }
}

/// One cell of a grid or replicated sweep, as `--json` prints it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Cell {
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value2: Option<String>,
    pub metric: String,
    #[serde(flatten)]
    pub spread: Spread,
    /// Every replica's metrics, seed order.
    pub runs: Vec<Metrics>,
}

/// The readable grid: one row per value of the first key, one column per value of the
/// second (or mean, min, max without one).
pub fn grid_text(param: &str, param2: Option<&str>, metric: &str, cells: &[Cell], values2: &[String]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let (label, unit) = metrics::label_unit(metric, cells.first().and_then(|c| c.runs.first()));
    let label = super::report::lower_title(&label);
    let unit = if unit.is_empty() { String::new() } else { format!(" ({unit})") };
    let reps = cells.first().map_or(1, |c| c.spread.n);
    let _ = writeln!(s, "{label}{unit}, mean of {reps} seed{}", if reps == 1 { "" } else { "s" });
    match param2 {
        Some(p2) => {
            let _ = write!(s, "{:>14}", format!("{param} \\ {p2}"));
            for v in values2 {
                let _ = write!(s, " {v:>12}");
            }
            s.push('\n');
            for row in cells.chunks(values2.len().max(1)) {
                let _ = write!(s, "{:>14}", row[0].value);
                for c in row {
                    let _ = write!(s, " {:>12}", fmt(c.spread.mean));
                }
                s.push('\n');
            }
        }
        None => {
            let _ = writeln!(s, "{param:>14} {:>12} {:>12} {:>12}", "mean", "min", "max");
            for c in cells {
                let _ = writeln!(
                    s,
                    "{:>14} {:>12} {:>12} {:>12}",
                    c.value,
                    fmt(c.spread.mean),
                    fmt(c.spread.min),
                    fmt(c.spread.max)
                );
            }
        }
    }
    s
}

fn fmt(x: f64) -> String {
    if x.abs() >= 1000.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::presets::preset;

    fn strip_wall(mut ms: Vec<Metrics>) -> Vec<Metrics> {
        ms.iter_mut().for_each(|m| m.wall_s = 0.0);
        ms
    }

    #[test]
    fn one_thread_and_two_give_the_same_results_in_the_same_order() {
        let base = (preset("intro").unwrap().config)();
        let configs: Vec<Config> = ["1ms", "3ms", "6ms", "12ms", "24ms"]
            .iter()
            .map(|v| {
                let mut c = base.clone();
                c.set("sched_latency", v).unwrap();
                c
            })
            .collect();
        let one = strip_wall(run_all(&configs, 1).unwrap());
        let two = strip_wall(run_all(&configs, 2).unwrap());
        assert_eq!(one, two);
        let digests: Vec<&str> = one.iter().map(|m| m.digest.as_str()).collect();
        let alone: Vec<String> = configs.iter().map(|c| crate::engine::run(c, None).unwrap().metrics.digest).collect();
        assert_eq!(digests, alone, "in the order of the configs");
    }

    #[test]
    fn spreads_are_mean_min_max_and_replicas_move_the_seed() {
        let ms: Vec<Metrics> =
            [1.0, 3.0, 2.0].iter().map(|&t| Metrics { throughput: t, ..Default::default() }).collect();
        assert_eq!(spread(&ms, "throughput"), Spread { mean: 2.0, min: 1.0, max: 3.0, n: 3 });
        assert_eq!(spread(&[], "throughput").n, 0);
        let c = Config::default();
        assert_eq!(replica_config(&c, 0), c);
        assert_eq!(replica_config(&c, 2).seed, c.seed + 2);
    }
}
