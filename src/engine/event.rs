//! Observable events, for user interfaces and debugging (the teaching page animates them).
//!
//! Unlike [`super::change::Change`], events are not needed for durability; the emulator only
//! records them when asked to.

use super::ids::MessageId;
use super::name::QueueName;
use super::time::Timestamp;

/// What happened to a message or queue, and when it will next matter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    QueueCreated,
    QueueDeleted,
    /// Put Message; `visible_at` is later than `at` when sent with a delay.
    Sent {
        id: MessageId,
        visible_at: Timestamp,
    },
    /// Get Messages took the message until `visible_at`.
    Received {
        id: MessageId,
        dequeue_count: u32,
        visible_at: Timestamp,
    },
    /// Update Message (new text and/or visibility).
    Updated {
        id: MessageId,
        visible_at: Timestamp,
    },
    /// Delete Message with the current receipt.
    Deleted {
        id: MessageId,
    },
    /// The message's time to live ran out.
    Expired {
        id: MessageId,
    },
    /// Clear Messages removed `count` messages.
    Cleared {
        count: usize,
    },
}

/// An event with where and when it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub at: Timestamp,
    pub account: String,
    pub queue: QueueName,
    pub kind: EventKind,
}
