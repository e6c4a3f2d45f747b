//! `validate`: the seed experiments' tables, reported figures beside simulated ones.
//!
//! One line per row and reported column: reported, simulated, the change against the
//! first row (reported and simulated) with the relative check, and the absolute error;
//! on a row's first line its run length, the change of its figure per unit of work when
//! the run doubled, and why its run stopped. The rows run on every core (`--jobs N`,
//! scoped threads, the largest first); the output does not depend on the order.
//! Exit status 1 when any row fails (`pass == Some(false)`: one of its columns fails), so a
//! script or CI can gate on it; rows without a verdict are the baseline (first row) or a
//! prediction.

use super::args::{self, Flag};
use super::report::{self, Table};
use super::{usage, CliError, Out, EXIT_FAILURE};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::engine::validate::{self as engine_validate, Measured, RowJob, Table as SeedTable};

const FLAGS: &[Flag] =
    &[Flag::switch("--quick"), Flag::switch("--json"), Flag::value("--jobs", "N"), Flag::value("--preset", "NAME")];

/// Measures `jobs` on `threads` scoped threads, the costliest first; answers in the jobs' order.
/// A full run (not `quick`) says on stderr as each row is done, since it takes minutes.
pub fn run_rows(jobs: &[RowJob], quick: bool, threads: usize) -> Vec<Option<Measured>> {
    let finished = AtomicUsize::new(0);
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].cost));
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Measured>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let j = jobs[i];
                    let cpu0 = thread_cpu_s();
                    let m = engine_validate::measure_job(&j, quick);
                    if !quick {
                        let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                        let how = m.as_ref().map_or("failed".into(), |m| format!("{}, {}", m.length, m.stop_reason));
                        let cpu = match (cpu0, thread_cpu_s()) {
                            (Some(a), Some(b)) => format!("{:.1} CPU s, ", b - a),
                            _ => String::new(),
                        };
                        let part =
                            if j.parts > 1 { format!(" part {} of {}", j.part + 1, j.parts) } else { String::new() };
                        eprintln!(
                            "validate: {n}/{} jobs done ({} row {}{part}: {cpu}{how})",
                            jobs.len(),
                            j.preset,
                            j.row
                        );
                    }
                    if let Ok(mut s) = slots.lock() {
                        s[i] = m;
                    }
                }
            });
        }
    });
    slots.into_inner().unwrap_or_default()
}

/// The calling thread's CPU time in seconds (Linux's `/proc/thread-self/schedstat`, whose
/// first field is the nanoseconds it ran), for the progress lines; None elsewhere.
fn thread_cpu_s() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// A signed fraction (0.10) as a percentage (`+10.0%`).
fn signed_percent(x: f64) -> String {
    if x.is_finite() {
        format!("{:+.1}%", x * 100.0)
    } else {
        "-".into()
    }
}

/// `baseline`: the row is its own `vs` (a table's first row, or a corpus reference row).
fn verdict(baseline: bool, pass: Option<bool>, reported: bool) -> &'static str {
    match (baseline, pass) {
        (_, Some(true)) => "PASS",
        (_, Some(false)) => "FAIL",
        (true, None) => "baseline",
        (_, None) if reported => "-",
        (_, None) => "predicted",
    }
}

