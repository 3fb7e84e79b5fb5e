//! Stable sorting through one shared sort instantiation.
//!
//! `slice::sort_by` is monomorphized per element type and comparator; in the wasm bundle
//! each copy costs ≈ 3 KB and fluxlens had fifteen. Here only a permutation of `u32`
//! indices is sorted, with a `dyn` comparator, so every caller shares one copy.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp` (equal elements keep their order).
pub fn by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut idx: Vec<u32> = (0..v.len() as u32).collect();
    sort_indices(&mut idx, &mut |a, b| cmp(&v[a as usize], &v[b as usize]));
    permute(v, &mut idx);
}

/// Sorts `v` stably in its natural order.
pub fn natural<T: Ord>(v: &mut [T]) {
    by(v, T::cmp);
}

#[inline(never)]
fn sort_indices(idx: &mut [u32], cmp: &mut dyn FnMut(u32, u32) -> Ordering) {
    // The index tie-break makes the unstable sort stable.
    idx.sort_unstable_by(|&a, &b| cmp(a, b).then(a.cmp(&b)));
}

/// Reorders `v` so that position `i` holds the element that was at `idx[i]`
/// (cycle by cycle, in place; `idx` is consumed as the visited mark).
fn permute<T>(v: &mut [T], idx: &mut [u32]) {
    for start in 0..v.len() {
        let mut j = start;
        loop {
            let k = idx[j] as usize;
            idx[j] = j as u32;
            if k == start {
                break;
            }
            v.swap(j, k);
            j = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_stable_sort() {
        // Pseudo-random pairs with many equal keys: stability is visible in the second field.
        let mut seed = 0x2545_f491_u32;
        for len in [0usize, 1, 2, 3, 7, 64, 1000] {
            let v: Vec<(u8, u32)> = (0..len as u32)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    ((seed % 7) as u8, i)
                })
                .collect();
            let mut ours = v.clone();
            by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = v.clone();
            std.sort_by_key(|x| x.0);
            assert_eq!(ours, std, "len {len}");
            let mut desc = v.clone();
            by(&mut desc, |a, b| b.0.cmp(&a.0));
            let mut std = v;
            std.sort_by_key(|x| std::cmp::Reverse(x.0));
            assert_eq!(desc, std);
        }
    }

    #[test]
    fn natural_order_of_strings() {
        let mut v = vec!["b".to_string(), "a".into(), "c".into(), "a".into()];
        natural(&mut v);
        assert_eq!(v, ["a", "a", "b", "c"]);
    }
}
