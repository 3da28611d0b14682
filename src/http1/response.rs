//! `http::Response<Vec<u8>>` → the bytes of an HTTP/1.1 response (RFC 9112 §§ 4, 6, 9.6).

use crate::http_extensions::{Spelling, reason_of};
use http::header::{self, HeaderName};
use http::{Response, StatusCode};
use std::time::SystemTime;

/// The interim answer to `Expect: 100-continue`.
pub const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

/// What the request being answered decides about the response's framing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Framing {
    /// The request was `HEAD`: headers only.
    pub head: bool,
    /// The connection stays open after this response (else it says `Connection: close`).
    pub keep_alive: bool,
    /// The request was HTTP/1.0, which closes by default: a kept connection must say so.
    pub http10: bool,
    /// The body runs until the connection closes (an event stream, written after the head by
    /// whoever holds the socket): no `Content-Length`, and `Connection: close`.
    pub open_body: bool,
}

/// Appends `response` to `out`. The body is always delimited by `Content-Length` (as Azure
/// answers, never chunked) except where HTTP allows none: HEAD, 1xx, 204 and 304 carry no
/// body. The REST layer's own framing headers are dropped; those are this layer's to write.
/// `now` stamps a `Date` header if the response has none (only then is it called: reading a
/// clock may cost a call out of wasm).
pub fn encode(
    out: &mut Vec<u8>,
    response: &Response<Vec<u8>>,
    framing: Framing,
    now: impl FnOnce() -> SystemTime,
) {
    let status = response.status();
    let body = response.body();
    out.reserve(256 + 48 * response.headers().len() + body.len());
    out.extend_from_slice(b"HTTP/1.1 ");
    out.extend_from_slice(status.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(reason_of(response).as_bytes());
    out.extend_from_slice(b"\r\n");
    let spelling = response.extensions().get::<Spelling>();
    for (name, value) in response.headers() {
        if owned_here(name) {
            continue;
        }
        let spelled = spelling
            .and_then(|s| s.of(name.as_str()))
            .unwrap_or(name.as_str());
        line(out, spelled.as_bytes(), value.as_bytes());
    }
    if !response.headers().contains_key(header::DATE) {
        line(out, b"date", httpdate::fmt_http_date(now()).as_bytes());
    }
    if !framing.keep_alive || framing.open_body {
        line(out, b"connection", b"close");
    } else if framing.http10 {
        line(out, b"connection", b"keep-alive");
    }
    let bodiless = status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    if !bodiless && !framing.head && !framing.open_body {
        let mut digits = itoa::Buffer::new();
        line(out, b"content-length", digits.format(body.len()).as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    if !bodiless && !framing.head {
        out.extend_from_slice(body);
    }
}

/// Framing headers, which only this layer can get right.
fn owned_here(name: &HeaderName) -> bool {
    name == header::CONTENT_LENGTH
        || name == header::TRANSFER_ENCODING
        || name == header::CONNECTION
}

fn line(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    const KEEP: Framing = Framing {
        head: false,
        keep_alive: true,
        http10: false,
        open_body: false,
    };

    fn text(status: u16, headers: &[(&str, &str)], body: &str, framing: Framing) -> String {
        let mut response = Response::new(body.as_bytes().to_vec());
        *response.status_mut() = StatusCode::from_u16(status).unwrap();
        for (k, v) in headers {
            response.headers_mut().insert(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        let mut out = Vec::new();
        encode(&mut out, &response, framing, || {
            UNIX_EPOCH + Duration::from_secs(1_700_000_000)
        });
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_response_spelling_names_how_headers_are_written() {
        let mut response = Response::new(Vec::new());
        *response.status_mut() = StatusCode::OK;
        response
            .headers_mut()
            .insert("x-ms-meta-color", "red".parse().unwrap());
        response
            .headers_mut()
            .insert("x-ms-request-id", "1".parse().unwrap());
        let mut spelling = Spelling::default();
        spelling.note("x-ms-meta-Color");
        response.extensions_mut().insert(spelling);
        let mut out = Vec::new();
        encode(&mut out, &response, KEEP, || UNIX_EPOCH);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\r\nx-ms-meta-Color: red\r\n"), "{text}");
        assert!(text.contains("\r\nx-ms-request-id: 1\r\n"), "{text}");
    }

    #[test]
    fn a_reason_phrase_extension_is_the_status_lines_text() {
        let mut response = Response::new(Vec::new());
        *response.status_mut() = StatusCode::NOT_FOUND;
        response
            .extensions_mut()
            .insert(crate::http_extensions::ReasonPhrase(
                "The specified queue does not exist.",
            ));
        let mut out = Vec::new();
        encode(&mut out, &response, KEEP, || UNIX_EPOCH);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("HTTP/1.1 404 The specified queue does not exist.\r\n"),
            "{text}"
        );
    }

    #[test]
    fn status_line_headers_length_and_body() {
        assert_eq!(
            text(
                201,
                &[("date", "D"), ("x-ms-request-id", "1")],
                "<x/>",
                KEEP
            ),
            "HTTP/1.1 201 Created\r\ndate: D\r\nx-ms-request-id: 1\r\ncontent-length: 4\r\n\r\n<x/>"
        );
    }

    #[test]
    fn a_date_only_when_the_response_has_none() {
        let t = text(400, &[], "", KEEP);
        assert!(t.contains("date: Tue, 14 Nov 2023 22:13:20 GMT\r\n"), "{t}");
        assert!(t.contains("content-length: 0\r\n"), "{t}");
        assert_eq!(
            text(200, &[("Date", "D")], "", KEEP)
                .matches("date:")
                .count(),
            1
        );
    }

    #[test]
    fn no_body_for_head_204_and_304_and_own_framing_headers() {
        let head = Framing { head: true, ..KEEP };
        let t = text(200, &[("date", "D"), ("content-length", "99")], "xyz", head);
        assert_eq!(t, "HTTP/1.1 200 OK\r\ndate: D\r\n\r\n");
        assert_eq!(
            text(204, &[("date", "D")], "xyz", KEEP),
            "HTTP/1.1 204 No Content\r\ndate: D\r\n\r\n"
        );
        assert!(text(304, &[("date", "D")], "", KEEP).ends_with("D\r\n\r\n"));
    }

    #[test]
    fn an_open_body_has_no_length_and_closes_the_connection() {
        let open = Framing {
            open_body: true,
            ..KEEP
        };
        let t = text(
            200,
            &[("date", "D"), ("content-type", "text/event-stream")],
            "",
            open,
        );
        assert_eq!(
            t,
            "HTTP/1.1 200 OK\r\ndate: D\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n"
        );
    }

    #[test]
    fn connection_header_follows_keep_alive() {
        let close = Framing {
            keep_alive: false,
            ..KEEP
        };
        assert!(text(200, &[("date", "D")], "", close).contains("connection: close\r\n"));
        let kept10 = Framing {
            http10: true,
            ..KEEP
        };
        assert!(text(200, &[("date", "D")], "", kept10).contains("connection: keep-alive\r\n"));
        assert!(!text(200, &[("date", "D"), ("connection", "x")], "", KEEP).contains("connection"));
        assert!(text(599, &[("date", "D")], "", KEEP).starts_with("HTTP/1.1 599 Unknown\r\n"));
    }
}
