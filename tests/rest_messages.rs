//! Put, Get, Peek, Delete, Update and Clear over the REST surface, one behaviour per test.

#[path = "support/rest_harness.rs"]
mod rest_harness;
use rest_harness::*;

const XML: &str = r#"<?xml version="1.0" encoding="utf-8"?>"#;
const T0_RFC: &str = "Tue, 14 Nov 2023 22:13:20 GMT";
const T0_PLUS_7D: &str = "Tue, 21 Nov 2023 22:13:20 GMT";

#[test]
fn put_message_returns_201_with_the_put_shape() {
    let mut h = Harness::new();
    h.create("q01");
    let r = h.call(
        "POST",
        "/devstoreaccount1/q01/messages",
        &message_body("hello"),
    );
    assert_eq!(r.status(), 201);
    assert_eq!(r.header("content-type"), Some("application/xml"));
    assert_eq!(r.header("cache-control"), None);
    let (id, receipt) = (r.xml_field("MessageId"), r.xml_field("PopReceipt"));
    let want = format!(
        "{XML}<QueueMessagesList><QueueMessage><MessageId>{id}</MessageId><InsertionTime>{T0_RFC}</InsertionTime><ExpirationTime>{T0_PLUS_7D}</ExpirationTime><PopReceipt>{receipt}</PopReceipt><TimeNextVisible>{T0_RFC}</TimeNextVisible></QueueMessage></QueueMessagesList>"
    );
    assert_eq!(r.text(), want);
    assert_eq!(id.len(), 36);
}

#[test]
fn put_message_before_2016_05_31_answers_an_empty_201_and_still_stores_the_message() {
    let mut h = Harness::new();
    h.create("q01");
    let r = h.call_with(
        "POST",
        "/devstoreaccount1/q01/messages",
        &message_body("old client"),
        &[("x-ms-version", "2015-12-11")],
    );
    assert_eq!(r.status(), 201);
    assert_eq!(r.text(), "");
    assert_eq!(r.header("content-type"), None);
    assert_eq!(r.header("x-ms-version"), Some("2015-12-11"));
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(peek.xml_field("MessageText"), "old client");
}

#[test]
fn a_chunked_write_without_content_length_is_411_and_changes_nothing() {
    let mut h = Harness::new();
    h.create("q01");
    let r = h.call_with(
        "POST",
        "/devstoreaccount1/q01/messages",
        &message_body("no length"),
        &[("transfer-encoding", "chunked")],
    );
    r.assert_error(411, "MissingContentLengthHeader");
    let r = h.call_with(
        "PUT",
        "/devstoreaccount1/q02",
        "",
        &[("transfer-encoding", "chunked")],
    );
    r.assert_error(411, "MissingContentLengthHeader");
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(peek.xml_fields("MessageText"), Vec::<String>::new());
    assert_eq!(
        h.call("GET", "/devstoreaccount1/q02?comp=metadata", "")
            .status(),
        404
    );
    // With a length, the same write goes through.
    let r = h.call_with(
        "POST",
        "/devstoreaccount1/q01/messages",
        &message_body("with length"),
        &[("transfer-encoding", "chunked"), ("content-length", "90")],
    );
    assert_eq!(r.status(), 201);
}

#[test]
fn get_messages_returns_every_field_in_order_and_hides_the_message() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, _) = h.put("q01", "a <b> & 'c' \"d\"", "");
    let r = h.call(
        "GET",
        "/devstoreaccount1/q01/messages?visibilitytimeout=10",
        "",
    );
    assert_eq!(r.status(), 200);
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    let receipt = r.xml_field("PopReceipt");
    let want = format!(
        "{XML}<QueueMessagesList><QueueMessage><MessageId>{id}</MessageId><InsertionTime>{T0_RFC}</InsertionTime><ExpirationTime>{T0_PLUS_7D}</ExpirationTime><PopReceipt>{receipt}</PopReceipt><TimeNextVisible>Tue, 14 Nov 2023 22:13:30 GMT</TimeNextVisible><DequeueCount>1</DequeueCount><MessageText>a &lt;b&gt; &amp; 'c' \"d\"</MessageText></QueueMessage></QueueMessagesList>"
    );
    assert_eq!(r.text(), want);
    let again = h.call("GET", "/devstoreaccount1/q01/messages", "");
    assert_eq!(again.text(), format!("{XML}<QueueMessagesList />"));
}

