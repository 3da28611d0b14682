//! Persistence, pure Rust: the seam every durable backend implements, and everything about
//! saving that does not need a host.
//!
//! The engine's outbox of [`Change`](crate::engine::Change)s becomes a batch of record
//! operations ([`layout`]); a [`Store`] applies one batch atomically and gives every record back,
//! decoded, at start-up. A store persists; it never decides (no pop-receipt checks here).
//!
//! - [`layout`]: the records, keys and values every durable backend shares;
//! - [`group`]: the group commit in front of a store (one transaction for many operations);
//! - [`wal`] and [`blocks`]: the IndexedDB store's write-ahead log and message blocks;
//! - [`document`]: the snapshot document of export and import;
//! - [`key_value`]: the seam over an in-memory map, as a JS storage adapter holds it;
//! - [`sql`]: a queue's messages as rows of a SQL table (the edge's), the engine's
//!   `MessageTable` over a synchronous executor;
//! - [`known_answer`]: a fixed run of the engine and the log's encodings with known answers, for
//!   a host whose wasm engine may run it wrong (`selfCheck()`);
//! - [`contract`]: the suite every backend runs (natively on [`key_value`], in Chromium on
//!   IndexedDB, in Node on the journal).
//!
//! Depends only on `crate::engine` (never `crate::rest`, `crate::wasm`, `crate::http1`,
//! `web_sys`, `js_sys` or `wasm_bindgen`); the hosts in `src/wasm` do the I/O.

pub mod blocks;
pub mod contract;
pub mod document;
pub mod group;
pub mod key_value;
pub mod known_answer;
pub mod layout;
#[cfg(test)]
mod simulated_idb;
pub mod sql;
pub mod wal;

pub use key_value::KeyValueStore;
pub use layout::{Loaded, RecordOp};

/// Why a store could not do what was asked. Once a commit fails the store should be treated
/// as failed: the engine is ahead of what is durable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("storage failed: {0}")]
    Failed(String),
    #[error("storage quota exceeded")]
    QuotaExceeded,
    #[error(
        "the stored data has schema version {found}, newer than {supported} which this build reads"
    )]
    UnsupportedVersion { found: u32, supported: u32 },
}

/// The persistence seam: what production uses, and what the contract suite checks. Single-
/// threaded (wasm), so no `Send` bounds.
#[allow(async_fn_in_trait)] // used through concrete types and generics, never `dyn`
pub trait Store {
    /// Every record saved so far, decoded: the snapshot to rebuild the engine from, and the meta
    /// records (schema, clock).
    async fn load(&self) -> Result<Loaded, StoreError>;
    /// Applies one batch of record operations atomically and in order, resolving once it is
    /// durable: all of it or none of it.
    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError>;
}

/// A shared store is a store (the group commit and a test can both hold one).
impl<S: Store> Store for std::rc::Rc<S> {
    async fn load(&self) -> Result<Loaded, StoreError> {
        (**self).load().await
    }

    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        (**self).write(ops).await
    }
}
