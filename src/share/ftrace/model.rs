//! A recorded trace as per-task runs, sleeps and wakeup edges, and its per-task and per-CPU statistics.
//!
//! Events are sorted by timestamp (stable, so equal times keep file order): `trace_pipe`
//! and `perf script` interleave per-CPU buffers, so lines may be out of order across CPUs.
//! A task is in one state at a time: running on a CPU, runnable (woken or preempted,
//! waiting for a CPU), sleeping, or dead. Switch-in after runnable adds to `wait`, a
//! wakeup after sleeping adds to `sleep` and `wakeups` and starts a wakeup latency that the
//! next switch-in ends (the wakeup latency of `perf sched latency`: from `sched_wakeup`).
//! When a file has no `sched_wakeup` at all, `sched_waking` stands in for it.
//! What the trace does not show is not invented: a task running when the trace starts is
//! counted from the trace's first timestamp, one still running at the end to its last; a
//! task first seen in `sched_switch` (next) without a wakeup was runnable since the start
//! (its wait is not counted, since it is not known; `Birth::SwitchIn` records when, and a
//! replay starts it there). A pid whose task died
//! (`sched_process_exit` or `prev_state=X/Z`) and appears again is a new task (pid reuse).
//! Migrations are counted as changes of the CPU a task runs on between two runs.
//! Per-CPU clocks can disagree (`trace_clock=local`): a wakeup stamped on one CPU after the
//! wakee's switch-in on another is not reordered (which of the two clocks is right is not
//! known); such switch-ins are counted in a notice, and the wakeup after it is ignored.

use std::collections::BTreeMap;

use super::parse::{parse_line, Event, Kind, Line, LineError, PrevState, MAX_LINE};
use crate::engine::time::Ns;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    Preempted,
    Slept,
    Exited,
    /// Still running when the trace ends.
    TraceEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub cpu: u32,
    pub start: Ns,
    pub end: Ns,
    pub how: RunEnd,
}

/// A wakeup of a sleeping task: `waker` is the task current on `cpu` when it fired, `None`
/// for idle (an interrupt or timer on an idle CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wake {
    pub t: Ns,
    pub task: usize,
    pub waker: Option<usize>,
    pub cpu: u32,
    pub target: u32,
}

/// How a task's life began, as far as the trace shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Birth {
    /// There from the start: running, runnable or sleeping when the trace began (or first
    /// seen in a `sched_wakeup`, which means it slept until then).
    #[default]
    Start,
    /// First seen switching in at this time (after the trace's start) with no wakeup before: forked while
    /// `sched_wakeup_new` was not traced, or runnable since the start (a trace cannot tell
    /// the two apart; a replay starts it here).
    SwitchIn(Ns),
    /// Started by `sched_wakeup_new` (fork or clone).
    New,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskRec {
    pub pid: u32,
    pub comm: String,
    /// The kernel prio last seen (`next_prio`), 120 + nice for normal tasks.
    pub prio: i32,
    pub runs: Vec<Run>,
    /// When the task was sleeping at the trace's start until its first wakeup.
    pub sleeping_at_start: bool,
    /// How its life began as the trace shows it (a replay starts the task the same way).
    pub birth: Birth,
    pub exited: bool,
    pub runtime: Ns,
    pub wait: Ns,
    pub sleep: Ns,
    pub wakeups: u64,
    /// `sched_switch` lines that put it on a CPU (`next_pid`).
    pub switches_in: u64,
    pub migrations: u64,
    /// Wakeup to switch-in, one per wakeup that got the CPU within the trace.
    pub latencies: Vec<Ns>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    pub start: Ns,
    pub end: Ns,
    pub cpus: u32,
    pub tasks: Vec<TaskRec>,
    pub wakes: Vec<Wake>,
    /// (time, task, from, to) from `sched_migrate_task`.
    pub migrations: Vec<(Ns, usize, u32, u32)>,
    /// (cpu, start, end, C-state index) from `cpu_idle`.
    pub cstates: Vec<(u32, Ns, Ns, u32)>,
    /// (time, from cpu, target cpu) from `ipi_*` lines naming a target.
    pub ipis: Vec<(Ns, u32, u32)>,
    /// Per CPU: time a task (not idle) was current.
    pub busy: Vec<Ns>,
    pub events: u64,
    /// Events read but not used, by name.
    pub skipped: BTreeMap<String, u64>,
    /// Lines that could not be read (line number and why), at most `MAX_NOTICES`.
    pub notices: Vec<String>,
    pub bad_lines: u64,
}

