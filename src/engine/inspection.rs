//! What inspecting shows: every queue's messages in delivery order, invisible ones and expired
//! ones not yet purged included, each with its state at `now`. The one model both faces render:
//! the REST development path `/_azqueue/inspect/…` as JSON with millisecond times
//! (`src/rest/dev/views.rs`), `QueueService.inspect()` as objects with `Date`s
//! (`src/wasm/inspect.rs`). Field names are the same on both.
//!
//! Read-only: nothing is purged, no receipt is issued, no dequeue count changes.
//!
//! **Pop receipts are shown.** Inspection is a development view: the REST path is served only
//! while the development paths are on (never when real account keys are configured), the
//! snapshot document behind the same switch already carries every receipt, and the JS face's
//! caller holds the service itself. Showing the current receipt is what lets a viewer (the
//! teaching page) tell which lease is the live one, and a stale receipt from a fresh one.

use super::Emulator;
use super::error::QueueError;
use super::ids::{MessageId, PopReceipt};
use super::message::MessageRecord;
use super::metadata::Metadata;
use super::name::QueueName;
use super::queue::Queue;
use super::time::{NEVER, Timestamp};

/// A message's state at the moment of inspection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageState {
    /// Would be delivered by Get Messages now.
    Visible,
    /// Received (leased) or scheduled: visible again at `next_visible_on`.
    Invisible,
    /// Past its time-to-live, not yet purged (the next operation on its queue purges it).
    Expired,
}

impl MessageState {
    /// `record`'s state at `now`.
    pub(super) fn of(record: &MessageRecord, now: Timestamp) -> Self {
        if record.is_expired(now) {
            MessageState::Expired
        } else if record.is_visible(now) {
            MessageState::Visible
        } else {
            MessageState::Invisible
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            MessageState::Visible => "visible",
            MessageState::Invisible => "invisible",
            MessageState::Expired => "expired",
        }
    }
}

/// One queue as inspected.
#[derive(Clone, Copy, Debug)]
pub struct QueueInspection<'a> {
    pub account: &'a str,
    queue: &'a Queue,
    now: Timestamp,
}

/// One message as inspected.
#[derive(Clone, Debug)]
pub struct MessageInspection {
    record: MessageRecord,
    pub state: MessageState,
}

impl<'a> QueueInspection<'a> {
    pub fn name(&self) -> &'a QueueName {
        self.queue.name()
    }

    pub fn metadata(&self) -> &'a Metadata {
        self.queue.metadata()
    }

    /// Messages stored, expired ones not yet purged included.
    pub fn message_count(&self) -> usize {
        self.queue.len()
    }

    /// When the queue next changes by itself (a message reappears or expires).
    ///
    /// # Errors
    /// What the queue's table reported.
    pub fn next_deadline(&self) -> Result<Option<Timestamp>, QueueError> {
        Ok(self.queue.next_deadline(self.now)?)
    }

    /// Every message in delivery order.
    ///
    /// # Errors
    /// What the queue's table reported.
    pub fn messages(&self) -> Result<Vec<MessageInspection>, QueueError> {
        let now = self.now;
        Ok(self
            .queue
            .messages_in_order()?
            .into_iter()
            .map(move |record| MessageInspection::at(record, now))
            .collect())
    }

    pub(super) fn queue(&self) -> &'a Queue {
        self.queue
    }

    pub(super) fn now(&self) -> Timestamp {
        self.now
    }
}

impl MessageInspection {
    /// `record` as inspected at `now`.
    pub(super) fn at(record: MessageRecord, now: Timestamp) -> Self {
        let state = MessageState::of(&record, now);
        MessageInspection { record, state }
    }

    pub fn id(&self) -> &MessageId {
        &self.record.id
    }

    pub fn text(&self) -> &str {
        &self.record.text
    }

    /// The text, shared rather than copied (a page of large messages is written out as is).
    pub fn shared_text(&self) -> std::sync::Arc<str> {
        self.record.text.clone()
    }

