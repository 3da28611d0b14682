//! Fault rules and limits in the request pipeline (`Service::handle`): a fault before the
//! operation changes nothing, one after it commits the change and still answers the error,
//! every error is Azure's document with `x-ms-error-code` and a request id, delays and drops
//! travel to the host as a `Delivery`, and requests refused on their own (credentials, a
//! preflight) are never faulted.

#[path = "support/rest_harness.rs"]
mod rest_harness;
use azqueue::rest::faults::{Delivery, DropMode, Source};
use azqueue::rest::{Operation, ServiceConfig};
use rest_harness::*;

fn rules(h: &mut Harness, body: &str) {
    h.service
        .faults_mut()
        .post(body.as_bytes())
        .expect("a valid rule set");
}

fn count_visible(h: &mut Harness, queue: &str) -> usize {
    let r = h.call(
        "GET",
        &format!("/devstoreaccount1/{queue}/messages?peekonly=true&numofmessages=32"),
        "",
    );
    r.xml_fields("MessageId").len()
}

#[test]
fn a_fault_before_the_operation_answers_azures_error_and_changes_nothing() {
    let mut h = Harness::new();
    h.create("orders");
    rules(
        &mut h,
        r#"{"rules": [{"operation": "PutMessage", "times": 2, "status": 503}]}"#,
    );
    h.service.emulator_mut().take_changes();
    for _ in 0..2 {
        let r = h.call(
            "POST",
            "/devstoreaccount1/orders/messages",
            &message_body("m"),
        );
        r.assert_error(503, "ServerBusy");
        assert!(r.header("x-ms-request-id").is_some());
        assert!(r.header("x-ms-version").is_some());
        assert!(r.text().contains(
            "<Message>The server is currently unable to receive requests. Please retry your request.\nRequestId:"
        ));
        assert!(h.service.emulator_mut().take_changes().is_empty());
    }
    h.put("orders", "m", "");
    assert_eq!(count_visible(&mut h, "orders"), 1);
    let rule = &h.service.faults().rules()[0];
    assert_eq!((rule.matched, rule.injected, rule.retired()), (2, 2, true));
}

#[test]
fn a_fault_after_the_operation_commits_it_and_answers_the_error() {
    let mut h = Harness::new();
    h.create("orders");
    rules(
        &mut h,
        r#"{"rules": [{"operation": "PutMessage", "when": "after", "status": 500,
                       "code": "OperationTimedOut", "times": 1}]}"#,
    );
    h.service.emulator_mut().take_changes();
    let r = h.call(
        "POST",
        "/devstoreaccount1/orders/messages",
        &message_body("m"),
    );
    r.assert_error(500, "OperationTimedOut");
    assert!(
        r.text()
            .contains("could not be completed within the permitted time")
    );
    assert!(
        !h.service.emulator_mut().take_changes().is_empty(),
        "the Put's change is in the outbox, for the host to commit before it answers"
    );
    // The client retries, as the SDKs do: two copies.
    h.put("orders", "m", "");
    assert_eq!(count_visible(&mut h, "orders"), 2);
}

#[test]
fn a_get_faulted_after_it_applied_leaves_the_message_invisible_until_its_timeout() {
    let mut h = Harness::new();
    h.create("jobs");
    h.put("jobs", "work", "");
    rules(
        &mut h,
        r#"{"rules": [{"operation": "GetMessages", "when": "after", "status": 500,
                       "code": "InternalError", "times": 1}]}"#,
    );
    let r = h.call(
        "GET",
        "/devstoreaccount1/jobs/messages?visibilitytimeout=30",
        "",
    );
    r.assert_error(500, "InternalError");
    let r = h.call("GET", "/devstoreaccount1/jobs/messages", "");
    assert!(r.xml_fields("MessageId").is_empty(), "{}", r.text());
    h.advance(31);
    let r = h.call("GET", "/devstoreaccount1/jobs/messages", "");
    assert_eq!(r.xml_field("DequeueCount"), "2");
}

