//! `setProperties`' `QueueServiceProperties` and `open()`'s `cors`, as the SDK spells them,
//! read into the engine's service properties under the rules Set Queue Service Properties
//! applies to the XML.

use super::Refused;
use crate::engine::{
    CorsRule, Logging, Metrics, PropertiesError, RetentionPolicy, ServicePropertiesUpdate,
    cors_rules,
};
use crate::wasm::error::invalid_input;
use serde::Deserialize;
use wasm_bindgen::JsValue;

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
