//! The periodic tick and the hrtick: `scheduler_tick` -> `task_tick`, and `hrtick_start_fair`'s
//! hrtimer that ends a slice exactly (kernel/sched/core.c, fair.c).

use super::{Ev, Sim, BALANCE_EVERY, HRTICK_MIN};
use crate::engine::config::Policy as PolicyKind;
use crate::engine::policy::Policy;
use crate::engine::trace::{InstantKind, Overhead};

impl Sim {
    /// hrtick_start_fair: arm an hrtimer for the rest of `curr`'s slice when others wait
    /// (at pick time, and when a task is enqueued on this core while it is not armed).
    pub(super) fn arm_hrtick(&mut self, c: usize, n: usize) {
        if !self.hrtick || self.cfg.policy == PolicyKind::Sd || self.cores[c].hrtick_armed {
            return;
        }
        let Some(left) = self.policy.slice_left(&self.se, c, n) else { return };
        self.overhead(c, Overhead::Reprogram, self.prof.reprogram);
        self.m.timer_reprograms += 1;
        let at = self.cursor(c) + left.max(HRTICK_MIN);
        let core = &mut self.cores[c];
        core.hr_gen = core.hr_gen.wrapping_add(1);
        core.hrtick_armed = true;
        self.q.push(at, Ev::Hrtick { c: c as u16, gen: core.hr_gen });
    }

    pub(super) fn on_tick(&mut self, c: usize, gen: u32) {
        if gen != self.cores[c].tick_gen {
            return;
        }
        self.q.push_late(self.now + self.tick_period, Ev::Tick { c: c as u16, gen });
        self.m.ticks += 1;
        self.cores[c].ticks += 1;
        let balance = self.cores[c].ticks % BALANCE_EVERY == 0;
        if self.cores[c].idle.is_some() {
            // The tick wakes an idle core: exit, handle, maybe balance, idle again.
            self.leave_idle(c, false);
            let t = self.cursor(c);
            self.rec.instant(c, t, InstantKind::Tick);
            self.overhead(c, Overhead::Tick, self.prof.tick_handler);
            if balance {
                self.pull_one(c);
            }
            self.pick_loop(c);
            return;
        }
        let Some(curr) = self.interrupt(c) else {
            return;
        };
        let t = self.cursor(c);
        self.rec.instant(c, t, InstantKind::Tick);
        self.overhead(c, Overhead::Tick, self.prof.tick_handler);
        let t = self.cursor(c);
        let hr = self.cores[c].hrtick_armed && self.cfg.policy != PolicyKind::Sd;
        let resched = !hr && self.policy.task_tick(&mut self.se, c, curr, t);
        if balance {
            self.balance(c);
        }
        if resched || self.cores[c].need_resched {
            self.preempt(c);
        } else {
            self.resume(c);
        }
    }

    pub(super) fn on_hrtick(&mut self, c: usize, gen: u32) {
        if gen != self.cores[c].hr_gen || !self.cores[c].hrtick_armed {
            return;
        }
        self.cores[c].hrtick_armed = false;
        let Some(_) = self.interrupt(c) else { return };
        self.m.hrtick_fires += 1;
        let t = self.cursor(c);
        self.rec.instant(c, t, InstantKind::Hrtick);
        self.overhead(c, Overhead::Tick, self.prof.tick_handler);
        // hrtick expiry: task_tick(rq, curr, queued=1) reschedules at once.
        if !self.policy.queued(c).is_empty() || self.cores[c].need_resched {
            self.preempt(c);
        } else {
            self.resume(c);
        }
    }
}
