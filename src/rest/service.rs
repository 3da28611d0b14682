//! The request pipeline: address → version → queue name → credentials → operation →
//! permission → the operation itself → common headers and CORS.

use super::auth::{AccountKey, AuthInput, Principal, authenticate, authorize};
use super::config::ServiceConfig;
use super::cors;
use super::dates::rfc1123;
use super::dev::{self, Serving};
use super::error::{ErrorCode, RestError};
#[cfg(feature = "faults")]
use super::faults::FaultRequest;
use super::faults::{Fault, Faults};
use super::ops::{self, OpContext, Reply};
use super::query::Query;
use super::render::{render_faulted, render_ran, set};
use super::route::{Operation, Target};
use super::routed::{Addressed, AzureRoute, Route, host_of};
use crate::engine::{Emulator, Entropy, OsEntropy, QueueName, Timestamp};
use crate::http_extensions::{ClientAddress, SecureTransport, Spelling};
use http::{HeaderMap, HeaderValue, Request, Response};

pub use super::render::render_error;

/// The version answered when the request names none (the newest the SDKs send).
pub const DEFAULT_VERSION: &str = "2026-04-06";

/// The two readings one request is answered at. The queues run on `queue` (visibility, delays,
/// time to live, the times in answers), which a test may have moved ahead of real time;
/// authentication runs on `wall` (request-date window, SAS start and expiry, token lifetime),
/// because every client stamps and signs its requests with its own real clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub queue: Timestamp,
    pub wall: Timestamp,
}

impl Clocks {
    /// Both readings the same: a service whose queues run on real time.
    pub fn real(now: Timestamp) -> Self {
        Clocks {
            queue: now,
            wall: now,
        }
    }
}

/// The REST face of an [`Emulator`].
pub struct Service {
    config: ServiceConfig,
    keys: Vec<(String, Vec<AccountKey>)>,
    emu: Emulator,
    request_ids: Box<dyn Entropy>,
    faults: Faults,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("config", &self.config)
            .field("emulator", &self.emu)
            .finish()
    }
}

/// What the request asked for, read once.
struct Incoming<'a> {
    method: &'a str,
    host: Option<&'a str>,
    path: &'a str,
    raw_query: Option<&'a str>,
    query: &'a Query,
    headers: &'a HeaderMap,
    /// Header names as sent, when the host attached them.
    spelling: Option<&'a Spelling>,
    https: bool,
    /// Where the request came from, when the host knows ([`ClientAddress`]).
    client_ip: Option<std::net::IpAddr>,
}

impl Service {
    pub fn new(config: ServiceConfig, emulator: Emulator) -> Self {
        let keys = config
            .accounts
            .iter()
            .map(|a| {
                (
                    a.name.clone(),
                    a.keys
                        .iter()
                        .filter_map(|k| AccountKey::from_base64(k))
                        .collect(),
                )
            })
            .collect();
        Service {
            config,
            keys,
            emu: emulator,
            request_ids: Box::new(OsEntropy),
            faults: Faults::default(),
        }
    }

    /// Draws request ids from `entropy` instead of the platform (reproducible responses).
    pub fn with_request_ids(mut self, entropy: Box<dyn Entropy>) -> Self {
        self.request_ids = entropy;
        self
    }

    pub fn emulator(&self) -> &Emulator {
        &self.emu
    }

    pub fn emulator_mut(&mut self) -> &mut Emulator {
        &mut self.emu
    }

    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// The fault rules and limits every Azure request is decided by (`faults/`).
    pub fn faults(&self) -> &Faults {
        &self.faults
    }

    pub fn faults_mut(&mut self) -> &mut Faults {
        &mut self.faults
    }

    /// Answers by `faults` from now on (a host's configured rules and limits).
    pub fn with_faults(mut self, faults: Faults) -> Self {
        self.faults = faults;
        self
    }

    /// Answers one request at `now`, for queues and authentication alike. Never panics; Azure
    /// errors are responses. Drain `emulator_mut().take_changes()` into the store before
    /// sending the response.
    pub fn handle(&mut self, now: Timestamp, req: &Request<Vec<u8>>) -> Response<Vec<u8>> {
        self.handle_at(Clocks::real(now), req)
    }

