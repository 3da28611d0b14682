//! `QueueService.inspect()`: the engine's inspection model (`crate::engine::inspection`, the same
//! one the REST development path renders) as plain JS objects, times as `Date`s. Read-only:
//! nothing is purged.

use super::js_object::{JsObject, array, date, metadata};
use crate::engine::{MessageInspection, QueueInspection, Timestamp};
use wasm_bindgen::JsValue;

/// `{ now, store, committedChanges, accounts: [{ name, queues: [...] }] }` from queues in
/// account order (as `Emulator::inspect` gives them).
pub(crate) fn to_js(
    queues: &[QueueInspection<'_>],
    now: Timestamp,
    store: &str,
    committed: u64,
) -> JsValue {
    let accounts = js_sys::Array::new();
    let mut start = 0;
    while start < queues.len() {
        let account = queues[start].account;
        let end = start
            + queues[start..]
                .iter()
                .take_while(|q| q.account == account)
                .count();
        let account_queues = queues[start..end].iter().map(queue);
        accounts.push(
            &JsObject::new()
                .set("name", account)
                .set("queues", array(account_queues))
                .build(),
        );
        start = end;
    }
    JsObject::new()
        .set("now", date(now))
        .set("store", store)
        .set("committedChanges", committed as f64)
        .set("accounts", JsValue::from(accounts))
        .build()
}

fn queue(q: &QueueInspection<'_>) -> JsValue {
    JsObject::new()
        .set("name", q.name().as_str())
        .set("metadata", metadata(q.metadata()))
        .set(
            "nextDeadline",
            q.next_deadline()
                .ok()
                .flatten()
                .map(date)
                .unwrap_or(JsValue::NULL),
        )
        .set(
            "messages",
            // A table that cannot be read shows no messages; the operations on it report why.
            array(q.messages().unwrap_or_default().into_iter().map(message)),
        )
        .build()
}

fn message(m: MessageInspection) -> JsValue {
    JsObject::new()
        .set("messageId", m.id().to_string())
        .set("messageText", m.text())
        .set("state", m.state.as_str())
        .set("insertedOn", date(m.inserted_on()))
        .set(
            "expiresOn",
            m.expires_on().map(date).unwrap_or(JsValue::NULL),
        )
        .set("nextVisibleOn", date(m.next_visible_on()))
        .set("dequeueCount", m.dequeue_count())
        .set("popReceipt", m.pop_receipt().to_base64())
        .set_opt(
            "origin",
            m.origin().map(|o| {
                JsObject::new()
                    .set("queue", o.queue.as_str())
                    .set("messageId", o.id.to_string())
                    .set("dequeueCount", o.dequeue_count)
                    .build()
            }),
        )
        .build()
}
