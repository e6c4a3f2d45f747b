//! The per-task tables: a recording's (`trace stats`, as SchedViz shows it: on-CPU,
//! runnable-but-waiting and sleep time, wakeups, migrations, wakeup latency p50/p99/max) and
//! a replay's (recorded, simulated and the difference per cell, with the per-metric model
//! error of `trace diff`). Sorting is pure (`order`, `diff_order`) and tested natively; a
//! header click sorts, a second click on it reverses; a row click highlights the task on the
//! timeline (`on_pick`, the task's index in the recording).

use yew::prelude::*;

use crate::engine::order;
use crate::share::ftrace::replay::{Diff, DiffRow, Pair};
use crate::share::ftrace::TaskStat;
use crate::ui::common::format;

/// At most this many rows are drawn (a system-wide trace has thousands of tasks).
pub const MAX_ROWS: usize = 300;

/// A column of the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Col {
    Task,
    Runtime,
    Wait,
    Sleep,
    Wakeups,
    Migrations,
    P50,
    P99,
    Max,
}

pub const COLS: [Col; 9] =
    [Col::Task, Col::Runtime, Col::Wait, Col::Sleep, Col::Wakeups, Col::Migrations, Col::P50, Col::P99, Col::Max];

impl Col {
    pub fn label(self) -> &'static str {
        match self {
            Col::Task => "Task",
            Col::Runtime => "On CPU",
            Col::Wait => "Waiting",
            Col::Sleep => "Sleeping",
            Col::Wakeups => "Wakeups",
            Col::Migrations => "Migrations",
            Col::P50 => "p50",
            Col::P99 => "p99",
            Col::Max => "max",
        }
    }

    pub fn help(self) -> &'static str {
        match self {
            Col::Task => "comm-pid as the trace names it",
            Col::Runtime => "Time on a CPU (sched_switch in to out)",
            Col::Wait => "Runnable but not running: woken or preempted, waiting for a CPU",
            Col::Sleep => "Blocked or sleeping (switched out in S/D until woken)",
            Col::Wakeups => "sched_wakeup events of a sleeping task",
            Col::Migrations => "Runs on another CPU than the previous run",
            Col::P50 | Col::P99 | Col::Max => "Wakeup latency: sched_wakeup to the switch-in (perf sched latency)",
        }
    }

    /// The `trace diff` metric behind the column (`replay::METRICS` order).
    fn metric(self) -> Option<usize> {
        match self {
            Col::Task => None,
            Col::Runtime => Some(0),
            Col::Wait => Some(1),
            Col::Sleep => Some(2),
            Col::Wakeups => Some(3),
            Col::Migrations => Some(4),
            Col::P50 => Some(5),
            Col::P99 => Some(6),
            Col::Max => Some(7),
        }
    }

    fn is_time_s(self) -> bool {
        matches!(self, Col::Runtime | Col::Wait | Col::Sleep)
    }
}

fn stat_value(s: &TaskStat, c: Col) -> f64 {
    match c {
        Col::Task => 0.0,
        Col::Runtime => s.runtime_ns as f64,
        Col::Wait => s.wait_s,
        Col::Sleep => s.sleep_s,
        Col::Wakeups => s.wakeups as f64,
        Col::Migrations => s.migrations as f64,
        Col::P50 => s.wakeup_p50_us,
        Col::P99 => s.wakeup_p99_us,
        Col::Max => s.wakeup_max_us,
    }
}

fn pair_of(r: &DiffRow, c: Col) -> Option<&Pair> {
    Some(match c.metric()? {
        0 => &r.runtime_s,
        1 => &r.wait_s,
        2 => &r.sleep_s,
        3 => &r.wakeups,
        4 => &r.migrations,
        5 => &r.wakeup_p50_us,
        6 => &r.wakeup_p99_us,
        _ => &r.wakeup_max_us,
    })
}

/// Row order of the recording's table sorted by `col` (`desc`: largest first); ties keep
/// the trace's order, so the order is deterministic.
pub fn order(tasks: &[TaskStat], col: Col, desc: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..tasks.len()).collect();
    match col {
        Col::Task => order::sort_by(&mut idx, |&a, &b| {
            let k = |i: usize| (tasks[i].comm.to_ascii_lowercase(), tasks[i].pid);
            k(a).cmp(&k(b))
        }),
        _ => order::sort_by(&mut idx, |&a, &b| stat_value(&tasks[a], col).total_cmp(&stat_value(&tasks[b], col))),
    }
    if desc {
        // Reverse but keep ties in trace order.
        idx.reverse();
        let mut out = Vec::with_capacity(idx.len());
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            let same =
                |a: usize, b: usize| col != Col::Task && stat_value(&tasks[a], col) == stat_value(&tasks[b], col);
            while j + 1 < idx.len() && same(idx[i], idx[j + 1]) {
                j += 1;
            }
            let mut run: Vec<usize> = idx[i..=j].to_vec();
            order::sort(&mut run);
            out.extend(run);
            i = j + 1;
        }
        return out;
    }
    idx
}

