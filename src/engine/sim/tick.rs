//! The periodic tick and the hrtick: `scheduler_tick` -> `task_tick`, and `hrtick_start_fair`'s
//! hrtimer that ends a slice exactly (kernel/sched/core.c, fair.c, kernel/time/hrtimer.c).
//!
//! Arming (`arm_hrtick`): `hrtick_start_fair` (fair.c; 6.6 and 6.12 identical) arms only
//! when `hrtick_enabled_fair(rq)` (`sched_feat(HRTICK)`, cpu active, hres active: the
//! engine's HRTICK feature) and `rq->cfs.h_nr_running > 1` (the policy's `hrtick_delta`
//! is `None` otherwise); `delta = se->slice - ran`; `delta < 0` reschedules a current task
//! instead of arming (`resched_curr`: here the need-resched flag, noticed at once). It is
//! called from `pick_next_task_fair` (`done:` label, for the picked task) and from
//! `hrtick_update` at the end of `enqueue_task_fair`/`dequeue_task_fair` (for curr). The
//! 10 us floor is `hrtick_start`'s for every delay from 4.17 (core.c `max_t(s64, delay,
//! 10000LL)`); in 2.6.25-4.x `hrtick_start_fair` applied it only to a task not yet
//! current (`Kernel::hrtick_floor_always`). 3.11/4.17's `hrtick_update` also required
//! `nr_running < sched_nr_latency`; that test is not modelled here.
//!
//! Reprogramming (kernel/time/hrtimer.c, 6.6 and 6.12 identical; 3.11 alike): arming goes
//! through `hrtimer_start_range_ns`, which enqueues the timer and calls `hrtimer_reprogram`
//! only if it is the new first timer of its base, and `hrtimer_reprogram` returns without
//! touching the device `if (expires >= cpu_base->expires_next)`. So an arm reprograms the
//! clock event only when the hrtick becomes the core's earliest timer. Cancelling it
//! (`hrtick_clear` in `__schedule`, when the hrtick is still pending: `hrtimer_cancel` ->
//! `remove_hrtimer(restart = false)` -> `__remove_hrtimer(reprogram = 1)`) calls
//! `hrtimer_force_reprogram(cpu_base, 1)` if it was the CPU's `next_timer`: a reprogram
//! back to the next timer, unless that expires at the same time (`skip_equal`). The
//! timers the engine knows per core are the periodic tick (while it runs), the hrtick and
//! the timers of tasks sleeping on that core. The reprogram every hrtimer interrupt makes
//! on its way out (`hrtimer_interrupt` -> `tick_program_event`) is part of the handler's
//! cost, for the tick and the hrtick alike, and is not counted.
//!
//! Simplified: re-arming an hrtick that is already armed for the same curr
//! (`hrtick_update` on an enqueue) keeps the old expiry: the kernel's new expiry differs
//! only by time it does not account to the task (which the engine's overheads are), and
//! with an unchanged expiry it reprograms nothing. Whether the hrtick is the earliest is
//! judged against the other timers as they are at the cancel, not tracked as the device's
//! `next_timer`.

use super::{Ev, Sim, HRTICK_MIN};
use crate::engine::config::PolicyKind;
use crate::engine::policy::Policy;
use crate::engine::rng::{stream, SimRng};
use crate::engine::time::Ns;
use crate::engine::trace::{InstantKind, Overhead};

impl Sim {
    /// The earliest expiry, after `t`, of core `c`'s timers other than the hrtick: the
    /// periodic tick (ticks fall on multiples of the period while it runs), the timers
    /// of tasks sleeping on `c` and the softlockup watchdog's hrtimer.
    pub(super) fn next_other_timer(&self, c: usize, t: Ns) -> Ns {
        let tick = if self.cores[c].tick_stopped { Ns::MAX } else { (t / self.tick_period + 1) * self.tick_period };
        let sleeper = match self.next_timer(c, t) {
            Ns::MAX => Ns::MAX,
            d => t + d,
        };
        tick.min(sleeper)
    }

    /// One clock-event reprogram on core `c`.
    fn reprogram(&mut self, c: usize) {
        self.overhead(c, Overhead::Reprogram, self.prof.reprogram);
        self.m.timer_reprograms += 1;
    }

