//! How results are printed: aligned tables for people, JSON and CSV for programs.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::setup::SweepRow;
use super::CliError;
use crate::engine::metrics::{self, StopReason};
use crate::engine::presets::Preset;
use crate::engine::{Config, Metrics};

/// A plain text table: a header and rows of cells; the first column is left-aligned,
/// the others right-aligned (they are numbers).
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        Table { header: header.iter().map(|h| h.to_string()).collect(), rows: Vec::new() }
    }

    pub fn render(&self, indent: &str) -> String {
        let cols = self.header.len().max(self.rows.iter().map(Vec::len).max().unwrap_or(0));
        let mut width = vec![0usize; cols];
        for row in std::iter::once(&self.header).chain(&self.rows) {
            for (i, cell) in row.iter().enumerate() {
                width[i] = width[i].max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = String::from(indent);
            for (i, w) in width.iter().enumerate() {
                let cell = row.get(i).map(String::as_str).unwrap_or("");
                if i == 0 {
                    line.push_str(&format!("{cell:<w$}"));
                } else {
                    line.push_str(&format!("  {cell:>w$}"));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// A float for people: precision by magnitude, `-` for NaN or infinity.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let a = x.abs();
    if a == 0.0 {
        "0".into()
    } else if a >= 1e5 {
        format!("{x:.0}")
    } else if a >= 100.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.6}")
    }
}

/// A registry title (`metrics::Named::title`) as the terminal's tables write labels, lower
/// case: `Context switches` -> `context switches`; a word in capitals stays (`CPU busy`).
pub fn lower_title(title: &str) -> String {
    let mut c = title.chars();
    match (c.next(), c.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && !second.is_uppercase() => {
            first.to_lowercase().chain(title[first.len_utf8()..].chars()).collect()
        }
        _ => title.to_string(),
    }
}

/// A fraction as a percentage with one decimal.
pub fn percent(fraction: f64) -> String {
    if fraction.is_finite() {
        format!("{:.1}", fraction * 100.0)
    } else {
        "-".into()
    }
}

fn stop_text(reason: Option<StopReason>) -> &'static str {
    match reason {
        Some(StopReason::Completed) => "workload completed",
        Some(StopReason::TimeLimit) => "time limit (duration)",
        Some(StopReason::EventBudget) => "event budget ran out (max_events): the figures cover a partial run",
        None => "not reported",
    }
}

/// The header lines shared by `run` and `sweep`: preset and changed keys.
/// `preamble` for the grid and replica reports of `sweep`.
pub fn preamble_text(preset: Option<&Preset>, diff: &[(&str, String)]) -> String {
    preamble(preset, diff)
}

fn preamble(preset: Option<&Preset>, diff: &[(&str, String)]) -> String {
    let mut s = match preset {
        Some(p) => format!("preset   {}  ({})\n", p.name, p.title),
        None => "preset   none (default config)\n".to_string(),
    };
    let changes: Vec<String> = diff.iter().map(|(k, v)| format!("{k}={v}")).collect();
    s.push_str(&format!("changes  {}\n", if changes.is_empty() { "none".into() } else { changes.join(" ") }));
    s
}

/// A registry metric's value for the terminal: a count whole, a figure by `num`.
pub fn value_text(n: &metrics::Named, m: &Metrics) -> String {
    let v = (n.get)(m);
    if n.count && v.is_finite() {
        format!("{}", v.max(0.0) as u64)
    } else {
        num(v)
    }
}

/// A registry metric's unit for the terminal: none for a count (its label says what it
/// counts), `us` where the page writes `µs`.
fn unit_text(n: &metrics::Named) -> String {
    if n.count {
        String::new()
    } else {
        n.unit.replace("µs", "us")
    }
}

/// `run`'s readable report.
pub fn run_table(preset: Option<&Preset>, diff: &[(&str, String)], m: &Metrics) -> String {
    let mut s = preamble(preset, diff);
    s.push_str(&format!("stopped  {}\n\n", stop_text(m.stop_reason)));
    let better = if m.throughput_unit.is_empty() {
        String::new()
    } else if m.higher_is_better {
        format!("{} (higher is better)", m.throughput_unit)
    } else {
        format!("{} (lower is better)", m.throughput_unit)
    };
    // Every metric of the registry, in its order; the main result keeps the label `throughput`
    // (its unit says what it measures).
    let mut rows: Vec<(String, String, String)> = metrics::NAMED
        .iter()
        .map(|n| match n.key {
            "throughput" => ("throughput".into(), num(m.throughput), better.clone()),
            _ => (lower_title(n.title), value_text(n, m), unit_text(n)),
        })
        .collect();
    if m.cstate_residency.is_empty() {
        rows.push(("C-state residency".into(), "-".into(), "no idle time".into()));
    } else {
        rows.push(("C-state residency".into(), String::new(), String::new()));
        for (state, frac) in &m.cstate_residency {
            let entries = m.cstate_entries.get(state).map(|n| format!("% ({n} entries)")).unwrap_or("%".into());
            rows.push((format!("  {state}"), percent(*frac), entries));
        }
    }
    rows.push(("wall".into(), num(m.wall_s), "s (host time for the run)".into()));
    let lw = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let vw = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (label, value, unit) in rows {
        s.push_str(format!("{label:lw$}  {value:>vw$}  {unit}").trim_end());
        s.push('\n');
    }
    if !m.digest.is_empty() {
        s.push_str(&format!("\ndigest   {}\n", m.digest));
    }
    s
}

/// schbench's own report (`show_latencies` in schbench.c, then "average rps"), from the
/// workload's figures in `Metrics::workload`; empty if the run has none.
pub fn schbench_text(m: &Metrics) -> String {
    let w = &m.workload;
    let get = |k: &str| w.get(k).copied().unwrap_or(0.0);
    if !w.contains_key("average_rps") {
        return String::new();
    }
    // schbench prints its -r in whole seconds; a shorter simulated run keeps its fraction.
    let runtime = if m.elapsed_s.fract() == 0.0 { format!("{}", m.elapsed_s) } else { format!("{:.3}", m.elapsed_s) };
    let mut s = String::new();
    let mut block = |label: &str, units: &str, name: &str, lines: &[(&str, bool)]| {
        s.push_str(&format!(
            "{label} percentiles ({units}) runtime {runtime} (s) ({} total samples)\n",
            get(&format!("{name}_samples"))
        ));
        for (p, star) in lines {
            s.push_str(&format!(
                "\t{}{p}th: {:<10} ({} samples)\n",
                if *star { "* " } else { "  " },
                get(&format!("{name}_p{p}")),
                get(&format!("{name}_p{p}_samples"))
            ));
        }
        s.push_str(&format!("\t  min={}, max={}\n", get(&format!("{name}_min")), get(&format!("{name}_max"))));
    };
    let lat = [("50.0", false), ("90.0", false), ("99.0", true), ("99.9", false)];
    block("Wakeup Latencies", "usec", "wakeup_us", &lat);
    block("Request Latencies", "usec", "request_us", &lat);
    block("RPS", "requests", "rps", &[("20.0", false), ("50.0", true), ("90.0", false)]);
    s.push_str(&format!("average rps: {:.2}\n", get("average_rps")));
    s
}

/// A config as a JSON object of canonical text values, in `KEYS` order.
struct ConfigJson<'a>(&'a Config);

