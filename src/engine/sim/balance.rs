//! The load balancer per sched domain (kernel/sched/fair.c): periodic `rebalance_domains`,
//! newly-idle balance, and the nohz idle balancer's kick.
//!
//! PERIODIC: each CPU's tick runs `rebalance_domains` once `rq->next_balance` is due: for
//! each of its domains (`sim::domain`, lowest first) whose `last_balance + interval` has
//! passed, `load_balance` runs, where the interval is `balance_interval` ms, times
//! `busy_factor` while the CPU is busy (`get_sd_balance_interval`, clamped to 1 jiffy ..
//! `max_load_balance_interval` = HZ x CPUs / 10). `should_we_balance`: only the first idle
//! CPU of the local group (else its first CPU) balances a domain.
//! `load_balance`: group statistics over the domain's groups (`update_sg_lb_stats`: PELT
//! `load_avg` per CPU, `sim::pelt`, or the runqueue weight before 3.8; `nr_running`; idle
//! CPUs); the busiest group is the other group with the highest load per CPU that has a
//! task waiting. `calculate_imbalance`, simplified to its two main cases: a local group with
//! an idle CPU takes tasks (`migrate_task`: half the difference in `nr_running`, at least one)
//! from a busier group; otherwise loads are compared (`migrate_load`): balanced while
//! `100 x busiest <= imbalance_pct x local` (per CPU), else the smaller of the busiest's
//! excess over the domain's average and the local group's shortfall. `find_busiest_queue`:
//! the busiest group's CPU with a waiting task and the most load (or tasks, for
//! `migrate_task`). `detach_tasks`: its waiting tasks, least recently queued first, at most
//! `nr_migrate` (32) looked at; `can_migrate_task` skips a task pinned elsewhere and a
//! cache-hot one (`task_hot`: it last ran less than `migration_cost` ago, never at the SMT
//! level) unless the domain
//! failed `cache_nice_tries` times in a row; under `migrate_load` a task whose load is over
//! twice what is left is skipped. A balance that moved tasks resets `balance_interval` to
//! `min_interval`; a balanced domain doubles it up to `max_interval`.
//!
//! NEWLY IDLE (`idle_balance`, `newidle_balance` from 5.7): gated by the caller on `avg_idle`
//! per era (`sim::idle_path::go_idle`); the domains are tried lowest first with
//! SD_BALANCE_NEWIDLE, and the first that yields a task stops it (one task: the kernel
//! stops a newly-idle `detach_tasks` after one under CONFIG_PREEMPTION).
//!
//! NOHZ (`nohz_balancer_kick`, kernel/sched/fair.c 4.17 and 5.15; 3.11 `nohz_kick_needed`):
//! a busy CPU's tick kicks the idle load balancer when some CPU idles with its tick stopped
//! (`nohz.nr_cpus`; `nohz.idle_cpus_mask` is the idle CPUs whose tick `sim::idle_path`
//! stopped), `nohz.next_balance` has come, and either `rq->nr_running >= 2` or its LLC has
//! more than one busy CPU: 4.17+ `sds->nr_busy_cpus > 1` of `sd_llc_shared` (the highest
//! SD_SHARE_PKG_RESOURCES domain), 3.11 `sgp->nr_busy_cpus > 1` of the local group of each
//! SD_SHARE_PKG_RESOURCES domain (an SMT core's siblings; a single CPU without SMT, so never
//! there; 3.11's own text was not found in the stored sources, so this form, the
//! `for_each_domain` loop that 3.13's `sd_busy` replaced, is unverified); 2.6.2x only
//! `nr_running >= 2`. Busy is not idle (`Sim::isync`'s per-domain idle
//! counters, O(1) per tick). `kick_ilb` sets `nohz.next_balance` to the next jiffy and sends
//! the first idle CPU of the mask (`find_new_ilb`) an IPI, unless it is kicked already. That
//! CPU, once it has left idle (`sim::wakeup::on_kick`, `nohz_csd_func`), if still idle runs
//! `_nohz_idle_balance`: `rebalance_domains(rq, CPU_IDLE)` for every other CPU of the mask
//! whose `rq->next_balance` is due, from the next CPU up, wrapping (it stops if it gets work
//! itself), each through `load_balance` at its due domains as an idle balance (pulling from
//! the busiest group, not from the kicker), waking a CPU that got tasks; then
//! `nohz.next_balance` is the earliest of their `next_balance`, then its own
//! `rebalance_domains` (which may lower it). A CPU going newly idle brings its
//! `next_balance` forward to its domains' idle intervals (`newidle_balance`'s `out:`).
//!
//! COST: per-domain counters of waiting tasks and idle CPUs, kept as each runqueue changes
//! (`Sim::qsync`, `Sim::isync`: O(levels)), let a newly idle CPU skip a domain with nothing
//! waiting and the kick test its LLC's busy CPUs without scanning; the periodic scan of a
//! domain is O(its span) and runs once per interval, which grows with the span
//! (`min_interval` = weight ms), so its cost per tick stays bounded. A kick costs O(CPUs)
//! (`find_new_ilb`, and `_nohz_idle_balance`'s pass over the mask, plus the due idle CPUs'
//! domain scans), and kicks come at most once per `nohz.next_balance` (a jiffy or more).
//!
//! WHY: each move leaves a decision record when the trace records (`explain::MigrateRecord`,
//! built by the cold `why_move` below from what `load_balance` compared: the busiest and
//! local groups' load per CPU and `nr_running`, the imbalance, what `task_hot` found);
//! nothing the simulation reads changes.
//!
//! Simplified: the group imbalance types of 5.5+ (`group_has_spare`, `group_overloaded`,
//! `migrate_util`, `migrate_misfit`) reduce to the two cases above; no active balance (a
//! running task is never pushed), no SD_SERIALIZE, no `max_newidle_lb_cost` (the balancer's
//! own time is not charged), newly-idle balance skips a domain with no waiting task rather
//! than finding it balanced; capacity is 1024 per CPU (SMT siblings count as full CPUs in the
//! load per CPU). NOHZ: `nr_busy_cpus` counts a CPU busy from its idle exit and idle from its
//! idle entry (the kernel's counts it busy from its first busy tick, idle once its tick
//! stops); no SD_ASYM_PACKING, `check_cpu_capacity` or misfit kick conditions (no profile
//! has asymmetric CPUs, and capacity is never reduced); no NOHZ_STATS_KICK (blocked-load
//! updates of idle CPUs); 2.6.2x's nohz balancer (a designated `nohz.load_balancer` CPU
//! keeping its tick) is the same kick and pass; the newly idle `next_balance` update covers
//! all of a CPU's domains rather than those `newidle_balance` visited.

