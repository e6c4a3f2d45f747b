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
//! - [`MigrateRecord`]: why a task moved, one per `Migrate` instant and keyed to it by
//!   (time, task, CPU): the path as the kernel names it (wakeup placement through
//!   `wake_affine` or `select_idle_sibling`; `rebalance_domains` at a named domain; newidle
//!   or nohz idle balance) and, for a balancer move, the figures `load_balance` compared
//!   (group load per CPU or `nr_running`, the imbalance) and what `task_hot` found. A record
//!   rather than a reason in the instant: instants are in every trace and on the page's
//!   wire as fixed-size records, and these are bounded with the other records.
//!
//! Simplified: the latency split is read from the target core's recorded spans, so a part
//! is named by the span kind the engine laid (a tick handler in the way is `tick`, time with
//! nothing recorded is `other`); the first `ipi_send + ipi_latency` ns during which the target
//! has not yet taken the IPI are the IPI's send and flight.
//!
//! Two layers: `records` (the record types and the open-record state `sim::why` writes,
//! below `trace`, which holds them) and this file, the readers of a recorded `Trace`
//! (`near`, `nearest`, `span_of`, `counters`, `render`), above it. Every record type is
//! re-exported here, so `explain::WakeRecord` is the name to use outside `trace`.

pub mod records;
pub use records::*;

use super::time::Ns;
use super::trace::{SpanKind, Trace};

/// Records at or near `t`, for `schedscope run --explain`: those within `window` ns.
pub fn near(d: &Decisions, t: Ns, window: Ns) -> Decisions {
    let close = |x: Ns| x.abs_diff(t) <= window;
    Decisions {
        wakeups: d.wakeups.iter().filter(|r| close(r.time) || r.ran_at.is_some_and(close)).cloned().collect(),
        picks: d.picks.iter().filter(|r| close(r.time)).cloned().collect(),
        idles: d.idles.iter().filter(|r| close(r.time)).cloned().collect(),
        wasted: d.wasted.iter().filter(|r| r.start <= t + window && r.end + window >= t).cloned().collect(),
        migrations: d.migrations.iter().filter(|r| close(r.time)).cloned().collect(),
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
    let m = pick1(d.migrations.iter().map(|r| r.time).collect());
    Decisions {
        wakeups: d.wakeups.iter().filter(|r| Some(r.time) == w).take(1).cloned().collect(),
        picks: d.picks.iter().filter(|r| Some(r.time) == p).take(1).cloned().collect(),
        idles: d.idles.iter().filter(|r| Some(r.time) == i).take(1).cloned().collect(),
        wasted: Vec::new(),
        migrations: d.migrations.iter().filter(|r| Some(r.time) == m).take(1).cloned().collect(),
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
    dist.extend(d.migrations.iter().map(|r| r.time.abs_diff(at)));
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
        migrations: d.migrations.iter().filter(|r| keep(r.time.abs_diff(at))).cloned().collect(),
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
        .chain(d.wasted.iter().flat_map(|r| [r.start, r.end]))
        .chain(d.migrations.iter().map(|r| r.time));
    times.fold(None, |acc, t| Some(acc.map_or((t, t), |(lo, hi): (Ns, Ns)| (lo.min(t), hi.max(t)))))
}

/// Counter tracks derived from a trace (PELT's `util_avg` from its samples), per CPU and per task: the one derivation the
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
    /// PELT: the `cfs_rq`'s `util_avg` (0..=1024), from the trace's samples (`Trace::util`).
    pub util_avg: Vec<(Ns, u16)>,
}

/// A task's place in its runqueue at each pick it was queued for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskCounters {
    /// (time, vruntime - V, EEVDF lag `V - v` or None for other classes), ns of virtual time;
    /// V is `avg_vruntime` (EEVDF) or the smallest vruntime queued (CFS, SD).
    pub samples: Vec<(Ns, i64, Option<i64>)>,
}

/// The counter tracks of `trace` (its spans for the C-state, its decisions for the rest).
pub fn counters(trace: &Trace) -> CounterTracks {
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
    let mut util: Vec<(u16, Ns, u16)> = trace.util.iter().map(|u| (u.core, u.time, u.util)).collect();
    crate::order::sort_by_key(&mut util, |&(c, t, _)| (c, t));
    for (c, t, v) in util {
        let k = core(&mut out, c);
        out.cores[k].util_avg.push((t, v));
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

/// A migration's first line: what moved where, and the path that moved it (the CLI's and
/// the inspector's heading, the Perfetto export's `reason`).
pub fn migrate_line(r: &MigrateRecord, task: &str) -> String {
    let dom = if r.domain.is_empty() { String::new() } else { format!(" at the {} domain", r.domain) };
    format!(
        "migration @ {} of {task}: CPU {} -> CPU {} ({}){dom}: {}",
        us(r.time),
        r.from,
        r.to,
        r.cause.name(),
        r.cause.text()
    )
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
    for r in &d.migrations {
        let _ = writeln!(out, "{}", migrate_line(r, &name(r.task)));
        for (k, v) in &r.figures {
            let _ = writeln!(out, "  {k} = {v}");
        }
        if !r.hot.is_empty() {
            let _ = writeln!(out, "  {}", r.hot);
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
    use crate::engine::idle::IdleState;
    use crate::engine::policy::SchedEntity;
    use crate::engine::trace::{Overhead, Span};

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
