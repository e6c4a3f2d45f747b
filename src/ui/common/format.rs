//! Pure formatting for the UI: numbers with units, the list of displayed metrics, deltas.
//!
//! No yew or web-sys here, so everything is tested natively.

use crate::engine::config::{KeyDoc, KeyKind};
use crate::engine::metrics::{Metrics, StopReason};
use crate::engine::time::{human_duration, Ns};

/// Prints a count with thin groups: `1234567` -> `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Prints a float with about three significant digits, no exponent for ordinary sizes;
/// non-finite values print as an em dash.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let a = x.abs();
    if a == 0.0 {
        "0".into()
    } else if a >= 1e9 {
        format!("{:.3e}", x)
    } else if a >= 1000.0 {
        let s = count(a.round() as u64);
        if x < 0.0 {
            format!("-{s}")
        } else {
            s
        }
    } else if a >= 100.0 {
        format!("{x:.1}")
    } else if a >= 10.0 {
        format!("{x:.2}")
    } else if a >= 1.0 {
        format!("{x:.3}")
    } else if a >= 0.001 {
        // Four significant digits: a hackbench row's 0.003253 s is not 0.003.
        let decimals = (3 - a.log10().floor() as i32).clamp(3, 6) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.2e}")
    }
}

/// A signed relative change in percent, `+12.3%`; `None` when the base is zero.
pub fn delta_percent(a: f64, b: f64) -> Option<f64> {
    if a == 0.0 || !a.is_finite() || !b.is_finite() {
        return None;
    }
    Some((b - a) / a.abs() * 100.0)
}

/// Formats a delta for display: `+4.2%`, `−0.8%`, `±0%`, or `n/a` when there is no base.
pub fn delta_text(d: Option<f64>) -> String {
    match d {
        None => "n/a".into(),
        Some(d) if d.abs() < 0.05 => "±0%".into(),
        Some(d) if d > 0.0 => format!("+{d:.1}%"),
        Some(d) => format!("−{:.1}%", d.abs()),
    }
}

/// Unit of an integer key, for its visible value.
pub fn int_unit(key: &str) -> &'static str {
    match key {
        "cores" => "CPUs",
        "loops" => "round trips",
        "streams" => "streams",
        "jobs" => "jobs",
        "max_events" => "events",
        "nohz_exit_reprograms" => "per exit",
        _ => "",
    }
}

/// The visible value of a key with its unit (`6 ms`, `2 CPUs`, `250 Hz`, `on`).
pub fn key_value(doc: &KeyDoc, text: &str) -> String {
    match doc.kind {
        KeyKind::Duration { .. } => match crate::engine::time::parse_duration(text) {
            Ok(ns) => duration(ns),
            Err(_) => text.to_string(),
        },
        KeyKind::Int { .. } => {
            let unit = int_unit(doc.key);
            let shown = text.parse::<u64>().map(count).unwrap_or_else(|_| text.to_string());
            if unit.is_empty() {
                shown
            } else {
                format!("{shown} {unit}")
            }
        }
        KeyKind::Choice(_) if doc.key == "hz" => format!("{text} Hz"),
        _ => text.to_string(),
    }
}

/// A duration for people: `6 ms`, `750 µs`, `1.25 ms` (trailing zeros trimmed; the page
/// writes µs where the config syntax and the terminal write `us`).
pub fn duration(ns: Ns) -> String {
    let h = human_duration(ns);
    // "6.00 ms" -> "6 ms", "1.50 ms" -> "1.5 ms".
    let (n, unit) = h.split_once(' ').unwrap_or((h.as_str(), ""));
    let n = if n.contains('.') { n.trim_end_matches('0').trim_end_matches('.') } else { n };
    let unit = if unit == "us" { "µs" } else { unit };
    if unit.is_empty() {
        n.to_string()
    } else {
        format!("{n} {unit}")
    }
}

/// One metric the panels display: its key (the `data-metric` attribute), label and unit.
pub struct MetricDef {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    /// Which way is better: Some(true) higher, Some(false) lower, None neutral.
    pub better: Option<bool>,
    pub get: fn(&Metrics) -> f64,
    /// Counters print as integers.
    pub integer: bool,
    /// One line for people: what it counts, over what, and the basis of a percentage.
    pub help: &'static str,
}

