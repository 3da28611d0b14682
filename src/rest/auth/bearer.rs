//! `Authorization: Bearer <token>`: Microsoft Entra ID access tokens, checked as Azurite's
//! `--oauth basic` checks them.
//!
//! - Only over HTTPS (a token sent in clear text is refused before it is read).
//! - The token is a JWT whose payload names an accepted audience (`aud`), an Entra ID issuer
//!   (`iss`, v1 or v2 form) and a lifetime (`nbf` ≤ now ≤ `exp`). Its signature is not verified:
//!   that needs the tenant's signing keys, which an offline emulator cannot fetch. Tests sign
//!   tokens with any key.
//! - A valid token may do everything SharedKey may do (there is no RBAC here).
//!
//! Refusals are worded as the real service words them: `401 InvalidAuthenticationInfo`, the
//! message that points at `WWW-Authenticate`, a `Bearer authorization_uri=… resource_id=…`
//! challenge, and an `AuthenticationErrorDetail` naming the check that failed ("Audience
//! validation failed. Audience did not match.", "Issuer validation failed. Issuer did not
//! match.", "Lifetime validation failed. The token is expired."). Where no answer of the real
//! service is on record (a token that is not a JWT at all), the detail is ours.

use super::claims::{self, Claims};
use super::{AuthInput, Principal};
use crate::rest::error::{ErrorCode, RestError};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The first version that accepts bearer tokens.
const BEARER_SINCE: &str = "2017-11-09";

/// The storage resource, an audience for every account (with or without a trailing `/`).
const STORAGE_RESOURCE: &str = "https://storage.azure.com";

/// The storage resource's application id, which tokens may carry as their audience instead.
const STORAGE_APP_ID: &str = "e406a681-f3d4-42a8-90b6-c2b029497af1";

/// Per-account audiences in the public and sovereign clouds: `https://<account><suffix>`.
const ACCOUNT_AUDIENCE_SUFFIXES: [&str; 4] = [
    ".queue.core.windows.net",
    ".queue.core.chinacloudapi.cn",
    ".queue.core.usgovcloudapi.net",
    ".queue.core.cloudapi.de",
];

/// Entra ID v1 issuers (`https://sts.windows.net/<tenant>/`, the sovereign clouds' and Entra
/// ID's test issuer `https://sts.windows-ppe.net/<tenant>/`), as Azurite lists them.
const V1_ISSUERS: [&str; 4] = [
    "https://sts.windows.net/",
    "https://sts.microsoftonline.de/",
    "https://sts.chinacloudapi.cn/",
    "https://sts.windows-ppe.net/",
];

/// Entra ID v2 issuers: `https://login.microsoftonline.com/<tenant>/v2.0` and the same form in
/// the sovereign clouds.
const V2_ISSUER_HOSTS: [&str; 3] = [
    "https://login.microsoftonline.com/",
    "https://login.microsoftonline.us/",
    "https://login.chinacloudapi.cn/",
];

/// Checks a bearer token (`token` is what follows `Bearer `). Besides the storage resource,
/// `input.endpoint` (the queue endpoint the request addressed, `https://host/account`
/// path-style) is an accepted audience.
pub(super) fn authenticate(token: &str, input: &AuthInput) -> Result<Principal, RestError> {
    if !input.https {
        return Err(RestError::auth_failed(
            "Authentication scheme Bearer is not allowed with HTTP.",
        ));
    }
    let version = input
        .headers
        .get("x-ms-version")
        .and_then(|v| v.to_str().ok());
    if version.is_some_and(|v| v < BEARER_SINCE) {
        return Err(RestError::auth_failed(
            "Authentication scheme Bearer is not supported in this version.",
        ));
    }
    let claims = decode(token).ok_or_else(|| refused(None, "The access token is not a JWT."))?;
    let tenant = claims.tid.as_deref();
    let now_secs = (input.wall.as_millis() / 1000) as i64;
    let (Some(nbf), Some(exp)) = (seconds(claims.nbf), seconds(claims.exp)) else {
        return Err(refused(
            tenant,
            "Lifetime validation failed. The token is missing a NotBefore or an Expiration Time.",
        ));
    };
    if now_secs < nbf {
        return Err(refused(
            tenant,
            "Lifetime validation failed. The token is not yet valid.",
        ));
    }
    if now_secs >= exp {
        return Err(refused(
            tenant,
            "Lifetime validation failed. The token is expired.",
        ));
    }
    let issuer = claims.iss.as_deref().unwrap_or("");
    if !is_entra_issuer(issuer) {
        return Err(refused(
            tenant,
            "Issuer validation failed. Issuer did not match.",
        ));
    }
    let audiences: Vec<&str> = claims.aud.iter().map(String::as_str).collect();
    if !audiences
        .iter()
        .any(|a| is_audience(a, input.account, input.endpoint))
    {
        return Err(refused(
            tenant,
            "Audience validation failed. Audience did not match.",
        ));
    }
    Ok(Principal::Bearer)
}

