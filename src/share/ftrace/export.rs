//! A simulated run's `Trace` as `trace-cmd report` text (`sched_switch`, `sched_waking`,
//! `sched_wakeup`, `sched_migrate_task`, `cpu_idle`), and a recorded `Model` as a `Trace`.
//!
//! Export: one `sched_switch` per context switch the run counted (`Trace::switches`, made
//! where `Metrics::context_switches` is counted: `__schedule`'s `trace_sched_switch`), so
//! the file and the metrics count the same switches, on-CPU times and wakeup latencies.
//! Overhead spans after a switch are the next task's on-CPU time, as ftrace sees them.
//! Wakeups are written on the waker's CPU with the task current there (or `<idle>-0`), as
//! `trace_sched_waking` / `trace_sched_wakeup` fire in `try_to_wake_up`
//! (kernel/sched/core.c); the engine makes one only for a task that is asleep
//! (`ttwu_state_match`). The run's start and end are marked with `print:
//! tracing_mark_write:` lines (what `echo ... > trace_marker` records), so a reader's trace
//! spans exactly the run: a task still running at the end is on the CPU until then.
//! Timestamps carry nanoseconds (as `trace-cmd report -t` prints them); pids are
//! `1000 + task index` unless given; comm is cut to 15 bytes (TASK_COMM_LEN).
//!
//! `prev_state` is written as the config's era prints it (include/trace/events/sched.h):
//! `R+` for a task preempted in the kernel (`__schedule(preempt=true)`, whose
//! `__trace_sched_switch_state` sets TASK_STATE_MAX, later TASK_REPORT_MAX) from 3.2 on,
//! `R` before (no `+` in the TP_printk) and for a task preempted on its way back to user
//! space (`schedule()`, preempt false). Simplified: the engine does not model the
//! preemption model (CONFIG_PREEMPT); a preemption during a system-call burst is taken as
//! a kernel preemption. `Dialect::raw` writes `trace-cmd report -R`'s form: every field
//! as `name=value` in the format's order, `prev_state` as its number (S 1; X 32 before
//! 4.14, 16 from 4.14's TASK_REPORT indices; the preempt bit 1024 = TASK_STATE_MAX in
//! 3.x, 256 = TASK_REPORT_MAX from 4.14), no `==>`.

use std::fmt::Write;

use super::model::Model;
use crate::engine::kernel::Kernel;
use crate::engine::order;
use crate::engine::time::Ns;
use crate::engine::trace::{Instant, InstantKind, PrevState, Span, SpanKind, Switch, TaskInfo, Trace};

const IDLE_EXIT: u64 = 4294967295;

fn comm_of(name: &str) -> String {
    let mut s: String = name.chars().map(|c| if c == '=' || c.is_control() { '_' } else { c }).collect();
    while s.len() > 15 {
        s.pop();
    }
    s
}

fn ts(t: Ns) -> String {
    format!("{}.{:09}", t / 1_000_000_000, t % 1_000_000_000)
}

/// The pid the export gives task `i`.
pub fn default_pid(i: usize) -> u32 {
    1000 + i as u32
}

/// How a replayed task's first wakeup and last switch-out are written, so the export shows
/// its birth and death as its recording did (`replay::lives`) and both sides of a diff are
/// counted alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Life {
    /// Its first wakeup is its fork: written as `sched_wakeup_new`.
    pub new: bool,
    /// Its first wakeup only holds its start back to where the recording first saw it
    /// switch in (no wakeup there): not written.
    pub hidden: bool,
    /// It exited in the recording: its last switch-out says `prev_state=X`.
    pub exits: bool,
    /// It was asleep when the recording began: first seen at its wakeup.
    pub asleep: bool,
}

impl Life {
    /// Whether the recording shows the task from a wakeup (its fork, a wakeup from a sleep
    /// begun before the trace, or a first switch-in held back by one): what the replay does
    /// before it (a first step that waits for that moment) is not written.
    fn starts_at_wakeup(self) -> bool {
        self.new || self.hidden || self.asleep
    }
}

/// Which text the export writes: the era whose `sched_switch` format it follows, and the
/// human-readable (`trace-cmd report`) or raw (`trace-cmd report -R`) form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    pub kernel: Kernel,
    pub raw: bool,
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect { kernel: Kernel::V612, raw: false }
    }
}

