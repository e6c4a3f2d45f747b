//! The CPU's own time and `__schedule`: the cursor, overhead spans, charging and resuming
//! `curr`, the pick loop with its context switch and cache refill (kernel/sched/core.c).
//!
//! SYSTEM TIME. `time` reports the process's `utime`/`stime` as the kernel accounts them
//! without VIRT_CPU_ACCOUNTING (the default of every era modelled: 2.6.2x `account_process_tick`
//! in kernel/timer.c and kernel/sched.c; 3.x-6.x kernel/sched/cputime.c): each tick charges
//! its whole period to the task it interrupted, as user time if it interrupted user mode,
//! else through `account_system_time(p, HARDIRQ_OFFSET, ...)`, which adds to `p->stime`
//! whether the interrupted code was a syscall, a softirq or another interrupt handler
//! (the irq/softirq split goes to the CPU's `cpustat`, not to the task). A tick that finds
//! the idle task (`p == rq->idle`, not in a nested interrupt) charges `account_idle_time`.
//! From CFS (2.6.23) the sampled split is scaled to the task's exact `sum_exec_runtime`
//! (`task_stime`, later `cputime_adjust`); 2.6.21 reports the raw samples
//! (`Kernel::cputime`). IRQ_TIME_ACCOUNTING (2.6.37+, off by default on the seeds' kernels)
//! is not modelled. So the model counts as the task's sys, exactly rather than by tick
//! sampling (the sampling's expectation when ticks do not beat with the work; the sampled
//! eras' `time`, 2.6.21 raw and 3.11 scaled, is `sim/idle_path.rs::time_user_sys`), every kernel span
//! laid while a core holds a task's context:
//! - the context switch into or out of a task (`Switch`: every switch has a task on one side);
//! - the ttwu a task performs (`Wakeup`), the IPIs it sends (`Ipi`), the hrtick it arms
//!   (`Reprogram`), and the tick, hrtick, timer and IPI handlers that interrupt it;
//! - with TTWU_QUEUE, the enqueue a busy target does in its IPI handler for a task queued to it.
//!
//! Not the task's: what a core spends in the idle task: the C-state exit, the IPI handler
//! and the tick handler when they wake an idle core, the enqueue work of a wake list
//! flushed there, and the nohz entry and exit reprograms (`tick_nohz_idle_enter`/`_exit`
//! run in the idle loop, kernel/sched/idle.c or kernel/cpu/idle.c in 3.10/3.11). A core holds
//! a task's context while it has a `curr` or still holds the last task's (`last_task`,
//! between `__schedule`'s start and the switch). The cache refill after a switch is the
//! task's user time (it is the task's own loads missing). A waker that ran ahead of global
//! time pays the IPI it sent then in the context it had then (`charge_at`).
//!
//! PREEMPTION MODEL (`preempt=`, `Kernel::preempt_default`). A reschedule request that
//! reaches a core from outside its task's own steps (a reschedule IPI, the tick, the hrtick,
//! a timer interrupt) takes `curr` off the CPU at once only if `curr` runs user code or the
//! model is `full` (CONFIG_PREEMPT: `preempt_schedule_irq` on the interrupt's return to
//! kernel code). Under `none` and `voluntary` a kernel-mode burst (`Step::Run { sys }`: a
//! syscall's work) runs on with `need_resched` set, and `continue_task` preempts it where
//! the burst ends: the return to user space (`exit_to_user_mode_loop`), where every model
//! preempts. `voluntary` adds `_cond_resched()` to each `might_sleep()`; in the modelled
//! syscall paths those points (the `mutex_lock` of `pipe_read`/`pipe_write`, the socket
//! lock) are at a syscall's start, which is a step boundary here, and no point inside a
//! burst is modelled: `voluntary` runs as `none`. The overhead spans (switch, ttwu, IPI
//! handlers) are kernel work too; a request arriving during them is handled after them
//! in every model, as before.
//!
//! SMT. Two hardware threads of one core share its execution resources: while a CPU's
//! sibling is busy (anything but idle) its bursts run at `smt_yield_permille / 2` of a lone
//! thread's speed (the profile's cited SMT throughput gain, shared evenly), and when the
//! sibling goes idle or leaves idle the running burst is charged up to the cursor at the
//! old speed and continues at the new one (`smt_changed`). A burst's stall (`Fx::stall`:
//! a pipe op's cache lines in flight from another core, its spin on `pipe->mutex`) runs
//! first and at a lone thread's speed: a thread waiting on a miss leaves the pipeline to
//! its sibling ("IA-32 Intel Architecture Optimization Reference Manual", Hyper-Threading
//! pipeline: "the other logical processor has full use of every cycle of the pipeline
//! stage. Reasons why a logical processor may not use a pipeline stage include cache
//! misses"), and the miss takes the interconnect's time, not the core's. Simplified:
//! overhead spans (switch, IPI, exit latency) keep their figures whatever the sibling
//! does; a polling idle loop counts as idle; the shared resources are one figure per CPU
//! family, not per instruction mix; the stall is taken to come first in its burst.