use super::domain::{sd, Domains};
use super::{Sim, TaskState};
use crate::engine::explain::{MigrateRecord, MoveCause};
use crate::engine::policy::{Arrival, Policy};
use crate::engine::time::{Ns, MS, SEC};
use crate::engine::trace::InstantKind;

/// `sysctl_sched_nr_migrate`.
const NR_MIGRATE: usize = 32;

/// One CPU's state for one of its domains (the kernel's per-CPU `struct sched_domain`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SdState {
    pub last_balance: Ns,
    /// ms.
    pub balance_interval: u64,
    pub nr_balance_failed: u32,
}

/// The balancer's state: the domains, each CPU's view of them, and the counters.
#[derive(Clone, Debug, Default)]
pub(super) struct Balancer {
    pub doms: Domains,
    /// Parallel to `doms.of[cpu]`.
    pub state: Vec<Vec<SdState>>,
    /// `rq->next_balance`.
    pub next_balance: Vec<Ns>,
    /// Per domain: tasks waiting on its CPUs; idle CPUs in it.
    pub waiting: Vec<u32>,
    pub idle: Vec<u32>,
    /// Per CPU: what the counters last saw (`qsync`, `isync`).
    pub seen_waiting: Vec<u32>,
    pub seen_idle: Vec<bool>,
    /// `nohz.next_balance`.
    pub nohz_next: Ns,
    /// `nohz.nr_cpus`: CPUs idle with their tick stopped (`sim::idle_path`).
    pub nohz_cpus: u32,
    /// Per CPU: kicked as the idle load balancer, not yet run (`nohz_flags`).
    pub ilb: Vec<bool>,
}

impl Balancer {
    pub fn new(doms: Domains) -> Balancer {
        let n = doms.of.len();
        let state = (0..n)
            .map(|c| {
                doms.of[c]
                    .iter()
                    .map(|&d| SdState {
                        last_balance: 0,
                        balance_interval: doms.all[d].min_interval,
                        nr_balance_failed: 0,
                    })
                    .collect()
            })
            .collect();
        let nd = doms.all.len();
        Balancer {
            doms,
            state,
            next_balance: vec![0; n],
            waiting: vec![0; nd],
            idle: vec![0; nd],
            seen_waiting: vec![0; n],
            seen_idle: vec![false; n],
            nohz_next: 0,
            nohz_cpus: 0,
            ilb: vec![false; n],
        }
    }
}

/// What `calculate_imbalance` asks `detach_tasks` to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Imbalance {
    Tasks(u64),
    Load(u64),
}

/// What a balance knew when it moved a task, for its decision record (`why_move`).
#[derive(Clone, Copy, Debug)]
struct Why {
    cause: MoveCause,
    /// The domain (an index into `doms.all`) the balance ran at.
    dom: usize,
    /// The busiest and local groups as `find_busiest` compared them (periodic balance).
    groups: Option<(Group, Group)>,
    imb: Imbalance,
    /// `task_hot`: None when not checked (SMT); else (ns since the task last ran, or None if
    /// it never ran; whether it was hot; `nr_balance_failed`).
    hot: Option<(Option<Ns>, bool, u32)>,
}

/// Per-group statistics (`sg_lb_stats`).
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    load: u64,
    nr: u64,
    waiting: u64,
    idle: u64,
    weight: u64,
}

impl Sim {
    /// Brings the waiting-task counters up to date with core `c`'s queue.
    pub(super) fn qsync(&mut self, c: usize) {
        let now = self.policy.queued(c).len() as u32;
        let was = std::mem::replace(&mut self.lb.seen_waiting[c], now);
        if now != was {
            for &d in &self.lb.doms.of[c] {
                self.lb.waiting[d] = self.lb.waiting[d] + now - was;
            }
        }
    }

    #[cfg(test)]
    pub(super) fn policy_queued_len(&self, c: usize) -> u32 {
        self.policy.queued(c).len() as u32
    }

    /// Brings the idle-CPU counters up to date with core `c`.
    pub(super) fn isync(&mut self, c: usize) {
        let now = self.cores[c].idle.is_some();
        if std::mem::replace(&mut self.lb.seen_idle[c], now) != now {
            for &d in &self.lb.doms.of[c] {
                if now {
                    self.lb.idle[d] += 1;
                } else {
                    self.lb.idle[d] -= 1;
                }
            }
        }
    }

    /// `cpu_load` for the balancer: the runqueue's PELT `load_avg` (3.8+; the engine's 3.11
    /// era on), or its weight before PELT (`weighted_cpuload`, 2.6.x).
    pub(super) fn cpu_load(&self, c: usize) -> u64 {
        if self.cfg.kernel >= crate::engine::kernel::Kernel::V311 {
            self.cores[c].rq_avg.load_avg
        } else {
            self.policy.queued(c).load() + self.cores[c].curr.map_or(0, |n| self.se[n].weight)
        }
    }

    /// Newly idle balance (module doc). True if a task was pulled.
    pub(super) fn pull_one(&mut self, c: usize) -> bool {
        for i in 0..self.lb.doms.of[c].len() {
            let d = self.lb.doms.of[c][i];
            if self.lb.doms.all[d].flags & sd::BALANCE_NEWIDLE == 0 || self.lb.waiting[d] == 0 {
                continue;
            }
            if self.load_balance(c, i, MoveCause::NewIdle) {
                return true;
            }
        }
        false
    }

    /// A group's counter: its domain's, or the CPU's own for a single-CPU group.
    fn group_count(&self, d: usize, i: usize, idle: bool) -> u32 {
        let g = &self.lb.doms.all[d].groups[i];
        match (self.lb.doms.all[d].group_dom[i], idle) {
            (Some(gd), false) => self.lb.waiting[gd],
            (Some(gd), true) => self.lb.idle[gd],
            (None, false) => self.policy.queued(g[0] as usize).len() as u32,
            (None, true) => self.cores[g[0] as usize].idle.is_some() as u32,
        }
    }