impl Dialect {
    /// Whether the era's TP_printk adds `+` for a preempted task (from 3.2: LTTng's mirror
    /// of include/trace/events/sched.h switches format at KERNEL_VERSION(3,2,0)).
    pub fn preempt_plus(self) -> bool {
        !matches!(self.kernel, Kernel::Sd2621 | Kernel::V2623 | Kernel::SchedDevel2007 | Kernel::V2624)
    }

    /// 4.14's TASK_REPORT indices (`task_state_index`), else the 3.x task state bits.
    fn report_indices(self) -> bool {
        !matches!(self.kernel, Kernel::Sd2621 | Kernel::V2623 | Kernel::SchedDevel2007 | Kernel::V2624 | Kernel::V311)
    }

    /// `prev_state` as this dialect writes it.
    pub fn prev_state(self, st: PrevState) -> String {
        let plus = self.preempt_plus();
        if self.raw {
            let n: u32 = match st {
                PrevState::Runnable => 0,
                PrevState::Preempted if !plus => 0,
                PrevState::Preempted if self.report_indices() => 256,
                PrevState::Preempted => 1024,
                PrevState::Sleeping => 1,
                PrevState::Dead if self.report_indices() => 16,
                PrevState::Dead => 32,
            };
            return n.to_string();
        }
        match st {
            PrevState::Preempted if plus => "R+",
            PrevState::Preempted | PrevState::Runnable => "R",
            PrevState::Sleeping => "S",
            PrevState::Dead => "X",
        }
        .to_string()
    }
}

/// `trace` as `trace-cmd report` text; `pids[i]` names task i (else `default_pid`).
pub fn to_text(trace: &Trace, pids: Option<&[u32]>) -> String {
    to_text_with(trace, pids, &[])
}

/// `to_text`, with task i's birth and death written as `lives[i]` says (default: a task
/// there from the start that sleeps when its work ends).
pub fn to_text_with(trace: &Trace, pids: Option<&[u32]>, lives: &[Life]) -> String {
    to_text_in(trace, pids, lives, Dialect::default())
}

/// The switches of a trace that has no switch records (`Trace::switches` empty: one read
/// from a Perfetto export, or from before they were recorded): one where a core's run or
/// idle spans change task, `S` if the task is woken before it runs again, else `R`. Zero
/// length runs and switches outside spans are not seen: a run's own trace has its records.
pub fn derived_switches(trace: &Trace) -> Vec<Switch> {
    let mut per_core: Vec<Vec<&Span>> = vec![Vec::new(); (trace.cores as usize).max(1)];
    for s in &trace.spans {
        if !matches!(s.kind, SpanKind::Overhead { .. }) && (s.core as usize) < per_core.len() {
            per_core[s.core as usize].push(s);
        }
    }
    let nt = trace.tasks.len();
    let mut runs: Vec<Vec<Ns>> = vec![Vec::new(); nt];
    let mut wakes: Vec<Vec<Ns>> = vec![Vec::new(); nt];
    for s in &trace.spans {
        if let SpanKind::Run { task, .. } = s.kind {
            if let Some(v) = runs.get_mut(task as usize) {
                v.push(s.start);
            }
        }
    }
    for i in &trace.instants {
        if let InstantKind::Wakeup { task, .. } = i.kind {
            if let Some(v) = wakes.get_mut(task as usize) {
                v.push(i.time);
            }
        }
    }
    for v in runs.iter_mut().chain(wakes.iter_mut()) {
        order::sort(v);
    }
    let state_after = |k: usize, t: Ns| {
        let next_run = runs[k].get(runs[k].partition_point(|&s| s < t)).copied();
        let next_wake = wakes[k].get(wakes[k].partition_point(|&w| w < t)).copied();
        match (next_run, next_wake) {
            (None, _) => PrevState::Sleeping,
            (Some(r), Some(w)) if w <= r => PrevState::Sleeping,
            _ => PrevState::Runnable,
        }
    };
    let mut out = Vec::new();
    for (core, spans) in per_core.iter_mut().enumerate() {
        order::sort_by_key(spans, |s| (s.start, s.end));
        let mut cur: Option<u32> = None;
        for s in spans.iter() {
            let next = match s.kind {
                SpanKind::Run { task, .. } if (task as usize) < nt => Some(task),
                _ => None,
            };
            if next != cur {
                let prev_state = cur.map_or(PrevState::Runnable, |k| state_after(k as usize, s.start));
                out.push(Switch { core: core as u16, time: s.start, prev: cur, prev_state, next });
                cur = next;
            }
        }
    }
    order::sort_by_key(&mut out, |x| (x.time, x.core));
    out
}

