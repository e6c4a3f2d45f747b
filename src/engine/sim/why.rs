//! The simulator's side of `explain`: building decision records from the simulator's state.
//!
//! Called from one-line hooks in `wakeup.rs`, `schedule.rs` and `idle_path.rs`, each
//! guarded by `Recorder::explaining` or `Recorder::on`, so a run without a trace never
//! enters this file. Nothing here changes the simulation: it reads state and writes records
//! (the determinism tests' digests are the same with and without a trace). Also the
//! always-on, integer-only counters of the governor scoreboard and of wasted CPU time,
//! which are cheap (two comparisons per idle exit through `explain::Hindsight`, one per
//! pick) and not part of the digest. Every recording function is `#[cold]` and
//! `#[inline(never)]`, and no record is held in a hot function's locals (the pick record
//! waits in `Explainer::pending_pick`): an untraced run pays a branch per hook and nothing
//! else (BENCHMARKS.md, "Inspector off", instruction counts).

use super::wakeup::Affine;
use super::Sim;
use crate::engine::config::PolicyKind;
use crate::engine::explain::{
    self, Candidate, Class, Delivery, IdleRecord, MigrateRecord, MoveCause, PreemptCheck, WakeRecord, WasteRecord,
};
use crate::engine::kernel::CfsDesign;
use crate::engine::policy::Policy;
use crate::engine::time::Ns;

impl Sim {
    /// Opens the wake record of `task` (before the wakeup changes any state): the candidates
    /// `select_core` looks at, replayed through the same code with notes.
    #[cold]
    #[inline(never)]
    pub(super) fn why_wake(&mut self, task: usize, waker: Option<usize>, sync: bool, target: usize) {
        let mut cands: Vec<Candidate> = Vec::new();
        let (again, sis) = self.select_core_with(task, waker, sync, |cpu, role, idle| {
            cands.push(Candidate {
                cpu: cpu as u16,
                role: role.to_string(),
                idle,
                nr_running: self.nr_running(cpu) as u32,
            })
        });
        // A delayed task (6.12 DELAY_DEQUEUE) is woken where it is queued, not where
        // select_task_rq would send it (`sim::wakeup`, ttwu_runnable).
        debug_assert!(again == target || self.policy.delayed(task), "the replay picks what the wakeup picked");
        let prev = self.tasks[task].core;
        let affine = match (self.tasks[task].pinned, self.wake_affine(task, waker, sync).1) {
            (Some(_), _) => "not asked: the task may run on one CPU only".to_string(),
            (_, Affine::NotAsked) => match waker {
                None => "not asked: no waker CPU (a timer)".to_string(),
                Some(w) => format!("waker's CPU {w} is the task's previous CPU"),
            },
            (_, Affine::Legacy { pulled: true }) => {
                format!("affine: WF_SYNC and the waker runs alone on its CPU: start from the waker's CPU {}", waker.unwrap_or(prev))
            }
            (_, Affine::Legacy { pulled: false }) => format!("not affine (WF_SYNC with the waker alone, before 4.17): start from prev CPU {prev}"),
            (_, Affine::Wide { master, slave, factor }) => format!(
                "wake_wide: wakee flips {slave} and {master} (LLC size {factor}): many-to-many, start from prev CPU {prev}"
            ),
            (_, Affine::Off) => format!("wake_affine: no rule decided (WA_WEIGHT off): start from prev CPU {prev}"),
            (_, Affine::NoDomain) => format!("no SD_WAKE_AFFINE domain spans prev CPU {prev}: start there"),
            (_, Affine::Idle { cpu }) => format!("wake_affine_idle: start from CPU {cpu}"),
            (_, Affine::CurrentHeavier) => format!(
                "wake_affine_weight: WF_SYNC and the waker's load is above its CPU's: start from the waker's CPU {}",
                waker.unwrap_or(prev)
            ),
            (_, Affine::Weight { this_eff, prev_eff, pulled }) => format!(
                "wake_affine_weight: waker's side {this_eff} {} prev's {prev_eff}: start from {}",
                if pulled { "<" } else { ">=" },
                if pulled { format!("the waker's CPU {}", waker.unwrap_or(prev)) } else { format!("prev CPU {prev}") }
            ),
        };
        let last = cands.last().map(|c| (c.role.clone(), c.idle));
        // A limit of at least the LLC's size limits nothing: the scan covers the LLC.
        let llc = self.llc_cpus[self.cores[target].domain].len() as u32;
        let limit = sis.limit.filter(|&(nr, _)| nr.saturating_sub(1) < llc);
        let mut reason = match last {
            Some((role, _)) if role == "pinned" => format!("CPU {target}: the only CPU the task may run on"),
            Some((role, true)) if role == "recent" => {
                format!("CPU {target}: idle, the task's recent_used_cpu (select_idle_sibling tries it before the scan)")
            }
            Some((_, true)) => format!("CPU {target}: idle (select_idle_sibling takes the first idle CPU in the LLC)"),
            _ if limit.is_some() => {
                format!("CPU {target}: no idle CPU among those looked at, so the start CPU stays (select_idle_sibling)")
            }
            _ => format!("CPU {target}: no idle CPU in its LLC, so the start CPU stays (select_idle_sibling)"),
        };
        // The scan's limit (sim::wakeup, SIS): `nr`, of which `nr - 1` CPUs at most are looked at.
        match limit {
            Some((1, by)) => reason.push_str(&format!("; {by}: nr_idle_scan 0, the LLC is overloaded: no scan")),
            Some((nr, by)) => reason.push_str(&format!("; {by}: select_idle_cpu looks at {} CPUs at most", nr - 1)),
            None => {}
        }
        let r = WakeRecord {
            time: self.now,
            task: task as u32,
            waker: waker.map(|w| w as u16),
            prev: prev as u16,
            target: target as u16,
            sync,
            affine,
            candidates: cands,
            reason,
            delivery: None,
            preempt: None,
            ttwu_waker_ns: 0,
            ran_at: None,
            parts: Vec::new(),
        };
        self.rec.ex.open_wake(&mut self.rec.trace.decisions, r);
    }

