//! CORS: answering preflight (`OPTIONS`) requests and decorating actual responses from the
//! account's stored rules.
//!
//! Where Azurite and the real service differ, this follows the real service: origins compare
//! case-sensitively, and a preflight whose headers the first method+origin match refuses fails
//! even if a later rule would allow them. Methods and header names compare case-insensitively
//! (HTTP defines them so). A rule allows every origin when its list contains `*`.
//!
//! <https://learn.microsoft.com/rest/api/storageservices/cross-origin-resource-sharing--cors--support-for-the-azure-storage-services>

use crate::engine::CorsRule;
use crate::rest::error::{ErrorCode, RestError};
use http::header::{self, HeaderMap, HeaderName};

/// Answers a [Preflight Queue Request](https://learn.microsoft.com/rest/api/storageservices/preflight-queue-request):
/// the headers of the `200` response when a rule allows the request.
///
/// Call it for every `OPTIONS` request, before authentication (preflights are anonymous).
///
/// # Errors
/// `400 InvalidHeaderValue` ("A required CORS header is not present.") without `Origin` or
/// `Access-Control-Request-Method`; `403 CorsPreflightFailure` when no rule matches or the
/// first matching rule does not allow every requested header.
pub fn preflight(
    rules: &[CorsRule],
    headers: &HeaderMap,
) -> Result<Vec<(HeaderName, String)>, RestError> {
    let missing = || {
        RestError::new(ErrorCode::InvalidHeaderValue)
            .worded("A required CORS header is not present.")
    };
    let origin = header_text(headers, &header::ORIGIN).ok_or_else(missing)?;
    let method =
        header_text(headers, &header::ACCESS_CONTROL_REQUEST_METHOD).ok_or_else(missing)?;
    let requested = requested_headers(headers);

    let failure = || RestError::new(ErrorCode::CorsPreflightFailure);
    let rule = first_match(rules, &method, Some(&origin)).ok_or_else(failure)?;
    let allowed = |h: &str| list(&rule.allowed_headers).any(|entry| header_matches(entry, h));
    if let Some(req) = &requested {
        if !list(req).all(allowed) {
            return Err(failure());
        }
    }

    let mut out = vec![
        (header::ACCESS_CONTROL_ALLOW_ORIGIN, origin),
        (header::ACCESS_CONTROL_ALLOW_METHODS, method),
    ];
    if let Some(req) = requested {
        out.push((header::ACCESS_CONTROL_ALLOW_HEADERS, req));
    }
    out.push((
        header::ACCESS_CONTROL_MAX_AGE,
        rule.max_age_in_seconds.to_string(),
    ));
    out.push((header::ACCESS_CONTROL_ALLOW_CREDENTIALS, "true".to_owned()));
    Ok(out)
}

/// The CORS headers to add to the response of an actual (non-`OPTIONS`) request, given the
/// response's own headers (needed for `Access-Control-Expose-Headers`).
///
/// Call it after the operation (success or error) has produced its headers, and append the
/// result. GET and HEAD get headers even without `Origin`, as the real service sends them.
pub fn actual_response_headers(
    rules: &[CorsRule],
    method: &str,
    request: &HeaderMap,
    response: &HeaderMap,
) -> Vec<(HeaderName, String)> {
    let origin = header_text(request, &header::ORIGIN);
    let get_or_head = method.eq_ignore_ascii_case("GET") || method.eq_ignore_ascii_case("HEAD");
    if rules.is_empty() || (origin.is_none() && !get_or_head) {
        return Vec::new();
    }
    let Some(rule) = first_match(rules, method, origin.as_deref()) else {
        // Caches must not reuse this answer for an origin a rule might match.
        return if get_or_head {
            vec![(header::VARY, "Origin".to_owned())]
        } else {
            Vec::new()
        };
    };
    let expose = (
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        exposed(rule, response),
    );
    match origin {
        Some(origin) if !allows_any_origin(rule) => {
            let mut out = vec![
                expose,
                (header::ACCESS_CONTROL_ALLOW_ORIGIN, origin),
                (header::ACCESS_CONTROL_ALLOW_CREDENTIALS, "true".to_owned()),
            ];
            if get_or_head {
                out.push((header::VARY, "Origin".to_owned()));
            }
            out
        }
        // A wildcard rule answers `*`: the same for every origin, so no Vary.
        _ => vec![
            expose,
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*".to_owned()),
        ],
    }
}

/// The first rule allowing `method` from `origin` (a missing origin only matches `*` rules).
fn first_match<'a>(
    rules: &'a [CorsRule],
    method: &str,
    origin: Option<&str>,
) -> Option<&'a CorsRule> {
    rules.iter().find(|r| {
        list(&r.allowed_methods).any(|m| m.eq_ignore_ascii_case(method))
            && (allows_any_origin(r)
                || origin.is_some_and(|o| list(&r.allowed_origins).any(|a| a == o)))
    })
}

fn allows_any_origin(rule: &CorsRule) -> bool {
    list(&rule.allowed_origins).any(|o| o == "*")
}

/// Whether a rule's header entry (`*`, `prefix*` or a literal name) covers `name`.
fn header_matches(entry: &str, name: &str) -> bool {
    match entry.strip_suffix('*') {
        Some(prefix) => name
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix)),
        None => entry.eq_ignore_ascii_case(name),
    }
}

/// `Access-Control-Expose-Headers`: the response's header names that the rule's exposed list
/// covers, in response order, then the list's literal names not already named. The real
/// service adds `Content-Length`, `Date` and `Transfer-Encoding` after the others (its
/// transport writes them), so they are placed last here too.
fn exposed(rule: &CorsRule, response: &HeaderMap) -> String {
    const TRANSPORT: [&str; 3] = ["Content-Length", "Date", "Transfer-Encoding"];
    let names = response
        .keys()
        .map(|k| display_name(k.as_str()))
        .filter(|n| !TRANSPORT.iter().any(|t| t.eq_ignore_ascii_case(n)))
        .chain(TRANSPORT.iter().map(|t| (*t).to_owned()));
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let covered = list(&rule.exposed_headers).any(|e| header_matches(e, &name));
        if covered && !out.iter().any(|o| o.eq_ignore_ascii_case(&name)) {
            out.push(name);
        }
    }
    for literal in list(&rule.exposed_headers).filter(|e| !e.ends_with('*')) {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(literal)) {
            out.push(literal.to_owned());
        }
    }
    out.join(",")
}

/// The service's spelling of a header name: `x-ms-*` lower case, others in Title-Case
/// (`http` stores every name lower-cased).
fn display_name(lower: &str) -> String {
    if lower.starts_with("x-ms-") {
        return lower.to_owned();
    }
    let mut out = String::with_capacity(lower.len());
    let mut upper = true;
    for c in lower.chars() {
        out.push(if upper { c.to_ascii_uppercase() } else { c });
        upper = c == '-';
    }
    out
}

/// A comma-separated list's trimmed, non-empty entries.
fn list(csv: &str) -> impl Iterator<Item = &str> {
    csv.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// A header's value as text; absent, empty or not visible ASCII counts as missing.
fn header_text(headers: &HeaderMap, name: &HeaderName) -> Option<String> {
    let v = headers.get(name)?.to_str().ok()?.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

/// Every `Access-Control-Request-Headers` value, joined as one list (browsers send one).
fn requested_headers(headers: &HeaderMap) -> Option<String> {
    let parts: Vec<&str> = headers
        .get_all(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join(","))
}
