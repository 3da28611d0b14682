//! The write-behind outbox (`engine/change.rs`): exactly which [`Change`]s each operation
//! queues, and that replaying them rebuilds the engine's state (what a store relies on).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use azqueue::engine::{
    AccessPolicy, AccountSnapshot, Change, Emulator, MessageId, MessageRecord, Metadata,
    QueueError, QueueName, QueuePermissions, QueueRecord, QueueSnapshot, ServiceProperties,
    ServicePropertiesUpdate, SignedIdentifier, Snapshot, TimeToLive, Timestamp,
};
use std::collections::{BTreeMap, HashMap};

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::*;

/// Every put below lives an hour, so expiry can be tested.
fn put(emu: &mut Emulator, now: Timestamp, name: &QueueName, body: &str) -> MessageRecord {
    emu.put_message(now, ACCT, name, text(body), vis(0), ttl(3600))
        .unwrap()
}

fn message_put(name: &QueueName, message: MessageRecord) -> Change {
    Change::MessagePut {
        account: ACCT.into(),
        queue: name.clone(),
        message,
    }
}

fn message_deleted(name: &QueueName, id: MessageId) -> Change {
    Change::MessageDeleted {
        account: ACCT.into(),
        queue: name.clone(),
        id,
    }
}

/// A store in its simplest form: changes applied to maps, in order. It is strict: a change
/// that names a queue or message it does not hold is a bug in the outbox.
#[derive(Debug, Default)]
struct Replica {
    accounts: BTreeMap<String, ReplicaAccount>,
}

type ReplicaQueue = (QueueRecord, HashMap<MessageId, MessageRecord>);

#[derive(Debug, Default)]
struct ReplicaAccount {
    properties: Option<ServiceProperties>,
    queues: BTreeMap<QueueName, ReplicaQueue>,
}

impl Replica {
    fn apply(&mut self, change: Change) {
        match change {
            Change::QueuePut { account, queue } => {
                let queues = &mut self.accounts.entry(account).or_default().queues;
                match queues.get_mut(&queue.name) {
                    Some(existing) => existing.0 = queue,
                    None => {
                        queues.insert(queue.name.clone(), (queue, HashMap::new()));
                    }
                }
            }
            Change::QueueDeleted { account, queue } => {
                assert!(self.account(&account).queues.remove(&queue).is_some());
            }
            Change::MessagePut {
                account,
                queue,
                message,
            } => {
                self.queue(&account, &queue).insert(message.id, message);
            }
            Change::MessageDeleted { account, queue, id } => {
                let gone = self.queue(&account, &queue).remove(&id);
                assert!(
                    gone.is_some(),
                    "MessageDeleted for a message not stored: {id}"
                );
            }
            Change::QueueCleared { account, queue } => self.queue(&account, &queue).clear(),
            Change::ServicePropertiesSet {
                account,
                properties,
            } => self.accounts.entry(account).or_default().properties = Some(properties),
        }
    }

    fn account(&mut self, account: &str) -> &mut ReplicaAccount {
        self.accounts
            .get_mut(account)
            .expect("change for an unknown account")
    }

    fn queue(
        &mut self,
        account: &str,
        queue: &QueueName,
    ) -> &mut HashMap<MessageId, MessageRecord> {
        &mut self
            .account(account)
            .queues
            .get_mut(queue)
            .expect("change for an unknown queue")
            .1
    }

    fn snapshot(&self) -> Snapshot {
        let accounts = self.accounts.iter().map(|(name, a)| AccountSnapshot {
            name: name.clone(),
            properties: Some(a.properties.clone().unwrap_or_default()),
            queues: a
                .queues
                .values()
                .map(|(record, messages)| {
                    let mut messages: Vec<_> = messages.values().cloned().collect();
                    messages.sort_by_key(|m| (m.time_next_visible, m.seq));
                    QueueSnapshot {
                        queue: record.clone(),
                        messages,
                    }
                })
                .collect(),
        });
        Snapshot {
            accounts: accounts.collect(),
        }
    }
}

// --- What each operation queues ---------------------------------------------------------

#[test]
fn create_queue_queues_its_record_once() {
    let mut emu = emulator(1);
    let name = q("jobs");
    emu.create_queue(at(0), ACCT, &name, meta(&[("Team", "web")]))
        .unwrap();
    assert_eq!(
        emu.take_changes(),
        [Change::QueuePut {
            account: ACCT.into(),
            queue: QueueRecord {
                name: name.clone(),
                metadata: meta(&[("Team", "web")]),
                acl: Vec::new(),
            },
        }]
    );
    emu.create_queue(at(1), ACCT, &name, meta(&[("team", "web")]))
        .unwrap();
    assert_eq!(
        emu.create_queue(at(1), ACCT, &name, Metadata::default()),
        Err(QueueError::QueueAlreadyExists(name))
    );
    assert!(emu.take_changes().is_empty());
}