#[test]
fn peek_shows_visible_messages_without_receipts_or_side_effects() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, _) = h.put("q01", "peeked", "");
    let r = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    let want = format!(
        "{XML}<QueueMessagesList><QueueMessage><MessageId>{id}</MessageId><InsertionTime>{T0_RFC}</InsertionTime><ExpirationTime>{T0_PLUS_7D}</ExpirationTime><DequeueCount>0</DequeueCount><MessageText>peeked</MessageText></QueueMessage></QueueMessagesList>"
    );
    assert_eq!(r.text(), want);
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    let got = h.call("GET", "/devstoreaccount1/q01/messages", "");
    assert_eq!(got.xml_field("DequeueCount"), "1");
}

#[test]
fn peek_with_visibilitytimeout_is_refused() {
    let mut h = Harness::new();
    h.create("q01");
    let r = h.call(
        "GET",
        "/devstoreaccount1/q01/messages?peekonly=true&visibilitytimeout=5",
        "",
    );
    r.assert_error(400, "InvalidQueryParameterValue");
    assert!(
        r.text()
            .contains("<Reason>Not a valid parameter in conjunction with peek.</Reason>")
    );
}

#[test]
fn a_message_reappears_after_its_visibility_timeout_with_dequeue_count_two() {
    let mut h = Harness::new();
    h.create("q01");
    h.put("q01", "job", "");
    let first = h.call(
        "GET",
        "/devstoreaccount1/q01/messages?visibilitytimeout=30",
        "",
    );
    h.advance(29);
    assert_eq!(
        h.call("GET", "/devstoreaccount1/q01/messages", "")
            .xml_fields("MessageId")
            .len(),
        0
    );
    h.advance(1);
    let second = h.call("GET", "/devstoreaccount1/q01/messages", "");
    assert_eq!(second.xml_field("DequeueCount"), "2");
    assert_ne!(
        second.xml_field("PopReceipt"),
        first.xml_field("PopReceipt")
    );
}

#[test]
fn delete_with_the_current_receipt_removes_the_message() {
    let mut h = Harness::new();
    h.create("q01");
    h.put("q01", "x", "");
    let got = h.call("GET", "/devstoreaccount1/q01/messages", "");
    let (id, receipt) = (got.xml_field("MessageId"), got.xml_field("PopReceipt"));
    let r = h.call("DELETE", &message_url("q01", &id, &receipt, ""), "");
    assert_eq!(r.status(), 204);
    assert!(r.text().is_empty());
    let meta = h.call("GET", "/devstoreaccount1/q01?comp=metadata", "");
    assert_eq!(meta.header("x-ms-approximate-messages-count"), Some("0"));
}

#[test]
fn a_stale_receipt_is_refused_with_404_message_not_found() {
    let mut h = Harness::new();
    h.create("q01");
    h.put("q01", "x", "");
    let first = h.call(
        "GET",
        "/devstoreaccount1/q01/messages?visibilitytimeout=1",
        "",
    );
    h.advance(1);
    h.call("GET", "/devstoreaccount1/q01/messages", "");
    let (id, stale) = (first.xml_field("MessageId"), first.xml_field("PopReceipt"));
    let r = h.call("DELETE", &message_url("q01", &id, &stale, ""), "");
    r.assert_error(404, "MessageNotFound");
    let u = h.call(
        "PUT",
        &message_url("q01", &id, &stale, "&visibilitytimeout=0"),
        "",
    );
    u.assert_error(404, "MessageNotFound");
}

#[test]
fn the_put_receipt_deletes_before_any_get() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, receipt) = h.put("q01", "x", "");
    let r = h.call("DELETE", &message_url("q01", &id, &receipt, ""), "");
    assert_eq!(r.status(), 204);
}