#[test]
fn refusals_of_the_request_itself_come_first_and_are_never_faulted() {
    let config = ServiceConfig {
        anonymous: false,
        emit_bom: false,
        ..ServiceConfig::dev()
    };
    let mut h = Harness::with_config(config);
    rules(&mut h, r#"{"rules": [{"status": 503}]}"#);
    // No credentials: the client's own mistake, named as such.
    h.call("PUT", "/devstoreaccount1/queue1", "")
        .assert_error(401, "NoAuthenticationInformation");
    // A preflight is not an operation.
    let r = h.call_with(
        "OPTIONS",
        "/devstoreaccount1/queue1",
        "",
        &[
            ("origin", "http://x.test"),
            ("access-control-request-method", "GET"),
        ],
    );
    r.assert_error(403, "CorsPreflightFailure");
    assert_eq!(h.service.faults().rules()[0].matched, 0);
}

#[test]
fn delays_and_drops_travel_to_the_host_with_the_answer() {
    let mut h = Harness::new();
    h.create("slow");
    rules(
        &mut h,
        r#"{"rules": [
            {"operation": "PeekMessages", "delayMs": 250},
            {"operation": "PutMessage", "drop": "partial", "times": 1},
            {"operation": "ClearMessages", "drop": "reset", "when": "before"}
        ]}"#,
    );
    let r = h.call("GET", "/devstoreaccount1/slow/messages?peekonly=true", "");
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.0.extensions().get::<Delivery>(),
        Some(&Delivery {
            delay_ms: 250,
            drop: None
        })
    );
    let r = h.call(
        "POST",
        "/devstoreaccount1/slow/messages",
        &message_body("m"),
    );
    assert_eq!(
        r.status(),
        201,
        "a drop after the operation cuts its own answer"
    );
    assert_eq!(
        r.0.extensions().get::<Delivery>().and_then(|d| d.drop),
        Some(DropMode::Partial)
    );
    // A reset before the operation: nothing applied, and a host without a socket answers 500.
    let r = h.call("DELETE", "/devstoreaccount1/slow/messages", "");
    r.assert_error(500, "InternalError");
    assert_eq!(count_visible(&mut h, "slow"), 1);
    let r = h.call("GET", "/devstoreaccount1/slow/messages?peekonly=true", "");
    assert!(r.0.extensions().get::<Delivery>().is_some());
    let r = h.call("GET", "/devstoreaccount1/slow?comp=metadata", "");
    assert!(r.0.extensions().get::<Delivery>().is_none());
}

#[test]
fn throttled_at_ten_a_second_on_a_paused_clock_then_served_after_a_second() {
    let mut h = Harness::new();
    h.create("burst");
    rules(&mut h, r#"{"limits": {"queueMessagesPerSecond": 10}}"#);
    h.service.faults_mut().take_injected();
    let statuses: Vec<u16> = (0..15)
        .map(|_| {
            h.call(
                "POST",
                "/devstoreaccount1/burst/messages",
                &message_body("m"),
            )
            .status()
        })
        .collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 10);
    assert_eq!(&statuses[10..], &[503; 5]);
    let r = h.call(
        "POST",
        "/devstoreaccount1/burst/messages",
        &message_body("m"),
    );
    r.assert_error(503, "ServerBusy");
    assert!(
        r.text()
            .contains("The server is currently unable to receive requests.")
    );
    let injected = h.service.faults_mut().take_injected();
    assert_eq!(injected.len(), 6);
    assert_eq!(injected[0].operation, Operation::PutMessage);
    assert!(matches!(injected[0].fault.source, Source::Limit(_)));
    h.advance(1);
    h.put("burst", "m", "");
    // The account's limit has its own text.
    rules(
        &mut h,
        r#"{"limits": {"queueMessagesPerSecond": null, "accountRequestsPerSecond": 1}}"#,
    );
    assert_eq!(
        h.call("GET", "/devstoreaccount1?comp=list", "").status(),
        200
    );
    let r = h.call("GET", "/devstoreaccount1?comp=list", "");
    r.assert_error(503, "ServerBusy");
    assert!(
        r.text()
            .contains("Operations per second is over the account limit.")
    );
}

