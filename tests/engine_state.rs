//! Layer 2: what hosts rely on beyond the REST stories — `next_deadline`, snapshot and
//! restore, events, and replay from a seed.
//!
//! Told with explicit times (`t0 + secs`) and seeded entropy: waiting is adding seconds to `now`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::*;

use azqueue::engine::{
    CorsRule, EventKind, Metadata, ServicePropertiesUpdate, TimeToLive, Timestamp,
};

// --- next_deadline ----------------------------------------------------------------------

#[test]
fn next_deadline_is_none_without_anything_pending() {
    let (mut emu, name) = setup();
    assert_eq!(emu.next_deadline(t0(), ACCT), None);
    emu.put_message(
        t0(),
        ACCT,
        &name,
        text("forever"),
        vis(0),
        TimeToLive::Never,
    )
    .unwrap();
    assert_eq!(
        emu.next_deadline(t0(), ACCT),
        None,
        "NEVER is not a deadline"
    );
    assert_eq!(emu.next_deadline(t0(), "nobody"), None);
}

#[test]
fn next_deadline_is_the_earliest_reappearance_or_expiry() {
    let (mut emu, name) = setup();
    let other = q("other");
    emu.create_queue(t0(), ACCT, &other, Metadata::default())
        .unwrap();
    emu.put_message(t0(), ACCT, &name, text("a"), vis(0), ttl(100))
        .unwrap();
    assert_eq!(emu.next_deadline(t0(), ACCT), Some(at(100)));
    emu.put_message(t0(), ACCT, &other, text("b"), vis(40), TimeToLive::Never)
        .unwrap();
    assert_eq!(emu.next_deadline(t0(), ACCT), Some(at(40)));
    get(&mut emu, at(5), &name, 1, 20); // "a" back at t0+25
    assert_eq!(emu.next_deadline(at(5), ACCT), Some(at(25)));
    assert_eq!(
        emu.next_deadline(at(25), ACCT),
        Some(at(40)),
        "strictly after now"
    );
    assert_eq!(emu.next_deadline(at(40), ACCT), Some(at(100)));
    assert_eq!(emu.next_deadline(at(100), ACCT), None);
}

/// Regression (found by engine_model, fixed in 693df29): `Queue::next_deadline` looked only
/// at the very first expiry key. When that message had expired but was not yet purged
/// (nothing touched the queue), the next real expiry was missed and the page's timer never
/// fired.
#[test]
fn next_deadline_looks_past_expired_but_unpurged_messages() {
    let (mut emu, name) = setup();
    emu.put_message(t0(), ACCT, &name, text("short"), vis(0), ttl(10))
        .unwrap();
    emu.put_message(t0(), ACCT, &name, text("long"), vis(0), ttl(20))
        .unwrap();
    // Nothing touched the queue since t0, so "short" is still stored at t0+15.
    assert_eq!(emu.next_deadline(at(15), ACCT), Some(at(20)));
}

// --- Snapshot and restore ---------------------------------------------------------------

#[test]
fn snapshot_restores_messages_order_receipts_and_continues_the_sequence() {
    let (mut emu, name) = setup();
    emu.set_queue_metadata(ACCT, &name, meta(&[("k", "v")]))
        .unwrap();
    emu.set_queue_acl(ACCT, &name, vec![policy("p", "raup")])
        .unwrap();
    for body in ["a", "b", "c", "d"] {
        put(&mut emu, t0(), &name, body);
    }
    let a = get(&mut emu, t0(), &name, 1, 10).remove(0); // "a" moves behind the others
    let b = get(&mut emu, t0(), &name, 1, 100).remove(0);
    emu.delete_message(t0(), ACCT, &name, &b.id, &b.pop_receipt)
        .unwrap();
    let snapshot = emu.snapshot().unwrap();

    let mut restored = emulator_from(snapshot.clone(), 7);
    assert_eq!(restored.snapshot().unwrap(), snapshot);
    assert!(restored.take_changes().is_empty());
    assert_eq!(
        texts(&peek(&mut restored, at(10), &name, 32)),
        ["c", "d", "a"]
    );
    assert_eq!(
        restored.queue_acl(ACCT, &name).unwrap(),
        [policy("p", "raup")]
    );
    let props = restored.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata, meta(&[("k", "v")]));

    // New messages sort after every restored one.
    let max_seq = snapshot.accounts[0].queues[0]
        .messages
        .iter()
        .map(|m| m.seq)
        .max()
        .unwrap();
    let e = put(&mut restored, at(10), &name, "e");
    assert!(e.seq > max_seq);
    assert_eq!(
        texts(&peek(&mut restored, at(10), &name, 32)),
        ["c", "d", "a", "e"]
    );
    // Receipts and dequeue counts survive the reload.
    let got = get(&mut restored, at(10), &name, 3, 30);
    assert_eq!(got[2].id, a.id);
    assert_eq!(got[2].dequeue_count, 2);
    restored
        .delete_message(at(11), ACCT, &name, &got[2].id, &got[2].pop_receipt)
        .unwrap();
}