/// Row order of the replay table: by the size of the difference in `col` (by name for Task).
pub fn diff_order(rows: &[DiffRow], col: Col, desc: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    let key = |i: usize| pair_of(&rows[i], col).map_or(0.0, |p| p.diff.abs());
    match col {
        Col::Task => order::sort_by(&mut idx, |&a, &b| {
            (rows[a].comm.to_ascii_lowercase(), rows[a].pid).cmp(&(rows[b].comm.to_ascii_lowercase(), rows[b].pid))
        }),
        _ => order::sort_by(&mut idx, |&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b))),
    }
    if desc {
        idx.reverse();
    }
    idx
}

/// A cell's text: seconds as durations, latencies in µs growing to ms, counts as counts.
pub fn cell(col: Col, v: f64) -> String {
    if col.is_time_s() {
        format::duration((v.max(0.0) * 1e9).round() as u64)
    } else if matches!(col, Col::Wakeups | Col::Migrations) {
        format::count(v.max(0.0).round() as u64)
    } else {
        format::duration((v.max(0.0) * 1e3).round() as u64)
    }
}

/// A cell of a task with `wakeups`: a latency of a task never woken is "-", not "0 ns".
pub fn task_cell(col: Col, v: f64, wakeups: f64) -> String {
    if wakeups < 0.5 && matches!(col, Col::P50 | Col::P99 | Col::Max) {
        "-".into()
    } else {
        cell(col, v)
    }
}

/// A difference's text, signed.
pub fn delta(col: Col, d: f64) -> String {
    let sign = if d > 0.0 {
        "+"
    } else if d < 0.0 {
        "−"
    } else {
        "±"
    };
    format!("{sign}{}", cell(col, d.abs()))
}

/// The header rows: the columns, with the three latency columns under "Wakeup latency".
fn head(sort: (Col, bool), on_sort: &Callback<Col>) -> Html {
    html! {
        <thead>
            <tr class="group"><td colspan="6"></td>
                <th scope="colgroup" colspan="3" title={Col::P50.help()}>{"Wakeup latency"}</th></tr>
            <tr>{ for COLS.iter().map(|&c| header(c, sort, on_sort)) }</tr>
        </thead>
    }
}

fn header(col: Col, sort: (Col, bool), on_sort: &Callback<Col>) -> Html {
    let aria = if sort.0 == col {
        if sort.1 {
            "descending"
        } else {
            "ascending"
        }
    } else {
        "none"
    };
    let arrow = match (sort.0 == col, sort.1) {
        (true, true) => " ▾",
        (true, false) => " ▴",
        _ => "",
    };
    let onclick = {
        let on_sort = on_sort.clone();
        Callback::from(move |_| on_sort.emit(col))
    };
    html! {
        <th scope="col" aria-sort={aria} title={col.help()}>
            <button type="button" class="sort" {onclick}>{col.label()}{arrow}</button>
        </th>
    }
}

#[derive(Properties, PartialEq)]
pub struct TaskTableProps {
    pub tasks: std::rc::Rc<Vec<TaskStat>>,
    pub sort: (Col, bool),
    pub on_sort: Callback<Col>,
    pub highlight: Option<usize>,
    pub on_pick: Callback<usize>,
}

/// The recording's per-task table.
#[function_component(TaskTable)]
pub fn task_table(p: &TaskTableProps) -> Html {
    let mut rows = order(&p.tasks, p.sort.0, p.sort.1);
    let all = rows.len();
    rows.truncate(MAX_ROWS);
    html! {
        <div class="table-wrap">
        if all > MAX_ROWS {
            <p class="note">{format!("The first {MAX_ROWS} of {all} tasks in this order (sort to see others).")}</p>
        }
        <table class="trace-tasks" aria-label="Per-task statistics of the recorded trace">
            { head(p.sort, &p.on_sort) }
            <tbody>
            { for rows.iter().map(|&i| {
                let t = &p.tasks[i];
                let on = p.highlight == Some(i);
                let onclick = { let pick = p.on_pick.clone(); Callback::from(move |_| pick.emit(i)) };
                html! {
                    <tr class={classes!(on.then_some("picked"))} aria-selected={on.to_string()} {onclick}
                        data-task={i.to_string()} title="Highlight this task on the timeline">
                        <th scope="row">{format!("{}-{}", t.comm, t.pid)}</th>
                        { for COLS[1..].iter().map(|&c| html! { <td>{task_cell(c, stat_value_display(t, c), t.wakeups as f64)}</td> }) }
                    </tr>
                }
            }) }
            </tbody>
        </table>
        </div>
    }
}

