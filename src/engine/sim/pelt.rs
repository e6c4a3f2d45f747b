//! PELT, per-entity load tracking (kernel/sched/pelt.c, 5.7+; 3.8 to 5.6 in fair.c): each
//! task and each CPU's runqueue carries `load_avg`, `runnable_avg` and `util_avg`, geometric
//! sums over periods of 1024 x 1024 ns (1.049 ms) that decay by y per period, y^32 = 1/2.
//!
//! MECHANISM: [`Avg::update`] is `___update_load_sum` (its `accumulate_sum` and
//! `__accumulate_pelt_segments`, `decay_load` on the `runnable_avg_yN_inv` table) followed by
//! `___update_load_avg` (divider `LOAD_AVG_MAX - 1024 + period_contrib`), in integers as
//! the kernel computes them. The engine calls it where the kernel calls `update_load_avg`:
//! before a task is enqueued (`enqueue_entity`), dequeued (`dequeue_entity`), picked or put
//! (`set_next_entity`, `put_prev_entity`), and on the tick (`entity_tick`); each call is
//! O(1) (one runqueue and one task). A task entity tracks `load` = `runnable` = on a
//! runqueue, `running` = the CPU's `curr`, and scales `load_avg` by its weight
//! (`se_weight`); a runqueue (`cfs_rq`) tracks its weight (`cfs_rq->load.weight`), its
//! `h_nr_running` and whether it has a `curr`. A task enqueued on another CPU than the one
//! its average is attached to moves its sums (`detach_entity_load_avg` /
//! `attach_entity_load_avg`), so a runqueue's blocked load follows its tasks as in the kernel.
//!
//! util_est (4.17, `util_est_dequeue`/`util_est_enqueue`): when a task sleeps its `enqueued`
//! is its `util_avg` then and `ewma` moves a quarter of the way to it
//! (`UTIL_EST_WEIGHT_SHIFT` 2); the runqueue sums its queued tasks' `max(ewma, enqueued)`.
//!
//! Eras: PELT exists from 3.8; before it the balancer reads the runqueue's weight
//! (`weighted_cpuload`, `sim::balance`). `runnable_avg` is 5.7's signal (`runnable_sum` counts
//! runnable entities); 3.8 to 5.6 had `runnable_load_avg` (the load of runnable entities
//! only) instead, which is the `load_avg` of a runqueue without its blocked tasks: the
//! engine keeps the 5.7 signal for every era and says so.
//!
//! A new task starts heavy (`Avg::init_task`: `init_entity_runnable_average`, 3.11's
//! `init_task_runnable_average`; `post_init_entity_util_avg` from 4.7) at its first enqueue.
//!
//! Simplified: no task groups (one root `cfs_rq`); a new task's `_sum`s use its own
//! `period_contrib` (0) where `attach_entity_load_avg` aligns it to the runqueue's; 3.11's
//! initial ratio (sum = period = one slice) is taken as a full geometric sum; the initial util
//! multiplies by `se_weight` (releases before 6.x read `se->load.weight`, not checked here); no frequency or capacity invariance
//! (`cap_scale`: every CPU at full capacity); the detach at migration subtracts the task's
//! sums as they stand, without first decaying the old runqueue to the same instant
//! (`remove_entity_load_avg` via `removed`), and clamps at 0; RT, DL and IRQ PELT are not
//! tracked.
//!
//! TRACE: a traced run samples each CPU's `util_avg` after each update, attach and detach,
//! keeping a sample when it moved by `trace::UTIL_STEP` (1/64) since the CPU's last
//! (`Trace::util`, drawn and exported as a counter track). The CPU utilisation teo reads is `idle_path::Pelt` (busy = not idle, overheads
//! included), kept apart so its digests do not move with this signal.

use super::{Sim, TaskState};
use crate::engine::kernel::Kernel;
use crate::engine::policy::Policy;
use crate::engine::time::Ns;

/// `LOAD_AVG_MAX` (kernel/sched/sched-pelt.h): the sum of a signal at 1024 for ever.
pub(super) const LOAD_AVG_MAX: u64 = 47742;

/// `SCHED_CAPACITY_SHIFT`.
const CAP_SHIFT: u32 = 10;

