//! The persisted layout every durable backend shares (IndexedDB, JS storage adapters and so the
//! Node journal): which records exist, how they are keyed, what their values look like, and how
//! a batch of engine [`Change`]s becomes a batch of record operations.
//!
//! | record             | IndexedDB store | IndexedDB key              | adapter key                    |
//! |--------------------|-----------------|----------------------------|--------------------------------|
//! | queue              | `queues`        | `[account, queue]`         | `queue/<account>/<queue>`      |
//! | message            | `segments`*     | `[account, queue, seq / 64]` | `message/<account>/<queue>/<id>` |
//! | service properties | `properties`    | `account`                  | `properties/<account>`         |
//! | schema, clock      | `meta`          | `"schema"`, `"clock"`      | `meta/schema`, `meta/clock`    |
//! | commit (log)       | `log`           | a number counting up       | — (IndexedDB only, `wal.rs`) |
//!
//! \* IndexedDB (version 3) keeps messages in blocks of 64 consecutive insertion sequence
//! numbers, one record per block whose value is its messages' values, one per line
//! (`blocks.rs`; the object store's name, `segments`, predates the code's word); versions 1 and 2 kept one record per message in `messages`, keyed
//! `[account, queue, id]`. Adapters get one record per message.
//!
//! Values are JSON strings that name their own account and queue, so a backend can load with
//! one `getAll` per store and never needs to read keys back. A change costs what it touches.
//! A message keeps its insertion sequence (`seq`) in its record, so delivery order survives
//! reopening.
//!
//! A message value is a JSON array (schema 2), since messages are most of what a load reads:
//! `[account, queue, id, seq, text, insertion_time, expiration_time, time_next_visible,
//! dequeue_count, pop_receipt]`, about half the bytes of schema 1's object
//! `{"account", "queue", "message": {…}}`, which made Chromium's `getAll` and the decoding of
//! 100k messages about a quarter slower. Both forms are read (the first byte tells them apart),
//! so a store written by schema 1 needs no rewriting: its messages change form as they change.
//! Schema 3 adds an eleventh item to the value of a message the inspector moved to a poison
//! queue, its origin `{"queue", "id", "dequeue_count"}`; every other message is written as in
//! schema 2, so a schema-2 store is read as it is, and a schema-2 build refuses a schema-3
//! store rather than fail on (or drop) an origin.
//!
//! Turning a batch of changes into record operations is `ops.rs`; writing and reading one
//! message's value, `message_value.rs`; reading records (and a write-ahead log's operations)
//! back into a snapshot, `decode.rs`.

mod decode;
mod message_value;
mod ops;

pub use decode::{Decoder, Loaded};
pub(crate) use message_value::parse_message;
pub use message_value::{MessagePlace, message_place};
pub use ops::{Pending, clock_op, coalesce, ops, ops_of_changes, schema_op};

use crate::engine::{ClockAdjustment, MessageId, QueueName, QueueRecord, ServiceProperties};
use crate::store::StoreError;
use serde::{Deserialize, Serialize};

/// The record format this build writes and the newest it reads. Bump it (and teach
/// [`Decoder`] the old form) when a value's shape changes.
pub const SCHEMA_VERSION: u32 = 3;

/// Names one record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Queue {
        account: String,
        queue: QueueName,
    },
    Message {
        account: String,
        queue: QueueName,
        id: MessageId,
    },
    Properties {
        account: String,
    },
    Meta {
        name: &'static str,
    },
}

/// One write of a batch. A batch is applied atomically, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordOp {
    Put {
        key: Key,
        value: String,
    },
    Delete {
        key: Key,
    },
    /// Every message record of one queue (one key range).
    DeleteMessagesOf {
        account: String,
        queue: QueueName,
    },
    /// Every record.
    Clear,
}

#[derive(Serialize, Deserialize)]
struct StoredQueue {
    account: String,
    queue: QueueRecord,
}

#[derive(Serialize, Deserialize)]
struct StoredProperties {
    account: String,
    properties: ServiceProperties,
}

#[derive(Serialize, Deserialize)]
struct StoredSchema {
    version: u32,
}

/// The service clock at the last commit, and the wall clock at that moment: what a page with
/// a virtual clock needs to resume its timeline after reopening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedClock {
    /// The service clock (milliseconds since the epoch, possibly virtual).
    pub now: u64,
    /// `Date.now()` when it was saved.
    pub wall: u64,
    /// The adjustment made through `/_azqueue/clock` ([`ClockAdjustment::offset_ms`]), if
    /// any: restored at `open()`, so a moved clock stays moved across a restart. Flat fields
    /// rather than a nested record: each derived record costs its share of the wasm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_ms: Option<i64>,
    /// [`ClockAdjustment::paused_at`], when the adjustment is a paused clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused_at: Option<u64>,
}

impl SavedClock {
    /// The adjustment this record carries, if it carries one.
    pub fn adjustment(&self) -> Option<ClockAdjustment> {
        self.offset_ms.map(|offset_ms| ClockAdjustment {
            offset_ms,
            paused_at: self.paused_at,
        })
    }
}