    pub fn inserted_on(&self) -> Timestamp {
        self.record.insertion_time
    }

    /// `None` for a message that never expires (time-to-live -1).
    pub fn expires_on(&self) -> Option<Timestamp> {
        (self.record.expiration_time < NEVER).then_some(self.record.expiration_time)
    }

    pub fn next_visible_on(&self) -> Timestamp {
        self.record.time_next_visible
    }

    pub fn dequeue_count(&self) -> u32 {
        self.record.dequeue_count
    }

    /// Where the inspector moved this message from, if it did (`<queue>-poison`'s messages).
    pub fn origin(&self) -> Option<&super::message::MessageOrigin> {
        self.record.origin.as_deref()
    }

    /// The current pop receipt: the only one a delete or update is accepted with.
    pub fn pop_receipt(&self) -> &PopReceipt {
        &self.record.pop_receipt
    }
}

impl Emulator {
    /// One queue as inspected at `now`, if it exists.
    pub fn inspect_queue<'a>(
        &'a self,
        now: Timestamp,
        account: &'a str,
        name: &QueueName,
    ) -> Option<QueueInspection<'a>> {
        let queue = self.queue(account, name).ok()?;
        Some(QueueInspection {
            account,
            queue,
            now,
        })
    }

    /// Every queue of every account the engine holds, in account and name order; with `only`,
    /// just the queue of that name in each account that has it.
    pub fn inspect(&self, now: Timestamp, only: Option<&QueueName>) -> Vec<QueueInspection<'_>> {
        let mut out = Vec::new();
        for (account, a) in &self.accounts {
            for (name, queue) in &a.queues {
                if only.is_none_or(|o| o == name) {
                    out.push(QueueInspection {
                        account,
                        queue,
                        now,
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MessageCount, MessageText, SeededEntropy, TimeToLive, VisibilityTimeout};

    #[test]
    fn inspection_shows_every_state_and_changes_nothing() {
        let t = Timestamp::from_secs(1_700_000_000);
        let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
        let q = QueueName::parse("seen").unwrap();
        emu.create_queue(t, "acct", &q, Metadata::default())
            .unwrap();
        let vis = |s| VisibilityTimeout::new(s).unwrap();
        let text = |s| MessageText::new(s).unwrap();
        emu.put_message(
            t,
            "acct",
            &q,
            text("short"),
            vis(0),
            TimeToLive::new(5).unwrap(),
        )
        .unwrap();
        emu.put_message(t, "acct", &q, text("leased"), vis(0), TimeToLive::Never)
            .unwrap();
        emu.put_message(t, "acct", &q, text("later"), vis(60), TimeToLive::Never)
            .unwrap();
        let two = MessageCount::new(2).unwrap();
        let got = emu.get_messages(t, "acct", &q, two, vis(30)).unwrap();
        emu.take_changes();
        let now = Timestamp::from_secs(1_700_000_010);
        let view = emu.inspect_queue(now, "acct", &q).unwrap();
        let states: Vec<_> = view
            .messages()
            .unwrap()
            .into_iter()
            .map(|m| (m.text().to_owned(), m.state, m.expires_on().is_some()))
            .collect();
        assert_eq!(
            states,
            [
                ("short".into(), MessageState::Expired, true),
                ("leased".into(), MessageState::Invisible, false),
                ("later".into(), MessageState::Invisible, false),
            ]
        );
        let leased = view.messages().unwrap().swap_remove(1);
        assert_eq!(
            leased.pop_receipt(),
            &got[1].pop_receipt,
            "the current receipt"
        );
        assert_eq!(leased.dequeue_count(), 1);
        assert_eq!(view.message_count(), 3);
        assert!(emu.take_changes().is_empty(), "inspection purges nothing");
        assert_eq!(emu.inspect(now, None).len(), 1);
        assert!(
            emu.inspect(now, Some(&QueueName::parse("other").unwrap()))
                .is_empty()
        );
    }
}
