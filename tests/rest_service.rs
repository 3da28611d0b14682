//! Service-level behaviour: properties, stats, versions, common headers, addressing, verbs.

#[path = "support/rest_harness.rs"]
mod rest_harness;
use azqueue::rest::ServiceConfig;
use rest_harness::*;

#[test]
fn default_service_properties_match_a_fresh_account() {
    let mut h = Harness::new();
    let r = h.call(
        "GET",
        "/devstoreaccount1/?restype=service&comp=properties",
        "",
    );
    assert_eq!(r.status(), 200);
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    assert_eq!(
        r.text(),
        r#"<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Logging><Version>1.0</Version><Read>false</Read><Write>false</Write><Delete>false</Delete><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging><HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></HourMetrics><MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></MinuteMetrics><Cors /></StorageServiceProperties>"#
    );
}

#[test]
fn set_service_properties_is_202_and_keeps_absent_parts() {
    let mut h = Harness::new();
    let body = r#"<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties><Cors><CorsRule><AllowedOrigins>http://a.example</AllowedOrigins><AllowedMethods>GET,PUT</AllowedMethods><AllowedHeaders>x-ms-meta-*</AllowedHeaders><ExposedHeaders>*</ExposedHeaders><MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>"#;
    let r = h.call(
        "PUT",
        "/devstoreaccount1/?restype=service&comp=properties",
        body,
    );
    assert_eq!(r.status(), 202);
    assert!(r.text().is_empty());
    let got = h
        .call(
            "GET",
            "/devstoreaccount1/?restype=service&comp=properties",
            "",
        )
        .text();
    assert!(got.contains("<CorsRule><AllowedMethods>GET,PUT</AllowedMethods><AllowedOrigins>http://a.example</AllowedOrigins>"));
    assert!(
        got.contains("<HourMetrics><Version>1.0</Version><Enabled>true</Enabled>"),
        "untouched part kept"
    );
}

#[test]
fn stats_only_on_the_secondary() {
    let mut h = Harness::new();
    let r = h.call(
        "GET",
        "/devstoreaccount1-secondary/?restype=service&comp=stats",
        "",
    );
    assert_eq!(r.status(), 200);
    // A read that returns data: `Cache-Control: no-cache`, as on the real service (§1.3, §3.4).
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    assert_eq!(r.header("content-type"), Some("application/xml"));
    assert_eq!(
        r.text(),
        r#"<?xml version="1.0" encoding="utf-8"?><StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>Tue, 14 Nov 2023 22:13:20 GMT</LastSyncTime></GeoReplication></StorageServiceStats>"#
    );
    let primary = h.call("GET", "/devstoreaccount1/?restype=service&comp=stats", "");
    primary.assert_error(400, "InvalidQueryParameterValue");
    assert!(primary.text().contains("<QueryParameterName>comp</QueryParameterName><QueryParameterValue>stats</QueryParameterValue>"));
}

#[test]
fn the_secondary_is_read_only() {
    let mut h = Harness::new();
    h.call("PUT", "/devstoreaccount1-secondary/q01", "")
        .assert_error(403, "AuthorizationFailure");
    h.create("q01");
    assert_eq!(
        h.call("GET", "/devstoreaccount1-secondary/q01?comp=metadata", "")
            .status(),
        200
    );
}

#[test]
fn the_request_version_is_echoed_and_any_well_formed_version_is_served() {
    let mut h = Harness::new();
    for v in ["2009-09-19", "2026-04-06", "2031-01-01"] {
        let r = h.call_with(
            "GET",
            "/devstoreaccount1?comp=list",
            "",
            &[("x-ms-version", v)],
        );
        assert_eq!(r.status(), 200, "{v}");
        assert_eq!(r.header("x-ms-version"), Some(v));
    }
    let bad = h.call_with(
        "GET",
        "/devstoreaccount1?comp=list",
        "",
        &[("x-ms-version", "latest")],
    );
    bad.assert_error(400, "InvalidHeaderValue");
    assert!(
        bad.text()
            .contains("<HeaderName>x-ms-version</HeaderName><HeaderValue>latest</HeaderValue>")
    );
    // api-version and x-ms-version together: served when they agree (the npm `azure-storage`
    // 2.x library sends both on every SAS request), refused when they differ.
    let agree = h.call_with(
        "GET",
        "/devstoreaccount1?comp=list&api-version=2018-03-28",
        "",
        &[("x-ms-version", "2018-03-28")],
    );
    assert_eq!(agree.status(), 200, "{}", agree.text());
    assert_eq!(agree.header("x-ms-version"), Some("2018-03-28"));
    let differ = h.call(
        "GET",
        "/devstoreaccount1?comp=list&api-version=2025-11-04",
        "",
    );
    differ.assert_error(400, "MultipleVersionsSpecified");
}

