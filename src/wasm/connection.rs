//! The `Connection` class: one HTTP/1.1 connection of a socket server, framed in Rust. Each
//! socket read is one call in ([`Connection::feed`]) and the bytes to write come back (one
//! `Uint8Array`), so a request costs the host one crossing instead of a `node:http` request
//! object, a header array and a response object.
//!
//! Requests are answered in order through [`serve`] (handle, commit, then events): when
//! the store is still committing, the answer (and every pipelined one behind it) comes back as
//! a Promise, so nothing is written before it is durable.

use super::fetch::plain_error;
use super::instance::Instance;
use super::serve::serve;
use crate::http1::{self, Config, Decoder, Framing, Item};
use crate::rest::auth::redact::Redactor;
use crate::rest::dev;
use crate::rest::faults::{Delivery, DropMode};
use crate::rest::{ClientAddress, ErrorCode, Listening, SecureTransport};
use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use wasm_bindgen::prelude::*;

/// Output capacity a connection keeps between reads (a few hundred typical answers).
const KEPT_OUTPUT_CAPACITY: usize = 256 * 1024;

/// One REST answer on its way: [`serve`] boxed, so a pending one can outlive the call.
type Serving = Pin<Box<dyn Future<Output = Result<http::Response<Vec<u8>>, JsValue>>>>;

/// One HTTP/1.1 connection to the REST service, for a host that owns the socket.
///
/// ```js
/// const conn = service.connection("127.0.0.1:10001", 0, socket.remoteAddress);
/// const write = (n) => {
///   if (n > 0) socket.write(conn.take(Buffer.allocUnsafe(n)));
///   if (conn.closing) socket.end();
/// };
/// socket.on("data", (chunk) => {
///   const n = conn.feed(chunk);              // bytes ready, or a Promise of that number
///   typeof n === "number" ? write(n) : n.then(write);
/// });
/// socket.on("close", () => conn.free());
/// ```
///
/// The answer is copied into a buffer the host allocates (Node's `Buffer.allocUnsafe` takes
/// small ones from a shared pool) rather than returned as a new `Uint8Array`: a fresh
/// `ArrayBuffer` per answer cost more than the extra call, in allocation and in GC.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Connection {
    inner: Rc<Inner>,
}

#[derive(Debug)]
struct Inner {
    instance: Rc<Instance>,
    decoder: RefCell<Decoder>,
    /// Items decoded and not yet answered, in stream order.
    waiting: RefCell<VecDeque<Item>>,
    /// An answer is being awaited (its Promise went out): later items wait behind it.
    busy: Cell<bool>,
    /// Response bytes not yet handed to the host.
    out: RefCell<Vec<u8>>,
    /// The last answer has been produced: close after writing it.
    closing: Cell<bool>,
    /// The stream whose head the last answer is, as the route read it (`per=queue`,
    /// `requests=1`): the host writes the rest.
    stream: Cell<Option<dev::EventStream>>,
    /// A fault rule's `drop: "reset"`: reset the connection once the bytes before are written.
    reset: Cell<bool>,
    log: LogLevel,
    entries: RefCell<Vec<LogEntry>>,
    /// The peer's address, attached to every request (SAS `sip` checks).
    peer: Option<std::net::IpAddr>,
    /// `host:port` the server listens on, attached to every request ([`Listening`]).
    listening: String,
    /// The socket is TLS: every request is marked [`SecureTransport`].
    secure: bool,
}

/// What the host's access log wants per request; nothing is recorded at `Off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum LogLevel {
    Off,
    Access,
    Headers,
}

/// One answered request, for an access log. Nothing in it shows a key, a signature or a
/// token: the URL, headers and bodies pass through a [`Redactor`] first.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LogEntry {
    method: String,
    url: String,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_code: Option<String>,
    /// Request headers as `[name, value]` pairs (at the `Headers` level only).
    #[serde(skip_serializing_if = "Option::is_none")]
    headers: Option<Vec<(String, String)>>,
    /// The request body as text (at the `Headers` level only).
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<String>,
    /// The answer's headers and body (at the `Headers` level only).
    #[serde(skip_serializing_if = "Option::is_none")]
    response_headers: Option<Vec<(String, String)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_body: Option<String>,
}

impl LogEntry {
    fn new(method: String, url: String) -> Self {
        LogEntry {
            method,
            url,
            status: 0,
            error_code: None,
            headers: None,
            body: None,
            response_headers: None,
            response_body: None,
        }
    }
}

