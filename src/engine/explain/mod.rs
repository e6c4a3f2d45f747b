//! Decision records: why a wakeup went where it went, why a pick chose that task, why idle chose that state.
//!
//! A trace can say what happened; these records say why, from state the kernel never logs.
//! They are part of `Trace` (`Trace::decisions`), recorded only while the trace records
//! (inside its window, not truncated) and at most `trace::DECISIONS_MAX` of them, so a
//! run without a trace pays one `Option` test per hook and a traced run stays bounded.
//! Every record names the kernel function each number mirrors:
//! - [`WakeRecord`]: `select_task_rq_fair`'s candidates (the task's previous CPU, the
//!   waker's CPU through `wake_affine`, the CPUs `select_idle_sibling` scanned), how the
//!   target was told (`resched_curr`'s IPI, `set_nr_and_not_polling`'s polling flag,
//!   TTWU_QUEUE's wake list), the `check_preempt_wakeup` verdict, and the wakeup latency
//!   split into parts whose sum is exactly the latency the metrics count (from the moment
//!   `try_to_wake_up` makes the task runnable to the context switch that puts it on the
//!   CPU, `sched_wakeup` to `sched_switch` as a trace reader measures it; the switch's own
//!   cost and the refill after it are the task's on-CPU time).
//! - [`PickRecord`]: the runqueue `pick_next_task` saw (vruntime; EEVDF's V, lag,
//!   eligibility, deadline, slice; SD's deadline and quantum), the task chosen, and the
//!   task the class's rule picks, computed here independently (`pick_eevdf`: leftmost
//!   eligible deadline; CFS: leftmost vruntime; SD: earliest deadline).
//! - [`IdleRecord`]: `cpuidle_select`'s inputs and outputs (sleep length, `delta_tick`,
//!   menu's correction factor and typical interval, teo's hits and intercepts, ladder's
//!   promotion counts), the tick decision and the era rule behind it, and after the idle
//!   ends the measured idle, the best state in hindsight and the verdict.
//! - [`WasteRecord`]: a CPU idle while a task waited elsewhere longer than
//!   [`WASTE_THRESHOLD`] (the "Wasted Cores" pathology: Lozi et al., "The Linux Scheduler:
//!   a Decade of Wasted Cores", EuroSys 2016), with the wakeup that placed the task.
//!
//! Simplified: the latency split is read from the target core's recorded spans, so a part
//! is named by the span kind the engine laid (a tick handler in the way is `tick`, time with
//! nothing recorded is `other`); the first `ipi_send + ipi_latency` ns during which the target
//! has not yet taken the IPI are the IPI's send and flight.

use serde::{Deserialize, Serialize};

use super::idle::IdleState;
use super::policy::SchedEntity;
use super::time::{Ns, MS};
use super::trace::{Overhead, Span, SpanKind};

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

/// Everything a traced run decided, in time order per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decisions {
    pub wakeups: Vec<WakeRecord>,
    pub picks: Vec<PickRecord>,
    pub idles: Vec<IdleRecord>,
    pub wasted: Vec<WasteRecord>,
}

impl Decisions {
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn len(&self) -> usize {
        self.wakeups.len() + self.picks.len() + self.idles.len() + self.wasted.len()
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
        vec(&self.wakeups) + vec(&self.picks) + vec(&self.idles) + vec(&self.wasted) + wakes + picks + idles + wasted
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
fn split_latency(r: &WakeRecord, core: usize, at: Ns, spans: &[Span], ipi: (Ns, Ns)) -> Vec<(Part, Ns)> {
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
            Class::Eevdf => super::policy::calc_delta_fair(base_slice, s.weight),
            Class::Sd => s.rr_left,
            _ => 0,
        },
    }
}

