//! SharedKey, SharedKeyLite, service SAS and account SAS, end to end through
//! `authenticate` + `authorize`, against vectors signed independently (tests/fixtures/auth).
//! Every test passes `now` explicitly.

use azqueue::engine::{AccessPolicy, QueuePermissions, Timestamp};
use azqueue::rest::auth::{
    AccountKey, AccountSasFields, AuthInput, Principal, Scheme, ServiceSasFields, Variant,
    authenticate, authorize, shared_key,
};
use azqueue::rest::dates::parse_iso8601;
use azqueue::rest::{ErrorCode, OAuth, Operation, RestError};
use http::{HeaderMap, HeaderValue};
use std::net::IpAddr;

const DEV_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const OTHER_KEY: &str = "c2Vjb25kIGtleSBvZiB0aGUgc2FtZSBhY2NvdW50";
const ACCOUNT: &str = "devstoreaccount1";
const DATE: &str = "Mon, 01 Jan 2024 00:00:00 GMT";
/// The instant of `DATE`.
const JAN1: Timestamp = Timestamp::from_secs(1_704_067_200);

/// A fixture pair: (string-to-sign, base64 signature).
macro_rules! fixture {
    ($name:literal) => {
        (
            include_str!(concat!("fixtures/auth/", $name, ".sts")),
            include_str!(concat!("fixtures/auth/", $name, ".sig")),
        )
    };
}

/// A recorded vector: our string-to-sign is the client's, the dev key signs it to the
/// client's signature, and the request carrying that signature authenticates.
fn assert_vector(req: Req, scheme: Scheme, sts: &str, sig: &str) {
    assert_eq!(req.string_to_sign(scheme, Variant::default()), sts);
    assert_eq!(key(DEV_KEY).sign(sts).to_base64(), sig);
    let req = req.header(
        "authorization",
        &format!("{} {ACCOUNT}:{sig}", scheme.as_str()),
    );
    assert_eq!(req.auth(), Ok(Principal::SharedKey));
}

fn key(b64: &str) -> AccountKey {
    AccountKey::from_base64(b64).unwrap()
}

fn no_policy(_: &str) -> Option<AccessPolicy> {
    None
}

/// Percent-encodes a base64 signature for a query string, as the SDKs do.
fn encode_sig(sig: &str) -> String {
    sig.replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D")
}

/// One request, built up field by field.
struct Req {
    method: String,
    path: String,
    query: Option<String>,
    headers: HeaderMap,
    queue: Option<String>,
    https: bool,
    client_ip: Option<IpAddr>,
    now: Timestamp,
}

impl Req {
    fn new(method: &str, path: &str, query: Option<&str>) -> Self {
        Req {
            method: method.to_owned(),
            path: path.to_owned(),
            query: query.map(str::to_owned),
            headers: HeaderMap::new(),
            queue: Some("myqueue".to_owned()),
            https: false,
            client_ip: None,
            now: JAN1,
        }
    }

    /// A request with the headers every SDK sends.
    fn sdk(method: &str, path: &str, query: Option<&str>) -> Self {
        Req::new(method, path, query)
            .header("x-ms-date", DATE)
            .header("x-ms-version", "2025-11-05")
    }

    fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers
            .append(name, HeaderValue::from_str(value).unwrap());
        self
    }

    fn queue(mut self, q: Option<&str>) -> Self {
        self.queue = q.map(str::to_owned);
        self
    }

    fn at(mut self, now: Timestamp) -> Self {
        self.now = now;
        self
    }

    fn input(&self) -> AuthInput<'_> {
        AuthInput {
            method: &self.method,
            path: &self.path,
            query: self.query.as_deref(),
            headers: &self.headers,
            account: ACCOUNT,
            queue: self.queue.as_deref(),
            https: self.https,
            client_ip: self.client_ip,
            wall: self.now,
            oauth: OAuth::Off,
            endpoint: "",
        }
    }

    fn string_to_sign(&self, scheme: Scheme, variant: Variant) -> String {
        shared_key::string_to_sign(scheme, &self.input(), variant)
    }

    /// Signs as the SDKs do and adds the `Authorization` header.
    fn signed(self, scheme: Scheme, with: &str) -> Self {
        let sig = key(with)
            .sign(&self.string_to_sign(scheme, Variant::default()))
            .to_base64();
        let value = format!("{} {ACCOUNT}:{sig}", scheme.as_str());
        self.header("authorization", &value)
    }

    fn auth(&self) -> Result<Principal, RestError> {
        self.auth_with(&[key(DEV_KEY)], &no_policy)
    }

    fn auth_with(
        &self,
        keys: &[AccountKey],
        policy: &dyn Fn(&str) -> Option<AccessPolicy>,
    ) -> Result<Principal, RestError> {
        authenticate(&self.input(), keys, policy)
    }
}

/// The error's code and its `AuthenticationErrorDetail`, if any.
fn failure(r: Result<Principal, RestError>) -> (ErrorCode, String) {
    let e = r.expect_err("expected a failure");
    let detail = e
        .details
        .iter()
        .find(|(k, _)| *k == "AuthenticationErrorDetail")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    (e.code, detail)
}

fn code(r: Result<Principal, RestError>) -> ErrorCode {
    failure(r).0
}

// ---- §7.8 vectors ---------------------------------------------------------------------------

