//! The wakeup path: `try_to_wake_up`, `select_task_rq` (wake_affine, `select_idle_sibling`),
//! `resched_curr`'s IPI or polling flag, and the events that deliver them (kernel/sched/core.c, fair.c).
//!
//! UPDATE_CURR. Every enqueue charges the target's running `curr` first: `enqueue_entity`
//! opens with `update_curr(cfs_rq)` in every era modelled (2.6.23-5.15 kernel/sched_fair.c
//! and kernel/sched/fair.c; 6.6 and 6.12 call it before `place_entity`, so V includes curr's
//! latest run), and the wakeup check charges again (5.15 `check_preempt_wakeup`:
//! `update_curr(cfs_rq_of(se))` before `wakeup_preempt_entity`; 6.6/6.12
//! `check_preempt_wakeup_fair`: `update_curr(cfs_rq)` before `pick_eevdf`, read in a
//! 6.12.67 tree). So a remote wakeup (`ttwu_remote`, direct) and a wake-list flush on a
//! busy core decide on curr's vruntime as of the wakeup, not as of its last tick: `activate`
//! calls `Sim::update_curr`. If EEVDF's `update_deadline` reschedules curr in that charge,
//! the check finds `TIF_NEED_RESCHED` set and returns; the reschedule is delivered as a
//! wakeup preemption's would be. Not charged: a migration's enqueue (`sim::balance`).
//!
//! TRANSFER. A wakeup on the waker's CPU writes cache lines last written elsewhere, each
//! paid at the profile's core-to-core latency for the pair (`profile::C2c`; nothing on the
//! same CPU). From the wakee's previous CPU, `WAKEE_LINES` (5.15 kernel/sched/core.c
//! `try_to_wake_up`: the wait-queue entry on the wakee's stack that
//! `autoremove_wake_function` unlinks, `p->pi_lock`, `p->__state` with `p->on_cpu`, and
//! `p->on_rq` with the `se` that `select_task_rq_fair` reads); from the target CPU,
//! `RQ_LINES` for a direct enqueue (`rq->__lock`, the cfs_rq's `nr_running`/`curr`) or
//! `WAKELIST_LINES` for TTWU_QUEUE (the wake list's `llist_add`). The pulls that wait for
//! one another are paid in series, the others once (as the pipe op's, `workload::pipe`
//! module doc: CHAIN): the wait entry is reached through the queue's list and names the
//! task (`curr->private`), `raw_spin_lock_irqsave(&p->pi_lock)` is a locked op that the
//! later loads wait for (Intel SDM vol. 3A, 8.2.2), and `__state`/`on_cpu` and
//! `on_rq`/`se`, independent of each other, are in flight together: `WAKEE_CHAIN`, three
//! latencies for four lines. On the target, `rq->__lock` then the cfs_rq under it: two.
//! Simplified: a line's owner is taken to be that CPU (another CPU may have touched it
//! since). The pipe's own lines are the pipe op's (`workload::pipe`).
//!
//! SIS (`select_idle_sibling`'s recent CPU and scan limits, per era). RECENT_USED_CPU
//! (4.16's 32e839dda3ba, so the 4.17 era on; `Kernel::recent_used_cpu`): after the target
//! and prev, the task's `p->recent_used_cpu` is returned if it is neither, shares the
//! target's LLC (`cpus_share_cache`), is idle (`idle_cpu`, 5.x `available_idle_cpu ||
//! sched_idle_cpu`: the engine's `is_idle`) and allowed. 4.17 then sets it to prev only on
//! that hit, and `select_task_rq_fair` sets the waker's (`current->recent_used_cpu = cpu`)
//! after every want_affine wakeup; 5.15+ (89aafd67f28c, 5.15-rc1) sets it to prev at every
//! check and never the waker's (5.15.100 fair.c `select_idle_sibling`, read in
//! zcjie1/linux-5.15.100). SIS_PROP (4.13's 1ad3aaf3fcd2; on in the 4.17 era, off in the
//! 5.15.y and 6.6 tables, gone by 6.12): without an idle core, `select_idle_cpu` gives up
//! after `nr - 1` CPUs (`if (!--nr) return -1`), `nr = span_weight * avg_idle / avg_cost`,
//! at least 4 (`span_avg > 4*avg_cost`), `avg_cost` the scanning CPU's `sd_llc`
//! `avg_scan_cost + 1` and `avg_idle` its `rq->avg_idle / 512` (4.19 fair.c, read in
//! 0x88888888/Linux-4.19; 4.17's reads `idle_cpu` for `available_idle_cpu`) or, 5.13+ (94aafc3ee31d), `rq->wake_avg_idle`: half `avg_idle` at each
//! wakeup that ends the CPU's idle period (`ttwu_do_wakeup`), halved each jiffy since, less
//! each scan's time. A scan that ran to its end (found a CPU or passed them all) folds its
//! time into `avg_scan_cost` by `update_avg` (1/8). SIS_UTIL (6.0's 70fb5ccf2ebb,
//! backported to the 5.15.y tree the era's table follows; 6.6, 6.12): `nr =
//! sd_llc_shared->nr_idle_scan + 1`, no scan at all if that is 1 (with or without an idle
//! core), and the idle-core path not counted down; `nr_idle_scan` is set by
//! `update_idle_cpu_scan` at the end of `update_sd_lb_stats` of a periodic (not newly idle)
//! balance of the LLC domain, from the sum of its CPUs' `cpu_util` (`nr_idle_scan`). Both
//! on: SIS_UTIL's nr wins. The scan's time is the line transfers of the runqueues it reads
//! (`SCAN_LINES` per CPU at the profile's core-to-core latency to the scanning CPU, as
//! TRANSFER's): it feeds `avg_scan_cost` and `wake_avg_idle` only, and is not charged to the
//! waker (the engine charges no scan, limited or not). Simplified: the scan starts at
//! `target + 1` in every era (4.17 wrapped from `target`); 4.17's `select_idle_core` (all
//! cores), then `select_idle_cpu` (limited), then `select_idle_smt(target)` run as 5.15's
//! one scan, SIS_PROP left off the idle-core path as 5.15 does; `nr_idle_scan` starts at the LLC's size (the
//! kernel's starts at 0 until the LLC's first periodic balance); `max_idle_balance_cost`
//! is `migration_cost` (the `avg_idle` clamp, `sim::idle_path`); SIS_AVG_CPU (off) is not
//! modelled. The features SIS_PROP and SIS_UTIL switch each off as `sched_features` does.
//!
//! WAKE_AFFINE (4.17, 5.15, 6.6, 6.12 eras; `select_task_rq_fair` as rewritten in 4.14,
//! 3fed382b46ba, read in 5.15 fair.c): for a `WF_TTWU` wakeup the waker's `current` first
//! counts a flip when it wakes another task than last time (`record_wakee`; the flips halve
//! once a second, `wakee_flip_decay_ts + HZ` in jiffies). `wake_wide` keeps the wakee at its
//! previous CPU when the smaller of the two flip counts is at least the waker's LLC size and
//! the larger at least that factor times it (4.5's form, 63b0e9edceec). Otherwise, if the
//! waker's CPU differs from prev, the waker's lowest domain with SD_WAKE_AFFINE that spans
//! prev decides (`wake_affine`): `wake_affine_idle` (the waker's CPU idle and sharing prev's
//! LLC: prev if idle, else the waker's; WF_SYNC and the waker alone there: the waker's;
//! prev idle: prev), then `wake_affine_weight`: the waker's CPU wins if
//! `(cpu_load(this) - task_h_load(current) + task_h_load(p)) * 100` is under
//! `(cpu_load(prev) - task_h_load(p)) * (100 + (imbalance_pct - 100) / 2)` (+1 if sync),
//! and at once if `current`'s load exceeds its CPU's. Loads are `sim::balance`'s `cpu_load`
//! and `task_load` (PELT `load_avg`; the flat hierarchy makes `task_h_load` the task's own).
//! `select_idle_sibling` then starts from the CPU chosen. The features WA_IDLE, WA_WEIGHT and
//! WA_BIAS switch each part off as `sched_features` does. Simplified: 4.17's
//! `weighted_cpuload` read `runnable_load_avg` (no blocked load), the engine the 5.7+
//! `load_avg` for both; `capacity_of` is equal on every CPU (no capacity invariance); the
//! October 2021 RFC that couples a wakee's flips to its waker's (Mel Gorman) is not
//! modelled. Eras before 4.17 keep a simpler rule: WF_SYNC with the waker alone on its CPU
//! starts from the waker's CPU, anything else from prev (3.11's `effective_load`-based
//! `wake_affine` and its `wake_wide` are not modelled).

use super::domain::sd;
use super::{Ev, Sim, TaskState};
use crate::engine::explain::Delivery;
use crate::engine::kernel::{Feat, Kernel, RecentUsedCpu};
use crate::engine::policy::{Arrival, Policy};
use crate::engine::profile::Profile;
use crate::engine::time::Ns;
use crate::engine::trace::{InstantKind, Overhead};

/// Lines of the wakee a wakeup writes (module doc: TRANSFER): 4, of which `__state`/
/// `on_cpu` and `on_rq`/`se` are pulled together, so 3 latencies in series.
const WAKEE_CHAIN: u64 = 3;
/// Lines of the target runqueue a direct enqueue writes, the lock's first (in series).
const RQ_LINES: u64 = 2;
/// Lines of the target's wake list a TTWU_QUEUE wakeup writes.
const WAKELIST_LINES: u64 = 1;
/// Lines of a remote runqueue `select_idle_cpu` reads per CPU it looks at (module doc: SIS):
/// `available_idle_cpu` reads `rq->curr`, `rq->nr_running` and `rq->ttwu_pending`, taken to
/// share one line (simplified).
const SCAN_LINES: u64 = 1;
/// `SCHED_CAPACITY_SCALE`: a CPU's full capacity, `cpu_util`'s ceiling.
const SCHED_CAPACITY_SCALE: u64 = 1024;

