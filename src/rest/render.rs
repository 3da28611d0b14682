//! Responses: an operation's reply, a [`RestError`] as Azure's `<Error>` document (the one
//! renderer every host's own errors go through too), and the answer a fault decided.

use super::dates::iso8601_millis;
use super::error::{ErrorCode, RestError};
use super::faults::{Fault, FaultError};
use super::ops::Reply;
use super::xml::XmlWriter;
use crate::engine::Timestamp;
use crate::http_extensions::{ReasonPhrase, Spelling};
use http::{HeaderMap, HeaderName, HeaderValue, Response};

/// The operation's own answer.
pub(super) fn render_ran(
    ran: Option<Result<Reply, RestError>>,
    request_id: &str,
    now: Timestamp,
    bom: bool,
) -> Response<Vec<u8>> {
    match ran {
        Some(Ok(reply)) => render_reply(reply),
        Some(Err(e)) => render_error(&e, request_id, now, bom),
        // Only a fault stops an admitted request from running.
        None => render_error(
            &RestError::new(ErrorCode::InternalError),
            request_id,
            now,
            bom,
        ),
    }
}

/// The answer a fault decided: its error (whatever the operation, if it ran, answered), else
/// the operation's own; marked with how to deliver it ([`Delivery`](super::faults::Delivery)).
/// A reset before the operation has no answer: where there is no socket to reset (every host
/// but the Node server), it is answered `500 InternalError` saying so.
pub(super) fn render_faulted(
    fault: &Fault,
    ran: Option<Result<Reply, RestError>>,
    request_id: &str,
    now: Timestamp,
    bom: bool,
) -> Response<Vec<u8>> {
    let mut resp = match (&fault.error, ran) {
        (Some(e), _) => render_fault_error(e, request_id, now, bom),
        (None, Some(ran)) => render_ran(Some(ran), request_id, now, bom),
        (None, None) => render_fault_error(
            &FaultError {
                status: 500,
                code: ErrorCode::InternalError.as_str().to_owned(),
                message: "A fault rule reset the connection here; this host has no socket to \
                          reset, so it answers this instead."
                    .into(),
            },
            request_id,
            now,
            bom,
        ),
    };
    if let Some(delivery) = fault.delivery() {
        resp.extensions_mut().insert(delivery);
    }
    resp
}

fn render_reply(reply: Reply) -> Response<Vec<u8>> {
    let body = reply.xml.map(String::into_bytes).unwrap_or_default();
    let has_body = !body.is_empty();
    let mut resp = Response::new(body);
    *resp.status_mut() = http::StatusCode::from_u16(reply.status).unwrap_or(http::StatusCode::OK);
    let h = resp.headers_mut();
    if has_body {
        set(h, "content-type", "application/xml");
    }
    if reply.no_cache {
        set(h, "cache-control", "no-cache");
    }
    let mut spelling = Spelling::default();
    for (name, value) in reply.headers {
        if let (Ok(n), Ok(v)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            h.append(n, v);
            spelling.note(&name);
        }
    }
    // Metadata names in their stored case, for hosts that write header names themselves.
    if !spelling.is_empty() {
        resp.extensions_mut().insert(spelling);
    }
    resp
}

/// The `<Error>` document with the code, Azure's message, request id and time, then details.
pub fn render_error(
    e: &RestError,
    request_id: &str,
    now: Timestamp,
    bom: bool,
) -> Response<Vec<u8>> {
    let message = e.message.unwrap_or(e.code.message());
    let mut resp = error_document(
        e.status(),
        e.code.as_str(),
        message,
        &e.details,
        request_id,
        now,
        bom,
    );
    // Azure's status line carries the message too (fact sheet §6.1): for HEAD, the only text.
    resp.extensions_mut().insert(ReasonPhrase(message));
    let h = resp.headers_mut();
    for (name, value) in &e.headers {
        set(h, name, value);
    }
    resp
}

/// A fault's error, as Azure's: the document, `x-ms-error-code`, and its message in the status
/// line when it is one of the service's own texts (a rule's own message is in the body only).
fn render_fault_error(
    e: &FaultError,
    request_id: &str,
    now: Timestamp,
    bom: bool,
) -> Response<Vec<u8>> {
    let mut resp = error_document(e.status, &e.code, &e.message, &[], request_id, now, bom);
    if let std::borrow::Cow::Borrowed(message) = e.message {
        resp.extensions_mut().insert(ReasonPhrase(message));
    }
    resp
}

fn error_document(
    status: u16,
    code: &str,
    message: &str,
    details: &[(&'static str, String)],
    request_id: &str,
    now: Timestamp,
    bom: bool,
) -> Response<Vec<u8>> {
    let mut w = XmlWriter::document(bom);
    w.open("Error").element("Code", code);
    w.element(
        "Message",
        &format!(
            "{message}\nRequestId:{request_id}\nTime:{}",
            iso8601_millis(now)
        ),
    );
    for (name, value) in details {
        w.element(name, value);
    }
    w.close("Error");
    let mut resp = Response::new(w.finish().into_bytes());
    *resp.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let h = resp.headers_mut();
    set(h, "content-type", "application/xml");
    set(h, "x-ms-error-code", code);
    resp
}

/// Sets a header whose value is known to be valid; an invalid one is left out.
pub(super) fn set(h: &mut HeaderMap, name: &'static str, value: &str) {
    if let Ok(v) = HeaderValue::from_str(value) {
        h.insert(HeaderName::from_static(name), v);
    }
}
