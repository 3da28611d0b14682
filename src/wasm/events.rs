//! Engine events → plain JS objects for `QueueService.subscribe` listeners.
//!
//! Shape: `{ type, at: Date, account, queue, … }` where `type` is one of `queueCreated`,
//! `queueDeleted`, `sent`, `received`, `updated`, `deleted`, `expired`, `cleared`, and the
//! remaining fields depend on it (`messageId`, `visibleAt`, `dequeueCount`, `count`); and, with
//! the server clock, `{ type: "clock", at: Date, offsetMs, paused }` when it was moved.

use super::js_object::{JsObject, date};
use crate::engine::{Event, EventKind};
use wasm_bindgen::JsValue;

pub(crate) fn to_js(e: &Event) -> JsValue {
    let base = |kind: &str| {
        JsObject::new()
            .set("type", kind)
            .set("at", date(e.at))
            .set("account", e.account.as_str())
            .set("queue", e.queue.as_str())
    };
    match &e.kind {
        EventKind::QueueCreated => base("queueCreated"),
        EventKind::QueueDeleted => base("queueDeleted"),
        EventKind::Sent { id, visible_at } => base("sent")
            .set("messageId", id.to_string())
            .set("visibleAt", date(*visible_at)),
        EventKind::Received {
            id,
            dequeue_count,
            visible_at,
        } => base("received")
            .set("messageId", id.to_string())
            .set("dequeueCount", *dequeue_count)
            .set("visibleAt", date(*visible_at)),
        EventKind::Updated { id, visible_at } => base("updated")
            .set("messageId", id.to_string())
            .set("visibleAt", date(*visible_at)),
        EventKind::Deleted { id } => base("deleted").set("messageId", id.to_string()),
        EventKind::Expired { id } => base("expired").set("messageId", id.to_string()),
        EventKind::Cleared { count } => base("cleared").set("count", *count as u32),
    }
    .build()
}

/// The `clock` event: the queues' clock was moved (`POST /_azqueue/clock`); `at` is its new
/// reading.
#[cfg(feature = "server-clock")]
pub(crate) fn clock_to_js(reading: &crate::rest::dev::clock::ClockReading) -> JsValue {
    JsObject::new()
        .set("type", "clock")
        .set(
            "at",
            date(crate::engine::Timestamp::from_millis(reading.now)),
        )
        .set("offsetMs", reading.offset_ms as f64)
        .set("paused", reading.paused)
        .build()
}
