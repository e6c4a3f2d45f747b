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
//!   idling in a state that polls (by era: `idle_path`) notices the flag without one.
//! - Idle: going idle is a switch to the idle task; a newly idle core balances its sched
//!   domains, lowest first, unless `avg_idle < migration_cost` (idle_balance,
//!   `sim::balance`); then nohz may
//!   stop the tick (one reprogram), unless the rate limit sees `avg_idle <
//!   migration_cost`; then the governor picks a state. Leaving idle costs the state's exit
//!   latency (if the state was entered) and, if the tick was stopped,
//!   `nohz_exit_reprograms` reprograms. `avg_idle` is updated on wakeups as the kernel's
//!   `ttwu_do_wakeup` does.
//! - Tick: every 1/HZ on cores whose tick runs: the handler's cost, the policy's tick
//!   check (skipped while the hrtick is armed), the PELT update of the running task
//!   (`sim::pelt`), and `rebalance_domains` for each sched domain (`sim::domain`) whose
//!   interval is due (`sim::balance`; a busy core also kicks a nohz-idle core).
//!   An idle core with its tick running wakes for each tick.
//! - hrtick: when a task is picked and others wait, an hrtimer is armed for the rest of its
//!   slice (at least 10 us); it reprograms the clock event only when it becomes the core's
//!   earliest timer, and cancelling it while earliest reprograms too (`sim::tick`); its
//!   expiry reschedules at once. It is also
//!   armed when a task joins a core whose hrtick is not armed (hrtick_update), if the core
//!   learns of it: a local wakeup, a timer, or an IPI.
//!
//! Simplified: one cache level (SMT siblings, LLCs, packages and NUMA nodes come from the
//! profile's topology: `sim::schedule` SMT, `sim::wakeup`, `sim::domain`); timers of sleeping tasks live on the core
//! the task last ran on; a remote enqueue that sends no IPI arms the target's hrtick only
//! at its next pick.
//!
//! Over 800 lines (about 990 of code): `Sim`'s state and its event loop; each mechanism is a `sim/` file.

use super::config::Config;
use super::idle::{GovernorState, IdleState};
use super::kernel::Feat;
use super::metrics::{Metrics, Percentiles, StopReason, TaskStats};
use super::policy::{self, cfs::weight_of_nice, AnyPolicy, Arrival, Policy, SchedEntity};
use super::profile::{Place, Profile};
use super::queue::EventQueue;
use super::time::{Ns, SEC, US};
use super::trace::{Overhead, PrevState, Recorder, SpanKind, Switch, TaskInfo, TraceOptions};
use super::workload::{self, AnyWorkload, Fx, Workload};
use super::Outcome;

