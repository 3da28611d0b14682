//! Each request is read once into a [`Route`], which the rest of its way carries: the host
//! decides by it whether the request is its own work (`dev::HostWork`) and whether it is a Put
//! that writes one row ([`Service::puts_one_row`](super::Service::puts_one_row)), and the service
//! answers by it ([`Service::answer`](super::Service::answer)), so no part reads the path,
//! the query or the operation again.

use super::config::ServiceConfig;
use super::dev::{self, DevPath};
use super::error::RestError;
use super::query::Query;
use super::route::{self, Operation, Target};
use crate::engine::Emulator;
use http::{Request, Response};

/// A request as the service reads it, before it is answered.
#[derive(Debug)]
pub enum Route {
    /// Under `/_azqueue/`: a development path, routed and admitted, or the answer the router
    /// gives itself (paths off, the guard, a preflight, an unknown path or method, a bad body).
    Dev(Result<DevPath, Response<Vec<u8>>>),
    /// Anything else: an Azure request.
    Azure(AzureRoute),
}

/// An Azure request's reading: its query, and where it is addressed with the operation it
/// names. The errors are kept, not raised, because Azure raises them at their own step of the
/// pipeline: an unknown address first, an unknown operation only after authentication.
#[derive(Debug)]
pub struct AzureRoute {
    pub query: Query,
    pub addressed: Result<Addressed, RestError>,
}

/// The account and resource a request is addressed to, and the operation it names there.
#[derive(Debug)]
pub struct Addressed {
    pub target: Target,
    pub operation: Result<Operation, RestError>,
}

impl Route {
    /// Reads `req`. `config` says which accounts exist (host-style addressing) and whether the
    /// development paths are on; `emu` holds the accounts' CORS rules, which the development
    /// paths' guard consults.
    pub fn read(config: &ServiceConfig, emu: &Emulator, req: &Request<Vec<u8>>) -> Route {
        if let Some(routed) = dev::route(config, emu, req) {
            return Route::Dev(routed);
        }
        let uri = req.uri();
        let query = Query::parse(uri.query());
        let addressed = route::target(host_of(req), uri.path(), |a| config.account(a).is_some())
            .map(|target| Addressed {
                operation: route::route(req.method().as_str(), &target.resource, &query),
                target,
            });
        Route::Azure(AzureRoute { query, addressed })
    }

    /// The Azure operation, when the request names one at an account.
    pub fn operation(&self) -> Option<(&Target, Operation)> {
        match self {
            Route::Azure(AzureRoute {
                addressed:
                    Ok(Addressed {
                        target,
                        operation: Ok(op),
                    }),
                ..
            }) => Some((target, *op)),
            _ => None,
        }
    }
}

/// Where a request is addressed: its URI's authority, else its `Host` header.
pub(super) fn host_of(req: &Request<Vec<u8>>) -> Option<&str> {
    req.uri().authority().map(|a| a.as_str()).or_else(|| {
        req.headers()
            .get(http::header::HOST)
            .and_then(|h| h.to_str().ok())
    })
}
