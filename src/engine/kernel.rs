//! Kernel eras and `sched_features`: which release a config runs, its defaults, and its feature names.
//!
//! A config names a release (`kernel=3.11`); every era-dependent mechanism asks the era
//! what to do through the methods here, so the switch for each mechanism is in one place
//! and cites the release that changed it. The engine's files carry the mechanisms
//! themselves (`sim::wakeup`, `sim::idle_path`, `sim::tick`, `policy::cfs`, ...).
//!
//! `features` is written as the kernel takes it in `/sys/kernel/debug/sched/features`
//! (`sched_features` in debugfs before 5.13; a bit mask in `/proc/sys/kernel/sched_features`
//! in 2.6.23/2.6.24): names separated by spaces or commas, `NO_` in front to turn one off.
//! Each era has its own list, as that release's `kernel/sched/features.h` (or the
//! `SCHED_FEAT_*` enum of `kernel/sched_fair.c` in 2007) defines it; a name the era does
//! not have is refused with the era's list. A config stores only the names it changes,
//! so switching the era keeps the overrides the new era also has.
//!
//! Eras (sources: each release's tree, `../shared/reference/kernel-mechanisms.md`, the
//! notes cited in the methods):
//! - `2.6.21-sd`: Con Kolivas' Staircase Deadline scheduler (v0.4x, April 2007) on 2.6.21.
//! - `2.6.23`: the first CFS release (October 2007): `wait_runtime` and `fair_clock`.
//! - `sched-devel-2007`: Ingo Molnar's sched-devel tree of October 2007, the vruntime
//!   rewrite (e9acbff6484d) plus PREEMPT_RESTRICT and Peter Zijlstra's HRTICK patch under
//!   test (the tree seed 1 measured).
//! - `2.6.24`: the vruntime CFS as released (January 2008).
//! - `3.11`: CFS of the 3.x series, the idle loop that stops the tick before asking the
//!   governor (kernel/cpu/idle.c), the avg_idle rule of 2.6.32-3.12.
//! - `4.17`: CFS with the idle loop that asks the governor first (kernel/sched/idle.c,
//!   554c8aa8ecad); the default for teaching configs.
//! - `6.6`: EEVDF replaces CFS's pick (147f3efaa241).
//! - `6.12`: EEVDF with DELAY_DEQUEUE and PREEMPT_SHORT.

use serde::{Deserialize, Serialize};

use super::config::Policy;
use super::profile::IdleEntry;
use super::time::{Ns, MS, US};

/// A kernel release (or tree) a config runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kernel {
    Sd2621,
    V2623,
    SchedDevel2007,
    V2624,
    V311,
    V417,
    V66,
    V612,
}

/// Every era, oldest first.
pub const KERNELS: &[Kernel] = &[
    Kernel::Sd2621,
    Kernel::V2623,
    Kernel::SchedDevel2007,
    Kernel::V2624,
    Kernel::V311,
    Kernel::V417,
    Kernel::V66,
    Kernel::V612,
];

/// Which CFS a CFS era runs (`policy::cfs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfsDesign {
    /// 2.6.23: tasks keyed on `fair_clock - wait_runtime`.
    WaitRuntime,
    /// sched-devel (Oct 2007) and 2.6.24: vruntime, full-latency sleeper credit, ideal-runtime tick check.
    Vruntime2007,
    /// 2.6.32 and later: GENTLE_FAIR_SLEEPERS, the min-granularity and vruntime-lead tick check.
    Modern,
}

/// How `ttwu_do_wakeup` folds an idle period into `rq->avg_idle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AvgIdleRule {
    /// Before 2.6.32 there is no `avg_idle`: newly idle balancing always runs.
    None,
    /// 2.6.32-3.12: `if (delta > max) avg_idle = max; else update_avg(&avg_idle, delta)`.
    SetMaxIfLonger,
    /// 3.13 and later: `update_avg(&avg_idle, delta); if (avg_idle > max) avg_idle = max`.
    AverageThenClamp,
}

