//! The idle path: entering idle, nohz stopping the tick, the governor's choice, and leaving
//! idle with the C-state exit and the tick restart (kernel/sched/idle.c, kernel/time/tick-sched.c).

use super::{Ev, IdleSpan, Sim, TaskState};
use crate::engine::idle::IdleRequest;
use crate::engine::time::Ns;
use crate::engine::trace::{Overhead, SpanKind};

impl Sim {
    // ------------------------------------------------------------ idle

    /// Next timer on core `c` after `t` (sleeping tasks' timers live on their last core).
    pub(super) fn next_task_timer(&self, c: usize, t: Ns) -> Ns {
        if self.sleeping[c] == 0 {
            return Ns::MAX;
        }
        self.tasks
            .iter()
            .filter(|k| k.state == TaskState::Sleeping && k.core == c)
            .map(|k| k.sleep_until.saturating_sub(t))
            .min()
            .unwrap_or(Ns::MAX)
    }

    /// The core has nothing to run. Returns true if idle balancing pulled a task to run.
    pub(super) fn go_idle(&mut self, c: usize) -> bool {
        if let Some(prev) = self.cores[c].last_task.take() {
            // Switching to the idle task is a context switch too.
            self.mark_cache(c, prev);
            self.m.context_switches += 1;
            self.overhead(c, Overhead::Switch, self.prof.ctx_switch);
            // idle_balance, unless this core idles too briefly to be worth it.
            if self.cores[c].avg_idle >= self.cfg.migration_cost && self.pull_one(c) {
                return true;
            }
        }
        let t = self.cursor(c);
        self.cores[c].idle_stamp = Some(t);
        if self.cfg.nohz && !self.cores[c].tick_stopped {
            let next = self.next_task_timer(c, t);
            let busy_recently = self.cfg.nohz_ratelimit && self.cores[c].avg_idle < self.cfg.migration_cost;
            if next > self.tick_period && !busy_recently {
                self.overhead(c, Overhead::Reprogram, self.prof.reprogram);
                self.m.timer_reprograms += 1;
                self.m.nohz_entries += 1;
                let core = &mut self.cores[c];
                core.tick_stopped = true;
                core.tick_gen = core.tick_gen.wrapping_add(1);
            }
        }
        let t = self.cursor(c);
        let next_timer = if self.cores[c].tick_stopped {
            self.next_task_timer(c, t)
        } else {
            self.tick_period - t % self.tick_period
        };
        let req = IdleRequest {
            states: &self.idle_states,
            next_timer,
            tick_period: self.tick_period,
            latency_limit: self.cfg.latency_limit,
        };
        let pos = self.cores[c].gov.select(&req).min(self.idle_states.len() - 1);
        self.m.idle_entries[pos] += 1;
        self.cores[c].idle = Some(IdleSpan { pos, since: t, entered: t, next_timer });
        false
    }

    /// Leaves idle at the cursor: exit latency, IPI handling, tick restart.
    pub(super) fn leave_idle(&mut self, c: usize, ipi: bool) {
        let Some(idle) = self.cores[c].idle.take() else { return };
        let t = self.avail_max(c, idle.since);
        let dur = t - idle.since;
        if dur > 0 {
            self.rec.span(c, idle.since, t, SpanKind::Idle { state: self.idle_states[idle.pos].index });
            self.m.idle_ns[idle.pos] += dur;
            self.cores[c].idle_ns += dur;
            self.overhead(c, Overhead::CStateExit, self.idle_states[idle.pos].exit_latency);
        }
        // cpuidle measures from idle entry until the CPU runs again, exit latency included.
        let measured = self.cursor(c) - idle.entered;
        self.cores[c].gov.reflect(&self.idle_states, idle.pos, measured, idle.next_timer);
        if ipi {
            self.overhead(c, Overhead::Ipi, self.prof.ipi_receive);
        }
        if self.cores[c].tick_stopped {
            for _ in 0..self.cfg.nohz_exit_reprograms {
                self.overhead(c, Overhead::Reprogram, self.prof.reprogram);
                self.m.timer_reprograms += 1;
            }
            let t = self.cursor(c);
            let core = &mut self.cores[c];
            core.tick_stopped = false;
            core.tick_gen = core.tick_gen.wrapping_add(1);
            let next = (t / self.tick_period + 1) * self.tick_period;
            self.q.push_late(next, Ev::Tick { c: c as u16, gen: core.tick_gen });
        }
    }

    pub(super) fn avail_max(&mut self, c: usize, at_least: Ns) -> Ns {
        let t = self.cursor(c).max(at_least);
        self.cores[c].avail = t;
        t
    }
}