#[test]
fn snapshot_message_order_need_not_be_sorted() {
    let (mut emu, name) = setup();
    for body in ["a", "b", "c"] {
        put(&mut emu, t0(), &name, body);
    }
    let mut snapshot = emu.snapshot().unwrap();
    snapshot.accounts[0].queues[0].messages.reverse();
    let mut restored = emulator_from(snapshot, 7);
    assert_eq!(
        texts(&peek(&mut restored, t0(), &name, 32)),
        ["a", "b", "c"]
    );
}

#[test]
fn snapshot_keeps_service_properties_and_empty_queues() {
    let mut emu = emulator(1);
    emu.create_queue(t0(), ACCT, &q("empty"), Metadata::default())
        .unwrap();
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            cors: Some(vec![CorsRule::default()]),
            ..Default::default()
        },
    );
    let restored = emulator_from(emu.snapshot().unwrap(), 1);
    assert_eq!(restored.service_properties(ACCT).cors.len(), 1);
    assert_eq!(restored.queue_names(ACCT), [q("empty")]);
}

// --- Events -----------------------------------------------------------------------------

#[test]
fn events_are_recorded_only_when_asked() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "quiet");
    assert!(emu.take_events().is_empty());
}

#[test]
fn events_tell_the_story_of_a_message() {
    let mut emu = emulator(3);
    emu.record_events(true);
    let name = q("story");
    emu.create_queue(t0(), ACCT, &name, Metadata::default())
        .unwrap();
    let m = emu
        .put_message(t0(), ACCT, &name, text("x"), vis(5), ttl(600))
        .unwrap();
    let got = get(&mut emu, at(5), &name, 1, 30).remove(0);
    let up = emu
        .update_message(at(6), ACCT, &name, &m.id, &got.pop_receipt, None, vis(10))
        .unwrap();
    emu.delete_message(at(7), ACCT, &name, &m.id, &up.pop_receipt)
        .unwrap();
    put(&mut emu, at(8), &name, "y");
    put(&mut emu, at(8), &name, "z");
    emu.clear_messages(at(9), ACCT, &name).unwrap();
    let short = emu
        .put_message(at(10), ACCT, &name, text("short"), vis(0), ttl(1))
        .unwrap();
    peek(&mut emu, at(11), &name, 1);
    emu.delete_queue(at(12), ACCT, &name).unwrap();

    let kinds: Vec<(Timestamp, EventKind)> = emu
        .take_events()
        .into_iter()
        .map(|e| (e.at, e.kind))
        .collect();
    let expected = [
        (t0(), EventKind::QueueCreated),
        (
            t0(),
            EventKind::Sent {
                id: m.id,
                visible_at: at(5),
            },
        ),
        (
            at(5),
            EventKind::Received {
                id: m.id,
                dequeue_count: 1,
                visible_at: at(35),
            },
        ),
        (
            at(6),
            EventKind::Updated {
                id: m.id,
                visible_at: at(16),
            },
        ),
        (at(7), EventKind::Deleted { id: m.id }),
    ];
    assert_eq!(kinds[..5], expected);
    assert!(matches!(kinds[5].1, EventKind::Sent { .. }));
    assert!(matches!(kinds[6].1, EventKind::Sent { .. }));
    assert_eq!(kinds[7], (at(9), EventKind::Cleared { count: 2 }));
    assert_eq!(
        kinds[8],
        (
            at(10),
            EventKind::Sent {
                id: short.id,
                visible_at: at(10)
            }
        )
    );
    assert_eq!(kinds[9], (at(11), EventKind::Expired { id: short.id }));
    assert_eq!(kinds[10], (at(12), EventKind::QueueDeleted));
    assert_eq!(kinds.len(), 11);
    assert!(emu.take_events().is_empty(), "take drains");

    emu.record_events(false);
    emu.create_queue(at(13), ACCT, &name, Metadata::default())
        .unwrap();
    assert!(emu.take_events().is_empty());
}

// --- Seeded entropy -------------------------------------------------------------------

#[test]
fn the_same_seed_and_times_replay_the_same_ids_and_receipts() {
    let run = || {
        let (mut emu, name) = setup();
        let m = put(&mut emu, t0(), &name, "same");
        let g = get(&mut emu, at(1), &name, 1, 30).remove(0);
        (m.id.to_string(), g.pop_receipt.to_base64())
    };
    assert_eq!(run(), run());
}

/// Clear Messages reports expired messages as expired, not as cleared.
#[test]
fn clear_reports_only_live_messages_as_cleared() {
    let (mut emu, name) = setup();
    emu.record_events(true);
    emu.put_message(t0(), ACCT, &name, text("short"), vis(0), ttl(10))
        .unwrap();
    emu.put_message(t0(), ACCT, &name, text("long"), vis(0), ttl(100))
        .unwrap();
    emu.take_events();
    emu.clear_messages(at(20), ACCT, &name).unwrap();
    let kinds: Vec<_> = emu.take_events().into_iter().map(|e| e.kind).collect();
    assert!(
        matches!(
            kinds.as_slice(),
            [EventKind::Expired { .. }, EventKind::Cleared { count: 1 }]
        ),
        "{kinds:?}"
    );
}