/// The order in which the class's rule looks at its runqueue (`pos`: the place in the
/// queue, SD's round-robin tie break): the excerpt keeps the first `PICK_EXCERPT` of it.
fn rule_order(class: Class, e: &RqEntry, pos: usize) -> (bool, u64, u64) {
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

/// Records at or near `t`, for `schedscope run --explain`: those within `window` ns.
pub fn near(d: &Decisions, t: Ns, window: Ns) -> Decisions {
    let close = |x: Ns| x.abs_diff(t) <= window;
    Decisions {
        wakeups: d.wakeups.iter().filter(|r| close(r.time) || r.ran_at.is_some_and(close)).cloned().collect(),
        picks: d.picks.iter().filter(|r| close(r.time)).cloned().collect(),
        idles: d.idles.iter().filter(|r| close(r.time)).cloned().collect(),
        wasted: d.wasted.iter().filter(|r| r.start <= t + window && r.end + window >= t).cloned().collect(),
    }
}

/// `near`, or if nothing is that close, the nearest record of each kind.
pub fn near_or_nearest(d: &Decisions, t: Ns, window: Ns) -> Decisions {
    let n = near(d, t, window);
    if !n.is_empty() {
        return n;
    }
    let pick1 = |times: Vec<Ns>| times.into_iter().min_by_key(|x| x.abs_diff(t));
    let w = pick1(d.wakeups.iter().map(|r| r.time).collect());
    let p = pick1(d.picks.iter().map(|r| r.time).collect());
    let i = pick1(d.idles.iter().map(|r| r.time).collect());
    Decisions {
        wakeups: d.wakeups.iter().filter(|r| Some(r.time) == w).take(1).cloned().collect(),
        picks: d.picks.iter().filter(|r| Some(r.time) == p).take(1).cloned().collect(),
        idles: d.idles.iter().filter(|r| Some(r.time) == i).take(1).cloned().collect(),
        wasted: Vec::new(),
    }
}

/// The `max` records closest in time to `at` (all kinds together; a wakeup counts at the
/// nearer of its start and the moment it ran), each kind kept in its order: what the page
/// keeps of an on-demand decisions run, so its memory stays bounded however dense the run.
pub fn nearest(d: &Decisions, at: Ns, max: usize) -> Decisions {
    let wake_dist = |r: &WakeRecord| r.time.abs_diff(at).min(r.ran_at.map_or(Ns::MAX, |x| x.abs_diff(at)));
    let waste_dist =
        |r: &WasteRecord| if r.start <= at && at <= r.end { 0 } else { r.start.abs_diff(at).min(r.end.abs_diff(at)) };
    let mut dist: Vec<Ns> = d.wakeups.iter().map(wake_dist).collect();
    dist.extend(d.picks.iter().map(|r| r.time.abs_diff(at)));
    dist.extend(d.idles.iter().map(|r| r.time.abs_diff(at)));
    dist.extend(d.wasted.iter().map(waste_dist));
    if dist.len() <= max {
        return d.clone();
    }
    dist.sort_unstable();
    // Keep what is strictly closer than the `max`-th distance, then fill up with ties in order.
    let cut = dist[max];
    let mut room = max - dist.iter().filter(|&&x| x < cut).count();
    let mut keep = |x: Ns| {
        if x < cut {
            return true;
        }
        if x == cut && room > 0 {
            room -= 1;
            return true;
        }
        false
    };
    Decisions {
        wakeups: d.wakeups.iter().filter(|r| keep(wake_dist(r))).cloned().collect(),
        picks: d.picks.iter().filter(|r| keep(r.time.abs_diff(at))).cloned().collect(),
        idles: d.idles.iter().filter(|r| keep(r.time.abs_diff(at))).cloned().collect(),
        wasted: d.wasted.iter().filter(|r| keep(waste_dist(r))).cloned().collect(),
    }
}

/// The earliest and latest instant any record names (None when there is none).
pub fn span_of(d: &Decisions) -> Option<(Ns, Ns)> {
    let times = d
        .wakeups
        .iter()
        .flat_map(|r| [Some(r.time), r.ran_at])
        .flatten()
        .chain(d.picks.iter().map(|r| r.time))
        .chain(d.idles.iter().map(|r| r.time))
        .chain(d.wasted.iter().flat_map(|r| [r.start, r.end]));
    times.fold(None, |acc, t| Some(acc.map_or((t, t), |(lo, hi): (Ns, Ns)| (lo.min(t), hi.max(t)))))
}

/// Counter tracks derived from a trace, per CPU and per task: the one derivation the
/// Perfetto export (`share::perfetto`, `ph: "C"`) and the timeline's counter lanes
/// (`ui::timeline_counters`) both draw. Each series is in time order, a step function: a
/// value holds until the next sample.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CounterTracks {
    pub cores: Vec<CoreCounters>,
    /// Indexed by task id; empty for a task never seen queued at a pick.
    pub tasks: Vec<TaskCounters>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoreCounters {
    /// `rq->nr_running`: the queue each pick saw (`PickRecord::queue`), 0 at each idle entry.
    pub nr_running: Vec<(Ns, u32)>,
    /// `rq->avg_idle` at each idle entry, ns.
    pub avg_idle: Vec<(Ns, Ns)>,
    /// The idle state's index while idle (0 is C0: running or polling), from the spans.
    pub cstate: Vec<(Ns, u8)>,
}

/// A task's place in its runqueue at each pick it was queued for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskCounters {
    /// (time, vruntime - V, EEVDF lag `V - v` or None for other classes), ns of virtual time;
    /// V is `avg_vruntime` (EEVDF) or the smallest vruntime queued (CFS, SD).
    pub samples: Vec<(Ns, i64, Option<i64>)>,
}

