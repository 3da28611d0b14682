//! Reading a store back: record values (in any order), then a write-ahead log's operations
//! (in order), into the engine's [`Snapshot`].

use super::{
    Key, MESSAGES, PROPERTIES, QUEUES, RecordOp, SCHEMA_VERSION, SavedClock, StoredProperties,
    StoredQueue, StoredSchema, parse, parse_message,
};
use crate::engine::{
    AccountSnapshot, MessageId, MessageRecord, QueueName, QueueRecord, QueueSnapshot,
    ServiceProperties, Snapshot,
};
use crate::store::StoreError;
use std::collections::{BTreeMap, HashMap};

/// What a backend loaded: the engine's snapshot plus the meta records.
#[derive(Debug, Default)]
pub struct Loaded {
    pub snapshot: Snapshot,
    pub clock: Option<SavedClock>,
    /// `None` for a store nobody has written to yet.
    pub schema: Option<u32>,
}

/// Rebuilds a [`Snapshot`] from record values, in any order. A value that does not parse is
/// an error: a store that cannot be read exactly is not opened, never half-read.
#[derive(Debug, Default)]
pub struct Decoder {
    /// account → its properties and queue records, in name order as the snapshot lists them.
    /// One map per level rather than one per record kind: each `BTreeMap` key/value pair is
    /// its own copy of the B-tree code in the wasm.
    accounts: BTreeMap<String, AccountRecords>,
    /// account → queue name → messages.
    messages: HashMap<String, HashMap<String, Vec<MessageRecord>>>,
    /// What [`Decoder::apply`] did to single messages after the records were read: per
    /// queue, message id → its new record, or `None` for deleted. Replaces `messages`' entry.
    replayed: HashMap<(String, String), HashMap<MessageId, Option<MessageRecord>>>,
    clock: Option<SavedClock>,
    schema: Option<u32>,
}

/// One account's records other than messages.
#[derive(Debug, Default)]
struct AccountRecords {
    properties: Option<ServiceProperties>,
    queues: BTreeMap<QueueName, QueueRecord>,
}

impl Decoder {
    /// A value from the object store (or adapter-key kind) `store`.
    pub fn add(&mut self, store: &str, value: &str) -> Result<(), StoreError> {
        match store {
            QUEUES => {
                let q: StoredQueue = parse("queue", value)?;
                let queues = &mut self.accounts.entry(q.account).or_default().queues;
                queues.insert(q.queue.name.clone(), q.queue);
            }
            MESSAGES => {
                let (account, queue, message) = parse_message(value)?;
                let queues = match self.messages.get_mut(account.as_ref()) {
                    Some(q) => q,
                    None => self.messages.entry(account.into_owned()).or_default(),
                };
                match queues.get_mut(queue.as_ref()) {
                    Some(list) => list.push(message),
                    None => {
                        queues.insert(queue.into_owned(), vec![message]);
                    }
                }
            }
            PROPERTIES => {
                let p: StoredProperties = parse("properties", value)?;
                self.accounts.entry(p.account).or_default().properties = Some(p.properties);
            }
            other => {
                return Err(StoreError::Failed(format!("unknown record kind `{other}`")));
            }
        }
        Ok(())
    }

    /// Every message record added so far, as account, queue and record: what the records hold
    /// before a log is replayed over them ([`Decoder::apply`] keeps its changes apart).
    pub fn stored_messages(&self) -> impl Iterator<Item = (&str, &str, &MessageRecord)> {
        self.messages.iter().flat_map(|(account, queues)| {
            queues.iter().flat_map(move |(queue, list)| {
                list.iter()
                    .map(move |m| (account.as_str(), queue.as_str(), m))
            })
        })
    }

