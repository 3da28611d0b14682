//! One HTTP request, whatever shape the host hands it over in (a Fetch `Request`, `handleRaw`'s
//! plain values, a `Connection`'s decoded bytes): the development paths under `/_azqueue/`
//! (routed by `rest::dev_paths`, the one router), else the REST service.
//!
//! Inspection is answered from the engine; snapshot, reset and store read or replace the whole
//! state, which is the store's business, so they are answered here, beside the REST service.

use super::fetch;
use super::instance::Instance;
use super::store;
#[cfg(feature = "server-clock")]
use super::store::store_error_to_js;
#[cfg(feature = "server-clock")]
use crate::engine::ClockChange;
use crate::engine::Snapshot;
use crate::rest::dev_paths::{self, DevRoute};
use crate::store::document::from_document;
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};

/// Answers `req`. Rejects only when the service itself fails (re-entered), never for an Azure
/// error: those are responses.
pub(crate) async fn serve(
    instance: &Rc<Instance>,
    req: &http::Request<Vec<u8>>,
) -> Result<http::Response<Vec<u8>>, JsValue> {
    let routed = instance.read(|s| dev_paths::route(s.config(), s.emulator(), req))?;
    match routed {
        None => instance.serve_rest(req).await,
        Some(Err(refused)) => Ok(refused),
        // The inspector's actions are engine operations: committed and delivered as any REST
        // request's (the service routes them again, through the same guard).
        #[cfg(feature = "inspector")]
        Some(Ok(DevRoute::Act { .. })) => instance.serve_rest(req).await,
        Some(Ok(route)) => Ok(answer(instance, route, req).await),
    }
}

/// The fetch handler's body: a Fetch `Request` in, a Fetch `Response` out. Whatever else the
/// caller hands over is refused with a `TypeError` before any of it is read: reading `method`
/// from `undefined` would throw from inside the wasm, through the task queue that every other
/// request of the instance shares.
pub(crate) async fn fetch(
    instance: &Rc<Instance>,
    request: JsValue,
) -> Result<web_sys::Response, JsValue> {
    let request = as_request(request)?;
    let req = match fetch::to_http(&request).await {
        Ok(req) => req,
        Err(bad) => return fetch::to_web(bad),
    };
    fetch::to_web(serve(instance, &req).await?)
}

/// Gives the fetch handler a `length` of 1, as `(request) => …` has. wasm-bindgen's closure
/// wrapper is `(...args) => …`, whose `length` is 0, and `Deno.serve` reads a handler's `length`
/// to decide what to pass: a handler declaring no parameter is called with no arguments at all.
pub(crate) fn declare_one_parameter(handler: &JsValue) {
    let descriptor = js_sys::Object::new();
    // A function's `length` is configurable, so this cannot fail on a function.
    let _ = js_sys::Reflect::set(&descriptor, &"value".into(), &1.into());
    let handler: &js_sys::Object = handler.unchecked_ref();
    let _ = js_sys::Reflect::define_property(handler, &"length".into(), &descriptor);
}

/// `value` as a Fetch `Request`, if it looks like one: an object whose `method` and `url` are
/// strings (not `instanceof Request`, so a Request of another realm or a compatible class passes).
fn as_request(value: JsValue) -> Result<web_sys::Request, JsValue> {
    let string = |name: &str| {
        value.is_object()
            && js_sys::Reflect::get(&value, &JsValue::from_str(name)).is_ok_and(|v| v.is_string())
    };
    if string("method") && string("url") {
        Ok(value.unchecked_into())
    } else {
        Err(
            js_sys::TypeError::new("the fetch handler takes a Request as its first argument")
                .into(),
        )
    }
}

/// Answers a development route. Never fails: errors are JSON answers (500 with
/// `x-ms-error-code: InternalError` when the store has failed).
async fn answer(
    instance: &Instance,
    route: DevRoute,
    req: &http::Request<Vec<u8>>,
) -> http::Response<Vec<u8>> {
    let now = instance.now();
    let outcome = match route {
        DevRoute::InspectAccount { .. } | DevRoute::InspectQueue { .. } => {
            let inspected = instance.read_state(|s| dev_paths::inspect(s.emulator(), now, &route));
            match inspected {
                Ok(Some(response)) => return response,
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            }
        }
        // `serve` hands these to the service as operations; they never reach this match.
        #[cfg(feature = "inspector")]
        DevRoute::Act { .. } => {
            let why = "an inspector action is served as an operation";
            return dev_paths::json(500, dev_paths::error_body(why));
        }
        DevRoute::ExportSnapshot => instance.export_document().await.map(Some),
        DevRoute::ImportSnapshot => {
            let parsed = std::str::from_utf8(req.body())
                .map_err(|_| "the body is not UTF-8".to_owned())
                .and_then(from_document);
            match parsed {
                Ok(snapshot) => instance.replace_state(snapshot).await.map(|()| None),
                Err(why) => return dev_paths::json(400, dev_paths::error_body(&why)),
            }
        }
        DevRoute::Reset => instance
            .replace_state(Snapshot::default())
            .await
            .map(|()| None),
        #[cfg(feature = "server-clock")]
        DevRoute::Clock => Ok(Some(instance.clock().reading().to_json())),
        #[cfg(feature = "server-clock")]
        DevRoute::SetClock => match crate::rest::dev_clock::parse_changes(req.body()) {
            Ok(changes) => set_clock(instance, &changes).await.map(Some),
            Err(why) => return dev_paths::json(400, dev_paths::error_body(&why)),
        },
        #[cfg(not(feature = "server-clock"))]
        DevRoute::Clock | DevRoute::SetClock => {
            let why = "this build has no server clock (the Node server's has); in a page or \
                       a worker, pass `now` to QueueService.open()";
            return dev_paths::json(501, dev_paths::error_body(why));
        }
        DevRoute::StoreInfo => {
            let store = instance.store();
            let body = StoreInfo {
                committed_changes: store.committed(),
                durability: store.durability().as_str(),
                failed: store.failure().map(|e| e.to_string()),
                kind: store::kind(store),
                transactions: store.transactions(),
            };
            Ok(Some(dev_paths::to_json(&body)))
        }
    };
    match outcome {
        Ok(Some(body)) => dev_paths::json(200, body),
        Ok(None) => dev_paths::json(204, String::new()),
        Err(e) => {
            let message = js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_default();
            let body = InternalError {
                error: "InternalError",
                message: &message,
            };
            dev_paths::json(500, dev_paths::to_json(&body))
        }
    }
}

/// Applies clock changes, keeps the adjustment in the store (so a restart resumes it), and
/// answers the new reading once that is durable.
#[cfg(feature = "server-clock")]
pub(crate) async fn set_clock(
    instance: &Instance,
    changes: &[ClockChange],
) -> Result<String, JsValue> {
    let adjustment = instance.clock().apply(changes);
    instance
        .store()
        .save_adjustment(adjustment)
        .await
        .map_err(|e| store_error_to_js(&e))?;
    Ok(instance.clock().reading().to_json())
}

/// `GET /_azqueue/store`'s body (fields in the order the JSON has always had them).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StoreInfo {
    committed_changes: u64,
    durability: &'static str,
    failed: Option<String>,
    kind: &'static str,
    transactions: u64,
}

/// A development path's body when the host failed it.
#[derive(Serialize)]
struct InternalError<'a> {
    error: &'static str,
    message: &'a str,
}