    /// hrtick_start_fair: arm an hrtimer for the rest of `curr`'s slice when others wait
    /// (at pick time, and when a task is enqueued on this core while it is not armed).
    pub(super) fn arm_hrtick(&mut self, c: usize, n: usize) {
        if !self.hrtick || self.cfg.policy == PolicyKind::Sd || self.cores[c].hrtick_armed {
            return;
        }
        let Some(delta) = self.policy.hrtick_delta(&self.se, c, n) else { return };
        if delta < 0 {
            // The slice is used up: resched_curr instead of an hrtick (only `curr` can have run).
            self.resched_local(c);
            return;
        }
        let newly_picked = self.se[n].sum_exec == self.se[n].prev_sum_exec;
        let delta = delta as Ns;
        let delta = if newly_picked || self.cfg.kernel.hrtick_floor_always() { delta.max(HRTICK_MIN) } else { delta };
        let t = self.cursor(c);
        if t + delta < self.next_other_timer(c, t) {
            self.reprogram(c);
        }
        let at = self.cursor(c) + delta;
        let core = &mut self.cores[c];
        core.hr_gen = core.hr_gen.wrapping_add(1);
        core.hrtick_armed = true;
        core.hr_expires = at;
        self.q.push(at, Ev::Hrtick { c: c as u16, gen: core.hr_gen });
    }

    /// hrtick_clear: a still pending hrtick is cancelled when `curr` leaves the CPU; the
    /// clock event is reprogrammed if it was the earliest timer.
    pub(super) fn cancel_hrtick(&mut self, c: usize) {
        if self.cores[c].hrtick_armed {
            let t = self.cursor(c);
            if self.cores[c].hr_expires < self.next_other_timer(c, t) {
                self.reprogram(c);
            }
        }
        let core = &mut self.cores[c];
        core.hr_gen = core.hr_gen.wrapping_add(1);
        core.hrtick_armed = false;
    }

    /// resched_curr on the local CPU: the flag, seen on the way out of the current handler.
    fn resched_local(&mut self, c: usize) {
        self.cores[c].need_resched = true;
        if !self.cores[c].kick_pending {
            self.cores[c].kick_pending = true;
            let t = self.cursor(c);
            self.q.push(t, Ev::Kick { c: c as u16, ipi: false });
        }
    }

    pub(super) fn on_tick(&mut self, c: usize, gen: u32) {
        if gen != self.cores[c].tick_gen {
            return;
        }
        self.q.push_late(self.now + self.tick_period, Ev::Tick { c: c as u16, gen });
        self.m.ticks += 1;
        self.cores[c].ticks += 1;
        self.cores[c].tick_clock = self.now;
        if self.menu_311 {
            // scheduler_tick -> update_cpu_load_active: cpu_load[0] = the rq's load now.
            self.cores[c].cpu_load0 = self.rq_weight(c);
        }
        if self.cfg.kernel.tick_sampled_time() {
            self.sample_tick(c);
        }
        if self.cores[c].idle.is_some() {
            // The tick wakes an idle core: exit, handle, maybe balance, idle again.
            self.leave_idle(c, false);
            let t = self.cursor(c);
            self.rec.instant(c, t, InstantKind::Tick);
            self.overhead(c, Overhead::Tick, self.prof.tick_handler);
            // trigger_load_balance: rebalance_domains when rq->next_balance is due.
            self.balance(c);
            self.pick_loop(c);
            return;
        }
        // entity_tick: update_curr first (an EEVDF deadline renewal reschedules from there,
        // hrtick armed or not), then the class's tick check, which the armed hrtick
        // suppresses (`!DOUBLE_TICK && hrtimer_active(&rq->hrtick_timer)`).
        let Some(curr) = self.interrupt(c) else {
            return;
        };
        let t = self.cursor(c);
        self.rec.instant(c, t, InstantKind::Tick);
        self.overhead(c, Overhead::Tick, self.prof.tick_handler);
        let t = self.cursor(c);
        // entity_tick: update_load_avg(cfs_rq, curr).
        self.pelt_sync(c, t);
        let hr = self.cores[c].hrtick_armed && self.cfg.policy != PolicyKind::Sd;
        let resched = !hr && self.policy.task_tick(&mut self.se, c, curr, t);
        self.balance(c);
        if resched || self.cores[c].need_resched {
            self.preempt_or_defer(c);
        } else {
            self.resume(c);
        }
    }

    /// Arms every CPU's softlockup watchdog hrtimer (`Kernel::watchdog_period`). The CPUs
    /// started theirs at boot, at times unrelated to the benchmark: each first expiry is
    /// drawn uniformly within one period from the config's seed (its own stream, so the
    /// workload's draws do not move). All share one period, so they expire in a fixed
    /// cyclic order: one event is pending at a time (`wd_order`), not one per core, which
    /// would sit in the event heap and slow every pop.
    pub(super) fn start_watchdogs(&mut self) {
        let Some(period) = self.cfg.kernel.watchdog_period() else { return };
        let mut rng = SimRng::new(self.cfg.seed, stream::WATCHDOG);
        for c in 0..self.cores.len() {
            self.cores[c].wd_next = rng.range(1, period);
        }
        let mut order: Vec<u16> = (0..self.cores.len() as u16).collect();
        order.sort_by_key(|&c| (self.cores[c as usize].wd_next, c));
        if let Some(&c) = order.first() {
            self.q.push(self.cores[c as usize].wd_next, Ev::Watchdog { c });
        }
        self.wd_order = order;
        self.wd_pos = 0;
    }

