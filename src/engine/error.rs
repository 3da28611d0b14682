//! The engine's errors. Which Azure code and status each becomes is the REST layer's one table
//! (`rest/error/from_engine.rs`), for both faces.

use super::ids::MessageId;
use super::message_table::TableError;
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
