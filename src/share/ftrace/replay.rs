//! A recorded `Model` as a replay `Program` (see `engine::workload::replay` for what a
//! trace cannot tell), and the recorded-vs-simulated comparison (`trace diff`).
//!
//! A wakeup is a dependency only when its waker was running at that moment in the trace
//! (the wakeup falls inside one of the waker's runs, so its position in the waker's work is
//! known); otherwise (idle, interrupt, a task not seen running) it is a timed sleep of the
//! recorded length. Each dependency wakeup appears twice: as `Wake` in the waker's program
//! at that point of its work, and as `Block` in the wakee's.
//!
//! Path costs (`PathCosts`, from the replay config's machine profile, `engine::profile`):
//! a run's recorded on-CPU time includes kernel paths the engine charges again when it
//! replays the run, so they are taken out of the work: one `ctx_switch` for a run that
//! ended in a `sched_switch` (the engine charges `__schedule`/`switch_to` on the outgoing
//! task's account, as the export shows; in a real trace the switch path is on-CPU time
//! of one of the two tasks too), and one `ttwu` for each wakeup the task issued during the
//! run (`try_to_wake_up` runs in the waker's context: `sched_waking` fires there), with the
//! cache lines that wakeup pulls from the wakee's previous CPU and the target's
//! (`engine::sim::wakeup_transfer`, by the recorded CPUs).
//! Clamped at zero. Not taken out (simplified): ticks, IPIs and cache refills that landed
//! in a run (the replay charges its own; they depend on the schedule, not the program),
//! and a wakeup the era queues to the target (TTWU_QUEUE) is still counted as the waker's.
//!
//! Lives: a task first seen switching in (`Birth::SwitchIn`: forked while
//! `sched_wakeup_new` was not traced, or runnable since the start) starts with a timed
//! sleep to that moment instead of at the trace's start; a task that exited ends there.
//! The replay's export then writes each task's birth and death as its recording showed
//! them (`lives`: that first timed wakeup is left out, a traced fork is written as
//! `sched_wakeup_new`, an exit as `prev_state=X`), so both sides count sleep and wakeups
//! over the same life. Without it, a short-lived task of a long trace slept for the whole
//! trace on the simulated side (LISA's Juno trace: 6.5 s against 4 ms).
//!
//! The replay keeps the program, not the schedule, so counts can differ for a reason the
//! diff should show rather than hide. In `trace_cmd_basic.txt`, ping wakes pong and sleeps
//! 8 us later; in the simulation pong, asleep since the start, wakes far enough behind
//! ping in vruntime (`place_entity`) that `check_preempt_wakeup` preempts ping at once, so
//! ping is still runnable when pong wakes it and that `try_to_wake_up` finds it
//! `TASK_RUNNING` and returns without a `sched_wakeup`, as the kernel's does; ping's `Block` then takes the wake it already had. Ping's wakeups read 2
//! recorded, 1 simulated.

use std::sync::Arc;

use super::export::Life;
use super::model::{Birth, Model, RunEnd, Stats, TaskStat};
use crate::engine::config::Config;
use crate::engine::profile::Profile;
use crate::engine::time::Ns;
use crate::engine::workload::replay::{Op, Program, ReplayTask};

/// The kernel path costs the engine charges per switch and per wakeup (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathCosts {
    /// `Profile::ctx_switch`.
    pub switch: Ns,
    /// `Profile::ttwu`.
    pub ttwu: Ns,
    /// The profile, for a wakeup's cache-line transfers (`engine::sim::wakeup_transfer`).
    pub profile: Option<&'static Profile>,
}

impl PathCosts {
    pub fn of(config: &Config) -> Self {
        let p = config.profile();
        PathCosts { switch: p.ctx_switch, ttwu: p.ttwu, profile: Some(p) }
    }
}

