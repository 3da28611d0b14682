//! The credential the SDK clients get: an account SAS for the development account.
//!
//! The Rust SDK authenticates with a `TokenCredential` (Entra ID bearer tokens, HTTPS only) or
//! with whatever SAS is already in the URL; it has no Shared Key or connection strings. A SAS
//! works over the transport's `http://` URL with the service's default configuration, and is
//! checked by the same code as a real client's; a bearer token would need HTTPS, `--oauth`
//! and a token whose lifetime the SDK measures on the wall clock, not the virtual one.

use crate::rest::auth::{AccountKey, AccountSasFields};
use crate::rest::config::{DEV_ACCOUNT, DEV_KEY};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

/// Queue service only; service, queue and message resources; every queue permission. No
/// start time and an expiry at the last instant Azure can express, so the token is valid
/// wherever a test sets the virtual clock.
const FIELDS: AccountSasFields<'static> = AccountSasFields {
    sv: "2025-11-05",
    ss: "q",
    srt: "sco",
    sp: "rwdlacup",
    st: "",
    se: "9999-12-31T23:59:59Z",
    sip: "",
    spr: "",
    ses: "",
};

/// The query string (no `?`) of the development account's SAS.
pub(super) fn dev_account_sas() -> String {
    // The development key is a valid base64 constant, so this cannot fail; an empty signature
    // would only make every request a clear 403.
    let sig = AccountKey::from_base64(DEV_KEY)
        .map(|key| key.sign(&FIELDS.string_to_sign(DEV_ACCOUNT)).to_base64())
        .unwrap_or_default();
    let f = FIELDS;
    format!(
        "sv={}&ss={}&srt={}&sp={}&se={}&sig={}",
        f.sv,
        f.ss,
        f.srt,
        f.sp,
        utf8_percent_encode(f.se, NON_ALPHANUMERIC),
        utf8_percent_encode(&sig, NON_ALPHANUMERIC),
    )
}
