//! From method, host and path to an account, a resource and an [`Operation`].
//!
//! Parse the path once into a [`Resource`], then one `match` on (method, resource, comp)
//! names the operation, as the service's own routing does.

use super::error::{ErrorCode, RestError};
use super::query::Query;
use percent_encoding::percent_decode_str;

/// Every operation of the Queue REST surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    ListQueues,
    SetServiceProperties,
    GetServiceProperties,
    GetServiceStats,
    Preflight,
    CreateQueue,
    DeleteQueue,
    GetQueueMetadata,
    SetQueueMetadata,
    GetQueueAcl,
    SetQueueAcl,
    PutMessage,
    GetMessages,
    PeekMessages,
    ClearMessages,
    DeleteMessage,
    UpdateMessage,
}

impl Operation {
    /// Every operation, for tables and tests that must cover them all.
    pub const ALL: [Operation; 17] = [
        Operation::ListQueues,
        Operation::SetServiceProperties,
        Operation::GetServiceProperties,
        Operation::GetServiceStats,
        Operation::Preflight,
        Operation::CreateQueue,
        Operation::DeleteQueue,
        Operation::GetQueueMetadata,
        Operation::SetQueueMetadata,
        Operation::GetQueueAcl,
        Operation::SetQueueAcl,
        Operation::PutMessage,
        Operation::GetMessages,
        Operation::PeekMessages,
        Operation::ClearMessages,
        Operation::DeleteMessage,
        Operation::UpdateMessage,
    ];

    /// The operation's name as Azure's REST reference spells it.
    pub fn name(self) -> &'static str {
        use Operation::*;
        match self {
            ListQueues => "List Queues",
            SetServiceProperties => "Set Service Properties",
            GetServiceProperties => "Get Service Properties",
            GetServiceStats => "Get Service Stats",
            Preflight => "Preflight",
            CreateQueue => "Create Queue",
            DeleteQueue => "Delete Queue",
            GetQueueMetadata => "Get Queue Metadata",
            SetQueueMetadata => "Set Queue Metadata",
            GetQueueAcl => "Get Queue ACL",
            SetQueueAcl => "Set Queue ACL",
            PutMessage => "Put Message",
            GetMessages => "Get Messages",
            PeekMessages => "Peek Messages",
            ClearMessages => "Clear Messages",
            DeleteMessage => "Delete Message",
            UpdateMessage => "Update Message",
        }
    }
}

/// What a path names, below the account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    Service,
    Queue(String),
    Messages(String),
    Message(String, String),
}

impl Resource {
    /// The queue segment, if the resource lies inside a queue.
    pub fn queue(&self) -> Option<&str> {
        match self {
            Resource::Service => None,
            Resource::Queue(q) | Resource::Messages(q) | Resource::Message(q, _) => Some(q),
        }
    }
}

/// Where a request is addressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The account name, without any `-secondary` suffix.
    pub account: String,
    /// True when addressed to the read-only secondary endpoint.
    pub secondary: bool,
    /// True when the account came from the first path segment (emulator style).
    pub path_style: bool,
    pub resource: Resource,
}

/// Finds the account and resource. `is_account` tells whether a host's first DNS label is a
/// configured account, which decides host-style addressing for names that are not IPs or
/// `localhost`.
pub fn target(
    host: Option<&str>,
    path: &str,
    is_account: impl Fn(&str) -> bool,
) -> Result<Target, RestError> {
    let address = address(host, path, is_account)?;
    Ok(Target {
        resource: resource(&address.below)?,
        account: address.account,
        secondary: address.secondary,
        path_style: address.path_style,
    })
}

/// The account a request is addressed to, and the decoded path segments below it.
struct Address {
    account: String,
    secondary: bool,
    path_style: bool,
    below: Vec<String>,
}

