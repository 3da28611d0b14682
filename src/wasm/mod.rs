//! The JavaScript faces of the service: the `QueueService` and `Queue` classes, the fetch handler
//! `(Request) => Promise<Response>`, the socket-level HTTP/1.1 `Connection` (the Node server's;
//! the `socket` feature), and the clocks and stores that only a JS host can provide.
//!
//! This is the only module that may touch `wasm_bindgen`, `js_sys` or `web_sys`; everything it
//! does with queues goes through `crate::engine` (the JS classes) or `crate::rest` (the fetch
//! handler), and it owns no queue logic of its own.
//!
//! # Invariants
//! - One [`instance::Instance`] per `QueueService`, shared (`Rc`) by its `Queue`s, connections and
//!   fetch handlers, so the JS API and the REST handler see the same queues.
//! - No `RefCell` borrow is held across an `.await` or across a call into JS (clippy's
//!   `await_holding_refcell_ref` is denied); JS callbacks may therefore re-enter the service.
//! - Every operation's changes are committed to the store before its Promise resolves, and
//!   subscribers hear of them only after that (durable before visible).
//! - Nothing on a request path panics on user input: a panic aborts the whole wasm instance.

mod adapter;
mod clock;
#[cfg(feature = "socket")]
mod connection;
mod dev_host;
mod error;
mod events;
mod faulted;
#[cfg(feature = "faults")]
mod faults;
mod fetch;
mod headroom;
mod host_error;
mod idb;
mod inspect;
mod instance;
mod js_object;
mod open_error;
mod options;
mod queue;
mod raw;
#[cfg(feature = "event-summary")]
mod request_log;
mod result_shapes;
mod results;
mod route;
mod self_check;
mod serve;
mod service;
mod sql_host;
mod store;
mod thrown;
mod types;
mod web_lock;

pub use adapter::{AdapterStore, check_storage_adapter};
#[cfg(feature = "socket")]
pub use connection::Connection;
pub use idb::{IdbStore, delete_database};
pub use queue::Queue;
pub use raw::RawResponse;
pub use service::QueueService;

use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated: turns Rust panics into readable console errors
/// (on stable Rust a panic aborts the instance, so the message is all a user gets), and gives
/// SharedKey the host's Unicode lower-casing for query parameter names that are not ASCII
/// (the JS engine's tables, rather than a copy of Rust's in the download).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    crate::rest::auth::shared_key::set_unicode_lowercase(|s| {
        js_sys::JsString::from(s).to_lower_case().into()
    });
}
