//! A request head (request line and header fields) → the `http` request it starts, how its body
//! is framed, and what the connection does afterwards. RFC 9112 §§ 3, 6, 9.3.

use super::Config;
use super::target;
use crate::http_extensions::Spelling;
use http::header::{self, Entry, HeaderName, HeaderValue};
use http::{Method, Request, StatusCode, Version};
use std::mem::MaybeUninit;

/// More header fields than any SDK sends (a signed Put Message has about ten).
const MAX_HEADERS: usize = 100;

/// How the body after a head is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Body {
    None,
    Length(usize),
    Chunked,
}

/// A complete, valid head.
#[derive(Debug)]
pub(super) struct Head {
    /// The request without its body yet.
    pub(super) request: Request<()>,
    pub(super) body: Body,
    /// Whether the connection stays open after the answer.
    pub(super) keep_alive: bool,
    /// `Expect: 100-continue` from an HTTP/1.1 client.
    pub(super) expects_continue: bool,
}

/// What the bytes at the start of a buffer hold.
// A return value, moved once; `Complete` is the common case, so a box would only add an
// allocation per request.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(super) enum Parsed {
    /// Not a whole head yet.
    Partial,
    /// A head of `len` bytes.
    Complete { len: usize, head: Head },
    /// Not HTTP/1.x as a server may accept it: answer this status and close.
    Reject(StatusCode),
}

