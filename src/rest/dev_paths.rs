//! The development paths under `/_azqueue/` (outside the Azure URL space: account names cannot
//! start with `_`), all behind this one router: which path names what, who may call
//! (`dev_guard.rs`), from which other origins (`dev_cors.rs`), whether they are on
//! ([`ServiceConfig::inspect`], the development default, off when real account keys are
//! configured), and which methods each takes. Every answer is JSON (`dev_json.rs`).
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
//! | `GET /_azqueue/events`                    | the head of a `text/event-stream` of changes   |
//! | `GET /_azqueue/snapshot`                  | the snapshot document (200, JSON)              |
//! | `PUT /_azqueue/snapshot`                  | replace everything with the body (204)         |
//! | `POST /_azqueue/reset`                    | delete every queue and message (204)           |
//! | `GET /_azqueue/store`                     | the store's kind, durability, counters         |
//! | `GET /_azqueue/clock`                     | the queues' clock (`dev_clock.rs`)             |
//! | `POST /_azqueue/clock`                    | move, set, pause it; answers the new reading   |
//! | `OPTIONS` any of them                     | a preflight, granted to opted-in origins only  |
//!
//! The counts, paging, actions, events and other origins are the `inspector` feature's, left
//! out of pkg/web (which has a size ceiling): there a queue is listed whole without counts, an
//! action or the event stream is an unknown path (404), and no other origin is opted in to.
//!
//! Who answers: the service, from the engine, for inspection (`dev_views.rs`) and the
//! inspector's actions (`dev_act.rs`, engine operations whose changes and events the host
//! commits and delivers as any REST operation's); the host, for what only it holds (the store,
//! the clock: [`HostWork`], rendered by `dev_host.rs`). The event stream's head is the
//! service's; the events that follow it are written by the host, which holds the socket.

use super::config::ServiceConfig;
use super::dev_guard;
use super::dev_host::{self, HostDone, HostWork};
use super::dev_json::refuse;
use super::dev_views;
use crate::engine::{Emulator, Timestamp};
#[cfg(feature = "inspector")]
use crate::engine::{MessageId, QueueName};
use http::{Request, Response};

/// The reserved prefix.
pub const PREFIX: &str = "/_azqueue/";

/// The content type of the event stream's answer: a host that sees it on a 200 keeps the
/// connection open and writes the events.
pub const EVENT_STREAM: &str = "text/event-stream";

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
    /// `GET /_azqueue/events`: answered with the stream's head; the host writes the events.
    #[cfg(feature = "inspector")]
    Events,
    /// The host's to answer.
    Host(HostWork),
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
/// when the router answers it itself (paths off, the guard, a preflight, an unknown path, a
/// method the path does not take, a body it cannot read); else the route.
pub fn route(
    config: &ServiceConfig,
    emu: &Emulator,
    req: &Request<Vec<u8>>,
) -> Option<Result<DevRoute, Response<Vec<u8>>>> {
    let rest = req.uri().path().strip_prefix(PREFIX)?;
    if !config.inspect {
        return Some(Err(refuse(
            403,
            "the development paths are disabled on this service",
        )));
    }
    // Cross-site writes and DNS rebinding, before anything else is said.
    if let Err((status, why)) = dev_guard::check(config, emu, req) {
        return Some(Err(refuse(status, &why)));
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
            Err(why) => return Some(Err(refuse(400, &why))),
        },
        #[cfg(feature = "inspector")]
        (["inspect", account, queue, "clear"], "POST") => {
            match parse_action(account, queue, None, "clear") {
                Ok(route) => route,
                Err(why) => return Some(Err(refuse(400, &why))),
            }
        }
        #[cfg(feature = "inspector")]
        (["inspect", account, queue, "messages", id, verb], "POST") => {
            match parse_action(account, queue, Some(id), verb) {
                Ok(route) => route,
                Err(why) => return Some(Err(refuse(400, &why))),
            }
        }
        #[cfg(feature = "inspector")]
        (["events"], "GET") => DevRoute::Events,
        (["snapshot"], "GET") => DevRoute::Host(HostWork::ExportSnapshot),
        (["snapshot"], "PUT" | "POST") => DevRoute::Host(HostWork::ImportSnapshot),
        (["reset"], "POST") => DevRoute::Host(HostWork::Reset),
        (["store"], "GET") => DevRoute::Host(HostWork::StoreInfo),
        #[cfg(feature = "server-clock")]
        (["clock"], "GET") => DevRoute::Host(HostWork::Clock),
        #[cfg(feature = "server-clock")]
        (["clock"], "POST") => match super::dev_clock::parse_changes(req.body()) {
            Ok(changes) => DevRoute::Host(HostWork::SetClock(changes)),
            Err(why) => return Some(Err(refuse(400, &why))),
        },
        #[cfg(not(feature = "server-clock"))]
        (["clock"], "GET" | "POST") => {
            let why = "this build has no server clock (the Node server's has); in a page or \
                       a worker, pass `now` to QueueService.open()";
            return Some(Err(refuse(501, why)));
        }
        #[cfg(feature = "inspector")]
        (parts, "OPTIONS") if known(parts) => {
            return Some(Err(super::dev_cors::preflight(config, req)));
        }
        (parts, _) if known(parts) => {
            return Some(Err(refuse(405, "method not allowed on this path")));
        }
        _ => return Some(Err(refuse(404, "no such development path"))),
    };
    Some(Ok(route))
}

