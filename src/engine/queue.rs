//! One queue: its messages, ordered for delivery and for expiry.
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

use super::acl::SignedIdentifier;
use super::change::QueueRecord;
use super::ids::{Entropy, MessageId, PopReceipt};
use super::message::MessageRecord;
use super::metadata::Metadata;
use super::name::QueueName;
use super::order_index::OrderIndex;
use super::params::{MessageCount, MessageText, TimeToLive, VisibilityTimeout};
use super::time::{NEVER, Timestamp};
use slab::Slab;
use std::collections::HashMap;

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

/// A message's place in [`Queue::slots`].
type Slot = usize;

type IdMap = HashMap<MessageId, Slot, std::hash::BuildHasherDefault<IdHasher>>;

/// A queue's state. Methods evaluate visibility and expiry lazily at the `now` they are given.
#[derive(Debug, Clone)]
pub struct Queue {
    pub(super) record: QueueRecord,
    slots: Slab<MessageRecord>,
    ids: IdMap,
    by_visibility: OrderIndex<Slot>,
    by_expiry: OrderIndex<Slot>,
    next_seq: u64,
    /// What the stored messages are charged (`capacity::message_cost`), kept as they come and go.
    stored_bytes: u64,
}

impl Queue {
    pub(super) fn new(name: QueueName, metadata: Metadata) -> Self {
        Queue {
            record: QueueRecord {
                name,
                metadata,
                acl: Vec::new(),
            },
            slots: Slab::new(),
            ids: IdMap::default(),
            by_visibility: OrderIndex::default(),
            by_expiry: OrderIndex::default(),
            next_seq: 0,
            stored_bytes: 0,
        }
    }

    /// Rebuilds a queue from stored records; the insertion sequence resumes after the highest.
    pub(super) fn restore(record: QueueRecord, messages: Vec<MessageRecord>) -> Self {
        let mut q = Queue::new(record.name.clone(), record.metadata.clone());
        q.record = record;
        for m in messages {
            q.next_seq = q.next_seq.max(m.seq + 1);
            q.insert(m);
        }
        q
    }

    pub fn name(&self) -> &QueueName {
        &self.record.name
    }

    pub fn metadata(&self) -> &Metadata {
        &self.record.metadata
    }

    /// The queue's own record (name, metadata, ACL), as a store keeps it.
    pub fn record(&self) -> &QueueRecord {
        &self.record
    }

    pub fn acl(&self) -> &[SignedIdentifier] {
        &self.record.acl
    }

    /// Messages stored, including invisible ones and expired ones not yet purged.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Bytes charged for the stored messages (see `capacity.rs`).
    pub fn stored_bytes(&self) -> u64 {
        self.stored_bytes
    }

    /// The length of a stored message's text.
    pub(super) fn text_len(&self, id: &MessageId) -> Option<usize> {
        self.message(id).map(|m| m.text.len())
    }

    fn message(&self, id: &MessageId) -> Option<&MessageRecord> {
        self.ids.get(id).and_then(|&slot| self.slots.get(slot))
    }

    fn insert(&mut self, m: MessageRecord) {
        let id = m.id;
        let visible = (m.time_next_visible, m.seq);
        let expiry = (m.expiration_time, m.seq);
        self.stored_bytes += super::capacity::message_cost(m.text.len());
        let slot = self.slots.insert(m);
        if let Some(replaced) = self.ids.insert(id, slot) {
            // An id stored twice (the engine never draws one twice, and snapshots with
            // duplicates are refused): the later message replaces the earlier whole.
            self.vacate(replaced);
        }
        self.by_visibility.insert(visible, slot);
        self.by_expiry.insert(expiry, slot);
    }

    fn remove(&mut self, id: &MessageId) -> Option<MessageRecord> {
        let slot = self.ids.remove(id)?;
        self.vacate(slot)
    }

    /// Takes the message out of `slot` and its two index entries (the id map is the caller's).
    fn vacate(&mut self, slot: Slot) -> Option<MessageRecord> {
        let m = self.slots.try_remove(slot)?;
        self.stored_bytes -= super::capacity::message_cost(m.text.len());
        self.by_visibility.remove(&(m.time_next_visible, m.seq));
        self.by_expiry.remove(&(m.expiration_time, m.seq));
        Some(m)
    }