/// The shortest hrtick the kernel arms (10 us: `hrtick_start` from 4.17, `hrtick_start_fair` before).
const HRTICK_MIN: Ns = 10 * US;

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
    /// A remote wakeup reaches its target at the waker's time (`wakeup::on_ttwu_remote`).
    TtwuRemote {
        task: u32,
        from: u16,
        prev: u16,
        queued: bool,
        sys: bool,
    },
    /// The softlockup watchdog's per-CPU hrtimer fires (`sim::tick::on_watchdog`).
    Watchdog {
        c: u16,
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
    /// The part of `burst_left` still to run that is a stall (`Fx::stall`): it runs at a
    /// lone thread's speed whatever the sibling does.
    burst_stall: Ns,
    burst_sys: bool,
    ws: u64,
    touch_per_us: u64,
    /// LLC it last ran in (None: fresh, nothing to refill).
    cache_domain: Option<usize>,
    /// Its address space (`TaskSpec::mm`; a fresh one after exec): `sim::schedule::LoadedMm`.
    mm: u32,
    /// The domain's `touched` counter when it last stopped running.
    cache_mark: u64,
    woke_at: Option<Ns>,
    /// When it joined its runqueue (a core ahead of global time may have queued it "later").
    queued_at: Ns,
    timer_gen: u32,
    sleep_until: Ns,
    /// The only core it may run on (`Workload::pinned`): wakeups and balancing keep it there.
    pinned: Option<usize>,
    /// CPU time in its own bursts (the part of its on-CPU time that is not overhead).
    burst_ns: Ns,
    /// When it last blocked or went to sleep (its core's cursor then).
    blocked_at: Ns,
    /// Its PELT average (`se->avg`, `sim::pelt`), attached to runqueue `avg_cpu`'s.
    avg: pelt::Avg,
    avg_cpu: Option<usize>,
    /// When it last stopped running (`se.exec_start` as `task_hot` reads it; 0: never ran).
    ran_at: Ns,
    util_est: pelt::UtilEst,
    /// `record_wakee` (4.17+ eras): how often it woke a task other than its last wakee
    /// (`wakee_flips`, halved once a second), that last wakee, and when the flips last
    /// decayed (`wakee_flip_decay_ts`).
    wakee_flips: u32,
    last_wakee: Option<u32>,
    wakee_flip_decay_ts: Ns,
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
    /// The cache refills laid after switches that global time has not yet passed,
    /// `[start, end)` each: user time (the task's own loads missing), so a tick sampled in
    /// one is a user sample (`Sim::sample_tick`). A core running ahead can lay more than one.
    refills: Vec<(Ns, Ns)>,
    /// The task whose context the core holds (None after switching to idle).
    last_task: Option<usize>,
    /// When `last_task` (or the idle task) was switched in: its on-CPU time runs from here.
    switched_at: Ns,
    /// The mm its MMU holds and the TLB's tagged mms (`context_switch`'s `switch_mm`).
    mm: schedule::LoadedMm,
    /// What this core counted at a time after global time (it runs ahead while it pays
    /// overheads): kept until global time passes it, so the run's end can leave out what
    /// lies past it (`Sim::count_late`). A few entries: global time soon catches up.
    late: Vec<(Ns, Late)>,
    /// The earliest time in `late` (`Ns::MAX` when empty): `count_late` settles only once
    /// global time reaches it.
    late_min: Ns,
    run_gen: u32,
    tick_gen: u32,
    hr_gen: u32,
    hrtick_armed: bool,
    /// When the armed hrtick expires (meaningful while `hrtick_armed`).
    hr_expires: Ns,
    tick_stopped: bool,
    need_resched: bool,
    kick_pending: bool,
    idle_stamp: Option<Ns>,
    avg_idle: Ns,
    /// Next expiry of the softlockup watchdog's hrtimer (`Ns::MAX`: none in this era).
    wd_next: Ns,
    /// The core left idle and has not switched to a task since (`sim::idle_path`).
    from_idle: bool,
    /// When the tick last updated this rq's clock (`scheduler_tick`).
    tick_clock: Ns,
    /// The rq's `cpu_load[0]` as the last tick or nohz exit left it (3.11's menu reads it).
    cpu_load0: u64,
    /// The CPU's PELT utilisation (teo's util-awareness reads it).
    pelt: idle_path::Pelt,
    /// The root `cfs_rq`'s PELT average (`sim::pelt`) and its `util_est.enqueued`.
    rq_avg: pelt::Avg,
    rq_util_est: u64,
    /// Remote wakeups on their way here (the waker is ahead of global time).
    arriving: u32,
    /// TTWU_QUEUE: (task, its previous core) queued for this core's IPI handler to enqueue.
    wake_list: Vec<(u32, u16)>,
    gov: GovernorState,
    /// The LLC this CPU shares (`Topology::place`; `sd_llc_id`).
    domain: usize,
    /// Its package (socket).
    package: usize,
    /// The other hardware thread of its core, if that CPU is in the config (SMT).
    sibling: Option<u16>,
    /// Permille of a lone thread's speed the running burst runs at (`sim::schedule`, SMT).
    rate: u64,
    ticks: u64,
    // Per-core accounting for conservation checks.
    run_ns: Ns,
    idle_ns: Ns,
    overhead_ns: Ns,
}

/// Bounded log histogram of wakeup latencies: 64 buckets per octave (each under 1.6%
/// wide; exact below 64 ns), so percentiles are close to the samples' own (issue 17: the
/// 8-per-octave bins reported a bin's upper bound, up to 12.5% off).
#[derive(Clone, Debug)]
struct Hist {
    buckets: Vec<u64>,
    count: u64,
    min: Ns,
    max: Ns,
}

/// log2 of the buckets per octave.
const HIST_SHIFT: usize = 6;
const HIST_SUB: usize = 1 << HIST_SHIFT;

