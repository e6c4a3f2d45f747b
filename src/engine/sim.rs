//! The simulation core: cores, timers, idle, wakeups and the costs they take.
//!
//! STRUCTS: `Sim` owns time, the event queue, the cores, the tasks, one policy and one
//! workload. EVENTS: a burst's end, the periodic tick, the hrtick, a reschedule kick (IPI
//! arrival or a polling core noticing), a task's sleep timer. Each core also has a cursor
//! `avail`: costs (switch, refill, reprogram, IPI, C-state exit, tick handler, wakeup work)
//! are laid end to end from it as overhead spans, and a task runs only after them. An event
//! for a core that is still paying overheads is handled at the end of those overheads.
//! MODEL (kernel-mechanisms.md):
//! - Switch: a context switch costs the profile's direct cost; the incoming task then
//!   refills what others evicted from its last-level cache since it last ran:
//!   `ws * T / (T + llc)` bytes, `T` = bytes the other tasks touched in that cache
//!   meanwhile (a rational stand-in for random-replacement eviction, integer-exact),
//!   at the profile's refill bandwidth. Refill is charged to the task as user time.
//! - Wakeup (`try_to_wake_up`): costs the waker `ttwu`; the target core is the waker's for
//!   a synchronous wakeup when the waker runs alone there (wake_affine), else the task's
//!   previous core; then `select_idle_sibling` prefers an idle core in the same LLC.
//!   A remote target that is idle in a C-state, or running a task to be preempted, gets a
//!   reschedule IPI (send cost on the waker, latency, receive cost on the target); a core
//!   idling in POLL (or any core with `resched_ipi=off`, which means idle=poll) notices
//!   the flag without one.
//! - Idle: going idle is a switch to the idle task; a newly idle core pulls a waiting task
//!   from the busiest core unless `avg_idle < migration_cost` (idle_balance); then nohz may
//!   stop the tick (one reprogram), unless the rate limit sees `avg_idle <
//!   migration_cost`; then the governor picks a state. Leaving idle costs the state's exit
//!   latency (if the state was entered) and, if the tick was stopped,
//!   `nohz_exit_reprograms` reprograms. `avg_idle` is updated on wakeups as the kernel's
//!   `ttwu_do_wakeup` does.
//! - Tick: every 1/HZ on cores whose tick runs: the handler's cost, the policy's tick
//!   check (skipped while the hrtick is armed), and every fourth tick the periodic load
//!   balancer (move one waiting task from the busiest core when the imbalance is two or
//!   more; a busy core also pushes work to a nohz-idle core, as the nohz balancer does).
//!   An idle core with its tick running wakes for each tick.
//! - hrtick: when a task is picked and others wait, an hrtimer is armed for the rest of its
//!   slice (at least 10 us), one reprogram; its expiry reschedules at once. It is also
//!   armed when a task joins a core whose hrtick is not armed (hrtick_update), if the core
//!   learns of it: a local wakeup, a timer, or an IPI.
//!
//! Simplified: no SMT, no NUMA, one cache level; timers of sleeping tasks live on the core
//! the task last ran on; a remote enqueue that sends no IPI arms the target's hrtick only
//! at its next pick.

use super::config::{CStates, Config, Policy as PolicyKind};
use super::idle::{GovernorState, IdleRequest, IdleState};
use super::metrics::{Metrics, Percentiles, StopReason, TaskStats};
use super::policy::{self, cfs::weight_of_nice, AnyPolicy, Arrival, Policy, SchedEntity};
use super::profile::Profile;
use super::queue::EventQueue;
use super::time::{mul_div, Ns, SEC, US};
use super::trace::{InstantKind, Overhead, Recorder, SpanKind, TaskInfo, TraceOptions};
use super::workload::{self, AnyWorkload, Fx, Step, Workload};
use super::Outcome;

/// The shortest hrtick the kernel arms (`hrtick_start_fair`: at least 10 us).
const HRTICK_MIN: Ns = 10 * US;
/// Load balance every this many ticks of a core.
const BALANCE_EVERY: u64 = 4;

// ---------------------------------------------------------------- EVENTS