#[test]
fn vector_shared_key_put_message() {
    let (sts, sig) = fixture!("shared_key_put_message");
    let req = Req::sdk(
        "POST",
        "/devstoreaccount1/myqueue/messages",
        Some("messagettl=3600&visibilitytimeout=10"),
    )
    .header("content-length", "88")
    .header("content-type", "application/xml")
    .header(
        "x-ms-client-request-id",
        "00000000-0000-0000-0000-000000000001",
    );
    assert_vector(req, Scheme::SharedKey, sts, sig);
}

#[test]
fn vector_shared_key_list_queues() {
    let (sts, sig) = fixture!("shared_key_list_queues");
    // Parameter order on the wire does not matter: names are sorted.
    let req = Req::sdk(
        "GET",
        "/devstoreaccount1",
        Some("prefix=q&comp=list&include=metadata"),
    )
    .queue(None);
    assert_vector(req, Scheme::SharedKey, sts, sig);
}

#[test]
fn vector_shared_key_lite_get_metadata() {
    let (sts, sig) = fixture!("shared_key_lite_get_metadata");
    // Lite signs only `comp`; `timeout` must not appear.
    let req = Req::sdk(
        "GET",
        "/devstoreaccount1/myqueue",
        Some("comp=metadata&timeout=30"),
    );
    assert_vector(req, Scheme::SharedKeyLite, sts, sig);
}

const SAS_WINDOW: &str = "st=2024-01-01T00:00:00Z&se=2024-01-02T00:00:00Z";

#[test]
fn vector_service_sas() {
    let (sts, sig) = fixture!("service_sas_raup");
    let fields = ServiceSasFields {
        sv: "2025-11-05",
        st: "2024-01-01T00:00:00Z",
        se: "2024-01-02T00:00:00Z",
        sp: "raup",
        spr: "https,http",
        ..Default::default()
    };
    assert_eq!(fields.string_to_sign(ACCOUNT, "myqueue"), sts);
    assert_eq!(key(DEV_KEY).sign(sts).to_base64(), sig);
    let query = format!(
        "sv=2025-11-05&{SAS_WINDOW}&sp=raup&spr=https,http&sig={}",
        encode_sig(sig)
    );
    let req = Req::new("GET", "/devstoreaccount1/myqueue/messages", Some(&query))
        .at(JAN1.plus_secs(3600));
    let principal = req.auth().unwrap();
    assert_eq!(
        principal,
        Principal::ServiceSas {
            permissions: QueuePermissions::parse("raup").unwrap()
        }
    );
    assert_eq!(authorize(&principal, Operation::GetMessages), Ok(()));
}

#[test]
fn vector_account_sas() {
    let (sts, sig) = fixture!("account_sas_rwdlacup");
    let fields = AccountSasFields {
        sv: "2025-11-05",
        ss: "q",
        srt: "sco",
        sp: "rwdlacup",
        st: "2024-01-01T00:00:00Z",
        se: "2024-01-02T00:00:00Z",
        spr: "https,http",
        ..Default::default()
    };
    assert_eq!(fields.string_to_sign(ACCOUNT), sts);
    assert_eq!(key(DEV_KEY).sign(sts).to_base64(), sig);
    let query = format!(
        "sv=2025-11-05&ss=q&srt=sco&sp=rwdlacup&{SAS_WINDOW}&spr=https,http&sig={}",
        encode_sig(sig)
    );
    let req = Req::new("PUT", "/devstoreaccount1/myqueue", Some(&query)).at(JAN1);
    let principal = req.auth().unwrap();
    assert!(matches!(principal, Principal::AccountSas { .. }));
    for op in [
        Operation::CreateQueue,
        Operation::ListQueues,
        Operation::PutMessage,
        Operation::ClearMessages,
    ] {
        assert_eq!(authorize(&principal, op), Ok(()), "{op:?}");
    }
}

// ---- Requests signed by the official JS SDK ---------------------------------------------------

/// One request from `fixtures/auth/sdk_requests.txt` (see `sdk_capture.mjs` there).
struct Captured {
    name: String,
    req: Req,
}

/// Requests signed by the JS and the Python SDK.
const CAPTURES: [(&str, &str); 2] = [
    ("js", include_str!("fixtures/auth/sdk_requests.txt")),
    (
        "python",
        include_str!("fixtures/auth/sdk_requests_python.txt"),
    ),
];

fn captured_requests(text: &str) -> Vec<Captured> {
    text.split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|block| {
            let mut lines = block.lines();
            let name = lines.next().unwrap().trim_start_matches("=== ").to_owned();
            let (method, url) = lines.next().unwrap().split_once(' ').unwrap();
            // Drop scheme and authority (Python's secondary stats URL has an empty host).
            let authority_and_target = url.strip_prefix("http://").unwrap();
            let target = &authority_and_target[authority_and_target.find('/').unwrap()..];
            let (path, query) = match target.split_once('?') {
                Some((p, q)) => (p, Some(q)),
                None => (target, None),
            };
            let queue = path.split('/').nth(2).filter(|q| !q.is_empty());
            let mut req = Req::new(method, path, query).queue(queue);
            for line in lines {
                let (k, v) = line.split_once(": ").unwrap();
                let k = http::HeaderName::from_bytes(k.as_bytes()).unwrap();
                req.headers.append(k, HeaderValue::from_str(v).unwrap());
            }
            // SharedKey requests are checked at their own date; SAS ones inside their window.
            req.now = req
                .headers
                .get("x-ms-date")
                .and_then(|d| azqueue::rest::dates::parse_rfc1123(d.to_str().unwrap()))
                .unwrap_or(JAN1.plus_secs(3600));
            Captured { name, req }
        })
        .collect()
}

