//! Fork placement: where a new task first runs (`wake_up_new_task` -> `select_task_rq(p,
//! task_cpu(p), SD_BALANCE_FORK)` -> `select_task_rq_fair` -> `find_idlest_cpu`).
//!
//! WHEN: a task the workload's program creates with fork, clone or `pthread_create`
//! (`Workload::parent`) is placed as it is first made runnable, in the order the program
//! creates them, from its parent's CPU, against the machine as the tasks placed before it
//! left it (`Sim::with_workload`). Tasks with no parent keep `TaskSpec::core`: the program's
//! first task (the one the shell starts), a pinned task (`sched_setaffinity`), a replayed
//! trace's task (the trace says where it was).
//!
//! WALK (kernel/sched/fair.c, read in 4.19 (0x88888888/Linux-4.19), the 4.17 form, and a
//! 5.15 tree (4cko/caf_msm-5.15), the form 5.15, 6.6 and 6.12 run): `select_task_rq_fair`
//! with `want_affine` = 0 (a fork is not a wakeup) climbs the parent CPU's domains and keeps
//! the highest with SD_BALANCE_FORK, stopping at the first without it (`else if
//! (!want_affine) break`). `find_idlest_cpu` then descends: at each domain with the flag,
//! `find_idlest_group`; none: the child domain; else `find_idlest_group_cpu` in that group;
//! the same CPU: the child domain; another: restart below the domain's weight from that CPU's
//! own domains (the highest of them with the flag).
//!
//! 5.15+ `find_idlest_group` (`update_sg_wakeup_stats`, `update_pick_idlest`): per group its
//! load, util and runnable sums, `nr_running`, idle CPUs, and `group_classify`
//! (`group_has_spare` while `nr_running` < weight or util leaves room by `imbalance_pct`;
//! `group_fully_busy`; `group_overloaded` when `nr_running` > weight and util or runnable is
//! over capacity by `imbalance_pct`). The idlest non-local group: the lowest type; among
//! `has_spare` the most idle CPUs, then the lowest util (ties: the first in group order);
//! among busy ones the lowest `avg_load`. Against the local group: a less busy type wins
//! outright; `has_spare`: at SD_NUMA the task stays local while `allow_numa_imbalance(local
//! nr_running + 1, local weight)` (fewer than a quarter busy; this 5.15 tree's form), else
//! the idlest group only if it has more idle CPUs than the local (the local wins ties);
//! fully busy/overloaded: by `avg_load` with `imbalance` = 1024 x (pct - 100) / 100 (plus
//! the NUMA rule: stay local while idlest + imbalance >= local).
//!
//! 4.17 `find_idlest_group` (forkexec_idx 0 in `sd_init`, so `source_load` = `target_load`
//! = the runnable load): per group the runnable load and `avg_load` (load_avg, blocked load
//! included) per capacity; the idlest non-local group is the first whose runnable load is
//! more than `imbalance` below the best so far, or within it with `avg_load` lower by
//! `imbalance_scale` = 100 + (pct - 100) / 2. A fork skips the spare-capacity test ("the
//! utilization has not been set yet"). Then NUMA: stay while idlest + imbalance >= local;
//! stay while idlest > local + imbalance; stay while local < idlest + imbalance and 100 x
//! local avg < scale x idlest avg; else the idlest. At equal loads the last test fails
//! (0 < 0), so 4.17 leaves the local group even for an equally idle one.
//!
//! `find_idlest_group_cpu` (both forms): a group of one CPU is that CPU; else among idle
//! CPUs the shallowest idle state, ties the most recent `idle_stamp`; with no idle CPU the
//! least loaded (ties: the first; starting from `this_cpu`, which is outside the group).
//!
//! STATE: a placed task counts on its CPU as the kernel's new task does: `nr_running` + 1,
//! load = its weight (`init_entity_runnable_average`), util and runnable =
//! `post_init_entity_util_avg`'s (half the CPU's spare capacity on an empty CPU, else the
//! CPU's util x weight / (load + 1), capped at that half). A parent that is not a simulated
//! task (`Parent::Cpu`: rt-app's, schbench's, iperf's main thread) counts as one such task
//! on its CPU while the placement runs.
//!
//! SIMPLIFIED: every CPU without a placed task is idle in the same state with the same
//! `idle_stamp` (the engine starts at time 0 with no history), so `find_idlest_group_cpu`
//! takes the group's first idle CPU; capacity is 1024 per CPU, SMT threads included (as
//! `sim::balance`); the engine creates every task at time 0, runnable. On the machine,
//! hackbench's children block in `ready()` right after they start, so by the next fork the
//! earlier children's CPUs are idle again (their blocked load and util stay in load_avg and
//! util_avg but not in `nr_running` or the idle count, and the most recently idled CPU wins
//! `find_idlest_group_cpu`'s tie): the kernel then stacks new children near the ones that
//! slept, where here each placed child keeps its CPU busy and the next goes elsewhere.
//! Eras before 4.17 keep `TaskSpec::core` (3.11's `find_idlest_group` by load, 2.6.2x's
//! `sched_balance_self` and its SD_*_INIT flags, which leave SD_BALANCE_FORK off the CPU and
//! MC levels in 2.6.19's topology.h, are not modelled). `sched_exec` (SD_BALANCE_EXEC at
//! kbuild's exec) is not modelled: a job's CPU changes only by wakeups and the balancer.