#[derive(Clone, Copy, Debug, Default)]
pub enum Ev {
    /// The running task's burst ends (stale if `gen` != the core's `run_gen`).
    BurstEnd {
        c: u16,
        gen: u32,
    },
    Tick {
        c: u16,
        gen: u32,
    },
    Hrtick {
        c: u16,
        gen: u32,
    },
    /// The core notices a reschedule request: an IPI (`ipi`) or a polling idle loop.
    Kick {
        c: u16,
        ipi: bool,
    },
    /// A sleeping task's timer fires.
    Timer {
        task: u32,
        gen: u32,
    },
    #[default]
    Nop,
}

// ---------------------------------------------------------------- STRUCTS

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TaskState {
    Runnable,
    Blocked,
    Sleeping,
    Exited,
}

#[derive(Clone, Debug)]
struct Task {
    state: TaskState,
    /// Core it runs on, waits on, or last ran on.
    core: usize,
    burst_left: Ns,
    burst_sys: bool,
    ws: u64,
    touch_per_us: u64,
    /// LLC it last ran in (None: fresh, nothing to refill).
    cache_domain: Option<usize>,
    /// The domain's `touched` counter when it last stopped running.
    cache_mark: u64,
    woke_at: Option<Ns>,
    timer_gen: u32,
    sleep_until: Ns,
    stats: TaskStats,
}

#[derive(Clone, Copy, Debug)]
struct IdleSpan {
    /// Position in `Sim::idle_states`.
    pos: usize,
    /// When the state was entered (after the idle entry path).
    since: Ns,
    /// When the idle path began (for measured idle length).
    entered: Ns,
    /// What the governor was told.
    next_timer: Ns,
}

#[derive(Clone, Debug)]
struct Core {
    curr: Option<usize>,
    /// Whether `curr` is executing its burst since `since`.
    running: bool,
    since: Ns,
    idle: Option<IdleSpan>,
    /// The core is committed to overheads until this time.
    avail: Ns,
    /// The task whose context the core holds (None after switching to idle).
    last_task: Option<usize>,
    run_gen: u32,
    tick_gen: u32,
    hr_gen: u32,
    hrtick_armed: bool,
    tick_stopped: bool,
    need_resched: bool,
    kick_pending: bool,
    idle_stamp: Option<Ns>,
    avg_idle: Ns,
    gov: GovernorState,
    domain: usize,
    ticks: u64,
    // Per-core accounting for conservation checks.
    run_ns: Ns,
    idle_ns: Ns,
    overhead_ns: Ns,
}

/// Bounded log histogram of wakeup latencies: 8 buckets per octave.
#[derive(Clone, Debug)]
struct Hist {
    buckets: Vec<u64>,
    count: u64,
    max: Ns,
}

impl Hist {
    fn new() -> Self {
        Hist { buckets: vec![0; 64 * 8], count: 0, max: 0 }
    }
    fn bucket(ns: Ns) -> usize {
        if ns < 8 {
            return ns as usize;
        }
        let log = 63 - ns.leading_zeros() as usize;
        let frac = ((ns >> (log - 3)) & 7) as usize;
        log * 8 + frac
    }
    /// Upper bound of a bucket in ns.
    fn upper(b: usize) -> Ns {
        if b < 8 {
            return b as Ns;
        }
        let (log, frac) = (b / 8, (b % 8) as u64);
        (8 + frac + 1) << (log - 3)
    }
    fn add(&mut self, ns: Ns) {
        self.buckets[Self::bucket(ns)] += 1;
        self.count += 1;
        self.max = self.max.max(ns);
    }
    fn percentile(&self, p: u64) -> Ns {
        if self.count == 0 {
            return 0;
        }
        let want = (self.count * p).div_ceil(100).max(1);
        let mut seen = 0;
        for (b, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= want {
                return Self::upper(b).min(self.max);
            }
        }
        self.max
    }
}

#[derive(Clone, Debug, Default)]
struct Counters {
    context_switches: u64,
    migrations: u64,
    ipis: u64,
    timer_reprograms: u64,
    nohz_entries: u64,
    ticks: u64,
    hrtick_fires: u64,
    wakeups: u64,
    preemptions: u64,
    user_ns: u64,
    sys_ns: u64,
    overhead: [u64; 7],
    idle_ns: Vec<u64>,
    idle_entries: Vec<u64>,
}

