//! Layer 2: the Azure stories of the fact sheet (`azure-queue-rest.md` §3.5–3.16 and §8), told
//! against the engine with explicit times (`t0 + secs`) and seeded entropy. No sleeps: waiting
//! is adding seconds to `now`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use azqueue::engine::{
    AccessPolicy, Change, CorsRule, Created, Emulator, EventKind, MessageCount, MessageRecord,
    MessageText, Metadata, NEVER, PolicyTime, PopReceipt, QueueError, QueueName, QueuePermissions,
    SeededEntropy, ServiceProperties, ServicePropertiesUpdate, SignedIdentifier, TimeToLive,
    Timestamp, VisibilityTimeout,
};

const ACCT: &str = "devstoreaccount1";
const T0: u64 = 1_700_000_000;

fn t0() -> Timestamp {
    Timestamp::from_secs(T0)
}

/// `t0 + secs`.
fn at(secs: u64) -> Timestamp {
    t0().plus_secs(secs)
}

fn q(name: &str) -> QueueName {
    QueueName::parse(name).unwrap()
}

fn text(s: &str) -> MessageText {
    MessageText::new(s).unwrap()
}

/// Visibility for Put and Update (0 allowed).
fn vis(secs: i64) -> VisibilityTimeout {
    VisibilityTimeout::new(secs).unwrap()
}

/// Visibility for Get (at least 1).
fn get_vis(secs: i64) -> VisibilityTimeout {
    VisibilityTimeout::for_get(secs).unwrap()
}

fn n(count: i64) -> MessageCount {
    MessageCount::new(count).unwrap()
}

fn ttl(secs: i64) -> TimeToLive {
    TimeToLive::new(secs).unwrap()
}

fn meta(pairs: &[(&str, &str)]) -> Metadata {
    Metadata::from_pairs(pairs.iter().copied()).unwrap()
}

/// A fresh service with one empty queue `orders` and a drained outbox.
fn setup() -> (Emulator, QueueName) {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(42)));
    let name = q("orders");
    emu.create_queue(t0(), ACCT, &name, Metadata::default())
        .unwrap();
    emu.take_changes();
    (emu, name)
}

/// Put with no delay and the default TTL.
fn put(emu: &mut Emulator, now: Timestamp, name: &QueueName, body: &str) -> MessageRecord {
    emu.put_message(now, ACCT, name, text(body), vis(0), TimeToLive::default())
        .unwrap()
}

fn get(
    emu: &mut Emulator,
    now: Timestamp,
    name: &QueueName,
    count: i64,
    secs: i64,
) -> Vec<MessageRecord> {
    emu.get_messages(now, ACCT, name, n(count), get_vis(secs))
        .unwrap()
}

fn peek(emu: &mut Emulator, now: Timestamp, name: &QueueName, count: i64) -> Vec<MessageRecord> {
    emu.peek_messages(now, ACCT, name, n(count)).unwrap()
}

fn texts(ms: &[MessageRecord]) -> Vec<&str> {
    ms.iter().map(|m| &*m.text).collect()
}

fn count(emu: &mut Emulator, now: Timestamp, name: &QueueName) -> usize {
    emu.queue_properties(now, ACCT, name)
        .unwrap()
        .approximate_message_count
}

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
    assert_eq!(stale_delete.unwrap_err().status(), 404);
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
    let before = emu.snapshot();
    let seen = peek(&mut emu, t0(), &name, 32);
    assert_eq!(seen, vec![m.clone()]);
    assert_eq!(seen[0].dequeue_count, 0);
    assert!(emu.take_changes().is_empty());
    assert!(emu.take_events().is_empty());
    assert_eq!(emu.snapshot(), before);
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

// --- Clear Messages, Delete Queue (§3.6, §3.15) ----------------------------------------

#[test]
fn clear_removes_visible_and_invisible_messages_and_invalidates_receipts() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "visible");
    emu.put_message(t0(), ACCT, &name, text("delayed"), vis(60), ttl(120))
        .unwrap();
    put(&mut emu, t0(), &name, "taken");
    let taken = get(&mut emu, t0(), &name, 2, 30);
    emu.take_changes();
    emu.clear_messages(at(1), ACCT, &name).unwrap();
    assert_eq!(
        emu.take_changes(),
        [Change::QueueCleared {
            account: ACCT.into(),
            queue: name.clone(),
        }]
    );
    assert_eq!(count(&mut emu, at(1), &name), 0);
    assert!(peek(&mut emu, at(3600), &name, 32).is_empty());
    for m in taken {
        assert_eq!(
            emu.delete_message(at(2), ACCT, &name, &m.id, &m.pop_receipt),
            Err(QueueError::MessageNotFound(m.id))
        );
    }
    // The queue itself stays, and keeps working.
    put(&mut emu, at(2), &name, "after");
    assert_eq!(count(&mut emu, at(2), &name), 1);
}