    /// `watchdog_timer_fn` (kernel/watchdog.c): the hrtimer interrupt re-arms itself one
    /// period on (`hrtimer_forward_now`) and kicks the softlockup detector. On an idle CPU
    /// it ends the idle period (exit latency, the governor learns of it, as for any timer);
    /// on a busy one it interrupts the task. Its cost is charged as `tick_handler` (an
    /// hrtimer interrupt with a short callback: an assumption, no measured figure).
    /// Simplified: the detector's kick (3.11: `wake_up_process` of the SCHED_FIFO
    /// `watchdog/N` kthread; 4.x+: `stop_one_cpu_nowait(softlockup_fn)` on the stopper
    /// thread) runs a kernel thread for a few microseconds every 4 s; that thread and its
    /// two switches are not modelled.
    pub(super) fn on_watchdog(&mut self, c: usize) {
        let Some(period) = self.cfg.kernel.watchdog_period() else { return };
        self.cores[c].wd_next = self.now + period;
        // The next core in expiry order; this one is now last, a period away.
        self.wd_pos = (self.wd_pos + 1) % self.wd_order.len();
        let n = self.wd_order[self.wd_pos];
        self.q.push(self.cores[n as usize].wd_next, Ev::Watchdog { c: n });
        if self.cores[c].idle.is_some() {
            self.leave_idle(c, false);
            self.overhead(c, Overhead::Tick, self.prof.tick_handler);
            self.pick_loop(c);
            return;
        }
        let running = self.interrupt(c);
        self.overhead(c, Overhead::Tick, self.prof.tick_handler);
        if running.is_some() {
            if self.cores[c].need_resched {
                self.preempt(c);
            } else {
                self.resume(c);
            }
        }
    }

    /// The rq's load: the weights of `curr` and the queued tasks (`rq->load.weight`).
    fn rq_weight(&self, c: usize) -> u64 {
        // The queue keeps its load as tasks come and go (`update_load_add` at enqueue).
        self.policy.queued(c).load() + self.cores[c].curr.map_or(0, |n| self.se[n].weight)
    }

    /// `account_process_tick` (3.11; 2.6.21's `update_process_times`; `Kernel::cputime`): the mode the tick interrupted
    /// on core `c`: kernel code in a task's context (an overhead span, a system burst) is a
    /// system sample, a user burst a user sample, and so is the cache refill after a switch
    /// (the task's own user-mode loads missing: `user_mode(regs)` at the interrupt, as
    /// the exact account has it, `Sim::overhead`); the idle task's ticks are idle time and
    /// do not enter a task's ratio.
    fn sample_tick(&mut self, c: usize) {
        let core = &self.cores[c];
        if core.idle.is_some() || core.curr.is_none() {
            return;
        }
        if core.avail > self.now {
            // The core is paying overheads it laid ahead: a cache refill is the task's
            // user mode missing its lines (user time), the rest kernel code.
            if core.refills.iter().any(|r| (r.0..r.1).contains(&self.now)) {
                self.m.tick_user += 1;
            } else if self.in_task_context(c) {
                self.m.tick_sys += 1;
            }
        } else if core.running {
            let task = core.curr.unwrap_or(0);
            if self.tasks[task].burst_sys {
                self.m.tick_sys += 1;
            } else {
                self.m.tick_user += 1;
            }
        }
    }

    pub(super) fn on_hrtick(&mut self, c: usize, gen: u32) {
        if gen != self.cores[c].hr_gen || !self.cores[c].hrtick_armed {
            return;
        }
        // The timer has fired: nothing left to cancel.
        self.cores[c].hrtick_armed = false;
        // hrtick() -> task_tick(rq, curr, 1) -> entity_tick: update_curr (the deadline is
        // renewed there), then `if (queued) resched_curr()`.
        let Some(_) = self.interrupt(c) else { return };
        self.m.hrtick_fires += 1;
        let t = self.cursor(c);
        self.rec.instant(c, t, InstantKind::Hrtick);
        self.overhead(c, Overhead::Tick, self.prof.tick_handler);
        if !self.policy.queued(c).is_empty() || self.cores[c].need_resched {
            self.preempt_or_defer(c);
        } else {
            self.resume(c);
        }
    }
}