    /// Why a wakeup moved `task` from `prev` to `target` (`explain::MigrateRecord`), from
    /// its wake record's candidates: the waker's CPU kept (`wake_affine`), an idle CPU found
    /// by `select_idle_sibling`, or the one CPU the task may run on.
    #[cold]
    #[inline(never)]
    pub(super) fn why_move_wake(&mut self, task: usize, prev: usize, target: usize, t: Ns) {
        let d = &mut self.rec.trace.decisions;
        let Some(r) = self.rec.ex.wake_of(d, task).filter(|r| r.target as usize == target) else { return };
        // The first CPU looked at is where select_task_rq started (prev or, wake_affine, the
        // waker's); the target is that CPU kept, or an idle one select_idle_sibling found.
        let cause = match r.candidates.first() {
            Some(c) if c.role == "pinned" => MoveCause::Affinity,
            Some(c) if c.role == "waker" && c.cpu as usize == target => MoveCause::WakeAffine,
            _ => MoveCause::SelectIdleSibling,
        };
        let mut figures = vec![("CPUs select_task_rq looked at".to_string(), r.candidates.len() as u64)];
        let mut seen = [None, None];
        for c in r.candidates.iter() {
            let k = if c.cpu as usize == prev {
                0
            } else if c.cpu as usize == target {
                1
            } else {
                continue;
            };
            if seen[k].replace(c.cpu).is_some() {
                continue; // its first look (prev or the waker's CPU), not the scan's wrap
            }
            figures.push((format!("CPU {} ({}) nr_running", c.cpu, c.role), c.nr_running as u64));
            figures.push((format!("CPU {} ({}) idle_cpu()", c.cpu, c.role), c.idle as u64));
        }
        let m = MigrateRecord {
            time: t,
            task: task as u32,
            from: prev as u16,
            to: target as u16,
            cause,
            domain: String::new(),
            figures,
            hot: String::new(),
        };
        d.migrations.push(m);
    }

    /// The wakeup's start (the waker's cursor after its ttwu work).
    #[cold]
    #[inline(never)]
    pub(super) fn why_wake_time(&mut self, task: usize, t: Ns, ttwu: Ns) {
        if let Some(r) = self.rec.ex.wake_of(&mut self.rec.trace.decisions, task) {
            r.time = t;
            r.ttwu_waker_ns = ttwu;
        }
    }

    /// How the target was told of `task`'s wakeup.
    #[cold]
    #[inline(never)]
    pub(super) fn why_delivery(&mut self, task: usize, d: Delivery) {
        if let Some(r) = self.rec.ex.wake_of(&mut self.rec.trace.decisions, task) {
            r.delivery.get_or_insert(d);
        }
    }

    /// `check_preempt_wakeup` of `woken` against `curr` on core `c`, recorded when tracing.
    /// `curr` already flagged (`need_resched`) is passed on: CFS returns before comparing.
    pub(super) fn preempt_check(&mut self, c: usize, curr: usize, woken: usize) -> bool {
        let resched = self.cores[c].need_resched;
        let p = self.policy.check_preempt_wakeup(&mut self.se, c, curr, woken, resched);
        if self.rec.on() {
            self.why_preempt(curr, woken, p, resched);
        }
        p
    }