#[test]
fn every_request_the_sdks_sign_authenticates() {
    for (sdk, text) in CAPTURES {
        let captured = captured_requests(text);
        assert!(captured.len() >= 20, "{sdk}: {} requests", captured.len());
        for Captured { name, req } in &captured {
            let name = format!("{sdk} {name}");
            check_captured(&name, req);
        }
    }
}

fn check_captured(name: &str, req: &Req) {
    let got = req.auth_with(&[key(DEV_KEY)], &readers);
    let want_kind = match name.split(' ').nth(1) {
        Some("service_sas" | "service_sas_stored_policy") => "ServiceSas",
        Some("account_sas") => "AccountSas",
        _ => "SharedKey",
    };
    assert!(
        format!("{got:?}").starts_with(&format!("Ok({want_kind}")),
        "{name}: {got:?}"
    );
    // And the same request with another key does not.
    assert!(
        req.auth_with(&[key(OTHER_KEY)], &readers).is_err(),
        "{name}"
    );
}

#[test]
fn sdk_signed_stored_policy_sas_takes_the_policys_permissions() {
    for (sdk, text) in CAPTURES {
        let captured = captured_requests(text);
        let sas = captured
            .iter()
            .find(|c| c.name == "service_sas_stored_policy")
            .unwrap();
        assert_eq!(
            sas.req.auth_with(&[key(DEV_KEY)], &readers),
            Ok(Principal::ServiceSas {
                permissions: QueuePermissions::parse("r").unwrap()
            }),
            "{sdk}"
        );
    }
}

// ---- SharedKey canonicalisation ---------------------------------------------------------------

#[test]
fn metadata_headers_sort_in_culture_order() {
    let (sts, sig) = fixture!("shared_key_meta_order");
    let req = Req::sdk("PUT", "/devstoreaccount1/myqueue", Some("comp=metadata"))
        .header("x-ms-metaa", "1")
        .header("x-ms-meta-a_b", "2")
        .header("x-ms-meta-a1", "3")
        .header("content-length", "0");
    // Content-Length 0 signs as an empty line.
    assert_eq!(
        req.string_to_sign(Scheme::SharedKey, Variant::default()),
        sts
    );
    let req = req.header("authorization", &format!("SharedKey {ACCOUNT}:{sig}"));
    assert_eq!(req.auth(), Ok(Principal::SharedKey));
}

#[test]
fn multi_valued_and_encoded_query_parameters() {
    let req = Req::sdk(
        "GET",
        "/devstoreaccount1/my%20queue",
        Some("Comp=b&comp=a&Prefix=a%2Fb&empty=&bare"),
    );
    let sts = req.string_to_sign(Scheme::SharedKey, Variant::default());
    assert!(
        sts.ends_with(
            "/devstoreaccount1/devstoreaccount1/my%20queue\nbare:\ncomp:a,b\nempty:\nprefix:a/b"
        ),
        "{sts}"
    );
}

/// Names the service does not define may be any text: they are lower-cased as the SDKs do
/// (`toLowerCase`), Unicode included, not only ASCII.
#[test]
fn non_ascii_query_parameter_names_lower_case_as_unicode() {
    let req = Req::sdk("GET", "/devstoreaccount1/q", Some("%C3%89COLE=X&%CE%A3=1"));
    let sts = req.string_to_sign(Scheme::SharedKey, Variant::default());
    assert!(sts.ends_with("/devstoreaccount1/q\nécole:X\nσ:1"), "{sts}");
}

#[test]
fn older_versions_keep_zero_length_and_drop_empty_headers() {
    let req = Req::new("PUT", "/devstoreaccount1/q", None)
        .header("x-ms-date", DATE)
        .header("x-ms-version", "2015-02-21")
        .header("x-ms-meta-empty", "")
        .header("content-length", "0");
    let sts = req.string_to_sign(Scheme::SharedKey, Variant::default());
    assert!(sts.starts_with("PUT\n\n\n\n"), "{sts}");
    assert!(!sts.contains("x-ms-meta-empty"), "{sts}");
    let req = Req::new("PUT", "/devstoreaccount1/q", None)
        .header("x-ms-date", DATE)
        .header("x-ms-version", "2014-02-14")
        .header("content-length", "0");
    let sts = req.string_to_sign(Scheme::SharedKey, Variant::default());
    assert!(sts.starts_with("PUT\n\n\n0\n"), "{sts}");
    let req = Req::sdk("PUT", "/devstoreaccount1/q", None).header("x-ms-meta-empty", "");
    let sts = req.string_to_sign(Scheme::SharedKey, Variant::default());
    assert!(sts.contains("\nx-ms-meta-empty:\n"), "{sts}");
}

#[test]
fn date_line_falls_back_to_the_literal_date_header() {
    let req = Req::sdk("GET", "/devstoreaccount1/myqueue", Some("comp=metadata"))
        .header("date", "Mon, 01 Jan 2024 00:00:05 GMT");
    let literal = Variant {
        literal_date: true,
        ..Variant::default()
    };
    let sts = req.string_to_sign(Scheme::SharedKey, literal);
    assert!(sts.contains("\nMon, 01 Jan 2024 00:00:05 GMT\n"), "{sts}");
    let sig = key(DEV_KEY).sign(&sts).to_base64();
    let req = req.header("authorization", &format!("SharedKey {ACCOUNT}:{sig}"));
    assert_eq!(req.auth(), Ok(Principal::SharedKey));
}

