//! Bearer tokens with `oauth: Basic` (Azurite's `--oauth basic`), in process: which tokens
//! pass, and each refusal with Azure's status, code, detail and challenge. The same through
//! `@azure/storage-queue` over real TLS is tests/e2e/tls/oauth.suite.mjs.

#[path = "support/rest_harness.rs"]
mod rest_harness;

use azqueue::rest::{OAuth, SecureTransport, ServiceConfig};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rest_harness::{Harness, Reply, T0, request};
use serde_json::json;

const NOW: i64 = T0.as_secs() as i64;
const TENANT: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

fn harness(oauth: OAuth) -> Harness {
    Harness::with_config(ServiceConfig {
        oauth,
        emit_bom: false,
        ..ServiceConfig::dev()
    })
}

/// A JWT with these claims; the signature is junk, as `basic` never checks it.
fn token(claims: serde_json::Value) -> String {
    let part = |v: &serde_json::Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let header = json!({ "alg": "RS256", "typ": "JWT" });
    format!("{}.{}.c2lnbmF0dXJl", part(&header), part(&claims))
}

/// What Entra ID issues for `https://storage.azure.com/.default`, valid for an hour.
fn claims() -> serde_json::Value {
    json!({
        "aud": "https://storage.azure.com",
        "iss": format!("https://sts.windows.net/{TENANT}/"),
        "iat": NOW - 60, "nbf": NOW - 60, "exp": NOW + 3600,
        "tid": TENANT, "oid": "11059fcc-5514-4800-b5f8-49808b9cfab6", "ver": "1.0",
    })
}

fn with(mut claims: serde_json::Value, name: &str, value: serde_json::Value) -> serde_json::Value {
    claims[name] = value;
    claims
}

/// List Queues with `Authorization: Bearer <token>`, over TLS unless `https` is false.
fn list_queues(h: &mut Harness, token: &str, https: bool) -> Reply {
    with_token(h, "GET", "/devstoreaccount1?comp=list", token, &[], https)
}

/// Any request with `Authorization: Bearer <token>` (and `headers`), marked as TLS if `https`.
fn with_token(
    h: &mut Harness,
    method: &str,
    path: &str,
    token: &str,
    headers: &[(&str, &str)],
    https: bool,
) -> Reply {
    let auth = format!("Bearer {token}");
    let mut all = vec![("authorization", auth.as_str())];
    all.extend_from_slice(headers);
    let mut req = request(method, path, "", &all);
    if https {
        req.extensions_mut().insert(SecureTransport);
    }
    h.send(req)
}

fn assert_refused(r: &Reply, detail: &str) {
    assert_refused_by(r, detail, TENANT);
}

/// As Azure answers: the challenge names the token's tenant (`common` when it has none).
fn assert_refused_by(r: &Reply, detail: &str, tenant: &str) {
    r.assert_error(401, "InvalidAuthenticationInfo");
    r.assert_has(&format!(
        "<AuthenticationErrorDetail>{detail}</AuthenticationErrorDetail>"
    ));
    r.assert_has("<Message>Server failed to authenticate the request. Please refer to the information in the www-authenticate header.\n");
    assert_eq!(
        r.header("www-authenticate"),
        Some(
            format!(
                "Bearer authorization_uri=https://login.microsoftonline.com/{tenant}/oauth2/authorize resource_id=https://storage.azure.com"
            )
            .as_str()
        )
    );
}

#[test]
fn a_good_token_over_tls_is_served_as_the_account() {
    let mut h = harness(OAuth::Basic);
    let r = list_queues(&mut h, &token(claims()), true);
    assert_eq!(r.status(), 200, "{}", r.text());
    // The other accepted audiences and the v2 issuer form.
    for (name, value) in [
        ("aud", json!("https://storage.azure.com/")),
        ("aud", json!("e406a681-f3d4-42a8-90b6-c2b029497af1")),
        (
            "aud",
            json!("https://devstoreaccount1.queue.core.windows.net"),
        ),
        ("aud", json!("https://127.0.0.1:10001/devstoreaccount1")),
        (
            "aud",
            json!(["https://management.azure.com", "https://storage.azure.com"]),
        ),
        (
            "iss",
            json!(format!("https://login.microsoftonline.com/{TENANT}/v2.0")),
        ),
    ] {
        let r = list_queues(&mut h, &token(with(claims(), name, value.clone())), true);
        assert_eq!(r.status(), 200, "{name} {value}: {}", r.text());
    }
    // A write, to show the token is not read-only.
    let put = with_token(
        &mut h,
        "PUT",
        "/devstoreaccount1/by-token",
        &token(claims()),
        &[],
        true,
    );
    assert_eq!(put.status(), 201);
}

