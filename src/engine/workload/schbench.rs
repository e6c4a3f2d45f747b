//! schbench (Chris Mason's, github.com/masoncl/schbench, schbench.c of 2023+): message
//! threads hand requests to worker threads over futexes; a request is a short sleep and a few
//! matrix multiplies under a per-CPU lock. Measures wakeup latency, request latency and RPS.
//!
//! PROGRAM (schbench.c, default mode: no `-p` pipe, no `-R`/`-A` rps, no `-C` calibrate, no `--split`):
//! - `main()`: `-m` message threads (default 1), `-t` workers per message thread (default
//!   0: `(get_nprocs() + m - 1) / m`), `-r` runtime (30 s; here `duration`), `-F` cache
//!   footprint (256 KB), `-n` operations (5), `-s` sleep (100 usec), `-L` no locking (locking
//!   on). `matrix_size = sqrt(F * 1024 / 3 / sizeof(unsigned long))` (104 for 256 KB); one
//!   per-CPU `pthread_mutex_t` per CPU (`num_cpu_locks = get_nprocs()`). Tasks here are laid
//!   out as schbench's `thread_data` array: message thread `i` at `i * (t + 1)`, its workers after it.
//! - `worker_thread()` loops `msg_and_wait()`, then (`work_start` = gettimeofday)
//!   `usleep(sleep_usec)`, `do_work()`, gettimeofday; `loop_count++` and the request latency
//!   `now - work_start` (the sleep included) go into its `request_stats`.
//! - `msg_and_wait()`: `futex = FUTEX_BLOCKED`, `wake_time = now`, `xlist_add` itself to its
//!   message thread's list (a cmpxchg prepend), `fpost(&msg_thread->futex)`, `fwait(&futex)`,
//!   then the wakeup latency `now - wake_time` (usec from gettimeofday, recorded only if > 0).
//! - `run_msg_thread()` loops {`futex = FUTEX_BLOCKED`; `xlist_wake_all()`; `fwait()`}.
//!   `xlist_wake_all()` splices the list (most recent poster first), takes ONE gettimeofday
//!   for the whole list, stores it in every worker's `wake_time` and `fpost`s them in list
//!   order: a worker's wakeup latency therefore includes the message thread's `futex_wake`
//!   calls for the workers ahead of it (schbench says so: "we want to detect when the
//!   scheduler is just preempting the waker").
//! - `fpost()`: `cmpxchg(futex, BLOCKED, RUNNING)` and, only if that succeeded,
//!   `FUTEX_WAKE_PRIVATE` of 1. `fwait()`: `cmpxchg(futex, RUNNING, BLOCKED)` returns at once
//!   if posted, else `FUTEX_WAIT_PRIVATE` (val BLOCKED) and retries.
//! - `do_work()`: `lock_this_cpu()` unless `-L`: `sched_getcpu()`, spin on
//!   `pthread_mutex_trylock(&per_cpu_locks[cpu])` (a `rep;nop` loop, no futex), then if
//!   `sched_getcpu()` changed, unlock and start again. Then `operations` times
//!   `do_some_math()` (a naive `msize^3` multiply of two matrices into a third), unlock.
//!   A worker preempted inside the math keeps its CPU's lock: whoever next runs there and
//!   wants the lock spins until the holder runs again and finishes (schbench's "penalizing
//!   preemption").
//! - `sleep_for_runtime()`: once a second, the RPS since the last second goes into
//!   `rps_stats`; at the end "average rps: loop_count / runtime".
//! - Stats are fio's log-linear histogram ("mr axboe's magic latency histogram":
//!   `plat_val_to_idx`, `plat_idx_to_val`, PLAT_BITS 8, PLAT_GROUP_NR 19) and
//!   `calc_percentiles`/`show_latencies` print them; `Plat` below is that histogram and its
//!   percentiles, so the figures have schbench's resolution (about 0.4%, in usec).
//!
//! KERNEL SIDE:
//! - FUTEX_WAKE: `futex_wake()` (kernel/futex/waitwake.c from 5.16, kernel/futex.c before)
//!   marks the waiter with `futex_wake_mark()` -> `wake_q_add_safe()` and, after dropping the
//!   hash-bucket lock, `wake_up_q()` -> `wake_up_process()` -> `try_to_wake_up(p,
//!   TASK_NORMAL, 0)`: wake_flags 0, NOT WF_SYNC (unlike a pipe write). Here: a wakeup with
//!   `sync = false`, pushed when the waker's futex_wake system call completes.
//! - FUTEX_WAIT: `futex_wait()` -> `futex_wait_setup()` re-reads the futex word under the
//!   bucket lock and returns -EWOULDBLOCK if it changed (no lost wakeup), else the task sleeps
//!   in `futex_wait_queue()`. Here: the check is made when the wait system call's burst ends.
//! - usleep -> nanosleep -> `hrtimer_nanosleep()` (kernel/time/hrtimer.c) sets the timer's
//!   range to `[t, t + current->timer_slack_ns]`, 50 us by default (`init_task.timer_slack_ns`
//!   in init/init_task.c) for SCHED_OTHER; the clock event is programmed at the hard (late)
//!   end and a soft-expired timer runs early only if another hrtimer interrupt comes first.
//!   Here: the sleep ends at `sleep + 50 us` (SIMPLIFIED: an earlier interrupt on that CPU
//!   inside the slack window does not end it early).
//!
//! COSTS (reference machine, divided by the profile's speed):
//! - One inner iteration of `do_some_math` (`m3[i*n+j] += m1[i*n+k] * m2[k*n+j]`): 2.5 ns,
//!   an ESTIMATE: m1, m2, m3 point into one array, so gcc -O2 (schbench's Makefile) cannot
//!   keep the sum in a register; each iteration is a load of m3 forwarded from the previous
//!   store, an add and a store: a ~6-cycle loop-carried chain on a Core 2, 2.5 ns at 2.4 GHz.
//!   The README's calibration run (`-F 256 -n 5 --calibrate`, 52 CPUs of an unnamed machine,
//!   all busy) reports a p50 request latency of 16864 us for 5 x 104^3 iterations: 3.0 ns
//!   each, the same order. Default request: 5 x 104^3 x 2.5 ns = 14.1 ms reference.
//! - A futex wait or wake system call: the profile's entry/exit plus 0.3 us of kernel work
//!   (ESTIMATE: hash, bucket lock, queue or wake_q; no copy, so under the pipe op's 0.5 us);
//!   the engine adds `ttwu` on the waker for the wakeup itself. nanosleep: entry/exit plus
//!   0.3 us (ESTIMATE: hrtimer enqueue). User bookkeeping per request (two vDSO gettimeofday,
//!   the list cmpxchg, `add_lat`): 0.2 us (ESTIMATE), run with the math.
//! - Working set: a worker's three matrices (`3 * n^2 * 8` bytes) sweep once per operation;
//!   the message thread's is small (16 KB, as the pipe workload).
//!
//! SIMPLIFIED: the lock spin is modelled as 5 us bursts that re-check the lock (a `rep;nop`
//! check is far finer; a contended acquisition may end up to 5 us late). No warmup (`-w`
//! defaults to 0 in the source; the README's "def: 5" is older). Threads exist at time 0
//! (creation is not timed). The `sched delay` line (from /proc/<tid>/schedstat) is not printed.
//! The RPS histogram samples each full simulated second (schbench's first sample, at t = 0,
//! is an artefact and left out); a run shorter than a second gives one sample, its average.

