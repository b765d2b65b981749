//! Sorting the page's short lists (a picker's GPUs, a chart's frontier, the
//! groups of offers left out): a stable insertion sort.
//!
//! The standard library's sort is fast on thousands of items, but each
//! element type and comparator compiles to its own 4–5 KB of WebAssembly;
//! the page's budget (issue 7: 350 KB gzip) pays for that once per list.
//! These lists hold at most a few hundred items, where insertion sort's
//! n² steps take well under a millisecond. Rankings of thousands of rows
//! keep the standard sort.

use std::cmp::Ordering;

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
}
