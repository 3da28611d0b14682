//! HTTP/1.1 on the server side of one connection, as a pure codec: bytes in →
//! `http::Request<Vec<u8>>`s out ([`Decoder`]), `http::Response<Vec<u8>>` → bytes out
//! ([`encode`]). No I/O, no clock, no sockets: a host feeds it what a socket read and writes
//! what it returns, so the Node server can frame HTTP inside one wasm call per read, and
//! plain `cargo test` covers every framing rule.
//!
//! Must not import `crate::engine`, `crate::rest`, `crate::store` or `crate::wasm`: it knows
//! HTTP, not queues (the host decides how a rejected request's body reads). The header-name
//! [`Spelling`](crate::http_extensions::Spelling) and [`ReasonPhrase`](crate::http_extensions::ReasonPhrase)
//! it honours come from `crate::http_extensions`.
//!
//! # Invariants
//! - Never panics, whatever the bytes: malformed input becomes [`Item::Reject`] (a status to
//!   answer with, then close), after which the decoder ignores the rest of the stream.
//! - Items come out in the order of the stream, so a host that answers them in order answers
//!   pipelined requests in order (a `100 Continue` is an item too, so it cannot overtake the
//!   answer to an earlier request).
//! - A request that ends the connection (`Connection: close`, HTTP/1.0 without keep-alive) is
//!   the last item: bytes after it are ignored.

mod chunked;
mod decoder;
mod head;
mod response;
mod target;

pub use decoder::{Decoder, Incoming, Item};
pub use response::{CONTINUE, Framing, encode};
pub use target::lenient_uri;

/// Limits and addressing for one connection's decoder.
#[derive(Debug, Clone)]
pub struct Config {
    /// `host[:port]` that requests without a `Host` header are addressed to (HTTP/1.0
    /// clients): the server's own address.
    pub fallback_host: String,
    /// Largest request body accepted; a larger one is answered `413` and the connection closed.
    pub max_body: usize,
    /// Largest request head (request line and headers, or a chunked body's trailers).
    pub max_head: usize,
}

/// Azurite's limit: far above Azure's 64 KiB message, small enough
/// that a stray upload cannot exhaust the process.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Node's `http` allows 16 KiB of headers; SharedKey requests are well under 4 KiB.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

impl Config {
    /// The default limits, for a server reachable as `fallback_host`.
    pub fn new(fallback_host: impl Into<String>) -> Self {
        Config {
            fallback_host: fallback_host.into(),
            max_body: MAX_BODY_BYTES,
            max_head: MAX_HEAD_BYTES,
        }
    }
}
