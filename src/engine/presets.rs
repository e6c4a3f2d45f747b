//! Named presets: the three seed experiments (seed-measurements.md), the validation corpus
//! (`corpus.rs`) and teaching scenarios.
//!
//! A seed preset's config is the hardware, kernel era and workload of the experiment; its
//! `table` lists the rows of the mailing-list table as config changes on top of it, with
//! the figures reported there. Rows without figures are predictions: the model is not
//! fitted to them. No preset carries a constant of its own: everything comes from the
//! profile, the policy's kernel defaults and the workload.
//!
//! How each seed's effect comes out of the mechanisms (`validate --json` carries the
//! counters named here; figures and known misses are in BENCHMARKS.md):
//!
//! - **hrtick-iperf** (q6600, iperf -P 10): row 1 runs `kernel=2.6.23` (the wait_runtime CFS,
//!   `policy/cfs_2623.rs`: a receiver woken with its sleeper credit preempts its sender at the
//!   scaled wakeup granularity); row 2 runs `sched-devel-2007` (vruntime CFS, PREEMPT_RESTRICT's
//!   one preemption per tick), so the sender fills more of its window per switch. The hrtick
//!   row (predicted) adds HRTICK, which in that tree could not coexist with PREEMPT_RESTRICT:
//!   no wakeup preemption at all. Counters: `context_switches`, `ipis`.
//! - **rr-kbuild** (core2duo, `2.6.21-sd`, make -j8 through a jobserver, `workload/kbuild.rs`):
//!   every quantum expiry with others waiting is a forced switch; the incoming compiler
//!   refills `ws * T / (T + llc)` of its working set, `T` = what the other jobs touched
//!   meanwhile. A switch's direct cost is kernel time, the refill user time
//!   (`sim/schedule.rs`), so shorter quanta grow user time by the refill. 2.6.21's `time`
//!   prints tick samples, and an expiry is found by the tick, which samples user mode before
//!   the switch: the extra switches are not seen as system time, and a tick in a refill is a
//!   user sample. What the system time does between quanta is the phase of the build's
//!   fixed-length system bursts against the tick (BENCHMARKS.md, "rr-kbuild's system time").
//!   Counters: `context_switches`, `overhead_s.refill`, `user_s`, `sys_s`.
//! - **nohz-pipe** (x5675, `kernel=3.11`, pip1m): each cross-CPU wakeup pays the waker's ttwu
//!   and IPI send (3.11's idle loop clears the polling flag before every idle routine, so
//!   every wakeup of an idle CPU sends an IPI, even in MWAIT; but MWAIT, armed on the thread
//!   flags, wakes on the waker's store of TIF_NEED_RESCHED before the IPI lands:
//!   `sim/idle_path.rs`), the target's C-state exit latency, the IPI handler and `nohz_exit_reprograms` reprograms to restart
//!   the tick (3.11 stops the tick before the governor is asked). Peter's patch removes one
//!   reprogram per wakeup; the rate limit keeps the tick (avg_idle < migration_cost); BIOS
//!   C-states off leaves intel_idle's table but demotes every state to C1 (IPI kept);
//!   `idle=poll` (the "no rescheduling IPI" row) spins with the flag set: no IPI, no exit
//!   latency, but nohz still stops the tick on 3.11. Counters: `timer_reprograms`,
//!   `nohz_entries`, `ipis`, `cstate_entries`.
//!
//! Known misses are each a missing mechanism (or a missing source) rather than a constant to
//! fit: each table's `misses` names it, `validate` and the Experiments view show it under the
//! failing row, and BENCHMARKS.md gives the experiment behind it.

use super::config::{CStates, Config, Governor, PeriodicTask, WorkloadKind};
use super::kernel::Kernel;
use super::tables::{col, Length, Miss, SeedRow, SeedTable};
use super::time::{MS, SEC, US};

/// What every seed table shares: each row judged against the first, full-length runs.
const SEED: SeedTable = SeedTable {
    title: "",
    source: "",
    columns: &[],
    rows: &[],
    corpus: false,
    noise: 0.0,
    length: Length::Source,
    quick_rows: &[],
    notes: "Judged: each row's change against the first row, every column the seed reports.",
    misses: &[],
};

/// A named starting config.
#[derive(Clone, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    /// Two sentences: what it shows and which mechanism produces the effect.
    pub about: &'static str,
    pub config: fn() -> Config,
    pub table: Option<SeedTable>,
    /// The knob this experiment is about: the page's sweep starts on it.
    pub knob: &'static str,
    /// The figure the sweep plots first (a `metrics::NAMED` key or `residency.STATE`).
    pub metric: &'static str,
}

/// `base` with the era `k` and its defaults (`Config::set_kernel`).
fn on_kernel(k: Kernel, mut base: Config) -> Config {
    base.set_kernel(k);
    base
}