/// Entra ID's test issuer (`https://sts.windows-ppe.net/<tenant>/`) as Azurite's basic mode
/// accepts it, and the issuer forms Azurite's own suite builds (`<prefix>/<tenant>/`, which
/// doubles the slash after the v1 prefixes that end in one).
#[test]
fn azurites_test_issuer_and_its_suites_issuer_forms_are_accepted() {
    let mut h = harness(OAuth::Basic);
    let tenant = "ab1f708d-50f6-404c-a006-d71b2ac7a606";
    let mut issuers = vec![format!("https://sts.windows-ppe.net/{tenant}/")];
    for prefix in [
        "https://sts.windows.net/",
        "https://sts.microsoftonline.de/",
        "https://sts.chinacloudapi.cn/",
        "https://sts.windows-ppe.net",
    ] {
        issuers.push(format!("{prefix}/{tenant}/"));
    }
    for iss in issuers {
        let r = list_queues(&mut h, &token(with(claims(), "iss", json!(iss))), true);
        assert_eq!(r.status(), 200, "{iss}: {}", r.text());
    }
    // The host alone, or another host that starts like it, is still no Entra ID issuer.
    for iss in [
        "https://sts.windows-ppe.net/",
        "https://sts.windows-ppe.net.example/t/",
    ] {
        let r = list_queues(&mut h, &token(with(claims(), "iss", json!(iss))), true);
        assert_refused(&r, "Issuer validation failed. Issuer did not match.");
    }
}

/// Azure serves Get and Set Queue ACL to an Entra ID principal holding the RBAC actions
/// `queues/getAcl/action` and `queues/setAcl/action` (the REST reference's "Authorize with
/// Microsoft Entra ID" table); basic mode has no RBAC, so a valid token may call both.
/// Azurite refuses them with a token; this follows the service.
#[test]
fn get_and_set_queue_acl_are_served_to_a_token() {
    let mut h = harness(OAuth::Basic);
    let t = token(claims());
    let put = with_token(&mut h, "PUT", "/devstoreaccount1/acl-q", &t, &[], true);
    assert_eq!(put.status(), 201, "{}", put.text());
    let body = "<SignedIdentifiers><SignedIdentifier><Id>p1</Id><AccessPolicy>\
                <Permission>rp</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>";
    let auth = format!("Bearer {t}");
    let mut set = request(
        "PUT",
        "/devstoreaccount1/acl-q?comp=acl",
        body,
        &[("authorization", auth.as_str())],
    );
    set.extensions_mut().insert(SecureTransport);
    let set = h.send(set);
    assert_eq!(set.status(), 204, "{}", set.text());
    let get = with_token(
        &mut h,
        "GET",
        "/devstoreaccount1/acl-q?comp=acl",
        &t,
        &[],
        true,
    );
    assert_eq!(get.status(), 200, "{}", get.text());
    get.assert_has("<Id>p1</Id>");
    get.assert_has("<Permission>rp</Permission>");
}

#[test]
fn wrong_audience_issuer_or_lifetime_is_401_with_azures_detail() {
    let mut h = harness(OAuth::Basic);
    for (claims, detail) in [
        (
            with(claims(), "aud", json!("https://management.azure.com/")),
            "Audience validation failed. Audience did not match.",
        ),
        (
            with(
                claims(),
                "aud",
                json!("https://other.queue.core.windows.net"),
            ),
            "Audience validation failed. Audience did not match.",
        ),
        (
            with(claims(), "iss", json!("https://accounts.google.com")),
            "Issuer validation failed. Issuer did not match.",
        ),
        (
            with(claims(), "exp", json!(NOW - 1)),
            "Lifetime validation failed. The token is expired.",
        ),
        (
            with(claims(), "nbf", json!(NOW + 600)),
            "Lifetime validation failed. The token is not yet valid.",
        ),
    ] {
        let r = list_queues(&mut h, &token(claims), true);
        assert_refused(&r, detail);
    }
    for not_a_jwt in ["not-a-jwt", ""] {
        let r = list_queues(&mut h, not_a_jwt, true);
        assert_refused_by(&r, "The access token is not a JWT.", "common");
    }
}

#[test]
fn bearer_over_plain_http_is_refused_before_the_token_is_read() {
    let mut h = harness(OAuth::Basic);
    let r = list_queues(&mut h, &token(claims()), false);
    r.assert_error(403, "AuthenticationFailed");
    r.assert_has("Authentication scheme Bearer is not allowed with HTTP.");
}

#[test]
fn bearer_needs_version_2017_11_09() {
    let mut h = harness(OAuth::Basic);
    let old = [("x-ms-version", "2017-07-29")];
    let r = with_token(
        &mut h,
        "GET",
        "/devstoreaccount1?comp=list",
        &token(claims()),
        &old,
        true,
    );
    r.assert_error(403, "AuthenticationFailed");
    r.assert_has("Authentication scheme Bearer is not supported in this version.");
}

#[test]
fn without_oauth_a_bearer_token_is_refused_as_before() {
    let mut h = harness(OAuth::Off);
    let r = list_queues(&mut h, &token(claims()), true);
    r.assert_error(403, "AuthenticationFailed");
    r.assert_has("Authentication scheme Bearer is not supported by this emulator");
    assert_eq!(r.header("www-authenticate"), None);
}

/// OAuth on does not open the door to requests without credentials.
#[test]
fn no_credentials_stay_refused_with_oauth_on() {
    let mut h = harness(OAuth::Basic);
    let r = h.call("GET", "/devstoreaccount1?comp=list", "");
    r.assert_error(401, "NoAuthenticationInformation");
}
