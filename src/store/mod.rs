//! Persistence: the contract every backend meets, and the memory backend.
//!
//! A store makes batches of [`Change`]s durable and gives everything back as a [`Snapshot`] at
//! start-up. It persists; it never decides (no pop-receipt checks here). Depends only on
//! `crate::engine`.

// The persisted layout and the IndexedDB message blocks are used by the stores in `src/wasm`;
// native builds compile them for their unit tests (`cargo test`), hence no unused-code warnings.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) mod blocks;
pub mod contract;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code, unused_imports))]
pub(crate) mod layout;
pub mod memory;
pub mod records;

pub use memory::MemoryStore;

use crate::engine::{Change, Snapshot};

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

/// Persists what the engine decided. Single-threaded (wasm), so no `Send` bounds.
#[allow(async_fn_in_trait)] // the store is used through concrete types, never `dyn`
pub trait Store {
    /// Everything saved so far, to rebuild the engine when it opens.
    async fn load(&self) -> Result<Snapshot, StoreError>;
    /// Makes one batch durable, atomically: all of it or none of it.
    async fn commit(&self, batch: Vec<Change>) -> Result<(), StoreError>;
}
