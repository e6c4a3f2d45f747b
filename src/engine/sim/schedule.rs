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
//!
//! SWITCH_MM (`LoadedMm`). `context_switch` (kernel/sched/core.c; read in its 2.6.2x/3.x
//! form and its 5.x/6.x form with `membarrier_switch_mm`) gives a task without an mm (the
//! idle task, kernel threads) the previous task's `active_mm` (`enter_lazy_tlb`: nothing is
//! loaded), and for a task with one calls `switch_mm(prev->active_mm, next->mm)`
//! (`switch_mm_irqs_off` from 4.x). On x86 that loads CR3 only when the mm changes:
//! 2.6.2x/3.x `switch_mm` (arch/x86/include/asm/mmu_context.h) `if (likely(prev != next))
//! { ... load_cr3(next->pgd); }`, 4.14+ `switch_mm_irqs_off` (arch/x86/mm/tlb.c) returns
//! early when `real_prev == next` ("we are just switching from one thread in a process to
//! another thread in the same process. No TLB flush ... is required"; from lazy mode it
//! checks `tlb_gen` first). So a switch between threads of one process, and idle -> the
//! task whose mm the idle task borrowed, keep the TLB: they pay `Profile::switch_common`; a
//! switch to another mm pays `Profile::switch_mm` on top (the TLB's refill, sourced in
//! profile.rs). From 4.14 on a CPU with PCID, `choose_new_asid` keeps the TLB entries of
//! the last TLB_NR_DYN_ASIDS (6) mms per CPU (read in 4.14's and, through a patch against
//! it, 6.6.61's tlb.c): an mm still in a slot reloads CR3 without a flush and pays no
//! refill; a new one takes the next slot round robin (`next_asid`, from 1, wrapping to 0)
//! and is flushed (`Kernel::x86_pcid_asids`, `TlbTags`). arm64 tags every era with ASIDs
//! (arch/arm64/mm/context.c): no refill is charged there. Before 4.14 intel_idle calls
//! `leave_mm` before a state flagged CPUIDLE_FLAG_TLB_FLUSHED (Nehalem/Westmere's C3 and
//! C6), so the task that comes back reloads CR3 and refills (`Kernel::idle_leaves_mm`,
//! `sim::idle_path::go_idle`). An exec (`Fx::exec`) gives its task a fresh mm, loaded in
//! exec's own time. SIMPLIFIED: the CR3 write has no figure and is left in the common
//! part; no TLB shootdown is modelled, so a lazy CPU never has to flush on its way back
//! (x86's `was_lazy` check, 3.x's `leave_mm` from a flush IPI) and slots never go stale by
//! `tlb_gen`; acpi_idle's deep states drop nothing; KPTI is not modelled; arm64's first
//! run of an mm on a CPU is not charged a refill.

use super::Ev;
use super::{oh_index, Sim, TaskState};
use crate::engine::metrics::StopReason;
use crate::engine::policy::Policy;
use crate::engine::profile::TlbTags;
use crate::engine::time::{mul_div, Ns, US};
use crate::engine::trace::{Overhead, SpanKind};
use crate::engine::workload::{Step, Workload};

/// TLB_NR_DYN_ASIDS (arch/x86/include/asm/tlbflush.h, 4.14 to 6.x).
const DYN_ASIDS: usize = 6;

/// How the TLB keeps other mms' entries in a run: the profile's tags in the config's era.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tagging {
    /// Every switch to another mm refills the TLB.
    None,
    /// x86 PCID slots, `DYN_ASIDS` per CPU.
    Pcid,
    /// arm64 ASIDs: entries kept.
    Asid,
}

impl Tagging {
    pub(super) fn of(tags: TlbTags, x86_pcid_asids: bool) -> Self {
        match tags {
            TlbTags::Untagged => Tagging::None,
            TlbTags::Pcid if x86_pcid_asids => Tagging::Pcid,
            TlbTags::Pcid => Tagging::None,
            TlbTags::Asid => Tagging::Asid,
        }
    }
}

/// What a CPU's MMU holds (module doc, SWITCH_MM): the loaded mm and, with PCID, the mms
/// its TLB slots tag (`cpu_tlbstate.loaded_mm`, `.ctxs[]`, `.next_asid`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LoadedMm {
    /// `active_mm` of the last task switched in: kept while the idle task borrows it.
    active: Option<u32>,
    /// The mm each dynamic ASID slot tags (PCID eras).
    asids: [Option<u32>; DYN_ASIDS],
    /// `cpu_tlbstate.next_asid`: 1 at boot (slot 0 is the boot mm's).
    next_asid: usize,
}

impl LoadedMm {
    pub(super) const fn new() -> Self {
        LoadedMm { active: None, asids: [None; DYN_ASIDS], next_asid: 1 }
    }

    /// `leave_mm`: the CPU loads the kernel's own page tables and drops the borrowed mm.
    pub(super) fn leave(&mut self) {
        self.active = None;
    }