/// The kernel's defaults for the tunables a config holds (unscaled, as the sysctls are
/// before `sched_init_granularity` multiplies them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunables {
    pub sched_latency: Ns,
    pub min_granularity: Ns,
    pub wakeup_granularity: Ns,
    pub migration_cost: Ns,
    pub rr_interval: Ns,
}

/// One `sched_features` entry of an era.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    pub name: &'static str,
    /// The behaviour it switches, if the engine models it.
    pub feat: Option<Feat>,
    pub default: bool,
}

/// The behaviours behind feature names that the engine models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feat {
    Hrtick,
    WakeupPreempt,
    StartDebit,
    /// Sleeper credit on wakeup (2.6.23 FAIR_SLEEPERS, 2.6.24 NEW_FAIR_SLEEPERS).
    FairSleepers,
    GentleFairSleepers,
    PreemptRestrict,
    TtwuQueue,
    RunToParity,
    PlaceLag,
    PlaceDeadlineInitial,
}

const fn f(name: &'static str, feat: Option<Feat>, default: bool) -> FeatureDef {
    FeatureDef { name, feat, default }
}

// 2.6.23 kernel/sched_fair.c: `enum { SCHED_FEAT_FAIR_SLEEPERS = 1, ... }` and the
// default `sysctl_sched_features`.
const F_2623: &[FeatureDef] = &[
    f("FAIR_SLEEPERS", Some(Feat::FairSleepers), true),
    f("SLEEPER_AVG", None, false),
    f("SLEEPER_LOAD_AVG", None, true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("SKIP_INITIAL", None, false),
];
// 2.6.24 kernel/sched_fair.c: NEW_FAIR_SLEEPERS, WAKEUP_PREEMPT, START_DEBIT, TREE_AVG, APPROX_AVG.
const F_2624: &[FeatureDef] = &[
    f("NEW_FAIR_SLEEPERS", Some(Feat::FairSleepers), true),
    f("WAKEUP_PREEMPT", Some(Feat::WakeupPreempt), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("TREE_AVG", None, false),
    f("APPROX_AVG", None, false),
];
// The sched-devel tree of October 2007: 2.6.24's list plus PREEMPT_RESTRICT and the
// HRTICK patch under test (off unless the tester turns it on).
const F_DEVEL: &[FeatureDef] = &[
    f("NEW_FAIR_SLEEPERS", Some(Feat::FairSleepers), true),
    f("WAKEUP_PREEMPT", Some(Feat::WakeupPreempt), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("TREE_AVG", None, false),
    f("APPROX_AVG", None, false),
    f("PREEMPT_RESTRICT", Some(Feat::PreemptRestrict), true),
    f("HRTICK", Some(Feat::Hrtick), false),
];
// 3.11 kernel/sched/features.h.
const F_311: &[FeatureDef] = &[
    f("GENTLE_FAIR_SLEEPERS", Some(Feat::GentleFairSleepers), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("NEXT_BUDDY", None, false),
    f("LAST_BUDDY", None, true),
    f("CACHE_HOT_BUDDY", None, true),
    f("WAKEUP_PREEMPTION", Some(Feat::WakeupPreempt), true),
    f("ARCH_POWER", None, true),
    f("HRTICK", Some(Feat::Hrtick), false),
    f("DOUBLE_TICK", None, false),
    f("LB_BIAS", None, true),
    f("NONTASK_POWER", None, true),
    f("TTWU_QUEUE", Some(Feat::TtwuQueue), true),
    f("FORCE_SD_OVERLAP", None, false),
    f("RT_RUNTIME_SHARE", None, true),
    f("LB_MIN", None, false),
];
// 4.17 kernel/sched/features.h.
const F_417: &[FeatureDef] = &[
    f("GENTLE_FAIR_SLEEPERS", Some(Feat::GentleFairSleepers), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("NEXT_BUDDY", None, false),
    f("LAST_BUDDY", None, true),
    f("CACHE_HOT_BUDDY", None, true),
    f("WAKEUP_PREEMPTION", Some(Feat::WakeupPreempt), true),
    f("HRTICK", Some(Feat::Hrtick), false),
    f("DOUBLE_TICK", None, false),
    f("LB_BIAS", None, true),
    f("NONTASK_CAPACITY", None, true),
    f("TTWU_QUEUE", Some(Feat::TtwuQueue), true),
    f("SIS_AVG_CPU", None, false),
    f("SIS_PROP", None, true),
    f("WARN_DOUBLE_CLOCK", None, false),
    f("RT_PUSH_IPI", None, true),
    f("RT_RUNTIME_SHARE", None, true),
    f("LB_MIN", None, false),
    f("ATTACH_AGE_LOAD", None, true),
    f("WA_IDLE", None, true),
    f("WA_WEIGHT", None, true),
    f("WA_BIAS", None, true),
    f("UTIL_EST", None, true),
];
// 6.6 kernel/sched/features.h.
const F_66: &[FeatureDef] = &[
    f("PLACE_LAG", Some(Feat::PlaceLag), true),
    f("PLACE_DEADLINE_INITIAL", Some(Feat::PlaceDeadlineInitial), true),
    f("RUN_TO_PARITY", Some(Feat::RunToParity), true),
    f("NEXT_BUDDY", None, false),
    f("CACHE_HOT_BUDDY", None, true),
    f("WAKEUP_PREEMPTION", Some(Feat::WakeupPreempt), true),
    f("HRTICK", Some(Feat::Hrtick), false),
    f("HRTICK_DL", None, false),
    f("DOUBLE_TICK", None, false),
    f("NONTASK_CAPACITY", None, true),
    f("TTWU_QUEUE", Some(Feat::TtwuQueue), true),
    f("SIS_PROP", None, false),
    f("SIS_UTIL", None, true),
    f("WARN_DOUBLE_CLOCK", None, false),
    f("RT_PUSH_IPI", None, true),
    f("RT_RUNTIME_SHARE", None, false),
    f("LB_MIN", None, false),
    f("ATTACH_AGE_LOAD", None, true),
    f("WA_IDLE", None, true),
    f("WA_WEIGHT", None, true),
    f("WA_BIAS", None, true),
    f("UTIL_EST", None, true),
    f("UTIL_EST_FASTUP", None, true),
    f("LATENCY_WARN", None, false),
    f("ALT_PERIOD", None, true),
    f("BASE_SLICE", None, true),
    f("HZ_BW", None, true),
];
// 6.12 kernel/sched/features.h.
const F_612: &[FeatureDef] = &[
    f("PLACE_LAG", Some(Feat::PlaceLag), true),
    f("PLACE_DEADLINE_INITIAL", Some(Feat::PlaceDeadlineInitial), true),
    f("PLACE_REL_DEADLINE", None, true),
    f("RUN_TO_PARITY", Some(Feat::RunToParity), true),
    f("PREEMPT_SHORT", None, true),
    f("NEXT_BUDDY", None, false),
    f("CACHE_HOT_BUDDY", None, true),
    f("DELAY_DEQUEUE", None, true),
    f("DELAY_ZERO", None, true),
    f("WAKEUP_PREEMPTION", Some(Feat::WakeupPreempt), true),
    f("HRTICK", Some(Feat::Hrtick), false),
    f("HRTICK_DL", None, false),
    f("NONTASK_CAPACITY", None, true),
    f("TTWU_QUEUE", Some(Feat::TtwuQueue), true),
    f("SIS_UTIL", None, true),
    f("WARN_DOUBLE_CLOCK", None, false),
    f("RT_PUSH_IPI", None, true),
    f("RT_RUNTIME_SHARE", None, false),
    f("LB_MIN", None, false),
    f("ATTACH_AGE_LOAD", None, true),
    f("WA_IDLE", None, true),
    f("WA_WEIGHT", None, true),
    f("WA_BIAS", None, true),
    f("UTIL_EST", None, true),
    f("LATENCY_WARN", None, false),
    f("HZ_BW", None, true),
];

impl Kernel {
    /// The name configs and URLs use.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Sd2621 => "2.6.21-sd",
            Kernel::V2623 => "2.6.23",
            Kernel::SchedDevel2007 => "sched-devel-2007",
            Kernel::V2624 => "2.6.24",
            Kernel::V311 => "3.11",
            Kernel::V417 => "4.17",
            Kernel::V66 => "6.6",
            Kernel::V612 => "6.12",
        }
    }

    /// What a person reads in a picker.
    pub fn title(self) -> &'static str {
        match self {
            Kernel::Sd2621 => "2.6.21 + Staircase Deadline (Apr 2007)",
            Kernel::V2623 => "2.6.23, first CFS (Oct 2007)",
            Kernel::SchedDevel2007 => "sched-devel tree, vruntime CFS (Oct 2007)",
            Kernel::V2624 => "2.6.24, vruntime CFS (Jan 2008)",
            Kernel::V311 => "3.11, CFS (Sep 2013)",
            Kernel::V417 => "4.17, CFS (Jun 2018)",
            Kernel::V66 => "6.6, EEVDF (Oct 2023)",
            Kernel::V612 => "6.12, EEVDF (Nov 2024)",
        }
    }

    pub fn parse(v: &str) -> Option<Kernel> {
        KERNELS.iter().copied().find(|k| k.name() == v)
    }

    /// The names of every era, for messages and pickers.
    pub fn names() -> Vec<&'static str> {
        KERNELS.iter().map(|k| k.name()).collect()
    }

    /// The scheduling class of this release's SCHED_NORMAL tasks.
    pub fn policy(self) -> Policy {
        match self {
            Kernel::Sd2621 => Policy::Sd,
            Kernel::V66 | Kernel::V612 => Policy::Eevdf,
            _ => Policy::Cfs,
        }
    }

    /// The release that `policy=NAME` (the old key, kept for links) stands for, given the
    /// era a config had: the same era if it already runs that class.
    pub fn for_policy(self, p: Policy) -> Kernel {
        if self.policy() == p {
            return self;
        }
        match p {
            Policy::Sd => Kernel::Sd2621,
            Policy::Cfs => Kernel::V417,
            Policy::Eevdf => Kernel::V66,
        }
    }

    /// The CFS design of a CFS era (None for SD and EEVDF).
    pub fn cfs_design(self) -> CfsDesign {
        match self {
            Kernel::V2623 => CfsDesign::WaitRuntime,
            Kernel::SchedDevel2007 | Kernel::V2624 => CfsDesign::Vruntime2007,
            _ => CfsDesign::Modern,
        }
    }

    /// The release's tunable defaults (unscaled). 2.6.23 and 2.6.24: kernel/sched_fair.c;
    /// 2.6.38-6.5: kernel/sched/fair.c (`sysctl_sched_latency = 6000000ULL`, ...);
    /// 6.6+: `sysctl_sched_base_slice = 750000ULL`. rr_interval: SD's default (`rr_interval`
    /// 8 ms on UP in SD v0.4x, scaled by CPU count by the scheduler itself: `policy::sd`).
    pub fn tunables(self) -> Tunables {
        match self {
            Kernel::Sd2621 => Tunables {
                sched_latency: 20 * MS,
                min_granularity: 4 * MS,
                wakeup_granularity: 10 * MS,
                migration_cost: 500 * US,
                rr_interval: 16 * MS,
            },
            Kernel::V2623 => Tunables {
                sched_latency: 20 * MS,
                min_granularity: 4 * MS,
                wakeup_granularity: 2 * MS,
                migration_cost: 500 * US,
                rr_interval: 6 * MS,
            },
            Kernel::SchedDevel2007 | Kernel::V2624 => Tunables {
                sched_latency: 20 * MS,
                min_granularity: 4 * MS,
                wakeup_granularity: 10 * MS,
                migration_cost: 500 * US,
                rr_interval: 6 * MS,
            },
            _ => Tunables {
                sched_latency: 6 * MS,
                min_granularity: 750 * US,
                wakeup_granularity: MS,
                migration_cost: 500 * US,
                rr_interval: 6 * MS,
            },
        }
    }

    /// `sched_init_granularity`'s factor for `ncpus`: `1 + ilog2(ncpus)` in 2007,
    /// `1 + ilog2(min(ncpus, 8))` from 2.6.32 (SCHED_TUNABLESCALING_LOG).
    pub fn granularity_factor(self, ncpus: u32) -> u64 {
        let n = ncpus.max(1);
        match self {
            Kernel::Sd2621 | Kernel::V2623 | Kernel::SchedDevel2007 | Kernel::V2624 => 1 + n.ilog2() as u64,
            _ => 1 + n.min(8).ilog2() as u64,
        }
    }

    /// The era's `sched_features`, in its `features.h` order.
    pub fn features(self) -> &'static [FeatureDef] {
        match self {
            Kernel::Sd2621 => &[],
            Kernel::V2623 => F_2623,
            Kernel::SchedDevel2007 => F_DEVEL,
            Kernel::V2624 => F_2624,
            Kernel::V311 => F_311,
            Kernel::V417 => F_417,
            Kernel::V66 => F_66,
            Kernel::V612 => F_612,
        }
    }

    /// What a modelled behaviour is in an era that has no feature for it: wakeup
    /// preemption is always on before 2.6.24 made it a feature; the others did not exist.
    pub fn implied(self, feat: Feat) -> bool {
        matches!(feat, Feat::WakeupPreempt)
    }

    /// The idle loop asks the governor before stopping the tick (4.17+, `cpuidle_idle_call`
    /// with `stop_tick`: 554c8aa8ecad); before, `tick_nohz_idle_enter` stopped it first.
    pub fn governor_decides_tick(self) -> bool {
        self >= Kernel::V417
    }

    /// The generic idle loop clears the polling flag before every arch idle routine, so
    /// no idle state but `idle=poll` polls: kernel/cpu/idle.c `cpu_idle_loop` of 3.10-3.12
    /// (`current_clr_polling(); ... arch_cpu_idle();`), and cpuidle's `poll_idle` of that
    /// time spins without setting it. Fixed by "sched, idle: Fix the idle polling state
    /// logic" (ea8117478918, late 2013: `current_clr_polling_and_test`, `poll_idle` and
    /// `mwait_idle_with_hints` set the flag themselves).
    pub fn idle_loop_clears_polling(self) -> bool {
        self == Kernel::V311
    }

    /// Whether `TIF_POLLING_NRFLAG` (`TS_POLLING` before 3.16) is set while the idle task
    /// sits in a cpuidle state entered by `entry` (`None`: cpuidle's POLL state), so that a
    /// remote reschedule only sets `TIF_NEED_RESCHED` and sends no IPI (`resched_task`:
    /// `if (!tsk_is_polling(p)) smp_send_reschedule(cpu)`; 3.16+ `set_nr_and_not_polling`,
    /// `set_nr_if_polling`).
    /// - 2.6.2x (arch/x86/kernel/process_64.c): `mwait_idle` leaves `TS_POLLING` set,
    ///   `default_idle` (HLT) clears it; cpuidle's `poll_idle` spins with it set.
    /// - 3.11: cleared before every state (`idle_loop_clears_polling`), MWAIT included.
    /// - 4.17, 6.x: `call_cpuidle` clears it (`current_clr_polling_and_test`), `poll_idle`
    ///   and `mwait_idle_with_hints` set it again (`current_set_polling_and_test`); HLT and
    ///   I/O-port states never do.
    ///
    /// `idle=poll` is not a cpuidle state: its `cpu_idle_poll` polls in every era.
    pub fn idle_polls(self, entry: Option<IdleEntry>) -> bool {
        match entry {
            Some(IdleEntry::Hlt) | Some(IdleEntry::Io) => false,
            None | Some(IdleEntry::Mwait) => !self.idle_loop_clears_polling(),
        }
    }

    /// nohz may stop the tick only if the next timer is more than one tick away. 2.6.24
    /// `tick_nohz_stop_sched_tick` (`if (!ts->tick_stopped && delta_jiffies == 1) goto out`)
    /// and 3.11 (`delta_jiffies <= 1`) count whole jiffies from the current one, with the
    /// next hrtimer rounded up (`timespec_to_jiffies`): the gap from now must exceed a tick.
    /// 4.17+ `tick_nohz_next_event` measures from the last jiffy update
    /// (`delta = next_tick - basemono; if (delta <= TICK_NSEC) ... keep ticking`).
    /// `since_jiffy` is the time since the last tick boundary.
    pub fn nohz_can_stop(self, next_timer: Ns, since_jiffy: Ns, tick: Ns) -> bool {
        if self >= Kernel::V417 {
            next_timer.saturating_add(since_jiffy) > tick
        } else {
            next_timer > tick
        }
    }

    /// `idle=poll` keeps the tick running: 4.17+ `do_idle` calls `tick_nohz_idle_restart_tick()`
    /// before `cpu_idle_poll()`; earlier, `tick_nohz_idle_enter` (3.11) or the per-iteration
    /// `tick_nohz_stop_sched_tick` (2.6.24) ran first for every idle routine.
    pub fn idle_poll_keeps_tick(self) -> bool {
        self >= Kernel::V417
    }

    /// How `avg_idle` is updated (and whether it exists): `ttwu_do_wakeup` in 2.6.32-3.12
    /// (kernel/sched/core.c, 3.11: `if (delta > max) rq->avg_idle = max; else
    /// update_avg(...)`, `max = 2*sysctl_sched_migration_cost`); from 3.13 ("sched: Reduce
    /// overestimating rq->avg_idle", abfafa54db9a) average then clamp (4.17, 6.6 verified:
    /// `max = 2*rq->max_idle_balance_cost`). 2.6.23/2.6.24 have no `avg_idle`.
    pub fn avg_idle_rule(self) -> AvgIdleRule {
        match self {
            Kernel::Sd2621 | Kernel::V2623 | Kernel::SchedDevel2007 | Kernel::V2624 => AvgIdleRule::None,
            Kernel::V311 => AvgIdleRule::SetMaxIfLonger,
            _ => AvgIdleRule::AverageThenClamp,
        }
    }
}

