//! The decision records and the explainer's open-record state: what `sim::why` writes.
//!
//! Below the recorder (`trace::Recorder` holds an `Explainer`, `Trace` a `Decisions`): this
//! file reads only the span vocabulary (`trace::spans`), never `Trace`. The readers of a
//! recorded trace (`near`, `nearest`, `counters`, `render`) are in `explain` itself. See the
//! parent module's doc for what each record mirrors.

use serde::{Deserialize, Serialize};

use crate::engine::idle::IdleState;
use crate::engine::policy::SchedEntity;
use crate::engine::time::{Ns, MS};
use crate::engine::trace::spans::{Overhead, Span, SpanKind};

/// A wait longer than this while another CPU idles counts as wasted (an assumption: the
/// paper's sanity checker looked for waits it could see in 100 ms windows; 1 ms is about
/// one tick at HZ=1000, the shortest reaction the periodic balancer could have).
pub const WASTE_THRESHOLD: Ns = MS;

/// One CPU `select_task_rq` looked at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    pub cpu: u16,
    /// `prev`, `waker`, `scan` (select_idle_sibling), `pinned`.
    pub role: String,
    /// `idle_cpu()` when it was looked at.
    pub idle: bool,
    /// `rq->nr_running` (a direct remote wakeup on its way counted).
    pub nr_running: u32,
}

/// How the target core learnt of the wakeup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// The waker's own CPU (or a timer on the target): no cross-CPU signal.
    Local,
    /// `smp_send_reschedule`: a reschedule IPI.
    Ipi,
    /// The target polls (`TIF_POLLING_NRFLAG`): setting `TIF_NEED_RESCHED` is enough.
    PollingFlag,
    /// TTWU_QUEUE: queued on the target's wake list, with an IPI.
    WakeListIpi,
    /// TTWU_QUEUE to a polling target: `set_nr_if_polling`, no IPI.
    WakeListPoll,
    /// TTWU_QUEUE behind an earlier entry: its IPI is already on its way.
    WakeListQueued,
    /// A reschedule was already pending on the target: this wakeup rides it.
    KickPending,
    /// Busy target, no preemption (`check_preempt_wakeup` said no): it waits its turn.
    NoPreempt,
    /// An IPI is sent (the polling flag is clear), but the target's MWAIT, armed by
    /// MONITOR on its thread flags, wakes on the store of `TIF_NEED_RESCHED` first (3.11).
    FlagStore,
}

impl Delivery {
    pub fn text(self) -> &'static str {
        match self {
            Delivery::Local => "local: enqueued on this CPU, no cross-CPU signal",
            Delivery::Ipi => "reschedule IPI (resched_curr -> smp_send_reschedule)",
            Delivery::PollingFlag => "polling flag: the idle loop polls, TIF_NEED_RESCHED is enough (no IPI)",
            Delivery::WakeListIpi => "wake list (TTWU_QUEUE, ttwu_queue_remote) + IPI",
            Delivery::WakeListPoll => "wake list (TTWU_QUEUE) to a polling CPU: set_nr_if_polling, no IPI",
            Delivery::WakeListQueued => "wake list (TTWU_QUEUE), behind an entry whose IPI is on its way",
            Delivery::KickPending => "a reschedule was already pending on the target",
            Delivery::NoPreempt => "target busy and check_preempt_wakeup said no: waits its turn",
            Delivery::FlagStore => {
                "reschedule IPI sent, but MWAIT (MONITOR on the thread flags) wakes on the TIF_NEED_RESCHED store first"
            }
        }
    }
}

/// `check_preempt_wakeup` against the target's `curr`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreemptCheck {
    pub curr: u32,
    pub preempt: bool,
    /// `curr->vruntime - p->vruntime`, ns of virtual time.
    pub vruntime_lead_ns: i64,
    /// What the class compares the lead with, in words (with its number).
    pub rule: String,
}

/// One part of a wakeup's latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    IpiSend,
    IpiFlight,
    CStateExit,
    Reprogram,
    Handler,
    TtwuTarget,
    Tick,
    RunqueueWait,
    IdleWait,
    Switch,
    Refill,
    Other,
}

