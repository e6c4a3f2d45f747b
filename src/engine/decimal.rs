//! An f64's decimal text and a decimal text's f64 by integer arithmetic: the same strings as std's `{:.N}`, `{:.Ne}` and `{}`, the same values as `str::parse::<f64>`; and `f64::clamp` without its panic message (`Within`).
//!
//! Why not std's: the page's wasm carries std's float printing (Grisu with its Dragon
//! fallback, both in a shortest and an exact mode) and parsing (Eisel-Lemire with its table
//! of 128-bit powers of five, and a decimal fallback) as soon as one `{:.1}` or one
//! `parse::<f64>()` is on it: ~23 KB of code and ~11 KB of tables before wasm-opt (issue 26).
//! The page needs only fixed decimals, a mantissa-and-exponent form and a plain parse, none of
//! them hot, so one exact method serves all three: the value is an integer times a power of
//! two, and every quantity is a small big integer (`Big`), divided bit by bit. Rounding is
//! std's: the exact binary value rounded half to even (`format!("{:.1}", 0.25)` is `0.2`,
//! `0.35` is `0.3` since its double is below the tie). The tests hold every function
//! against std for many values.

use std::cmp::Ordering;

/// A non-negative integer, 32-bit limbs, least significant first, no high zero limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }
    fn add_small(&mut self, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            if carry == 0 {
                return;
            }
            let v = u64::from(*limb) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }
    fn mul_pow10(&mut self, mut n: u32) {
        while n >= 9 {
            self.mul_small(1_000_000_000);
            n -= 9;
        }
        self.mul_small(10u32.pow(n));
    }
    /// Divides in place by `d`, returning the remainder.
    fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let v = (rem << 32) | u64::from(*limb);
            *limb = (v / u64::from(d)) as u32;
            rem = v % u64::from(d);
        }
        self.trim();
        rem as u32
    }
    /// The number of significant bits (0 for zero).
    fn bits(&self) -> u32 {
        match self.0.last() {
            None => 0,
            Some(top) => 32 * (self.0.len() as u32 - 1) + (32 - top.leading_zeros()),
        }
    }
    fn bit(&self, i: u32) -> bool {
        self.0.get((i / 32) as usize).is_some_and(|l| l >> (i % 32) & 1 == 1)
    }
    /// Whether any bit below `i` is set.
    fn any_below(&self, i: u32) -> bool {
        let (whole, part) = ((i / 32) as usize, i % 32);
        self.0.iter().take(whole).any(|&l| l != 0)
            || (part > 0 && self.0.get(whole).is_some_and(|&l| l & ((1u32 << part) - 1) != 0))
    }
    fn shl(&self, n: u32) -> Big {
        if self.is_zero() {
            return Big(Vec::new());
        }
        let (whole, part) = ((n / 32) as usize, n % 32);
        let mut out = vec![0u32; whole];
        let mut carry = 0u32;
        for &l in &self.0 {
            out.push(if part == 0 { l } else { (l << part) | carry });
            carry = if part == 0 { 0 } else { l >> (32 - part) };
        }
        out.push(carry);
        let mut b = Big(out);
        b.trim();
        b
    }
    fn shr(&self, n: u32) -> Big {
        let (whole, part) = ((n / 32) as usize, n % 32);
        let limbs = self.0.get(whole..).unwrap_or(&[]);
        let out = (0..limbs.len())
            .map(|i| {
                let hi = limbs.get(i + 1).copied().unwrap_or(0);
                if part == 0 {
                    limbs[i]
                } else {
                    (limbs[i] >> part) | (hi << (32 - part))
                }
            })
            .collect();
        let mut b = Big(out);
        b.trim();
        b
    }
    fn cmp(&self, o: &Big) -> Ordering {
        self.0.len().cmp(&o.0.len()).then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
    /// `self -= o`, for `o <= self`.
    fn sub(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let v = i64::from(*limb) - i64::from(o.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(v < 0);
            *limb = v.rem_euclid(1 << 32) as u32;
        }
        self.trim();
    }
    fn low_u64(&self) -> u64 {
        self.0.iter().take(2).enumerate().fold(0, |acc, (i, &l)| acc | u64::from(l) << (32 * i))
    }
    /// Decimal digits (`0` for zero).
    fn decimal(&self) -> String {
        let mut n = self.clone();
        let mut chunks = Vec::new();
        while !n.is_zero() {
            chunks.push(n.div_small(1_000_000_000));
        }
        let mut s = chunks.pop().map(|c| c.to_string()).unwrap_or_else(|| "0".into());
        for c in chunks.iter().rev() {
            let c = c.to_string();
            s.extend(std::iter::repeat_n('0', 9 - c.len()));
            s.push_str(&c);
        }
        s
    }
}

