//! The HTTP/1.1 codec's framing rules, one test per rule, over whole byte streams as a
//! socket would deliver them.

use azqueue::http1::{Config, Decoder, Item};
use std::collections::VecDeque;

/// Feeds `parts` one read at a time; returns every item produced.
fn items(parts: &[&[u8]]) -> Vec<Item> {
    let mut decoder = Decoder::new(Config::new("127.0.0.1:10001"));
    let mut out = VecDeque::new();
    for part in parts {
        decoder.feed(part, &mut out);
    }
    out.into()
}

fn request(item: &Item) -> (&str, String, &[u8], bool) {
    match item {
        Item::Request(r) => (
            r.request.method().as_str(),
            r.request.uri().to_string(),
            r.request.body().as_slice(),
            r.keep_alive,
        ),
        other => panic!("expected a request, got {other:?}"),
    }
}

fn rejected(item: &Item) -> u16 {
    match item {
        Item::Reject(status) => status.as_u16(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn content_length_body_across_reads() {
    let all = items(&[
        b"POST /a/q/messages HTTP/1.1\r\nHost: h\r\nContent-Le",
        b"ngth: 5\r\n\r\nhel",
        b"lo",
    ]);
    assert_eq!(all.len(), 1);
    assert_eq!(
        request(&all[0]),
        ("POST", "/a/q/messages".into(), &b"hello"[..], true)
    );
}

#[test]
fn chunked_body() {
    let all = items(&[
        b"PUT /a/q HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",
        b"2;x=y\r\nde\r\n0\r\nTrailer: t\r\n\r\n",
    ]);
    assert_eq!(request(&all[0]).2, b"abcde");
    assert_eq!(all.len(), 1);
}

#[test]
fn pipelined_requests_come_out_in_order() {
    let all = items(&[b"GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nxGET /3 HTTP/1.1\r\nHost: h\r\n\r\n"]);
    let paths: Vec<String> = all.iter().map(|i| request(i).1).collect();
    assert_eq!(paths, ["/1", "/2", "/3"]);
}

#[test]
fn expect_100_continue_only_while_the_body_is_missing() {
    let head = b"POST /q HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
    let all = items(&[head, b"ok"]);
    assert!(matches!(all[0], Item::Continue));
    assert_eq!(request(&all[1]).2, b"ok");
    // The body came with the head: nothing to wait for, no interim answer.
    let together = [&head[..], b"ok"].concat();
    let all = items(&[&together]);
    assert_eq!(all.len(), 1);
    assert_eq!(request(&all[0]).2, b"ok");
    // HTTP/1.0 clients do not understand 1xx.
    let all = items(&[
        b"POST /q HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n",
        b"x",
    ]);
    assert_eq!(all.len(), 1);
}

#[test]
fn connection_close_ends_the_stream() {
    let all = items(&[b"GET /1 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n"]);
    assert_eq!(all.len(), 1);
    assert!(!request(&all[0]).3);
}

#[test]
fn http10_closes_unless_keep_alive() {
    let all = items(&[b"GET /1 HTTP/1.0\r\n\r\nGET /2 HTTP/1.0\r\n\r\n"]);
    assert_eq!(all.len(), 1);
    // Without a Host header the request is addressed to the server itself.
    assert_eq!(request(&all[0]).1, "http://127.0.0.1:10001/1");
    let all = items(&[b"GET /1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.0\r\n\r\n"]);
    assert_eq!(all.len(), 2);
    assert!(request(&all[0]).3);
}

#[test]
fn malformed_request_line_is_400_and_the_end() {
    let all = items(&[b"GARBAGE\r\n\r\nGET / HTTP/1.1\r\n\r\n"]);
    assert_eq!(all.len(), 1);
    assert_eq!(rejected(&all[0]), 400);
    let all = items(&[b"GET / HTTP/1.1\r\nHost: h\r\n\r\n\x16\x03\x01 tls hello\r\n\r\n"]);
    assert_eq!(all.len(), 2);
    assert_eq!(rejected(&all[1]), 400);
}

#[test]
fn oversized_body_is_413_before_it_arrives() {
    let head = format!(
        "POST /q HTTP/1.1\r\nHost: h\r\nContent-Length: {}\r\n\r\n",
        16 * 1024 * 1024 + 1
    );
    let all = items(&[head.as_bytes()]);
    assert_eq!(rejected(&all[0]), 413);
    // Exactly the limit is fine.
    let mut decoder = Decoder::new(Config::new("h"));
    let mut out = VecDeque::new();
    let head = format!(
        "POST /q HTTP/1.1\r\nHost: h\r\nContent-Length: {}\r\n\r\n",
        16 * 1024 * 1024
    );
    decoder.feed(head.as_bytes(), &mut out);
    let chunk = vec![b'a'; 64 * 1024];
    for _ in 0..256 {
        decoder.feed(&chunk, &mut out);
    }
    assert_eq!(out.len(), 1);
    assert_eq!(request(&out[0]).2.len(), 16 * 1024 * 1024);
    assert_eq!(decoder.buffered(), 0);
}

#[test]
fn oversized_chunked_body_is_413() {
    let mut decoder = Decoder::new(Config {
        max_body: 10,
        ..Config::new("h")
    });
    let mut out = VecDeque::new();
    decoder.feed(
        b"POST /q HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n",
        &mut out,
    );
    assert_eq!(rejected(&out[0]), 413);
    assert!(decoder.is_done());
}

#[test]
fn repeated_headers_are_joined_and_values_kept_as_bytes() {
    let all = items(&[b"PUT /q HTTP/1.1\r\nHost: h\r\nx-ms-meta-a: 1\r\nX-Ms-Meta-A: 2\r\nx-ms-meta-b: caf\xe9\r\n\r\n"]);
    let Item::Request(r) = &all[0] else { panic!() };
    assert_eq!(r.request.headers()["x-ms-meta-a"], "1, 2");
    assert_eq!(r.request.headers()["x-ms-meta-b"].as_bytes(), b"caf\xe9");
    assert_eq!(r.request.headers()["host"], "h");
}

#[test]
fn empty_lines_between_pipelined_requests_are_skipped() {
    let all = items(&[b"GET /1 HTTP/1.1\r\nHost: h\r\n\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n"]);
    assert_eq!(all.len(), 2);
}

#[test]
fn a_head_trickling_in_byte_by_byte_is_parsed_once_it_ends() {
    // 60 KiB of header lines, one byte per read: linear work, not a parse per byte.
    let mut head = b"GET /q HTTP/1.1\r\nHost: h\r\n".to_vec();
    while head.len() < 60 * 1024 {
        head.extend_from_slice(format!("x-filler: {}\r\n", "a".repeat(1000)).as_bytes());
    }
    head.extend_from_slice(b"\r\n");
    let started = std::time::Instant::now();
    let parts: Vec<&[u8]> = head.chunks(1).collect();
    let all = items(&parts);
    assert_eq!(all.len(), 1);
    assert_eq!(request(&all[0]).1, "/q");
    assert!(
        started.elapsed().as_secs() < 5,
        "took {:?}",
        started.elapsed()
    );
    // One byte past the head limit without a blank line is refused.
    let endless = vec![b'a'; 64 * 1024 + 2];
    let parts: Vec<&[u8]> = endless.chunks(7).collect();
    let all = items(&[b"GET / HTTP/1.1\r\nx: ", &parts.concat()]);
    assert_eq!(rejected(&all[0]), 431);
}

/// `in_head` is what the Node server times (slow-head bound): true from a head's first byte
/// until its end, false while a body is awaited and between requests.
#[test]
fn in_head_spans_exactly_an_incomplete_head() {
    let mut decoder = azqueue::http1::Decoder::new(azqueue::http1::Config::new("h"));
    let mut items = std::collections::VecDeque::new();
    assert!(!decoder.in_head());
    for b in b"PUT /a/q HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n" {
        decoder.feed(&[*b], &mut items);
        assert!(decoder.in_head());
    }
    decoder.feed(b"\r\n", &mut items);
    assert!(
        !decoder.in_head(),
        "the head is complete; a body is awaited"
    );
    decoder.feed(b"ab", &mut items);
    assert!(!decoder.in_head());
    decoder.feed(b"c", &mut items);
    assert_eq!(items.len(), 1);
    assert!(!decoder.in_head());
    decoder.feed(b"G", &mut items);
    assert!(decoder.in_head());
}