const MAX_NOTICES: usize = 20;
/// More CPUs than this in a trace is refused (a corrupt cpu column).
pub const MAX_CPUS: u32 = 1024;

/// Why a file could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    Running(u32),
    Runnable(Ns),
    Sleeping(Ns),
    Dead,
}

struct Live {
    st: St,
    since: Ns,
    /// Wakeup time waiting for its switch-in.
    woke: Option<Ns>,
    last_cpu: Option<u32>,
    exiting: bool,
}

/// Reads a whole file's text. Lines that fail are counted and noted (with line numbers);
/// a last line that fails is taken as truncated. Errors only when no event at all is read.
pub fn read(text: &str) -> Result<Model, ReadError> {
    let mut r = Reader::default();
    r.push(text);
    r.finish()
}

/// `read` in pieces: the page's worker feeds a large file chunk by chunk (`push`, any
/// split, even inside a line) and reports its progress between chunks; `finish` is `read`'s
/// answer for the concatenated text.
#[derive(Debug, Default)]
pub struct Reader {
    events: Vec<Event>,
    m: Model,
    /// The text after the last newline seen, waiting for the rest of its line: at most
    /// `MAX_LINE + 1` bytes are kept (enough to refuse it), the rest only counted.
    partial: String,
    /// Bytes of the unfinished line beyond those kept in `partial`.
    partial_dropped: usize,
    line: usize,
    first_error: Option<String>,
    /// (line, message) of the first `MAX_NOTICES` bad lines.
    bad: Vec<(usize, String)>,
    /// Bytes pushed so far.
    pub bytes: u64,
    /// The CPU count `trace-cmd report` prints in its header (`cpus=8`): CPUs that logged
    /// nothing are still the machine's, idle all along.
    header_cpus: u32,
    /// What the header said that was not used.
    header_notes: Vec<String>,
}

impl Reader {
    /// Reads the complete lines of `chunk` (with what an earlier chunk left unfinished).
    pub fn push(&mut self, chunk: &str) {
        self.bytes += chunk.len() as u64;
        let mut rest = chunk;
        if !self.partial.is_empty() || self.partial_dropped > 0 {
            match rest.find('\n') {
                Some(k) => {
                    self.keep_partial(&rest[..k]);
                    self.finish_partial();
                    rest = &rest[k + 1..];
                }
                None => {
                    self.keep_partial(rest);
                    return;
                }
            }
        }
        let (whole, tail) = match rest.rfind('\n') {
            Some(k) => (&rest[..k], &rest[k + 1..]),
            None => ("", rest),
        };
        if rest.contains('\n') {
            for l in whole.split('\n') {
                self.one(l);
            }
        }
        self.keep_partial(tail);
    }

    /// Appends to the unfinished line, keeping at most `MAX_LINE + 1` bytes of it.
    fn keep_partial(&mut self, s: &str) {
        let room = (MAX_LINE + 1).saturating_sub(self.partial.len());
        if s.len() <= room {
            self.partial.push_str(s);
        } else {
            let mut n = room;
            while !s.is_char_boundary(n) {
                n -= 1;
            }
            self.partial.push_str(&s[..n]);
            self.partial_dropped += s.len() - n;
        }
    }

    /// Reads the unfinished line as complete (its newline came, or the input ended).
    fn finish_partial(&mut self) {
        let line = std::mem::take(&mut self.partial);
        let dropped = std::mem::take(&mut self.partial_dropped);
        if dropped == 0 {
            self.one(&line);
        } else {
            self.line += 1;
            let e = LineError {
                line: self.line,
                message: format!("longer than {MAX_LINE} bytes ({} bytes)", line.len() + dropped),
            };
            self.bad_line(e);
        }
    }

    fn bad_line(&mut self, e: LineError) {
        self.m.bad_lines += 1;
        if self.first_error.is_none() {
            self.first_error = Some(e.to_string());
        }
        if self.bad.len() < MAX_NOTICES {
            self.bad.push((self.line, e.to_string()));
        }
    }

    fn one(&mut self, raw: &str) {
        self.line += 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(n) = raw.trim().strip_prefix("cpus=").map(str::trim) {
            match n.parse::<u32>() {
                Ok(n) if n <= MAX_CPUS => self.header_cpus = self.header_cpus.max(n),
                _ => self.header_notes.push(format!(
                    "line {}: the header's cpus={} is not a CPU count up to {MAX_CPUS}; ignored",
                    self.line,
                    super::shorten(n, 40)
                )),
            }
        }
        match parse_line(raw, self.line) {
            Ok(Line::Event(e)) => self.events.push(e),
            Ok(Line::Skipped(name)) => *self.m.skipped.entry(name).or_insert(0) += 1,
            Ok(Line::Blank) => {}
            Err(e) => self.bad_line(e),
        }
    }