#[test]
fn a_malformed_pop_receipt_is_400() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, _) = h.put("q01", "x", "");
    let r = h.call(
        "DELETE",
        &format!("/devstoreaccount1/q01/messages/{id}?popreceipt=%21%21"),
        "",
    );
    r.assert_error(400, "InvalidQueryParameterValue");
    assert!(r.text().contains("<QueryParameterName>popreceipt</QueryParameterName><QueryParameterValue>!!</QueryParameterValue><Reason>Invalid pop receipt format</Reason>"));
    let missing = h.call(
        "DELETE",
        &format!("/devstoreaccount1/q01/messages/{id}"),
        "",
    );
    missing.assert_error(400, "InvalidQueryParameterValue");
}

#[test]
fn update_returns_a_new_receipt_and_next_visible_time_and_keeps_the_count() {
    let mut h = Harness::new();
    h.create("q01");
    h.put("q01", "step 1", "");
    let got = h.call("GET", "/devstoreaccount1/q01/messages", "");
    let (id, receipt) = (got.xml_field("MessageId"), got.xml_field("PopReceipt"));
    let r = h.call(
        "PUT",
        &message_url("q01", &id, &receipt, "&visibilitytimeout=60"),
        &message_body("step 2"),
    );
    assert_eq!(r.status(), 204);
    let new_receipt = r.header("x-ms-popreceipt").unwrap().to_owned();
    assert_ne!(new_receipt, receipt);
    assert_eq!(
        r.header("x-ms-time-next-visible"),
        Some("Tue, 14 Nov 2023 22:14:20 GMT")
    );
    h.advance(60);
    let again = h.call("GET", "/devstoreaccount1/q01/messages", "");
    assert_eq!(again.xml_field("MessageText"), "step 2");
    assert_eq!(again.xml_field("DequeueCount"), "2");
}

#[test]
fn update_without_a_body_keeps_the_text() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, receipt) = h.put("q01", "keep me", "");
    let r = h.call(
        "PUT",
        &message_url("q01", &id, &receipt, "&visibilitytimeout=0"),
        "",
    );
    assert_eq!(r.status(), 204);
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(peek.xml_field("MessageText"), "keep me");
}

#[test]
fn update_requires_visibilitytimeout_in_range() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, receipt) = h.put("q01", "x", "");
    let missing = h.call("PUT", &message_url("q01", &id, &receipt, ""), "");
    missing.assert_error(400, "InvalidQueryParameterValue");
    let big = h.call(
        "PUT",
        &message_url("q01", &id, &receipt, "&visibilitytimeout=604801"),
        "",
    );
    big.assert_error(400, "OutOfRangeQueryParameterValue");
    assert!(
        big.text()
            .contains("<MinimumAllowed>0</MinimumAllowed><MaximumAllowed>604800</MaximumAllowed>")
    );
}

#[test]
fn put_with_a_delay_hides_the_message_until_then() {
    let mut h = Harness::new();
    h.create("q01");
    let r = h.call(
        "POST",
        "/devstoreaccount1/q01/messages?visibilitytimeout=60",
        &message_body("later"),
    );
    assert_eq!(
        r.xml_field("TimeNextVisible"),
        "Tue, 14 Nov 2023 22:14:20 GMT"
    );
    assert!(
        h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "")
            .xml_fields("MessageId")
            .is_empty()
    );
    h.advance(60);
    assert_eq!(
        h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "")
            .xml_field("MessageText"),
        "later"
    );
}

#[test]
fn ttl_minus_one_never_expires() {
    let mut h = Harness::new();
    h.create("q01");
    let r = h.call(
        "POST",
        "/devstoreaccount1/q01/messages?messagettl=-1",
        &message_body("forever"),
    );
    assert_eq!(
        r.xml_field("ExpirationTime"),
        "Fri, 31 Dec 9999 23:59:59 GMT"
    );
}

