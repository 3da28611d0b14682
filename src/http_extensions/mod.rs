//! What hosts, the HTTP/1.1 codec and the REST layer attach to `http` requests and responses
//! beside their headers: the one vocabulary they share, so none of them imports another.
//!
//! | extension         | on       | attached by                         | read by                      |
//! |-------------------|----------|-------------------------------------|------------------------------|
//! | [`Spelling`]      | both     | hosts that see raw header names; REST | REST (metadata); writers   |
//! | [`ReasonPhrase`]  | response | REST (an error's message)           | the codec, Fetch, `handleRaw` |
//! | [`ClientAddress`] | request  | the Node server's socket host       | REST (SAS `sip`)             |
//! | [`SecureTransport`] | request | the socket host with TLS           | REST (Bearer, `spr`, endpoints) |
//!
//! A leaf: imports nothing from this crate (`scripts/checks/layering.sh`).

mod reason;
mod spelling;

pub use reason::{ReasonPhrase, reason_of};
pub use spelling::Spelling;

/// A request extension: the address of the client that sent the request, attached by a host
/// that owns the socket (the Node server's queue port). A SAS restricted to addresses (`sip`)
/// is checked against it; without it, `sip` is checked for form only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub std::net::IpAddr);

/// A request extension: the request came over TLS. A socket host (the Node server's queue
/// port with `--cert`) attaches it, since a request line's origin-form target names no
/// scheme. Bearer tokens are read only over TLS, and `spr=https` SAS checks and the endpoint
/// in listings follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecureTransport;