    /// An event read from elsewhere (a trace.dat record; `line` is its record number).
    pub fn push_event(&mut self, e: Event) {
        self.events.push(e);
    }

    /// An event read from elsewhere that the model does not use (its name).
    pub fn skip(&mut self, name: &str) {
        match self.m.skipped.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                self.m.skipped.insert(name.to_string(), 1);
            }
        }
    }

    /// The machine's CPU count as a file's header gives it.
    pub fn set_header_cpus(&mut self, n: u32) {
        self.header_cpus = self.header_cpus.max(n.min(MAX_CPUS));
    }

    /// A notice about the file as a whole.
    pub fn note(&mut self, n: String) {
        self.header_notes.push(n);
    }

    /// Events read so far.
    pub fn events(&self) -> usize {
        self.events.len()
    }

    /// The model of everything pushed (a last line without its newline is read too).
    pub fn finish(mut self) -> Result<Model, ReadError> {
        if !self.partial.is_empty() || self.partial_dropped > 0 {
            self.finish_partial();
        }
        let nlines = self.line;
        let mut m = self.m;
        m.notices = self
            .bad
            .iter()
            .map(|(l, e)| {
                let what = if *l == nlines { " (the last line: truncated? ignored)" } else { " (ignored)" };
                format!("{e}{what}")
            })
            .collect();
        let mut events = self.events;
        if events.is_empty() {
            let why = self.first_error.unwrap_or_else(|| "no sched_switch or other sched event found".into());
            return Err(ReadError { message: format!("not a trace-cmd report / perf script text: {why}") });
        }
        if let Some(e) = events.iter().find(|e| e.cpu >= MAX_CPUS) {
            return Err(ReadError { message: format!("line {}: CPU {} is beyond {MAX_CPUS}", e.line, e.cpu) });
        }
        events.sort_by_key(|e| e.ts);
        m.notices.extend(self.header_notes);
        build(&mut m, &events, self.header_cpus);
        Ok(m)
    }
}