    /// Descends `c`'s `level`th domain by its groups' waiting-task counters to one CPU, the
    /// group with most at each level, leaving out the group holding `c`: O(levels x groups).
    fn descend(&self, c: usize, level: usize) -> Option<usize> {
        let mut d = self.lb.doms.of[c][level];
        let own = self.lb.doms.group_of[c][level];
        let mut first = true;
        loop {
            let dom = &self.lb.doms.all[d];
            let (i, _) = (0..dom.groups.len())
                .filter(|&i| !(first && i == own))
                .map(|i| (i, self.group_count(d, i, false)))
                .filter(|&(_, n)| n > 0)
                .max_by_key(|&(i, n)| (n, std::cmp::Reverse(i)))?;
            first = false;
            match dom.group_dom[i] {
                Some(gd) => d = gd,
                None => return Some(dom.groups[i][0] as usize),
            }
        }
    }

    /// `load_balance` of CPU `c` at its `level`th domain: newly idle (`cause` NewIdle), or
    /// `rebalance_domains` from `c`'s tick (Periodic) or from the idle load balancer on `c`'s
    /// behalf (NohzIdle). True if tasks moved.
    fn load_balance(&mut self, c: usize, level: usize, cause: MoveCause) -> bool {
        let newidle = cause == MoveCause::NewIdle;
        let d = self.lb.doms.of[c][level];
        let (src, imb, groups) = if newidle {
            let Some(src) = self.descend(c, level) else { return false };
            (src, Imbalance::Tasks(1), None)
        } else {
            // update_sd_lb_stats ends with update_idle_cpu_scan (SIS_UTIL, `sim::wakeup`).
            self.update_idle_cpu_scan(c, level);
            match self.find_busiest(c, level) {
                Some((src, imb, b, l)) => (src, imb, Some((b, l))),
                None => {
                    self.balanced(c, level);
                    return false;
                }
            }
        };
        let why = Why { cause, dom: d, groups, imb, hot: None };
        let moved = self.detach_tasks(src, c, level, why);
        let st = &mut self.lb.state[c][level];
        if moved > 0 {
            st.nr_balance_failed = 0;
        } else if !newidle {
            st.nr_balance_failed += 1;
        }
        // "We were unbalanced, so reset the balancing interval".
        st.balance_interval = self.lb.doms.all[d].min_interval;
        moved > 0
    }

    /// out_balanced: no failure, and a periodic balance backs off (interval doubles).
    fn balanced(&mut self, c: usize, level: usize) {
        let d = self.lb.doms.of[c][level];
        let max = self.lb.doms.all[d].max_interval;
        let st = &mut self.lb.state[c][level];
        st.nr_balance_failed = 0;
        if st.balance_interval < max {
            st.balance_interval *= 2;
        }
    }

    /// `find_busiest_group` + `calculate_imbalance` + `find_busiest_queue` (module doc).
    /// Gives the source CPU, the imbalance, and the busiest and local groups' statistics.
    fn find_busiest(&self, c: usize, level: usize) -> Option<(usize, Imbalance, Group, Group)> {
        let dom = &self.lb.doms.all[self.lb.doms.of[c][level]];
        let own = self.lb.doms.group_of[c][level];
        let stats = |g: &Vec<u16>| -> Group {
            let mut s = Group { weight: g.len() as u64, ..Group::default() };
            for &x in g {
                let x = x as usize;
                s.load += self.cpu_load(x);
                s.nr += self.nr_running(x) as u64;
                s.waiting += self.policy.queued(x).len() as u64;
                s.idle += self.is_idle(x) as u64;
            }
            s
        };
        let mut local = Group::default();
        let mut total = Group::default();
        let mut busiest: Option<(usize, Group)> = None;
        for (i, g) in dom.groups.iter().enumerate() {
            let s = stats(g);
            total.load += s.load;
            total.weight += s.weight;
            if i == own {
                local = s;
                continue;
            }
            if s.waiting == 0 {
                continue;
            }
            // Highest load per CPU: a.load / a.weight > b.load / b.weight.
            if busiest.is_none_or(|(_, b)| s.load * b.weight > b.load * s.weight) {
                busiest = Some((i, s));
            }
        }
        let (bi, b) = busiest?;
        let imb = if local.idle > 0 && (b.nr > b.weight || b.nr >= local.nr + 2) {
            Imbalance::Tasks(((b.nr.saturating_sub(local.nr)) / 2).max(1))
        } else {
            // Per-CPU loads, scaled by 1024 (SCHED_CAPACITY_SCALE per CPU).
            let (bl, ll) = (b.load * 1024 / b.weight, local.load * 1024 / local.weight.max(1));
            if 100 * bl <= dom.imbalance_pct * ll {
                return None;
            }
            let avg = total.load * 1024 / total.weight.max(1);
            let excess = bl.saturating_sub(avg).min(avg.saturating_sub(ll)) * local.weight.max(1) / 1024;
            if excess == 0 {
                return None;
            }
            Imbalance::Load(excess)
        };
        // find_busiest_queue in the busiest group: a CPU with a waiting task, most load
        // (or most tasks for migrate_task).
        let src =
            dom.groups[bi].iter().map(|&x| x as usize).filter(|&x| !self.policy.queued(x).is_empty()).max_by_key(
                |&x| {
                    let key = match imb {
                        Imbalance::Tasks(_) => self.nr_running(x) as u64,
                        Imbalance::Load(_) => self.cpu_load(x),
                    };
                    (key, std::cmp::Reverse(x))
                },
            )?;
        Some((src, imb, b, local))
    }

