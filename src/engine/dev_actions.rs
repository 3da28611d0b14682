//! What the inspector does to one message, beside what a client can do: delete it, make it
//! visible now, move it to `<queue>-poison`, without holding its pop receipt. Each is built from
//! the REST operations themselves (with the message's current receipt), so its changes reach
//! the store's outbox and its events the subscribers exactly as a client's would, and one
//! action's changes are one batch (one transaction).
//!
//! A move is three operations (create the poison queue if missing, put, delete), so it checks
//! every refusal they could meet before the first of them, in the state each will meet it in:
//! a refused move changes nothing. After those checks only the store itself can fail (a SQL
//! table's statement), and the host then rolls the request's transaction back whole.

use super::Emulator;
use super::capacity::message_cost;
use super::error::QueueError;
use super::ids::{MessageId, PopReceipt};
use super::message::MessageOrigin;
use super::metadata::Metadata;
use super::name::QueueName;
use super::params::{MessageText, TimeToLive, VisibilityTimeout};
use super::time::{NEVER, Timestamp};

/// Why an inspector action was refused. Checked before anything changes.
#[derive(Debug, PartialEq, Eq)]
pub enum ActionError {
    /// No such queue or no such (unexpired) message in it.
    NotFound(String),
    /// The poison queue's name (`<queue>-poison`) is not a valid queue name.
    BadPoisonName(String),
    /// The engine refused (a bound on queues or bytes) or the queue's table failed.
    Refused(QueueError),
}

/// What the poison queue of `queue` is called.
pub fn poison_name(queue: &QueueName) -> Result<QueueName, ActionError> {
    let name = format!("{}-poison", queue.as_str());
    QueueName::parse(&name).map_err(|_| {
        ActionError::BadPoisonName(format!("`{name}` is not a valid queue name (too long)"))
    })
}

impl Emulator {
    /// The current receipt, text, expiry and dequeue count of an unexpired message.
    fn current(
        &self,
        now: Timestamp,
        account: &str,
        queue: &QueueName,
        id: &MessageId,
    ) -> Result<(PopReceipt, String, Timestamp, u32), ActionError> {
        let view = self
            .inspect_queue(now, account, queue)
            .ok_or_else(|| ActionError::NotFound("no such queue".into()))?;
        view.messages()
            .map_err(ActionError::Refused)?
            .into_iter()
            .find(|m| m.id() == id && m.state != super::MessageState::Expired)
            .map(|m| {
                let expires = m.expires_on().unwrap_or(NEVER);
                let count = m.dequeue_count();
                (m.pop_receipt().clone(), m.text().to_owned(), expires, count)
            })
            .ok_or_else(|| ActionError::NotFound("no such message (deleted or expired)".into()))
    }

    /// Deletes a message whatever its state or receipt.
    pub fn inspector_delete(
        &mut self,
        now: Timestamp,
        account: &str,
        queue: &QueueName,
        id: &MessageId,
    ) -> Result<(), ActionError> {
        let (receipt, ..) = self.current(now, account, queue, id)?;
        self.delete_message(now, account, queue, id, &receipt)
            .map_err(ActionError::Refused)
    }

    /// Makes a leased or scheduled message visible now (a fresh receipt, as Update Message
    /// gives; its dequeue count is unchanged).
    pub fn inspector_make_visible(
        &mut self,
        now: Timestamp,
        account: &str,
        queue: &QueueName,
        id: &MessageId,
    ) -> Result<(), ActionError> {
        let (receipt, ..) = self.current(now, account, queue, id)?;
        let zero = VisibilityTimeout::new(0).map_err(|_| ActionError::NotFound(String::new()))?;
        self.update_message(now, account, queue, id, &receipt, None, zero)
            .map(|_| ())
            .map_err(ActionError::Refused)
    }

