//! One queue: its own record (name, metadata, ACL) and the rules its messages follow, over the
//! [`MessageTable`] that holds them (in memory, or SQL rows at the edge).

use super::acl::SignedIdentifier;
use super::change::QueueRecord;
use super::error::TableError;
use super::ids::{Entropy, MessageId, PopReceipt};
use super::message::{MessageOrigin, MessageRecord};
use super::metadata::Metadata;
use super::name::QueueName;
use super::params::{MessageCount, MessageText, TimeToLive, VisibilityTimeout};
use super::table::{AnyTable, MessageTable};
use super::time::{NEVER, Timestamp};

/// A queue's state. Methods evaluate visibility and expiry lazily at the `now` they are given.
#[derive(Debug)]
pub struct Queue {
    pub(super) record: QueueRecord,
    table: AnyTable,
}

impl Queue {
    pub(super) fn new(record: QueueRecord, table: AnyTable) -> Self {
        Queue { record, table }
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
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Bytes charged for the stored messages (see `capacity.rs`).
    pub fn stored_bytes(&self) -> u64 {
        self.table.stored_bytes()
    }

    /// The length of a stored message's text.
    pub(super) fn text_len(&self, id: &MessageId) -> Result<Option<usize>, TableError> {
        self.table.text_len(id)
    }

    /// Stores a message restored from a snapshot.
    pub(super) fn restore(&mut self, m: MessageRecord) -> Result<(), TableError> {
        self.table.insert(m)
    }

    /// Removes at most `limit` messages whose time to live has run out, oldest expiry first, and
    /// returns their ids. Cost is proportional to what expired.
    pub(super) fn purge_expired_at_most(
        &mut self,
        now: Timestamp,
        limit: usize,
    ) -> Result<Vec<MessageId>, TableError> {
        self.table.remove_expired(now, limit)
    }

    /// See [`MessageTable::nothing_expired_by`].
    pub(super) fn nothing_expired_by(&self, now: Timestamp) -> bool {
        self.table.nothing_expired_by(now)
    }

    /// Stores a new message (`origin`: where the inspector moved it from, if it did).
    pub(super) fn put(
        &mut self,
        now: Timestamp,
        text: MessageText,
        visibility: VisibilityTimeout,
        ttl: TimeToLive,
        origin: Option<Box<MessageOrigin>>,
        entropy: &mut dyn Entropy,
    ) -> Result<MessageRecord, TableError> {
        let expiration_time = match ttl {
            TimeToLive::Never => NEVER,
            TimeToLive::Secs(s) => now.plus_secs(s),
        };
        let m = MessageRecord {
            id: MessageId::generate(entropy),
            seq: self.table.next_seq(),
            text: text.into_shared(),
            insertion_time: now,
            expiration_time,
            time_next_visible: now.plus_secs(visibility.secs() as u64),
            dequeue_count: 0,
            pop_receipt: PopReceipt::generate(entropy),
            origin,
        };
        self.table.insert(m.clone())?;
        Ok(m)
    }

    /// Takes up to `count` visible messages, in (time_next_visible, seq) order, hiding each
    /// until `now + visibility` with a fresh pop receipt. Expects expired messages purged.
    pub(super) fn get(
        &mut self,
        now: Timestamp,
        count: MessageCount,
        visibility: VisibilityTimeout,
        entropy: &mut dyn Entropy,
    ) -> Result<Vec<MessageRecord>, TableError> {
        let hidden_until = now.plus_secs(visibility.secs() as u64);
        self.table
            .take_visible(now, count.get(), hidden_until, &mut || {
                PopReceipt::generate(entropy)
            })
    }

    /// Up to `count` visible messages, without changing anything. Expects expired purged.
    pub(super) fn peek(
        &mut self,
        now: Timestamp,
        count: MessageCount,
    ) -> Result<Vec<MessageRecord>, TableError> {
        self.table.peek(now, count.get())
    }

    pub(super) fn delete(
        &mut self,
        id: &MessageId,
        receipt: &PopReceipt,
    ) -> Result<bool, TableError> {
        self.table.remove_current(id, receipt)
    }

    pub(super) fn update(
        &mut self,
        now: Timestamp,
        id: &MessageId,
        receipt: &PopReceipt,
        text: Option<MessageText>,
        visibility: VisibilityTimeout,
        entropy: &mut dyn Entropy,
    ) -> Result<Option<MessageRecord>, TableError> {
        let visible_at = now.plus_secs(visibility.secs() as u64);
        self.table.update_current(
            id,
            receipt,
            text.map(MessageText::into_shared),
            visible_at,
            &mut || PopReceipt::generate(entropy),
        )
    }

    /// Removes every message and returns how many there were.
    pub(super) fn clear(&mut self) -> Result<usize, TableError> {
        self.table.clear()
    }

    /// Removes the queue's messages and, for a SQL table, the table (a replaced state).
    pub(super) fn destroy(self) -> Result<(), TableError> {
        self.table.destroy()
    }

    /// Lets the queue's table go (Delete Queue), now or with the queue's record
    /// ([`MessageTable::release`]).
    pub(super) fn release(self) -> Result<(), TableError> {
        self.table.release()
    }

    /// Every stored message in delivery order, visible or not (for inspection, never mutates).
    pub fn messages_in_order(&self) -> Result<Vec<MessageRecord>, TableError> {
        self.table.in_order()
    }

    /// Calls `visit` with each stored message in delivery order until it answers false.
    pub fn visit_in_order(
        &self,
        visit: &mut dyn FnMut(&MessageRecord) -> bool,
    ) -> Result<(), TableError> {
        self.table.visit_in_order(visit)
    }

    /// The earliest future moment at which something changes by itself: a hidden message
    /// becomes visible, or a message expires.
    pub fn next_deadline(&self, now: Timestamp) -> Result<Option<Timestamp>, TableError> {
        // Strictly after `now`: anything at or before it has already happened, and an expired
        // message not yet purged must not hide the expiries behind it.
        Ok(match self.table.next_times(now)? {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }

    pub(super) fn set_metadata(&mut self, metadata: Metadata) {
        self.record.metadata = metadata;
    }

    pub(super) fn set_acl(&mut self, acl: Vec<SignedIdentifier>) {
        self.record.acl = acl;
    }
}
