//! Sorting, in as little WebAssembly as the page can afford.
//!
//! The standard library's sort is fast on thousands of items, but each
//! element type and comparator compiles to its own copy: measured in
//! December 2026 (issue 22), the standard sort at the short lists' nine
//! call sites added 8,551 bytes gzip to the page (350,130 → 358,681), more
//! than the whole growth a change may take without a word, for lists of a
//! few hundred items.
//! - Short lists (a picker's GPUs, a chart's frontier, the groups of offers
//!   left out) hold at most a few hundred items, where a stable insertion
//!   sort's n² steps take well under a millisecond: [`sort_short_by`].
//! - Long lists (a ranking's thousands of rows, the table's column order)
//!   sort their row indices with the standard stable sort through one
//!   comparator type, so it is compiled once: [`sort_indices_by`].

use std::cmp::Ordering;

/// Sorts row indices by `compare` (stable: equal rows keep their order),
/// with the standard library's sort. The comparator is a trait object so
/// that every caller shares one copy of the sort.
pub fn sort_indices_by(indices: &mut [usize], compare: &dyn Fn(usize, usize) -> Ordering) {
    indices.sort_by(|&a, &b| compare(a, b));
}

/// Sorts `items` by `compare`, keeping equal items in their order.
pub fn sort_short_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    for end in 1..items.len() {
        let mut at = end;
        while at > 0 && compare(&items[at - 1], &items[at]) == Ordering::Greater {
            items.swap(at - 1, at);
            at -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_keeps_equal_items_in_order() {
        let mut items = vec![(3, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (3, 'e'), (0, 'f')];
        sort_short_by(&mut items, |a, b| a.0.cmp(&b.0));
        assert_eq!(items, [(0, 'f'), (1, 'b'), (1, 'd'), (2, 'c'), (3, 'a'), (3, 'e')]);
        let mut empty: [u8; 0] = [];
        sort_short_by(&mut empty, Ord::cmp);
        // Agrees with the standard sort on a scrambled list.
        let mut scrambled: Vec<u32> = (0..300).map(|i| (i * 7919) % 263).collect();
        let mut expected = scrambled.clone();
        expected.sort();
        sort_short_by(&mut scrambled, Ord::cmp);
        assert_eq!(scrambled, expected);
    }

    #[test]
    fn sorts_indices_stably_by_what_they_point_at() {
        let keys = [3, 1, 2, 1, 3, 0];
        let mut indices: Vec<usize> = (0..keys.len()).collect();
        sort_indices_by(&mut indices, &|a, b| keys[a].cmp(&keys[b]));
        assert_eq!(indices, [5, 1, 3, 2, 0, 4]);
        // Thousands of rows, as a ranking has: agrees with sorting the keys.
        let keys: Vec<u32> = (0..5000).map(|i| (i * 7919) % 1009).collect();
        let mut indices: Vec<usize> = (0..keys.len()).collect();
        sort_indices_by(&mut indices, &|a, b| keys[b].cmp(&keys[a]));
        let mut expected = keys.clone();
        expected.sort_by(|a, b| b.cmp(a));
        assert_eq!(indices.iter().map(|&i| keys[i]).collect::<Vec<_>>(), expected);
        assert!(indices.windows(2).all(|w| keys[w[0]] != keys[w[1]] || w[0] < w[1]), "equal keys keep their order");
    }
}