    /// `detach_tasks` + `attach_tasks` from `src` to `dst`: how many moved.
    fn detach_tasks(&mut self, src: usize, dst: usize, level: usize, why: Why) -> usize {
        let (imb, newidle) = (why.imb, why.cause == MoveCause::NewIdle);
        let t = self.cursor(dst);
        let d = self.lb.doms.of[dst][level];
        let tries = self.lb.doms.all[d].cache_nice_tries;
        let failed = self.lb.state[dst][level].nr_balance_failed;
        // task_hot: "SMT siblings share cache" (SD_SHARE_CPUCAPACITY): never hot there.
        let smt = self.lb.doms.all[d].flags & sd::SHARE_CPUCAPACITY != 0;
        let mut left = match imb {
            Imbalance::Tasks(n) | Imbalance::Load(n) => n,
        };
        let loop_max = NR_MIGRATE.min(self.nr_running(src));
        // Candidates, least recently queued first (`list_last_entry(&rq->cfs_tasks)`).
        let cands: Vec<usize> = self.policy.queued(src).iter().take(loop_max).collect();
        let mut moved = 0;
        for k in cands {
            if left == 0 {
                break;
            }
            let tk = &self.tasks[k];
            // Not queued at a time still ahead of dst's, nor pinned elsewhere
            // (`can_migrate_task`: cpus_ptr), nor a sleeping task still queued (6.12).
            if tk.queued_at > t || tk.pinned.is_some_and(|p| p != dst) || tk.state != TaskState::Runnable {
                continue;
            }
            // task_hot: `rq_clock_task(src) - p->se.exec_start < sysctl_sched_migration_cost`.
            let hot = !smt && tk.ran_at > 0 && t.saturating_sub(tk.ran_at) < self.cfg.migration_cost;
            if hot && failed <= tries {
                continue;
            }
            let since = (tk.ran_at > 0).then(|| t.saturating_sub(tk.ran_at));
            let why = Why { hot: (!smt).then_some((since, hot, failed)), ..why };
            if let Imbalance::Load(_) = imb {
                let load = self.task_load(k);
                if load / 2 > left && failed <= tries {
                    continue;
                }
                left = left.saturating_sub(load);
            } else {
                left -= 1;
            }
            if self.migrate_task(src, dst, k, why) {
                moved += 1;
            }
            if newidle {
                break;
            }
        }
        moved
    }

    /// A task's load for `detach_tasks`: its PELT `load_avg` (3.8+) or its weight.
    pub(super) fn task_load(&self, k: usize) -> u64 {
        if self.cfg.kernel >= crate::engine::kernel::Kernel::V311 {
            self.tasks[k].avg.load_avg
        } else {
            self.se[k].weight
        }
    }

    /// Moves waiting task `task` from `from` to `to` (`detach_task` + `attach_task`).
    fn migrate_task(&mut self, from: usize, to: usize, task: usize, why: Why) -> bool {
        let t = self.cursor(to);
        self.pelt_dequeue(from, task, t, false, false);
        if !self.policy.dequeue(&mut self.se, from, task, t) {
            self.pelt_requeue_est(from, task);
            return false;
        }
        self.qsync(from);
        self.pelt_enqueue(to, task, t);
        self.policy.enqueue(&mut self.se, to, task, Arrival::Migrated { from }, t);
        self.qsync(to);
        self.tasks[task].core = to;
        self.tasks[task].queued_at = t;
        self.m.migrations += 1;
        self.rec.instant(to, t, InstantKind::Migrate { from: from as u16, task: task as u32 });
        if self.rec.explaining(t) {
            self.why_move(from, to, task, t, why);
        }
        true
    }

    /// The decision record of a balancer move (module doc: WHY), after it: `from`'s and
    /// `to`'s counts are as the move left them, the figures as the balance compared them.
    #[cold]
    #[inline(never)]
    fn why_move(&mut self, from: usize, to: usize, task: usize, t: Ns, why: Why) {
        let dom = &self.lb.doms.all[why.dom];
        let pelt = self.cfg.kernel >= crate::engine::kernel::Kernel::V311;
        let load = if pelt { "PELT load_avg" } else { "runqueue weight" };
        let mut figures: Vec<(String, u64)> = Vec::new();
        let mut fig = |k: String, v: u64| figures.push((k, v));
        if let Some((b, l)) = why.groups {
            let per = |g: &Group| g.load * 1024 / g.weight.max(1);
            fig(format!("busiest group load per CPU x1024 ({load}, update_sg_lb_stats)"), per(&b));
            fig(format!("local group load per CPU x1024 ({load})"), per(&l));
            fig("busiest group nr_running (sum_nr_running)".into(), b.nr);
            fig("local group nr_running".into(), l.nr);
            fig("busiest group CPUs".into(), b.weight);
            fig("local group idle CPUs (idle_cpus)".into(), l.idle);
            fig("imbalance_pct (sd_init)".into(), dom.imbalance_pct);
        }
        match (why.cause, why.imb) {
            (MoveCause::NewIdle, _) => fig(
                "tasks waiting on the source CPU before the pull (find_busiest_queue)".into(),
                self.policy.queued(from).len() as u64 + 1,
            ),
            (_, Imbalance::Tasks(n)) => fig("imbalance, tasks (calculate_imbalance: migrate_task)".into(), n),
            (_, Imbalance::Load(n)) => {
                fig("imbalance, load (calculate_imbalance: migrate_load)".into(), n);
                fig(format!("task load ({load})"), self.task_load(task));
            }
        }
        let us = |ns: Ns| format!("{:.1} us", ns as f64 / 1e3);
        let mc = self.cfg.migration_cost;
        let hot = match why.hot {
            None => "task_hot not checked: SMT siblings share their caches (SD_SHARE_CPUCAPACITY)".to_string(),
            Some((None, _, _)) => "task_hot: cold, the task has not run yet".to_string(),
            Some((Some(s), false, _)) => {
                format!("task_hot: cold, last ran {} ago >= migration_cost {}", us(s), us(mc))
            }
            Some((Some(s), true, failed)) => format!(
                "task_hot: hot (last ran {} ago < migration_cost {}), taken anyway: nr_balance_failed {failed} > \
                 cache_nice_tries {}",
                us(s),
                us(mc),
                dom.cache_nice_tries
            ),
        };
        let r = MigrateRecord {
            time: t,
            task: task as u32,
            from: from as u16,
            to: to as u16,
            cause: why.cause,
            domain: format!("{}({})", dom.name, dom.span.len()),
            figures,
            hot,
        };
        self.rec.trace.decisions.migrations.push(r);
    }

    /// `get_sd_balance_interval`, ns.
    fn sd_interval(&self, c: usize, level: usize, busy: bool) -> Ns {
        let d = self.lb.doms.of[c][level];
        let mut ms = self.lb.state[c][level].balance_interval;
        if busy {
            ms *= self.lb.doms.all[d].busy_factor;
        }
        // max_load_balance_interval = HZ * num_online_cpus() / 10 jiffies.
        let max = SEC * self.cores.len() as u64 / 10;
        (ms * MS).clamp(self.tick_period, max.max(self.tick_period))
    }