impl Part {
    pub const ALL: [Part; 12] = [
        Part::IpiSend,
        Part::IpiFlight,
        Part::CStateExit,
        Part::Reprogram,
        Part::Handler,
        Part::TtwuTarget,
        Part::Tick,
        Part::RunqueueWait,
        Part::IdleWait,
        Part::Switch,
        Part::Refill,
        Part::Other,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Part::IpiSend => "IPI send",
            Part::IpiFlight => "IPI flight",
            Part::CStateExit => "C-state exit",
            Part::Reprogram => "clock-event reprogram",
            Part::Handler => "IPI handler",
            Part::TtwuTarget => "ttwu on target",
            Part::Tick => "tick handler",
            Part::RunqueueWait => "runqueue wait",
            Part::IdleWait => "idle, not yet told",
            Part::Switch => "context switch",
            Part::Refill => "cache refill",
            Part::Other => "other",
        }
    }

    /// The kernel function (or hardware step) the part's cost mirrors.
    pub fn kernel_fn(self) -> &'static str {
        match self {
            Part::IpiSend => "native_smp_send_reschedule (APIC ICR write), profile ipi_send",
            Part::IpiFlight => "APIC delivery until the target takes the interrupt, profile ipi_latency",
            Part::CStateExit => {
                "the state's exit_latency (intel_idle / acpi_idle table; its core part while the package is up)"
            }
            Part::Reprogram => "clockevents_program_event (tick_nohz_idle_exit -> tick_nohz_restart)",
            Part::Handler => "sysvec_reschedule_ipi -> scheduler_ipi, profile ipi_receive",
            Part::TtwuTarget => "sched_ttwu_pending -> ttwu_do_activate (TTWU_QUEUE), profile ttwu",
            Part::Tick => "tick_sched_timer -> scheduler_tick in the way",
            Part::RunqueueWait => "other tasks ran first (pick_next_task chose them)",
            Part::IdleWait => "the target idled, not yet told of the wakeup",
            Part::Switch => "__schedule -> context_switch, profile ctx_switch",
            Part::Refill => "the task's cache refill after the switch (LLC misses)",
            Part::Other => "the core's other work",
        }
    }

    fn of(kind: Overhead) -> Part {
        match kind {
            Overhead::Switch => Part::Switch,
            Overhead::Refill => Part::Refill,
            Overhead::Reprogram => Part::Reprogram,
            Overhead::Ipi => Part::Handler,
            Overhead::CStateExit => Part::CStateExit,
            Overhead::Tick => Part::Tick,
            Overhead::Wakeup => Part::TtwuTarget,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WakeRecord {
    /// When the task became runnable (`try_to_wake_up` done on the waker): latency starts.
    pub time: Ns,
    pub task: u32,
    /// The waker's CPU (None: a timer).
    pub waker: Option<u16>,
    pub prev: u16,
    pub target: u16,
    pub sync: bool,
    /// `wake_affine`'s verdict in words.
    pub affine: String,
    pub candidates: Vec<Candidate>,
    /// Why the target won, in words.
    pub reason: String,
    pub delivery: Option<Delivery>,
    pub preempt: Option<PreemptCheck>,
    /// The waker's `try_to_wake_up` work before `time` (not in the latency).
    pub ttwu_waker_ns: Ns,
    /// When the task was switched in (`sched_switch`); None if it had not been by the end.
    pub ran_at: Option<Ns>,
    /// The latency split, in ns; their sum is `ran_at - time`.
    pub parts: Vec<(Part, Ns)>,
}

impl WakeRecord {
    pub fn latency(&self) -> Option<Ns> {
        self.ran_at.map(|r| r - self.time)
    }
}

/// One queued task as the pick saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RqEntry {
    pub task: u32,
    pub weight: u64,
    pub vruntime: u64,
    /// EEVDF: `V - v_i` (ns of virtual time); others 0.
    pub lag: i64,
    /// EEVDF: `entity_eligible` (V >= v_i); others true.
    pub eligible: bool,
    /// EEVDF virtual deadline, SD deadline (ns); 0 for CFS.
    pub deadline: u64,
    /// EEVDF: `calc_delta_fair(base_slice, w)`; SD: what is left of the rr quantum.
    pub slice: Ns,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PickRecord {
    pub time: Ns,
    pub core: u16,
    /// `eevdf`, `cfs`, `cfs-2.6.23`, `sd`.
    pub class: String,
    /// EEVDF's V (`avg_vruntime`), else the smallest vruntime queued.
    pub avg_vruntime: u64,
    /// An excerpt of the runqueue (`PICK_EXCERPT`): the first entries in the rule's order,
    /// then the rule's pick, the task chosen and `prev` when they are further down.
    pub queue: Vec<RqEntry>,
    /// How many tasks were queued (`rq->cfs.nr_running` without `curr`): `queue.len()` or
    /// more, when the excerpt is cut (`more`).
    #[serde(default)]
    pub queued: u32,
    pub chosen: u32,
    /// What the rule below picks from `queue` (computed here, not by the policy).
    pub rule_pick: Option<u32>,
    pub rule: String,
    /// The task that ran before (None: the core was idle).
    pub prev: Option<u32>,
}

impl PickRecord {
    /// How many queued tasks the excerpt leaves out (0: the whole runqueue is there).
    pub fn more(&self) -> usize {
        (self.queued as usize).saturating_sub(self.queue.len())
    }

    /// The runqueue's length, from `queued` (0 in records written before it existed).
    pub fn nr_queued(&self) -> usize {
        (self.queued as usize).max(self.queue.len())
    }
}

/// The governor's own numbers at `select`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GovernorView {
    pub governor: String,
    /// (name, value, unit, kernel function) rows.
    pub rows: Vec<(String, String, String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdleRecord {
    pub time: Ns,
    pub core: u16,
    /// What the governor was told (`tick_nohz_get_sleep_length`'s sleep length), ns.
    pub next_timer: Ns,
    /// Time to the next tick with the tick running (`delta_tick`), ns.
    pub delta_tick: Ns,
    /// Position in the run's states and trace index (0 POLL) and name.
    pub chosen: u8,
    pub chosen_name: String,
    pub gov: GovernorView,
    pub tick_stopped: bool,
    pub tick_reason: String,
    pub avg_idle: Ns,
    /// Filled when the idle ends.
    pub measured: Option<Ns>,
    pub best: Option<u8>,
    pub best_name: Option<String>,
    pub verdict: Option<Verdict>,
}

/// The governor's choice against the best state in hindsight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Right,
    TooDeep,
    TooShallow,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WasteRecord {
    /// The interval the idle CPU was wasted.
    pub start: Ns,
    pub end: Ns,
    pub idle_cpu: u16,
    /// The CPU the task waited on, and the task.
    pub busy_cpu: u16,
    pub task: u32,
    pub cause: String,
}

/// The kernel path that moved a task to another CPU (`MigrateRecord::cause`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveCause {
    /// Wakeup placement: `select_task_rq_fair`'s `wake_affine` started from the waker's CPU
    /// (WF_SYNC, the waker alone there) and kept it.
    WakeAffine,
    /// Wakeup placement: `select_idle_sibling` found an idle CPU in the target's LLC
    /// (`select_idle_smt` / `select_idle_core` / `select_idle_cpu`).
    SelectIdleSibling,
    /// Wakeup placement: `select_task_rq` with `nr_cpus_allowed == 1`: the only CPU allowed.
    Affinity,
    /// Periodic balance: the tick's `rebalance_domains` -> `load_balance` at one domain.
    Periodic,
    /// Newly idle balance: `newidle_balance` (`idle_balance` before 5.7) -> `load_balance`.
    NewIdle,
    /// Nohz idle balance: `nohz_balancer_kick`, the idle load balancer pulling for an idle CPU.
    NohzIdle,
}

impl MoveCause {
    pub fn name(self) -> &'static str {
        match self {
            MoveCause::WakeAffine => "wake_affine",
            MoveCause::SelectIdleSibling => "select_idle_sibling",
            MoveCause::Affinity => "affinity",
            MoveCause::Periodic => "periodic",
            MoveCause::NewIdle => "newidle",
            MoveCause::NohzIdle => "nohz_idle",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            MoveCause::WakeAffine => "wakeup placement: select_task_rq_fair -> wake_affine kept the waker's CPU",
            MoveCause::SelectIdleSibling => {
                "wakeup placement: select_task_rq_fair -> select_idle_sibling took an idle CPU in the LLC"
            }
            MoveCause::Affinity => "wakeup placement: select_task_rq, the only CPU the task may run on",
            MoveCause::Periodic => "periodic balance: scheduler_tick -> rebalance_domains -> load_balance",
            MoveCause::NewIdle => "newidle balance: newidle_balance (idle_balance before 5.7) -> load_balance",
            MoveCause::NohzIdle => "nohz idle balance: nohz_balancer_kick -> _nohz_idle_balance -> rebalance_domains(CPU_IDLE) -> load_balance",
        }
    }

    /// A balancer move (the rest are wakeup placement).
    pub fn balancer(self) -> bool {
        matches!(self, MoveCause::Periodic | MoveCause::NewIdle | MoveCause::NohzIdle)
    }
}

/// Why a task moved: one per `InstantKind::Migrate` of the trace, keyed to it by
/// (`time`, `task`, `to`), so the instants (and every trace) stay as small as they were.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MigrateRecord {
    pub time: Ns,
    pub task: u32,
    pub from: u16,
    pub to: u16,
    pub cause: MoveCause,
    /// The sched domain the balance ran at, as `sim::domain` names it (`SMT`, `MC`, `DIE`
    /// or `PKG`, `NUMA`) with its CPU count; empty for a wakeup.
    pub domain: String,
    /// The figures that decided it, as the code compared them (name with its kernel
    /// source, value).
    pub figures: Vec<(String, u64)>,
    /// What `can_migrate_task`'s `task_hot` found, in words; empty for a wakeup.
    pub hot: String,
}

