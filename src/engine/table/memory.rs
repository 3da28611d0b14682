//! A queue's messages in this process's memory: the Node server's, a browser's, the in-process
//! `Queue`'s.
//!
//! The messages live in a slab (slots reused as messages come and go); two ordered indexes and
//! an id map point into it and keep every operation O(log n) in queue depth:
//! - `by_visibility` on (time_next_visible, seq): the front holds the next deliverable messages;
//! - `by_expiry` on (expiration_time, seq): the front holds the next to expire, so lazy purging
//!   touches only messages that really expired;
//! - `ids`, from a message id to its slot, for the operations that name a message.
//!
//! Why a slab rather than a map from id to message: a map keyed by random ids writes each new
//! message to a random place in a table of them all (for 50,000 messages of 100 B, a few MB),
//! and that store missed the cache on most Puts; slots are reused last-freed first and
//! otherwise appended, so a queue filling up writes its messages side by side, the id map's
//! entries are a fifth of the size, and the indexes lead to a message without hashing its id.

use super::order_index::OrderIndex;
use super::{MessageTable, receipt_is_current};
use crate::engine::capacity::message_cost;
use crate::engine::error::TableError;
use crate::engine::ids::{MessageId, PopReceipt};
use crate::engine::message::MessageRecord;
use crate::engine::time::{NEVER, Timestamp};
use slab::Slab;
use std::collections::HashMap;
use std::sync::Arc;