fn build(m: &mut Model, events: &[Event], header_cpus: u32) {
    let use_waking = !events.iter().any(|e| matches!(e.kind, Kind::Wakeup { waking: false, .. }));
    m.start = events[0].ts;
    m.end = events[events.len() - 1].ts;
    m.events = events.len() as u64;
    let ncpu = events
        .iter()
        .map(|e| {
            // A CPU a line names beyond MAX_CPUS is not the machine's (the line's own CPU is,
            // and `finish` refuses it beyond MAX_CPUS): a wakeup on CPU 1023 naming
            // target_cpu=99999 dropped 1023 from the count and indexed past it.
            let named = match &e.kind {
                Kind::Migrate { orig_cpu, dest_cpu, .. } => (*orig_cpu).max(*dest_cpu),
                Kind::Wakeup { target_cpu: Some(t), .. } => *t,
                _ => 0,
            };
            if named < MAX_CPUS {
                e.cpu.max(named)
            } else {
                e.cpu
            }
        })
        .max()
        .unwrap_or(0)
        .max(header_cpus.saturating_sub(1))
        + 1;
    m.cpus = ncpu;
    m.busy = vec![0; ncpu as usize];
    // Per CPU: current task (None = idle or not yet known) and since when.
    let mut curr: Vec<Option<(usize, Ns)>> = vec![None; ncpu as usize];
    let mut idle_since: Vec<Option<(Ns, u32)>> = vec![None; ncpu as usize];
    let mut by_pid: BTreeMap<u32, usize> = BTreeMap::new();
    let mut live: Vec<Live> = Vec::new();
    let start = m.start;
    // Lines that contradict what the trace said before (noted, at most `MAX_NOTICES`).
    let mut inconsistent: Vec<String> = Vec::new();
    let mut cpu_seen = vec![false; ncpu as usize];
    let mut cpu_switched = vec![false; ncpu as usize];
    // Switch-ins of a sleeping task with no wakeup before them, in a file that has wakeups.
    let has_wakeups = events.iter().any(|e| matches!(e.kind, Kind::Wakeup { .. }));
    let mut unwoken = 0u64;

    // The task a pid names now (a new one after the old one died).
    fn id(
        m: &mut Model,
        live: &mut Vec<Live>,
        by_pid: &mut BTreeMap<u32, usize>,
        pid: u32,
        comm: &str,
        t0: Ns,
    ) -> usize {
        if let Some(&i) = by_pid.get(&pid) {
            if live[i].st != St::Dead {
                if !comm.is_empty() && m.tasks[i].comm != comm {
                    m.tasks[i].comm = comm.to_string();
                }
                return i;
            }
        }
        let i = m.tasks.len();
        m.tasks.push(TaskRec { pid, comm: comm.to_string(), prio: 120, ..TaskRec::default() });
        live.push(Live { st: St::Runnable(t0), since: t0, woke: None, last_cpu: None, exiting: false });
        by_pid.insert(pid, i);
        i
    }

    for e in events {
        let t = e.ts;
        let c = e.cpu as usize;
        cpu_seen[c] = true;
        match &e.kind {
            Kind::Switch { prev_comm, prev_pid, prev_state, next_comm, next_pid, next_prio } => {
                if *prev_pid != 0 {
                    let p = id(m, &mut live, &mut by_pid, *prev_pid, prev_comm, start);
                    // It runs on another CPU by the trace so far: that CPU lost its switch-out.
                    if let St::Running(oc) = live[p].st {
                        if oc != e.cpu {
                            if let Some((q, s)) = curr[oc as usize].filter(|&(q, _)| q == p) {
                                close_run(m, &mut live, q, oc, s, t, RunEnd::Preempted);
                                curr[oc as usize] = None;
                            }
                            live[p].st = St::Runnable(t);
                            inconsistent.push(format!(
                                "line {}: pid {} switches out on CPU {} while running on CPU {oc} (a lost event): \
                                 its run on CPU {oc} ends here, and this switch-out counts no time",
                                e.line, prev_pid, e.cpu
                            ));
                        }
                    }
                    if let Some((q, s)) = curr[c] {
                        if q != p {
                            // A lost switch: the task we thought current is off the CPU.
                            close_run(m, &mut live, q, e.cpu, s, t, RunEnd::Preempted);
                            live[q].st = St::Runnable(t);
                            curr[c] = None;
                        }
                    }
                    // Running since its switch-in here, or since the start if the trace began mid-run.
                    let since = match curr[c] {
                        Some((q, s)) if q == p => s,
                        // (Only on a CPU with no switch before: else another task was current.)
                        _ if m.tasks[p].runs.is_empty()
                            && matches!(live[p].st, St::Runnable(_))
                            && !cpu_switched[c] =>
                        {
                            start
                        }
                        _ => t,
                    };
                    let dead = *prev_state == PrevState::Dead || live[p].exiting;
                    let how = if dead {
                        RunEnd::Exited
                    } else if *prev_state == PrevState::Sleeping {
                        RunEnd::Slept
                    } else {
                        RunEnd::Preempted
                    };
                    close_run(m, &mut live, p, e.cpu, since, t, how);
                    live[p].st = match how {
                        RunEnd::Exited => St::Dead,
                        RunEnd::Slept => St::Sleeping(t),
                        _ => St::Runnable(t),
                    };
                    if dead {
                        m.tasks[p].exited = true;
                    }
                } else if let Some((q, s)) = curr[c] {
                    // The line says idle was current: whatever we thought ran is off the CPU.
                    close_run(m, &mut live, q, e.cpu, s, t, RunEnd::Preempted);
                    live[q].st = St::Runnable(t);
                }
                curr[c] = None;
                cpu_switched[c] = true;
                if *next_pid != 0 {
                    let n = id(m, &mut live, &mut by_pid, *next_pid, next_comm, start);
                    m.tasks[n].prio = *next_prio;
                    m.tasks[n].switches_in += 1;
                    // If it still runs elsewhere (a lost switch-out), end that run here.
                    if let St::Running(oc) = live[n].st {
                        if let Some((q, s)) = curr[oc as usize] {
                            if q == n {
                                close_run(m, &mut live, n, oc, s, t, RunEnd::Preempted);
                                curr[oc as usize] = None;
                            }
                        }
                    }
                    let first_seen = m.tasks[n].runs.is_empty() && live[n].woke.is_none();
                    if first_seen && live[n].st == St::Runnable(start) && t > start {
                        m.tasks[n].birth = Birth::SwitchIn(t);
                    }
                    match live[n].st {
                        St::Runnable(q) if !first_seen || q != start => m.tasks[n].wait += t - q,
                        St::Sleeping(s) => {
                            m.tasks[n].sleep += t - s;
                            if has_wakeups {
                                unwoken += 1;
                            }
                        }
                        _ => {}
                    }
                    if let Some(w) = live[n].woke.take() {
                        m.tasks[n].latencies.push(t - w);
                    }
                    if let Some(lc) = live[n].last_cpu {
                        if lc != e.cpu {
                            m.tasks[n].migrations += 1;
                        }
                    }
                    live[n].st = St::Running(e.cpu);
                    live[n].since = t;
                    curr[c] = Some((n, t));
                }
            }
            Kind::Wakeup { comm, pid, target_cpu, new, waking } => {
                if *waking != use_waking {
                    continue;
                }
                let w = id(m, &mut live, &mut by_pid, *pid, comm, start);
                let fresh = m.tasks[w].runs.is_empty() && live[w].woke.is_none() && live[w].st == St::Runnable(start);
                let from = match live[w].st {
                    St::Sleeping(s) => Some(s),
                    _ if fresh => {
                        m.tasks[w].sleeping_at_start = !new;
                        if *new {
                            m.tasks[w].birth = Birth::New;
                        }
                        Some(start)
                    }
                    _ => None,
                };
                let Some(s) = from else { continue };
                if !fresh {
                    m.tasks[w].sleep += t - s;
                }
                m.tasks[w].wakeups += 1;
                live[w].st = St::Runnable(t);
                live[w].woke = Some(t);
                let waker = if e.pid == 0 {
                    None
                } else {
                    match curr[c] {
                        Some((q, _)) if m.tasks[q].pid == e.pid => Some(q),
                        _ => None,
                    }
                };
                m.wakes.push(Wake { t, task: w, waker, cpu: e.cpu, target: target_cpu.unwrap_or(e.cpu) });
            }
            Kind::Migrate { comm, pid, orig_cpu, dest_cpu } => {
                let k = id(m, &mut live, &mut by_pid, *pid, comm, start);
                m.migrations.push((t, k, *orig_cpu, *dest_cpu));
            }
            Kind::Exit { comm, pid } => {
                let k = id(m, &mut live, &mut by_pid, *pid, comm, start);
                live[k].exiting = true;
                if !matches!(live[k].st, St::Running(_)) {
                    live[k].st = St::Dead;
                    m.tasks[k].exited = true;
                }
            }
            Kind::CpuIdle { state, cpu } => {
                let ci = (*cpu).min(ncpu - 1) as usize;
                if let Some((s, st)) = idle_since[ci].take() {
                    m.cstates.push((ci as u32, s, t, st));
                }
                if let Some(st) = state {
                    idle_since[ci] = Some((t, *st));
                }
            }
            Kind::Ipi { target: Some(to), .. } => m.ipis.push((t, e.cpu, *to)),
            Kind::Ipi { .. } | Kind::Hrtimer { .. } | Kind::Marker => {}
        }
    }
    let end = m.end;
    for c in 0..ncpu as usize {
        if let Some((q, s)) = curr[c] {
            close_run(m, &mut live, q, c as u32, s, end, RunEnd::TraceEnd);
        }
        if let Some((s, st)) = idle_since[c] {
            m.cstates.push((c as u32, s, end, st));
        }
    }
    for (i, l) in live.iter().enumerate() {
        match l.st {
            St::Runnable(q) if !(m.tasks[i].runs.is_empty() && l.woke.is_none() && q == start) => {
                m.tasks[i].wait += end - q
            }
            St::Sleeping(s) => m.tasks[i].sleep += end - s,
            _ => {}
        }
    }
    m.cstates.sort_by_key(|&(c, s, _, _)| (s, c));
    let n_inconsistent = inconsistent.len();
    m.notices.extend(inconsistent.into_iter().take(MAX_NOTICES));
    if n_inconsistent > MAX_NOTICES {
        m.notices.push(format!("{} more lines contradict the trace before them", n_inconsistent - MAX_NOTICES));
    }
    if unwoken > 0 {
        m.notices.push(format!(
            "{unwoken} switch-ins of a sleeping task had no wakeup before them (its wakeup is stamped later \
             on another CPU: per-CPU clock skew, or it was not traced): their wakeup latency is not counted"
        ));
    }
    let silent = cpu_seen.iter().filter(|s| !**s).count();
    if silent > 0 {
        let top = events.iter().max_by_key(|e| e.cpu).map(|e| (e.cpu, e.line)).unwrap_or((0, 0));
        let from = if header_cpus == ncpu {
            format!("the header's cpus={header_cpus}")
        } else {
            format!("CPU {} on line {}", top.0, top.1)
        };
        m.notices.push(format!(
            "{silent} of the {ncpu} CPUs (counted from {from}) logged no event: idle all along, or not traced"
        ));
    }
    for tk in &m.tasks {
        for r in &tk.runs {
            m.busy[r.cpu as usize] += r.end - r.start;
        }
    }
}

