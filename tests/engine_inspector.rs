//! The inspector's actions on the engine (`engine::dev_actions`): make visible, delete and move
//! to `<queue>-poison` without the message's receipt, over the suite's table (memory here; SQL
//! again in `engine_over_sql.rs`). A move is three operations, so it must be all or nothing:
//! when a bound refuses any step, nothing changes, no queue appears, nothing is recorded.
#![cfg(feature = "inspector")]

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::*;

use azqueue::engine::{ActionError, Capacity, Emulator, EventKind, QueueError};

/// Everything the engine holds, read back from its tables.
fn state(emu: &Emulator) -> azqueue::engine::Snapshot {
    emu.snapshot().unwrap()
}

#[test]
fn each_action_without_the_receipt() {
    let (mut emu, orders) = setup();
    emu.record_events(true);
    let a = put(&mut emu, t0(), &orders, "one");
    let b = emu
        .put_message(t0(), ACCT, &orders, text("two"), vis(60), ttl(100))
        .unwrap();
    assert_eq!(get(&mut emu, t0(), &orders, 1, 30)[0].id, a.id);

    emu.inspector_make_visible(t0(), ACCT, &orders, &a.id)
        .unwrap();
    let again = get(&mut emu, t0(), &orders, 1, 30);
    assert_eq!((again[0].id, again[0].dequeue_count), (a.id, 2));

    // Leased again and scheduled: moved anyway, with the time to live it had left.
    let (poison, moved) = emu.inspector_poison(at(10), ACCT, &orders, &b.id).unwrap();
    assert_eq!(poison.as_str(), "orders-poison");
    let there = peek(&mut emu, at(10), &poison, 32);
    assert_eq!(texts(&there), ["two"]);
    assert_eq!(there[0].id, moved);
    assert_eq!(there[0].expiration_time, at(100));
    assert_eq!(count(&mut emu, at(10), &orders), 1);

    emu.inspector_delete(at(10), ACCT, &orders, &a.id).unwrap();
    assert_eq!(count(&mut emu, at(10), &orders), 0);
    assert_eq!(
        emu.inspector_delete(at(10), ACCT, &orders, &a.id),
        Err(ActionError::NotFound(
            "no such message (deleted or expired)".into()
        ))
    );
    let kinds: Vec<(String, EventKind)> = emu
        .take_events()
        .into_iter()
        .map(|e| (e.queue.as_str().to_owned(), e.kind))
        .collect();
    assert!(kinds.contains(&("orders-poison".into(), EventKind::QueueCreated)));
    assert!(kinds.contains(&("orders".into(), EventKind::Deleted { id: b.id })));
    assert!(!emu.take_changes().is_empty(), "the actions are changes");
}

#[test]
fn a_move_refused_by_a_bound_changes_nothing() {
    let (mut emu, orders) = setup();
    emu.record_events(true);
    let m = put(&mut emu, t0(), &orders, "stuck");
    emu.take_changes();
    emu.take_events();
    let before = state(&emu);
    let refused = |emu: &mut Emulator| emu.inspector_poison(at(1), ACCT, &orders, &m.id);

    // The poison queue would be one queue too many.
    emu.set_capacity(Capacity {
        queues_per_account: 1,
        ..Capacity::default()
    });
    assert_eq!(
        refused(&mut emu),
        Err(ActionError::Refused(QueueError::ServerBusy))
    );
    // The poison queue could be made, but the message's bytes would not fit there: the queue
    // must not be left behind either.
    emu.set_capacity(Capacity {
        stored_bytes: emu.stored_bytes(),
        ..Capacity::default()
    });
    assert_eq!(
        refused(&mut emu),
        Err(ActionError::Refused(QueueError::ServerBusy))
    );
    assert_eq!(state(&emu), before, "a refused move changed the state");
    assert!(
        emu.take_changes().is_empty(),
        "a refused move recorded changes"
    );
    assert!(
        emu.take_events().is_empty(),
        "a refused move told subscribers"
    );

    // Room again: the same move goes through whole.
    emu.set_capacity(Capacity::default());
    let (poison, _) = refused(&mut emu).unwrap();
    assert_eq!(count(&mut emu, at(1), &orders), 0);
    assert_eq!(texts(&peek(&mut emu, at(1), &poison, 32)), ["stuck"]);

    // With the poison queue there already, a full store still refuses before anything moves.
    let next = put(&mut emu, at(1), &orders, "next");
    emu.take_changes();
    let before = state(&emu);
    emu.set_capacity(Capacity {
        stored_bytes: emu.stored_bytes(),
        ..Capacity::default()
    });
    assert_eq!(
        emu.inspector_poison(at(2), ACCT, &orders, &next.id),
        Err(ActionError::Refused(QueueError::ServerBusy))
    );
    assert_eq!(state(&emu), before);
    assert!(emu.take_changes().is_empty());
}