fn address(
    host: Option<&str>,
    path: &str,
    is_account: impl Fn(&str) -> bool,
) -> Result<Address, RestError> {
    let host_name = host.map(strip_port).unwrap_or("");
    let label = host_name.split('.').next().unwrap_or("");
    let host_label_account = host_name.contains('.')
        && !is_ip(host_name)
        && is_account(label.strip_suffix("-secondary").unwrap_or(label));
    let mut segments: Vec<String> = path
        .split('/')
        .skip(1)
        .map(|s| percent_decode_str(s).decode_utf8_lossy().into_owned())
        .collect();
    let raw_account = if host_label_account {
        label.to_owned()
    } else {
        match segments.first() {
            Some(first) if !first.is_empty() => segments.remove(0),
            _ => return Err(RestError::new(ErrorCode::InvalidUri)),
        }
    };
    let (account, secondary) = match raw_account.strip_suffix("-secondary") {
        Some(a) => (a.to_owned(), true),
        None => (raw_account, false),
    };
    // A trailing slash after the account or queue is tolerated, as SDKs send both forms.
    if segments.last().is_some_and(String::is_empty) {
        segments.pop();
    }
    Ok(Address {
        account,
        secondary,
        path_style: !host_label_account,
        below: segments,
    })
}

fn resource(below: &[String]) -> Result<Resource, RestError> {
    let below: Vec<&str> = below.iter().map(String::as_str).collect();
    Ok(match below.as_slice() {
        [] => Resource::Service,
        [q] => Resource::Queue((*q).to_owned()),
        [q, m] if m.eq_ignore_ascii_case("messages") => Resource::Messages((*q).to_owned()),
        [q, m, id] if m.eq_ignore_ascii_case("messages") && !id.is_empty() => {
            Resource::Message((*q).to_owned(), (*id).to_owned())
        }
        _ => return Err(RestError::new(ErrorCode::InvalidUri)),
    })
}

/// The router's reading of a path-style request (`/<account>[/<queue>…]`), for hosts that
/// dispatch a request before the service answers it: the edge Worker picks a Durable Object by
/// it, the teaching page names its log lines by it. The service still answers every request
/// itself, refusals included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The account, without any `-secondary` suffix; `None` when the path names none.
    pub account: Option<String>,
    pub secondary: bool,
    /// The queue segment, decoded, whether or not it is a valid queue name.
    pub queue: Option<String>,
    /// True when `queue` is a valid queue name (`engine::QueueName`'s rules).
    pub queue_name_valid: bool,
    /// The operation, or the error code the service answers with when there is none.
    pub operation: Result<Operation, ErrorCode>,
}

/// Reads `method` on a path-style `path` with its raw `query` (after `?`, if any).
pub fn read(method: &str, path: &str, query: Option<&str>) -> Reading {
    let Ok(address) = address(None, path, |_| false) else {
        return Reading {
            account: None,
            secondary: false,
            queue: None,
            queue_name_valid: false,
            operation: Err(ErrorCode::InvalidUri),
        };
    };
    let queue = address.below.first().cloned();
    let operation = resource(&address.below)
        .and_then(|r| route(method, &r, &Query::parse(query)))
        .map_err(|e| e.code);
    Reading {
        queue_name_valid: queue
            .as_deref()
            .is_some_and(|q| crate::engine::QueueName::parse(q).is_ok()),
        account: Some(address.account),
        secondary: address.secondary,
        queue,
        operation,
    }
}

fn strip_port(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
}

fn is_ip(host: &str) -> bool {
    host.parse::<std::net::IpAddr>().is_ok()
}

const VERBS: [&str; 7] = ["GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS", "MERGE"];