/// Integer square root of a u128, rounded down (Newton, from above).
const fn isqrt128(v: u128) -> u128 {
    if v < 2 {
        return v;
    }
    let mut x = v;
    let mut y = x.div_ceil(2);
    while y < x {
        x = y;
        y = (x + v / x) / 2;
    }
    x
}

/// `runnable_avg_yN_inv`: `y^i * 2^32` for i in 0..32, `y^32 = 1/2`, computed here in
/// integers (y is the fifth square root of 1/2 in Q62) rather than copied; entry 0 is
/// 0xffffffff as in the kernel's generated table, and the others match it within 1.
const fn y_inv_table() -> [u32; 32] {
    const Q: u32 = 62;
    let mut y: u128 = 1 << (Q - 1); // 1/2 in Q62
    let mut k = 0;
    while k < 5 {
        y = isqrt128(y << Q);
        k += 1;
    }
    let mut t = [0u32; 32];
    let mut p: u128 = 1 << Q;
    let mut i = 0;
    while i < 32 {
        let v = p >> (Q - 32);
        t[i] = if v > u32::MAX as u128 { u32::MAX } else { v as u32 };
        p = (p * y) >> Q;
        i += 1;
    }
    t
}

pub(super) const Y_INV: [u32; 32] = y_inv_table();

/// `decay_load` (kernel/sched/pelt.c): `val * y^n`.
pub(super) fn decay_load(val: u64, n: u64) -> u64 {
    if n > 32 * 63 {
        return 0;
    }
    let val = val >> (n / 32);
    ((val as u128 * Y_INV[(n % 32) as usize] as u128) >> 32) as u64
}

/// `__accumulate_pelt_segments`: the contribution of `periods` crossed periods, `d1` the
/// rest of the first, `d3` the start of the current one.
fn accumulate_segments(periods: u64, d1: u64, d3: u64) -> u64 {
    let c1 = decay_load(d1, periods);
    let c2 = LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024;
    c1 + c2 + d3
}

/// One `struct sched_avg`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Avg {
    /// `last_update_time`, ns; advanced by whole 1024 ns units as the kernel does.
    last: Ns,
    load_sum: u64,
    runnable_sum: u64,
    util_sum: u64,
    period_contrib: u64,
    pub load_avg: u64,
    pub runnable_avg: u64,
    pub util_avg: u64,
}

impl Avg {
    /// `___update_load_sum` then, if a period was crossed, `___update_load_avg` with
    /// `weight` (`se_weight` for a task, 1 for a runqueue whose `load` is already weighted).
    /// A time before the last update changes nothing (a CPU's cursor never goes back; a
    /// task's average may be touched from a CPU behind the one it last ran on).
    pub fn update(&mut self, now: Ns, load: u64, runnable: u64, running: bool, weight: u64) {
        let Some(delta) = now.checked_sub(self.last) else { return };
        let delta = delta >> 10;
        if delta == 0 {
            return;
        }
        self.last += delta << 10;
        // "running is a subset of runnable (weight) so running can't be set if runnable is clear".
        let (runnable, running) = if load == 0 { (0, false) } else { (runnable, running) };
        // accumulate_sum
        let mut contrib = delta;
        let d = delta + self.period_contrib;
        let periods = d / 1024;
        let mut rest = d;
        if periods > 0 {
            self.load_sum = decay_load(self.load_sum, periods);
            self.runnable_sum = decay_load(self.runnable_sum, periods);
            self.util_sum = decay_load(self.util_sum, periods);
            rest = d % 1024;
            if load > 0 {
                contrib = accumulate_segments(periods, 1024 - self.period_contrib, rest);
            }
        }
        self.period_contrib = rest;
        if load > 0 {
            self.load_sum += load * contrib;
        }
        if runnable > 0 {
            self.runnable_sum += (runnable * contrib) << CAP_SHIFT;
        }
        if running {
            self.util_sum += contrib << CAP_SHIFT;
        }
        if periods > 0 {
            // ___update_load_avg: get_pelt_divider.
            let divider = LOAD_AVG_MAX - 1024 + self.period_contrib;
            self.load_avg = weight * self.load_sum / divider;
            self.runnable_avg = self.runnable_sum / divider;
            self.util_avg = self.util_sum / divider;
        }
    }

