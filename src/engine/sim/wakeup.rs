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

use super::{Ev, Sim, TaskState};
use crate::engine::explain::Delivery;
use crate::engine::policy::{Arrival, Policy};
use crate::engine::time::Ns;
use crate::engine::trace::{InstantKind, Overhead};

impl Sim {
    /// select_task_rq: wake_affine, then select_idle_sibling. A task allowed on one CPU only
    /// goes there (core.c select_task_rq: the class hook runs only if `nr_cpus_allowed > 1`).
    pub(super) fn select_core(&self, task: usize, waker: Option<usize>, sync: bool) -> usize {
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
    ) -> usize {
        if let Some(p) = self.tasks[task].pinned {
            note(p, "pinned", self.is_idle(p));
            return p;
        }
        let prev = self.tasks[task].core;
        let cand = match waker {
            Some(w) if sync && self.nr_running(w) <= 1 => w,
            _ => prev,
        };
        let cand_idle = self.is_idle(cand);
        note(cand, if cand == prev { "prev" } else { "waker" }, cand_idle);
        if cand_idle {
            return cand;
        }
        let dom = self.cores[cand].domain;
        if cand != prev && self.cores[prev].domain == dom {
            let prev_idle = self.is_idle(prev);
            note(prev, "prev", prev_idle);
            if prev_idle {
                return prev;
            }
        }
        let n = self.cores.len();
        (1..n)
            .map(|i| (cand + i) % n)
            .find(|&x| {
                self.cores[x].domain == dom && {
                    let idle = self.is_idle(x);
                    note(x, "scan", idle);
                    idle
                }
            })
            .unwrap_or(cand)
    }

    /// try_to_wake_up from core `waker` (None: from a timer with no core context).
    ///
    /// The waker's part happens at its cursor `t`: select the target, then either enqueue
    /// the task there itself (paying `ttwu`) or, with TTWU_QUEUE, put it on the target's
    /// wake list. What the target sees (the enqueue, the preemption check, the IPI) takes
    /// effect at `t` too: at once if the waker is not ahead of global time, else through a
    /// `TtwuRemote` event at `t`, so the target can never run the task before it was woken.
    pub(super) fn wake(&mut self, w: usize, waker: Option<usize>, sync: bool) {
        if !matches!(self.tasks[w].state, TaskState::Blocked | TaskState::Sleeping) {
            return;
        }
        let prev = self.tasks[w].core;
        // 6.12 DELAY_DEQUEUE: a task still on its runqueue (`p->on_rq`, `sched_delayed`) is
        // woken by `ttwu_runnable`, before `select_task_rq` and the wake list: it is requeued
        // where it is (`enqueue_task(ENQUEUE_DELAYED)`, core.c v6.12).
        let delayed = self.policy.delayed(w);
        let target = if delayed { prev } else { self.select_core(w, waker, sync) };
        let why = self.rec.explaining(self.now);
        if why {
            self.why_wake(w, waker, sync, target);
        }
        let queued = !delayed && waker.is_some_and(|c| c != target && self.ttwu_queues_to(c, target));
        let sys = waker.is_some_and(|c| self.in_task_context(c));
        let t = match waker {
            Some(c) => {
                if !queued {
                    // ttwu_do_activate under the target's rq lock, on the waker.
                    self.overhead(c, Overhead::Wakeup, self.prof.ttwu);
                }
                self.cursor(c)
            }
            None => self.now,
        };
        // A task whose core ran ahead may have blocked at a time after the waker's: until
        // then it was runnable (ttwu_state_match fails), so the wakeup that counts, and
        // its latency, start where it blocked (simplified: the waker is still the one that
        // ran at `t`, the enqueue is not moved).
        let t_woke = t.max(self.tasks[w].blocked_at);
        if why {
            self.why_wake_time(w, t_woke, if queued { 0 } else { self.prof.ttwu });
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
            self.rec.instant(target, t, InstantKind::Migrate { from: prev as u16, task: w as u32 });
        }
        self.tasks[w].core = target;
        let from = waker.unwrap_or(target) as u16;
        self.rec.instant(target, t_woke, InstantKind::Wakeup { from, task: w as u32 });
        match waker {
            Some(c) if c != target && t > self.now => {
                self.cores[target].arriving += 1;
                let ev = Ev::TtwuRemote { task: w as u32, from: c as u16, prev: prev as u16, queued, sys };
                self.q.push(t, ev);
            }
            _ => self.ttwu_remote(w, prev, target, waker, queued, t, sys),
        }
    }

    /// A remote wakeup whose waker ran ahead of global time reaches its target (at `t`).
    pub(super) fn on_ttwu_remote(&mut self, w: usize, from: usize, prev: usize, queued: bool, sys: bool) {
        let target = self.tasks[w].core;
        self.cores[target].arriving -= 1;
        let t = self.now;
        self.ttwu_remote(w, prev, target, Some(from), queued, t, sys);
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
                if self.rec.on() {
                    self.why_delivery(w, if ipi { Delivery::Ipi } else { Delivery::PollingFlag });
                }
                self.kick_from(target, waker, ipi, t, sys);
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
        self.policy.enqueue(&mut self.se, target, w, Arrival::Wakeup { from: prev }, t);
        self.tasks[w].queued_at = t;

        // ttwu_do_wakeup: rq->avg_idle tracks recent idle lengths.
        self.update_avg_idle(target, t);
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
            self.pick_loop(c);
            return;
        }
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