impl Serialize for ConfigJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let pairs = self.0.to_pairs();
        let mut map = serializer.serialize_map(Some(pairs.len()))?;
        for (k, v) in &pairs {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[derive(serde::Serialize)]
struct RunJson<'a> {
    config: ConfigJson<'a>,
    metrics: &'a Metrics,
}

/// One JSON document and a newline.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, CliError> {
    serde_json::to_string(value)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| CliError::failure(format!("json: cannot serialize the result: {e}")))
}

/// `run --json`: `{"config": {...}, "metrics": {...}}`.
pub fn run_json(config: &Config, metrics: &Metrics) -> Result<String, CliError> {
    to_json(&RunJson { config: ConfigJson(config), metrics })
}

/// Relative change of `x` against `base`, as a signed percentage.
pub fn change(x: f64, base: f64) -> String {
    if base == 0.0 || !x.is_finite() || !base.is_finite() {
        return "-".into();
    }
    format!("{:+.1}%", (x / base - 1.0) * 100.0)
}

/// The registry metrics `sweep`'s table has a column for (a table is not as wide as the
/// registry: `--json` and `--csv` carry every metric).
pub const SWEEP_COLUMNS: &[&str] = &[
    "context_switches",
    "migrations",
    "ipis",
    "timer_reprograms",
    "nohz_entries",
    "ticks",
    "hrtick_fires",
    "wakeup_latency_p50",
    "wakeup_latency_p99",
    "user_s",
    "sys_s",
];