    #[cold]
    #[inline(never)]
    fn why_preempt(&mut self, curr: usize, woken: usize, p: bool, resched: bool) {
        let lead = (self.se[curr].vruntime as i128 - self.se[woken].vruntime as i128) as i64;
        let held = resched && self.cfg.kernel.cfs_design() == CfsDesign::Modern;
        let rule = match self.cfg.policy {
            PolicyKind::Cfs if held => {
                "CFS check_preempt_wakeup: curr already has TIF_NEED_RESCHED, so no comparison".to_string()
            }
            PolicyKind::Eevdf => "EEVDF: preempt iff pick_eevdf (curr included) picks the woken task".to_string(),
            PolicyKind::Sd => "SD: the woken task's deadline is earlier than curr's".to_string(),
            PolicyKind::Cfs => format!(
                "CFS wakeup_preempt_entity: vruntime lead > wakeup_granularity {:.3} ms (scaled by weight{})",
                (self.cfg.wakeup_granularity * self.cfg.granularity_factor()) as f64 / 1e6,
                if self.cfg.wakeup_gran_scale { " and nr_running" } else { "" }
            ),
        };
        if let Some(r) = self.rec.ex.wake_of(&mut self.rec.trace.decisions, woken) {
            r.preempt = Some(PreemptCheck { curr: curr as u32, preempt: p, vruntime_lead_ns: lead, rule });
        }
    }

    /// The woken `task` runs on `c` at `at`: close its record with the latency split.
    #[cold]
    #[inline(never)]
    pub(super) fn why_ran(&mut self, task: usize, c: usize, at: Ns) {
        let ipi = (self.prof.ipi_send, self.prof.ipi_latency);
        let (d, spans) = (&mut self.rec.trace.decisions, &self.rec.trace.spans);
        self.rec.ex.close_wake(d, task, c, at, spans, ipi);
    }

    fn class(&self) -> Class {
        match self.cfg.policy {
            PolicyKind::Eevdf => Class::Eevdf,
            PolicyKind::Sd => Class::Sd,
            PolicyKind::Cfs if self.cfg.kernel.cfs_design() == CfsDesign::WaitRuntime => Class::Cfs2623,
            PolicyKind::Cfs => Class::Cfs,
        }
    }

    /// The runqueue `pick_next` is about to choose from on core `c`, held in the explainer
    /// until `why_pick_after` names the chosen task.
    #[cold]
    #[inline(never)]
    pub(super) fn why_pick_before(&mut self, c: usize, t: Ns) {
        let queue = self.policy.queued(c);
        self.rec.ex.pending_pick = if queue.is_empty() {
            None
        } else {
            let slice = (self.cfg.min_granularity * self.cfg.granularity_factor()).max(1);
            let queue = queue.to_vec();
            Some(explain::pick_record(self.class(), &self.se, &queue, slice, t, c, self.cores[c].last_task))
        };
    }

    #[cold]
    #[inline(never)]
    pub(super) fn why_pick_after(&mut self, chosen: usize) {
        if let Some(mut r) = self.rec.ex.pending_pick.take() {
            r.chosen = chosen as u32;
            if !r.queue.iter().any(|e| e.task == r.chosen) {
                // Further down than the excerpt (a buddy, or a pick against the rule): its
                // entry as the pick left it (pick_next changes no vruntime, deadline or weight).
                let slice = (self.cfg.min_granularity * self.cfg.granularity_factor()).max(1);
                r.queue.push(explain::rq_entry(self.class(), &self.se, chosen, r.avg_vruntime, slice));
            }
            self.rec.trace.decisions.picks.push(r);
        }
    }