use super::{Costs, Fx, Parent, Result, Step, TaskSpec, Workload};
use crate::engine::time::{Ns, SEC, US};

/// Reference ns per inner iteration of the matrix multiply, in picoseconds (estimate, see the doc).
pub const MATH_PS_PER_ITER: u64 = 2_500;
/// Kernel work of a futex wait or wake (estimate).
pub const FUTEX_OP_REF: Ns = 300;
/// Kernel work of nanosleep besides the sleep (estimate).
pub const NANOSLEEP_REF: Ns = 300;
/// User work per request outside the math (estimate).
pub const REQUEST_USER_REF: Ns = 200;
/// `init_task.timer_slack_ns`: the default timer slack of a SCHED_OTHER task.
pub const TIMER_SLACK: Ns = 50 * US;
/// The grain of the modelled lock spin.
pub const SPIN_CHUNK: Ns = 5 * US;

/// fio's log-linear latency histogram as schbench uses it (values in usec).
const PLAT_BITS: u32 = 8;
const PLAT_VAL: u64 = 1 << PLAT_BITS;
const PLAT_GROUP_NR: u64 = 19;
const PLAT_NR: usize = (PLAT_GROUP_NR * PLAT_VAL) as usize;

/// `struct stats`: the histogram, its sample count, min and max.
#[derive(Clone, Debug)]
pub struct Plat {
    plat: Vec<u64>,
    pub nr_samples: u64,
    pub min: u64,
    pub max: u64,
}

