//! The engine's errors: each names the Azure error code it becomes on the wire.

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
}

impl QueueError {
    /// The Azure error code, as in `x-ms-error-code`.
    pub fn code(&self) -> &'static str {
        match self {
            QueueError::QueueNotFound(_) => "QueueNotFound",
            QueueError::QueueAlreadyExists(_) => "QueueAlreadyExists",
            QueueError::MessageNotFound(_) => "MessageNotFound",
            QueueError::ServerBusy => "ServerBusy",
        }
    }

    /// The HTTP status the code travels with.
    pub fn status(&self) -> u16 {
        match self {
            QueueError::QueueNotFound(_) | QueueError::MessageNotFound(_) => 404,
            QueueError::QueueAlreadyExists(_) => 409,
            QueueError::ServerBusy => 503,
        }
    }
}
