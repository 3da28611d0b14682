//! Who is calling, and may they do this: SharedKey, SharedKeyLite, service SAS, account SAS,
//! and (with `--oauth basic`) Entra ID bearer tokens.
//!
//! Two steps, called by the request pipeline in this order:
//! 1. [`authenticate`] turns the request's credentials into a [`Principal`] (or a 4xx);
//! 2. [`authorize`] checks that principal against the routed [`Operation`].
//!
//! Invariants:
//! - Pure functions: no I/O, no clock (`wall` comes in [`AuthInput`]), no panics on any input.
//! - Every time check here (the request date's window, SAS start and expiry, a token's
//!   lifetime) is against the wall clock, never the clock the queues run on: the caller signs
//!   with its own real time, so moving the queues' clock (a test's virtual time) must not make
//!   its requests stale or its SAS expired.
//! - Neither a key nor an *expected* signature is ever written into an error, a `Debug` output
//!   or a log. Errors do carry the string-to-sign and the signature the *client* sent, because
//!   that is what the real service reports and what a developer needs to fix their signing.
//! - Signatures are compared only through HMAC's constant-time `verify_slice`.
//!
//! Depends on `crate::engine` (policies, permissions, time) and on `super::{error, query,
//! dates, route}` only.

mod account_sas;
mod authorization;
mod bearer;
mod claims;
pub mod header_order;
mod key;
mod permissions;
pub mod redact;
mod request_date;
mod sas;
mod service_sas;
pub mod shared_key;

pub use account_sas::{AccountSasFields, AccountSasPermissions, SasResourceTypes, SasServices};
pub use key::{AccountKey, Signature};
pub use permissions::authorize;
pub use request_date::MAX_CLOCK_SKEW_SECS;
pub use service_sas::ServiceSasFields;
pub use shared_key::{Scheme, Variant};

use super::config::OAuth;
use super::error::RestError;
use super::query::Query;
use crate::engine::{AccessPolicy, QueuePermissions, Timestamp};

/// What [`authenticate`] needs to know about one request.
#[derive(Clone, Copy, Debug)]
pub struct AuthInput<'a> {
    pub method: &'a str,
    /// The raw request path exactly as sent, still percent-encoded. Path-style requests include
    /// `/<account>` (possibly `/<account>-secondary`).
    pub path: &'a str,
    /// The raw query string as sent, without the `?`.
    pub query: Option<&'a str>,
    pub headers: &'a http::HeaderMap,
    /// The account addressed, without any `-secondary` suffix.
    pub account: &'a str,
    /// The queue segment of the resource (decoded), if the request targets a queue or below.
    pub queue: Option<&'a str>,
    pub https: bool,
    /// The caller's address, when the host knows it; `sip` is enforced only then.
    pub client_ip: Option<std::net::IpAddr>,
    /// The wall clock (not the queues' clock, which may be virtual): see the invariants above.
    pub wall: Timestamp,
    /// Whether bearer tokens are checked or refused.
    pub oauth: OAuth,
    /// The queue endpoint as the client addressed it (`https://host:port/account` path-style,
    /// `https://host` otherwise): a bearer token issued for it is accepted. May be empty.
    pub endpoint: &'a str,
}

/// Who a request authenticated as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    /// SharedKey or SharedKeyLite with one of the account's keys: full access.
    SharedKey,
    /// A queue service SAS; `permissions` are the effective ones, after merging the stored
    /// access policy named by `si`, if any.
    ServiceSas { permissions: QueuePermissions },
    /// An account SAS.
    AccountSas {
        services: SasServices,
        resource_types: SasResourceTypes,
        permissions: AccountSasPermissions,
    },
    /// A bearer token that passed `--oauth basic`'s checks: full access, as there is no RBAC.
    Bearer,
    /// No `Authorization` header and no `sig` in the query. Whether that is acceptable is the
    /// caller's decision (queues have no public access in Azure).
    Anonymous,
}

/// Checks the request's credentials against the account's keys.
///
/// Call once per request, after the account and queue name are known and before routing
/// errors that would leak resource existence. An `Authorization` header wins over a `sig`
/// query parameter; a SAS is an *account* SAS when it carries `ss` or `srt`, otherwise a
/// queue service SAS. `stored_policy` looks up a stored access policy of `input.queue` by its
/// identifier (used only for a service SAS with `si`).
///
/// # Errors
/// - `400 InvalidAuthenticationInfo`: malformed `Authorization` (no `account:signature`,
///   signature not base64).
/// - `403 AuthenticationFailed` (with `AuthenticationErrorDetail`): unknown scheme, `Bearer`
///   without `--oauth` or over HTTP, other account, missing / unparsable / skewed date,
///   signature mismatch, malformed or expired SAS, stored-policy conflicts.
/// - `401 InvalidAuthenticationInfo` with a `WWW-Authenticate` challenge: a bearer token whose
///   audience, issuer or lifetime does not check out (`--oauth basic`).
/// - `403 AuthorizationProtocolMismatch` / `AuthorizationSourceIPMismatch`: SAS `spr` / `sip`.
pub fn authenticate(
    input: &AuthInput,
    keys: &[AccountKey],
    stored_policy: &dyn Fn(&str) -> Option<AccessPolicy>,
) -> Result<Principal, RestError> {
    if let Some(value) = input.headers.get(http::header::AUTHORIZATION) {
        return authorization::authenticate(value, input, keys);
    }
    let query = Query::parse(input.query);
    if !query.has("sig") {
        return Ok(Principal::Anonymous);
    }
    if query.has("ss") || query.has("srt") {
        account_sas::authenticate(&query, input, keys)
    } else {
        service_sas::authenticate(&query, input, keys, stored_policy)
    }
}