    /// `context_switch` to a task of mm `next` (`switch_mm`): true when it pays the TLB
    /// refill. A switch to the idle task does not come here (it borrows `active`).
    pub(super) fn switch_to(&mut self, next: u32, tagging: Tagging) -> bool {
        if self.active.replace(next) == Some(next) {
            return false;
        }
        match tagging {
            Tagging::None => true,
            Tagging::Asid => false,
            Tagging::Pcid => {
                // choose_new_asid: a slot that tags `next` keeps its entries.
                if self.asids.contains(&Some(next)) {
                    return false;
                }
                let mut asid = self.next_asid;
                self.next_asid += 1;
                if asid >= DYN_ASIDS {
                    asid = 0;
                    self.next_asid = 1;
                }
                self.asids[asid] = Some(next);
                true
            }
        }
    }
}

impl Sim {
    /// The TLB's tagging in this run (`Tagging::of`).
    pub(super) fn tagging(&self) -> Tagging {
        Tagging::of(self.prof.tlb, self.cfg.kernel.x86_pcid_asids())
    }

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
                let tagging = self.tagging();
                let refills = self.cores[c].mm.switch_to(self.tasks[n].mm, tagging);
                let cost = if refills { self.prof.ctx_switch } else { self.prof.switch_common() };
                self.overhead(c, Overhead::Switch, cost);
                let refill = self.refill_cost(c, n);
                if refill > 0 {
                    if self.cfg.kernel.tick_sampled_time() {
                        let (at, now) = (self.cursor(c), self.now);
                        let refills = &mut self.cores[c].refills;
                        refills.retain(|r| r.1 > now);
                        refills.push((at, at + refill));
                    }
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
            self.fx.rate = self.smt_rate_of(c);
            let step = self.wl.next(n, t, &mut self.fx);
            if self.stop.is_none() && self.wl.done() {
                self.stop = Some((StopReason::Completed, t));
            }
            if std::mem::take(&mut self.fx.exec) {
                self.tasks[n].cache_domain = None;
                // exec_mmap -> activate_mm: a fresh mm, loaded now in exec's own time.
                let mm = self.mm_next;
                self.mm_next = self.mm_next.wrapping_add(1);
                self.tasks[n].mm = mm;
                let tagging = self.tagging();
                self.cores[c].mm.switch_to(mm, tagging);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::Config;

    #[test]
    fn a_switch_within_one_mm_skips_switch_mm_and_another_mm_pays_it() {
        let mut cpu = LoadedMm::new();
        assert!(cpu.switch_to(7, Tagging::None), "the first load refills");
        assert!(!cpu.switch_to(7, Tagging::None), "a thread of the same process: real_prev == next");
        assert!(cpu.switch_to(8, Tagging::None), "another process: CR3 load, TLB refilled");
        assert!(cpu.switch_to(7, Tagging::None), "and back: refilled again without tags");
        // Idle between: the idle task borrows mm 7 (nothing loaded), so the same task, or a
        // thread of its process, comes back without switch_mm.
        let mut cpu = LoadedMm::new();
        cpu.switch_to(7, Tagging::None);
        let before = cpu;
        // (a switch to idle leaves the state alone: `go_idle` does not call switch_to)
        assert_eq!(cpu, before);
        assert!(!cpu.switch_to(7, Tagging::None), "idle -> the same mm pays no switch_mm");
    }

    #[test]
    fn idle_and_back_to_the_same_process_pays_no_switch_mm() {
        // Token passing, one pinned task per CPU, each its own process here: every switch
        // is task -> idle -> the same task, and only each CPU's first load refills.
        let mut cfg = Config::default();
        for (k, v) in [("workload", "token"), ("cpu", "x5675"), ("cores", "2"), ("pairs", "1"), ("kernel", "3.11")] {
            cfg.set(k, v).expect(k);
        }
        cfg.loops = 500;
        let p = cfg.profile();
        let run = |distinct: bool| {
            let mut sim = Sim::new(&cfg, None);
            sim.tasks[1].mm = sim.tasks[0].mm + u32::from(distinct);
            let m = sim.run().metrics;
            ((m.overhead_s["switch"] * 1e9).round() as u64, m.context_switches)
        };
        let (paid, n) = run(true);
        assert!(n > 1_000, "{n} switches");
        // Each CPU's first load refills; every other switch pays the common part (the
        // counted switches can be one short of the charged ones at the run's end).
        let first_loads = 2 * p.switch_mm();
        assert!(paid >= n * p.switch_common() + first_loads, "{paid} ns for {n} switches");
        assert!(paid <= (n + 1) * p.switch_common() + first_loads, "{paid} ns for {n} switches");
        assert_eq!(run(false), (paid, n), "as if both were threads of one process");
    }

    #[test]
    fn before_4_14_intel_idle_drops_the_mm_in_a_tlb_flushing_state() {
        // Token passing on Westmere with 2 ms of work per stop: the waiting CPU idles long
        // enough for C3/C6 (CPUIDLE_FLAG_TLB_FLUSHED), and 3.11's intel_idle `leave_mm`s
        // there, so the task coming back refills; at 1 us of work it stays in C1/C1E.
        let refills = |work: &str, kernel: &str| {
            let mut cfg = Config::default();
            for (k, v) in [
                ("workload", "token"),
                ("cpu", "x5675"),
                ("cores", "2"),
                ("pairs", "1"),
                ("kernel", kernel),
                ("work", work),
            ] {
                cfg.set(k, v).expect(k);
            }
            cfg.loops = 200;
            let p = cfg.profile();
            let m = Sim::new(&cfg, None).run().metrics;
            let paid = (m.overhead_s["switch"] * 1e9).round() as u64;
            let deep =
                m.cstate_entries.get("C3").copied().unwrap_or(0) + m.cstate_entries.get("C6").copied().unwrap_or(0);
            ((paid.saturating_sub(m.context_switches * p.switch_common())) / p.switch_mm(), deep)
        };
        // Slack: each CPU's first load, and one switch charged past the counted ones at the
        // run's end (switch_common / switch_mm = 9 refills' worth on x5675).
        let x5675 = crate::engine::profile::profile("x5675").expect("x5675");
        let slack = 2 + x5675.switch_common() / x5675.switch_mm();
        let (long, deep) = refills("2ms", "3.11");
        assert!(deep > 50, "{deep} deep idles");
        // One refill per return from a deep idle; a deep idle ended by a timer that finds
        // nothing to run refills nothing.
        assert!(long <= deep + slack && long > 50, "{long} refills for {deep} deep idles");
        let (short, shallow_deep) = refills("1us", "3.11");
        assert!(short <= slack + shallow_deep, "{short} refills, {shallow_deep} deep idles");
    }

    #[test]
    fn pcid_keeps_six_mms_per_cpu_round_robin_and_a_seventh_thrashes() {
        let mut cpu = LoadedMm::new();
        for mm in 0..6 {
            assert!(cpu.switch_to(mm, Tagging::Pcid), "mm {mm}: a new slot is flushed");
        }
        for round in 0..3 {
            for mm in 0..6 {
                assert!(!cpu.switch_to(mm, Tagging::Pcid), "round {round}, mm {mm}: still tagged");
            }
        }
        // Seven mms in turn through six round-robin slots: each evicts the next one needed.
        let mut cpu = LoadedMm::new();
        let misses = (0..70).filter(|i| cpu.switch_to(i % 7, Tagging::Pcid)).count();
        assert_eq!(misses, 70);
        // The era decides: PCID hardware before 4.14 is untagged; arm64 always tagged.
        assert_eq!(Tagging::of(TlbTags::Pcid, false), Tagging::None);
        assert_eq!(Tagging::of(TlbTags::Pcid, true), Tagging::Pcid);
        assert_eq!(Tagging::of(TlbTags::Asid, false), Tagging::Asid);
        let mut arm = LoadedMm::new();
        assert!((0..50).all(|i| !arm.switch_to(i % 9, Tagging::Asid)));
    }

    /// Switch overhead per context switch of a one-CPU pipe ping-pong, with B in A's mm or not.
    fn per_switch(kernel: &str, same_mm: bool) -> (f64, u64) {
        let mut cfg = Config::default();
        for (k, v) in [("workload", "pipe"), ("cpu", "x5675"), ("cores", "1"), ("loops", "2000"), ("kernel", kernel)] {
            cfg.set(k, v).expect(k);
        }
        let mut sim = Sim::new(&cfg, None);
        if same_mm {
            sim.tasks[1].mm = sim.tasks[0].mm;
        }
        let m = sim.run().metrics;
        (m.overhead_s["switch"] * 1e9 / m.context_switches as f64, m.context_switches)
    }

    #[test]
    fn a_thread_ping_pong_switches_cheaper_than_a_process_one_by_switch_mm() {
        let p = crate::engine::profile::profile("x5675").expect("x5675");
        assert!(p.switch_mm() > 0 && p.switch_common() + p.switch_mm() == p.ctx_switch);
        // 3.11 loads CR3 without PCID: every switch between the two processes refills.
        let (procs, n1) = per_switch("3.11", false);
        let (threads, n2) = per_switch("3.11", true);
        assert!(n1 > 3_000 && n2 > 3_000, "{n1} and {n2} switches");
        let gap = procs - threads;
        assert!((gap - p.switch_mm() as f64).abs() < 0.02 * p.switch_mm() as f64, "gap {gap} ns per switch");
        assert!((threads - p.switch_common() as f64).abs() < 0.02 * p.switch_common() as f64, "{threads}");
        // 6.6 tags both mms with PCID: after the first loads, the processes pay no refill either.
        let (procs66, _) = per_switch("6.6", false);
        let (threads66, _) = per_switch("6.6", true);
        assert!((procs66 - threads66).abs() < 0.01 * p.switch_mm() as f64, "{procs66} vs {threads66}");
    }
}
