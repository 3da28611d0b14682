//! The capacity bounds (`engine::capacity`): past them a client gets `503 ServerBusy` and
//! nothing changes, while reads, receives, deletes and other accounts' requests are served.

#[path = "support/rest_harness.rs"]
mod rest_harness;
use azqueue::engine::{Capacity, capacity::message_cost};
use azqueue::rest::{AccountConfig, ServiceConfig};
use rest_harness::*;

#[test]
fn queues_past_the_per_account_bound_are_refused_and_other_accounts_are_served() {
    let mut config = ServiceConfig {
        anonymous: true,
        emit_bom: false,
        ..ServiceConfig::dev()
    };
    config.accounts.push(AccountConfig {
        name: "other".into(),
        keys: config.accounts[0].keys.clone(),
    });
    let mut h = Harness::with_config(config);
    h.service.emulator_mut().set_capacity(Capacity {
        queues_per_account: 3,
        ..Capacity::default()
    });
    for q in ["qa1", "qa2", "qa3"] {
        h.create(q);
    }
    h.service.emulator_mut().take_changes();
    let r = h.call("PUT", "/devstoreaccount1/qa4", "");
    r.assert_error(503, "ServerBusy");
    assert!(h.service.emulator_mut().take_changes().is_empty());
    // Re-creating an existing queue is not a new queue.
    assert_eq!(h.call("PUT", "/devstoreaccount1/qa1", "").status(), 204);
    // Another account has its own bound.
    assert_eq!(h.call("PUT", "/other/qa4", "").status(), 201);
    // Deleting one makes room again.
    assert_eq!(h.call("DELETE", "/devstoreaccount1/qa3", "").status(), 204);
    assert_eq!(h.call("PUT", "/devstoreaccount1/qa4", "").status(), 201);
}

#[test]
fn stored_bytes_past_the_bound_are_refused_while_receives_and_deletes_are_served() {
    let mut h = Harness::new();
    let text = "x".repeat(1000);
    let bound = 3 * message_cost(text.len());
    h.service.emulator_mut().set_capacity(Capacity {
        stored_bytes: bound,
        ..Capacity::default()
    });
    h.create("full");
    for _ in 0..3 {
        h.put("full", &text, "");
    }
    assert_eq!(h.service.emulator().stored_bytes(), bound);
    h.service.emulator_mut().take_changes();
    let r = h.call(
        "POST",
        "/devstoreaccount1/full/messages",
        &message_body(&text),
    );
    r.assert_error(503, "ServerBusy");
    assert!(h.service.emulator_mut().take_changes().is_empty());
    // Even an empty message costs its record.
    h.call("POST", "/devstoreaccount1/full/messages", &message_body(""))
        .assert_error(503, "ServerBusy");

    // Receiving and deleting are served, and a delete makes room.
    let got = h.call("GET", "/devstoreaccount1/full/messages", "");
    assert_eq!(got.status(), 200);
    let id = got.xml_field("MessageId");
    let receipt = got.xml_field("PopReceipt");
    // An update that grows the text past the bound is refused and changes nothing.
    let grow = h.call(
        "PUT",
        &message_url("full", &id, &receipt, "&visibilitytimeout=0"),
        &message_body(&"y".repeat(1001)),
    );
    grow.assert_error(503, "ServerBusy");
    assert_eq!(h.service.emulator().stored_bytes(), bound);
    let del = h.call("DELETE", &message_url("full", &id, &receipt, ""), "");
    assert_eq!(del.status(), 204, "{}", del.text());
    assert_eq!(
        h.call(
            "POST",
            "/devstoreaccount1/full/messages",
            &message_body(&text)
        )
        .status(),
        201
    );
    // Clearing frees everything.
    assert_eq!(
        h.call("DELETE", "/devstoreaccount1/full/messages", "")
            .status(),
        204
    );
    assert_eq!(h.service.emulator().stored_bytes(), 0);
}