impl Default for Plat {
    fn default() -> Self {
        Plat { plat: vec![0; PLAT_NR], nr_samples: 0, min: 0, max: 0 }
    }
}

/// `plat_val_to_idx`.
fn plat_val_to_idx(val: u64) -> usize {
    let msb = if val == 0 { 0 } else { 63 - val.leading_zeros() };
    if msb <= PLAT_BITS {
        return val as usize;
    }
    let error_bits = msb - PLAT_BITS;
    let base = ((error_bits as u64) + 1) << PLAT_BITS;
    let offset = (PLAT_VAL - 1) & (val >> error_bits);
    ((base + offset) as usize).min(PLAT_NR - 1)
}

/// `plat_idx_to_val`: the middle of the bucket (`base + (k + 0.5) << error_bits`, exact in integers).
fn plat_idx_to_val(idx: usize) -> u64 {
    let idx = idx as u64;
    if idx < (PLAT_VAL << 1) {
        return idx;
    }
    let error_bits = (idx >> PLAT_BITS) - 1;
    let base = 1u64 << (error_bits + PLAT_BITS as u64);
    let k = idx % PLAT_VAL;
    base + (k << error_bits) + (1 << (error_bits - 1))
}

impl Plat {
    /// `add_lat`.
    pub fn add(&mut self, v: u64) {
        if v > self.max {
            self.max = v;
        }
        if self.min == 0 || v < self.min {
            self.min = v;
        }
        self.plat[plat_val_to_idx(v)] += 1;
        self.nr_samples += 1;
    }

    /// `calc_percentiles` for percentiles given in permille (500 = 50.0th): (value, samples
    /// in the bucket range since the previous percentile). Integer comparison `sum * 1000 >=
    /// p * nr` where schbench compares `sum >= p / 100.0 * nr` in doubles.
    pub fn percentiles(&self, permille: &[u64]) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(permille.len());
        let mut sum = 0u64;
        let mut j = 0;
        'buckets: for (i, &n) in self.plat.iter().enumerate() {
            sum += n;
            while j < permille.len() && sum as u128 * 1000 >= permille[j] as u128 * self.nr_samples as u128 {
                out.push((plat_idx_to_val(i), sum));
                j += 1;
                if j == permille.len() {
                    break 'buckets;
                }
            }
        }
        // Cumulative counts to per-line counts, as calc_percentiles does.
        for i in (1..out.len()).rev() {
            out[i].1 -= out[i - 1].1;
        }
        out
    }
}

/// The percentiles schbench prints: latencies (PLIST_FOR_LAT) and RPS (PLIST_FOR_RPS), in permille.
pub const LAT_PERMILLE: [u64; 4] = [500, 900, 990, 999];
pub const RPS_PERMILLE: [u64; 3] = [200, 500, 900];

const BLOCKED: bool = false;
const RUNNING: bool = true;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    // Message thread.
    MLoop,
    MPost,
    MAfterWake(usize),
    MWait,
    MWaitCheck,
    // Worker.
    WPost,
    WAfterPost,
    WWait,
    WWaitCheck,
    WStart,
    WSleep,
    WLock,
    WSpin,
    WWork,
    WDone,
}