/// A request's answer-side facts, taken before the request moves into its future.
#[derive(Debug)]
struct Reply {
    framing: Framing,
    /// Method, URL and headers for the log (when logging).
    log: Option<LogEntry>,
    /// The request's secrets, to keep them out of the logged answer (`Headers` level).
    redactor: Option<Redactor>,
}

impl Connection {
    /// A connection to `instance`'s REST API (see [`QueueService::connection`](super::service::QueueService::connection)):
    /// `address` is the server's own `host:port`.
    pub(crate) fn new(
        instance: Rc<Instance>,
        address: String,
        log: u8,
        peer: Option<String>,
        secure: bool,
    ) -> Connection {
        let log = match log {
            0 => LogLevel::Off,
            1 => LogLevel::Access,
            _ => LogLevel::Headers,
        };
        Connection {
            inner: Rc::new(Inner {
                instance,
                decoder: RefCell::new(Decoder::new(Config::new(address.clone()))),
                waiting: RefCell::new(VecDeque::new()),
                busy: Cell::new(false),
                out: RefCell::new(Vec::new()),
                closing: Cell::new(false),
                stream: Cell::new(None),
                reset: Cell::new(false),
                log,
                entries: RefCell::new(Vec::new()),
                peer: peer.and_then(|p| p.parse().ok()),
                listening: address,
                secure,
            }),
        }
    }
}

#[wasm_bindgen]
impl Connection {
    /// Takes bytes read from the socket. Returns how many response bytes are ready for
    /// [`Connection::take`] (0: nothing to write yet), or a Promise of that number when an
    /// answer waits for the store (then every later answer of this connection comes with that
    /// Promise, in order, and `feed` returns 0 until it has resolved). Never throws for bad
    /// input: that is answered `400` (or `413`, `431`, `501`) and the connection closes.
    #[wasm_bindgen(unchecked_return_type = "number | Promise<number>")]
    pub fn feed(&self, chunk: &[u8]) -> JsValue {
        let inner = &self.inner;
        if inner.closing.get() {
            // The last answer is out (or a fault cut it off): nothing more is read.
            return JsValue::from(0);
        }
        {
            let mut waiting = inner.waiting.borrow_mut();
            inner.decoder.borrow_mut().feed(chunk, &mut waiting);
        }
        if inner.busy.get() {
            // The task awaiting the earlier answer takes these items in turn.
            return JsValue::from(0);
        }
        let answered = inner.answer_ready();
        super::headroom::keep_ahead();
        match answered {
            None => inner.ready(),
            Some((serving, reply)) => {
                inner.busy.set(true);
                let inner = Rc::clone(inner);
                wasm_bindgen_futures::future_to_promise(async move {
                    let response = serving.await;
                    inner.write(response, reply);
                    inner.answer_rest().await;
                    super::headroom::keep_ahead();
                    inner.busy.set(false);
                    Ok(inner.ready())
                })
                .into()
            }
        }
    }

    /// Moves the ready response bytes into `target` and returns what it filled: `target`
    /// itself when it is as long as the number `feed` gave (so
    /// `socket.write(conn.take(Buffer.allocUnsafe(n)))`). A shorter `target` gets the first
    /// bytes and the rest stays ready; a longer one comes back as a view of the filled part.
    pub fn take(&self, target: js_sys::Uint8Array) -> js_sys::Uint8Array {
        let mut out = self.inner.out.borrow_mut();
        let n = (target.length() as usize).min(out.len());
        // `copy_from` requires equal lengths (it panics otherwise).
        let filled = if n == target.length() as usize {
            target
        } else {
            target.subarray(0, n as u32)
        };
        filled.copy_from(&out[..n]);
        out.drain(..n);
        if out.is_empty() && out.capacity() > KEPT_OUTPUT_CAPACITY {
            // One large listing should not pin its buffer for the life of the connection.
            *out = Vec::new();
        }
        filled
    }

    /// Whether part of a request head has arrived and not yet its end: a host starts its head
    /// timer when this turns true and stops it when it turns false.
    #[wasm_bindgen(getter, js_name = inHead)]
    pub fn in_head(&self) -> bool {
        self.inner.decoder.borrow().in_head()
    }

    /// Whether the connection ends after the bytes returned so far: close the socket once they
    /// are written (unless it is [`Connection::streaming`]).
    #[wasm_bindgen(getter)]
    pub fn closing(&self) -> bool {
        self.inner.closing.get()
    }

