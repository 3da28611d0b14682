//! The live request log (docs/inspector.md, "Request log"): while a summarised event stream
//! asked for it (`/_azqueue/events?per=queue&requests=1`), each Azure request is recorded as it
//! is answered (when, the operation as Azure names it, method and path, status and error code,
//! how long it took) into a ring of the newest few, which the stream carries at each write with
//! how many were left out. Requests to `/_azqueue/` (the tools' own) are not recorded, and with
//! no such stream open nothing is: one flag is read per request.

use super::instance::Instance;
use super::js_object::JsObject;
use crate::rest::Route;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

/// A write of the stream carries at most this many requests, the newest; the others are counted.
const KEPT: usize = 20;

/// Azure's error code header, named once rather than parsed per request.
const ERROR_CODE: http::HeaderName = http::HeaderName::from_static("x-ms-error-code");

#[wasm_bindgen]
extern "C" {
    /// A monotonic clock in ms with sub-ms precision, in every host the server runs in.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
    /// When `performance.now()` was 0, in ms since the epoch.
    #[wasm_bindgen(js_namespace = performance, js_name = timeOrigin, thread_local_v2)]
    static TIME_ORIGIN: f64;
}

/// One answered request: its path borrowed from the request as it is recorded
/// (`Logged<&str>`), the ring's own once kept.
#[derive(Debug)]
struct Logged<Path = String> {
    /// The wall clock when it arrived, ms since the epoch.
    at: f64,
    operation: Option<&'static str>,
    /// A standard method is a constant: cloning it allocates nothing.
    method: http::Method,
    /// The path only: a query may hold a SAS signature.
    path: Path,
    status: u16,
    code: Option<String>,
    duration_ms: f64,
}

/// The newest requests since the last write, and how many older ones were dropped.
#[derive(Debug, Default)]
pub(crate) struct RequestLog {
    kept: VecDeque<Logged>,
    left_out: u32,
}

impl RequestLog {
    /// Records a request; a full ring drops its oldest and reuses its path's buffer, so a burst
    /// allocates nothing once the ring is full.
    fn push(&mut self, answered: Logged<&str>) {
        let mut path = String::new();
        if self.kept.len() == KEPT {
            if let Some(oldest) = self.kept.pop_front() {
                path = oldest.path;
            }
            self.left_out = self.left_out.saturating_add(1);
        }
        path.clear();
        path.push_str(answered.path);
        let Logged {
            at,
            operation,
            method,
            status,
            code,
            duration_ms,
            ..
        } = answered;
        self.kept.push_back(Logged {
            at,
            operation,
            method,
            path,
            status,
            code,
            duration_ms,
        });
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// `{ type: "requests", requests: [{ at, operation?, method, path, status, code?,
    /// durationMs }], leftOut }`, oldest first, and empties the log.
    pub(crate) fn take(&mut self) -> JsValue {
        let requests = js_sys::Array::new();
        for r in self.kept.drain(..) {
            let entry = JsObject::new()
                .set("at", JsValue::from(js_sys::Date::new(&r.at.into())))
                .set_opt("operation", r.operation)
                .set("method", r.method.as_str())
                .set("path", r.path)
                .set("status", u32::from(r.status))
                .set_opt("code", r.code)
                .set("durationMs", r.duration_ms);
            requests.push(&entry.build());
        }
        let left_out = std::mem::take(&mut self.left_out);
        JsObject::new()
            .set("type", "requests")
            .set("requests", JsValue::from(requests))
            .set("leftOut", left_out)
            .build()
    }
}

/// Answers an Azure request as `Instance::serve_rest` does, recording it when a stream asked.
pub(crate) async fn serve_logged(
    instance: &Rc<Instance>,
    req: &http::Request<Vec<u8>>,
    route: Route,
) -> Result<http::Response<Vec<u8>>, JsValue> {
    if !instance.logs_requests() {
        return instance.serve_rest(req, route).await;
    }
    let start = performance_now();
    let operation = route.operation().map(|(_, op)| op.name());
    let response = instance.serve_rest(req, route).await?;
    let took = performance_now() - start;
    let status = response.status();
    // Only an error answer carries a code.
    let code = (status.is_client_error() || status.is_server_error())
        .then(|| response.headers().get(ERROR_CODE))
        .flatten()
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let at = TIME_ORIGIN.with(|origin| origin + start);
    instance.note_request(|log| {
        log.push(Logged {
            at,
            operation,
            method: req.method().clone(),
            path: req.uri().path(),
            status: status.as_u16(),
            code,
            duration_ms: took,
        })
    });
    Ok(response)
}
