//! Layer 2: a message's life against the engine — visibility and pop receipts, Update,
//! delayed puts and TTL, Get and Peek order (`azure-queue-rest.md` §3.11–3.16, §8.1–8.2).
//!
//! Told with explicit times (`t0 + secs`) and seeded entropy: waiting is adding seconds to `now`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::*;

use azqueue::engine::{
    Change, EventKind, MessageCount, NEVER, PopReceipt, QueueError, TimeToLive, Timestamp,
};

// --- Visibility and pop receipts (§3.12, §8.1, §8.2) -------------------------------------

#[test]
fn put_message_is_visible_at_once_with_dequeue_count_zero() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "hello");
    assert_eq!(m.dequeue_count, 0);
    assert_eq!(m.insertion_time, t0());
    assert_eq!(m.time_next_visible, t0());
    assert_eq!(
        m.expiration_time,
        at(7 * 24 * 3600),
        "default TTL is 7 days"
    );
    let seen = peek(&mut emu, t0(), &name, 1);
    assert_eq!(seen, vec![m]);
}

#[test]
fn get_hides_message_increments_dequeue_count_and_issues_new_receipt() {
    let (mut emu, name) = setup();
    let put_m = put(&mut emu, t0(), &name, "hello");
    let got = get(&mut emu, t0(), &name, 1, 30);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].id, put_m.id);
    assert_eq!(&*got[0].text, "hello");
    assert_eq!(got[0].dequeue_count, 1);
    assert_eq!(got[0].time_next_visible, at(30));
    assert_ne!(got[0].pop_receipt, put_m.pop_receipt);
}

#[test]
fn hidden_message_reappears_after_visibility_timeout_with_dequeue_count_2() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "hi");
    let first = get(&mut emu, t0(), &name, 1, 30);
    assert!(get(&mut emu, at(29), &name, 1, 30).is_empty());
    assert!(peek(&mut emu, at(29), &name, 1).is_empty());
    let again = get(&mut emu, at(30), &name, 1, 30);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].id, first[0].id);
    assert_eq!(again[0].dequeue_count, 2);
    assert_eq!(again[0].time_next_visible, at(60));
    assert_ne!(again[0].pop_receipt, first[0].pop_receipt);
}

#[test]
fn visibility_boundary_is_inclusive_to_the_millisecond() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "hi");
    get(&mut emu, t0(), &name, 1, 30);
    let just_before = Timestamp::from_millis(at(30).as_millis() - 1);
    assert!(peek(&mut emu, just_before, &name, 1).is_empty());
    assert_eq!(peek(&mut emu, at(30), &name, 1).len(), 1);
}

#[test]
fn receipt_superseded_by_another_get_is_rejected_with_message_not_found() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "hi");
    let first = get(&mut emu, t0(), &name, 1, 30).remove(0);
    let second = get(&mut emu, at(30), &name, 1, 30).remove(0);
    let stale_delete = emu.delete_message(at(31), ACCT, &name, &first.id, &first.pop_receipt);
    assert_eq!(stale_delete, Err(QueueError::MessageNotFound(first.id)));
    let stale_update = emu.update_message(
        at(31),
        ACCT,
        &name,
        &first.id,
        &first.pop_receipt,
        None,
        vis(0),
    );
    assert_eq!(stale_update, Err(QueueError::MessageNotFound(first.id)));
    assert_eq!(stale_delete, Err(QueueError::MessageNotFound(first.id)));
    // The current holder is unaffected.
    emu.delete_message(at(31), ACCT, &name, &second.id, &second.pop_receipt)
        .unwrap();
}

#[test]
fn receipt_stays_valid_after_invisibility_expires_if_nobody_redequeued() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "slow worker");
    let got = get(&mut emu, t0(), &name, 1, 30).remove(0);
    // Well past the window, and peeked by someone (peek does not supersede receipts).
    assert_eq!(peek(&mut emu, at(90), &name, 1).len(), 1);
    emu.delete_message(at(120), ACCT, &name, &got.id, &got.pop_receipt)
        .unwrap();
    assert_eq!(count(&mut emu, at(120), &name), 0);
}

