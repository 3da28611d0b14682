//! The message operations of the REST API: put, get, peek, delete, update and clear. Each
//! purges the queue's expired messages first, so none is ever delivered or counted, then
//! queues its changes for the store and its events for subscribers.

use super::capacity;
use super::change::Change;
use super::error::QueueError;
use super::event::EventKind;
use super::ids::{MessageId, PopReceipt};
use super::message::{MessageOrigin, MessageRecord};
use super::name::QueueName;
use super::params::{MessageCount, MessageText, TimeToLive, VisibilityTimeout};
use super::time::Timestamp;
use super::{Emulator, record_message};

/// Update Message's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Updated {
    pub pop_receipt: PopReceipt,
    pub time_next_visible: Timestamp,
}

impl Emulator {
    /// Queues the durable rewrite of one message record.
    fn queue_message_put(&mut self, account: &str, name: &QueueName, message: &MessageRecord) {
        record_message(self.message_changes, &mut self.outbox, || {
            Change::MessagePut {
                account: account.to_owned(),
                queue: name.clone(),
                message: message.clone(),
            }
        });
    }

    /// Whether a Put Message into `name` at `now` writes its table once and nothing else: the
    /// queue exists and its table knows nothing in it has expired (so the put purges nothing
    /// first). A host whose every statement costs a transaction may then run the put without
    /// one (a single statement is atomic by itself). False says only "not known".
    pub fn puts_one_row(&self, now: Timestamp, account: &str, name: &QueueName) -> bool {
        self.queue(account, name)
            .is_ok_and(|q| q.nothing_expired_by(now))
    }

    /// [Put Message](https://learn.microsoft.com/rest/api/storageservices/put-message).
    /// The caller has checked that `ttl` outlasts `visibility`.
    pub fn put_message(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        text: MessageText,
        visibility: VisibilityTimeout,
        ttl: TimeToLive,
    ) -> Result<MessageRecord, QueueError> {
        self.put_message_from(now, account, name, text, visibility, ttl, None)
    }

    /// [`Emulator::put_message`] of a message moved from `origin` (the inspector's move to a
    /// poison queue), which its record keeps.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn put_message_from(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        text: MessageText,
        visibility: VisibilityTimeout,
        ttl: TimeToLive,
        origin: Option<Box<MessageOrigin>>,
    ) -> Result<MessageRecord, QueueError> {
        self.purge(now, account, name)?;
        self.admit_bytes(capacity::message_cost(text.as_str().len()))?;
        let m = self.with_queue(account, name, |q, entropy| {
            q.put(now, text, visibility, ttl, origin, entropy)
        })?;
        self.queue_message_put(account, name, &m);
        self.emit(
            now,
            account,
            name,
            EventKind::Sent {
                id: m.id,
                visible_at: m.time_next_visible,
            },
        );
        Ok(m)
    }

    /// [Get Messages](https://learn.microsoft.com/rest/api/storageservices/get-messages):
    /// up to `count` visible messages, each hidden for `visibility` with a fresh receipt and
    /// its dequeue count incremented.
    pub fn get_messages(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        count: MessageCount,
        visibility: VisibilityTimeout,
    ) -> Result<Vec<MessageRecord>, QueueError> {
        self.purge(now, account, name)?;
        let got = self.with_queue(account, name, |q, entropy| {
            q.get(now, count, visibility, entropy)
        })?;
        for m in &got {
            self.queue_message_put(account, name, m);
            self.emit(
                now,
                account,
                name,
                EventKind::Received {
                    id: m.id,
                    dequeue_count: m.dequeue_count,
                    visible_at: m.time_next_visible,
                },
            );
        }
        Ok(got)
    }

    /// [Peek Messages](https://learn.microsoft.com/rest/api/storageservices/peek-messages):
    /// up to `count` visible messages; visibility, receipts and counts are untouched.
    pub fn peek_messages(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        count: MessageCount,
    ) -> Result<Vec<MessageRecord>, QueueError> {
        self.purge(now, account, name)?;
        self.with_queue(account, name, |q, _| q.peek(now, count))
    }

    /// [Delete Message](https://learn.microsoft.com/rest/api/storageservices/delete-message2).
    ///
    /// # Errors
    /// `MessageNotFound` when the message is gone, expired, or `receipt` is not its current one.
    pub fn delete_message(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        id: &MessageId,
        receipt: &PopReceipt,
    ) -> Result<(), QueueError> {
        self.purge(now, account, name)?;
        if !self.with_queue(account, name, |q, _| q.delete(id, receipt))? {
            return Err(QueueError::MessageNotFound(*id));
        }
        record_message(self.message_changes, &mut self.outbox, || {
            Change::MessageDeleted {
                account: account.to_owned(),
                queue: name.clone(),
                id: *id,
            }
        });
        self.emit(now, account, name, EventKind::Deleted { id: *id });
        Ok(())
    }

    /// [Update Message](https://learn.microsoft.com/rest/api/storageservices/update-message):
    /// new text (if given) and visibility, a fresh receipt; the dequeue count is unchanged.
    #[allow(clippy::too_many_arguments)] // the REST operation's own parameter list
    pub fn update_message(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
        id: &MessageId,
        receipt: &PopReceipt,
        text: Option<MessageText>,
        visibility: VisibilityTimeout,
    ) -> Result<Updated, QueueError> {
        // Purge first: an expired message is not found (404, not 503), and the bytes of expired
        // messages are no longer charged when the growth is admitted.
        self.purge(now, account, name)?;
        if let Some(t) = &text {
            self.admit_text_change(account, name, id, t.as_str().len())?;
        }
        let m = self
            .with_queue(account, name, |q, entropy| {
                q.update(now, id, receipt, text, visibility, entropy)
            })?
            .ok_or(QueueError::MessageNotFound(*id))?;
        let updated = Updated {
            pop_receipt: m.pop_receipt.clone(),
            time_next_visible: m.time_next_visible,
        };
        self.emit(
            now,
            account,
            name,
            EventKind::Updated {
                id: m.id,
                visible_at: m.time_next_visible,
            },
        );
        self.queue_message_put(account, name, &m);
        Ok(updated)
    }

    /// [Clear Messages](https://learn.microsoft.com/rest/api/storageservices/clear-messages).
    pub fn clear_messages(
        &mut self,
        now: Timestamp,
        account: &str,
        name: &QueueName,
    ) -> Result<(), QueueError> {
        // Purge first so expired messages are reported as expired, not as cleared.
        self.purge(now, account, name)?;
        let count = self.with_queue(account, name, |q, _| q.clear())?;
        record_message(self.message_changes, &mut self.outbox, || {
            Change::QueueCleared {
                account: account.to_owned(),
                queue: name.clone(),
            }
        });
        self.emit(now, account, name, EventKind::Cleared { count });
        Ok(())
    }
}
