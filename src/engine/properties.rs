//! Service properties: logging, hour and minute metrics, CORS rules.
//!
//! The engine stores them; the REST layer parses and renders their XML and evaluates CORS.

/// A retention policy: when enabled, `days` is 1..=365.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct RetentionPolicy {
    pub enabled: bool,
    pub days: Option<u32>,
}

/// The `Logging` element.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Logging {
    pub version: String,
    pub delete: bool,
    pub read: bool,
    pub write: bool,
    pub retention: RetentionPolicy,
}

/// The `HourMetrics` and `MinuteMetrics` elements.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Metrics {
    pub version: String,
    pub enabled: bool,
    pub include_apis: Option<bool>,
    pub retention: RetentionPolicy,
}

/// One `CorsRule`. Lists are kept as the comma-separated strings the client sent, which is
/// also how they are written back.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct CorsRule {
    pub allowed_origins: String,
    pub allowed_methods: String,
    pub allowed_headers: String,
    pub exposed_headers: String,
    pub max_age_in_seconds: u32,
}

/// All of an account's service properties.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ServiceProperties {
    pub logging: Logging,
    pub hour_metrics: Metrics,
    pub minute_metrics: Metrics,
    pub cors: Vec<CorsRule>,
}

/// A Set Queue Service Properties request: each absent part keeps its stored value.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ServicePropertiesUpdate {
    pub logging: Option<Logging>,
    pub hour_metrics: Option<Metrics>,
    pub minute_metrics: Option<Metrics>,
    pub cors: Option<Vec<CorsRule>>,
}

impl Default for ServiceProperties {
    /// A fresh account as the real service reports it: logging off, hour metrics on with
    /// seven days' retention, minute metrics off, no CORS rules.
    fn default() -> Self {
        ServiceProperties {
            logging: Logging {
                version: "1.0".into(),
                delete: false,
                read: false,
                write: false,
                retention: RetentionPolicy::default(),
            },
            hour_metrics: Metrics {
                version: "1.0".into(),
                enabled: true,
                include_apis: Some(true),
                retention: RetentionPolicy {
                    enabled: true,
                    days: Some(7),
                },
            },
            minute_metrics: Metrics {
                version: "1.0".into(),
                enabled: false,
                include_apis: None,
                retention: RetentionPolicy::default(),
            },
            cors: Vec::new(),
        }
    }
}

impl ServiceProperties {
    pub fn apply(&mut self, update: ServicePropertiesUpdate) {
        if let Some(l) = update.logging {
            self.logging = l;
        }
        if let Some(m) = update.hour_metrics {
            self.hour_metrics = m;
        }
        if let Some(m) = update.minute_metrics {
            self.minute_metrics = m;
        }
        if let Some(c) = update.cors {
            self.cors = c;
        }
    }
}
