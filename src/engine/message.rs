//! One message and the two questions asked of it: is it visible, has it expired?

use super::ids::{MessageId, PopReceipt};
use super::time::Timestamp;

/// A stored message, with Azure's field names.
///
/// Visible iff `time_next_visible <= now < expiration_time`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MessageRecord {
    pub id: MessageId,
    /// Insertion order within the queue: the tie-breaker that keeps delivery FIFO-ish and
    /// survives a reload.
    pub seq: u64,
    pub text: std::sync::Arc<str>,
    pub insertion_time: Timestamp,
    pub expiration_time: Timestamp,
    pub time_next_visible: Timestamp,
    pub dequeue_count: u32,
    pub pop_receipt: PopReceipt,
    /// Where the inspector moved this message from (`<queue>-poison`'s messages); `None` for
    /// every message a client sent. Boxed: a pointer's width in every other record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Box<MessageOrigin>>,
}

/// A message moved to a poison queue: the queue it was in, its id there, and the DequeueCount
/// it had reached there (the copy starts again at 0).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MessageOrigin {
    pub queue: String,
    pub id: MessageId,
    pub dequeue_count: u32,
}

impl MessageRecord {
    pub fn is_expired(&self, now: Timestamp) -> bool {
        self.expiration_time <= now
    }

    pub fn is_visible(&self, now: Timestamp) -> bool {
        self.time_next_visible <= now && !self.is_expired(now)
    }
}
