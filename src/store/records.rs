//! The record layout every backend stores: one record per queue, per message and per
//! account's properties, keyed so that a queue's messages form one key range.
//!
//! | record            | key                          |
//! |-------------------|------------------------------|
//! | queue             | (account, queue)             |
//! | message           | (account, queue, message id) |
//! | service properties| account                      |
//!
//! Applying a [`Change`] touches only the records it names, so a change costs what it
//! touches, not the whole state.

use crate::engine::{
    AccountSnapshot, Change, MessageId, MessageRecord, QueueName, QueueRecord, QueueSnapshot,
    ServiceProperties, Snapshot,
};
use std::collections::BTreeMap;

/// Every record, in key order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Records {
    pub queues: BTreeMap<(String, QueueName), QueueRecord>,
    pub messages: BTreeMap<(String, QueueName, MessageId), MessageRecord>,
    pub properties: BTreeMap<String, ServiceProperties>,
}

impl Records {
    /// Applies one change.
    pub fn apply(&mut self, change: Change) {
        match change {
            Change::QueuePut { account, queue } => {
                self.queues.insert((account, queue.name.clone()), queue);
            }
            Change::QueueDeleted { account, queue } => {
                self.drop_messages(&account, &queue);
                self.queues.remove(&(account, queue));
            }
            Change::MessagePut {
                account,
                queue,
                message,
            } => {
                self.messages.insert((account, queue, message.id), message);
            }
            Change::MessageDeleted { account, queue, id } => {
                self.messages.remove(&(account, queue, id));
            }
            Change::QueueCleared { account, queue } => self.drop_messages(&account, &queue),
            Change::ServicePropertiesSet {
                account,
                properties,
            } => {
                self.properties.insert(account, properties);
            }
        }
    }

    /// Removes a queue's messages: one key range.
    fn drop_messages(&mut self, account: &str, queue: &QueueName) {
        let ids: Vec<_> = self
            .messages
            .range(
                (account.to_owned(), queue.clone(), MessageId::MIN)
                    ..=(account.to_owned(), queue.clone(), MessageId::MAX),
            )
            .map(|(k, _)| k.clone())
            .collect();
        for k in ids {
            self.messages.remove(&k);
        }
    }

    /// The records as the engine's start-up snapshot.
    pub fn to_snapshot(&self) -> Snapshot {
        let mut accounts: BTreeMap<String, AccountSnapshot> = BTreeMap::new();
        for (name, props) in &self.properties {
            accounts
                .entry(name.clone())
                .or_insert_with(|| AccountSnapshot {
                    name: name.clone(),
                    ..AccountSnapshot::default()
                })
                .properties = Some(props.clone());
        }
        for ((acct, qname), record) in &self.queues {
            let messages = self
                .messages
                .range(
                    (acct.clone(), qname.clone(), MessageId::MIN)
                        ..=(acct.clone(), qname.clone(), MessageId::MAX),
                )
                .map(|(_, m)| m.clone())
                .collect();
            accounts
                .entry(acct.clone())
                .or_insert_with(|| AccountSnapshot {
                    name: acct.clone(),
                    ..AccountSnapshot::default()
                })
                .queues
                .push(QueueSnapshot {
                    queue: record.clone(),
                    messages,
                });
        }
        Snapshot {
            accounts: accounts.into_values().collect(),
        }
    }
}
