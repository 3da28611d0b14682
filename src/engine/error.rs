//! The engine's errors: an operation's ([`QueueError`]) and a message table's ([`TableError`]). Which Azure code and status each becomes is the REST layer's one table
//! (`rest/error/from_engine.rs`), for both faces.

use super::ids::MessageId;
use super::name::QueueName;

/// Why a queue operation did not happen. Nothing observable changed when one is returned
/// (expired messages may have been purged on the way).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueueError {
    #[error("queue `{0}` does not exist")]
    QueueNotFound(QueueName),
    #[error("queue `{0}` already exists with different metadata")]
    QueueAlreadyExists(QueueName),
    /// Unknown id, expired, deleted, or the receipt is no longer the current one: the real
    /// service answers all of these with 404 MessageNotFound.
    #[error("message `{0}` does not exist or the pop receipt is not current")]
    MessageNotFound(MessageId),
    /// A bound of `capacity.rs` (queues per account, stored bytes) would be passed.
    #[error("the server is busy: this would pass its bound on queues or stored bytes")]
    ServerBusy,
    /// The store holding the queue's messages failed (not full: that is `ServerBusy`).
    #[error("{0}")]
    Storage(String),
}

/// Why a message table could not do what it was asked. Only a host's table (SQL) fails: where
/// none can be made (the web wasm) this has no value at all, so the compiler drops every path
/// that handles one.
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

impl From<TableError> for QueueError {
    /// A full store is a bound like the others of `capacity.rs`: `503 ServerBusy`, which the
    /// SDKs retry with backoff while consumers free room. Any other failure is the server's.
    fn from(e: TableError) -> Self {
        match e {
            #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
            TableError::Full(_) => QueueError::ServerBusy,
            #[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
            TableError::Failed(_) => QueueError::Storage(e.to_string()),
        }
    }
}
