//! Plain-text A/B tables for an email (`schedscope compare`, and the page's "Copy as
//! text"): at most `WIDTH` columns, in the layout of mmtests' `compare-kernels.sh` that
//! scheduler patches are argued with on LKML: per metric the rows `Min`, `Amean` and
//! `Max` over the seeds, A's value, B's value and B's change against A in percent with
//! its sign. A change is starred (`*+5.30%*`) when the two seed ranges do not overlap
//! (mmtests stars significant changes; here the test is the page's own "outside the seed
//! noise" rule, not a statistical test). The link and the exact configs close the text,
//! so a reader can rerun it. Every line is at most `WIDTH` columns but the link's own
//! line, which is never cut (a URL in two pieces does not open).
//!
//! `parse_numbers` reads the numbers back (the round-trip test: the text says what the
//! JSON says, to the printed precision).

use crate::engine::config::Config;
use crate::engine::metrics::{self, Metrics};

/// Widest line.
pub const WIDTH: usize = 72;

/// The metrics compared unless others are named (`compare --metric`; the page's A/B table).
pub const DEFAULT_METRICS: &[&str] =
    &["throughput", "wakeup_latency_p50", "wakeup_latency_p99", "context_switches", "migrations"];

/// Mean, minimum and maximum of one metric over the seeds of one side.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// Over the values of each seed's run.
    pub fn of(values: &[f64]) -> Spread {
        if values.is_empty() {
            return Spread { mean: 0.0, min: 0.0, max: 0.0 };
        }
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Spread { mean, min, max }
    }
}

/// One metric of the comparison.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub metric: String,
    pub unit: String,
    pub a: Spread,
    pub b: Spread,
}

impl Row {
    /// B's change against A in percent (None when A's mean is 0).
    pub fn change_pct(&self) -> Option<f64> {
        (self.a.mean != 0.0).then(|| (self.b.mean - self.a.mean) / self.a.mean.abs() * 100.0)
    }
    /// Whether the seed ranges do not overlap.
    pub fn outside_noise(&self) -> bool {
        self.a.max < self.b.min || self.b.max < self.a.min
    }
}

/// The rows of `keys` (names of `metrics::NAMED` etc.) from each side's runs, one per seed.
pub fn rows(keys: &[&str], a: &[Metrics], b: &[Metrics]) -> Vec<Row> {
    keys.iter()
        .map(|&k| {
            let vals = |runs: &[Metrics]| -> Vec<f64> { runs.iter().filter_map(|m| metrics::value(m, k)).collect() };
            let (_, unit) = metrics::label_unit(k, a.first());
            Row { metric: k.to_string(), unit, a: Spread::of(&vals(a)), b: Spread::of(&vals(b)) }
        })
        .collect()
}

/// A number in at most 12 characters: 4 significant digits, plain where that reads well.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "nan".into();
    }
    let a = v.abs();
    if a == 0.0 {
        "0".to_string()
    } else if (0.001..1e9).contains(&a) {
        let decimals = (3 - a.log10().floor() as i32).clamp(0, 4) as usize;
        crate::engine::decimal::fixed(v, decimals)
    } else {
        crate::engine::decimal::sci(v, 3)
    }
}

fn pct(p: Option<f64>) -> String {
    match p {
        Some(p) if p.is_finite() => format!("{}%", crate::engine::decimal::plus(p, 2)),
        _ => "n/a".into(),
    }
}

