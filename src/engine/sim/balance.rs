//! Load balancing: idle balance (newly idle pull), the periodic balancer and the nohz idle
//! balancer's push to an idle core (kernel/sched/fair.c).

use super::{Sim, TaskState};
use crate::engine::policy::{Arrival, Policy};
use crate::engine::trace::InstantKind;

impl Sim {
    /// Moves one waiting task from the busiest core to `c`. True if one moved.
    pub(super) fn pull_one(&mut self, c: usize) -> bool {
        let busiest = (0..self.cores.len())
            .filter(|&b| b != c && !self.policy.queued(b).is_empty())
            .max_by_key(|&b| (self.nr_running(b), std::cmp::Reverse(b)));
        let Some(b) = busiest else { return false };
        if self.nr_running(b) < 2 {
            return false;
        }
        self.migrate_from(b, c)
    }

    pub(super) fn migrate_from(&mut self, from: usize, to: usize) -> bool {
        let t = self.cursor(to);
        // Not a task queued at a time still ahead of this core's (its core ran ahead), nor one
        // whose affinity excludes `to` (can_migrate_task: cpumask_test_cpu(dst_cpu, p->cpus_ptr)).
        let queued = self.policy.queued(from);
        // A sleeping task still queued (6.12 DELAY_DEQUEUE, `sched_delayed`) is not moved.
        let allowed =
            |k: usize| self.tasks[k].pinned.is_none_or(|p| p == to) && self.tasks[k].state == TaskState::Runnable;
        let Some(task) = queued.iter().rev().find(|&k| self.tasks[k].queued_at <= t && allowed(k)) else {
            return false;
        };
        self.pelt_dequeue(from, task, t, false, false);
        if !self.policy.dequeue(&mut self.se, from, task, t) {
            self.pelt_requeue_est(from, task);
            return false;
        }
        self.pelt_enqueue(to, task, t);
        self.policy.enqueue(&mut self.se, to, task, Arrival::Migrated { from }, t);
        self.tasks[task].core = to;
        self.tasks[task].queued_at = t;
        self.m.migrations += 1;
        self.rec.instant(to, t, InstantKind::Migrate { from: from as u16, task: task as u32 });
        true
    }

    /// Periodic balancing from a busy core: pull from the busiest, or push to a nohz-idle core.
    pub(super) fn balance(&mut self, c: usize) {
        let mine = self.nr_running(c);
        let busiest = (0..self.cores.len()).max_by_key(|&b| (self.nr_running(b), std::cmp::Reverse(b)));
        if let Some(b) = busiest {
            if b != c && self.nr_running(b) >= mine + 2 && self.migrate_from(b, c) {
                return;
            }
        }
        if mine >= 2 && !self.policy.queued(c).is_empty() {
            // nohz idle balance: an idle core takes one of our waiting tasks.
            let dom = self.cores[c].domain;
            let n = self.cores.len();
            let idle = (1..n)
                .map(|i| (c + i) % n)
                .filter(|&x| self.cores[x].idle.is_some() && !self.cores[x].kick_pending)
                .min_by_key(|&x| (self.cores[x].domain != dom, x));
            if let Some(x) = idle {
                if self.migrate_from(c, x) {
                    self.cores[x].kick_pending = true;
                    let t = self.cursor(c);
                    let ipi = self.wake_needs_ipi(x);
                    self.kick(x, Some(c), ipi, t);
                }
            }
        }
    }
}