/// `num / den` for a quotient under 2^64: the quotient, how twice the remainder compares
/// with `den` (`Less`: round down, `Equal`: a tie, `Greater`: round up), and whether the
/// remainder is not zero.
fn divide(num: &Big, den: &Big) -> (u64, Ordering, bool) {
    let mut rem = num.clone();
    let mut q = 0u64;
    for b in (0..64).rev() {
        let d = den.shl(b);
        if rem.cmp(&d) != Ordering::Less {
            rem.sub(&d);
            q |= 1 << b;
        }
    }
    (q, rem.shl(1).cmp(den), !rem.is_zero())
}

/// `|x| * 10^t` as a fraction `num / den` of integers, for `|x| = m * 2^e`.
fn times_pow10(m: u64, e: i32, t: i32) -> (Big, Big) {
    let mut num = Big::from_u64(m).shl(e.max(0) as u32);
    let mut den = Big::from_u64(1).shl((-e).max(0) as u32);
    if t >= 0 {
        num.mul_pow10(t as u32);
    } else {
        den.mul_pow10((-t) as u32);
    }
    (num, den)
}

/// Rounds `q` up when `half` (how the part cut off compares with a half) says so, ties to even.
fn round_even(q: u64, half: Ordering) -> u64 {
    match half {
        Ordering::Greater => q + 1,
        Ordering::Equal if q & 1 == 1 => q + 1,
        _ => q,
    }
}

/// A finite non-negative double as `m * 2^e`.
fn parts(a: f64) -> (u64, i32) {
    let bits = a.to_bits();
    let (exp, frac) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, exp as i32 - 1075)
    }
}

/// The sign and the text of a value that has no digits, as std prints it.
fn special(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("NaN".into())
    } else if x.is_infinite() {
        Some(if x < 0.0 { "-inf" } else { "inf" }.into())
    } else {
        None
    }
}

