//! The one type a queue holds, whichever table keeps its messages ([`AnyTable`]), and where an
//! emulator gets each queue's ([`Tables`]): the engine's memory table, or a table a host brings
//! through a [`TableSource`] (the store layer's SQL table at the edge). The engine names no
//! host's table type, so a table that speaks SQL lives with the persistence, not here.

use super::MessageTable;
use super::memory::MemoryTable;
use crate::engine::error::TableError;
use crate::engine::ids::{MessageId, PopReceipt};
use crate::engine::message::MessageRecord;
use crate::engine::name::QueueName;
use crate::engine::time::Timestamp;
use std::sync::Arc;

/// A table a host brings, held behind a pointer: [`MessageTable`], with its consuming ends
/// callable on a box.
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub trait HostTable: MessageTable {
    /// [`MessageTable::destroy`] of the boxed table.
    fn destroy_boxed(self: Box<Self>) -> Result<(), TableError>;
    /// [`MessageTable::release`] of the boxed table.
    fn release_boxed(self: Box<Self>) -> Result<(), TableError>;
}

#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
impl<T: MessageTable> HostTable for T {
    fn destroy_boxed(self: Box<Self>) -> Result<(), TableError> {
        (*self).destroy()
    }

    fn release_boxed(self: Box<Self>) -> Result<(), TableError> {
        (*self).release()
    }
}

/// A host's table as a queue holds it. In wasm everything is on one thread; natively it is
/// `Send`, so an emulator over a host's tables is `Send` like one over memory (the Rust SDK's
/// transport needs it).
#[cfg(all(feature = "sql-host", target_arch = "wasm32"))]
pub type HostBox = Box<dyn HostTable>;
/// A host's table as a queue holds it (see the wasm32 definition).
#[cfg(not(target_arch = "wasm32"))]
pub type HostBox = Box<dyn HostTable + Send>;

/// Opens the table of each queue, for a host that keeps messages itself.
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub trait TableSource: std::fmt::Debug {
    /// The table of `account`'s queue `queue`, empty or as stored before.
    ///
    /// # Errors
    /// What the host's store reported.
    fn open(&self, account: &str, queue: &QueueName) -> Result<HostBox, TableError>;
}

/// How [`Tables`] shares a host's source (`Rc` in wasm, `Arc` of a `Send + Sync` one natively).
#[cfg(all(feature = "sql-host", target_arch = "wasm32"))]
pub type SharedTableSource = std::rc::Rc<dyn TableSource>;
/// How [`Tables`] shares a host's source (see the wasm32 definition).
#[cfg(not(target_arch = "wasm32"))]
pub type SharedTableSource = Arc<dyn TableSource + Send + Sync>;

/// One queue's table, whichever kind. An enum rather than `Box<dyn MessageTable>` throughout:
/// the memory table, the one every page runs, is called statically and held inline, and where
/// no host can bring a table (the web wasm, built without `sql-host`) the host variant does not
/// exist, so only the memory table is linked into what every page downloads (its size has a
/// ceiling, tests/package/install.test.mjs). A host's table is behind a pointer because its type
/// is the host's (the SQL table of `crate::store::sql`, above this layer), and each of its calls
/// runs SQL, beside which one indirect call is nothing.
#[derive(Debug)]
pub enum AnyTable {
    Memory(MemoryTable),
    #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
    Host(HostBox),
}

/// `$call` on whichever table `$table` holds.
macro_rules! each_table {
    ($table:expr, $t:ident => $call:expr) => {
        match $table {
            AnyTable::Memory($t) => $call,
            #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
            AnyTable::Host($t) => $call,
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
        match self {
            AnyTable::Memory(t) => t.destroy(),
            #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
            AnyTable::Host(t) => t.destroy_boxed(),
        }
    }

    fn release(self) -> Result<(), TableError> {
        match self {
            AnyTable::Memory(t) => t.release(),
            #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
            AnyTable::Host(t) => t.release_boxed(),
        }
    }
}

/// Where an emulator's queues keep their messages: it opens the table of each queue it
/// creates or restores. Memory unless the host gives a source of its own tables.
#[derive(Debug, Default, Clone)]
pub enum Tables {
    #[default]
    Memory,
    #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
    Host(SharedTableSource),
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
            Tables::Host(source) => Ok(AnyTable::Host(source.open(account, queue)?)),
        }
    }
}