fn close_run(m: &mut Model, live: &mut [Live], k: usize, cpu: u32, start: Ns, end: Ns, how: RunEnd) {
    let tk = &mut m.tasks[k];
    tk.runtime += end - start;
    tk.runs.push(Run { cpu, start, end, how });
    live[k].last_cpu = Some(cpu);
}

/// Nearest-rank percentile of sorted values.
pub fn percentile(sorted: &[Ns], pct: u64) -> Ns {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (pct as usize * sorted.len()).div_ceil(100).max(1);
    sorted[rank.min(sorted.len()) - 1]
}

/// One task's row of `trace stats`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TaskStat {
    pub pid: u32,
    pub comm: String,
    pub runtime_s: f64,
    pub wait_s: f64,
    pub sleep_s: f64,
    pub wakeups: u64,
    pub migrations: u64,
    pub wakeup_p50_us: f64,
    pub wakeup_p99_us: f64,
    pub wakeup_max_us: f64,
    /// Exact on-CPU nanoseconds (the same as `runtime_s`).
    pub runtime_ns: u64,
    /// Times a `sched_switch` put it on a CPU (`perf sched latency`'s "Switches"; the
    /// engine's `switches_in`).
    #[serde(default)]
    pub switches_in: u64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CpuStat {
    pub cpu: u32,
    pub busy_s: f64,
    pub idle_s: f64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    pub start_s: f64,
    pub duration_s: f64,
    pub events: u64,
    pub skipped: BTreeMap<String, u64>,
    pub bad_lines: u64,
    pub notices: Vec<String>,
    pub tasks: Vec<TaskStat>,
    pub cpus: Vec<CpuStat>,
    /// Wakeup latency over every wakeup of every task (percentiles do not add up per task).
    #[serde(default)]
    pub all_wakeups: Latency,
}