/// The value shown (runtime in seconds, as the other times).
fn stat_value_display(s: &TaskStat, c: Col) -> f64 {
    match c {
        Col::Runtime => s.runtime_s,
        _ => stat_value(s, c),
    }
}

#[derive(Properties, PartialEq)]
pub struct DiffTableProps {
    pub diff: std::rc::Rc<Diff>,
    pub sort: (Col, bool),
    pub on_sort: Callback<Col>,
    pub highlight: Option<usize>,
    pub on_pick: Callback<usize>,
}

/// A metric's name in the error table (the latency columns with their group's name).
fn metric_name(c: Col) -> String {
    match c {
        Col::P50 | Col::P99 | Col::Max => format!("Wakeup latency {}", c.label()),
        _ => c.label().to_string(),
    }
}

/// The model error per metric: sum |simulated − recorded| / sum recorded over the tasks;
/// for the latency percentiles, each side's percentile over every wakeup of every task
/// (`replay::diff`) and |simulated − recorded| / recorded.
#[function_component(DiffSummary)]
pub fn diff_summary(p: &DiffTableProps) -> Html {
    let d = &p.diff;
    html! {
        <div class="table-wrap">
        <table class="trace-error" aria-label="Model error per metric">
            <thead><tr>
                <th scope="col">{"Metric (all tasks)"}</th>
                <th scope="col" title="Σ|simulated − recorded| over the tasks / Σ recorded; for a latency percentile, over every wakeup">{"Error"}</th>
                <th scope="col">{"Recorded"}</th><th scope="col">{"Simulated"}</th><th scope="col">{"Difference"}</th>
            </tr></thead>
            <tbody>
            { for d.summary.iter().zip(COLS[1..].iter()).map(|(s, &c)| {
                // Latency percentiles do not add up over tasks: these rows are over every wakeup.
                let pooled = matches!(c, Col::P50 | Col::P99 | Col::Max);
                let how = if pooled { "over every wakeup of every task" } else { "summed over the tasks" };
                html! {
                    <tr data-metric={s.metric.clone()} title={how}>
                        <th scope="row" title={c.help()}>{metric_name(c)}</th>
                        <td class="err-pct">{format!("{}%", crate::engine::decimal::fixed(s.abs_error_rel * 100.0, 1))}</td>
                        <td class="rec">{cell(c, s.recorded)}</td>
                        <td class="sim">{cell(c, s.simulated)}</td>
                        <td class="d">{delta(c, s.diff)}</td>
                    </tr>
                }
            }) }
            </tbody>
        </table>
        </div>
    }
}

