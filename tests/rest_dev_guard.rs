//! The development paths' guard (`rest::dev_guard`) as `Service::handle` applies it: writes
//! need `x-azqueue-dev` and an origin that is the server's own or CORS-allowed; behind a
//! socket host, the `Host` must name the address the server listens on (DNS rebinding).

mod common;
use azqueue::rest::Listening;
use common::*;

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