/// `x` with `decimals` digits after the point: `format!("{x:.decimals$}")` (`-0.0` and a
/// negative value that rounds to zero keep their sign, as std's do).
pub fn fixed(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let (m, e) = parts(x.abs());
    let mut n = Big::from_u64(m);
    n.mul_pow10(decimals as u32);
    let q = if e >= 0 {
        n.shl(e as u32)
    } else {
        let s = (-e) as u32;
        let mut q = n.shr(s);
        let up = n.bit(s - 1) && (n.any_below(s - 1) || q.bit(0));
        if up {
            q.add_small(1);
        }
        q
    };
    let digits = q.decimal();
    let digits =
        if digits.len() <= decimals { format!("{}{digits}", "0".repeat(decimals + 1 - digits.len())) } else { digits };
    let (int, frac) = digits.split_at(digits.len() - decimals);
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// `x` with its sign always written: `format!("{x:+.decimals$}")` (`+1.50`, `-0.25`, `+0.00`).
pub fn plus(x: f64, decimals: usize) -> String {
    let s = fixed(x, decimals);
    if x.is_sign_negative() || x.is_nan() {
        s
    } else {
        format!("+{s}")
    }
}

/// `x` as one digit, `decimals` more after the point, and a power of ten:
/// `format!("{x:.decimals$e}")` (`1.500e9`, `2.50e-4`, `0.000e0`).
pub fn sci(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let p = decimals.min(18) as i32;
    let (q, k) = if x == 0.0 {
        (0, 0)
    } else {
        let (m, e) = parts(x.abs());
        let mut k = x.abs().log10().floor() as i32;
        loop {
            // q = round(|x| * 10^(p - k)), wanted in [10^p, 10^(p+1)).
            let (num, den) = times_pow10(m, e, p - k);
            // Keep the quotient under 2^64: it is about 10^p <= 10^18 when k is right.
            if num.bits() > den.bits() + 63 {
                k += 1;
                continue;
            }
            let (q, half, _) = divide(&num, &den);
            let q = round_even(q, half);
            if q >= 10u64.pow(p as u32 + 1) {
                k += 1;
            } else if q < 10u64.pow(p as u32) {
                k -= 1;
            } else {
                break (q, k);
            }
        }
    };
    let digits = format!("{q:0width$}", width = p as usize + 1);
    let (first, rest) = digits.split_at(1);
    let rest = format!("{rest}{}", "0".repeat(decimals - p as usize));
    if decimals == 0 {
        format!("{sign}{first}e{k}")
    } else {
        format!("{sign}{first}.{rest}e{k}")
    }
}

/// Whether `q * 10^t` is inside (or, `inclusive`, on) the bounds `lo * 2^e2` and `hi * 2^e2`.
fn within(q: u64, t: i32, lo: &Big, hi: &Big, e2: i32, inclusive: bool) -> bool {
    // Both sides times 2^max(-e2, 0) * 10^max(-t, 0), so all are integers.
    let mut c = Big::from_u64(q).shl((-e2).max(0) as u32);
    c.mul_pow10(t.max(0) as u32);
    let scale = |b: &Big| {
        let mut b = b.shl(e2.max(0) as u32);
        b.mul_pow10((-t).max(0) as u32);
        b
    };
    let (lo, hi) = (c.cmp(&scale(lo)), c.cmp(&scale(hi)));
    if inclusive {
        lo != Ordering::Less && hi != Ordering::Greater
    } else {
        lo == Ordering::Greater && hi == Ordering::Less
    }
}

/// `x` in the fewest digits that read back as `x`, never with an exponent: `format!("{x}")`
/// (`1`, `0.1`, `345.6`, `1000000000000000000000`, `0.0000001`, `-0`).
pub fn shortest(x: f64) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0");
    }
    let (m, e) = parts(x.abs());
    // The values that read back as x: between the midpoints to its neighbours, in units of
    // 2^(e - 2); the one below is nearer when m is the lowest mantissa of its binade.
    let lo = if m == 1 << 52 && e > -1074 { 4 * m - 1 } else { 4 * m - 2 };
    let (lo, hi, e2, inclusive) = (Big::from_u64(lo), Big::from_u64(4 * m + 2), e - 2, m & 1 == 0);
    let mut k = x.abs().log10().floor() as i32;
    let (digits, t) = 'found: loop {
        for p in 1..=17i32 {
            // floor(|x| * 10^(p - 1 - k)) and its neighbour above: the p-digit numbers around x.
            let t = p - 1 - k;
            let (num, den) = times_pow10(m, e, t);
            if num.bits() > den.bits() + 63 {
                k += 1;
                continue 'found;
            }
            let (q, half, _) = divide(&num, &den);
            if p == 1 && q == 0 {
                k -= 1;
                continue 'found;
            }
            if p == 1 && q >= 10 {
                k += 1;
                continue 'found;
            }
            let down = within(q, -t, &lo, &hi, e2, inclusive);
            let up = within(q + 1, -t, &lo, &hi, e2, inclusive);
            let pick = match (down, up) {
                // Both read back: the nearer, and on a tie the one above (as std's Grisu and
                // Dragon do: 2^-25 prints as ...2387695313).
                (true, true) => Some(if half == Ordering::Less { q } else { q + 1 }),
                (true, false) => Some(q),
                (false, true) => Some(q + 1),
                _ => None,
            };
            if let Some(q) = pick {
                break 'found (q.to_string(), -t);
            }
        }
        unreachable!("17 digits always read back");
    };
    // Trailing zeros move into the exponent.
    let trimmed = digits.trim_end_matches('0');
    let t = t + (digits.len() - trimmed.len()) as i32;
    let n = trimmed.len() as i32;
    let body = if t >= 0 {
        format!("{trimmed}{}", "0".repeat(t as usize))
    } else if n + t > 0 {
        let (a, b) = trimmed.split_at((n + t) as usize);
        format!("{a}.{b}")
    } else {
        format!("0.{}{trimmed}", "0".repeat((-(n + t)) as usize))
    };
    format!("{sign}{body}")
}