use super::domain::{sd, Domains};
use crate::engine::kernel::Kernel;
use crate::engine::workload::Parent;

/// `SCHED_CAPACITY_SCALE`: one CPU's capacity.
const CAP: u64 = 1024;

/// One CPU as the placement sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Rq {
    pub nr_running: u32,
    pub load: u64,
    pub util: u64,
    pub runnable: u64,
}

impl Rq {
    /// A new task of `weight` enqueued here (`init_entity_runnable_average`,
    /// `post_init_entity_util_avg`, 4.17 and 5.15).
    pub fn add_new(&mut self, weight: u64) {
        let cap = CAP.saturating_sub(self.util) / 2;
        let util = if self.util == 0 { cap } else { (self.util * weight / (self.load + 1)).min(cap) };
        self.nr_running += 1;
        self.load += weight;
        self.util += util;
        self.runnable += util;
    }
}

/// Which `find_idlest_group` the era runs (None: fork placement not modelled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// 4.17: runnable load and `imbalance_scale`.
    Load417,
    /// 5.5+ (5.15, 6.6, 6.12): group types.
    Types515,
}

pub(super) fn form(k: Kernel) -> Option<Form> {
    if k >= Kernel::V515 {
        Some(Form::Types515)
    } else if k >= Kernel::V417 {
        Some(Form::Load417)
    } else {
        None
    }
}

/// Group statistics (`sg_lb_stats` as `update_sg_wakeup_stats` fills it, or 4.17's sums).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum GroupType {
    HasSpare,
    FullyBusy,
    Overloaded,
}

#[derive(Clone, Copy, Debug)]
struct Stats {
    load: u64,
    util: u64,
    runnable: u64,
    nr: u64,
    idle: u64,
    weight: u64,
    kind: GroupType,
    avg_load: u64,
}

fn stats(rqs: &[Rq], group: &[u16], pct: u64) -> Stats {
    let (mut load, mut util, mut runnable, mut nr, mut idle) = (0, 0, 0, 0, 0);
    for &c in group {
        let r = &rqs[c as usize];
        load += r.load;
        util += r.util.min(CAP); // cpu_util: capped at the CPU's capacity
        runnable += r.runnable;
        nr += r.nr_running as u64;
        idle += (r.nr_running == 0) as u64;
    }
    let weight = group.len() as u64;
    let capacity = CAP * weight;
    // group_classify: group_is_overloaded, then !group_has_capacity.
    let kind = if nr > weight && (capacity * 100 < util * pct || capacity * pct < runnable * 100) {
        GroupType::Overloaded
    } else if nr < weight || (capacity * pct >= runnable * 100 && capacity * 100 > util * pct) {
        GroupType::HasSpare
    } else {
        GroupType::FullyBusy
    };
    let avg_load = if kind == GroupType::HasSpare { 0 } else { load * CAP / capacity };
    Stats { load, util, runnable, nr, idle, weight, kind, avg_load }
}