#[test]
fn client_request_id_is_echoed_when_short_and_printable() {
    let mut h = Harness::new();
    let r = h.call_with(
        "GET",
        "/devstoreaccount1?comp=list",
        "",
        &[("x-ms-client-request-id", "abc-123")],
    );
    assert_eq!(r.header("x-ms-client-request-id"), Some("abc-123"));
    let long = "x".repeat(1025);
    let r = h.call_with(
        "GET",
        "/devstoreaccount1?comp=list",
        "",
        &[("x-ms-client-request-id", long.as_str())],
    );
    assert_eq!(r.header("x-ms-client-request-id"), None);
}

#[test]
fn error_bodies_carry_request_id_and_time() {
    let mut h = Harness::new();
    let r = h.call("GET", "/devstoreaccount1/missing?comp=metadata", "");
    let id = r.header("x-ms-request-id").unwrap().to_owned();
    assert_eq!(
        r.text(),
        format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>QueueNotFound</Code><Message>The specified queue does not exist.\nRequestId:{id}\nTime:2023-11-14T22:13:20.0000000Z</Message></Error>"
        )
    );
    assert_eq!(r.header("content-type"), Some("application/xml"));
}

#[test]
fn xml_bodies_start_with_a_byte_order_mark_by_default() {
    let config = ServiceConfig {
        anonymous: true,
        ..ServiceConfig::dev()
    };
    let mut h = Harness::with_config(config);
    let r = h.call("GET", "/devstoreaccount1?comp=list", "");
    assert!(r.0.body().starts_with(b"\xEF\xBB\xBF<?xml"));
}

#[test]
fn unknown_accounts_paths_and_verbs() {
    let mut h = Harness::new();
    h.call("GET", "/nosuchaccount?comp=list", "")
        .assert_error(404, "ResourceNotFound");
    h.call("GET", "/devstoreaccount1/q01/bogus", "")
        .assert_error(400, "InvalidUri");
    h.call("PATCH", "/devstoreaccount1/q01", "")
        .assert_error(400, "InvalidHttpVerb");
    h.call("POST", "/devstoreaccount1/q01", "")
        .assert_error(405, "UnsupportedHttpVerb");
    h.call("GET", "/devstoreaccount1/q01?comp=metadata&timeout=abc", "")
        .assert_error(400, "InvalidQueryParameterValue");
}

#[test]
fn requests_without_credentials_are_refused_unless_anonymous_is_on() {
    let mut h = Harness::with_config(ServiceConfig::dev());
    let r = h.call("PUT", "/devstoreaccount1/q01", "");
    assert_eq!(r.status(), 401);
    assert_eq!(r.code(), Some("NoAuthenticationInformation"));
    assert!(
        h.service
            .emulator()
            .queue_names("devstoreaccount1")
            .is_empty(),
        "nothing changed"
    );
}

#[test]
fn host_style_addressing_works() {
    let mut h = Harness::new();
    let req = http::Request::builder()
        .method("PUT")
        .uri("http://devstoreaccount1.queue.localhost:10001/hostq")
        .header("x-ms-version", "2025-11-05")
        .body(Vec::new())
        .unwrap();
    assert_eq!(h.send(req).status(), 201);
    let r = h.call("GET", "/devstoreaccount1?comp=list", "");
    assert!(r.text().contains("<Name>hostq</Name>"));
}