/// Per wakeup in `m.wakes`: the waker task and the index of its run the wakeup falls in
/// (None: no waker, the task woke itself, or the waker was not running then).
fn waker_runs(m: &Model) -> Vec<Option<(usize, usize)>> {
    m.wakes
        .iter()
        .map(|w| {
            let k = w.waker.filter(|&k| k != w.task)?;
            let ri = m.tasks[k].runs.iter().position(|r| r.start <= w.t && w.t <= r.end)?;
            Some((k, ri))
        })
        .collect()
}

/// Each run's work: its length less the path costs the replay will charge again.
fn work_lens(m: &Model, costs: PathCosts, runs: &[Option<(usize, usize)>]) -> Vec<Vec<Ns>> {
    let mut lens: Vec<Vec<Ns>> = m.tasks.iter().map(|t| t.runs.iter().map(|r| r.end - r.start).collect()).collect();
    if costs == PathCosts::default() {
        return lens;
    }
    for (k, t) in m.tasks.iter().enumerate() {
        for (ri, r) in t.runs.iter().enumerate() {
            if r.how != RunEnd::TraceEnd {
                lens[k][ri] = lens[k][ri].saturating_sub(costs.switch);
            }
        }
    }
    for (w, &(k, ri)) in m.wakes.iter().zip(runs).filter_map(|(w, r)| Some((w, r.as_ref()?))) {
        // The wakee's CPU before this wakeup: its last run that began before it.
        let runs_of = &m.tasks[w.task].runs;
        let prev = runs_of[..runs_of.partition_point(|r| r.start < w.t)].last().map_or(w.target, |r| r.cpu);
        let xfer = costs
            .profile
            .map_or(0, |p| crate::engine::sim::wakeup_transfer(p, prev as usize, w.cpu as usize, w.target as usize));
        lens[k][ri] = lens[k][ri].saturating_sub(costs.ttwu + xfer);
    }
    lens
}

/// How each wakeup in `m.wakes` is replayed: the waker task and its work offset, or None (timed).
fn edges(m: &Model, lens: &[Vec<Ns>], runs: &[Option<(usize, usize)>]) -> Vec<Option<(usize, Ns)>> {
    m.wakes
        .iter()
        .zip(runs)
        .map(|(w, &at)| {
            let (k, ri) = at?;
            let before: Ns = lens[k][..ri].iter().sum();
            Some((k, before + (w.t - m.tasks[k].runs[ri].start).min(lens[k][ri])))
        })
        .collect()
}

/// The program the trace shows, one replay task per recorded task (same order), with the
/// recorded on-CPU time as work (no path costs taken out).
pub fn program(m: &Model) -> Program {
    program_with(m, PathCosts::default())
}

/// The program to replay under `config`: the work less its profile's path costs.
pub fn program_for(m: &Model, config: &Config) -> Program {
    program_with(m, PathCosts::of(config))
}