/// The effective value of every modelled feature, resolved once per run from an era and
/// a config's overrides (so the hot paths read a bool).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FeatureSet {
    bits: u32,
}

impl FeatureSet {
    fn bit(f: Feat) -> u32 {
        1 << (f as u32)
    }
    pub fn has(&self, f: Feat) -> bool {
        self.bits & Self::bit(f) != 0
    }
    pub fn resolve(kernel: Kernel, overrides: &[String]) -> FeatureSet {
        let mut s = FeatureSet::default();
        for feat in ALL_FEATS {
            let def = kernel.features().iter().find(|d| d.feat == Some(*feat));
            let mut on = def.map_or(kernel.implied(*feat), |d| d.default);
            if let Some(d) = def {
                for o in overrides {
                    if o == d.name {
                        on = true;
                    } else if o.strip_prefix("NO_") == Some(d.name) {
                        on = false;
                    }
                }
            }
            if on {
                s.bits |= Self::bit(*feat);
            }
        }
        s
    }
}

const ALL_FEATS: &[Feat] = &[
    Feat::Hrtick,
    Feat::WakeupPreempt,
    Feat::StartDebit,
    Feat::FairSleepers,
    Feat::GentleFairSleepers,
    Feat::PreemptRestrict,
    Feat::TtwuQueue,
    Feat::RunToParity,
    Feat::PlaceLag,
    Feat::PlaceDeadlineInitial,
];