/// Words wrapped to `WIDTH` columns after `lead` (continuation lines indented).
fn wrap(lead: &str, words: &[String]) -> String {
    let mut out = String::new();
    let mut line = lead.to_string();
    for w in words {
        if line.chars().count() + 1 + w.chars().count() > WIDTH && line.trim().len() > lead.trim().len() {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(lead.chars().count());
        }
        if !line.is_empty() && !line.ends_with(' ') {
            line.push(' ');
        }
        // A word longer than a line is cut, never the layout.
        line.push_str(&w.chars().take(WIDTH - 1 - lead.chars().count().min(WIDTH / 2)).collect::<String>());
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The email text: the table, then the seeds, the link and both configs.
/// `a`/`b` are the two configs, `seeds` the seeds each side ran, `link` the share link.
pub fn email_text(rows: &[Row], a: &Config, b: &Config, seeds: &[u64], link: &str) -> String {
    let mut s = String::new();
    s.push_str(&format!("{:<6} {:<22} {:>12} {:>12} {:>10}\n", "", "", "A", "B", "B vs A"));
    for r in rows {
        let name: String = r.metric.chars().take(22).collect();
        let change = pct(r.change_pct());
        let starred = if r.outside_noise() { format!("*{change}*") } else { format!(" {change} ") };
        for (stat, av, bv, c) in [
            ("Min", r.a.min, r.b.min, String::new()),
            ("Amean", r.a.mean, r.b.mean, starred),
            ("Max", r.a.max, r.b.max, String::new()),
        ] {
            let line = format!("{stat:<6} {name:<22} {:>12} {:>12} {c:>10}", num(av), num(bv));
            s.push_str(line.trim_end());
            s.push('\n');
        }
    }
    let units: Vec<String> =
        rows.iter().filter(|r| !r.unit.is_empty()).map(|r| format!("{}={}", r.metric, r.unit)).collect();
    if !units.is_empty() {
        s.push('\n');
        s.push_str(&wrap("units:", &units));
    }
    let seed_words = match seeds {
        [] => vec!["none".to_string()],
        [one] => vec![one.to_string()],
        [first, .., last] => vec![format!("{} seeds, {first} to {last}", seeds.len())],
    };
    s.push_str(&wrap("seeds:", &seed_words));
    s.push_str("(* the seed ranges of A and B do not overlap)\n");
    // The link whole on a line of its own: a URL cut in two no longer opens (the one line
    // that may be longer than WIDTH; mail clients do not wrap a line without spaces).
    s.push_str("link:\n");
    s.push_str(link);
    s.push('\n');
    let pairs = |c: &Config, base: &Config| -> Vec<String> {
        let d: Vec<String> = c.diff(base).into_iter().map(|(k, v)| format!("{k}={v}")).collect();
        if d.is_empty() {
            vec!["(defaults)".into()]
        } else {
            d
        }
    };
    s.push_str(&wrap("A:", &pairs(a, &Config::default())));
    s.push_str(&wrap("B: A with", &pairs(b, a)));
    s
}

/// The link on a line of its own, then the config as `key=value` words after `lead`.
fn closing(s: &mut String, link: &str, lead: &str, config: &Config) {
    s.push_str("link:\n");
    s.push_str(link);
    s.push('\n');
    let mut d: Vec<String> = config.diff(&Config::default()).into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    if d.is_empty() {
        d.push("(defaults)".into());
    }
    s.push_str(&wrap(lead, &d));
}

/// One point of a sweep: the swept value and the metric over its seeds (None: not run).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    pub value: String,
    pub spread: Option<Spread>,
    /// It stopped at the sweep's event budget: its figure is the first events', not a result.
    pub cut: bool,
}

/// A sweep as text: per swept value the metric's mean, min and max over `seeds`, a point
/// cut by its event budget marked `cut` (not a result), then the link and the config.
pub fn sweep_text(
    key: &str,
    metric: &str,
    unit: &str,
    points: &[SweepPoint],
    seeds: usize,
    base: &Config,
    link: &str,
) -> String {
    let mut s = String::new();
    let title = format!("{metric}{} across {key}", if unit.is_empty() { String::new() } else { format!(" ({unit})") });
    s.push_str(&wrap("", &title.split(' ').map(str::to_string).collect::<Vec<_>>()));
    let head = format!("{:<22} {:>12} {:>12} {:>12}", key.chars().take(22).collect::<String>(), "Amean", "Min", "Max");
    s.push_str(&head);
    s.push('\n');
    for p in points {
        let v: String = p.value.chars().take(22).collect();
        let line = match p.spread {
            Some(sp) => format!(
                "{v:<22} {:>12} {:>12} {:>12} {:>8}",
                num(sp.mean),
                num(sp.min),
                num(sp.max),
                if p.cut { "cut" } else { "" }
            ),
            None => format!("{v:<22} {:>12}", "not run"),
        };
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str(&wrap("seeds:", &[format!("{seeds} per point")]));
    if points.iter().any(|p| p.cut) {
        s.push_str("(cut: stopped at the sweep's event budget; the first events' figure)\n");
    }
    closing(&mut s, link, "config:", base);
    s
}

/// The Experiments view as text: per table its title and source, then per row and column
/// the reported and simulated figures, both changes against the row's reference and the
/// verdict; the score of the judged rows first; the link last.
pub fn validation_text(tables: &[crate::engine::validate::Table], link: &str) -> String {
    let mut s = String::new();
    let judged: Vec<bool> = tables.iter().flat_map(|t| t.rows.iter().filter_map(|r| r.pass)).collect();
    s.push_str(&format!("{} of {} judged rows pass\n", judged.iter().filter(|p| **p).count(), judged.len()));
    let pct =
        |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{}%", crate::engine::decimal::plus(x * 100.0, 1)));
    for t in tables {
        s.push('\n');
        s.push_str(&wrap("", &t.title.split(' ').map(str::to_string).collect::<Vec<_>>()));
        if !t.source.is_empty() {
            s.push_str(&wrap("reported:", &t.source.split(' ').map(str::to_string).collect::<Vec<_>>()));
        }
        s.push_str(&format!(
            "{:<14} {:<12} {:>9} {:>9} {:>8} {:>8} {:>5}\n",
            "row", "column", "reported", "simulated", "d rep", "d sim", "check"
        ));
        for r in &t.rows {
            for (k, c) in r.cells.iter().enumerate() {
                let label: String = if k == 0 { r.label.chars().take(14).collect() } else { String::new() };
                let column: String = c.column.chars().take(12).collect();
                let check = match c.pass {
                    Some(true) => "pass",
                    Some(false) => "FAIL",
                    None if r.vs == r.label => "base",
                    None => "-",
                };
                let reported = c.reported.map_or("-".to_string(), num);
                let line = format!(
                    "{label:<14} {column:<12} {:>9} {:>9} {:>8} {:>8} {check:>5}",
                    reported,
                    num(c.simulated),
                    pct(c.reported_change),
                    pct(Some(c.simulated_change)),
                );
                s.push_str(line.trim_end());
                s.push('\n');
            }
        }
    }
    s.push_str("\nlink:\n");
    s.push_str(link);
    s.push('\n');
    s
}

/// The numbers of the table's rows as (metric, stat, A, B), read back from `email_text`.
pub fn parse_numbers(text: &str) -> Vec<(String, String, f64, f64)> {
    text.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() < 4 || !matches!(w[0], "Min" | "Amean" | "Max") {
                return None;
            }
            Some((w[1].to_string(), w[0].to_string(), w[2].parse().ok()?, w[3].parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(metric: &str, a: [f64; 3], b: [f64; 3]) -> Row {
        Row {
            metric: metric.into(),
            unit: "µs".into(),
            a: Spread { min: a[0], mean: a[1], max: a[2] },
            b: Spread { min: b[0], mean: b[1], max: b[2] },
        }
    }

    #[test]
    fn mmtests_rows_signed_change_stars_and_width() {
        let mut b = Config::default();
        b.set("policy", "eevdf").unwrap();
        let rows = [
            row("wakeup_latency_p99", [10.0, 12.5, 15.0], [20.0, 25.0, 30.0]),
            row("ticks", [1.0, 2.0, 3.0], [2.0, 2.0, 2.0]),
        ];
        let link = "?v=1&policy=eevdf".repeat(9);
        let text = email_text(&rows, &Config::default(), &b, &[1, 2, 3], &link);
        assert!(text.contains(&format!("link:\n{link}\n")));
        for l in text.lines().filter(|l| *l != link) {
            assert!(l.chars().count() <= WIDTH, "{} columns: {l}", l.chars().count());
        }
        assert!(text.contains("Amean  wakeup_latency_p99            12.50        25.00 *+100.00%*"), "{text}");
        assert!(text.contains("Amean  ticks                         2.000        2.000    +0.00%\n"), "{text}");
        assert!(text.contains("seeds: 3 seeds, 1 to 3"));
        assert!(text.trim_end().ends_with("B: A with kernel=6.6"), "{text}");
        assert_eq!(parse_numbers(&text).len(), 6);
        assert_eq!(num(0.00012345), "1.234e-4");
        assert_eq!(num(123456.0), "123456");
        assert_eq!(num(-1.5), "-1.500");
        assert_eq!(pct(None), "n/a");
    }

    #[test]
    fn a_sweep_as_text_marks_cut_points_and_keeps_72_columns() {
        let sp = |mean: f64, min: f64, max: f64| Some(Spread { mean, min, max });
        let points = [
            SweepPoint { value: "1ms".into(), spread: sp(0.2345, 0.2111, 0.258), cut: false },
            SweepPoint { value: "16ms".into(), spread: sp(1235.0, 1111.0, 1358.0), cut: true },
            SweepPoint { value: "5000ms".into(), spread: None, cut: false },
        ];
        let mut base = Config::default();
        base.set("hz", "1000").unwrap();
        let text = sweep_text("rr_interval", "elapsed_s", "s", &points, 3, &base, "http://h/?v=1&hz=1000");
        for l in text.lines() {
            assert!(l.chars().count() <= WIDTH, "{} columns: {l}", l.chars().count());
        }
        assert!(text.starts_with("elapsed_s (s) across rr_interval\n"), "{text}");
        assert!(text.contains("\n1ms                          0.2345       0.2111       0.2580\n"), "{text}");
        assert!(text.contains("\n16ms                           1235         1111         1358      cut\n"), "{text}");
        assert!(text.contains("\n5000ms                      not run\n"), "{text}");
        assert!(text.contains("seeds: 3 per point\n(cut: "), "{text}");
        assert!(text.trim_end().ends_with("link:\nhttp://h/?v=1&hz=1000\nconfig: hz=1000"), "{text}");
    }

    #[test]
    fn the_experiments_as_text_score_first_a_verdict_per_figure() {
        use crate::engine::validate::{Cell, Row as VRow, Table};
        let cell =
            |column: &str, reported: Option<f64>, simulated: f64, rc: Option<f64>, sc: f64, pass: Option<bool>| Cell {
                column: column.into(),
                reported,
                simulated,
                reported_change: rc,
                simulated_change: sc,
                pass,
                abs_error: reported.map(|r| simulated / r - 1.0),
            };
        let row = |label: &str, vs: &str, pass: Option<bool>, cells: Vec<Cell>| VRow {
            label: label.into(),
            reported: cells[0].reported,
            simulated: cells[0].simulated,
            reported_change: cells[0].reported_change,
            simulated_change: cells[0].simulated_change,
            pass,
            vs: vs.into(),
            cells,
            ..VRow::default()
        };

        let t = Table {
            preset: "p".into(),
            title: "hackbench-process-pipes on a machine with a rather long name, 5.15".into(),
            source: "Mel Gorman, LKML 2021".into(),
            metric: "elapsed_s".into(),
            unit: "s".into(),
            columns: vec![],
            rows: vec![
                row("vanilla", "vanilla", None, vec![cell("elapsed_s", Some(1.0), 1.1, None, 0.0, None)]),
                row(
                    "scaled, a long label",
                    "vanilla",
                    Some(false),
                    vec![
                        cell("elapsed_s", Some(0.86), 0.99, Some(-0.14), -0.1, Some(true)),
                        cell("context_switches", None, 2_560_000.0, None, -0.8, Some(false)),
                    ],
                ),
            ],
            corpus: true,
            notes: String::new(),
        };
        let text = validation_text(&[t], "http://h/?view=seeds");
        for l in text.lines() {
            assert!(l.chars().count() <= WIDTH, "{} columns: {l}", l.chars().count());
        }
        assert!(text.starts_with("0 of 1 judged rows pass\n"), "{text}");
        assert!(text.contains("\nvanilla        elapsed_s        1.000     1.100        -    +0.0%  base\n"), "{text}");
        assert!(text.contains("\nscaled, a long elapsed_s       0.8600    0.9900   -14.0%   -10.0%  pass\n"), "{text}");
        assert!(text.contains("\n               context_swit         -   2560000        -   -80.0%  FAIL\n"), "{text}");
        assert!(text.trim_end().ends_with("link:\nhttp://h/?view=seeds"), "{text}");
    }
}
