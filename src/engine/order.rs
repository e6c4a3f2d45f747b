//! Sorting with one copy of the standard library's sort, for code the page's wasm carries
//! (the UI, and what of `explain` and `share` it calls); the simulation's own sorts stay
//! the standard ones (this is slower: a `dyn` call per comparison).
//!
//! Every `slice::sort_by_key` (and `sort_unstable`, `sort_by`) is a new instance of the
//! standard sort for its element type and closure, about 5 KB of wasm each: the page had 21
//! stable and 4 unstable instances, 108 KB of its code (issue 26, page weight). Here the
//! order is found once, on indices, by a single instance sorting `u32`s through a `dyn`
//! comparison; the generic part left per call site only applies the permutation. The order
//! is the stable sort's: equal keys keep their order (so it is also `sort_unstable`'s result
//! for keys that are the whole element).

use std::cmp::Ordering;

/// The stable order of `n` items under `cmp` on their indices: `p[i]` is the index of the
/// item that goes to place `i`. The one instance of the standard sort (not inlined, so each
/// caller shares it).
#[inline(never)]
fn permutation(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    p.sort_by(|&a, &b| cmp(a as usize, b as usize));
    p
}

/// The swaps that reorder a slice by `p` (place `i` gets the item at `p[i]`), one cycle at a
/// time (not generic, so the per-type part is only the loop of swaps).
#[inline(never)]
fn swaps(p: &[u32]) -> Vec<(u32, u32)> {
    let mut done = vec![false; p.len()];
    let mut out = Vec::new();
    for i in 0..p.len() {
        let mut j = i;
        while !done[j] {
            done[j] = true;
            let k = p[j] as usize;
            if k == i {
                break;
            }
            out.push((j as u32, k as u32));
            j = k;
        }
    }
    out
}

/// `v.sort_by(cmp)`: stable.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let p = permutation(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    for (a, b) in swaps(&p) {
        v.swap(a as usize, b as usize);
    }
}

/// `v.sort_by_key(key)`: stable.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()` (and `sort_unstable()`: for a total order on whole elements the two agree).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, |a, b| a.cmp(b));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator.
    fn numbers(n: usize, seed: u64, modulo: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 33) % modulo
            })
            .collect()
    }

    #[test]
    fn sorts_as_the_standard_library_does() {
        for (n, modulo) in [(0, 1), (1, 5), (2, 2), (7, 3), (100, 10), (1000, 1000), (5000, 7)] {
            let v = numbers(n, n as u64 + 1, modulo);
            let mut want = v.clone();
            want.sort_unstable();
            let mut got = v.clone();
            sort(&mut got);
            assert_eq!(got, want, "n {n}");
        }
    }

    #[test]
    fn is_stable_on_equal_keys() {
        // Pairs (key, original place): after sorting by key, places rise within each key.
        let keys = numbers(3000, 9, 13);
        let mut v: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
        let mut want = v.clone();
        want.sort_by_key(|&(k, _)| k);
        sort_by_key(&mut v, |&(k, _)| k);
        assert_eq!(v, want);
        assert!(v.windows(2).all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
    }

    #[test]
    fn sorts_by_a_comparison_and_keeps_already_sorted_and_reversed_input_right() {
        let mut up: Vec<i32> = (0..500).collect();
        sort_by(&mut up, |a, b| b.cmp(a));
        assert_eq!(up, (0..500).rev().collect::<Vec<_>>());
        let mut f = vec![2.5, -1.0, 0.0, 9.75, -3.5];
        sort_by(&mut f, f64::total_cmp);
        assert_eq!(f, vec![-3.5, -1.0, 0.0, 2.5, 9.75]);
        // Items that own memory move whole (nothing is dropped or copied).
        let mut s: Vec<String> = ["pear", "apple", "fig"].iter().map(|s| s.to_string()).collect();
        sort(&mut s);
        assert_eq!(s, ["apple", "fig", "pear"]);
    }
}