/// Parses a `features` value for `kernel` into canonical overrides: only the names whose
/// setting differs from the era's default, in `features.h` order, `NO_` for off. Later
/// words win over earlier ones, as successive writes to the debugfs file do.
pub fn parse_features(kernel: Kernel, v: &str) -> Result<Vec<String>, String> {
    let defs = kernel.features();
    let mut want: Vec<Option<bool>> = vec![None; defs.len()];
    for word in v.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
        if word == "default" || word == "none" {
            continue;
        }
        let upper = word.to_ascii_uppercase();
        let (name, on) = match upper.strip_prefix("NO_") {
            Some(n) => (n.to_string(), false),
            None => (upper.clone(), true),
        };
        let Some(i) = defs.iter().position(|d| d.name == name) else {
            let list: Vec<_> = defs.iter().map(|d| d.name).collect();
            return Err(if list.is_empty() {
                format!("kernel {} has no sched_features (it is not CFS)", kernel.name())
            } else {
                format!("kernel {} has no feature '{name}' (it has {})", kernel.name(), list.join(" "))
            });
        };
        want[i] = Some(on);
    }
    Ok(defs
        .iter()
        .zip(want)
        .filter_map(|(d, w)| match w {
            Some(on) if on != d.default => Some(if on { d.name.to_string() } else { format!("NO_{}", d.name) }),
            _ => None,
        })
        .collect())
}