pub struct Schbench {
    msg_threads: usize,
    workers: usize,
    operations: u64,
    msize: u64,
    sleep: Ns,
    locking: bool,
    costs: Costs,
    phase: Vec<Phase>,
    /// Each thread's futex word (`FUTEX_RUNNING` = true).
    futex: Vec<bool>,
    /// Blocked inside FUTEX_WAIT (what `futex_wake` finds on the bucket).
    in_wait: Vec<bool>,
    /// Each message thread's list of posted workers (pushed at the end, walked from the end: LIFO).
    list: Vec<Vec<usize>>,
    /// A message thread's spliced list being posted.
    posting: Vec<Vec<usize>>,
    /// The time the message thread stored in the worker's `wake_time`.
    wake_time: Vec<Ns>,
    work_start: Vec<Ns>,
    /// The per-CPU lock a worker spins on / holds (its index), and each lock's owner.
    lock_of: Vec<Option<usize>>,
    holds: Vec<bool>,
    locks: Vec<Option<usize>>,
    pub wakeup: Plat,
    pub request: Plat,
    /// Exact wakeup latency sum and count (ns), for the mean.
    wakeup_ns: (u128, u64),
    /// Requests completed in each simulated second.
    per_second: Vec<u64>,
    loop_count: u64,
    spin_ns: Ns,
}