/// Issue 13: `messagettl` above 2^31−1 (JavaScript's `Number.MAX_SAFE_INTEGER` is a common
/// "forever") is served, as Azurite serves it, with the expiry capped at 9999-12-31; Get,
/// Peek and the message itself carry that date.
#[test]
fn ttl_above_32_bits_is_capped_at_the_last_expressible_date() {
    let mut h = Harness::new();
    h.create("q01");
    for ttl in ["2147483648", "9007199254740991", "9223372036854775807"] {
        let r = h.call(
            "POST",
            &format!("/devstoreaccount1/q01/messages?messagettl={ttl}"),
            &message_body("long-lived"),
        );
        assert_eq!(r.status(), 201, "{ttl}: {}", r.text());
    }
    // 2^31 s from T0 (2023) is in 2091: a real date, not the cap.
    let peek = h.call(
        "GET",
        "/devstoreaccount1/q01/messages?peekonly=true&numofmessages=3",
        "",
    );
    assert_eq!(
        peek.xml_fields("ExpirationTime"),
        [
            "Mon, 03 Dec 2091 01:27:28 GMT",
            "Fri, 31 Dec 9999 23:59:59 GMT",
            "Fri, 31 Dec 9999 23:59:59 GMT"
        ]
    );
    h.advance(400 * 24 * 3600);
    let got = h.call("GET", "/devstoreaccount1/q01/messages?numofmessages=3", "");
    assert_eq!(got.xml_fields("MessageId").len(), 3);
    assert_eq!(
        got.xml_fields("ExpirationTime")[2],
        "Fri, 31 Dec 9999 23:59:59 GMT"
    );
}

#[test]
fn expired_messages_are_not_returned_or_counted() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, receipt) = h.put("q01", "short", "?messagettl=10");
    h.advance(10);
    assert!(
        h.call("GET", "/devstoreaccount1/q01/messages", "")
            .xml_fields("MessageId")
            .is_empty()
    );
    let meta = h.call("HEAD", "/devstoreaccount1/q01?comp=metadata", "");
    assert_eq!(meta.header("x-ms-approximate-messages-count"), Some("0"));
    let d = h.call("DELETE", &message_url("q01", &id, &receipt, ""), "");
    d.assert_error(404, "MessageNotFound");
}

#[test]
fn visibility_must_be_shorter_than_ttl_including_the_default() {
    let mut h = Harness::new();
    h.create("q01");
    let r = h.call(
        "POST",
        "/devstoreaccount1/q01/messages?visibilitytimeout=10&messagettl=10",
        &message_body("x"),
    );
    r.assert_error(400, "InvalidQueryParameterValue");
    assert!(r.text().contains("<QueryParameterName>visibilitytimeout</QueryParameterName><QueryParameterValue>10</QueryParameterValue><Reason>messagettl must be greater than visibilitytimeout</Reason>"));
    let d = h.call(
        "POST",
        "/devstoreaccount1/q01/messages?visibilitytimeout=604800",
        &message_body("x"),
    );
    d.assert_error(400, "InvalidQueryParameterValue");
    let ok = h.call(
        "POST",
        "/devstoreaccount1/q01/messages?visibilitytimeout=604800&messagettl=-1",
        &message_body("x"),
    );
    assert_eq!(ok.status(), 201);
}

#[test]
fn put_parameter_ranges() {
    let mut h = Harness::new();
    h.create("q01");
    for (query, code) in [
        ("visibilitytimeout=-1", "OutOfRangeQueryParameterValue"),
        ("visibilitytimeout=604801", "OutOfRangeQueryParameterValue"),
        ("messagettl=0", "OutOfRangeQueryParameterValue"),
        ("messagettl=-2", "OutOfRangeQueryParameterValue"),
        ("visibilitytimeout=abc", "InvalidQueryParameterValue"),
        (
            "messagettl=99999999999999999999",
            "OutOfRangeQueryParameterValue",
        ),
    ] {
        let r = h.call(
            "POST",
            &format!("/devstoreaccount1/q01/messages?{query}"),
            &message_body("x"),
        );
        r.assert_error(400, code);
    }
    let meta = h.call("GET", "/devstoreaccount1/q01?comp=metadata", "");
    assert_eq!(
        meta.header("x-ms-approximate-messages-count"),
        Some("0"),
        "bad input changed nothing"
    );
}