    /// Removes every message whose time to live has run out, oldest expiry first, and returns
    /// their ids. Cost is proportional to what expired.
    pub(super) fn purge_expired(&mut self, now: Timestamp) -> Vec<MessageId> {
        let mut gone = Vec::new();
        while let Some((key, slot)) = self.by_expiry.first() {
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
        gone
    }

    pub(super) fn put(
        &mut self,
        now: Timestamp,
        text: MessageText,
        visibility: VisibilityTimeout,
        ttl: TimeToLive,
        entropy: &mut dyn Entropy,
    ) -> MessageRecord {
        let seq = self.next_seq;
        self.next_seq += 1;
        let expiration_time = match ttl {
            TimeToLive::Never => NEVER,
            TimeToLive::Secs(s) => now.plus_secs(s),
        };
        let m = MessageRecord {
            id: MessageId::generate(entropy),
            seq,
            text: text.into_shared(),
            insertion_time: now,
            expiration_time,
            time_next_visible: now.plus_secs(visibility.secs() as u64),
            dequeue_count: 0,
            pop_receipt: PopReceipt::generate(entropy),
        };
        self.insert(m.clone());
        m
    }

    /// Takes up to `count` visible messages, in (time_next_visible, seq) order, hiding each
    /// until `now + visibility` with a fresh pop receipt. Expects expired messages purged.
    pub(super) fn get(
        &mut self,
        now: Timestamp,
        count: MessageCount,
        visibility: VisibilityTimeout,
        entropy: &mut dyn Entropy,
    ) -> Vec<MessageRecord> {
        self.by_visibility.clear_head(count.get());
        let slots: Vec<Slot> = self
            .by_visibility
            .iter()
            .take_while(|(key, _)| key.0 <= now)
            .take(count.get())
            .map(|(_, slot)| slot)
            .collect();
        let hidden_until = now.plus_secs(visibility.secs() as u64);
        let mut out = Vec::with_capacity(slots.len());
        for slot in slots {
            let Some(m) = self.slots.get_mut(slot) else {
                continue;
            };
            self.by_visibility.remove(&(m.time_next_visible, m.seq));
            m.time_next_visible = hidden_until;
            m.dequeue_count = m.dequeue_count.saturating_add(1);
            m.pop_receipt = PopReceipt::generate(entropy);
            self.by_visibility.insert((hidden_until, m.seq), slot);
            out.push(m.clone());
        }
        out
    }

    /// Up to `count` visible messages, without changing anything. Expects expired purged.
    /// Mutable only to drop tombstones from the index's head ([`OrderIndex::clear_head`]).
    pub(super) fn peek(&mut self, now: Timestamp, count: MessageCount) -> Vec<MessageRecord> {
        self.by_visibility.clear_head(count.get());
        self.by_visibility
            .iter()
            .take_while(|(key, _)| key.0 <= now)
            .take(count.get())
            .filter_map(|(_, slot)| self.slots.get(slot).cloned())
            .collect()
    }

    /// The message `id` if `receipt` is its current pop receipt.
    fn current(&self, id: &MessageId, receipt: &PopReceipt) -> Option<&MessageRecord> {
        self.message(id).filter(|m| &m.pop_receipt == receipt)
    }

    pub(super) fn delete(&mut self, id: &MessageId, receipt: &PopReceipt) -> bool {
        if self.current(id, receipt).is_none() {
            return false;
        }
        self.remove(id).is_some()
    }

    pub(super) fn update(
        &mut self,
        now: Timestamp,
        id: &MessageId,
        receipt: &PopReceipt,
        text: Option<MessageText>,
        visibility: VisibilityTimeout,
        entropy: &mut dyn Entropy,
    ) -> Option<MessageRecord> {
        self.current(id, receipt)?;
        let mut m = self.remove(id)?;
        if let Some(text) = text {
            m.text = text.into_shared();
        }
        m.time_next_visible = now.plus_secs(visibility.secs() as u64);
        m.pop_receipt = PopReceipt::generate(entropy);
        self.insert(m.clone());
        Some(m)
    }

    /// Removes every message and returns how many there were.
    pub(super) fn clear(&mut self) -> usize {
        let n = self.slots.len();
        self.slots.clear();
        self.ids.clear();
        self.stored_bytes = 0;
        self.by_visibility.clear();
        self.by_expiry.clear();
        n
    }

    /// Every stored message in delivery order, visible or not (for inspection, never mutates).
    pub fn messages_in_order(&self) -> impl Iterator<Item = &MessageRecord> {
        self.by_visibility
            .iter()
            .filter_map(|(_, slot)| self.slots.get(slot))
    }

    /// The earliest future moment at which something changes by itself: a hidden message
    /// becomes visible, or a message expires.
    pub fn next_deadline(&self, now: Timestamp) -> Option<Timestamp> {
        // Strictly after `now`: anything at or before it has already happened, and an expired
        // message not yet purged must not hide the expiries behind it.
        let after = (Timestamp::from_millis(now.as_millis() + 1), 0);
        let reappear = self.by_visibility.first_from(after).map(|((t, _), _)| t);
        let expire = self
            .by_expiry
            .first_from(after)
            .map(|((t, _), _)| t)
            .filter(|t| *t < NEVER);
        match (reappear, expire) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub(super) fn set_metadata(&mut self, metadata: Metadata) {
        self.record.metadata = metadata;
    }

    pub(super) fn set_acl(&mut self, acl: Vec<SignedIdentifier>) {
        self.record.acl = acl;
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
