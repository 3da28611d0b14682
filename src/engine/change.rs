//! The write-behind outbox: what each operation changed, for a store to make durable.
//!
//! The engine is authoritative and in memory. Every mutation appends [`Change`]s; the edge
//! drains them with `Emulator::take_changes` and commits them before it answers (the flush
//! barrier). A store persists; it never decides.

use super::acl::SignedIdentifier;
use super::ids::MessageId;
use super::message::MessageRecord;
use super::metadata::Metadata;
use super::name::QueueName;
use super::properties::ServiceProperties;

/// A queue's own state, without its messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueRecord {
    pub name: QueueName,
    pub metadata: Metadata,
    pub acl: Vec<SignedIdentifier>,
}

/// One durable effect, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    pub accounts: Vec<AccountSnapshot>,
}

/// One account's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountSnapshot {
    pub name: String,
    pub properties: Option<ServiceProperties>,
    pub queues: Vec<QueueSnapshot>,
}

/// One queue and its messages (in any order: `seq` restores the order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueSnapshot {
    pub queue: QueueRecord,
    pub messages: Vec<MessageRecord>,
}