#[test]
fn date_header_alone_is_signed_on_the_date_line() {
    let req = Req::new("GET", "/devstoreaccount1/myqueue", Some("comp=metadata"))
        .header("date", DATE)
        .header("x-ms-version", "2025-11-05");
    let sts = req.string_to_sign(Scheme::SharedKey, Variant::default());
    assert!(sts.contains(&format!("\n{DATE}\n")), "{sts}");
    assert_eq!(
        req.signed(Scheme::SharedKey, DEV_KEY).auth(),
        Ok(Principal::SharedKey)
    );
}

#[test]
fn secondary_path_verifies_with_or_without_the_suffix() {
    let (as_sent, as_sent_sig) = fixture!("shared_key_secondary_as_sent");
    let (primary, primary_sig) = fixture!("shared_key_secondary_primary_path");
    let req = Req::sdk(
        "GET",
        "/devstoreaccount1-secondary/myqueue/messages",
        Some("peekonly=true&numofmessages=1"),
    );
    assert_eq!(
        req.string_to_sign(Scheme::SharedKey, Variant::default()),
        as_sent
    );
    let strip = Variant {
        strip_secondary: true,
        ..Variant::default()
    };
    assert_eq!(req.string_to_sign(Scheme::SharedKey, strip), primary);
    for sig in [as_sent_sig, primary_sig] {
        let signed = Req::sdk(
            "GET",
            "/devstoreaccount1-secondary/myqueue/messages",
            Some("peekonly=true&numofmessages=1"),
        )
        .header("authorization", &format!("SharedKey {ACCOUNT}:{sig}"));
        assert_eq!(signed.auth(), Ok(Principal::SharedKey), "{sig}");
    }
    // The primary path never accepts the secondary form.
    let primary_req = Req::sdk(
        "GET",
        "/devstoreaccount1/myqueue/messages",
        Some("peekonly=true&numofmessages=1"),
    )
    .header(
        "authorization",
        &format!("SharedKey {ACCOUNT}:{as_sent_sig}"),
    );
    assert_eq!(code(primary_req.auth()), ErrorCode::AuthenticationFailed);
}

#[test]
fn plus_in_query_may_mean_a_space() {
    let req = Req::sdk("GET", "/devstoreaccount1", Some("comp=list&prefix=a+b")).queue(None);
    let spaced = Variant {
        plus_as_space: true,
        ..Variant::default()
    };
    assert!(
        req.string_to_sign(Scheme::SharedKey, Variant::default())
            .ends_with("prefix:a+b")
    );
    let sts = req.string_to_sign(Scheme::SharedKey, spaced);
    assert!(sts.ends_with("prefix:a b"));
    let sig = key(DEV_KEY).sign(&sts).to_base64();
    let req = req.header("authorization", &format!("SharedKey {ACCOUNT}:{sig}"));
    assert_eq!(req.auth(), Ok(Principal::SharedKey));
}

// ---- SharedKey failures -------------------------------------------------------------------

fn get_metadata() -> Req {
    Req::sdk("GET", "/devstoreaccount1/myqueue", Some("comp=metadata"))
}

#[test]
fn wrong_key_reports_the_string_to_sign_but_not_the_expected_signature() {
    let req = get_metadata().signed(Scheme::SharedKey, OTHER_KEY);
    let sts = req.string_to_sign(Scheme::SharedKey, Variant::default());
    let sent = key(OTHER_KEY).sign(&sts).to_base64();
    let expected = key(DEV_KEY).sign(&sts).to_base64();
    let (code, detail) = failure(req.auth());
    assert_eq!(code, ErrorCode::AuthenticationFailed);
    assert_eq!(
        detail,
        format!(
            "The MAC signature found in the HTTP request '{sent}' is not the same as any \
             computed signature. Server used following string to sign: '{sts}'."
        )
    );
    assert!(!format!("{:?}", req.auth()).contains(&expected));
}

