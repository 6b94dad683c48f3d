//! [`sort`]: an in-place heapsort of `u64`s. The engine sorts one thing, the phases of its
//! client arrivals, and `sort_unstable` brought core's pattern-defeating quicksort (its
//! quicksort, small-sort networks and heapsort fallback: ~3 KB of wasm) into every module with
//! the engine for it. For `u64` every sort gives the same order, so runs are unchanged.

/// Sorts `v` ascending in O(n log n), in place.
pub fn sort(v: &mut [u64]) {
    for start in (0..v.len() / 2).rev() {
        sift_down(v, start);
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift_down(&mut v[..end], 0);
    }
}

/// Moves `v[root]` down the max-heap `v` until neither child is larger.
fn sift_down(v: &mut [u64], mut root: usize) {
    loop {
        let mut child = 2 * root + 1;
        if child >= v.len() {
            return;
        }
        if child + 1 < v.len() && v[child + 1] > v[child] {
            child += 1;
        }
        if v[root] >= v[child] {
            return;
        }
        v.swap(root, child);
        root = child;
    }
}

#[cfg(test)]
mod tests {
    use super::sort;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_as_the_standard_library_does(mut v in proptest::collection::vec(any::<u64>(), 0..300), few in 1u64..8) {
            let mut expected = v.clone();
            expected.sort_unstable();
            sort(&mut v);
            prop_assert_eq!(&v, &expected);
            // Many equal values, as phases below a short period have.
            let mut dup: Vec<u64> = expected.iter().map(|x| x % few).collect();
            let mut dup_expected = dup.clone();
            dup_expected.sort_unstable();
            sort(&mut dup);
            prop_assert_eq!(dup, dup_expected);
        }
    }
}