#[test]
fn receipt_from_put_works_before_any_get() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "oops");
    emu.delete_message(t0(), ACCT, &name, &m.id, &m.pop_receipt)
        .unwrap();
    assert!(peek(&mut emu, t0(), &name, 32).is_empty());
}

#[test]
fn receipt_from_put_is_superseded_by_get() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "x");
    get(&mut emu, t0(), &name, 1, 30);
    assert_eq!(
        emu.delete_message(t0(), ACCT, &name, &m.id, &m.pop_receipt),
        Err(QueueError::MessageNotFound(m.id))
    );
}

#[test]
fn deleted_message_is_gone_and_a_second_delete_is_message_not_found() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "a");
    let got = get(&mut emu, t0(), &name, 1, 30).remove(0);
    emu.delete_message(at(1), ACCT, &name, &got.id, &got.pop_receipt)
        .unwrap();
    assert_eq!(
        emu.delete_message(at(1), ACCT, &name, &got.id, &got.pop_receipt),
        Err(QueueError::MessageNotFound(got.id))
    );
    // It never comes back, even after its visibility window.
    assert!(get(&mut emu, at(3600), &name, 32, 30).is_empty());
}

#[test]
fn a_receipt_that_was_never_issued_is_rejected() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "a");
    let forged = PopReceipt::from_base64("AgAAAAMAAAAAAAAA2hjodfBi1QE=").unwrap();
    assert_eq!(
        emu.delete_message(t0(), ACCT, &name, &m.id, &forged),
        Err(QueueError::MessageNotFound(m.id))
    );
    assert_eq!(count(&mut emu, t0(), &name), 1);
}

#[test]
fn delete_does_not_change_visibility_of_other_messages() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "a");
    put(&mut emu, t0(), &name, "b");
    let a = get(&mut emu, t0(), &name, 1, 30).remove(0);
    let before = peek(&mut emu, t0(), &name, 32);
    emu.delete_message(t0(), ACCT, &name, &a.id, &a.pop_receipt)
        .unwrap();
    assert_eq!(peek(&mut emu, t0(), &name, 32), before);
}

// --- Update Message (§3.16) ------------------------------------------------------------

#[test]
fn update_issues_new_receipt_and_rejects_the_old_one() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "work");
    let got = get(&mut emu, t0(), &name, 1, 30).remove(0);
    let up = emu
        .update_message(at(5), ACCT, &name, &got.id, &got.pop_receipt, None, vis(60))
        .unwrap();
    assert_ne!(up.pop_receipt, got.pop_receipt);
    assert_eq!(up.time_next_visible, at(65));
    assert_eq!(
        emu.delete_message(at(6), ACCT, &name, &got.id, &got.pop_receipt),
        Err(QueueError::MessageNotFound(got.id))
    );
    assert_eq!(
        emu.update_message(at(6), ACCT, &name, &got.id, &got.pop_receipt, None, vis(0)),
        Err(QueueError::MessageNotFound(got.id))
    );
    emu.delete_message(at(6), ACCT, &name, &got.id, &up.pop_receipt)
        .unwrap();
}

#[test]
fn update_does_not_change_dequeue_count() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "work");
    let got = get(&mut emu, t0(), &name, 1, 30).remove(0);
    emu.update_message(t0(), ACCT, &name, &got.id, &got.pop_receipt, None, vis(0))
        .unwrap();
    let seen = peek(&mut emu, t0(), &name, 1).remove(0);
    assert_eq!(seen.dequeue_count, 1);
    assert_eq!(get(&mut emu, t0(), &name, 1, 30)[0].dequeue_count, 2);
}

