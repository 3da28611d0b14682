//! Arbitrary method, path, query, headers and body bytes into the REST handler: it never
//! panics, every answer is a well-formed Azure response, and an error changes nothing.

#[path = "support/rest_harness.rs"]
mod rest_harness;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use rest_harness::*;

fn method() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("GET".to_owned()),
        Just("PUT".to_owned()),
        Just("POST".to_owned()),
        Just("DELETE".to_owned()),
        Just("HEAD".to_owned()),
        Just("OPTIONS".to_owned()),
        Just("MERGE".to_owned()),
        "[A-Z]{1,7}",
    ]
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("devstoreaccount1".to_owned()),
        Just("devstoreaccount1-secondary".to_owned()),
        Just("qq1".to_owned()),
        Just("messages".to_owned()),
        Just("".to_owned()),
        "[a-zA-Z0-9%._~-]{0,12}",
    ]
}

fn query_pair() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("comp"),
        Just("restype"),
        Just("peekonly"),
        Just("numofmessages"),
        Just("visibilitytimeout"),
        Just("messagettl"),
        Just("popreceipt"),
        Just("prefix"),
        Just("marker"),
        Just("maxresults"),
        Just("include"),
        Just("timeout"),
        Just("sig"),
        Just("sv"),
    ];
    let value = prop_oneof![
        Just("list".to_owned()),
        Just("metadata".to_owned()),
        Just("acl".to_owned()),
        Just("service".to_owned()),
        Just("properties".to_owned()),
        Just("true".to_owned()),
        Just("-1".to_owned()),
        Just("32".to_owned()),
        "[ -~]{0,10}".prop_map(|s| s.replace(['&', '#', ' '], "")),
        any::<i64>().prop_map(|n| n.to_string()),
    ];
    (name, value).prop_map(|(n, v)| format!("{n}={v}"))
}

fn header() -> impl Strategy<Value = (String, String)> {
    let name = prop_oneof![
        Just("x-ms-version"),
        Just("x-ms-date"),
        Just("authorization"),
        Just("x-ms-meta-a"),
        Just("x-ms-meta-"),
        Just("content-md5"),
        Just("origin"),
        Just("access-control-request-method"),
        Just("x-ms-client-request-id"),
    ];
    (name, "[ -~]{0,24}").prop_map(|(n, v)| (n.to_owned(), v))
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(message_body("hello").into_bytes()),
        Just(b"<SignedIdentifiers><SignedIdentifier><Id>x</Id></SignedIdentifier></SignedIdentifiers>".to_vec()),
        Just(b"<StorageServiceProperties><Cors /></StorageServiceProperties>".to_vec()),
        proptest::collection::vec(any::<u8>(), 0..64),
        "[<>/a-zA-Z &;]{0,48}".prop_map(String::into_bytes),
    ]
}

fn check(
    h: &mut Harness,
    method: &str,
    path: &str,
    query: &[String],
    headers: &[(String, String)],
    body: Vec<u8>,
) {
    let q = if query.is_empty() {
        String::new()
    } else {
        format!("?{}", query.join("&"))
    };
    let mut b = http::Request::builder()
        .method(method)
        .uri(format!("http://127.0.0.1:10001{path}{q}"));
    for (k, v) in headers {
        b = b.header(k.as_str(), v.as_str());
    }
    let Ok(req) = b.body(body) else { return };
    h.service.emulator_mut().take_changes();
    let resp = h.send(req);
    let status = resp.status();
    assert!(resp.header("x-ms-request-id").is_some());
    if path.starts_with("/_azqueue/") {
        return;
    }
    assert!(resp.header("x-ms-version").is_some());
    if status >= 400 {
        let code = resp.code().expect("every error names its code").to_owned();
        if method != "HEAD" {
            let text = resp.text().trim_start_matches('\u{feff}').to_owned();
            assert!(
                text.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>"),
                "{text}"
            );
            assert!(text.contains(&format!("<Code>{code}</Code>")), "{text}");
            assert!(text.ends_with("</Error>"), "{text}");
        }
        assert!(
            h.service.emulator_mut().take_changes().is_empty(),
            "{method} {path}{q} failed with {code} but changed state"
        );
    }
}

