//! The development paths' wire form: every answer under `/_azqueue/` is JSON, and every refusal
//! is `{"error": why}` with its status.

use serde::Serialize;

/// `{"error": why}`, the body of every refusal on these paths.
pub fn error_body(why: &str) -> String {
    #[derive(Serialize)]
    struct ErrorBody<'a> {
        error: &'a str,
    }
    to_json(&ErrorBody { error: why })
}

/// A refusal: `status` with `{"error": why}`.
pub fn refuse(status: u16, why: &str) -> http::Response<Vec<u8>> {
    json(status, error_body(why))
}

/// A body as JSON text. The views are typed structs rather than `serde_json::Value`s: a
/// `Value` tree (its map, builder and writer) was about 8 KB of the gzipped wasm. Their fields
/// are in the order a `Value`'s sorted map wrote them, so the text is what it was.
pub fn to_json<T: Serialize>(value: &T) -> String {
    // Plain structs of strings and numbers: serializing them cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

/// A development path's answer: JSON, with `x-ms-error-code: InternalError` on a 5xx (what an
/// access log counts as a failure).
pub fn json(status: u16, body: String) -> http::Response<Vec<u8>> {
    let no_body = status == 204;
    let mut response = http::Response::new(if no_body {
        Vec::new()
    } else {
        body.into_bytes()
    });
    *response.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        "content-type",
        http::HeaderValue::from_static("application/json"),
    );
    if status >= 500 {
        headers.insert(
            "x-ms-error-code",
            http::HeaderValue::from_static("InternalError"),
        );
    }
    response
}