impl Key {
    /// The IndexedDB object store that holds this record.
    pub fn store(&self) -> &'static str {
        match self {
            Key::Queue { .. } => QUEUES,
            Key::Message { .. } => MESSAGES,
            Key::Properties { .. } => PROPERTIES,
            Key::Meta { .. } => META,
        }
    }

    /// The key as one string, for key-value storage adapters. A queue's message keys share
    /// the prefix [`messages_prefix`].
    pub fn path(&self) -> String {
        match self {
            Key::Queue { account, queue } => {
                format!("queue/{}/{}", escape(account), queue.as_str())
            }
            Key::Message { account, queue, id } => {
                format!("{}{id}", messages_prefix(account, queue))
            }
            Key::Properties { account } => format!("properties/{}", escape(account)),
            Key::Meta { name } => format!("meta/{name}"),
        }
    }

    /// The key [`Key::path`] gave, read back.
    pub fn from_path(path: &str) -> Result<Key, StoreError> {
        let bad = || StoreError::Failed(format!("the stored record key `{path}` is unreadable"));
        let queue = |q: &str| QueueName::parse(q).map_err(|_| bad());
        let parts: Vec<&str> = path.split('/').collect();
        Ok(match parts.as_slice() {
            ["queue", account, q] => Key::Queue {
                account: unescape(account),
                queue: queue(q)?,
            },
            ["message", account, q, id] => Key::Message {
                account: unescape(account),
                queue: queue(q)?,
                id: MessageId::parse(id).ok_or_else(bad)?,
            },
            ["properties", account] => Key::Properties {
                account: unescape(account),
            },
            ["meta", "schema"] => Key::Meta { name: "schema" },
            ["meta", "clock"] => Key::Meta { name: "clock" },
            _ => return Err(bad()),
        })
    }

    fn message_queue(&self) -> Option<(&str, &QueueName)> {
        match self {
            Key::Message { account, queue, .. } => Some((account, queue)),
            _ => None,
        }
    }
}

pub const QUEUES: &str = "queues";
pub const MESSAGES: &str = "messages";
pub const PROPERTIES: &str = "properties";
pub const META: &str = "meta";
pub const STORES: [&str; 4] = [QUEUES, MESSAGES, PROPERTIES, META];

/// The adapter-key prefix of every message of one queue (ends in `/`, so `aaa` never matches
/// `aaab`'s messages).
pub fn messages_prefix(account: &str, queue: &QueueName) -> String {
    format!("message/{}/{}/", escape(account), queue.as_str())
}

/// Account names come from configuration and could contain `/` (or a line feed, which the
/// bulk load path uses as its separator); queue names and ids cannot.
fn escape(account: &str) -> String {
    account
        .replace('%', "%25")
        .replace('/', "%2F")
        .replace('\n', "%0A")
        .replace('\r', "%0D")
}

/// The inverse of [`escape`].
fn unescape(account: &str) -> String {
    if !account.contains('%') {
        return account.to_owned();
    }
    let mut out = String::with_capacity(account.len());
    let mut rest = account;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let (c, skip) = match rest.get(i..i + 3) {
            Some("%25") => ('%', 3),
            Some("%2F") => ('/', 3),
            Some("%0A") => ('\n', 3),
            Some("%0D") => ('\r', 3),
            _ => ('%', 1),
        };
        out.push(c);
        rest = &rest[i + skip..];
    }
    out.push_str(rest);
    out
}

fn json<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Failed(format!("encoding a record: {e}")))
}

fn parse<'a, T: Deserialize<'a>>(what: &str, value: &'a str) -> Result<T, StoreError> {
    serde_json::from_str(value)
        .map_err(|e| StoreError::Failed(format!("a stored {what} record is unreadable: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_from_their_paths() {
        let q = QueueName::parse("aaa").unwrap();
        for account in ["acct", "a/b\nc%2F\r%", "%"] {
            for key in [
                Key::Queue {
                    account: account.into(),
                    queue: q.clone(),
                },
                Key::Message {
                    account: account.into(),
                    queue: q.clone(),
                    id: crate::engine::MessageId::MIN,
                },
                Key::Properties {
                    account: account.into(),
                },
            ] {
                assert_eq!(Key::from_path(&key.path()).unwrap(), key);
            }
        }
        assert_eq!(
            Key::from_path("meta/clock").unwrap(),
            Key::Meta { name: "clock" }
        );
        assert!(Key::from_path("message/acct/aaa").is_err());
    }

    #[test]
    fn keys_keep_queues_apart_and_escape_account_names() {
        let q = QueueName::parse("aaa").unwrap();
        assert_eq!(messages_prefix("a/b\nc", &q), "message/a%2Fb%0Ac/aaa/");
        let other = Key::Message {
            account: "acct".into(),
            queue: QueueName::parse("aaab").unwrap(),
            id: crate::engine::MessageId::MIN,
        };
        assert!(!other.path().starts_with(&messages_prefix("acct", &q)));
    }

    #[test]
    fn a_newer_schema_or_an_unreadable_record_is_refused() {
        let mut d = Decoder::default();
        let err = d.add_meta("schema", r#"{"version":99}"#).unwrap_err();
        assert!(matches!(
            err,
            StoreError::UnsupportedVersion { found: 99, .. }
        ));
        assert!(d.add(MESSAGES, "{not json").is_err());
    }
}