/// Parses the head at the start of `buf`.
pub(super) fn parse(buf: &[u8], config: &Config) -> Parsed {
    let mut slots = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut []);
    match req.parse_with_uninit_headers(buf, &mut slots) {
        Ok(httparse::Status::Partial) if buf.len() > config.max_head => {
            Parsed::Reject(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        }
        Ok(httparse::Status::Partial) => Parsed::Partial,
        Err(httparse::Error::TooManyHeaders) => {
            Parsed::Reject(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        }
        Err(_) => Parsed::Reject(StatusCode::BAD_REQUEST),
        Ok(httparse::Status::Complete(len)) if len > config.max_head => {
            Parsed::Reject(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        }
        Ok(httparse::Status::Complete(len)) => match build(&req, config) {
            Ok(head) => Parsed::Complete { len, head },
            Err(status) => Parsed::Reject(status),
        },
    }
}

/// What the framing headers said, gathered in one pass over the fields.
#[derive(Default)]
struct Framing {
    content_length: Option<u64>,
    chunked: bool,
    close: bool,
    keep_alive: bool,
    expects_continue: bool,
    has_host: bool,
}

fn build(req: &httparse::Request<'_, '_>, config: &Config) -> Result<Head, StatusCode> {
    let bad = StatusCode::BAD_REQUEST;
    // httparse fills every field of a complete parse; `None` cannot happen, but is no panic.
    let method = Method::from_bytes(req.method.ok_or(bad)?.as_bytes()).map_err(|_| bad)?;
    let http10 = req.version.ok_or(bad)? == 0;
    let mut framing = Framing::default();
    let mut request = Request::new(());
    let mut spelling = Spelling::default();
    let map = request.headers_mut();
    map.reserve(req.headers.len());
    for field in req.headers.iter() {
        let name = HeaderName::from_bytes(field.name.as_bytes()).map_err(|_| bad)?;
        note(&mut framing, &name, field.value)?;
        let value = HeaderValue::from_bytes(field.value).map_err(|_| bad)?;
        match map.entry(name) {
            Entry::Vacant(slot) => {
                // A name repeated in another case keeps the case of its first occurrence.
                spelling.note(field.name);
                slot.insert(value);
            }
            // One value per name, joined as the Fetch `Headers` joins them, so the REST layer
            // sees what it would behind any other host (SharedKey signs the joined value).
            Entry::Occupied(mut slot) => {
                let joined = [slot.get().as_bytes(), b", ", value.as_bytes()].concat();
                slot.insert(HeaderValue::from_bytes(&joined).map_err(|_| bad)?);
            }
        }
    }
    let uri = target::uri(
        req.path.ok_or(bad)?.as_bytes(),
        framing.has_host,
        &config.fallback_host,
    )
    .ok_or(bad)?;
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    if !spelling.is_empty() {
        request.extensions_mut().insert(spelling);
    }
    *request.version_mut() = if http10 {
        Version::HTTP_10
    } else {
        Version::HTTP_11
    };

    let body = match (framing.chunked, framing.content_length) {
        // Both framings at once is how request smuggling starts (RFC 9112 § 6.3 lets a server
        // reject it); so is Transfer-Encoding from HTTP/1.0, which had none.
        (true, Some(_)) => return Err(bad),
        (true, None) if http10 => return Err(bad),
        (true, None) => Body::Chunked,
        (false, Some(n)) if n > config.max_body as u64 => {
            return Err(StatusCode::PAYLOAD_TOO_LARGE);
        }
        (false, Some(0) | None) => Body::None,
        (false, Some(n)) => Body::Length(usize::try_from(n).map_err(|_| bad)?),
    };
    let keep_alive = if http10 {
        framing.keep_alive && !framing.close
    } else {
        !framing.close
    };
    Ok(Head {
        request,
        body,
        keep_alive,
        expects_continue: framing.expects_continue && !http10,
    })
}

/// Records what one field means for framing and connection handling.
fn note(framing: &mut Framing, name: &HeaderName, value: &[u8]) -> Result<(), StatusCode> {
    if name == header::CONTENT_LENGTH {
        // Repeats (as fields or as a list) must agree, else the length is unknowable.
        for part in value.split(|&b| b == b',') {
            let n = length(part.trim_ascii())?;
            if framing.content_length.is_some_and(|m| m != n) {
                return Err(StatusCode::BAD_REQUEST);
            }
            framing.content_length = Some(n);
        }
    } else if name == header::TRANSFER_ENCODING {
        // Only `chunked` is decoded here; a body in any other coding cannot be read
        // (RFC 9112 § 6.1: 501), and `chunked` must be the one and final coding.
        for coding in value.split(|&b| b == b',').map(<[u8]>::trim_ascii) {
            if framing.chunked || !coding.eq_ignore_ascii_case(b"chunked") {
                return Err(StatusCode::NOT_IMPLEMENTED);
            }
            framing.chunked = true;
        }
    } else if name == header::CONNECTION {
        for option in value.split(|&b| b == b',').map(<[u8]>::trim_ascii) {
            framing.close |= option.eq_ignore_ascii_case(b"close");
            framing.keep_alive |= option.eq_ignore_ascii_case(b"keep-alive");
        }
    } else if name == header::EXPECT {
        if !value.trim_ascii().eq_ignore_ascii_case(b"100-continue") {
            return Err(StatusCode::EXPECTATION_FAILED);
        }
        framing.expects_continue = true;
    } else if name == header::HOST {
        framing.has_host = true;
    }
    Ok(())
}

/// A Content-Length value: decimal digits only (no sign, no spaces inside).
fn length(digits: &[u8]) -> Result<u64, StatusCode> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(StatusCode::BAD_REQUEST);
    }
    // Only the digits' value matters; anything past u64 is far over every limit.
    Ok(digits.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Result<Head, StatusCode> {
        match parse(text.as_bytes(), &Config::new("me:1")) {
            Parsed::Complete { head, .. } => Ok(head),
            Parsed::Reject(status) => Err(status),
            Parsed::Partial => panic!("partial: {text:?}"),
        }
    }

    #[test]
    fn names_sent_with_capitals_are_attached_as_spelled() {
        let h =
            head("PUT /a/q HTTP/1.1\r\nHost: h\r\nx-ms-meta-Color: red\r\nx-ms-version: v\r\n\r\n")
                .unwrap();
        let spelling = h.request.extensions().get::<Spelling>().unwrap();
        assert_eq!(spelling.of("x-ms-meta-color"), Some("x-ms-meta-Color"));
        assert_eq!(spelling.of("host"), Some("Host"));
        assert_eq!(spelling.of("x-ms-version"), None);
        let repeated = head("GET / HTTP/1.1\r\nx-ms-meta-a: 1\r\nX-Ms-Meta-A: 2\r\n\r\n").unwrap();
        assert!(repeated.request.extensions().get::<Spelling>().is_none());
        let lower = head("GET / HTTP/1.1\r\nhost: h\r\n\r\n").unwrap();
        assert!(lower.request.extensions().get::<Spelling>().is_none());
    }

    #[test]
    fn keep_alive_follows_version_and_connection() {
        assert!(
            head("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                .unwrap()
                .keep_alive
        );
        assert!(
            !head("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
                .unwrap()
                .keep_alive
        );
        assert!(!head("GET / HTTP/1.0\r\n\r\n").unwrap().keep_alive);
        assert!(
            head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
                .unwrap()
                .keep_alive
        );
        assert!(
            !head("GET / HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n")
                .unwrap()
                .keep_alive
        );
    }

    #[test]
    fn framing_headers_are_checked() {
        let h = head("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n").unwrap();
        assert_eq!(h.body, Body::Length(5));
        assert_eq!(h.request.headers()["content-length"], "5, 5");
        let err = |t| head(t).unwrap_err();
        assert_eq!(
            err("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"),
            400
        );
        assert_eq!(err("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), 400);
        assert_eq!(
            err("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
            413
        );
        assert_eq!(
            err("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"),
            501
        );
        assert_eq!(
            err("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n"),
            400
        );
        assert_eq!(
            err("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"),
            400
        );
        assert_eq!(err("POST / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n"), 417);
        let h = head("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n").unwrap();
        assert_eq!(h.body, Body::Chunked);
        assert_eq!(
            head("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
                .unwrap()
                .body,
            Body::None
        );
    }

    #[test]
    fn oversized_or_garbled_heads_are_refused() {
        let config = Config {
            max_head: 64,
            ..Config::new("me")
        };
        let long = format!("GET /{} HTTP/1.1\r\n", "a".repeat(100));
        assert!(matches!(parse(long.as_bytes(), &config), Parsed::Reject(s) if s == 431));
        let many: String = (0..200).map(|i| format!("x-{i}: 1\r\n")).collect();
        let many = format!("GET / HTTP/1.1\r\n{many}\r\n");
        assert!(
            matches!(parse(many.as_bytes(), &Config::new("me")), Parsed::Reject(s) if s == 431)
        );
        assert!(matches!(
            parse(b"GET / HTTP/1.1\r\n", &config),
            Parsed::Partial
        ));
        assert!(
            matches!(parse(b"\x00\x01 / HTTP/1.1\r\n\r\n", &config), Parsed::Reject(s) if s == 400)
        );
        assert!(matches!(parse(b"GET / HTTP/2.0\r\n\r\n", &config), Parsed::Reject(s) if s == 400));
    }
}
