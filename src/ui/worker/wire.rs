//! The page-worker wire format: every `Request` and `Response` as one compact binary message
//! (issue 26). serde_json's decoders of the worker's answers were about 250 KB of the page's
//! code (one monomorphised parser per struct, sequence and tagged enum); this format is a
//! trait with one small `put`/`get` pair per type, written by the `wire_struct!` /
//! `wire_unit!` / `wire_named!` macros from the field list, so a field added to a type and
//! not here is a compile error on both sides (the struct pattern and the struct literal list
//! every field; a variant added to an enum fails its `match`).
//!
//! # Format
//!
//! A message opens with `MAGIC` (4 bytes, the format's version in its last byte), then the
//! value. Unsigned integers are LEB128 varints, signed ones zigzagged first; `f64` is 8 bytes
//! little-endian (bit-exact, NaN included); `bool` one byte (0 or 1); a string or a sequence
//! its length (varint) then its bytes or items; `Option` a byte 0 or 1 then the value; an
//! enum its variant's index (varint) then the variant's fields, except the engine's named
//! enums, which travel by their name (`name`/`parse`, as `Config::set` reads them). A run's
//! spans and instants travel as `packing`'s fixed-size records (fast to read), as one byte
//! string. Nothing here is the engine's or the CLI's format: both ends are this build.
//!
//! # Hostile input
//!
//! `get` never panics and never allocates more than the message could hold: every length is
//! checked against the bytes left, every tag and every name against its type. The first
//! error stops the reading (`Reader::fail`; what is read after it is empty) and `decode`
//! answers it, with the offset and what was wrong (`Bad`). Tested with every preset's real answers and with
//! every truncation and corruption of them (`worker::tests`).

use std::collections::BTreeMap;

use crate::engine::config::{
    CStates, Config, Governor, HackbenchMode, IdleMode, Ipc, PeriodicTask, PolicyKind, WorkloadKind,
};
use crate::engine::explain::records::{
    Candidate, Decisions, Delivery, GovernorView, IdleRecord, MigrateRecord, MoveCause, Part, PickRecord, PreemptCheck,
    RqEntry, Verdict, WakeRecord, WasteRecord,
};
use crate::engine::kernel::{Kernel, PreemptModel};
use crate::engine::metrics::{GovernorScore, Metrics, Percentiles, StopReason, TaskStats};
use crate::engine::trace::{PrevState, Switch, TaskInfo, Trace, UtilSample};
use crate::engine::validate::{Cell, Column, Row, Table};
use crate::share::ftrace::model::{CpuStat, Latency, Stats, TaskStat};
use crate::share::ftrace::replay::{Diff, DiffRow, Pair, Summary};
use crate::share::rtapp::ImportResult;
use crate::ui::tour::{NumberAnswer, Step, Tour};
use crate::ui::worker::packing;
use crate::ui::worker::protocol::{Export, Imported, Opened, Replayed, Request, Response, RunProgress, RunResult};

/// The first bytes of every message: "SSw" and the format's version.
pub const MAGIC: [u8; 4] = *b"SSw2";

/// What was wrong with a message, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bad {
    pub at: usize,
    pub what: &'static str,
}

impl std::fmt::Display for Bad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unreadable message at byte {}: {}", self.at, self.what)
    }
}

/// The reading side: the bytes, where the next value starts, and the first error. A read
/// past an error gives a type's empty value (0, "", an empty sequence, the first variant)
/// and reads nothing, so a `get` is straight-line code with no early return (and no drop of
/// the fields read so far at each of them: half the decoder's size), and `decode` reports
/// the first error once at the end.
pub struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    err: Option<Bad>,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Reader<'a> {
        Reader { b, at: 0, err: None }
    }

    /// Records `what` (the first error wins) and stops reading.
    #[inline(never)]
    pub fn fail(&mut self, what: &'static str) {
        if self.err.is_none() {
            self.err = Some(Bad { at: self.at, what });
        }
        self.at = self.b.len();
    }

    /// The next `n` bytes (empty after an error or when fewer are left, which fails).
    #[inline(never)]
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        if n > self.b.len() - self.at {
            self.fail("truncated");
            return &[];
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        s
    }

    #[inline(never)]
    pub fn byte(&mut self) -> u8 {
        self.bytes(1).first().copied().unwrap_or(0)
    }

    #[inline(never)]
    pub fn varint(&mut self) -> u64 {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte();
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                if shift == 63 && b > 1 {
                    self.fail("integer too large");
                    return 0;
                }
                return v;
            }
        }
        self.fail("integer too long");
        0
    }

    /// A sequence's length: at most the bytes left (each item takes one byte or more), so a
    /// corrupt length never reserves more than the message could hold.
    #[inline(never)]
    pub fn count(&mut self) -> usize {
        let n = self.varint();
        if n > (self.b.len() - self.at) as u64 {
            self.fail("length past the end");
            return 0;
        }
        n as usize
    }

    /// The first error, if any.
    pub fn error(&self) -> Option<&Bad> {
        self.err.as_ref()
    }
}