    /// Moves a message to `<queue>-poison` (created if missing), visible there now with the
    /// time to live it had left; answers the poison queue's name and the new message's id.
    /// All or nothing (see the module's note).
    pub fn inspector_poison(
        &mut self,
        now: Timestamp,
        account: &str,
        queue: &QueueName,
        id: &MessageId,
    ) -> Result<(QueueName, MessageId), ActionError> {
        let poison = poison_name(queue)?;
        // Expired messages go first, as in every operation (changes of their own, made whether
        // or not the move is), so the checks below see what the steps will see.
        self.purge(now, account, queue)
            .map_err(|_| ActionError::NotFound("no such queue".into()))?;
        let exists = self.queue(account, &poison).is_ok();
        if exists {
            self.purge(now, account, &poison)
                .map_err(ActionError::Refused)?;
        }
        let (receipt, text, expires, dequeue_count) = self.current(now, account, queue, id)?;
        let ttl = if expires >= NEVER {
            TimeToLive::Never
        } else {
            // At least a second: the message was unexpired a moment ago.
            let left = expires.as_millis().saturating_sub(now.as_millis());
            TimeToLive::Secs(left.div_ceil(1000).max(1))
        };
        let text = MessageText::new(text).map_err(|_| ActionError::NotFound(String::new()))?;
        let zero = VisibilityTimeout::new(0).map_err(|_| ActionError::NotFound(String::new()))?;
        // The bounds Create Queue and Put Message check, checked now: creating the queue adds no
        // bytes, so both see the state they would see after it.
        if !exists {
            self.admit_queue(account).map_err(ActionError::Refused)?;
        }
        self.admit_bytes(message_cost(text.as_str().len()))
            .map_err(ActionError::Refused)?;
        if !exists {
            self.create_queue(now, account, &poison, Metadata::default())
                .map_err(ActionError::Refused)?;
        }
        // The copy is a new message (its DequeueCount starts at 0): it keeps where it came from
        // and how often it had been handed out there, for whoever looks at it next.
        let origin = Box::new(MessageOrigin {
            queue: queue.as_str().to_owned(),
            id: *id,
            dequeue_count,
        });
        let moved = self
            .put_message_from(now, account, &poison, text, zero, ttl, Some(origin))
            .map_err(ActionError::Refused)?;
        self.delete_message(now, account, queue, id, &receipt)
            .map_err(ActionError::Refused)?;
        Ok((poison, moved.id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MessageCount, SeededEntropy};

    fn setup() -> (Emulator, QueueName, Timestamp) {
        let t = Timestamp::from_secs(1_700_000_000);
        let mut emu = Emulator::new(Box::new(SeededEntropy::new(7)));
        let q = QueueName::parse("work").unwrap();
        emu.create_queue(t, "a", &q, Metadata::default()).unwrap();
        (emu, q, t)
    }

    #[test]
    fn a_leased_message_is_made_visible_deleted_and_poisoned_without_its_receipt() {
        let (mut emu, q, t) = setup();
        let text = |s: &str| MessageText::new(s.to_owned()).unwrap();
        let vis = |s| VisibilityTimeout::new(s).unwrap();
        let ttl = TimeToLive::new(100).unwrap();
        let a = emu
            .put_message(t, "a", &q, text("one"), vis(0), ttl)
            .unwrap();
        let b = emu
            .put_message(t, "a", &q, text("two"), vis(60), ttl)
            .unwrap();
        let one = MessageCount::new(1).unwrap();
        emu.get_messages(t, "a", &q, one, vis(30)).unwrap();
        emu.take_changes();
        emu.inspector_make_visible(t, "a", &q, &a.id).unwrap();
        let got = emu.get_messages(t, "a", &q, one, vis(30)).unwrap();
        assert_eq!((got[0].id, got[0].dequeue_count), (a.id, 2));
        let later = t.plus_secs(10);
        let (poison, moved) = emu.inspector_poison(later, "a", &q, &b.id).unwrap();
        assert_eq!(poison.as_str(), "work-poison");
        let view = emu.inspect_queue(later, "a", &poison).unwrap();
        let m = view.messages().unwrap().swap_remove(0);
        assert_eq!((m.id(), m.text()), (&moved, "two"));
        assert_eq!(m.dequeue_count(), 0);
        assert_eq!(
            m.origin(),
            Some(&MessageOrigin {
                queue: "work".into(),
                id: b.id,
                dequeue_count: 0,
            })
        );
        assert_eq!(m.expires_on(), Some(t.plus_secs(100)));
        emu.inspector_delete(later, "a", &q, &a.id).unwrap();
        assert_eq!(
            emu.inspect_queue(later, "a", &q).unwrap().message_count(),
            0
        );
        assert_eq!(
            emu.inspector_delete(later, "a", &q, &a.id),
            Err(ActionError::NotFound(
                "no such message (deleted or expired)".into()
            ))
        );
        assert!(!emu.take_changes().is_empty(), "the actions are changes");
    }

    #[test]
    fn a_poison_name_past_63_characters_is_refused_before_anything_changes() {
        let long = QueueName::parse(&"q".repeat(60)).unwrap();
        assert!(matches!(
            poison_name(&long),
            Err(ActionError::BadPoisonName(_))
        ));
    }
}
