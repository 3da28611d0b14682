//! JS option bags → validated engine parameters ("parse, don't validate" at the JS edge).
//!
//! This file reads JS values into the arguments of the engine's constructors, which hold the
//! rules (the REST layer's XML reader calls the same ones), and engine errors become JS errors
//! through the REST layer's one conversion, so both faces refuse alike.
//!
//! Option names are `@azure/storage-queue`'s; range errors carry the REST query-parameter name
//! (`visibilitytimeout`, `messagettl`, `numofmessages`) so a JS caller sees exactly the code and
//! details the REST surface would answer with. Unknown properties (`abortSignal`, `timeout`, …)
//! are ignored, so SDK-shaped option objects can be passed unchanged.

use super::clock::{AnyClock, FnClock, JsClock};
use super::error::{invalid_input, invalid_param, out_of_range};
use super::js_object::field;
use super::sql_host::SqlHost;
use crate::engine::limits::DEFAULT_GET_VISIBILITY_SECS;
use crate::engine::{
    AccessPolicy, AclError, CorsRule, Logging, MessageCount, Metadata, Metrics, PolicyTime,
    PropertiesError, QueuePermissions, RetentionPolicy, ServicePropertiesUpdate, SignedIdentifier,
    TimeToLive, VisibilityTimeout, cors_rules, signed_identifiers as engine_signed_identifiers,
};
use crate::engine::{Entropy, OsEntropy, SeededEntropy};
use crate::rest::faults::Faults;
use crate::rest::xml::signed_identifiers as xml;
use crate::rest::{AccountConfig, OAuth, RestError, ServiceConfig};
use base64::Engine as _;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use wasm_bindgen::{JsCast, JsValue};

/// Reads an options bag; `undefined` and `null` mean "all defaults".
pub(crate) fn bag<T: DeserializeOwned + Default>(
    value: &JsValue,
    what: &str,
) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| invalid_input(format!("{what}: {e}")))
}