/// The readable report of `tables`.
pub fn render(tables: &[SeedTable]) -> String {
    if tables.is_empty() {
        return "no tables\n".into();
    }
    let mut s = String::new();
    let (mut pass, mut fail, mut predicted) = (0, 0, 0);
    let (mut cells_pass, mut cells_fail, mut within, mut with_abs) = (0, 0, 0, 0);
    // Corpus rows: (pass, fail).
    let mut corpus = (0u32, 0u32);
    for table in tables {
        s.push_str(&format!("{}\n  preset {}, {} ({})\n", table.title, table.preset, table.metric, table.unit));
        let mut t = Table::new(&[
            "row",
            "column",
            "reported",
            "simulated",
            "reported change",
            "simulated change",
            "verdict",
            "abs error",
            "length",
            "change on doubling",
            "stop",
        ]);
        if !table.notes.is_empty() {
            s.push_str(&format!("  {}\n", table.notes));
        }
        for row in &table.rows {
            let baseline = row.vs == row.label;
            if table.corpus {
                match row.pass {
                    Some(true) => corpus.0 += 1,
                    Some(false) => corpus.1 += 1,
                    None => {}
                }
            }
            match (baseline, row.pass) {
                (_, Some(true)) => pass += 1,
                (_, Some(false)) => fail += 1,
                (true, None) => {}
                (_, None) => predicted += 1,
            }
            let any_reported = row.cells.iter().any(|c| c.reported.is_some());
            for (k, c) in row.cells.iter().enumerate() {
                match c.pass {
                    Some(true) => cells_pass += 1,
                    Some(false) => cells_fail += 1,
                    None => {}
                }
                if let Some(e) = c.abs_error {
                    with_abs += 1;
                    if e.abs() <= 0.25 {
                        within += 1;
                    }
                }
                let col = table.columns.get(k);
                let name = col.map_or(c.column.clone(), |col| format!("{} ({})", col.label, col.unit));
                t.rows.push(vec![
                    if k == 0 { row.label.clone() } else { String::new() },
                    name,
                    c.reported.map(report::num).unwrap_or_else(|| "-".into()),
                    report::num(c.simulated),
                    c.reported_change.map(signed_percent).unwrap_or_else(|| "-".into()),
                    signed_percent(c.simulated_change),
                    format!(
                        "{}{}",
                        verdict(baseline, c.pass, any_reported),
                        if row.needs_full_run && c.pass.is_some() { " *" } else { "" }
                    ),
                    c.abs_error.map(signed_percent).unwrap_or_else(|| "-".into()),
                    if k == 0 { row.length.clone() } else { String::new() },
                    if k == 0 {
                        row.convergence.map(|x| format!("{:.2}%", 100.0 * x)).unwrap_or_else(|| "-".into())
                    } else {
                        String::new()
                    },
                    if k == 0 { row.stop_reason.clone() } else { String::new() },
                ]);
            }
        }
        s.push_str(&t.render("  "));
        for row in table.rows.iter().filter(|r| r.pass == Some(false)) {
            s.push_str(&format!("  why \"{}\" misses: {}\n", row.label, row.cause()));
        }
        s.push('\n');
    }
    if tables.iter().flat_map(|t| &t.rows).any(|r| r.needs_full_run) {
        s.push_str("* a quick run (shortened, or its length not checked): the verdict needs the full `validate`\n");
    }
    let unsettled = tables
        .iter()
        .flat_map(|t| &t.rows)
        .filter(|r| r.convergence.is_some_and(|c| c >= engine_validate::SETTLED))
        .count();
    let on_budget = tables.iter().flat_map(|t| &t.rows).filter(|r| r.stop_reason == "event_budget").count();
    // A quick row's length is not checked: "0 not settled" alone would read as a pass.
    let unchecked = tables.iter().flat_map(|t| &t.rows).filter(|r| r.needs_full_run).count();
    let unchecked = if unchecked > 0 { format!(", {unchecked} not checked (quick runs)") } else { String::new() };
    s.push_str(&format!(
        "run lengths: {unsettled} rows not settled within 2%{unchecked}, {on_budget} stopped on the event budget\n"
    ));
    s.push_str(&format!("rows: {pass} pass, {fail} fail, {predicted} predicted\n"));
    s.push_str(&format!(
        "relative checks: {cells_pass} pass, {cells_fail} fail; absolute error within 25%: {within} of {with_abs}\n"
    ));
    let judged = corpus.0 + corpus.1;
    if judged > 0 {
        s.push_str(&format!(
            "corpus rows: {} of {judged} pass ({:.0}%; the corpus asks for 80%)\n",
            corpus.0,
            100.0 * corpus.0 as f64 / judged as f64
        ));
    }
    s
}

