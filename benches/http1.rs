//! The HTTP/1.1 codec's cost per request next to the REST layer's, for the Node server's
//! socket path (one Put Message of 100 B, as `scripts/bench/node.mjs` sends it):
//! - `decode_put`: request bytes → `http::Request` (head, headers, URI, body);
//! - `encode_201`: a Put Message answer → response bytes;
//! - `handle_put`: `Service::handle` on the decoded request (anonymous access, so no HMAC:
//!   the signature check is the REST layer's and is measured by the server benchmark).
//!
//! `cargo bench --bench http1`.

use azqueue::engine::{Emulator, SeededEntropy, Timestamp};
use azqueue::http1::{Config, Decoder, Framing, Item, encode};
use azqueue::rest::{Service, ServiceConfig};
use criterion::{Criterion, criterion_group, criterion_main};
use std::collections::VecDeque;
use std::hint::black_box;
use std::time::{Duration, UNIX_EPOCH};

fn put_bytes() -> Vec<u8> {
    let body = format!(
        "<QueueMessage><MessageText>{}</MessageText></QueueMessage>",
        "x".repeat(100)
    );
    format!(
        "POST /devstoreaccount1/bench/messages HTTP/1.1\r\nHost: 127.0.0.1:10001\r\n\
         x-ms-date: Tue, 14 Nov 2023 22:13:20 GMT\r\nx-ms-version: 2026-04-06\r\n\
         Authorization: SharedKey devstoreaccount1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n\
         Content-Length: {}\r\nContent-Type: application/xml\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn decode(bytes: &[u8]) -> http::Request<Vec<u8>> {
    let mut decoder = Decoder::new(Config::new("127.0.0.1:10001"));
    let mut items = VecDeque::new();
    decoder.feed(bytes, &mut items);
    match items.pop_front() {
        Some(Item::Request(r)) => r.request,
        other => panic!("not a request: {other:?}"),
    }
}

fn bench(c: &mut Criterion) {
    let bytes = put_bytes();
    c.bench_function("decode_put", |b| b.iter(|| decode(black_box(&bytes))));

    let config = ServiceConfig {
        anonymous: true,
        ..ServiceConfig::dev()
    };
    let mut service = Service::new(config, Emulator::new(Box::new(SeededEntropy::new(1))));
    let now = Timestamp::from_secs(1_700_000_000);
    let create = decode(b"PUT /devstoreaccount1/bench HTTP/1.1\r\nHost: h\r\n\r\n");
    assert_eq!(service.handle(now, &create).status(), 201);
    let mut request = decode(&bytes);
    // The signature above is a placeholder; anonymous access checks none when there is none.
    request.headers_mut().remove(http::header::AUTHORIZATION);
    let response = service.handle(now, &request);
    assert_eq!(response.status(), 201);

    let framing = Framing {
        head: false,
        keep_alive: true,
        http10: false,
        open_body: false,
    };
    let mut out = Vec::new();
    c.bench_function("encode_201", |b| {
        b.iter(|| {
            out.clear();
            encode(&mut out, black_box(&response), framing, || UNIX_EPOCH);
            black_box(out.len())
        })
    });

    c.bench_function("handle_put", |b| {
        b.iter(|| {
            let r = service.handle(now, black_box(&request));
            service.emulator_mut().take_changes();
            r
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
