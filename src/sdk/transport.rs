//! [`InProcessTransport`]: the Rust SDK's `HttpClient`, answered by a [`Service`] in this
//! process at the time a [`ManualClock`] says.

use crate::engine::{Clock, ManualClock, Timestamp};
use crate::rest::{Clocks, Service};
use azure_core::error::{Error, ErrorKind};
use azure_core::http::headers::{HeaderName, HeaderValue, Headers};
use azure_core::http::{AsyncRawResponse, Body, HttpClient, Request, StatusCode};
use futures::io::AsyncReadExt as _;
use std::sync::{Arc, Mutex, MutexGuard};

/// An `azure_core` [`HttpClient`] that serves every request from an in-process [`Service`]:
/// no socket, no server, no sleeping. Each request is answered at the clock's current time, so
/// a test moves time with [`ManualClock::advance_secs`] instead of waiting.
///
/// Clones share the service and the clock. Put it in the SDK's `ClientOptions` with
/// [`Transport::new`](azure_core::http::Transport::new), or let
/// [`InProcessQueues`](super::InProcessQueues) do it.
#[derive(Clone, Debug)]
pub struct InProcessTransport {
    service: Arc<Mutex<Service>>,
    clock: ManualClock,
}

impl InProcessTransport {
    /// Serves requests from `service` at `clock`'s time. The service keeps its state in memory
    /// only, so it stops recording changes for a store (nothing would drain them).
    pub fn new(mut service: Service, clock: ManualClock) -> Self {
        service.emulator_mut().record_changes(false);
        InProcessTransport {
            service: Arc::new(Mutex::new(service)),
            clock,
        }
    }

    /// The clock requests are answered at.
    pub fn clock(&self) -> &ManualClock {
        &self.clock
    }

    /// Runs `f` on the service between requests (to inspect the engine, or change its
    /// configuration).
    pub fn with_service<R>(&self, f: impl FnOnce(&mut Service) -> R) -> R {
        f(&mut lock(&self.service))
    }

    /// Answers one request in `http` types, as the SDK's requests are answered (for code that
    /// builds its own requests, or a client other than the SDK). The queues run at the clock's
    /// time; the request date and SAS windows are checked on the wall clock, which is the one
    /// the SDK signs with, so a clock moved days ahead does not make signed requests stale.
    pub fn handle(&self, request: &http::Request<Vec<u8>>) -> http::Response<Vec<u8>> {
        let clocks = Clocks {
            queue: self.clock.now(),
            wall: wall_now(),
        };
        lock(&self.service).handle_at(clocks, request)
    }
}

/// The wall clock, as the SDK reads it to sign a request.
#[cfg(not(target_arch = "wasm32"))]
fn wall_now() -> Timestamp {
    crate::engine::SystemClock.now()
}

/// The wall clock, as the SDK reads it to sign a request (`time` over the browser's `Date`).
#[cfg(target_arch = "wasm32")]
fn wall_now() -> Timestamp {
    let ms = time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
    Timestamp::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// The service stays usable even if a caller's closure panicked while holding it: the engine
/// only changes state after validating, so there is no half-applied request to protect.
fn lock(service: &Mutex<Service>) -> MutexGuard<'_, Service> {
    service
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[async_trait::async_trait]
impl HttpClient for InProcessTransport {
    async fn execute_request(&self, request: &Request) -> azure_core::Result<AsyncRawResponse> {
        let body = read_body(request.body()).await?;
        let request = to_http(request, body)?;
        Ok(from_http(self.handle(&request)))
    }
}

/// The request body as bytes; a stream is read from its start on a clone, so the SDK can still
/// reset and resend the original.
async fn read_body(body: &Body) -> azure_core::Result<Vec<u8>> {
    match body {
        Body::Bytes(bytes) => Ok(bytes.to_vec()),
        Body::SeekableStream(stream) => {
            let mut stream = stream.clone();
            stream.reset().await?;
            let mut bytes = Vec::new();
            stream
                .read_to_end(&mut bytes)
                .await
                .map_err(|e| Error::new(ErrorKind::Io, e))?;
            Ok(bytes)
        }
    }
}

fn to_http(request: &Request, body: Vec<u8>) -> azure_core::Result<http::Request<Vec<u8>>> {
    let invalid = |what: &str| Error::with_message(ErrorKind::DataConversion, what.to_owned());
    let mut builder = http::Request::builder()
        .method(request.method().as_str())
        .uri(request.url().as_str());
    for (name, value) in request.headers().iter() {
        let name = http::HeaderName::from_bytes(name.as_str().as_bytes())
            .map_err(|_| invalid("a request header name is not valid HTTP"))?;
        let value = http::HeaderValue::from_str(value.as_str())
            .map_err(|_| invalid("a request header value is not valid HTTP"))?;
        builder = builder.header(name, value);
    }
    builder
        .body(body)
        .map_err(|_| invalid("the request URL or method is not valid HTTP"))
}

fn from_http(response: http::Response<Vec<u8>>) -> AsyncRawResponse {
    let (parts, body) = response.into_parts();
    let mut headers = Headers::new();
    for (name, value) in &parts.headers {
        // The service writes ASCII header values only; anything else would be a bug there,
        // and dropping the header is kinder than failing the request.
        if let Ok(value) = value.to_str() {
            headers.insert(
                HeaderName::from(name.as_str().to_owned()),
                HeaderValue::from(value.to_owned()),
            );
        }
    }
    AsyncRawResponse::from_bytes(StatusCode::from(parts.status.as_u16()), headers, body)
}
