//! The development paths a host answers, because they need what only the host holds: the
//! store (export, import and reset the whole state; its counters) and the queues' clock. The
//! router (`route.rs`) decides which request is one, and reads what it can (a clock
//! change); the host does the work and hands back a [`HostDone`], which this renders, so every
//! answer under `/_azqueue/` has one shape whichever side gave it.

use super::json::{json, refuse, to_json};
#[cfg(feature = "server-clock")]
use crate::engine::ClockChange;
use serde::Serialize;

/// A development request for the host, routed and admitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostWork {
    /// `GET /_azqueue/snapshot`: the whole state as a snapshot document, once durable.
    ExportSnapshot,
    /// `PUT /_azqueue/snapshot`: replace everything with the request's body, a snapshot
    /// document (which only the store layer reads).
    ImportSnapshot,
    /// `POST /_azqueue/reset`: delete every queue and message.
    Reset,
    /// `GET /_azqueue/store`: the store's kind, durability and counters ([`StoreInfo`]).
    StoreInfo,
    /// `GET /_azqueue/clock`: the reading (`clock::ClockReading`).
    #[cfg(feature = "server-clock")]
    Clock,
    /// `POST /_azqueue/clock`: apply these, keep them, answer the new reading.
    #[cfg(feature = "server-clock")]
    SetClock(Vec<ClockChange>),
}

/// What the host made of a [`HostWork`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostDone {
    /// 200 with this JSON body.
    Json(String),
    /// 204.
    Done,
    /// 400: the body could not be read (why).
    BadInput(String),
    /// 500 `InternalError`: the store failed (its message).
    Failed(String),
}

/// `GET /_azqueue/store`'s body (fields in the order the JSON has always had them).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreInfo {
    pub committed_changes: u64,
    pub durability: &'static str,
    pub failed: Option<String>,
    pub kind: &'static str,
    pub transactions: u64,
}

impl StoreInfo {
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}

/// The answer to send for what the host did.
pub fn render(done: HostDone) -> http::Response<Vec<u8>> {
    match done {
        HostDone::Json(body) => json(200, body),
        HostDone::Done => json(204, String::new()),
        HostDone::BadInput(why) => refuse(400, &why),
        HostDone::Failed(message) => {
            #[derive(Serialize)]
            struct InternalError<'a> {
                error: &'static str,
                message: &'a str,
            }
            let body = InternalError {
                error: "InternalError",
                message: &message,
            };
            json(500, to_json(&body))
        }
    }
}
