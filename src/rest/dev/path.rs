//! [`DevPath`]: a development request as the router (`route.rs`) read it, the value the rest of
//! its way carries: the service answers it from the engine (`answer.rs`), or the host does the
//! [`HostWork`] in it. A new development path is a variant here and a file of its own that
//! reads its request and answers it.

use super::host::HostWork;
#[cfg(feature = "inspector")]
use crate::engine::{MessageId, QueueName};

/// One development request, routed and admitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DevPath {
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
    Events(EventStream),
    /// `/_azqueue/faults[/<id>]`: the fault rules (`faults.rs`; the `faults` feature's).
    #[cfg(feature = "faults")]
    Faults(FaultsRequest),
    /// The host's to answer.
    Host(HostWork),
}

/// Which messages of a queue an inspection lists: those matching its filters (a state, a piece
/// of text, an id), `from` skipped, then up to `limit` (all when `None`); the engine's query.
/// Without the inspector (pkg/web, which has a size ceiling), a queue is listed whole, without
/// counts.
#[cfg(feature = "inspector")]
pub type Page = crate::engine::PageQuery;

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

/// What a request to `/_azqueue/faults[/<id>]` asks for. The body of a `POST` is read when it
/// is answered: whether its ids are free depends on the rules kept then.
#[cfg(feature = "faults")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultsRequest {
    Show,
    Add,
    Clear,
    Remove(String),
}

/// Why the router answers a development request itself rather than routing it: what a path's
/// reader (`route.rs`, `clock.rs`, …) says when the request is not one it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unrouted {
    /// No development path has this name (404).
    NoSuchPath,
    /// The path does not take this method (405; for `OPTIONS`, a preflight).
    Method,
    /// The path and method are right, the request is not: this status, and why.
    Refused(u16, String),
}

impl Unrouted {
    /// A 400: the request could not be read (why).
    pub fn bad(why: impl Into<String>) -> Self {
        Unrouted::Refused(400, why.into())
    }

    /// `Ok(())` when `method` is `allowed`, else [`Unrouted::Method`].
    pub fn unless(method: &str, allowed: &str) -> Result<(), Self> {
        if method == allowed {
            Ok(())
        } else {
            Err(Unrouted::Method)
        }
    }
}

/// What a `GET /_azqueue/events` asked of its stream (docs/inspector.md), carried on the answer's
/// head as an extension so a host that only sees the answer (the Node server's queue port through
/// `Connection`, its page port through `handleRaw`) writes the stream that was asked for: the
/// query is read here and nowhere else. Only the `inspector` feature's route makes one; the type
/// is there without it so a host's "is this a stream's head" needs no feature of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventStream {
    /// `per=queue`: one event per changed queue, at most every few hundred ms.
    pub summarised: bool,
    /// `requests=1` with `per=queue`: the request log as well.
    pub requests: bool,
}

#[cfg(feature = "inspector")]
impl EventStream {
    /// Reads a request's query; other parameters are left alone, as Azure leaves unknown ones.
    pub(super) fn parse(query: Option<&str>) -> Self {
        let mut stream = EventStream::default();
        let mut requests = false;
        for (name, value) in crate::rest::query::Query::parse(query).pairs() {
            match name.as_str() {
                "per" => stream.summarised = value == "queue",
                "requests" => requests = value == "1",
                _ => {}
            }
        }
        stream.requests = stream.summarised && requests;
        stream
    }
}
