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
//! `has_spare` the most idle CPUs, then the lowest util (ties: the first met; a CPU's
//! `sd->groups` ring starts at its own group, `build_sched_groups`);
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
//! CPUs the shallowest idle state (`idle_get_state(rq)->exit_latency`), ties the most
//! recent `rq->idle_stamp` (strictly later: the first of equals stays); with no idle CPU
//! the least loaded (ties: the first; starting from `this_cpu`, outside the group).
//!
//! STATE: a placed task counts on its CPU as the kernel's new task does: `nr_running` + 1,
//! load = its weight (`init_entity_runnable_average`), util and runnable =
//! `post_init_entity_util_avg`'s (half the CPU's spare capacity on an empty CPU, else the
//! CPU's util x weight / (load + 1), capped at that half). A parent that is not a simulated
//! task (`Parent::Cpu`: rt-app's, schbench's, iperf's main thread) counts as one such task
//! on its CPU while the placement runs.
//!
//! SLEEPING CHILDREN (`Workload::sleeps_at_start`: hackbench's, which block in `ready()`'s
//! poll() right after they start, tools/perf/bench/sched-messaging.c 5.15): by the next fork
//! such a child has slept, so `dequeue_entity` took it off `nr_running` (its CPU counts idle
//! again in `update_sg_wakeup_stats`' `idle_cpus`, unless another task runs there) while its
//! load, util and runnable stay in the runqueue's averages as blocked contributions (the
//! cfs_rq's load_avg follows its weight by decay; `dequeue_load_avg` runs only at a detach),
//! and 4.17's runnable load (`runnable_load_avg`) drops it. The CPU's `newidle_balance`
//! stamps `rq->idle_stamp`, so among equally deep idle CPUs it is the most recently idled
//! one and wins `find_idlest_group_cpu`. In 5.15 that stacks them: a group's idle count
//! cannot see a sleeping child, so at every level below the one that chose the group the
//! local group ties and stays (`local idle_cpus >= idlest idle_cpus`), and each later
//! child lands on the CPU of the last child placed in that group; between groups of equal
//! idle counts the lower util (fewer blocked children) wins. The other programs that
//! create tasks keep them runnable here: `make`'s jobs (kbuild) exec a compiler,
//! stress-ng's writers write at once (its readers wait only until then), iperf's streams,
//! rt-app's threads and pipe's one child start working (one child: nothing placed after
//! it); schbench's workers do wait in `fwait()` right after `msg_and_wait()` posts their
//! message thread, but that thread, already looping, wakes them at once, so whether one is
//! asleep at the next `pthread_create` is a race the engine does not decide (unchanged).
//!
//! SIMPLIFIED: every idle CPU is in the same idle state (the engine starts at time 0 with
//! no history; ASSUMPTION: a CPU where a child just slept enters the state of the CPUs
//! idle since before, the deepest after long idle periods, so exit latencies tie and
//! `idle_stamp` decides); CPUs idle since before the program share one stamp older than
//! any sleep (the first of them wins); the blocked averages do not decay between forks
//! (the fork loop's duration is not modelled); capacity is 1024 per CPU, SMT threads
//! included (as `sim::balance`). A task that does not sleep at start is created at time
//! 0, runnable. Eras before 4.17 keep `TaskSpec::core` (3.11's `find_idlest_group` by load, 2.6.2x's
//! `sched_balance_self` and its SD_*_INIT flags, which leave SD_BALANCE_FORK off the CPU and
//! MC levels in 2.6.19's topology.h, are not modelled). `sched_exec` (SD_BALANCE_EXEC at
//! kbuild's exec) is not modelled: a job's CPU changes only by wakeups and the balancer.

use super::domain::{sd, Domains};
use crate::engine::kernel::{ForkForm as Form, Kernel};
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
    /// 4.17's runnable load (`weighted_cpuload`: `runnable_load_avg`, the queued tasks'
    /// load without the blocked ones).
    pub run_load: u64,
    /// `rq->idle_stamp` as an order: 0 for a CPU idle since before the program began, else
    /// 1 + how many placed tasks went to sleep before the one that last idled it.
    pub idle_stamp: u64,
}