/// `sqrt(F * 1024 / 3 / sizeof(unsigned long))`, truncated as the C assignment does.
pub fn matrix_size(footprint_kb: u64) -> u64 {
    let x = footprint_kb * 1024 / 3 / 8;
    let mut r = (x as f64).sqrt() as u64;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

impl Schbench {
    /// `workers` 0 means schbench's default: the CPUs shared out among the message threads.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        msg_threads: usize,
        workers: usize,
        operations: u64,
        footprint_kb: u64,
        sleep: Ns,
        locking: bool,
        cpus: usize,
        costs: Costs,
    ) -> Self {
        let m = msg_threads.max(1);
        let w = if workers == 0 { cpus.max(1).div_ceil(m) } else { workers };
        let n = m * (w + 1);
        let phase = (0..n).map(|t| if t % (w + 1) == 0 { Phase::MLoop } else { Phase::WPost }).collect();
        Schbench {
            msg_threads: m,
            workers: w,
            operations,
            msize: matrix_size(footprint_kb),
            sleep,
            locking,
            costs,
            phase,
            futex: vec![BLOCKED; n],
            in_wait: vec![false; n],
            list: vec![Vec::new(); m],
            posting: vec![Vec::new(); m],
            wake_time: vec![0; n],
            work_start: vec![0; n],
            lock_of: vec![None; n],
            holds: vec![false; n],
            locks: vec![None; cpus.max(1)],
            wakeup: Plat::default(),
            request: Plat::default(),
            wakeup_ns: (0, 0),
            per_second: Vec::new(),
            loop_count: 0,
            spin_ns: 0,
        }
    }

    fn stride(&self) -> usize {
        self.workers + 1
    }

    fn is_msg(&self, t: usize) -> bool {
        t % self.stride() == 0
    }

    fn msg_of(&self, t: usize) -> usize {
        t - t % self.stride()
    }

    /// Reference work of one request's math: `operations * msize^3` iterations.
    pub fn math_ref(&self) -> Ns {
        let iters = self.operations as u128 * (self.msize as u128).pow(3);
        (iters * MATH_PS_PER_ITER as u128 / 1000).min(u64::MAX as u128 / 2) as Ns
    }

    fn futex_syscall(&self) -> Step {
        Step::Run { ns: self.costs.syscall(FUTEX_OP_REF), sys: true }
    }

    /// `fpost` of `target`'s futex by the caller: true if the FUTEX_WAKE call is made.
    fn fpost(&mut self, target: usize) -> bool {
        if self.futex[target] == BLOCKED {
            self.futex[target] = RUNNING;
            return true;
        }
        false
    }

    /// The FUTEX_WAKE system call completes: the waiter, if it sleeps, is woken (not WF_SYNC).
    fn futex_woken(&mut self, target: usize, fx: &mut Fx) {
        if std::mem::take(&mut self.in_wait[target]) {
            fx.wakes.push((target, false));
        }
    }

    fn msg_next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step {
        let mi = task / self.stride();
        loop {
            match self.phase[task] {
                Phase::MLoop => {
                    // futex = BLOCKED; xlist_wake_all: splice, one gettimeofday for the list.
                    self.futex[task] = BLOCKED;
                    let list = std::mem::take(&mut self.list[mi]);
                    for &w in &list {
                        self.wake_time[w] = now;
                    }
                    // Popped from the end: most recent poster first (xlist is a prepend list).
                    self.posting[mi] = list;
                    self.phase[task] = Phase::MPost;
                }
                Phase::MPost => match self.posting[mi].pop() {
                    Some(w) => {
                        if self.fpost(w) {
                            self.phase[task] = Phase::MAfterWake(w);
                            return self.futex_syscall();
                        }
                    }
                    None => self.phase[task] = Phase::MWait,
                },
                Phase::MAfterWake(w) => {
                    self.futex_woken(w, fx);
                    self.phase[task] = Phase::MPost;
                }
                Phase::MWait => {
                    if self.futex[task] == RUNNING {
                        self.futex[task] = BLOCKED;
                        self.phase[task] = Phase::MLoop;
                        continue;
                    }
                    self.phase[task] = Phase::MWaitCheck;
                    return self.futex_syscall();
                }
                Phase::MWaitCheck => {
                    self.phase[task] = Phase::MWait;
                    if self.futex[task] == RUNNING {
                        continue; // -EWOULDBLOCK: posted meanwhile
                    }
                    self.in_wait[task] = true;
                    return Step::Block;
                }
                _ => unreachable!("worker phase on a message thread"),
            }
        }
    }

    fn worker_next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step {
        let m = self.msg_of(task);
        let mi = task / self.stride();
        loop {
            match self.phase[task] {
                Phase::WPost => {
                    // msg_and_wait: futex = BLOCKED, wake_time = now, xlist_add, fpost(msg).
                    self.futex[task] = BLOCKED;
                    self.wake_time[task] = now;
                    self.list[mi].push(task);
                    if self.fpost(m) {
                        self.phase[task] = Phase::WAfterPost;
                        return self.futex_syscall();
                    }
                    self.phase[task] = Phase::WWait;
                }
                Phase::WAfterPost => {
                    self.futex_woken(m, fx);
                    self.phase[task] = Phase::WWait;
                }
                Phase::WWait => {
                    if self.futex[task] == RUNNING {
                        self.futex[task] = BLOCKED;
                        // gettimeofday after fwait: usec timestamps, recorded if the delta > 0.
                        let us = (now / 1000).saturating_sub(self.wake_time[task] / 1000);
                        if us > 0 {
                            self.wakeup.add(us);
                        }
                        self.wakeup_ns.0 += now.saturating_sub(self.wake_time[task]) as u128;
                        self.wakeup_ns.1 += 1;
                        self.phase[task] = Phase::WStart;
                        continue;
                    }
                    self.phase[task] = Phase::WWaitCheck;
                    return self.futex_syscall();
                }
                Phase::WWaitCheck => {
                    self.phase[task] = Phase::WWait;
                    if self.futex[task] == RUNNING {
                        continue;
                    }
                    self.in_wait[task] = true;
                    return Step::Block;
                }
                Phase::WStart => {
                    self.work_start[task] = now;
                    if self.sleep > 0 {
                        self.phase[task] = Phase::WSleep;
                        return Step::Run { ns: self.costs.syscall(NANOSLEEP_REF), sys: true };
                    }
                    self.phase[task] = Phase::WLock;
                }
                Phase::WSleep => {
                    self.phase[task] = Phase::WLock;
                    return Step::SleepUntil(now + self.sleep + TIMER_SLACK);
                }
                Phase::WLock => {
                    if !self.locking {
                        self.phase[task] = Phase::WWork;
                        continue;
                    }
                    // lock_this_cpu: sched_getcpu().
                    self.lock_of[task] = Some(fx.cpu % self.locks.len());
                    self.phase[task] = Phase::WSpin;
                }
                Phase::WSpin => {
                    let l = self.lock_of[task].unwrap_or(0);
                    if self.locks[l].is_none() {
                        self.locks[l] = Some(task);
                        if fx.cpu % self.locks.len() != l {
                            // Got the lock but migrated: unlock and start again.
                            self.locks[l] = None;
                            self.phase[task] = Phase::WLock;
                            continue;
                        }
                        self.holds[task] = true;
                        self.phase[task] = Phase::WWork;
                        continue;
                    }
                    self.spin_ns += SPIN_CHUNK;
                    return Step::Run { ns: SPIN_CHUNK, sys: false };
                }
                Phase::WWork => {
                    self.phase[task] = Phase::WDone;
                    return Step::Run { ns: self.costs.work(self.math_ref() + REQUEST_USER_REF), sys: false };
                }
                Phase::WDone => {
                    if std::mem::take(&mut self.holds[task]) {
                        if let Some(l) = self.lock_of[task].take() {
                            self.locks[l] = None;
                        }
                    }
                    self.loop_count += 1;
                    let sec = (now / SEC) as usize;
                    if self.per_second.len() <= sec {
                        self.per_second.resize(sec + 1, 0);
                    }
                    self.per_second[sec] += 1;
                    let us = (now / 1000).saturating_sub(self.work_start[task] / 1000);
                    if us > 0 {
                        self.request.add(us);
                    }
                    self.phase[task] = Phase::WPost;
                }
                _ => unreachable!("message phase on a worker"),
            }
        }
    }

    /// Requests completed so far.
    pub fn requests(&self) -> u64 {
        self.loop_count
    }

    /// Workers per message thread (after the `0 = CPUs` default).
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Mean wakeup latency in ns (exact, not from the histogram).
    pub fn wakeup_mean_ns(&self) -> f64 {
        if self.wakeup_ns.1 == 0 {
            0.0
        } else {
            self.wakeup_ns.0 as f64 / self.wakeup_ns.1 as f64
        }
    }

    /// `rps_stats`: one sample per full simulated second, or the run's average if shorter.
    pub fn rps_plat(&self, elapsed: Ns) -> Plat {
        let mut p = Plat::default();
        let full = (elapsed / SEC) as usize;
        if full == 0 {
            if elapsed > 0 {
                p.add((self.loop_count as u128 * SEC as u128 / elapsed as u128) as u64);
            }
        } else {
            for s in 0..full {
                p.add(self.per_second.get(s).copied().unwrap_or(0));
            }
        }
        p
    }
}

