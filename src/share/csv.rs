//! CSV exports: one run's metrics as `key,value` rows, and a sweep as one row per value.
//!
//! Nested metrics are flattened with dots, in the order `Metrics` declares its fields:
//! maps by key (`cstate_residency.C6`), per-task stats by task name (`tasks.worker-0.runtime_ns`,
//! or by index when names repeat), the latency histogram by bucket bound
//! (`wakeup_latency_hist.50` is the count of wakeups up to 50 us), other lists by index.
//! A figure of the metric registry (`metrics::NAMED`) is named by its one key: a field it
//! reads under another path is written under the key (`wakeup_latency_us.p99` is
//! `wakeup_latency_p99`, `metrics::ALIASES`), and the registry's derived figures that are no
//! field (`governor_right`) follow the fields.
//! Fields are quoted as RFC 4180 says (a field holding `,` `"` CR or LF, or leading or
//! trailing spaces, is wrapped in `"` with `"` doubled); lines end with `\n`. A metric
//! that is not a number (NaN) is an empty cell.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::engine::metrics::{self, Metrics};

/// Quotes one field if it needs it.
pub fn quote(field: &str) -> Cow<'_, str> {
    let needs = field.contains([',', '"', '\n', '\r'])
        || field.starts_with(char::is_whitespace)
        || field.ends_with(char::is_whitespace);
    if needs {
        Cow::Owned(format!("\"{}\"", field.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(field)
    }
}

fn line<'a>(fields: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = fields.into_iter().map(quote).collect::<Vec<_>>().join(",");
    out.push('\n');
    out
}