    /// [`Service::handle`] with the queues' clock apart from the wall clock ([`Clocks`]).
    pub fn handle_at(&mut self, clocks: Clocks, req: &Request<Vec<u8>>) -> Response<Vec<u8>> {
        let route = self.route(req);
        self.answer(clocks, req, route)
    }

    /// Reads `req` once into the [`Route`] that [`Service::answer`] and
    /// [`Service::puts_one_row`] take, and a host looks at for its own work.
    pub fn route(&self, req: &Request<Vec<u8>>) -> Route {
        Route::read(&self.config, &self.emu, req)
    }

    /// Answers `req`, read as `route` by [`Service::route`] with nothing in between that
    /// changed the service. Never panics; Azure errors are responses.
    pub fn answer(
        &mut self,
        clocks: Clocks,
        req: &Request<Vec<u8>>,
        route: Route,
    ) -> Response<Vec<u8>> {
        let now = clocks.queue;
        let request_id = self.new_request_id();
        let azure = match route {
            // Inspection and the inspector's actions are answered here (the actions' changes are
            // drained by the host as any operation's); what needs the host's store or clock is
            // the host's (`dev::HostWork`), and a bare service says so.
            Route::Dev(routed) => {
                let serving = Serving {
                    config: &self.config,
                    emu: &mut self.emu,
                    faults: &mut self.faults,
                    now,
                };
                let mut resp = dev::answer(serving, req, routed);
                set(resp.headers_mut(), "x-ms-request-id", &request_id);
                return resp;
            }
            Route::Azure(azure) => azure,
        };
        let AzureRoute { query, addressed } = azure;
        let uri = req.uri();
        let incoming = Incoming {
            method: req.method().as_str(),
            host: host_of(req),
            path: uri.path(),
            raw_query: uri.query(),
            query: &query,
            headers: req.headers(),
            spelling: req.extensions().get::<Spelling>(),
            https: uri.scheme_str() == Some("https")
                || req.extensions().get::<SecureTransport>().is_some(),
            client_ip: req.extensions().get::<ClientAddress>().map(|a| a.0),
        };
        let version = response_version(&incoming);
        let (served, target) = match addressed {
            Ok(Addressed { target, operation }) => (
                self.dispatch(clocks, &incoming, &version, req.body(), &target, operation),
                Some(target),
            ),
            Err(e) => (Err(e), None),
        };
        let bom = self.config.emit_bom;
        let mut resp = match served {
            Err(e) => render_error(&e, &request_id, now, bom),
            Ok(Served { fault: None, ran }) => render_ran(ran, &request_id, now, bom),
            Ok(Served {
                fault: Some(fault),
                ran,
            }) => render_faulted(&fault, ran, &request_id, now, bom),
        };
        let h = resp.headers_mut();
        set(h, "x-ms-request-id", &request_id);
        set(h, "x-ms-version", &version);
        set(h, "date", &rfc1123(now));
        set(h, "server", concat!("azqueue/", env!("CARGO_PKG_VERSION")));
        if let Some(id) = incoming.headers.get("x-ms-client-request-id") {
            if id.len() <= 1024 && id.as_bytes().iter().all(|b| (0x20..0x7f).contains(b)) {
                h.insert("x-ms-client-request-id", id.clone());
            }
        }
        if incoming.method == "HEAD" {
            resp.body_mut().clear();
        }
        if incoming.method != "OPTIONS" {
            if let Some(t) = &target {
                let rules = &self.emu.service_properties_ref(&t.account).cors;
                if !rules.is_empty() {
                    for (name, value) in cors::actual_response_headers(
                        rules,
                        incoming.method,
                        incoming.headers,
                        resp.headers(),
                    ) {
                        if let Ok(v) = HeaderValue::from_str(&value) {
                            resp.headers_mut().insert(name, v);
                        }
                    }
                }
            }
        }
        resp
    }

    fn new_request_id(&mut self) -> String {
        let mut bytes = [0u8; 16];
        self.request_ids.fill(&mut bytes);
        uuid::Builder::from_random_bytes(bytes)
            .into_uuid()
            .hyphenated()
            .to_string()
    }

