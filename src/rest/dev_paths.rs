//! The development paths under `/_azqueue/` (outside the Azure URL space: account names cannot
//! start with `_`), all behind this one router: which path names what, who may call
//! (`dev_guard.rs`), whether they are on ([`ServiceConfig::inspect`], the development default,
//! off when real account keys are configured), and which methods each takes.
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
//! | `GET /_azqueue/snapshot`                  | the snapshot document (200, JSON)              |
//! | `PUT /_azqueue/snapshot`                  | replace everything with the body (204)         |
//! | `POST /_azqueue/reset`                    | delete every queue and message (204)           |
//! | `GET /_azqueue/store`                     | the store's kind, durability, counters         |
//! | `GET /_azqueue/clock`                     | the queues' clock (`dev_clock.rs`)             |
//! | `POST /_azqueue/clock`                    | move, set, pause it; answers the new reading   |
//!
//! The counts, paging and actions are the `inspector` feature's, left out of pkg/web (which has
//! a size ceiling): there a queue is listed whole without counts, and an action answers 501.
//!
//! Inspection renders the engine's one inspection model (`crate::engine::inspection`, which
//! also says why pop receipts are shown) with millisecond times; this service answers it. The
//! inspector's actions (`crate::engine::dev_actions`) are engine operations answered by the
//! service like any REST one, so their changes reach the store (one batch each) and their events
//! the subscribers. The snapshot, reset and store paths read or replace the whole state, which is the host's store's
//! business, and the clock is the host's: the host answers them (`src/wasm/serve.rs`), and a service without a host says so.

use super::config::ServiceConfig;
use super::dev_guard;
#[cfg(feature = "inspector")]
use crate::engine::{ActionError, MessageId, MessageInspection, MessageState};
use crate::engine::{Emulator, QueueError, QueueInspection, QueueName, Timestamp};
use http::{Request, Response};
use serde::Serialize;
use std::collections::BTreeMap;

/// The reserved prefix.
pub const PREFIX: &str = "/_azqueue/";

/// One development request, routed and admitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DevRoute {
    InspectAccount {
        account: String,
    },
    InspectQueue {
        account: String,
        queue: String,
        #[cfg(feature = "inspector")]
        page: Page,
    },
    #[cfg(feature = "inspector")]
    Act {
        account: String,
        queue: QueueName,
        action: Action,
    },
    ExportSnapshot,
    ImportSnapshot,
    Reset,
    StoreInfo,
    Clock,
    SetClock,
}

/// Which messages of a queue an inspection lists: `from` skipped, then up to `limit` (all
/// when `None`). Without the inspector (pkg/web, which has a size ceiling), a queue is listed
/// whole, without counts.
#[cfg(feature = "inspector")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Page {
    pub from: usize,
    pub limit: Option<usize>,
}

/// The most messages one page lists.
#[cfg(feature = "inspector")]
pub const MAX_PAGE: usize = 1000;

/// What the inspector does to a queue or one of its messages.
#[cfg(feature = "inspector")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Clear,
    Delete(MessageId),
    MakeVisible(MessageId),
    Poison(MessageId),
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
        #[cfg(not(feature = "inspector"))]
        (["inspect", account, queue], "GET") => DevRoute::InspectQueue {
            account: (*account).to_owned(),
            queue: (*queue).to_owned(),
        },
        #[cfg(feature = "inspector")]
        (["inspect", account, queue], "GET") => match parse_page(req.uri().query()) {
            Ok(page) => DevRoute::InspectQueue {
                account: (*account).to_owned(),
                queue: (*queue).to_owned(),
                page,
            },
            Err(why) => return Some(Err(json(400, error_body(&why)))),
        },
        #[cfg(feature = "inspector")]
        (["inspect", account, queue, "clear"], "POST") => {
            match parse_action(account, queue, None, "clear") {
                Ok(route) => route,
                Err(why) => return Some(Err(json(400, error_body(&why)))),
            }
        }
        #[cfg(feature = "inspector")]
        (["inspect", account, queue, "messages", id, verb], "POST") => {
            match parse_action(account, queue, Some(id), verb) {
                Ok(route) => route,
                Err(why) => return Some(Err(json(400, error_body(&why)))),
            }
        }
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
        #[cfg(feature = "inspector")]
        (["inspect", _, _, "clear"] | ["inspect", _, _, "messages", _, _], _) => {
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

/// `?from=<k>&limit=<n>`: both optional; anything else in the query is refused, so a typo
/// does not silently list everything.
#[cfg(feature = "inspector")]
fn parse_page(query: Option<&str>) -> Result<Page, String> {
    let mut page = Page::default();
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("`{name}` must be a whole number, not `{value}`"))
        };
        match name {
            "from" => page.from = number()?,
            "limit" => {
                let n = number()?;
                if !(1..=MAX_PAGE).contains(&n) {
                    return Err(format!("`limit` must be 1 to {MAX_PAGE}, not {n}"));
                }
                page.limit = Some(n);
            }
            _ => return Err(format!("unknown query parameter `{name}` (from, limit)")),
        }
    }
    Ok(page)
}