/// A JSON value whose objects keep their field order (serde_json's `Map` sorts keys).
enum Node {
    Leaf(Value),
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
                Ok(Node::Leaf(Value::Bool(b)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Node, E> {
                Ok(Node::Leaf(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Node, E> {
                Ok(Node::Leaf(n.into()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Node, E> {
                Ok(Node::Leaf(n.into()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Node, E> {
                Ok(Node::Leaf(Value::String(s.to_string())))
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Leaf(Value::Null))
            }
            fn visit_none<E>(self) -> Result<Node, E> {
                Ok(Node::Leaf(Value::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(n) = seq.next_element()? {
                    items.push(n);
                }
                Ok(Node::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut fields = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Node>()? {
                    fields.push((k, v));
                }
                Ok(Node::Object(fields))
            }
        }
        d.deserialize_any(V)
    }
}

/// A number as text: whole floats without `.0` (bucket bounds read `50`, not `50.0`).
fn number_text(v: &Value) -> String {
    match v {
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u.to_string(),
            (_, Some(i), _) => i.to_string(),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            (_, _, Some(f)) => f.to_string(),
            _ => n.to_string(),
        },
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn flatten(prefix: &str, node: &Node, out: &mut Vec<(String, String)>) {
    let join = |k: &str| if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") };
    match node {
        Node::Leaf(v) => out.push((prefix.to_string(), number_text(v))),
        Node::Object(fields) => {
            for (k, v) in fields {
                flatten(&join(k), v, out);
            }
        }
        Node::Array(items) => {
            // (bound, count) pairs: a histogram keyed by its bucket bound.
            let pairs: Option<Vec<(&Value, &Node)>> = items
                .iter()
                .map(|n| match n {
                    Node::Array(p) if p.len() == 2 => match &p[0] {
                        Node::Leaf(b @ Value::Number(_)) => Some((b, &p[1])),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            if let Some(pairs) = pairs.filter(|p| !p.is_empty()) {
                for (bound, count) in pairs {
                    flatten(&join(&number_text(bound)), count, out);
                }
                return;
            }
            // Objects with distinct names: keyed by name (the name itself is the key).
            let names: Option<Vec<&str>> = items
                .iter()
                .map(|n| match n {
                    Node::Object(f) => f.iter().find_map(|(k, v)| match (k.as_str(), v) {
                        ("name", Node::Leaf(Value::String(s))) => Some(s.as_str()),
                        _ => None,
                    }),
                    _ => None,
                })
                .collect();
            let distinct = names.as_ref().is_some_and(|n| {
                let mut s = n.clone();
                crate::engine::order::sort(&mut s);
                s.dedup();
                s.len() == n.len()
            });
            for (i, item) in items.iter().enumerate() {
                match (&names, item) {
                    (Some(names), Node::Object(fields)) if distinct => {
                        for (k, v) in fields.iter().filter(|(k, _)| k != "name") {
                            flatten(&format!("{}.{k}", join(names[i])), v, out);
                        }
                    }
                    _ => flatten(&join(&i.to_string()), item, out),
                }
            }
        }
    }
}

/// The metrics as flat `(key, value)` pairs, in declaration order, each registry figure
/// under its `NAMED` key, then the registry's figures that are no field.
pub fn metrics_rows(m: &Metrics) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // Metrics is plain data: it always serializes, and its JSON always reads back as a Node.
    if let Ok(node) = serde_json::to_string(m).and_then(|s| serde_json::from_str::<Node>(&s)) {
        flatten("", &node, &mut out);
    }
    for (k, _) in &mut out {
        if let Some((_, key)) = metrics::ALIASES.iter().find(|(old, _)| old == k) {
            *k = key.to_string();
        }
    }
    for n in metrics::NAMED {
        if !out.iter().any(|(k, _)| k == n.key) {
            out.push((n.key.to_string(), number_text(&Value::from((n.get)(m)))));
        }
    }
    out
}

/// One run's metrics: a `key,value` header, then one row per flattened metric.
pub fn metrics_csv(m: &Metrics) -> String {
    let mut out = line(["key", "value"]);
    for (k, v) in metrics_rows(m) {
        out.push_str(&line([k.as_str(), v.as_str()]));
    }
    out
}

/// Splits a line this module wrote into its first field, as written (quoted or not), and
/// the rest after the comma.
fn split_first(line: &str) -> (&str, &str) {
    let end = if line.starts_with('"') {
        // The closing quote is a `"` that is not doubled.
        let b = line.as_bytes();
        let mut i = 1;
        while i < b.len() {
            if b[i] == b'"' {
                if b.get(i + 1) == Some(&b'"') {
                    i += 2;
                    continue;
                }
                break;
            }
            i += 1;
        }
        (i + 1).min(line.len())
    } else {
        line.find(',').unwrap_or(line.len())
    };
    (&line[..end], line.get(end + 1..).unwrap_or(""))
}

/// Runs side by side with what they are: `columns` are `(label, config, metrics_csv)`, each
/// CSV as [`metrics_csv`] writes it. The file is a `key,<label>...` header, a `config` row
/// (each run's config as the query of its own link), a `link` row (`link`, the page's share
/// link, in each column), then one row per metric key in the first run's order (keys only
/// another run has follow), a missing value an empty cell. Works on the text, so the page
/// can join the files the worker wrote without reading metrics itself.
pub fn metrics_table(columns: &[(&str, &str, &str)], link: &str) -> String {
    let mut out = line(std::iter::once("key").chain(columns.iter().map(|c| c.0)));
    out.push_str(&line(std::iter::once("config").chain(columns.iter().map(|c| c.1))));
    out.push_str(&line(std::iter::once("link").chain(columns.iter().map(|_| link))));
    let parsed: Vec<Vec<(&str, &str)>> =
        columns.iter().map(|c| c.2.lines().skip(1).filter(|l| !l.is_empty()).map(split_first).collect()).collect();
    let mut keys: Vec<&str> = Vec::new();
    for (k, _) in parsed.iter().flatten() {
        if !keys.contains(k) {
            keys.push(k);
        }
    }
    for k in keys {
        // Fields are already quoted as written: joined, not quoted again.
        let cells = parsed.iter().map(|rows| rows.iter().find(|(key, _)| *key == k).map_or("", |(_, v)| *v));
        out.push_str(&std::iter::once(k).chain(cells).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

/// A sweep of `param`: a `param,value,<metric columns>` header, then one row per
/// `(value, metrics)`. Columns are the union of every row's metrics in first-seen order; a
/// row without a column (say, fewer tasks), or without metrics at all (a point not run yet or
/// failed), leaves the cell empty.
pub fn sweep_csv(param: &str, rows: &[(String, Option<&Metrics>)]) -> String {
    let flat: Vec<Vec<(String, String)>> = rows.iter().map(|(_, m)| m.map(metrics_rows).unwrap_or_default()).collect();
    let mut columns: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for row in &flat {
        for (k, _) in row {
            if seen.insert(k.as_str()) {
                columns.push(k);
            }
        }
    }
    let mut out = line(["param", "value"].into_iter().chain(columns.iter().copied()));
    for ((value, _), row) in rows.iter().zip(&flat) {
        let cells = columns.iter().map(|c| row.iter().find(|(k, _)| k == c).map(|(_, v)| v.as_str()).unwrap_or(""));
        out.push_str(&line([param, value.as_str()].into_iter().chain(cells)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::metrics::{Percentiles, StopReason, TaskStats};

    /// A small RFC 4180 reader, written independently of `quote`, to read exports back.
    fn read_csv(text: &str) -> Vec<Vec<String>> {
        let mut rows = Vec::new();
        let mut row = Vec::new();
        let mut field = String::new();
        let mut chars = text.chars().peekable();
        let mut in_quotes = false;
        while let Some(c) = chars.next() {
            match (in_quotes, c) {
                (true, '"') if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                (true, '"') => in_quotes = false,
                (true, c) => field.push(c),
                (false, '"') if field.is_empty() => in_quotes = true,
                (false, ',') => row.push(std::mem::take(&mut field)),
                (false, '\n') => {
                    row.push(std::mem::take(&mut field));
                    rows.push(std::mem::take(&mut row));
                }
                (false, c) => field.push(c),
            }
        }
        assert!(!in_quotes, "unterminated quote");
        assert!(field.is_empty() && row.is_empty(), "last line without newline");
        rows
    }

    fn sample() -> Metrics {
        Metrics {
            elapsed_s: 1.5,
            throughput: 12345.25,
            throughput_unit: "ops/s, \"loopback\"".into(),
            higher_is_better: true,
            stop_reason: Some(StopReason::TimeLimit),
            context_switches: 42,
            cstate_residency: [("C1".to_string(), 0.25), ("C6".to_string(), 0.75)].into_iter().collect(),
            cstate_entries: [("C6".to_string(), 7)].into_iter().collect(),
            wakeup_latency_us: Percentiles { p50: 3.5, p99: 80.0, max: 120.0, count: 9 },
            wakeup_latency_hist: vec![(10.0, 4), (50.0, 3), (1000.5, 2)],
            overhead_s: [("switch".to_string(), 0.001)].into_iter().collect(),
            cpu_percent: f64::NAN,
            tasks: vec![
                TaskStats { name: "a,b".into(), runtime_ns: 100, ..TaskStats::default() },
                TaskStats { name: "sender".into(), runtime_ns: 200, ..TaskStats::default() },
            ],
            digest: "abc".into(),
            ..Metrics::default()
        }
    }

    #[test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(quote("plain"), "plain");
        assert_eq!(quote(""), "");
        assert_eq!(quote("a,b"), "\"a,b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote("two\nlines"), "\"two\nlines\"");
        assert_eq!(quote("cr\r"), "\"cr\r\"");
        assert_eq!(quote(" padded"), "\" padded\"");
    }

    #[test]
    fn metrics_flatten_in_declared_order_with_nested_keys() {
        let rows = read_csv(&metrics_csv(&sample()));
        assert_eq!(rows[0], ["key", "value"]);
        assert!(rows.iter().all(|r| r.len() == 2), "{rows:?}");
        let get = |k: &str| rows.iter().find(|r| r[0] == k).map(|r| r[1].as_str());
        assert_eq!(rows[1][0], "elapsed_s", "declared order, not alphabetical");
        assert_eq!(get("elapsed_s"), Some("1.5"));
        assert_eq!(get("throughput_unit"), Some("ops/s, \"loopback\""));
        assert_eq!(get("stop_reason"), Some("time_limit"));
        assert_eq!(get("context_switches"), Some("42"));
        assert_eq!(get("cstate_residency.C6"), Some("0.75"));
        assert_eq!(get("cstate_entries.C6"), Some("7"));
        assert_eq!(get("wakeup_latency_p99"), Some("80"), "a registry figure under its one key");
        assert_eq!(get("wakeup_latency_us.p99"), None, "and under no other");
        assert_eq!(get("wakeup_latency_us.count"), Some("9"), "a field the registry does not name keeps its path");
        assert_eq!(get("wakeup_latency_hist.50"), Some("3"));
        assert_eq!(get("wakeup_latency_hist.1000.5"), Some("2"));
        assert_eq!(get("overhead_s.switch"), Some("0.001"));
        assert_eq!(get("cpu_percent"), Some(""), "NaN is an empty cell");
        assert_eq!(get("tasks.a,b.runtime_ns"), Some("100"));
        assert_eq!(get("tasks.sender.runtime_ns"), Some("200"));
        assert_eq!(get("tasks.sender.name"), None, "the name is the key");
        assert_eq!(get("digest"), Some("abc"));
    }

    #[test]
    fn every_registry_metric_is_one_column_under_its_key() {
        let mut m = sample();
        m.governor_score.right = 3;
        m.governor_score.too_deep = 1;
        let rows = metrics_rows(&m);
        let keys: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
        for n in metrics::NAMED {
            assert_eq!(keys.iter().filter(|k| **k == n.key).count(), 1, "{}", n.key);
        }
        for (old, _) in metrics::ALIASES {
            assert!(!keys.contains(old), "{old}");
        }
        let get = |k: &str| rows.iter().find(|r| r.0 == k).map(|r| r.1.as_str());
        assert_eq!(get("governor_right_periods"), Some("3"));
        assert_eq!(get("governor_right"), Some("0.75"), "the derived fraction, after the fields");
        assert_eq!(keys.last(), Some(&"governor_right"));
    }

    #[test]
    fn repeated_task_names_fall_back_to_indices() {
        let m = Metrics {
            tasks: vec![
                TaskStats { name: "cc1".into(), runtime_ns: 1, ..TaskStats::default() },
                TaskStats { name: "cc1".into(), runtime_ns: 2, ..TaskStats::default() },
            ],
            ..Metrics::default()
        };
        let rows = metrics_rows(&m);
        let get = |k: &str| rows.iter().find(|r| r.0 == k).map(|r| r.1.as_str());
        assert_eq!(get("tasks.1.runtime_ns"), Some("2"));
        assert_eq!(get("tasks.1.name"), Some("cc1"));
    }

    #[test]
    fn sweep_has_one_row_per_value_and_a_union_of_columns() {
        let mut b = sample();
        b.tasks.pop();
        b.elapsed_s = 2.0;
        b.cstate_residency.insert("C1E".into(), 0.5);
        let a = sample();
        let text =
            sweep_csv("rr_interval", &[("1ms".into(), Some(&a)), ("6ms".into(), Some(&b)), ("9ms".into(), None)]);
        let rows = read_csv(&text);
        assert_eq!(rows.len(), 4);
        assert_eq!(&rows[0][..3], ["param", "value", "elapsed_s"]);
        assert!(rows.iter().all(|r| r.len() == rows[0].len()), "rectangular");
        let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
        assert_eq!(rows[1][0], "rr_interval");
        assert_eq!((rows[1][1].as_str(), rows[2][1].as_str()), ("1ms", "6ms"));
        assert_eq!(rows[2][col("elapsed_s")], "2");
        assert_eq!(rows[1][col("cstate_residency.C1E")], "", "missing in the first row");
        assert_eq!(rows[2][col("cstate_residency.C1E")], "0.5");
        assert_eq!(rows[2][col("tasks.sender.runtime_ns")], "");
        assert_eq!(rows[3][..2], ["rr_interval", "9ms"], "a point without metrics keeps its row");
        assert!(rows[3][2..].iter().all(String::is_empty), "{:?}", rows[3]);
        assert_eq!(sweep_csv("cores", &[]), "param,value\n");
    }

    #[test]
    fn a_and_b_side_by_side_with_each_config_and_the_link() {
        let a = sample();
        let mut b = sample();
        b.context_switches = 50;
        b.tasks[0].name = "only-b".into();
        let (qa, qb) = ("preset=intro", "preset=intro&hz=1000");
        let link = "https://x.org/?v=1&preset=intro&compare=1&b.hz=1000";
        let text = metrics_table(&[("A", qa, &metrics_csv(&a)), ("B", qb, &metrics_csv(&b))], link);
        let rows = read_csv(&text);
        assert!(rows.iter().all(|r| r.len() == 3), "rectangular: {text}");
        assert_eq!(rows[0], ["key", "A", "B"]);
        assert_eq!(rows[1], ["config", qa, qb]);
        assert_eq!(rows[2], ["link", link, link]);
        let row = |k: &str| rows.iter().find(|r| r[0] == k).unwrap_or_else(|| panic!("no {k} in {text}")).clone();
        assert_eq!(row("context_switches"), ["context_switches", "42", "50"]);
        assert_eq!(
            row("throughput_unit")[1..],
            [a.throughput_unit.clone(), a.throughput_unit.clone()],
            "quoted cells kept"
        );
        assert_eq!(
            row("tasks.a,b.runtime_ns"),
            ["tasks.a,b.runtime_ns", "100", ""],
            "a key only A has: B's cell empty"
        );
        assert_eq!(row("tasks.only-b.runtime_ns"), ["tasks.only-b.runtime_ns", "", "100"], "a key only B has follows");
        // One run: the same file with one column.
        let one = read_csv(&metrics_table(&[("value", qb, &metrics_csv(&b))], link));
        assert_eq!(one[0], ["key", "value"]);
        assert_eq!(one.len(), read_csv(&metrics_csv(&b)).len() + 2, "the config and link rows, then every metric");
    }
}