#[inline(never)]
pub fn put_varint(w: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        w.push(v as u8 | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

#[inline(never)]
pub fn put_str(w: &mut Vec<u8>, s: &str) {
    put_varint(w, s.len() as u64);
    w.extend_from_slice(s.as_bytes())
}

/// A type that travels between the page and its workers. `get` after an error (or making
/// one) returns an empty value; `decode` turns the reader's error into the answer.
pub trait Wire: Sized {
    fn put(&self, w: &mut Vec<u8>);
    fn get(r: &mut Reader) -> Self;
}

/// A whole message: `MAGIC` then `v`.
pub fn encode<T: Wire>(v: &T) -> Vec<u8> {
    let mut w = MAGIC.to_vec();
    v.put(&mut w);
    w
}

/// Reads a whole message written by `encode`; bytes left over are an error.
pub fn decode<T: Wire>(b: &[u8]) -> Result<T, Bad> {
    let mut r = Reader::new(b);
    if r.bytes(4) != &MAGIC[..] {
        return Err(Bad { at: 0, what: "not a schedscope message of this version" });
    }
    let v = T::get(&mut r);
    if r.at != r.b.len() {
        r.fail("bytes after the end");
    }
    match r.err {
        Some(e) => Err(e),
        None => Ok(v),
    }
}

/// A message as the bytes that cross.
pub fn to_bytes<T: Wire>(msg: &T) -> Vec<u8> {
    encode(msg)
}

/// Reads a worker response (`Garbled`, saying why, when it is not one).
pub fn parse_response(bytes: &[u8]) -> Response {
    decode(bytes).unwrap_or_else(|e| Response::Garbled { error: e.to_string() })
}

/// Reads a page request (`Err` says why it is not one).
pub fn parse_request(bytes: &[u8]) -> Result<Request, String> {
    decode(bytes).map_err(|e| e.to_string())
}

macro_rules! wire_uint {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put(&self, w: &mut Vec<u8>) {
                put_varint(w, *self as u64)
            }
            fn get(r: &mut Reader) -> Self {
                let v = r.varint();
                <$t>::try_from(v).unwrap_or_else(|_| {
                    r.fail("integer out of range");
                    0
                })
            }
        }
    )*};
}
wire_uint!(u8, u16, u32, u64, usize);

impl Wire for i64 {
    fn put(&self, w: &mut Vec<u8>) {
        put_varint(w, ((*self << 1) ^ (*self >> 63)) as u64)
    }
    fn get(r: &mut Reader) -> Self {
        let v = r.varint();
        (v >> 1) as i64 ^ -((v & 1) as i64)
    }
}

impl Wire for f64 {
    fn put(&self, w: &mut Vec<u8>) {
        w.extend_from_slice(&self.to_bits().to_le_bytes())
    }
    #[inline(never)]
    fn get(r: &mut Reader) -> Self {
        let b: [u8; 8] = r.bytes(8).try_into().unwrap_or([0; 8]);
        f64::from_bits(u64::from_le_bytes(b))
    }
}

impl Wire for bool {
    fn put(&self, w: &mut Vec<u8>) {
        w.push(*self as u8)
    }
    fn get(r: &mut Reader) -> Self {
        match r.byte() {
            0 => false,
            1 => true,
            _ => {
                r.fail("bad bool");
                false
            }
        }
    }
}