    /// `should_we_balance`: the first idle CPU of `c`'s local group at `level`, else its
    /// first CPU, balances (a newly idle CPU always may).
    fn should_we_balance(&self, c: usize, level: usize) -> bool {
        if level == 0 {
            return true;
        }
        let child = self.lb.doms.of[c][level - 1];
        let group = &self.lb.doms.all[child].span;
        match group.iter().map(|&x| x as usize).find(|&x| self.is_idle(x)) {
            Some(x) => x == c,
            None => group[0] as usize == c,
        }
    }

    /// `trigger_load_balance` from core `c`'s tick: `rebalance_domains` once
    /// `rq->next_balance` is due, then the nohz kick.
    pub(super) fn balance(&mut self, c: usize) {
        let t = self.cursor(c);
        if t >= self.lb.next_balance[c] {
            self.rebalance_domains(c, t, MoveCause::Periodic);
        }
        self.nohz_kick(c, t);
    }

    /// `rebalance_domains` of core `c` at `t` (module doc: PERIODIC), from its own tick
    /// (`cause` Periodic) or by the idle load balancer on its behalf (NohzIdle).
    fn rebalance_domains(&mut self, c: usize, t: Ns, cause: MoveCause) {
        let mut busy = !self.is_idle(c);
        let mut next = t + 60 * SEC;
        for level in 0..self.lb.doms.of[c].len() {
            let mut interval = self.sd_interval(c, level, busy);
            if t >= self.lb.state[c][level].last_balance + interval {
                if self.should_we_balance(c, level) && self.load_balance(c, level, cause) {
                    busy = !self.is_idle(c);
                }
                self.lb.state[c][level].last_balance = t;
                interval = self.sd_interval(c, level, busy);
            }
            next = next.min(self.lb.state[c][level].last_balance + interval);
        }
        self.lb.next_balance[c] = next;
    }

    /// `newidle_balance`'s "Move the next balance forward" (5.15; 3.11 `idle_balance` the
    /// same through `next_balance`): a CPU going idle is due at its domains' idle intervals
    /// (`get_sd_balance_interval(sd, 0)`), not the busy ones it last set, so the idle load
    /// balancer finds it due (`_nohz_idle_balance` tests `rq->next_balance`).
    pub(super) fn newidle_next_balance(&mut self, c: usize) {
        let mut next = self.lb.next_balance[c];
        for level in 0..self.lb.doms.of[c].len() {
            next = next.min(self.lb.state[c][level].last_balance + self.sd_interval(c, level, false));
        }
        self.lb.next_balance[c] = next;
    }

    /// In `nohz.idle_cpus_mask` and `idle_cpu`: idle with its tick stopped
    /// (`nohz_balance_enter_idle` from `tick_nohz_stop_tick`).
    fn nohz_idle(&self, c: usize) -> bool {
        self.cores[c].tick_stopped && self.cores[c].idle.is_some() && self.is_idle(c)
    }

    /// The kicker's `nr_busy_cpus` (module doc: NOHZ), per era; 0 before 3.11.
    fn nr_busy_cpus(&self, c: usize) -> u32 {
        use crate::engine::kernel::Kernel;
        let of = &self.lb.doms.of[c];
        let pkg = |d: usize| self.lb.doms.all[d].flags & sd::SHARE_PKG_RESOURCES != 0;
        if self.cfg.kernel >= Kernel::V417 {
            // sd_llc_shared: the highest SD_SHARE_PKG_RESOURCES domain's busy CPUs.
            of.iter().rev().find(|&&d| pkg(d)).map_or(0, |&d| self.lb.doms.all[d].span.len() as u32 - self.lb.idle[d])
        } else if self.cfg.kernel >= Kernel::V311 {
            // 3.11 nohz_kick_needed: `sd->groups->sgp->nr_busy_cpus` (the local group) of
            // each SD_SHARE_PKG_RESOURCES domain; the largest is the LLC's local group.
            (0..of.len())
                .filter(|&l| pkg(of[l]))
                .map(|l| {
                    let own = self.lb.doms.group_of[c][l];
                    let g = self.lb.doms.all[of[l]].groups[own].len() as u32;
                    g - self.group_count(of[l], own, true)
                })
                .max()
                .unwrap_or(0)
        } else {
            0
        }
    }

    /// `nohz_balancer_kick` (3.11 `nohz_kick_needed`) from busy core `c`'s tick at `t`
    /// (module doc: NOHZ): marks and kicks the idle load balancer, which balances at its
    /// wakeup (`nohz_idle_balance`).
    fn nohz_kick(&mut self, c: usize, t: Ns) {
        // rq->idle_balance; nohz.nr_cpus; time_before(now, nohz.next_balance).
        if self.is_idle(c) || self.lb.nohz_cpus == 0 || t < self.lb.nohz_next {
            return;
        }
        if self.nr_running(c) < 2 && self.nr_busy_cpus(c) <= 1 {
            return;
        }
        // kick_ilb: nohz.next_balance = jiffies + 1 (3.11: `nohz.next_balance++`).
        self.lb.nohz_next = (t / self.tick_period + 1) * self.tick_period;
        // find_new_ilb: the first CPU of nohz.idle_cpus_mask (other than this one) that is
        // idle: O(CPUs), at most once a jiffy.
        let Some(x) = (0..self.cores.len()).find(|&y| y != c && self.nohz_idle(y)) else { return };
        // atomic_fetch_or(flags, nohz_flags(ilb_cpu)): a CPU already kicked is not again.
        if std::mem::replace(&mut self.lb.ilb[x], true) {
            return;
        }
        if !self.cores[x].kick_pending {
            self.cores[x].kick_pending = true;
            let ipi = self.wake_needs_ipi(x);
            self.kick(x, Some(c), ipi, t);
        }
    }

