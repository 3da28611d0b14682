//! One HTTP request, whatever shape the host hands it over in (a Fetch `Request`, `handleRaw`'s
//! plain values, a `Connection`'s decoded bytes): read once into a `rest::Route`, then
//! answered by the REST service, which also answers the development paths under `/_azqueue/`
//! (`rest::dev`), except the few that need what only this side holds (the store, the clock:
//! `dev_host.rs`).

use super::dev_host;
use super::fetch;
use super::instance::Instance;
use crate::rest::Route;
use crate::rest::dev::{self, DevPath};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};

/// Answers `req`. Rejects only when the service itself fails (re-entered), never for an Azure
/// error: those are responses.
pub(crate) async fn serve(
    instance: &Rc<Instance>,
    req: &http::Request<Vec<u8>>,
) -> Result<http::Response<Vec<u8>>, JsValue> {
    match instance.read(|s| s.route(req))? {
        Route::Dev(Ok(DevPath::Host(work))) => {
            let done = dev_host::answer(instance, work, req.body()).await;
            instance.read(|s| dev::host_answer(s.config(), req, done))
        }
        // The request log lists Azure requests, not the tools' own under `/_azqueue/`.
        #[cfg(feature = "event-summary")]
        route @ Route::Azure(_) => super::request_log::serve_logged(instance, req, route).await,
        route => instance.serve_rest(req, route).await,
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