impl Wire for String {
    fn put(&self, w: &mut Vec<u8>) {
        put_str(w, self)
    }
    #[inline(never)]
    fn get(r: &mut Reader) -> Self {
        let n = r.count();
        match std::str::from_utf8(r.bytes(n)) {
            Ok(s) => s.to_string(),
            Err(_) => {
                r.fail("bad UTF-8");
                String::new()
            }
        }
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, w: &mut Vec<u8>) {
        put_varint(w, self.len() as u64);
        for x in self {
            x.put(w)
        }
    }
    fn get(r: &mut Reader) -> Self {
        let n = r.count();
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::get(r))
        }
        v
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            None => w.push(0),
            Some(x) => {
                w.push(1);
                x.put(w)
            }
        }
    }
    fn get(r: &mut Reader) -> Self {
        match r.byte() {
            0 => None,
            1 => Some(T::get(r)),
            _ => {
                r.fail("bad option");
                None
            }
        }
    }
}

impl<K: Wire + Ord, V: Wire> Wire for BTreeMap<K, V> {
    fn put(&self, w: &mut Vec<u8>) {
        put_varint(w, self.len() as u64);
        for (k, v) in self {
            k.put(w);
            v.put(w)
        }
    }
    fn get(r: &mut Reader) -> Self {
        let n = r.count();
        let mut m = BTreeMap::new();
        for _ in 0..n {
            let k = K::get(r);
            m.insert(k, V::get(r));
        }
        m
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, w: &mut Vec<u8>) {
        self.0.put(w);
        self.1.put(w)
    }
    fn get(r: &mut Reader) -> Self {
        (A::get(r), B::get(r))
    }
}

impl<A: Wire, B: Wire, C: Wire, D: Wire> Wire for (A, B, C, D) {
    fn put(&self, w: &mut Vec<u8>) {
        self.0.put(w);
        self.1.put(w);
        self.2.put(w);
        self.3.put(w)
    }
    fn get(r: &mut Reader) -> Self {
        (A::get(r), B::get(r), C::get(r), D::get(r))
    }
}

/// A struct as its fields in the order listed (every field: the pattern and the literal
/// name them all, so a missing one does not compile).
macro_rules! wire_struct {
    ($($t:ident { $($f:ident),* $(,)? })*) => {$(
        impl Wire for $t {
            fn put(&self, w: &mut Vec<u8>) {
                let $t { $($f),* } = self;
                $($f.put(w);)*
            }
            fn get(r: &mut Reader) -> Self {
                $t { $($f: Wire::get(r)),* }
            }
        }
    )*};
}

/// A fieldless enum as its variant's index (the first listed is the empty value).
macro_rules! wire_unit {
    ($($t:ident { $first:ident = 0 $(, $v:ident = $n:literal)* $(,)? })*) => {$(
        impl Wire for $t {
            fn put(&self, w: &mut Vec<u8>) {
                w.push(match self { $t::$first => 0, $($t::$v => $n),* })
            }
            fn get(r: &mut Reader) -> Self {
                match r.byte() {
                    0 => $t::$first,
                    $($n => $t::$v,)*
                    _ => {
                        r.fail(concat!("bad ", stringify!($t)));
                        $t::$first
                    }
                }
            }
        }
    )*};
}

/// An engine enum by its name (`name`/`parse`, as the config's text has it); `$empty` after
/// an error.
macro_rules! wire_named {
    ($($t:ident = $empty:ident),*) => {$(
        impl Wire for $t {
            fn put(&self, w: &mut Vec<u8>) {
                put_str(w, self.name())
            }
            fn get(r: &mut Reader) -> Self {
                let s = String::get(r);
                $t::parse(&s).unwrap_or_else(|| {
                    r.fail(concat!("bad ", stringify!($t)));
                    $t::$empty
                })
            }
        }
    )*};
}

wire_named!(
    Kernel = V417,
    PolicyKind = Cfs,
    Governor = Menu,
    IdleMode = Default,
    WorkloadKind = Rtapp,
    HackbenchMode = Process,
    Ipc = Socket
);