/// The program with `costs` taken out of each run (see the module doc).
pub fn program_with(m: &Model, costs: PathCosts) -> Program {
    let runs = waker_runs(m);
    let lens = work_lens(m, costs, &runs);
    let edges = edges(m, &lens, &runs);
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); m.tasks.len()];
    for (i, w) in m.wakes.iter().enumerate() {
        received[w.task].push(i);
    }
    // Pass 1: each task's waits (Block or Sleep), and which wakeups are consumed as Block.
    let mut consumed = vec![false; m.wakes.len()];
    let mut waits: Vec<Vec<(usize, Op)>> = vec![Vec::new(); m.tasks.len()]; // (after run index or usize::MAX for start, op)
    for (k, t) in m.tasks.iter().enumerate() {
        let rec = &received[k];
        let mut wi = 0;
        let wait_for = |wi: usize, since: Ns, consumed: &mut Vec<bool>| -> Op {
            let w = rec[wi];
            if edges[w].is_some() {
                consumed[w] = true;
                Op::Block
            } else {
                Op::Sleep(m.wakes[w].t.saturating_sub(since).max(1))
            }
        };
        let first = t.runs.first().map(|r| r.start).unwrap_or(Ns::MAX);
        if wi < rec.len() && m.wakes[rec[wi]].t <= first {
            waits[k].push((usize::MAX, wait_for(wi, m.start, &mut consumed)));
            wi += 1;
        } else if let Birth::SwitchIn(t1) = t.birth {
            // First seen switching in (always after the trace's start): the replay starts it then.
            waits[k].push((usize::MAX, Op::Sleep(t1 - m.start)));
        }
        for (ri, r) in t.runs.iter().enumerate() {
            // Wakeups before this run ends were consumed by earlier waits.
            if r.how == RunEnd::Slept {
                while wi < rec.len() && m.wakes[rec[wi]].t < r.end {
                    wi += 1;
                }
                if wi < rec.len() {
                    waits[k].push((ri, wait_for(wi, r.end, &mut consumed)));
                    wi += 1;
                } else {
                    waits[k].push((ri, Op::Exit));
                }
            }
        }
    }
    // Wakes each task issues: (work offset, wakee), in order.
    let mut issued: Vec<Vec<(Ns, usize)>> = vec![Vec::new(); m.tasks.len()];
    for (i, e) in edges.iter().enumerate() {
        if let (Some((k, at)), true) = (e, consumed[i]) {
            issued[*k].push((*at, m.wakes[i].task));
        }
    }
    for v in &mut issued {
        v.sort();
    }
    // Pass 2: the ops.
    let tasks = m
        .tasks
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let mut ops = Vec::new();
            let mut wait = waits[k].iter().peekable();
            if let Some((_, op)) = wait.next_if(|(ri, _)| *ri == usize::MAX) {
                ops.push(op.clone());
            }
            let mut done: Ns = 0; // work emitted so far
            let mut work: Ns = 0; // work recorded so far
            let mut iss = issued[k].iter().peekable();
            for (ri, _) in t.runs.iter().enumerate() {
                let end = work + lens[k][ri];
                while let Some(&&(at, w)) = iss.peek() {
                    if at > end {
                        break;
                    }
                    if at > done {
                        ops.push(Op::Run(at - done));
                        done = at;
                    }
                    ops.push(Op::Wake(w));
                    iss.next();
                }
                work = end;
                if let Some((_, op)) = wait.next_if(|(i, _)| *i == ri) {
                    if work > done {
                        ops.push(Op::Run(work - done));
                        done = work;
                    }
                    ops.push(op.clone());
                    if *op == Op::Exit {
                        break;
                    }
                }
            }
            if work > done {
                ops.push(Op::Run(work - done));
            }
            for &(_, w) in iss {
                ops.push(Op::Wake(w));
            }
            if ops.last() != Some(&Op::Exit) {
                ops.push(Op::Exit);
            }
            let cpu = t.runs.first().map(|r| r.cpu).unwrap_or(0) as usize;
            let nice = if (100..140).contains(&t.prio) { t.prio - 120 } else { 0 };
            ReplayTask { name: format!("{}-{}", t.comm, t.pid), pid: t.pid, nice, cpu, ops }
        })
        .collect();
    Program { tasks }
}

/// How the export of a replay writes each task's birth and death: as its recording showed
/// them (task i of the program is task i of `m`).
pub fn lives(m: &Model) -> Vec<Life> {
    m.tasks
        .iter()
        .map(|t| Life {
            new: t.birth == Birth::New,
            hidden: matches!(t.birth, Birth::SwitchIn(_)),
            exits: t.exited,
            asleep: t.sleeping_at_start,
        })
        .collect()
}

/// Shared, for replays under `config` (its profile's path costs taken out).
pub fn shared_program_for(m: &Model, config: &Config) -> Arc<Program> {
    Arc::new(program_for(m, config))
}

/// One metric of one task, recorded and simulated.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pair {
    pub recorded: f64,
    pub simulated: f64,
    pub diff: f64,
}

