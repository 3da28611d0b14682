//! The development paths' guard (`rest::dev::guard`) as `Service::handle` applies it: writes
//! need `x-azqueue-dev` and an origin that is the server's own or CORS-allowed; behind a
//! socket host, the `Host` must name the address the server listens on (DNS rebinding).

#[path = "support/rest_harness.rs"]
mod rest_harness;
use azqueue::rest::Listening;
use rest_harness::*;

/// A request to `path` as the Node server's connection hands it over: listening on
/// 127.0.0.1:10001, with the given `Host` header.
fn over_socket(method: &str, path: &str, host: &str) -> http::Request<Vec<u8>> {
    let mut req = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", host)
        .body(Vec::new())
        .unwrap();
    req.extensions_mut()
        .insert(Listening("127.0.0.1:10001".to_owned()));
    req
}

#[test]
fn a_rebound_host_name_is_refused_and_the_listening_address_is_served() {
    let mut h = Harness::new();
    h.create("qq1");
    let path = "/_azqueue/inspect/devstoreaccount1/qq1";
    for host in ["attacker.example:10001", "127.0.0.1:9999", "127.0.0.1"] {
        let r = h.send(over_socket("GET", path, host));
        assert_eq!(r.status(), 403, "{host}");
        r.assert_has("listens on");
    }
    for host in ["127.0.0.1:10001", "localhost:10001", "[::1]:10001"] {
        let r = h.send(over_socket("GET", path, host));
        assert_eq!(r.status(), 200, "{host}: {}", r.text());
    }
    // An absolute-form target names a host too, and it is checked the same way.
    let r = h.send(over_socket(
        "GET",
        "http://attacker.example:10001/_azqueue/inspect/devstoreaccount1",
        "127.0.0.1:10001",
    ));
    assert_eq!(r.status(), 403);
}

#[test]
fn in_process_requests_carry_no_listening_address_and_any_host_reads() {
    let mut h = Harness::new();
    let r = h.call_with(
        "GET",
        "/_azqueue/inspect/devstoreaccount1",
        "",
        &[("host", "page.example")],
    );
    assert_eq!(r.status(), 200, "{}", r.text());
}

#[test]
fn a_write_without_the_dev_header_is_refused_before_anything_else() {
    let mut h = Harness::new();
    // The inspection path takes only GET: with the header the answer is 405, without it the
    // guard answers first, so a simple cross-site request learns nothing.
    let r = h.call("POST", "/_azqueue/inspect/devstoreaccount1", "");
    assert_eq!(r.status(), 403);
    r.assert_has("x-azqueue-dev");
    let r = h.call_with(
        "POST",
        "/_azqueue/inspect/devstoreaccount1",
        "",
        &[("x-azqueue-dev", "1")],
    );
    assert_eq!(r.status(), 405);
}

#[test]
fn a_cross_site_origin_is_refused_unless_a_cors_rule_allows_it() {
    let mut h = Harness::new();
    let write = |h: &mut Harness, origin: &str| {
        h.call_with(
            "POST",
            "/_azqueue/inspect/devstoreaccount1",
            "",
            &[
                ("x-azqueue-dev", "1"),
                ("origin", origin),
                ("host", "127.0.0.1:10001"),
            ],
        )
        .status()
    };
    assert_eq!(write(&mut h, "https://attacker.example"), 403);
    assert_eq!(write(&mut h, "null"), 403);
    // Its own origin passes the guard (and meets the path's 405).
    assert_eq!(write(&mut h, "http://127.0.0.1:10001"), 405);
    let cors = "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties><Cors><CorsRule>\
        <AllowedOrigins>https://tool.example</AllowedOrigins><AllowedMethods>POST</AllowedMethods>\
        <AllowedHeaders>*</AllowedHeaders><ExposedHeaders>*</ExposedHeaders>\
        <MaxAgeInSeconds>60</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>";
    let r = h.call(
        "PUT",
        "/devstoreaccount1/?restype=service&comp=properties",
        cors,
    );
    assert_eq!(r.status(), 202, "{}", r.text());
    assert_eq!(write(&mut h, "https://tool.example"), 405);
    assert_eq!(write(&mut h, "https://attacker.example"), 403);
}