    /// `attach_entity_load_avg`: a runqueue takes a task's sums (`weight` its `se_weight`:
    /// a task's `load_sum` is unweighted, a runqueue's weighted).
    pub fn attach(&mut self, se: &Avg, weight: u64) {
        self.load_sum += weight * se.load_sum;
        self.runnable_sum += se.runnable_sum;
        self.util_sum += se.util_sum;
        self.load_avg += se.load_avg;
        self.runnable_avg += se.runnable_avg;
        self.util_avg += se.util_avg;
    }

    /// `detach_entity_load_avg`: the reverse, clamped at 0 (`sub_positive`).
    pub fn detach(&mut self, se: &Avg, weight: u64) {
        self.load_sum = self.load_sum.saturating_sub(weight * se.load_sum);
        self.runnable_sum = self.runnable_sum.saturating_sub(se.runnable_sum);
        self.util_sum = self.util_sum.saturating_sub(se.util_sum);
        self.load_avg = self.load_avg.saturating_sub(se.load_avg);
        self.runnable_avg = self.runnable_avg.saturating_sub(se.runnable_avg);
        self.util_avg = self.util_avg.saturating_sub(se.util_avg);
    }

    /// A new task's average (`sched_fork`'s `init_entity_runnable_average`, then
    /// `wake_up_new_task`'s `post_init_entity_util_avg` with `util`, then the `_sum`s that
    /// `attach_entity_load_avg` recomputes from the `_avg`s): `load_avg` starts at the task's
    /// weight ("Tasks are initialized with full load to be seen as heavy tasks until they get
    /// a chance to stabilize to their real load level", fair.c 4.x-6.x; 3.11's
    /// `init_task_runnable_average` likewise sets `runnable_avg_sum = runnable_avg_period`,
    /// a full contribution); with `util` (4.7+) `util_avg` starts at the runqueue's
    /// `util_avg x weight / (load_avg + 1)`, capped at half the capacity it leaves free
    /// (all of that half on a runqueue with no util), and `runnable_avg = util_avg` (5.7).
    /// `rq` is the runqueue's average at the task's first enqueue.
    pub fn init_task(&mut self, weight: u64, rq: &Avg, util: bool) {
        self.load_avg = weight;
        if util {
            let cap = (1024 - rq.util_avg.min(1024) as i64) / 2;
            if cap > 0 {
                self.util_avg = if rq.util_avg != 0 {
                    (rq.util_avg * weight / (rq.load_avg + 1)).min(cap as u64)
                } else {
                    cap as u64
                };
            }
            self.runnable_avg = self.util_avg;
        }
        // attach_entity_load_avg: `load_sum = load_avg * divider / se_weight`, etc.
        let divider = LOAD_AVG_MAX - 1024 + self.period_contrib;
        self.load_sum = (self.load_avg * divider).checked_div(weight).unwrap_or(divider);
        self.util_sum = self.util_avg * divider;
        self.runnable_sum = self.runnable_avg * divider;
    }

    /// A task's average begins at the time it first enqueues (`init_entity_runnable_average`
    /// leaves `last_update_time` 0 until the attach sets it).
    pub fn start(&mut self, now: Ns) {
        if self.last == 0 {
            self.last = now;
        }
    }
}

/// A task's `util_est` (4.17): the utilisation it had when it last slept, and its average.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct UtilEst {
    pub enqueued: u64,
    pub ewma: u64,
}

impl UtilEst {
    /// `_task_util_est`: `max(ewma, enqueued)`.
    pub fn value(&self) -> u64 {
        self.ewma.max(self.enqueued)
    }

    /// `util_est_dequeue` with `task_sleep`: `enqueued` = `util`, and `ewma` moves a quarter
    /// of the way to it (`ewma = (3 * ewma + enqueued) / 4`, in the kernel's shifts).
    pub fn sleep(&mut self, util: u64) {
        self.enqueued = util;
        let e = self.ewma as i64;
        let diff = util as i64 - e;
        self.ewma = (((e << 2) + diff) >> 2).max(0) as u64;
    }
}

