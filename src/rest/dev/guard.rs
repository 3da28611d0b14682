//! Who may use the development paths (`/_azqueue/…`: inspection, snapshot, reset, store).
//!
//! They carry no credentials, so a browser must not be turned against them:
//!
//! - **Cross-site writes.** A page the developer visits can send a *simple* cross-origin
//!   request (a form POST, `fetch` in `no-cors` mode) without a preflight. So a request that
//!   changes state (any method but `GET`/`HEAD`) must carry [`DEV_HEADER`], which no simple
//!   request can send, and if it names an `Origin`, that origin must be the request's own
//!   (same host and port), one the server opted in to ([`opted_in`]), or one a CORS rule of a
//!   configured account allows for the method. A preflight (`OPTIONS`) passes only from an
//!   opted-in origin (it changes nothing, and the router answers it); from any other it is
//!   refused like any write without the header, so no other page is ever granted a request.
//! - **DNS rebinding.** A hostile name re-pointed at 127.0.0.1 makes the browser treat the
//!   server as same-origin with the attacker's page; only the `Host` header tells. A host that
//!   listens on a socket attaches [`Listening`], and then every development request's host
//!   (the `Host` header and an absolute-form target's authority) must name that port and a
//!   host that cannot be rebound: an IP literal, `localhost` (or `*.localhost`, which browsers
//!   resolve to loopback themselves), or the name the server was told to listen on. In-process
//!   hosts (a page's or a worker's fetch handler) attach nothing: no DNS stands in between.
//!
//! The Azure paths need none of this: every one of them is authenticated (or anonymous only
//! where the account's settings say so) and CORS-checked as the real service does.

use crate::engine::Emulator;
use crate::rest::config::ServiceConfig;
use crate::rest::cors;
use http::{HeaderMap, HeaderValue, Request};
use std::net::IpAddr;

/// The header a state-changing development request must carry (`x-azqueue-dev: 1`). A
/// non-safelisted header: browsers send it cross-origin only after a preflight, which these
/// paths grant only to the origins the server opted in to.
pub const DEV_HEADER: &str = "x-azqueue-dev";

/// A request extension from a host that listens on a socket: the `host:port` it listens on
/// (as given to it, e.g. `127.0.0.1:10001`, `[::1]:10001`, `localhost:10001`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listening(pub String);

/// Why a development request was refused: the status (always 403) and the reason, which the
/// router sends as its JSON error body.
pub type Refusal = (u16, String);

/// Checks a request to a development path. `Err` holds the answer to send instead.
pub fn check(
    config: &ServiceConfig,
    emu: &Emulator,
    req: &Request<Vec<u8>>,
) -> Result<(), Refusal> {
    if let Some(listening) = req.extensions().get::<Listening>() {
        for host in request_hosts(req) {
            if !host_allowed(&host, &listening.0) {
                return Err(refuse(&format!(
                    "the Host `{host}` is not an address this server listens on \
                     (development paths answer only to the addresses the server listens on)"
                )));
            }
        }
    }
    let method = req.method().as_str();
    if method == "GET" || method == "HEAD" {
        return Ok(());
    }
    let opted_in = opted_in(config, req).is_some();
    if method == "OPTIONS" && opted_in {
        return Ok(());
    }
    if req.headers().get(DEV_HEADER).is_none_or(|v| v.is_empty()) {
        return Err(refuse(&format!(
            "a {method} to a development path must carry the header `{DEV_HEADER}: 1` \
             (a web page cannot send it to another site without a preflight)"
        )));
    }
    if let Some(origin) = req.headers().get(http::header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let same = request_hosts(req).iter().any(|h| {
            origin
                .strip_prefix("http://")
                .or(origin.strip_prefix("https://"))
                == Some(h)
        });
        if !same && !opted_in && !cors_allows(config, emu, origin, method) {
            return Err(refuse(&format!(
                "the origin `{origin}` is neither this server, nor one it opted in to \
                 (`--devOrigin`), nor allowed by a CORS rule"
            )));
        }
    }
    Ok(())
}

/// The request's `Origin`, when the server opted in to it ([`ServiceConfig::dev_origins`]: the
/// Node server's `--devOrigin`, `open({ devOrigins })`). Without the inspector (pkg/web) no
/// origin ever is.
pub fn opted_in<'a>(config: &ServiceConfig, req: &'a Request<Vec<u8>>) -> Option<&'a str> {
    if !cfg!(feature = "inspector") {
        return None;
    }
    let origin = req.headers().get(http::header::ORIGIN)?.to_str().ok()?;
    config
        .dev_origins
        .iter()
        .any(|o| o == origin)
        .then_some(origin)
}

fn refuse(why: &str) -> Refusal {
    (403, why.to_owned())
}

/// Every host the request names: an absolute-form target's authority and the `Host` header.
fn request_hosts(req: &Request<Vec<u8>>) -> Vec<String> {
    let mut hosts: Vec<String> = req
        .uri()
        .authority()
        .map(|a| a.as_str().to_owned())
        .into_iter()
        .collect();
    if let Some(h) = req.headers().get(http::header::HOST) {
        hosts.push(String::from_utf8_lossy(h.as_bytes()).into_owned());
    }
    hosts
}

/// Whether `host` (`name[:port]`, as sent) names the server listening on `listening`.
fn host_allowed(host: &str, listening: &str) -> bool {
    let (Some((name, port)), Some((listen_name, listen_port))) =
        (split_host(host, 80), split_host(listening, 80))
    else {
        return false;
    };
    port == listen_port
        && (name.parse::<IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || name == listen_name)
}

/// `name[:port]` → (lower-cased name without IPv6 brackets, port).
fn split_host(authority: &str, default_port: u16) -> Option<(String, u16)> {
    let authority = authority.trim().to_ascii_lowercase();
    let (name, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        (name.to_owned(), after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((name, port)) => (name.to_owned(), Some(port)),
            None => (authority.clone(), None),
        }
    };
    let port = match port {
        None => default_port,
        Some(p) => p.parse().ok()?,
    };
    (!name.is_empty()).then_some((name.trim_end_matches('.').to_owned(), port))
}

/// Whether a CORS rule of any configured account allows `method` from `origin`: the check a
/// preflight for that request would pass.
fn cors_allows(config: &ServiceConfig, emu: &Emulator, origin: &str, method: &str) -> bool {
    let (Ok(origin), Ok(method)) = (HeaderValue::from_str(origin), HeaderValue::from_str(method))
    else {
        return false;
    };
    let mut headers = HeaderMap::new();
    headers.insert(http::header::ORIGIN, origin);
    headers.insert(http::header::ACCESS_CONTROL_REQUEST_METHOD, method);
    config.accounts.iter().any(|a| {
        let rules = &emu.service_properties_ref(&a.name).cors;
        cors::preflight(rules, &headers).is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_that_name_the_listening_port_and_cannot_be_rebound() {
        for host in [
            "127.0.0.1:10001",
            "localhost:10001",
            "LOCALHOST:10001",
            "app.localhost:10001",
            "[::1]:10001",
            "10.1.2.3:10001",
        ] {
            assert!(host_allowed(host, "127.0.0.1:10001"), "{host}");
        }
        for host in [
            "evil.example:10001",
            "127.0.0.1:10002",
            "127.0.0.1",
            "localhost.evil.example:10001",
            "",
            "[::1:10001",
        ] {
            assert!(!host_allowed(host, "127.0.0.1:10001"), "{host}");
        }
        assert!(host_allowed("myhost:8000", "MyHost:8000"));
        assert!(host_allowed("example.test", "example.test:80"));
    }
}