use super::Ev;
use super::{oh_index, Sim, TaskState};
use crate::engine::metrics::StopReason;
use crate::engine::policy::Policy;
use crate::engine::time::{mul_div, Ns, US};
use crate::engine::trace::{Overhead, SpanKind};
use crate::engine::workload::{Step, Workload};

impl Sim {
    // ------------------------------------------------------------ core time

    /// The core's cursor: now, or later if it is still paying overheads.
    pub(super) fn cursor(&mut self, c: usize) -> Ns {
        let core = &mut self.cores[c];
        let mut t = core.avail.max(self.now);
        if core.running {
            t = t.max(core.since);
        }
        if let Some(i) = core.idle {
            t = t.max(i.since);
        }
        core.avail = t;
        t
    }

    /// Lays an overhead of `d` ns at the core's cursor, accounted to the context the core
    /// is in (module doc: SYSTEM TIME).
    pub(super) fn overhead(&mut self, c: usize, kind: Overhead, d: Ns) {
        let sys = match kind {
            Overhead::Switch => true,
            Overhead::Refill | Overhead::CStateExit => false,
            _ => self.in_task_context(c),
        };
        self.overhead_as(c, kind, d, sys);
    }

    /// Whether core `c` is running kernel code in a task's context (else the idle task's).
    pub(super) fn in_task_context(&self, c: usize) -> bool {
        let core = &self.cores[c];
        core.idle.is_none() && (core.curr.is_some() || core.last_task.is_some())
    }

    /// `overhead`, with the account (the task's sys time or not) given.
    pub(super) fn overhead_as(&mut self, c: usize, kind: Overhead, d: Ns, sys: bool) {
        if d == 0 {
            return;
        }
        let t = self.cursor(c);
        self.rec.span(c, t, t + d, SpanKind::Overhead { kind });
        self.m.overhead[oh_index(kind)] += d;
        if sys {
            self.m.sys_ns += d;
        }
        let core = &mut self.cores[c];
        core.overhead_ns += d;
        core.avail = t + d;
    }

    /// Charges core `c` an overhead it incurred at its time `t`, in the context it had then
    /// (`sys`). At its cursor if it is still there; else (a waker that ran ahead of global
    /// time, whose remote wakeup is handled now) where its timeline can take it: before the
    /// burst it has started, before the idle it has entered, or after the overheads it is
    /// paying. The same CPU time, displaced by what the core did after `t` (simplified).
    pub(super) fn charge_at(&mut self, c: usize, kind: Overhead, d: Ns, t: Ns, sys: bool) {
        if d == 0 {
            return;
        }
        debug_assert!(t <= self.cursor(c), "a core's cursor never goes back");
        if let Some(mut i) = self.cores[c].idle {
            // Idle since: what it idled before the cursor stays idle; the idle restarts after.
            let at = self.cursor(c);
            if at > i.since {
                self.rec.span(c, i.since, at, SpanKind::Idle { state: self.idle_states[i.pos].index });
                self.m.idle_ns[i.pos] += at - i.since;
                self.cores[c].idle_ns += at - i.since;
            }
            self.overhead_as(c, kind, d, sys);
            i.since = self.cores[c].avail;
            self.cores[c].idle = Some(i);
        } else if self.cores[c].running {
            // Its next burst has started: the charge goes before it.
            self.interrupt(c);
            self.overhead_as(c, kind, d, sys);
            self.resume(c);
        } else {
            self.overhead_as(c, kind, d, sys);
        }
    }