    /// `nohz_csd_func` on the kicked CPU `x` (`sim::wakeup::on_kick`, once `x` has left
    /// idle): if it is still idle, `_nohz_idle_balance`: `rebalance_domains(rq, CPU_IDLE)`
    /// for each other CPU of `nohz.idle_cpus_mask` still idle whose `rq->next_balance` is
    /// due (from `x + 1`, wrapping; stopping if `x` gets work), waking a CPU that got tasks
    /// (`attach_task` -> `check_preempt_curr` -> `resched_curr`); `nohz.next_balance` = the
    /// earliest of their `next_balance`; then `x`'s own `rebalance_domains`.
    pub(super) fn nohz_idle_balance(&mut self, x: usize) {
        if !std::mem::replace(&mut self.lb.ilb[x], false) || !self.is_idle(x) {
            return;
        }
        let t = self.cursor(x);
        let n = self.cores.len();
        let mut next: Option<Ns> = None;
        for i in 1..n {
            let y = (x + i) % n;
            if !self.nohz_idle(y) {
                continue;
            }
            // need_resched(): "If this CPU gets work to do, stop the load balancing".
            if !self.is_idle(x) {
                return;
            }
            if t >= self.lb.next_balance[y] {
                self.rebalance_domains(y, t, MoveCause::NohzIdle);
                if !self.is_idle(y) && !self.cores[y].kick_pending {
                    self.cores[y].kick_pending = true;
                    let ipi = self.wake_needs_ipi(y);
                    self.kick(y, Some(x), ipi, t);
                }
            }
            let nb = self.lb.next_balance[y];
            next = Some(next.map_or(nb, |m: Ns| m.min(nb)));
        }
        if let Some(nb) = next {
            self.lb.nohz_next = nb;
        }
        self.rebalance_domains(x, t, MoveCause::NohzIdle);
        // rebalance_domains (CONFIG_NO_HZ_COMMON): the ILB's own next balance bounds it.
        self.lb.nohz_next = self.lb.nohz_next.min(self.lb.next_balance[x]);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::Sim;
    use crate::engine::config::Config;
    use crate::engine::time::{Ns, MS, SEC};
    use crate::engine::trace::{InstantKind, TraceOptions};
    use crate::engine::workload::replay::{Op, Program, Replay, ReplayTask};
    use crate::engine::workload::AnyWorkload;

    /// Zen 3, CPUs 0-15: two CCXs of 8 (MC(8) DIE(16)), kernel 5.15. LLC 0's CPUs run two
    /// CPU-bound tasks each, LLC 1's one: every CPU busy, so no newly-idle or nohz balance;
    /// only the DIE domain sees the imbalance. Returns the (time, from, to) of migrations.
    fn two_llcs(migration_cost: &str) -> Vec<(Ns, u16, usize)> {
        two_llcs_run(migration_cost)
            .trace
            .instants
            .iter()
            .filter_map(|i| match i.kind {
                InstantKind::Migrate { from, .. } => Some((i.time, from, i.core as usize)),
                _ => None,
            })
            .collect()
    }

    fn two_llcs_run(migration_cost: &str) -> crate::engine::Outcome {
        let mut c = Config::default();
        for (k, v) in [
            ("kernel", "5.15"),
            ("cpu", "zen3-2s"),
            ("cores", "16"),
            ("duration", "1s"),
            ("migration_cost", migration_cost),
        ] {
            c.set(k, v).unwrap();
        }
        let spin = |name: String, cpu: usize| ReplayTask {
            name,
            pid: 0,
            nice: 0,
            cpu,
            ops: vec![Op::Run(10 * SEC), Op::Exit],
        };
        let mut tasks: Vec<ReplayTask> = (0..16).map(|i| spin(format!("a{i}"), i / 2)).collect();
        tasks.extend((8..16).map(|cpu| spin(format!("b{cpu}"), cpu)));
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
        Sim::with_workload(&c, Some(TraceOptions::default()), wl).run()
    }

    /// Issue 31: the explain record of a balancer move says its path, its domain as
    /// `sim::domain` names it, the figures `load_balance` compared and what `task_hot` found.
    #[test]
    fn a_balancer_move_says_its_domain_kind_and_figures() {
        use crate::engine::explain::MoveCause;
        for (cost, hot) in
            [("0us", "task_hot: cold"), ("500us", "taken anyway: nr_balance_failed 2 > cache_nice_tries 1")]
        {
            let o = two_llcs_run(cost);
            let r = o.trace.decisions.migrations.first().expect("a record for the first move");
            let first = o.trace.instants.iter().find(|i| matches!(i.kind, InstantKind::Migrate { .. })).unwrap();
            assert_eq!((r.time, r.to), (first.time, first.core), "keyed to its instant");
            assert_eq!(r.cause, MoveCause::Periodic, "{r:?}");
            assert_eq!(r.domain, "DIE(16)", "5.15 names the package level DIE: {r:?}");
            let fig = |k: &str| r.figures.iter().find(|f| f.0.starts_with(k)).map(|f| f.1).expect(k);
            // LLC 0: 16 tasks on 8 CPUs, LLC 1: 8 on 8 (the move made, counted before it).
            assert_eq!((fig("busiest group nr_running"), fig("local group nr_running")), (16, 8), "{r:?}");
            assert!(fig("busiest group load per CPU") > fig("local group load per CPU") * 110 / 100, "{r:?}");
            assert_eq!(fig("imbalance_pct"), 117, "{r:?}");
            assert!(r.figures.iter().any(|f| f.0.starts_with("imbalance, ")), "{r:?}");
            assert!(r.hot.contains(hot), "{cost}: {}", r.hot);
        }
    }

    /// The DIE domain of 16 CPUs balances a busy CPU every 16 ms x busy_factor 16 = 256 ms
    /// (`sd_init`, 5.10+): no task crosses the LLCs before, and one does at that balance
    /// (`migration_cost` 0: no task is cache hot, `task_hot` returns 0).
    #[test]
    fn an_imbalance_between_two_llcs_is_corrected_at_the_domain_s_interval() {
        let moves = two_llcs("0us");
        let first = moves.first().copied().expect("the imbalance is corrected");
        assert!(first.0 >= 256 * MS, "not before the DIE interval: {first:?}");
        assert!(first.0 < 256 * MS + 8 * MS, "at the interval (a tick or two): {first:?}");
        assert!(first.1 < 8 && first.2 >= 8, "from LLC 0 to LLC 1: {first:?}");
        // Each balance moves toward balance, never back.
        assert!(moves.iter().filter(|m| m.1 >= 8 && m.2 < 8).count() <= moves.len() / 2, "{moves:?}");
    }

    /// `task_hot`: at HZ 250 two tasks on a CPU swap at every tick (a 3 ms slice), and every
    /// CPU ticks at once, so the task waiting when the balance runs was preempted at that tick:
    /// cache hot under the default 500 us `migration_cost`. The DIE balances at 256 and 512 ms
    /// move nothing; the third, having failed more than `cache_nice_tries` (1) times in a row,
    /// takes a hot task.
    #[test]
    fn task_hot_keeps_a_cache_hot_task() {
        let moves = two_llcs("500us");
        let first = moves.first().copied().expect("moved after failing cache_nice_tries times");
        assert!(first.0 >= 3 * 256 * MS, "hot tasks stay through two failed balances: {first:?}");
        assert!(first.0 < 3 * 256 * MS + 8 * MS, "{first:?}");
        assert!(first.1 < 8 && first.2 >= 8, "{first:?}");
    }
}

/// The nohz kick under `task_hot`: two CPU-bound tasks on CPU 0 of two (6.12, HZ 250) swap
/// at every tick while CPU 1 runs a task for 20 ms; then CPU 1 idles. With `migration_cost`
/// 5 ms the task waiting on CPU 0 (preempted a tick ago) is cache hot, so neither the kick
/// nor CPU 1's idle balance may take it until the domain has failed `cache_nice_tries` (1)
/// + 1 times, each a tick or more apart.
#[cfg(test)]
mod nohz_hot {
    use std::sync::Arc;