/// Wakeup latency percentiles of a set of wakeups, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Latency {
    pub wakeups: u64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
}

impl Latency {
    fn of(mut lat: Vec<Ns>) -> Latency {
        lat.sort_unstable();
        Latency {
            wakeups: lat.len() as u64,
            p50_us: percentile(&lat, 50) as f64 / 1e3,
            p99_us: percentile(&lat, 99) as f64 / 1e3,
            max_us: lat.last().copied().unwrap_or(0) as f64 / 1e3,
        }
    }
}

fn secs(ns: Ns) -> f64 {
    ns as f64 / 1e9
}

impl Model {
    pub fn duration(&self) -> Ns {
        self.end - self.start
    }

    pub fn task_stat(&self, i: usize) -> TaskStat {
        let t = &self.tasks[i];
        let lat = Latency::of(t.latencies.clone());
        TaskStat {
            pid: t.pid,
            comm: t.comm.clone(),
            runtime_s: secs(t.runtime),
            wait_s: secs(t.wait),
            sleep_s: secs(t.sleep),
            wakeups: t.wakeups,
            migrations: t.migrations,
            wakeup_p50_us: lat.p50_us,
            wakeup_p99_us: lat.p99_us,
            wakeup_max_us: lat.max_us,
            runtime_ns: t.runtime,
            switches_in: t.switches_in,
        }
    }

    pub fn stats(&self) -> Stats {
        let d = self.duration();
        Stats {
            start_s: secs(self.start),
            duration_s: secs(d),
            events: self.events,
            skipped: self.skipped.clone(),
            bad_lines: self.bad_lines,
            notices: self.notices.clone(),
            tasks: (0..self.tasks.len()).map(|i| self.task_stat(i)).collect(),
            cpus: self
                .busy
                .iter()
                .enumerate()
                .map(|(c, &b)| CpuStat { cpu: c as u32, busy_s: secs(b), idle_s: secs(d.saturating_sub(b)) })
                .collect(),
            all_wakeups: Latency::of(self.tasks.iter().flat_map(|t| t.latencies.iter().copied()).collect()),
        }
    }
}