/// The overrides of `overrides` that `kernel` also has (what survives an era switch).
pub fn keep_features(kernel: Kernel, overrides: &[String]) -> Vec<String> {
    parse_features(
        kernel,
        &overrides
            .iter()
            .filter(|o| {
                let n = o.strip_prefix("NO_").unwrap_or(o);
                kernel.features().iter().any(|d| d.name == n)
            })
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
    )
    .unwrap_or_default()
}

/// The name of a modelled feature in an era, if it has one.
pub fn feature_name(kernel: Kernel, feat: Feat) -> Option<&'static str> {
    kernel.features().iter().find(|d| d.feat == Some(feat)).map(|d| d.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &k in KERNELS {
            assert_eq!(Kernel::parse(k.name()), Some(k));
        }
    }

    #[test]
    fn features_parse_to_canonical_overrides() {
        assert_eq!(parse_features(Kernel::V66, "NO_RUN_TO_PARITY hrtick").unwrap(), ["NO_RUN_TO_PARITY", "HRTICK"]);
        assert_eq!(
            parse_features(Kernel::V66, "RUN_TO_PARITY").unwrap(),
            Vec::<String>::new(),
            "a default is no override"
        );
        let e = parse_features(Kernel::V2624, "HRTICK").unwrap_err();
        assert!(e.contains("2.6.24") && e.contains("NEW_FAIR_SLEEPERS"), "{e}");
        assert!(parse_features(Kernel::V66, "NEW_FAIR_SLEEPERS").is_err(), "6.6 dropped the sleeper features");
    }

    #[test]
    fn resolve_applies_defaults_and_overrides() {
        let s = FeatureSet::resolve(Kernel::V311, &[]);
        assert!(s.has(Feat::WakeupPreempt) && s.has(Feat::TtwuQueue) && !s.has(Feat::Hrtick));
        let s = FeatureSet::resolve(Kernel::V311, &["HRTICK".into(), "NO_WAKEUP_PREEMPTION".into()]);
        assert!(s.has(Feat::Hrtick) && !s.has(Feat::WakeupPreempt));
        let s = FeatureSet::resolve(Kernel::V2623, &[]);
        assert!(s.has(Feat::WakeupPreempt), "2.6.23 always preempted on wakeup");
        assert!(!s.has(Feat::Hrtick));
    }

    #[test]
    fn era_switch_keeps_shared_overrides() {
        let o = vec!["HRTICK".to_string(), "NO_RUN_TO_PARITY".to_string()];
        assert_eq!(keep_features(Kernel::V311, &o), vec!["HRTICK".to_string()]);
    }
}