impl Sim {
    /// `update_load_avg` of core `c`'s runqueue and of its `curr`, to `t`, under the state
    /// they had since the last update (called before that state changes).
    pub(super) fn pelt_sync(&mut self, c: usize, t: Ns) {
        let curr = self.cores[c].curr;
        let q = self.policy.queued(c);
        let nr = q.len() as u64 + curr.is_some() as u64;
        let load = q.load() + curr.map_or(0, |n| self.se[n].weight);
        self.cores[c].rq_avg.update(t, load, nr, curr.is_some(), 1);
        if let Some(n) = curr {
            self.pelt_task(n, t);
        }
        self.util_seen(c, t);
    }

    /// A traced run samples core `c`'s `util_avg` (`Recorder::util`, decimated there): a
    /// counter track; an untraced run pays one test. Records only (no state read back).
    #[inline]
    fn util_seen(&mut self, c: usize, t: Ns) {
        if self.rec.on() && self.cfg.kernel >= Kernel::V311 {
            self.rec.util(c, t, self.cores[c].rq_avg.util_avg);
        }
    }

    /// A task's own average to `t`: on a runqueue while runnable, running while `curr`.
    pub(super) fn pelt_task(&mut self, k: usize, t: Ns) {
        let tk = &self.tasks[k];
        let on_rq = (tk.state == TaskState::Runnable) as u64;
        let running = self.cores[tk.core].curr == Some(k);
        let w = self.se[k].weight;
        self.tasks[k].avg.update(t, on_rq, on_rq, running, w);
    }

    /// `enqueue_entity`'s `update_load_avg(.., DO_ATTACH)` before task `k` joins core `c`
    /// at `t`: the runqueue is brought up to `t`, the task decays as blocked up to `t` (a
    /// migrating task was synced as runnable by [`Sim::pelt_dequeue`] first), and a task whose
    /// average sits on another runqueue moves it here; then `util_est_enqueue` (4.17+).
    pub(super) fn pelt_enqueue(&mut self, c: usize, k: usize, t: Ns) {
        self.pelt_sync(c, t);
        let w = self.se[k].weight;
        // A task never enqueued before is new: it starts heavy (`Avg::init_task`, 3.8+).
        if self.cfg.kernel >= Kernel::V311 && self.tasks[k].avg_cpu.is_none() && self.tasks[k].avg == Avg::default() {
            let rq = self.cores[c].rq_avg;
            self.tasks[k].avg.init_task(w, &rq, self.cfg.kernel >= Kernel::V417);
        }
        let tk = &mut self.tasks[k];
        tk.avg.start(t);
        tk.avg.update(t, 0, 0, false, w);
        if tk.avg_cpu != Some(c) {
            let (a, old) = (tk.avg, tk.avg_cpu.replace(c));
            if let Some(old) = old {
                self.cores[old].rq_avg.detach(&a, w);
                self.util_seen(old, t);
            }
            self.cores[c].rq_avg.attach(&a, w);
            self.util_seen(c, t);
        }
        if self.cfg.kernel >= Kernel::V417 {
            self.cores[c].rq_util_est += self.tasks[k].util_est.value();
        }
    }

    /// `dequeue_entity`'s `update_load_avg` before task `k` leaves core `c` at `t`, then
    /// `util_est_dequeue` (4.17+; `sleep`: the task blocks, so its estimate is renewed) and,
    /// for a task that exits, the detach of its average (`task_dead_fair`).
    pub(super) fn pelt_dequeue(&mut self, c: usize, k: usize, t: Ns, sleep: bool, exit: bool) {
        self.pelt_sync(c, t);
        self.pelt_task(k, t);
        if self.cfg.kernel >= Kernel::V417 {
            let est = self.tasks[k].util_est.value();
            self.cores[c].rq_util_est = self.cores[c].rq_util_est.saturating_sub(est);
            if sleep {
                let util = self.tasks[k].avg.util_avg;
                self.tasks[k].util_est.sleep(util);
            }
        }
        if exit {
            if let Some(old) = self.tasks[k].avg_cpu.take() {
                let (a, w) = (self.tasks[k].avg, self.se[k].weight);
                self.cores[old].rq_avg.detach(&a, w);
                self.util_seen(old, t);
            }
        }
    }