wire_unit! {
    PreemptModel { None = 0, Voluntary = 1, Full = 2 }
    StopReason { Completed = 0, TimeLimit = 1, EventBudget = 2 }
    PrevState { Preempted = 0, Runnable = 1, Sleeping = 2, Dead = 3 }
    Delivery {
        Local = 0, Ipi = 1, PollingFlag = 2, WakeListIpi = 3, WakeListPoll = 4, WakeListQueued = 5,
        KickPending = 6, NoPreempt = 7, FlagStore = 8,
    }
    Part {
        IpiSend = 0, IpiFlight = 1, CStateExit = 2, Reprogram = 3, Handler = 4, TtwuTarget = 5, Tick = 6,
        RunqueueWait = 7, IdleWait = 8, Switch = 9, Refill = 10, Other = 11,
    }
    Verdict { Right = 0, TooDeep = 1, TooShallow = 2 }
    MoveCause { WakeAffine = 0, SelectIdleSibling = 1, Affinity = 2, Periodic = 3, NewIdle = 4, NohzIdle = 5 }
    Export { Perfetto = 0, TraceText = 1, MetricsCsv = 2 }
}

impl Wire for CStates {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            CStates::All => w.push(0),
            CStates::Off => w.push(1),
            CStates::Only(names) => {
                w.push(2);
                names.put(w)
            }
        }
    }
    fn get(r: &mut Reader) -> Self {
        match r.byte() {
            0 => CStates::All,
            1 => CStates::Off,
            2 => CStates::Only(Wire::get(r)),
            _ => {
                r.fail("bad CStates");
                CStates::All
            }
        }
    }
}

wire_struct! {
    PeriodicTask { count, run, period, slice }
    Config {
        cores, cpu, hz, kernel, policy, features, sched_latency, min_granularity, wakeup_granularity,
        wakeup_gran_scale, pick_eevdf_v1, preempt, migration_cost, rr_interval, cstates, governor, latency_limit, idle, nohz,
        nohz_ratelimit, nohz_exit_reprograms, workload, loops, streams, jobs, tasks, pairs, work, groups, msg_size,
        hackbench_mode, ipc, schbench_message_threads, schbench_workers, schbench_operations, schbench_footprint,
        schbench_sleep, schbench_locking, workers, duration, seed, max_events,
    }
    Percentiles { p50, p99, max, count }
    TaskStats { name, runtime_ns, overhead_ns, refill_ns, switches_in, wakeups }
    GovernorScore { right, too_deep, too_shallow, miss_latency_us, miss_energy_mj }
    Metrics {
        elapsed_s, throughput, throughput_unit, higher_is_better, stop_reason, events, context_switches,
        migrations, ipis, timer_reprograms, nohz_entries, ticks, hrtick_fires, wakeups, preemptions,
        cstate_residency, cstate_entries, wakeup_latency_us, wakeup_latency_hist, user_s, sys_s, overhead_s,
        idle_s, cpu_percent, wall_s, tasks, workload, energy_j, energy_per_work, wasted_cpu_s, governor_score,
        digest,
    }
    TaskInfo { name, group }
    Switch { core, time, prev, prev_state, next }
    UtilSample { core, time, util }
    Candidate { cpu, role, idle, nr_running }
    PreemptCheck { curr, preempt, vruntime_lead_ns, rule }
    WakeRecord {
        time, task, waker, prev, target, sync, affine, candidates, reason, delivery, preempt, ttwu_waker_ns,
        ran_at, parts,
    }
    RqEntry { task, weight, vruntime, lag, eligible, deadline, slice }
    PickRecord { time, core, class, avg_vruntime, queue, queued, chosen, rule_pick, rule, prev }
    GovernorView { governor, rows }
    IdleRecord {
        time, core, next_timer, delta_tick, chosen, chosen_name, gov, tick_stopped, tick_reason, avg_idle,
        measured, best, best_name, verdict,
    }
    WasteRecord { start, end, idle_cpu, busy_cpu, task, cause }
    MigrateRecord { time, task, from, to, cause, domain, figures, hot }
    Decisions { wakeups, picks, idles, wasted, migrations }
    Column { key, label, unit }
    Cell { column, reported, simulated, reported_change, simulated_change, pass, abs_error }
    Row {
        label, sets, reported, simulated, reported_change, simulated_change, pass, vs, cells, context_switches,
        timer_reprograms, ipis, refill_s, user_s, sys_s, length, convergence, stop_reason, needs_full_run, miss,
    }
    Table { preset, title, source, metric, unit, columns, rows, corpus, notes }
    TaskStat {
        pid, comm, runtime_s, wait_s, sleep_s, wakeups, migrations, wakeup_p50_us, wakeup_p99_us, wakeup_max_us,
        runtime_ns, switches_in,
    }
    CpuStat { cpu, busy_s, idle_s }
    Latency { wakeups, p50_us, p99_us, max_us }
    Stats { start_s, duration_s, events, skipped, bad_lines, notices, tasks, cpus, all_wakeups }
    Pair { recorded, simulated, diff }
    DiffRow {
        pid, comm, runtime_s, wait_s, sleep_s, wakeups, migrations, wakeup_p50_us, wakeup_p99_us, wakeup_max_us,
    }
    Summary { metric, recorded, simulated, diff, abs_error_rel }
    Diff { recorded_duration_s, simulated_duration_s, tasks, summary }
    RunResult { metrics, trace }
    RunProgress { now, duration, events, max_events }
    Opened { format, bytes, stats, cpus, wakes, trace, cut }
    Replayed { diff, trace, cut, config, events }
}