    /// Whether the bytes returned so far end with the head of `GET /_azqueue/events` (the
    /// service's change events, `rest::dev`): keep the socket open and write the events
    /// to it, until the client closes it. Nothing more is read from it.
    #[wasm_bindgen(getter)]
    pub fn streaming(&self) -> bool {
        self.inner.stream.get().is_some()
    }

    /// Whether that stream asked for one event per changed queue (`?per=queue`).
    #[wasm_bindgen(getter, js_name = streamSummarised)]
    pub fn stream_summarised(&self) -> bool {
        self.inner.stream.get().is_some_and(|s| s.summarised)
    }

    /// Whether that stream asked for the request log as well (`?per=queue&requests=1`).
    #[wasm_bindgen(getter, js_name = streamRequests)]
    pub fn stream_requests(&self) -> bool {
        self.inner.stream.get().is_some_and(|s| s.requests)
    }

    /// Whether a fault rule (`drop: "reset"`, docs/faults.md) asks for the connection to be
    /// reset, with no answer, once the bytes returned so far are written
    /// (`socket.resetAndDestroy()`). `closing` is true then too.
    #[wasm_bindgen(getter)]
    pub fn reset(&self) -> bool {
        self.inner.reset.get()
    }

    /// The requests answered since the last call, oldest first, as `{ method, url, status,
    /// errorCode?, headers?, body?, responseHeaders?, responseBody? }` (empty unless the
    /// connection was made with logging on; headers and bodies at level 2). `sig`, the
    /// credential in `Authorization` and account keys are `<redacted>` throughout.
    #[wasm_bindgen(js_name = takeLog, unchecked_return_type = "Array<{ method: string, url: string, status: number, errorCode?: string, headers?: [string, string][], body?: string, responseHeaders?: [string, string][], responseBody?: string }>")]
    pub fn take_log(&self) -> JsValue {
        let entries = std::mem::take(&mut *self.inner.entries.borrow_mut());
        serde_wasm_bindgen::to_value(&entries).unwrap_or(JsValue::UNDEFINED)
    }
}

impl Inner {
    /// Answers waiting items while answers are ready at once (the memory store). Returns the
    /// first answer that is not, with what it needs to be written later.
    fn answer_ready(&self) -> Option<(Serving, Reply)> {
        loop {
            let item = self.waiting.borrow_mut().pop_front()?;
            let (mut serving, reply) = self.start(item)?;
            // One poll without a waker: the memory store commits at once, so the common case
            // needs no Promise. A pending one is polled again by the executor, which registers
            // a real waker then (a future must accept a new waker on every poll).
            match serving
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
            {
                Poll::Ready(response) => self.write(response, reply),
                Poll::Pending => return Some((serving, reply)),
            }
        }
    }

    /// Answers the items that queued up behind an awaited answer, in order.
    async fn answer_rest(&self) {
        loop {
            let item = self.waiting.borrow_mut().pop_front();
            let Some(item) = item else { return };
            if let Some((serving, reply)) = self.start(item) {
                let response = serving.await;
                self.write(response, reply);
            }
        }
    }

    /// Starts answering one item; `None` when it was answered on the spot (an interim
    /// `100 Continue` or a rejection).
    fn start(&self, item: Item) -> Option<(Serving, Reply)> {
        let incoming = match item {
            Item::Continue => {
                self.out.borrow_mut().extend_from_slice(http1::CONTINUE);
                return None;
            }
            Item::Reject(status) => {
                let framing = Framing {
                    head: false,
                    keep_alive: false,
                    http10: false,
                    open_body: false,
                };
                let code = if status == http::StatusCode::PAYLOAD_TOO_LARGE {
                    ErrorCode::RequestBodyTooLarge
                } else {
                    ErrorCode::InvalidInput
                };
                let reason = status.canonical_reason().unwrap_or("Bad Request");
                let response = plain_error(status.as_u16(), code, reason);
                // The request could not be read, so there is no method or URL to name.
                let log = (self.log > LogLevel::Off)
                    .then(|| LogEntry::new("-".to_owned(), "-".to_owned()));
                let reply = Reply {
                    framing,
                    log,
                    redactor: None,
                };
                self.write(Ok(response), reply);
                return None;
            }
            Item::Request(incoming) => incoming,
        };
        let mut request = incoming.request;
        let method = request.method();
        let framing = Framing {
            head: method == http::Method::HEAD,
            keep_alive: incoming.keep_alive,
            http10: request.version() == http::Version::HTTP_10,
            open_body: false,
        };
        // The Fetch API gives GET and HEAD no body; so does this path, to answer alike.
        if method == http::Method::GET || method == http::Method::HEAD {
            request.body_mut().clear();
        }
        if let Some(peer) = self.peer {
            request.extensions_mut().insert(ClientAddress(peer));
        }
        // The address this socket server listens on: the development paths answer only to it.
        request
            .extensions_mut()
            .insert(Listening(self.listening.clone()));
        if self.secure {
            request.extensions_mut().insert(SecureTransport);
        }
        // The access log needs only the URL's `sig` blanked; the debug level also logs
        // headers and bodies, so it learns every secret the request and the service hold.
        let redactor = (self.log >= LogLevel::Headers).then(|| {
            self.instance
                .read(|s| Redactor::for_request(&request, s.config()))
                .unwrap_or_default()
        });
        let log = (self.log > LogLevel::Off).then(|| {
            let blank = redactor.clone().unwrap_or_default();
            let mut entry = LogEntry::new(
                request.method().to_string(),
                blank.url(&request.uri().to_string()),
            );
            if self.log >= LogLevel::Headers {
                entry.headers = Some(logged_headers(&blank, request.headers()));
                entry.body = Some(blank.text(&String::from_utf8_lossy(request.body())));
            }
            entry
        });
        let instance = Rc::clone(&self.instance);
        let serving: Serving = Box::pin(async move { serve(&instance, &request).await });
        Some((
            serving,
            Reply {
                framing,
                log,
                redactor,
            },
        ))
    }