    /// Charges the running task up to the cursor and stops its burst clock.
    pub(super) fn interrupt(&mut self, c: usize) -> Option<usize> {
        let task = self.cores[c].curr?;
        if !self.cores[c].running {
            return Some(task);
        }
        let t = self.cursor(c);
        let since = self.cores[c].since;
        let ran = t - since;
        self.cores[c].running = false;
        self.cores[c].run_gen = self.cores[c].run_gen.wrapping_add(1);
        if ran > 0 {
            let rate = self.cores[c].rate;
            let tk = &mut self.tasks[task];
            // SMT: the stall first, at full speed; then `ran` ns at `rate` permille did
            // ran * rate / 1000 of the burst's work (rounded up, so a burst that ran to
            // its end is done).
            let stalled = ran.min(tk.burst_stall);
            tk.burst_stall -= stalled;
            let worked = ran - stalled;
            let done = stalled + if rate >= 1000 { worked } else { (worked * rate).div_ceil(1000) };
            tk.burst_left -= done.min(tk.burst_left);
            tk.burst_ns += ran;
            if tk.burst_sys {
                self.m.sys_ns += ran;
            } else {
                self.m.user_ns += ran;
            }
            self.cores[c].run_ns += ran;
            let d = self.cores[c].domain;
            self.touched[d] += (tk.touch_per_us * ran / US).min(tk.ws);
            self.policy.update_curr(&mut self.se, c, task, ran);
            if self.policy.take_resched(c) {
                // update_curr -> update_deadline -> resched_curr (EEVDF).
                self.cores[c].need_resched = true;
            }
            self.rec.span(c, since, t, SpanKind::Run { task: task as u32, sys: tk.burst_sys });
        }
        Some(task)
    }

    /// `update_curr` on core `c` from outside its own events (a remote enqueue): charges a
    /// running `curr` up to the cursor and lets it run on. True if the charge asked to
    /// reschedule it (EEVDF `update_deadline`); the flag is then set (`interrupt`).
    pub(super) fn update_curr(&mut self, c: usize) -> bool {
        if !self.cores[c].running {
            return false;
        }
        let before = self.cores[c].need_resched;
        self.interrupt(c);
        self.resume(c);
        !before && self.cores[c].need_resched
    }

    /// Lets `curr` continue its burst from the cursor.
    pub(super) fn resume(&mut self, c: usize) {
        let Some(task) = self.cores[c].curr else { return };
        let t = self.cursor(c);
        let rate = self.smt_rate_of(c);
        let core = &mut self.cores[c];
        core.running = true;
        core.since = t;
        core.rate = rate;
        core.run_gen = core.run_gen.wrapping_add(1);
        let gen = core.run_gen;
        let (left, stall) = (self.tasks[task].burst_left, self.tasks[task].burst_stall);
        let work = left - stall;
        let d = stall + if rate >= 1000 { work } else { (work * 1000).div_ceil(rate) };
        self.q.push(t + d, Ev::BurstEnd { c: c as u16, gen });
    }

    /// SMT: the speed, permille of a lone thread's, at which CPU `c` runs now: the
    /// profile's yield shared by two threads while its sibling is busy (not idle), else
    /// full speed (module doc: SMT).
    pub(super) fn smt_rate_of(&self, c: usize) -> u64 {
        match self.cores[c].sibling {
            Some(s) if self.cores[s as usize].idle.is_none() => self.smt_rate,
            _ => 1000,
        }
    }

    /// CPU `c` went idle or left idle: its sibling's running burst continues at the new
    /// speed from the sibling's cursor (charged so far at the old one).
    pub(super) fn smt_changed(&mut self, c: usize) {
        let Some(s) = self.cores[c].sibling.map(usize::from) else { return };
        if self.cores[s].running && self.cores[s].rate != self.smt_rate_of(s) {
            self.interrupt(s);
            self.resume(s);
        }
    }

    /// The task leaves the CPU: remember what it left in the cache.
    pub(super) fn mark_cache(&mut self, c: usize, task: usize) {
        let d = self.cores[c].domain;
        let tk = &mut self.tasks[task];
        if tk.cache_domain.is_some() || tk.burst_ns > 0 {
            tk.cache_domain = Some(d);
            tk.cache_mark = self.touched[d];
        }
    }

    pub(super) fn refill_cost(&self, c: usize, task: usize) -> Ns {
        let tk = &self.tasks[task];
        let d = self.cores[c].domain;
        let evicted = match tk.cache_domain {
            None => 0,
            Some(x) if x != d => tk.ws,
            Some(_) => {
                // ws * T / (T + llc), exact; u64 arithmetic unless T + llc overflows it.
                let t = self.touched[d] - tk.cache_mark;
                match t.checked_add(self.llc_bytes) {
                    Some(den) => mul_div(tk.ws, t, den) as u64,
                    None => (tk.ws as u128 * t as u128 / (t as u128 + self.llc_bytes as u128)) as u64,
                }
            }
        };
        evicted * US / self.prof.refill_bytes_per_us.max(1)
    }

