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
}

impl MessageRecord {
    pub fn is_expired(&self, now: Timestamp) -> bool {
        self.expiration_time <= now
    }

    pub fn is_visible(&self, now: Timestamp) -> bool {
        self.time_next_visible <= now && !self.is_expired(now)
    }
}