#[test]
fn any_of_the_accounts_keys_may_sign() {
    let req = get_metadata().signed(Scheme::SharedKey, OTHER_KEY);
    assert_eq!(
        req.auth_with(&[key(DEV_KEY), key(OTHER_KEY)], &no_policy),
        Ok(Principal::SharedKey)
    );
    assert_eq!(
        code(req.auth_with(&[], &no_policy)),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn tampered_request_fails() {
    let req = get_metadata()
        .signed(Scheme::SharedKey, DEV_KEY)
        .header("x-ms-meta-added", "later");
    assert_eq!(code(req.auth()), ErrorCode::AuthenticationFailed);
}

#[test]
fn stale_dates_fail_and_dates_ahead_of_the_server_pass() {
    let req = get_metadata().signed(Scheme::SharedKey, DEV_KEY);
    let old = req.auth_at(JAN1.plus_secs(15 * 60 + 1));
    assert_eq!(
        failure(old),
        (
            ErrorCode::AuthenticationFailed,
            format!("Request date header too old: '{DATE}'")
        )
    );
    // The service accepts a client clock that runs ahead (a day, here).
    assert_eq!(
        req.auth_at(Timestamp::from_secs(JAN1.as_secs() - 86_400)),
        Ok(Principal::SharedKey)
    );
    assert_eq!(
        req.auth_at(JAN1.plus_secs(15 * 60)),
        Ok(Principal::SharedKey)
    );
}

impl Req {
    fn auth_at(&self, now: Timestamp) -> Result<Principal, RestError> {
        let mut input = self.input();
        input.wall = now;
        authenticate(&input, &[key(DEV_KEY)], &no_policy)
    }
}

#[test]
fn missing_and_unparsable_dates() {
    let req = Req::new("GET", "/devstoreaccount1/myqueue", Some("comp=metadata"))
        .header("x-ms-version", "2025-11-05")
        .signed(Scheme::SharedKey, DEV_KEY);
    assert_eq!(
        failure(req.auth()),
        (
            ErrorCode::AuthenticationFailed,
            "Request date header not specified".to_owned()
        )
    );
    let req = Req::new("GET", "/devstoreaccount1/myqueue", Some("comp=metadata"))
        .header("x-ms-date", "the first of January")
        .signed(Scheme::SharedKey, DEV_KEY);
    assert_eq!(
        failure(req.auth()),
        (
            ErrorCode::AuthenticationFailed,
            "The Date header in the request is incorrect.".to_owned()
        )
    );
}

#[test]
fn malformed_authorization_headers() {
    use ErrorCode::*;
    let with = |value: &str| get_metadata().header("authorization", value).auth();
    assert_eq!(
        code(with("SharedKey devstoreaccount1")),
        InvalidAuthenticationInfo
    );
    assert_eq!(
        code(with("SharedKey devstoreaccount1:")),
        InvalidAuthenticationInfo
    );
    assert_eq!(
        code(with("SharedKey devstoreaccount1:not*base64")),
        InvalidAuthenticationInfo
    );
    assert_eq!(code(with("SharedKey")), InvalidAuthenticationInfo);
    assert_eq!(
        failure(with("Basic dXNlcjpwYXNz")),
        (
            AuthenticationFailed,
            "Authentication scheme Basic is not supported".to_owned()
        )
    );
    let (c, detail) = failure(with("Bearer eyJ0eXAiOiJKV1QifQ.e30.sig"));
    assert_eq!(c, AuthenticationFailed);
    assert!(
        detail.starts_with("Authentication scheme Bearer is not supported"),
        "{detail}"
    );
    assert_eq!(
        code(with("SharedKey someoneelse:c2lnbmF0dXJl")),
        AuthenticationFailed
    );
    assert_eq!(
        InvalidAuthenticationInfo.status(),
        400,
        "malformed headers are a client error, not an auth failure"
    );
}

#[test]
fn no_credentials_is_anonymous() {
    let req = Req::new(
        "GET",
        "/devstoreaccount1/myqueue",
        Some("comp=metadata&sv=2025-11-05"),
    );
    assert_eq!(req.auth(), Ok(Principal::Anonymous));
    assert_eq!(
        authorize(&Principal::Anonymous, Operation::DeleteQueue),
        Ok(())
    );
}

// ---- Service SAS ----------------------------------------------------------------------------

/// A service SAS query for `myqueue`, signed with the dev key.
fn service_sas(sp: &str, st: &str, se: &str, si: &str, extra: &[(&str, &str)]) -> String {
    let mut fields = ServiceSasFields {
        sv: "2025-11-05",
        st,
        se,
        sp,
        si,
        ..Default::default()
    };
    for (k, v) in extra {
        match *k {
            "sip" => fields.sip = v,
            "spr" => fields.spr = v,
            "sv" => fields.sv = v,
            _ => {}
        }
    }
    let sts = fields.string_to_sign(ACCOUNT, "myqueue");
    let sig = key(DEV_KEY).sign(&sts).to_base64();
    let mut q = format!("sv={}", fields.sv);
    for (k, v) in [
        ("st", st),
        ("se", se),
        ("sp", sp),
        ("si", si),
        ("sip", fields.sip),
        ("spr", fields.spr),
    ] {
        if !v.is_empty() {
            q.push_str(&format!("&{k}={v}"));
        }
    }
    q.push_str(&format!("&sig={}", encode_sig(&sig)));
    q
}

fn messages(query: &str) -> Req {
    Req::new("GET", "/devstoreaccount1/myqueue/messages", Some(query)).at(JAN1.plus_secs(60))
}

const ST: &str = "2024-01-01T00:00:00Z";
const SE: &str = "2024-01-02T00:00:00Z";

#[test]
fn service_sas_missing_permission() {
    let p = messages(&service_sas("r", ST, SE, "", &[])).auth().unwrap();
    assert_eq!(authorize(&p, Operation::PeekMessages), Ok(()));
    assert_eq!(
        authorize(&p, Operation::GetMessages).unwrap_err().code,
        ErrorCode::AuthorizationPermissionMismatch
    );
    for op in [
        Operation::GetQueueAcl,
        Operation::SetQueueAcl,
        Operation::CreateQueue,
    ] {
        assert_eq!(
            authorize(&p, op).unwrap_err().code,
            ErrorCode::AuthorizationPermissionMismatch
        );
    }
    assert_eq!(
        authorize(&p, Operation::ListQueues).unwrap_err().code,
        ErrorCode::AuthorizationResourceTypeMismatch
    );
}

/// Issue 13: `…&sig=<valid>&sig=<anything>` was served with the first value. A repeated
/// parameter is one parameter with comma-joined values, which cannot verify.
#[test]
fn sas_with_sig_twice_fails_authentication() {
    let query = service_sas("r", ST, SE, "", &[]);
    assert!(messages(&query).auth().is_ok());
    for second in ["AAAA", "", "not%20base64"] {
        let twice = messages(&format!("{query}&sig={second}"));
        assert_eq!(
            code(twice.auth()),
            ErrorCode::AuthenticationFailed,
            "{second}"
        );
        let status = twice.auth().unwrap_err().status();
        assert_eq!(status, 403);
    }
    // The forged copy first and the valid one last fails the same way.
    let sig_at = query.find("&sig=").unwrap();
    let (fields, sig) = query.split_at(sig_at);
    let swapped = messages(&format!("sig=AAAA&{}{sig}", &fields));
    assert_eq!(code(swapped.auth()), ErrorCode::AuthenticationFailed);
}

#[test]
fn service_sas_expired_and_not_yet_valid() {
    let query = service_sas("r", ST, SE, "", &[]);
    let expired = messages(&query).at(JAN1.plus_secs(86_401));
    assert_eq!(
        failure(expired.auth()),
        (
            ErrorCode::AuthenticationFailed,
            "Signature not valid in the specified time frame: Start [Mon, 01 Jan 2024 00:00:00 GMT] \
             - Expiry [Tue, 02 Jan 2024 00:00:00 GMT] - Current [Tue, 02 Jan 2024 00:00:01 GMT]"
                .to_owned()
        )
    );
    let early = messages(&query).at(Timestamp::from_secs(JAN1.as_secs() - 1));
    assert_eq!(
        failure(early.auth()),
        (
            ErrorCode::AuthenticationFailed,
            "Signature not valid in the specified time frame: Start [Mon, 01 Jan 2024 00:00:00 GMT] \
             - Expiry [Tue, 02 Jan 2024 00:00:00 GMT] - Current [Sun, 31 Dec 2023 23:59:59 GMT]"
                .to_owned()
        )
    );
}

#[test]
fn service_sas_signature_mismatch_shows_string_to_sign() {
    // Signed for `r`, presented as `raup`.
    let query = service_sas("r", ST, SE, "", &[]).replace("sp=r", "sp=raup");
    let (c, detail) = failure(messages(&query).auth());
    assert_eq!(c, ErrorCode::AuthenticationFailed);
    assert_eq!(
        detail,
        format!(
            "Signature did not match. String to sign used was raup\n{ST}\n{SE}\n\
             /queue/devstoreaccount1/myqueue\n\n\n\n2025-11-05"
        )
    );
}

#[test]
fn service_sas_with_older_signing_versions() {
    for sv in ["2015-02-21", "2013-08-15", "2012-02-12"] {
        let query = service_sas("p", ST, SE, "", &[("sv", sv)]);
        let p = messages(&query).auth();
        assert!(matches!(p, Ok(Principal::ServiceSas { .. })), "{sv}: {p:?}");
    }
    let query = service_sas("p", ST, SE, "", &[("sv", "2011-08-18")]);
    assert_eq!(
        code(messages(&query).auth()),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn service_sas_permissions_must_be_in_canonical_order() {
    let query = service_sas("pr", ST, SE, "", &[]);
    assert_eq!(
        code(messages(&query).auth()),
        ErrorCode::AuthenticationFailed
    );
}

fn readers(id: &str) -> Option<AccessPolicy> {
    (id == "readers").then(|| AccessPolicy {
        start: parse_iso8601(ST),
        expiry: parse_iso8601(SE),
        permission: QueuePermissions::parse("r"),
    })
}

/// A policy that gives only the validity window.
fn window(id: &str) -> Option<AccessPolicy> {
    (id == "readers").then(|| AccessPolicy {
        start: parse_iso8601(ST),
        expiry: parse_iso8601(SE),
        permission: None,
    })
}

#[test]
fn stored_policy_supplies_missing_fields() {
    // The fixture: `sp` in the SAS, the window from the policy. The string-to-sign holds the
    // SAS's own fields (empty st/se), never the policy's.
    let (sts, sig) = fixture!("service_sas_policy_only");
    let fields = ServiceSasFields {
        sv: "2025-11-05",
        sp: "r",
        si: "readers",
        ..Default::default()
    };
    assert_eq!(fields.string_to_sign(ACCOUNT, "myqueue"), sts);
    assert_eq!(key(DEV_KEY).sign(sts).to_base64(), sig);
    let query = format!("sv=2025-11-05&sp=r&si=readers&sig={}", encode_sig(sig));
    let read_only = Principal::ServiceSas {
        permissions: QueuePermissions::parse("r").unwrap(),
    };
    assert_eq!(
        messages(&query).auth_with(&[key(DEV_KEY)], &window),
        Ok(read_only.clone())
    );
    // The policy's window applies.
    let late = messages(&query).at(JAN1.plus_secs(86_401));
    assert_eq!(
        code(late.auth_with(&[key(DEV_KEY)], &window)),
        ErrorCode::AuthenticationFailed
    );
    // Everything from the policy.
    let query = service_sas("", "", "", "readers", &[]);
    assert_eq!(
        messages(&query).auth_with(&[key(DEV_KEY)], &readers),
        Ok(read_only)
    );
    // Neither side has an expiry.
    let (c, detail) = failure(messages(&service_sas("r", "", "", "", &[])).auth());
    assert_eq!(
        (c, detail.as_str()),
        (
            ErrorCode::AuthenticationFailed,
            "se is mandatory. Cannot be empty"
        )
    );
}

#[test]
fn stored_policy_conflict_and_unknown_identifier() {
    // `sp` in both the SAS and the policy.
    let query = service_sas("r", "", "", "readers", &[]);
    assert_eq!(
        failure(messages(&query).auth_with(&[key(DEV_KEY)], &readers)),
        (
            ErrorCode::AuthenticationFailed,
            "Access policy fields can be associated with signature or SAS identifier but not both"
                .to_owned()
        )
    );
    // `se` in both.
    let query = service_sas("", "", SE, "readers", &[]);
    assert_eq!(
        code(messages(&query).auth_with(&[key(DEV_KEY)], &readers)),
        ErrorCode::AuthenticationFailed
    );
    let query = service_sas("", "", "", "nobody", &[]);
    assert_eq!(
        code(messages(&query).auth_with(&[key(DEV_KEY)], &readers)),
        ErrorCode::AuthenticationFailed
    );
}

#[test]
fn service_sas_protocol_and_address() {
    let https_only = service_sas("r", ST, SE, "", &[("spr", "https")]);
    assert_eq!(
        code(messages(&https_only).auth()),
        ErrorCode::AuthorizationProtocolMismatch
    );
    let mut over_tls = messages(&https_only);
    over_tls.https = true;
    assert!(over_tls.auth().is_ok());

    let ranged = service_sas("r", ST, SE, "", &[("sip", "10.0.0.1-10.0.0.20")]);
    let mut inside = messages(&ranged);
    inside.client_ip = Some("10.0.0.7".parse().unwrap());
    assert!(inside.auth().is_ok());
    let mut outside = messages(&ranged);
    outside.client_ip = Some("10.0.1.7".parse().unwrap());
    assert_eq!(
        code(outside.auth()),
        ErrorCode::AuthorizationSourceIPMismatch
    );
    // Unknown client address: not enforced.
    assert!(messages(&ranged).auth().is_ok());
}

// ---- Account SAS ----------------------------------------------------------------------------

fn account_sas(ss: &str, srt: &str, sp: &str) -> String {
    let fields = AccountSasFields {
        sv: "2025-11-05",
        ss,
        srt,
        sp,
        st: ST,
        se: SE,
        ..Default::default()
    };
    let sts = fields.string_to_sign(ACCOUNT);
    let sig = key(DEV_KEY).sign(&sts).to_base64();
    format!(
        "sv=2025-11-05&ss={ss}&srt={srt}&sp={sp}&st={ST}&se={SE}&sig={}",
        encode_sig(&sig)
    )
}

/// An account SAS for the queue service with the given start (empty: none) and expiry.
fn account_sas_between(st: &str, se: &str) -> String {
    let fields = AccountSasFields {
        sv: "2025-11-05",
        ss: "q",
        srt: "sco",
        sp: "r",
        st,
        se,
        ..Default::default()
    };
    let sig = key(DEV_KEY)
        .sign(&fields.string_to_sign(ACCOUNT))
        .to_base64();
    format!(
        "sv=2025-11-05&ss=q&srt=sco&sp=r&st={st}&se={se}&sig={}",
        encode_sig(&sig)
    )
}

#[test]
fn account_sas_expired_without_start_is_refused_in_azures_words() {
    // No `st`: the service takes the request's arrival as the start, and says the expiry must
    // come after it.
    let late = messages(&account_sas_between("", SE)).at(JAN1.plus_secs(86_401));
    assert_eq!(
        failure(late.auth()),
        (
            ErrorCode::AuthenticationFailed,
            "Signed expiry time [Tue, 02 Jan 2024 00:00:00 GMT] must be after signed start time \
             [Tue, 02 Jan 2024 00:00:01 GMT]"
                .to_owned()
        )
    );
    assert!(
        messages(&account_sas_between("", SE))
            .at(JAN1.plus_secs(86_400))
            .auth()
            .is_ok()
    );
}

#[test]
fn a_sas_whose_expiry_is_not_after_its_start_is_refused_in_azures_words() {
    let query = account_sas_between(SE, ST);
    assert_eq!(
        failure(messages(&query).at(JAN1).auth()),
        (
            ErrorCode::AuthenticationFailed,
            "Signed expiry time [Mon, 01 Jan 2024 00:00:00 GMT] must be after signed start time \
             [Tue, 02 Jan 2024 00:00:00 GMT]"
                .to_owned()
        )
    );
    let query = service_sas("r", ST, ST, "", &[]);
    assert!(
        failure(messages(&query).at(JAN1).auth())
            .1
            .starts_with("Signed expiry time [Mon, 01 Jan 2024 00:00:00 GMT] must be after")
    );
}

fn account_auth(ss: &str, srt: &str, sp: &str, op: Operation) -> Result<(), ErrorCode> {
    let p = messages(&account_sas(ss, srt, sp))
        .auth()
        .map_err(|e| e.code)?;
    authorize(&p, op).map_err(|e| e.code)
}

#[test]
fn account_sas_mismatches() {
    use ErrorCode::*;
    use Operation::*;
    assert_eq!(account_auth("bq", "o", "a", PutMessage), Ok(()));
    assert_eq!(
        account_auth("b", "o", "a", PutMessage),
        Err(AuthorizationServiceMismatch)
    );
    assert_eq!(
        account_auth("q", "s", "a", PutMessage),
        Err(AuthorizationResourceTypeMismatch)
    );
    assert_eq!(
        account_auth("q", "o", "r", PutMessage),
        Err(AuthorizationPermissionMismatch)
    );
    // The real service wants `o` for Clear / Delete / Update Message (Azurite: `c`).
    assert_eq!(
        account_auth("q", "c", "d", ClearMessages),
        Err(AuthorizationResourceTypeMismatch)
    );
    assert_eq!(account_auth("q", "o", "d", ClearMessages), Ok(()));
    assert_eq!(
        account_auth("q", "c", "p", DeleteMessage),
        Err(AuthorizationResourceTypeMismatch)
    );
    assert_eq!(account_auth("q", "o", "u", UpdateMessage), Ok(()));
    assert_eq!(
        account_auth("q", "sco", "rwdlacup", SetQueueAcl),
        Err(AuthorizationPermissionMismatch)
    );
}

#[test]
fn account_sas_failures_before_authorization() {
    // Tampered `srt`.
    let query = account_sas("q", "o", "r").replace("srt=o", "srt=sco");
    let (c, detail) = failure(messages(&query).auth());
    assert_eq!(c, ErrorCode::AuthenticationFailed);
    assert!(detail.starts_with(
        "Signature did not match. String to sign used was devstoreaccount1\nr\nq\nsco\n"
    ));
    // Expired, after a signed start.
    let late = messages(&account_sas("q", "o", "r")).at(JAN1.plus_secs(86_401));
    assert!(
        failure(late.auth())
            .1
            .starts_with("Signature not valid in the specified time frame")
    );
    // Account SAS needs sv >= 2015-04-05.
    let query = account_sas("q", "o", "r").replace("sv=2025-11-05", "sv=2015-02-21");
    assert_eq!(
        code(messages(&query).auth()),
        ErrorCode::AuthenticationFailed
    );
}

// ---- Robustness ---------------------------------------------------------------------------

mod no_panics {
    use super::*;
    use azqueue::engine::PolicyTime;
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
    use proptest::prelude::*;

    fn any_authorization() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..60),
            "SharedKey(Lite)? [a-z0-9]{0,20}:[A-Za-z0-9+/=]{0,50}".prop_map(String::into_bytes),
            "(Bearer|Basic|sharedkey) \\PC{0,20}".prop_map(String::into_bytes),
        ]
    }

    /// A policy with extreme times, so merged windows reach the clamping code.
    fn extreme_policy(_: &str) -> Option<AccessPolicy> {
        Some(AccessPolicy {
            start: Some(PolicyTime {
                secs: i64::MIN,
                ticks: 0,
            }),
            expiry: Some(PolicyTime {
                secs: i64::MAX,
                ticks: 9_999_999,
            }),
            permission: None,
        })
    }

    fn run(input: &AuthInput) {
        if let Ok(p) = authenticate(input, &[key(DEV_KEY)], &extreme_policy) {
            let _ = authorize(&p, Operation::PutMessage);
        }
    }

    fn input<'a>(
        path: &'a str,
        query: Option<&'a str>,
        headers: &'a HeaderMap,
        now: u64,
        https: bool,
    ) -> AuthInput<'a> {
        AuthInput {
            method: "GET",
            path,
            query,
            headers,
            account: ACCOUNT,
            queue: Some("myqueue"),
            https,
            client_ip: Some("127.0.0.1".parse().unwrap()),
            wall: Timestamp::from_millis(now),
            // Bearer tokens are read too, so arbitrary tokens reach the JWT decoder.
            oauth: OAuth::Basic,
            endpoint: "https://127.0.0.1/devstoreaccount1",
        }
    }

    proptest! {
        /// Arbitrary bytes in the headers, path and query.
        #[test]
        fn authenticate_never_panics(
            auth in proptest::option::of(any_authorization()),
            date in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..40)),
            extra in proptest::collection::vec(("x-ms-[a-z0-9_'.-]{0,10}", "\\PC{0,10}"), 0..6),
            path in "\\PC{0,40}",
            query in proptest::option::of("\\PC{0,80}"),
            now in any::<u64>(),
            https in any::<bool>(),
        ) {
            let mut headers = HeaderMap::new();
            if let Some(a) = auth.and_then(|a| HeaderValue::from_bytes(&a).ok()) {
                headers.insert("authorization", a);
            }
            if let Some(d) = date.and_then(|d| HeaderValue::from_bytes(&d).ok()) {
                headers.insert("x-ms-date", d);
            }
            for (name, value) in &extra {
                if let (Ok(n), Ok(v)) = (
                    http::HeaderName::from_bytes(name.as_bytes()),
                    HeaderValue::from_bytes(value.as_bytes()),
                ) {
                    headers.append(n, v);
                }
            }
            run(&input(&path, query.as_deref(), &headers, now, https));
        }

        /// Correctly signed SAS tokens with arbitrary field values, so that everything after
        /// the signature check (times, `sip`, `spr`, letters, policy merge) sees odd input.
        #[test]
        fn signed_sas_with_odd_fields_never_panics(
            values in proptest::collection::vec("\\PC{0,24}|[0-9:TZ.+-]{0,24}|[0-9.:-]{0,30}", 9),
            account_sas in any::<bool>(),
            now in any::<u64>(),
            https in any::<bool>(),
        ) {
            let v = |i: usize| values[i].as_str();
            let (names, sts): (&[&str], String) = if account_sas {
                let f = AccountSasFields {
                    sv: "2025-11-05", ss: v(0), srt: v(1), sp: v(2), st: v(3), se: v(4),
                    sip: v(5), spr: v(6), ses: v(7),
                };
                (&["ss", "srt", "sp", "st", "se", "sip", "spr", "ses"], f.string_to_sign(ACCOUNT))
            } else {
                let f = ServiceSasFields {
                    sv: "2025-11-05", sp: v(2), st: v(3), se: v(4), sip: v(5), spr: v(6),
                    si: v(8),
                };
                (&["", "", "sp", "st", "se", "sip", "spr", "", "si"], f.string_to_sign(ACCOUNT, "myqueue"))
            };
            let sig = key(DEV_KEY).sign(&sts).to_base64();
            let mut query = format!("sv=2025-11-05&sig={}", encode_sig(&sig));
            for (i, name) in names.iter().enumerate() {
                if !name.is_empty() && !v(i).is_empty() {
                    query.push_str(&format!("&{name}={}", utf8_percent_encode(v(i), NON_ALPHANUMERIC)));
                }
            }
            let headers = HeaderMap::new();
            run(&input("/devstoreaccount1/myqueue", Some(&query), &headers, now, https));
        }
    }
}
