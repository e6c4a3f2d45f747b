//! Simulated time: integer nanoseconds, and the one place durations are parsed and printed.
//!
//! Every duration in the engine is a `Ns` (u64 nanoseconds). Floats never order events.
//! Text form: an integer or decimal number followed by a unit `ns`, `us`, `ms` or `s`
//! (`500us`, `0.75ms`, `5000ms`, `1s`). The printed form picks the largest unit that
//! keeps the value exact, so parse(format(x)) == x.

/// Simulated nanoseconds.
pub type Ns = u64;

pub const NS: Ns = 1;
pub const US: Ns = 1_000;
pub const MS: Ns = 1_000_000;
pub const SEC: Ns = 1_000_000_000;

/// `a * b / d` exactly (`d` > 0), as u128: in u64 when the product fits (nearly always in
/// the engine), else in u128. Same result either way; the u64 path avoids a 128-bit
/// multiply and division, which are library calls on wasm32.
#[inline]
pub fn mul_div(a: u64, b: u64, d: u64) -> u128 {
    match a.checked_mul(b) {
        Some(p) => (p / d) as u128,
        None => a as u128 * b as u128 / d as u128,
    }
}

/// Parses `"750us"`, `"0.75ms"`, `"5s"`, `"1200ns"`. Errors name what is wrong.
pub fn parse_duration(text: &str) -> Result<Ns, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(|| format!("'{t}' needs a unit (ns, us, ms or s)"))?;
    let (num, unit) = t.split_at(split);
    let scale: Ns = match unit.trim() {
        "ns" => NS,
        "us" | "µs" => US,
        "ms" => MS,
        "s" => SEC,
        other => return Err(format!("unknown unit '{other}' in '{t}' (use ns, us, ms or s)")),
    };
    if num.is_empty() {
        return Err(format!("'{t}' has no number"));
    }
    let (int_part, frac_part) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    if frac_part.contains('.') {
        return Err(format!("'{t}' is not a number"));
    }
    let int: u64 = if int_part.is_empty() { 0 } else { int_part.parse().map_err(|_| format!("'{t}' is too large"))? };
    let mut value = int.checked_mul(scale).ok_or_else(|| format!("'{t}' is too large"))?;
    // Fraction digits: exact down to the nanosecond, anything finer is an error.
    let mut place = scale;
    for d in frac_part.chars() {
        place /= 10;
        let digit = d.to_digit(10).unwrap_or(0) as u64;
        if place == 0 {
            if digit != 0 {
                return Err(format!("'{t}' is finer than a nanosecond"));
            }
            continue;
        }
        value = value.checked_add(digit * place).ok_or_else(|| format!("'{t}' is too large"))?;
    }
    Ok(value)
}

/// Prints a duration exactly, in the largest unit that divides it (`16ms`, `750us`).
pub fn format_duration(ns: Ns) -> String {
    if ns == 0 {
        return "0ms".to_string();
    }
    for (scale, unit) in [(SEC, "s"), (MS, "ms"), (US, "us")] {
        if ns % scale == 0 {
            return format!("{}{unit}", ns / scale);
        }
    }
    format!("{ns}ns")
}

/// Human-readable, rounded (for labels, not for round trips): `1.25 ms`, `830 us`.
pub fn human_duration(ns: Ns) -> String {
    let f = ns as f64;
    if ns >= SEC {
        format!("{} s", crate::decimal::fixed(f / SEC as f64, 3))
    } else if ns >= MS {
        format!("{} ms", crate::decimal::fixed(f / MS as f64, 2))
    } else if ns >= US {
        format!("{} us", crate::decimal::fixed(f / US as f64, 1))
    } else {
        format!("{ns} ns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_div_equals_the_u128_formula_on_both_paths() {
        let vals = [0, 1, 7, 1_000, 1 << 31, (1 << 32) + 3, 1 << 40, u32::MAX as u64, u64::MAX / 3, u64::MAX];
        for &a in &vals {
            for &b in &vals {
                for &d in &[1, 3, 1_000, 8_192_000, u64::MAX] {
                    assert_eq!(mul_div(a, b, d), a as u128 * b as u128 / d as u128, "{a} * {b} / {d}");
                }
            }
        }
    }

    #[test]
    fn parses_units_and_fractions() {
        assert_eq!(parse_duration("750us"), Ok(750 * US));
        assert_eq!(parse_duration("0.75ms"), Ok(750 * US));
        assert_eq!(parse_duration("5000ms"), Ok(5 * SEC));
        assert_eq!(parse_duration("1.5s"), Ok(1_500 * MS));
        assert_eq!(parse_duration("12ns"), Ok(12));
    }

    #[test]
    fn rejects_bad_text() {
        for bad in ["", "ms", "5", "5 parsecs", "1.2.3ms", "0.0001ns", "99999999999999999999s"] {
            assert!(parse_duration(bad).is_err(), "{bad} should fail");
        }
    }

    #[test]
    fn format_round_trips() {
        for v in [1, 999, 1_000, 1_500, 750 * US, 16 * MS, 5 * SEC, 1_234_567_891] {
            assert_eq!(parse_duration(&format_duration(v)), Ok(v), "{v}");
        }
        assert_eq!(format_duration(16 * MS), "16ms");
    }
}