impl Hist {
    fn new() -> Self {
        Hist { buckets: vec![0; 64 * HIST_SUB], count: 0, min: Ns::MAX, max: 0 }
    }
    fn bucket(ns: Ns) -> usize {
        if ns < HIST_SUB as Ns {
            return ns as usize;
        }
        let log = 63 - ns.leading_zeros() as usize;
        let frac = ((ns >> (log - HIST_SHIFT)) as usize) & (HIST_SUB - 1);
        (log - HIST_SHIFT + 1) * HIST_SUB + frac
    }
    /// The first ns of a bucket.
    fn lower(b: usize) -> Ns {
        if b < HIST_SUB {
            return b as Ns;
        }
        let (oct, frac) = (b / HIST_SUB - 1, (b % HIST_SUB) as u64);
        (HIST_SUB as u64 + frac) << oct
    }
    /// One past the last ns of a bucket.
    fn upper(b: usize) -> Ns {
        Self::lower(b + 1)
    }
    fn add(&mut self, ns: Ns) {
        self.buckets[Self::bucket(ns)] += 1;
        self.count += 1;
        self.min = self.min.min(ns);
        self.max = self.max.max(ns);
    }
    /// The `p`th percentile: the middle of the bucket holding it, within the samples' range.
    fn percentile(&self, p: u64) -> Ns {
        if self.count == 0 {
            return 0;
        }
        let want = (self.count * p).div_ceil(100).max(1);
        let mut seen = 0;
        for (b, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= want {
                let (lo, hi) = (Self::lower(b), Self::upper(b));
                return (lo + (hi - lo - 1) / 2).clamp(self.min, self.max);
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
    /// Tick samples of a task's mode (`account_process_tick`): system, user.
    tick_sys: u64,
    tick_user: u64,
    /// Runtime the stale rq clock adds to tasks switched in from idle (3.11).
    stale_ns: u64,
    /// The switches from a task to the idle task: kernel time in the blocking task's
    /// context that no `sum_exec_runtime` holds (`Sim::go_idle`, `time_user_sys`).
    idle_switch_ns: u64,
    overhead: [u64; 7],
    idle_ns: Vec<u64>,
    idle_entries: Vec<u64>,
    /// Governor scoreboard (`sim::why`): right, too deep, too shallow.
    gov_score: [u64; 3],
    gov_miss_latency_ns: u64,
    gov_miss_energy_pj: u64,
    /// CPU time idle while a task waited elsewhere past `explain::WASTE_THRESHOLD`.
    wasted_ns: u64,
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
    /// Each CPU's `Topology::place` (`wakeup::transfer` reads two per line moved).
    places: Vec<Place>,
    /// Per LLC: bytes touched by all tasks so far.
    touched: Vec<u64>,
    /// Per LLC: its CPUs in CPU-number order (`sd_llc`'s span), for `select_idle_sibling`.
    llc_cpus: Vec<Vec<u16>>,
    /// Per LLC: `sd_llc_shared->has_idle_cores` (`sim::wakeup`, select_idle_core); set when
    /// a CPU goes idle with its sibling idle (`update_idle_core`), cleared by a scan that
    /// finds no idle core (a `Cell`: the scan is a `&self` replayed by `sim::why`).
    has_idle_cores: Vec<std::cell::Cell<bool>>,
    /// `sched_smt_active()`: some CPU of the config has its sibling in it.
    smt_active: bool,
    /// The sched domains and the balancer's state (`sim::domain`, `sim::balance`).
    lb: balance::Balancer,
    /// Permille of a lone thread's speed a thread runs at while its sibling is busy.
    smt_rate: u64,
    /// The states the governor picks from (POLL first when there is a governor).
    idle_states: Vec<IdleState>,
    /// The scoreboard's best-state-in-hindsight over `idle_states` (`sim::why`).
    hindsight: crate::engine::explain::Hindsight,
    /// What the hardware does in each of them (same positions).
    idle_hw: Vec<idle_path::HwIdle>,
    idle_route: idle_path::IdleRoute,
    /// Per package, how deep its cores idle (the package part of the exit latency).
    pkg: idle_path::Packages,
    idle_names: Vec<String>,
    /// The power model (`profile::power_model`): per state position, and one busy core, mW.
    idle_mw: Vec<u64>,
    active_mw: u64,
    tick_period: Ns,
    llc_bytes: u64,
    rec: Recorder,
    m: Counters,
    lat: Hist,
    events: u64,
    /// Events popped with a time before `now` (must stay 0; see `run_checked`).
    past_events: u64,
    /// Tasks sleeping on a timer, per core (their timers live on that core), by expiry:
    /// (`sleep_until`, task), the hrtimer base's timerqueue (`timerqueue_add`, an rbtree
    /// ordered by expiry whose leftmost `__hrtimer_next_event_base` reads). Issue 30: the
    /// next timer was a scan of every task at each idle entry.
    sleeping: Vec<std::collections::BTreeSet<(Ns, u32)>>,
    /// HRTICK resolved from the era and the config's features.
    hrtick: bool,
    /// 3.11's menu governor runs (it reads `cpu_load[0]`, kept only then).
    menu_311: bool,
    /// teo with util-awareness runs (it reads the PELT utilisation, kept only then).
    teo_util: bool,
    /// The cores in the order their watchdog hrtimers expire (one period apart each, so the
    /// order never changes) and the next one's position: one watchdog event is pending.
    wd_order: Vec<u16>,
    wd_pos: usize,
    /// TTWU_QUEUE resolved from the era and the config's features.
    ttwu_queue: bool,
    /// WA_IDLE, WA_WEIGHT, WA_BIAS resolved (`sim::wakeup`, WAKE_AFFINE; 4.17+ eras).
    wa: [bool; 3],
    /// `select_idle_sibling`'s recent CPUs and scan limits (`sim::wakeup`, SIS).
    sis: wakeup::Sis,
    /// `preempt=full`: kernel-mode work is preempted at once (`schedule.rs`: PREEMPTION MODEL).
    preempt_full: bool,
    /// Wakeup latencies that came out negative and were clamped to 0 (must stay 0).
    latency_clamps: u64,
    /// The next mm id an exec hands out (past every workload's own).
    mm_next: u32,
    /// Every wakeup latency as it is measured (`log_latencies`; None: not kept, the default).
    lat_log: Option<Vec<LatencySample>>,
    stop: Option<(StopReason, Ns)>,
    /// Whether `start` has run (a chunked run starts on its first `advance`).
    started: bool,
    /// Per CPU: preemptions of its curr so far (`counts_so_far`).
    preempted_on: Vec<u64>,
}

/// How far a run has come, for a page that runs it in chunks (`Sim::advance`) and shows
/// progress between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached.
    pub now: Ns,
    /// The run's simulated time limit (`duration`).
    pub duration: Ns,
    /// Events handled so far, and the run's budget (`max_events`).
    pub events: u64,
    pub max_events: u64,
}

/// Counters of a run in progress (`Sim::counts_so_far`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SoFar {
    pub context_switches: u64,
    pub preemptions: u64,
    pub wakeups: u64,
    pub migrations: u64,
    pub preemptions_by_cpu: Vec<u64>,
}

/// One wakeup latency sample (the `wakeup_latency_us` histogram's), with the wakeup it
/// measured: `task` woken at `woke` (`try_to_wake_up`) and switched in on `core` at `ran`
/// (`sched_switch`); the sample is `ran - woke`. Kept only when asked (`Sim::log_latencies`):
/// the page's "open the p99 wakeup" finds the wakeup of a figure's rank in them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatencySample {
    pub woke: Ns,
    pub ran: Ns,
    pub task: u32,
    pub core: u16,
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
    /// Wakeup latencies clamped to 0 because the task ran before its wakeup (must be 0).
    pub latency_clamps: u64,
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

mod balance;
mod domain;
mod fork;
mod idle_path;
mod pelt;
mod schedule;
mod tick;
mod wakeup;
mod why;

pub use wakeup::wakeup_transfer;

// ---------------------------------------------------------------- MODEL

impl Sim {
    pub fn new(config: &Config, trace: Option<TraceOptions>) -> Self {
        Self::with_workload(config, trace, workload::build(config))
    }