/// Everything a traced run decided, in time order per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decisions {
    pub wakeups: Vec<WakeRecord>,
    pub picks: Vec<PickRecord>,
    pub idles: Vec<IdleRecord>,
    pub wasted: Vec<WasteRecord>,
    /// Why each traced migration happened (`MigrateRecord`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub migrations: Vec<MigrateRecord>,
}

impl Decisions {
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn len(&self) -> usize {
        self.wakeups.len() + self.picks.len() + self.idles.len() + self.wasted.len() + self.migrations.len()
    }

    /// The bytes the records hold: each record's size and the heap its vectors and strings
    /// own (capacities, as allocated), so a test can bound the memory of a traced run.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        fn vec<T>(v: &Vec<T>) -> usize {
            v.capacity() * size_of::<T>()
        }
        let text = |s: &String| s.capacity();
        let wakes: usize = self
            .wakeups
            .iter()
            .map(|r| {
                text(&r.affine)
                    + text(&r.reason)
                    + vec(&r.candidates)
                    + r.candidates.iter().map(|c| text(&c.role)).sum::<usize>()
                    + r.preempt.as_ref().map_or(0, |p| text(&p.rule))
                    + vec(&r.parts)
            })
            .sum();
        let picks: usize = self.picks.iter().map(|r| text(&r.class) + text(&r.rule) + vec(&r.queue)).sum();
        let idles: usize = self
            .idles
            .iter()
            .map(|r| {
                text(&r.chosen_name)
                    + text(&r.tick_reason)
                    + text(&r.gov.governor)
                    + r.best_name.as_ref().map_or(0, text)
                    + vec(&r.gov.rows)
                    + r.gov.rows.iter().map(|(a, b, c, d)| text(a) + text(b) + text(c) + text(d)).sum::<usize>()
            })
            .sum();
        let wasted: usize = self.wasted.iter().map(|r| text(&r.cause)).sum();
        let moves: usize = self
            .migrations
            .iter()
            .map(|r| {
                text(&r.domain) + text(&r.hot) + vec(&r.figures) + r.figures.iter().map(|f| text(&f.0)).sum::<usize>()
            })
            .sum();
        vec(&self.wakeups)
            + vec(&self.picks)
            + vec(&self.idles)
            + vec(&self.wasted)
            + vec(&self.migrations)
            + wakes
            + picks
            + idles
            + wasted
            + moves
    }
}

