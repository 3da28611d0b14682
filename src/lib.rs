//! azqueue: Azure Queue Storage, rebuilt in Rust and compiled to WebAssembly.
//!
//! # Testing Rust code that uses Azure queues
//!
//! With the `azure-sdk` feature, the official Azure SDK for Rust (`azure_storage_queue` 1.x on
//! `azure_core` 1.x) runs against an azqueue inside your test: each request is answered in
//! the process, on a clock the test moves. No server, no socket, no container, no sleeping;
//! the same test runs under `cargo test` and, compiled to wasm32, under
//! `wasm-pack test --headless --chrome` (or `--firefox`).
//!
//! The crate is not on crates.io; depend on it by path or git:
//!
//! ```toml
//! [dependencies]
//! azure_core = { version = "1.1", default-features = false }
//! azure_storage_queue = { version = "1.1", default-features = false }
//!
//! [dev-dependencies]
//! azqueue = { path = "../azqueue", features = ["azure-sdk"] }
//!
//! [target.'cfg(not(target_arch = "wasm32"))'.dev-dependencies]
//! tokio = { version = "1", default-features = false, features = ["macros", "rt"] }
//!
//! [target.'cfg(target_arch = "wasm32")'.dev-dependencies]
//! wasm-bindgen-test = "0.3"
//! ```
//!
//! A test: a consumer receives a message for 30 seconds, fails, and the message comes back
//! 31 virtual seconds later with `DequeueCount` 2, as it would from Azure.
//!
//! ```
//! # #[cfg(feature = "azure-sdk")]
//! # mod example {
//! use azqueue::sdk::InProcessQueues;
//! use azure_storage_queue::models::{QueueClientReceiveMessagesOptions, QueueMessage};
//!
//! // #[tokio::test] natively, #[wasm_bindgen_test::wasm_bindgen_test] in a browser
//! pub async fn a_failed_message_comes_back() -> azure_core::Result<()> {
//!     // The development account in memory; its clock starts at 2026-01-01T00:00:00Z.
//!     let queues = InProcessQueues::new();
//!     // A QueueClient like any other: hand it to the code under test.
//!     let orders = queues.queue_client("orders")?;
//!     orders.create(None).await?;
//!     let message = QueueMessage {
//!         message_text: Some("charge card 42".into()),
//!     };
//!     orders.send_message(message.try_into()?, None).await?;
//!
//!     let lease = QueueClientReceiveMessagesOptions {
//!         visibility_timeout: Some(30),
//!         ..Default::default()
//!     };
//!     let first = orders.receive_messages(Some(lease.clone())).await?.into_model()?;
//!     assert_eq!(first.items.unwrap_or_default()[0].dequeue_count, Some(1));
//!     // ... the consumer fails and never deletes it ...
//!
//!     queues.clock().advance_secs(29);
//!     let hidden = orders.receive_messages(Some(lease.clone())).await?.into_model()?;
//!     assert!(hidden.items.unwrap_or_default().is_empty());
//!
//!     queues.clock().advance_secs(2); // 31 s after the receive, instantly
//!     let again = orders.receive_messages(Some(lease)).await?.into_model()?;
//!     let again = &again.items.unwrap_or_default()[0];
//!     assert_eq!(again.message_text.as_deref(), Some("charge card 42"));
//!     assert_eq!(again.dequeue_count, Some(2));
//!     Ok(())
//! }
//! # }
//! # fn main() {
//! #     #[cfg(feature = "azure-sdk")]
//! #     pollster::block_on(example::a_failed_message_comes_back()).unwrap();
//! # }
//! ```
//!
//! `examples/rust-consumer` in the repository is a whole crate written this way, and
//! `docs/testing-rust.md` says what it takes on wasm32.
//!
//! # The API
//!
//! - [`Service`]: the Azure Queue REST API over `http` types, `handle(now, &request)` in,
//!   response out, no I/O ([`rest`] has its configuration, auth and errors);
//! - [`Emulator`]: the queue engine it serves, pure and deterministic ([`engine`]);
//! - [`ManualClock`] and [`Timestamp`]: time as the engine sees it, moved by hand;
//! - `sdk` (feature `azure-sdk`): `InProcessTransport`, the SDK's `HttpClient` on a
//!   [`Service`] and a clock, and `InProcessQueues`, the development account with SDK clients
//!   wired to it.
//!
//! The JavaScript faces (`QueueService`, `Queue`, `fetchHandler`) live in `wasm` (wasm32 only).
//! The other public modules are layers of the service, public for the repository's own tests,
//! benchmarks and fuzzers: [`store`] (persistence seam, IndexedDB log and snapshot format),
//! [`http1`] (HTTP/1.1 framing for the Node server) and [`http_extensions`] (what hosts attach to
//! `http` messages).
//!
//! Data flows down, never up: `engine` ← `rest` ← `sdk` / `wasm`, with `store` and `http1` beside
//! them. The engine appends every durable change to an outbox; an edge drains it into a store
//! and only then answers, so nothing acknowledged is lost.

pub mod engine;
pub mod http1;
pub mod http_extensions;
pub mod rest;
#[cfg(feature = "azure-sdk")]
pub mod sdk;
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use engine::{Emulator, ManualClock, Timestamp};
pub use rest::{Service, ServiceConfig};