/// `select_idle_sibling`'s state across wakeups (module doc: SIS): per task, per CPU, per LLC.
#[derive(Clone, Debug)]
pub(super) struct Sis {
    recent: RecentUsedCpu,
    /// SIS_PROP on, and its 5.13+ form (`wake_avg_idle`) rather than `avg_idle / 512`.
    prop: bool,
    ages: bool,
    /// SIS_UTIL on.
    util: bool,
    /// Per task: `p->recent_used_cpu`.
    recent_cpu: Vec<u16>,
    /// Per CPU: its `sd_llc`'s `avg_scan_cost` (a per-CPU sched_domain), `rq->wake_avg_idle`
    /// and `rq->wake_stamp` (jiffies).
    avg_scan_cost: Vec<Ns>,
    wake_avg_idle: Vec<Ns>,
    wake_stamp: Vec<u64>,
    /// Per LLC: `sd_llc_shared->nr_idle_scan`.
    nr_idle_scan: Vec<u32>,
}

impl Sis {
    /// The era's forms and features; tasks start with `recent_used_cpu` on their first CPU
    /// (equal to prev at the first wakeup, so unused until a second); `wake_avg_idle` starts
    /// at `avg_idle`'s start (`sched_init`: `rq->wake_avg_idle = rq->avg_idle`), and
    /// `nr_idle_scan` at what an idle LLC's balance writes, its size (simplified: the kernel
    /// allocates it zeroed, and it is set at the LLC's first periodic balance; a benchmark
    /// starts on a machine up long before).
    pub(super) fn new(
        kernel: Kernel,
        feats: crate::engine::kernel::FeatureSet,
        task_cpus: &[usize],
        avg_idle: Ns,
        llc_sizes: &[usize],
    ) -> Sis {
        let ncpus: usize = llc_sizes.iter().sum();
        let prop = feats.has(Feat::SisProp);
        Sis {
            recent: kernel.recent_used_cpu(),
            prop,
            ages: prop && kernel.sis_prop_ages(),
            util: feats.has(Feat::SisUtil),
            recent_cpu: task_cpus.iter().map(|&c| c as u16).collect(),
            avg_scan_cost: vec![0; ncpus],
            wake_avg_idle: vec![avg_idle; ncpus],
            wake_stamp: vec![0; ncpus],
            nr_idle_scan: llc_sizes.iter().map(|&n| n as u32).collect(),
        }
    }
}

/// What one `select_core` found and leaves to `Sim::apply_sis` (module doc: SIS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SisOut {
    /// select_task_rq_fair's `want_affine`.
    pub want_affine: bool,
    /// The `recent_used_cpu` check was reached; it returned the recent CPU.
    pub recent_reached: bool,
    pub recent_hit: bool,
    /// The scan's limit and the feature that set it.
    pub limit: Option<(u32, &'static str)>,
    /// SIS_PROP ran on this CPU to the scan's end (its cost is then folded in).
    pub prop_on: Option<usize>,
    /// `wake_avg_idle` aged at the scan's start: (cpu, value, stamp).
    pub aged: Option<(usize, Ns, u64)>,
    /// The scan's line transfers, ns (`SCAN_LINES` per CPU looked at).
    pub scan_ns: Ns,
}

/// `update_avg` (kernel/sched/sched.h, 5.15; fair.c before): `*avg += (sample - *avg) / 8`,
/// signed.
fn update_avg(avg: &mut Ns, sample: Ns) {
    let diff = sample as i64 - *avg as i64;
    *avg = (*avg as i64 + diff / 8).max(0) as Ns;
}

/// `update_idle_cpu_scan`'s `nr_idle_scan` (5.15.100 and 6.0+ fair.c, 70fb5ccf2ebb): with
/// `x = sum_util / llc_weight`, `y = 1024 - min(x^2 * pct^2 / (10000 * 1024), 1024)` and
/// `nr = y * llc_weight / 1024`, so the scan stops once the LLC is `100 / pct` busy (85% at
/// 117).
pub(super) fn nr_idle_scan(sum_util: u64, llc_weight: u64, pct: u64) -> u32 {
    let x = sum_util / llc_weight.max(1);
    let tmp = (x * x * pct * pct / (10_000 * SCHED_CAPACITY_SCALE)).min(SCHED_CAPACITY_SCALE);
    ((SCHED_CAPACITY_SCALE - tmp) * llc_weight / SCHED_CAPACITY_SCALE) as u32
}

/// The cache-line transfers a direct wakeup on CPU `waker` pays for a task last on `prev`,
/// enqueued on `target` (module doc: TRANSFER). The trace replay takes it out of recorded
/// runs with the switch and `ttwu` (`share::ftrace::replay::PathCosts`).
pub fn wakeup_transfer(p: &Profile, prev: usize, waker: usize, target: usize) -> Ns {
    let at = |a: usize, b: usize| p.c2c.at(p.topo.distance(a as u32, b as u32));
    at(prev, waker) * WAKEE_CHAIN + at(target, waker) * RQ_LINES
}

/// What `wake_affine` decided (module doc: WAKE_AFFINE), for `select_core` and `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Affine {
    /// No waker CPU (a timer), or the waker's CPU is the task's previous CPU.
    NotAsked,
    /// Eras before 4.17: whether WF_SYNC with the waker alone on its CPU pulled the task.
    Legacy { pulled: bool },
    /// `wake_wide`: many-to-many wakeups (the flips, larger and smaller, and the LLC size).
    Wide { master: u32, slave: u32, factor: u32 },
    /// No domain of the waker's CPU with SD_WAKE_AFFINE spans prev.
    NoDomain,
    /// `wake_affine_idle` chose this CPU.
    Idle { cpu: usize },
    /// WF_SYNC and `current`'s load is above its CPU's: the waker's CPU.
    CurrentHeavier,
    /// Neither rule decided (NO_WA_WEIGHT, and NO_WA_IDLE or no idle case): prev.
    Off,
    /// `wake_affine_weight`'s two sides, and whether the waker's CPU won.
    Weight { this_eff: i128, prev_eff: i128, pulled: bool },
}

/// `wake_wide` (4.5+, module doc: WAKE_AFFINE): the waker's and the wakee's flips, and the
/// waker's LLC size.
fn wake_wide(waker_flips: u32, wakee_flips: u32, factor: u32) -> Option<(u32, u32)> {
    let (master, slave) = (waker_flips.max(wakee_flips), waker_flips.min(wakee_flips));
    (slave >= factor && master >= slave.saturating_mul(factor)).then_some((master, slave))
}

impl Sim {
    /// `record_wakee` (module doc: WAKE_AFFINE): `current` (task `cur`) wakes `p`.
    pub(super) fn record_wakee(&mut self, cur: usize, p: usize) {
        let now = self.now;
        let t = &mut self.tasks[cur];
        if now > t.wakee_flip_decay_ts.saturating_add(crate::engine::time::SEC) {
            t.wakee_flips >>= 1;
            t.wakee_flip_decay_ts = now;
        }
        if t.last_wakee != Some(p as u32) {
            t.last_wakee = Some(p as u32);
            t.wakee_flips += 1;
        }
    }

    /// The CPU `select_idle_sibling` starts from for `task` woken from CPU `waker`, and why
    /// (module doc: WAKE_AFFINE).
    pub(super) fn wake_affine(&self, task: usize, waker: Option<usize>, sync: bool) -> (usize, Affine) {
        let prev = self.tasks[task].core;
        let Some(w) = waker else { return (prev, Affine::NotAsked) };
        if !self.cfg.kernel.wake_affine_4_14() {
            let pulled = sync && self.nr_running(w) <= 1;
            return (if pulled { w } else { prev }, Affine::Legacy { pulled });
        }
        let cur = self.cores[w].curr;
        let (a, b) = (cur.map_or(0, |k| self.tasks[k].wakee_flips), self.tasks[task].wakee_flips);
        let factor = self.llc_cpus[self.cores[w].domain].len() as u32;
        if let Some((master, slave)) = wake_wide(a, b, factor) {
            return (prev, Affine::Wide { master, slave, factor });
        }
        if w == prev {
            return (prev, Affine::NotAsked);
        }
        let doms = &self.lb.doms;
        let Some(pct) = doms.of[w]
            .iter()
            .map(|&d| &doms.all[d])
            .find(|d| d.flags & sd::WAKE_AFFINE != 0 && d.span.binary_search(&(prev as u16)).is_ok())
            .map(|d| d.imbalance_pct)
        else {
            return (prev, Affine::NoDomain);
        };
        let [wa_idle, wa_weight, wa_bias] = self.wa;
        if wa_idle {
            // wake_affine_idle.
            if self.is_idle(w) && self.cores[w].domain == self.cores[prev].domain {
                let cpu = if self.is_idle(prev) { prev } else { w };
                return (cpu, Affine::Idle { cpu });
            }
            if sync && self.nr_running(w) == 1 {
                return (w, Affine::Idle { cpu: w });
            }
            if self.is_idle(prev) {
                return (prev, Affine::Idle { cpu: prev });
            }
        }
        if !wa_weight {
            return (prev, Affine::Off);
        }
        // wake_affine_weight (capacity_of equal on both sides).
        let mut this_eff = self.cpu_load(w) as i128;
        if sync {
            let current = cur.map_or(0, |k| self.task_load(k)) as i128;
            if current > this_eff {
                return (w, Affine::CurrentHeavier);
            }
            this_eff -= current;
        }
        let load = self.task_load(task) as i128;
        this_eff += load;
        let mut prev_eff = self.cpu_load(prev) as i128 - load;
        if wa_bias {
            this_eff *= 100;
            prev_eff *= 100 + (pct as i128 - 100) / 2;
        }
        if sync {
            prev_eff += 1;
        }
        let pulled = this_eff < prev_eff;
        (if pulled { w } else { prev }, Affine::Weight { this_eff, prev_eff, pulled })
    }

    /// `lines` cache lines last written on CPU `from`, moved to CPU `to` (`profile::C2c`).
    pub(super) fn transfer(&self, from: usize, to: usize, lines: u64) -> Ns {
        self.prof.c2c.at(self.prof.topo.distance_in(&self.places, from, to)) * lines
    }

