//! Where a `QueueService` makes each operation's changes durable before answering.
//!
//! The backend is chosen at `open()`: `memory` is `crate::store::MemoryStore`. IndexedDB comes
//! with the persistence work (a later issue); `open({ store: "indexeddb" })` says so until then.

use crate::engine::{Change, Snapshot};
use crate::store::{MemoryStore, Store, StoreError};
use std::cell::Cell;

/// The backend chosen at `open()`. An enum rather than `dyn Store`: async trait methods are not
/// object-safe, and a handful of variants do not justify boxing (style.md 3.4).
#[derive(Debug)]
pub(crate) enum AnyStore {
    Memory(MemoryStore),
}

/// A backend plus a count of what it committed (shown by `inspect()`).
#[derive(Debug)]
pub(crate) struct HostStore {
    backend: AnyStore,
    committed: Cell<u64>,
}

impl HostStore {
    pub(crate) fn memory() -> Self {
        HostStore {
            backend: AnyStore::Memory(MemoryStore::new()),
            committed: Cell::new(0),
        }
    }

    /// What the store saved, to rebuild the engine at `open()`.
    pub(crate) async fn load(&self) -> Result<Snapshot, StoreError> {
        match &self.backend {
            AnyStore::Memory(s) => s.load().await,
        }
    }

    /// Makes one operation's changes durable, all or nothing. Awaited before the operation's
    /// Promise (or HTTP response) resolves: the flush barrier of design.md, invariant 3.
    pub(crate) async fn commit(&self, batch: Vec<Change>) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        let n = batch.len() as u64;
        match &self.backend {
            AnyStore::Memory(s) => s.commit(batch).await?,
        }
        self.committed.set(self.committed.get() + n);
        Ok(())
    }

    /// Changes committed since `open()`.
    pub(crate) fn committed(&self) -> u64 {
        self.committed.get()
    }

    pub(crate) fn kind(&self) -> &'static str {
        match &self.backend {
            AnyStore::Memory(_) => "memory",
        }
    }
}