#[test]
fn inspection_shows_invisible_messages_without_side_effects() {
    let mut h = Harness::new();
    h.create("q01");
    let (id, receipt) = h.put("q01", "hidden", "?visibilitytimeout=30");
    let r = h.call("GET", "/_azqueue/inspect/devstoreaccount1/q01", "");
    assert_eq!(r.status(), 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let v: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
    assert_eq!(v["messages"][0]["state"], "invisible");
    assert_eq!(v["messages"][0]["messageText"], "hidden");
    assert_eq!(v["messages"][0]["dequeueCount"], 0);
    // The current receipt is shown (the inspection model's policy, src/engine/inspection.rs).
    assert_eq!(v["messages"][0]["messageId"], id.as_str());
    assert_eq!(v["messages"][0]["popReceipt"], receipt.as_str());
    assert!(v["messages"][0]["expiresOn"].is_number());
    assert!(
        h.service.emulator_mut().take_changes().len() == 2,
        "only create + put, nothing from inspection"
    );
}

/// Signs like the SDKs do (string-to-sign written out here from the fact sheet, independently
/// of the crate's own signer) and checks the whole pipeline accepts it and refuses tampering.
fn shared_key_request(
    method: &str,
    path: &str,
    key_b64: &str,
    date: &str,
) -> http::Request<Vec<u8>> {
    use base64::Engine as _;
    use hmac::{Hmac, Mac};
    let b64 = base64::engine::general_purpose::STANDARD;
    let sts = format!(
        "{method}\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:{date}\nx-ms-version:2025-11-05\n/devstoreaccount1{path}"
    );
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&b64.decode(key_b64).unwrap()).unwrap();
    mac.update(sts.as_bytes());
    let sig = b64.encode(mac.finalize().into_bytes());
    http::Request::builder()
        .method(method)
        .uri(format!("http://127.0.0.1:10001{path}"))
        .header("x-ms-date", date)
        .header("x-ms-version", "2025-11-05")
        .header("authorization", format!("SharedKey devstoreaccount1:{sig}"))
        .body(Vec::new())
        .unwrap()
}

#[test]
fn a_shared_key_signed_request_passes_and_a_wrong_key_is_403() {
    let mut h = Harness::with_config(ServiceConfig::dev());
    let date = "Tue, 14 Nov 2023 22:13:20 GMT";
    let ok = h.send(shared_key_request(
        "PUT",
        "/devstoreaccount1/signedq",
        azqueue::rest::config::DEV_KEY,
        date,
    ));
    assert_eq!(ok.status(), 201, "{}", ok.text());
    let wrong = h.send(shared_key_request(
        "PUT",
        "/devstoreaccount1/otherq",
        "AAAA",
        date,
    ));
    wrong.assert_error(403, "AuthenticationFailed");
    assert!(
        !h.service
            .emulator()
            .queue_names("devstoreaccount1")
            .iter()
            .any(|q| q.as_str() == "otherq")
    );
}

#[test]
fn a_request_dated_more_than_15_minutes_ago_is_refused() {
    let mut h = Harness::with_config(ServiceConfig::dev());
    h.advance(16 * 60);
    let stale = "Tue, 14 Nov 2023 22:13:20 GMT";
    let r = h.send(shared_key_request(
        "PUT",
        "/devstoreaccount1/signedq",
        azqueue::rest::config::DEV_KEY,
        stale,
    ));
    r.assert_error(403, "AuthenticationFailed");
    assert!(r.text().contains("Request date header too old"));
}

/// The queues may run on a clock moved ahead of real time (`/_azqueue/clock`, a page's `now`),
/// but a client dates and signs its requests with its own real clock: the request-date window
/// is checked against the wall clock, and the queues' clock dates the answer.
#[test]
fn request_dates_are_checked_against_the_wall_clock_not_the_queues_clock() {
    use azqueue::rest::Clocks;
    let mut h = Harness::with_config(ServiceConfig::dev());
    let signed_at = "Tue, 14 Nov 2023 22:13:20 GMT"; // T0
    let eight_days_on = Clocks {
        queue: T0.plus_secs(8 * 86_400),
        wall: T0,
    };
    let req = shared_key_request(
        "PUT",
        "/devstoreaccount1/signedq",
        azqueue::rest::config::DEV_KEY,
        signed_at,
    );
    let r = h.service.handle_at(eight_days_on, &req);
    assert_eq!(r.status(), 201, "{}", String::from_utf8_lossy(r.body()));
    assert_eq!(r.headers()["date"], "Wed, 22 Nov 2023 22:13:20 GMT");

    // The other way round: a queue clock held back does not let a stale request in.
    let held_back = Clocks {
        queue: T0,
        wall: T0.plus_secs(16 * 60),
    };
    let req = shared_key_request(
        "PUT",
        "/devstoreaccount1/otherq",
        azqueue::rest::config::DEV_KEY,
        signed_at,
    );
    let r = h.service.handle_at(held_back, &req);
    assert_eq!(r.status(), 403);
    assert!(String::from_utf8_lossy(r.body()).contains("Request date header too old"));
}