/// `schedscope validate`.
pub fn validate(words: &[String]) -> Result<Out, CliError> {
    let parsed = args::parse("validate", words, FLAGS)?;
    if parsed.help {
        return Ok(Out { text: usage::usage(), ..Out::default() });
    }
    let quick = parsed.has("--quick");
    let threads = super::args::count_flag(&parsed, "--jobs", 1, super::sweep::MAX_JOBS, super::sweep::default_jobs())?;
    let mut jobs = engine_validate::row_jobs(quick);
    if let Some(name) = parsed.get("--preset") {
        jobs.retain(|j| j.preset == name);
        if jobs.is_empty() {
            let known = engine_validate::table_presets().join(", ");
            return Err(CliError::usage(format!("--preset: '{name}' has no table (tables: {known})")));
        }
    }
    let tables = engine_validate::assemble(&jobs, run_rows(&jobs, quick, threads));
    let failed = tables.iter().flat_map(|t| &t.rows).any(|r| r.pass == Some(false));
    let text = if parsed.has("--json") { report::to_json(&tables)? } else { render(&tables) };
    Ok(Out { text, notes: Vec::new(), status: if failed { EXIT_FAILURE } else { 0 } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::validate::{Cell, Column, Row};

    fn row(label: &str, pass: Option<bool>) -> Row {
        let reported = (label != "-d-hrt").then_some(4.33);
        Row {
            label: label.into(),
            vs: "2.6.23".into(),
            sets: Vec::new(),
            reported: Some(4.33),
            simulated: 4.1,
            reported_change: Some(0.145),
            simulated_change: 0.12,
            pass,
            cells: vec![Cell {
                column: "throughput".into(),
                reported,
                simulated: 4.1,
                reported_change: Some(0.145),
                simulated_change: 0.12,
                pass,
                abs_error: reported.map(|r| 4.1 / r - 1.0),
            }],
            length: "100 loops".into(),
            convergence: Some(0.013),
            stop_reason: "completed".into(),
            ..Row::default()
        }
    }

    #[test]
    fn rows_show_their_verdicts() {
        let t = SeedTable {
            preset: "hrtick-iperf".into(),
            title: "hrtick and iperf".into(),
            source: "LKML".into(),
            metric: "throughput".into(),
            unit: "Gbit/s".into(),
            columns: vec![Column { key: "throughput".into(), label: "sum".into(), unit: "Gbit/s".into() }],
            rows: vec![row("2.6.23", None), row("-d", Some(true)), row("-d-hrt", None), row("x", Some(false))],
            corpus: false,
            notes: String::new(),
        };
        let text = render(std::slice::from_ref(&t));
        for want in
            ["baseline", "PASS", "predicted", "FAIL", "+14.5%", "+12.0%", "-5.3%", "1 pass, 1 fail, 1 predicted"]
        {
            assert!(text.contains(want), "{want} in\n{text}");
        }
        // A failing row says why, or that nobody has found out; a passing row says nothing.
        assert!(text.contains("why \"x\" misses: not diagnosed yet.") && !text.contains("why \"-d\""), "{text}");
        let mut t = t;
        t.rows[3].miss = Some("no cpufreq (BENCHMARKS.md, \"y\").".into());
        assert!(render(&[t]).contains("why \"x\" misses: no cpufreq (BENCHMARKS.md, \"y\")."));
    }

    #[test]
    fn a_corpus_reference_row_is_a_baseline_and_the_corpus_share_is_counted() {
        // A second reference row (its own vs) is a baseline even though it is not the first.
        let mut r = row("medium, menu", None);
        r.vs = r.label.clone();
        let t = SeedTable {
            preset: "token-governors".into(),
            title: "token".into(),
            source: "LKML".into(),
            metric: "throughput".into(),
            unit: "us".into(),
            columns: vec![Column { key: "throughput".into(), label: "time per loop".into(), unit: "us".into() }],
            rows: vec![row("2.6.23", None), r, row("teo", Some(true)), row("teo 2", Some(false))],
            corpus: true,
            notes: "judged against menu".into(),
        };
        let text = render(&[t]);
        assert_eq!(text.matches("baseline").count(), 2, "{text}");
        assert!(text.contains("judged against menu") && text.contains("corpus rows: 1 of 2 pass (50%"), "{text}");
    }

    #[test]
    fn rows_measured_on_one_thread_or_two_give_the_same_tables() {
        let jobs: Vec<RowJob> =
            engine_validate::row_jobs(true).into_iter().filter(|j| j.preset == "token-governors").collect();
        assert_eq!(jobs.len(), 6);
        let strip = |mut v: Vec<Option<Measured>>| {
            for m in v.iter_mut().flatten() {
                m.metrics.wall_s = 0.0;
            }
            v
        };
        let one = strip(run_rows(&jobs, true, 1));
        let two = strip(run_rows(&jobs, true, 2));
        assert!(one.iter().all(|m| m.is_some()));
        assert_eq!(one, two);
        let text = render(&engine_validate::assemble(&jobs, one));
        // Every verdict of a quick run is marked as needing the full run, pass or fail.
        assert!(
            text.contains("2000 loops of 20000 loops (quick)") && (text.contains("PASS *") || text.contains("FAIL *")),
            "{text}"
        );
        assert!(text.contains("0 rows not settled within 2%, 6 not checked (quick runs)"), "{text}");
    }

    #[test]
    fn no_tables_says_so() {
        assert_eq!(render(&[]), "no tables\n");
    }
}
