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
    let s = if a == 0.0 {
        "0".to_string()
    } else if (0.001..1e9).contains(&a) {
        let decimals = (3 - a.log10().floor() as i32).clamp(0, 4) as usize;
        format!("{v:.decimals$}")
    } else {
        format!("{v:.3e}")
    };
    s
}

fn pct(p: Option<f64>) -> String {
    match p {
        Some(p) if p.is_finite() => format!("{p:+.2}%"),
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
        if !line.ends_with(' ') {
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
}