/// Whether `parts` name a development path (whatever the method).
fn known(parts: &[&str]) -> bool {
    match parts {
        ["inspect", _] | ["inspect", _, _] | ["snapshot"] | ["reset"] | ["store"] | ["clock"] => {
            true
        }
        #[cfg(feature = "inspector")]
        ["inspect", _, _, "clear"] | ["inspect", _, _, "messages", _, _] | ["events"] => true,
        _ => false,
    }
}

/// The service's answer to a development request (`None` for any other path): routed,
/// answered from the engine, and readable by an opted-in origin. A route for the host is
/// answered 501 here: a service without a host has no store or clock to give.
pub fn serve(
    config: &ServiceConfig,
    emu: &mut Emulator,
    now: Timestamp,
    req: &Request<Vec<u8>>,
) -> Option<Response<Vec<u8>>> {
    let answer = match route(config, emu, req)? {
        Err(answer) => answer,
        Ok(route) => answer(emu, now, route),
    };
    Some(readable(config, req, answer))
}

fn answer(emu: &mut Emulator, now: Timestamp, route: DevRoute) -> Response<Vec<u8>> {
    match route {
        DevRoute::InspectAccount { account } => dev_views::account(emu, now, &account),
        DevRoute::InspectQueue {
            account,
            queue,
            #[cfg(feature = "inspector")]
            page,
        } => dev_views::queue(
            emu,
            now,
            &account,
            &queue,
            #[cfg(feature = "inspector")]
            page,
        ),
        #[cfg(feature = "inspector")]
        DevRoute::Act {
            account,
            queue,
            action,
        } => super::dev_act::act(emu, now, &account, &queue, &action),
        #[cfg(feature = "inspector")]
        DevRoute::Events => {
            let mut head = super::dev_json::json(200, String::new());
            let h = head.headers_mut();
            h.insert(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static(EVENT_STREAM),
            );
            h.insert(
                http::header::CACHE_CONTROL,
                http::HeaderValue::from_static("no-cache"),
            );
            head
        }
        DevRoute::Host(_) => refuse(
            501,
            "this path is answered by the host that holds the store",
        ),
    }
}

/// The host's work for `req`, when it is an admitted request for the host (the store, the
/// clock); every other development request is the service's ([`serve`]).
pub fn host_work(
    config: &ServiceConfig,
    emu: &Emulator,
    req: &Request<Vec<u8>>,
) -> Option<HostWork> {
    match route(config, emu, req)? {
        Ok(DevRoute::Host(work)) => Some(work),
        _ => None,
    }
}

/// The answer to `req` for what the host made of its [`HostWork`].
pub fn host_answer(
    config: &ServiceConfig,
    req: &Request<Vec<u8>>,
    done: HostDone,
) -> Response<Vec<u8>> {
    readable(config, req, dev_host::render(done))
}

/// `response`, readable by the requesting page when the server opted in to its origin
/// (`dev_cors.rs`, the `inspector` feature's: without it, no other origin ever is).
fn readable(
    config: &ServiceConfig,
    req: &Request<Vec<u8>>,
    response: Response<Vec<u8>>,
) -> Response<Vec<u8>> {
    // Off (real accounts configured) means off: no grant either.
    #[cfg(feature = "inspector")]
    if config.inspect {
        return super::dev_cors::allow(config, req, response);
    }
    let _ = (config, req);
    response
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