#[test]
fn update_with_text_replaces_it_and_without_text_keeps_it() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "0% done");
    let got = get(&mut emu, t0(), &name, 1, 30).remove(0);
    let up = emu
        .update_message(
            t0(),
            ACCT,
            &name,
            &got.id,
            &got.pop_receipt,
            Some(text("50% done")),
            vis(0),
        )
        .unwrap();
    assert_eq!(texts(&peek(&mut emu, t0(), &name, 1)), ["50% done"]);
    emu.update_message(t0(), ACCT, &name, &got.id, &up.pop_receipt, None, vis(0))
        .unwrap();
    assert_eq!(texts(&peek(&mut emu, t0(), &name, 1)), ["50% done"]);
}

#[test]
fn update_can_set_empty_text() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "something");
    emu.update_message(
        t0(),
        ACCT,
        &name,
        &m.id,
        &m.pop_receipt,
        Some(text("")),
        vis(0),
    )
    .unwrap();
    assert_eq!(texts(&peek(&mut emu, t0(), &name, 1)), [""]);
}

#[test]
fn update_with_visibility_zero_makes_a_hidden_message_visible_now() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "retry me");
    let got = get(&mut emu, t0(), &name, 1, 300).remove(0);
    assert!(peek(&mut emu, at(10), &name, 1).is_empty());
    let up = emu
        .update_message(at(10), ACCT, &name, &got.id, &got.pop_receipt, None, vis(0))
        .unwrap();
    assert_eq!(up.time_next_visible, at(10));
    let again = get(&mut emu, at(10), &name, 1, 30);
    assert_eq!(again[0].id, got.id);
    assert_eq!(again[0].dequeue_count, 2);
}

#[test]
fn update_can_hide_a_visible_message_using_the_put_receipt() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "later");
    let up = emu
        .update_message(t0(), ACCT, &name, &m.id, &m.pop_receipt, None, vis(45))
        .unwrap();
    assert!(get(&mut emu, at(44), &name, 1, 30).is_empty());
    let got = get(&mut emu, at(45), &name, 1, 30);
    assert_eq!(got[0].id, m.id);
    assert_eq!(got[0].dequeue_count, 1);
    assert_ne!(got[0].pop_receipt, up.pop_receipt);
}

#[test]
fn update_of_an_unknown_message_is_message_not_found() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "a");
    emu.delete_message(t0(), ACCT, &name, &m.id, &m.pop_receipt)
        .unwrap();
    assert_eq!(
        emu.update_message(t0(), ACCT, &name, &m.id, &m.pop_receipt, None, vis(0)),
        Err(QueueError::MessageNotFound(m.id))
    );
}

// --- Put with a delay, TTL (§3.11, §8.2) -----------------------------------------------

#[test]
fn put_with_initial_delay_is_invisible_until_then() {
    let (mut emu, name) = setup();
    let m = emu
        .put_message(t0(), ACCT, &name, text("later"), vis(10), ttl(60))
        .unwrap();
    assert_eq!(m.time_next_visible, at(10));
    assert!(get(&mut emu, at(9), &name, 1, 30).is_empty());
    assert!(peek(&mut emu, at(9), &name, 1).is_empty());
    assert_eq!(
        count(&mut emu, at(9), &name),
        1,
        "hidden messages are counted"
    );
    let got = get(&mut emu, at(10), &name, 1, 30);
    assert_eq!(got[0].id, m.id);
    assert_eq!(got[0].dequeue_count, 1);
}

#[test]
fn delayed_message_can_be_deleted_with_its_put_receipt() {
    let (mut emu, name) = setup();
    let m = emu
        .put_message(t0(), ACCT, &name, text("cancel me"), vis(100), ttl(200))
        .unwrap();
    emu.delete_message(at(1), ACCT, &name, &m.id, &m.pop_receipt)
        .unwrap();
    assert!(get(&mut emu, at(100), &name, 1, 30).is_empty());
}

