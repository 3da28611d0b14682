//! The reserved inspection path, outside the Azure URL space (account names cannot start
//! with `_`): a side-effect-free JSON view of every message, invisible ones included.
//!
//! - `GET /_azqueue/inspect/<account>` — queues with their message counts;
//! - `GET /_azqueue/inspect/<account>/<queue>` — every message with its state, next-visible
//!   time, dequeue count and expiry, in delivery order.
//!
//! Served only when `ServiceConfig::inspect` is on (the development default), since it shows
//! message contents without credentials. Pop receipts are never shown: inspecting must not
//! hand out leases.
//!
//! `/_azqueue/snapshot`, `/_azqueue/reset` and `/_azqueue/store` are reserved too: they read or
//! replace the whole state, which is a store operation, so the host answers them before a
//! request reaches this service (`src/wasm/snapshot.rs`), under the same `inspect` switch.

use super::config::ServiceConfig;
use crate::engine::{Emulator, NEVER, QueueName, Timestamp};
use serde_json::{Value, json};

/// The reserved prefix.
pub const PREFIX: &str = "/_azqueue/";

/// Answers an inspection request with a status and a JSON body.
pub fn answer(
    emu: &mut Emulator,
    config: &ServiceConfig,
    now: Timestamp,
    method: &str,
    rest: &str,
) -> (u16, String) {
    if !config.inspect {
        return (
            403,
            json!({"error": "inspection is disabled on this service"}).to_string(),
        );
    }
    if method != "GET" {
        return (405, json!({"error": "only GET is supported"}).to_string());
    }
    let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let body = match parts.as_slice() {
        ["inspect", account] => Some(account_view(emu, now, account)),
        ["inspect", account, queue] => queue_view(emu, now, account, queue),
        _ => None,
    };
    match body {
        Some(v) => (200, v.to_string()),
        None => (404, json!({"error": "no such inspection path"}).to_string()),
    }
}

fn account_view(emu: &Emulator, now: Timestamp, account: &str) -> Value {
    let queues: Vec<Value> = emu
        .queue_names(account)
        .iter()
        .filter_map(|n| emu.queue(account, n).ok())
        .map(|q| json!({"name": q.name().as_str(), "messageCount": q.len()}))
        .collect();
    json!({"account": account, "now": now.as_millis(), "nextDeadline": emu.next_deadline(now, account).map(|t| t.as_millis()), "queues": queues})
}

fn queue_view(emu: &Emulator, now: Timestamp, account: &str, queue: &str) -> Option<Value> {
    let name = QueueName::parse(queue).ok()?;
    let q = emu.queue(account, &name).ok()?;
    let messages: Vec<Value> = q
        .messages_in_order()
        .map(|m| {
            let state = if m.is_expired(now) {
                "expired"
            } else if m.is_visible(now) {
                "visible"
            } else {
                "invisible"
            };
            json!({
                "messageId": m.id.to_string(),
                "messageText": &*m.text,
                "state": state,
                "insertedOn": m.insertion_time.as_millis(),
                "expiresOn": (m.expiration_time < NEVER).then_some(m.expiration_time.as_millis()),
                "nextVisibleOn": m.time_next_visible.as_millis(),
                "dequeueCount": m.dequeue_count,
            })
        })
        .collect();
    let metadata: serde_json::Map<String, Value> = q
        .metadata()
        .iter()
        .map(|(k, v)| (k.to_owned(), json!(v)))
        .collect();
    Some(json!({
        "account": account,
        "queue": queue,
        "now": now.as_millis(),
        "nextDeadline": q.next_deadline(now).map(|t| t.as_millis()),
        "metadata": metadata,
        "messages": messages,
    }))
}
