//! Pure formatting for the UI: numbers with units, the displayed metrics (from the engine's registry), deltas.
//!
//! No yew or web-sys here, so everything is tested natively.

use crate::engine::config::{KeyDoc, KeyKind};
use crate::engine::metrics::{Metrics, Named, StopReason};
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
        crate::engine::decimal::sci(x, 3)
    } else if a >= 1000.0 {
        let s = count(a.round() as u64);
        if x < 0.0 {
            format!("-{s}")
        } else {
            s
        }
    } else if a >= 100.0 {
        crate::engine::decimal::fixed(x, 1)
    } else if a >= 10.0 {
        crate::engine::decimal::fixed(x, 2)
    } else if a >= 1.0 {
        crate::engine::decimal::fixed(x, 3)
    } else if a >= 0.001 {
        // Four significant digits: a hackbench row's 0.003253 s is not 0.003.
        let decimals = (3 - a.log10().floor() as i32).clamp(3, 6) as usize;
        crate::engine::decimal::fixed(x, decimals)
    } else {
        crate::engine::decimal::sci(x, 2)
    }
}

/// A count's mean over seeds: `88` when whole (a count is an integer: not `88.00`),
/// else one decimal, `88.4`, grouped from 1,000 (`num`).
pub fn count_mean(x: f64) -> String {
    if x.is_finite() && (x - x.round()).abs() < 1e-9 && x.abs() < 1e15 {
        let c = count(x.abs().round() as u64);
        return if x < 0.0 { format!("-{c}") } else { c };
    }
    if x.abs() >= 1000.0 {
        num(x)
    } else {
        crate::engine::decimal::fixed(x, 1)
    }
}

/// The unit of CPU busy on `cores` CPUs: the figure is summed over them, so it reads
/// against the whole (`% of 200%` on 2 CPUs: 110% is not an overload).
pub fn busy_unit(cores: u32) -> String {
    format!("% of {}%", u64::from(cores.max(1)) * 100)
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
        Some(d) if d > 0.0 => format!("+{}%", crate::engine::decimal::fixed(d, 1)),
        Some(d) => format!("−{}%", crate::engine::decimal::fixed(d.abs(), 1)),
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

/// The metrics the panel and the compare table display, in display order: the registry's
/// (`engine::metrics::NAMED` with `panel`), `throughput` first (its unit comes from the run).
/// Each one's `key` is its `data-metric` attribute.
pub fn metrics() -> impl Iterator<Item = &'static Named> {
    crate::engine::metrics::panel()
}

/// The panel's metric `key` (or an old spelling of it), if the registry has it.
pub fn metric(key: &str) -> Option<&'static Named> {
    crate::engine::metrics::named(key)
}

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
        // Seconds under a millisecond: `106 µs`, not `1.06e-4 s`.
        "s" if a > 0.0 && a < 1e-3 => (1e-6, "µs"),
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

/// The unit to print beside a metric's value in the page (throughput's comes from the run),
/// in the page's spelling; none for a count (its title says what it counts).
pub fn metric_unit(def: &Named, m: &Metrics) -> String {
    if def.key == "throughput" {
        unit_text(&m.throughput_unit)
    } else if def.count {
        String::new()
    } else {
        def.unit.to_string()
    }
}

/// The printed value of a metric (without its unit).
pub fn metric_value(def: &Named, m: &Metrics) -> String {
    let v = (def.get)(m);
    if def.count {
        count(v.max(0.0) as u64)
    } else {
        num(v)
    }
}

/// The value and unit as the metrics panel shows them: time units grow to ms and s
/// (`scaled`), counts are grouped.
pub fn metric_display(def: &Named, m: &Metrics) -> (String, String) {
    if def.count {
        (metric_value(def, m), metric_unit(def, m))
    } else {
        scaled((def.get)(m), &metric_unit(def, m))
    }
}

/// The title of a metric; the main result names its measure from the run's unit
/// ("Time per round trip", "Throughput", "Time to finish": `metrics::result_title`).
pub fn metric_label(def: &Named, m: &Metrics) -> String {
    if def.key != "throughput" {
        return def.title.to_string();
    }
    crate::engine::metrics::result_title(&m.throughput_unit)
}

/// A title with its unit in brackets, `Wakeup latency p99 (µs)`; the title alone when the
/// unit is empty or only repeats it (`Ticks`, not `Ticks (ticks)`).
pub fn with_unit(title: &str, unit: &str) -> String {
    if unit.is_empty() || unit.eq_ignore_ascii_case(title) {
        title.to_string()
    } else {
        format!("{title} ({unit})")
    }
}

/// A relative change smaller than this (in percent) is not called better or worse: one run
/// on each side cannot tell it from the variation a different seed brings.
pub const NOISE_PERCENT: f64 = 1.0;

