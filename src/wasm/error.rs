//! Errors thrown to JavaScript: real `Error`s carrying the Azure `code` and HTTP `statusCode`,
//! so `catch (e) { if (e.code === "MessageNotFound") … }` works the same whether the failure
//! came from the `Queue` class or from the REST surface through the official SDK.
//!
//! The fetch handler never throws for an Azure error (those are responses); only the JS classes
//! throw these.

use crate::engine::{QueueError, RangeError};
use crate::rest::{ErrorCode, RestError};
use wasm_bindgen::JsValue;

/// The `name` of every error this package throws.
const NAME: &str = "QueueError";

/// Builds `Error { name: "QueueError", message, code, statusCode, details? }`, the code and its
/// status from the one table.
pub(crate) fn js_error(code: ErrorCode, message: &str, details: &[(&str, String)]) -> JsValue {
    thrown(code.status(), code.as_str(), message, details)
}

/// [`js_error`] with any status and code: a fault rule's, which need not be in the table.
pub(crate) fn thrown(
    status: u16,
    code: &str,
    message: &str,
    details: &[(&str, String)],
) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name(NAME);
    let target: &JsValue = err.as_ref();
    // Reflect::set fails only on frozen or proxied objects; a fresh Error is neither.
    let _ = js_sys::Reflect::set(target, &"code".into(), &code.into());
    let _ = js_sys::Reflect::set(target, &"statusCode".into(), &status.into());
    if !details.is_empty() {
        let obj = js_sys::Object::new();
        for (name, value) in details {
            let _ = js_sys::Reflect::set(&obj, &(*name).into(), &value.into());
        }
        let _ = js_sys::Reflect::set(target, &"details".into(), &obj);
    }
    err.into()
}

impl From<QueueError> for JsValue {
    /// Through the REST layer's conversion, so both faces answer alike.
    fn from(e: QueueError) -> JsValue {
        RestError::from(e).into()
    }
}

impl From<RestError> for JsValue {
    /// Azure's wording for the code, and the detail elements the XML body would carry.
    fn from(e: RestError) -> JsValue {
        let message = e.message.unwrap_or_else(|| e.code.message());
        let message = match e.details.iter().find(|(name, _)| *name == "Reason") {
            Some((_, reason)) if !reason.is_empty() => format!("{message} {reason}"),
            _ => message.to_owned(),
        };
        js_error(e.code, &message, &e.details)
    }
}

/// `400 OutOfRangeQueryParameterValue` for an option, named as its REST query parameter so the
/// JS API and the REST API report the same thing.
pub(crate) fn out_of_range(param: &str, value: impl ToString, range: RangeError) -> JsValue {
    RestError::query_out_of_range(param, &value.to_string(), range.min, range.max).into()
}

/// `400 InvalidQueryParameterValue` with a reason.
pub(crate) fn invalid_param(param: &str, value: impl ToString, reason: &str) -> JsValue {
    RestError::invalid_query(param, &value.to_string(), reason).into()
}

/// `400 InvalidInput`: an argument of the JS API that has no REST counterpart is malformed
/// (e.g. an options bag that is not an object).
pub(crate) fn invalid_input(message: impl std::fmt::Display) -> JsValue {
    js_error(
        ErrorCode::InvalidInput,
        &format!("{}: {message}", ErrorCode::InvalidInput.message()),
        &[],
    )
}

/// An error with a code from the table and a more specific message.
pub(crate) fn coded(code: ErrorCode, message: impl std::fmt::Display) -> JsValue {
    js_error(code, &message.to_string(), &[])
}
