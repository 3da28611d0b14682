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
//! Reading records (and a write-ahead log's operations) back into a snapshot is `decode.rs`.

mod decode;

pub use decode::{Decoder, Loaded};

use crate::engine::{
    Change, ClockAdjustment, MessageId, MessageOrigin, MessageRecord, PopReceipt, QueueName,
    QueueRecord, ServiceProperties, Snapshot, Timestamp,
};
use crate::store::StoreError;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashSet;

/// The record format this build writes and the newest it reads. Bump it (and teach
/// [`Decoder`] the old form) when a value's shape changes.
pub const SCHEMA_VERSION: u32 = 3;

/// One item of a pending batch: an engine change, or a replacement of the whole state (import,
/// reset, and a rewrite of an older layout) with a snapshot.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    Change(Change),
    /// Everything stored goes, and the snapshot's queues, messages and properties take its place.
    Replace(Snapshot),
    /// Nothing but the clock record, which every write carries: a clock adjustment to keep.
    Clock,
}

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

/// A message value as written (schema 2, and 3 for a message with an origin): a JSON array,
/// see the module docs.
type MessageOut<'a> = (
    &'a str,
    &'a str,
    &'a MessageId,
    u64,
    &'a str,
    Timestamp,
    Timestamp,
    Timestamp,
    u32,
    &'a PopReceipt,
);

/// A schema-2 or -3 message value as read back: names borrowed from the value (messages
/// outnumber queues, so a queue's name is checked once, when its group becomes a queue).
struct MessageIn<'a> {
    account: Cow<'a, str>,
    queue: Cow<'a, str>,
    record: MessageRecord,
}

impl<'de: 'a, 'a> Deserialize<'de> for MessageIn<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(MessageInVisitor(std::marker::PhantomData))
    }
}

struct MessageInVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> serde::de::Visitor<'de> for MessageInVisitor<'a> {
    type Value = MessageIn<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a message value: an array of 10 items, or 11 with an origin")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        let mut n = 0;
        let mut next = || {
            n += 1;
            n
        };
        macro_rules! item {
            () => {{
                let i = next();
                seq.next_element()?
                    .ok_or_else(|| A::Error::invalid_length(i - 1, &self))?
            }};
        }
        let account: Cow<'a, str> = item!();
        let queue: Cow<'a, str> = item!();
        let record = MessageRecord {
            id: item!(),
            seq: item!(),
            text: item!(),
            insertion_time: item!(),
            expiration_time: item!(),
            time_next_visible: item!(),
            dequeue_count: item!(),
            pop_receipt: item!(),
            origin: seq.next_element::<Box<MessageOrigin>>()?,
        };
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::invalid_length(12, &self));
        }
        Ok(MessageIn {
            account,
            queue,
            record,
        })
    }
}

/// A schema-1 message value as read back.
#[derive(Deserialize)]
struct StoredMessageV1<'a> {
    #[serde(borrow)]
    account: Cow<'a, str>,
    #[serde(borrow)]
    queue: Cow<'a, str>,
    message: MessageRecord,
}

/// A stored message value of either schema: its account, queue and record.
pub(crate) fn parse_message(
    value: &str,
) -> Result<(Cow<'_, str>, Cow<'_, str>, MessageRecord), StoreError> {
    if value.starts_with('[') {
        let m: MessageIn = parse("message", value)?;
        Ok((m.account, m.queue, m.record))
    } else {
        let m: StoredMessageV1 = parse("message", value)?;
        Ok((m.account, m.queue, m.message))
    }
}

