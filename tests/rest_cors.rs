//! CORS preflight answers and actual-response headers, one behaviour per test. Where the real
//! service and Azurite differ, the real service's behaviour is asserted.

use azqueue::engine::CorsRule;
use azqueue::rest::cors::{actual_response_headers, preflight};
use azqueue::rest::error::ErrorCode;
use http::{HeaderMap, HeaderName, HeaderValue};

fn rule(origins: &str, methods: &str, allowed: &str, exposed: &str) -> CorsRule {
    CorsRule {
        allowed_origins: origins.into(),
        allowed_methods: methods.into(),
        allowed_headers: allowed.into(),
        exposed_headers: exposed.into(),
        max_age_in_seconds: 60,
    }
}

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (name, value) in pairs {
        h.append(
            HeaderName::from_static(name),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    h
}

fn names_and_values(out: &[(HeaderName, String)]) -> Vec<(&str, &str)> {
    out.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect()
}

fn find<'a>(out: &'a [(HeaderName, String)], name: &str) -> Option<&'a str> {
    out.iter()
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, v)| v.as_str())
}

// ---- preflight ----

#[test]
fn preflight_allows_exact_origin_with_all_success_headers() {
    let rules = [rule("https://a.example", "GET,PUT", "x-ms-version", "")];
    let req = headers(&[
        ("origin", "https://a.example"),
        ("access-control-request-method", "PUT"),
        ("access-control-request-headers", "x-ms-version"),
    ]);
    let out = preflight(&rules, &req).unwrap();
    assert_eq!(
        names_and_values(&out),
        [
            ("access-control-allow-origin", "https://a.example"),
            ("access-control-allow-methods", "PUT"),
            ("access-control-allow-headers", "x-ms-version"),
            ("access-control-max-age", "60"),
            ("access-control-allow-credentials", "true"),
        ]
    );
}

#[test]
fn preflight_with_star_rule_echoes_the_origin() {
    let rules = [rule("*", "GET", "", "")];
    let req = headers(&[
        ("origin", "https://b.example"),
        ("access-control-request-method", "GET"),
    ]);
    let out = preflight(&rules, &req).unwrap();
    assert_eq!(
        find(&out, "access-control-allow-origin"),
        Some("https://b.example")
    );
}

#[test]
fn preflight_without_requested_headers_omits_allow_headers() {
    let rules = [rule("*", "GET", "", "")];
    let req = headers(&[("origin", "o"), ("access-control-request-method", "GET")]);
    let out = preflight(&rules, &req).unwrap();
    assert_eq!(find(&out, "access-control-allow-headers"), None);
}

#[test]
fn preflight_allows_header_covered_by_prefixed_entry() {
    let rules = [rule("*", "PUT", "x-ms-meta-*,x-ms-version", "")];
    let req = headers(&[
        ("origin", "o"),
        ("access-control-request-method", "PUT"),
        (
            "access-control-request-headers",
            "X-MS-Meta-Color, x-ms-version",
        ),
    ]);
    assert!(preflight(&rules, &req).is_ok());
}

#[test]
fn preflight_allows_any_header_with_star() {
    let rules = [rule("*", "PUT", "*", "")];
    let req = headers(&[
        ("origin", "o"),
        ("access-control-request-method", "PUT"),
        ("access-control-request-headers", "x-anything,content-type"),
    ]);
    assert!(preflight(&rules, &req).is_ok());
}

#[test]
fn preflight_without_rules_is_cors_preflight_failure() {
    let req = headers(&[("origin", "o"), ("access-control-request-method", "GET")]);
    let e = preflight(&[], &req).unwrap_err();
    assert_eq!((e.code, e.status()), (ErrorCode::CorsPreflightFailure, 403));
}

#[test]
fn preflight_origin_match_is_case_sensitive() {
    let rules = [rule("https://a.example", "GET", "", "")];
    let req = headers(&[
        ("origin", "https://A.example"),
        ("access-control-request-method", "GET"),
    ]);
    assert_eq!(
        preflight(&rules, &req).unwrap_err().code,
        ErrorCode::CorsPreflightFailure
    );
}

/// The real service stops at the first method+origin match; Azurite would go on to rule 2.
#[test]
fn preflight_header_refused_by_first_matching_rule_fails_despite_later_rule() {
    let rules = [
        rule("*", "GET", "x-ms-version", ""),
        rule("*", "GET", "*", ""),
    ];
    let req = headers(&[
        ("origin", "o"),
        ("access-control-request-method", "GET"),
        ("access-control-request-headers", "x-ms-client-request-id"),
    ]);
    assert_eq!(
        preflight(&rules, &req).unwrap_err().code,
        ErrorCode::CorsPreflightFailure
    );
}

