//! What the Experiments view says about trust, from the engine's tables (`engine::validate`):
//! the score per table (rows passing of rows judged), each row's verdict, the ratio of the
//! simulated change to the reported one, and why a row missed. Pure (no yew), tested natively.
//!
//! A miss's *what* is read off its cells (the column, the sign, the ratio against the
//! 0.5x-1.5x rule of `validate::judge`). Its *cause* would have to come from the table's
//! data, which records none per row (`tables::SeedRow` has no such field): the view says
//! "cause not recorded" rather than guess one.

use crate::engine::validate::{Cell, Row, Table};

/// A table's score: rows that pass, of the rows judged (baselines and predictions are not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub passed: usize,
    pub judged: usize,
}

impl Score {
    pub fn of(t: &Table) -> Score {
        let judged: Vec<bool> = t.rows.iter().filter_map(|r| r.pass).collect();
        Score { passed: judged.iter().filter(|p| **p).count(), judged: judged.len() }
    }

    pub fn plus(self, o: Score) -> Score {
        Score { passed: self.passed + o.passed, judged: self.judged + o.judged }
    }

    /// `3 / 4`, or `not judged` for a table of predictions.
    pub fn text(&self) -> String {
        if self.judged == 0 {
            "not judged".into()
        } else {
            format!("{} / {}", self.passed, self.judged)
        }
    }
}

/// A row's verdict as the view names it (also its CSS class).
pub fn verdict(r: &Row) -> &'static str {
    match r.pass {
        Some(true) => "pass",
        Some(false) => "miss",
        None if r.vs == r.label => "baseline",
        None => "prediction",
    }
}

/// The simulated change as a multiple of the reported one (`0.52`); None without a reported
/// change or when it is zero.
pub fn ratio(c: &Cell) -> Option<f64> {
    let rep = c.reported_change?;
    (rep != 0.0 && rep.is_finite() && c.simulated_change.is_finite()).then(|| c.simulated_change / rep)
}

/// What the "sim / rep" column shows for a cell: the ratio, or, for a cell that passes
/// although its ratio is outside `judge`'s 0.5x-1.5x band, that it passed on the noise rule
/// (`validate::judge_noisy`: a reported change within the benchmark's noise passes on no
/// effect or a change of its sign at the noise level, so a ratio to it means nothing).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shown {
    Ratio(f64),
    /// Passed on the noise rule; `true` when that can only be "no effect" (the simulated
    /// change is smaller than the reported one, itself under the noise, or of the other
    /// sign); `false` for a change of the reported sign beyond it (at the noise level).
    WithinNoise(bool),
    Nothing,
}

impl Shown {
    pub fn of(c: &Cell) -> Shown {
        match ratio(c) {
            Some(r) if c.pass == Some(true) && !(0.5..=1.5).contains(&r) => Shown::WithinNoise(r < 1.0),
            Some(r) => Shown::Ratio(r),
            None => Shown::Nothing,
        }
    }

    pub fn text(&self) -> String {
        match self {
            Shown::Ratio(r) => ratio_text(*r),
            Shown::WithinNoise(true) => "no effect (within noise)".into(),
            Shown::WithinNoise(false) => "within noise".into(),
            Shown::Nothing => "—".into(),
        }
    }

    /// Out of the rule's band, shown in red: only a ratio that judged the cell.
    pub fn out(&self) -> bool {
        matches!(self, Shown::Ratio(r) if !(0.5..=1.5).contains(r))
    }
}

/// `0.52×`, `−1.3×` (the opposite sign).
pub fn ratio_text(x: f64) -> String {
    let s = format!("{:.2}×", x.abs());
    if x < 0.0 {
        format!("−{s}")
    } else {
        s
    }
}

fn pct(x: f64) -> String {
    format!("{}{:.1}%", if x >= 0.0 { "+" } else { "−" }, (x * 100.0).abs())
}