#[test]
fn delete_queue_queues_one_queue_deleted_for_all_its_messages() {
    let (mut emu, name) = setup();
    put(&mut emu, at(0), &name, "a");
    put(&mut emu, at(0), &name, "b");
    emu.take_changes();
    emu.delete_queue(at(1), ACCT, &name).unwrap();
    assert_eq!(
        emu.take_changes(),
        [Change::QueueDeleted {
            account: ACCT.into(),
            queue: name.clone(),
        }]
    );
    assert!(emu.delete_queue(at(1), ACCT, &name).is_err());
    assert!(emu.take_changes().is_empty());
}

#[test]
fn put_queues_the_record_it_returns() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, at(0), &name, "hello");
    assert_eq!(emu.take_changes(), [message_put(&name, m)]);
}

#[test]
fn get_queues_each_returned_record_in_order() {
    let (mut emu, name) = setup();
    for body in ["a", "b", "c"] {
        put(&mut emu, at(0), &name, body);
    }
    emu.take_changes();
    let got = emu
        .get_messages(at(1), ACCT, &name, n(2), get_vis(30))
        .unwrap();
    let expected: Vec<_> = got.into_iter().map(|m| message_put(&name, m)).collect();
    assert_eq!(emu.take_changes(), expected);
    let rest = emu.get_messages(at(1), ACCT, &name, n(32), get_vis(30));
    assert_eq!(rest.unwrap().len(), 1);
    emu.take_changes();
    assert!(
        emu.get_messages(at(1), ACCT, &name, n(32), get_vis(30))
            .unwrap()
            .is_empty()
    );
    assert!(emu.take_changes().is_empty(), "an empty Get writes nothing");
}

#[test]
fn update_queues_the_rewritten_record() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, at(0), &name, "old");
    let got = emu
        .get_messages(at(1), ACCT, &name, n(1), get_vis(30))
        .unwrap()
        .remove(0);
    emu.take_changes();
    let up = emu
        .update_message(
            at(2),
            ACCT,
            &name,
            &m.id,
            &got.pop_receipt,
            Some(text("new")),
            vis(5),
        )
        .unwrap();
    let expected = MessageRecord {
        text: "new".into(),
        time_next_visible: at(7),
        pop_receipt: up.pop_receipt,
        ..got
    };
    assert_eq!(emu.take_changes(), [message_put(&name, expected)]);
}

#[test]
fn delete_queues_message_deleted_and_a_failed_delete_queues_nothing() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, at(0), &name, "a");
    emu.take_changes();
    emu.delete_message(at(1), ACCT, &name, &m.id, &m.pop_receipt)
        .unwrap();
    assert_eq!(emu.take_changes(), [message_deleted(&name, m.id)]);
    assert!(
        emu.delete_message(at(1), ACCT, &name, &m.id, &m.pop_receipt)
            .is_err()
    );
    assert!(
        emu.update_message(at(1), ACCT, &name, &m.id, &m.pop_receipt, None, vis(0))
            .is_err()
    );
    assert!(emu.take_changes().is_empty());
}

#[test]
fn clear_queues_one_queue_cleared_even_when_empty() {
    let (mut emu, name) = setup();
    emu.clear_messages(at(0), ACCT, &name).unwrap();
    assert_eq!(
        emu.take_changes(),
        [Change::QueueCleared {
            account: ACCT.into(),
            queue: name,
        }]
    );
}

#[test]
fn metadata_and_acl_changes_queue_the_full_queue_record() {
    let (mut emu, name) = setup();
    emu.set_queue_metadata(ACCT, &name, meta(&[("k", "v")]))
        .unwrap();
    let acl = vec![SignedIdentifier {
        id: "p1".into(),
        policy: AccessPolicy {
            permission: QueuePermissions::parse("ra"),
            ..Default::default()
        },
    }];
    emu.set_queue_acl(ACCT, &name, acl.clone()).unwrap();
    let record = |acl: Vec<SignedIdentifier>| Change::QueuePut {
        account: ACCT.into(),
        queue: QueueRecord {
            name: name.clone(),
            metadata: meta(&[("k", "v")]),
            acl,
        },
    };
    assert_eq!(emu.take_changes(), [record(Vec::new()), record(acl)]);
}