/// Every metric shown in the metrics panel and the compare table, in display order.
/// `throughput` is first; its unit comes from the run (`Metrics::throughput_unit`).
pub const METRICS: &[MetricDef] = &[
    MetricDef { key: "throughput", label: "Result", unit: "", better: None, get: |m| m.throughput, integer: false,
        help: "The workload's own figure of merit over the whole run; its name and unit say which (time per round trip, Gbit/s, seconds to finish, periods met).",
    },
    MetricDef { key: "elapsed_s", label: "Elapsed", unit: "s", better: None, get: |m| m.elapsed_s, integer: false,
        help: "Simulated wall-clock time from the start until the workload finished its work (or the duration limit).",
    },
    MetricDef {
        key: "cpu_percent",
        label: "CPU busy",
        unit: "%",
        better: None,
        get: |m| m.cpu_percent,
        integer: false,
        help: "CPU time in tasks (user + system) over elapsed time, summed over all CPUs like time's CPU%: 200% is two CPUs busy all along.",
    },
    MetricDef {
        key: "context_switches",
        label: "Context switches",
        unit: "",
        better: Some(false),
        get: |m| m.context_switches as f64,
        integer: true,
        help: "Times any CPU switched from one task to another (idle included), summed over all CPUs for the whole run.",
    },
    MetricDef {
        key: "migrations",
        label: "Migrations",
        unit: "",
        better: Some(false),
        get: |m| m.migrations as f64,
        integer: true,
        help: "Times a task was moved to another CPU's runqueue (at wakeup or by load balancing), over the whole run.",
    },
    MetricDef {
        key: "ipis",
        label: "Resched IPIs",
        unit: "",
        better: None,
        get: |m| m.ipis as f64,
        integer: true,
        help: "Reschedule interrupts sent to another CPU so it looks at its runqueue (a polling idle CPU needs none); neither better nor worse on its own.",
    },
    MetricDef {
        key: "timer_reprograms",
        label: "Timer reprograms",
        unit: "",
        better: Some(false),
        get: |m| m.timer_reprograms as f64,
        integer: true,
        help: "Writes of a CPU's clock-event device (stopping or restarting the tick, hrtick), summed over all CPUs.",
    },
    MetricDef {
        key: "nohz_entries",
        label: "nohz entries",
        unit: "",
        better: None,
        get: |m| m.nohz_entries as f64,
        integer: true,
        help: "Times an idle CPU stopped its periodic tick (nohz idle), summed over all CPUs.",
    },
    MetricDef { key: "ticks", label: "Ticks", unit: "", better: None, get: |m| m.ticks as f64, integer: true,
        help: "Scheduler ticks handled, summed over all CPUs (HZ per second on each CPU whose tick runs).",
    },
    MetricDef {
        key: "hrtick_fires",
        label: "hrtick fires",
        unit: "",
        better: None,
        get: |m| m.hrtick_fires as f64,
        integer: true,
        help: "High-resolution tick timers that fired to end a slice on time (hrtick on only).",
    },
    MetricDef {
        key: "wakeup_latency_us.p50",
        label: "Wakeup latency p50",
        unit: "µs",
        better: Some(false),
        get: |m| m.wakeup_latency_us.p50,
        integer: false,
        help: "Median time from a task's wakeup to its running on a CPU, over every wakeup in the run.",
    },
    MetricDef {
        key: "wakeup_latency_us.p99",
        label: "Wakeup latency p99",
        unit: "µs",
        better: Some(false),
        get: |m| m.wakeup_latency_us.p99,
        integer: false,
        help: "99th percentile of the time from a task's wakeup to its running on a CPU, over every wakeup in the run.",
    },
    MetricDef {
        key: "energy_j",
        label: "Energy (estimate)",
        unit: "J",
        better: Some(false),
        get: |m| m.energy_j,
        integer: false,
        help: "Estimated energy of the run's CPUs: busy time at the profile's active power plus idle time at each C-state's power (profile::power_model; assumptions marked there).",
    },
    MetricDef {
        key: "energy_per_work",
        label: "Energy per unit of work",
        unit: "J",
        better: Some(false),
        get: |m| m.energy_per_work,
        integer: false,
        help: "Energy divided by the work done (the main result's units of work): lower is more efficient.",
    },
    MetricDef {
        key: "wasted_cpu_s",
        label: "Wasted CPU (idle while a task waited)",
        unit: "s",
        better: Some(false),
        get: |m| m.wasted_cpu_s,
        integer: false,
        help: "CPU time spent idle while a runnable task waited over 1 ms on another CPU (the Wasted Cores pathology), summed over CPUs.",
    },
    MetricDef {
        key: "governor_score.right",
        label: "Governor: right state",
        unit: "",
        better: Some(true),
        get: |m| m.governor_score.right as f64,
        integer: true,
        help: "Idle periods whose chosen C-state was the best one in hindsight (deep enough to pay off, no deeper).",
    },
    MetricDef {
        key: "governor_score.too_deep",
        label: "Governor: too deep",
        unit: "",
        better: Some(false),
        get: |m| m.governor_score.too_deep as f64,
        integer: true,
        help: "Idle periods too short for the chosen C-state's target residency: its exit latency was paid for little saving.",
    },
    MetricDef {
        key: "governor_score.too_shallow",
        label: "Governor: too shallow",
        unit: "",
        better: Some(false),
        get: |m| m.governor_score.too_shallow as f64,
        integer: true,
        help: "Idle periods long enough for a deeper C-state than the one chosen: power left on the table.",
    },
    MetricDef {
        key: "governor_score.miss_energy_mj",
        label: "Governor misses' energy",
        unit: "mJ",
        better: Some(false),
        get: |m| m.governor_score.miss_energy_mj,
        integer: false,
        help: "Energy the governor's wrong choices cost against the best state in hindsight, in millijoules.",
    },
];