    /// `new` with the workload given instead of built from the config (a trace replay).
    pub fn with_workload(config: &Config, trace: Option<TraceOptions>, mut wl: workload::AnyWorkload) -> Self {
        let cfg = config.clone();
        let prof = cfg.profile();
        let ncores = cfg.cores.max(1) as usize;
        // Idle states: what the firmware, the idle driver and idle= leave (idle_path::build_idle).
        let idle = idle_path::build_idle(&cfg, prof);
        let idle_states = idle.states;
        let idle_names = idle.names;
        let all_names =
            std::iter::once("POLL".to_string()).chain(prof.cstates.iter().map(|s| s.name.to_string())).collect();
        let topo = prof.topo;
        let places: Vec<_> = (0..ncores as u32).map(|c| topo.place(c)).collect();
        let cores = (0..ncores)
            .map(|c| Core {
                curr: None,
                running: false,
                since: 0,
                idle: None,
                avail: 0,
                refills: Vec::new(),
                last_task: None,
                switched_at: 0,
                mm: schedule::LoadedMm::new(),
                late: Vec::new(),
                late_min: Ns::MAX,
                run_gen: 0,
                tick_gen: 0,
                hr_gen: 0,
                hrtick_armed: false,
                hr_expires: 0,
                tick_stopped: false,
                need_resched: false,
                kick_pending: false,
                idle_stamp: None,
                avg_idle: 2 * cfg.migration_cost,
                wd_next: Ns::MAX,
                from_idle: false,
                tick_clock: 0,
                cpu_load0: 0,
                pelt: idle_path::Pelt::default(),
                rq_avg: pelt::Avg::default(),
                rq_util_est: 0,
                arriving: 0,
                wake_list: Vec::new(),
                gov: GovernorState::for_era(cfg.governor, idle_states.len(), cfg.kernel.menu_is_3_11()),
                domain: places[c].llc as usize,
                package: places[c].package as usize,
                sibling: topo.sibling(c as u32).filter(|&x| (x as usize) < ncores).map(|x| x as u16),
                rate: 1000,
                ticks: 0,
                run_ns: 0,
                idle_ns: 0,
                overhead_ns: 0,
            })
            .collect::<Vec<_>>();
        let ndomains = cores.iter().map(|c| c.domain + 1).max().unwrap_or(1);
        let smt_active = cores.iter().any(|c| c.sibling.is_some());
        let mut llc_cpus = vec![Vec::new(); ndomains];
        for (c, core) in cores.iter().enumerate() {
            llc_cpus[core.domain].push(c as u16);
        }
        let pkg = idle_path::Packages::new(prof, &cores.iter().map(|c| c.package).collect::<Vec<_>>());
        let specs = wl.tasks();
        let mut rec = Recorder::new(trace);
        rec.trace.cores = ncores as u16;
        rec.trace.idle_states = all_names;
        rec.trace.tasks = specs.iter().map(|s| TaskInfo { name: s.name.clone(), group: s.group.clone() }).collect();
        let mut tasks: Vec<Task> = specs
            .iter()
            .enumerate()
            .map(|(i, s)| Task {
                // A task that sleeps at once (`Workload::sleeps_at_start`) starts blocked (`start`).
                state: if wl.sleeps_at_start(i) { TaskState::Blocked } else { TaskState::Runnable },
                core: wl.pinned(i).unwrap_or(s.core) % ncores,
                burst_left: 0,
                burst_stall: 0,
                burst_sys: false,
                ws: s.ws_bytes.min(prof.llc_bytes),
                touch_per_us: s.touch_bytes_per_us,
                cache_domain: None,
                mm: s.mm,
                cache_mark: 0,
                woke_at: None,
                queued_at: 0,
                timer_gen: 0,
                sleep_until: 0,
                pinned: wl.pinned(i).map(|p| p % ncores),
                burst_ns: 0,
                blocked_at: 0,
                avg: pelt::Avg::default(),
                avg_cpu: None,
                ran_at: 0,
                util_est: pelt::UtilEst::default(),
                wakee_flips: 0,
                last_wakee: None,
                wakee_flip_decay_ts: 0,
                stats: TaskStats { name: s.name.clone(), ..TaskStats::default() },
            })
            .collect();
        // Fork placement (`sim::fork`): each task with a parent starts where the era puts it.
        let doms = domain::Domains::build(&prof.topo, ncores, cfg.kernel);
        {
            let mut at: Vec<usize> = tasks.iter().map(|t| t.core).collect();
            let weights: Vec<u64> = specs.iter().map(|s| weight_of_nice(s.nice)).collect();
            let parents: Vec<_> = (0..specs.len()).map(|i| wl.parent(i)).collect();
            let pinned: Vec<bool> = tasks.iter().map(|t| t.pinned.is_some()).collect();
            let sleeps: Vec<bool> = tasks.iter().map(|t| t.state == TaskState::Blocked).collect();
            fork::place_all(&doms, cfg.kernel, &mut at, &weights, &parents, &pinned, &sleeps);
            for (t, c) in tasks.iter_mut().zip(at) {
                t.core = c;
            }
        }
        let se = specs
            .iter()
            .enumerate()
            .map(|(i, s)| SchedEntity {
                weight: weight_of_nice(s.nice),
                custom_slice: wl.sched_runtime(i).map_or(0, policy::custom_slice),
                ..SchedEntity::default()
            })
            .collect();
        let nstates = idle_names.len();
        let power = super::profile::power_model(prof);
        let task_cpus: Vec<usize> = tasks.iter().map(|t| t.core).collect();
        let llc_sizes: Vec<usize> = llc_cpus.iter().map(Vec::len).collect();
        let sis = wakeup::Sis::new(cfg.kernel, cfg.feats(), &task_cpus, 2 * cfg.migration_cost, &llc_sizes);
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
            places,
            preempted_on: vec![0; ncores],
            has_idle_cores: vec![std::cell::Cell::new(true); ndomains],
            smt_active,
            lb: balance::Balancer::new(doms),
            llc_cpus,
            smt_rate: (prof.topo.smt_yield_permille / 2).clamp(1, 1000),
            hindsight: crate::engine::explain::Hindsight::new(&idle_states, cfg.latency_limit),
            idle_states,
            idle_mw: idle
                .hw
                .iter()
                .map(|h| power.idle_mw((h.index as usize).checked_sub(1).map(|i| &prof.cstates[i])))
                .collect(),
            active_mw: power.active_mw,
            pkg,
            idle_hw: idle.hw,
            idle_route: idle.route,
            idle_names,
            tick_period: SEC / cfg.hz.max(1) as u64,
            llc_bytes: prof.llc_bytes.max(1),
            rec,
            m: Counters { idle_ns: vec![0; nstates], idle_entries: vec![0; nstates], ..Counters::default() },
            lat: Hist::new(),
            events: 0,
            past_events: 0,
            sleeping: vec![std::collections::BTreeSet::new(); ncores],
            hrtick: cfg.feats().has(Feat::Hrtick),
            menu_311: cfg.kernel.menu_is_3_11() && cfg.governor == super::config::Governor::Menu,
            teo_util: cfg.kernel.teo_util_aware() && cfg.governor == super::config::Governor::Teo,
            wd_order: Vec::new(),
            wd_pos: 0,
            ttwu_queue: cfg.feats().has(Feat::TtwuQueue),
            wa: [Feat::WaIdle, Feat::WaWeight, Feat::WaBias].map(|f| cfg.feats().has(f)),
            sis,
            preempt_full: cfg.preempt_model() == crate::engine::kernel::PreemptModel::Full,
            latency_clamps: 0,
            mm_next: specs.iter().map(|s| s.mm).max().unwrap_or(0).saturating_add(1),
            lat_log: None,
            stop: None,
            started: false,
            cfg,
        }
    }

