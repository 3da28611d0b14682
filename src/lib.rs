//! azqueue: Azure Queue Storage, rebuilt in Rust and compiled to WebAssembly.
//!
//! Layers (data flows down, never up):
//! - [`engine`]: queue semantics, pure and deterministic (time and randomness are injected);
//! - [`rest`]: the Azure Queue REST protocol over `http` types, no I/O;
//! - [`store`]: the persistence contract and the memory store;
//! - [`http1`]: HTTP/1.1 framing for one server connection (bytes ⇄ `http` types), no I/O;
//! - `wasm` (wasm32 only): the JavaScript faces — `QueueService`, `Queue`, `fetchHandler`.
//!
//! The engine appends every durable change to an outbox; the edge drains it into a store and
//! only then answers, so nothing acknowledged is lost.

pub mod engine;
pub mod http1;
pub mod rest;
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