    // ------------------------------------------------------------ scheduling

    /// Whether `curr` on core `c` (interrupted) may be preempted now (module doc:
    /// PREEMPTION MODEL): always under `full`, else unless it is inside a kernel-mode burst.
    fn preemptible(&self, c: usize) -> bool {
        self.preempt_full
            || self.cores[c].curr.is_none_or(|t| !(self.tasks[t].burst_sys && self.tasks[t].burst_left > 0))
    }

    /// A reschedule request on core `c`, whose `curr` was interrupted: preempt it now if
    /// the preemption model allows, else let it run on with `need_resched` set.
    pub(super) fn preempt_or_defer(&mut self, c: usize) {
        if self.preemptible(c) {
            self.preempt(c);
        } else {
            self.cores[c].need_resched = true;
            self.resume(c);
        }
    }

    /// Preempts `curr` (if any) and picks again.
    pub(super) fn preempt(&mut self, c: usize) {
        if let Some(task) = self.interrupt(c) {
            self.requeue_curr(c, task);
        }
        self.pick_loop(c);
    }

    /// The core lets go of `curr`: no task, and its hrtick (if armed) is cancelled.
    pub(super) fn release_curr(&mut self, c: usize) {
        let t = self.cursor(c);
        self.pelt_sync(c, t);
        if let Some(n) = self.cores[c].curr {
            self.tasks[n].ran_at = t;
        }
        self.cancel_hrtick(c);
        self.cores[c].curr = None;
    }

    /// A preempted, still runnable `curr` goes back to the runqueue.
    pub(super) fn requeue_curr(&mut self, c: usize, task: usize) {
        self.m.preemptions += 1;
        self.preempted_on[c] += 1;
        self.release_curr(c);
        let t = self.cursor(c);
        self.tasks[task].queued_at = t;
        self.policy.put_prev(&mut self.se, c, task, t);
        self.qsync(c);
    }

    /// Picks tasks until one runs, or goes idle.
    pub(super) fn pick_loop(&mut self, c: usize) {
        self.cores[c].need_resched = false;
        for _ in 0..10_000 {
            let t = self.cursor(c);
            // A bool, not the record: a record held here (Strings, a Vec) would give this loop
            // drop glue on every exit, paid by untraced runs too (`sim::why`).
            let why = self.rec.explaining(t);
            if why {
                self.why_pick_before(c, t);
            }
            let picked = self.policy.pick_next(&mut self.se, c, t);
            self.qsync(c);
            let Some(n) = picked else {
                if self.go_idle(c) {
                    continue;
                }
                return;
            };
            if why {
                self.why_pick_after(n);
            }
            // set_next_entity: update_load_avg before it becomes curr.
            self.pelt_sync(c, t);
            self.pelt_task(n, t);
            self.cores[c].curr = Some(n);
            self.tasks[n].core = c;
            // The switch's moment: `trace_sched_switch`, where a wakeup's latency ends.
            let switched = self.cursor(c);
            if self.cores[c].last_task != Some(n) {
                if let Some(prev) = self.cores[c].last_task {
                    self.mark_cache(c, prev);
                }
                self.count_switch(c, switched, Some(n));
                self.switch_in_clock(c, n);
                self.overhead(c, Overhead::Switch, self.prof.ctx_switch);
                let refill = self.refill_cost(c, n);
                if refill > 0 {
                    self.overhead(c, Overhead::Refill, refill);
                    self.tasks[n].stats.refill_ns += refill;
                    self.m.user_ns += refill;
                }
                self.cores[c].last_task = Some(n);
            }
            if let Some(w) = self.tasks[n].woke_at.take() {
                // A remote wakeup takes effect at the waker's time (`wakeup::wake`), so a
                // task never starts before it was woken; a clamp would be a bug (counted).
                // The latency ends at the switch, as `sched_wakeup` -> `sched_switch` in a
                // trace (the switch's cost and the refill are the task's on-CPU time).
                let at = switched;
                if at < w {
                    self.latency_clamps += 1;
                }
                self.count_late(c, at, super::Late::Latency { ns: at.saturating_sub(w) });
                if let Some(log) = &mut self.lat_log {
                    log.push(super::LatencySample { woke: w, ran: at, task: n as u32, core: c as u16 });
                }
                if self.rec.on() {
                    self.why_ran(n, c, at);
                }
            }
            let queued_at = self.tasks[n].queued_at;
            if self.cursor(c) > queued_at + crate::engine::explain::WASTE_THRESHOLD {
                let at = self.cursor(c);
                self.note_waste(c, n, queued_at, at);
            }
            self.cores[c].hrtick_armed = false;
            self.arm_hrtick(c, n);
            if self.continue_task(c, n) {
                return;
            }
        }
        // Unreachable in practice: each iteration retires a task or runs one.
        self.go_idle(c);
    }