    /// Runs to completion, the time limit or the event budget.
    pub fn run(mut self) -> Outcome {
        self.simulate();
        self.finish()
    }

    /// Handles up to `events` more events (starting the run on the first call); true once
    /// the run has stopped, and then `into_outcome` gives its result. The event loop is the
    /// one `run` uses, only paused between calls, so a run in chunks of any size handles the
    /// same events in the same order and gives the same outcome.
    pub fn advance(&mut self, events: u64) -> bool {
        self.start();
        for _ in 0..events {
            if !self.step() {
                return true;
            }
        }
        self.stop.is_some()
    }

    /// Ends the run's budget at the events handled so far: the next `advance` stops it as
    /// a run of this config with `max_events` = those events stops (the same outcome).
    pub fn end_budget_here(&mut self) {
        self.cfg.max_events = self.cfg.max_events.min(self.events);
    }

    /// Keeps every wakeup latency sample from now on (`LatencySample`; off by default: a
    /// vector push per wakeup, 24 bytes each, nothing else changes).
    pub fn log_latencies(&mut self) {
        self.lat_log.get_or_insert_with(Vec::new);
    }

    /// `into_outcome`, and the samples `log_latencies` kept that the figures count (those
    /// of switches at or before the run's end, as the histogram keeps them), in the order measured.
    pub fn into_outcome_and_latencies(mut self) -> (Outcome, Vec<LatencySample>) {
        let out = self.finish();
        let end = self.stop.map_or(self.now, |s| s.1);
        let mut log = self.lat_log.take().unwrap_or_default();
        log.retain(|s| s.ran <= end);
        (out, log)
    }

