//! azqueue: Azure Queue Storage, rebuilt in Rust and compiled to WebAssembly.
//!
//! Layers (data flows down, never up):
//! - [`engine`]: queue semantics, pure and deterministic (time and randomness are injected);
//! - [`rest`]: the Azure Queue REST protocol over `http` types, no I/O;
//! - [`store`]: persistence, pure: the store seam and its contract suite, the record layout,
//!   group commit, the IndexedDB write-ahead log and message blocks, the snapshot document;
//! - [`http1`]: HTTP/1.1 framing for one server connection (bytes ⇄ `http` types), no I/O;
//! - [`extensions`]: what hosts, the codec and the REST layer attach to `http` messages (a leaf);
//! - `wasm` (wasm32 only): the JavaScript faces — `QueueService`, `Queue`, `fetchHandler`.
//!
//! The engine appends every durable change to an outbox; the edge drains it into a store and
//! only then answers, so nothing acknowledged is lost.

pub mod engine;
pub mod extensions;
pub mod http1;
pub mod rest;
#[cfg(feature = "azure-sdk")]
pub mod sdk;
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
