//! A batch of engine changes as record operations: what each change writes, and the writes
//! a later operation of the same batch makes pointless, dropped.

use super::message_value::message_value;
use super::{
    Key, RecordOp, SCHEMA_VERSION, SavedClock, StoredProperties, StoredQueue, StoredSchema, json,
};
use crate::engine::{Change, QueueName, Snapshot};
use crate::store::StoreError;
use std::collections::HashSet;

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
    use crate::store::layout::Decoder;
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
        crate::store::key_value::decode(store).unwrap()
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
}