/// The page's spelling of a unit: the engine and the terminal write `us`, the page `µs`
/// (`us/round trip` -> `µs/round trip`).
pub fn unit_text(unit: &str) -> String {
    match unit.strip_prefix("us") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("µs{rest}"),
        _ => unit.to_string(),
    }
}

/// The divisor and unit a time value of size `reference` is shown in: µs grow to ms and s
/// (and ms to s) so a figure never needs more than four digits before the point. Other
/// units are kept (divisor 1). A unit with a tail (`µs/round trip`) keeps the tail.
pub fn time_scale(reference: f64, unit: &str) -> (f64, String) {
    let unit = unit_text(unit);
    let (head, rest) = match unit.find('/') {
        Some(i) => (&unit[..i], &unit[i..]),
        None => (unit.as_str(), ""),
    };
    let a = reference.abs();
    let (div, head) = match head {
        "µs" if a >= 1e6 => (1e6, "s"),
        "µs" if a >= 1e3 => (1e3, "ms"),
        "ms" if a >= 1e3 => (1e3, "s"),
        _ => return (1.0, unit.clone()),
    };
    (div, format!("{head}{rest}"))
}

/// A value in its unit for people: (29360, `µs`) -> (`29.36`, `ms`) (`time_scale`).
pub fn scaled(value: f64, unit: &str) -> (String, String) {
    let (div, unit) = time_scale(value, unit);
    (num(value / div), unit)
}

/// The unit to print for a metric (throughput's comes from the run), in the page's spelling.
pub fn metric_unit(def: &MetricDef, m: &Metrics) -> String {
    if def.key == "throughput" {
        unit_text(&m.throughput_unit)
    } else {
        def.unit.to_string()
    }
}

/// The printed value of a metric (without its unit).
pub fn metric_value(def: &MetricDef, m: &Metrics) -> String {
    let v = (def.get)(m);
    if def.integer {
        count(v.max(0.0) as u64)
    } else {
        num(v)
    }
}

/// The value and unit as the metrics panel shows them: time units grow to ms and s
/// (`scaled`), counts are grouped.
pub fn metric_display(def: &MetricDef, m: &Metrics) -> (String, String) {
    if def.integer {
        (metric_value(def, m), metric_unit(def, m))
    } else {
        scaled((def.get)(m), &metric_unit(def, m))
    }
}

/// The label of a metric; the main result names its measure from the run's unit
/// ("Time per round trip", "Throughput", "Time to finish").
pub fn metric_label(def: &MetricDef, m: &Metrics) -> String {
    if def.key != "throughput" {
        return def.label.to_string();
    }
    let unit = m.throughput_unit.as_str();
    match unit.split_once('/') {
        _ if unit.is_empty() => "Result".into(),
        Some((_, per)) if unit.starts_with("us") || unit.starts_with("ms") || unit.starts_with("ns") => {
            format!("Time per {per}")
        }
        Some(("Gbit" | "Mbit", "s")) => "Throughput".into(),
        Some((what, "s")) if !what.is_empty() => {
            let mut c = what.chars();
            let first: String = c.next().map(|f| f.to_uppercase().collect()).unwrap_or_default();
            format!("{first}{} per second", c.as_str())
        }
        _ if unit == "s" => "Time to finish".into(),
        _ if unit.starts_with('%') => format!("Result ({})", unit.trim_start_matches('%').trim()),
        _ => "Result".into(),
    }
}