/// Open records and the budget, beside the trace (lives in `trace::Recorder`).
#[derive(Debug, Default)]
pub struct Explainer {
    /// Per task: the index of its wake record still waiting to run.
    pending_wake: Vec<u32>,
    /// Per core: the index of its idle record still open.
    pending_idle: Vec<u32>,
    /// The pick record `sim::why` opened before `pick_next`, closed after it.
    pub(crate) pending_pick: Option<PickRecord>,
    pub(crate) cap: usize,
}

const NONE: u32 = u32::MAX;

impl Explainer {
    pub fn new(cap: usize) -> Self {
        Explainer { cap, ..Explainer::default() }
    }

    fn slot(v: &mut Vec<u32>, i: usize) -> &mut u32 {
        if v.len() <= i {
            v.resize(i + 1, NONE);
        }
        &mut v[i]
    }

    pub fn open_wake(&mut self, d: &mut Decisions, r: WakeRecord) {
        let task = r.task as usize;
        *Self::slot(&mut self.pending_wake, task) = d.wakeups.len() as u32;
        d.wakeups.push(r);
    }

    /// The open wake record of `task`.
    pub fn wake_of<'a>(&self, d: &'a mut Decisions, task: usize) -> Option<&'a mut WakeRecord> {
        let i = *self.pending_wake.get(task)?;
        d.wakeups.get_mut(i as usize)
    }

    /// The task ran at `at`: close its record with the latency split from `spans` (the
    /// trace's spans; only those on `core` overlapping the latency are read).
    pub fn close_wake(&mut self, d: &mut Decisions, task: usize, core: usize, at: Ns, spans: &[Span], ipi: (Ns, Ns)) {
        let Some(i) = self.pending_wake.get_mut(task).map(|s| std::mem::replace(s, NONE)) else { return };
        let Some(r) = d.wakeups.get_mut(i as usize) else { return };
        r.ran_at = Some(at);
        r.parts = split_latency(r, core, at, spans, ipi);
    }

    pub fn open_idle(&mut self, d: &mut Decisions, r: IdleRecord) {
        *Self::slot(&mut self.pending_idle, r.core as usize) = d.idles.len() as u32;
        d.idles.push(r);
    }

    pub fn close_idle(&mut self, d: &mut Decisions, core: usize, measured: Ns, best: (u8, &str), verdict: Verdict) {
        let Some(i) = self.pending_idle.get_mut(core).map(|s| std::mem::replace(s, NONE)) else { return };
        let Some(r) = d.idles.get_mut(i as usize) else { return };
        r.measured = Some(measured);
        r.best = Some(best.0);
        r.best_name = Some(best.1.to_string());
        r.verdict = Some(verdict);
    }
}