#[test]
fn delete_queue_takes_its_messages_with_it() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "doomed");
    emu.delete_queue(at(1), ACCT, &name).unwrap();
    let gone = QueueError::QueueNotFound(name.clone());
    assert_eq!(emu.queue_properties(at(1), ACCT, &name), Err(gone.clone()));
    assert_eq!(
        emu.delete_message(at(1), ACCT, &name, &m.id, &m.pop_receipt),
        Err(gone.clone())
    );
    assert_eq!(emu.delete_queue(at(1), ACCT, &name), Err(gone.clone()));
    assert_eq!(gone.status(), 404);
    // The name is reusable at once, and the new queue starts empty.
    assert_eq!(
        emu.create_queue(at(2), ACCT, &name, Metadata::default()),
        Ok(Created::New)
    );
    assert_eq!(count(&mut emu, at(2), &name), 0);
}

#[test]
fn every_message_operation_on_a_missing_queue_is_queue_not_found() {
    let (mut emu, _) = setup();
    let missing = q("missing");
    let m = put(&mut emu, t0(), &q("orders"), "x");
    let nf = Err(QueueError::QueueNotFound(missing.clone()));
    assert_eq!(
        emu.put_message(t0(), ACCT, &missing, text("x"), vis(0), ttl(10))
            .map(|_| ()),
        nf
    );
    assert_eq!(
        emu.get_messages(t0(), ACCT, &missing, n(1), get_vis(30))
            .map(|_| ()),
        nf
    );
    assert_eq!(
        emu.peek_messages(t0(), ACCT, &missing, n(1)).map(|_| ()),
        nf
    );
    assert_eq!(
        emu.delete_message(t0(), ACCT, &missing, &m.id, &m.pop_receipt),
        nf
    );
    assert_eq!(
        emu.update_message(t0(), ACCT, &missing, &m.id, &m.pop_receipt, None, vis(0))
            .map(|_| ()),
        nf
    );
    assert_eq!(emu.clear_messages(t0(), ACCT, &missing), nf);
    assert_eq!(
        emu.set_queue_metadata(ACCT, &missing, Metadata::default()),
        nf
    );
    assert_eq!(emu.queue_acl(ACCT, &missing).map(|_| ()), nf);
    // Another account's queue of the same name is another queue.
    assert_eq!(
        emu.put_message(t0(), "other", &q("orders"), text("x"), vis(0), ttl(10))
            .map(|_| ()),
        Err(QueueError::QueueNotFound(q("orders")))
    );
}

// --- Create Queue, List Queues, metadata, ACL (§3.1, §3.5–3.10, §8.4) ------------------

#[test]
fn create_queue_is_new_then_already_existed_with_identical_metadata() {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    let name = q("jobs");
    assert_eq!(
        emu.create_queue(t0(), ACCT, &name, meta(&[("Team", "web")])),
        Ok(Created::New)
    );
    assert_eq!(emu.take_changes().len(), 1);
    // Names compare case-insensitively; the stored case is kept.
    assert_eq!(
        emu.create_queue(t0(), ACCT, &name, meta(&[("team", "web")])),
        Ok(Created::AlreadyExisted)
    );
    assert!(
        emu.take_changes().is_empty(),
        "an idempotent create writes nothing"
    );
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata.iter().collect::<Vec<_>>(), [("Team", "web")]);
}

#[test]
fn create_queue_with_no_metadata_twice_is_already_existed() {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    let name = q("jobs");
    emu.create_queue(t0(), ACCT, &name, Metadata::default())
        .unwrap();
    assert_eq!(
        emu.create_queue(t0(), ACCT, &name, Metadata::default()),
        Ok(Created::AlreadyExisted)
    );
}

#[test]
fn create_queue_with_different_metadata_is_queue_already_exists() {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    let name = q("jobs");
    emu.create_queue(t0(), ACCT, &name, meta(&[("team", "web")]))
        .unwrap();
    emu.take_changes();
    for different in [
        meta(&[("team", "WEB")]),
        meta(&[]),
        meta(&[("team", "web"), ("tier", "1")]),
        meta(&[("owner", "web")]),
    ] {
        let err = emu.create_queue(t0(), ACCT, &name, different).unwrap_err();
        assert_eq!(err, QueueError::QueueAlreadyExists(name.clone()));
        assert_eq!((err.status(), err.code()), (409, "QueueAlreadyExists"));
    }
    assert!(emu.take_changes().is_empty());
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata, meta(&[("team", "web")]));
}