impl Workload for Schbench {
    /// schbench's main thread creates the message threads; each creates its workers.
    fn parent(&self, task: usize) -> Option<Parent> {
        let k = task % self.stride();
        Some(if k == 0 { Parent::Cpu(0) } else { Parent::Task(task - k) })
    }

    fn tasks(&mut self) -> Vec<TaskSpec> {
        let ws = 3 * self.msize * self.msize * 8;
        let op_us = (self.msize.pow(3) * MATH_PS_PER_ITER / 1_000_000).max(1);
        (0..self.phase.len())
            .map(|t| {
                let (mi, k) = (t / self.stride(), t % self.stride());
                if k == 0 {
                    TaskSpec {
                        name: format!("schbench-msg{mi}"),
                        group: "message".into(),
                        ws_bytes: 16 << 10,
                        touch_bytes_per_us: 16 << 10,
                        nice: 0,
                        core: t,
                        mm: 0, // schbench's threads are pthreads of one process
                    }
                } else {
                    TaskSpec {
                        name: format!("schbench-worker{mi}.{}", k - 1),
                        group: "worker".into(),
                        ws_bytes: ws.max(4096),
                        // It sweeps its three matrices once per operation.
                        touch_bytes_per_us: (ws / op_us).max(1),
                        nice: 0,
                        core: t,
                        mm: 0,
                    }
                }
            })
            .collect()
    }

    fn next(&mut self, task: usize, now: Ns, fx: &mut Fx) -> Step {
        if self.is_msg(task) {
            self.msg_next(task, now, fx)
        } else {
            self.worker_next(task, now, fx)
        }
    }

    fn done(&self) -> bool {
        false
    }

    /// schbench's "average rps": requests completed over the run.
    fn result(&self, elapsed: Ns) -> Result {
        let v = if elapsed == 0 { 0.0 } else { self.loop_count as f64 * 1e9 / elapsed as f64 };
        Result { value: v, unit: "requests/s", higher_is_better: true }
    }