/// The double nearest `q * 2^exp2` (ties to even), where `sticky` says the true value is a
/// little above `q * 2^exp2` (bits cut off below it).
fn to_f64(q: u64, exp2: i64, sticky: bool) -> f64 {
    if q == 0 {
        return 0.0;
    }
    let len = 64 - i64::from(q.leading_zeros());
    // The lowest kept bit: 53 bits for a normal double, 2^-1074 at the least.
    let shift = (len - 53).max(-1074 - exp2);
    if shift > 64 {
        return 0.0;
    }
    let mut exp = exp2 + shift;
    let mut mant = if shift <= 0 {
        q << -shift
    } else {
        let q = u128::from(q);
        let kept = (q >> shift) as u64;
        let half = q >> (shift - 1) & 1 == 1;
        let below = sticky || q & ((1u128 << (shift - 1)) - 1) != 0;
        if half && (below || kept & 1 == 1) {
            kept + 1
        } else {
            kept
        }
    };
    if mant == 1 << 53 {
        mant >>= 1;
        exp += 1;
    }
    if mant < 1 << 52 {
        // Subnormal (exp is -1074).
        return f64::from_bits(mant);
    }
    let biased = exp + 1075;
    if biased >= 0x7ff {
        return f64::INFINITY;
    }
    f64::from_bits((biased as u64) << 52 | (mant & ((1 << 52) - 1)))
}

/// `s.parse::<f64>().ok()`: an optional sign, then digits with an optional point and an
/// optional exponent (`1`, `-2.5`, `.5`, `5.`, `1e-3`, `+7E2`), or `inf`, `infinity` or
/// `nan` in any case; the nearest double, ties to even.
pub fn parse(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let signed = |v: f64| if neg { -v } else { v };
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Some(signed(f64::INFINITY));
    }
    if lower == "nan" {
        return Some(signed(f64::NAN));
    }
    let b = body.as_bytes();
    let mut i = 0;
    let mut digits = Big(Vec::new());
    let (mut count, mut scale) = (0usize, 0i64);
    let mut take = |i: &mut usize, after_point: bool| {
        while let Some(d) = b.get(*i).filter(|c| c.is_ascii_digit()) {
            digits.mul_small(10);
            digits.add_small(u32::from(d - b'0'));
            count += 1;
            scale -= i64::from(after_point);
            *i += 1;
        }
    };
    take(&mut i, false);
    if b.get(i) == Some(&b'.') {
        i += 1;
        take(&mut i, true);
    }
    if count == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let eneg = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e = 0i64;
        while let Some(d) = b.get(i).filter(|c| c.is_ascii_digit()) {
            e = (e * 10 + i64::from(d - b'0')).min(1 << 40);
            i += 1;
        }
        if i == start {
            return None;
        }
        scale += if eneg { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    if digits.is_zero() {
        return Some(signed(0.0));
    }
    // The value is digits * 10^scale; its decimal exponent is below digits' length + scale.
    let len = digits.decimal().len() as i64;
    if len + scale > 310 {
        return Some(signed(f64::INFINITY));
    }
    if len + scale < -330 {
        return Some(signed(0.0));
    }
    let v = if scale >= 0 {
        let mut n = digits;
        n.mul_pow10(scale as u32);
        let cut = n.bits().saturating_sub(64);
        to_f64(n.shr(cut).low_u64(), i64::from(cut), n.any_below(cut))
    } else {
        let mut den = Big::from_u64(1);
        den.mul_pow10((-scale) as u32);
        // A quotient of 63 or 64 bits: num * 2^s / den.
        let s = 63 + i64::from(den.bits()) - i64::from(digits.bits());
        let (num, den) = if s >= 0 { (digits.shl(s as u32), den) } else { (digits, den.shl((-s) as u32)) };
        let (q, _, inexact) = divide(&num, &den);
        to_f64(q, -s, inexact)
    };
    Some(signed(v))
}

/// `f64::clamp` without its panic: std's asserts `min <= max` with a message that prints both
/// bounds by `{:?}`, and that message alone kept std's float printing on the page (issue 26).
/// The same result as std's whenever the bounds are in order (a NaN stays NaN, `-0.0` stays
/// `-0.0`); bounds out of order, where std panics, are checked in debug builds only.
pub trait Within {
    fn within(self, lo: f64, hi: f64) -> f64;
}

