//! The seam between a queue's rules and what holds its messages: the [`MessageTable`] contract.
//!
//! [`Queue`](super::Queue) decides (visibility, dequeue counts, receipts, expiry, limits); a
//! [`MessageTable`] only stores and finds, in the two orders the rules need: by
//! (time_next_visible, seq) for delivery and by (expiration_time, seq) for expiry.
//!
//! - [`memory`]: [`MemoryTable`], the queue in this process's memory (the engine's own);
//! - [`any`]: [`AnyTable`] and [`Tables`], the one type a queue holds, whichever table it is;
//!   a table a host brings ([`TableSource`]) plugs in there;
//! - the SQL table, the queue as rows of a SQL table reached through a synchronous executor (a
//!   Durable Object's SQLite at the edge), is persistence and lives in the store layer
//!   (`crate::store::sql`), which implements this trait.
//!
//! Every method that touches stored messages may fail (a SQL store can be full or broken); the
//! memory table never does. A method that fails leaves the table as it was, or, for the SQL
//! table, with writes its host rolls back with the transaction the request runs in.

pub mod any;
pub mod memory;
mod order_index;

pub use any::{AnyTable, Tables};
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub use any::{HostBox, HostTable, SharedTableSource, TableSource};
pub use memory::MemoryTable;

use super::error::TableError;
use super::ids::{MessageId, PopReceipt};
use super::message::MessageRecord;
use super::time::Timestamp;
use std::sync::Arc;

/// Whether `given` may act on a stored message whose pop receipt is now `current`: only the
/// receipt of its latest Get or Update does (Azure refuses an earlier one). The one rule both
/// tables apply for Delete Message and Update Message.
#[inline]
pub fn receipt_is_current(current: &PopReceipt, given: &PopReceipt) -> bool {
    current == given
}

/// What holds one queue's messages. Methods take `now` where the order they read depends on it.
pub trait MessageTable: std::fmt::Debug {
    /// Messages stored, expired ones not yet removed included (kept, never counted).
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes charged for the stored messages (`capacity::message_cost` of each).
    fn stored_bytes(&self) -> u64;

    /// The sequence the next inserted message gets: one past the highest ever inserted.
    fn next_seq(&self) -> u64;

    /// Stores `m` (a new message, or one restored from a snapshot). A message with the same
    /// id replaces the one stored.
    fn insert(&mut self, m: MessageRecord) -> Result<(), TableError>;

    /// The length of a stored message's text.
    fn text_len(&self, id: &MessageId) -> Result<Option<usize>, TableError>;

    /// Removes up to `limit` messages whose expiration time is at or before `now`, earliest
    /// expiry first, and returns their ids.
    fn remove_expired(
        &mut self,
        now: Timestamp,
        limit: usize,
    ) -> Result<Vec<MessageId>, TableError>;

    /// True when the table knows, without reading anything, that `remove_expired(now, _)`
    /// would remove nothing and write nothing. False says only "not known".
    fn nothing_expired_by(&self, _now: Timestamp) -> bool {
        false
    }

    /// Up to `count` messages with `time_next_visible <= now`, in (time_next_visible, seq)
    /// order, each hidden until `hidden_until` with its dequeue count incremented and a receipt
    /// from `receipt` (called once per message, in that order). Returns them as rewritten.
    fn take_visible(
        &mut self,
        now: Timestamp,
        count: usize,
        hidden_until: Timestamp,
        receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Vec<MessageRecord>, TableError>;

    /// Up to `count` messages with `time_next_visible <= now`, in that order, unchanged.
    /// Mutable so the memory table may tidy its index's head.
    fn peek(&mut self, now: Timestamp, count: usize) -> Result<Vec<MessageRecord>, TableError>;

    /// Removes `id` if `receipt` is its current pop receipt; whether it did.
    fn remove_current(&mut self, id: &MessageId, receipt: &PopReceipt) -> Result<bool, TableError>;

    /// If `receipt` is `id`'s current pop receipt: replaces its text (when given), makes it
    /// visible at `visible_at` with a receipt from `new_receipt`, and returns it as rewritten.
    fn update_current(
        &mut self,
        id: &MessageId,
        receipt: &PopReceipt,
        text: Option<Arc<str>>,
        visible_at: Timestamp,
        new_receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Option<MessageRecord>, TableError>;

    /// Removes every message; returns how many there were.
    fn clear(&mut self) -> Result<usize, TableError>;

    /// Every stored message in delivery order, visible or not (inspection, snapshots).
    fn in_order(&self) -> Result<Vec<MessageRecord>, TableError>;

    /// Calls `visit` with each stored message in delivery order until it answers false: one
    /// pass that copies nothing the visitor does not keep (the inspector's pages of a deep
    /// queue). A table without a cheaper way reads them all with [`MessageTable::in_order`].
    fn visit_in_order(
        &self,
        visit: &mut dyn FnMut(&MessageRecord) -> bool,
    ) -> Result<(), TableError> {
        for m in self.in_order()? {
            if !visit(&m) {
                break;
            }
        }
        Ok(())
    }

    /// The earliest `time_next_visible` strictly after `now`, and the earliest expiration time
    /// strictly after `now` that is not [`NEVER`](super::time::NEVER).
    fn next_times(
        &self,
        now: Timestamp,
    ) -> Result<(Option<Timestamp>, Option<Timestamp>), TableError>;

    /// Removes the table itself: its messages, and for SQL its table.
    fn destroy(self) -> Result<(), TableError>
    where
        Self: Sized;

    /// Lets the table go with its queue (Delete Queue). A table its host drops in the
    /// transaction that deletes the queue's record (the SQL table's `dropped_by_host`) is left
    /// for that; any other is destroyed now.
    fn release(self) -> Result<(), TableError>
    where
        Self: Sized,
    {
        self.destroy()
    }
}