/// `timeout` is accepted on every operation and must be an Int32: a value that overflows is
/// 400 OutOfRangeQueryParameterValue naming `timeout` with the Int32 bounds; values above 30
/// are legal (Azure quietly reduces them to 30 for Queue), on reads and writes alike.
#[test]
fn timeout_must_fit_in_int32_and_values_above_30_are_accepted() {
    let mut h = Harness::new();
    h.create("q01");
    for raw in ["2147483648", "-2147483649"] {
        let r = h.call(
            "GET",
            &format!("/devstoreaccount1?comp=list&timeout={raw}"),
            "",
        );
        r.assert_error(400, "OutOfRangeQueryParameterValue");
        let want = format!(
            "<QueryParameterName>timeout</QueryParameterName><QueryParameterValue>{raw}</QueryParameterValue><MinimumAllowed>-2147483648</MinimumAllowed><MaximumAllowed>2147483647</MaximumAllowed>"
        );
        assert!(r.text().contains(&want), "timeout={raw}: {}", r.text());
    }
    let r = h.call(
        "POST",
        "/devstoreaccount1/q01/messages?timeout=2147483648",
        &message_body("refused"),
    );
    r.assert_error(400, "OutOfRangeQueryParameterValue");

    for ok in ["31", "3600", "2147483647"] {
        let r = h.call(
            "GET",
            &format!("/devstoreaccount1?comp=list&timeout={ok}"),
            "",
        );
        assert_eq!(r.status(), 200, "timeout={ok}: {}", r.text());
    }
    let put = h.call(
        "POST",
        "/devstoreaccount1/q01/messages?timeout=60",
        &message_body("kept"),
    );
    assert_eq!(put.status(), 201, "{}", put.text());
    let peek = h.call("GET", "/devstoreaccount1/q01/messages?peekonly=true", "");
    assert_eq!(
        peek.xml_fields("MessageText"),
        ["kept"],
        "only the accepted put stored"
    );
}

/// Issue 13: the legacy Python SDKs (`azure-storage-queue` 2.1, `azure-storage` 0.36) write
/// booleans with Python's `str()`: `True`/`False`. These are the bytes 2.1 sends for
/// `set_queue_service_properties(logging=Logging(), hour_metrics=Metrics(enabled=True,
/// include_apis=True, retention_policy=RetentionPolicy(True, 5)), minute_metrics=Metrics(),
/// cors=[])` (ElementTree's declaration, with single quotes). The real service answers 202.
#[test]
fn legacy_python_sdk_booleans_in_any_case_are_accepted() {
    let mut h = Harness::new();
    let body = "<?xml version='1.0' encoding='utf-8'?>\n<StorageServiceProperties><Logging><Version>1.0</Version><Delete>False</Delete><Read>False</Read><Write>True</Write><RetentionPolicy><Enabled>False</Enabled></RetentionPolicy></Logging><HourMetrics><Version>1.0</Version><Enabled>True</Enabled><IncludeAPIs>True</IncludeAPIs><RetentionPolicy><Enabled>True</Enabled><Days>5</Days></RetentionPolicy></HourMetrics><MinuteMetrics><Version>1.0</Version><Enabled>False</Enabled><RetentionPolicy><Enabled>False</Enabled></RetentionPolicy></MinuteMetrics><Cors /></StorageServiceProperties>";
    let r = h.call_with(
        "PUT",
        "/devstoreaccount1/?restype=service&comp=properties",
        body,
        &[
            ("x-ms-version", "2018-03-28"),
            ("content-type", "application/xml; charset=utf-8"),
        ],
    );
    assert_eq!(r.status(), 202, "{}", r.text());
    let got = h.call(
        "GET",
        "/devstoreaccount1/?restype=service&comp=properties",
        "",
    );
    got.assert_has("<Write>true</Write>");
    got.assert_has("<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>5</Days></RetentionPolicy></HourMetrics>");
    let odd = body.replace("<Write>True</Write>", "<Write>yes</Write>");
    h.call(
        "PUT",
        "/devstoreaccount1/?restype=service&comp=properties",
        &odd,
    )
    .assert_error(400, "InvalidXmlNodeValue");
}