    /// Whether answering `route` at `clocks` would be a Put Message that writes one row of its
    /// queue's table and nothing else ([`Emulator::puts_one_row`]). False says only "not known":
    /// a refused request writes nothing either way.
    pub fn puts_one_row(&self, clocks: Clocks, route: &Route) -> bool {
        match route.operation() {
            Some((target, Operation::PutMessage)) if !target.secondary => {
                match target.resource.queue().map(QueueName::parse) {
                    Some(Ok(name)) => self.emu.puts_one_row(clocks.queue, &target.account, &name),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Every step up to the operation, then the fault rules and limits, then the operation
    /// unless a fault answers before it. `Err` is a refusal on the way (no fault is decided for
    /// a request that would not have reached the operation).
    fn dispatch(
        &mut self,
        clocks: Clocks,
        inc: &Incoming,
        version: &str,
        body: &[u8],
        target: &Target,
        operation: Result<Operation, RestError>,
    ) -> Result<Served, RestError> {
        let Some((_, keys)) = self.keys.iter().find(|(name, _)| *name == target.account) else {
            return Err(RestError::new(ErrorCode::ResourceNotFound));
        };
        check_version(inc)?;
        if inc.method == "OPTIONS" {
            let rules = &self.emu.service_properties_ref(&target.account).cors;
            let headers = cors::preflight(rules, inc.headers)?;
            let mut reply = Reply::status(200);
            for (name, value) in headers {
                reply = reply.header(name.as_str().to_owned(), value);
            }
            return Ok(Served {
                fault: None,
                ran: Some(Ok(reply)),
            });
        }
        let queue = target.resource.queue();
        if let Some(q) = queue {
            QueueName::parse(q)?;
        }
        let endpoint = endpoint(inc, target);
        let emu = &self.emu;
        let account = target.account.as_str();
        let policy = |id: &str| {
            let name = QueueName::parse(queue?).ok()?;
            let acl = emu.queue(account, &name).ok()?.acl();
            acl.iter().find(|s| s.id == id).map(|s| s.policy.clone())
        };
        let auth = AuthInput {
            method: inc.method,
            path: inc.path,
            query: inc.raw_query,
            headers: inc.headers,
            account,
            queue,
            https: inc.https,
            client_ip: inc.client_ip,
            wall: clocks.wall,
            oauth: self.config.oauth,
            endpoint: &endpoint,
        };
        let principal = authenticate(&auth, keys, &policy)?;
        if matches!(principal, Principal::Anonymous) && !self.config.anonymous {
            return Err(RestError::new(ErrorCode::NoAuthenticationInformation));
        }
        let op = operation?;
        authorize(&principal, op)?;
        if target.secondary && !is_read(op) {
            return Err(RestError::new(ErrorCode::AuthorizationFailure));
        }
        // `timeout` is accepted on every operation and must be an integer; the service reduces
        // values above 30, and an emulator finishes well within any of them.
        inc.query.int32("timeout")?;
        check_length(inc)?;
        // Faults are decided here, after every check a request can fail on its own: a rule
        // makes the service fail a request it would have served, so a request with a bad
        // signature or a missing permission still gets its own refusal, which names the
        // client's mistake, and a fault's `before` means exactly "instead of the operation".
        #[cfg(feature = "faults")]
        let fault = self.faults.decide(
            clocks.queue,
            &FaultRequest {
                account,
                queue,
                operation: op,
                messages: messages_asked(op, inc.query),
            },
        );
        #[cfg(not(feature = "faults"))]
        let fault: Option<Fault> = None;
        if fault.as_ref().is_some_and(|f| !f.applies()) {
            return Ok(Served { fault, ran: None });
        }
        let mut ctx = OpContext {
            emu: &mut self.emu,
            now: clocks.queue,
            target,
            query: inc.query,
            headers: inc.headers,
            body,
            bom: self.config.emit_bom,
            endpoint,
            version,
            spelling: inc.spelling,
        };
        Ok(Served {
            ran: Some(run(op, &mut ctx)),
            fault,
        })
    }
}

/// A request that passed every check: the fault decided for it, if any, and the operation's
/// result, unless the fault answered before it ran.
struct Served {
    fault: Option<Fault>,
    ran: Option<Result<Reply, RestError>>,
}

#[cfg(feature = "faults")]
/// How many messages a request asks to move, as the per-queue limit counts them: Get and Peek
/// Messages their `numofmessages` (1 when absent or unreadable: the operation refuses a bad
/// one itself), every other request 1.
fn messages_asked(op: Operation, query: &Query) -> u32 {
    match op {
        Operation::GetMessages | Operation::PeekMessages => query
            .get("numofmessages")
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(1),
        _ => 1,
    }
}

fn run(op: Operation, ctx: &mut OpContext) -> Result<Reply, RestError> {
    use Operation::*;
    match op {
        ListQueues => ops::service::list_queues(ctx),
        GetServiceProperties => ops::service::get_properties(ctx),
        SetServiceProperties => ops::service::set_properties(ctx),
        GetServiceStats => ops::service::get_stats(ctx),
        CreateQueue => ops::queue::create(ctx),
        DeleteQueue => ops::queue::delete(ctx),
        GetQueueMetadata => ops::queue::get_metadata(ctx),
        SetQueueMetadata => ops::queue::set_metadata(ctx),
        GetQueueAcl => ops::queue::get_acl(ctx),
        SetQueueAcl => ops::queue::set_acl(ctx),
        PutMessage => ops::messages::put(ctx),
        GetMessages => ops::messages::get(ctx),
        PeekMessages => ops::messages::peek(ctx),
        ClearMessages => ops::messages::clear(ctx),
        DeleteMessage => ops::message_id::delete(ctx),
        UpdateMessage => ops::message_id::update(ctx),
        // Preflight is answered before authentication.
        Preflight => Err(RestError::new(ErrorCode::UnsupportedHttpVerb)),
    }
}

/// Operations the read-only secondary endpoint serves.
fn is_read(op: Operation) -> bool {
    use Operation::*;
    matches!(
        op,
        ListQueues
            | GetServiceProperties
            | GetServiceStats
            | GetQueueMetadata
            | GetQueueAcl
            | PeekMessages
    )
}

/// `scheme://host[/account]` as the client addressed the service.
fn endpoint(inc: &Incoming, target: &Target) -> String {
    let scheme = if inc.https { "https" } else { "http" };
    let host = inc.host.unwrap_or("localhost");
    if target.path_style {
        let first = inc
            .path
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or("");
        format!("{scheme}://{host}/{first}")
    } else {
        format!("{scheme}://{host}")
    }
}

/// The version to echo: `x-ms-version`, else a SAS's `api-version` or `sv`, else ours.
fn response_version(inc: &Incoming) -> String {
    inc.headers
        .get("x-ms-version")
        .and_then(|v| v.to_str().ok())
        .filter(|v| is_version(v))
        .or_else(|| inc.query.get("api-version").filter(|v| is_version(v)))
        .or_else(|| inc.query.get("sv").filter(|v| is_version(v)))
        .unwrap_or(DEFAULT_VERSION)
        .to_owned()
}

/// Any well-formed version is served: there is no "unsupported version" wall, so SDKs newer
/// than this emulator keep working.
///
/// `api-version` and `x-ms-version` together are refused only when they disagree: the npm
/// `azure-storage` 2.x library puts `api-version` on every SAS URL and sends the same version
/// in the header, and the real service serves those requests (as Azurite does).
fn check_version(inc: &Incoming) -> Result<(), RestError> {
    let header = inc.headers.get("x-ms-version");
    if let (Some(h), Some(q)) = (header, inc.query.get("api-version")) {
        if h.as_bytes() != q.trim().as_bytes() {
            return Err(RestError::new(ErrorCode::MultipleVersionsSpecified));
        }
    }
    match header.map(|v| v.to_str()) {
        None => Ok(()),
        Some(Ok(v)) if is_version(v) => Ok(()),
        Some(v) => Err(RestError::new(ErrorCode::InvalidHeaderValue)
            .with("HeaderName", "x-ms-version")
            .with("HeaderValue", v.unwrap_or(""))),
    }
}

/// A body sent without a length (chunked) on a write: the service requires `Content-Length`
/// there. A write with no body at all needs none.
fn check_length(inc: &Incoming) -> Result<(), RestError> {
    let write = inc.method == "PUT" || inc.method == "POST";
    if write
        && inc.headers.contains_key(http::header::TRANSFER_ENCODING)
        && !inc.headers.contains_key(http::header::CONTENT_LENGTH)
    {
        return Err(RestError::new(ErrorCode::MissingContentLengthHeader));
    }
    Ok(())
}

fn is_version(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}
