//! The write-behind outbox: what each operation changed, for a store to make durable.
//!
//! The engine decides; its message table holds the state (in memory, or the SQL table's rows
//! at the edge). Every mutation appends [`Change`]s; a host drains them with
//! `Emulator::take_changes` and commits them before it answers (the flush barrier). A store
//! persists; it never decides.

use super::acl::SignedIdentifier;
use super::ids::MessageId;
use super::message::MessageRecord;
use super::metadata::Metadata;
use super::name::QueueName;
use super::properties::ServiceProperties;

/// A queue's own state, without its messages.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QueueRecord {
    pub name: QueueName,
    pub metadata: Metadata,
    pub acl: Vec<SignedIdentifier>,
}

/// One durable effect, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Change {
    /// A queue was created or its metadata or ACL changed: overwrite its record.
    QueuePut { account: String, queue: QueueRecord },
    /// A queue and all its messages are gone.
    QueueDeleted { account: String, queue: QueueName },
    /// A message was inserted or rewritten (dequeue, update): overwrite its record.
    MessagePut {
        account: String,
        queue: QueueName,
        message: MessageRecord,
    },
    /// A message left the queue (delete with receipt, or TTL expiry).
    MessageDeleted {
        account: String,
        queue: QueueName,
        id: MessageId,
    },
    /// Every message of the queue left (Clear Messages).
    QueueCleared { account: String, queue: QueueName },
    /// The account's service properties were replaced.
    ServicePropertiesSet {
        account: String,
        properties: ServiceProperties,
    },
}

/// Everything a store holds, to rebuild the engine at start-up.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Snapshot {
    pub accounts: Vec<AccountSnapshot>,
}

/// One account's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AccountSnapshot {
    pub name: String,
    pub properties: Option<ServiceProperties>,
    pub queues: Vec<QueueSnapshot>,
}

/// One queue and its messages (in any order: `seq` restores the order).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QueueSnapshot {
    pub queue: QueueRecord,
    pub messages: Vec<MessageRecord>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{
        Emulator, MessageText, SeededEntropy, TimeToLive, Timestamp, VisibilityTimeout,
    };

    /// Hosts that persist outside Rust (the Node journal, storage adapters) carry changes as
    /// JSON: every change must come back exactly.
    #[test]
    fn changes_round_trip_through_json() {
        let mut emu = Emulator::new(Box::new(SeededEntropy::new(3)));
        let t = Timestamp::from_secs(1_700_000_000);
        let q = QueueName::parse("json-queue").unwrap();
        emu.create_queue(
            t,
            "acct",
            &q,
            Metadata::from_pairs([("Team", "web")]).unwrap(),
        )
        .unwrap();
        let text = MessageText::new("a <b> & \u{20ac}").unwrap();
        emu.put_message(
            t,
            "acct",
            &q,
            text,
            VisibilityTimeout::new(5).unwrap(),
            TimeToLive::Never,
        )
        .unwrap();
        emu.clear_messages(t, "acct", &q).unwrap();
        emu.set_service_properties("acct", Default::default());
        for change in emu.take_changes() {
            let json = serde_json::to_string(&change).unwrap();
            let back: Change = serde_json::from_str(&json).unwrap();
            assert_eq!(back, change, "{json}");
        }
    }

    #[test]
    fn invalid_stored_names_and_receipts_are_refused_on_load() {
        let bad = r#"{"type":"queueDeleted","account":"a","queue":"Not_A_Queue"}"#;
        assert!(serde_json::from_str::<Change>(bad).is_err());
    }
}
