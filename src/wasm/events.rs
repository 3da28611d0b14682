//! Engine events → plain JS objects for `QueueService.subscribe` listeners.
//!
//! Shape: `{ type, at: Date, account, queue, … }` where `type` is one of `queueCreated`,
//! `queueDeleted`, `sent`, `received`, `updated`, `deleted`, `expired`, `cleared`, and the
//! remaining fields depend on it (`messageId`, `visibleAt`, `dequeueCount`, `count`); and, with
//! the server clock, `{ type: "clock", at: Date, offsetMs, paused }` when it was moved; and
//! `{ type: "fault", … }` for each fault a rule or a limit injected ([`fault_to_js`]).

use super::js_object::{JsObject, date};
use crate::engine::{Event, EventKind};
use crate::rest::faults::operation::name_of;
use crate::rest::faults::{DropMode, Injected, Source, When};
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

/// The `fault` event: `{ type: "fault", at, account, queue?, operation, rule? | limit?,
/// status?, code?, message?, when, delayMs, drop? }`: `rule` is the rule's id, `limit` the
/// limit's name (`queueMessagesPerSecond`, `accountRequestsPerSecond`); `status`, `code` and
/// `message` are the error answered, absent when the operation's own answer was delivered late
/// or cut off; `at` is the queues' clock.
pub(crate) fn fault_to_js(i: &Injected) -> JsValue {
    let f = &i.fault;
    let mut event = JsObject::new()
        .set("type", "fault")
        .set("at", date(i.at))
        .set("account", i.account.as_str());
    if let Some(queue) = &i.queue {
        event = event.set("queue", queue.as_str());
    }
    event = event.set("operation", name_of(i.operation).unwrap_or("Preflight"));
    event = match &f.source {
        Source::Rule(id) => event.set("rule", id.as_str()),
        Source::Limit(limit) => event.set("limit", limit.name()),
    };
    if let Some(e) = &f.error {
        event = event
            .set("status", u32::from(e.status))
            .set("code", e.code.as_str())
            .set("message", e.message.as_ref());
    }
    event = event
        .set(
            "when",
            match f.when {
                When::Before => "before",
                When::After => "after",
            },
        )
        .set("delayMs", f.delay_ms as f64);
    if let Some(drop) = f.drop {
        event = event.set(
            "drop",
            match drop {
                DropMode::Reset => "reset",
                DropMode::Partial => "partial",
            },
        );
    }
    event.build()
}