/// Failing cases are kept with the crate's other proptest regressions, at the root.
fn regressions_kept() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/tests/rest_fuzz.txt",
        ))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..regressions_kept() })]

    #[test]
    fn anonymous_service_never_panics(
        method in method(),
        segments in proptest::collection::vec(segment(), 0..5),
        query in proptest::collection::vec(query_pair(), 0..5),
        headers in proptest::collection::vec(header(), 0..4),
        body in body(),
    ) {
        let mut h = Harness::new();
        h.create("qq1");
        h.put("qq1", "seed", "");
        let path = format!("/{}", segments.join("/"));
        check(&mut h, &method, &path, &query, &headers, body);
    }

    #[test]
    fn authenticated_service_never_panics(
        method in method(),
        segments in proptest::collection::vec(segment(), 0..5),
        query in proptest::collection::vec(query_pair(), 0..5),
        headers in proptest::collection::vec(header(), 0..4),
        body in body(),
    ) {
        let mut h = Harness::with_config(azqueue::rest::ServiceConfig::dev());
        let path = format!("/{}", segments.join("/"));
        check(&mut h, &method, &path, &query, &headers, body);
    }

    /// The inspector's paths, with the dev header: paging and actions on arbitrary segments
    /// and queries never panic, every refusal is a JSON error, and a refusal changes nothing.
    #[test]
    fn inspector_paths_never_panic_and_refusals_change_nothing(
        method in prop_oneof![Just("GET".to_owned()), Just("POST".to_owned()), method()],
        tail in proptest::collection::vec(prop_oneof![
            Just("messages".to_owned()),
            Just("clear".to_owned()),
            Just("delete".to_owned()),
            Just("visible".to_owned()),
            Just("poison".to_owned()),
            Just("00000000-0000-0000-0000-000000000001".to_owned()),
            segment(),
        ], 0..4),
        query in proptest::collection::vec(
            (prop_oneof![Just("from"), Just("limit"), Just("x")], "[-0-9a-z]{0,6}")
                .prop_map(|(n, v)| format!("{n}={v}")),
            0..3,
        ),
    ) {
        let mut h = Harness::new();
        h.create("qq1");
        h.put("qq1", "seed", "");
        h.service.emulator_mut().take_changes();
        let q = if query.is_empty() { String::new() } else { format!("?{}", query.join("&")) };
        let path = format!("/_azqueue/inspect/devstoreaccount1/qq1/{}{q}", tail.join("/"));
        let r = h.call_with(&method, &path, "", &[("x-azqueue-dev", "1")]);
        if r.status() >= 400 {
            prop_assert_eq!(r.header("content-type"), Some("application/json"));
            prop_assert!(r.text().starts_with("{\"error\":"), "{}", r.text());
            prop_assert!(
                h.service.emulator_mut().take_changes().is_empty(),
                "{} {} refused with {} but changed state", method, path, r.status()
            );
        }
    }
}

/// A page from [`OPTED_IN`] may use the development paths; no other origin may.
const OPTED_IN: &str = "http://127.0.0.1:8080";

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..regressions_kept() })]

    /// Every development path under arbitrary methods and the CORS and guard headers, on a
    /// server that opted in to one origin: never a panic, never a grant (any
    /// `Access-Control-*` header) to a request that did not come from that origin, and a
    /// refusal changes nothing.
    #[test]
    fn dev_paths_grant_only_the_opted_in_origin(
        method in prop_oneof![Just("OPTIONS".to_owned()), Just("GET".to_owned()), Just("POST".to_owned()), method()],
        path in prop_oneof![
            Just("/_azqueue/inspect/devstoreaccount1".to_owned()),
            Just("/_azqueue/inspect/devstoreaccount1/qq1".to_owned()),
            Just("/_azqueue/inspect/devstoreaccount1/qq1/clear".to_owned()),
            Just("/_azqueue/events".to_owned()),
            Just("/_azqueue/clock".to_owned()),
            Just("/_azqueue/snapshot".to_owned()),
            Just("/_azqueue/reset".to_owned()),
            segment().prop_map(|s| format!("/_azqueue/{s}")),
        ],
        headers in proptest::collection::vec(
            (
                prop_oneof![
                    Just("origin"),
                    Just("access-control-request-method"),
                    Just("access-control-request-headers"),
                    Just("x-azqueue-dev"),
                    Just("content-type"),
                    Just("host"),
                ],
                prop_oneof![
                    Just(OPTED_IN.to_owned()),
                    Just("http://127.0.0.1:8080/".to_owned()),
                    Just("https://attacker.example".to_owned()),
                    Just("null".to_owned()),
                    Just("POST".to_owned()),
                    Just("content-type, x-azqueue-dev".to_owned()),
                    Just("x-azqueue-dev, authorization".to_owned()),
                    Just("1".to_owned()),
                    Just("127.0.0.1:10001".to_owned()),
                    "[ -~]{0,24}",
                ],
            ),
            0..5,
        ),
        body in prop_oneof![Just(String::new()), Just(r#"{"advanceMs":1000}"#.to_owned()), "[ -~]{0,16}"],
    ) {
        let mut config = azqueue::rest::ServiceConfig { anonymous: true, ..azqueue::rest::ServiceConfig::dev() };
        config.dev_origins = vec![OPTED_IN.to_owned()];
        let mut h = Harness::with_config(config);
        h.create("qq1");
        h.put("qq1", "seed", "");
        h.service.emulator_mut().take_changes();
        let mut b = http::Request::builder().method(method.as_str()).uri(path.as_str());
        for (k, v) in &headers {
            b = b.header(*k, v.as_str());
        }
        let Ok(req) = b.body(body.into_bytes()) else { return Ok(()) };
        let origin = req.headers().get("origin").map(|v| v.as_bytes().to_vec());
        let r = h.send(req);
        let granted = r.0.headers().keys().any(|k| k.as_str().starts_with("access-control-"));
        if granted {
            prop_assert_eq!(origin.as_deref(), Some(OPTED_IN.as_bytes()));
            prop_assert_eq!(r.header("access-control-allow-origin"), Some(OPTED_IN));
        }
        if r.status() >= 400 {
            prop_assert_eq!(r.header("content-type"), Some("application/json"));
            prop_assert!(
                h.service.emulator_mut().take_changes().is_empty(),
                "{} {} refused with {} but changed state", method, path, r.status()
            );
        }
    }
}