impl Within for f64 {
    fn within(self, lo: f64, hi: f64) -> f64 {
        debug_assert!(lo <= hi, "bounds out of order");
        if self < lo {
            lo
        } else if self > hi {
            hi
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of every kind: small and large, exact ties in binary, near-ties, powers of
    /// two and ten, subnormals, and a deterministic spread of bit patterns.
    fn values() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            0.25,
            0.35,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.125,
            0.375,
            1.0,
            9.9996,
            9.5,
            99.95,
            999.95,
            0.0005,
            0.00049999,
            1e-7,
            1e21,
            1e22,
            1e23,
            123456789.0,
            0.1,
            0.2,
            0.3,
            1.0 / 3.0,
            2.0 / 3.0,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-310,
            f64::from_bits(0x000f_ffff_ffff_ffff),
            0.001,
            0.0032534,
            1e9,
            999999999.5,
            4503599627370496.5,
            9007199254740993.0,
            6.02e23,
            29.36,
            106.0,
            1.005,
            2.675,
            1.45,
            -0.05,
            0.05,
        ];
        for k in -30..=30 {
            v.push(10f64.powi(k));
            v.push(2f64.powi(k));
            v.push(1.5 * 10f64.powi(k));
        }
        let mut z = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..4000 {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            let x = f64::from_bits(z);
            if x.is_finite() {
                v.push(x);
            }
            // Ordinary sizes too: a random mantissa times a power of ten the page meets.
            v.push((z >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((z % 24) as i32 - 12));
        }
        v
    }

    #[test]
    fn fixed_matches_std_for_every_value_and_precision() {
        for x in values() {
            for d in 0..=8 {
                assert_eq!(fixed(x, d), format!("{x:.d$}"), "{x:e} at {d} decimals");
                assert_eq!(plus(x, d), format!("{x:+.d$}"), "{x:e} at {d} decimals");
            }
        }
    }

    #[test]
    fn sci_matches_std_for_every_value_and_precision() {
        for x in values() {
            for d in 0..=6 {
                assert_eq!(sci(x, d), format!("{x:.d$e}"), "{x:e} at {d} decimals");
            }
        }
    }

    #[test]
    fn shortest_matches_std_for_every_value() {
        for x in values() {
            assert_eq!(shortest(x), format!("{x}"), "{x:e}");
        }
    }

    #[test]
    fn within_is_std_clamp_for_bounds_in_order() {
        let bounds = [(0.0, 1.0), (-1.0, 1.0), (-0.0, 0.0), (2.0, 2.0), (f64::NEG_INFINITY, 5.0), (1e-300, 1e300)];
        let mut xs = values();
        xs.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0]);
        for (lo, hi) in bounds {
            for &x in &xs {
                assert_eq!(x.within(lo, hi).to_bits(), x.clamp(lo, hi).to_bits(), "{x:e} in {lo}..{hi}");
            }
        }
    }

    #[test]
    fn specials_print_as_std_prints_them() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(fixed(x, 2), format!("{x:.2}"));
            assert_eq!(sci(x, 2), format!("{x:.2e}"));
            assert_eq!(shortest(x), format!("{x}"));
            assert_eq!(plus(x, 1), format!("{x:+.1}"));
        }
    }

    #[test]
    fn ties_round_to_even_as_std_does() {
        assert_eq!(fixed(0.25, 1), "0.2");
        assert_eq!(fixed(0.75, 1), "0.8");
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fixed(-0.01, 1), "-0.0");
        assert_eq!(sci(2.5, 0), "2e0");
        assert_eq!(sci(9.9996, 3), "1.000e1");
    }

    #[test]
    fn parse_matches_std_for_printed_values_and_odd_texts() {
        let mut texts: Vec<String> = values()
            .iter()
            .flat_map(|x| [format!("{x}"), format!("{x:e}"), format!("{x:.3}"), format!("{x:.17e}")])
            .collect();
        for t in [
            "",
            "+",
            "-",
            ".",
            "e5",
            "1e",
            "1e+",
            "1.",
            ".5",
            "-.5",
            "+7E2",
            "1e-400",
            "1e400",
            "inf",
            "-Infinity",
            "NaN",
            "nan",
            "in",
            "1_0",
            " 1",
            "1 ",
            "0x10",
            "00012.5000",
            "1e-2147483649",
            "9007199254740993",
            "2.2250738585072011e-308",
            "4.9406564584124654e-324",
            "2.4703282292062328e-324",
            "2.4703282292062327e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "0.000000000000000000000000000000000000000000001",
            "123456789012345678901234567890",
            "1e23",
            "8.98846567431158e307",
            "0.1e1",
            "5e-324",
            "3e-324",
            "2e-324",
        ] {
            texts.push(t.to_string());
        }
        for t in &texts {
            let ours = parse(t);
            let std = t.parse::<f64>().ok();
            assert_eq!(ours.map(f64::to_bits), std.map(f64::to_bits), "{t:?}: {ours:?} against {std:?}");
        }
    }
}