/// `/_azqueue/clock` moves the time every queue runs on, so the guard stands in front of it as
/// in front of the other development paths: read only from the listening address, moved only
/// with the header and from the server's own origin (or a CORS-allowed one), and not at all
/// once real accounts are configured. What passes the guard is the host's to answer (the
/// clock lives in the host), which a bare `Service` says with a 501.
#[test]
fn the_clock_path_is_behind_the_same_guard() {
    let mut h = Harness::new();
    let advance = r#"{"advanceMs": 31000}"#;
    let r = h.call("POST", "/_azqueue/clock", advance);
    assert_eq!(r.status(), 403);
    r.assert_has("x-azqueue-dev");
    for origin in ["https://attacker.example", "null"] {
        let r = h.call_with(
            "POST",
            "/_azqueue/clock",
            advance,
            &[
                ("x-azqueue-dev", "1"),
                ("origin", origin),
                ("host", "127.0.0.1:10001"),
            ],
        );
        assert_eq!(r.status(), 403, "{origin}");
    }
    let r = h.send(over_socket(
        "GET",
        "/_azqueue/clock",
        "attacker.example:10001",
    ));
    assert_eq!(r.status(), 403);
    r.assert_has("listens on");
    let r = h.call_with("PUT", "/_azqueue/clock", advance, &[("x-azqueue-dev", "1")]);
    assert_eq!(r.status(), 405);
    let r = h.call_with(
        "POST",
        "/_azqueue/clock",
        advance,
        &[("x-azqueue-dev", "1")],
    );
    assert_eq!(r.status(), 501, "{}", r.text());

    let mut config = azqueue::rest::ServiceConfig::dev();
    config.inspect = false;
    let mut real = Harness::with_config(config);
    let r = real.call_with(
        "POST",
        "/_azqueue/clock",
        advance,
        &[("x-azqueue-dev", "1")],
    );
    assert_eq!(r.status(), 403);
    r.assert_has("disabled");
    assert_eq!(real.call("GET", "/_azqueue/clock", "").status(), 403);
}

/// The inspector's actions change state: the header, the origin and the listening address are
/// checked before the action is even parsed, and nothing changes when they are refused.
#[test]
fn the_inspector_actions_are_behind_the_same_guard() {
    let mut h = Harness::new();
    h.create("qq1");
    let (id, _) = h.put("qq1", "kept", "");
    let clear = "/_azqueue/inspect/devstoreaccount1/qq1/clear";
    let delete = format!("/_azqueue/inspect/devstoreaccount1/qq1/messages/{id}/delete");
    for path in [clear, delete.as_str()] {
        let r = h.call("POST", path, "");
        assert_eq!(r.status(), 403, "{path}");
        r.assert_has("x-azqueue-dev");
        let r = h.call_with(
            "POST",
            path,
            "",
            &[
                ("x-azqueue-dev", "1"),
                ("origin", "https://attacker.example"),
                ("host", "127.0.0.1:10001"),
            ],
        );
        assert_eq!(r.status(), 403, "{path}");
        let mut rebound = over_socket("POST", path, "attacker.example:10001");
        rebound
            .headers_mut()
            .insert("x-azqueue-dev", http::HeaderValue::from_static("1"));
        let r = h.send(rebound);
        assert_eq!(r.status(), 403, "{path}");
        r.assert_has("listens on");
    }
    let r = h.call("GET", "/_azqueue/inspect/devstoreaccount1/qq1?limit=1", "");
    r.assert_has("\"total\":1");
    let mut config = azqueue::rest::ServiceConfig::dev();
    config.inspect = false;
    let mut real = Harness::with_config(config);
    let r = real.call_with("POST", clear, "", &[("x-azqueue-dev", "1")]);
    assert_eq!(r.status(), 403);
    r.assert_has("disabled");
}

/// The inspector page of another azqueue, which this server may opt in to (`--devOrigin`).
const INSPECTOR: &str = "http://127.0.0.1:8080";

/// A harness whose dev paths opt in to [`INSPECTOR`] (anonymous, as [`Harness::new`]).
fn opted_in() -> Harness {
    let mut config = azqueue::rest::ServiceConfig {
        anonymous: true,
        emit_bom: false,
        ..azqueue::rest::ServiceConfig::dev()
    };
    config.dev_origins = vec![INSPECTOR.to_owned()];
    Harness::with_config(config)
}

/// A preflight as Chromium sends it before the inspector's POST.
fn preflight(h: &mut Harness, path: &str, origin: &str, headers: &str) -> Reply {
    h.call_with(
        "OPTIONS",
        path,
        "",
        &[
            ("origin", origin),
            ("access-control-request-method", "POST"),
            ("access-control-request-headers", headers),
            ("host", "127.0.0.1:10001"),
        ],
    )
}