/// The payload of a three-part JWT as a JSON object; `None` for anything else.
fn decode(token: &str) -> Option<Claims> {
    let mut parts = token.trim().split('.');
    let (_header, payload, _signature) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    // Base64url without padding, as JWTs are written; a padded one is tolerated.
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    // Parsed as a `str`: the store's records use that reader too, and a second reader (over
    // bytes) would be a second JSON parser in the wasm.
    claims::parse(std::str::from_utf8(&bytes).ok()?)
}

/// A NumericDate claim in whole seconds (JWTs may carry fractions).
fn seconds(claim: Option<f64>) -> Option<i64> {
    claim.map(|f| f.floor() as i64)
}

fn is_entra_issuer(iss: &str) -> bool {
    let v1 = V1_ISSUERS.iter().any(|prefix| {
        iss.strip_prefix(prefix)
            .is_some_and(|tenant| !tenant.trim_end_matches('/').is_empty())
    });
    let v2 = V2_ISSUER_HOSTS.iter().any(|host| {
        iss.strip_prefix(host)
            .and_then(|rest| rest.strip_suffix("/v2.0"))
            .is_some_and(|tenant| !tenant.is_empty() && !tenant.contains('/'))
    });
    v1 || v2
}

/// The storage resource, the account's own cloud endpoint, or the endpoint this emulator was
/// addressed at; a trailing `/` is allowed on the URLs.
fn is_audience(aud: &str, account: &str, endpoint: &str) -> bool {
    if aud == STORAGE_APP_ID {
        return true;
    }
    let url = aud.strip_suffix('/').unwrap_or(aud);
    if url == STORAGE_RESOURCE || (!endpoint.is_empty() && url == endpoint) {
        return true;
    }
    url.strip_prefix("https://").is_some_and(|host| {
        ACCOUNT_AUDIENCE_SUFFIXES
            .iter()
            .any(|suffix| host.strip_suffix(suffix) == Some(account))
    })
}

/// The real service's refusal of a token: 401, the challenge naming where to get a token.
fn refused(tenant: Option<&str>, detail: &str) -> RestError {
    let tenant = tenant
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .unwrap_or("common");
    RestError::new(ErrorCode::InvalidAuthenticationInfo)
        .worded(ErrorCode::NoAuthenticationInformation.message())
        .with_status(401)
        .with_header(
            "www-authenticate",
            format!(
                "Bearer authorization_uri=https://login.microsoftonline.com/{tenant}/oauth2/authorize resource_id={STORAGE_RESOURCE}"
            ),
        )
        .with("AuthenticationErrorDetail", detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuers() {
        for ok in [
            "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/",
            "https://sts.chinacloudapi.cn/t/",
            "https://sts.windows-ppe.net/ab1f708d-50f6-404c-a006-d71b2ac7a606/",
            "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
        ] {
            assert!(is_entra_issuer(ok), "{ok}");
        }
        for bad in [
            "",
            "https://sts.windows.net/",
            "https://login.microsoftonline.com/t/v1.0",
            "https://login.microsoftonline.com//v2.0",
            "https://evil.example/https://sts.windows.net/t/",
            "https://accounts.google.com",
        ] {
            assert!(!is_entra_issuer(bad), "{bad}");
        }
    }

    #[test]
    fn audiences() {
        let ep = "https://127.0.0.1:10001/devstoreaccount1";
        for ok in [
            "https://storage.azure.com",
            "https://storage.azure.com/",
            "e406a681-f3d4-42a8-90b6-c2b029497af1",
            "https://devstoreaccount1.queue.core.windows.net/",
            "https://devstoreaccount1.queue.core.usgovcloudapi.net",
            ep,
        ] {
            assert!(is_audience(ok, "devstoreaccount1", ep), "{ok}");
        }
        for bad in [
            "https://management.azure.com/",
            "https://other.queue.core.windows.net",
            "https://devstoreaccount1.blob.core.windows.net",
            "http://storage.azure.com",
            "https://127.0.0.1:10001/other",
        ] {
            assert!(!is_audience(bad, "devstoreaccount1", ep), "{bad}");
        }
    }

    #[test]
    fn only_three_part_tokens_with_a_json_object_payload_decode() {
        let payload = URL_SAFE_NO_PAD.encode(br#"{"aud":"x","exp":1.5}"#);
        let claims = decode(&format!("e30.{payload}.sig")).unwrap();
        assert_eq!(seconds(claims.exp), Some(1));
        assert!(decode(&format!("e30.{payload}")).is_none());
        assert!(decode(&format!("e30.{payload}.s.x")).is_none());
        assert!(decode("e30.WzFd.sig").is_none()); // `[1]`
        assert!(decode("e30.%%%.sig").is_none());
    }
}