/// Queues `a-1 a-2 a-3 b-1 b-2 c-1` in `ACCT`, and one queue in another account.
fn listing_fixture() -> Emulator {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    for name in ["b-2", "a-3", "c-1", "a-1", "b-1", "a-2"] {
        let md = meta(&[("origin", name)]);
        emu.create_queue(t0(), ACCT, &q(name), md).unwrap();
    }
    emu.create_queue(t0(), "other", &q("a-9"), Metadata::default())
        .unwrap();
    emu
}

fn names(page: &azqueue::engine::QueuePage) -> Vec<&str> {
    page.queues.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn list_queues_in_name_order_with_metadata() {
    let emu = listing_fixture();
    let page = emu.list_queues(ACCT, "", None, 5000);
    assert_eq!(names(&page), ["a-1", "a-2", "a-3", "b-1", "b-2", "c-1"]);
    assert_eq!(page.next, None);
    assert_eq!(page.queues[3].1, meta(&[("origin", "b-1")]));
    assert!(emu.list_queues("nobody", "", None, 10).queues.is_empty());
}

#[test]
fn list_queues_filters_by_prefix() {
    let emu = listing_fixture();
    let page = emu.list_queues(ACCT, "b-", None, 5000);
    assert_eq!(names(&page), ["b-1", "b-2"]);
    assert_eq!(page.next, None);
    assert!(emu.list_queues(ACCT, "z", None, 5000).queues.is_empty());
}

#[test]
fn list_queues_pages_with_max_and_an_inclusive_next_marker() {
    let emu = listing_fixture();
    let first = emu.list_queues(ACCT, "", None, 2);
    assert_eq!(names(&first), ["a-1", "a-2"]);
    assert_eq!(first.next, Some(q("a-3")));
    let marker = first.next.unwrap();
    let second = emu.list_queues(ACCT, "", Some(marker.as_str()), 2);
    assert_eq!(names(&second), ["a-3", "b-1"]);
    let marker = second.next.unwrap();
    let third = emu.list_queues(ACCT, "", Some(marker.as_str()), 2);
    assert_eq!(names(&third), ["b-2", "c-1"]);
    assert_eq!(
        third.next, None,
        "an exactly full last page has no next marker"
    );
}

#[test]
fn list_queues_combines_prefix_marker_and_max() {
    let emu = listing_fixture();
    let page = emu.list_queues(ACCT, "a-", Some("a-2"), 1);
    assert_eq!(names(&page), ["a-2"]);
    assert_eq!(page.next, Some(q("a-3")));
    let page = emu.list_queues(ACCT, "a-", Some("a-3"), 1);
    assert_eq!(names(&page), ["a-3"]);
    assert_eq!(page.next, None, "b-1 is past the prefix");
    // A marker before the prefix starts at the prefix; one past it yields nothing.
    assert_eq!(
        names(&emu.list_queues(ACCT, "b-", Some("a"), 10)),
        ["b-1", "b-2"]
    );
    assert!(emu.list_queues(ACCT, "a-", Some("b"), 10).queues.is_empty());
    // A marker need not name an existing queue.
    assert_eq!(
        names(&emu.list_queues(ACCT, "", Some("b-15"), 10)),
        ["b-2", "c-1"]
    );
}

#[test]
fn set_queue_metadata_replaces_the_whole_set() {
    let (mut emu, name) = setup();
    emu.set_queue_metadata(ACCT, &name, meta(&[("a", "1"), ("b", "2")]))
        .unwrap();
    emu.set_queue_metadata(ACCT, &name, meta(&[("C", "3")]))
        .unwrap();
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata.iter().collect::<Vec<_>>(), [("C", "3")]);
    emu.set_queue_metadata(ACCT, &name, Metadata::default())
        .unwrap();
    assert!(
        emu.queue_properties(t0(), ACCT, &name)
            .unwrap()
            .metadata
            .is_empty()
    );
    // Every set is a QueuePut carrying the full record.
    let changes = emu.take_changes();
    assert_eq!(changes.len(), 3);
    assert!(matches!(&changes[2], Change::QueuePut { queue, .. } if queue.metadata.is_empty()));
}

#[test]
fn queue_properties_count_includes_invisible_messages() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "a");
    put(&mut emu, t0(), &name, "b");
    emu.put_message(t0(), ACCT, &name, text("c"), vis(30), ttl(60))
        .unwrap();
    get(&mut emu, t0(), &name, 1, 30);
    assert_eq!(count(&mut emu, t0(), &name), 3);
}