/// A trace: its spans and instants as `packing`'s fixed-size records (one byte string; a
/// preview holds tens of thousands of them), the rest field by field.
impl Wire for Trace {
    fn put(&self, w: &mut Vec<u8>) {
        let Trace { cores, idle_states, tasks, spans, instants, switches, truncated, end, start, decisions, util } =
            self;
        cores.put(w);
        idle_states.put(w);
        tasks.put(w);
        let items = packing::pack_items(spans, instants);
        put_varint(w, items.len() as u64);
        w.extend_from_slice(&items);
        switches.put(w);
        truncated.put(w);
        end.put(w);
        start.put(w);
        decisions.put(w);
        util.put(w)
    }
    fn get(r: &mut Reader) -> Self {
        let (cores, idle_states, tasks) = (Wire::get(r), Wire::get(r), Wire::get(r));
        let n = r.count();
        let (spans, instants) = packing::unpack_items(r.bytes(n)).unwrap_or_else(|what| {
            r.fail(what);
            Default::default()
        });
        Trace {
            cores,
            idle_states,
            tasks,
            spans,
            instants,
            switches: Wire::get(r),
            truncated: Wire::get(r),
            end: Wire::get(r),
            start: Wire::get(r),
            decisions: Wire::get(r),
            util: Wire::get(r),
        }
    }
}

impl<T: Wire> Wire for Result<T, String> {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Ok(x) => {
                w.push(0);
                x.put(w)
            }
            Err(e) => {
                w.push(1);
                e.put(w)
            }
        }
    }
    fn get(r: &mut Reader) -> Self {
        match r.byte() {
            0 => Ok(T::get(r)),
            1 => Err(String::get(r)),
            _ => {
                r.fail("bad result");
                Err(String::new())
            }
        }
    }
}

wire_struct! {
    Tour { name, title, preset, steps }
    Step { title, set, metric, region, question, choices, answer, number, explain }
    NumberAnswer { value, tolerance }
    ImportResult { config_changes, notices }
}

impl Wire for Imported {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Imported::Tour(t) => {
                w.push(0);
                t.put(w)
            }
            Imported::Rtapp(r) => {
                w.push(1);
                r.put(w)
            }
        }
    }
    fn get(r: &mut Reader) -> Self {
        match r.byte() {
            0 => Imported::Tour(Wire::get(r)),
            1 => Imported::Rtapp(Wire::get(r)),
            _ => {
                r.fail("bad import");
                Imported::Rtapp(Err(String::new()))
            }
        }
    }
}