#[test]
fn a_get_costs_the_messages_it_asks_for() {
    let mut h = Harness::new();
    h.create("costs");
    rules(&mut h, r#"{"limits": {"queueMessagesPerSecond": 10}}"#);
    let get = |h: &mut Harness, n: u32| {
        h.call(
            "GET",
            &format!("/devstoreaccount1/costs/messages?numofmessages={n}"),
            "",
        )
        .status()
    };
    assert_eq!(get(&mut h, 8), 200);
    assert_eq!(get(&mut h, 3), 503);
    assert_eq!(get(&mut h, 2), 200);
}

#[test]
fn a_rules_own_message_is_in_the_body_and_the_status_line_keeps_the_standard_phrase() {
    let mut h = Harness::new();
    h.create("words");
    rules(
        &mut h,
        r#"{"rules": [{"queue": "words", "status": 409, "code": "Teapot", "message": "Not today & not here."}]}"#,
    );
    let r = h.call("GET", "/devstoreaccount1/words?comp=metadata", "");
    assert_eq!((r.status(), r.code()), (409, Some("Teapot")));
    r.assert_has("<Error><Code>Teapot</Code>");
    assert!(
        r.text()
            .contains("<Message>Not today &amp; not here.\nRequestId:")
    );
    assert!(
        r.0.extensions()
            .get::<azqueue::rest::ReasonPhrase>()
            .is_none()
    );
}

fn dev(h: &mut Harness, method: &str, path: &str, body: &str) -> Reply {
    h.call_with(method, path, body, &[("x-azqueue-dev", "1")])
}

#[test]
fn the_faults_path_adds_shows_and_removes_rules() {
    let mut h = Harness::new();
    let r = dev(
        &mut h,
        "POST",
        "/_azqueue/faults",
        r#"{"seed": 3, "rules": [{"id": "busy", "operation": "PutMessage", "status": 503},
                                  {"operation": "GetMessages", "delayMs": 5}]}"#,
    );
    assert_eq!(r.status(), 200, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.text(), r#"{"ids":["busy","1"]}"#);
    let r = h.call("GET", "/_azqueue/faults", "");
    assert_eq!(r.status(), 200);
    let view: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
    assert_eq!(view["rules"][0]["id"], "busy");
    assert_eq!(view["rules"][1]["delayMs"], 5);
    assert_eq!(view["seed"], 3);
    assert_eq!(
        dev(&mut h, "DELETE", "/_azqueue/faults/busy", "").status(),
        204
    );
    let r = dev(&mut h, "DELETE", "/_azqueue/faults/busy", "");
    assert_eq!(r.status(), 404);
    assert!(r.text().contains("no fault rule has the id `busy`"));
    assert_eq!(dev(&mut h, "DELETE", "/_azqueue/faults", "").status(), 204);
    assert_eq!(
        h.call("GET", "/_azqueue/faults", "").text(),
        r#"{"rules":[],"limits":{"queueMessagesPerSecond":null,"accountRequestsPerSecond":null},"throttled":{"queueMessagesPerSecond":0,"accountRequestsPerSecond":0},"seed":0}"#
    );
}

#[test]
fn a_bad_body_is_refused_with_its_reason_and_changes_nothing() {
    let mut h = Harness::new();
    dev(
        &mut h,
        "POST",
        "/_azqueue/faults",
        r#"{"rules": [{"status": 503}]}"#,
    );
    let before = h.call("GET", "/_azqueue/faults", "").text();
    let r = dev(
        &mut h,
        "POST",
        "/_azqueue/faults",
        r#"{"limits": {"queueMessagesPerSecond": 5}, "rules": [{"status": 503}, {"probability": 2, "status": 500}]}"#,
    );
    assert_eq!(r.status(), 400);
    assert_eq!(
        r.text(),
        r#"{"error":"rules[1]: `probability` must be between 0 and 1"}"#
    );
    assert_eq!(h.call("GET", "/_azqueue/faults", "").text(), before);
    let r = dev(&mut h, "POST", "/_azqueue/faults", "not json");
    assert_eq!(r.status(), 400);
    assert!(
        r.text()
            .starts_with(r#"{"error":"the body must be a JSON object"#)
    );
}

#[test]
fn the_faults_path_is_behind_the_guard_and_off_with_real_accounts() {
    let mut h = Harness::new();
    let r = h.call(
        "POST",
        "/_azqueue/faults",
        r#"{"rules": [{"status": 503}]}"#,
    );
    assert_eq!(r.status(), 403, "a write without the development header");
    assert!(h.service.faults().rules().is_empty());
    assert_eq!(dev(&mut h, "PUT", "/_azqueue/faults", "").status(), 405);
    assert_eq!(h.call("GET", "/_azqueue/faults/a/b", "").status(), 404);
    let config = ServiceConfig {
        inspect: false,
        ..ServiceConfig::dev()
    };
    let mut h = Harness::with_config(config);
    let r = dev(
        &mut h,
        "POST",
        "/_azqueue/faults",
        r#"{"rules": [{"status": 503}]}"#,
    );
    assert_eq!(r.status(), 403);
    assert!(h.service.faults().rules().is_empty());
}