/// 5.15's `find_idlest_group` over domain `d`'s groups: the group index, or None (stay).
fn idlest_group_515(doms: &Domains, d: usize, rqs: &[Rq], this_cpu: usize) -> Option<usize> {
    let dom = &doms.all[d];
    let mut local = None;
    let mut idlest: Option<(usize, Stats)> = None;
    for (gi, g) in dom.groups.iter().enumerate() {
        let s = stats(rqs, g, dom.imbalance_pct);
        if g.contains(&(this_cpu as u16)) {
            local = Some(s);
            continue;
        }
        // update_pick_idlest.
        let better = match &idlest {
            None => true,
            Some((_, i)) if s.kind != i.kind => s.kind < i.kind,
            Some((_, i)) => match s.kind {
                GroupType::Overloaded | GroupType::FullyBusy => i.avg_load > s.avg_load,
                GroupType::HasSpare => !(i.idle > s.idle || (i.idle == s.idle && i.util <= s.util)),
            },
        };
        if better {
            idlest = Some((gi, s));
        }
    }
    let (gi, idl) = idlest?;
    let Some(loc) = local else { return Some(gi) };
    if loc.kind < idl.kind {
        return None;
    }
    if loc.kind > idl.kind {
        return Some(gi);
    }
    match loc.kind {
        GroupType::Overloaded | GroupType::FullyBusy => {
            let imbalance = CAP * (dom.imbalance_pct - 100) / 100;
            if dom.flags & sd::NUMA != 0 && idl.avg_load + imbalance >= loc.avg_load {
                return None;
            }
            if idl.avg_load >= loc.avg_load + imbalance {
                return None;
            }
            if 100 * loc.avg_load <= dom.imbalance_pct * idl.avg_load {
                return None;
            }
        }
        GroupType::HasSpare => {
            // allow_numa_imbalance(local nr_running + 1, local weight): fewer than a quarter.
            if dom.flags & sd::NUMA != 0 && loc.nr + 1 < loc.weight >> 2 {
                return None;
            }
            if loc.idle >= idl.idle {
                return None;
            }
        }
    }
    let _ = (loc.load, loc.runnable);
    Some(gi)
}

/// 4.17's `find_idlest_group` for SD_BALANCE_FORK over domain `d`'s groups.
fn idlest_group_417(doms: &Domains, d: usize, rqs: &[Rq], this_cpu: usize) -> Option<usize> {
    let dom = &doms.all[d];
    let scale = 100 + (dom.imbalance_pct - 100) / 2;
    let imbalance = CAP * (dom.imbalance_pct - 100) / 100;
    let (mut min_run, mut min_avg) = (u64::MAX, u64::MAX);
    let (mut this_run, mut this_avg) = (u64::MAX, u64::MAX);
    let mut idlest = None;
    for (gi, g) in dom.groups.iter().enumerate() {
        // With no blocked load at placement, load_avg and the runnable load are equal.
        let sum: u64 = g.iter().map(|&c| rqs[c as usize].load).sum();
        let per_cap = sum * CAP / (CAP * g.len() as u64);
        let (run, avg) = (per_cap, per_cap);
        if g.contains(&(this_cpu as u16)) {
            (this_run, this_avg) = (run, avg);
        } else if min_run > run.saturating_add(imbalance) {
            (min_run, min_avg, idlest) = (run, avg, Some(gi));
        } else if run < min_run.saturating_add(imbalance) && 100 * min_avg as u128 > (scale * avg) as u128 {
            (min_avg, idlest) = (avg, Some(gi));
        }
    }
    let gi = idlest?;
    if dom.flags & sd::NUMA != 0 && min_run + imbalance >= this_run {
        return None;
    }
    if min_run > this_run.saturating_add(imbalance) {
        return None;
    }
    if this_run < min_run + imbalance && (100 * this_avg as u128) < (scale * min_avg) as u128 {
        return None;
    }
    Some(gi)
}