/// The latency `[r.time, at)` on `core`, by what the core's spans say it did then.
/// `ipi` is the profile's (send, flight): with an IPI, the first that many ns the target
/// spends not yet told (idle, running another task, or nothing recorded) are the IPI's.
pub(super) fn split_latency(r: &WakeRecord, core: usize, at: Ns, spans: &[Span], ipi: (Ns, Ns)) -> Vec<(Part, Ns)> {
    let from = r.time;
    // The target's spans overlapping the latency. Spans are appended roughly in time order;
    // a latency is short, so the recent end of the list holds them (bounded scan).
    let mut mine: Vec<Span> = spans
        .iter()
        .rev()
        .take(8192)
        .filter(|s| s.core as usize == core && s.end > from && s.start < at)
        .copied()
        .collect();
    mine.sort_by_key(|s| (s.start, s.end));
    let mut parts = [0 as Ns; Part::ALL.len()];
    let sent = matches!(r.delivery, Some(Delivery::Ipi | Delivery::WakeListIpi));
    let mut ipi_left = if sent { (ipi.0, ipi.1) } else { (0, 0) };
    let mut untold = |parts: &mut [Ns; 12], mut d: Ns, rest: Part| {
        let a = d.min(ipi_left.0);
        ipi_left.0 -= a;
        d -= a;
        let b = d.min(ipi_left.1);
        ipi_left.1 -= b;
        d -= b;
        parts[Part::IpiSend as usize] += a;
        parts[Part::IpiFlight as usize] += b;
        parts[rest as usize] += d;
    };
    let mut pos = from;
    for s in &mine {
        if s.start > pos {
            untold(&mut parts, s.start - pos, Part::Other);
            pos = s.start;
        }
        let end = s.end.min(at);
        if end <= pos {
            continue;
        }
        let d = end - pos;
        match s.kind {
            SpanKind::Overhead { kind } => parts[Part::of(kind) as usize] += d,
            SpanKind::Idle { .. } => untold(&mut parts, d, Part::IdleWait),
            SpanKind::Run { .. } => untold(&mut parts, d, Part::RunqueueWait),
        }
        pos = end;
    }
    if at > pos {
        untold(&mut parts, at - pos, Part::Other);
    }
    Part::ALL.iter().map(|&p| (p, parts[p as usize])).filter(|&(_, d)| d > 0).collect()
}

/// The scheduling class as the pick names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Eevdf,
    Cfs,
    Cfs2623,
    Sd,
}