/// Message ids are random (v4) GUIDs the engine draws itself, so a cheap mix of the id's own bits
/// is a good hash (SipHash, the default, cost a Put more than the map it served). Not every
/// stored id was drawn here, though: a snapshot import brings its own, and ids that differ only
/// in their last bytes (`…-8000-000000000001`, `…-000000000002`) must still spread over the
/// table's buckets, which hashbrown picks by the hash's low bits. Multiplying carries bits only
/// upwards, so `finish` mixes the high bits down (MurmurHash3's 64-bit finalizer); without it
/// such ids all fell in one bucket group and a 100k-message reopen took seconds, not 0.3 s.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn finish(&self) -> u64 {
        let mut h = self.0;
        h = (h ^ (h >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h = (h ^ (h >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
}

/// A message's place in [`MemoryTable::slots`].
type Slot = usize;

type IdMap = HashMap<MessageId, Slot, std::hash::BuildHasherDefault<IdHasher>>;

/// One queue's messages in memory.
#[derive(Debug, Default, Clone)]
pub struct MemoryTable {
    slots: Slab<MessageRecord>,
    ids: IdMap,
    by_visibility: OrderIndex<Slot>,
    by_expiry: OrderIndex<Slot>,
    next_seq: u64,
    /// What the stored messages are charged (`capacity::message_cost`), kept as they come and go.
    stored_bytes: u64,
}

impl MemoryTable {
    fn file(&mut self, m: MessageRecord) {
        let id = m.id;
        let visible = (m.time_next_visible, m.seq);
        let expiry = (m.expiration_time, m.seq);
        self.next_seq = self.next_seq.max(m.seq + 1);
        self.stored_bytes += message_cost(m.text.len());
        let slot = self.slots.insert(m);
        if let Some(replaced) = self.ids.insert(id, slot) {
            // An id stored twice (the engine never draws one twice, and snapshots with
            // duplicates are refused): the later message replaces the earlier whole.
            self.vacate(replaced);
        }
        self.by_visibility.insert(visible, slot);
        self.by_expiry.insert(expiry, slot);
    }

    /// Takes the message out of `slot` and its two index entries (the id map is the caller's).
    fn vacate(&mut self, slot: Slot) -> Option<MessageRecord> {
        let m = self.slots.try_remove(slot)?;
        self.stored_bytes -= message_cost(m.text.len());
        self.by_visibility.remove(&(m.time_next_visible, m.seq));
        self.by_expiry.remove(&(m.expiration_time, m.seq));
        Some(m)
    }

    fn remove(&mut self, id: &MessageId) -> Option<MessageRecord> {
        let slot = self.ids.remove(id)?;
        self.vacate(slot)
    }

    /// The slot of `id` if `receipt` is its current pop receipt.
    fn current(&self, id: &MessageId, receipt: &PopReceipt) -> Option<Slot> {
        let slot = *self.ids.get(id)?;
        receipt_is_current(&self.slots.get(slot)?.pop_receipt, receipt).then_some(slot)
    }

    /// The slots of up to `count` visible messages, in delivery order.
    fn visible(&mut self, now: Timestamp, count: usize) -> Vec<Slot> {
        self.by_visibility.clear_head(count);
        self.by_visibility
            .iter()
            .take_while(|(key, _)| key.0 <= now)
            .take(count)
            .map(|(_, slot)| slot)
            .collect()
    }
}

impl MessageTable for MemoryTable {
    fn len(&self) -> usize {
        self.slots.len()
    }

    fn stored_bytes(&self) -> u64 {
        self.stored_bytes
    }

    fn next_seq(&self) -> u64 {
        self.next_seq
    }

    fn insert(&mut self, m: MessageRecord) -> Result<(), TableError> {
        self.file(m);
        Ok(())
    }

    fn text_len(&self, id: &MessageId) -> Result<Option<usize>, TableError> {
        Ok(self
            .ids
            .get(id)
            .and_then(|&slot| self.slots.get(slot))
            .map(|m| m.text.len()))
    }

    fn remove_expired(
        &mut self,
        now: Timestamp,
        limit: usize,
    ) -> Result<Vec<MessageId>, TableError> {
        let mut gone = Vec::new();
        while gone.len() < limit
            && let Some((key, slot)) = self.by_expiry.first()
        {
            if key.0 > now {
                break;
            }
            let Some(id) = self.slots.get(slot).map(|m| m.id) else {
                // Unreachable while the index and the slab agree; dropping the stray entry
                // keeps the loop finite if they ever did not.
                self.by_expiry.remove(&key);
                continue;
            };
            self.remove(&id);
            gone.push(id);
        }
        Ok(gone)
    }

    fn take_visible(
        &mut self,
        now: Timestamp,
        count: usize,
        hidden_until: Timestamp,
        receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Vec<MessageRecord>, TableError> {
        let slots = self.visible(now, count);
        let mut out = Vec::with_capacity(slots.len());
        for slot in slots {
            let Some(m) = self.slots.get_mut(slot) else {
                continue;
            };
            self.by_visibility.remove(&(m.time_next_visible, m.seq));
            m.time_next_visible = hidden_until;
            m.dequeue_count = m.dequeue_count.saturating_add(1);
            m.pop_receipt = receipt();
            self.by_visibility.insert((hidden_until, m.seq), slot);
            out.push(m.clone());
        }
        Ok(out)
    }

    fn peek(&mut self, now: Timestamp, count: usize) -> Result<Vec<MessageRecord>, TableError> {
        let slots = self.visible(now, count);
        Ok(slots
            .into_iter()
            .filter_map(|slot| self.slots.get(slot).cloned())
            .collect())
    }

    fn remove_current(&mut self, id: &MessageId, receipt: &PopReceipt) -> Result<bool, TableError> {
        if self.current(id, receipt).is_none() {
            return Ok(false);
        }
        Ok(self.remove(id).is_some())
    }

    fn update_current(
        &mut self,
        id: &MessageId,
        receipt: &PopReceipt,
        text: Option<Arc<str>>,
        visible_at: Timestamp,
        new_receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Option<MessageRecord>, TableError> {
        if self.current(id, receipt).is_none() {
            return Ok(None);
        }
        let Some(mut m) = self.remove(id) else {
            return Ok(None);
        };
        if let Some(text) = text {
            m.text = text;
        }
        m.time_next_visible = visible_at;
        m.pop_receipt = new_receipt();
        self.file(m.clone());
        Ok(Some(m))
    }

    fn clear(&mut self) -> Result<usize, TableError> {
        let n = self.slots.len();
        self.slots.clear();
        self.ids.clear();
        self.stored_bytes = 0;
        self.by_visibility.clear();
        self.by_expiry.clear();
        Ok(n)
    }

    fn in_order(&self) -> Result<Vec<MessageRecord>, TableError> {
        Ok(self
            .by_visibility
            .iter()
            .filter_map(|(_, slot)| self.slots.get(slot).cloned())
            .collect())
    }

    fn visit_in_order(
        &self,
        visit: &mut dyn FnMut(&MessageRecord) -> bool,
    ) -> Result<(), TableError> {
        for (_, slot) in self.by_visibility.iter() {
            if let Some(m) = self.slots.get(slot)
                && !visit(m)
            {
                break;
            }
        }
        Ok(())
    }

    fn next_times(
        &self,
        now: Timestamp,
    ) -> Result<(Option<Timestamp>, Option<Timestamp>), TableError> {
        let after = (Timestamp::from_millis(now.as_millis() + 1), 0);
        let reappear = self.by_visibility.first_from(after).map(|((t, _), _)| t);
        let expire = self
            .by_expiry
            .first_from(after)
            .map(|((t, _), _)| t)
            .filter(|t| *t < NEVER);
        Ok((reappear, expire))
    }

    fn destroy(self) -> Result<(), TableError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::IdHasher;
    use crate::engine::MessageId;
    use std::collections::HashSet;
    use std::hash::{BuildHasher, BuildHasherDefault};

    /// Ids that differ only in their last bytes, as an imported snapshot may hold, land in as
    /// many buckets as random ones would: 4,096 of them take nearly every value of the hash's
    /// low 12 bits (hashbrown's bucket index at that size).
    #[test]
    fn sequential_ids_spread_over_the_low_bits() {
        let build = BuildHasherDefault::<IdHasher>::default();
        let buckets: HashSet<u64> = (0..4096u32)
            .map(|i| {
                let id = MessageId::parse(&format!("00000000-0000-4000-8000-{i:012x}")).unwrap();
                build.hash_one(id) & 0xFFF
            })
            .collect();
        // Random hashes would fill about 63 % of 4,096 buckets (1 - 1/e).
        assert!(buckets.len() > 2400, "{} of 4096 buckets", buckets.len());
    }
}
