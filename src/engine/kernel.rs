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
//! A name whose entry has no `Feat` is accepted and kept but not modelled (it changes
//! nothing in a run); the comment above each 2007 table says which those are.
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
//! - `5.15`: the last CFS of the 2.6.32 design the corpus measures (Sep 2021 patches were
//!   against 5.15-rc1). Read in a 5.15.135 stable tree (shilei-massclouds/linux-5.15.135):
//!   every mechanism the engine models reads as in 4.17 there (`wakeup_gran`,
//!   `check_preempt_tick`, `place_entity`, the idle loop, `sched_nr_latency = 8`), except the
//!   exclusive pipe waits of 5.6 (`workload::hackbench`). Its `ttwu_queue_cond` has 6.0's
//!   idle-target clause as a stable backport; 5.15.0's (WF_ON_CPU) is modelled as 4.17's.
//! - `6.6`: EEVDF replaces CFS's pick (147f3efaa241); base_slice 0.75 ms (v6.6.0).
//! - `6.12`: EEVDF with PREEMPT_SHORT, PLACE_REL_DEADLINE, DELAY_DEQUEUE and DELAY_ZERO.
//!
//! Over 800 lines (about 990 of code): every era-dependent answer is here, one method per
//! question with each release's answer and its citation, so the eras are compared in one place.

use serde::{Deserialize, Serialize};

use super::config::values::PolicyKind;
use super::profile::IdleEntry;
use super::time::{Ns, MS, US};

/// The preemption model: how soon a reschedule request takes a task off the CPU while it
/// runs kernel code (`preempt=` from 5.12's PREEMPT_DYNAMIC; CONFIG_PREEMPT_NONE /
/// _VOLUNTARY / CONFIG_PREEMPT at build time before). In user mode every model preempts
/// at once (the interrupt's return to user space checks `need_resched`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PreemptModel {
    /// No forced preemption: kernel code runs on to the return to user space (or until it sleeps).
    None,
    /// As `None`, plus `might_resched()` (`_cond_resched`) in every `might_sleep()`.
    Voluntary,
    /// CONFIG_PREEMPT: kernel code is preempted at once, outside non-preemptible sections.
    Full,
}

impl PreemptModel {
    pub fn name(self) -> &'static str {
        match self {
            PreemptModel::None => "none",
            PreemptModel::Voluntary => "voluntary",
            PreemptModel::Full => "full",
        }
    }
}

/// A kernel release (or tree) a config runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kernel {
    Sd2621,
    V2623,
    SchedDevel2007,
    V2624,
    V311,
    V417,
    V515,
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
    Kernel::V515,
    Kernel::V66,
    Kernel::V612,
];

/// How an era reports user and system time to `time` (`Kernel::cputime`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cputime {
    /// The engine's exact spans (the era's accounting is not modelled).
    Exact,
    /// The tick's samples, one tick period each (2.6.21).
    TickSamples,
    /// The tick's samples scaled to the precise runtime by `cputime_adjust` (3.11).
    TickSamplesScaled,
}

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

/// The CFS sysctls after the era's boot-time scaling (`Kernel::cfs_sysctls`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfsSysctls {
    pub latency: Ns,
    pub min_granularity: Ns,
    pub wakeup_granularity: Ns,
    /// 2.6.23's `sysctl_sched_runtime_limit` (the latency); 0 in the other eras.
    pub runtime_limit: Ns,
    /// `sched_nr_latency` (sched-devel: `sysctl_sched_nr_latency`); 0 in 2.6.23, which has none.
    pub nr_latency: u64,
}

/// One `sched_features` entry of an era.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    pub name: &'static str,
    /// The behaviour it switches, if the engine models it.
    pub feat: Option<Feat>,
    pub default: bool,
}

impl FeatureDef {
    /// Whether this feature is on under a config's overrides: its default unless a later
    /// word names it (`NAME` on, `NO_NAME` off), as successive debugfs writes do.
    pub fn is_on(&self, overrides: &[String]) -> bool {
        overrides.iter().fold(self.default, |on, o| {
            if o == self.name {
                true
            } else if o.strip_prefix("NO_") == Some(self.name) {
                false
            } else {
                on
            }
        })
    }
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
    /// 6.12: a curr whose RUN_TO_PARITY protection is gone is rescheduled once ineligible.
    PreemptShort,
    /// 6.12: a migrated task keeps its deadline relative to its vruntime.
    PlaceRelDeadline,
    /// CFS (3.11-5.15): the task a wakeup preempted is preferred at the next pick (LAST_BUDDY).
    LastBuddy,
    /// CFS (3.11-5.15): every woken task is preferred at the next pick (NEXT_BUDDY), not
    /// only one that preempted (which is always marked).
    NextBuddy,
    /// 6.12: a task that sleeps while ineligible stays queued until picked or woken.
    DelayDequeue,
    /// 6.12: a delayed task's positive lag is clipped to 0 at its dequeue or wakeup.
    DelayZero,
    /// 4.14+ `wake_affine`: its idle rule (`wake_affine_idle`).
    WaIdle,
    /// 4.14+ `wake_affine`: its load comparison (`wake_affine_weight`).
    WaWeight,
    /// 4.14+ `wake_affine_weight`: half the domain's imbalance_pct in prev's favour.
    WaBias,
    /// 4.13+ `select_idle_cpu`: the scan's length from `avg_idle` and `avg_scan_cost`
    /// (`sim::wakeup`, SIS; its form per era from `Kernel::sis_prop`).
    SisProp,
    /// 5.19+ (backported to 5.15.y) `select_idle_cpu`: the scan's length from the LLC's
    /// utilisation, `sd_llc_shared->nr_idle_scan` (`sim::wakeup`, SIS).
    SisUtil,
}