/// `trace` as `trace-cmd report` text in the dialect of `config`'s kernel (what `run
/// --trace-text` writes and the page's "trace-cmd text" export downloads).
pub fn to_text_for(trace: &Trace, config: &crate::engine::Config) -> String {
    to_text_in(trace, None, &[], Dialect { kernel: config.kernel, raw: false })
}

/// `to_text_with` in `dialect`.
pub fn to_text_in(trace: &Trace, pids: Option<&[u32]>, lives: &[Life], dialect: Dialect) -> String {
    let derived;
    let switches: &[Switch] = if trace.switches.is_empty() {
        derived = derived_switches(trace);
        &derived
    } else {
        &trace.switches
    };
    let life = |i: u32| lives.get(i as usize).copied().unwrap_or_default();
    let ncores = (trace.cores as usize).max(1);
    let pid = |i: u32| pids.and_then(|p| p.get(i as usize).copied()).unwrap_or(default_pid(i as usize));
    let name = |i: u32| comm_of(trace.tasks.get(i as usize).map(|t| t.name.as_str()).unwrap_or("task"));
    let nt = trace.tasks.len();
    // Per core: the switches in time order (the task current after each).
    let mut per_core: Vec<Vec<(Ns, Option<u32>)>> = vec![Vec::new(); ncores];
    let mut last_out: Vec<Option<usize>> = vec![None; nt];
    for (k, sw) in switches.iter().enumerate() {
        if let Some(v) = per_core.get_mut(sw.core as usize) {
            v.push((sw.time, sw.next));
        }
        if let Some(p) = sw.prev.filter(|&p| (p as usize) < nt) {
            last_out[p as usize] = Some(k);
        }
    }
    // The task current on `core` at `t`, before the switches made at `t` (None: idle).
    let current = |core: usize, t: Ns| -> Option<u32> {
        let v = per_core.get(core)?;
        let k = v.partition_point(|s| s.0 < t);
        v.get(k.checked_sub(1)?)?.1
    };
    let who = |cur: Option<u32>| match cur {
        Some(k) => (name(k), pid(k)),
        None => ("<idle>".to_string(), 0),
    };
    // At one instant, lines go in the order the kernel makes them: the start mark, idle
    // exits, wakeups (before the switch that runs the woken task, on the waker's CPU before
    // it switches away), switches, idle entries, the end mark; then in the order made.
    // A wakeup of a task that switched out at that very instant comes after that switch.
    const START: u8 = 0;
    const IDLE_EXIT_RANK: u8 = 1;
    const WAKE: u8 = 2;
    const SWITCH: u8 = 3;
    const WAKE_AFTER_OUT: u8 = 4;
    const IDLE_ENTER: u8 = 5;
    const END: u8 = 6;
    let outs: std::collections::HashSet<(u32, Ns)> =
        switches.iter().filter_map(|sw| sw.prev.map(|p| (p, sw.time))).collect();
    let mut lines: Vec<(Ns, u8, usize, String)> = Vec::new();
    let mut push = |t: Ns, rank: u8, core: usize, cur: Option<u32>, body: String| {
        let (c, p) = who(cur);
        let n = lines.len();
        lines.push((t, rank, n, format!("{:>16}-{:<7} [{:03}] {}: {}", c, p, core, ts(t), body)));
    };
    push(trace.start, START, 0, current(0, trace.start), "print: tracing_mark_write: schedscope: start of run".into());
    let task_of = |t: Option<u32>, core: usize| match t {
        Some(k) => (name(k), pid(k)),
        None => (format!("swapper/{core}"), 0),
    };
    let mut first_wake: Vec<Option<Ns>> = vec![None; nt];
    for i in &trace.instants {
        if let InstantKind::Wakeup { task, .. } = i.kind {
            if let Some(f) = first_wake.get_mut(task as usize) {
                *f = Some(f.map_or(i.time, |x: Ns| x.min(i.time)));
            }
        }
    }
    // A replayed task the recording shows from a wakeup (`Life::starts_at_wakeup`) runs a
    // "wait until then" step before it: not in the recording, so those switches show the
    // idle task.
    let unborn = |k: Option<u32>, t: Ns| {
        k.filter(|&k| {
            !(life(k).starts_at_wakeup() && first_wake.get(k as usize).copied().flatten().is_some_and(|w| t < w))
        })
    };
    for (k, sw) in switches.iter().enumerate() {
        let core = sw.core as usize;
        let (prev, next) = (unborn(sw.prev, sw.time), unborn(sw.next, sw.time));
        if prev.is_none() && next.is_none() {
            continue;
        }
        let (pc, pp) = task_of(prev, core);
        let (nc, np) = task_of(next, core);
        // A replay's program ends each task; only those the recording saw exit say X.
        let state = match prev {
            Some(p) if last_out.get(p as usize) == Some(&Some(k)) && life(p).exits => PrevState::Dead,
            Some(p) if sw.prev_state == PrevState::Dead && (p as usize) < lives.len() => PrevState::Sleeping,
            Some(_) => sw.prev_state,
            None => PrevState::Runnable,
        };
        let st = dialect.prev_state(state);
        let body = if dialect.raw {
            format!(
                "sched_switch: prev_comm={pc} prev_pid={pp} prev_prio=120 prev_state={st} next_comm={nc} next_pid={np} next_prio=120"
            )
        } else {
            format!(
                "sched_switch: prev_comm={pc} prev_pid={pp} prev_prio=120 prev_state={st} ==> next_comm={nc} next_pid={np} next_prio=120"
            )
        };
        push(sw.time, SWITCH, core, prev, body);
    }
    for s in &trace.spans {
        if let SpanKind::Idle { state } = s.kind {
            let core = s.core as usize;
            push(s.start, IDLE_ENTER, core, None, format!("cpu_idle: state={state} cpu_id={core}"));
            push(s.end, IDLE_EXIT_RANK, core, None, format!("cpu_idle: state={IDLE_EXIT} cpu_id={core}"));
        }
    }
    let cpu_field = |c: u16| if dialect.raw { c.to_string() } else { format!("{c:03}") };
    for i in &trace.instants {
        match i.kind {
            InstantKind::Wakeup { from, task } if (task as usize) < nt => {
                let cur = current(from as usize, i.time);
                let (c, p) = (name(task), pid(task));
                let body = format!("comm={c} pid={p} prio=120 target_cpu={}", cpu_field(i.core));
                let l = life(task);
                let first = first_wake[task as usize] == Some(i.time);
                if first && l.hidden {
                    continue;
                }
                let rank = if outs.contains(&(task, i.time)) { WAKE_AFTER_OUT } else { WAKE };
                push(i.time, rank, from as usize, cur, format!("sched_waking: {body}"));
                let event = if first && l.new { "sched_wakeup_new" } else { "sched_wakeup" };
                push(i.time, rank, from as usize, cur, format!("{event}: {body}"));
            }
            InstantKind::Migrate { from, task } if (task as usize) < nt => {
                let cur = current(i.core as usize, i.time);
                let (c, p) = (name(task), pid(task));
                push(
                    i.time,
                    WAKE,
                    i.core as usize,
                    cur,
                    format!("sched_migrate_task: comm={c} pid={p} prio=120 orig_cpu={from} dest_cpu={}", i.core),
                );
            }
            _ => {}
        }
    }
    // A trace cut at its item limit ends where recording stopped, not where the run did.
    let (end, mark) = if trace.truncated {
        let last = trace
            .spans
            .iter()
            .map(|s| s.end)
            .chain(trace.instants.iter().map(|i| i.time))
            .chain(switches.iter().map(|s| s.time))
            .max()
            .unwrap_or(trace.start);
        (last.min(trace.end), "end of recording (the trace's item limit)")
    } else {
        (trace.end, "end of run")
    };
    let end = end.max(trace.start);
    push(end, END, 0, current(0, end), format!("print: tracing_mark_write: schedscope: {mark}"));
    order::sort_by_key(&mut lines, |(t, rank, n, _)| (*t, *rank, *n));
    let mut out = String::with_capacity(lines.len() * 120 + 32);
    let _ = writeln!(out, "cpus={}", trace.cores);
    for (_, _, _, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// A recorded trace as the engine's `Trace`, so the timeline draws it as it draws a run:
/// times from the trace's start, one lane per CPU, idle gaps as idle spans (in the C-state
/// `cpu_idle` names, else one "idle" state), wakeups and migrations as instants.
pub fn to_trace(m: &Model) -> Trace {
    let t0 = m.start;
    let has_cstates = !m.cstates.is_empty();
    let max_state = m.cstates.iter().map(|c| c.3).max().unwrap_or(0).min(15);
    let idle_states: Vec<String> = if has_cstates {
        (0..=max_state).map(|s| if s == 0 { "POLL".to_string() } else { format!("C{s}") }).collect()
    } else {
        vec!["idle".to_string()]
    };
    let tasks =
        m.tasks.iter().map(|t| TaskInfo { name: format!("{}-{}", t.comm, t.pid), group: t.comm.clone() }).collect();
    let mut spans = Vec::new();
    let mut per_cpu: Vec<Vec<(Ns, Ns)>> = vec![Vec::new(); m.cpus as usize];
    for (k, t) in m.tasks.iter().enumerate() {
        for r in &t.runs {
            if r.end > r.start {
                spans.push(Span {
                    core: r.cpu as u16,
                    start: r.start - t0,
                    end: r.end - t0,
                    kind: SpanKind::Run { task: k as u32, sys: false },
                });
                per_cpu[r.cpu as usize].push((r.start, r.end));
            }
        }
    }
    for (c, v) in per_cpu.iter_mut().enumerate() {
        v.sort_unstable();
        let mut at = t0;
        let gaps: Vec<(Ns, Ns)> = v
            .iter()
            .chain(std::iter::once(&(m.end, m.end)))
            .filter_map(|&(s, e)| {
                let g = (at < s).then_some((at, s));
                at = at.max(e);
                g
            })
            .collect();
        for (s, e) in gaps {
            if !has_cstates {
                spans.push(Span { core: c as u16, start: s - t0, end: e - t0, kind: SpanKind::Idle { state: 0 } });
                continue;
            }
            // The gap in the C-states cpu_idle recorded, the rest as POLL.
            let mut at = s;
            for &(_, cs, ce, st) in m.cstates.iter().filter(|x| x.0 == c as u32 && x.2 > s && x.1 < e) {
                let (cs, ce) = (cs.max(s), ce.min(e));
                if cs > at {
                    spans.push(Span {
                        core: c as u16,
                        start: at - t0,
                        end: cs - t0,
                        kind: SpanKind::Idle { state: 0 },
                    });
                }
                if ce > cs {
                    let state = st.min(max_state) as u8;
                    spans.push(Span { core: c as u16, start: cs - t0, end: ce - t0, kind: SpanKind::Idle { state } });
                }
                at = at.max(ce);
            }
            if e > at {
                spans.push(Span { core: c as u16, start: at - t0, end: e - t0, kind: SpanKind::Idle { state: 0 } });
            }
        }
    }
    spans.sort_by_key(|s| (s.start, s.core));
    let mut instants: Vec<Instant> = m
        .wakes
        .iter()
        .map(|w| Instant {
            core: w.target.min(m.cpus.saturating_sub(1)) as u16,
            time: w.t - t0,
            kind: InstantKind::Wakeup { from: w.cpu as u16, task: w.task as u32 },
        })
        .collect();
    instants.extend(m.migrations.iter().filter(|x| x.3 < m.cpus && x.2 < m.cpus).map(|&(t, k, from, to)| Instant {
        core: to as u16,
        time: t - t0,
        kind: InstantKind::Migrate { from: from as u16, task: k as u32 },
    }));
    instants.extend(m.ipis.iter().filter(|x| x.2 < m.cpus).map(|&(t, from, to)| Instant {
        core: to as u16,
        time: t - t0,
        kind: InstantKind::Ipi { from: from as u16 },
    }));
    instants.sort_by_key(|i| (i.time, i.core));
    Trace {
        cores: m.cpus as u16,
        idle_states,
        tasks,
        spans,
        instants,
        truncated: false,
        end: m.end - t0,
        ..Trace::default()
    }
}