impl Wire for Request {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Request::Run { id, config, trace_items } => {
                w.push(0);
                (id, config, trace_items).put3(w)
            }
            Request::Seeds { id, preset } => {
                w.push(1);
                id.put(w);
                preset.put(w)
            }
            Request::Window { id, config, from, trace_items } => {
                w.push(2);
                (id, config, trace_items).put3(w);
                from.put(w)
            }
            Request::TraceOpen { id, key, text } => {
                w.push(3);
                id.put(w);
                key.put(w);
                text.put(w)
            }
            Request::TraceReplay { id, key, config, text } => {
                w.push(4);
                id.put(w);
                key.put(w);
                config.put(w);
                text.put(w)
            }
            Request::Decisions { id, config, from, to, at, trace_items } => {
                w.push(5);
                (id, config, trace_items).put3(w);
                from.put(w);
                to.put(w);
                at.put(w)
            }
            Request::Export { id, format, config, run } => {
                w.push(6);
                id.put(w);
                format.put(w);
                config.put(w);
                run.put(w)
            }
            Request::SweepCsv { id, key, rows } => {
                w.push(7);
                id.put(w);
                key.put(w);
                rows.put(w)
            }
            Request::Import { id, text } => {
                w.push(8);
                id.put(w);
                text.put(w)
            }
            Request::Wakeup { id, config, percent } => {
                w.push(9);
                id.put(w);
                config.put(w);
                percent.put(w)
            }
        }
    }
    fn get(r: &mut Reader) -> Self {
        match r.byte() {
            0 => Request::Run { id: Wire::get(r), config: Wire::get(r), trace_items: Wire::get(r) },
            1 => Request::Seeds { id: Wire::get(r), preset: Wire::get(r) },
            2 => Request::Window {
                id: Wire::get(r),
                config: Wire::get(r),
                trace_items: Wire::get(r),
                from: Wire::get(r),
            },
            3 => Request::TraceOpen { id: Wire::get(r), key: Wire::get(r), text: Wire::get(r) },
            4 => Request::TraceReplay { id: Wire::get(r), key: Wire::get(r), config: Wire::get(r), text: Wire::get(r) },
            5 => Request::Decisions {
                id: Wire::get(r),
                config: Wire::get(r),
                trace_items: Wire::get(r),
                from: Wire::get(r),
                to: Wire::get(r),
                at: Wire::get(r),
            },
            6 => Request::Export { id: Wire::get(r), format: Wire::get(r), config: Wire::get(r), run: Wire::get(r) },
            7 => Request::SweepCsv { id: Wire::get(r), key: Wire::get(r), rows: Wire::get(r) },
            8 => Request::Import { id: Wire::get(r), text: Wire::get(r) },
            9 => Request::Wakeup { id: Wire::get(r), config: Wire::get(r), percent: Wire::get(r) },
            _ => {
                r.fail("bad request");
                Request::Seeds { id: 0, preset: String::new() }
            }
        }
    }
}

/// A run's id, config and trace budget, which three requests share.
trait Put3 {
    fn put3(self, w: &mut Vec<u8>);
}

impl Put3 for (&u64, &Config, &usize) {
    fn put3(self, w: &mut Vec<u8>) {
        self.0.put(w);
        self.1.put(w);
        self.2.put(w)
    }
}

impl Wire for Response {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Response::Ready => w.push(0),
            Response::Run { id, result } => {
                w.push(1);
                id.put(w);
                result.put(w)
            }
            Response::Seeds { id, tables } => {
                w.push(2);
                id.put(w);
                tables.put(w)
            }
            Response::Progress { id, progress } => {
                w.push(3);
                id.put(w);
                progress.put(w)
            }
            Response::TraceProgress { id, bytes, total } => {
                w.push(4);
                id.put(w);
                bytes.put(w);
                total.put(w)
            }
            Response::TraceOpened { id, result } => {
                w.push(5);
                id.put(w);
                result.put(w)
            }
            Response::TraceReplayed { id, result } => {
                w.push(6);
                id.put(w);
                result.put(w)
            }
            Response::Garbled { error } => {
                w.push(7);
                error.put(w)
            }
            Response::Exported { id, result } => {
                w.push(8);
                id.put(w);
                result.put(w)
            }
            Response::Imported { id, result } => {
                w.push(9);
                id.put(w);
                result.put(w)
            }
        }
    }
    fn get(r: &mut Reader) -> Self {
        match r.byte() {
            0 => Response::Ready,
            1 => Response::Run { id: Wire::get(r), result: Wire::get(r) },
            2 => Response::Seeds { id: Wire::get(r), tables: Wire::get(r) },
            3 => Response::Progress { id: Wire::get(r), progress: Wire::get(r) },
            4 => Response::TraceProgress { id: Wire::get(r), bytes: Wire::get(r), total: Wire::get(r) },
            5 => Response::TraceOpened { id: Wire::get(r), result: Wire::get(r) },
            6 => Response::TraceReplayed { id: Wire::get(r), result: Wire::get(r) },
            7 => Response::Garbled { error: Wire::get(r) },
            8 => Response::Exported { id: Wire::get(r), result: Wire::get(r) },
            9 => Response::Imported { id: Wire::get(r), result: Wire::get(r) },
            _ => {
                r.fail("bad response");
                Response::Ready
            }
        }
    }
}