    /// Appends one answer to the output (and the log). A failure of the service itself (not
    /// an Azure error, which is a response) is answered `500`.
    fn write(&self, response: Result<http::Response<Vec<u8>>, JsValue>, mut reply: Reply) {
        let response = response.unwrap_or_else(|_| super::fetch::internal_error());
        // Only the head of `GET /_azqueue/events` carries the stream the route read.
        if let Some(stream) = response.extensions().get::<dev::EventStream>() {
            // The host writes the events after this head, until the client goes: the
            // connection carries nothing else.
            reply.framing.open_body = true;
            reply.framing.keep_alive = false;
            self.stream.set(Some(*stream));
        }
        match response.extensions().get::<Delivery>().and_then(|d| d.drop) {
            None => http1::encode(
                &mut self.out.borrow_mut(),
                &response,
                reply.framing,
                wall_clock,
            ),
            // A fault rule cuts this answer off (rest::faults): nothing is written after it.
            Some(cut) => {
                if cut == DropMode::Partial {
                    let mut whole = Vec::new();
                    http1::encode(&mut whole, &response, reply.framing, wall_clock);
                    let kept = partial_length(&whole);
                    self.out.borrow_mut().extend_from_slice(&whole[..kept]);
                } else {
                    self.reset.set(true);
                }
                reply.framing.keep_alive = false;
            }
        }
        if !reply.framing.keep_alive {
            // The decoder has stopped; nothing after this answer is read or answered.
            self.closing.set(true);
            self.waiting.borrow_mut().clear();
        }
        if let Some(mut entry) = reply.log {
            if let Some(blank) = &reply.redactor {
                entry.response_headers = Some(logged_headers(blank, response.headers()));
                // Without the byte-order mark XML answers start with, which a log only hides.
                let body = String::from_utf8_lossy(response.body());
                entry.response_body = Some(blank.text(body.trim_start_matches('\u{feff}')));
            }
            entry.status = response.status().as_u16();
            entry.error_code = response
                .headers()
                .get("x-ms-error-code")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            self.entries.borrow_mut().push(entry);
        }
    }

    /// The number of response bytes ready, for JS.
    fn ready(&self) -> JsValue {
        JsValue::from(self.out.borrow().len() as u32)
    }
}

/// `Date.now()`, for the rare answer that has no `Date` header yet (a rejection).
fn wall_clock() -> SystemTime {
    let ms = js_sys::Date::now();
    UNIX_EPOCH
        + Duration::from_millis(if ms.is_finite() && ms > 0.0 {
            ms as u64
        } else {
            0
        })
}

/// Headers as `[name, value]` pairs for the debug log, secrets blanked.
fn logged_headers(blank: &Redactor, headers: &http::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| {
            let value = String::from_utf8_lossy(v.as_bytes());
            (k.to_string(), blank.header(k.as_str(), &value))
        })
        .collect()
}

/// How much of an encoded answer a `drop: "partial"` sends: the status line, the headers and
/// half the body.
fn partial_length(encoded: &[u8]) -> usize {
    let head = encoded
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(encoded.len(), |at| at + 4);
    head + (encoded.len() - head) / 2
}
