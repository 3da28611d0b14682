//! Bounds that keep one client from filling the process: queues per account and the bytes
//! stored across all queues. Past them, creating a queue or storing more message text is
//! answered `503 ServerBusy` (Azure's throttling answer, which the SDKs retry with backoff),
//! while every other request, of that client and of the others, is served as before:
//! reading, receiving, deleting and clearing free space and always go through.
//!
//! A message is charged its text's UTF-8 bytes plus [`MESSAGE_OVERHEAD_BYTES`] for its
//! record and index entries, so a flood of empty messages is bounded too.

use super::error::QueueError;
use super::{Emulator, MessageId, QueueName};

/// What one stored message costs besides its text: its record (id, sequence, four times,
/// dequeue count, pop receipt) and its two index entries. The engine benchmark measured about
/// 0.5 KB resident per message with its indexes (BENCHMARKS.md), so that is what is charged.
pub const MESSAGE_OVERHEAD_BYTES: u64 = 512;

/// Default bound on queues per account (Azure has none that a test would meet; an emulator
/// holding every queue in memory needs one).
pub const DEFAULT_QUEUES_PER_ACCOUNT: usize = 10_000;

/// Default bound on stored bytes across every account and queue: 1 GiB, about 16,000 full
/// 64 KiB messages or 2 million empty ones; well inside a wasm32 instance's 4 GiB.
pub const DEFAULT_STORED_BYTES: u64 = 1024 * 1024 * 1024;

/// The bounds an [`Emulator`] enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    pub queues_per_account: usize,
    pub stored_bytes: u64,
}

impl Default for Capacity {
    fn default() -> Self {
        Capacity {
            queues_per_account: DEFAULT_QUEUES_PER_ACCOUNT,
            stored_bytes: DEFAULT_STORED_BYTES,
        }
    }
}

/// The bytes a message with a text of `text_len` bytes is charged.
pub fn message_cost(text_len: usize) -> u64 {
    text_len as u64 + MESSAGE_OVERHEAD_BYTES
}

impl Emulator {
    /// Replaces the bounds (existing queues and messages stay, even above new bounds).
    pub fn set_capacity(&mut self, capacity: Capacity) {
        self.capacity = capacity;
    }

    pub fn capacity(&self) -> Capacity {
        self.capacity
    }

    /// Bytes charged for every stored message (see [`message_cost`]): the running total the
    /// emulator keeps as queues change, so admission is O(1) however many queues there are.
    pub fn stored_bytes(&self) -> u64 {
        self.charged_bytes
    }

    /// Refuses a new queue in `account` when it already has the most it may.
    pub(super) fn admit_queue(&self, account: &str) -> Result<(), QueueError> {
        let queues = self.accounts.get(account).map_or(0, |a| a.queues.len());
        if queues >= self.capacity.queues_per_account {
            return Err(QueueError::ServerBusy);
        }
        Ok(())
    }

    /// Refuses to store `growth` more bytes past the bound.
    pub(super) fn admit_bytes(&self, growth: u64) -> Result<(), QueueError> {
        if growth > 0 && self.stored_bytes().saturating_add(growth) > self.capacity.stored_bytes {
            return Err(QueueError::ServerBusy);
        }
        Ok(())
    }

    /// Refuses an update of `id` to a text of `new_len` bytes when the growth does not fit. A
    /// message that is not there is left to the update to refuse (404): nothing would grow.
    pub(super) fn admit_text_change(
        &self,
        account: &str,
        name: &QueueName,
        id: &MessageId,
        new_len: usize,
    ) -> Result<(), QueueError> {
        let old = match self.queue(account, name) {
            Ok(q) => q.text_len(id)?,
            Err(_) => None,
        };
        match old {
            Some(old) => self.admit_bytes((new_len as u64).saturating_sub(old as u64)),
            None => Ok(()),
        }
    }
}