    /// How far the run has come.
    pub fn progress(&self) -> Progress {
        Progress { now: self.now, duration: self.cfg.duration, events: self.events, max_events: self.cfg.max_events }
    }

    /// Counters of a run in progress, for diagnostics that follow a long run chunk by
    /// chunk (`examples/steady_probe.rs`): context switches, preemptions, wakeups and
    /// migrations so far.
    pub fn counts_so_far(&self) -> SoFar {
        SoFar {
            context_switches: self.m.context_switches,
            preemptions: self.m.preemptions,
            wakeups: self.m.wakeups,
            migrations: self.m.migrations,
            preemptions_by_cpu: self.preempted_on.clone(),
        }
    }

    /// The workload, as far as the run has come (`validate` reads its `progress`).
    pub fn workload(&self) -> &AnyWorkload {
        &self.wl
    }

    /// The outcome of a run `advance` has brought to its end (or of its first events, if
    /// called earlier: then it is the outcome of a run stopped there).
    pub fn into_outcome(mut self) -> Outcome {
        self.finish()
    }

    fn start(&mut self) {
        if std::mem::replace(&mut self.started, true) {
            return;
        }
        // Each CPU's tasks are queued just before that CPU's first pick, not all at once:
        // the cores start one after another here, and a core that empties its queue in
        // its first pick loop (tasks that go straight to sleep) reaches its newly-idle
        // balance a few microseconds in, while the later cores have not picked at all.
        // Queued up front, their tasks looked waiting to it and it took them (the intro
        // preset lost its nohz stops that way, c31d101); on the machine every CPU runs
        // its own first task at time 0, and by those microseconds has run it to its sleep.
        let mut by_core: Vec<Vec<usize>> = vec![Vec::new(); self.cores.len()];
        for t in 0..self.tasks.len() {
            by_core[self.tasks[t].core].push(t);
        }
        self.start_watchdogs();
        for (c, tasks) in by_core.into_iter().enumerate() {
            for t in tasks {
                self.pelt_enqueue(c, t, 0);
                if self.tasks[t].state == TaskState::Blocked {
                    // Created, run to its first sleep before time 0 (`Workload::sleeps_at_start`):
                    // its new-task average stays on this CPU as blocked load, its util_est
                    // taken at the sleep (`util_est_dequeue`); it waits for a wakeup.
                    self.pelt_dequeue(c, t, 0, true, false);
                    continue;
                }
                self.policy.enqueue(&mut self.se, c, t, Arrival::New, 0);
            }
            self.qsync(c);
            self.q.push_late(self.tick_period, Ev::Tick { c: c as u16, gen: 0 });
            self.pick_loop(c);
        }
    }

    fn simulate(&mut self) {
        self.start();
        while self.step() {}
    }

    /// Handles the next event. False once the run has stopped. Always inlined into the three
    /// loops that call it (`simulate`, `advance`, `probe_queue`): as a call, its entry and
    /// exit were paid per event, and the burst end's handler (nearly every event on the
    /// hackbench rows) could not be inlined into the loop (release build, BENCHMARKS.md,
    /// issue 27, speed-s23).
    #[inline(always)]
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
            Ev::TtwuRemote { task, from, prev, queued, sys } => {
                self.on_ttwu_remote(task as usize, from as usize, prev as usize, queued, sys)
            }
            Ev::Watchdog { c } => self.on_watchdog(c as usize),
            Ev::Nop => {}
        }
        true
    }
}

/// Something counted at a time after global time (`Core::late`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Late {
    /// A switch (`count_switch`): prev had been on the CPU since `since`.
    Switch { since: Ns, prev: Option<usize>, next: Option<usize> },
    /// A wakeup of `task` (`wakeup::wake`).
    Wake { task: usize },
    /// A wakeup latency, added to the histogram once global time passes it.
    Latency { ns: Ns },
}

impl Sim {
    // ------------------------------------------------------------ counting