pub struct Sim {
    cfg: Config,
    prof: &'static Profile,
    q: EventQueue<Ev>,
    now: Ns,
    cores: Vec<Core>,
    tasks: Vec<Task>,
    se: Vec<SchedEntity>,
    policy: AnyPolicy,
    wl: AnyWorkload,
    fx: Fx,
    /// Per LLC: bytes touched by all tasks so far.
    touched: Vec<u64>,
    idle_states: Vec<IdleState>,
    idle_names: Vec<String>,
    tick_period: Ns,
    llc_bytes: u64,
    rec: Recorder,
    m: Counters,
    lat: Hist,
    events: u64,
    /// Events popped with a time before `now` (must stay 0; see `run_checked`).
    past_events: u64,
    /// Tasks sleeping on a timer, per core (their timers live on that core).
    sleeping: Vec<u32>,
    stop: Option<(StopReason, Ns)>,
}

/// What `run_checked` reports besides the outcome: the invariants' raw material.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Events popped with a time before the current time (the queue must never allow one).
    pub past_events: u64,
    /// Per core (run, idle, overhead) ns; their sum is the elapsed time on every core.
    pub accounts: Vec<(Ns, Ns, Ns)>,
    /// End of simulated time.
    pub end: Ns,
}

/// Queue occupancy seen by a run (for the benchmark's bare loop).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueProbe {
    pub events: u64,
    /// Mean pending events at a pop, rounded.
    pub mean_len: usize,
    pub max_len: usize,
}

/// `Overhead::ALL` lists the kinds in declaration order, so the discriminant is the index
/// (checked by a test); this replaced a linear search on every overhead.
#[inline]
fn oh_index(k: Overhead) -> usize {
    k as usize
}

// ---------------------------------------------------------------- MODEL

impl Sim {
    pub fn new(config: &Config, trace: Option<TraceOptions>) -> Self {
        let cfg = config.clone();
        let prof = cfg.profile();
        let ncores = cfg.cores.max(1) as usize;
        // Idle states: POLL, then the enabled C-states (none with idle=poll).
        let mut idle_states = vec![IdleState { index: 0, exit_latency: 0, target_residency: 0 }];
        let mut idle_names = vec!["POLL".to_string()];
        let mut all_names = vec!["POLL".to_string()];
        for (i, s) in prof.cstates.iter().enumerate() {
            all_names.push(s.name.to_string());
            let enabled = match &cfg.cstates {
                CStates::All => true,
                CStates::Off => false,
                CStates::Only(list) => list.iter().any(|n| n == s.name),
            };
            if enabled && cfg.resched_ipi {
                idle_states.push(IdleState {
                    index: (i + 1) as u8,
                    exit_latency: s.exit_latency,
                    target_residency: s.target_residency,
                });
                idle_names.push(s.name.to_string());
            }
        }
        let llc_cores = prof.llc_cores.max(1) as usize;
        let cores = (0..ncores)
            .map(|c| Core {
                curr: None,
                running: false,
                since: 0,
                idle: None,
                avail: 0,
                last_task: None,
                run_gen: 0,
                tick_gen: 0,
                hr_gen: 0,
                hrtick_armed: false,
                tick_stopped: false,
                need_resched: false,
                kick_pending: false,
                idle_stamp: None,
                avg_idle: 2 * cfg.migration_cost,
                gov: GovernorState::new(cfg.governor, idle_states.len()),
                domain: c / llc_cores,
                ticks: 0,
                run_ns: 0,
                idle_ns: 0,
                overhead_ns: 0,
            })
            .collect::<Vec<_>>();
        let ndomains = ncores.div_ceil(llc_cores);
        let mut wl = workload::build(&cfg);
        let specs = wl.tasks();
        let mut rec = Recorder::new(trace);
        rec.trace.cores = ncores as u16;
        rec.trace.idle_states = all_names;
        rec.trace.tasks = specs.iter().map(|s| TaskInfo { name: s.name.clone(), group: s.group.clone() }).collect();
        let tasks: Vec<Task> = specs
            .iter()
            .map(|s| Task {
                state: TaskState::Runnable,
                core: s.core % ncores,
                burst_left: 0,
                burst_sys: false,
                ws: s.ws_bytes.min(prof.llc_bytes),
                touch_per_us: s.touch_bytes_per_us,
                cache_domain: None,
                cache_mark: 0,
                woke_at: None,
                timer_gen: 0,
                sleep_until: 0,
                stats: TaskStats { name: s.name.clone(), ..TaskStats::default() },
            })
            .collect();
        let se =
            specs.iter().map(|s| SchedEntity { weight: weight_of_nice(s.nice), ..SchedEntity::default() }).collect();
        let nstates = idle_names.len();
        Sim {
            policy: policy::build(&cfg),
            prof,
            q: EventQueue::new(),
            now: 0,
            cores,
            tasks,
            se,
            wl,
            fx: Fx::default(),
            touched: vec![0; ndomains],
            idle_states,
            idle_names,
            tick_period: SEC / cfg.hz.max(1) as u64,
            llc_bytes: prof.llc_bytes.max(1),
            rec,
            m: Counters { idle_ns: vec![0; nstates], idle_entries: vec![0; nstates], ..Counters::default() },
            lat: Hist::new(),
            events: 0,
            past_events: 0,
            sleeping: vec![0; ncores],
            stop: None,
            cfg,
        }
    }

