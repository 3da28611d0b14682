//! The answer to a routed development request: the router's own (a refusal, a preflight), the
//! service's from the engine (inspection in `views.rs`, the inspector's actions in `act.rs`,
//! the event stream's head), or the host's for its [`HostWork`](super::host::HostWork)
//! (rendered by `host.rs`). Each is made readable by an opted-in origin (`cors.rs`) here, so
//! every answer under `/_azqueue/` has one shape whichever side gave it.

use super::host::{self, HostDone};
use super::json::refuse;
use super::path::DevPath;
use crate::engine::{Emulator, Timestamp};
use crate::rest::config::ServiceConfig;
use crate::rest::faults::Faults;
use http::{Request, Response};

/// The content type of the event stream's head. A host knows that head by the
/// [`EventStream`](super::path::EventStream) it carries, not by this.
#[cfg(feature = "inspector")]
const EVENT_STREAM: &str = "text/event-stream";

/// What the service answers a development request from: its configuration and engine, at the
/// queues' clock's reading.
#[derive(Debug)]
pub struct Serving<'a> {
    pub config: &'a ServiceConfig,
    pub emu: &'a mut Emulator,
    pub faults: &'a mut Faults,
    pub now: Timestamp,
}

/// The service's answer to `req`, which the router read as `routed` (`route::route`). A path
/// for the host is answered 501 here: a service without a host has no store or clock to give.
pub fn answer(
    serving: Serving<'_>,
    req: &Request<Vec<u8>>,
    routed: Result<DevPath, Response<Vec<u8>>>,
) -> Response<Vec<u8>> {
    let config = serving.config;
    let answer = match routed {
        Err(answer) => answer,
        Ok(path) => from_service(serving, path, req.body()),
    };
    readable(config, req, answer)
}

fn from_service(serving: Serving<'_>, path: DevPath, body: &[u8]) -> Response<Vec<u8>> {
    let Serving {
        emu, faults, now, ..
    } = serving;
    #[cfg(not(feature = "faults"))]
    let _ = (faults, body);
    match path {
        DevPath::InspectAccount { account } => super::views::account(emu, now, &account),
        DevPath::InspectQueue {
            account,
            queue,
            #[cfg(feature = "inspector")]
            page,
        } => super::views::queue(
            emu,
            now,
            &account,
            &queue,
            #[cfg(feature = "inspector")]
            page,
        ),
        #[cfg(feature = "inspector")]
        DevPath::Act {
            account,
            queue,
            action,
        } => super::act::act(emu, now, &account, &queue, &action),
        #[cfg(feature = "inspector")]
        DevPath::Events(stream) => {
            let mut head = super::json::json(200, String::new());
            head.extensions_mut().insert(stream);
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
        #[cfg(feature = "faults")]
        DevPath::Faults(request) => super::faults::answer(faults, request, body),
        DevPath::Host(_) => refuse(
            501,
            "this path is answered by the host that holds the store",
        ),
    }
}

/// The answer to `req` for what the host made of its work.
pub fn host_answer(
    config: &ServiceConfig,
    req: &Request<Vec<u8>>,
    done: HostDone,
) -> Response<Vec<u8>> {
    readable(config, req, host::render(done))
}

/// `response`, readable by the requesting page when the server opted in to its origin
/// (`cors.rs`, the `inspector` feature's: without it, no other origin ever is).
fn readable(
    config: &ServiceConfig,
    req: &Request<Vec<u8>>,
    response: Response<Vec<u8>>,
) -> Response<Vec<u8>> {
    // Off (real accounts configured) means off: no grant either.
    #[cfg(feature = "inspector")]
    if config.inspect {
        return super::cors::allow(config, req, response);
    }
    let _ = (config, req);
    response
}
