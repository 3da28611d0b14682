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
//!
//! `open()`'s own options are `options/open.rs`; service properties and CORS rules,
//! `options/service_properties.rs`.

mod open;
mod service_properties;

pub(crate) use open::OpenOptions;
pub(crate) use service_properties::ServicePropertiesInput;

use super::error::{invalid_input, invalid_param, out_of_range};
use super::js_object::field;
use crate::engine::limits::DEFAULT_GET_VISIBILITY_SECS;
use crate::engine::{
    AccessPolicy, AclError, MessageCount, Metadata, PolicyTime, PropertiesError, QueuePermissions,
    SignedIdentifier, TimeToLive, VisibilityTimeout,
    signed_identifiers as engine_signed_identifiers,
};
use crate::rest::RestError;
use crate::rest::xml::signed_identifiers as xml;
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