/// Recorded, simulated and the difference, per task and metric.
#[function_component(DiffTable)]
pub fn diff_table(p: &DiffTableProps) -> Html {
    let mut rows = diff_order(&p.diff.tasks, p.sort.0, p.sort.1);
    let all = rows.len();
    rows.truncate(MAX_ROWS);
    html! {
        <div class="table-wrap">
        if all > MAX_ROWS {
            <p class="note">{format!("The first {MAX_ROWS} of {all} tasks in this order (sort to see others).")}</p>
        }
        <table class="trace-diff" aria-label="Per-task recorded vs simulated">
            { head(p.sort, &p.on_sort) }
            <tbody>
            { for rows.iter().map(|&i| {
                let r = &p.diff.tasks[i];
                let on = p.highlight == Some(i);
                let onclick = { let pick = p.on_pick.clone(); Callback::from(move |_| pick.emit(i)) };
                html! {
                    <tr class={classes!(on.then_some("picked"))} aria-selected={on.to_string()} {onclick} data-task={i.to_string()}>
                        <th scope="row">{format!("{}-{}", r.comm, r.pid)}</th>
                        { for COLS[1..].iter().map(|&c| {
                            let pr = pair_of(r, c).cloned().unwrap_or(Pair { recorded: 0.0, simulated: 0.0, diff: 0.0 });
                            let (rec, sim) = (task_cell(c, pr.recorded, r.wakeups.recorded), task_cell(c, pr.simulated, r.wakeups.simulated));
                            // A difference against a side that never woke is not a latency.
                            let d = if rec == "-" || sim == "-" { String::new() } else { delta(c, pr.diff) };
                            html! {
                                <td title="recorded → simulated (difference)">
                                    <span class="rec">{rec}</span>{" → "}
                                    <span class="sim">{sim}</span>
                                    <span class="d">{d}</span>
                                </td>
                            }
                        }) }
                    </tr>
                }
            }) }
            </tbody>
        </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(pid: u32, comm: &str, run_ns: u64, wakeups: u64) -> TaskStat {
        TaskStat {
            pid,
            comm: comm.into(),
            runtime_s: run_ns as f64 / 1e9,
            wait_s: 0.0,
            sleep_s: 0.0,
            wakeups,
            migrations: 0,
            wakeup_p50_us: 0.0,
            wakeup_p99_us: 0.0,
            wakeup_max_us: 0.0,
            runtime_ns: run_ns,
            switches_in: 0,
        }
    }

    #[cfg(feature = "ssr")]
    #[tokio::test]
    async fn the_error_table_shows_latency_percentiles_over_every_wakeup() {
        use crate::share::ftrace::replay::Summary;
        let s = |metric: &str, r: f64, sim: f64| Summary {
            metric: metric.into(),
            recorded: r,
            simulated: sim,
            diff: sim - r,
            abs_error_rel: (sim - r).abs() / r,
        };
        let summary = vec![
            s("runtime_s", 0.002, 0.001),
            s("wait_s", 0.001, 0.001),
            s("sleep_s", 1.0, 1.0),
            s("wakeups", 10.0, 8.0),
            s("migrations", 1.0, 1.0),
            s("wakeup_p50_us", 4.0, 5.0),
            s("wakeup_p99_us", 61.0, 134.0),
            s("wakeup_max_us", 397.0, 135.0),
        ];
        let props = DiffTableProps {
            diff: std::rc::Rc::new(Diff {
                recorded_duration_s: 1.0,
                simulated_duration_s: 1.0,
                tasks: vec![],
                summary,
            }),
            sort: (Col::Task, false),
            on_sort: Callback::noop(),
            highlight: None,
            on_pick: Callback::noop(),
        };
        let html = tokio::task::LocalSet::new()
            .run_until(yew::LocalServerRenderer::<DiffSummary>::with_props(props).hydratable(false).render())
            .await;
        assert!(!html.contains('—'), "every row has its values: {html}");
        let row = |m: &str| {
            let at = html.find(&format!("data-metric=\"{m}\"")).unwrap();
            html[at..at + html[at..].find("</tr>").unwrap()].to_string()
        };
        let p99 = row("wakeup_p99_us");
        assert!(p99.contains("over every wakeup"), "{p99}");
        assert!(p99.contains(&cell(Col::P99, 61.0)) && p99.contains(&cell(Col::P99, 134.0)), "{p99}");
        assert!(p99.contains("119.7%"), "{p99}");
        assert!(row("runtime_s").contains("summed over the tasks"));
    }

    #[tokio::test]
    async fn a_task_never_woken_shows_no_latency_not_zero() {
        let props = TaskTableProps {
            tasks: std::rc::Rc::new(vec![t(1, "woken", 10, 3), t(2, "never", 20, 0)]),
            sort: (Col::Task, false),
            on_sort: Callback::noop(),
            highlight: None,
            on_pick: Callback::noop(),
        };
        let html = tokio::task::LocalSet::new()
            .run_until(yew::LocalServerRenderer::<TaskTable>::with_props(props).hydratable(false).render())
            .await;
        let row = |name: &str| {
            let at = html.find(name).unwrap();
            html[at..at + html[at..].find("</tr>").unwrap()].to_string()
        };
        assert_eq!(row("never-2").matches("<td>-</td>").count(), 3, "p50, p99 and max: {}", row("never-2"));
        assert_eq!(row("woken-1").matches("<td>-</td>").count(), 0, "{}", row("woken-1"));
        assert_eq!(task_cell(Col::P99, 0.0, 0.0), "-");
        assert_eq!(task_cell(Col::Wait, 0.0, 0.0), cell(Col::Wait, 0.0), "only latencies need a wakeup");
    }

    #[test]
    fn sorting_by_a_column_and_back_keeps_ties_in_trace_order() {
        let v = vec![t(3, "b", 10, 1), t(1, "A", 30, 1), t(2, "c", 20, 2)];
        assert_eq!(order(&v, Col::Runtime, true), vec![1, 2, 0]);
        assert_eq!(order(&v, Col::Runtime, false), vec![0, 2, 1]);
        assert_eq!(order(&v, Col::Task, false), vec![1, 0, 2]);
        assert_eq!(order(&v, Col::Wakeups, true), vec![2, 0, 1], "ties (1 wakeup) in trace order");
        assert_eq!(cell(Col::Runtime, 0.0015), format::duration(1_500_000));
        assert_eq!(delta(Col::Wakeups, -2.0), "−2");
    }
}