#[test]
fn the_64_kib_limit_counts_decoded_utf8_bytes() {
    let mut h = Harness::new();
    h.create("q01");
    let at_limit = "a".repeat(65_536);
    assert_eq!(
        h.call(
            "POST",
            "/devstoreaccount1/q01/messages",
            &message_body(&at_limit)
        )
        .status(),
        201
    );
    // 16 384 escaped `<` are 65 536 decoded bytes though the body is four times larger.
    let escaped = "<".repeat(65_536);
    assert_eq!(
        h.call(
            "POST",
            "/devstoreaccount1/q01/messages",
            &message_body(&escaped)
        )
        .status(),
        413
    );
    let multibyte = "\u{20ac}".repeat(21_845); // 65 535 bytes
    assert_eq!(
        h.call(
            "POST",
            "/devstoreaccount1/q01/messages",
            &message_body(&multibyte)
        )
        .status(),
        201
    );
    let over = "a".repeat(65_537);
    let r = h.call(
        "POST",
        "/devstoreaccount1/q01/messages",
        &message_body(&over),
    );
    r.assert_error(413, "RequestBodyTooLarge");
    assert!(r.text().contains("<MaxLimit>65536</MaxLimit>"));
}

#[test]
fn get_messages_count_and_visibility_ranges() {
    let mut h = Harness::new();
    h.create("q01");
    for i in 0..40 {
        h.put("q01", &format!("m{i}"), "");
    }
    let r = h.call("GET", "/devstoreaccount1/q01/messages?numofmessages=32", "");
    assert_eq!(r.xml_fields("MessageId").len(), 32);
    let rest = h.call("GET", "/devstoreaccount1/q01/messages?numofmessages=32", "");
    assert_eq!(
        rest.xml_fields("MessageId").len(),
        8,
        "fewer visible than asked: all of them"
    );
    for q in [
        "numofmessages=0",
        "numofmessages=33",
        "visibilitytimeout=0",
        "visibilitytimeout=604801",
    ] {
        h.call("GET", &format!("/devstoreaccount1/q01/messages?{q}"), "")
            .assert_error(400, "OutOfRangeQueryParameterValue");
    }
    let r = h.call("GET", "/devstoreaccount1/q01/messages?numofmessages=33", "");
    assert!(r.text().contains("<QueryParameterName>numofmessages</QueryParameterName><QueryParameterValue>33</QueryParameterValue><MinimumAllowed>1</MinimumAllowed><MaximumAllowed>32</MaximumAllowed>"));
}

#[test]
fn messages_come_out_in_insertion_order() {
    let mut h = Harness::new();
    h.create("q01");
    for i in 0..5 {
        h.put("q01", &format!("m{i}"), "");
    }
    let r = h.call("GET", "/devstoreaccount1/q01/messages?numofmessages=5", "");
    assert_eq!(r.xml_fields("MessageText"), ["m0", "m1", "m2", "m3", "m4"]);
}

#[test]
fn clear_messages_removes_visible_and_invisible() {
    let mut h = Harness::new();
    h.create("q01");
    h.put("q01", "a", "");
    h.put("q01", "b", "?visibilitytimeout=100");
    h.call("GET", "/devstoreaccount1/q01/messages", "");
    assert_eq!(
        h.call("DELETE", "/devstoreaccount1/q01/messages", "")
            .status(),
        204
    );
    let meta = h.call("GET", "/devstoreaccount1/q01?comp=metadata", "");
    assert_eq!(meta.header("x-ms-approximate-messages-count"), Some("0"));
}

#[test]
fn message_operations_on_a_missing_queue_are_404_queue_not_found() {
    let mut h = Harness::new();
    h.call(
        "POST",
        "/devstoreaccount1/nope/messages",
        &message_body("x"),
    )
    .assert_error(404, "QueueNotFound");
    h.call("GET", "/devstoreaccount1/nope/messages", "")
        .assert_error(404, "QueueNotFound");
    h.call("DELETE", "/devstoreaccount1/nope/messages", "")
        .assert_error(404, "QueueNotFound");
    h.call(
        "DELETE",
        "/devstoreaccount1/nope/messages/not-a-guid?popreceipt=AAAA",
        "",
    )
    .assert_error(404, "QueueNotFound");
}

#[test]
fn an_unknown_message_id_is_404_message_not_found() {
    let mut h = Harness::new();
    h.create("q01");
    h.call(
        "DELETE",
        "/devstoreaccount1/q01/messages/not-a-guid?popreceipt=AAAA",
        "",
    )
    .assert_error(404, "MessageNotFound");
    h.call(
        "DELETE",
        "/devstoreaccount1/q01/messages/6e2b9a52-2a4c-4b36-9a57-5c1d1a7d5f00?popreceipt=AAAA",
        "",
    )
    .assert_error(404, "MessageNotFound");
}