    use super::super::Sim;
    use crate::engine::config::Config;
    use crate::engine::time::{MS, SEC};
    use crate::engine::trace::{InstantKind, TraceOptions};
    use crate::engine::workload::replay::{Op, Program, Replay, ReplayTask};
    use crate::engine::workload::AnyWorkload;

    #[test]
    fn the_nohz_kick_leaves_a_cache_hot_task_until_its_domain_has_failed() {
        let mut c = Config::default();
        for (k, v) in
            [("kernel", "6.12"), ("cores", "2"), ("hz", "250"), ("duration", "200ms"), ("migration_cost", "5ms")]
        {
            c.set(k, v).unwrap();
        }
        let task = |name: &str, cpu: usize, run| ReplayTask {
            name: name.into(),
            pid: 0,
            nice: 0,
            cpu,
            ops: vec![Op::Run(run), Op::Exit],
        };
        let tasks = vec![task("a", 0, SEC), task("b", 0, SEC), task("c", 1, 20 * MS)];
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
        let o = Sim::with_workload(&c, Some(TraceOptions::default()), wl).run();
        let first = o
            .trace
            .instants
            .iter()
            .find(|i| matches!(i.kind, InstantKind::Migrate { .. }))
            .map(|i| i.time)
            .expect("a hot task goes once the domain has failed");
        assert!(first > 26 * MS, "not at the first kick or balance after CPU 1 idles: {first}");
        assert!(first < 100 * MS, "{first}");
    }
}

#[cfg(test)]
mod counters {
    use super::super::Sim;
    use crate::engine::config::Config;

    /// The per-domain counters (`qsync`, `isync`) match a full count of every domain's span
    /// between events throughout runs with wakeups, migrations and idle periods, in three
    /// eras (a missed sync would hide waiting tasks from newly-idle balance).
    #[test]
    fn waiting_and_idle_counters_match_a_full_count() {
        for (cpu, cores, kernel) in
            [("zen3-2s", "40", "6.12"), ("cascadelake-2s", "80", "5.15"), ("x5675", "6", "3.11")]
        {
            let mut c = Config::default();
            for (k, v) in
                [("cpu", cpu), ("cores", cores), ("kernel", kernel), ("workload", "hackbench"), ("groups", "4")]
            {
                c.set(k, v).unwrap();
            }
            c.set("duration", "20ms").unwrap();
            let mut sim = Sim::new(&c, None);
            sim.start();
            let mut n = 0u64;
            while sim.step() {
                n += 1;
                if n % 97 != 0 {
                    continue;
                }
                // No sync first: every queue change and idle entry/exit has synced already.
                for (d, dom) in sim.lb.doms.all.iter().enumerate() {
                    let waiting: u32 = dom.span.iter().map(|&x| sim.policy_queued_len(x as usize)).sum();
                    let idle = dom.span.iter().filter(|&&x| sim.cores[x as usize].idle.is_some()).count() as u32;
                    assert_eq!((sim.lb.waiting[d], sim.lb.idle[d]), (waiting, idle), "{cpu} domain {d} at event {n}");
                }
            }
            assert!(n > 1000, "{cpu}: {n} events");
        }
    }
}

/// The bug the intro preset showed (c31d101 took the balancer out for it): a newly idle CPU
/// took the tasks another CPU had not yet started at time 0 (`Sim::start`).
#[cfg(test)]
mod first_pick {
    use std::sync::Arc;

    use super::super::Sim;
    use crate::engine::config::Config;
    use crate::engine::time::MS;
    use crate::engine::trace::{InstantKind, TraceOptions};
    use crate::engine::workload::replay::{Op, Program, Replay, ReplayTask};
    use crate::engine::workload::AnyWorkload;

    /// Every task sleeps at once, two on each of two CPUs (4.17, as the intro preset). CPU
    /// 0, started first, is newly idle a few microseconds in; CPU 1's tasks are not waiting
    /// then (on the machine CPU 1 has run them to their sleep by that time), so nothing
    /// moves. Before the fix CPU 0 took both, and with them their timers.
    #[test]
    fn a_cpu_idle_at_the_start_does_not_take_the_tasks_of_a_cpu_that_has_not_started() {
        let mut c = Config::default();
        for (k, v) in [("kernel", "4.17"), ("cores", "2"), ("duration", "20ms")] {
            c.set(k, v).unwrap();
        }
        let sleeper = |name: &str, cpu| ReplayTask {
            name: name.into(),
            pid: 0,
            nice: 0,
            cpu,
            ops: vec![Op::Sleep(5 * MS), Op::Run(MS), Op::Exit],
        };
        let tasks = vec![sleeper("a0", 0), sleeper("b0", 1), sleeper("a1", 0), sleeper("b1", 1)];
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
        let o = Sim::with_workload(&c, Some(TraceOptions::default()), wl).run();
        let early: Vec<_> = o
            .trace
            .instants
            .iter()
            .filter(|i| matches!(i.kind, InstantKind::Migrate { .. }) && i.time < MS)
            .map(|i| (i.time, i.core))
            .collect();
        assert!(early.is_empty(), "migrations at the start: {early:?}");
    }
}

/// The nohz idle balancer (module doc: NOHZ) on Zen 3, CPUs 0-15: two CCXs of 8 (MC(8)
/// DIE(16)), HZ 250, nohz on: the kick's conditions per era, its rate limit, and the idle
/// load balancer balancing on behalf of the idle CPUs.
#[cfg(test)]
mod nohz_ilb {
    use std::sync::Arc;