/// A whole number of seconds (or messages); anything else is the REST layer's "not a valid
/// integer".
fn whole(param: &str, v: f64) -> Result<i64, JsValue> {
    if v.is_finite() && v.fract() == 0.0 {
        Ok(v as i64)
    } else {
        Err(invalid_param(param, v, "Not a valid integer."))
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct CreateQueueOptions {
    pub(crate) metadata: Option<BTreeMap<String, String>>,
}

/// Metadata from `{ name: value }`, under the same rules as `x-ms-meta-*` headers.
pub(crate) fn metadata(pairs: Option<BTreeMap<String, String>>) -> Result<Metadata, JsValue> {
    let pairs = pairs.unwrap_or_default();
    Metadata::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| RestError::from(e).into())
}

/// The numeric options of the message calls, read property by property: these bags come with
/// every `sendMessage`/`receiveMessages`, and a general deserializer cost more than the
/// operation. `undefined` and `null` (the bag or a property) mean the default.
fn numbers<const N: usize>(
    bag: &JsValue,
    what: &str,
    keys: [&'static str; N],
) -> Result<[Option<f64>; N], JsValue> {
    let mut out = [None; N];
    if bag.is_undefined() || bag.is_null() {
        return Ok(out);
    }
    if !bag.is_object() {
        return Err(invalid_input(format!(
            "{what}: the options must be an object"
        )));
    }
    for (slot, key) in out.iter_mut().zip(keys) {
        let v = field(bag, key)?;
        if v.is_undefined() || v.is_null() {
            continue;
        }
        *slot = Some(
            v.as_f64()
                .ok_or_else(|| invalid_input(format!("{what}: {key} must be a number")))?,
        );
    }
    Ok(out)
}

#[derive(Debug, Default)]
pub(crate) struct SendMessageOptions {
    visibility_timeout: Option<f64>,
    message_time_to_live: Option<f64>,
}

impl SendMessageOptions {
    pub(crate) fn read(bag: &JsValue) -> Result<Self, JsValue> {
        let [visibility_timeout, message_time_to_live] = numbers(
            bag,
            "sendMessage",
            ["visibilityTimeout", "messageTimeToLive"],
        )?;
        Ok(SendMessageOptions {
            visibility_timeout,
            message_time_to_live,
        })
    }

    /// Visibility (default 0) and TTL (default 7 days, `-1` = never), with Put Message's rule
    /// that the message must become visible before it expires.
    pub(crate) fn parse(&self) -> Result<(VisibilityTimeout, TimeToLive), JsValue> {
        let vis_secs = whole("visibilitytimeout", self.visibility_timeout.unwrap_or(0.0))?;
        let visibility = VisibilityTimeout::new(vis_secs)
            .map_err(|r| out_of_range("visibilitytimeout", vis_secs, r))?;
        let ttl = match self.message_time_to_live {
            None => TimeToLive::default(),
            Some(v) => {
                let secs = whole("messagettl", v)?;
                TimeToLive::new(secs).map_err(|_| {
                    invalid_param(
                        "messagettl",
                        secs,
                        "Value must be greater than or equal to 1, or -1 to indicate an infinite TTL.",
                    )
                })?
            }
        };
        if !ttl.outlasts(visibility) {
            return Err(invalid_param(
                "visibilitytimeout",
                vis_secs,
                "messagettl must be greater than visibilitytimeout",
            ));
        }
        Ok((visibility, ttl))
    }
}

#[derive(Debug, Default)]
pub(crate) struct ReceiveMessagesOptions {
    number_of_messages: Option<f64>,
    visibility_timeout: Option<f64>,
}

impl ReceiveMessagesOptions {
    pub(crate) fn read(bag: &JsValue) -> Result<Self, JsValue> {
        let [number_of_messages, visibility_timeout] = numbers(
            bag,
            "receiveMessages",
            ["numberOfMessages", "visibilityTimeout"],
        )?;
        Ok(ReceiveMessagesOptions {
            number_of_messages,
            visibility_timeout,
        })
    }

    /// Count (default 1, at most 32) and visibility (default 30 s, at least 1 s).
    pub(crate) fn parse(&self) -> Result<(MessageCount, VisibilityTimeout), JsValue> {
        let count = message_count(self.number_of_messages)?;
        let secs = whole(
            "visibilitytimeout",
            self.visibility_timeout
                .unwrap_or(DEFAULT_GET_VISIBILITY_SECS as f64),
        )?;
        let visibility = VisibilityTimeout::for_get(secs)
            .map_err(|r| out_of_range("visibilitytimeout", secs, r))?;
        Ok((count, visibility))
    }
}

#[derive(Debug, Default)]
pub(crate) struct PeekMessagesOptions {
    number_of_messages: Option<f64>,
}

impl PeekMessagesOptions {
    pub(crate) fn read(bag: &JsValue) -> Result<Self, JsValue> {
        let [number_of_messages] = numbers(bag, "peekMessages", ["numberOfMessages"])?;
        Ok(PeekMessagesOptions { number_of_messages })
    }

    pub(crate) fn parse(&self) -> Result<MessageCount, JsValue> {
        message_count(self.number_of_messages)
    }
}

fn message_count(n: Option<f64>) -> Result<MessageCount, JsValue> {
    let n = whole("numofmessages", n.unwrap_or(1.0))?;
    MessageCount::new(n).map_err(|r| out_of_range("numofmessages", n, r))
}

/// Update Message's visibility: required on the wire, 0 (visible at once) when omitted in JS as
/// in the SDK.
pub(crate) fn update_visibility(secs: Option<f64>) -> Result<VisibilityTimeout, JsValue> {
    let secs = whole("visibilitytimeout", secs.unwrap_or(0.0))?;
    VisibilityTimeout::new(secs).map_err(|r| out_of_range("visibilitytimeout", secs, r))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct ListQueuesOptions {
    pub(crate) prefix: Option<String>,
    pub(crate) include_metadata: bool,
}

/// `[{ id, accessPolicy: { startsOn?, expiresOn?, permissions? } }]` → stored access policies,
/// under the engine's rules for Set Queue ACL. Times may be `Date`s or ISO 8601 strings.
pub(crate) fn signed_identifiers(value: &JsValue) -> Result<Vec<SignedIdentifier>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let list = value
        .dyn_ref::<js_sys::Array>()
        .ok_or_else(|| invalid_input("the access policy must be an array of signed identifiers"))?;
    let items = list.iter().collect::<Vec<_>>();
    let acl = engine_signed_identifiers(items.iter().map(|item| {
        let id = get(item, "id")
            .as_string()
            .ok_or_else(|| invalid_input("each signed identifier needs a string `id`"))?;
        let policy = get(item, "accessPolicy");
        let permission = match get(&policy, "permissions").as_string() {
            None => None,
            Some(p) => QueuePermissions::for_policy(&p).map_err(RestError::from)?,
        };
        let policy = AccessPolicy {
            start: policy_time("Start", &get(&policy, "startsOn"))?,
            expiry: policy_time("Expiry", &get(&policy, "expiresOn"))?,
            permission,
        };
        Ok::<_, Refused>(SignedIdentifier::new(id, policy).map_err(RestError::from)?)
    }));
    acl.map_err(JsValue::from)
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() {
        js_sys::Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// A `Date`, or an ISO 8601 string read as the REST layer reads `Start`/`Expiry` (`name`).
fn policy_time(name: &str, v: &JsValue) -> Result<Option<PolicyTime>, Refused> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    if let Some(d) = v.dyn_ref::<js_sys::Date>() {
        let ms = d.get_time();
        if !ms.is_finite() {
            return Err(xml::policy_time(name, "Invalid Date")
                .map(|_| ())
                .unwrap_err()
                .into());
        }
        let ms = ms as i64;
        return Ok(Some(PolicyTime {
            secs: ms.div_euclid(1000),
            ticks: (ms.rem_euclid(1000) as u32) * 10_000,
        }));
    }
    match v.as_string() {
        Some(s) if s.trim().is_empty() => Ok(None),
        Some(s) => Ok(Some(xml::policy_time(name, s.trim())?)),
        None => Err(invalid_input("access policy times must be Dates or ISO 8601 strings").into()),
    }
}

/// An error on its way to JS, from either the engine's rules ([`RestError`]) or the JS shape
/// of the input (already a `JsValue`). Lets one closure use `?` on both.
struct Refused(JsValue);

impl From<RestError> for Refused {
    fn from(e: RestError) -> Self {
        Refused(e.into())
    }
}

impl From<JsValue> for Refused {
    fn from(e: JsValue) -> Self {
        Refused(e)
    }
}

impl From<AclError> for Refused {
    fn from(e: AclError) -> Self {
        RestError::from(e).into()
    }
}

impl From<PropertiesError> for Refused {
    fn from(e: PropertiesError) -> Self {
        RestError::from(e).into()
    }
}

impl From<Refused> for JsValue {
    fn from(r: Refused) -> Self {
        r.0
    }
}

/// `QueueServiceProperties` as the SDK spells it. Absent parts keep their stored value.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct ServicePropertiesInput {
    queue_analytics_logging: Option<LoggingInput>,
    hour_metrics: Option<MetricsInput>,
    minute_metrics: Option<MetricsInput>,
    cors: Option<Vec<CorsRuleInput>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LoggingInput {
    #[serde(default = "one_point_oh")]
    version: String,
    delete_property: bool,
    read: bool,
    write: bool,
    #[serde(default)]
    retention_policy: RetentionInput,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MetricsInput {
    #[serde(default = "one_point_oh")]
    version: String,
    enabled: bool,
    #[serde(rename = "includeAPIs")]
    include_apis: Option<bool>,
    #[serde(default)]
    retention_policy: RetentionInput,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RetentionInput {
    enabled: bool,
    days: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CorsRuleInput {
    allowed_origins: String,
    allowed_methods: String,
    #[serde(default)]
    allowed_headers: String,
    #[serde(default)]
    exposed_headers: String,
    #[serde(default)]
    max_age_in_seconds: f64,
}

fn one_point_oh() -> String {
    "1.0".into()
}

impl ServicePropertiesInput {
    pub(crate) fn parse(self) -> Result<ServicePropertiesUpdate, JsValue> {
        Ok(self.parse_parts()?)
    }

    fn parse_parts(self) -> Result<ServicePropertiesUpdate, Refused> {
        Ok(ServicePropertiesUpdate {
            logging: match self.queue_analytics_logging {
                None => None,
                Some(l) => Some(Logging::new(
                    &l.version,
                    l.delete_property,
                    l.read,
                    l.write,
                    l.retention_policy.parse()?,
                )?),
            },
            hour_metrics: self.hour_metrics.map(MetricsInput::parse).transpose()?,
            minute_metrics: self.minute_metrics.map(MetricsInput::parse).transpose()?,
            cors: self.cors.map(CorsRuleInput::parse_all).transpose()?,
        })
    }
}

impl MetricsInput {
    fn parse(self) -> Result<Metrics, Refused> {
        let retention = self.retention_policy.parse()?;
        Ok(Metrics::new(
            &self.version,
            self.enabled,
            self.include_apis,
            retention,
        )?)
    }
}

impl RetentionInput {
    fn parse(self) -> Result<RetentionPolicy, Refused> {
        let days = self.days.map(|d| whole_value("Days", d)).transpose()?;
        Ok(RetentionPolicy::new(self.enabled, days)?)
    }
}

/// A number where the XML carries an integer: a fraction or an infinity is the value the
/// element cannot hold, as the same number sent by the SDK would be.
fn whole_value(element: &'static str, v: f64) -> Result<i64, PropertiesError> {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e18 {
        Ok(v as i64)
    } else {
        Err(PropertiesError::BadValue {
            element,
            value: v.to_string(),
        })
    }
}

impl CorsRuleInput {
    fn parse(self) -> Result<CorsRule, Refused> {
        let age = whole_value("MaxAgeInSeconds", self.max_age_in_seconds)?;
        Ok(CorsRule::new(
            &self.allowed_origins,
            &self.allowed_methods,
            &self.allowed_headers,
            &self.exposed_headers,
            age,
        )?)
    }

    fn parse_all(rules: Vec<CorsRuleInput>) -> Result<Vec<CorsRule>, Refused> {
        let rules = rules
            .into_iter()
            .map(CorsRuleInput::parse)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(cors_rules(rules)?)
    }
}

/// The rule `cors: true` installs: any origin, method and header, so a page can talk to an
/// in-tab or local service without configuring CORS first.
pub(crate) fn permissive_cors() -> CorsRule {
    CorsRule {
        allowed_origins: "*".into(),
        allowed_methods: "DELETE,GET,HEAD,MERGE,POST,OPTIONS,PUT".into(),
        allowed_headers: "*".into(),
        exposed_headers: "*".into(),
        max_age_in_seconds: 86_400,
    }
}

/// `cors` in `open()` options: `true`, or an array of SDK-shaped CORS rules.
pub(crate) fn cors_option(value: &JsValue) -> Result<Option<Vec<CorsRule>>, JsValue> {
    if value.is_undefined() || value.is_null() || value.as_bool() == Some(false) {
        return Ok(None);
    }
    if value.as_bool() == Some(true) {
        return Ok(Some(vec![permissive_cors()]));
    }
    let rules: Vec<CorsRuleInput> = serde_wasm_bindgen::from_value(value.clone())
        .map_err(|e| invalid_input(format!("cors: {e}")))?;
    Ok(Some(CorsRuleInput::parse_all(rules)?))
}

/// What `QueueService.open` reads from its options object, besides the store (which
/// `store::open` reads): the accounts and how they are served, the account the JS methods act
/// on, the clock, the source of randomness and the CORS rules to install.
pub(crate) struct OpenOptions {
    /// The host's SQL executor (`sql`): every queue's messages in its tables, not in memory.
    pub(crate) sql: Option<SqlHost>,
    pub(crate) config: ServiceConfig,
    pub(crate) account: String,
    pub(crate) clock: AnyClock,
    pub(crate) entropy: Box<dyn Entropy>,
    pub(crate) cors: Option<Vec<CorsRule>>,
    /// The fault rules and limits it starts with (`faults`, docs/faults.md).
    pub(crate) faults: Faults,
}

impl OpenOptions {
    /// Reads `options` (an object, `undefined` or `null`; the caller checked which).
    pub(crate) fn read(options: &JsValue) -> Result<Self, JsValue> {
        let get = |key: &str| -> JsValue {
            if options.is_object() {
                js_sys::Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            }
        };
        let sql: Option<SqlHost> = match get("sql") {
            v if v.is_undefined() || v.is_null() => None,
            #[cfg(feature = "sql-host")]
            v => Some(SqlHost::from_option(&v).map_err(invalid_input)?),
            #[cfg(not(feature = "sql-host"))]
            _ => {
                return Err(invalid_input(
                    "this build keeps messages in memory only: the `sql` option needs the \
                     edge build (the `sql-host` feature)",
                ));
            }
        };
        let mut config = accounts(&get("accounts"))?;
        if let Some(anonymous) = get("anonymous").as_bool() {
            config.anonymous = anonymous;
        }
        if let Some(bom) = get("emitBom").as_bool() {
            config.emit_bom = bom;
        }
        #[cfg(feature = "inspector")]
        {
            config.dev_origins = dev_origins(&get("devOrigins"))?;
        }
        config.oauth = match get("oauth") {
            v if v.is_undefined() || v.is_null() => OAuth::Off,
            v if v.as_string().as_deref() == Some("basic") => OAuth::Basic,
            _ => return Err(invalid_input("oauth must be \"basic\" when given")),
        };
        let account = match get("account").as_string() {
            None => config.accounts[0].name.clone(),
            Some(name) if config.account(&name).is_some() => name,
            Some(name) => {
                return Err(invalid_input(format!(
                    "account `{name}` is not among the configured accounts"
                )));
            }
        };
        let clock = match get("now") {
            v if v.is_undefined() || v.is_null() => AnyClock::Js(JsClock),
            v => match v.dyn_into::<js_sys::Function>() {
                Ok(f) => AnyClock::Fn(FnClock::new(f)),
                Err(_) => {
                    return Err(invalid_input(
                        "`now` must be a function returning milliseconds or a Date",
                    ));
                }
            },
        };
        let entropy: Box<dyn Entropy> = match get("seed").as_f64() {
            Some(seed) => Box::new(SeededEntropy::new(seed as u64)),
            None => Box::new(OsEntropy),
        };
        let cors = cors_option(&get("cors"))?;
        let faults = super::faulted::from_option(&get("faults"))?;
        Ok(OpenOptions {
            sql,
            config,
            account,
            clock,
            entropy,
            cors,
            faults,
        })
    }
}

/// The `devOrigins` option: the web origins (e.g. `"http://127.0.0.1:8080"`) whose pages may
/// read and steer the development paths (`rest::dev::cors`); none when absent. The `inspector`
/// feature's (pkg/node): other builds opt in to no origin, whatever they are given.
#[cfg(feature = "inspector")]
fn dev_origins(value: &JsValue) -> Result<Vec<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let list = value
        .dyn_ref::<js_sys::Array>()
        .ok_or_else(|| invalid_input("devOrigins must be an array of origins"))?;
    list.iter()
        .map(|o| {
            let text = o
                .as_string()
                .ok_or_else(|| invalid_input("devOrigins must be an array of origins"))?;
            crate::rest::dev::parse_origin(&text)
                .map_err(|e| invalid_input(format!("devOrigins: {e}")))
        })
        .collect()
}

/// The `accounts` option: absent → the development account; a string → Azurite's
/// `AZURITE_ACCOUNTS` form; an array → `[{ name, key }]` or `[{ name, keys: [...] }]`.
fn accounts(value: &JsValue) -> Result<ServiceConfig, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(ServiceConfig::dev());
    }
    if let Some(spec) = value.as_string() {
        return ServiceConfig::from_azurite_accounts(&spec)
            .map_err(|e| invalid_input(format!("accounts: {e}")));
    }
    let list = value.dyn_ref::<js_sys::Array>().ok_or_else(|| {
        invalid_input("accounts must be an array of { name, key } or an AZURITE_ACCOUNTS string")
    })?;
    let mut accounts = Vec::new();
    for item in list.iter() {
        let field = |k: &str| js_sys::Reflect::get(&item, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let name = field("name")
            .as_string()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| invalid_input("each account needs a non-empty `name`"))?;
        let mut keys: Vec<String> = field("key").as_string().into_iter().collect();
        if let Some(more) = field("keys").dyn_ref::<js_sys::Array>() {
            keys.extend(more.iter().filter_map(|k| k.as_string()));
        }
        if keys.is_empty() {
            return Err(invalid_input(format!("account `{name}` needs a `key`")));
        }
        if keys
            .iter()
            .any(|k| base64::engine::general_purpose::STANDARD.decode(k).is_err())
        {
            return Err(invalid_input(format!(
                "a key of account `{name}` is not valid base64"
            )));
        }
        accounts.push(AccountConfig { name, keys });
    }
    if accounts.is_empty() {
        return Err(invalid_input("accounts must not be empty"));
    }
    Ok(ServiceConfig {
        accounts,
        ..ServiceConfig::dev()
    })
}
