//! The seam between a queue's rules and what holds its messages.
//!
//! [`Queue`](super::Queue) decides (visibility, dequeue counts, receipts, expiry, limits); a
//! [`MessageTable`] only stores and finds, in the two orders the rules need: by
//! (time_next_visible, seq) for delivery and by (expiration_time, seq) for expiry. Two tables
//! exist: [`MemoryTable`](super::memory_table::MemoryTable), the queue in this process's memory,
//! and [`SqlTable`](super::sql_table::SqlTable), the queue as rows of a SQL table reached through
//! a synchronous [`SqlExecutor`](super::sql::SqlExecutor) (a Durable Object's SQLite at the edge).
//!
//! Every method that touches stored messages may fail (a SQL store can be full or broken); the
//! memory table never does. A method that fails leaves the table as it was, or, for the SQL
//! table, with writes its host rolls back with the transaction the request runs in.

use super::ids::{MessageId, PopReceipt};
use super::memory_table::MemoryTable;
use super::message::MessageRecord;
use super::name::QueueName;
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
use super::sql_table::{SqlTable, SqlTables};
use super::time::Timestamp;
use std::sync::Arc;

/// Why a table could not do what it was asked. Only a SQL table fails: where none can be made
/// (the web wasm) this has no value at all, so the compiler drops every path that handles one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The store has no room left (SQLite's `SQLITE_FULL`, a Durable Object past its 10 GB).
    #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
    #[error("the message store is full: {0}")]
    Full(String),
    /// Anything else the store reported, or a stored row this build cannot read.
    #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
    #[error("the message store failed: {0}")]
    Failed(String),
}

/// Whether `given` may act on a stored message whose pop receipt is now `current`: only the
/// receipt of its latest Get or Update does (Azure refuses an earlier one). The one rule both
/// tables apply for Delete Message and Update Message.
#[inline]
pub(super) fn receipt_is_current(current: &PopReceipt, given: &PopReceipt) -> bool {
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
    /// transaction that deletes the queue's record (`SqlTables::dropped_by_host`) is left for
    /// that; any other is destroyed now.
    fn release(self) -> Result<(), TableError>
    where
        Self: Sized,
    {
        self.destroy()
    }
}

/// One queue's table, whichever kind. An enum rather than `Box<dyn MessageTable>`: calls are
/// static, and where no SQL table can be made (the web wasm, built without `sql-host`) the SQL
/// variant does not exist, so only the memory table is linked into what every page downloads
/// (its size has a ceiling, tests/package/install.test.mjs).
// One per queue, so the variants' sizes (about 200 and 400 B) do not matter; boxing would put
// the memory table, the one every page runs, behind one more pointer.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum AnyTable {
    Memory(MemoryTable),
    #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
    Sql(SqlTable),
}

/// `$call` on whichever table `$table` holds.
macro_rules! each_table {
    ($table:expr, $t:ident => $call:expr) => {
        match $table {
            AnyTable::Memory($t) => $call,
            #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
            AnyTable::Sql($t) => $call,
        }
    };
}

impl MessageTable for AnyTable {
    fn len(&self) -> usize {
        each_table!(self, t => t.len())
    }

    fn stored_bytes(&self) -> u64 {
        each_table!(self, t => t.stored_bytes())
    }

    fn next_seq(&self) -> u64 {
        each_table!(self, t => t.next_seq())
    }

    fn insert(&mut self, m: MessageRecord) -> Result<(), TableError> {
        each_table!(self, t => t.insert(m))
    }

    fn text_len(&self, id: &MessageId) -> Result<Option<usize>, TableError> {
        each_table!(self, t => t.text_len(id))
    }

    fn remove_expired(
        &mut self,
        now: Timestamp,
        limit: usize,
    ) -> Result<Vec<MessageId>, TableError> {
        each_table!(self, t => t.remove_expired(now, limit))
    }

    fn nothing_expired_by(&self, now: Timestamp) -> bool {
        each_table!(self, t => t.nothing_expired_by(now))
    }

    fn take_visible(
        &mut self,
        now: Timestamp,
        count: usize,
        hidden_until: Timestamp,
        receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Vec<MessageRecord>, TableError> {
        each_table!(self, t => t.take_visible(now, count, hidden_until, receipt))
    }

    fn peek(&mut self, now: Timestamp, count: usize) -> Result<Vec<MessageRecord>, TableError> {
        each_table!(self, t => t.peek(now, count))
    }

    fn remove_current(&mut self, id: &MessageId, receipt: &PopReceipt) -> Result<bool, TableError> {
        each_table!(self, t => t.remove_current(id, receipt))
    }

    fn update_current(
        &mut self,
        id: &MessageId,
        receipt: &PopReceipt,
        text: Option<Arc<str>>,
        visible_at: Timestamp,
        new_receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Option<MessageRecord>, TableError> {
        each_table!(self, t => t.update_current(id, receipt, text, visible_at, new_receipt))
    }

    fn clear(&mut self) -> Result<usize, TableError> {
        each_table!(self, t => t.clear())
    }

    fn in_order(&self) -> Result<Vec<MessageRecord>, TableError> {
        each_table!(self, t => t.in_order())
    }

    fn visit_in_order(
        &self,
        visit: &mut dyn FnMut(&MessageRecord) -> bool,
    ) -> Result<(), TableError> {
        each_table!(self, t => t.visit_in_order(visit))
    }

    fn next_times(
        &self,
        now: Timestamp,
    ) -> Result<(Option<Timestamp>, Option<Timestamp>), TableError> {
        each_table!(self, t => t.next_times(now))
    }

    fn destroy(self) -> Result<(), TableError> {
        each_table!(self, t => t.destroy())
    }

    fn release(self) -> Result<(), TableError> {
        each_table!(self, t => t.release())
    }
}

/// Where an emulator's queues keep their messages: it opens the table of each queue it
/// creates or restores. Memory unless the host gives SQL tables.
#[derive(Debug, Default, Clone)]
pub enum Tables {
    #[default]
    Memory,
    #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
    Sql(SqlTables),
}

impl Tables {
    /// The table of `account`'s queue `queue`, empty or as stored before.
    #[cfg_attr(
        all(target_arch = "wasm32", not(feature = "sql-host")),
        allow(unused_variables)
    )]
    pub fn open(&self, account: &str, queue: &QueueName) -> Result<AnyTable, TableError> {
        match self {
            Tables::Memory => Ok(AnyTable::Memory(MemoryTable::default())),
            #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
            Tables::Sql(tables) => Ok(AnyTable::Sql(tables.open(account, queue)?)),
        }
    }
}

#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
impl From<SqlTables> for Tables {
    fn from(tables: SqlTables) -> Self {
        Tables::Sql(tables)
    }
}
