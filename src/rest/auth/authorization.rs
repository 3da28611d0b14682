//! The `Authorization` header: `SharedKey <account>:<signature>` and its Lite sibling, and
//! the hand-off of `Bearer <token>` to [`super::bearer`] when OAuth is on.
//!
//! Order of checks, as the service reports them: scheme, shape, account, date, signature.
//! The date comes before the signature so that a stale request is reported as stale even
//! when it was signed correctly.

use super::bearer;
use super::key::any_key_verifies;
use super::shared_key::{Scheme, candidates};
use super::{AccountKey, AuthInput, Principal, request_date};
use crate::rest::config::OAuth;
use crate::rest::error::{ErrorCode, RestError};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::HeaderValue;

/// A well-formed SharedKey / SharedKeyLite credential.
#[derive(Debug, PartialEq, Eq)]
struct Credential<'a> {
    scheme: Scheme,
    account: &'a str,
    /// The signature as the client wrote it (quoted back in mismatch errors).
    signature: &'a str,
}

fn malformed() -> RestError {
    RestError::new(ErrorCode::InvalidAuthenticationInfo)
}

/// Splits the header into scheme, account and signature.
///
/// # Errors
/// `400 InvalidAuthenticationInfo` for a shape that is not `<scheme> <account>:<signature>`;
/// `403 AuthenticationFailed` for a scheme other than SharedKey / SharedKeyLite.
fn parse(value: &HeaderValue) -> Result<Credential<'_>, RestError> {
    let text = value.to_str().map_err(|_| malformed())?.trim();
    let (scheme, rest) = text
        .split_once(|c: char| c.is_ascii_whitespace())
        .unwrap_or((text, ""));
    let scheme = match scheme {
        "SharedKey" => Scheme::SharedKey,
        "SharedKeyLite" => Scheme::SharedKeyLite,
        "" => return Err(malformed()),
        // Reached only without `--oauth`: say how to turn it on rather than pretend.
        s if s.eq_ignore_ascii_case("Bearer") => {
            return Err(RestError::auth_failed(
                "Authentication scheme Bearer is not supported by this emulator unless it \
                 runs with --oauth basic over HTTPS; use SharedKey, SharedKeyLite or a shared \
                 access signature",
            ));
        }
        other => {
            return Err(RestError::auth_failed(format!(
                "Authentication scheme {other} is not supported"
            )));
        }
    };
    let (account, signature) = rest.trim().split_once(':').ok_or_else(malformed)?;
    if account.is_empty() || signature.is_empty() {
        return Err(malformed());
    }
    Ok(Credential {
        scheme,
        account,
        signature,
    })
}

/// Authenticates a request that carries an `Authorization` header.
pub(super) fn authenticate(
    value: &HeaderValue,
    input: &AuthInput,
    keys: &[AccountKey],
) -> Result<Principal, RestError> {
    if input.oauth == OAuth::Basic {
        let text = value.to_str().map_err(|_| malformed())?.trim();
        let (scheme, token) = text
            .split_once(|c: char| c.is_ascii_whitespace())
            .unwrap_or((text, ""));
        if scheme.eq_ignore_ascii_case("Bearer") {
            return bearer::authenticate(token, input);
        }
    }
    let cred = parse(value)?;
    let provided = STANDARD.decode(cred.signature).map_err(|_| malformed())?;
    if cred.account != input.account {
        return Err(RestError::auth_failed(format!(
            "The account '{}' in the Authorization header does not match the account '{}' \
             addressed by the request",
            cred.account, input.account
        )));
    }
    request_date::check(input.headers, input.wall)?;
    let tried = candidates(cred.scheme, input);
    if tried
        .iter()
        .any(|sts| any_key_verifies(keys, sts, &provided))
    {
        return Ok(Principal::SharedKey);
    }
    // Report the SDK-form string-to-sign: it is the one a developer compares with their own.
    let shown = tried.first().map(String::as_str).unwrap_or("");
    Err(RestError::auth_failed(format!(
        "The MAC signature found in the HTTP request '{}' is not the same as any computed \
         signature. Server used following string to sign: '{shown}'.",
        cred.signature
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(v: &'static str) -> Result<(Scheme, String, String), ErrorCode> {
        let value = HeaderValue::from_static(v);
        parse(&value)
            .map(|c| (c.scheme, c.account.to_owned(), c.signature.to_owned()))
            .map_err(|e| e.code)
    }

    #[test]
    fn shapes() {
        use ErrorCode::*;
        let ok = |s: Scheme| Ok((s, "acct".to_owned(), "c2ln".to_owned()));
        assert_eq!(parsed("SharedKey acct:c2ln"), ok(Scheme::SharedKey));
        assert_eq!(
            parsed("SharedKeyLite  acct:c2ln "),
            ok(Scheme::SharedKeyLite)
        );
        for bad in [
            "SharedKey acct",
            "SharedKey :sig",
            "SharedKey acct:",
            "SharedKey",
            "",
        ] {
            assert_eq!(parsed(bad), Err(InvalidAuthenticationInfo), "{bad}");
        }
        assert_eq!(parsed("Basic dXNlcg=="), Err(AuthenticationFailed));
        assert_eq!(parsed("Bearer eyJ0eXAi"), Err(AuthenticationFailed));
        assert_eq!(parsed("sharedkey acct:c2ln"), Err(AuthenticationFailed));
    }

    #[test]
    fn unknown_scheme_is_named() {
        let e = parse(&HeaderValue::from_static("Digest x")).unwrap_err();
        assert_eq!(
            e.details,
            vec![(
                "AuthenticationErrorDetail",
                "Authentication scheme Digest is not supported".to_owned()
            )]
        );
    }
}
