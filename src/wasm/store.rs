//! Where a `QueueService` makes each operation's changes durable before answering.
//!
//! TODO(store): `crate::store` (the `Store` trait, `MemoryStore`, and the IndexedDB store) is
//! being written separately. Until it lands, the memory backend here is a stand-in: the engine
//! itself already holds the whole state in memory, so a memory "commit" has nothing to make
//! more durable and only counts the changes (for `inspect()` and tests). Swap the variant for
//! `crate::store::MemoryStore` and add `Idb(IdbStore)` when they exist; the call sites already
//! drain `Emulator::take_changes()` after every operation and await `commit` before resolving.

use crate::engine::{Change, Snapshot};
use std::cell::Cell;
use wasm_bindgen::JsValue;

/// The backend chosen at `open()`. An enum rather than `dyn Store`: async trait methods are not
/// object-safe, and two variants do not justify boxing (style.md 3.4).
#[derive(Debug)]
pub(crate) enum AnyStore {
    Memory(MemoryBackend),
}

/// Counts what was committed; holds nothing (see the module note).
#[derive(Debug, Default)]
pub(crate) struct MemoryBackend {
    committed: Cell<u64>,
}

impl AnyStore {
    pub(crate) fn memory() -> Self {
        AnyStore::Memory(MemoryBackend::default())
    }

    /// What the store saved, to rebuild the engine at `open()`.
    pub(crate) async fn load(&self) -> Result<Snapshot, JsValue> {
        match self {
            AnyStore::Memory(_) => Ok(Snapshot::default()),
        }
    }

    /// Makes one operation's changes durable, all or nothing. Resolves before the operation's
    /// Promise (or HTTP response) does: the flush barrier of design.md, invariant 3.
    pub(crate) async fn commit(&self, batch: Vec<Change>) -> Result<(), JsValue> {
        match self {
            AnyStore::Memory(m) => {
                m.committed.set(m.committed.get() + batch.len() as u64);
                Ok(())
            }
        }
    }

    /// Changes committed since `open()`.
    pub(crate) fn committed(&self) -> u64 {
        match self {
            AnyStore::Memory(m) => m.committed.get(),
        }
    }

    pub(crate) fn kind(&self) -> &'static str {
        match self {
            AnyStore::Memory(_) => "memory",
        }
    }
}