#[test]
fn expired_message_is_not_returned_by_get_or_peek_nor_counted() {
    let (mut emu, name) = setup();
    let m = emu
        .put_message(t0(), ACCT, &name, text("short-lived"), vis(0), ttl(60))
        .unwrap();
    assert_eq!(m.expiration_time, at(60));
    let just_before = Timestamp::from_millis(at(60).as_millis() - 1);
    assert_eq!(peek(&mut emu, just_before, &name, 1).len(), 1);
    assert!(peek(&mut emu, at(60), &name, 1).is_empty());
    assert!(get(&mut emu, at(60), &name, 1, 30).is_empty());
    assert_eq!(count(&mut emu, at(60), &name), 0);
}

#[test]
fn expired_message_cannot_be_deleted_or_updated() {
    let (mut emu, name) = setup();
    let m = emu
        .put_message(t0(), ACCT, &name, text("short-lived"), vis(0), ttl(60))
        .unwrap();
    // A Get may hide a message beyond its expiry (§3.12); expiry still wins.
    let got = get(&mut emu, at(10), &name, 1, 3600).remove(0);
    assert_eq!(got.time_next_visible, at(3610));
    assert_eq!(
        emu.delete_message(at(61), ACCT, &name, &m.id, &got.pop_receipt),
        Err(QueueError::MessageNotFound(m.id))
    );
    assert_eq!(
        emu.update_message(at(61), ACCT, &name, &m.id, &got.pop_receipt, None, vis(0)),
        Err(QueueError::MessageNotFound(m.id))
    );
}

#[test]
fn expiry_queues_a_message_deleted_change_and_an_expired_event() {
    let (mut emu, name) = setup();
    emu.record_events(true);
    let m = emu
        .put_message(t0(), ACCT, &name, text("short-lived"), vis(0), ttl(60))
        .unwrap();
    emu.take_changes();
    emu.take_events();
    assert!(peek(&mut emu, at(61), &name, 1).is_empty());
    assert_eq!(
        emu.take_changes(),
        [Change::MessageDeleted {
            account: ACCT.into(),
            queue: name.clone(),
            id: m.id,
        }]
    );
    let events = emu.take_events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].kind, EventKind::Expired { id: m.id });
    assert_eq!(events[0].at, at(61));
    // Purged once: nothing more is queued on the next touch.
    peek(&mut emu, at(62), &name, 1);
    assert!(emu.take_changes().is_empty());
}

#[test]
fn expiry_spares_messages_that_live_longer() {
    let (mut emu, name) = setup();
    emu.put_message(t0(), ACCT, &name, text("short"), vis(0), ttl(10))
        .unwrap();
    emu.put_message(t0(), ACCT, &name, text("long"), vis(0), ttl(1000))
        .unwrap();
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
        texts(&peek(&mut emu, at(10), &name, 32)),
        ["long", "forever"]
    );
    assert_eq!(count(&mut emu, at(1000), &name), 1);
}

#[test]
fn ttl_never_sets_expiration_to_the_end_of_9999() {
    let (mut emu, name) = setup();
    let m = emu
        .put_message(t0(), ACCT, &name, text("keep"), vis(0), TimeToLive::Never)
        .unwrap();
    assert_eq!(m.expiration_time, NEVER);
    assert_eq!(
        NEVER.as_secs(),
        253_402_300_799,
        "Fri, 31 Dec 9999 23:59:59 GMT"
    );
    let ten_years = 10 * 365 * 24 * 3600;
    assert_eq!(texts(&peek(&mut emu, at(ten_years), &name, 1)), ["keep"]);
}

#[test]
fn largest_ttl_is_accepted() {
    let (mut emu, name) = setup();
    let m = emu
        .put_message(t0(), ACCT, &name, text("long"), vis(0), ttl(2_147_483_647))
        .unwrap();
    assert_eq!(m.expiration_time, at(2_147_483_647));
    assert!(m.expiration_time < NEVER);
}

// --- Get and Peek: counts and order (§3.12, §3.13, §8.2) --------------------------------