    /// Runs to completion, the time limit or the event budget.
    pub fn run(mut self) -> Outcome {
        self.simulate();
        self.finish()
    }

    fn start(&mut self) {
        for t in 0..self.tasks.len() {
            let c = self.tasks[t].core;
            self.policy.enqueue(&mut self.se, c, t, Arrival::New, 0);
        }
        for c in 0..self.cores.len() {
            self.q.push_late(self.tick_period, Ev::Tick { c: c as u16, gen: 0 });
            self.pick_loop(c);
        }
    }

    fn simulate(&mut self) {
        self.start();
        while self.step() {}
    }

    /// Handles the next event. False once the run has stopped.
    #[inline]
    fn step(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        let limit = self.cfg.duration;
        let Some((t, ev)) = self.q.pop() else {
            self.stop = Some((StopReason::TimeLimit, limit.max(self.now)));
            return false;
        };
        if t > limit {
            self.stop = Some((StopReason::TimeLimit, limit));
            return false;
        }
        if self.events >= self.cfg.max_events {
            self.stop = Some((StopReason::EventBudget, self.now));
            return false;
        }
        if t < self.now {
            // Never expected: counted (tests require 0) rather than asserted, so a release
            // build in a browser tab cannot die of it.
            self.past_events += 1;
        }
        self.events += 1;
        self.now = t;
        match ev {
            Ev::BurstEnd { c, gen } => self.on_burst_end(c as usize, gen),
            Ev::Tick { c, gen } => self.on_tick(c as usize, gen),
            Ev::Hrtick { c, gen } => self.on_hrtick(c as usize, gen),
            Ev::Kick { c, ipi } => self.on_kick(c as usize, ipi),
            Ev::Timer { task, gen } => self.on_timer(task as usize, gen),
            Ev::Nop => {}
        }
        true
    }

    // ------------------------------------------------------------ core time

    /// The core's cursor: now, or later if it is still paying overheads.
    fn cursor(&mut self, c: usize) -> Ns {
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

    /// Lays an overhead of `d` ns at the core's cursor.
    fn overhead(&mut self, c: usize, kind: Overhead, d: Ns) {
        if d == 0 {
            return;
        }
        let t = self.cursor(c);
        self.rec.span(c, t, t + d, SpanKind::Overhead { kind });
        self.m.overhead[oh_index(kind)] += d;
        let core = &mut self.cores[c];
        core.overhead_ns += d;
        core.avail = t + d;
    }

    /// Charges the running task up to the cursor and stops its burst clock.
    fn interrupt(&mut self, c: usize) -> Option<usize> {
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
            let tk = &mut self.tasks[task];
            tk.burst_left -= ran.min(tk.burst_left);
            tk.stats.runtime_ns += ran;
            if tk.burst_sys {
                self.m.sys_ns += ran;
            } else {
                self.m.user_ns += ran;
            }
            self.cores[c].run_ns += ran;
            let d = self.cores[c].domain;
            self.touched[d] += (tk.touch_per_us * ran / US).min(tk.ws);
            self.policy.update_curr(&mut self.se, c, task, ran);
            self.rec.span(c, since, t, SpanKind::Run { task: task as u32, sys: tk.burst_sys });
        }
        Some(task)
    }

