//! Shared harness for the in-process REST tests: a service on a manual clock with seeded
//! ids, and small request builders. No sockets, no sleeps.
#![allow(dead_code)] // each test binary uses a different subset

use azqueue::engine::{Emulator, ManualClock, SeededEntropy, Timestamp};
use azqueue::rest::{Service, ServiceConfig};
use http::{Request, Response};

/// `Tue, 14 Nov 2023 22:13:20 GMT`.
pub const T0: Timestamp = Timestamp::from_secs(1_700_000_000);

pub struct Harness {
    pub service: Service,
    pub clock: ManualClock,
}

impl Harness {
    /// Anonymous access on, no byte-order mark: the operation tests focus on the operations.
    pub fn new() -> Self {
        let config = ServiceConfig {
            anonymous: true,
            emit_bom: false,
            ..ServiceConfig::dev()
        };
        Harness::with_config(config)
    }

    pub fn with_config(config: ServiceConfig) -> Self {
        let emu = Emulator::new(Box::new(SeededEntropy::new(7)));
        let service = Service::new(config, emu).with_request_ids(Box::new(SeededEntropy::new(99)));
        Harness {
            service,
            clock: ManualClock::starting_at(T0),
        }
    }

    pub fn now(&self) -> Timestamp {
        use azqueue::engine::Clock;
        self.clock.now()
    }

    pub fn send(&mut self, req: Request<Vec<u8>>) -> Reply {
        let now = self.now();
        let resp = self.service.handle(now, &req);
        Reply(resp)
    }

    pub fn call(&mut self, method: &str, path_and_query: &str, body: &str) -> Reply {
        self.send(request(method, path_and_query, body, &[]))
    }

    pub fn call_with(
        &mut self,
        method: &str,
        path_and_query: &str,
        body: &str,
        headers: &[(&str, &str)],
    ) -> Reply {
        self.send(request(method, path_and_query, body, headers))
    }

    pub fn advance(&self, secs: u64) {
        self.clock.advance_secs(secs);
    }

    /// Creates a queue and asserts 201.
    pub fn create(&mut self, queue: &str) {
        let r = self.call("PUT", &format!("/devstoreaccount1/{queue}"), "");
        assert_eq!(r.status(), 201, "{}", r.text());
    }

    /// Puts a message and returns (id, pop receipt).
    pub fn put(&mut self, queue: &str, text: &str, query: &str) -> (String, String) {
        let r = self.call(
            "POST",
            &format!("/devstoreaccount1/{queue}/messages{query}"),
            &message_body(text),
        );
        assert_eq!(r.status(), 201, "{}", r.text());
        (r.xml_field("MessageId"), r.xml_field("PopReceipt"))
    }
}

pub fn request(
    method: &str,
    path_and_query: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> Request<Vec<u8>> {
    let mut b = Request::builder()
        .method(method)
        .uri(format!("http://127.0.0.1:10001{path_and_query}"));
    if !headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("x-ms-version"))
    {
        b = b.header("x-ms-version", "2025-11-05");
    }
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(body.as_bytes().to_vec())
        .expect("test requests are well-formed")
}

/// A `QueueMessage` body with the text XML-escaped.
pub fn message_body(text: &str) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><QueueMessage><MessageText>{escaped}</MessageText></QueueMessage>"
    )
}

/// The path of one message with its pop receipt (encoded), then `extra` query text
/// (`"&visibilitytimeout=0"`).
pub fn message_url(queue: &str, id: &str, receipt: &str, extra: &str) -> String {
    format!(
        "/devstoreaccount1/{queue}/messages/{id}?popreceipt={}{extra}",
        enc(receipt)
    )
}

/// Percent-encodes a pop receipt for a query string.
pub fn enc(s: &str) -> String {
    s.replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D")
}

pub struct Reply(pub Response<Vec<u8>>);

impl Reply {
    pub fn status(&self) -> u16 {
        self.0.status().as_u16()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.0.headers().get(name).and_then(|v| v.to_str().ok())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(self.0.body()).into_owned()
    }

    pub fn code(&self) -> Option<&str> {
        self.header("x-ms-error-code")
    }

    /// The text of the first `<name>` element (for ids and receipts).
    pub fn xml_field(&self, name: &str) -> String {
        self.xml_fields(name).into_iter().next().unwrap_or_default()
    }

    pub fn xml_fields(&self, name: &str) -> Vec<String> {
        let body = self.text();
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        body.split(&open)
            .skip(1)
            .filter_map(|rest| rest.split(&close).next().map(str::to_owned))
            .collect()
    }

    /// Asserts that the body contains `fragment` (showing the body when it does not).
    pub fn assert_has(&self, fragment: &str) {
        let text = self.text();
        assert!(text.contains(fragment), "no {fragment:?} in {text}");
    }

    /// Asserts an Azure error: status, `x-ms-error-code`, the same code in the body, and the
    /// body's message (its first line) as the status line's reason phrase.
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(self.status(), status, "{}", self.text());
        assert_eq!(self.code(), Some(code), "{}", self.text());
        assert!(
            self.text()
                .contains(&format!("<Error><Code>{code}</Code><Message>")),
            "{}",
            self.text()
        );
        let message = self.xml_field("Message");
        let first_line = message.lines().next().unwrap_or_default();
        let reason = self.0.extensions().get::<azqueue::rest::ReasonPhrase>();
        assert_eq!(reason.map(|r| r.0), Some(first_line), "reason phrase");
    }
}
