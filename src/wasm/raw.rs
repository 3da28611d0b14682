//! The REST handler for hosts that are not fetch-native and parse HTTP themselves (Node's
//! `http`): method, URL, headers and body in as plain strings and bytes; status, headers and
//! body out. A host that owns raw sockets does better with `connection.rs`, which also frames
//! the HTTP in Rust. The same
//! pipeline as the fetch handler (`serve.rs`: the development paths, else handle, commit,
//! then events), minus the cost of building a Fetch `Request` and `Response` for every call.

use super::fetch::{latin1_bytes, latin1_string, lenient_uri, plain_error};
use super::instance::Instance;
use super::serve::serve;
use crate::http_extensions::Spelling;
use crate::rest::{ClientAddress, ErrorCode};
use http::header::{HeaderName, HeaderValue};
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;

/// Separates names and values in [`QueueService::handle_raw`](super::service::QueueService::handle_raw)'s `headers` and in
/// [`RawResponse::headers`]: a line feed can never occur inside an HTTP header.
const SEPARATOR: char = '\n';

/// One REST answer: what an HTTP server writes back.
///
/// ```js
/// res.writeHead(r.status, r.statusText, r.headers.split("\n")).end(r.body);
/// r.free();
/// ```
#[wasm_bindgen]
#[derive(Debug)]
pub struct RawResponse {
    status: u16,
    status_text: &'static str,
    headers: String,
    body: Vec<u8>,
    /// The event stream whose head this is (`GET /_azqueue/events`), as the route read it.
    #[cfg(feature = "inspector")]
    stream: Option<crate::rest::dev::EventStream>,
}

#[wasm_bindgen]
impl RawResponse {
    /// The HTTP status code.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The status line's reason phrase: for an Azure error, its message (as the service
    /// sends it), else the standard phrase.
    #[wasm_bindgen(getter, js_name = statusText)]
    pub fn status_text(&self) -> String {
        self.status_text.to_owned()
    }

    /// Header names and values alternating, joined by `"\n"`: `split("\n")` gives the flat
    /// `[name1, value1, …]` array that Node's `res.writeHead` takes. Values are byte strings
    /// (code points 0–255), as in the Fetch API.
    #[wasm_bindgen(getter)]
    pub fn headers(&self) -> String {
        self.headers.clone()
    }

    /// The body; empty for statuses that carry none (204, 304, …).
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> js_sys::Uint8Array {
        js_sys::Uint8Array::from(self.body.as_slice())
    }

    /// The `x-ms-error-code` header of an Azure error, for access logs.
    #[wasm_bindgen(getter, js_name = errorCode)]
    pub fn error_code(&self) -> Option<String> {
        let mut parts = self.headers.split(SEPARATOR);
        while let (Some(name), Some(value)) = (parts.next(), parts.next()) {
            if name == "x-ms-error-code" {
                return Some(value.to_owned());
            }
        }
        None
    }

    /// Whether this is the head of `GET /_azqueue/events` (the service's change events,
    /// `rest::dev`): write it with no length and keep the response open for the events, until
    /// the client goes.
    #[cfg(feature = "inspector")]
    #[wasm_bindgen(getter)]
    pub fn streaming(&self) -> bool {
        self.stream.is_some()
    }

    /// Whether that stream asked for one event per changed queue (`?per=queue`).
    #[cfg(feature = "inspector")]
    #[wasm_bindgen(getter, js_name = streamSummarised)]
    pub fn stream_summarised(&self) -> bool {
        self.stream.is_some_and(|s| s.summarised)
    }

    /// Whether that stream asked for the request log as well (`?per=queue&requests=1`).
    #[cfg(feature = "inspector")]
    #[wasm_bindgen(getter, js_name = streamRequests)]
    pub fn stream_requests(&self) -> bool {
        self.stream.is_some_and(|s| s.requests)
    }
}