/// The counter tracks of `trace` (its spans for the C-state, its decisions for the rest).
pub fn counters(trace: &super::trace::Trace) -> CounterTracks {
    let cores = trace.cores as usize;
    let mut out = CounterTracks { cores: vec![CoreCounters::default(); cores], tasks: Vec::new() };
    let core = |out: &mut CounterTracks, c: u16| -> usize {
        let c = c as usize;
        if out.cores.len() <= c {
            out.cores.resize(c + 1, CoreCounters::default());
        }
        c
    };
    // C-state: the state while idle, 0 when an idle span is not followed by another at once.
    let mut idle: Vec<(u16, Ns, Ns, u8)> = trace
        .spans
        .iter()
        .filter_map(|s| match s.kind {
            SpanKind::Idle { state } => Some((s.core, s.start, s.end, state)),
            _ => None,
        })
        .collect();
    crate::order::sort(&mut idle);
    for (i, &(c, start, end, state)) in idle.iter().enumerate() {
        let k = core(&mut out, c);
        out.cores[k].cstate.push((start, state));
        if !idle.get(i + 1).is_some_and(|n| n.0 == c && n.1 == end) {
            out.cores[k].cstate.push((end, 0));
        }
    }
    // nr_running: picks then idle entries, merged by time (a stable sort keeps that order on ties).
    let mut nr: Vec<(u16, Ns, u32)> =
        trace.decisions.picks.iter().map(|p| (p.core, p.time, p.nr_queued() as u32)).collect();
    nr.extend(trace.decisions.idles.iter().map(|i| (i.core, i.time, 0)));
    crate::order::sort_by_key(&mut nr, |&(c, t, _)| (c, t));
    for (c, t, n) in nr {
        let k = core(&mut out, c);
        out.cores[k].nr_running.push((t, n));
    }
    let mut ai: Vec<(u16, Ns, Ns)> = trace.decisions.idles.iter().map(|i| (i.core, i.time, i.avg_idle)).collect();
    crate::order::sort_by_key(&mut ai, |&(c, t, _)| (c, t));
    for (c, t, v) in ai {
        let k = core(&mut out, c);
        out.cores[k].avg_idle.push((t, v));
    }
    let mut picks: Vec<&PickRecord> = trace.decisions.picks.iter().collect();
    crate::order::sort_by_key(&mut picks, |p| p.time);
    for p in picks {
        let v = p.avg_vruntime as i128;
        for e in &p.queue {
            let t = e.task as usize;
            if out.tasks.len() <= t {
                out.tasks.resize(t + 1, TaskCounters::default());
            }
            let rel = (e.vruntime as i128 - v).clamp(i64::MIN as i128, i64::MAX as i128) as i64;
            out.tasks[t].samples.push((p.time, rel, (p.class == "eevdf").then_some(e.lag)));
        }
    }
    out
}

fn us(ns: Ns) -> String {
    if ns == Ns::MAX {
        return "none".into();
    }
    format!("{:.3} us", ns as f64 / 1e3)
}