/// Whether a change from `a` to `b` of this metric is better, worse or neutral: neutral when
/// the metric has no direction or the change is within `NOISE_PERCENT`.
pub fn verdict(def: &Named, a: &Metrics, b: &Metrics) -> Option<bool> {
    let (va, vb) = ((def.get)(a), (def.get)(b));
    if va == vb || delta_percent(va, vb).is_some_and(|d| d.abs() < NOISE_PERCENT) {
        return None;
    }
    better_way(def, b, va, vb)
}

/// Whether going from `va` to `vb` is better (None: the metric has no direction, or the
/// values are equal); `b` gives the run's own direction for the main result.
pub fn better_way(def: &Named, b: &Metrics, va: f64, vb: f64) -> Option<bool> {
    let better_high = if def.key == "throughput" { Some(b.higher_is_better) } else { def.higher_is_better };
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
        let mut keys: Vec<_> = metrics().map(|m| m.key).collect();
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n);
        let a = Metrics { throughput: 10.0, higher_is_better: true, context_switches: 5, ..Default::default() };
        let b = Metrics { throughput: 12.0, higher_is_better: true, context_switches: 9, ..Default::default() };
        let tp = metric("throughput").unwrap();
        let cs = metric("context_switches").unwrap();
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
        let p99 = metric("wakeup_latency_p99").unwrap();
        let m = Metrics { wakeup_latency_us: Percentiles { p99: 29360.0, ..Default::default() }, ..Default::default() };
        assert_eq!(metric_display(p99, &m), ("29.36".to_string(), "ms".to_string()));
    }

    #[test]
    fn a_unit_that_repeats_the_title_is_not_repeated() {
        assert_eq!(with_unit("Ticks", "ticks"), "Ticks", "not `ticks (ticks)` (issue 29)");
        assert_eq!(with_unit("Wakeup latency p99", "µs"), "Wakeup latency p99 (µs)");
        assert_eq!(with_unit("Result", ""), "Result");
    }

    #[test]
    fn issue_29_slips_counts_are_whole_tiny_seconds_are_microseconds_busy_says_out_of_what() {
        assert_eq!(count_mean(88.0), "88", "a mean of identical counts is not 88.00");
        assert_eq!(count_mean(88.4), "88.4");
        assert_eq!(count_mean(12345.0), "12,345");
        assert_eq!(scaled(1.06e-4, "s"), ("106.0".to_string(), "µs".to_string()), "not 1.06e-4 s");
        assert_eq!(scaled(0.2423, "s"), ("0.2423".to_string(), "s".to_string()));
        assert_eq!(busy_unit(2), "% of 200%");
    }

    #[test]
    fn the_main_result_names_its_measure() {
        let tp = metric("throughput").unwrap();
        let label = |u: &str| metric_label(tp, &Metrics { throughput_unit: u.into(), ..Default::default() });
        assert_eq!(label("us/round trip"), "Time per round trip");
        assert_eq!(label("us/loop"), "Time per loop");
        assert_eq!(label("s"), "Time to finish");
        assert_eq!(label("Gbit/s"), "Throughput");
        assert_eq!(label("requests/s"), "Requests per second");
        assert_eq!(label("% periods met"), "Result (periods met)");
        assert_eq!(label(""), "Result");
        let cs = metric("context_switches").unwrap();
        assert_eq!(metric_label(cs, &Metrics::default()), "Context switches");
    }

    #[test]
    fn changes_within_noise_or_without_direction_are_not_coloured() {
        let ipis = metric("ipis").unwrap();
        let a = Metrics { ipis: 200_000, context_switches: 1000, ..Default::default() };
        let b = Metrics { ipis: 199_999, context_switches: 1005, ..Default::default() };
        assert_eq!(verdict(ipis, &a, &b), None, "Resched IPIs have no better or worse");
        let cs = metric("context_switches").unwrap();
        assert_eq!(verdict(cs, &a, &b), None, "+0.5% is within noise");
        let c = Metrics { context_switches: 1100, ..Default::default() };
        assert_eq!(verdict(cs, &a, &c), Some(false));
    }

    #[test]
    fn every_metric_has_a_one_line_help() {
        for d in metrics() {
            assert!(d.help.len() > 30 && !d.help.contains('\n'), "{}: {}", d.key, d.help);
        }
        let busy = metric("cpu_percent").unwrap();
        assert!(busy.help.contains("summed over all CPUs"));
    }

    #[test]
    fn stop_reasons_are_explained_except_completion() {
        assert_eq!(stop_reason_text(Some(StopReason::Completed)), None);
        assert!(stop_reason_text(Some(StopReason::EventBudget)).unwrap().contains("max_events"));
        assert!(stop_reason_text(None).is_some());
    }
}