/// Serves one request given as plain values ([`QueueService::handle_raw`](super::service::QueueService::handle_raw)): the response itself
/// when it is ready at once, else a Promise of it.
pub(crate) fn handle(
    instance: Rc<Instance>,
    (method, url, headers, body): (&str, &str, &str, Vec<u8>),
    client_address: Option<String>,
    listening: Option<String>,
) -> JsValue {
    let mut request = match to_http(method, url, headers, body) {
        Ok(request) => request,
        Err(bad) => return from_http(bad).into(),
    };
    // A host serving these requests from its own socket names it, so the development paths
    // answer only to that address (DNS rebinding, `rest::dev::guard`).
    if let Some(listening) = listening {
        request
            .extensions_mut()
            .insert(crate::rest::Listening(listening));
    }
    // An address that does not parse is left out, as if the host did not know it.
    if let Some(ip) = client_address.and_then(|a| a.trim().parse().ok()) {
        request.extensions_mut().insert(ClientAddress(ip));
    }

    let mut serving: Pin<Box<dyn Future<Output = Result<RawResponse, JsValue>>>> =
        Box::pin(async move { serve(&instance, &request).await.map(from_http) });
    // One poll without a waker: the memory store commits at once, so the common case needs
    // no Promise. A store that is still writing is polled again by the executor, which
    // registers a real waker then (a future must accept a new waker on every poll).
    match serving
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(Ok(response)) => response.into(),
        Poll::Ready(Err(e)) => js_sys::Promise::reject(&e).into(),
        Poll::Pending => {
            wasm_bindgen_futures::future_to_promise(async move { serving.await.map(JsValue::from) })
                .into()
        }
    }
}

/// Builds the REST layer's request. What `http` cannot represent (a bad method, URL or header)
/// comes back as the 400 to send instead.
fn to_http(
    method: &str,
    url: &str,
    headers: &str,
    body: Vec<u8>,
) -> Result<http::Request<Vec<u8>>, http::Response<Vec<u8>>> {
    let bad = || {
        plain_error(
            400,
            ErrorCode::InvalidInput,
            ErrorCode::InvalidInput.message(),
        )
    };
    let method = http::Method::from_bytes(method.as_bytes()).map_err(|_| bad())?;
    let uri: http::Uri = lenient_uri(url).parse().map_err(|_| bad())?;
    // The Fetch API gives GET and HEAD no body; so does this path, to answer alike.
    let body = if method == http::Method::GET || method == http::Method::HEAD {
        Vec::new()
    } else {
        body
    };
    let mut request = http::Request::new(body);
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    let mut spelling = Spelling::default();
    let map = request.headers_mut();
    let mut parts = headers.split(SEPARATOR);
    while let (Some(name), Some(value)) = (parts.next(), parts.next()) {
        let spelled = name;
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad())?;
        let value = if value.is_ascii() {
            Cow::Borrowed(value.as_bytes())
        } else {
            Cow::Owned(latin1_bytes(value))
        };
        let value = match map.get(&name) {
            Some(first) => Cow::Owned([first.as_bytes(), b", ", &value].concat()),
            None => {
                // A name repeated in another case keeps the case of its first occurrence.
                spelling.note(spelled);
                value
            }
        };
        map.insert(name, HeaderValue::from_bytes(&value).map_err(|_| bad())?);
    }
    if !spelling.is_empty() {
        request.extensions_mut().insert(spelling);
    }
    Ok(request)
}

/// The REST layer's response as plain values. Statuses that may not carry a body get none.
pub(super) fn from_http(response: http::Response<Vec<u8>>) -> RawResponse {
    let status = response.status().as_u16();
    let status_text = crate::http_extensions::reason_of(&response);
    let mut headers = String::with_capacity(64 * response.headers().len());
    let spelling = response.extensions().get::<Spelling>();
    for (name, value) in response.headers() {
        if !headers.is_empty() {
            headers.push(SEPARATOR);
        }
        headers.push_str(
            spelling
                .and_then(|s| s.of(name.as_str()))
                .unwrap_or(name.as_str()),
        );
        headers.push(SEPARATOR);
        headers.push_str(&latin1_string(value.as_bytes()));
    }
    #[cfg(feature = "inspector")]
    let stream = response
        .extensions()
        .get::<crate::rest::dev::EventStream>()
        .copied();
    let null_body = matches!(status, 101 | 103 | 204 | 205 | 304);
    let body = if null_body {
        Vec::new()
    } else {
        response.into_body()
    };
    RawResponse {
        status,
        status_text,
        headers,
        body,
        #[cfg(feature = "inspector")]
        stream,
    }
}
