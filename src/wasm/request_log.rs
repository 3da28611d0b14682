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

#[wasm_bindgen]
extern "C" {
    /// A monotonic clock in ms with sub-ms precision, in every host the server runs in.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// One answered request.
#[derive(Debug)]
struct Logged {
    /// The wall clock when it arrived, ms since the epoch.
    at: f64,
    operation: Option<&'static str>,
    method: String,
    /// The path only: a query may hold a SAS signature.
    path: String,
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
    fn push(&mut self, entry: Logged) {
        if self.kept.len() == KEPT {
            self.kept.pop_front();
            self.left_out = self.left_out.saturating_add(1);
        }
        self.kept.push_back(entry);
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
                .set("method", r.method)
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
    let at = js_sys::Date::now();
    let start = performance_now();
    let operation = route.operation().map(|(_, op)| op.name());
    let response = instance.serve_rest(req, route).await?;
    let code = response
        .headers()
        .get("x-ms-error-code")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    instance.note_request(|log| {
        log.push(Logged {
            at,
            operation,
            method: req.method().as_str().to_owned(),
            path: req.uri().path().to_owned(),
            status: response.status().as_u16(),
            code,
            duration_ms: performance_now() - start,
        })
    });
    Ok(response)
}