#[test]
fn reads_queue_nothing() {
    let (mut emu, name) = setup();
    put(&mut emu, at(0), &name, "a");
    emu.take_changes();
    emu.peek_messages(at(1), ACCT, &name, n(32)).unwrap();
    emu.queue_properties(at(1), ACCT, &name).unwrap();
    emu.queue_acl(ACCT, &name).unwrap();
    emu.list_queues(ACCT, "", None, 10);
    emu.service_properties(ACCT);
    emu.next_deadline(at(1), ACCT);
    emu.snapshot().unwrap();
    assert!(emu.take_changes().is_empty());
}

#[test]
fn expiry_is_queued_by_whichever_operation_touches_the_queue_first() {
    let (mut emu, name) = setup();
    let short = emu
        .put_message(at(0), ACCT, &name, text("short"), vis(0), ttl(10))
        .unwrap();
    let shorter = emu
        .put_message(at(0), ACCT, &name, text("shorter"), vis(0), ttl(5))
        .unwrap();
    emu.take_changes();
    let props = emu.queue_properties(at(10), ACCT, &name).unwrap();
    assert_eq!(props.approximate_message_count, 0);
    // Earliest expiry first.
    assert_eq!(
        emu.take_changes(),
        [
            message_deleted(&name, shorter.id),
            message_deleted(&name, short.id)
        ]
    );
}

/// The engine's docs promise "an operation that returns `Err` changed nothing". The one
/// exception is the lazy purge that runs before the receipt check: the expired message was
/// already invisible to every operation, but its `MessageDeleted` is queued. A caller must
/// therefore drain the outbox after errors too (as `rest::handle`'s callers do).
#[test]
fn a_failed_operation_may_still_queue_the_purge_of_expired_messages() {
    let (mut emu, name) = setup();
    let keep = put(&mut emu, at(0), &name, "keep");
    let short = emu
        .put_message(at(0), ACCT, &name, text("short"), vis(0), ttl(10))
        .unwrap();
    let stale = keep.pop_receipt.clone();
    emu.get_messages(at(0), ACCT, &name, n(1), get_vis(30))
        .unwrap();
    emu.take_changes();
    assert!(
        emu.delete_message(at(10), ACCT, &name, &keep.id, &stale)
            .is_err()
    );
    assert_eq!(emu.take_changes(), [message_deleted(&name, short.id)]);
}

#[test]
fn set_service_properties_queues_the_merged_properties() {
    let mut emu = emulator(1);
    let mut logging = ServiceProperties::default().logging;
    logging.delete = true;
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            logging: Some(logging.clone()),
            ..Default::default()
        },
    );
    let expected = ServiceProperties {
        logging,
        ..Default::default()
    };
    assert_eq!(
        emu.take_changes(),
        [Change::ServicePropertiesSet {
            account: ACCT.into(),
            properties: expected,
        }]
    );
}

#[test]
fn take_changes_drains() {
    let (mut emu, name) = setup();
    put(&mut emu, at(0), &name, "a");
    assert_eq!(emu.take_changes().len(), 1);
    assert!(emu.take_changes().is_empty());
}

// --- Replaying the outbox ---------------------------------------------------------------