#[test]
fn bad_message_envelopes_are_400_invalid_xml_document() {
    let mut h = Harness::new();
    h.create("q01");
    for body in [
        "",
        "nonsense",
        "<Other><MessageText>x</MessageText></Other>",
        "<QueueMessage></QueueMessage>",
    ] {
        let r = h.call("POST", "/devstoreaccount1/q01/messages", body);
        r.assert_error(400, "InvalidXmlDocument");
    }
}

#[test]
fn content_md5_is_verified_when_present() {
    let mut h = Harness::new();
    h.create("q01");
    let body = message_body("x");
    let r = h.call_with(
        "POST",
        "/devstoreaccount1/q01/messages",
        &body,
        &[("content-md5", "AAAAAAAAAAAAAAAAAAAAAA==")],
    );
    r.assert_error(400, "Md5Mismatch");
    let r = h.call_with(
        "POST",
        "/devstoreaccount1/q01/messages",
        &body,
        &[("content-md5", "xyz")],
    );
    r.assert_error(400, "InvalidMd5");
}

/// The largest Put/Update request body the service reads: twice the 64 KiB text limit plus
/// the envelope (fact sheet §5.3).
const MAX_BODY: usize = 131_584;

/// A valid message body of exactly `len` bytes whose decoded text stays far below 64 KiB:
/// escaped `<` (four bytes each, one decoded) then `a` padding.
fn body_of_len(len: usize) -> String {
    let envelope = message_body("").len();
    let escaped = (len - envelope) / 4 - 1;
    let pad = len - envelope - 4 * escaped;
    let body = message_body(&format!("{}{}", "<".repeat(escaped), "a".repeat(pad)));
    assert_eq!(body.len(), len);
    body
}

/// Azure reads at most 131 584 body bytes on Put Message and Update Message; one byte more is
/// 413 RequestBodyTooLarge with `<MaxLimit>131584</MaxLimit>`, even when the text inside
/// would decode to well under 64 KiB. A body of exactly that size is accepted.
#[test]
fn put_and_update_bodies_over_131_584_bytes_are_413_with_that_max_limit() {
    let mut h = Harness::new();
    h.create("q01");
    let at_cap = body_of_len(MAX_BODY);
    let over = body_of_len(MAX_BODY + 1);

    let put = h.call("POST", "/devstoreaccount1/q01/messages", &at_cap);
    assert_eq!(put.status(), 201, "{}", put.text());
    let r = h.call("POST", "/devstoreaccount1/q01/messages", &over);
    r.assert_error(413, "RequestBodyTooLarge");
    r.assert_has("<MaxLimit>131584</MaxLimit>");

    let (id, receipt) = (put.xml_field("MessageId"), put.xml_field("PopReceipt"));
    let u = h.call(
        "PUT",
        &message_url("q01", &id, &receipt, "&visibilitytimeout=0"),
        &over,
    );
    u.assert_error(413, "RequestBodyTooLarge");
    u.assert_has("<MaxLimit>131584</MaxLimit>");
    let ok = h.call(
        "PUT",
        &message_url("q01", &id, &receipt, "&visibilitytimeout=0"),
        &at_cap,
    );
    assert_eq!(
        ok.status(),
        204,
        "the refused update kept the receipt current"
    );

    let meta = h.call("GET", "/devstoreaccount1/q01?comp=metadata", "");
    assert_eq!(meta.header("x-ms-approximate-messages-count"), Some("1"));
}