#[test]
fn get_returns_at_most_32_and_message_count_rejects_33() {
    let (mut emu, name) = setup();
    for i in 0..40 {
        put(&mut emu, t0(), &name, &format!("m{i}"));
    }
    assert_eq!(get(&mut emu, t0(), &name, 32, 30).len(), 32);
    assert_eq!(MessageCount::new(33).unwrap_err().max, 32);
    assert_eq!(MessageCount::new(0).unwrap_err().min, 1);
}

#[test]
fn get_returns_fewer_than_requested_when_fewer_are_visible() {
    let (mut emu, name) = setup();
    for i in 0..40 {
        put(&mut emu, t0(), &name, &format!("m{i}"));
    }
    get(&mut emu, t0(), &name, 32, 30);
    let rest = get(&mut emu, t0(), &name, 32, 30);
    assert_eq!(
        texts(&rest),
        (32..40).map(|i| format!("m{i}")).collect::<Vec<_>>()
    );
    assert!(get(&mut emu, t0(), &name, 32, 30).is_empty());
}

#[test]
fn get_and_peek_on_an_empty_queue_return_nothing() {
    let (mut emu, name) = setup();
    assert!(get(&mut emu, t0(), &name, 32, 30).is_empty());
    assert!(peek(&mut emu, t0(), &name, 32).is_empty());
    assert!(emu.take_changes().is_empty());
}

#[test]
fn messages_come_out_in_insertion_order() {
    let (mut emu, name) = setup();
    for body in ["a", "b", "c"] {
        put(&mut emu, t0(), &name, body);
    }
    assert_eq!(texts(&peek(&mut emu, t0(), &name, 32)), ["a", "b", "c"]);
    assert_eq!(texts(&get(&mut emu, t0(), &name, 32, 30)), ["a", "b", "c"]);
}

#[test]
fn order_is_by_time_next_visible_then_insertion() {
    let (mut emu, name) = setup();
    emu.put_message(t0(), ACCT, &name, text("delayed"), vis(10), ttl(100))
        .unwrap();
    put(&mut emu, at(1), &name, "b");
    put(&mut emu, at(2), &name, "c");
    emu.put_message(at(3), ACCT, &name, text("d"), vis(7), ttl(100))
        .unwrap();
    // "delayed" and "d" both become visible at t0+10; insertion order breaks the tie.
    assert_eq!(
        texts(&peek(&mut emu, at(10), &name, 32)),
        ["b", "c", "delayed", "d"]
    );
}

#[test]
fn a_message_made_visible_again_sorts_by_its_new_visibility_time() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "a");
    put(&mut emu, t0(), &name, "b");
    assert_eq!(texts(&get(&mut emu, t0(), &name, 1, 5)), ["a"]); // a back at t0+5
    put(&mut emu, at(3), &name, "c");
    put(&mut emu, at(7), &name, "d");
    assert_eq!(
        texts(&peek(&mut emu, at(10), &name, 32)),
        ["b", "c", "a", "d"]
    );
    assert_eq!(
        texts(&get(&mut emu, at(10), &name, 32, 30)),
        ["b", "c", "a", "d"]
    );
}

#[test]
fn peek_has_no_side_effects() {
    let (mut emu, name) = setup();
    emu.record_events(true);
    let m = put(&mut emu, t0(), &name, "look");
    emu.take_changes();
    emu.take_events();
    let before = emu.snapshot().unwrap();
    let seen = peek(&mut emu, t0(), &name, 32);
    assert_eq!(seen, vec![m.clone()]);
    assert_eq!(seen[0].dequeue_count, 0);
    assert!(emu.take_changes().is_empty());
    assert!(emu.take_events().is_empty());
    assert_eq!(emu.snapshot().unwrap(), before);
    // The put receipt is still current and the message still visible.
    assert_eq!(get(&mut emu, t0(), &name, 1, 30)[0].dequeue_count, 1);
}

#[test]
fn peek_skips_invisible_messages() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "a");
    put(&mut emu, t0(), &name, "b");
    get(&mut emu, t0(), &name, 1, 30);
    assert_eq!(texts(&peek(&mut emu, t0(), &name, 32)), ["b"]);
}
