//! A simulated run's `Trace` as `trace-cmd report` text (`sched_switch`, `sched_waking`,
//! `sched_wakeup`, `sched_migrate_task`, `cpu_idle`), and a recorded `Model` as a `Trace`.
//!
//! Export: a `sched_switch` is written where a core's current task changes (a run span of
//! another task, or an idle span); overhead spans (switch, tick, IPI, C-state exit) stay
//! with the task current before them, as ftrace would charge them. `prev_state` is `S`
//! when the task is woken before it runs again (or never runs again), else `R`. Wakeups
//! are written on the waker's CPU with the task current there (or `<idle>-0`), as
//! `trace_sched_waking` / `trace_sched_wakeup` fire in `try_to_wake_up` (kernel/sched/core.c).
//! Timestamps carry nanoseconds (as `trace-cmd report -t` prints them); pids are
//! `1000 + task index` unless given; comm is cut to 15 bytes (TASK_COMM_LEN).

use std::fmt::Write;

use super::model::Model;
use crate::engine::time::Ns;
use crate::engine::trace::{Instant, InstantKind, Span, SpanKind, TaskInfo, Trace};

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
}

/// `trace` as `trace-cmd report` text; `pids[i]` names task i (else `default_pid`).
pub fn to_text(trace: &Trace, pids: Option<&[u32]>) -> String {
    to_text_with(trace, pids, &[])
}

/// `to_text`, with task i's birth and death written as `lives[i]` says (default: a task
/// there from the start that sleeps when its work ends).
pub fn to_text_with(trace: &Trace, pids: Option<&[u32]>, lives: &[Life]) -> String {
    let life = |i: u32| lives.get(i as usize).copied().unwrap_or_default();
    let ncores = trace.cores as usize;
    let pid = |i: u32| pids.and_then(|p| p.get(i as usize).copied()).unwrap_or(default_pid(i as usize));
    let name = |i: u32| comm_of(trace.tasks.get(i as usize).map(|t| t.name.as_str()).unwrap_or("task"));
    // Per core: run and idle spans in time order.
    let mut per_core: Vec<Vec<&Span>> = vec![Vec::new(); ncores.max(1)];
    for s in &trace.spans {
        if !matches!(s.kind, SpanKind::Overhead { .. }) && (s.core as usize) < per_core.len() {
            per_core[s.core as usize].push(s);
        }
    }
    for v in &mut per_core {
        v.sort_by_key(|s| (s.start, s.end));
    }
    // Per task: run starts and wakeup times, to tell how a switch-out left.
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
        v.sort_unstable();
    }
    let state_after = |task: u32, t: Ns| -> char {
        let k = task as usize;
        let next_run = runs[k].get(runs[k].partition_point(|&s| s < t)).copied();
        let next_wake = wakes[k].get(wakes[k].partition_point(|&w| w < t)).copied();
        match (next_run, next_wake) {
            (None, _) if life(task).exits => 'X',
            (None, _) => 'S',
            (Some(r), Some(w)) if w <= r => 'S',
            _ => 'R',
        }
    };
    // The task current on `core` just before `t` (None: idle).
    let current = |core: usize, t: Ns| -> Option<u32> {
        let v = per_core.get(core)?;
        let k = v.partition_point(|s| s.start < t);
        match v.get(k.checked_sub(1)?)?.kind {
            SpanKind::Run { task, .. } => Some(task),
            _ => None,
        }
    };
    let who = |cur: Option<u32>| match cur {
        Some(k) => (name(k), pid(k)),
        None => ("<idle>".to_string(), 0),
    };
    let mut lines: Vec<(Ns, usize, String)> = Vec::new();
    let mut push = |t: Ns, core: usize, cur: Option<u32>, body: String| {
        let (c, p) = who(cur);
        let n = lines.len();
        lines.push((t, n, format!("{:>16}-{:<7} [{:03}] {}: {}", c, p, core, ts(t), body)));
    };
    for (core, spans) in per_core.iter().enumerate() {
        let mut cur: Option<u32> = None;
        for s in spans {
            let next = match s.kind {
                SpanKind::Run { task, .. } => Some(task),
                _ => None,
            };
            if next != cur {
                let (pc, pp) = match cur {
                    Some(k) => (name(k), pid(k)),
                    None => (format!("swapper/{core}"), 0),
                };
                let st = cur.map(|k| state_after(k, s.start)).unwrap_or('R');
                let (nc, np) = match next {
                    Some(k) => (name(k), pid(k)),
                    None => (format!("swapper/{core}"), 0),
                };
                push(
                    s.start,
                    core,
                    cur,
                    format!(
                        "sched_switch: prev_comm={pc} prev_pid={pp} prev_prio=120 prev_state={st} ==> next_comm={nc} next_pid={np} next_prio=120"
                    ),
                );
                cur = next;
            }
            if let SpanKind::Idle { state } = s.kind {
                push(s.start, core, None, format!("cpu_idle: state={state} cpu_id={core}"));
                push(s.end, core, None, format!("cpu_idle: state={IDLE_EXIT} cpu_id={core}"));
            }
        }
    }
    for i in &trace.instants {
        match i.kind {
            InstantKind::Wakeup { from, task } if (task as usize) < nt => {
                let cur = current(from as usize, i.time);
                let (c, p) = (name(task), pid(task));
                let body = format!("comm={c} pid={p} prio=120 target_cpu={:03}", i.core);
                let l = life(task);
                let first = wakes[task as usize].first() == Some(&i.time);
                if first && l.hidden {
                    continue;
                }
                push(i.time, from as usize, cur, format!("sched_waking: {body}"));
                let event = if first && l.new { "sched_wakeup_new" } else { "sched_wakeup" };
                push(i.time, from as usize, cur, format!("{event}: {body}"));
            }
            InstantKind::Migrate { from, task } if (task as usize) < nt => {
                let cur = current(i.core as usize, i.time);
                let (c, p) = (name(task), pid(task));
                push(
                    i.time,
                    i.core as usize,
                    cur,
                    format!("sched_migrate_task: comm={c} pid={p} prio=120 orig_cpu={from} dest_cpu={}", i.core),
                );
            }
            _ => {}
        }
    }
    // Stable: events at one time keep the order they were made in (switches per core first).
    lines.sort_by_key(|(t, n, _)| (*t, *n));
    let mut out = String::with_capacity(lines.len() * 120 + 32);
    let _ = writeln!(out, "cpus={}", trace.cores);
    for (_, _, l) in lines {
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
