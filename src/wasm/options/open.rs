//! `QueueService.open`'s options: the accounts and how they are served, the clock, the
//! source of randomness, the CORS rules and fault rules to start with, and the host's SQL.

use super::service_properties::cors_option;
use crate::engine::{CorsRule, Entropy, OsEntropy, SeededEntropy};
use crate::rest::faults::Faults;
use crate::rest::{AccountConfig, OAuth, ServiceConfig};
use crate::wasm::clock::{AnyClock, FnClock, JsClock};
use crate::wasm::error::invalid_input;
use crate::wasm::sql_host::SqlHost;
use base64::Engine as _;
use wasm_bindgen::{JsCast, JsValue};

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
        let faults = crate::wasm::faulted::from_option(&get("faults"))?;
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