#[test]
fn preflight_without_origin_is_400_invalid_header_value() {
    let rules = [rule("*", "GET", "", "")];
    let e = preflight(
        &rules,
        &headers(&[("access-control-request-method", "GET")]),
    )
    .unwrap_err();
    assert_eq!((e.code, e.status()), (ErrorCode::InvalidHeaderValue, 400));
    assert_eq!(e.message, Some("A required CORS header is not present."));
}

#[test]
fn preflight_without_request_method_is_400_invalid_header_value() {
    let rules = [rule("*", "GET", "", "")];
    let e = preflight(&rules, &headers(&[("origin", "o")])).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidHeaderValue);
    assert_eq!(e.message, Some("A required CORS header is not present."));
}

// ---- actual requests ----

/// The headers of a typical successful GET, in the order the service writes them.
fn get_response() -> HeaderMap {
    headers(&[
        ("x-ms-request-id", "id"),
        ("x-ms-client-request-id", "cid"),
        ("server", "Windows-Azure-Queue/1.0 Microsoft-HTTPAPI/2.0"),
        ("x-ms-version", "2019-02-02"),
        ("content-type", "application/xml"),
        ("cache-control", "no-cache"),
    ])
}

/// Matches a real recorded GET: `*` rule, no Origin sent, `*` exposed.
#[test]
fn star_rule_answers_get_without_origin_with_star_and_full_expose_list() {
    let rules = [rule("*", "GET", "*", "*")];
    let out = actual_response_headers(&rules, "GET", &HeaderMap::new(), &get_response());
    assert_eq!(
        names_and_values(&out),
        [
            (
                "access-control-expose-headers",
                "x-ms-request-id,x-ms-client-request-id,Server,x-ms-version,Content-Type,\
                 Cache-Control,Content-Length,Date,Transfer-Encoding"
            ),
            ("access-control-allow-origin", "*"),
        ]
    );
}

#[test]
fn specific_origin_gets_credentials_and_vary_on_get() {
    let rules = [rule("https://a.example", "GET", "", "x-ms-request-id")];
    let req = headers(&[("origin", "https://a.example")]);
    let out = actual_response_headers(&rules, "GET", &req, &get_response());
    assert_eq!(
        names_and_values(&out),
        [
            ("access-control-expose-headers", "x-ms-request-id"),
            ("access-control-allow-origin", "https://a.example"),
            ("access-control-allow-credentials", "true"),
            ("vary", "Origin"),
        ]
    );
}

#[test]
fn specific_origin_on_put_has_no_vary() {
    let rules = [rule("https://a.example", "PUT", "", "")];
    let req = headers(&[("origin", "https://a.example")]);
    let out = actual_response_headers(&rules, "PUT", &req, &HeaderMap::new());
    assert_eq!(find(&out, "access-control-allow-credentials"), Some("true"));
    assert_eq!(find(&out, "vary"), None);
}

#[test]
fn unmatched_get_gets_vary_only() {
    let rules = [rule("https://a.example", "GET", "", "")];
    let req = headers(&[("origin", "https://other.example")]);
    let out = actual_response_headers(&rules, "GET", &req, &get_response());
    assert_eq!(names_and_values(&out), [("vary", "Origin")]);
}

#[test]
fn post_without_origin_gets_nothing() {
    let rules = [rule("*", "POST", "*", "*")];
    let out = actual_response_headers(&rules, "POST", &HeaderMap::new(), &get_response());
    assert!(out.is_empty());
}

#[test]
fn no_rules_means_no_cors_headers() {
    let req = headers(&[("origin", "https://a.example")]);
    assert!(actual_response_headers(&[], "GET", &req, &get_response()).is_empty());
}

#[test]
fn prefixed_exposed_entry_lists_matching_response_headers_then_literals() {
    let rules = [rule("*", "GET", "", "x-ms-meta-*,x-custom")];
    let mut response = get_response();
    response.insert("x-ms-meta-color", HeaderValue::from_static("red"));
    let req = headers(&[("origin", "https://a.example")]);
    let out = actual_response_headers(&rules, "GET", &req, &response);
    assert_eq!(
        find(&out, "access-control-expose-headers"),
        Some("x-ms-meta-color,x-custom")
    );
}

// ---- robustness ----

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Stored rules are validated on the way in, but evaluation must not rely on it.
        #[test]
        fn any_rules_and_header_values(
            origins in ".{0,40}", methods in ".{0,20}", allowed in ".{0,40}", exposed in ".{0,40}",
            origin in "[ -~]{0,20}", method in "[ -~]{0,10}", requested in "[ -~]{0,40}",
        ) {
            let rules = [rule(&origins, &methods, &allowed, &exposed)];
            let req = headers(&[
                ("origin", &origin),
                ("access-control-request-method", &method),
                ("access-control-request-headers", &requested),
            ]);
            let _ = preflight(&rules, &req);
            let _ = actual_response_headers(&rules, &method, &req, &get_response());
        }
    }
}