/// A cross-origin request from `origin`, as a browser sends it after the preflight.
fn from(h: &mut Harness, method: &str, path: &str, origin: &str) -> Reply {
    h.call_with(
        method,
        path,
        "",
        &[
            ("origin", origin),
            ("x-azqueue-dev", "1"),
            ("content-type", "application/json"),
            ("host", "127.0.0.1:10001"),
        ],
    )
}

/// Without `--devOrigin`, another site's page is granted nothing: its preflight is refused
/// (no CORS headers, so the browser never sends the POST), a read answers without
/// `Access-Control-Allow-Origin` (so the page cannot see it), and a write that skips the
/// preflight is refused with nothing changed.
#[test]
fn without_the_opt_in_another_origin_can_neither_read_nor_steer() {
    let mut h = Harness::new();
    h.create("qq1");
    h.put("qq1", "kept", "");
    h.service.emulator_mut().take_changes();
    let clear = "/_azqueue/inspect/devstoreaccount1/qq1/clear";
    for path in [clear, "/_azqueue/clock", "/_azqueue/events"] {
        let r = preflight(&mut h, path, INSPECTOR, "content-type,x-azqueue-dev");
        assert_eq!(r.status(), 403, "{path}");
        assert_eq!(r.header("access-control-allow-origin"), None, "{path}");
        assert_eq!(r.header("access-control-allow-methods"), None, "{path}");
    }
    for path in ["/_azqueue/inspect/devstoreaccount1", "/_azqueue/events"] {
        let r = from(&mut h, "GET", path, INSPECTOR);
        assert_eq!(r.header("access-control-allow-origin"), None, "{path}");
    }
    let r = from(&mut h, "POST", clear, INSPECTOR);
    assert_eq!(r.status(), 403);
    assert_eq!(r.header("access-control-allow-origin"), None);
    assert!(h.service.emulator_mut().take_changes().is_empty());
    let r = h.call("GET", "/_azqueue/inspect/devstoreaccount1/qq1", "");
    r.assert_has("\"total\":1");
}

/// With the opt-in, exactly that origin is granted: the preflight for the inspector's POST
/// (JSON body, `x-azqueue-dev`), then its reads and writes, each answer naming it. Any other
/// origin, method or header is still refused, and the Host check still comes first.
#[test]
fn an_opted_in_origin_reads_and_steers_and_no_other_does() {
    let mut h = opted_in();
    h.create("qq1");
    h.put("qq1", "gone", "");
    h.service.emulator_mut().take_changes();
    let clear = "/_azqueue/inspect/devstoreaccount1/qq1/clear";

    let r = preflight(&mut h, clear, INSPECTOR, "content-type, x-azqueue-dev");
    assert_eq!(r.status(), 204, "{}", r.text());
    assert_eq!(r.header("access-control-allow-origin"), Some(INSPECTOR));
    assert!(
        r.header("access-control-allow-methods")
            .unwrap()
            .contains("POST")
    );
    let allowed = r.header("access-control-allow-headers").unwrap();
    assert!(allowed.contains("x-azqueue-dev") && allowed.contains("content-type"));
    assert_eq!(r.header("vary"), Some("Origin"));

    for (origin, headers) in [
        ("https://attacker.example", "content-type, x-azqueue-dev"),
        ("null", "x-azqueue-dev"),
        ("http://127.0.0.1:8081", "x-azqueue-dev"),
        (INSPECTOR, "x-azqueue-dev, authorization"),
    ] {
        let r = preflight(&mut h, clear, origin, headers);
        assert_eq!(r.status(), 403, "{origin} {headers}");
        assert_eq!(r.header("access-control-allow-origin"), None, "{origin}");
    }
    let r = h.call_with(
        "OPTIONS",
        clear,
        "",
        &[
            ("origin", INSPECTOR),
            ("access-control-request-method", "PATCH"),
        ],
    );
    assert_eq!(r.status(), 403, "a method the paths do not take");
    // The Host check stands before the grant: a rebound name is refused.
    let mut rebound = over_socket("OPTIONS", clear, "attacker.example:10001");
    let headers = rebound.headers_mut();
    headers.insert("origin", http::HeaderValue::from_static(INSPECTOR));
    headers.insert(
        "access-control-request-method",
        http::HeaderValue::from_static("POST"),
    );
    let r = h.send(rebound);
    assert_eq!(r.status(), 403);
    r.assert_has("listens on");

    let r = from(
        &mut h,
        "GET",
        "/_azqueue/inspect/devstoreaccount1",
        INSPECTOR,
    );
    assert_eq!(r.status(), 200);
    assert_eq!(r.header("access-control-allow-origin"), Some(INSPECTOR));
    let r = from(&mut h, "GET", "/_azqueue/events", INSPECTOR);
    assert_eq!(r.status(), 200);
    assert_eq!(r.header("content-type"), Some("text/event-stream"));
    assert_eq!(r.header("access-control-allow-origin"), Some(INSPECTOR));
    let r = from(
        &mut h,
        "GET",
        "/_azqueue/inspect/devstoreaccount1",
        "https://attacker.example",
    );
    assert_eq!(r.header("access-control-allow-origin"), None);

    let r = from(&mut h, "POST", clear, "https://attacker.example");
    assert_eq!(r.status(), 403);
    assert!(h.service.emulator_mut().take_changes().is_empty());
    let r = from(&mut h, "POST", clear, INSPECTOR);
    assert_eq!(r.status(), 204, "{}", r.text());
    assert_eq!(r.header("access-control-allow-origin"), Some(INSPECTOR));
    let r = h.call("GET", "/_azqueue/inspect/devstoreaccount1/qq1", "");
    r.assert_has("\"total\":0");
    // A refusal is readable by the opted-in page too, so it can say why.
    let r = from(&mut h, "POST", "/_azqueue/nowhere", INSPECTOR);
    assert_eq!(r.status(), 404);
    assert_eq!(r.header("access-control-allow-origin"), Some(INSPECTOR));
}