/// Why a failing cell fails, read off its figures: `sys: simulated +3.0% against reported
/// +20.0%, 0.15× (the rule asks 0.5× to 1.5×)`.
pub fn cell_miss(c: &Cell, label: &str) -> Option<String> {
    if c.pass != Some(false) {
        return None;
    }
    let rep = c.reported_change?;
    let what = format!("{label}: simulated {} against reported {}", pct(c.simulated_change), pct(rep));
    let why = match ratio(c) {
        None => "a change where the source reports none".to_string(),
        Some(r) if r < 0.0 => "the opposite sign".to_string(),
        Some(r) if r < 0.5 => format!("{}, too small (the rule asks 0.5× to 1.5×)", ratio_text(r)),
        Some(r) if r > 1.5 => format!("{}, too large (the rule asks 0.5× to 1.5×)", ratio_text(r)),
        Some(r) => {
            format!("{}: the source's change is within its noise and the simulated one is beyond it", ratio_text(r))
        }
    };
    Some(format!("{what}, {why}"))
}

/// The reason a row missed, on its row: each failing column's figures, then the cause,
/// which the table does not record. None for a row that did not miss.
pub fn row_miss(t: &Table, r: &Row) -> Option<String> {
    if r.pass != Some(false) {
        return None;
    }
    let label =
        |c: &Cell| t.columns.iter().find(|col| col.key == c.column).map_or(c.column.clone(), |col| col.label.clone());
    let parts: Vec<String> = r.cells.iter().filter_map(|c| cell_miss(c, &label(c))).collect();
    let what = if parts.is_empty() { "no failing column recorded".to_string() } else { parts.join("; ") };
    let full = if r.needs_full_run { " (a quick run: the full `schedscope validate` decides)" } else { "" };
    Some(format!("Missed: {what}{full}. Cause: {}", r.cause()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::validate::Column;

    fn cell(rep: Option<f64>, sim: f64, pass: Option<bool>) -> Cell {
        Cell {
            column: "sys_s".into(),
            reported: rep.map(|_| 1.0),
            simulated: 1.0,
            reported_change: rep,
            simulated_change: sim,
            pass,
            abs_error: None,
        }
    }

    pub fn row(label: &str, vs: &str, pass: Option<bool>, cells: Vec<Cell>) -> Row {
        Row { label: label.into(), pass, vs: vs.into(), cells, ..Row::default() }
    }

    fn table(rows: Vec<Row>) -> Table {
        Table {
            preset: "p".into(),
            title: "T".into(),
            source: String::new(),
            metric: "sys_s".into(),
            unit: "s".into(),
            columns: vec![Column { key: "sys_s".into(), label: "sys".into(), unit: "s".into() }],
            rows,
            corpus: true,
            notes: String::new(),
        }
    }

    #[test]
    fn the_score_counts_judged_rows_only() {
        let t = table(vec![
            row("a", "a", None, vec![]),
            row("b", "a", Some(true), vec![]),
            row("c", "a", Some(false), vec![]),
            row("d", "x", None, vec![]),
        ]);
        let s = Score::of(&t);
        assert_eq!((s.passed, s.judged, s.text()), (1, 2, "1 / 2".to_string()));
        assert_eq!(Score::default().text(), "not judged");
        let v: Vec<&str> = t.rows.iter().map(verdict).collect();
        assert_eq!(v, ["baseline", "pass", "miss", "prediction"]);
    }

    #[test]
    fn a_pass_at_half_the_change_does_not_read_like_one_at_the_full_change() {
        assert_eq!(ratio(&cell(Some(0.20), 0.104, Some(true))).map(ratio_text), Some("0.52×".into()));
        assert_eq!(ratio(&cell(Some(0.20), 0.20, Some(true))).map(ratio_text), Some("1.00×".into()));
        assert_eq!(ratio(&cell(Some(0.20), -0.10, Some(false))).map(ratio_text), Some("−0.50×".into()));
        assert_eq!(ratio(&cell(None, 0.1, None)), None);
    }

    #[test]
    fn a_pass_within_the_noise_shows_no_ratio_and_nothing_red() {
        // A reported +2.6% under a 5% noise level, simulated 0.0%: passes on "no effect".
        let c = cell(Some(0.0258), 0.0, Some(true));
        assert_eq!(Shown::of(&c), Shown::WithinNoise(true));
        assert_eq!(Shown::of(&cell(Some(-0.047), 0.031, Some(true))).text(), "no effect (within noise)");
        // The reported sign at the noise level (+7% for +2.6% under 5%): not "no effect".
        let same = Shown::of(&cell(Some(0.0258), 0.07, Some(true)));
        assert!(same.text() == "within noise" && !same.out());
        assert_eq!(Shown::of(&c).text(), "no effect (within noise)");
        assert!(!Shown::of(&c).out());
        // A miss keeps its ratio, red; a pass in the band keeps its ratio, not red.
        let miss = Shown::of(&cell(Some(0.20), 0.03, Some(false)));
        assert!(miss.out() && miss.text() == "0.15×");
        let ok = Shown::of(&cell(Some(0.20), 0.104, Some(true)));
        assert!(!ok.out() && ok.text() == "0.52×");
    }

    #[test]
    fn a_miss_says_which_column_failed_how_and_its_diagnosed_cause() {
        let mut t = table(vec![
            row("a", "a", None, vec![]),
            row("b", "a", Some(false), vec![cell(Some(0.20), 0.03, Some(false))]),
        ]);
        let m = row_miss(&t, &t.rows[1]).unwrap();
        assert!(m.contains("sys: simulated +3.0% against reported +20.0%, 0.15×, too small"), "{m}");
        assert!(m.ends_with("Cause: not diagnosed yet."), "{m}");
        t.rows[1].miss = Some("no refill of the private caches (BENCHMARKS.md, \"x\").".into());
        let m = row_miss(&t, &t.rows[1]).unwrap();
        assert!(m.ends_with("Cause: no refill of the private caches (BENCHMARKS.md, \"x\")."), "{m}");
        assert_eq!(row_miss(&t, &t.rows[0]), None);
        let wrong = cell(Some(0.20), -0.05, Some(false));
        assert!(cell_miss(&wrong, "sys").unwrap().ends_with("the opposite sign"));
    }

    /// The Experiments view as issue 29 asks it: the score first, a verdict and a ratio on
    /// each row, the miss's reason on its row.
    #[cfg(feature = "ssr")]
    #[tokio::test]
    async fn the_experiments_view_puts_the_score_first_and_each_verdict_and_reason_on_its_row() {
        let mut t = table(vec![
            row("base", "base", None, vec![cell(None, 0.0, None)]),
            row("half", "base", Some(true), vec![cell(Some(0.20), 0.104, Some(true))]),
            row("off", "base", Some(false), vec![cell(Some(0.20), 0.03, Some(false))]),
            row("calm", "base", Some(true), vec![cell(Some(0.0258), 0.0, Some(true))]),
        ]);
        t.rows[2].miss = Some("the lost private caches (BENCHMARKS.md, \"x\").".into());
        // The module's root as the page's mount gives it the tables (`experiments::lazy`).
        use crate::ui::experiments::view::{SeedView, SeedViewProps, Stage};
        let props = SeedViewProps {
            tables: std::rc::Rc::new(vec![t]),
            stage: Stage::Loaded,
            query: "v=1&view=seeds".into(),
            on_load: yew::Callback::noop(),
        };
        let local = tokio::task::LocalSet::new();
        let html =
            local.run_until(yew::LocalServerRenderer::<SeedView>::with_props(props).hydratable(false).render()).await;
        let board = html.find("class=\"scoreboard panel\"").expect("a scoreboard");
        let first_table = html.find("class=\"seed panel\"").expect("the table");
        assert!(board < first_table, "the score comes before the tables");
        assert!(html[board..first_table].contains("2 / 3"), "{}", &html[board..first_table]);
        for v in ["baseline", "pass", "miss"] {
            assert!(html.contains(&format!("class=\"badge row-verdict {v}\"")), "row verdict {v}");
        }
        assert!(html.contains("0.52×"), "the ratio of a pass at half the change");
        // The pass within the noise: no ratio, nothing red beside its pass.
        let calm = html.find("aria-label=\"Load calm\"").expect("the calm row");
        let calm_row = &html[html[..calm].rfind("<tr").unwrap()..calm];
        assert!(calm_row.contains("no effect (within noise)"), "{calm_row}");
        assert!(!calm_row.contains("0.00×") && !calm_row.contains("ratio out"), "{calm_row}");
        let reason = html.find("class=\"miss-reason\"").expect("a reason row");
        let row_off = html.find("aria-label=\"Load off\"").unwrap();
        assert!(reason > row_off, "the reason follows its row");
        assert!(html[reason..].contains("too small") && html[reason..].contains("Cause: the lost private caches"));
    }
}