/// At most this many runqueue entries are copied into a pick record (`PickRecord::queue`),
/// plus the task chosen, the rule's pick and the task that ran before when they are not
/// among them: a record's memory is O(this), whatever the number of runnable tasks (a
/// 16,384-task runqueue copied whole into each of `trace::DECISIONS_MAX` records took GBs
/// and killed the page's worker).
pub const PICK_EXCERPT: usize = 16;

/// Task `t`'s entry as a pick of `class` sees it, against V = `v`.
pub(crate) fn rq_entry(class: Class, se: &[SchedEntity], t: usize, v: u64, base_slice: Ns) -> RqEntry {
    let s = &se[t];
    let eevdf = class == Class::Eevdf;
    RqEntry {
        task: t as u32,
        weight: s.weight,
        vruntime: s.vruntime,
        lag: if eevdf { (v as i128 - s.vruntime as i128) as i64 } else { 0 },
        eligible: !eevdf || s.vruntime <= v,
        deadline: if matches!(class, Class::Eevdf | Class::Sd) { s.deadline } else { 0 },
        slice: match class {
            Class::Eevdf => crate::engine::policy::calc_delta_fair(base_slice, s.weight),
            Class::Sd => s.rr_left,
            _ => 0,
        },
    }
}

/// The order in which the class's rule looks at its runqueue (`pos`: the place in the
/// queue, SD's round-robin tie break): the excerpt keeps the first `PICK_EXCERPT` of it.
pub(super) fn rule_order(class: Class, e: &RqEntry, pos: usize) -> (bool, u64, u64) {
    match class {
        Class::Eevdf => (!e.eligible, e.deadline, e.task as u64),
        Class::Cfs | Class::Cfs2623 => (false, e.vruntime, e.task as u64),
        Class::Sd => (false, e.deadline, pos as u64),
    }
}

/// A pick record from the queue the pick saw (`queue`, before `pick_next`), without
/// touching the policy: EEVDF's V is `avg_vruntime`'s weighted mean, rounded down. V and
/// the rule's pick are computed over the whole queue; only an excerpt of it is kept (the
/// first `PICK_EXCERPT` in the rule's order, the rule's pick and `prev`), with its length.
pub fn pick_record(
    class: Class,
    se: &[SchedEntity],
    queue: &[usize],
    base_slice: Ns,
    time: Ns,
    core: usize,
    prev: Option<usize>,
) -> PickRecord {
    let (num, den) = queue.iter().fold((0i128, 0i128), |(n, d), &t| {
        (n + se[t].vruntime as i128 * se[t].weight as i128, d + se[t].weight as i128)
    });
    let min_v = queue.iter().map(|&t| se[t].vruntime).min().unwrap_or(0);
    let v = if den > 0 && class == Class::Eevdf { num.div_euclid(den) as u64 } else { min_v };
    // One pass: the first PICK_EXCERPT in the rule's order (a bounded max-heap), and the
    // leftmost vruntime (EEVDF's pick when rounding leaves none eligible).
    let mut first: std::collections::BinaryHeap<((bool, u64, u64), usize)> =
        std::collections::BinaryHeap::with_capacity(PICK_EXCERPT + 1);
    let mut leftmost: Option<((u64, u32), usize)> = None;
    for (pos, &t) in queue.iter().enumerate() {
        let e = rq_entry(class, se, t, v, base_slice);
        first.push((rule_order(class, &e, pos), pos));
        if first.len() > PICK_EXCERPT {
            first.pop();
        }
        let lk = (e.vruntime, e.task);
        if leftmost.is_none_or(|(k, _)| lk < k) {
            leftmost = Some((lk, pos));
        }
    }
    let first = first.into_sorted_vec();
    let head = first.first().map(|&(k, pos)| (k.0, queue[pos] as u32));
    let (rule_pick, rule) = match class {
        Class::Eevdf => match head {
            Some((false, task)) => (
                Some(task),
                "pick_eevdf: the eligible task (V >= vruntime) with the earliest virtual deadline".to_string(),
            ),
            _ => (
                leftmost.map(|(_, pos)| queue[pos] as u32),
                "pick_eevdf: none eligible by rounding, the leftmost vruntime".to_string(),
            ),
        },
        Class::Cfs => (
            head.map(|h| h.1),
            "pick_next_entity: the leftmost task, smallest vruntime (__pick_first_entity)".to_string(),
        ),
        Class::Cfs2623 => (None, "2.6.23 pick_next_entity: the leftmost of the fair_key tree".to_string()),
        Class::Sd => (head.map(|h| h.1), "SD: the earliest deadline; ties in queue order (round robin)".to_string()),
    };
    let mut entries: Vec<RqEntry> =
        first.iter().map(|&(_, pos)| rq_entry(class, se, queue[pos], v, base_slice)).collect();
    for t in [rule_pick.map(|t| t as usize), prev].into_iter().flatten() {
        if queue.contains(&t) && !entries.iter().any(|e| e.task == t as u32) {
            entries.push(rq_entry(class, se, t, v, base_slice));
        }
    }
    PickRecord {
        time,
        core: core as u16,
        class: match class {
            Class::Eevdf => "eevdf",
            Class::Cfs => "cfs",
            Class::Cfs2623 => "cfs-2.6.23",
            Class::Sd => "sd",
        }
        .to_string(),
        avg_vruntime: v,
        queue: entries,
        queued: queue.len() as u32,
        chosen: 0,
        rule_pick,
        rule,
        prev: prev.map(|p| p as u32),
    }
}