fn hrtick_iperf() -> Config {
    let c = Config {
        cpu: "q6600".into(),
        cores: 4,
        hz: 1000,
        cstates: CStates::All,
        governor: Governor::Menu,
        nohz: true,
        workload: WorkloadKind::Iperf,
        streams: 10,
        duration: SEC,
        seed: 0,
        ..Config::default()
    };
    on_kernel(Kernel::V2623, c)
}

fn rr_kbuild() -> Config {
    let mut c = on_kernel(
        Kernel::Sd2621,
        Config {
            cpu: "core2duo".into(),
            cores: 2,
            hz: 1000,
            cstates: CStates::All,
            nohz: true,
            workload: WorkloadKind::Kbuild,
            jobs: 8,
            duration: 300 * SEC,
            seed: 2,
            ..Config::default()
        },
    );
    c.rr_interval = 16 * MS;
    c
}

fn nohz_pipe() -> Config {
    let c = Config {
        cpu: "x5675".into(),
        cores: 12,
        hz: 1000,
        cstates: CStates::All,
        governor: Governor::Menu,
        nohz: true,
        nohz_ratelimit: false,
        nohz_exit_reprograms: 2,
        workload: WorkloadKind::Pipe,
        loops: 1_000_000,
        duration: 120 * SEC,
        seed: 3,
        ..Config::default()
    };
    on_kernel(Kernel::V311, c)
}