    /// select_task_rq: wake_affine, then select_idle_sibling (5.15 fair.c: the target, prev
    /// if it shares the target's LLC, `recent_used_cpu` (module doc: SIS), with SMT an idle
    /// sibling of prev when the LLC has no idle core, then `select_idle_cpu` over the LLC,
    /// its length limited by SIS_PROP or SIS_UTIL). Before 4.9 (10e2f1acd010) the scan looked
    /// for a wholly idle sched group of the LLC; on a config without siblings that is the
    /// first idle CPU, as here, and with siblings the 4.9+ rule is used for every era
    /// (simplified). A task allowed on one CPU only goes there (core.c select_task_rq: the
    /// class hook runs only if `nr_cpus_allowed > 1`). What the scan changes (recent CPUs,
    /// scan cost, `wake_avg_idle`) comes back in `SisOut` for `apply_sis`.
    pub(super) fn select_core(&self, task: usize, waker: Option<usize>, sync: bool) -> (usize, SisOut) {
        self.select_core_with(task, waker, sync, |_, _, _| {})
    }

    /// `select_core`, telling `note` each CPU it looks at (cpu, role, idle): `sim::why`
    /// replays a wakeup through it; `select_core` passes a no-op.
    #[inline]
    pub(super) fn select_core_with(
        &self,
        task: usize,
        waker: Option<usize>,
        sync: bool,
        mut note: impl FnMut(usize, &'static str, bool),
    ) -> (usize, SisOut) {
        let mut out = SisOut::default();
        if let Some(p) = self.tasks[task].pinned {
            note(p, "pinned", self.is_idle(p));
            return (p, out);
        }
        let prev = self.tasks[task].core;
        let (cand, affine) = self.wake_affine(task, waker, sync);
        // select_task_rq_fair's want_affine: a waker CPU the task may run on, not wake_wide.
        out.want_affine = waker.is_some() && !matches!(affine, Affine::Wide { .. });
        let cand_idle = self.is_idle(cand);
        note(cand, if cand == prev { "prev" } else { "waker" }, cand_idle);
        if cand_idle {
            return (cand, out);
        }
        let dom = self.cores[cand].domain;
        if cand != prev && self.cores[prev].domain == dom {
            let prev_idle = self.is_idle(prev);
            note(prev, "prev", prev_idle);
            if prev_idle {
                return (prev, out);
            }
        }
        // recent_used_cpu (module doc: SIS): not prev, not the target, sharing the
        // target's LLC, idle (the task may run anywhere: pinned tasks left above).
        if self.sis.recent != RecentUsedCpu::None {
            out.recent_reached = true;
            let r = self.sis.recent_cpu.get(task).map_or(prev, |&r| r as usize);
            if r != prev && r != cand && self.cores[r].domain == dom {
                let idle = self.is_idle(r);
                note(r, "recent", idle);
                if idle {
                    out.recent_hit = true;
                    return (r, out);
                }
            }
        }
        // sched_smt_active(): test_idle_cores; without one, an idle sibling of prev first
        // (select_idle_smt, 5.13+ c722f35b513f) when prev shares the target's LLC.
        let has_idle_core = self.smt_active && self.has_idle_cores[dom].get();
        if self.smt_active && !has_idle_core && self.cores[prev].domain == dom {
            if let Some(s) = self.cores[prev].sibling.map(usize::from) {
                let idle = self.is_idle(s);
                note(s, "smt", idle);
                if idle {
                    return (s, out);
                }
            }
        }
        let this = waker.unwrap_or(prev);
        let got = self.select_idle_cpu(cand, has_idle_core, this, &mut out, &mut note);
        (got.unwrap_or(cand), out)
    }

    /// The scan's `nr` before it starts (module doc: SIS): `u32::MAX` without a limit, `None`
    /// when SIS_UTIL finds the LLC overloaded (no scan). `this` runs the scan (the waker's
    /// CPU); `n` is the LLC's size. The aged `wake_avg_idle` goes into `out`.
    fn sis_limit(&self, this: usize, dom: usize, n: usize, has_idle_core: bool, out: &mut SisOut) -> Option<u32> {
        let mut nr = u32::MAX;
        if self.sis.prop && !has_idle_core {
            let avg_idle = if self.sis.ages {
                // 5.13+: wake_avg_idle halves each jiffy since the last wakeup onto `this`.
                let now = self.now / self.tick_period;
                let (mut avg, mut stamp) = (self.sis.wake_avg_idle[this], self.sis.wake_stamp[this]);
                while stamp < now && avg != 0 {
                    stamp += 1;
                    avg >>= 1;
                }
                out.aged = Some((this, avg, stamp));
                avg
            } else {
                // 4.13-5.12: "a large fuzz factor; hackbench in particular is sensitive".
                self.cores[this].avg_idle / 512
            };
            let avg_cost = self.sis.avg_scan_cost[this] + 1;
            let span_avg = n as u64 * avg_idle;
            nr = if span_avg > 4 * avg_cost { (span_avg / avg_cost).min(u32::MAX as u64) as u32 } else { 4 };
            out.prop_on = Some(this);
            out.limit = Some((nr, "SIS_PROP"));
        }
        if self.sis.util {
            // "because !--nr is the condition to stop scan"
            nr = self.sis.nr_idle_scan[dom] + 1;
            // select_idle_core's path does not count nr down: only the stop applies there.
            out.limit = (nr == 1 || !has_idle_core).then_some((nr, "SIS_UTIL"));
            if nr == 1 {
                // "overloaded LLC is unlikely to have idle cpu/core": no scan (and no
                // scan-cost update).
                out.prop_on = None;
                return None;
            }
        }
        Some(nr)
    }

    /// `select_idle_cpu` (5.15 fair.c): the target's LLC only (`sd_llc`), in CPU order from
    /// `target + 1` round to `target` (`for_each_cpu_wrap`). With `has_idle_core`, each
    /// core once (`select_idle_core`): a core whose threads are all idle wins at once, else
    /// the first idle thread seen is kept, and finding no idle core clears the LLC's
    /// `has_idle_cores` (`set_idle_cores(target, false)`); without it, the first idle CPU,
    /// giving up after `nr - 1` CPUs (`if (!--nr) return -1`; module doc: SIS). The cost is
    /// the LLC's size at most, not the machine's; the probes' line transfers go into `out`.
    fn select_idle_cpu(
        &self,
        target: usize,
        has_idle_core: bool,
        this: usize,
        out: &mut SisOut,
        note: &mut impl FnMut(usize, &'static str, bool),
    ) -> Option<usize> {
        let dom = self.cores[target].domain;
        let cpus = &self.llc_cpus[dom];
        let n = cpus.len();
        let mut nr = self.sis_limit(this, dom, n, has_idle_core, out)?;
        let start = cpus.partition_point(|&x| x as usize <= target);
        let pos = |x: usize| (cpus.partition_point(|&y| (y as usize) < x) + n - start) % n;
        let mut first_idle = None;
        for i in 0..n {
            let x = cpus[(start + i) % n] as usize;
            if !has_idle_core {
                nr -= 1;
                if nr == 0 {
                    // Given up: 5.15 returns before the scan-cost update.
                    out.prop_on = None;
                    return None;
                }
                out.scan_ns += self.transfer(x, this, SCAN_LINES);
                let idle = self.is_idle(x);
                note(x, "scan", idle);
                if idle {
                    return Some(x);
                }
                continue;
            }
            let sib = self.cores[x].sibling.map(usize::from);
            if sib.is_some_and(|s| pos(s) < i) {
                continue; // this core was looked at from its other thread
            }
            // for_each_cpu(cpu, cpu_smt_mask(core)): the core's threads in CPU order.
            let (a, b) = match sib {
                Some(s) if s < x => (s, Some(x)),
                Some(s) => (x, Some(s)),
                None => (x, None),
            };
            out.scan_ns += self.transfer(a, this, SCAN_LINES) + b.map_or(0, |b| self.transfer(b, this, SCAN_LINES));
            let idle_a = self.is_idle(a);
            let idle_b = b.is_none_or(|b| self.is_idle(b));
            note(x, "core", idle_a && idle_b);
            if idle_a && idle_b {
                return Some(x);
            }
            if first_idle.is_none() {
                first_idle = if idle_a { Some(a) } else { b.filter(|_| idle_b) };
            }
        }
        if has_idle_core {
            self.has_idle_cores[dom].set(false);
        }
        first_idle
    }

    /// What a wakeup's `select_idle_sibling` leaves behind (module doc: SIS), applied after
    /// `sim::why`'s replay so that the replay starts from the same state: the wakee's (and
    /// in 4.16-5.14 the waker's) `recent_used_cpu`, `wake_avg_idle` aged and less the scan's
    /// time, and `avg_scan_cost`'s `update_avg`.
    pub(super) fn apply_sis(&mut self, w: usize, prev: usize, waker: Option<usize>, out: &SisOut) {
        let sis = &mut self.sis;
        match sis.recent {
            RecentUsedCpu::SetPrev if out.recent_reached => {
                if let Some(r) = sis.recent_cpu.get_mut(w) {
                    *r = prev as u16;
                }
            }
            RecentUsedCpu::SetOnHit => {
                if out.recent_hit {
                    if let Some(r) = sis.recent_cpu.get_mut(w) {
                        *r = prev as u16;
                    }
                }
                // select_task_rq_fair: `if (want_affine) current->recent_used_cpu = cpu`.
                if let (true, Some(c)) = (out.want_affine, waker) {
                    if let Some(r) = self.cores[c].curr.and_then(|k| sis.recent_cpu.get_mut(k)) {
                        *r = c as u16;
                    }
                }
            }
            _ => {}
        }
        if let Some((c, avg, stamp)) = out.aged {
            sis.wake_avg_idle[c] = avg;
            sis.wake_stamp[c] = stamp;
        }
        if let Some(c) = out.prop_on {
            let time = out.scan_ns;
            if sis.ages {
                sis.wake_avg_idle[c] -= sis.wake_avg_idle[c].min(time);
            }
            update_avg(&mut sis.avg_scan_cost[c], time);
        }
    }

    /// `update_idle_cpu_scan` (module doc: SIS): a periodic `load_balance` of CPU `c` at its
    /// domain `level`, if that domain is `c`'s LLC, sets the LLC's `nr_idle_scan` from the
    /// sum of its CPUs' `cpu_util` (`util_avg`, at least `util_est.enqueued`, at most 1024).
    pub(super) fn update_idle_cpu_scan(&mut self, c: usize, level: usize) {
        if !self.sis.util {
            return;
        }
        let llc = self.cores[c].domain;
        let d = &self.lb.doms.all[self.lb.doms.of[c][level]];
        if d.span.len() != self.llc_cpus[llc].len() || d.span != self.llc_cpus[llc] {
            return;
        }
        let sum_util: u64 = d
            .span
            .iter()
            .map(|&x| {
                let core = &self.cores[x as usize];
                core.rq_avg.util_avg.max(core.rq_util_est).min(SCHED_CAPACITY_SCALE)
            })
            .sum();
        self.sis.nr_idle_scan[llc] = nr_idle_scan(sum_util, d.span.len() as u64, d.imbalance_pct);
    }

    /// `ttwu_do_wakeup` of 5.13+ (module doc: SIS): a wakeup that ended core `c`'s idle
    /// period sets `wake_avg_idle` to half the new `avg_idle`, stamped with the jiffy.
    pub(super) fn wake_avg_idle_update(&mut self, c: usize, t: Ns) {
        self.sis.wake_avg_idle[c] = self.cores[c].avg_idle / 2;
        self.sis.wake_stamp[c] = t / self.tick_period;
    }

    /// try_to_wake_up from core `waker` (None: from a timer with no core context).
    ///
    /// A task that is not asleep is left alone: `ttwu_state_match` fails on TASK_RUNNING,
    /// so a second waker of a task woken and not yet run counts no wakeup and traces no
    /// `sched_wakeup` (kernel/sched/core.c `try_to_wake_up`, every era: `if (!(p->state &
    /// state)) goto out`; 5.15 `ttwu_state_match`).
    ///
    /// The waker's part happens at its cursor `t`: select the target, then either enqueue
    /// the task there itself (paying `ttwu`) or, with TTWU_QUEUE, put it on the target's
    /// wake list. What the target sees (the enqueue, the preemption check, the IPI) takes
    /// effect at `t` too: at once if the waker is not ahead of global time, else through a
    /// `TtwuRemote` event at `t`, so the target can never run the task before it was woken.
    ///
    /// Nor before it left its previous CPU: a wakee whose own core ran ahead of the waker
    /// (a deep C-state's exit, overheads) blocked at `blocked_at > t`. `try_to_wake_up`
    /// enqueues a task only once the CPU it ran on is done with it: 5.15 spins in
    /// `smp_cond_load_acquire(&p->on_cpu, !VAL)` ("wait until it's done referencing the
    /// task ... fully ordered against their previous state"; 3.0's `while (p->on_cpu)`,
    /// and before 3.0 the task's rq lock, held by that CPU through its `schedule()`), or
    /// from 5.8 hands it to that CPU's wake list (`ttwu_queue_wakelist(.., WF_ON_CPU)`,
    /// 2ebb17717550), which it serves after the switch: so the wakeup, its trace
    /// records and the enqueue on the target all take effect at `blocked_at`, through a
    /// `TtwuRemote` event then. (Enqueued at `t`, a target behind the wakee's core could run
    /// it before it blocked and before its `sched_wakeup`; it blocked again, and the next
    /// waker's wakeup read, in the trace, as a second wakeup of a runnable task.)
    pub(super) fn wake(&mut self, w: usize, waker: Option<usize>, sync: bool) {
        if !matches!(self.tasks[w].state, TaskState::Blocked | TaskState::Sleeping) {
            return;
        }
        let prev = self.tasks[w].core;
        // 6.12 DELAY_DEQUEUE: a task still on its runqueue (`p->on_rq`, `sched_delayed`) is
        // woken by `ttwu_runnable`, before `select_task_rq` and the wake list: it is requeued
        // where it is (`enqueue_task(ENQUEUE_DELAYED)`, core.c v6.12).
        let delayed = self.policy.delayed(w);
        // The scan may clear an LLC's has_idle_cores (the wakee's or the waker's LLC): the
        // explain replay below must start from the same flags.
        let llcs = [prev, waker.unwrap_or(prev)].map(|c| self.cores[c].domain);
        let flags = llcs.map(|d| self.has_idle_cores[d].get());
        if !delayed && self.cfg.kernel.wake_affine_4_14() {
            if let Some(cur) = waker.and_then(|c| self.cores[c].curr) {
                self.record_wakee(cur, w);
            }
        }
        let (target, sis_out) = if delayed { (prev, SisOut::default()) } else { self.select_core(w, waker, sync) };
        let why = self.rec.explaining(self.now);
        if why {
            let after = llcs.map(|d| self.has_idle_cores[d].get());
            for (d, f) in llcs.iter().zip(flags).rev() {
                self.has_idle_cores[*d].set(f);
            }
            self.why_wake(w, waker, sync, target);
            debug_assert_eq!(after, llcs.map(|d| self.has_idle_cores[d].get()), "the replay clears alike");
        }
        if !delayed {
            self.apply_sis(w, prev, waker, &sis_out);
        }
        let queued = !delayed && waker.is_some_and(|c| c != target && self.ttwu_queues_to(c, target));
        let sys = waker.is_some_and(|c| self.in_task_context(c));
        let mut charged = 0;
        let t = match waker {
            Some(c) => {
                // The wakee's lines from its previous CPU, and the target runqueue's (or its
                // wake list's) from the target (module doc: TRANSFER).
                let rq_lines = if queued { WAKELIST_LINES } else { RQ_LINES };
                let xfer = self.transfer(prev, c, WAKEE_CHAIN) + self.transfer(target, c, rq_lines);
                // ttwu_do_activate under the target's rq lock, on the waker (queued: the
                // target does it in its handler).
                charged = xfer + if queued { 0 } else { self.prof.ttwu };
                self.overhead(c, Overhead::Wakeup, charged);
                self.cursor(c)
            }
            None => self.now,
        };
        // A task whose core ran ahead may have blocked at a time after the waker's: until
        // then it was on its CPU (`p->on_cpu`), so the wakeup that counts, its latency and
        // the enqueue start where it blocked (simplified: the waker does not spin until
        // then, its cursor stays at `t`, and it pays the ttwu then).
        let t_woke = t.max(self.tasks[w].blocked_at);
        if why {
            self.why_wake_time(w, t_woke, charged);
        }
        self.m.wakeups += 1;
        self.count_late(waker.unwrap_or(target), t_woke, super::Late::Wake { task: w });
        if self.tasks[w].state == TaskState::Sleeping {
            let k = self.tasks[w].core;
            let armed = self.sleeping[k].remove(&(self.tasks[w].sleep_until, w as u32));
            debug_assert!(armed, "a sleeping task's timer is on its core");
        }
        let tk = &mut self.tasks[w];
        tk.state = TaskState::Runnable;
        tk.woke_at = Some(t_woke);
        tk.stats.wakeups += 1;
        if target != prev {
            self.m.migrations += 1;
            self.rec.instant(target, t_woke, InstantKind::Migrate { from: prev as u16, task: w as u32 });
            if why {
                self.why_move_wake(w, prev, target, t_woke);
            }
        }
        self.tasks[w].core = target;
        let from = waker.unwrap_or(target) as u16;
        self.rec.instant(target, t_woke, InstantKind::Wakeup { from, task: w as u32 });
        match waker {
            // The wakee is still on its CPU at `t` (above): every target, the waker's own
            // CPU too, gets it at `t_woke` (> t >= now).
            Some(c) if t_woke > t => {
                self.cores[target].arriving += 1;
                let ev = Ev::TtwuRemote { task: w as u32, from: c as u16, prev: prev as u16, queued, sys };
                self.q.push(t_woke, ev);
            }
            Some(c) if c != target && t > self.now => {
                self.cores[target].arriving += 1;
                let ev = Ev::TtwuRemote { task: w as u32, from: c as u16, prev: prev as u16, queued, sys };
                self.q.push(t, ev);
            }
            _ => self.ttwu_remote(w, prev, target, waker, queued, t, sys),
        }
    }

    /// A remote wakeup whose waker ran ahead of global time reaches its target (at `t`),
    /// or a wakeup held until its wakee left its previous CPU (`wake`) does.
    pub(super) fn on_ttwu_remote(&mut self, w: usize, from: usize, prev: usize, queued: bool, sys: bool) {
        let target = self.tasks[w].core;
        self.cores[target].arriving -= 1;
        let t = self.now;
        if from == target {
            self.ttwu_held_local(w, prev, target, t);
            return;
        }
        self.ttwu_remote(w, prev, target, Some(from), queued, t, sys);
    }

    /// A held wakeup onto the waker's own CPU (`wake`: the wakee left its previous CPU
    /// after the waker's time). The waker has moved on since, so this CPU's curr (or its
    /// idle loop) learns of it as of a local `resched_curr`: TIF_NEED_RESCHED with no IPI,
    /// acted on at once (a `Kick` without IPI).
    fn ttwu_held_local(&mut self, w: usize, prev: usize, target: usize, t: Ns) {
        let resched = self.activate(w, prev, target, t);
        if self.rec.on() {
            self.why_delivery(w, Delivery::Local);
        }
        let wake = match (self.cores[target].idle, self.cores[target].curr) {
            (None, Some(curr)) => {
                let preempt = resched || self.preempt_check(target, curr, w);
                if preempt {
                    self.cores[target].need_resched = true;
                }
                preempt
            }
            // Idle, or between tasks: `on_kick` leaves idle or picks.
            _ => true,
        };
        if wake && !self.cores[target].kick_pending {
            self.cores[target].kick_pending = true;
            self.q.push(t, Ev::Kick { c: target as u16, ipi: false });
        }
    }

    /// TTWU_QUEUE for this era and this pair of cores (`ttwu_queue`, `ttwu_queue_cond`).
    fn ttwu_queues_to(&self, waker: usize, target: usize) -> bool {
        let share_llc = self.cores[waker].domain == self.cores[target].domain;
        self.ttwu_queue && self.cfg.kernel.ttwu_queues(share_llc, self.nr_running(target))
    }

    /// Whether the target's idle loop polls, for the wake-list IPI (`set_nr_if_polling`).
    /// The same era rule as the direct path (`wake_needs_ipi`, sim/idle_path.rs).
    fn wakelist_target_polls(&self, c: usize) -> bool {
        self.cores[c].idle.is_some() && !self.wake_needs_ipi(c)
    }

    /// The part of a wakeup the target sees, at the waker's time `t`.
    #[allow(clippy::too_many_arguments)]
    fn ttwu_remote(
        &mut self,
        w: usize,
        prev: usize,
        target: usize,
        waker: Option<usize>,
        queued: bool,
        t: Ns,
        sys: bool,
    ) {
        if queued {
            // ttwu_queue_remote: llist_add; an IPI only when the list was empty (and, from
            // 3.16, only if the target does not poll). The target enqueues in its handler.
            let first = self.cores[target].wake_list.is_empty();
            self.cores[target].wake_list.push((w as u32, prev as u16));
            if first && !self.cores[target].kick_pending {
                self.cores[target].kick_pending = true;
                let polling = self.cfg.kernel.wakelist_ipi_skips_polling() && self.wakelist_target_polls(target);
                if self.rec.on() {
                    self.why_delivery(w, if polling { Delivery::WakeListPoll } else { Delivery::WakeListIpi });
                }
                self.kick_from(target, waker, !polling, t, sys);
            } else if self.rec.on() {
                self.why_delivery(w, if first { Delivery::KickPending } else { Delivery::WakeListQueued });
            }
            return;
        }
        let resched = self.activate(w, prev, target, t);
        if Some(target) == waker {
            if self.rec.on() {
                self.why_delivery(w, Delivery::Local);
            }
            if let Some(curr) = self.cores[target].curr {
                if curr != w && self.preempt_check(target, curr, w) {
                    self.cores[target].need_resched = true;
                }
            }
            return;
        }
        if self.cores[target].idle.is_some() {
            if !self.cores[target].kick_pending {
                self.cores[target].kick_pending = true;
                let ipi = self.wake_needs_ipi(target);
                // resched_task's store of TIF_NEED_RESCHED wakes MWAIT first (idle_path.rs).
                let store = ipi && waker.is_some() && self.woken_by_flag_store(target);
                if self.rec.on() {
                    let how = if store {
                        Delivery::FlagStore
                    } else if ipi {
                        Delivery::Ipi
                    } else {
                        Delivery::PollingFlag
                    };
                    self.why_delivery(w, how);
                }
                match waker {
                    Some(k) if store => self.kick_by_flag_store(target, k, t, sys),
                    _ => self.kick_from(target, waker, ipi, t, sys),
                }
            } else if self.rec.on() {
                self.why_delivery(w, Delivery::KickPending);
            }
        } else if let Some(curr) = self.cores[target].curr {
            // update_deadline's resched_curr during the enqueue's update_curr: the wakeup
            // check then finds TIF_NEED_RESCHED set and returns (`test_tsk_need_resched`).
            if resched || self.preempt_check(target, curr, w) {
                // resched_curr: no second IPI while TIF_NEED_RESCHED is set (a request held
                // back by the preemption model until curr leaves kernel mode).
                let pending = self.cores[target].kick_pending || (self.cores[target].need_resched && !resched);
                self.cores[target].need_resched = true;
                if self.rec.on() {
                    self.why_delivery(w, if pending { Delivery::KickPending } else { Delivery::Ipi });
                }
                if !pending {
                    self.cores[target].kick_pending = true;
                    self.kick_from(target, waker, true, t, sys);
                }
            } else if self.rec.on() {
                self.why_delivery(w, Delivery::NoPreempt);
            }
        } else if self.rec.on() {
            self.why_delivery(w, Delivery::NoPreempt);
        }
    }

    /// ttwu_do_activate: the enqueue on `target` at `t`, and the idle-length average.
    /// True if charging `curr` first asked to reschedule it (module doc: UPDATE_CURR).
    fn activate(&mut self, w: usize, prev: usize, target: usize, t: Ns) -> bool {
        let resched = self.update_curr(target);
        self.pelt_enqueue(target, w, t);
        self.policy.enqueue(&mut self.se, target, w, Arrival::Wakeup { from: prev }, t);
        self.qsync(target);
        self.tasks[w].queued_at = t;

        // ttwu_do_wakeup: rq->avg_idle tracks recent idle lengths (5.13+: and wake_avg_idle).
        let ended_idle = self.cores[target].idle_stamp.is_some();
        self.update_avg_idle(target, t);
        if ended_idle && self.sis.ages {
            self.wake_avg_idle_update(target, t);
        }
        resched
    }

    /// sched_ttwu_pending, in the target's IPI handler (or its idle loop when it polled):
    /// the target pays each queued task's enqueue and preemption check itself.
    pub(super) fn flush_wake_list(&mut self, c: usize) {
        if self.cores[c].wake_list.is_empty() {
            return;
        }
        let list = std::mem::take(&mut self.cores[c].wake_list);
        for &(w, prev) in &list {
            let w = w as usize;
            self.overhead(c, Overhead::Wakeup, self.prof.ttwu);
            let t = self.cursor(c);
            let resched = self.activate(w, prev as usize, c, t);
            if let Some(curr) = self.cores[c].curr {
                if curr != w && (resched || self.preempt_check(c, curr, w)) {
                    self.cores[c].need_resched = true;
                }
            }
        }
        // Keep the allocation for the next list.
        let mut list = list;
        list.clear();
        self.cores[c].wake_list = list;
    }

    /// Delivers a reschedule request to `target`: an IPI, or just the flag a polling core sees.
    pub(super) fn kick(&mut self, target: usize, from: Option<usize>, ipi: bool, t: Ns) {
        let sys = from.is_some_and(|c| self.in_task_context(c));
        self.kick_from(target, from, ipi, t, sys);
    }

    /// `kick` sent at `t` by `from`, whose context then was a task's (`sys`) or the idle task's.
    /// The IPI leaves at `t + ipi_send` whatever `from` has done since; the send's cost is
    /// laid on `from`'s timeline where it can go (`charge_at`).
    fn kick_from(&mut self, target: usize, from: Option<usize>, ipi: bool, t: Ns, sys: bool) {
        if ipi {
            self.m.ipis += 1;
            let at = match from {
                Some(c) => {
                    self.charge_at(c, Overhead::Ipi, self.prof.ipi_send, t, sys);
                    t + self.prof.ipi_send
                }
                None => t,
            };
            self.rec.instant(target, at, InstantKind::Ipi { from: from.unwrap_or(target) as u16 });
            self.q.push(at + self.prof.ipi_latency, Ev::Kick { c: target as u16, ipi: true });
        } else {
            self.q.push(t, Ev::Kick { c: target as u16, ipi: false });
        }
    }

    pub(super) fn on_kick(&mut self, c: usize, ipi: bool) {
        self.cores[c].kick_pending = false;
        if self.cores[c].idle.is_some() {
            self.leave_idle(c, ipi);
            self.flush_wake_list(c);
            // Kicked as the idle load balancer (`sim::balance`, NOHZ): its softirq.
            self.nohz_idle_balance(c);
            self.pick_loop(c);
            return;
        }
        self.lb.ilb[c] = false;
        if self.cores[c].curr.is_some() {
            self.interrupt(c);
            if ipi {
                self.overhead(c, Overhead::Ipi, self.prof.ipi_receive);
            }
            self.flush_wake_list(c);
            if self.cores[c].need_resched {
                self.preempt_or_defer(c);
            } else {
                if let Some(n) = self.cores[c].curr {
                    self.arm_hrtick(c, n);
                }
                self.resume(c);
            }
        } else {
            self.flush_wake_list(c);
            if !self.policy.queued(c).is_empty() {
                self.pick_loop(c);
            }
        }
    }

    pub(super) fn on_timer(&mut self, task: usize, gen: u32) {
        if self.tasks[task].timer_gen != gen || self.tasks[task].state != TaskState::Sleeping {
            return;
        }
        let k = self.tasks[task].core;
        if self.cores[k].idle.is_some() {
            // The timer interrupt brings the core out of idle; it wakes the task locally.
            self.leave_idle(k, false);
            self.wake(task, Some(k), false);
            self.pick_loop(k);
            return;
        }
        let running = self.interrupt(k);
        self.overhead(k, Overhead::Tick, self.prof.ipi_receive);
        self.wake(task, Some(k), false);
        match running {
            Some(_) if self.cores[k].need_resched => self.preempt_or_defer(k),
            Some(n) => {
                self.arm_hrtick(k, n);
                self.resume(k)
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::Sim;
    use crate::engine::config::Config;
    use crate::engine::time::{Ns, US};
    use crate::engine::trace::{InstantKind, PrevState, TraceOptions};
    use crate::engine::workload::replay::{Op, Program, Replay, ReplayTask};
    use crate::engine::workload::AnyWorkload;

    fn task(name: &str, cpu: usize, ops: Vec<Op>) -> ReplayTask {
        ReplayTask { name: name.into(), pid: 0, nice: 0, cpu, ops }
    }

    /// `wake_wide`'s two conditions (5.15 fair.c): the smaller count at least the LLC size,
    /// the larger at least that many times it.
    #[test]
    fn wake_wide_needs_both_partners_flipping_and_one_llc_size_times_the_other() {
        assert_eq!(super::wake_wide(1000, 15, 16), None, "the wakee flips less than the LLC size: affine");
        assert_eq!(super::wake_wide(255, 16, 16), None, "the waker flips less than 16 x the wakee: affine");
        assert_eq!(super::wake_wide(256, 16, 16), Some((256, 16)), "256 >= 16 x 16: wide");
        assert_eq!(super::wake_wide(16, 256, 16), Some((256, 16)), "either side may be the master");
    }

    /// WA_WEIGHT (5.15 `wake_affine_weight`): four CPUs of one LLC, one spinner each on
    /// CPUs 1-3 and the waker on CPU 0, so every CPU is busy and equally loaded at the
    /// wakeup, and no balancing moves anything. The wakee ran 100 us every 5 ms on CPU 1
    /// for half a second, then blocked: its PELT load as last updated (the kernel reads it
    /// stale, `task_h_load`) is a few percent of a spinner's, so the waker's side,
    /// `(1024 + load) * 100`, is under prev's, `(1024 + blocked - load) * 108`, and the
    /// wakee starts on the waker's CPU. Before 4.17 the engine's rule keeps a wakeup that
    /// is not WF_SYNC on its previous CPU, and so does 5.15 with NO_WA_WEIGHT.
    #[test]
    fn a_wakee_starts_on_the_wakers_cpu_when_its_previous_cpu_is_as_loaded() {
        let run = |kernel: &str, features: &str| {
            let mut c = Config::default();
            for (k, v) in [
                ("kernel", kernel),
                ("cpu", "cascadelake-2s"),
                ("cores", "4"),
                ("duration", "900ms"),
                ("features", features),
            ] {
                c.set(k, v).unwrap();
            }
            let spin = |name: &str, cpu| task(name, cpu, vec![Op::Run(850_000 * US), Op::Exit]);
            let mut light: Vec<Op> = (0..100).flat_map(|_| [Op::Run(100 * US), Op::Sleep(5_000 * US)]).collect();
            light.extend([Op::Block, Op::Run(1_000 * US), Op::Exit]);
            let prog = Program {
                tasks: vec![
                    task("waker", 0, vec![Op::Run(700_000 * US), Op::Wake(1), Op::Run(5_000 * US), Op::Exit]),
                    task("wakee", 1, light),
                    spin("s1", 1),
                    spin("s2", 2),
                    spin("s3", 3),
                ],
            };
            let wl = AnyWorkload::Replay(Replay::new(Arc::new(prog)));
            let o = Sim::with_workload(&c, Some(TraceOptions::default()), wl).run();
            // The waker's wakeup is the last one (the others are the wakee's own timers).
            o.trace.instants.iter().rev().find_map(|i| match i.kind {
                InstantKind::Wakeup { task: 1, from, .. } => Some((from, i.core)),
                _ => None,
            })
        };
        assert_eq!(run("5.15", ""), Some((0, 0)), "wake_affine_weight: woken from CPU 0, on CPU 0");
        assert_eq!(run("5.15", "NO_WA_WEIGHT"), Some((0, 1)), "NO_WA_WEIGHT: its previous CPU 1");
        assert_eq!(run("3.11", ""), Some((0, 1)), "before 4.17: woken from CPU 0, on its previous CPU 1");
    }

    /// Task `b`'s sched_switch and sched_wakeup records in time order, as a trace reader
    /// sees them: the lines that wake it while it is not asleep, or switch it in while asleep.
    fn out_of_order(sim_trace: &crate::engine::trace::Trace, b: u32) -> Vec<String> {
        let mut ev: Vec<(Ns, u8, String)> = Vec::new();
        for s in &sim_trace.switches {
            if s.prev == Some(b) {
                let asleep = matches!(s.prev_state, PrevState::Sleeping | PrevState::Dead);
                ev.push((s.time, 0, if asleep { "out-asleep" } else { "out-runnable" }.into()));
            }
            if s.next == Some(b) {
                ev.push((s.time, 2, "in".into()));
            }
        }
        for i in &sim_trace.instants {
            if let InstantKind::Wakeup { task, .. } = i.kind {
                if task == b {
                    ev.push((i.time, 1, "wakeup".into()));
                }
            }
        }
        // At one instant: the switch-out, then the wakeup, then a switch-in.
        ev.sort();
        let (mut asleep, mut bad) = (false, Vec::new());
        for (t, _, what) in ev {
            match what.as_str() {
                "out-asleep" => asleep = true,
                "out-runnable" => {}
                "wakeup" if !asleep => bad.push(format!("{t}: sched_wakeup of a task not asleep")),
                "wakeup" => asleep = false,
                _ if asleep => bad.push(format!("{t}: switched in while asleep")),
                _ => {}
            }
        }
        bad
    }

    /// The revert of 'runlen' (0ac8deb): a wakee whose core ran ahead (a 133 us C6 exit on
    /// Cascade Lake) blocked "in the future"; a waker behind it woke it at the waker's time
    /// and another, idle CPU ran it at once: before it blocked and before its sched_wakeup.
    /// Scripted: A wakes B on C6-idle CPU 1 at 2 ms; B runs 133 us later, wakes D there (every
    /// other CPU busy) and blocks at once; C wakes B at 2.05 ms, when only CPU 3 is idle (E
    /// sleeps 10 us at a time: C1). B must not run on CPU 3 before it left CPU 1.
    #[test]
    fn a_wakee_that_blocked_after_its_waker_s_time_is_enqueued_when_it_left_its_cpu() {
        let mut c = Config::default();
        for (k, v) in [("kernel", "5.15"), ("cpu", "cascadelake-2s"), ("cores", "4"), ("duration", "20ms")] {
            c.set(k, v).unwrap();
        }
        let ms = |x: f64| (x * 1e6) as Ns;
        let mut e = vec![Op::Run(ms(2.01))];
        e.extend(std::iter::repeat_n(Op::Sleep(10 * US), 300));
        e.push(Op::Exit);
        let prog = Program {
            tasks: vec![
                task("a-1", 0, vec![Op::Run(ms(2.0)), Op::Wake(1), Op::Run(ms(1.0)), Op::Exit]),
                task("b-2", 1, vec![Op::Block, Op::Wake(3), Op::Block, Op::Run(US), Op::Exit]),
                task("c-3", 2, vec![Op::Run(ms(2.05)), Op::Wake(1), Op::Run(10 * US), Op::Exit]),
                task("d-4", 1, vec![Op::Block, Op::Run(ms(1.0)), Op::Exit]),
                task("e-5", 3, e),
            ],
        };
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(prog)));
        let mut sim = Sim::with_workload(&c, Some(TraceOptions::default()), wl);
        sim.simulate();
        let clamps = sim.latency_clamps;
        let o = sim.finish();
        let b = &o.metrics.tasks[1];
        assert_eq!(b.wakeups, 2, "A's and C's wakeups of B");
        let woke: Vec<Ns> = o
            .trace
            .instants
            .iter()
            .filter_map(|i| match i.kind {
                InstantKind::Wakeup { task: 1, .. } => Some(i.time),
                _ => None,
            })
            .collect();
        assert_eq!(woke.len(), 2, "one sched_wakeup a wakeup");
        // The scenario: B's second block came after C's waking time (its CPU was ahead).
        assert!(woke[1] > ms(2.05) + 50 * US, "B blocked at {} ns, after C woke it at 2.05 ms", woke[1]);
        assert_eq!(clamps, 0, "B ran before its wakeup");
        let bad = out_of_order(&o.trace, 1);
        assert!(bad.is_empty(), "{bad:?}");
    }

    /// `ttwu_state_match`: a second waker of a task woken and not yet run finds it
    /// TASK_RUNNING and does nothing: one wakeup counted, one sched_wakeup.
    #[test]
    fn a_second_wakeup_before_the_wakee_runs_is_a_no_op() {
        let mut c = Config::default();
        for (k, v) in [("kernel", "5.15"), ("cpu", "cascadelake-2s"), ("cores", "3"), ("duration", "5ms")] {
            c.set(k, v).unwrap();
        }
        let prog = Program {
            tasks: vec![
                task("a-1", 0, vec![Op::Run(1_000 * US), Op::Exit]),
                task("b-2", 1, vec![Op::Block, Op::Run(US), Op::Exit]),
                task("c-3", 2, vec![Op::Run(1_000 * US), Op::Exit]),
            ],
        };
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(prog)));
        let mut sim = Sim::with_workload(&c, Some(TraceOptions::default()), wl);
        sim.start();
        while sim.tasks[1].state != super::TaskState::Blocked {
            assert!(sim.step());
        }
        while sim.now < 100 * US {
            assert!(sim.step());
        }
        let before = sim.m.wakeups;
        sim.wake(1, Some(0), true);
        sim.wake(1, Some(2), true);
        assert_eq!(sim.m.wakeups, before + 1, "the second waker finds B runnable");
        while sim.step() {}
        let o = sim.finish();
        assert_eq!(o.metrics.tasks[1].wakeups, 1);
        let traced = o.trace.instants.iter().filter(|i| matches!(i.kind, InstantKind::Wakeup { task: 1, .. })).count();
        assert_eq!(traced, 1, "one sched_wakeup");
        assert!(out_of_order(&o.trace, 1).is_empty());
    }

    fn clx80(duration: &str) -> Config {
        let mut c = Config::default();
        for (k, v) in [("kernel", "5.15"), ("cpu", "cascadelake-2s"), ("cores", "80"), ("duration", duration)] {
            c.set(k, v).unwrap();
        }
        c
    }

    /// Issue 31: SMT siblings share one core's throughput. 10 ms of work each on CPU 0 and
    /// CPU 40 (siblings on 2 x Xeon Gold 6248, cpu N and N + 40) take 10 ms / (1.30 / 2):
    /// the cited Hyper-Threading yield (Marr et al. 2002) shared by two threads; on CPU 0
    /// and CPU 1 (two cores) 10 ms.
    #[test]
    fn a_sibling_s_work_slows_its_twin_by_the_cited_yield() {
        let ms = 1_000_000;
        let end = |b_cpu: usize| {
            let prog = Program {
                tasks: vec![
                    task("a-1", 0, vec![Op::Run(10 * ms), Op::Exit]),
                    task("b-2", b_cpu, vec![Op::Run(10 * ms), Op::Exit]),
                ],
            };
            let wl = AnyWorkload::Replay(Replay::new(Arc::new(prog)));
            let o = Sim::with_workload(&clx80("50ms"), None, wl).run();
            o.metrics.tasks[0].runtime_ns
        };
        let apart = end(1);
        let twins = end(40);
        let yield_permille = crate::engine::profile::profile("cascadelake-2s").unwrap().topo.smt_yield_permille;
        assert_eq!(yield_permille, 1_300, "Intel's cited Hyper-Threading gain, up to 30%");
        let want = 10.0 * 2_000.0 / yield_permille as f64;
        let got = twins as f64 / ms as f64;
        assert!((got / want - 1.0).abs() < 0.01, "twins: {got:.3} ms, want {want:.3} ms");
        let alone = apart as f64 / ms as f64;
        assert!((alone / 10.0 - 1.0).abs() < 0.01, "two cores: {alone:.3} ms, want 10 ms");
    }

    /// TRANSFER: a wakeup waits for the wakee's four lines in three latencies (its
    /// `__state` and `on_rq` lines are in flight together after `pi_lock`) and for the
    /// target runqueue's two in series. On 2 x EPYC 7763 (107 ns across CCXs, 23 within):
    /// a wakee last on CPU 8 (another CCX) woken by CPU 0 onto CPU 0 costs 3 x 107 ns; onto
    /// CPU 1 (CPU 0's CCX) 3 x 107 + 2 x 23.
    #[test]
    fn a_wakeup_pays_the_wakee_s_lines_in_three_latencies() {
        let p = crate::engine::profile::profile("zen3-2s").unwrap();
        assert_eq!(super::wakeup_transfer(p, 8, 0, 0), 3 * 107);
        assert_eq!(super::wakeup_transfer(p, 8, 0, 1), 3 * 107 + 2 * 23);
        assert_eq!(super::wakeup_transfer(p, 0, 0, 0), 0, "all on one CPU");
    }

    /// Issue 27: a stall (a cache line in flight, a spin on a held lock) is not slowed by a
    /// busy sibling: while one thread cannot use the pipeline the other has every cycle of
    /// it ("IA-32 Intel Architecture Optimization Reference Manual", Hyper-Threading
    /// pipeline: "Reasons why a logical processor may not use a pipeline stage include
    /// cache misses"), and the miss's latency is the interconnect's. 4 ms of stall and 6 ms
    /// of work beside a busy sibling take 4 ms + 6 ms / (1.30 / 2), not 10 ms / (1.30 / 2).
    #[test]
    fn a_stall_takes_its_own_time_beside_a_busy_sibling() {
        let ms = 1_000_000;
        let prog = Program {
            tasks: vec![
                task("a-1", 0, vec![Op::Stall(4 * ms), Op::Run(6 * ms), Op::Exit]),
                task("b-2", 40, vec![Op::Run(20 * ms), Op::Exit]),
            ],
        };
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(prog)));
        let o = Sim::with_workload(&clx80("50ms"), None, wl).run();
        let got = o.metrics.tasks[0].runtime_ns as f64 / ms as f64;
        let want = 4.0 + 6.0 * 2_000.0 / 1_300.0;
        assert!((got / want - 1.0).abs() < 0.01, "stall then work: {got:.3} ms, want {want:.3} ms");
    }

    /// Issue 31: `select_idle_core` (5.15 select_idle_cpu with has_idle_cores): the scan of
    /// the wakee's LLC passes CPU 5, idle but its sibling 45 busy, and takes CPU 19, whose
    /// core (19 and 59) is wholly idle. With CPU 19 busy too, no core of the LLC is wholly
    /// idle and the scan falls back to the first idle thread it saw: 41, the idle sibling of
    /// busy CPU 1, the first core looked at (a core's threads in CPU order).
    #[test]
    fn a_wakee_goes_to_an_idle_core_before_an_idle_sibling() {
        let ms = 1_000_000;
        let target = |busy19: bool| {
            // B blocks on CPU 0 at once; X sleeps first, so B surely runs there, then X's
            // timer brings it back to CPU 0, which it keeps busy.
            let mut tasks = vec![
                task("b-0", 0, vec![Op::Block, Op::Run(ms), Op::Exit]),
                task("x-1", 0, vec![Op::Sleep(500_000), Op::Run(20 * ms), Op::Exit]),
            ];
            let mut busy: Vec<usize> = (1..=18 + busy19 as usize).filter(|&c| c != 5).collect();
            busy.push(45);
            for &c in &busy {
                let ops = if c == 3 {
                    vec![Op::Run(2 * ms), Op::Wake(0), Op::Run(10 * ms), Op::Exit]
                } else {
                    vec![Op::Run(20 * ms), Op::Exit]
                };
                tasks.push(task(&format!("busy-{c}"), c, ops));
            }
            let cfg = clx80("30ms");
            let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
            let o = Sim::with_workload(&cfg, Some(TraceOptions::default()), wl).run();
            let ran: Vec<u16> = o
                .trace
                .spans
                .iter()
                .filter_map(|s| match s.kind {
                    crate::engine::trace::SpanKind::Run { task: 0, .. } if s.start > ms => Some(s.core),
                    _ => None,
                })
                .collect();
            assert!(!ran.is_empty(), "b ran after its wakeup");
            // Its move says select_idle_sibling (issue 31: why a task moved).
            let m = o.trace.decisions.migrations.iter().find(|m| m.task == 0 && m.time > ms).expect("a record");
            assert_eq!((m.cause, m.from, m.to), (crate::engine::explain::MoveCause::SelectIdleSibling, 0, ran[0]));
            ran[0]
        };
        assert_eq!(target(false), 19, "the wholly idle core, past the idle sibling 5");
        assert_eq!(target(true), 41, "no idle core: the first idle thread seen");
    }

    /// Issue 31: a WF_SYNC wakeup from a CPU whose waker runs alone starts from the
    /// waker's CPU (`wake_affine`); with no idle CPU in the LLC, `select_idle_sibling` keeps
    /// it, and the move's record says wake_affine.
    #[test]
    fn a_sync_wakeup_kept_on_the_waker_s_cpu_says_wake_affine() {
        let ms = 1_000_000;
        let mut cfg = Config::default();
        for (k, v) in [("kernel", "6.12"), ("cores", "2"), ("duration", "10ms")] {
            cfg.set(k, v).unwrap();
        }
        let tasks = vec![
            task("a", 1, vec![Op::Block, Op::Run(ms), Op::Exit]),
            task("spin", 1, vec![Op::Run(20 * ms), Op::Exit]),
            task("waker", 0, vec![Op::Run(20 * ms), Op::Exit]),
        ];
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
        let mut sim = Sim::with_workload(&cfg, Some(TraceOptions::default()), wl);
        sim.start();
        while sim.now < ms && sim.step() {}
        assert_eq!((sim.nr_running(0), sim.nr_running(1)), (1, 1), "each CPU busy with one task");
        sim.wake(0, Some(0), true);
        let m = sim.rec.trace.decisions.migrations.last().expect("the wakeup moved a");
        assert_eq!((m.cause, m.from, m.to), (crate::engine::explain::MoveCause::WakeAffine, 1, 0), "{m:?}");
        // The waker's CPU, prev, then select_idle_cpu's wrap over the LLC (CPUs 1 and 0).
        assert!(m.figures.iter().any(|f| f.0 == "CPUs select_task_rq looked at" && f.1 == 4), "{m:?}");
    }

    /// A sim on `cores` CPUs of one Cascade Lake socket (no sibling in the config): task 0
    /// ("a") blocks on CPU 0 at once, spinners keep CPUs `busy` busy (from 0.5 ms on CPU 0);
    /// stepped to 1 ms, traced (the wake records).
    fn parked(kernel: &str, features: &str, cores: &str, busy: &[usize]) -> Sim {
        let ms = 1_000_000;
        let mut c = Config::default();
        for (k, v) in [
            ("kernel", kernel),
            ("cpu", "cascadelake-2s"),
            ("cores", cores),
            ("duration", "20ms"),
            ("features", features),
        ] {
            c.set(k, v).unwrap();
        }
        let mut tasks = vec![task("a", 0, vec![Op::Block, Op::Run(ms), Op::Exit])];
        for &b in busy {
            // CPU 0's spinner sleeps first, so a surely runs and blocks there before it.
            let first = if b == 0 { vec![Op::Sleep(500_000)] } else { vec![] };
            tasks.push(task(&format!("spin-{b}"), b, [first, vec![Op::Run(20 * ms), Op::Exit]].concat()));
        }
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
        let mut sim = Sim::with_workload(&c, Some(TraceOptions::default()), wl);
        sim.start();
        while sim.now < ms && sim.step() {}
        assert_eq!(sim.tasks[0].state, super::TaskState::Blocked);
        for &b in busy {
            assert!(!sim.is_idle(b), "CPU {b} busy");
        }
        sim
    }

    /// Issue 31, SIS: `recent_used_cpu` (4.16+). Task a last ran on CPU 0 (busy) and before
    /// that on CPU 3 (idle); CPU 1 is busy, CPU 2 idle. A timer wakeup (target = prev = 0):
    /// 5.15 and 4.17 take the recent CPU 3 before the scan; 3.11 has none and the scan from
    /// CPU 1 takes CPU 2. 5.15 then remembers prev (0), at every check.
    #[test]
    fn an_idle_recent_cpu_is_taken_before_the_scan_from_4_16() {
        for (k, want) in [("5.15", 3), ("6.12", 3), ("4.17", 3), ("3.11", 2)] {
            let mut sim = parked(k, "", "4", &[0, 1]);
            sim.sis.recent_cpu[0] = 3;
            assert_eq!(sim.select_core(0, None, false).0, want, "{k}");
        }
        let mut sim = parked("5.15", "", "4", &[0, 1]);
        sim.sis.recent_cpu[0] = 3;
        sim.wake(0, None, false);
        assert_eq!(sim.tasks[0].core, 3, "woken on its recent CPU");
        assert_eq!(sim.sis.recent_cpu[0], 0, "5.15: recent_used_cpu = prev");
        // Busy recent CPU: the scan decides, and 5.15 still sets prev.
        let mut sim = parked("5.15", "", "4", &[0, 1, 3]);
        sim.sis.recent_cpu[0] = 3;
        sim.wake(0, None, false);
        assert_eq!((sim.tasks[0].core, sim.sis.recent_cpu[0]), (2, 0));
    }

    /// Issue 31, SIS_PROP (4.17): with `avg_idle / 512` at 0, `nr` is its floor 4 and the
    /// scan gives up after 3 CPUs (1, 2, 3 busy): the wakee stays on its busy prev, CPU 0.
    /// With `avg_idle` at its ceiling (2 x migration_cost: 1 ms / 512 x 8 CPUs, no scan
    /// cost yet) or NO_SIS_PROP the scan reaches idle CPU 4.
    #[test]
    fn sis_prop_gives_up_after_nr_cpus_when_avg_idle_is_short() {
        let busy = [0, 1, 2, 3];
        let mut sim = parked("4.17", "", "8", &busy);
        sim.cores[0].avg_idle = 0;
        let (cpu, out) = sim.select_core(0, None, false);
        assert_eq!((cpu, out.limit), (0, Some((4, "SIS_PROP"))), "nr = 4: CPUs 1-3 looked at");
        let mut sim = parked("4.17", "", "8", &busy);
        sim.cores[0].avg_idle = 2 * sim.cfg.migration_cost;
        assert_eq!(sim.select_core(0, None, false).0, 4, "a long avg_idle scans on");
        let mut sim = parked("4.17", "NO_SIS_PROP", "8", &busy);
        sim.cores[0].avg_idle = 0;
        let (cpu, out) = sim.select_core(0, None, false);
        assert_eq!((cpu, out.limit), (4, None), "NO_SIS_PROP: the whole LLC");
        // 5.15's form (SIS_PROP with SIS_UTIL off): wake_avg_idle, aged by the jiffy.
        let mut sim = parked("5.15", "SIS_PROP NO_SIS_UTIL", "8", &busy);
        sim.sis.wake_avg_idle[0] = 0;
        assert_eq!(sim.select_core(0, None, false).0, 0, "5.15 SIS_PROP: wake_avg_idle 0");
        let mut sim = parked("5.15", "SIS_PROP NO_SIS_UTIL", "8", &busy);
        sim.sis.wake_avg_idle[0] = 1 << 20;
        sim.sis.wake_stamp[0] = sim.now / sim.tick_period;
        assert_eq!(sim.select_core(0, None, false).0, 4, "a fresh 1 ms wake_avg_idle scans on");
        sim.sis.wake_stamp[0] = 0;
        sim.now += 40 * sim.tick_period;
        assert_eq!(sim.select_core(0, None, false).0, 0, "halved 40+ jiffies: 0, nr 4");
    }

    /// Issue 31, SIS_UTIL: `update_idle_cpu_scan`'s formula (5.15.100 fair.c) with
    /// imbalance_pct 117 on a 40-CPU LLC. Idle: all 40. Half busy (x = 512): 512^2 x 117^2
    /// / (10000 x 1024) = 350, (1024 - 350) x 40 / 1024 = 26. At 85.5% (x = 876) the square
    /// term reaches 1024: 0, no scan.
    #[test]
    fn sis_util_scans_fewer_cpus_as_the_llc_fills() {
        assert_eq!(super::nr_idle_scan(0, 40, 117), 40);
        assert_eq!(super::nr_idle_scan(512 * 40, 40, 117), 26);
        assert_eq!(super::nr_idle_scan(876 * 40, 40, 117), 0);
        assert_eq!(super::nr_idle_scan(1024 * 40, 40, 117), 0);
    }

    #[test]
    fn a_line_moved_between_cpus_costs_the_topologys_distance() {
        // `Sim::transfer` reads its table of places; the figure is `Topology::distance`'s,
        // on a machine with every distance (Zen 3: siblings, CCXs, packages) and on one
        // repeated past its CPUs.
        for (cpu, cores) in [("zen3-2s", "256"), ("x5675", "40")] {
            let mut c = Config::default();
            c.set("cpu", cpu).unwrap();
            c.set("cores", cores).unwrap();
            let sim = Sim::new(&c, None);
            let (p, n) = (sim.prof, sim.cores.len());
            for a in 0..n {
                for b in 0..n {
                    let want = p.c2c.at(p.topo.distance(a as u32, b as u32)) * 2;
                    assert_eq!(sim.transfer(a, b, 2), want, "{cpu}: CPUs {a} and {b}");
                }
            }
        }
    }

    /// Issue 31, SIS_UTIL in the scan: `nr_idle_scan` 2 looks at 2 CPUs (1 and 2, busy)
    /// and keeps the busy target; 0 looks at none; NO_SIS_UTIL scans to idle CPU 4. The
    /// LLC's periodic balance sets it from the CPUs' util: 4 of 8 spinning for a while
    /// leave fewer than 8.
    #[test]
    fn sis_util_limits_the_scan_to_nr_idle_scan() {
        let busy = [0, 1, 2, 3];
        let dom = |sim: &Sim| sim.cores[0].domain;
        let mut sim = parked("5.15", "", "8", &busy);
        let d = dom(&sim);
        assert_eq!(sim.sis.nr_idle_scan[d], 8, "an idle LLC's value at the start");
        sim.sis.nr_idle_scan[d] = 2;
        let (cpu, out) = sim.select_core(0, None, false);
        assert_eq!((cpu, out.limit), (0, Some((3, "SIS_UTIL"))), "nr 3: CPUs 1 and 2");
        let line = sim.transfer(1, 0, 1);
        assert_eq!(out.scan_ns, 2 * line, "two runqueues read");
        sim.sis.nr_idle_scan[d] = 3;
        assert_eq!(sim.select_core(0, None, false).0, 0, "CPUs 1-3");
        sim.sis.nr_idle_scan[d] = 4;
        assert_eq!(sim.select_core(0, None, false).0, 4, "CPUs 1-4");
        sim.sis.nr_idle_scan[d] = 0;
        let (cpu, out) = sim.select_core(0, None, false);
        assert_eq!((cpu, out.scan_ns), (0, 0), "overloaded: no scan");
        let mut sim = parked("5.15", "NO_SIS_UTIL", "8", &busy);
        sim.sis.nr_idle_scan[d] = 0;
        assert_eq!(sim.select_core(0, None, false).0, 4, "NO_SIS_UTIL: the whole LLC");
        // The LLC balance's update: after 15 ms of 4 spinners their util is on its way up.
        for (f, want_less) in [("", true), ("NO_SIS_UTIL", false)] {
            let mut sim = parked("5.15", f, "8", &busy);
            while sim.now < 15_000_000 && sim.step() {}
            let level = (0..sim.lb.doms.of[0].len()).find(|&l| sim.lb.doms.all[sim.lb.doms.of[0][l]].span.len() == 8);
            sim.update_idle_cpu_scan(0, level.expect("the LLC's domain"));
            assert_eq!(sim.sis.nr_idle_scan[d] < 8, want_less, "{f}: {}", sim.sis.nr_idle_scan[d]);
        }
    }

    /// Issue 31: the wake record names the recent CPU it took, and the scan's limit.
    #[test]
    fn the_wake_record_names_the_recent_cpu_and_the_scan_limit() {
        let mut sim = parked("5.15", "", "4", &[0, 1]);
        sim.sis.recent_cpu[0] = 3;
        sim.wake(0, None, false);
        let r = sim.rec.trace.decisions.wakeups.last().expect("a wake record");
        assert!(r.candidates.iter().any(|c| c.cpu == 3 && c.role == "recent" && c.idle), "{r:?}");
        assert!(r.reason.contains("recent_used_cpu"), "{}", r.reason);
        let mut sim = parked("5.15", "", "8", &[0, 1, 2, 3]);
        let d = sim.cores[0].domain;
        sim.sis.nr_idle_scan[d] = 2;
        sim.wake(0, None, false);
        let r = sim.rec.trace.decisions.wakeups.last().expect("a wake record");
        assert!(r.reason.contains("SIS_UTIL: select_idle_cpu looks at 2 CPUs at most"), "{}", r.reason);
        // A limit past the LLC's 8 CPUs limits nothing, and the record does not name one (it
        // said "looks at 52 CPUs at most" on a 16-CPU Zen 3 page with 8-CPU LLCs).
        let mut sim = parked("5.15", "", "8", &[0, 1, 2, 3]);
        sim.sis.nr_idle_scan[d] = 20;
        sim.wake(0, None, false);
        let r = sim.rec.trace.decisions.wakeups.last().expect("a wake record");
        assert!(!r.reason.contains("at most") && !r.reason.contains("SIS_UTIL"), "{}", r.reason);
    }

    /// Issue 31, SIS_UTIL end to end: 8 spinners on the 8 CPUs of one LLC (5.15). The busy
    /// CPUs' periodic balance of the LLC domain (every 8 ms x busy_factor 16) finds their
    /// util near 1024, past the 85% at which `nr_idle_scan` is 0. NO_SIS_UTIL never writes it.
    #[test]
    fn the_llc_balance_sets_nr_idle_scan_to_0_when_every_cpu_is_busy() {
        let ms = 1_000_000;
        for (f, want) in [("", 0), ("NO_SIS_UTIL", 8)] {
            let mut c = Config::default();
            for (k, v) in
                [("kernel", "5.15"), ("cpu", "cascadelake-2s"), ("cores", "8"), ("duration", "400ms"), ("features", f)]
            {
                c.set(k, v).unwrap();
            }
            let tasks = (0..8).map(|i| task(&format!("spin-{i}"), i, vec![Op::Run(500 * ms), Op::Exit])).collect();
            let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
            let mut sim = Sim::with_workload(&c, None, wl);
            sim.start();
            while sim.now < 350 * ms && sim.step() {}
            assert_eq!(sim.sis.nr_idle_scan[sim.cores[0].domain], want, "{f}");
        }
    }
}