impl Rq {
    /// A new task of `weight` enqueued here (`init_entity_runnable_average`,
    /// `post_init_entity_util_avg`, 4.17 and 5.15).
    pub fn add_new(&mut self, weight: u64) {
        let cap = CAP.saturating_sub(self.util) / 2;
        let util = if self.util == 0 { cap } else { (self.util * weight / (self.load + 1)).min(cap) };
        self.nr_running += 1;
        self.load += weight;
        self.run_load += weight;
        self.util += util;
        self.runnable += util;
    }

    /// Its task blocks (hackbench's child in `ready()`): `dequeue_entity` takes it off
    /// `nr_running`, while its load, util and runnable stay in the runqueue's averages as
    /// blocked contributions (`dequeue_load_avg` runs only at a detach); `newidle_balance`
    /// then stamps the CPU's `idle_stamp` (`stamp`: the order of this sleep, from 1).
    pub fn block(&mut self, stamp: u64, weight: u64) {
        self.nr_running = self.nr_running.saturating_sub(1);
        self.run_load = self.run_load.saturating_sub(weight);
        if self.nr_running == 0 {
            self.idle_stamp = stamp;
        }
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

/// Domain `d`'s groups as `this_cpu`'s `sd->groups` lists them: `build_sched_groups`
/// links them with `for_each_cpu_wrap(i, span, cpu)`, so the walk starts at the group
/// holding `this_cpu` and goes on in CPU order, wrapping (ties go to the first met).
fn ring(doms: &Domains, d: usize, this_cpu: usize) -> impl Iterator<Item = (usize, &Vec<u16>)> {
    let groups = &doms.all[d].groups;
    let start = groups.iter().position(|g| g.contains(&(this_cpu as u16))).unwrap_or(0);
    (0..groups.len()).map(move |k| {
        let gi = (start + k) % groups.len();
        (gi, &groups[gi])
    })
}

/// 5.15's `find_idlest_group` over domain `d`'s groups: the group index, or None (stay).
fn idlest_group_515(doms: &Domains, d: usize, rqs: &[Rq], this_cpu: usize) -> Option<usize> {
    let dom = &doms.all[d];
    let mut local = None;
    let mut idlest: Option<(usize, Stats)> = None;
    for (gi, g) in ring(doms, d, this_cpu) {
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
    for (gi, g) in ring(doms, d, this_cpu) {
        // `runnable_load`: `source_load`/`target_load` at forkexec_idx 0 (the queued
        // tasks' load); `avg_load`: `cfs_rq_load_avg`, blocked load included.
        let cap = CAP * g.len() as u64;
        let run = g.iter().map(|&c| rqs[c as usize].run_load).sum::<u64>() * CAP / cap;
        let avg = g.iter().map(|&c| rqs[c as usize].load).sum::<u64>() * CAP / cap;
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
    // Every idle CPU is in the same idle state (module doc: SIMPLIFIED), so the exit
    // latency ties and the most recent `idle_stamp` wins (`rq->idle_stamp >
    // latest_idle_timestamp`: among equal stamps the first in the group).
    let mut best: Option<(u64, u16)> = None;
    for &c in group {
        let r = &rqs[c as usize];
        if r.nr_running == 0 && best.is_none_or(|(s, _)| r.idle_stamp > s) {
            best = Some((r.idle_stamp, c));
        }
    }
    if let Some((_, c)) = best {
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
/// `weights[i]` is the task's load weight; `sleeps[i]`: the task blocks right after it
/// starts (`Workload::sleeps_at_start`), so the next placements see its CPU idle with its
/// blocked averages (module doc: STATE). None of the era: `cores` unchanged.
pub(super) fn place_all(
    doms: &Domains,
    k: Kernel,
    cores: &mut [usize],
    weights: &[u64],
    parents: &[Option<Parent>],
    pinned: &[bool],
    sleeps: &[bool],
) {
    let Some(form) = k.fork_form() else { return };
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
    let mut slept = 0;
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
        if sleeps.get(i).copied().unwrap_or(false) {
            slept += 1;
            rqs[cores[i]].block(slept, weights[i]);
        }
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
        forked(d, k, parent, count, false)
    }

    /// As `children`; `sleep`: each child blocks right after it starts (hackbench's).
    fn forked(d: &Domains, k: Kernel, parent: usize, count: usize, sleep: bool) -> Vec<usize> {
        let mut cores = vec![parent; count + 1];
        let parents: Vec<Option<Parent>> =
            std::iter::once(None).chain((0..count).map(|_| Some(Parent::Task(0)))).collect();
        let sleeps: Vec<bool> = (0..=count).map(|i| sleep && i > 0).collect();
        place_all(d, k, &mut cores, &vec![1024; count + 1], &parents, &vec![false; count + 1], &sleeps);
        cores[1..].to_vec()
    }

    /// One package of two LLCs of four CPUs (0-3, 4-7), no SMT: MC(4) under DIE(8).
    fn two_llcs(k: Kernel) -> Domains {
        let topo = crate::engine::profile::Topology {
            packages: 1,
            llcs_per_package: 2,
            cores_per_llc: 4,
            threads_per_core: 1,
            smt_yield_permille: 1000,
        };
        Domains::build(&topo, 8, k)
    }

    /// 5.15, parent on CPU 0, children that sleep at once. Worked by hand from 5.15's
    /// `find_idlest_group` and `find_idlest_group_cpu`:
    /// child 1: DIE: local LLC0 has 3 idle CPUs, LLC1 4: LLC1; its CPUs all idle since
    ///   before (one stamp): the first, 4. From 4, MC: every CPU is a group with 1 idle,
    ///   the local wins ties: CPU 4. It sleeps: CPU 4 idle again, util 512 blocked.
    /// child 2: DIE: LLC0 3 idle, LLC1 4 (the sleeper is not running): LLC1; CPU 4 has the
    ///   latest idle_stamp: 4; MC: {4} ties {5} at 1 idle: stays. CPU 4.
    /// every later child: the same, so all stack on CPU 4. (Children that keep running
    /// spread instead: 4, then LLC0 and LLC1 in turn, 1, 5, ...)
    #[test]
    fn sleeping_children_stack_on_the_cpu_that_slept_last_515() {
        let d = two_llcs(Kernel::V515);
        assert_eq!(d.describe(0), "MC(4) DIE(8)");
        assert_eq!(forked(&d, Kernel::V515, 0, 6, true), vec![4; 6]);
        assert_eq!(forked(&d, Kernel::V515, 0, 4, false), vec![4, 1, 5, 2]);
    }

    /// 4.17, the same machine (DIE imbalance_pct 125: imbalance 256, MC 117: 174, scale
    /// 108), parent on CPU 0 (runnable load 1024: 256 per LLC CPU). Worked by hand:
    /// child 1: DIE: LLC1's runnable load 0, LLC0's 256, not below 0 + 256: LLC1, CPU 4.
    ///   MC from 4 (ring {4},{5},{6},{7}): {5} is the idlest (all 0), and 0 < 0 fails the
    ///   stay test: CPU 5.
    /// child 2: DIE: LLC1 runnable 0 (child 1 sleeps), avg 256 (its blocked load): LLC1;
    ///   CPU 5 slept last; MC from 5 (ring {5},{6},{7},{4}): local avg 1024, {6} 0: CPU 6.
    /// child 3: CPU 6 slept last; ring {6},{7},{4},{5}: {7}. child 4: from 7: {4}.
    /// child 5: from 4 (stamp 4), ring {4},{5},{6},{7} all avg 1024: local stays
    ///   (100 x 1024 < 108 x 1024): CPU 4. child 6: from 4 (avg 2048): {5}.
    #[test]
    fn sleeping_children_follow_blocked_load_and_idle_stamps_417() {
        let d = two_llcs(Kernel::V417);
        assert_eq!(forked(&d, Kernel::V417, 0, 6, true), vec![5, 6, 7, 4, 4, 5]);
    }

    /// `find_idlest_group_cpu` among idle CPUs of one idle state: the latest `idle_stamp`;
    /// equal stamps keep the first; a busy CPU is not a candidate while one is idle.
    #[test]
    fn the_most_recently_idled_cpu_wins() {
        let mut rqs = vec![Rq::default(); 8];
        rqs[5].idle_stamp = 3;
        rqs[6].idle_stamp = 2;
        rqs[7].nr_running = 1;
        rqs[7].idle_stamp = 9;
        assert_eq!(idlest_group_cpu(&[4, 5, 6, 7], &rqs, 0), 5);
        rqs[6].idle_stamp = 3;
        assert_eq!(idlest_group_cpu(&[4, 5, 6, 7], &rqs, 0), 5, "equal stamps: the first");
        assert_eq!(idlest_group_cpu(&[4, 6], &rqs, 0), 6);
        assert_eq!(idlest_group_cpu(&[4, 7], &rqs, 0), 4, "never slept but idle beats busy");
    }

    /// zen3-2s, 5.15, hackbench's sleeping children from CPU 0. Worked by hand: NUMA:
    /// socket 0 runs only the parent (nr 1 + 1 < 32): stay. DIE: the CCXs other than the
    /// parent's have 16 idle CPUs, CCX0 15; child 1 takes CCX1 (util 0, first met), CPU 8
    /// (MC and SMT: local ties stay); children 2-7 the CCXs with no blocked util yet,
    /// 16, ..., 56; child 8: all of CCX1-7 hold 512, CCX1 first, its latest-idled CPU 8.
    #[test]
    fn zen3_515_sleeping_children_round_robin_the_other_ccxs_on_one_cpu_each() {
        let d = doms("zen3-2s", 256, Kernel::V515);
        let got = forked(&d, Kernel::V515, 0, 40, true);
        let ring = [8, 16, 24, 32, 40, 48, 56];
        let want: Vec<usize> = (0..40).map(|i| ring[i % 7]).collect();
        assert_eq!(got, want);
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

    /// hackbench's start (`workload::hackbench` START): at time 0 every child sleeps on the
    /// CPU the placement gave it, and the first wakeups are the kick: the parent (task 0 on
    /// CPU 0) wakes each child once through `select_task_rq_fair` with WF_SYNC (the
    /// socket's `sock_def_readable` -> `pollwake` passes it on), newest poller first
    /// (`__add_wait_queue` puts each entry at the head; `__wake_up_common` walks from it).
    #[test]
    fn the_kick_wakes_every_sleeping_child_from_the_parent_s_cpu_newest_first() {
        use crate::engine::config::Config;
        let mut cfg = Config::default();
        for (k, v) in [("cpu", "q6600"), ("cores", "4"), ("kernel", "5.15"), ("workload", "hackbench")] {
            cfg.set(k, v).expect("key");
        }
        cfg.set("groups", "1").unwrap();
        cfg.set("loops", "2").unwrap();
        let sim = super::super::Sim::new(&cfg, None);
        let blocked = sim.tasks[1..].iter().all(|t| t.state == super::super::TaskState::Blocked);
        assert!(blocked && sim.tasks[0].state == super::super::TaskState::Runnable);
        let out = crate::engine::run(&cfg, Some(crate::engine::trace::TraceOptions::default())).unwrap();
        let wakes = &out.trace.decisions.wakeups;
        let kick: Vec<_> = wakes.iter().take(40).collect();
        assert_eq!(kick.iter().map(|w| w.task as usize).collect::<Vec<_>>(), (1..=40).rev().collect::<Vec<_>>());
        assert!(kick.iter().all(|w| w.waker == Some(0) && w.sync), "{:?}", kick[0]);
        // One write wakes them all, one `try_to_wake_up` after another on the parent's CPU.
        assert!(kick.windows(2).all(|p| p[0].time <= p[1].time));
        assert!(wakes.get(40).is_none_or(|w| w.time > kick[0].time));
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
    /// puts sleeping children (8, 16, ..., 56, then 8 again); under 3.11 they keep the round robin (child t on
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
        assert_eq!(&v515[..9], &[0, 8, 16, 24, 32, 40, 48, 56, 8], "hackbench's children sleep at once");
        let v311 = cores(&[&hb[..], &[("kernel", "3.11")]].concat());
        assert_eq!(&v311[..5], &[0, 1, 2, 3, 4]);
        let token =
            cores(&[("cpu", "zen3-2s"), ("cores", "256"), ("kernel", "6.6"), ("workload", "token"), ("pairs", "2")]);
        assert_eq!(token, vec![0, 1, 2, 3]);
    }
}
