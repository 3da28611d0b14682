//! Azure errors a host answers itself, before any service has the request: a connection over
//! the Node server's limit (`ServerBusy`), an edge object whose storage cannot be opened or a
//! Worker missing a binding (`InternalError`). They come from the error table through the REST
//! layer's one renderer, as every other error does, so no host writes Azure's XML by hand.

use super::fetch::rendered_alone;
use super::raw::{RawResponse, from_http};
use crate::rest::{ErrorCode, RestError};
use wasm_bindgen::prelude::*;

/// The Azure error `code` as the service answers it: its status, the table's message in the
/// `<Message>` and the status line, `x-ms-error-code`, a fresh `x-ms-request-id` and `Date`.
/// `version` (the request's `x-ms-version`, if it had one) is echoed as every answer echoes it;
/// `reason`, when given, is added as a `<Reason>` element (what went wrong on the host's side).
///
/// ```js
/// // 503 "The server is currently unable to receive requests. Please retry your request."
/// const busy = azureError("ServerBusy");
/// ```
///
/// # Errors
/// A `TypeError` naming `code` when the table has no such code.
#[wasm_bindgen(js_name = azureError)]
pub fn azure_error(
    code: &str,
    version: Option<String>,
    reason: Option<String>,
) -> Result<RawResponse, JsError> {
    let code = known(code)?;
    let mut error = RestError::new(code);
    if let Some(reason) = reason {
        error = error.with("Reason", reason);
    }
    let mut response = rendered_alone(code.status(), &error);
    if let Some(version) = version.and_then(|v| http::HeaderValue::from_str(&v).ok()) {
        response.headers_mut().insert("x-ms-version", version);
    }
    Ok(from_http(response))
}

/// [`azureError`](azure_error)`(code)` as the bytes of a whole HTTP/1.1 answer that closes the
/// connection, for a socket host that refuses a connection before reading any request from it
/// (the Node server past `--maxConnections`).
///
/// # Errors
/// As [`azureError`](azure_error).
#[cfg(feature = "socket")]
#[wasm_bindgen(js_name = azureErrorClosing)]
pub fn azure_error_closing(code: &str) -> Result<Vec<u8>, JsError> {
    let code = known(code)?;
    let framing = crate::http1::Framing {
        head: false,
        keep_alive: false,
        http10: false,
        open_body: false,
    };
    let mut out = Vec::new();
    // The answer has its own `Date`, so the clock is never read.
    crate::http1::encode(
        &mut out,
        &rendered_alone(code.status(), &RestError::new(code)),
        framing,
        || std::time::SystemTime::UNIX_EPOCH,
    );
    Ok(out)
}

/// The code the table names `name`, or the `TypeError` a host sees for a code it misspelt.
fn known(name: &str) -> Result<ErrorCode, JsError> {
    ErrorCode::named(name).ok_or_else(|| {
        JsError::new(&format!(
            "{name:?} is not an Azure error code this service answers"
        ))
    })
}
