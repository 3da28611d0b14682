//! The development paths under `/_azqueue/` (outside the Azure URL space: account names cannot
//! start with `_`): everything about them but the host's own work. Whether they are on
//! ([`ServiceConfig::inspect`](crate::rest::ServiceConfig), the development default, off when
//! real account keys are configured), who may call (`guard.rs`), from which other origins
//! (`cors.rs`), which path and method a request names (`route.rs`, read once into a
//! [`DevPath`], `path.rs`), and the answers, all JSON (`json.rs`).
//!
//! | request                                   | answer                                         |
//! |-------------------------------------------|------------------------------------------------|
//! | `GET /_azqueue/inspect/<account>`         | the account's queues with their message counts |
//! | `GET /_azqueue/inspect/<account>/<queue>` | its counts and messages in delivery order;     |
//! |   `?from=<k>&limit=<n>`                   | a page of them (`limit` 1..=1000)              |
//! | `POST …/<account>/<queue>/clear`          | Clear Messages (204)                           |
//! | `POST …/<queue>/messages/<id>/delete`     | delete it, whatever its receipt (204)          |
//! | `POST …/<queue>/messages/<id>/visible`    | make it visible now (204)                      |
//! | `POST …/<queue>/messages/<id>/poison`     | move it to `<queue>-poison` (200, JSON)        |
//! | `GET /_azqueue/events`                    | the head of a `text/event-stream` of changes   |
//! | `GET /_azqueue/snapshot`                  | the snapshot document (200, JSON)              |
//! | `PUT /_azqueue/snapshot`                  | replace everything with the body (204)         |
//! | `POST /_azqueue/reset`                    | delete every queue and message (204)           |
//! | `GET /_azqueue/store`                     | the store's kind, durability, counters         |
//! | `GET /_azqueue/clock`                     | the queues' clock (`clock.rs`)                 |
//! | `POST /_azqueue/clock`                    | move, set, pause it; answers the new reading   |
//! | `GET`/`POST`/`DELETE /_azqueue/faults`    | the fault rules and limits (`faults.rs`)       |
//! | `DELETE /_azqueue/faults/<id>`            | one rule gone                                  |
//! | `OPTIONS` any of them                     | a preflight, granted to opted-in origins only  |
//!
//! The counts, paging, actions, events and other origins are the `inspector` feature's, left
//! out of pkg/web (which has a size ceiling): there a queue is listed whole without counts, an
//! action or the event stream is an unknown path (404), and no other origin is opted in to.
//!
//! Who answers (`answer.rs`): the service, from the engine, for inspection (`views.rs`) and the
//! inspector's actions (`act.rs`, engine operations whose changes and events the host commits
//! and delivers as any REST operation's); the host, for what only it holds (the store, the
//! clock: [`HostWork`], its outcome rendered by `host.rs`). The event stream's head is the
//! service's; the events that follow it are written by the host, which holds the socket.
//!
//! The engine keeps what is its semantics: the inspection model (`engine::inspection`, also
//! `QueueService.inspect()`'s), the inspector's actions as operations with changes and events
//! (`engine::dev_actions`), and the clock's adjustment (`engine::clock_adjust`, which the store
//! persists). This module holds their wire form and routing.
//!
//! Adding a path: a [`DevPath`] variant, a file that reads its request into that variant (as
//! `clock.rs`'s `read` does, answering [`Unrouted`] for what it does not take) and answers it,
//! and one arm each in `route.rs` and `answer.rs`.
//!
//! The files import downwards only: `route` → `clock`, `faults`, `guard`, `cors`, `path`,
//! `json`; `answer` → `views`, `act`, `faults`, `host`, `cors`, `path`, `json`; `faults` →
//! `path`, `json`; `cors` → `guard`; `path` →
//! `host`; `json` and `guard` import none of them (`scripts/checks/layering.sh` finds circles).

#[cfg(feature = "inspector")]
mod act;
mod answer;
pub mod clock;
#[cfg(feature = "inspector")]
mod cors;
#[cfg(feature = "faults")]
pub mod faults;
mod guard;
pub mod host;
mod json;
mod path;
mod route;
mod views;

pub use answer::{Serving, answer, host_answer};
#[cfg(feature = "inspector")]
pub use cors::parse_origin;
pub use guard::{DEV_HEADER, Listening};
pub use host::{HostDone, HostWork, StoreInfo};
#[cfg(feature = "inspector")]
pub use path::{Action, MAX_PAGE, Page};
pub use path::{DevPath, EventStream, Unrouted};
pub use route::{PREFIX, route};