/// `find_idlest_group_cpu`: the group's CPU for the task (module doc).
fn idlest_group_cpu(group: &[u16], rqs: &[Rq], this_cpu: usize) -> usize {
    if group.len() == 1 {
        return group[0] as usize;
    }
    // Every idle CPU looks alike here (module doc: SIMPLIFIED): the first wins.
    if let Some(&c) = group.iter().find(|&&c| rqs[c as usize].nr_running == 0) {
        return c as usize;
    }
    let mut best = (u64::MAX, this_cpu);
    for &c in group {
        let l = rqs[c as usize].load;
        if l < best.0 {
            best = (l, c as usize);
        }
    }
    best.1
}

/// `select_task_rq_fair(p, cpu, SD_BALANCE_FORK)` from the parent's CPU `cpu`.
pub(super) fn select(doms: &Domains, rqs: &[Rq], cpu: usize, form: Form) -> usize {
    let flag = sd::BALANCE_FORK;
    // The highest domain with the flag, stopping at the first without it.
    let mut top = None;
    for (l, &d) in doms.of[cpu].iter().enumerate() {
        if doms.all[d].flags & flag == 0 {
            break;
        }
        top = Some(l);
    }
    // find_idlest_cpu: `level` indexes doms.of[cpu] for the current `cpu`.
    let (mut cpu, mut level, mut new_cpu) = (cpu, top, cpu);
    while let Some(l) = level {
        let d = doms.of[cpu][l];
        let child = l.checked_sub(1);
        if doms.all[d].flags & flag == 0 {
            level = child;
            continue;
        }
        let group = match form {
            Form::Types515 => idlest_group_515(doms, d, rqs, cpu),
            Form::Load417 => idlest_group_417(doms, d, rqs, cpu),
        };
        let Some(gi) = group else {
            level = child;
            continue;
        };
        new_cpu = idlest_group_cpu(&doms.all[d].groups[gi], rqs, cpu);
        if new_cpu == cpu {
            level = child;
            continue;
        }
        let weight = doms.all[d].span.len();
        cpu = new_cpu;
        level = None;
        for (l2, &d2) in doms.of[cpu].iter().enumerate() {
            if weight <= doms.all[d2].span.len() {
                break;
            }
            if doms.all[d2].flags & flag != 0 {
                level = Some(l2);
            }
        }
    }
    new_cpu
}