/// Update Message applies the same 64 KiB text limit as Put: 65 537 decoded bytes is
/// 413 RequestBodyTooLarge with `<MaxLimit>65536</MaxLimit>` (recorded from the real service),
/// and the message keeps its text and its current receipt; 65 536 bytes is accepted.
#[test]
fn update_message_text_over_64_kib_is_413_and_keeps_the_message() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, receipt) = h.put("q01", "original", "");
    let r = h.call(
        "PUT",
        &message_url("q01", &id, &receipt, "&visibilitytimeout=0"),
        &message_body(&"a".repeat(65_537)),
    );
    r.assert_error(413, "RequestBodyTooLarge");
    r.assert_has("<MaxLimit>65536</MaxLimit>");
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(peek.xml_field("MessageText"), "original");

    let at_limit = "a".repeat(65_536);
    let ok = h.call(
        "PUT",
        &message_url("q01", &id, &receipt, "&visibilitytimeout=0"),
        &message_body(&at_limit),
    );
    assert_eq!(ok.status(), 204, "{}", ok.text());
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(peek.xml_field("MessageText"), at_limit);
}

/// Update Message replaces the message's pop receipt: the receipt the caller used for the
/// update is superseded, so a later Delete or Update with it is 404 MessageNotFound on the
/// real service (Azurite says 400 PopReceiptMismatch instead), while the new one works.
#[test]
fn your_own_update_supersedes_the_receipt_it_used() {
    let mut h = Harness::new();
    h.create("q01");
    h.put("q01", "x", "");
    let got = h.call("GET", "/devstoreaccount1/q01/messages", "");
    let (id, old) = (got.xml_field("MessageId"), got.xml_field("PopReceipt"));
    let u = h.call(
        "PUT",
        &message_url("q01", &id, &old, "&visibilitytimeout=0"),
        "",
    );
    assert_eq!(u.status(), 204);
    let new = u.header("x-ms-popreceipt").unwrap().to_owned();

    h.call("DELETE", &message_url("q01", &id, &old, ""), "")
        .assert_error(404, "MessageNotFound");
    h.call(
        "PUT",
        &message_url("q01", &id, &old, "&visibilitytimeout=0"),
        "",
    )
    .assert_error(404, "MessageNotFound");
    let meta = h.call("GET", "/devstoreaccount1/q01?comp=metadata", "");
    assert_eq!(meta.header("x-ms-approximate-messages-count"), Some("1"));

    let d = h.call("DELETE", &message_url("q01", &id, &new, ""), "");
    assert_eq!(d.status(), 204, "{}", d.text());
}

/// A message travels inside XML, so its text may hold only characters XML 1.0 allows: a
/// control character, raw or as a character reference, is `400 InvalidXmlDocument` on Put and
/// Update (the service's XML reader refuses it), and nothing is stored or changed. Were it
/// stored, every later Get or Peek of the queue would answer a document no client can parse.
#[test]
fn texts_xml_cannot_carry_are_refused_and_change_nothing() {
    let mut h = Harness::new();
    h.create("q01");
    for body in [
        message_body("raw \u{1} control"),
        message_body("nul \u{0}"),
        message_body("not a character \u{FFFF}"),
        "<QueueMessage><MessageText>ref &#1; control</MessageText></QueueMessage>".to_owned(),
        "<QueueMessage><MessageText>hex ref &#x1B;</MessageText></QueueMessage>".to_owned(),
    ] {
        h.call("POST", "/devstoreaccount1/q01/messages", &body)
            .assert_error(400, "InvalidXmlDocument");
    }
    // Tab and line feed are XML characters.
    let put = h.call(
        "POST",
        "/devstoreaccount1/q01/messages",
        &message_body("tab\tlf\n"),
    );
    assert_eq!(put.status(), 201, "{}", put.text());
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(
        peek.xml_fields("MessageText"),
        ["tab\tlf\n"],
        "only one stored"
    );
    let got = h.call("GET", "/devstoreaccount1/q01/messages", "");
    let (id, receipt) = (got.xml_field("MessageId"), got.xml_field("PopReceipt"));
    let update = |h: &mut Harness, text: &str| {
        h.call(
            "PUT",
            &message_url("q01", &id, &receipt, "&visibilitytimeout=0"),
            &message_body(text),
        )
    };
    update(&mut h, "now \u{8} backspace").assert_error(400, "InvalidXmlDocument");
    // The refused update changed nothing: its receipt still works, and the text is the old one.
    assert_eq!(update(&mut h, "tab\tlf\n").status(), 204);
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(peek.xml_fields("MessageText"), ["tab\tlf\n"]);
}
