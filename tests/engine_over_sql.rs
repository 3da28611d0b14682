//! The engine's whole suite again, every queue's messages in a SQL table (`SqlTable`) on SQLite
//! (`rusqlite`, bundled), where the suites alone keep them in memory (`MemoryTable`): the rules
//! are written once, so both tables must give every answer alike. `engine_harness::emulator`
//! picks the table by the module path it was compiled under (this file's name).
#![cfg(not(target_arch = "wasm32"))]
// Each suite brings its own copy of `engine_harness`: that copy's module path is what tells it
// to build its emulators over SQL.
#![allow(clippy::duplicate_mod)]

#[path = "engine_capacity.rs"]
mod capacity;
#[cfg(feature = "inspector")]
#[path = "engine_inspector.rs"]
mod inspector;
#[path = "engine_messages.rs"]
mod messages;
#[path = "engine_model.rs"]
mod model;
#[path = "engine_outbox.rs"]
mod outbox;
#[path = "engine_queues.rs"]
mod queues;
#[path = "engine_state.rs"]
mod state;