/// The CPU of each task at its creation: `cores[i]` is `TaskSpec::core` (or the pinned
/// CPU), replaced for each task with a parent by the fork placement, in task order.
/// `weights[i]` is the task's load weight. None of the era: `cores` unchanged.
pub(super) fn place_all(
    doms: &Domains,
    k: Kernel,
    cores: &mut [usize],
    weights: &[u64],
    parents: &[Option<Parent>],
    pinned: &[bool],
) {
    let Some(form) = form(k) else { return };
    let n = doms.of.len();
    if n < 2 {
        return;
    }
    let mut rqs = vec![Rq::default(); n];
    // A parent outside the simulation runs on its CPU while it creates its tasks.
    let mut outside: Vec<usize> =
        parents.iter().filter_map(|p| if let Some(Parent::Cpu(c)) = p { Some(c % n) } else { None }).collect();
    outside.sort_unstable();
    outside.dedup();
    for &c in &outside {
        rqs[c].add_new(weights.first().copied().unwrap_or(CAP));
    }
    for i in 0..cores.len() {
        let from = match parents[i] {
            Some(_) if pinned[i] => None,
            Some(Parent::Task(p)) if p < i => Some(cores[p]),
            Some(Parent::Cpu(c)) => Some(c % n),
            _ => None,
        };
        if let Some(from) = from {
            cores[i] = select(doms, &rqs, from, form);
        }
        rqs[cores[i]].add_new(weights[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::profile::profile;

    fn doms(machine: &str, n: usize, k: Kernel) -> Domains {
        Domains::build(&profile(machine).unwrap().topo, n, k)
    }

    /// Places `count` children forked one after another by a parent task on CPU `parent`.
    fn children(d: &Domains, k: Kernel, parent: usize, count: usize) -> Vec<usize> {
        let mut cores = vec![parent; count + 1];
        let parents: Vec<Option<Parent>> =
            std::iter::once(None).chain((0..count).map(|_| Some(Parent::Task(0)))).collect();
        place_all(d, k, &mut cores, &vec![1024; count + 1], &parents, &vec![false; count + 1]);
        cores[1..].to_vec()
    }

    /// zen3-2s (256 CPUs: SMT, MC = CCX of 16, DIE = socket of 128, NUMA), 5.15, parent
    /// on CPU 0. Worked by hand from 5.15's code:
    /// child 1: NUMA: both sockets has_spare; local nr 1, allow_numa_imbalance(2, 128):
    ///   2 < 32, stay. DIE: CCX0 (local) has 15 idle, CCX1..7 16 each; the first of them
    ///   (CCX1, CPUs 8-15,136-143) is the idlest (ties keep the first); 15 < 16 so it
    ///   wins; its first idle CPU is 8. From 8, below weight 128: MC: every core has 2
    ///   idle, the local wins ties; SMT: 1 idle each, local wins. CPU 8.
    /// children 2..7: each CCX with 16 idle in turn: 16, 24, ..., 56.
    /// child 8: CCX0..7 all have 15 idle: the local CCX0 wins the tie at DIE; MC: the
    ///   parent's core {0,128} has 1 idle, core {1,129} 2: CPU 1.
    /// The NUMA level lets the socket fill to nr + 1 = 32 before comparing idle CPUs:
    /// with the parent and 30 children on socket 0 (nr 31), child 31 still stays
    /// (32 < 32 fails, so it compares idle CPUs: 97 local < 128 remote: socket 1).
    #[test]
    fn zen3_515_fork_spreads_over_ccxs_then_the_other_socket() {
        let d = doms("zen3-2s", 256, Kernel::V515);
        let got = children(&d, Kernel::V515, 0, 32);
        assert_eq!(&got[..8], &[8, 16, 24, 32, 40, 48, 56, 1]);
        // Children 1..=30 on socket 0 (CPUs 0-63, 128-191); child 31 finds 31 running there.
        let pkg = |c: usize| (c % 128) / 64;
        assert!(got[..30].iter().all(|&c| pkg(c) == 0), "{got:?}");
        assert_eq!(pkg(got[30]), 1, "child 31 goes to the other socket: {got:?}");
        assert_eq!(got[30], 64, "the first CPU of socket 1's first CCX");
    }

    /// Where every CPU is idle but the parent's: q6600 (two dies of two cores, each die
    /// an LLC: MC(2) under DIE(4)), 5.15, parent on CPU 0. Worked by hand:
    /// child 1: DIE: local {0,1} has 1 idle, {2,3} 2: {2,3}, CPU 2; MC {2,3}: 1 idle each,
    ///   the local wins: CPU 2.
    /// child 2: DIE: 1 idle each: local wins; MC {0,1}: {1} has 1 idle, {0} none: CPU 1.
    /// child 3: DIE: local 0 idle, {2,3} 1: CPU 3.
    /// child 4: every CPU has one task: each group has_spare with 0 idle (nr = weight but
    ///   util 1024 x 117 < 2048 x 100), the local wins every tie: CPU 0, stacked on the parent.
    #[test]
    fn all_idle_machine_fills_each_cpu_then_stays() {
        let d = doms("q6600", 4, Kernel::V515);
        assert_eq!(d.describe(0), "MC(2) DIE(4)");
        assert_eq!(children(&d, Kernel::V515, 0, 4), vec![2, 1, 3, 0]);
    }

    /// 4.17 at equal loads leaves the local group (`100*this_avg < scale*min_avg` is
    /// 0 < 0): on zen3-2s with the parent on CPU 0, NUMA: idlest socket 1 (load 0),
    /// 0 + 256 >= 8: stay. DIE: CCX1 (0) vs local CCX0 (1024/16 = 64): 64 < 0 + 256 but
    /// 6400 < 112 x 0 fails: CCX1, CPU 8. From 8, MC: cores all 0; local {8,136} 0 vs idlest
    /// {9,137}: not < 0: core {9,137}, CPU 9. SMT of 9: {137} likewise: CPU 137.
    #[test]
    fn zen3_417_leaves_the_local_group_at_equal_load() {
        let d = doms("zen3-2s", 256, Kernel::V417);
        assert_eq!(children(&d, Kernel::V417, 0, 1), vec![137]);
    }

    /// A level without SD_BALANCE_FORK ends the climb: with the flag cleared on DIE,
    /// `select_task_rq_fair` stops at MC, so a child of CPU 0 stays in CCX0 (CPU 1, the
    /// first core with two idle threads) though the other CCXs are empty.
    #[test]
    fn a_level_without_balance_fork_is_not_looked_at() {
        let mut d = doms("zen3-2s", 256, Kernel::V515);
        for dom in d.all.iter_mut().filter(|x| x.name == "DIE") {
            dom.flags &= !sd::BALANCE_FORK;
        }
        assert_eq!(children(&d, Kernel::V515, 0, 1), vec![1]);
    }

    /// Eras before 4.17 keep the workload's CPUs.
    #[test]
    fn older_eras_keep_task_spec_core() {
        let d = doms("zen3-2s", 256, Kernel::V311);
        let mut cores = vec![0, 1, 2];
        place_all(
            &d,
            Kernel::V311,
            &mut cores,
            &[1024; 3],
            &[None, Some(Parent::Task(0)), Some(Parent::Task(0))],
            &[false; 3],
        );
        assert_eq!(cores, vec![0, 1, 2]);
    }

    #[test]
    fn post_init_util_halves_the_spare() {
        let mut r = Rq::default();
        r.add_new(1024);
        assert_eq!((r.nr_running, r.load, r.util), (1, 1024, 512));
        r.add_new(1024);
        // 512 x 1024 / 1025 = 511, capped at (1024 - 512) / 2 = 256.
        assert_eq!(r.util, 768);
    }

    /// The hook in `Sim::with_workload`: a hackbench run on zen3-2s under 5.15 starts its
    /// parent on CPU 0 (`TaskSpec::core`) and its first children where the placement above
    /// puts them (8, 16, ..., 56, then 1); under 3.11 they keep the round robin (child t on
    /// CPU t); token's pinned threads keep their CPUs.
    #[test]
    fn a_run_starts_its_forked_tasks_where_the_placement_puts_them() {
        use crate::engine::config::Config;
        let cores = |sets: &[(&str, &str)]| -> Vec<usize> {
            let mut cfg = Config::default();
            for (k, v) in sets {
                cfg.set(k, v).expect("key");
            }
            super::super::Sim::new(&cfg, None).tasks.iter().map(|t| t.core).collect()
        };
        let hb = [("cpu", "zen3-2s"), ("cores", "256"), ("workload", "hackbench"), ("groups", "1")];
        let v515 = cores(&[&hb[..], &[("kernel", "5.15")]].concat());
        assert_eq!(&v515[..9], &[0, 8, 16, 24, 32, 40, 48, 56, 1]);
        let v311 = cores(&[&hb[..], &[("kernel", "3.11")]].concat());
        assert_eq!(&v311[..5], &[0, 1, 2, 3, 4]);
        let token =
            cores(&[("cpu", "zen3-2s"), ("cores", "256"), ("kernel", "6.6"), ("workload", "token"), ("pairs", "2")]);
        assert_eq!(token, vec![0, 1, 2, 3]);
    }
}