    /// `__schedule`'s context switch on core `c` at `t` (before its cost is laid), from the
    /// task whose context it holds to `next` (None: the idle task): the one place a switch
    /// is counted, the on-CPU time of the task leaving is closed and the trace's
    /// `sched_switch` is recorded (kernel/sched/core.c: `++*switch_count`,
    /// `trace_sched_switch`, both only when `prev != next`). A task's `runtime_ns` is its
    /// on-CPU time, switch to switch, as a trace reader measures it.
    pub(super) fn count_switch(&mut self, c: usize, t: Ns, next: Option<usize>) {
        let prev = self.cores[c].last_task;
        let since = self.cores[c].switched_at;
        self.m.context_switches += 1;
        if let Some(p) = prev {
            self.tasks[p].stats.runtime_ns += t.saturating_sub(since);
        }
        if let Some(n) = next {
            self.tasks[n].stats.switches_in += 1;
        }
        self.cores[c].switched_at = t;
        self.count_late(c, t, Late::Switch { since, prev, next });
        if self.rec.on() {
            let prev_state = match prev.map(|p| (self.tasks[p].state, self.tasks[p].woke_at.is_some())) {
                // Preempted: in the kernel (a system-call burst: preempt_schedule, `R+`),
                // else on the way back to user space (schedule(), `R`). Simplified: the
                // preemption model (CONFIG_PREEMPT) is not modelled.
                Some((TaskState::Runnable, false)) if self.tasks[prev.unwrap_or(0)].burst_sys => PrevState::Preempted,
                Some((TaskState::Runnable, false)) => PrevState::Runnable,
                // The idle task leaves through schedule_idle: not a preemption.
                Some((TaskState::Runnable, true)) | None => PrevState::Runnable,
                Some((TaskState::Blocked | TaskState::Sleeping, _)) => PrevState::Sleeping,
                Some((TaskState::Exited, _)) => PrevState::Dead,
            };
            let (prev, next) = (prev.map(|p| p as u32), next.map(|n| n as u32));
            self.rec.switch(Switch { core: c as u16, time: t, prev, prev_state, next });
        }
    }

    /// Notes what core `c` counted at `t`: past global time it is kept (`Core::late`) until
    /// global time passes it; what global time has passed is settled (latencies go into
    /// the histogram).
    pub(super) fn count_late(&mut self, c: usize, t: Ns, what: Late) {
        let now = self.now;
        let (core, lat) = (&mut self.cores[c], &mut self.lat);
        // Settle only when global time has reached the earliest kept entry: most calls find
        // nothing due, and the scan was 8% of a pipe run's instructions.
        if core.late_min <= now {
            let mut min = Ns::MAX;
            core.late.retain(|&(at, l)| {
                if at > now {
                    min = min.min(at);
                    return true;
                }
                if let Late::Latency { ns } = l {
                    lat.add(ns);
                }
                false
            });
            core.late_min = min;
        }
        if t > now {
            core.late_min = core.late_min.min(t);
            core.late.push((t, what));
        } else if let Late::Latency { ns } = what {
            lat.add(ns);
        }
    }