    /// Lets `curr` continue its burst from the cursor.
    fn resume(&mut self, c: usize) {
        let Some(task) = self.cores[c].curr else { return };
        let t = self.cursor(c);
        let core = &mut self.cores[c];
        core.running = true;
        core.since = t;
        core.run_gen = core.run_gen.wrapping_add(1);
        let gen = core.run_gen;
        self.q.push(t + self.tasks[task].burst_left, Ev::BurstEnd { c: c as u16, gen });
    }

    /// The task leaves the CPU: remember what it left in the cache.
    fn mark_cache(&mut self, c: usize, task: usize) {
        let d = self.cores[c].domain;
        let tk = &mut self.tasks[task];
        if tk.cache_domain.is_some() || tk.stats.runtime_ns > 0 {
            tk.cache_domain = Some(d);
            tk.cache_mark = self.touched[d];
        }
    }

    fn refill_cost(&self, c: usize, task: usize) -> Ns {
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

    /// Preempts `curr` (if any) and picks again.
    fn preempt(&mut self, c: usize) {
        if let Some(task) = self.interrupt(c) {
            self.requeue_curr(c, task);
        }
        self.pick_loop(c);
    }

    /// The core lets go of `curr`: no task, and its hrtick (if armed) is cancelled.
    fn release_curr(&mut self, c: usize) {
        let core = &mut self.cores[c];
        core.curr = None;
        core.hr_gen = core.hr_gen.wrapping_add(1);
        core.hrtick_armed = false;
    }

    /// A preempted, still runnable `curr` goes back to the runqueue.
    fn requeue_curr(&mut self, c: usize, task: usize) {
        self.m.preemptions += 1;
        self.release_curr(c);
        let t = self.cursor(c);
        self.policy.put_prev(&mut self.se, c, task, t);
    }

    /// Picks tasks until one runs, or goes idle.
    fn pick_loop(&mut self, c: usize) {
        self.cores[c].need_resched = false;
        for _ in 0..10_000 {
            let t = self.cursor(c);
            let Some(n) = self.policy.pick_next(&mut self.se, c, t) else {
                if self.go_idle(c) {
                    continue;
                }
                return;
            };
            self.cores[c].curr = Some(n);
            self.tasks[n].core = c;
            if self.cores[c].last_task != Some(n) {
                if let Some(prev) = self.cores[c].last_task {
                    self.mark_cache(c, prev);
                }
                self.m.context_switches += 1;
                self.tasks[n].stats.switches_in += 1;
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
                // A waker running ahead of global time (paying overheads) can enqueue a
                // task that another core picks a moment "before" the wakeup: count 0.
                let at = self.cursor(c);
                self.lat.add(at.saturating_sub(w));
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

    /// hrtick_start_fair: arm an hrtimer for the rest of `curr`'s slice when others wait
    /// (at pick time, and when a task is enqueued on this core while it is not armed).
    fn arm_hrtick(&mut self, c: usize, n: usize) {
        if !self.cfg.hrtick || self.cfg.policy == PolicyKind::Sd || self.cores[c].hrtick_armed {
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

    /// `curr` needs its next step (or continues its burst). True if it is now running.
    fn continue_task(&mut self, c: usize, n: usize) -> bool {
        loop {
            if self.tasks[n].burst_left > 0 {
                self.resume(c);
                return true;
            }
            let t = self.cursor(c);
            let step = self.wl.next(n, t, &mut self.fx);
            if self.stop.is_none() && self.wl.done() {
                self.stop = Some((StopReason::Completed, t));
            }
            if std::mem::take(&mut self.fx.exec) {
                self.tasks[n].cache_domain = None;
            }
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
                    self.policy.dequeue_curr(&mut self.se, c, n, t);
                    self.release_curr(c);
                    self.cores[c].need_resched = false;
                    let tk = &mut self.tasks[n];
                    match step {
                        Step::Block => tk.state = TaskState::Blocked,
                        Step::SleepUntil(at) => {
                            tk.state = TaskState::Sleeping;
                            tk.timer_gen = tk.timer_gen.wrapping_add(1);
                            tk.sleep_until = at.max(t);
                            self.sleeping[c] += 1;
                            self.q.push(at.max(t), Ev::Timer { task: n as u32, gen: tk.timer_gen });
                        }
                        _ => tk.state = TaskState::Exited,
                    }
                    return false;
                }
            }
        }
    }

    fn is_idle(&self, c: usize) -> bool {
        self.cores[c].curr.is_none() && self.policy.queued(c).is_empty()
    }

    fn nr_running(&self, c: usize) -> usize {
        self.policy.queued(c).len() + self.cores[c].curr.is_some() as usize
    }

    /// select_task_rq: wake_affine, then select_idle_sibling.
    fn select_core(&self, task: usize, waker: Option<usize>, sync: bool) -> usize {
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
    fn wake(&mut self, w: usize, waker: Option<usize>, sync: bool) {
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

        if let Some(stamp) = self.cores[target].idle_stamp.take() {
            // ttwu_do_wakeup: rq->avg_idle tracks recent idle lengths.
            let core = &mut self.cores[target];
            let max = 2 * self.cfg.migration_cost;
            if core.avg_idle > max {
                core.avg_idle = max;
            } else {
                let delta = t.saturating_sub(stamp);
                let avg = core.avg_idle;
                // avg += (delta - avg) / 8, signed; in i64 when no step can overflow it
                // (always, for durations under 146 years), else in i128: same result.
                const FITS: u64 = 1 << 62;
                core.avg_idle = if delta < FITS && avg < FITS {
                    let (delta, avg) = (delta as i64, avg as i64);
                    (avg + (delta - avg) / 8).max(0) as Ns
                } else {
                    let (delta, avg) = (delta as i128, avg as i128);
                    (avg + (delta - avg) / 8).max(0) as Ns
                };
            }
        }
        if Some(target) == waker {
            if let Some(curr) = self.cores[target].curr {
                if curr != w && self.policy.check_preempt_wakeup(&mut self.se, target, curr, w) {
                    self.cores[target].need_resched = true;
                }
            }
            return;
        }
        if let Some(idle) = self.cores[target].idle {
            if !self.cores[target].kick_pending {
                self.cores[target].kick_pending = true;
                let polling = self.idle_states[idle.pos].index == 0;
                self.kick(target, waker, !polling, t);
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
    fn kick(&mut self, target: usize, from: Option<usize>, ipi: bool, t: Ns) {
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

    // ------------------------------------------------------------ idle

    /// Next timer on core `c` after `t` (sleeping tasks' timers live on their last core).
    fn next_task_timer(&self, c: usize, t: Ns) -> Ns {
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
    fn go_idle(&mut self, c: usize) -> bool {
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
    fn leave_idle(&mut self, c: usize, ipi: bool) {
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

    fn avail_max(&mut self, c: usize, at_least: Ns) -> Ns {
        let t = self.cursor(c).max(at_least);
        self.cores[c].avail = t;
        t
    }

    /// Moves one waiting task from the busiest core to `c`. True if one moved.
    fn pull_one(&mut self, c: usize) -> bool {
        let busiest = (0..self.cores.len())
            .filter(|&b| b != c && !self.policy.queued(b).is_empty())
            .max_by_key(|&b| (self.nr_running(b), std::cmp::Reverse(b)));
        let Some(b) = busiest else { return false };
        if self.nr_running(b) < 2 {
            return false;
        }
        self.migrate_from(b, c)
    }

    fn migrate_from(&mut self, from: usize, to: usize) -> bool {
        let Some(&task) = self.policy.queued(from).last() else { return false };
        let t = self.cursor(to);
        if !self.policy.dequeue(&mut self.se, from, task, t) {
            return false;
        }
        self.policy.enqueue(&mut self.se, to, task, Arrival::Migrated { from }, t);
        self.tasks[task].core = to;
        self.m.migrations += 1;
        self.rec.instant(to, t, InstantKind::Migrate { from: from as u16, task: task as u32 });
        true
    }

    // ------------------------------------------------------------ events

    fn on_burst_end(&mut self, c: usize, gen: u32) {
        if gen != self.cores[c].run_gen || !self.cores[c].running {
            return;
        }
        let Some(task) = self.interrupt(c) else { return };
        if !self.continue_task(c, task) {
            self.pick_loop(c);
        }
    }

    fn on_tick(&mut self, c: usize, gen: u32) {
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

    /// Periodic balancing from a busy core: pull from the busiest, or push to a nohz-idle core.
    fn balance(&mut self, c: usize) {
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
                    let polling = self.cores[x].idle.is_some_and(|i| self.idle_states[i.pos].index == 0);
                    self.kick(x, Some(c), !polling, t);
                }
            }
        }
    }

    fn on_hrtick(&mut self, c: usize, gen: u32) {
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

    fn on_kick(&mut self, c: usize, ipi: bool) {
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

    fn on_timer(&mut self, task: usize, gen: u32) {
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

    // ------------------------------------------------------------ results

    fn finish(&mut self) -> Outcome {
        let (reason, end) = self.stop.unwrap_or((StopReason::TimeLimit, self.now));
        // Close every core's open span at `end`, and give back overhead booked past it.
        for c in 0..self.cores.len() {
            let core = self.cores[c].clone();
            if core.running && core.since < end {
                let task = core.curr.unwrap_or(0);
                let ran = end - core.since;
                self.cores[c].run_ns += ran;
                self.tasks[task].stats.runtime_ns += ran;
                if self.tasks[task].burst_sys {
                    self.m.sys_ns += ran;
                } else {
                    self.m.user_ns += ran;
                }
                let kind = SpanKind::Run { task: task as u32, sys: self.tasks[task].burst_sys };
                self.rec.closing_span(c, core.since, end, kind);
            }
            if let Some(i) = core.idle {
                if i.since < end {
                    self.m.idle_ns[i.pos] += end - i.since;
                    self.cores[c].idle_ns += end - i.since;
                    self.rec.closing_span(c, i.since, end, SpanKind::Idle { state: self.idle_states[i.pos].index });
                }
            }
            let excess = core.avail.saturating_sub(end);
            self.cores[c].overhead_ns -= excess.min(self.cores[c].overhead_ns);
        }
        let result = self.wl.result(end);
        let secs = |ns: u64| ns as f64 / 1e9;
        let idle_total: u64 = self.m.idle_ns.iter().sum();
        let mut m = Metrics {
            elapsed_s: secs(end),
            throughput: result.value,
            throughput_unit: result.unit.to_string(),
            higher_is_better: result.higher_is_better,
            stop_reason: Some(reason),
            events: self.events,
            context_switches: self.m.context_switches,
            migrations: self.m.migrations,
            ipis: self.m.ipis,
            timer_reprograms: self.m.timer_reprograms,
            nohz_entries: self.m.nohz_entries,
            ticks: self.m.ticks,
            hrtick_fires: self.m.hrtick_fires,
            wakeups: self.m.wakeups,
            preemptions: self.m.preemptions,
            user_s: secs(self.m.user_ns),
            sys_s: secs(self.m.sys_ns),
            idle_s: secs(idle_total),
            cpu_percent: if end == 0 { 0.0 } else { (self.m.user_ns + self.m.sys_ns) as f64 * 100.0 / end as f64 },
            wakeup_latency_us: Percentiles {
                p50: self.lat.percentile(50) as f64 / 1e3,
                p99: self.lat.percentile(99) as f64 / 1e3,
                max: self.lat.max as f64 / 1e3,
                count: self.lat.count,
            },
            tasks: self.tasks.iter().map(|t| t.stats.clone()).collect(),
            ..Metrics::default()
        };
        for (i, name) in self.idle_names.iter().enumerate() {
            let frac = if idle_total == 0 { 0.0 } else { self.m.idle_ns[i] as f64 / idle_total as f64 };
            m.cstate_residency.insert(name.clone(), frac);
            m.cstate_entries.insert(name.clone(), self.m.idle_entries[i]);
        }
        for (i, k) in Overhead::ALL.iter().enumerate() {
            m.overhead_s.insert(k.name().to_string(), secs(self.m.overhead[i]));
        }
        // Latency histogram, merged into 4 buckets per octave for display.
        let mut hist = Vec::new();
        for b in (0..self.lat.buckets.len()).step_by(2) {
            let n = self.lat.buckets[b] + self.lat.buckets.get(b + 1).copied().unwrap_or(0);
            if n > 0 {
                hist.push((Hist::upper(b + 1) as f64 / 1e3, n));
            }
        }
        m.wakeup_latency_hist = hist;
        m.digest = digest(&m, &self.cores, end);
        // Overheads booked past the end are cut at the end, like every other span.
        self.rec.trace.spans.retain(|s| s.start < end);
        for s in &mut self.rec.trace.spans {
            s.end = s.end.min(end);
        }
        self.rec.trace.instants.retain(|i| i.time <= end);
        self.rec.trace.end = end;
        Outcome { metrics: m, trace: std::mem::take(&mut self.rec.trace) }
    }

    /// Per-core (run, idle, overhead) ns, for conservation checks.
    pub fn core_accounts(&self) -> Vec<(Ns, Ns, Ns)> {
        self.cores.iter().map(|c| (c.run_ns, c.idle_ns, c.overhead_ns)).collect()
    }
}

/// FNV-1a over integer facts of the run (never over floats or host time).
fn digest(m: &Metrics, cores: &[Core], end: Ns) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for v in [
        end,
        m.events,
        m.context_switches,
        m.migrations,
        m.ipis,
        m.timer_reprograms,
        m.nohz_entries,
        m.ticks,
        m.hrtick_fires,
        m.wakeups,
        m.preemptions,
        m.wakeup_latency_us.count,
    ] {
        eat(v);
    }
    for t in &m.tasks {
        eat(t.runtime_ns);
        eat(t.refill_ns);
        eat(t.switches_in);
    }
    for c in cores {
        eat(c.run_ns);
        eat(c.idle_ns);
        eat(c.overhead_ns);
    }
    format!("{h:016x}")
}

/// Runs a config and returns, besides the outcome, each core's (run, idle, overhead) ns.
/// For tests of CPU-time conservation.
pub fn run_with_accounts(cfg: &Config) -> (Outcome, Vec<(Ns, Ns, Ns)>) {
    let (outcome, checks) = run_checked(cfg, None);
    (outcome, checks.accounts)
}

/// Runs a config (with an optional trace) and returns what the invariant tests check.
pub fn run_checked(cfg: &Config, trace: Option<TraceOptions>) -> (Outcome, Checks) {
    let mut sim = Sim::new(cfg, trace);
    sim.simulate();
    let outcome = sim.finish();
    let end = sim.stop.map_or(sim.now, |s| s.1);
    (outcome, Checks { past_events: sim.past_events, accounts: sim.core_accounts(), end })
}

/// Runs a config and samples the event queue's length at every pop: the width the
/// benchmark's bare loop should use. Same events as `engine::run` (only observed).
pub fn probe_queue(cfg: &Config) -> QueueProbe {
    let mut sim = Sim::new(cfg, None);
    sim.start();
    let (mut sum, mut max, mut n) = (0u64, 0usize, 0u64);
    loop {
        let len = sim.q.len();
        if !sim.step() {
            break;
        }
        sum += len as u64;
        max = max.max(len);
        n += 1;
    }
    QueueProbe {
        events: sim.events,
        mean_len: if n == 0 { 0 } else { (sum as f64 / n as f64).round() as usize },
        max_len: max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overhead_index_is_the_position_in_all() {
        for (i, &k) in Overhead::ALL.iter().enumerate() {
            assert_eq!(oh_index(k), i, "{k:?}");
        }
    }
}