const fn f(name: &'static str, feat: Option<Feat>, default: bool) -> FeatureDef {
    FeatureDef { name, feat, default }
}

// 2.6.23 kernel/sched_fair.c (v2.6.23 tag): `enum { SCHED_FEAT_FAIR_SLEEPERS = 1, ... }` and the
// default `sysctl_sched_features` (FAIR_SLEEPERS*1 | SLEEPER_AVG*0 | SLEEPER_LOAD_AVG*1 |
// PRECISE_CPU_LOAD*1 | START_DEBIT*1 | SKIP_INITIAL*0). No NEW_FAIR_SLEEPERS yet (it came with
// e9acbff6484d). Not modelled (accepted names, no effect): SLEEPER_AVG and SLEEPER_LOAD_AVG
// (the latter only matters with the former: it picks the load SLEEPER_AVG scales by),
// PRECISE_CPU_LOAD (`update_cpu_load`'s sample; the engine keeps no cpu_load[]), SKIP_INITIAL.
const F_2623: &[FeatureDef] = &[
    f("FAIR_SLEEPERS", Some(Feat::FairSleepers), true),
    f("SLEEPER_AVG", None, false),
    f("SLEEPER_LOAD_AVG", None, true),
    f("PRECISE_CPU_LOAD", None, true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("SKIP_INITIAL", None, false),
];
// 2.6.24 kernel/sched.c (v2.6.24 tag): NEW_FAIR_SLEEPERS, WAKEUP_PREEMPT, START_DEBIT, TREE_AVG,
// APPROX_AVG. Not modelled: TREE_AVG, APPROX_AVG (both off by default).
const F_2624: &[FeatureDef] = &[
    f("NEW_FAIR_SLEEPERS", Some(Feat::FairSleepers), true),
    f("WAKEUP_PREEMPT", Some(Feat::WakeupPreempt), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("TREE_AVG", None, false),
    f("APPROX_AVG", None, false),
];
// The sched-devel tree of October 2007, by its mainline proxy v2.6.24-rc1 (kernel/sched.c):
// `enum { NEW_FAIR_SLEEPERS = 1, START_DEBIT = 2, TREE_AVG = 4, APPROX_AVG = 8,
// WAKEUP_PREEMPT = 16, PREEMPT_RESTRICT = 32 }`, all on but TREE_AVG and APPROX_AVG; plus
// HRTICK from Peter Zijlstra's "sched: high-res preemption tick" patch under test (off unless
// the tester turns it on; merged as 8f4d37ec073c for 2.6.25). Not modelled: TREE_AVG, APPROX_AVG.
const F_DEVEL: &[FeatureDef] = &[
    f("NEW_FAIR_SLEEPERS", Some(Feat::FairSleepers), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("TREE_AVG", None, false),
    f("APPROX_AVG", None, false),
    f("WAKEUP_PREEMPT", Some(Feat::WakeupPreempt), true),
    f("PREEMPT_RESTRICT", Some(Feat::PreemptRestrict), true),
    f("HRTICK", Some(Feat::Hrtick), false),
];
// 3.11 kernel/sched/features.h.
const F_311: &[FeatureDef] = &[
    f("GENTLE_FAIR_SLEEPERS", Some(Feat::GentleFairSleepers), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("NEXT_BUDDY", Some(Feat::NextBuddy), false),
    f("LAST_BUDDY", Some(Feat::LastBuddy), true),
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
    f("NEXT_BUDDY", Some(Feat::NextBuddy), false),
    f("LAST_BUDDY", Some(Feat::LastBuddy), true),
    f("CACHE_HOT_BUDDY", None, true),
    f("WAKEUP_PREEMPTION", Some(Feat::WakeupPreempt), true),
    f("HRTICK", Some(Feat::Hrtick), false),
    f("DOUBLE_TICK", None, false),
    f("LB_BIAS", None, true),
    f("NONTASK_CAPACITY", None, true),
    f("TTWU_QUEUE", Some(Feat::TtwuQueue), true),
    f("SIS_AVG_CPU", None, false),
    f("SIS_PROP", Some(Feat::SisProp), true),
    f("WARN_DOUBLE_CLOCK", None, false),
    f("RT_PUSH_IPI", None, true),
    f("RT_RUNTIME_SHARE", None, true),
    f("LB_MIN", None, false),
    f("ATTACH_AGE_LOAD", None, true),
    f("WA_IDLE", Some(Feat::WaIdle), true),
    f("WA_WEIGHT", Some(Feat::WaWeight), true),
    f("WA_BIAS", Some(Feat::WaBias), true),
    f("UTIL_EST", None, true),
];
// 5.15 kernel/sched/features.h, read in full in a 5.15.135 stable tree (Makefile 5.15.135,
// shilei-massclouds/linux-5.15.135). SIS_UTIL (on) with SIS_PROP off and RT_RUNTIME_SHARE off
// are stable backports there (6.0's 70fb5ccf2ebb and 5.17's 2586af1ac187); 5.15.0 had SIS_PROP
// on, no SIS_UTIL and RT_RUNTIME_SHARE on (not read in a 5.15.0 tree). SIS_PROP and SIS_UTIL
// are modelled (`sim::wakeup`, SIS; read in a 5.15.100 tree, zcjie1/linux-5.15.100), the
// RT_RUNTIME_SHARE difference is not.
const F_515: &[FeatureDef] = &[
    f("GENTLE_FAIR_SLEEPERS", Some(Feat::GentleFairSleepers), true),
    f("START_DEBIT", Some(Feat::StartDebit), true),
    f("NEXT_BUDDY", Some(Feat::NextBuddy), false),
    f("LAST_BUDDY", Some(Feat::LastBuddy), true),
    f("CACHE_HOT_BUDDY", None, true),
    f("WAKEUP_PREEMPTION", Some(Feat::WakeupPreempt), true),
    f("HRTICK", Some(Feat::Hrtick), false),
    f("HRTICK_DL", None, false),
    f("DOUBLE_TICK", None, false),
    f("NONTASK_CAPACITY", None, true),
    f("TTWU_QUEUE", Some(Feat::TtwuQueue), true),
    f("SIS_PROP", Some(Feat::SisProp), false),
    f("SIS_UTIL", Some(Feat::SisUtil), true),
    f("WARN_DOUBLE_CLOCK", None, false),
    f("RT_PUSH_IPI", None, true),
    f("RT_RUNTIME_SHARE", None, false),
    f("LB_MIN", None, false),
    f("ATTACH_AGE_LOAD", None, true),
    f("WA_IDLE", Some(Feat::WaIdle), true),
    f("WA_WEIGHT", Some(Feat::WaWeight), true),
    f("WA_BIAS", Some(Feat::WaBias), true),
    f("UTIL_EST", None, true),
    f("UTIL_EST_FASTUP", None, true),
    f("LATENCY_WARN", None, false),
    f("ALT_PERIOD", None, true),
    f("BASE_SLICE", None, true),
];
// 6.6 kernel/sched/features.h (v6.6.0, read in full: the list and defaults below are the
// whole file; ALT_PERIOD and BASE_SLICE belonged to CFS and went with the EEVDF merge).
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
    f("SIS_PROP", Some(Feat::SisProp), false),
    f("SIS_UTIL", Some(Feat::SisUtil), true),
    f("WARN_DOUBLE_CLOCK", None, false),
    f("RT_PUSH_IPI", None, true),
    f("RT_RUNTIME_SHARE", None, false),
    f("LB_MIN", None, false),
    f("ATTACH_AGE_LOAD", None, true),
    f("WA_IDLE", Some(Feat::WaIdle), true),
    f("WA_WEIGHT", Some(Feat::WaWeight), true),
    f("WA_BIAS", Some(Feat::WaBias), true),
    f("UTIL_EST", None, true),
    f("UTIL_EST_FASTUP", None, true),
    f("LATENCY_WARN", None, false),
    f("HZ_BW", None, true),
];
// 6.12 kernel/sched/features.h (v6.12.0, the whole file; no HZ_BW, DOUBLE_TICK still there).
// DELAY_DEQUEUE and DELAY_ZERO (both on) are modelled in `policy::eevdf` and `sim::wakeup`.
// PICK_BUDDY is not in 6.12.0 (a later patch, backported to 6.12.y stable).
const F_612: &[FeatureDef] = &[
    f("PLACE_LAG", Some(Feat::PlaceLag), true),
    f("PLACE_DEADLINE_INITIAL", Some(Feat::PlaceDeadlineInitial), true),
    f("PLACE_REL_DEADLINE", Some(Feat::PlaceRelDeadline), true),
    f("RUN_TO_PARITY", Some(Feat::RunToParity), true),
    f("PREEMPT_SHORT", Some(Feat::PreemptShort), true),
    f("NEXT_BUDDY", None, false),
    f("CACHE_HOT_BUDDY", None, true),
    f("DELAY_DEQUEUE", Some(Feat::DelayDequeue), true),
    f("DELAY_ZERO", Some(Feat::DelayZero), true),
    f("WAKEUP_PREEMPTION", Some(Feat::WakeupPreempt), true),
    f("HRTICK", Some(Feat::Hrtick), false),
    f("HRTICK_DL", None, false),
    f("DOUBLE_TICK", None, false),
    f("NONTASK_CAPACITY", None, true),
    f("TTWU_QUEUE", Some(Feat::TtwuQueue), true),
    f("SIS_UTIL", Some(Feat::SisUtil), true),
    f("WARN_DOUBLE_CLOCK", None, false),
    f("RT_PUSH_IPI", None, true),
    f("RT_RUNTIME_SHARE", None, false),
    f("LB_MIN", None, false),
    f("ATTACH_AGE_LOAD", None, true),
    f("WA_IDLE", Some(Feat::WaIdle), true),
    f("WA_WEIGHT", Some(Feat::WaWeight), true),
    f("WA_BIAS", Some(Feat::WaBias), true),
    f("UTIL_EST", None, true),
    f("LATENCY_WARN", None, false),
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
            Kernel::V515 => "5.15",
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
            Kernel::V515 => "5.15, CFS (Oct 2021)",
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
    pub fn policy(self) -> PolicyKind {
        match self {
            Kernel::Sd2621 => PolicyKind::Sd,
            Kernel::V66 | Kernel::V612 => PolicyKind::Eevdf,
            _ => PolicyKind::Cfs,
        }
    }

    /// The release that `policy=NAME` (the old key, kept for links) stands for, given the
    /// era a config had: the same era if it already runs that class.
    pub fn for_policy(self, p: PolicyKind) -> Kernel {
        if self.policy() == p {
            return self;
        }
        match p {
            PolicyKind::Sd => Kernel::Sd2621,
            PolicyKind::Cfs => Kernel::V417,
            PolicyKind::Eevdf => Kernel::V66,
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

    /// The release's tunable defaults (unscaled, as the sysctls are before
    /// `sched_init_granularity` multiplies them).
    /// - 2.6.23 (kernel/sched_fair.c, v2.6.23): latency 20 ms, min_granularity 2 ms;
    ///   `sched_init_granularity` overwrites wakeup_granularity with min_granularity / 2, so
    ///   its default here is 1 ms (scaled like the others: `cfs_sysctls`).
    /// - sched-devel (v2.6.24-rc1 proxy): latency 20 ms, wakeup_granularity 10 ms, and
    ///   `sysctl_sched_nr_latency = 20` instead of a min_granularity: the tree had none
    ///   (b2be5e96dc0 re-added it on 2007-11-09). `min_granularity` here stands for
    ///   latency / nr_latency = 1 ms, the period's per-task floor that gives.
    /// - 2.6.24 (v2.6.24): latency 20 ms, min_granularity 4 ms, wakeup_granularity 10 ms.
    /// - 2.6.38-6.5: kernel/sched/fair.c (`sysctl_sched_latency = 6000000ULL`, ...);
    ///   6.6+: `sysctl_sched_base_slice = 750000ULL`.
    /// - rr_interval: SD's default (`rr_interval` 8 ms on UP in SD v0.4x, scaled by CPU count
    ///   by the scheduler itself: `policy::sd`).
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
                min_granularity: 2 * MS,
                wakeup_granularity: MS,
                migration_cost: 500 * US,
                rr_interval: 6 * MS,
            },
            Kernel::SchedDevel2007 => Tunables {
                sched_latency: 20 * MS,
                min_granularity: MS,
                wakeup_granularity: 10 * MS,
                migration_cost: 500 * US,
                rr_interval: 6 * MS,
            },
            Kernel::V2624 => Tunables {
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

    /// `sched_init_granularity`'s factor for `ncpus`: `1 + ilog2(ncpus)` in 2.6.23 and
    /// 2.6.24 (uncapped CPU count); none in the sched-devel tree of October 2007, where
    /// 38ad464d410 "sched: uniform tunings" (2007-10-15) had removed the SMP scaling
    /// (19978ca6109 re-added it on 2007-11-09, for 2.6.24-rc3); `1 + ilog2(min(ncpus, 8))`
    /// from 2.6.33 (1983a922a1bc, SCHED_TUNABLESCALING_LOG).
    pub fn granularity_factor(self, ncpus: u32) -> u64 {
        let n = ncpus.max(1);
        match self {
            Kernel::SchedDevel2007 => 1,
            Kernel::Sd2621 | Kernel::V2623 | Kernel::V2624 => 1 + n.ilog2() as u64,
            _ => 1 + n.min(8).ilog2() as u64,
        }
    }

    /// The CFS sysctls a run uses, from a config's (unscaled) values: what the era's
    /// `sched_init_granularity` (2007) or `update_sysctl` (2.6.33+) leaves.
    /// - 2.6.23 (kernel/sched.c, v2.6.23): latency and min_granularity times the factor,
    ///   each capped at 100 ms; `runtime_limit = latency`; wakeup_granularity is
    ///   min_granularity / 2 there (the config's value times the factor, capped at 50 ms).
    ///   No nr_latency (`sched_granularity` divides the latency by nr_running instead).
    /// - sched-devel: no scaling; `sysctl_sched_nr_latency = 20` (a tunable of its own, so it
    ///   stays 20 unless the config changes min_granularity, which stands for latency / nr_latency).
    /// - 2.6.24 (v2.6.24): latency and min_granularity times the factor, capped at 200 ms;
    ///   wakeup_granularity times the factor, uncapped; `sched_nr_latency = 5` at boot (not
    ///   rescaled); the sysctl handler recomputes it as DIV_ROUND_UP(latency, min_granularity)
    ///   when either is written, which is what a changed config value stands for.
    /// - 2.6.33+: each times the capped factor; nr_latency DIV_ROUND_UP(latency, min_granularity)
    ///   (8 at the defaults, `static unsigned int sched_nr_latency = 8`).
    pub fn cfs_sysctls(self, latency: Ns, min_gran: Ns, wakeup_gran: Ns, ncpus: u32) -> CfsSysctls {
        let f = self.granularity_factor(ncpus);
        let d = self.tunables();
        let (lat, min) = (latency.max(1), min_gran.max(1));
        let div_ceil = |a: Ns, b: Ns| a.div_ceil(b.max(1)).max(1);
        match self {
            Kernel::V2623 => {
                const LIMIT: Ns = 100 * MS;
                let latency = (lat * f).min(LIMIT);
                CfsSysctls {
                    latency,
                    min_granularity: (min * f).min(LIMIT),
                    wakeup_granularity: (wakeup_gran * f).min(LIMIT / 2),
                    runtime_limit: latency,
                    nr_latency: 0,
                }
            }
            Kernel::SchedDevel2007 => CfsSysctls {
                latency: lat,
                min_granularity: min,
                wakeup_granularity: wakeup_gran,
                runtime_limit: 0,
                nr_latency: if min_gran == d.min_granularity { 20 } else { div_ceil(lat, min) },
            },
            Kernel::V2624 => {
                const LIMIT: Ns = 200 * MS;
                let (latency, min_granularity) = ((lat * f).min(LIMIT), (min * f).min(LIMIT));
                let boot = lat == d.sched_latency && min == d.min_granularity;
                CfsSysctls {
                    latency,
                    min_granularity,
                    wakeup_granularity: wakeup_gran * f,
                    runtime_limit: 0,
                    nr_latency: if boot { 5 } else { div_ceil(latency, min_granularity) },
                }
            }
            _ => {
                let (latency, min_granularity) = (lat * f, min * f);
                CfsSysctls {
                    latency,
                    min_granularity,
                    wakeup_granularity: wakeup_gran * f,
                    runtime_limit: 0,
                    nr_latency: div_ceil(latency, min_granularity),
                }
            }
        }
    }

    /// The preemption model a kernel of this era runs when the config does not choose one:
    /// kernel/Kconfig.preempt's `choice "Preemption Model"` has `default PREEMPT_NONE` (read
    /// as quoted from v6.6 and in the 5.12 PREEMPT_DYNAMIC patch; the same choice default
    /// is taken for the older eras, not read), and PREEMPT_DYNAMIC boots the built choice.
    /// A distribution's config (Ubuntu and RHEL build VOLUNTARY) is not known per machine
    /// profile here; `preempt=` sets it.
    pub fn preempt_default(self) -> PreemptModel {
        PreemptModel::None
    }

    /// Whether a SCHED_OTHER task's `sched_attr.sched_runtime` sets its slice: 6.12
    /// (857b158dc5e8, "sched/eevdf: Use sched_attr::sched_runtime to set request/slice
    /// suggestion", in the series with PREEMPT_SHORT); 6.6
    /// ignores it for fair tasks.
    pub fn custom_slices(self) -> bool {
        self == Kernel::V612
    }

    /// Whether START_DEBIT's `__sched_vslice` carries its NICE_0_LOAD factor. The sched-devel
    /// tree of October 2007 (4d78e7b656a, as in v2.6.24-rc1) divided the period by the queue's
    /// weight alone, so a new task's debit was about 1/1024 of a slice; 10b777246c6 "sched: fix
    /// vslice" (2007-11-09, in 2.6.24) added the factor.
    pub fn vslice_has_nice0(self) -> bool {
        self != Kernel::SchedDevel2007
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
            Kernel::V515 => F_515,
            Kernel::V66 => F_66,
            Kernel::V612 => F_612,
        }
    }

    /// What a modelled behaviour is in an era that has no feature for it: wakeup
    /// preemption is always on before 2.6.24 made it a feature (2.6.23's
    /// `check_preempt_curr_fair` always runs); sleeper credit is unconditional in 3.11 and
    /// 4.17, which have no FAIR_SLEEPERS knob (only GENTLE_FAIR_SLEEPERS halving it); the
    /// others did not exist.
    pub fn implied(self, feat: Feat) -> bool {
        match feat {
            Feat::WakeupPreempt => true,
            Feat::FairSleepers => matches!(self, Kernel::V311 | Kernel::V417 | Kernel::V515),
            _ => false,
        }
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
            Some(IdleEntry::Hlt) | Some(IdleEntry::Io) | Some(IdleEntry::Wfi) => false,
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

    /// EEVDF: whether a new task's first enqueue is an `ENQUEUE_INITIAL` placement (so
    /// PLACE_DEADLINE_INITIAL gives it half a slice). 6.12 core.c `wake_up_new_task`:
    /// `activate_task(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_INITIAL)` ("sched: Initialize the
    /// vruntime of a new task when it is first enqueued", Zhang Qiao, 2024; commit id not
    /// verified here). 6.6.0 places the child in `task_fork_fair` with ENQUEUE_INITIAL, but
    /// `wake_up_new_task` then calls `activate_task(rq, p, ENQUEUE_NOCLOCK)` and
    /// `enqueue_entity` places it again without the flag (vlag 0 from `__sched_fork`): the
    /// half-slice deadline is overwritten, so in 6.6.0 a new task starts with a full slice.
    pub fn eevdf_initial_enqueue(self) -> bool {
        self >= Kernel::V612
    }

    /// Whether `hrtick_start` clamps every delay to 10 us (4.17+ core.c: `delta = max_t(s64,
    /// delay, 10000LL)`, "can cause timer DoS"), or, as in 2.6.25-4.x `hrtick_start_fair`,
    /// only the slice of a task that is not yet current (`if (rq->curr != p) delta =
    /// max_t(s64, 10000LL, delta)`).
    pub fn hrtick_floor_always(self) -> bool {
        self >= Kernel::V417
    }

    /// With TTWU_QUEUE on, whether `try_to_wake_up` hands a remote wakeup to the target's
    /// wake list (the target's IPI handler enqueues it) instead of taking the target's rq
    /// lock and enqueueing it itself. None of the 2007 eras has TTWU_QUEUE (it came with
    /// 3.0, 317f394160e9). 3.3 (518cd6234178) to 5.7, `ttwu_queue`: only when the waker and
    /// the target do not share the LLC (`!cpus_share_cache`). 6.0+ `ttwu_queue_cond`
    /// (f3dd3f674555): also when the target is in the same LLC but has nothing running
    /// (`!cpu_rq(cpu)->nr_running`). Not modelled: 5.8's `WF_ON_RQ` clause (a wakee still
    /// descheduling on its old CPU).
    pub fn ttwu_queues(self, share_llc: bool, target_nr_running: usize) -> bool {
        match self {
            Kernel::Sd2621 | Kernel::V2623 | Kernel::SchedDevel2007 | Kernel::V2624 => false,
            Kernel::V311 | Kernel::V417 | Kernel::V515 => !share_llc,
            Kernel::V66 | Kernel::V612 => !share_llc || target_nr_running == 0,
        }
    }

    /// The period of the softlockup watchdog's per-CPU hrtimer, or `None` where there is no
    /// such timer. kernel/watchdog.c (2.6.36+, "lockup_detector: Combine nmi_watchdog and
    /// softlockup detector", 58687acba592; read in a 3.10 tree and in 6.x trees):
    /// `watchdog_enable` starts `watchdog_hrtimer` per CPU (`HRTIMER_MODE_REL_PINNED`) and
    /// `watchdog_timer_fn` re-arms it with `hrtimer_forward_now(hrtimer, sample_period)`,
    /// `sample_period = get_softlockup_thresh() * (NSEC_PER_SEC / 5)` (6.x: `/
    /// NUM_SAMPLE_PERIODS`, 5) and `get_softlockup_thresh() = watchdog_thresh * 2` with
    /// `watchdog_thresh = 10`: 4 s. Before 2.6.36 (kernel/softlockup.c) the check ran from
    /// the tick (`softlockup_tick` in `update_process_times`): no timer of its own, so it
    /// never bounds a stopped tick's sleep.
    pub fn watchdog_period(self) -> Option<Ns> {
        match self {
            Kernel::Sd2621 | Kernel::V2623 | Kernel::SchedDevel2007 | Kernel::V2624 => None,
            _ => Some(4 * super::time::SEC),
        }
    }

    /// Whether `governor=menu` runs 3.11's menu (`idle::Menu311`: POLL only when the next
    /// timer is within 5 us, the load/iowait performance multiplier, no tick logic) rather
    /// than 6.6's. The 2.6.2x eras, 4.17 and 5.15 keep 6.6's form (their own menus are not
    /// modelled: 2.6.2x had no correction factor, 4.17 first asked the governor about the
    /// tick and 5.x changed the interval detector and the POLL rule).
    pub fn menu_is_3_11(self) -> bool {
        self == Kernel::V311
    }

    /// Whether `select_task_rq_fair` has 4.14's `wake_affine` (3fed382b46ba: `record_wakee`,
    /// 4.5's `wake_wide`, `wake_affine_idle`, `wake_affine_weight` behind WA_IDLE, WA_WEIGHT
    /// and WA_BIAS): 4.17 and later. Before it the engine starts a WF_SYNC wakeup from the
    /// waker's CPU when the waker runs alone there, any other from prev (`sim::wakeup`).
    pub fn wake_affine_4_14(self) -> bool {
        self >= Kernel::V417
    }

    /// `select_idle_sibling`'s `recent_used_cpu` (`sim::wakeup`, SIS), by release: none
    /// before 4.16; 4.16's 32e839dda3ba (the 4.17 era) sets `p->recent_used_cpu = prev`
    /// only when it returns the recent CPU, and `select_task_rq_fair` sets the waker's
    /// (`current->recent_used_cpu = cpu`) after a want_affine wakeup; 5.15-rc1's 89aafd67f28c
    /// ("sched/fair: Use prev instead of new target as recent_used_cpu") sets
    /// `p->recent_used_cpu = prev` before the check and drops the waker's (5.15, 6.6, 6.12).
    pub fn recent_used_cpu(self) -> RecentUsedCpu {
        match self {
            Kernel::V417 => RecentUsedCpu::SetOnHit,
            k if k >= Kernel::V515 => RecentUsedCpu::SetPrev,
            _ => RecentUsedCpu::None,
        }
    }

    /// Which `find_idlest_group` fork placement runs (`sim::fork`; None: not modelled, the
    /// task keeps `TaskSpec::core`): 4.17's runnable-load form, or the group types of
    /// 57abff067a08 ("sched/fair: Rework find_idlest_group()", 5.5) for 5.15, 6.6 and 6.12.
    pub fn fork_form(self) -> Option<ForkForm> {
        if self >= Kernel::V515 {
            Some(ForkForm::Types515)
        } else if self >= Kernel::V417 {
            Some(ForkForm::Load417)
        } else {
            None
        }
    }

    /// SIS_PROP's form (`sim::wakeup`, SIS; used only where the era lists SIS_PROP): 4.13's
    /// 1ad3aaf3fcd2 (the 4.17 era) scales `this_rq()->avg_idle / 512`; 5.13's 94aafc3ee31d
    /// ("sched/fair: Age the average idle time", 5.15 and 6.6) `rq->wake_avg_idle`, halved
    /// each jiffy since the last wakeup onto the CPU and less each scan's time.
    pub fn sis_prop_ages(self) -> bool {
        self >= Kernel::V515
    }

    /// Whether teo has util-awareness ("cpuidle: teo: Introduce util-awareness", 6.3; read in
    /// 6.5 and 6.6.9 trees, `UTIL_THRESHOLD_SHIFT` 6): 6.6 and 6.12. It was removed again
    /// later ("cpuidle: teo: Remove util-awareness"); that 6.12 still has it is not verified.
    pub fn teo_util_aware(self) -> bool {
        self >= Kernel::V66
    }

    /// How `time` (getrusage) reports a task's user and system time (`Cputime`).
    ///
    /// Without VIRT_CPU_ACCOUNTING every tick samples the interrupted mode
    /// (`update_process_times` -> `account_process_tick(p, user_tick)` in 3.11; 2.6.21
    /// `update_process_times` -> `account_user_time`/`account_system_time` with
    /// `jiffies_to_cputime(1)`): one tick of user time, or of system time when `p` is not the
    /// idle task.
    /// - 2.6.21 reports those samples raw: kernel/exit.c `wait_task_zombie` adds the child's
    ///   `p->utime`/`p->stime` (tick counts) to the parent's `cutime`/`cstime`, which
    ///   `k_getrusage(RUSAGE_CHILDREN)` returns (2.6.21 kernel/sys.c); there is no
    ///   `sum_exec_runtime` to scale by (the SD patch keeps the O(1) accounting).
    /// - 3.11 scales the samples to the precise runtime: `cputime_adjust`
    ///   (kernel/sched/cputime.c, the 3.9-3.11 form) does `stime = scale_stime(stime, rtime,
    ///   stime + utime)`, `utime = rtime - stime`, all of it system when no tick hit the
    ///   task (`stime = rtime`), with `rtime = sum_exec_runtime`.
    /// - Other eras keep the engine's exact spans: their accounting is not modelled (2.6.23
    ///   and 2.6.24 scale in `task_utime`/`task_stime`; 3.12+ changed `cputime_adjust`'s
    ///   zero cases).
    pub fn cputime(self) -> Cputime {
        match self {
            Kernel::Sd2621 => Cputime::TickSamples,
            Kernel::V311 => Cputime::TickSamplesScaled,
            _ => Cputime::Exact,
        }
    }

    /// Whether the tick samples user and system time (`cputime`: not `Exact`).
    pub fn tick_sampled_time(self) -> bool {
        self.cputime() != Cputime::Exact
    }

    /// Whether a switch from the idle task leaves the rq clock where the last update put
    /// it, so the incoming task's `exec_start` (`set_next_entity`: `rq->clock_task`) is that
    /// stale value and its `sum_exec_runtime` gains the time since. 3.11 kernel/sched/core.c:
    /// `put_prev_task` updates the clock only `if (prev->on_rq || rq->skip_clock_update <
    /// 0)`, and the idle task is never on a runqueue (`init_idle` -> `__sched_fork` sets
    /// `on_rq = 0`); a remote waker's `enqueue_task` (`update_rq_clock`) or the target's
    /// tick was the last update. So a task woken onto an idle CPU by another CPU is charged
    /// its wakeup's IPI flight, C-state exit and idle exit. 3.15 moved `put_prev_task` into
    /// `pick_next_task` and 4.0's "sched/core: Rework rq->clock update skips" (9edfbfed3f54)
    /// made `__schedule` update the clock itself (4.17 and later verified: `update_rq_clock`
    /// in `__schedule`); the 2.6.2x `schedule()` updated it on every call.
    pub fn idle_switch_keeps_stale_clock(self) -> bool {
        self == Kernel::V311
    }

    /// Whether a wake-list wakeup skips the IPI when the target's idle loop polls: from 3.16
    /// (e3baac47f0e8, `ttwu_queue_remote`: `if (!set_nr_if_polling(rq->idle))
    /// smp_send_reschedule(cpu)`; 6.x `call_function_single_prep_ipi`). Before, the first
    /// entry on an empty list always sends one (`if (llist_add(...)) smp_send_reschedule`).
    pub fn wakelist_ipi_skips_polling(self) -> bool {
        self >= Kernel::V417
    }

    /// Whether x86 keeps TLB entries of recently run mms in PCID-tagged slots: from 4.14
    /// (10af6235e0d3, "x86/mm: Implement PCID based optimization: try to preserve old TLB
    /// entries using PCID"; arch/x86/mm/tlb.c `choose_new_asid`, TLB_NR_DYN_ASIDS = 6 per
    /// CPU). Before, `switch_mm` loads CR3 without PCID and every switch to another mm
    /// refills the TLB (`sim::schedule::LoadedMm`).
    pub fn x86_pcid_asids(self) -> bool {
        self >= Kernel::V417
    }

    /// Whether intel_idle drops the borrowed mm before a state flagged
    /// CPUIDLE_FLAG_TLB_FLUSHED (`if (state->flags & CPUIDLE_FLAG_TLB_FLUSHED) leave_mm(cpu);`
    /// in `intel_idle`, 3.x): until 4.14's 43858b4f25cf ("x86/mm: Stop calling leave_mm() in
    /// idle code"). The task that comes back then reloads CR3 (`switch_mm`'s `else` branch:
    /// the CPU left `mm_cpumask`) and refills the TLB.
    pub fn idle_leaves_mm(self) -> bool {
        self < Kernel::V417
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
            if def.map_or(kernel.implied(*feat), |d| d.is_on(overrides)) {
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
    Feat::PreemptShort,
    Feat::PlaceRelDeadline,
    Feat::DelayDequeue,
    Feat::DelayZero,
    Feat::LastBuddy,
    Feat::NextBuddy,
    Feat::WaIdle,
    Feat::WaWeight,
    Feat::WaBias,
    Feat::SisProp,
    Feat::SisUtil,
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
        if want[i] == Some(!on) {
            return Err(format!("both {name} and NO_{name} are given (say one)"));
        }
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

/// Which `find_idlest_group` an era's fork placement runs (`Kernel::fork_form`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForkForm {
    /// 4.17: runnable load and `imbalance_scale`.
    Load417,
    /// 5.5+ (5.15, 6.6, 6.12): group types.
    Types515,
}

/// Which form of `recent_used_cpu` an era has (`Kernel::recent_used_cpu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecentUsedCpu {
    None,
    /// 4.16-5.14: kept on a hit (set to prev), and the waker's set to the waking CPU.
    SetOnHit,
    /// 5.15+: set to prev at every check.
    SetPrev,
}

/// How a pipe's reader and writers wake each other (`fs/pipe.c`, `pipe_read`/`pipe_write`),
/// by release (`Kernel::pipe_wake`). Every wakeup is issued after `__pipe_unlock`, a sync
/// wakeup (WF_SYNC); here at the end of the read or write burst (`Fx::wakes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipeWake {
    /// 2.6 to 5.4 (read in 3.11 and 5.4): one wait queue `pipe->wait` for readers and
    /// writers, non-exclusive (`pipe_wait`: `prepare_to_wait`). `pipe_read` sets
    /// `do_wakeup` when it releases an emptied buffer (`pipe_buf_release`) and wakes the
    /// queue after `__pipe_unlock`; `pipe_write` sets it when it fills a new buffer (not
    /// for a write merged into the last one) and wakes the queue likewise. Every sleeping
    /// writer wakes on either; one that finds all buffers taken sleeps again.
    SharedQueue,
    /// 5.6 to 6.13 (read in 5.15, 6.6 and 6.12): `rd_wait` and `wr_wait`, exclusive waits
    /// (0ddad21d3e99 "pipe: use exclusive waits when reading or writing", 5.6). `pipe_read`
    /// wakes ONE writer when the read began on a full pipe (`was_full`, f467a6a66419 "pipe:
    /// fix and clarify pipe read wakeup logic", 5.5), whether or not the read freed a
    /// buffer; a writer woken to a still full pipe sleeps again at the queue's tail
    /// (`wait_event_interruptible_exclusive`: `pipe_writable` is `!pipe_full`). A writer
    /// that waited wakes the next one after its write unless the pipe is full again
    /// (`wake_next_writer`). A write to an empty pipe wakes the reader (`was_empty`).
    /// (5.5 alone had `was_full` with 5.4's shared non-exclusive queue; no era here.)
    WasFull,
    /// aaec5a95d596 (Oleg Nesterov, "pipe_read: don't wake up the writer if the pipe is
    /// still full", January 2025, merged for 6.14; no era here yet): one writer, and only
    /// when the read released a buffer of a full pipe (`wake_writer |= pipe_full(..)` at
    /// the release).
    FreedWhileFull,
}

/// Pipes (`workload::pipe::PipeBuf`).
impl Kernel {
    /// How `pipe_read` and `pipe_write` wake each other in this release (`PipeWake`): one
    /// shared non-exclusive queue woken when a buffer is released or filled up to 5.4
    /// (2.6.x, 3.11, 4.17 here); exclusive writer waits woken by every read of a full pipe
    /// from 5.6 (5.15, 6.6, 6.12).
    pub fn pipe_wake(self) -> PipeWake {
        if self >= Kernel::V515 {
            PipeWake::WasFull
        } else {
            PipeWake::SharedQueue
        }
    }

    /// `pipe2(fds, O_DIRECT)` makes a packet pipe (one write a buffer, one read a write):
    /// 3.4 (9883035ae7ed "pipes: add a 'packetized pipe' mode for writing"). Before, the
    /// flag is refused and stress-ng falls back to a plain `pipe()`.
    pub fn pipe_packets(self) -> bool {
        self >= Kernel::V311
    }
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

    #[test]
    fn the_2007_feature_lists_are_the_releases() {
        let names = |k: Kernel| k.features().iter().map(|d| d.name).collect::<Vec<_>>().join(" ");
        assert_eq!(
            names(Kernel::V2623),
            "FAIR_SLEEPERS SLEEPER_AVG SLEEPER_LOAD_AVG PRECISE_CPU_LOAD START_DEBIT SKIP_INITIAL"
        );
        assert_eq!(
            names(Kernel::SchedDevel2007),
            "NEW_FAIR_SLEEPERS START_DEBIT TREE_AVG APPROX_AVG WAKEUP_PREEMPT PREEMPT_RESTRICT HRTICK"
        );
        let s = FeatureSet::resolve(Kernel::SchedDevel2007, &[]);
        assert!(s.has(Feat::PreemptRestrict) && !s.has(Feat::Hrtick));
        assert!(FeatureSet::resolve(Kernel::V417, &[]).has(Feat::FairSleepers), "3.x: sleeper credit always");
    }

    #[test]
    fn cfs_sysctls_follow_each_eras_scaling() {
        let s = |k: Kernel, n| {
            let t = k.tunables();
            k.cfs_sysctls(t.sched_latency, t.min_granularity, t.wakeup_granularity, n)
        };
        let v = s(Kernel::V2623, 4);
        assert_eq!(
            (v.latency, v.min_granularity, v.wakeup_granularity, v.runtime_limit),
            (60 * MS, 6 * MS, 3 * MS, 60 * MS)
        );
        assert_eq!(s(Kernel::V2623, 1 << 20).latency, 100 * MS, "2.6.23 caps at 100 ms");
        let v = s(Kernel::SchedDevel2007, 4);
        assert_eq!((v.latency, v.wakeup_granularity, v.nr_latency), (20 * MS, 10 * MS, 20), "uniform tunings");
        let v = s(Kernel::V2624, 64);
        assert_eq!((v.latency, v.min_granularity, v.wakeup_granularity, v.nr_latency), (140 * MS, 28 * MS, 70 * MS, 5));
        assert_eq!(s(Kernel::V2624, 1 << 20).latency, 200 * MS, "2.6.24 caps at 200 ms");
        assert_eq!(s(Kernel::V2624, 1 << 20).nr_latency, 5, "nr_latency is not rescaled at boot");
        let v = s(Kernel::V417, 64);
        assert_eq!((v.latency, v.min_granularity, v.nr_latency), (24 * MS, 3 * MS, 8));
    }
}