/// Plain text of records, for the CLI (every number with its unit and kernel function).
pub fn render(d: &Decisions, tasks: &[String]) -> String {
    use std::fmt::Write;
    let name = |t: u32| tasks.get(t as usize).cloned().unwrap_or_else(|| format!("task {t}"));
    let mut out = String::new();
    for r in &d.wakeups {
        let _ = writeln!(
            out,
            "wakeup @ {} of {} (try_to_wake_up): prev CPU {}, waker {}, target CPU {}",
            us(r.time),
            name(r.task),
            r.prev,
            r.waker.map_or("timer".to_string(), |w| format!("CPU {w}")),
            r.target
        );
        let _ = writeln!(out, "  wake_affine: {}", r.affine);
        for c in &r.candidates {
            let _ = writeln!(
                out,
                "  candidate CPU {} ({}): idle_cpu={} nr_running={}",
                c.cpu, c.role, c.idle, c.nr_running
            );
        }
        let _ = writeln!(out, "  chosen: {}", r.reason);
        if let Some(dl) = r.delivery {
            let _ = writeln!(out, "  signal: {}", dl.text());
        }
        if let Some(p) = &r.preempt {
            let _ = writeln!(
                out,
                "  check_preempt_wakeup vs {}: {} ({}; lead {})",
                name(p.curr),
                if p.preempt { "preempt" } else { "no preemption" },
                p.rule,
                us(p.vruntime_lead_ns.unsigned_abs())
            );
        }
        let _ = writeln!(out, "  ttwu on the waker (before the latency starts): {}", us(r.ttwu_waker_ns));
        match r.latency() {
            Some(l) => {
                let _ = writeln!(out, "  latency {} =", us(l));
                for (p, ns) in &r.parts {
                    let _ = writeln!(out, "    {:>12}  {}  [{}]", us(*ns), p.name(), p.kernel_fn());
                }
            }
            None => {
                let _ = writeln!(out, "  had not run by the end of the trace");
            }
        }
    }
    for r in &d.picks {
        let _ = writeln!(
            out,
            "pick @ {} on CPU {} ({}): chose {}; rule: {} -> {}",
            us(r.time),
            r.core,
            r.class,
            name(r.chosen),
            r.rule,
            r.rule_pick.map_or("-".to_string(), name)
        );
        if r.class == "eevdf" {
            let _ = writeln!(
                out,
                "  V (avg_vruntime) = {} ns; vruntimes and deadlines below relative to it",
                r.avg_vruntime
            );
        }
        for e in &r.queue {
            let _ = writeln!(
                out,
                "  {:<14} weight {:>5}  vruntime-V {:>10} ns  lag {:>10} ns  eligible {:<5}  deadline-V {:>10} ns  \
                 slice {}",
                name(e.task),
                e.weight,
                e.vruntime as i128 - r.avg_vruntime as i128,
                e.lag,
                e.eligible,
                if e.deadline == 0 { 0 } else { e.deadline as i128 - r.avg_vruntime as i128 },
                us(e.slice)
            );
        }
        if r.more() > 0 {
            let _ = writeln!(
                out,
                "  ... {} more queued (the record keeps the first {PICK_EXCERPT} in the rule's order)",
                r.more()
            );
        }
    }
    for r in &d.idles {
        let _ = writeln!(
            out,
            "idle @ {} on CPU {} (cpuidle_select, {}): chose {}; sleep length {}, delta_tick {}, avg_idle {}",
            us(r.time),
            r.core,
            r.gov.governor,
            r.chosen_name,
            us(r.next_timer),
            us(r.delta_tick),
            us(r.avg_idle)
        );
        for (k, v, u, f) in &r.gov.rows {
            let _ = writeln!(out, "  {k} = {v} {u} [{f}]");
        }
        let _ = writeln!(out, "  tick: {}", r.tick_reason);
        if let (Some(m), Some(b), Some(v)) = (r.measured, &r.best_name, r.verdict) {
            let _ = writeln!(out, "  idled {}; best in hindsight {b}; verdict {v:?}", us(m));
        }
    }
    for r in &d.wasted {
        let _ = writeln!(
            out,
            "wasted: CPU {} idle {} .. {} while {} waited on CPU {}: {}",
            r.idle_cpu,
            us(r.start),
            us(r.end),
            name(r.task),
            r.busy_cpu,
            r.cause
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(delivery: Delivery) -> WakeRecord {
        WakeRecord {
            time: 100,
            task: 0,
            waker: Some(0),
            prev: 1,
            target: 1,
            sync: false,
            affine: String::new(),
            candidates: vec![],
            reason: String::new(),
            delivery: Some(delivery),
            preempt: None,
            ttwu_waker_ns: 0,
            ran_at: None,
            parts: vec![],
        }
    }

    #[test]
    fn split_adds_up_and_names_the_ipi() {
        let sp = |start, end, kind| Span { core: 1, start, end, kind };
        let spans = [
            sp(0, 400, SpanKind::Idle { state: 2 }),
            sp(400, 450, SpanKind::Overhead { kind: Overhead::CStateExit }),
            sp(450, 460, SpanKind::Overhead { kind: Overhead::Ipi }),
            Span { core: 0, start: 0, end: 900, kind: SpanKind::Run { task: 3, sys: false } },
            sp(470, 500, SpanKind::Overhead { kind: Overhead::Switch }),
        ];
        let parts = split_latency(&rec(Delivery::Ipi), 1, 500, &spans, (100, 150));
        let sum: Ns = parts.iter().map(|p| p.1).sum();
        assert_eq!(sum, 400);
        assert_eq!(
            parts,
            vec![
                (Part::IpiSend, 100),
                (Part::IpiFlight, 150),
                (Part::CStateExit, 50),
                (Part::Handler, 10),
                (Part::IdleWait, 50),
                (Part::Switch, 30),
                (Part::Other, 10)
            ]
        );
        let parts = split_latency(&rec(Delivery::PollingFlag), 1, 500, &spans, (100, 150));
        assert_eq!(parts[0], (Part::CStateExit, 50), "no IPI parts: {parts:?}");
    }

    /// The excerpt keeps the first `PICK_EXCERPT` in the rule's order, and its rule pick is
    /// what a scan of the whole queue picks (the old record's rule, recomputed here).
    #[test]
    fn a_pick_record_keeps_a_bounded_excerpt_and_the_whole_queue_rule() {
        let mut x: u64 = 7;
        let mut next = move || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> 33
        };
        for class in [Class::Eevdf, Class::Cfs, Class::Sd] {
            for n in [1usize, 5, 16, 17, 300] {
                let se: Vec<SchedEntity> = (0..n)
                    .map(|_| SchedEntity {
                        weight: [1024, 335, 3121][next() as usize % 3],
                        vruntime: 1_000_000 + next() % 50_000,
                        deadline: 1_000_000 + next() % 80_000,
                        rr_left: next() % 1000,
                        ..SchedEntity::default()
                    })
                    .collect();
                let queue: Vec<usize> = (0..n).rev().collect();
                let prev = Some(queue[n / 2]);
                let r = pick_record(class, &se, &queue, 3_000_000, 5, 0, prev);
                let all: Vec<RqEntry> =
                    queue.iter().map(|&t| rq_entry(class, &se, t, r.avg_vruntime, 3_000_000)).collect();
                let want = match class {
                    Class::Eevdf => all
                        .iter()
                        .filter(|e| e.eligible)
                        .min_by_key(|e| (e.deadline, e.task))
                        .or_else(|| all.iter().min_by_key(|e| (e.vruntime, e.task))),
                    Class::Sd => all.iter().enumerate().min_by_key(|(i, e)| (e.deadline, *i)).map(|(_, e)| e),
                    _ => all.iter().min_by_key(|e| (e.vruntime, e.task)),
                };
                assert_eq!(r.rule_pick, want.map(|e| e.task), "{class:?} n={n}");
                assert_eq!(r.nr_queued(), n);
                assert!(r.queue.len() <= PICK_EXCERPT + 2 && r.queue.len() <= n, "{class:?} n={n}");
                assert_eq!(r.more(), n - r.queue.len());
                assert!(r.queue.iter().any(|e| Some(e.task) == r.rule_pick));
                assert!(r.queue.iter().any(|e| Some(e.task as usize) == prev));
                let mut keys: Vec<_> =
                    all.iter().enumerate().map(|(pos, e)| (rule_order(class, e, pos), e.task)).collect();
                keys.sort_unstable();
                for (_, task) in keys.iter().take(PICK_EXCERPT) {
                    assert!(
                        r.queue.iter().any(|e| e.task == *task),
                        "{class:?} n={n}: the first in rule order are kept"
                    );
                }
            }
        }
    }

    #[test]
    fn nearest_keeps_the_closest_records_of_every_kind() {
        let pick = |time| PickRecord {
            time,
            core: 0,
            class: "cfs".into(),
            avg_vruntime: 0,
            queue: vec![],
            queued: 0,
            chosen: 0,
            rule_pick: None,
            rule: String::new(),
            prev: None,
        };
        let mut w = rec(Delivery::Ipi);
        w.time = 480;
        w.ran_at = Some(1_000);
        let d = Decisions { wakeups: vec![w], picks: (0..10).map(|i| pick(i * 100)).collect(), ..Decisions::default() };
        let n = nearest(&d, 1_000, 3);
        assert_eq!(n.len(), 3);
        assert_eq!(n.wakeups.len(), 1, "the wakeup ran at 1000: distance 0");
        assert_eq!(n.picks.iter().map(|p| p.time).collect::<Vec<_>>(), vec![800, 900]);
        assert_eq!(nearest(&d, 0, 100), d, "fewer than max: all of them");
        assert_eq!(span_of(&n), Some((480, 1_000)));
        assert_eq!(span_of(&Decisions::default()), None);
    }

    #[test]
    fn counters_follow_the_spans_and_the_records() {
        use crate::engine::trace::Trace;
        let sp = |core, start, end, kind| Span { core, start, end, kind };
        let pick = |time, core, queue: Vec<(u32, u64)>| PickRecord {
            time,
            core,
            class: "eevdf".into(),
            avg_vruntime: 1_000,
            queue: queue
                .into_iter()
                .map(|(task, vruntime)| RqEntry {
                    task,
                    weight: 1024,
                    vruntime,
                    lag: 1_000 - vruntime as i64,
                    eligible: vruntime <= 1_000,
                    deadline: 0,
                    slice: 0,
                })
                .collect(),
            queued: 2,
            chosen: 0,
            rule_pick: None,
            rule: String::new(),
            prev: None,
        };
        let idle = |time, core, avg_idle| IdleRecord {
            time,
            core,
            next_timer: 0,
            delta_tick: 0,
            chosen: 2,
            chosen_name: "C6".into(),
            gov: GovernorView::default(),
            tick_stopped: false,
            tick_reason: String::new(),
            avg_idle,
            measured: None,
            best: None,
            best_name: None,
            verdict: None,
        };
        let trace = Trace {
            cores: 2,
            spans: vec![
                sp(1, 0, 100, SpanKind::Idle { state: 2 }),
                sp(1, 100, 150, SpanKind::Idle { state: 1 }),
                sp(1, 150, 200, SpanKind::Run { task: 0, sys: false }),
                sp(0, 0, 300, SpanKind::Run { task: 1, sys: false }),
            ],
            decisions: Decisions {
                picks: vec![pick(150, 1, vec![(0, 900), (1, 1_200)])],
                idles: vec![idle(0, 1, 5_000), idle(200, 1, 7_000)],
                ..Decisions::default()
            },
            ..Trace::default()
        };
        let c = counters(&trace);
        assert_eq!(c.cores.len(), 2);
        assert_eq!(c.cores[1].cstate, vec![(0, 2), (100, 1), (150, 0)], "back-to-back idle spans, then C0");
        assert!(c.cores[0].cstate.is_empty());
        assert_eq!(c.cores[1].nr_running, vec![(0, 0), (150, 2), (200, 0)]);
        assert_eq!(c.cores[1].avg_idle, vec![(0, 5_000), (200, 7_000)]);
        assert_eq!(c.tasks[0].samples, vec![(150, -100, Some(100))]);
        assert_eq!(c.tasks[1].samples, vec![(150, 200, Some(-200))]);
    }

    #[test]
    fn best_state_and_verdict() {
        let s = |exit_latency, target_residency| IdleState { index: 0, exit_latency, target_residency };
        let st = [s(0, 0), s(2_000, 2_000), s(10_000, 50_000)];
        assert_eq!(best_state(&st, 1_000, None), 0);
        assert_eq!(best_state(&st, 60_000, None), 2);
        assert_eq!(best_state(&st, 60_000, Some(5_000)), 1);
        assert_eq!(verdict(2, 1), Verdict::TooDeep);
        // The precomputed form gives best_state's answer for every choice and length,
        // including states out of residency order and a latency limit.
        let odd = [s(0, 0), s(2_000, 30_000), s(10_000, 20_000), s(50_000, 100_000)];
        for states in [&st[..], &odd[..]] {
            for limit in [None, Some(5_000), Some(20_000)] {
                let h = Hindsight::new(states, limit);
                for chosen in 0..states.len() {
                    for measured in [0, 1_000, 2_000, 19_999, 20_000, 30_000, 60_000, 100_000, 1_000_000] {
                        assert_eq!(
                            h.best(chosen, measured),
                            best_state(states, measured, limit),
                            "{chosen} {measured}"
                        );
                    }
                }
            }
        }
        assert_eq!(verdict(0, 1), Verdict::TooShallow);
    }
}