/// The value [`parse_message`] reads back.
fn message_value(
    account: &str,
    queue: &QueueName,
    m: &MessageRecord,
) -> Result<String, StoreError> {
    let out: MessageOut = (
        account,
        queue.as_str(),
        &m.id,
        m.seq,
        &m.text,
        m.insertion_time,
        m.expiration_time,
        m.time_next_visible,
        m.dequeue_count,
        &m.pop_receipt,
    );
    // Sized for the whole value at once: grown from serde_json's first 128 bytes, a 1 KiB
    // text's value went through buffers of 128, 256, 512, 1,024 and 2,048 bytes, whose freed
    // pieces, too small for the next texts, fragmented the wasm heap (which never shrinks).
    let mut value = Vec::with_capacity(VALUE_OVERHEAD + account.len() + m.text.len());
    let written = match &m.origin {
        None => serde_json::to_writer(&mut value, &out),
        // The same array with the origin as an eleventh item (schema 3).
        Some(origin) => {
            let (a, q, id, seq, text, inserted, expires, visible, dequeues, receipt) = out;
            let with_origin = (
                a, q, id, seq, text, inserted, expires, visible, dequeues, receipt, origin,
            );
            serde_json::to_writer(&mut value, &with_origin)
        }
    };
    written.map_err(|e| StoreError::Failed(format!("encoding a record: {e}")))?;
    String::from_utf8(value).map_err(|e| StoreError::Failed(format!("encoding a record: {e}")))
}

/// A message value's bytes besides its account's name and its text: the queue name (up to 63),
/// the id (38 with quotes), the numbers, the receipt and the JSON punctuation.
const VALUE_OVERHEAD: usize = 200;

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

/// The `meta/schema` record this build writes.
pub fn schema_op() -> Result<RecordOp, StoreError> {
    Ok(RecordOp::Put {
        key: Key::Meta { name: "schema" },
        value: json(&StoredSchema {
            version: SCHEMA_VERSION,
        })?,
    })
}

/// The `meta/clock` record.
pub fn clock_op(clock: SavedClock) -> Result<RecordOp, StoreError> {
    Ok(RecordOp::Put {
        key: Key::Meta { name: "clock" },
        value: json(&clock)?,
    })
}

/// A batch as record operations, without the writes a later item of the same batch
/// overwrites (a message put, received and deleted within one group commit costs one delete).
pub fn ops(batch: Vec<Pending>) -> Result<Vec<RecordOp>, StoreError> {
    let mut all = Vec::with_capacity(batch.len());
    for item in batch {
        match item {
            Pending::Change(change) => change_ops(change, &mut all)?,
            Pending::Replace(snapshot) => {
                all.push(RecordOp::Clear);
                for change in snapshot_changes(snapshot) {
                    change_ops(change, &mut all)?;
                }
            }
            Pending::Clock => {}
        }
    }
    Ok(coalesce(all))
}

/// [`ops`] of engine changes alone: what a record store's `Store::commit` writes.
pub fn ops_of_changes(batch: Vec<Change>) -> Result<Vec<RecordOp>, StoreError> {
    ops(batch.into_iter().map(Pending::Change).collect())
}

fn change_ops(change: Change, out: &mut Vec<RecordOp>) -> Result<(), StoreError> {
    match change {
        Change::QueuePut { account, queue } => {
            let key = Key::Queue {
                account: account.clone(),
                queue: queue.name.clone(),
            };
            let value = json(&StoredQueue { account, queue })?;
            out.push(RecordOp::Put { key, value });
        }
        Change::QueueDeleted { account, queue } => {
            out.push(RecordOp::DeleteMessagesOf {
                account: account.clone(),
                queue: queue.clone(),
            });
            out.push(RecordOp::Delete {
                key: Key::Queue { account, queue },
            });
        }
        Change::MessagePut {
            account,
            queue,
            message,
        } => {
            let key = Key::Message {
                account: account.clone(),
                queue: queue.clone(),
                id: message.id,
            };
            let value = message_value(&account, &queue, &message)?;
            out.push(RecordOp::Put { key, value });
        }
        Change::MessageDeleted { account, queue, id } => out.push(RecordOp::Delete {
            key: Key::Message { account, queue, id },
        }),
        Change::QueueCleared { account, queue } => {
            out.push(RecordOp::DeleteMessagesOf { account, queue })
        }
        Change::ServicePropertiesSet {
            account,
            properties,
        } => {
            let key = Key::Properties {
                account: account.clone(),
            };
            let value = json(&StoredProperties {
                account,
                properties,
            })?;
            out.push(RecordOp::Put { key, value });
        }
    }
    Ok(())
}