/// The best state in hindsight for an idle of `measured` ns: the deepest whose target
/// residency it reached (and whose exit latency the latency limit allows); a position in
/// the run's states (POLL first).
pub fn best_state(states: &[IdleState], measured: Ns, latency_limit: Option<Ns>) -> usize {
    states
        .iter()
        .rposition(|s| s.target_residency <= measured && latency_limit.is_none_or(|l| s.exit_latency <= l))
        .unwrap_or(0)
}

/// `best_state` for one run's states and latency limit, precomputed so that the common
/// case (the governor chose right) costs two comparisons per idle exit: the scoreboard runs
/// on every idle of every run, traced or not. Gives exactly `best_state`'s answer.
#[derive(Clone, Debug, Default)]
pub struct Hindsight {
    /// Per position: the idle length from which the state is reachable (`u64::MAX`: never,
    /// the latency limit forbids it).
    reach: Vec<Ns>,
    /// Per position: the smallest `reach` of the deeper positions (`u64::MAX`: none).
    deeper: Vec<Ns>,
}

impl Hindsight {
    pub fn new(states: &[IdleState], latency_limit: Option<Ns>) -> Self {
        let reach: Vec<Ns> = states
            .iter()
            .map(|s| if latency_limit.is_none_or(|l| s.exit_latency <= l) { s.target_residency } else { Ns::MAX })
            .collect();
        let mut deeper = vec![Ns::MAX; reach.len()];
        for i in (0..reach.len().saturating_sub(1)).rev() {
            deeper[i] = deeper[i + 1].min(reach[i + 1]);
        }
        Hindsight { reach, deeper }
    }

    /// The best position for an idle of `measured` ns in which the governor chose `chosen`.
    #[inline]
    pub fn best(&self, chosen: usize, measured: Ns) -> usize {
        let reached = chosen == 0 || self.reach[chosen] <= measured;
        if reached && self.deeper[chosen] > measured {
            return chosen;
        }
        self.reach.iter().rposition(|&r| r <= measured).unwrap_or(0)
    }
}

pub fn verdict(chosen: usize, best: usize) -> Verdict {
    match chosen.cmp(&best) {
        std::cmp::Ordering::Equal => Verdict::Right,
        std::cmp::Ordering::Greater => Verdict::TooDeep,
        std::cmp::Ordering::Less => Verdict::TooShallow,
    }
}

/// The tick decision at idle entry and the era's rule behind it, in words.
pub fn tick_reason(nohz: bool, governor_first: bool, gov_stop: bool, ratelimited: bool, stopped: bool) -> String {
    if !nohz {
        return "nohz=off: the tick keeps running (CONFIG_NO_HZ off / nohz=off)".into();
    }
    let rule = if governor_first {
        if gov_stop {
            "4.17+: the governor said stop_tick (cpuidle_idle_call -> tick_nohz_idle_stop_tick)"
        } else {
            "4.17+: the governor kept the tick (stop_tick = false: POLL or a predicted idle under a tick)"
        }
    } else {
        "before 4.17: tick_nohz_idle_enter decides first (tick_nohz_stop_sched_tick: next timer more than a jiffy away)"
    };
    let rl = if ratelimited { "; the nohz rate-limit patch kept it (avg_idle < migration_cost)" } else { "" };
    format!("{}: {rule}{rl}", if stopped { "stopped" } else { "running" })
}