#[cfg(feature = "inspector")]
fn parse_action(
    account: &str,
    queue: &str,
    id: Option<&str>,
    verb: &str,
) -> Result<DevRoute, String> {
    let queue =
        QueueName::parse(queue).map_err(|_| format!("`{queue}` is not a valid queue name"))?;
    let id = match id {
        None => None,
        Some(id) => {
            Some(MessageId::parse(id).ok_or_else(|| format!("`{id}` is not a message id"))?)
        }
    };
    let action = match (verb, id) {
        ("clear", None) => Action::Clear,
        ("delete", Some(id)) => Action::Delete(id),
        ("visible", Some(id)) => Action::MakeVisible(id),
        ("poison", Some(id)) => Action::Poison(id),
        _ => {
            return Err(format!(
                "unknown action `{verb}` (a message takes delete, visible or poison)"
            ));
        }
    };
    Ok(DevRoute::Act {
        account: account.to_owned(),
        queue,
        action,
    })
}

#[cfg(feature = "inspector")]
/// Does an inspector action (`None` for any other route). Its changes and events are left in
/// the engine for the caller to commit and deliver, as after any REST operation.
pub fn act(emu: &mut Emulator, now: Timestamp, route: &DevRoute) -> Option<Response<Vec<u8>>> {
    let DevRoute::Act {
        account,
        queue,
        action,
    } = route
    else {
        return None;
    };
    let done = match action {
        Action::Clear => emu
            .clear_messages(now, account, queue)
            .map_err(ActionError::Refused)
            .map(|()| None),
        Action::Delete(id) => emu.inspector_delete(now, account, queue, id).map(|()| None),
        Action::MakeVisible(id) => emu
            .inspector_make_visible(now, account, queue, id)
            .map(|()| None),
        Action::Poison(id) => emu
            .inspector_poison(now, account, queue, id)
            .map(|(q, id)| {
                #[derive(Serialize)]
                #[serde(rename_all = "camelCase")]
                struct Moved {
                    message_id: String,
                    queue: String,
                }
                Some(to_json(&Moved {
                    message_id: id.to_string(),
                    queue: q.as_str().to_owned(),
                }))
            }),
    };
    Some(match done {
        Ok(Some(body)) => json(200, body),
        Ok(None) => json(204, String::new()),
        Err(ActionError::NotFound(why)) => json(404, error_body(&why)),
        Err(ActionError::BadPoisonName(why)) => json(400, error_body(&why)),
        Err(ActionError::Refused(QueueError::QueueNotFound(_))) => {
            json(404, error_body("no such queue"))
        }
        // The queue's table failed: the server's fault, as `InternalError` is on the REST face.
        Err(ActionError::Refused(e @ QueueError::Storage(_))) => {
            json(500, error_body(&e.to_string()))
        }
        Err(ActionError::Refused(e)) => json(503, error_body(&e.to_string())),
    })
}

/// Answers an inspection route (`None` for the host's routes).
pub fn inspect(emu: &Emulator, now: Timestamp, route: &DevRoute) -> Option<Response<Vec<u8>>> {
    let body = match route {
        DevRoute::InspectAccount { account } => account_view(emu, now, account),
        DevRoute::InspectQueue {
            account,
            queue,
            #[cfg(feature = "inspector")]
            page,
        } => {
            let view = QueueName::parse(queue)
                .ok()
                .and_then(|name| emu.inspect_queue(now, account, &name));
            let Some(view) = view else {
                return Some(json(404, error_body("no such queue")));
            };
            #[cfg(feature = "inspector")]
            let body = queue_view(now, &view, *page);
            #[cfg(not(feature = "inspector"))]
            let body = queue_view(now, &view);
            match body {
                Ok(body) => body,
                Err(e) => return Some(json(500, error_body(&e.to_string()))),
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
    #[cfg(feature = "inspector")]
    counts: Counts,
    #[cfg(feature = "inspector")]
    from: usize,
    messages: Vec<MessageView<'a>>,
    metadata: BTreeMap<String, String>,
    next_deadline: Option<u64>,
    now: u64,
    queue: &'a str,
}

/// A queue's messages by state at `now` (every one, whatever the page).
#[cfg(feature = "inspector")]
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct Counts {
    expired: usize,
    invisible: usize,
    total: usize,
    visible: usize,
}

#[cfg(feature = "inspector")]
impl Counts {
    fn of(messages: &[MessageInspection]) -> Self {
        let mut counts = Counts::default();
        for m in messages {
            counts.total += 1;
            match m.state {
                MessageState::Visible => counts.visible += 1,
                MessageState::Invisible => counts.invisible += 1,
                MessageState::Expired => counts.expired += 1,
            }
        }
        counts
    }
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
fn queue_view(
    now: Timestamp,
    q: &QueueInspection<'_>,
    #[cfg(feature = "inspector")] page: Page,
) -> Result<String, QueueError> {
    let inspected = q.messages()?;
    #[cfg(feature = "inspector")]
    let counts = Counts::of(&inspected);
    let listed = inspected.iter();
    #[cfg(feature = "inspector")]
    let listed = listed
        .skip(page.from)
        .take(page.limit.unwrap_or(usize::MAX));
    let messages = listed
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
        #[cfg(feature = "inspector")]
        counts,
        #[cfg(feature = "inspector")]
        from: page.from,
        messages,
        metadata,
        next_deadline: q.next_deadline()?.map(|t| t.as_millis()),
        now: now.as_millis(),
        queue: q.name().as_str(),
    }))
}
