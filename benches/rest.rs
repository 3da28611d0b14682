//! Cost of one REST request inside `Service::handle`, without any host: the part of a server's
//! per-request CPU that is azqueue's own (parse, authenticate, route, engine, XML, headers).
//!
//! Requests carry the headers `@azure/storage-queue` sends and a real SharedKey signature, so
//! authentication costs what it costs in production. Each timed call includes draining the
//! engine's outbox, as a host does before answering.
//! - `put_100b`: Put Message with a 100-byte text.
//! - `get1_delete`: Get Messages (1) then Delete Message of what it returned (two requests).
//! - `peek1`: Peek Messages (1) on a queue of 1,000 messages.
//!
//! `cargo bench --bench rest`

use azqueue::engine::{Emulator, SeededEntropy, Timestamp};
use azqueue::rest::auth::shared_key::{self, Scheme, Variant};
use azqueue::rest::auth::{AccountKey, AuthInput};
use azqueue::rest::{OAuth, Service, ServiceConfig};
use criterion::{Criterion, criterion_group, criterion_main};
use http::{HeaderMap, Request};
use std::hint::black_box;

const ACCOUNT: &str = "devstoreaccount1";
const KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const NOW: Timestamp = Timestamp::from_secs(1_700_000_000);

fn service() -> Service {
    let emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    Service::new(ServiceConfig::dev(), emu).with_request_ids(Box::new(SeededEntropy::new(2)))
}

/// A request as the JS SDK sends it, signed with SharedKey.
fn signed(method: &str, path_and_query: &str, body: &str) -> Request<Vec<u8>> {
    let (path, query) = match path_and_query.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path_and_query, None),
    };
    let mut headers = HeaderMap::new();
    let mut add = |name: &'static str, value: String| {
        headers.insert(name, value.parse().expect("bench headers are valid"));
    };
    add("host", "127.0.0.1:10001".into());
    add("x-ms-version", "2026-02-06".into());
    add(
        "x-ms-date",
        httpdate::fmt_http_date(
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(NOW.as_secs()),
        ),
    );
    add(
        "x-ms-client-request-id",
        "6c7a9a0e-1d2b-4c3d-8e4f-5a6b7c8d9e0f".into(),
    );
    add(
        "user-agent",
        "azsdk-js-storagequeue/12.30.0 core-rest-pipeline/1.22.0 Node/20.20.2 OS/(x64-Linux)"
            .into(),
    );
    add("accept", "application/xml".into());
    add("accept-encoding", "gzip,deflate".into());
    if !body.is_empty() {
        add("content-type", "application/xml".into());
        add("content-length", body.len().to_string());
    }
    let input = AuthInput {
        method,
        path,
        query,
        headers: &headers,
        account: ACCOUNT,
        queue: None,
        https: false,
        client_ip: None,
        wall: NOW,
        oauth: OAuth::Off,
        endpoint: "",
    };
    let sts = shared_key::string_to_sign(Scheme::SharedKey, &input, Variant::default());
    let key = AccountKey::from_base64(KEY).expect("the dev key is base64");
    let auth = format!("SharedKey {ACCOUNT}:{}", key.sign(&sts).to_base64());
    let mut req = Request::builder()
        .method(method)
        .uri(format!("http://127.0.0.1:10001{path_and_query}"))
        .body(body.as_bytes().to_vec())
        .expect("bench requests are valid");
    *req.headers_mut() = headers;
    req.headers_mut()
        .insert("authorization", auth.parse().expect("a valid header"));
    req
}

fn call(svc: &mut Service, req: &Request<Vec<u8>>) -> http::Response<Vec<u8>> {
    let resp = svc.handle(NOW, req);
    black_box(svc.emulator_mut().take_changes());
    resp
}

fn field<'a>(xml: &'a str, name: &str) -> &'a str {
    let open = format!("<{name}>");
    let start = xml.find(&open).map(|i| i + open.len()).unwrap_or(0);
    let end = xml[start..].find('<').map(|i| start + i).unwrap_or(start);
    &xml[start..end]
}

fn bench(c: &mut Criterion) {
    let mut svc = service();
    let create = signed("PUT", "/devstoreaccount1/bench", "");
    assert_eq!(call(&mut svc, &create).status(), 201);
    let text = "x".repeat(100);
    let put = signed(
        "POST",
        "/devstoreaccount1/bench/messages",
        &format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><QueueMessage><MessageText>{text}</MessageText></QueueMessage>"
        ),
    );
    assert_eq!(call(&mut svc, &put).status(), 201);
    for _ in 0..1_000 {
        call(&mut svc, &put);
    }
    let mut group = c.benchmark_group("rest");
    group.bench_function("put_100b", |b| {
        b.iter(|| {
            let r = call(&mut svc, &put);
            debug_assert_eq!(r.status(), 201);
            r
        })
    });
    let get = signed(
        "GET",
        "/devstoreaccount1/bench/messages?numofmessages=1",
        "",
    );
    group.bench_function("get1_delete", |b| {
        b.iter(|| {
            let r = call(&mut svc, &get);
            let xml = String::from_utf8_lossy(r.body()).into_owned();
            let (id, receipt) = (field(&xml, "MessageId"), field(&xml, "PopReceipt"));
            let receipt =
                percent_encoding::utf8_percent_encode(receipt, percent_encoding::NON_ALPHANUMERIC);
            let delete = signed(
                "DELETE",
                &format!("/devstoreaccount1/bench/messages/{id}?popreceipt={receipt}"),
                "",
            );
            let r = call(&mut svc, &delete);
            assert_eq!(r.status(), 204);
            // Keep the depth constant.
            call(&mut svc, &put)
        })
    });
    let peek = signed(
        "GET",
        "/devstoreaccount1/bench/messages?peekonly=true&numofmessages=1",
        "",
    );
    group.bench_function("peek1", |b| b.iter(|| call(&mut svc, &peek)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