/// `sweep`'s readable report: one row per value, throughput change against the first row.
pub fn sweep_table(preset: Option<&Preset>, diff: &[(&str, String)], param: &str, rows: &[SweepRow]) -> String {
    let mut s = preamble(preset, diff);
    s.push('\n');
    let unit = rows.first().map(|r| r.metrics.throughput_unit.as_str()).unwrap_or("");
    let throughput = if unit.is_empty() { "throughput".to_string() } else { format!("throughput ({unit})") };
    // The registry's keys as headers (the names `--metric` takes), the main result with its
    // change against the first row, the host time last.
    let mut header: Vec<&str> = vec![param, "elapsed_s", &throughput, "change"];
    header.extend(SWEEP_COLUMNS);
    header.push("wall_s");
    let mut t = Table::new(&header);
    let base = rows.first().map(|r| r.metrics.throughput).unwrap_or(0.0);
    let named: Vec<&metrics::Named> =
        SWEEP_COLUMNS.iter().map(|k| metrics::named(k).expect("SWEEP_COLUMNS are registry keys")).collect();
    for r in rows {
        let m = &r.metrics;
        let mut row = vec![r.value.clone(), num(m.elapsed_s), num(m.throughput), change(m.throughput, base)];
        row.extend(named.iter().map(|n| value_text(n, m)));
        row.push(num(m.wall_s));
        t.rows.push(row);
    }
    s.push_str(&t.render(""));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_lower_case_but_capitals_stay() {
        assert_eq!(lower_title("Context switches"), "context switches");
        assert_eq!(lower_title("CPU busy"), "CPU busy");
        assert_eq!(lower_title("nohz entries"), "nohz entries");
        assert_eq!(lower_title("Élan"), "élan");
        assert_eq!(lower_title(""), "");
    }

    #[test]
    fn the_run_table_has_a_row_per_registry_metric() {
        let m = Metrics { context_switches: 1234, ipis: 7, throughput: 2.5, ..Default::default() };
        let text = run_table(None, &[], &m);
        for n in metrics::NAMED.iter().filter(|n| n.key != "throughput") {
            let label = lower_title(n.title);
            assert!(text.lines().any(|l| l.starts_with(&format!("{label}  "))), "no row '{label}':\n{text}");
        }
        assert!(text.lines().any(|l| l.starts_with("context switches") && l.trim_end().ends_with(" 1234")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("throughput") && l.contains("2.500")), "{text}");
        assert!(text.contains("wakeup latency p99") && !text.contains('µ'), "the terminal writes us: {text}");
    }

    #[test]
    fn sweep_columns_are_registry_keys() {
        for k in SWEEP_COLUMNS {
            assert_eq!(metrics::named(k).map(|n| n.key), Some(*k));
        }
    }

    #[test]
    fn tables_align_numbers_right() {
        let mut t = Table::new(&["value", "n"]);
        t.rows.push(vec!["1ms".into(), "5".into()]);
        t.rows.push(vec!["5000ms".into(), "12345".into()]);
        assert_eq!(t.render(""), "value       n\n1ms         5\n5000ms  12345\n");
    }

    #[test]
    fn numbers_keep_a_readable_precision() {
        assert_eq!(num(0.0), "0");
        assert_eq!(num(34.27), "34.270");
        assert_eq!(num(1234.56), "1234.6");
        assert_eq!(num(0.000_75), "0.000750");
        assert_eq!(num(f64::NAN), "-");
        assert_eq!(change(4.96, 4.33), "+14.5%");
        assert_eq!(change(1.0, 0.0), "-");
    }

    #[test]
    fn run_json_keeps_config_keys_in_order() {
        let text = run_json(&Config::default(), &Metrics::default()).unwrap();
        assert!(text.starts_with("{\"config\":{\"cpu\":\"skylake-sp\",\"cores\":\"2\""), "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["config"]["duration"], "200ms");
        assert!(v["metrics"]["wakeup_latency_us"]["p99"].is_number());
    }
}