/// Drops every operation whose effect a later operation of the batch replaces. Walks the batch
/// backwards: a key written later, a queue whose messages are deleted later, or a later
/// `Clear` makes an earlier write pointless. The final state is the same either way.
pub fn coalesce(ops: Vec<RecordOp>) -> Vec<RecordOp> {
    let mut written: HashSet<Key> = HashSet::new();
    let mut emptied: HashSet<(String, QueueName)> = HashSet::new();
    let mut kept = Vec::with_capacity(ops.len());
    for op in ops.into_iter().rev() {
        let keep = match &op {
            RecordOp::Clear => {
                kept.push(op);
                break;
            }
            RecordOp::Put { key, .. } | RecordOp::Delete { key } => {
                let emptied_later = key
                    .message_queue()
                    .is_some_and(|(a, q)| emptied.contains(&(a.to_owned(), q.clone())));
                !emptied_later && written.insert(key.clone())
            }
            RecordOp::DeleteMessagesOf { account, queue } => {
                emptied.insert((account.clone(), queue.clone()))
            }
        };
        if keep {
            kept.push(op);
        }
    }
    kept.reverse();
    kept
}

/// Where a stored message value belongs: the account, queue and id that name its record, and
/// its insertion sequence (which places it in an IndexedDB block, `blocks.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessagePlace {
    pub account: String,
    pub queue: String,
    pub id: MessageId,
    pub seq: u64,
}

/// The [`MessagePlace`] of a stored message value (either schema).
pub fn message_place(value: &str) -> Result<MessagePlace, StoreError> {
    let (account, queue, message) = parse_message(value)?;
    Ok(MessagePlace {
        account: account.into_owned(),
        queue: queue.into_owned(),
        id: message.id,
        seq: message.seq,
    })
}

fn parse<'a, T: Deserialize<'a>>(what: &str, value: &'a str) -> Result<T, StoreError> {
    serde_json::from_str(value)
        .map_err(|e| StoreError::Failed(format!("a stored {what} record is unreadable: {e}")))
}

