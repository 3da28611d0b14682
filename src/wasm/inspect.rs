//! `QueueService.inspect()`: every account, queue and message, invisible and expired ones
//! included, for the teaching page and for debugging. Read-only: nothing is purged.

use super::js_object::{JsObject, array, date, metadata};
use crate::engine::{MessageRecord, Snapshot, Timestamp};
use wasm_bindgen::JsValue;

pub(crate) fn to_js(snapshot: &Snapshot, now: Timestamp, store: &str, committed: u64) -> JsValue {
    let accounts = snapshot.accounts.iter().map(|a| {
        let queues = a.queues.iter().map(|q| {
            JsObject::new()
                .set("name", q.queue.name.as_str())
                .set("metadata", metadata(&q.queue.metadata))
                .set(
                    "messages",
                    array(q.messages.iter().map(|m| message(m, now))),
                )
                .build()
        });
        JsObject::new()
            .set("name", a.name.as_str())
            .set("queues", array(queues))
            .build()
    });
    JsObject::new()
        .set("now", date(now))
        .set("store", store)
        .set("committedChanges", committed as f64)
        .set("accounts", array(accounts))
        .build()
}

fn message(m: &MessageRecord, now: Timestamp) -> JsValue {
    JsObject::new()
        .set("messageId", m.id.to_string())
        .set("messageText", m.text.as_ref())
        .set("insertedOn", date(m.insertion_time))
        .set("expiresOn", date(m.expiration_time))
        .set("nextVisibleOn", date(m.time_next_visible))
        .set("dequeueCount", m.dequeue_count)
        .set("popReceipt", m.pop_receipt.to_base64())
        .set("visible", m.is_visible(now))
        .set("expired", m.is_expired(now))
        .build()
}
