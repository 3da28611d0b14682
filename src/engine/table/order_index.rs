//! An ordered index over a queue's messages (by visibility, by expiry) that files the common
//! key, one greater than every key before it, in O(1).
//!
//! Why: a Put with no visibility delay, and a Get hiding messages for a fixed time, make keys
//! that only grow, yet a `BTreeMap` walks from its root for every insert, comparing against each
//! node on the way down; the two inserts of a Put were the largest single cost left in it. Here
//! such keys are appended to a run kept in order; any other key goes to an ordinary `BTreeMap`,
//! and reads merge the two. A removal from the run leaves a tombstone, dropped when it reaches
//! either end, when tombstones are half the run (amortised O(1)), or when a scan of the head
//! would pass it ([`OrderIndex::clear_head`]), so the run's memory stays within twice its live
//! entries whatever order messages leave in, and Get and Peek pass each tombstone at most once.

use crate::engine::time::Timestamp;
use std::collections::{BTreeMap, VecDeque};

/// (time, insertion sequence): unique per message within a queue.
pub(super) type OrderKey = (Timestamp, u64);

/// An ordered map from [`OrderKey`] to `V`, with `BTreeMap`'s semantics for what it offers.
#[derive(Clone, Debug)]
pub(super) struct OrderIndex<V> {
    /// Keys strictly increasing; `None` is a removed entry. Neither end is ever a tombstone.
    run: VecDeque<(OrderKey, Option<V>)>,
    tombstones: usize,
    /// Entries whose keys came out of order; no live key is in both parts.
    rest: BTreeMap<OrderKey, V>,
}

impl<V> Default for OrderIndex<V> {
    fn default() -> Self {
        OrderIndex {
            run: VecDeque::new(),
            tombstones: 0,
            rest: BTreeMap::new(),
        }
    }
}

impl<V: Copy> OrderIndex<V> {
    /// Adds or replaces the entry for `key`, returning the value it replaced.
    pub(super) fn insert(&mut self, key: OrderKey, value: V) -> Option<V> {
        let after_run = self.run.back().is_none_or(|(last, _)| key > *last);
        if after_run
            && self
                .rest
                .last_key_value()
                .is_none_or(|(last, _)| key > *last)
        {
            self.run.push_back((key, Some(value)));
            return None;
        }
        if let Some(i) = self.find_in_run(&key)
            && let Some(old) = self.run[i].1.as_mut()
        {
            return Some(std::mem::replace(old, value));
        }
        self.rest.insert(key, value)
    }

    /// Removes the entry for `key`, returning its value.
    pub(super) fn remove(&mut self, key: &OrderKey) -> Option<V> {
        if let Some(i) = self.find_in_run(key)
            && let Some(value) = self.run[i].1.take()
        {
            self.tombstones += 1;
            self.tidy();
            return Some(value);
        }
        self.rest.remove(key)
    }