    fn extra(&self, elapsed: Ns) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        let mut stats = |name: &str, p: &Plat, permille: &[u64]| {
            out.push((format!("{name}_samples"), p.nr_samples as f64));
            for (&pm, (v, n)) in permille.iter().zip(p.percentiles(permille)) {
                let label = format!("{}.{}", pm / 10, pm % 10);
                out.push((format!("{name}_p{label}"), v as f64));
                out.push((format!("{name}_p{label}_samples"), n as f64));
            }
            out.push((format!("{name}_min"), p.min as f64));
            out.push((format!("{name}_max"), p.max as f64));
        };
        stats("wakeup_us", &self.wakeup, &LAT_PERMILLE);
        stats("request_us", &self.request, &LAT_PERMILLE);
        stats("rps", &self.rps_plat(elapsed), &RPS_PERMILLE);
        out.push(("wakeup_mean_us".into(), self.wakeup_mean_ns() / 1e3));
        out.push(("average_rps".into(), self.result(elapsed).value));
        out.push(("lock_spin_s".into(), self.spin_ns as f64 / 1e9));
        out.push(("message_threads".into(), self.msg_threads as f64));
        out.push(("workers".into(), self.workers as f64));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::Config;

    fn bench(m: usize, w: usize, locking: bool) -> Schbench {
        let costs = Costs::new(Config::default().profile());
        Schbench::new(m, w, 5, 256, 100 * US, locking, 4, costs)
    }

    /// Steps task `t` on `cpu` at `now` until it blocks, sleeps or runs math; returns (step, wakes).
    fn drive(s: &mut Schbench, t: usize, cpu: usize, now: Ns) -> (Step, Vec<(usize, bool)>, Ns) {
        let mut fx = Fx { cpu, ..Fx::default() };
        let mut wakes = Vec::new();
        let mut now = now;
        loop {
            let step = s.next(t, now, &mut fx);
            wakes.append(&mut fx.wakes);
            match step {
                Step::Run { ns, sys: true } => now += ns,
                other => return (other, wakes, now),
            }
        }
    }

    #[test]
    fn matrix_size_follows_the_footprint() {
        assert_eq!(matrix_size(256), 104, "sqrt(256 * 1024 / 3 / 8) = 104.5");
        assert_eq!(matrix_size(1), 6);
        let s = bench(1, 1, true);
        assert_eq!(s.math_ref(), 5 * 104 * 104 * 104 * 5 / 2, "5 ops of 104^3 iterations at 2.5 ns");
    }

    #[test]
    fn histogram_matches_fio_plat() {
        for v in [0u64, 1, 255, 511, 512, 513, 1000, 17_000, 1 << 30] {
            let i = plat_val_to_idx(v);
            let back = plat_idx_to_val(i);
            if v < 512 {
                assert_eq!(back, v);
            } else if v < (1 << 26) {
                assert!(back.abs_diff(v) * 256 <= v, "{v} -> {i} -> {back}");
            }
        }
        assert_eq!(plat_val_to_idx(1000), 2 * 256 + (1000 >> 1) as usize % 256);
        let mut p = Plat::default();
        for v in 1..=1000u64 {
            p.add(v);
        }
        let out = p.percentiles(&LAT_PERMILLE);
        assert_eq!(out.iter().map(|o| o.1).sum::<u64>(), 999, "counts up to the 99.9th");
        assert!(out[0].0.abs_diff(500) <= 1 && out[3].0.abs_diff(999) <= 2, "{out:?}");
        assert_eq!((p.min, p.max, p.nr_samples), (1, 1000, 1000));
    }