/// Names the operation for a method on a resource.
///
/// # Errors
/// `InvalidHttpVerb` for verbs the service does not know, `UnsupportedHttpVerb` for a known
/// verb on the wrong resource, `InvalidUri` / `InvalidQueryParameterValue` for unknown
/// sub-resources.
pub fn route(method: &str, resource: &Resource, query: &Query) -> Result<Operation, RestError> {
    use Operation::*;
    if !VERBS.contains(&method) {
        return Err(RestError::new(ErrorCode::InvalidHttpVerb));
    }
    if method == "OPTIONS" {
        return Ok(Preflight);
    }
    let verb = || RestError::new(ErrorCode::UnsupportedHttpVerb);
    let comp = query.get("comp").map(str::to_ascii_lowercase);
    let restype = query.get("restype").map(str::to_ascii_lowercase);
    match resource {
        Resource::Service => match (restype.as_deref(), comp.as_deref()) {
            (None, Some("list")) => match method {
                "GET" => Ok(ListQueues),
                _ => Err(verb()),
            },
            (Some("service"), Some("properties")) => match method {
                "GET" => Ok(GetServiceProperties),
                "PUT" => Ok(SetServiceProperties),
                _ => Err(verb()),
            },
            (Some("service"), Some("stats")) => match method {
                "GET" => Ok(GetServiceStats),
                _ => Err(verb()),
            },
            _ => Err(RestError::new(ErrorCode::InvalidUri)),
        },
        Resource::Queue(_) => match comp.as_deref() {
            None => match method {
                "PUT" => Ok(CreateQueue),
                "DELETE" => Ok(DeleteQueue),
                _ => Err(verb()),
            },
            Some("metadata") => match method {
                "GET" | "HEAD" => Ok(GetQueueMetadata),
                "PUT" => Ok(SetQueueMetadata),
                _ => Err(verb()),
            },
            Some("acl") => match method {
                "GET" | "HEAD" => Ok(GetQueueAcl),
                "PUT" => Ok(SetQueueAcl),
                _ => Err(verb()),
            },
            Some(other) => Err(RestError::invalid_query("comp", other, "")),
        },
        Resource::Messages(_) => match method {
            "GET" => {
                let peek = query
                    .get("peekonly")
                    .is_some_and(|v| v.eq_ignore_ascii_case("true"));
                Ok(if peek { PeekMessages } else { GetMessages })
            }
            "POST" => Ok(PutMessage),
            "DELETE" => Ok(ClearMessages),
            _ => Err(verb()),
        },
        Resource::Message(..) => match method {
            "PUT" => Ok(UpdateMessage),
            "DELETE" => Ok(DeleteMessage),
            _ => Err(verb()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::Operation::*;
    use super::*;

    fn op(method: &str, url: &str) -> Result<Operation, ErrorCode> {
        let (path, q) = url
            .split_once('?')
            .map_or((url, None), |(p, q)| (p, Some(q)));
        let t = target(Some("127.0.0.1:10001"), path, |_| false).map_err(|e| e.code)?;
        route(method, &t.resource, &Query::parse(q)).map_err(|e| e.code)
    }

    #[test]
    fn route_table() {
        let table: &[(&str, &str, Result<Operation, ErrorCode>)] = &[
            ("GET", "/devstoreaccount1?comp=list", Ok(ListQueues)),
            ("GET", "/devstoreaccount1/?comp=list", Ok(ListQueues)),
            (
                "PUT",
                "/devstoreaccount1/?restype=service&comp=properties",
                Ok(SetServiceProperties),
            ),
            (
                "GET",
                "/devstoreaccount1/?restype=service&comp=properties",
                Ok(GetServiceProperties),
            ),
            (
                "GET",
                "/devstoreaccount1-secondary/?restype=service&comp=stats",
                Ok(GetServiceStats),
            ),
            ("OPTIONS", "/devstoreaccount1/q", Ok(Preflight)),
            ("PUT", "/devstoreaccount1/q", Ok(CreateQueue)),
            ("DELETE", "/devstoreaccount1/q", Ok(DeleteQueue)),
            (
                "GET",
                "/devstoreaccount1/q?comp=metadata",
                Ok(GetQueueMetadata),
            ),
            (
                "HEAD",
                "/devstoreaccount1/q?comp=metadata",
                Ok(GetQueueMetadata),
            ),
            (
                "PUT",
                "/devstoreaccount1/q?comp=metadata",
                Ok(SetQueueMetadata),
            ),
            ("GET", "/devstoreaccount1/q?comp=acl", Ok(GetQueueAcl)),
            ("PUT", "/devstoreaccount1/q?comp=acl", Ok(SetQueueAcl)),
            ("POST", "/devstoreaccount1/q/messages", Ok(PutMessage)),
            ("GET", "/devstoreaccount1/q/messages", Ok(GetMessages)),
            (
                "GET",
                "/devstoreaccount1/q/Messages?peekonly=TRUE",
                Ok(PeekMessages),
            ),
            (
                "GET",
                "/devstoreaccount1/q/messages?peekonly=false",
                Ok(GetMessages),
            ),
            ("DELETE", "/devstoreaccount1/q/messages", Ok(ClearMessages)),
            (
                "DELETE",
                "/devstoreaccount1/q/messages/id",
                Ok(DeleteMessage),
            ),
            ("PUT", "/devstoreaccount1/q/messages/id", Ok(UpdateMessage)),
            (
                "PUT",
                "/devstoreaccount1/q/messages",
                Err(ErrorCode::UnsupportedHttpVerb),
            ),
            (
                "POST",
                "/devstoreaccount1/q",
                Err(ErrorCode::UnsupportedHttpVerb),
            ),
            (
                "GET",
                "/devstoreaccount1/q/messages/id",
                Err(ErrorCode::UnsupportedHttpVerb),
            ),
            (
                "BREW",
                "/devstoreaccount1/q",
                Err(ErrorCode::InvalidHttpVerb),
            ),
            (
                "GET",
                "/devstoreaccount1/q/other",
                Err(ErrorCode::InvalidUri),
            ),
            (
                "GET",
                "/devstoreaccount1/q/messages/id/x",
                Err(ErrorCode::InvalidUri),
            ),
            ("GET", "/devstoreaccount1", Err(ErrorCode::InvalidUri)),
            ("GET", "/", Err(ErrorCode::InvalidUri)),
            (
                "GET",
                "/devstoreaccount1/q?comp=nope",
                Err(ErrorCode::InvalidQueryParameterValue),
            ),
        ];
        for (method, url, want) in table {
            assert_eq!(&op(method, url), want, "{method} {url}");
        }
    }

    #[test]
    fn a_reading_names_the_account_and_queue_even_when_the_service_refuses() {
        let r = read("GET", "/acct-secondary/q%2Dx/other", None);
        assert_eq!(r.account.as_deref(), Some("acct"));
        assert!(r.secondary);
        assert_eq!(r.queue.as_deref(), Some("q-x"));
        assert!(r.queue_name_valid);
        assert_eq!(r.operation, Err(ErrorCode::InvalidUri));
        let r = read("GET", "/acct/q/messages", Some("peekonly=true"));
        assert_eq!(r.operation.map(Operation::name), Ok("Peek Messages"));
        let r = read("PUT", "/acct/a--b/", None);
        assert_eq!(r.queue.as_deref(), Some("a--b"));
        assert!(!r.queue_name_valid);
        assert_eq!(r.operation, Ok(CreateQueue));
        let r = read("GET", "/acct/", Some("comp=list"));
        assert_eq!((r.queue, r.operation), (None, Ok(ListQueues)));
        let r = read("GET", "/", None);
        assert_eq!((r.account, r.operation), (None, Err(ErrorCode::InvalidUri)));
    }

    #[test]
    fn host_style_takes_the_account_from_the_first_label() {
        let t = target(
            Some("acct-secondary.queue.core.windows.net"),
            "/q/messages",
            |a| a == "acct",
        )
        .unwrap();
        assert_eq!(t.account, "acct");
        assert!(t.secondary);
        assert!(!t.path_style);
        assert_eq!(t.resource, Resource::Messages("q".into()));
    }

    #[test]
    fn path_style_for_ips_localhost_and_unknown_hosts() {
        for host in [
            "127.0.0.1:10001",
            "localhost:10001",
            "[::1]:10001",
            "example.workers.dev",
        ] {
            let t = target(Some(host), "/devstoreaccount1-secondary/q", |a| {
                a == "devstoreaccount1"
            })
            .unwrap();
            assert_eq!(t.account, "devstoreaccount1", "{host}");
            assert!(t.secondary && t.path_style);
            assert_eq!(t.resource, Resource::Queue("q".into()));
        }
    }
}
