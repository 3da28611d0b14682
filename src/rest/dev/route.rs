//! The development paths' router: whether they are on, who may call (`guard.rs`), then which
//! path and method a request names, read once into a [`DevPath`], or the answer the router gives
//! itself (paths off, the guard, a preflight, an unknown path, a method the path does not take,
//! a body it cannot read).

use super::clock;
use super::guard;
use super::json::refuse;
#[cfg(feature = "inspector")]
use super::path::{Action, MAX_PAGE, Page};
use super::path::{DevPath, Unrouted};
use crate::engine::Emulator;
#[cfg(feature = "inspector")]
use crate::engine::{MessageId, QueueName};
use crate::rest::config::ServiceConfig;
use http::{Request, Response};

/// The reserved prefix.
pub const PREFIX: &str = "/_azqueue/";

/// Routes `req` if its path is under [`PREFIX`]: `None` for any other path; `Some(Err(answer))`
/// when the router answers it itself; else the path.
pub fn route(
    config: &ServiceConfig,
    emu: &Emulator,
    req: &Request<Vec<u8>>,
) -> Option<Result<DevPath, Response<Vec<u8>>>> {
    let rest = req.uri().path().strip_prefix(PREFIX)?;
    if !config.inspect {
        return Some(Err(refuse(
            403,
            "the development paths are disabled on this service",
        )));
    }
    // Cross-site writes and DNS rebinding, before anything else is said.
    if let Err((status, why)) = guard::check(config, emu, req) {
        return Some(Err(refuse(status, &why)));
    }
    let method = req.method().as_str();
    let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let answer = match read(&parts, method, req) {
        Ok(path) => return Some(Ok(path)),
        #[cfg(feature = "inspector")]
        Err(Unrouted::Method) if method == "OPTIONS" => super::cors::preflight(config, req),
        Err(Unrouted::Method) => refuse(405, "method not allowed on this path"),
        Err(Unrouted::NoSuchPath) => refuse(404, "no such development path"),
        Err(Unrouted::Refused(status, why)) => refuse(status, &why),
    };
    Some(Err(answer))
}

/// Which path `parts` (below the prefix) and `method` name. Each arm checks its own methods, so
/// a path named here and asked with another method is a 405, never a 404.
fn read(parts: &[&str], method: &str, req: &Request<Vec<u8>>) -> Result<DevPath, Unrouted> {
    use super::host::HostWork;
    let path = match parts {
        ["inspect", account] => {
            Unrouted::unless(method, "GET")?;
            DevPath::InspectAccount {
                account: (*account).to_owned(),
            }
        }
        ["inspect", account, queue] => {
            Unrouted::unless(method, "GET")?;
            DevPath::InspectQueue {
                account: (*account).to_owned(),
                queue: (*queue).to_owned(),
                #[cfg(feature = "inspector")]
                page: parse_page(req.uri().query()).map_err(Unrouted::bad)?,
            }
        }
        #[cfg(feature = "inspector")]
        ["inspect", account, queue, "clear"] => {
            Unrouted::unless(method, "POST")?;
            parse_action(account, queue, None, "clear").map_err(Unrouted::bad)?
        }
        #[cfg(feature = "inspector")]
        ["inspect", account, queue, "messages", id, verb] => {
            Unrouted::unless(method, "POST")?;
            parse_action(account, queue, Some(id), verb).map_err(Unrouted::bad)?
        }
        #[cfg(feature = "inspector")]
        ["events"] => {
            Unrouted::unless(method, "GET")?;
            DevPath::Events(super::path::EventStream::parse(req.uri().query()))
        }
        ["snapshot"] => match method {
            "GET" => DevPath::Host(HostWork::ExportSnapshot),
            "PUT" | "POST" => DevPath::Host(HostWork::ImportSnapshot),
            _ => return Err(Unrouted::Method),
        },
        ["reset"] => {
            Unrouted::unless(method, "POST")?;
            DevPath::Host(HostWork::Reset)
        }
        ["store"] => {
            Unrouted::unless(method, "GET")?;
            DevPath::Host(HostWork::StoreInfo)
        }
        ["clock"] => clock::read(method, req.body())?,
        #[cfg(feature = "faults")]
        ["faults", below @ ..] => super::faults::read(below, method)?,
        _ => return Err(Unrouted::NoSuchPath),
    };
    Ok(path)
}

/// `?from=<k>&limit=<n>&state=<s>&text=<t>&id=<id>`: each optional, values percent-encoded;
/// anything else in the query is refused, so a typo does not silently list everything.
#[cfg(feature = "inspector")]
fn parse_page(query: Option<&str>) -> Result<Page, String> {
    use crate::engine::StateFilter;
    let mut page = Page::default();
    for (name, value) in crate::rest::query::Query::parse(query).pairs() {
        let number = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("`{name}` must be a whole number, not `{value}`"))
        };
        match name.as_str() {
            "from" => page.from = number()?,
            "limit" => {
                let n = number()?;
                if !(1..=MAX_PAGE).contains(&n) {
                    return Err(format!("`limit` must be 1 to {MAX_PAGE}, not {n}"));
                }
                page.limit = Some(n);
            }
            "state" => {
                page.state = Some(StateFilter::parse(value).ok_or_else(|| {
                    format!(
                        "`state` must be visible, invisible, scheduled or expired, not `{value}`"
                    )
                })?);
            }
            "text" if value.is_empty() => return Err("`text` must not be empty".into()),
            "text" => page.text = Some(value.clone()),
            "id" => {
                page.id = Some(
                    MessageId::parse(value)
                        .ok_or_else(|| format!("`{value}` is not a message id"))?,
                );
            }
            _ => {
                return Err(format!(
                    "unknown query parameter `{name}` (from, limit, state, text, id)"
                ));
            }
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
) -> Result<DevPath, String> {
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
    Ok(DevPath::Act {
        account: account.to_owned(),
        queue,
        action,
    })
}