    use super::super::Sim;
    use crate::engine::config::Config;
    use crate::engine::explain::MoveCause;
    use crate::engine::time::{Ns, MS, SEC};
    use crate::engine::trace::{InstantKind, TraceOptions};
    use crate::engine::workload::replay::{Op, Program, Replay, ReplayTask};
    use crate::engine::workload::AnyWorkload;

    /// CPU-bound tasks, one per listed CPU (a CPU listed twice gets two).
    fn run(kernel: &str, cpus: &[usize]) -> crate::engine::Outcome {
        run_on(kernel, ("zen3-2s", "16"), cpus)
    }

    /// As `run`, on the profile and CPU count `machine`.
    fn run_on(kernel: &str, machine: (&str, &str), cpus: &[usize]) -> crate::engine::Outcome {
        sim(kernel, machine, cpus).run()
    }

    /// Whether any CPU kicked the idle load balancer in the run (`nohz.next_balance` is set
    /// only by a kick and the pass it starts; a kick to a polling CPU sends no IPI).
    fn kicked(kernel: &str, machine: (&str, &str), cpus: &[usize]) -> bool {
        let mut s = sim(kernel, machine, cpus);
        s.start();
        while s.step() {}
        s.lb.nohz_next > 0
    }

    fn sim(kernel: &str, machine: (&str, &str), cpus: &[usize]) -> Sim {
        let mut c = Config::default();
        for (k, v) in [
            ("kernel", kernel),
            ("cpu", machine.0),
            ("cores", machine.1),
            ("hz", "250"),
            ("nohz", "on"),
            ("duration", "200ms"),
            ("migration_cost", "0us"),
        ] {
            c.set(k, v).unwrap();
        }
        let tasks = cpus
            .iter()
            .enumerate()
            .map(|(i, &cpu)| ReplayTask {
                name: format!("t{i}"),
                pid: 0,
                nice: 0,
                cpu,
                ops: vec![Op::Run(10 * SEC), Op::Exit],
            })
            .collect();
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks })));
        Sim::with_workload(&c, Some(TraceOptions::default()), wl)
    }

    /// The kicks: (time, kicker, kicked) of IPIs from a busy CPU to an idle one (nothing
    /// else sends one here: the tasks never sleep).
    fn kicks(o: &crate::engine::Outcome, busy: &[usize]) -> Vec<(Ns, usize, usize)> {
        o.trace
            .instants
            .iter()
            .filter_map(|i| match i.kind {
                InstantKind::Ipi { from } if busy.contains(&(from as usize)) && !busy.contains(&(i.core as usize)) => {
                    Some((i.time, from as usize, i.core as usize))
                }
                _ => None,
            })
            .collect()
    }

    /// (a) and the era gate: two busy CPUs of one LLC, one task each and nothing waiting.
    /// 4.17+ `nohz_balancer_kick` kicks (`sds->nr_busy_cpus > 1` of `sd_llc_shared`); 3.11
    /// `nohz_kick_needed` counts the busy CPUs of the local group of each
    /// SD_SHARE_PKG_RESOURCES domain, a single CPU here (no SMT), so it does not.
    #[test]
    fn two_busy_cpus_of_an_llc_kick_an_idle_cpu_from_4_17() {
        for (kernel, kicked) in [("5.15", true), ("4.17", true), ("3.11", false)] {
            let k = kicks(&run(kernel, &[0, 1]), &[0, 1]);
            assert_eq!(!k.is_empty(), kicked, "{kernel}: {k:?}");
            // find_new_ilb: the first idle CPU of nohz.idle_cpus_mask.
            assert!(k.iter().all(|&(_, _, x)| x == 2), "{kernel}: {k:?}");
        }
    }

    /// The era gate with SMT (CascadeLake, 80 CPUs, SMT pairs {c, c + 40}): 3.11 kicks when
    /// both threads of the kicker's core are busy (the local group of MC is the core), not
    /// for two busy cores; 5.15 for both.
    #[test]
    fn in_3_11_two_busy_smt_siblings_kick_and_two_busy_cores_do_not() {
        for (kernel, busy, kicked) in
            [("3.11", [0, 40], true), ("3.11", [0, 1], false), ("5.15", [0, 40], true), ("5.15", [0, 1], true)]
        {
            assert_eq!(self::kicked(kernel, ("cascadelake-2s", "80"), &busy), kicked, "{kernel} {busy:?}");
        }
    }

    /// (c) `nohz.next_balance`: after the idle load balancer's pass it is the earliest
    /// `rq->next_balance` of the idle CPUs, MC's idle interval (`sd_init`: the span's
    /// weight, 8 ms) after their balance, so the busy CPUs' ticks every 4 ms do not kick
    /// again before it. The first kick (4 ms) finds MC not yet due (its `last_balance` is
    /// the domains' build at 0), so the second comes at 8 ms; from there 8 ms or more.
    #[test]
    fn no_second_kick_before_nohz_next_balance() {
        let k = kicks(&run("5.15", &[0, 1]), &[0, 1]);
        assert!(k.len() >= 10, "{k:?}");
        assert!(k[0].0 < 4 * MS + MS && k[1].0 < 8 * MS + MS, "{k:?}");
        let gaps: Vec<Ns> = k[1..].windows(2).map(|w| w[1].0 - w[0].0).collect();
        assert!(gaps.iter().all(|&g| g >= 8 * MS), "{gaps:?} {k:?}");
    }

    /// (b) The idle load balancer balances the idle CPUs' domains, so it pulls from the
    /// busiest CPU, which need not be the kicker: CPUs 0 and 1 (one task each) kick, and a
    /// task waiting on CPU 8 (two tasks, the other CCX) moves.
    #[test]
    fn the_ilb_pulls_a_waiting_task_from_a_cpu_that_is_not_the_kicker() {
        let o = run("5.15", &[0, 1, 8, 8]);
        let k = kicks(&o, &[0, 1, 8]);
        let moves: Vec<_> = o.trace.decisions.migrations.iter().map(|r| (r.time, r.from, r.to, r.cause)).collect();
        let nohz = moves.iter().find(|m| m.3 == MoveCause::NohzIdle).expect("a nohz idle balance move");
        let kick = k.iter().rev().find(|&&(t, _, _)| t <= nohz.0).expect("kicked before");
        assert_eq!(nohz.1, 8, "from the CPU with a task waiting: {moves:?} {k:?}");
        assert_ne!(kick.1, 8, "kicked by a CPU with nothing waiting: {moves:?} {k:?}");
    }
}
