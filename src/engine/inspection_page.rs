//! One page of a queue as the inspector reads it: the counts of the whole queue, then up to
//! `limit` of the messages a query matches (a state, a piece of text, one id), from the
//! `from`-th match on, in delivery order. One pass over the queue that copies only the page, so
//! the last page of 100,000 messages costs about what the first does, and neither takes the
//! server away from its producers for long.

use super::error::QueueError;
use super::ids::MessageId;
use super::inspection::{MessageInspection, MessageState, QueueInspection};
use super::message::MessageRecord;
use super::time::Timestamp;

/// The states the inspector filters by. `Invisible` is a received message not yet back;
/// `Scheduled`, one sent with a delay and never received (both are invisible to Get Messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateFilter {
    Visible,
    Invisible,
    Scheduled,
    Expired,
}

impl StateFilter {
    /// The filter named `name` (`visible`, `invisible`, `scheduled`, `expired`).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "visible" => StateFilter::Visible,
            "invisible" => StateFilter::Invisible,
            "scheduled" => StateFilter::Scheduled,
            "expired" => StateFilter::Expired,
            _ => return None,
        })
    }

    fn admits(self, m: &MessageRecord, now: Timestamp) -> bool {
        let scheduled = m.dequeue_count == 0;
        match (self, MessageState::of(m, now)) {
            (StateFilter::Visible, MessageState::Visible) => true,
            (StateFilter::Invisible, MessageState::Invisible) => !scheduled,
            (StateFilter::Scheduled, MessageState::Invisible) => scheduled,
            (StateFilter::Expired, MessageState::Expired) => true,
            _ => false,
        }
    }
}

/// Which messages a page lists: those matching every filter given, from the `from`-th match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageQuery {
    pub from: usize,
    /// At most this many; `None`: every match from `from` on.
    pub limit: Option<usize>,
    pub state: Option<StateFilter>,
    /// A piece of the message's text, matched exactly (case included).
    pub text: Option<String>,
    pub id: Option<MessageId>,
}

impl PageQuery {
    fn admits(&self, m: &MessageRecord, now: Timestamp) -> bool {
        self.state.is_none_or(|s| s.admits(m, now))
            && self.id.as_ref().is_none_or(|id| m.id == *id)
            && self.text.as_deref().is_none_or(|t| m.text.contains(t))
    }

    /// Whether the query lists every message (no filter).
    pub fn is_unfiltered(&self) -> bool {
        self.state.is_none() && self.text.is_none() && self.id.is_none()
    }
}

/// A queue's messages by state, whatever the query (`invisible` includes `scheduled`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateCounts {
    pub total: usize,
    pub visible: usize,
    pub invisible: usize,
    pub scheduled: usize,
    pub expired: usize,
}

/// One page as read.
#[derive(Clone, Debug)]
pub struct InspectedPage {
    pub counts: StateCounts,
    /// How many messages the query matches (all of them without a filter).
    pub matched: usize,
    pub messages: Vec<MessageInspection>,
    /// With an `id`, that message's place in the whole queue's delivery order (0 first):
    /// where a viewer pages to show it among its neighbours.
    pub position: Option<usize>,
}

impl QueueInspection<'_> {
    /// The page `query` asks for.
    ///
    /// # Errors
    /// What the queue's table reported.
    pub fn page(&self, query: &PageQuery) -> Result<InspectedPage, QueueError> {
        let now = self.now();
        let mut counts = StateCounts::default();
        let mut matched = 0;
        let mut position = None;
        let mut messages = Vec::new();
        let limit = query.limit.unwrap_or(usize::MAX);
        self.queue().visit_in_order(&mut |m| {
            if query.id.as_ref() == Some(&m.id) {
                position = Some(counts.total);
            }
            counts.total += 1;
            match MessageState::of(m, now) {
                MessageState::Visible => counts.visible += 1,
                MessageState::Invisible => {
                    counts.invisible += 1;
                    if m.dequeue_count == 0 {
                        counts.scheduled += 1;
                    }
                }
                MessageState::Expired => counts.expired += 1,
            }
            if query.admits(m, now) {
                if matched >= query.from && messages.len() < limit {
                    messages.push(MessageInspection::at(m.clone(), now));
                }
                matched += 1;
            }
            true
        })?;
        Ok(InspectedPage {
            counts,
            matched,
            messages,
            position,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{
        Emulator, MessageCount, MessageText, Metadata, QueueName, SeededEntropy, TimeToLive,
        VisibilityTimeout,
    };

    #[test]
    fn a_page_counts_the_whole_queue_and_lists_only_its_matches_from_the_kth() {
        let t = Timestamp::from_secs(1_700_000_000);
        let mut emu = Emulator::new(Box::new(SeededEntropy::new(3)));
        let q = QueueName::parse("paged").unwrap();
        emu.create_queue(t, "a", &q, Metadata::default()).unwrap();
        let vis = |s| VisibilityTimeout::new(s).unwrap();
        let mut ids = Vec::new();
        for i in 0..10 {
            let text = MessageText::new(format!("job {i}")).unwrap();
            let delay = if i == 9 { vis(60) } else { vis(0) };
            let ttl = if i == 8 {
                TimeToLive::new(1).unwrap()
            } else {
                TimeToLive::Never
            };
            ids.push(emu.put_message(t, "a", &q, text, delay, ttl).unwrap().id);
        }
        let two = MessageCount::new(2).unwrap();
        emu.get_messages(t, "a", &q, two, vis(30)).unwrap();
        let now = t.plus_secs(5);
        let view = emu.inspect_queue(now, "a", &q).unwrap();
        let texts = |p: &InspectedPage| -> Vec<String> {
            p.messages.iter().map(|m| m.text().to_owned()).collect()
        };
        let all = view
            .page(&PageQuery {
                from: 6,
                limit: Some(2),
                ..PageQuery::default()
            })
            .unwrap();
        let counts = StateCounts {
            total: 10,
            visible: 6,
            invisible: 3,
            scheduled: 1,
            expired: 1,
        };
        assert_eq!(all.counts, counts);
        assert_eq!(all.matched, 10);
        // Delivery order: the two received (due again at t+30) after those visible at t, the
        // scheduled one last.
        assert_eq!(texts(&all), ["job 8", "job 0"]);
        let by_state = |s| {
            let page = view
                .page(&PageQuery {
                    state: Some(s),
                    ..PageQuery::default()
                })
                .unwrap();
            assert_eq!(page.counts, counts, "the counts are the whole queue's");
            texts(&page)
        };
        assert_eq!(by_state(StateFilter::Invisible), ["job 0", "job 1"]);
        assert_eq!(by_state(StateFilter::Scheduled), ["job 9"]);
        assert_eq!(by_state(StateFilter::Expired), ["job 8"]);
        assert_eq!(by_state(StateFilter::Visible).len(), 6);
        let found = view
            .page(&PageQuery {
                text: Some("job 7".into()),
                ..PageQuery::default()
            })
            .unwrap();
        assert_eq!(
            (found.matched, texts(&found)),
            (1, vec!["job 7".to_owned()])
        );
        let by_id = view
            .page(&PageQuery {
                id: Some(ids[1]),
                ..PageQuery::default()
            })
            .unwrap();
        assert_eq!((by_id.matched, by_id.position), (1, Some(8)));
        assert_eq!(StateFilter::parse("leased"), None);
    }
}