/// The changes that write `snapshot` into an empty store: every queue, message and account's
/// properties.
fn snapshot_changes(snapshot: Snapshot) -> Vec<Change> {
    let mut out = Vec::new();
    for a in snapshot.accounts {
        if let Some(properties) = a.properties {
            out.push(Change::ServicePropertiesSet {
                account: a.name.clone(),
                properties,
            });
        }
        for q in a.queues {
            let name = q.queue.name.clone();
            out.push(Change::QueuePut {
                account: a.name.clone(),
                queue: q.queue,
            });
            for message in q.messages {
                out.push(Change::MessagePut {
                    account: a.name.clone(),
                    queue: name.clone(),
                    message,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{
        Emulator, MessageCount, MessageText, Metadata, SeededEntropy, TimeToLive, Timestamp,
        VisibilityTimeout,
    };
    use crate::store::key_value::apply;
    use std::collections::BTreeMap;

    fn uncoalesced(batch: &[Pending]) -> Vec<RecordOp> {
        let mut all = Vec::new();
        for p in batch {
            match p {
                Pending::Change(c) => change_ops(c.clone(), &mut all).unwrap(),
                Pending::Replace(_) | Pending::Clock => {
                    unreachable!("the workload only changes queues")
                }
            }
        }
        all
    }

    fn decode(store: &BTreeMap<String, String>) -> Decoder {
        super::super::key_value::decode(store).unwrap()
    }

    /// Random engine work cut into random batches: coalescing never changes what is stored,
    /// decoding what is stored rebuilds the engine's own state, and replaying the operations
    /// of the later batches over what was stored at some earlier point (a write-ahead log over
    /// its records) decodes to the same state.
    #[test]
    fn coalesced_batches_store_what_the_engine_holds() {
        let t = Timestamp::from_secs(1_700_000_000);
        let vis = VisibilityTimeout::new(0).unwrap();
        for seed in 0..20u64 {
            let mut emu = Emulator::new(Box::new(SeededEntropy::new(seed)));
            let mut rng = seed;
            let mut next = move |n: u64| {
                rng = rng
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (rng >> 33) % n
            };
            let names = ["aaa", "aaab", "zzz"].map(|n| QueueName::parse(n).unwrap());
            let mut store = BTreeMap::new();
            let mut batch: Vec<Pending> = Vec::new();
            // The records at a random earlier commit, and every operation since.
            let mut base: Option<(BTreeMap<String, String>, Vec<RecordOp>)> = None;
            for step in 0..300 {
                let q = &names[next(3) as usize];
                let _ = match next(10) {
                    0 => emu
                        .create_queue(t, "acct", q, Metadata::default())
                        .map(drop),
                    1 => emu.delete_queue(t, "acct", q),
                    2 => emu.clear_messages(t, "acct", q),
                    3..=5 => {
                        let text = MessageText::new("m").unwrap();
                        emu.put_message(t, "acct", q, text, vis, TimeToLive::Never)
                            .map(drop)
                    }
                    _ => {
                        let two = MessageCount::new(2).unwrap();
                        match emu.get_messages(t, "acct", q, two, vis) {
                            Ok(got) => match got.first() {
                                Some(m) if next(2) == 0 => {
                                    emu.delete_message(t, "acct", q, &m.id, &m.pop_receipt)
                                }
                                _ => Ok(()),
                            },
                            Err(e) => Err(e),
                        }
                    }
                };
                batch.extend(emu.take_changes().into_iter().map(Pending::Change));
                if next(5) == 0 || step == 299 {
                    let mut expected = store.clone();
                    apply(&mut expected, uncoalesced(&batch));
                    let coalesced = ops(std::mem::take(&mut batch)).unwrap();
                    apply(&mut store, coalesced.clone());
                    match &mut base {
                        Some((_, log)) => log.extend(coalesced),
                        None if next(4) == 0 => base = Some((store.clone(), Vec::new())),
                        None => {}
                    }
                    assert_eq!(
                        store, expected,
                        "seed {seed}: coalescing changed the result"
                    );
                }
            }
            let (base, log) = base.unwrap_or_default();
            let mut replayed = decode(&base);
            for op in log {
                replayed.apply(op).unwrap();
            }
            let mut replayed = replayed.finish().snapshot;
            let mut loaded = decode(&store).finish().snapshot;
            let mut want = emu.snapshot().unwrap();
            for s in [&mut loaded, &mut want, &mut replayed] {
                s.accounts.retain(|a| !a.queues.is_empty());
                for a in &mut s.accounts {
                    a.properties = None;
                    for q in &mut a.queues {
                        q.messages.sort_by_key(|m| m.seq);
                    }
                }
            }
            assert_eq!(
                loaded, want,
                "seed {seed}: the store does not rebuild the engine"
            );
            assert_eq!(
                replayed, want,
                "seed {seed}: replaying the log over older records differs"
            );
        }
    }

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
    fn a_message_with_an_origin_reads_back_and_a_schema_2_value_reads_as_it_was() {
        let q = QueueName::parse("work-poison").unwrap();
        let id = MessageId::parse("8e2f2cbc-7d5e-4e7f-9a43-1c1d6c3b2a10").unwrap();
        let mut m = MessageRecord {
            id,
            seq: 7,
            text: "a \"quoted\" text".into(),
            insertion_time: Timestamp::from_millis(1),
            expiration_time: Timestamp::from_millis(3),
            time_next_visible: Timestamp::from_millis(2),
            dequeue_count: 0,
            pop_receipt: PopReceipt::from_base64("AAAAAAAAAAAAAAAAAAAAAA==").unwrap(),
            origin: None,
        };
        let plain = message_value("acct", &q, &m).unwrap();
        assert!(!plain.contains("dequeue_count"), "schema 2's form: {plain}");
        m.origin = Some(Box::new(MessageOrigin {
            queue: "work".into(),
            id: MessageId::parse("11111111-2222-4333-8444-555555555555").unwrap(),
            dequeue_count: 5,
        }));
        let with_origin = message_value("acct", &q, &m).unwrap();
        let (account, queue, back) = parse_message(&with_origin).unwrap();
        assert_eq!(
            (account.as_ref(), queue.as_ref(), &back),
            ("acct", "work-poison", &m)
        );
        // What a schema-2 build wrote: ten items, no origin.
        let (_, _, old) = parse_message(&plain).unwrap();
        assert_eq!(old, MessageRecord { origin: None, ..m });
        let twelve = with_origin.replacen(']', ",0]", 1);
        assert!(parse_message(&twelve).is_err(), "{twelve}");
        assert!(parse_message(r#"["acct","q"]"#).is_err());
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