/// The fault rules are removed with `DELETE` (docs/faults.md): an opted-in page's preflight for
/// it is granted, so an inspector of this server from another origin can remove a rule and
/// clear them all; another origin's is refused, and its `DELETE` changes nothing.
#[test]
fn an_opted_in_origin_may_delete_fault_rules_and_no_other_may() {
    let mut h = opted_in();
    let dev = [
        ("origin", INSPECTOR),
        ("x-azqueue-dev", "1"),
        ("host", "127.0.0.1:10001"),
    ];
    let body = r#"{"rules": [{"operation": "PutMessage", "status": 503}, {"status": 500}]}"#;
    let r = h.call_with("POST", "/_azqueue/faults", body, &dev);
    assert_eq!(r.status(), 200, "{}", r.text());
    let delete = |h: &mut Harness, path: &str, origin: &str| {
        h.call_with(
            "OPTIONS",
            path,
            "",
            &[
                ("origin", origin),
                ("access-control-request-method", "DELETE"),
                (
                    "access-control-request-headers",
                    "content-type, x-azqueue-dev",
                ),
                ("host", "127.0.0.1:10001"),
            ],
        )
    };
    for path in ["/_azqueue/faults/1", "/_azqueue/faults"] {
        let r = delete(&mut h, path, INSPECTOR);
        assert_eq!(r.status(), 204, "{path}: {}", r.text());
        assert!(
            r.header("access-control-allow-methods")
                .unwrap()
                .contains("DELETE")
        );
        let r = delete(&mut h, path, "https://attacker.example");
        assert_eq!(r.status(), 403, "{path}");
        assert_eq!(r.header("access-control-allow-origin"), None);
    }
    let r = from(
        &mut h,
        "DELETE",
        "/_azqueue/faults/1",
        "https://attacker.example",
    );
    assert_eq!(r.status(), 403);
    h.call("GET", "/_azqueue/faults", "")
        .assert_has(r#""id":"1""#);
    let r = from(&mut h, "DELETE", "/_azqueue/faults/1", INSPECTOR);
    assert_eq!(r.status(), 204, "{}", r.text());
    assert_eq!(r.header("access-control-allow-origin"), Some(INSPECTOR));
    let r = from(&mut h, "DELETE", "/_azqueue/faults", INSPECTOR);
    assert_eq!(r.status(), 204, "{}", r.text());
    h.call("GET", "/_azqueue/faults", "")
        .assert_has(r#""rules":[]"#);
}

/// With real accounts configured the paths are off, opt-in or not.
#[test]
fn the_opt_in_does_not_turn_the_paths_on_with_real_accounts() {
    let mut config = azqueue::rest::ServiceConfig::from_azurite_accounts("acct:a2V5MQ==").unwrap();
    config.dev_origins = vec![INSPECTOR.to_owned()];
    let mut h = Harness::with_config(config);
    let r = preflight(&mut h, "/_azqueue/clock", INSPECTOR, "x-azqueue-dev");
    assert_eq!(r.status(), 403);
    r.assert_has("disabled");
    assert_eq!(r.header("access-control-allow-origin"), None);
}