/// A relative change smaller than this (in percent) is not called better or worse: one run
/// on each side cannot tell it from the variation a different seed brings.
pub const NOISE_PERCENT: f64 = 1.0;

/// Whether a change from `a` to `b` of this metric is better, worse or neutral: neutral when
/// the metric has no direction or the change is within `NOISE_PERCENT`.
pub fn verdict(def: &MetricDef, a: &Metrics, b: &Metrics) -> Option<bool> {
    let (va, vb) = ((def.get)(a), (def.get)(b));
    if va == vb || delta_percent(va, vb).is_some_and(|d| d.abs() < NOISE_PERCENT) {
        return None;
    }
    better_way(def, b, va, vb)
}

/// Whether going from `va` to `vb` is better (None: the metric has no direction, or the
/// values are equal); `b` gives the run's own direction for the main result.
pub fn better_way(def: &MetricDef, b: &Metrics, va: f64, vb: f64) -> Option<bool> {
    let better_high = if def.key == "throughput" { Some(b.higher_is_better) } else { def.better };
    better_high.filter(|_| va != vb).map(|high| (vb > va) == high)
}

/// A sentence for a run that did not simply complete (None when there is nothing to say).
pub fn stop_reason_text(r: Option<StopReason>) -> Option<&'static str> {
    match r {
        Some(StopReason::Completed) => None,
        Some(StopReason::TimeLimit) => Some("Stopped at the time limit (duration): figures cover that window."),
        Some(StopReason::EventBudget) => {
            Some("Stopped by the event budget (max_events): shorten the run or raise the budget.")
        }
        None => Some("The engine reported no stop reason (an empty run)."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::key_doc;
    use crate::engine::metrics::Percentiles;
    use crate::engine::time::{MS, US};

    #[test]
    fn counts_group_thousands() {
        for (n, s) in [(0, "0"), (999, "999"), (1000, "1,000"), (1234567, "1,234,567"), (100000, "100,000")] {
            assert_eq!(count(n), s);
        }
    }

    #[test]
    fn floats_keep_three_digits_and_name_nonsense() {
        assert_eq!(num(0.0), "0");
        assert_eq!(num(2.71234), "2.712");
        assert_eq!(num(0.71234), "0.7123");
        assert_eq!(num(0.0032534), "0.003253", "small figures keep four significant digits");
        assert_eq!(num(-0.0201), "-0.02010");
        assert_eq!(num(12.345), "12.35");
        assert_eq!(num(123.45), "123.5");
        assert_eq!(num(12345.6), "12,346");
        assert_eq!(num(-12345.6), "-12,346");
        assert_eq!(num(f64::NAN), "—");
        assert_eq!(num(f64::INFINITY), "—");
    }

    #[test]
    fn deltas_are_relative_to_a() {
        assert_eq!(delta_text(delta_percent(100.0, 110.0)), "+10.0%");
        assert_eq!(delta_text(delta_percent(200.0, 150.0)), "−25.0%");
        assert_eq!(delta_text(delta_percent(0.0, 5.0)), "n/a");
        assert_eq!(delta_text(delta_percent(5.0, 5.0)), "±0%");
    }

    #[test]
    fn key_values_carry_units() {
        let d = key_doc("rr_interval").unwrap();
        assert_eq!(key_value(d, "6ms"), "6 ms");
        assert_eq!(key_value(d, "1500us"), "1.5 ms");
        assert_eq!(key_value(key_doc("cores").unwrap(), "2"), "2 CPUs");
        assert_eq!(key_value(key_doc("max_events").unwrap(), "2000000"), "2,000,000 events");
        assert_eq!(key_value(key_doc("hz").unwrap(), "250"), "250 Hz");
        assert_eq!(key_value(key_doc("nohz").unwrap(), "on"), "on");
        assert_eq!(duration(750 * US), "750 µs");
        assert_eq!(duration(6 * MS), "6 ms");
        assert_eq!(duration(0), "0 ns");
    }

    #[test]
    fn metric_keys_are_unique_and_verdicts_follow_direction() {
        let mut keys: Vec<_> = METRICS.iter().map(|m| m.key).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), METRICS.len());
        let a = Metrics { throughput: 10.0, higher_is_better: true, context_switches: 5, ..Default::default() };
        let b = Metrics { throughput: 12.0, higher_is_better: true, context_switches: 9, ..Default::default() };
        let tp = METRICS.iter().find(|m| m.key == "throughput").unwrap();
        let cs = METRICS.iter().find(|m| m.key == "context_switches").unwrap();
        assert_eq!(verdict(tp, &a, &b), Some(true));
        assert_eq!(verdict(cs, &a, &b), Some(false));
        assert_eq!(verdict(cs, &a, &a), None);
        assert_eq!(metric_value(cs, &b), "9");
        assert_eq!(metric_unit(tp, &Metrics { throughput_unit: "Gbit/s".into(), ..Default::default() }), "Gbit/s");
    }

    #[test]
    fn one_unit_style_microseconds_grow_to_ms_and_s() {
        assert_eq!(unit_text("us/round trip"), "µs/round trip");
        assert_eq!(unit_text("us"), "µs");
        assert_eq!(unit_text("users"), "users");
        assert_eq!(scaled(29360.0, "µs"), ("29.36".to_string(), "ms".to_string()));
        assert_eq!(scaled(16.96, "us/round trip"), ("16.96".to_string(), "µs/round trip".to_string()));
        assert_eq!(scaled(2500.0, "us/loop"), ("2.500".to_string(), "ms/loop".to_string()));
        assert_eq!(scaled(3_400_000.0, "µs"), ("3.400".to_string(), "s".to_string()));
        assert_eq!(scaled(999.0, "µs"), ("999.0".to_string(), "µs".to_string()));
        assert_eq!(scaled(34.01, "s"), ("34.01".to_string(), "s".to_string()));
        let p99 = METRICS.iter().find(|m| m.key == "wakeup_latency_us.p99").unwrap();
        let m = Metrics { wakeup_latency_us: Percentiles { p99: 29360.0, ..Default::default() }, ..Default::default() };
        assert_eq!(metric_display(p99, &m), ("29.36".to_string(), "ms".to_string()));
    }

    #[test]
    fn the_main_result_names_its_measure() {
        let tp = METRICS.iter().find(|m| m.key == "throughput").unwrap();
        let label = |u: &str| metric_label(tp, &Metrics { throughput_unit: u.into(), ..Default::default() });
        assert_eq!(label("us/round trip"), "Time per round trip");
        assert_eq!(label("us/loop"), "Time per loop");
        assert_eq!(label("s"), "Time to finish");
        assert_eq!(label("Gbit/s"), "Throughput");
        assert_eq!(label("requests/s"), "Requests per second");
        assert_eq!(label("% periods met"), "Result (periods met)");
        assert_eq!(label(""), "Result");
        let cs = METRICS.iter().find(|m| m.key == "context_switches").unwrap();
        assert_eq!(metric_label(cs, &Metrics::default()), "Context switches");
    }

    #[test]
    fn changes_within_noise_or_without_direction_are_not_coloured() {
        let ipis = METRICS.iter().find(|m| m.key == "ipis").unwrap();
        let a = Metrics { ipis: 200_000, context_switches: 1000, ..Default::default() };
        let b = Metrics { ipis: 199_999, context_switches: 1005, ..Default::default() };
        assert_eq!(verdict(ipis, &a, &b), None, "Resched IPIs have no better or worse");
        let cs = METRICS.iter().find(|m| m.key == "context_switches").unwrap();
        assert_eq!(verdict(cs, &a, &b), None, "+0.5% is within noise");
        let c = Metrics { context_switches: 1100, ..Default::default() };
        assert_eq!(verdict(cs, &a, &c), Some(false));
    }

    #[test]
    fn every_metric_has_a_one_line_help() {
        for d in METRICS {
            assert!(d.help.len() > 30 && !d.help.contains('\n'), "{}: {}", d.key, d.help);
        }
        let busy = METRICS.iter().find(|m| m.key == "cpu_percent").unwrap();
        assert!(busy.help.contains("summed over all CPUs"));
    }

    #[test]
    fn stop_reasons_are_explained_except_completion() {
        assert_eq!(stop_reason_text(Some(StopReason::Completed)), None);
        assert!(stop_reason_text(Some(StopReason::EventBudget)).unwrap().contains("max_events"));
        assert!(stop_reason_text(None).is_some());
    }
}
