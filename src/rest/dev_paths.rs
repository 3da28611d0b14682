//! The development paths under `/_azqueue/` (outside the Azure URL space: account names cannot
//! start with `_`), all behind this one router: which path names what, who may call
//! (`dev_guard.rs`), whether they are on ([`ServiceConfig::inspect`], the development default,
//! off when real account keys are configured), and which methods each takes.
//!
//! | request                                   | answer                                         |
//! |-------------------------------------------|------------------------------------------------|
//! | `GET /_azqueue/inspect/<account>`         | the account's queues with their message counts |
//! | `GET /_azqueue/inspect/<account>/<queue>` | every message, in delivery order (below)       |
//! | `GET /_azqueue/snapshot`                  | the snapshot document (200, JSON)              |
//! | `PUT /_azqueue/snapshot`                  | replace everything with the body (204)         |
//! | `POST /_azqueue/reset`                    | delete every queue and message (204)           |
//! | `GET /_azqueue/store`                     | the store's kind, durability, counters         |
//! | `GET /_azqueue/clock`                     | the queues' clock (`dev_clock.rs`)             |
//! | `POST /_azqueue/clock`                    | move, set, pause it; answers the new reading   |
//!
//! Inspection renders the engine's one inspection model (`crate::engine::inspection`, which
//! also says why pop receipts are shown) with millisecond times; this service answers it. The
//! snapshot, reset and store paths read or replace the whole state, which is the host's store's
//! business, and the clock is the host's: the host answers them (`src/wasm/serve.rs`), and a service without a host says so.

use super::config::ServiceConfig;
use super::dev_guard;
use crate::engine::{Emulator, QueueError, QueueInspection, QueueName, Timestamp};
use http::{Request, Response};
use serde::Serialize;
use std::collections::BTreeMap;

/// The reserved prefix.
pub const PREFIX: &str = "/_azqueue/";

/// One development request, routed and admitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DevRoute {
    InspectAccount { account: String },
    InspectQueue { account: String, queue: String },
    ExportSnapshot,
    ImportSnapshot,
    Reset,
    StoreInfo,
    Clock,
    SetClock,
}

/// Routes `req` if its path is under [`PREFIX`]: `None` for any other path; `Some(Err(answer))`
/// when it is refused (paths off, the guard, an unknown path, a method the path does not take);
/// else the route for the caller to answer.
pub fn route(
    config: &ServiceConfig,
    emu: &Emulator,
    req: &Request<Vec<u8>>,
) -> Option<Result<DevRoute, Response<Vec<u8>>>> {
    let rest = req.uri().path().strip_prefix(PREFIX)?;
    if !config.inspect {
        let why = "the development paths are disabled on this service";
        return Some(Err(json(403, error_body(why))));
    }
    // Cross-site writes and DNS rebinding, before anything else is said.
    if let Err((status, why)) = dev_guard::check(config, emu, req) {
        return Some(Err(json(status, error_body(&why))));
    }
    let method = req.method().as_str();
    let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let route = match (parts.as_slice(), method) {
        (["inspect", account], "GET") => DevRoute::InspectAccount {
            account: (*account).to_owned(),
        },
        (["inspect", account, queue], "GET") => DevRoute::InspectQueue {
            account: (*account).to_owned(),
            queue: (*queue).to_owned(),
        },
        (["snapshot"], "GET") => DevRoute::ExportSnapshot,
        (["snapshot"], "PUT" | "POST") => DevRoute::ImportSnapshot,
        (["reset"], "POST") => DevRoute::Reset,
        (["store"], "GET") => DevRoute::StoreInfo,
        (["clock"], "GET") => DevRoute::Clock,
        (["clock"], "POST") => DevRoute::SetClock,
        (
            ["inspect", _] | ["inspect", _, _] | ["snapshot"] | ["reset"] | ["store"] | ["clock"],
            _,
        ) => {
            let why = "method not allowed on this path";
            return Some(Err(json(405, error_body(why))));
        }
        _ => {
            let why = "no such development path";
            return Some(Err(json(404, error_body(why))));
        }
    };
    Some(Ok(route))
}

/// Answers an inspection route (`None` for the host's routes).
pub fn inspect(emu: &Emulator, now: Timestamp, route: &DevRoute) -> Option<Response<Vec<u8>>> {
    let body = match route {
        DevRoute::InspectAccount { account } => account_view(emu, now, account),
        DevRoute::InspectQueue { account, queue } => {
            let view = QueueName::parse(queue)
                .ok()
                .and_then(|name| emu.inspect_queue(now, account, &name));
            match view {
                Some(view) => match queue_view(now, &view) {
                    Ok(body) => body,
                    Err(e) => return Some(json(500, error_body(&e.to_string()))),
                },
                None => return Some(json(404, error_body("no such queue"))),
            }
        }
        _ => return None,
    };
    Some(json(200, body))
}

/// `{"error": why}`, the body of every refusal on these paths.
pub fn error_body(why: &str) -> String {
    #[derive(Serialize)]
    struct ErrorBody<'a> {
        error: &'a str,
    }
    to_json(&ErrorBody { error: why })
}

/// A body as JSON text. The views are typed structs rather than `serde_json::Value`s: a
/// `Value` tree (its map, builder and writer) was about 8 KB of the gzipped wasm. Their fields
/// are in the order a `Value`'s sorted map wrote them, so the text is what it was.
pub fn to_json<T: Serialize>(value: &T) -> String {
    // Plain structs of strings and numbers: serializing them cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

/// A development path's answer: JSON, with `x-ms-error-code: InternalError` on a 5xx (what an
/// access log counts as a failure).
pub fn json(status: u16, body: String) -> Response<Vec<u8>> {
    let no_body = status == 204;
    let mut response = Response::new(if no_body {
        Vec::new()
    } else {
        body.into_bytes()
    });
    *response.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        "content-type",
        http::HeaderValue::from_static("application/json"),
    );
    if status >= 500 {
        headers.insert(
            "x-ms-error-code",
            http::HeaderValue::from_static("InternalError"),
        );
    }
    response
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
    messages: Vec<MessageView<'a>>,
    metadata: BTreeMap<String, String>,
    next_deadline: Option<u64>,
    now: u64,
    queue: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MessageView<'a> {
    dequeue_count: u32,
    expires_on: Option<u64>,
    inserted_on: u64,
    message_id: String,
    message_text: &'a str,
    next_visible_on: u64,
    pop_receipt: String,
    state: &'static str,
}

/// The inspection model of one queue, times in milliseconds since the epoch.
fn queue_view(now: Timestamp, q: &QueueInspection<'_>) -> Result<String, QueueError> {
    let inspected = q.messages()?;
    let messages = inspected
        .iter()
        .map(|m| MessageView {
            dequeue_count: m.dequeue_count(),
            expires_on: m.expires_on().map(|t| t.as_millis()),
            inserted_on: m.inserted_on().as_millis(),
            message_id: m.id().to_string(),
            message_text: m.text(),
            next_visible_on: m.next_visible_on().as_millis(),
            pop_receipt: m.pop_receipt().to_base64(),
            state: m.state.as_str(),
        })
        .collect();
    let metadata = q
        .metadata()
        .iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    Ok(to_json(&QueueView {
        account: q.account,
        messages,
        metadata,
        next_deadline: q.next_deadline()?.map(|t| t.as_millis()),
        now: now.as_millis(),
        queue: q.name().as_str(),
    }))
}
