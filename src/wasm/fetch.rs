//! `web_sys::Request` ⇄ `http::Request<Vec<u8>>` and `http::Response<Vec<u8>>` ⇄
//! `web_sys::Response`: the only place the REST layer's pure types meet the Fetch API.

use crate::engine::{MessageId, OsEntropy, Timestamp};
pub(crate) use crate::http1::lenient_uri;
use crate::rest::dates::rfc1123;
use crate::rest::service::render_error;
use crate::rest::{ErrorCode, RestError};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Reads a Fetch `Request` (method, absolute URL, headers, body). A request that `http` cannot
/// represent comes back as the error response to send instead, never as a panic or rejection.
pub(crate) async fn to_http(
    request: &web_sys::Request,
) -> Result<http::Request<Vec<u8>>, http::Response<Vec<u8>>> {
    let method = request.method();
    let mut builder = http::Request::builder()
        .method(method.as_str())
        .uri(lenient_uri(&request.url()));
    let entries = js_sys::try_iter(&request.headers()).ok().flatten();
    for entry in entries.into_iter().flatten() {
        let Ok(pair) = entry.map(|v| js_sys::Array::from(&v)) else {
            continue;
        };
        if let (Some(name), Some(value)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
            builder = builder.header(name, latin1_bytes(&value));
        }
    }
    let body = if matches!(method.as_str(), "GET" | "HEAD") {
        Vec::new()
    } else {
        read_body(request).await.map_err(|_| {
            plain_error(
                400,
                ErrorCode::InvalidInput,
                "the request body could not be read",
            )
        })?
    };
    builder.body(body).map_err(|_| {
        plain_error(
            400,
            ErrorCode::InvalidInput,
            ErrorCode::InvalidInput.message(),
        )
    })
}

async fn read_body(request: &web_sys::Request) -> Result<Vec<u8>, JsValue> {
    let buffer = JsFuture::from(request.array_buffer()?).await?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Writes a Fetch `Response`. Statuses that may not carry a body (204, 304, …) get none.
pub(crate) fn to_web(response: http::Response<Vec<u8>>) -> Result<web_sys::Response, JsValue> {
    let headers = web_sys::Headers::new()?;
    for (name, value) in response.headers() {
        headers.append(name.as_str(), &latin1_string(value.as_bytes()))?;
    }
    let status = response.status();
    let init = web_sys::ResponseInit::new();
    init.set_status(status.as_u16());
    init.set_status_text(crate::http_extensions::reason_of(&response));
    init.set_headers(&headers);
    let body = response.into_body();
    let null_body = matches!(status.as_u16(), 101 | 103 | 204 | 205 | 304) || body.is_empty();
    if null_body {
        web_sys::Response::new_with_opt_buffer_source_and_init(None, &init)
    } else {
        let bytes = js_sys::Uint8Array::from(body.as_slice());
        web_sys::Response::new_with_opt_buffer_source_and_init(Some(bytes.unchecked_ref()), &init)
    }
}

/// `500 InternalError` when the store fails to commit: the change happened in memory but is not
/// durable, so the client must not be told it succeeded.
pub(crate) fn internal_error() -> http::Response<Vec<u8>> {
    plain_error(
        500,
        ErrorCode::InternalError,
        ErrorCode::InternalError.message(),
    )
}

/// The Azure error response for the few failures that happen before the REST layer sees the
/// request (unreadable body, unrepresentable URI, bad framing) or after it answered (store
/// failure), rendered by the REST layer's one error renderer (`render_error`,
/// `src/rest/render.rs`), with a request id and time of its own. `status` may differ from the
/// code's own (a framing rejection is 413, 431 or 501 with `InvalidInput`).
pub(crate) fn plain_error(
    status: u16,
    code: ErrorCode,
    message: &'static str,
) -> http::Response<Vec<u8>> {
    rendered_alone(status, &RestError::new(code).worded(message))
}

/// `error` rendered with a request id and time of its own, answered with `status`.
pub(crate) fn rendered_alone(status: u16, error: &RestError) -> http::Response<Vec<u8>> {
    let now = Timestamp::from_millis(js_sys::Date::now().max(0.0) as u64);
    let request_id = MessageId::generate(&mut OsEntropy).to_string();
    let mut response = render_error(error, &request_id, now, true);
    *response.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::BAD_REQUEST);
    let headers = response.headers_mut();
    for (name, value) in [("x-ms-request-id", request_id), ("date", rfc1123(now))] {
        if let Ok(value) = http::HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    response
}

/// Fetch header values are byte strings exposed as JS strings of code points 0–255; map each
/// back to its byte so non-ASCII values reach the signature check unchanged.
pub(crate) fn latin1_bytes(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(c as u32).unwrap_or(b'?'))
        .collect()
}

pub(crate) fn latin1_string(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}