    /// Opens the idle record of core `c` entering `pos` at `t`.
    #[cold]
    #[inline(never)]
    pub(super) fn why_idle_enter(&mut self, c: usize, pos: usize, next_timer: Ns, t: Ns) {
        let core = &self.cores[c];
        let governor_first = self.cfg.kernel.governor_decides_tick();
        let ratelimited = self.cfg.nohz_ratelimit && core.avg_idle < self.cfg.migration_cost && !core.tick_stopped;
        let gov = if self.idle_route == super::idle_path::IdleRoute::Cpuidle {
            explain::GovernorView { governor: format!("{:?}", core.gov.kind()).to_lowercase(), rows: core.gov.view() }
        } else {
            explain::GovernorView { governor: "none (idle= route, no cpuidle governor)".into(), rows: Vec::new() }
        };
        let delta_tick = if core.tick_stopped { Ns::MAX } else { self.tick_period - t % self.tick_period };
        let r = IdleRecord {
            time: t,
            core: c as u16,
            next_timer,
            delta_tick,
            chosen: self.idle_hw[pos].index,
            chosen_name: self.idle_names[pos].clone(),
            gov,
            tick_stopped: core.tick_stopped,
            tick_reason: explain::tick_reason(
                self.cfg.nohz,
                governor_first,
                core.gov.stop_tick(),
                ratelimited,
                core.tick_stopped,
            ),
            avg_idle: core.avg_idle,
            measured: None,
            best: None,
            best_name: None,
            verdict: None,
        };
        self.rec.ex.open_idle(&mut self.rec.trace.decisions, r);
    }

    /// The scoreboard's count for an idle on core `c` in `pos` that lasted `measured` ns
    /// (exit latency included, as cpuidle measures), and the record's close when tracing.
    pub(super) fn score_idle(&mut self, c: usize, pos: usize, measured: Ns) {
        let best = self.hindsight.best(pos, measured);
        let v = explain::verdict(pos, best);
        self.m.gov_score[v as usize] += 1;
        if pos != best {
            let exit = |p: usize| self.idle_hw[p].exit_latency;
            // Energy of an idle of `measured` ns in a state: the exit at active power.
            let energy = |p: usize| {
                let e = exit(p).min(measured);
                self.idle_mw[p] * (measured - e) + self.active_mw * e
            };
            self.m.gov_miss_latency_ns += exit(pos).saturating_sub(exit(best));
            self.m.gov_miss_energy_pj += energy(pos).saturating_sub(energy(best));
        }
        if self.rec.on() {
            self.why_idle_close(c, measured, best, v);
        }
    }

    #[cold]
    #[inline(never)]
    fn why_idle_close(&mut self, c: usize, measured: Ns, best: usize, v: explain::Verdict) {
        let name = self.idle_names[best].clone();
        let d = &mut self.rec.trace.decisions;
        self.rec.ex.close_idle(d, c, measured, (self.idle_hw[best].index, &name), v);
    }

    /// Task `n` waited on core `c` since `queued_at` and runs at `at`: the idle CPUs that
    /// stayed idle through the part of the wait past the threshold were wasted. Each wait
    /// counts the one CPU idle longest (simplified: a CPU that idled in the middle of the
    /// wait but is busy at its end is not seen).
    #[inline(never)]
    pub(super) fn note_waste(&mut self, c: usize, n: usize, queued_at: Ns, at: Ns) {
        if self.tasks[n].pinned.is_some() {
            return;
        }
        // No other CPU idles (the usual case on a loaded machine): nothing to scan. The
        // scan over every CPU below ran at each such pick (issue 27: a cost per event that
        // grew with the CPUs). The balancer's idle counter of `c`'s top domain (`isync`)
        // counts them when that domain spans every CPU.
        if let Some(&top) = self.lb.doms.of[c].last() {
            if self.lb.doms.all[top].span.len() == self.cores.len()
                && self.lb.idle[top] <= u32::from(self.cores[c].idle.is_some())
            {
                return;
            }
        }
        let from = queued_at + explain::WASTE_THRESHOLD;
        let Some((x, since)) = (0..self.cores.len())
            .filter(|&x| x != c)
            .filter_map(|x| self.cores[x].idle.map(|i| (x, i.entered)))
            .min_by_key(|&(x, since)| (since, x))
        else {
            return;
        };
        let start = from.max(since);
        if start >= at {
            return;
        }
        self.m.wasted_ns += at - start;
        if self.rec.explaining(at) {
            let placed = self.rec.trace.decisions.wakeups.iter().rev().find(|r| r.task == n as u32);
            let cause = match placed {
                Some(r) if r.target as usize == c && r.time <= queued_at + 1 => format!(
                    "the wakeup at {:.3} us placed it on busy CPU {c} ({}); no balance pulled it since",
                    r.time as f64 / 1e3,
                    r.reason
                ),
                _ => format!(
                    "it waited behind the task running on CPU {c}; idle balancing on CPU {x} did not run or found no \
                     imbalance (idle_balance needs avg_idle >= migration_cost, the periodic balancer an imbalance of 2)"
                ),
            };
            self.rec.trace.decisions.wasted.push(WasteRecord {
                start,
                end: at,
                idle_cpu: x as u16,
                busy_cpu: c as u16,
                task: n as u32,
                cause,
            });
        }
    }
}