    /// Undoes `pelt_dequeue`'s `util_est` part for a task that did not leave after all.
    pub(super) fn pelt_requeue_est(&mut self, c: usize, k: usize) {
        if self.cfg.kernel >= Kernel::V417 {
            self.cores[c].rq_util_est += self.tasks[k].util_est.value();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::{MS, US};

    #[test]
    fn table_matches_the_kernel_s() {
        // kernel/sched/sched-pelt.h: entries 0, 1, 16 and 31.
        for (i, k) in [(0usize, 0xffff_ffffu32), (1, 0xfa83_b2da), (16, 0xb504_f333), (31, 0x82cd_8698)] {
            assert!(Y_INV[i].abs_diff(k) <= 1, "y^{i}: {:#x} vs {k:#x}", Y_INV[i]);
        }
    }

    /// A task that ran for ever, then blocks: its util halves in 32 periods (within 1%), and
    /// keeps decaying. A period is 1024 units of 1024 ns (`delta >>= 10`), 1.049 ms, so the
    /// half-life is 33.55 ms: issue 31's "32 ms within 1%" is the kernel's 32 periods.
    #[test]
    fn half_life_is_32_ms() {
        // Updates at period boundaries: the averages are recomputed only when a period ends.
        const PERIOD: Ns = 1024 * 1024;
        let mut a = Avg::default();
        let mut t = 0;
        while t < 1000 * PERIOD {
            t += PERIOD;
            a.update(t, 1, 1, true, 1024);
        }
        let full = a.util_avg;
        assert!(full >= 1000, "a task always running reads near 1024: {full}");
        assert!(a.load_avg >= 1000 && a.runnable_avg >= 1000, "{a:?}");
        // Blocked (load 0): a decay only.
        a.update(t + 32 * PERIOD, 0, 0, false, 1024);
        let half = a.util_avg;
        let want = full / 2;
        assert!(half.abs_diff(want) * 100 <= want, "after 32 ms: {half}, want {want} within 1%");
        a.update(t + 64 * PERIOD, 0, 0, false, 1024);
        assert!(a.util_avg.abs_diff(full / 4) * 100 <= full / 4, "after 64 ms: {}", a.util_avg);
        a.update(t + 500 * MS, 0, 0, false, 1024);
        assert!(a.util_avg < 2, "a blocked task's util decays away: {}", a.util_avg);
    }

    /// Running 25% of each 4 ms (1 ms on, 3 ms blocked) converges near 256.
    #[test]
    fn a_quarter_busy_task_reads_a_quarter() {
        let mut a = Avg::default();
        let mut seen = Vec::new();
        for k in 0..500u64 {
            let start = k * 4 * MS;
            a.update(start, 0, 0, false, 1024); // blocked until now
            a.update(start + MS, 1, 1, true, 1024); // ran 1 ms
            if k >= 400 {
                a.update(start + 4 * MS, 0, 0, false, 1024);
                seen.push(a.util_avg);
            }
        }
        let mean = seen.iter().sum::<u64>() / seen.len() as u64;
        assert!((240..=272).contains(&mean), "mean util at period ends {mean}");
        // Weighted by nice 0: load_avg follows the same signal.
        assert!(a.load_avg.abs_diff(a.util_avg) <= 2, "{a:?}");
    }

    #[test]
    fn runqueue_load_is_weighted_and_attach_moves_it() {
        // Two nice-0 tasks always runnable, one running: load 2048, runnable 2048, util 1024.
        let mut rq = Avg::default();
        for ms in 1..=600 {
            rq.update(ms * MS, 2048, 2, true, 1);
        }
        assert!(rq.load_avg > 2000 && rq.load_avg <= 2048, "{rq:?}");
        assert!(rq.runnable_avg > 2000 && rq.util_avg > 1000 && rq.util_avg <= 1024, "{rq:?}");
        let mut se = Avg::default();
        for ms in 1..=600 {
            se.update(ms * MS, 1, 1, true, 1024);
        }
        let before = rq;
        rq.attach(&se, 1024);
        rq.detach(&se, 1024);
        assert_eq!(rq, before, "attach then detach is the identity");
        let mut other = Avg::default();
        other.detach(&se, 1024);
        assert_eq!(other.load_avg, 0, "detach clamps at 0");
        // Sub-period updates accumulate without recomputing the averages.
        let mut p = Avg::default();
        p.update(500 * US, 1, 1, true, 1024);
        assert_eq!(p.util_avg, 0);
    }

    #[test]
    fn util_est_follows_the_kernel_ewma() {
        let mut u = UtilEst::default();
        u.sleep(400);
        assert_eq!((u.enqueued, u.ewma, u.value()), (400, 100, 400));
        u.sleep(0);
        assert_eq!((u.enqueued, u.ewma, u.value()), (0, 75, 75));
    }
    /// `init_entity_runnable_average` + `post_init_entity_util_avg`: a new task reads its
    /// full weight, keeps it through a period with no time passed, and its util takes half
    /// the free capacity (or the runqueue's util per load, capped there).
    #[test]
    fn a_new_task_starts_at_its_weight() {
        let mut a = Avg::default();
        a.init_task(1024, &Avg::default(), true);
        assert_eq!((a.load_avg, a.util_avg, a.runnable_avg), (1024, 512, 512));
        // The sums match the averages: an update that crosses a period while the task is
        // runnable keeps the load near the weight (it was 0 before: "seen as light").
        a.update(2 * MS, 1, 1, true, 1024);
        assert!(a.load_avg >= 1000, "{a:?}");
        // A runqueue at util 600, load 2048: 600 x 1024 / 2049 = 299, over the cap (424 / 2).
        let rq = Avg { util_avg: 600, load_avg: 2048, ..Avg::default() };
        let mut b = Avg::default();
        b.init_task(1024, &rq, true);
        assert_eq!((b.load_avg, b.util_avg), (1024, 212), "capped at (1024 - 600) / 2");
        let rq = Avg { util_avg: 300, load_avg: 2048, ..Avg::default() };
        let mut b = Avg::default();
        b.init_task(1024, &rq, true);
        assert_eq!(b.util_avg, 300 * 1024 / 2049);
        // Before 4.7 (no post_init_entity_util_avg): load only.
        let mut c = Avg::default();
        c.init_task(335, &Avg::default(), false);
        assert_eq!((c.load_avg, c.util_avg), (335, 0));
    }

    /// Issue 31: a traced run's util_avg counter track (`Trace::util`). A task spinning on
    /// CPU 0 from time 0 (6.12) attaches at half the capacity (`post_init_entity_util_avg`
    /// on an empty runqueue: 512); the gap to 1024 then halves every half-life (32 periods
    /// of 1.024 ms), so the track reads 768 after about 33 ms, seen at the next tick (HZ
    /// 250) that moved it by `UTIL_STEP` or more. Idle CPU 1 stays at 0.
    #[test]
    fn util_avg_is_a_decimated_counter_track() {
        use std::sync::Arc;

        use crate::engine::config::Config;
        use crate::engine::trace::{TraceOptions, UTIL_STEP};
        use crate::engine::workload::replay::{Op, Program, Replay, ReplayTask};
        use crate::engine::workload::AnyWorkload;
        let mut c = Config::default();
        for (k, v) in [("kernel", "6.12"), ("cores", "2"), ("duration", "200ms")] {
            c.set(k, v).unwrap();
        }
        let spin = ReplayTask { name: "spin".into(), pid: 0, nice: 0, cpu: 0, ops: vec![Op::Run(MS * 1000), Op::Exit] };
        let wl = AnyWorkload::Replay(Replay::new(Arc::new(Program { tasks: vec![spin] })));
        let o = super::super::Sim::with_workload(&c, Some(TraceOptions::default()), wl).run();
        let cpu = |k: u16| -> Vec<(Ns, u16)> {
            o.trace.util.iter().filter(|u| u.core == k).map(|u| (u.time, u.util)).collect()
        };
        let (c0, c1) = (cpu(0), cpu(1));
        assert!(c1.iter().all(|s| s.1 == 0), "idle CPU 1: {c1:?}");
        let last = c0.last().expect("samples").1;
        assert!(last > 1000, "after 200 ms: {last}");
        for w in c0.windows(2) {
            assert!(w[0].1.abs_diff(w[1].1) >= UTIL_STEP && w[0].0 <= w[1].0, "{w:?}");
        }
        assert_eq!(c0[..2], [(0, 0), (0, 512)], "the first sample, then the new task's attach");
        assert!(c0.len() <= 2 + 1024 / UTIL_STEP as usize, "{} samples: {c0:?}", c0.len());
        let half = c0.iter().find(|s| s.1 >= 768).unwrap().0;
        assert!(half > 32 * MS && half <= 37 * MS, "the gap halved at {half} ns: {c0:?}");
    }
}