    /// The entry with the smallest key.
    pub(super) fn first(&self) -> Option<(OrderKey, V)> {
        let run = self.run.front().and_then(|&(k, v)| v.map(|v| (k, v)));
        let rest = self.rest.first_key_value().map(|(&k, &v)| (k, v));
        match (run, rest) {
            (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
            (a, b) => a.or(b),
        }
    }

    /// Drops the tombstones before the run's `live`-th live entry, so a scan of the first
    /// `live` entries ([`OrderIndex::iter`]) passes none. Costs about what that scan would:
    /// without it, a block of removals just behind a live front (messages deleted by the
    /// receipts their sends returned) would be walked again by every Get and Peek.
    pub(super) fn clear_head(&mut self, live: usize) {
        let (mut prefix, mut seen, mut dead) = (0, 0, 0);
        for (_, value) in &self.run {
            if seen == live {
                break;
            }
            prefix += 1;
            match value {
                Some(_) => seen += 1,
                None => dead += 1,
            }
        }
        if dead == 0 {
            return;
        }
        let kept: Vec<_> = self
            .run
            .drain(..prefix)
            .filter(|(_, v)| v.is_some())
            .collect();
        for entry in kept.into_iter().rev() {
            self.run.push_front(entry);
        }
        self.tombstones -= dead;
    }

    /// The entry with the smallest key at or after `from`. Passes the tombstones among the
    /// entries it skips (at most half the run; only inspection asks).
    pub(super) fn first_from(&self, from: OrderKey) -> Option<(OrderKey, V)> {
        let at = self.run.partition_point(|(k, _)| *k < from);
        let run = self.run.range(at..).find_map(|&(k, v)| v.map(|v| (k, v)));
        let rest = self.rest.range(from..).next().map(|(&k, &v)| (k, v));
        match (run, rest) {
            (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
            (a, b) => a.or(b),
        }
    }

    /// Every entry in key order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (OrderKey, V)> + '_ {
        let mut run = self
            .run
            .iter()
            .filter_map(|&(k, v)| v.map(|v| (k, v)))
            .peekable();
        let mut rest = self.rest.iter().map(|(&k, &v)| (k, v)).peekable();
        std::iter::from_fn(move || match (run.peek(), rest.peek()) {
            (Some(a), Some(b)) if b.0 < a.0 => rest.next(),
            (Some(_), _) => run.next(),
            (None, _) => rest.next(),
        })
    }

    pub(super) fn clear(&mut self) {
        self.run.clear();
        self.tombstones = 0;
        self.rest.clear();
    }

    /// Where `key` is in the run, live or not. Gallops in from both ends before it bisects:
    /// a queue mostly removes entries near one end or the other (the oldest message, one just
    /// hidden), which this finds in a few probes that stay in cache, where bisecting a deep run
    /// from its middle missed the cache on most of its probes.
    fn find_in_run(&self, key: &OrderKey) -> Option<usize> {
        let (first, last) = (&self.run.front()?.0, &self.run.back()?.0);
        if key < first || key > last {
            return None;
        }
        // If present, the key is in lo..hi.
        let (mut lo, mut hi) = (0, self.run.len());
        let mut step = 1;
        while step < hi - lo {
            let front = lo + step;
            if self.run[front].0 > *key {
                hi = front;
                break;
            }
            lo = front;
            if step >= hi - lo {
                break;
            }
            let back = hi - 1 - step;
            if self.run[back].0 < *key {
                lo = back + 1;
                break;
            }
            hi = back + 1;
            step *= 2;
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.run[mid].0.cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Drops tombstones from both ends, and all of them once they are half the run.
    fn tidy(&mut self) {
        while self.run.front().is_some_and(|(_, v)| v.is_none()) {
            self.run.pop_front();
            self.tombstones -= 1;
        }
        while self.run.back().is_some_and(|(_, v)| v.is_none()) {
            self.run.pop_back();
            self.tombstones -= 1;
        }
        if self.tombstones > 0 && self.tombstones * 2 >= self.run.len() {
            self.run.retain(|(_, v)| v.is_some());
            self.tombstones = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{OrderIndex, OrderKey};
    use crate::engine::time::Timestamp;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[derive(Clone, Debug)]
    enum Op {
        Insert(u64, u64, u32),
        Remove(u64, u64),
        /// Removes the entry at this position in key order, if any (reaches the run's middle).
        RemoveNth(usize),
        PopFirst,
        /// Then checks that the first `n` entries take no tombstone to reach.
        ClearHead(usize),
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        // Small times and sequences, so keys repeat, collide and arrive both in and out of order.
        prop_oneof![
            6 => (0..40u64, 0..40u64, any::<u32>()).prop_map(|(t, s, v)| Op::Insert(t, s, v)),
            2 => (0..40u64, 0..40u64).prop_map(|(t, s)| Op::Remove(t, s)),
            3 => (0..64usize).prop_map(Op::RemoveNth),
            1 => Just(Op::PopFirst),
            1 => (0..40usize).prop_map(Op::ClearHead),
            1 => Just(Op::Clear),
        ]
    }

    fn key(t: u64, s: u64) -> OrderKey {
        (Timestamp::from_millis(t), s)
    }

    proptest! {
        /// Every operation answers as a `BTreeMap` does, and the contents stay equal to its.
        #[test]
        fn behaves_as_a_btree_map(ops in prop::collection::vec(op(), 0..200), from in (0..40u64, 0..40u64)) {
            let mut index = OrderIndex::default();
            let mut model = BTreeMap::new();
            for op in ops {
                match op {
                    Op::Insert(t, s, v) => {
                        prop_assert_eq!(index.insert(key(t, s), v), model.insert(key(t, s), v));
                    }
                    Op::Remove(t, s) => {
                        prop_assert_eq!(index.remove(&key(t, s)), model.remove(&key(t, s)));
                    }
                    Op::RemoveNth(n) => {
                        if let Some(&k) = model.keys().nth(n) {
                            prop_assert_eq!(index.remove(&k), model.remove(&k));
                        }
                    }
                    Op::PopFirst => {
                        let first = index.first();
                        prop_assert_eq!(first, model.first_key_value().map(|(&k, &v)| (k, v)));
                        if let Some((k, _)) = first {
                            prop_assert_eq!(index.remove(&k), model.remove(&k));
                        }
                    }
                    Op::ClearHead(n) => {
                        index.clear_head(n);
                        let live = index.run.iter().take_while(|(_, v)| v.is_some()).count();
                        prop_assert!(live >= n.min(index.run.len() - index.tombstones));
                    }
                    Op::Clear => {
                        index.clear();
                        model.clear();
                    }
                }
                let all: Vec<_> = index.iter().collect();
                let expected: Vec<_> = model.iter().map(|(&k, &v)| (k, v)).collect();
                prop_assert_eq!(all, expected);
                prop_assert!(index.tombstones * 2 < index.run.len().max(1));
            }
            let from = key(from.0, from.1);
            prop_assert_eq!(index.first_from(from), model.range(from..).next().map(|(&k, &v)| (k, v)));
        }
    }

    /// Keys that only grow go to the run, and draining it in any order leaves nothing behind.
    #[test]
    fn increasing_keys_take_the_run_and_leave_no_tombstones() {
        let mut index = OrderIndex::default();
        for s in 0..1000u64 {
            index.insert(key(s / 10, s), s);
        }
        assert_eq!(index.run.len(), 1000);
        assert!(index.rest.is_empty());
        for s in (0..1000u64).rev().step_by(2).chain((0..1000).step_by(2)) {
            assert_eq!(index.remove(&key(s / 10, s)), Some(s));
        }
        assert!(index.run.is_empty());
        assert_eq!(index.tombstones, 0);
    }

    /// A block removed just behind a live front (fewer than half the run, so not compacted) is
    /// dropped by the first scan of the head, not walked by every later one.
    #[test]
    fn a_block_removed_behind_the_front_is_passed_once() {
        let mut index = OrderIndex::default();
        for s in 0..1000u64 {
            index.insert(key(0, s), s);
        }
        for s in 1..450u64 {
            index.remove(&key(0, s));
        }
        assert_eq!(index.tombstones, 449);
        index.clear_head(32);
        assert_eq!(index.tombstones, 0);
        assert_eq!(index.run.len(), 551);
        let first: Vec<u64> = index.iter().take(3).map(|(_, v)| v).collect();
        assert_eq!(first, [0, 450, 451]);
    }

    /// Every key of a run is found where it is, from either end or the middle, and keys
    /// between them are not.
    #[test]
    fn finds_every_key_of_a_run_and_no_other() {
        for len in [1u64, 2, 3, 5, 17, 64, 1000] {
            let mut index = OrderIndex::default();
            for s in 0..len {
                index.insert(key(s, 2 * s), s);
            }
            for s in 0..len {
                assert_eq!(
                    index.find_in_run(&key(s, 2 * s)),
                    Some(s as usize),
                    "{len} {s}"
                );
                assert_eq!(index.find_in_run(&key(s, 2 * s + 1)), None, "{len} {s}");
            }
        }
    }
}