    /// At the run's end: what core `c` counted past `end` is left out (a switch, its
    /// on-CPU time, a wakeup, a latency), so the figures are those of the trace cut at
    /// `end`; the task on the CPU is on it until `end`.
    fn close_on_cpu(&mut self, c: usize, end: Ns) {
        self.cores[c].late_min = Ns::MAX;
        for (at, l) in std::mem::take(&mut self.cores[c].late) {
            match l {
                Late::Latency { ns } if at <= end => self.lat.add(ns),
                _ if at <= end => {}
                Late::Switch { since, prev, next } => {
                    self.m.context_switches -= 1;
                    if let Some(p) = prev {
                        self.tasks[p].stats.runtime_ns -= at - since.max(end).min(at);
                    }
                    if let Some(n) = next {
                        self.tasks[n].stats.switches_in -= 1;
                    }
                }
                Late::Wake { task } => {
                    self.m.wakeups -= 1;
                    self.tasks[task].stats.wakeups -= 1;
                }
                Late::Latency { .. } => {}
            }
        }
        let since = self.cores[c].switched_at;
        if let Some(k) = self.cores[c].last_task {
            self.tasks[k].stats.runtime_ns += end.saturating_sub(since);
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
                self.tasks[task].burst_ns += ran;
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
                    self.rec.closing_span(c, i.since, end, SpanKind::Idle { state: self.idle_hw[i.pos].index });
                }
            }
            let excess = core.avail.saturating_sub(end);
            self.cores[c].overhead_ns -= excess.min(self.cores[c].overhead_ns);
            self.close_on_cpu(c, end);
        }
        for t in &mut self.tasks {
            t.stats.overhead_ns = t.stats.runtime_ns.saturating_sub(t.burst_ns);
        }
        let result = self.wl.result(end);
        let secs = |ns: u64| ns as f64 / 1e9;
        let (user_ns, sys_ns) = self.time_user_sys();
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
            user_s: secs(user_ns),
            sys_s: secs(sys_ns),
            idle_s: secs(idle_total),
            cpu_percent: if end == 0 { 0.0 } else { (user_ns + sys_ns) as f64 * 100.0 / end as f64 },
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
        // Latency histogram, merged into 4 buckets per octave for display (exact below
        // 64 ns: those buckets are merged 16 at a time too).
        let mut hist = Vec::new();
        let group = HIST_SUB / 4;
        for b in (0..self.lat.buckets.len()).step_by(group) {
            let n: u64 = self.lat.buckets[b..(b + group).min(self.lat.buckets.len())].iter().sum();
            if n > 0 {
                hist.push((Hist::upper(b + group - 1) as f64 / 1e3, n));
            }
        }
        m.wakeup_latency_hist = hist;
        m.workload = self.wl.extra(end).into_iter().collect();
        self.derive_energy(&mut m, end);
        m.digest = digest(&m, &self.cores, end);
        // Overheads booked past the end are cut at the end, like every other span.
        self.rec.trace.spans.retain(|s| s.start < end);
        for s in &mut self.rec.trace.spans {
            s.end = s.end.min(end);
        }
        self.rec.trace.instants.retain(|i| i.time <= end);
        self.rec.trace.switches.retain(|x| x.time <= end);
        self.rec.trace.end = end;
        Outcome { metrics: m, trace: std::mem::take(&mut self.rec.trace) }
    }

    /// The derived figures of `sim::why`'s counters and the power model (not in the digest).
    fn derive_energy(&self, m: &mut Metrics, end: Ns) {
        let idle_total: u64 = self.m.idle_ns.iter().sum();
        let busy = (end as u128 * self.cores.len() as u128).saturating_sub(idle_total as u128);
        // mW * ns = pJ.
        let mut pj = busy * self.active_mw as u128;
        for (pos, &ns) in self.m.idle_ns.iter().enumerate() {
            pj += ns as u128 * self.idle_mw[pos] as u128;
        }
        m.energy_j = pj as f64 / 1e12;
        let work = if m.higher_is_better { m.throughput * m.elapsed_s } else { 1.0 };
        m.energy_per_work = if work > 0.0 { m.energy_j / work } else { 0.0 };
        m.wasted_cpu_s = self.m.wasted_ns as f64 / 1e9;
        let [right, too_deep, too_shallow] = self.m.gov_score;
        m.governor_score = crate::engine::metrics::GovernorScore {
            right,
            too_deep,
            too_shallow,
            miss_latency_us: self.m.gov_miss_latency_ns as f64 / 1e3,
            miss_energy_mj: self.m.gov_miss_energy_pj as f64 / 1e9,
        };
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
    let latency_clamps = sim.latency_clamps;
    (outcome, Checks { past_events: sim.past_events, accounts: sim.core_accounts(), end, latency_clamps })
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
    fn latency_percentiles_are_within_a_bucket_of_the_samples() {
        // 1..=1000 us in 1 us steps: p50 is 500 us and p99 990 us; the 8-per-octave
        // histogram said 512 and 1024 (bin upper bounds).
        let mut h = Hist::new();
        for us in 1..=1000u64 {
            h.add(us * 1000);
        }
        for (p, exact) in [(50u64, 500_000f64), (90, 900_000.0), (99, 990_000.0)] {
            let got = h.percentile(p) as f64;
            assert!((got / exact - 1.0).abs() < 0.01, "p{p}: {got} vs {exact}");
        }
        assert_eq!(h.percentile(100), 1_000_000, "the largest sample bounds it");
        // Every bucket's range contains what it holds.
        for ns in [0u64, 1, 63, 64, 65, 127, 128, 1_000, 123_456_789, u64::MAX / 2] {
            let b = Hist::bucket(ns);
            assert!(Hist::lower(b) <= ns && ns < Hist::upper(b), "{ns} in bucket {b}");
        }
    }

    #[test]
    fn a_run_in_chunks_is_the_same_run() {
        let mut cfg = (crate::engine::presets::preset("nohz-pipe").expect("preset").config)();
        cfg.loops = 3_000;
        let opts = Some(TraceOptions { window: (0, cfg.duration), max_items: 4_000 });
        let whole = Sim::new(&cfg, opts).run();
        assert!(whole.metrics.events > 10_000 && whole.trace.truncated, "a run long enough to cut its trace");
        for chunk in [1, 999, 10_000, u64::MAX] {
            let mut sim = Sim::new(&cfg, opts);
            let mut calls = 0;
            while !sim.advance(chunk) {
                calls += 1;
                let p = sim.progress();
                assert!(p.events <= whole.metrics.events && p.now <= cfg.duration);
            }
            assert!(chunk > 10_000 || calls > 1, "chunk {chunk}: the run was paused");
            assert!(sim.advance(chunk), "a stopped run stays stopped");
            let chunked = sim.into_outcome();
            assert_eq!(chunked.metrics.digest, whole.metrics.digest, "chunk {chunk}");
            assert_eq!(chunked, whole, "chunk {chunk}: the same metrics and trace");
        }
        // A budget cut lands on the same event whatever the chunks.
        cfg.max_events = 5_001;
        let cut = Sim::new(&cfg, None).run();
        let mut sim = Sim::new(&cfg, None);
        while !sim.advance(1_000) {}
        assert_eq!(sim.into_outcome(), cut);
        // Ending the budget from outside (a preview bounded by time) is the same cut.
        cfg.max_events = u64::MAX;
        let mut sim = Sim::new(&cfg, None);
        while sim.progress().events < 5_001 {
            sim.advance(5_001 - sim.progress().events);
        }
        sim.end_budget_here();
        assert!(sim.advance(1), "the run stops at once");
        let at_budget = sim.into_outcome();
        assert_eq!(at_budget.metrics.stop_reason, cut.metrics.stop_reason);
        assert_eq!(at_budget, cut);
    }

    #[test]
    fn overhead_index_is_the_position_in_all() {
        for (i, &k) in Overhead::ALL.iter().enumerate() {
            assert_eq!(oh_index(k), i, "{k:?}");
        }
    }
}