    /// Applies one record operation on top of every record added so far: replaying a log of
    /// operations written after those records (`idb.rs`'s write-ahead log), in order.
    pub fn apply(&mut self, op: RecordOp) -> Result<(), StoreError> {
        match op {
            RecordOp::Put { key, value } => match key {
                Key::Queue { .. } => self.add(QUEUES, &value)?,
                Key::Properties { .. } => self.add(PROPERTIES, &value)?,
                Key::Meta { name } => self.add_meta(name, &value)?,
                Key::Message { account, queue, id } => {
                    let (_, _, record) = parse_message(&value)?;
                    self.replayed
                        .entry((account, queue.as_str().to_owned()))
                        .or_default()
                        .insert(id, Some(record));
                }
            },
            RecordOp::Delete { key } => match key {
                Key::Queue { account, queue } => {
                    if let Some(records) = self.accounts.get_mut(&account) {
                        records.queues.remove(&queue);
                    }
                }
                Key::Properties { account } => {
                    if let Some(records) = self.accounts.get_mut(&account) {
                        records.properties = None;
                    }
                }
                Key::Meta { name } => match name {
                    "schema" => self.schema = None,
                    "clock" => self.clock = None,
                    _ => {}
                },
                Key::Message { account, queue, id } => {
                    self.replayed
                        .entry((account, queue.as_str().to_owned()))
                        .or_default()
                        .insert(id, None);
                }
            },
            RecordOp::DeleteMessagesOf { account, queue } => {
                if let Some(queues) = self.messages.get_mut(&account) {
                    queues.remove(queue.as_str());
                }
                self.replayed.remove(&(account, queue.as_str().to_owned()));
            }
            RecordOp::Clear => {
                *self = Decoder::default();
            }
        }
        Ok(())
    }

    /// A `meta` record by name; unknown names are ignored (a newer build's extras).
    pub fn add_meta(&mut self, name: &str, value: &str) -> Result<(), StoreError> {
        match name {
            "schema" => {
                let s: StoredSchema = parse("schema", value)?;
                if s.version > SCHEMA_VERSION {
                    return Err(StoreError::UnsupportedVersion {
                        found: s.version,
                        supported: SCHEMA_VERSION,
                    });
                }
                self.schema = Some(s.version);
            }
            "clock" => self.clock = Some(parse("clock", value)?),
            _ => {}
        }
        Ok(())
    }

    /// Values of one store, one per line (what `getAll(...).join("\n")` gives: JSON values
    /// never contain a raw line feed). One string crosses from JS instead of one per record.
    pub fn add_lines(&mut self, store: &str, lines: &str) -> Result<(), StoreError> {
        for value in lines.split('\n').filter(|l| !l.is_empty()) {
            self.add(store, value)?;
        }
        Ok(())
    }

    /// Alternating key and value lines (adapter records flattened and joined by `"\n"`).
    pub fn add_path_lines(&mut self, lines: &str) -> Result<(), StoreError> {
        let mut parts = lines.split('\n');
        while let Some(key) = parts.next() {
            if key.is_empty() {
                continue;
            }
            let value = parts.next().ok_or_else(|| {
                StoreError::Failed(format!("the stored record `{key}` has no value"))
            })?;
            self.add_path(key, value)?;
        }
        Ok(())
    }

    /// A record by adapter key (`queue/…`, `message/…`, `properties/…`, `meta/<name>`).
    pub fn add_path(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        let (kind, rest) = key.split_once('/').unwrap_or((key, ""));
        match kind {
            "queue" => self.add(QUEUES, value),
            "message" => self.add(MESSAGES, value),
            "properties" => self.add(PROPERTIES, value),
            "meta" => self.add_meta(rest, value),
            _ => Err(StoreError::Failed(format!(
                "unknown record key `{key}` in the store"
            ))),
        }
    }

    /// The snapshot. Messages whose queue record is missing cannot come from an atomic
    /// backend (a queue's deletion removes both in one batch) and are left out.
    pub fn finish(self) -> Loaded {
        let Decoder {
            accounts,
            mut messages,
            mut replayed,
            clock,
            schema,
        } = self;
        let accounts = accounts
            .into_iter()
            // An account whose records were all deleted by the log is not in the state.
            .filter(|(_, records)| records.properties.is_some() || !records.queues.is_empty())
            .map(|(name, records)| {
                let mut stored = messages.remove(&name).unwrap_or_default();
                let queues = records
                    .queues
                    .into_values()
                    .map(|queue| {
                        let mut msgs = stored.remove(queue.name.as_str()).unwrap_or_default();
                        let key = (name.clone(), queue.name.as_str().to_owned());
                        if let Some(changed) = replayed.remove(&key) {
                            msgs.retain(|m| !changed.contains_key(&m.id));
                            msgs.extend(changed.into_values().flatten());
                        }
                        QueueSnapshot {
                            queue,
                            messages: msgs,
                        }
                    })
                    .collect();
                AccountSnapshot {
                    name,
                    properties: records.properties,
                    queues,
                }
            })
            .collect();
        Loaded {
            snapshot: Snapshot { accounts },
            clock,
            schema,
        }
    }
}