fn eevdf_vs_cfs() -> Config {
    let c = Config {
        cpu: "sapphire-rapids".into(),
        cores: 4,
        hz: 250,
        workload: WorkloadKind::Rtapp,
        tasks: vec![
            PeriodicTask { count: 4, run: 8 * MS, period: 20 * MS, slice: 0 },
            PeriodicTask { count: 4, run: 2 * MS, period: 10 * MS, slice: 0 },
            PeriodicTask { count: 4, run: 300 * US, period: 3 * MS, slice: 0 },
        ],
        duration: 2 * SEC,
        seed: 4,
        ..Config::default()
    };
    on_kernel(Kernel::V66, c)
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "intro",
        title: "Intro: 2 cores, 4 periodic tasks",
        about: "Four rt-app-style periodic tasks on two cores under CFS at HZ=250. Watch the ticks, the wakeups crossing between cores, and idle cores sinking into deeper C-states.",
        config: Config::default,
        knob: "hz",
        metric: "ticks",
        table: None,
    },
    Preset {
        name: "hrtick-iperf",
        title: "Seed 1: hrtick and iperf -P 10 (LKML, Oct 2007)",
        about: "Ten loopback TCP streams on a 2007 quad-core under CFS. Fewer wakeup preemptions (sched-devel's larger wakeup granularity; hrtick, which then disabled wakeup preemption) mean fewer context switches per byte, so more throughput.",
        config: hrtick_iperf,
        knob: "wakeup_granularity",
        metric: "throughput",
        table: Some(SeedTable {
            title: "iperf -c localhost -P 10: sum of streams",
            source: "\"sched: high-res preemption tick\", LKML, October 2007 (Mike Galbraith's runs)",
            columns: &[col("throughput", "sum of streams", "Gbit/s")],
            rows: &[
                SeedRow { label: "2.6.23-smp", sets: &[], reported: &[&[4.39, 4.23, 4.36]], vs: 0 },
                SeedRow {
                    label: "2.6.23-smp-d (sched-devel, periodic tick)",
                    sets: &[("kernel", "sched-devel-2007")],
                    reported: &[&[4.96, 4.96, 4.93, 4.97, 4.95, 4.96]],
                    vs: 0,
                },
                SeedRow {
                    label: "2.6.23-smp-d-hrt (sched-devel + hrtick)",
                    sets: &[("kernel", "sched-devel-2007"), ("features", "HRTICK")],
                    reported: &[],
                    vs: 0,
                },
            ],
            // iperf -t 300; throughput is a rate: 1 s, doubled until it settles.
            length: Length::Doubling { source: 300 * SEC },
            ..SEED
        }),
    },
    Preset {
        name: "rr-kbuild",
        title: "Seed 2: rr_interval and make -j8 (LKML, Apr 2007)",
        about: "A kernel build on a Core 2 Duo under the Staircase Deadline scheduler. Every quantum expiry is a forced switch whose cost is the cache the other compilers evicted: a short rr_interval switches more often, so user time and elapsed time grow.",
        config: rr_kbuild,
        knob: "rr_interval",
        metric: "elapsed_s",
        table: Some(SeedTable {
            title: "make allnoconfig; make -j8 on a Core 2 Duo, HZ=1000",
            source: "Con Kolivas' SD rr_interval experiments, LKML, April 2007",
            columns: &[
                col("elapsed_s", "elapsed", "s"),
                col("user_s", "user", "s"),
                col("sys_s", "system", "s"),
                col("cpu_percent", "CPU", "%"),
            ],
            rows: &[
                SeedRow {
                    label: "rr_interval 1 ms",
                    sets: &[("rr_interval", "1ms")],
                    reported: &[&[36.03], &[56.73], &[4.83], &[170.0]],
                    vs: 0,
                },
                SeedRow {
                    label: "rr_interval 16 ms (SD default)",
                    sets: &[("rr_interval", "16ms")],
                    reported: &[&[34.27], &[53.68], &[4.81], &[170.0]],
                    vs: 0,
                },
                SeedRow { label: "rr_interval 5000 ms", sets: &[("rr_interval", "5000ms")], reported: &[], vs: 0 },
            ],
            misses: &[Miss {
                rows: &[1],
                cause: "The system time (about -4% against the seed's -0.4%) is 2.6.21's tick samples against the build's fixed-length system bursts: at a 1 ms quantum each expiry is found by the tick, so make's 300-400 us bursts start in phase with it and are over-sampled by ~5%. Scaling or spreading those unsourced burst lengths moves the cell anywhere from -5% to +4%, so what is missing is measured burst lengths of this build, not a scheduler mechanism",
                section: "rr-kbuild's system time, token slow teo, run-to-parity",
            }],
            ..SEED
        }),
    },
    Preset {
        name: "nohz-pipe",
        title: "Seed 3: nohz reprogramming, C-states and pipe ping-pong (LKML, Aug 2013)",
        about: "Two tasks ping-pong a million times over pipes on a Westmere-EP, waking each other across CPUs. Each wakeup pays the IPI, the C-state exit and the nohz tick restart: the 3.11-rc regression's second reprogram, the rate limit and C-states each change that per-wakeup cost.",
        config: nohz_pipe,
        knob: "nohz_exit_reprograms",
        metric: "elapsed_s",
        table: Some(SeedTable {
            title: "pip1m: 1,000,000 pipe round trips, real time",
            source: "\"[PATCH V3] hrtimer: Fix a performance regression by disable reprogramming in remove_hrtimer\", LKML, August 2013",
            columns: &[col("elapsed_s", "real", "s"), col("sys_s", "sys", "s")],
            rows: &[
                SeedRow {
                    label: "3.11-rc3 (two reprograms per idle exit), C-states on",
                    sets: &[],
                    reported: &[&[10.68, 10.63], &[6.60, 6.55]],
                    vs: 0,
                },
                SeedRow {
                    label: "+ Peter's patch (one reprogram), C-states on",
                    sets: &[("nohz_exit_reprograms", "1")],
                    reported: &[&[8.61, 8.66], &[5.45, 5.52]],
                    vs: 0,
                },
                SeedRow {
                    label: "+ Peter's patch + Mike's nohz rate limit, C-states on",
                    sets: &[("nohz_exit_reprograms", "1"), ("nohz_ratelimit", "on")],
                    reported: &[],
                    vs: 0,
                },
                SeedRow {
                    label: "+ Peter's patch + Mike's nohz rate limit, C-states off",
                    sets: &[("nohz_exit_reprograms", "1"), ("nohz_ratelimit", "on"), ("cstates", "off")],
                    reported: &[&[4.38, 4.44], &[2.78, 2.81]],
                    vs: 0,
                },
                SeedRow {
                    label: "+ Peter's patch, no rescheduling IPI, C-states off",
                    sets: &[("nohz_exit_reprograms", "1"), ("idle", "poll"), ("cstates", "off")],
                    reported: &[],
                    vs: 0,
                },
            ],
            misses: &[Miss {
                rows: &[3],
                cause: "\"C-states off\" changes nothing in the model: 3.11's menu already picks C1 for every ~6 us idle of this ping-pong, and intel_idle clears C1E promotion on Westmere whatever the BIOS says. The reported 4.41 us a round trip is below the model's own floor with a polling idle (5.67 us: two switches at x5675's unsourced 1.2 us, ttwu, syscalls, the pipe's lines), so no idle mechanism can close it. Missing: a measured Westmere switch cost (lmbench lat_ctx or perf bench sched pipe), and what the thread's BIOS switch also turned off (P-states would need a cpufreq governor, which the engine lacks)",
                section: "pip1m and C-states",
            }],
            ..SEED
        }),
    },
    Preset {
        name: "eevdf-vs-cfs",
        title: "EEVDF vs CFS: twelve periodic tasks on a Sapphire Rapids",
        about: "A mix of long, medium and short periodic tasks on four cores of a 2023 server under EEVDF. Switch `policy` to cfs to compare: EEVDF's virtual deadlines favour the short-period tasks' latency.",
        config: eevdf_vs_cfs,
        knob: "kernel",
        metric: "wakeup_latency_p99",
        table: None,
    },
    Preset {
        name: "hackbench-wakeup-gran-clx",
        title: "Corpus: hackbench pipes and a scaled wakeup granularity, 2-socket Cascade Lake (LKML, Sep 2021)",
        about: "hackbench process groups over pipes on 40 Cascade Lake cores under 5.15's CFS, from 1 to 296 groups. Mel Gorman's patch raises the wakeup-preemption granularity with nr_running: fewer wakeup preemptions of an overloaded CPU.",
        config: super::corpus::hackbench_clx,
        knob: "wakeup_gran_scale",
        metric: "throughput",
        table: Some(super::corpus::HACKBENCH_CLX),
    },
    Preset {
        name: "hackbench-wakeup-gran-zen3",
        title: "Corpus: hackbench pipes and a scaled wakeup granularity, Zen 3 (LKML, Sep 2021)",
        about: "The same hackbench sweep on 128 Zen 3 cores in 16 LLCs of 8. The patch's gain grows with overload in the published table; watch the preemptions and the switches.",
        config: super::corpus::hackbench_zen3,
        knob: "wakeup_gran_scale",
        metric: "throughput",
        table: Some(super::corpus::HACKBENCH_ZEN3),
    },
    Preset {
        name: "messaging-run-to-parity",
        title: "Corpus: perf bench sched messaging and EEVDF's RUN_TO_PARITY (tip, Aug 2023)",
        about: "20 groups of hackbench threads over sockets under EEVDF (6.6). RUN_TO_PARITY lets the current task run to its deadline before a wakeup may preempt it: fewer context switches.",
        config: super::corpus::messaging_rtp,
        knob: "min_granularity",
        metric: "context_switches",
        table: Some(super::corpus::MESSAGING_RTP),
    },
    Preset {
        name: "token-governors",
        title: "Corpus: pipe token passing under menu and teo, i5-10600K (LKML, Aug 2023)",
        about: "Two pairs of pinned threads pass a token over pipes between cores with fast, medium or slow work at each stop. The idle governor decides how deep each waiting CPU sleeps, and the exit latency lands on every hand-off.",
        config: super::corpus::token_governors,
        knob: "governor",
        metric: "throughput",
        table: Some(super::corpus::TOKEN_GOVERNORS),
    },
];

pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The config of one seed row: the preset's config with the row's keys set.
pub fn row_config(p: &Preset, row: &SeedRow) -> Config {
    let mut c = (p.config)();
    for (k, v) in row.sets {
        // Rows are static data checked by the tests: a bad key is a bug, reported loudly there.
        let _ = c.set(k, v);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_and_row_is_a_valid_config() {
        for p in PRESETS {
            let c = (p.config)();
            crate::engine::check(&c).unwrap_or_else(|e| panic!("{}: {e}", p.name));
            if let Some(t) = p.table {
                for r in t.rows {
                    let mut c = (p.config)();
                    for (k, v) in r.sets {
                        c.set(k, v).unwrap_or_else(|e| panic!("{} / {}: {e}", p.name, r.label));
                    }
                }
                assert!(
                    t.rows[0].reported.len() == t.columns.len() && t.rows[0].reported.iter().all(|r| !r.is_empty()),
                    "{}: the first row is the baseline of every column",
                    p.name
                );
                for (i, r) in t.rows.iter().enumerate() {
                    assert!(r.reported.is_empty() || r.reported.len() == t.columns.len(), "{} / {}", p.name, r.label);
                    // A row is measured against an earlier row (or itself: a baseline) that has figures.
                    assert!(r.vs <= i && !t.rows[r.vs].reported.is_empty(), "{} / {}: vs {}", p.name, r.label, r.vs);
                    if !t.quick_rows.is_empty() && t.quick_rows.contains(&i) {
                        assert!(t.quick_rows.contains(&r.vs), "{} / {}: quick rows keep their vs", p.name, r.label);
                    }
                }
            }
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, p) in PRESETS.iter().enumerate() {
            assert!(PRESETS[i + 1..].iter().all(|q| q.name != p.name), "{}", p.name);
        }
    }

    #[test]
    fn every_preset_names_a_knob_that_applies_and_a_metric() {
        for p in PRESETS {
            let c = (p.config)();
            assert!(crate::engine::config::key_doc(p.knob).is_some(), "{}: knob {}", p.name, p.knob);
            assert!(c.applies(p.knob) == Ok(true), "{}: its knob {} does not apply to its own config", p.name, p.knob);
            assert!(crate::engine::metrics::is_metric(p.metric), "{}: metric {}", p.name, p.metric);
        }
    }
}