    #[test]
    fn the_last_posted_worker_waits_for_the_message_threads_futex_wakes_ahead_of_it() {
        // One message thread (task 0), 3 workers (tasks 1..=3).
        let mut s = bench(1, 3, true);
        let (st, _, _) = drive(&mut s, 0, 0, 0);
        assert_eq!(st, Step::Block, "the message thread waits in FUTEX_WAIT");
        // Worker 1 posts: its fpost wakes the message thread (not WF_SYNC); 2 and 3 find
        // the futex already RUNNING and make no system call.
        let (st, w, _) = drive(&mut s, 1, 1, 1_000);
        assert_eq!((st, w), (Step::Block, vec![(0, false)]));
        for t in [2, 3] {
            let (st, w, _) = drive(&mut s, t, t, 1_000);
            assert_eq!((st, w.len()), (Step::Block, 0), "worker {t}");
        }
        // The message thread runs its list: one futex_wake system call per worker, most
        // recent poster first; each wake completes one syscall later than the previous.
        let mut fx = Fx::default();
        let mut now = 10_000;
        let mut woke = Vec::new();
        loop {
            let step = s.next(0, now, &mut fx);
            for (w, sync) in fx.wakes.drain(..) {
                assert!(!sync, "futex_wake -> wake_up_q: wake_flags 0");
                woke.push((w, now));
            }
            match step {
                Step::Run { ns, .. } => now += ns,
                _ => break,
            }
        }
        assert_eq!(woke.iter().map(|w| w.0).collect::<Vec<_>>(), vec![3, 2, 1]);
        let syscall = Costs::new(Config::default().profile()).syscall(FUTEX_OP_REF);
        for (k, &(w, at)) in woke.iter().enumerate() {
            assert_eq!(at - 10_000, (k as u64 + 1) * syscall, "worker {w}");
        }
        // Each worker measures from the message thread's one gettimeofday: the last one
        // woken includes the two wakes ahead of it. Each runs 500 ns after its wake.
        for &(w, at) in &woke {
            assert_eq!(s.wake_time[w], 10_000);
            let (st, _, _) = drive(&mut s, w, w, at + 500);
            assert!(matches!(st, Step::SleepUntil(_)), "{st:?}");
        }
        assert_eq!(s.wakeup_ns.1, 3);
        assert_eq!(s.wakeup_ns.0, (3 * 500 + 6 * syscall) as u128, "500 ns + k futex_wake calls for the k-th");
    }

    #[test]
    fn a_worker_preempted_in_the_math_keeps_its_cpus_lock_and_the_next_one_spins() {
        let mut s = bench(1, 2, true);
        for t in [1, 2] {
            s.phase[t] = Phase::WLock;
        }
        // Worker 1 takes CPU 0's lock and starts its math.
        let (st, _, _) = drive(&mut s, 1, 0, 0);
        assert!(matches!(st, Step::Run { sys: false, ns } if ns > SPIN_CHUNK), "{st:?}");
        // Worker 2 on the same CPU spins.
        let (st, _, _) = drive(&mut s, 2, 0, 0);
        assert_eq!(st, Step::Run { ns: SPIN_CHUNK, sys: false });
        assert_eq!(s.next(2, 0, &mut Fx::default()), Step::Run { ns: SPIN_CHUNK, sys: false }, "still spinning");
        // Worker 1 finishes (wherever it runs now): the lock is free, worker 2 gets it.
        let (_, _, _) = drive(&mut s, 1, 1, 20_000_000);
        let (st, _, _) = drive(&mut s, 2, 0, 20_000_000);
        assert!(matches!(st, Step::Run { sys: false, ns } if ns > SPIN_CHUNK), "{st:?}");
        // Without locking nobody spins.
        let mut s = bench(1, 2, false);
        for t in [1, 2] {
            s.phase[t] = Phase::WLock;
            let (st, _, _) = drive(&mut s, t, 0, 0);
            assert!(matches!(st, Step::Run { sys: false, ns } if ns > SPIN_CHUNK), "{st:?}");
        }
    }

    #[test]
    fn the_request_includes_the_sleep_and_its_timer_slack() {
        let mut s = bench(1, 1, true);
        s.phase[1] = Phase::WStart;
        let (st, _, t) = drive(&mut s, 1, 0, 0);
        assert_eq!(st, Step::SleepUntil(t + 100 * US + TIMER_SLACK));
        s.next(1, t + 150 * US, &mut Fx::default());
        let done = t + 150 * US + 7 * crate::engine::time::MS;
        s.next(1, done, &mut Fx::default());
        assert_eq!(s.requests(), 1);
        assert_eq!(s.request.max, done / 1000);
    }
}