fn policy(id: &str, perms: &str) -> SignedIdentifier {
    SignedIdentifier {
        id: id.into(),
        policy: AccessPolicy {
            start: Some(PolicyTime {
                secs: T0 as i64,
                ticks: 0,
            }),
            expiry: Some(PolicyTime {
                secs: T0 as i64 + 3600,
                ticks: 4_560_000,
            }),
            permission: QueuePermissions::parse(perms),
        },
    }
}

#[test]
fn set_queue_acl_then_get_returns_it_and_an_empty_set_clears() {
    let (mut emu, name) = setup();
    assert!(emu.queue_acl(ACCT, &name).unwrap().is_empty());
    let acl = vec![
        policy("reader", "r"),
        policy("all", "raup"),
        SignedIdentifier {
            id: "bare".into(),
            policy: AccessPolicy::default(),
        },
    ];
    emu.set_queue_acl(ACCT, &name, acl.clone()).unwrap();
    assert_eq!(emu.queue_acl(ACCT, &name).unwrap(), acl);
    emu.set_queue_acl(ACCT, &name, vec![policy("only", "p")])
        .unwrap();
    assert_eq!(emu.queue_acl(ACCT, &name).unwrap(), [policy("only", "p")]);
    emu.set_queue_acl(ACCT, &name, Vec::new()).unwrap();
    assert!(emu.queue_acl(ACCT, &name).unwrap().is_empty());
    // The ACL does not disturb metadata.
    emu.set_queue_metadata(ACCT, &name, meta(&[("k", "v")]))
        .unwrap();
    emu.set_queue_acl(ACCT, &name, vec![policy("x", "r")])
        .unwrap();
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata, meta(&[("k", "v")]));
}

// --- Service properties (§3.2, §3.3) ----------------------------------------------------

#[test]
fn service_properties_default_for_an_unknown_account() {
    let emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    assert_eq!(
        emu.service_properties("nobody"),
        ServiceProperties::default()
    );
}

#[test]
fn set_service_properties_updates_only_the_parts_given() {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    let rule = CorsRule {
        allowed_origins: "https://example.com".into(),
        allowed_methods: "GET,PUT".into(),
        allowed_headers: "*".into(),
        exposed_headers: "*".into(),
        max_age_in_seconds: 8888,
    };
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            cors: Some(vec![rule.clone()]),
            ..Default::default()
        },
    );
    let mut logging = ServiceProperties::default().logging;
    logging.read = true;
    logging.write = true;
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            logging: Some(logging.clone()),
            ..Default::default()
        },
    );
    let got = emu.service_properties(ACCT);
    assert_eq!(got.cors, [rule], "omitted Cors kept its stored rules");
    assert_eq!(got.logging, logging);
    assert_eq!(got.hour_metrics, ServiceProperties::default().hour_metrics);
    // `<Cors />` (an empty list) deletes all rules.
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            cors: Some(Vec::new()),
            ..Default::default()
        },
    );
    assert!(emu.service_properties(ACCT).cors.is_empty());
    assert_eq!(emu.service_properties(ACCT).logging, logging);
    // Accounts are independent.
    assert_eq!(
        emu.service_properties("other"),
        ServiceProperties::default()
    );
    let changes = emu.take_changes();
    assert_eq!(changes.len(), 3);
    assert_eq!(
        changes[2],
        Change::ServicePropertiesSet {
            account: ACCT.into(),
            properties: emu.service_properties(ACCT),
        }
    );
}

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
    let snapshot = emu.snapshot();

    let mut restored = Emulator::from_snapshot(snapshot.clone(), Box::new(SeededEntropy::new(7)));
    assert_eq!(restored.snapshot(), snapshot);
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
    let mut snapshot = emu.snapshot();
    snapshot.accounts[0].queues[0].messages.reverse();
    let mut restored = Emulator::from_snapshot(snapshot, Box::new(SeededEntropy::new(7)));
    assert_eq!(
        texts(&peek(&mut restored, t0(), &name, 32)),
        ["a", "b", "c"]
    );
}

#[test]
fn snapshot_keeps_service_properties_and_empty_queues() {
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    emu.create_queue(t0(), ACCT, &q("empty"), Metadata::default())
        .unwrap();
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            cors: Some(vec![CorsRule::default()]),
            ..Default::default()
        },
    );
    let restored = Emulator::from_snapshot(emu.snapshot(), Box::new(SeededEntropy::new(1)));
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
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(3)));
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
