//! Inspection as the development paths answer it: an account's queues with their message
//! counts, and one queue's counts and messages in delivery order (a page of them with the
//! `inspector` feature), rendered from the engine's one inspection model
//! (`crate::engine::inspection`, which also says why pop receipts are shown) with times in
//! milliseconds since the epoch.

use super::json::{json, refuse, to_json};
#[cfg(feature = "inspector")]
use super::path::Page;
use crate::engine::{
    Emulator, MessageInspection, QueueError, QueueInspection, QueueName, Timestamp,
};
use http::Response;
use serde::Serialize;
use std::collections::BTreeMap;

/// `GET /_azqueue/inspect/<account>`.
pub fn account(emu: &Emulator, now: Timestamp, account: &str) -> Response<Vec<u8>> {
    json(200, account_view(emu, now, account))
}

/// `GET /_azqueue/inspect/<account>/<queue>[?from&limit]`.
pub fn queue(
    emu: &Emulator,
    now: Timestamp,
    account: &str,
    queue: &str,
    #[cfg(feature = "inspector")] page: Page,
) -> Response<Vec<u8>> {
    let view = QueueName::parse(queue)
        .ok()
        .and_then(|name| emu.inspect_queue(now, account, &name));
    let Some(view) = view else {
        return refuse(404, "no such queue");
    };
    #[cfg(feature = "inspector")]
    let body = queue_view(now, &view, page);
    #[cfg(not(feature = "inspector"))]
    let body = queue_view(now, &view);
    match body {
        Ok(body) => json(200, body),
        Err(e) => refuse(500, &e.to_string()),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AccountView<'a> {
    account: &'a str,
    next_deadline: Option<u64>,
    now: u64,
    queues: Vec<QueueSummary<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct QueueSummary<'a> {
    message_count: usize,
    name: &'a str,
}

fn account_view(emu: &Emulator, now: Timestamp, account: &str) -> String {
    let names = emu.queue_names(account);
    let queues = names
        .iter()
        .filter_map(|name| emu.inspect_queue(now, account, name))
        .map(|q| QueueSummary {
            message_count: q.message_count(),
            name: q.name().as_str(),
        })
        .collect();
    to_json(&AccountView {
        account,
        next_deadline: emu.next_deadline(now, account).map(|t| t.as_millis()),
        now: now.as_millis(),
        queues,
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct QueueView<'a> {
    account: &'a str,
    #[cfg(feature = "inspector")]
    counts: Counts,
    #[cfg(feature = "inspector")]
    from: usize,
    /// How many messages the query matches (every one without a filter).
    #[cfg(feature = "inspector")]
    matched: usize,
    messages: Vec<MessageView>,
    metadata: BTreeMap<String, String>,
    next_deadline: Option<u64>,
    now: u64,
    /// With `id`: that message's place in the whole queue's delivery order (0 first), or null.
    #[cfg(feature = "inspector")]
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<Option<usize>>,
    queue: &'a str,
}

/// A queue's messages by state at `now` (every one, whatever the page); `scheduled` are among
/// the `invisible`.
#[cfg(feature = "inspector")]
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Counts {
    expired: usize,
    invisible: usize,
    scheduled: usize,
    total: usize,
    visible: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MessageView {
    dequeue_count: u32,
    expires_on: Option<u64>,
    inserted_on: u64,
    message_id: String,
    message_text: std::sync::Arc<str>,
    next_visible_on: u64,
    /// Where the inspector moved it from: absent for a message a client sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<OriginView>,
    pop_receipt: String,
    state: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OriginView {
    dequeue_count: u32,
    message_id: String,
    queue: String,
}

impl MessageView {
    fn of(m: &MessageInspection) -> Self {
        MessageView {
            dequeue_count: m.dequeue_count(),
            expires_on: m.expires_on().map(|t| t.as_millis()),
            inserted_on: m.inserted_on().as_millis(),
            message_id: m.id().to_string(),
            message_text: m.shared_text(),
            next_visible_on: m.next_visible_on().as_millis(),
            origin: m.origin().map(|o| OriginView {
                dequeue_count: o.dequeue_count,
                message_id: o.id.to_string(),
                queue: o.queue.clone(),
            }),
            pop_receipt: m.pop_receipt().to_base64(),
            state: m.state.as_str(),
        }
    }
}

/// The inspection model of one queue (the page `page` asks for, with the inspector), times in
/// milliseconds since the epoch.
fn queue_view(
    now: Timestamp,
    q: &QueueInspection<'_>,
    #[cfg(feature = "inspector")] page: Page,
) -> Result<String, QueueError> {
    #[cfg(feature = "inspector")]
    let read = q.page(&page)?;
    #[cfg(feature = "inspector")]
    let messages = read.messages.iter().map(MessageView::of).collect();
    #[cfg(not(feature = "inspector"))]
    let messages = q.messages()?.iter().map(MessageView::of).collect();
    let metadata = q
        .metadata()
        .iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    Ok(to_json(&QueueView {
        account: q.account,
        #[cfg(feature = "inspector")]
        counts: Counts {
            expired: read.counts.expired,
            invisible: read.counts.invisible,
            scheduled: read.counts.scheduled,
            total: read.counts.total,
            visible: read.counts.visible,
        },
        #[cfg(feature = "inspector")]
        from: page.from,
        #[cfg(feature = "inspector")]
        matched: read.matched,
        messages,
        metadata,
        next_deadline: q.next_deadline()?.map(|t| t.as_millis()),
        now: now.as_millis(),
        #[cfg(feature = "inspector")]
        position: page.id.map(|_| read.position),
        queue: q.name().as_str(),
    }))
}
