//! The Azure Queue REST protocol over `http` types: request in, response out, no I/O.
//!
//! May import `crate::engine` and `crate::http_extensions` (what hosts attach to requests and read
//! from responses: the [`Spelling`] of header names, an error's [`ReasonPhrase`], the
//! [`ClientAddress`], [`SecureTransport`]); never `crate::http1`, `crate::store`, `crate::wasm`,
//! `web_sys` or `js_sys`.
//! [`Service::handle`] reads the clock value it is given once and uses it for everything in
//! the response; it never panics on any input. The caller drains the engine's outbox into a
//! store before sending the response.

pub mod auth;
pub mod config;
pub mod cors;
pub mod dates;
pub mod dev;
pub mod error;
pub mod faults;
pub mod ops;
pub mod query;
mod render;
pub mod route;
pub mod routed;
pub mod service;
pub mod xml;

pub use crate::http_extensions::{ClientAddress, ReasonPhrase, SecureTransport, Spelling};
pub use config::{AccountConfig, OAuth, ServiceConfig};
pub use dev::Listening;
pub use error::{ErrorCode, RestError};
pub use route::{Operation, Resource};
pub use routed::{Addressed, AzureRoute, Route};
pub use service::{Clocks, Service};