    /// `curr` needs its next step (or continues its burst). True if it is now running.
    pub(super) fn continue_task(&mut self, c: usize, n: usize) -> bool {
        loop {
            if self.tasks[n].burst_left > 0 {
                self.resume(c);
                return true;
            }
            let t = self.cursor(c);
            self.fx.cpu = c;
            let step = self.wl.next(n, t, &mut self.fx);
            if self.stop.is_none() && self.wl.done() {
                self.stop = Some((StopReason::Completed, t));
            }
            if std::mem::take(&mut self.fx.exec) {
                self.tasks[n].cache_domain = None;
            }
            let stall = std::mem::take(&mut self.fx.stall);
            // `wake` never touches `fx`: walk the list in place and keep its capacity.
            let woke_any = !self.fx.wakes.is_empty();
            for i in 0..self.fx.wakes.len() {
                let (w, sync) = self.fx.wakes[i];
                self.wake(w, Some(c), sync);
            }
            self.fx.wakes.clear();
            match step {
                Step::Run { ns, sys } => {
                    let tk = &mut self.tasks[n];
                    tk.burst_left = ns.max(1);
                    tk.burst_stall = stall.min(tk.burst_left);
                    tk.burst_sys = sys;
                    if self.cores[c].need_resched {
                        // A wakeup this step caused preempts us before the next burst.
                        self.cores[c].need_resched = false;
                        self.requeue_curr(c, n);
                        return false;
                    }
                    if woke_any {
                        self.arm_hrtick(c, n);
                    }
                }
                Step::Block | Step::SleepUntil(_) | Step::Exit => {
                    let t = self.cursor(c);
                    let sleep = matches!(step, Step::Block | Step::SleepUntil(_));
                    self.pelt_dequeue(c, n, t, sleep, !sleep);
                    if matches!(step, Step::Exit) {
                        self.policy.dequeue_curr(&mut self.se, c, n, t);
                    } else {
                        // dequeue_task(DEQUEUE_SLEEP): 6.12 DELAY_DEQUEUE may keep it queued.
                        self.policy.block_curr(&mut self.se, c, n, t);
                    }
                    self.qsync(c);
                    self.release_curr(c);
                    self.cores[c].need_resched = false;
                    let tk = &mut self.tasks[n];
                    tk.blocked_at = t;
                    match step {
                        Step::Block => tk.state = TaskState::Blocked,
                        Step::SleepUntil(at) => {
                            tk.state = TaskState::Sleeping;
                            tk.timer_gen = tk.timer_gen.wrapping_add(1);
                            tk.sleep_until = at.max(t);
                            debug_assert_eq!(tk.core, c, "a task sleeps on the core it ran on");
                            self.sleeping[tk.core].insert((tk.sleep_until, n as u32));
                            self.q.push(at.max(t), Ev::Timer { task: n as u32, gen: tk.timer_gen });
                        }
                        _ => tk.state = TaskState::Exited,
                    }
                    return false;
                }
            }
        }
    }

    /// `idle_cpu`: nothing running, nothing queued, no wakeup arriving or on the wake list.
    pub(super) fn is_idle(&self, c: usize) -> bool {
        let core = &self.cores[c];
        core.curr.is_none() && self.policy.queued(c).is_empty() && core.arriving == 0 && core.wake_list.is_empty()
    }

    /// `rq->nr_running`, counting a direct remote wakeup on its way (the waker enqueued it).
    pub(super) fn nr_running(&self, c: usize) -> usize {
        let core = &self.cores[c];
        self.policy.queued(c).len() + core.curr.is_some() as usize + core.arriving as usize
    }

    pub(super) fn on_burst_end(&mut self, c: usize, gen: u32) {
        if gen != self.cores[c].run_gen || !self.cores[c].running {
            return;
        }
        let Some(task) = self.interrupt(c) else { return };
        if !self.continue_task(c, task) {
            self.pick_loop(c);
        }
    }
}