fn pair(r: f64, s: f64) -> Pair {
    Pair { recorded: r, simulated: s, diff: s - r }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DiffRow {
    pub pid: u32,
    pub comm: String,
    pub runtime_s: Pair,
    pub wait_s: Pair,
    pub sleep_s: Pair,
    pub wakeups: Pair,
    pub migrations: Pair,
    pub wakeup_p50_us: Pair,
    pub wakeup_p99_us: Pair,
    pub wakeup_max_us: Pair,
}

/// Per metric over all tasks: totals and the relative error (sum |diff| / sum recorded);
/// for the wakeup latency percentiles, the percentile over every wakeup of every task on
/// each side and |diff| / recorded (a sum of per-task percentiles means nothing).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    pub metric: String,
    pub recorded: f64,
    pub simulated: f64,
    pub diff: f64,
    pub abs_error_rel: f64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Diff {
    pub recorded_duration_s: f64,
    pub simulated_duration_s: f64,
    pub tasks: Vec<DiffRow>,
    pub summary: Vec<Summary>,
}

pub const METRICS: [&str; 8] =
    ["runtime_s", "wait_s", "sleep_s", "wakeups", "migrations", "wakeup_p50_us", "wakeup_p99_us", "wakeup_max_us"];

fn metric(s: &TaskStat, k: usize) -> f64 {
    match k {
        0 => s.runtime_s,
        1 => s.wait_s,
        2 => s.sleep_s,
        3 => s.wakeups as f64,
        4 => s.migrations as f64,
        5 => s.wakeup_p50_us,
        6 => s.wakeup_p99_us,
        _ => s.wakeup_max_us,
    }
}

/// Recorded stats against a replay's (task i of `sim` is the replay of task i of `rec`,
/// as `to_text` with `default_pid` numbers them).
pub fn diff(rec: &Stats, sim: &Stats) -> Diff {
    let zero = TaskStat {
        pid: 0,
        comm: String::new(),
        runtime_s: 0.0,
        wait_s: 0.0,
        sleep_s: 0.0,
        wakeups: 0,
        migrations: 0,
        wakeup_p50_us: 0.0,
        wakeup_p99_us: 0.0,
        wakeup_max_us: 0.0,
        runtime_ns: 0,
        switches_in: 0,
    };
    let mut rows = Vec::new();
    let mut sums = [[0.0f64; 3]; 8];
    for (i, r) in rec.tasks.iter().enumerate() {
        let pid = super::export::default_pid(i);
        let s = sim.tasks.iter().find(|s| s.pid == pid).unwrap_or(&zero);
        let p = |k: usize| {
            let (a, b) = (metric(r, k), metric(s, k));
            sums[k][0] += a;
            sums[k][1] += b;
            sums[k][2] += (b - a).abs();
            pair(a, b)
        };
        let mut p = p;
        rows.push(DiffRow {
            pid: r.pid,
            comm: r.comm.clone(),
            runtime_s: p(0),
            wait_s: p(1),
            sleep_s: p(2),
            wakeups: p(3),
            migrations: p(4),
            wakeup_p50_us: p(5),
            wakeup_p99_us: p(6),
            wakeup_max_us: p(7),
        });
    }
    let pooled = |l: &super::model::Latency, k: usize| match k {
        5 => l.p50_us,
        6 => l.p99_us,
        _ => l.max_us,
    };
    let summary = METRICS
        .iter()
        .enumerate()
        .map(|(k, &metric)| {
            let (r, s, abs) = if k >= 5 {
                let (r, s) = (pooled(&rec.all_wakeups, k), pooled(&sim.all_wakeups, k));
                (r, s, (s - r).abs())
            } else {
                (sums[k][0], sums[k][1], sums[k][2])
            };
            Summary {
                metric: metric.to_string(),
                recorded: r,
                simulated: s,
                diff: s - r,
                abs_error_rel: if r > 0.0 { abs / r } else { 0.0 },
            }
        })
        .collect();
    Diff { recorded_duration_s: rec.duration_s, simulated_duration_s: sim.duration_s, tasks: rows, summary }
}
