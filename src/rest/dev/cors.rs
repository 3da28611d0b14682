//! CORS for the development paths, for exactly the origins the server opted in to
//! (`guard::opted_in`), so an inspector served from another azqueue can read and steer this one. Any other origin
//! is granted nothing: its preflight meets the guard (`guard.rs`), and no answer carries
//! an `Access-Control-Allow-Origin` its page could read by.

use super::guard::{DEV_HEADER, opted_in};
use super::json::refuse;
use crate::rest::config::ServiceConfig;
use http::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_MAX_AGE, ACCESS_CONTROL_REQUEST_HEADERS, ACCESS_CONTROL_REQUEST_METHOD, VARY,
};
use http::{HeaderValue, Request, Response};

/// The methods the development paths take (`DELETE`: the fault rules, `/_azqueue/faults`).
const METHODS: &str = "GET, HEAD, POST, PUT, DELETE";
/// The request headers an inspector sends besides the safelisted ones.
const HEADERS: &str = "content-type, x-azqueue-dev";
/// How long a browser may keep a preflight's answer (seconds).
const MAX_AGE: &str = "600";

/// The answer to a preflight (`OPTIONS`) from an opted-in origin: 204 with what it may send,
/// or 403 (and no grant) when it asks for a method or a header these paths do not take.
pub fn preflight(config: &ServiceConfig, req: &Request<Vec<u8>>) -> Response<Vec<u8>> {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    let method_ok = header(ACCESS_CONTROL_REQUEST_METHOD)
        .is_some_and(|m| METHODS.split(", ").any(|allowed| allowed == m));
    let headers_ok = header(ACCESS_CONTROL_REQUEST_HEADERS).is_none_or(|list| {
        list.split(',')
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .all(|h| h == "content-type" || h == DEV_HEADER)
    });
    let origin = opted_in(config, req).and_then(|o| HeaderValue::from_str(o).ok());
    let Some(origin) = origin.filter(|_| method_ok && headers_ok) else {
        return refuse(
            403,
            &format!(
                "a preflight to a development path may ask for {METHODS} with the headers \
                 {HEADERS}, from an origin the server opted in to"
            ),
        );
    };
    let mut response = Response::new(Vec::new());
    *response.status_mut() = http::StatusCode::NO_CONTENT;
    let h = response.headers_mut();
    h.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    h.insert(VARY, HeaderValue::from_static("Origin"));
    h.insert(
        ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(METHODS),
    );
    h.insert(
        ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(HEADERS),
    );
    h.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static(MAX_AGE));
    response
}

/// `response`, readable by the requesting page when its origin is one the server opted in to.
/// A preflight's answer is [`preflight`]'s alone: a refused one grants nothing at all.
pub fn allow(
    config: &ServiceConfig,
    req: &Request<Vec<u8>>,
    mut response: Response<Vec<u8>>,
) -> Response<Vec<u8>> {
    if req.method() == http::Method::OPTIONS {
        return response;
    }
    let h = response.headers_mut();
    h.insert(VARY, HeaderValue::from_static("Origin"));
    if let Some(origin) = opted_in(config, req).and_then(|o| HeaderValue::from_str(o).ok()) {
        h.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    }
    response
}

/// An origin to opt in to, as a browser sends it in `Origin`: `http://` or `https://`, a host
/// and a port unless it is the scheme's default, lower-cased, nothing after. `Err` says why not
/// (`*`, `null`, a path, a user name: anything but one web origin).
pub fn parse_origin(text: &str) -> Result<String, String> {
    let bad = || {
        format!(
            "`{text}` is not a web origin: give scheme, host and port, \
             e.g. http://127.0.0.1:8080"
        )
    };
    let lower = text.trim().trim_end_matches('/').to_ascii_lowercase();
    let (scheme, default_port, authority) = if let Some(a) = lower.strip_prefix("http://") {
        ("http", 80, a)
    } else if let Some(a) = lower.strip_prefix("https://") {
        ("https", 443, a)
    } else {
        return Err(bad());
    };
    let host_ok = |host: &str| {
        !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-.[]:".contains(c))
    };
    let (host, port) = match authority.rsplit_once(':') {
        // An IPv6 literal without a port: the colon is inside the brackets.
        Some((host, port)) if !port.contains(']') => {
            let port: u16 = port.parse().map_err(|_| bad())?;
            (host, Some(port))
        }
        _ => (authority, None),
    };
    if !host_ok(host) || host.matches('[').count() != host.matches(']').count() {
        return Err(bad());
    }
    Ok(match port {
        Some(p) if p != default_port => format!("{scheme}://{host}:{p}"),
        _ => format!("{scheme}://{host}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_read_as_browsers_send_them() {
        for (given, read) in [
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
            ("HTTP://LocalHost:3000", "http://localhost:3000"),
            ("http://example.test:80", "http://example.test"),
            ("https://example.test:443", "https://example.test"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("http://[::1]", "http://[::1]"),
        ] {
            assert_eq!(parse_origin(given).as_deref(), Ok(read), "{given}");
        }
        for bad in [
            "*",
            "null",
            "",
            "127.0.0.1:8080",
            "ftp://x",
            "http://",
            "http://a/b",
            "http://a:b",
            "http://a:70000",
            "http://user@a",
            "http://a?x",
            "http://[::1",
        ] {
            assert!(parse_origin(bad).is_err(), "{bad}");
        }
    }
}
