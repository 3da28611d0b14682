//! Engine values → the plain objects `@azure/storage-queue` returns, so code written against
//! `QueueClient` reads the same fields here (`messageId`, `popReceipt`, `insertedOn`, …, with
//! `Date`s for times).

use super::js_object::{JsObject, array, date, metadata};
use super::result_shapes;
use crate::engine::{
    CorsRule, Created, Logging, MessageRecord, Metrics, QueuePage, QueueProperties,
    RetentionPolicy, ServiceProperties, SignedIdentifier, Updated,
};
use wasm_bindgen::JsValue;

/// `create`'s answer: `{ succeeded }`, false when the queue already existed with the same
/// metadata (Azure's 204), as the SDK's `createIfNotExists` reports it.
pub(crate) fn created(c: Created) -> JsValue {
    JsObject::new().set("succeeded", c == Created::New).build()
}

/// `sendMessage`'s answer, `{ messageId, popReceipt, insertedOn, expiresOn, nextVisibleOn }`,
/// as a settled Promise made in one JS call.
pub(crate) fn sent_settled(m: &MessageRecord) -> js_sys::Promise {
    result_shapes::sent(m)
}

/// One `ReceivedMessageItem` (`DequeuedMessageItem` in the SDK), made in one JS call.
fn received_item(m: &MessageRecord) -> JsValue {
    result_shapes::received_item(m)
}

/// `receiveMessages`' answer: `{ receivedMessageItems: [...] }`.
pub(crate) fn received(messages: &[MessageRecord]) -> JsValue {
    JsObject::new()
        .set(
            "receivedMessageItems",
            array(messages.iter().map(received_item)),
        )
        .build()
}

/// One `PeekedMessageItem`: no receipt, no next-visible time.
fn peeked_item(m: &MessageRecord) -> JsValue {
    JsObject::new()
        .set("messageId", m.id.to_string())
        .set("insertedOn", date(m.insertion_time))
        .set("expiresOn", date(m.expiration_time))
        .set("dequeueCount", m.dequeue_count)
        .set("messageText", m.text.as_ref())
        .build()
}

/// `peekMessages`' answer: `{ peekedMessageItems: [...] }`.
pub(crate) fn peeked(messages: &[MessageRecord]) -> JsValue {
    JsObject::new()
        .set(
            "peekedMessageItems",
            array(messages.iter().map(peeked_item)),
        )
        .build()
}

/// `updateMessage`'s answer: `{ popReceipt, nextVisibleOn }` (the SDK's response headers).
pub(crate) fn updated(u: &Updated) -> JsValue {
    JsObject::new()
        .set("popReceipt", u.pop_receipt.to_base64())
        .set("nextVisibleOn", date(u.time_next_visible))
        .build()
}

/// `getProperties`' answer: `{ metadata, approximateMessagesCount }`.
pub(crate) fn queue_properties(p: &QueueProperties) -> JsValue {
    JsObject::new()
        .set("metadata", metadata(&p.metadata))
        .set(
            "approximateMessagesCount",
            p.approximate_message_count as u32,
        )
        .build()
}

/// `getAccessPolicy`'s answer: `{ signedIdentifiers: [{ id, accessPolicy }] }`.
pub(crate) fn access_policy(acl: &[SignedIdentifier]) -> JsValue {
    let items = acl.iter().map(|s| {
        let p = &s.policy;
        let policy = JsObject::new()
            .set_opt("startsOn", p.start.map(|t| date(t.to_timestamp())))
            .set_opt("expiresOn", p.expiry.map(|t| date(t.to_timestamp())))
            .set_opt("permissions", p.permission.map(|x| x.to_string()))
            .build();
        JsObject::new()
            .set("id", s.id.as_str())
            .set("accessPolicy", policy)
            .build()
    });
    JsObject::new()
        .set("signedIdentifiers", array(items))
        .build()
}

/// `listQueues`' answer: `QueueItem`s, `{ name, metadata? }`, metadata only when asked for.
pub(crate) fn queue_items(page: &QueuePage, include_metadata: bool) -> JsValue {
    array(page.queues.iter().map(|(name, m)| {
        JsObject::new()
            .set("name", name.as_str())
            .set_opt("metadata", include_metadata.then(|| metadata(m)))
            .build()
    }))
}

fn retention(r: &RetentionPolicy) -> JsValue {
    JsObject::new()
        .set("enabled", r.enabled)
        .set_opt("days", r.days)
        .build()
}

fn logging(l: &Logging) -> JsValue {
    JsObject::new()
        .set("version", l.version.as_str())
        .set("deleteProperty", l.delete)
        .set("read", l.read)
        .set("write", l.write)
        .set("retentionPolicy", retention(&l.retention))
        .build()
}

fn metrics(m: &Metrics) -> JsValue {
    JsObject::new()
        .set("version", m.version.as_str())
        .set("enabled", m.enabled)
        .set_opt("includeAPIs", m.include_apis)
        .set("retentionPolicy", retention(&m.retention))
        .build()
}

fn cors_rule(r: &CorsRule) -> JsValue {
    JsObject::new()
        .set("allowedOrigins", r.allowed_origins.as_str())
        .set("allowedMethods", r.allowed_methods.as_str())
        .set("allowedHeaders", r.allowed_headers.as_str())
        .set("exposedHeaders", r.exposed_headers.as_str())
        .set("maxAgeInSeconds", r.max_age_in_seconds)
        .build()
}

/// `getProperties` on the service: `QueueServiceProperties`.
pub(crate) fn service_properties(p: &ServiceProperties) -> JsValue {
    JsObject::new()
        .set("queueAnalyticsLogging", logging(&p.logging))
        .set("hourMetrics", metrics(&p.hour_metrics))
        .set("minuteMetrics", metrics(&p.minute_metrics))
        .set("cors", array(p.cors.iter().map(cors_rule)))
        .build()
}