/// Runs a story over two accounts and three queues, checking after every step that the
/// replayed outbox equals the engine's snapshot.
#[test]
fn replaying_the_outbox_rebuilds_the_snapshot_after_every_step() {
    let mut emu = emulator(5);
    let mut replica = Replica::default();
    let mut check = |emu: &mut Emulator, step: &str| {
        for c in emu.take_changes() {
            replica.apply(c);
        }
        assert_eq!(replica.snapshot(), emu.snapshot().unwrap(), "after {step}");
    };
    let (a, b, c) = (q("alpha"), q("beta"), q("gamma"));
    emu.create_queue(at(0), ACCT, &a, meta(&[("x", "1")]))
        .unwrap();
    emu.create_queue(at(0), ACCT, &b, Metadata::default())
        .unwrap();
    emu.create_queue(at(0), "second", &c, Metadata::default())
        .unwrap();
    check(&mut emu, "creates");
    let mut held = Vec::new();
    for i in 0..10 {
        let name = if i % 2 == 0 { &a } else { &b };
        let delay = if i % 3 == 0 { 20 } else { 0 };
        let life = if i == 4 { 15 } else { 3600 };
        held.push(
            emu.put_message(
                at(i),
                ACCT,
                name,
                text(&format!("m{i}")),
                vis(delay),
                ttl(life),
            )
            .unwrap(),
        );
    }
    emu.put_message(at(0), "second", &c, text("far"), vis(0), TimeToLive::Never)
        .unwrap();
    check(&mut emu, "puts");
    let got = emu
        .get_messages(at(10), ACCT, &a, n(32), get_vis(30))
        .unwrap();
    check(&mut emu, "get");
    emu.update_message(
        at(11),
        ACCT,
        &a,
        &got[0].id,
        &got[0].pop_receipt,
        Some(text("changed")),
        vis(0),
    )
    .unwrap();
    emu.delete_message(at(12), ACCT, &a, &got[1].id, &got[1].pop_receipt)
        .unwrap();
    check(&mut emu, "update and delete");
    emu.peek_messages(at(20), ACCT, &a, n(32)).unwrap(); // purges m4 (ttl 15)
    check(&mut emu, "expiry");
    emu.set_queue_metadata(ACCT, &b, meta(&[("y", "2")]))
        .unwrap();
    emu.set_queue_acl(
        ACCT,
        &b,
        vec![SignedIdentifier {
            id: "id".into(),
            policy: AccessPolicy::default(),
        }],
    )
    .unwrap();
    emu.set_service_properties(
        "second",
        ServicePropertiesUpdate {
            cors: Some(Vec::new()),
            ..Default::default()
        },
    );
    check(&mut emu, "queue and service settings");
    emu.clear_messages(at(30), ACCT, &b).unwrap();
    emu.delete_queue(at(31), ACCT, &a).unwrap();
    emu.create_queue(at(32), ACCT, &a, Metadata::default())
        .unwrap();
    put(&mut emu, at(33), &a, "reborn");
    check(&mut emu, "clear, delete and re-create");
}

/// A store that only ever saw the outbox can restart the service where it stopped: the
/// restored engine answers exactly as the original does from then on.
#[test]
fn an_engine_restored_from_the_replayed_outbox_behaves_like_the_original() {
    let (mut emu, name) = setup();
    let mut replica = Replica::default();
    replica.apply(Change::QueuePut {
        account: ACCT.into(),
        queue: QueueRecord {
            name: name.clone(),
            metadata: Metadata::default(),
            acl: Vec::new(),
        },
    });
    for i in 0..6 {
        put(&mut emu, at(i), &name, &format!("m{i}"));
    }
    let got = emu
        .get_messages(at(6), ACCT, &name, n(2), get_vis(10))
        .unwrap();
    for c in emu.take_changes() {
        replica.apply(c);
    }
    let mut restored = emulator_from(replica.snapshot(), 77);
    // Receipts issued before the restart still work on the restored engine.
    for e in [&mut emu, &mut restored] {
        e.delete_message(at(7), ACCT, &name, &got[0].id, &got[0].pop_receipt)
            .unwrap();
        e.update_message(
            at(7),
            ACCT,
            &name,
            &got[1].id,
            &got[1].pop_receipt,
            None,
            vis(0),
        )
        .unwrap();
    }
    // Receipts differ (each engine has its own entropy); everything else agrees.
    let later = |e: &mut Emulator| -> Vec<_> {
        e.get_messages(at(16), ACCT, &name, n(32), get_vis(10))
            .unwrap()
            .into_iter()
            .map(|m| (m.id, m.seq, m.text, m.dequeue_count, m.time_next_visible))
            .collect()
    };
    let from_original = later(&mut emu);
    assert_eq!(from_original.len(), 5);
    assert_eq!(from_original, later(&mut restored));
}

/// A host with nowhere to commit (the memory store) turns recording off: operations behave
/// the same and queue nothing, and turning it back on records from then on.
#[test]
fn a_host_that_keeps_nothing_records_nothing() {
    let (mut emu, name) = setup();
    emu.take_changes();
    emu.record_changes(false);
    let m = put(&mut emu, t0(), &name, "a");
    let got = emu
        .get_messages(t0(), ACCT, &name, n(1), get_vis(30))
        .unwrap();
    assert_eq!(got[0].id, m.id);
    emu.delete_message(t0(), ACCT, &name, &m.id, &got[0].pop_receipt)
        .unwrap();
    emu.clear_messages(t0(), ACCT, &name).unwrap();
    assert!(emu.take_changes().is_empty());
    assert_eq!(count(&mut emu, t0(), &name), 0);

    emu.record_changes(true);
    let again = put(&mut emu, t0(), &name, "b");
    assert_eq!(emu.take_changes(), [message_put(&name, again)]);
}
