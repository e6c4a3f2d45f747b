//! The wakeup path: `try_to_wake_up`, `select_task_rq` (wake_affine, `select_idle_sibling`),
//! `resched_curr`'s IPI or polling flag, and the events that deliver them (kernel/sched/core.c, fair.c).

use super::{Ev, Sim, TaskState};
use crate::engine::policy::{Arrival, Policy};
use crate::engine::time::Ns;
use crate::engine::trace::{InstantKind, Overhead};

impl Sim {
    /// select_task_rq: wake_affine, then select_idle_sibling.
    pub(super) fn select_core(&self, task: usize, waker: Option<usize>, sync: bool) -> usize {
        let prev = self.tasks[task].core;
        let cand = match waker {
            Some(w) if sync && self.nr_running(w) <= 1 => w,
            _ => prev,
        };
        if self.is_idle(cand) {
            return cand;
        }
        let dom = self.cores[cand].domain;
        if self.is_idle(prev) && self.cores[prev].domain == dom {
            return prev;
        }
        let n = self.cores.len();
        (1..n).map(|i| (cand + i) % n).find(|&x| self.cores[x].domain == dom && self.is_idle(x)).unwrap_or(cand)
    }

    /// try_to_wake_up from core `waker` (None: from a timer with no core context).
    pub(super) fn wake(&mut self, w: usize, waker: Option<usize>, sync: bool) {
        if !matches!(self.tasks[w].state, TaskState::Blocked | TaskState::Sleeping) {
            return;
        }
        let t = match waker {
            Some(c) => {
                self.overhead(c, Overhead::Wakeup, self.prof.ttwu);
                self.cursor(c)
            }
            None => self.now,
        };
        self.m.wakeups += 1;
        if self.tasks[w].state == TaskState::Sleeping {
            let k = self.tasks[w].core;
            self.sleeping[k] -= 1;
        }
        let tk = &mut self.tasks[w];
        tk.state = TaskState::Runnable;
        tk.woke_at = Some(t);
        tk.stats.wakeups += 1;
        let prev = tk.core;
        let target = self.select_core(w, waker, sync);
        if target != prev {
            self.m.migrations += 1;
            self.rec.instant(target, t, InstantKind::Migrate { from: prev as u16, task: w as u32 });
        }
        self.tasks[w].core = target;
        self.rec.instant(target, t, InstantKind::Wakeup { from: waker.unwrap_or(target) as u16, task: w as u32 });
        self.policy.enqueue(&mut self.se, target, w, Arrival::Wakeup { from: prev }, t);

        // ttwu_do_wakeup: rq->avg_idle tracks recent idle lengths.
        self.update_avg_idle(target, t);
        if Some(target) == waker {
            if let Some(curr) = self.cores[target].curr {
                if curr != w && self.policy.check_preempt_wakeup(&mut self.se, target, curr, w) {
                    self.cores[target].need_resched = true;
                }
            }
            return;
        }
        if self.cores[target].idle.is_some() {
            if !self.cores[target].kick_pending {
                self.cores[target].kick_pending = true;
                let ipi = self.wake_needs_ipi(target);
                self.kick(target, waker, ipi, t);
            }
        } else if let Some(curr) = self.cores[target].curr {
            if self.policy.check_preempt_wakeup(&mut self.se, target, curr, w) {
                self.cores[target].need_resched = true;
                if !self.cores[target].kick_pending {
                    self.cores[target].kick_pending = true;
                    self.kick(target, waker, true, t);
                }
            }
        }
    }

    /// Delivers a reschedule request to `target`: an IPI, or just the flag a polling core sees.
    pub(super) fn kick(&mut self, target: usize, from: Option<usize>, ipi: bool, t: Ns) {
        if ipi {
            self.m.ipis += 1;
            let at = match from {
                Some(c) => {
                    self.overhead(c, Overhead::Ipi, self.prof.ipi_send);
                    self.cursor(c)
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
            self.pick_loop(c);
            return;
        }
        if self.cores[c].curr.is_some() {
            self.interrupt(c);
            if ipi {
                self.overhead(c, Overhead::Ipi, self.prof.ipi_receive);
            }
            if self.cores[c].need_resched {
                self.preempt(c);
            } else {
                if let Some(n) = self.cores[c].curr {
                    self.arm_hrtick(c, n);
                }
                self.resume(c);
            }
        } else if !self.policy.queued(c).is_empty() {
            self.pick_loop(c);
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
            Some(_) if self.cores[k].need_resched => self.preempt(k),
            Some(n) => {
                self.arm_hrtick(k, n);
                self.resume(k)
            }
            None => {}
        }
    }
}
