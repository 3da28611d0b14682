//! Service properties: logging, hour and minute metrics, CORS rules.
//!
//! The engine stores them and owns their rules: the constructors here (and
//! [`CorsRule::new`](super::cors::CorsRule::new), [`cors_rules`](super::cors::cors_rules)) are
//! the only checks, and both faces (the REST layer's XML reader, the JS option reader) call
//! them. Each face only turns its own syntax (XML text, JS values) into their arguments.

use super::cors::CorsRule;
use super::limits::RETENTION_DAYS;
pub use super::properties_error::PropertiesError;

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

impl RetentionPolicy {
    /// A policy as given: `days` only when enabled, and then required and in 1..=365 (the
    /// service refuses `Days` in a disabled policy rather than ignoring it).
    ///
    /// # Errors
    /// [`PropertiesError::DaysWhileDisabled`], [`PropertiesError::DaysRequired`],
    /// [`PropertiesError::OutOfRange`].
    pub fn new(enabled: bool, days: Option<i64>) -> Result<Self, PropertiesError> {
        match (enabled, days) {
            (false, Some(_)) => Err(PropertiesError::DaysWhileDisabled),
            (false, None) => Ok(RetentionPolicy::default()),
            (true, None) => Err(PropertiesError::DaysRequired),
            (true, Some(d)) if RETENTION_DAYS.contains(&d) => Ok(RetentionPolicy {
                enabled,
                days: Some(d as u32),
            }),
            (true, Some(_)) => Err(PropertiesError::OutOfRange),
        }
    }
}

/// A `Version` must say something.
fn version(version: &str) -> Result<String, PropertiesError> {
    match version.trim() {
        "" => Err(PropertiesError::BadValue {
            element: "Version",
            value: version.to_owned(),
        }),
        v => Ok(v.to_owned()),
    }
}

impl Logging {
    /// # Errors
    /// [`PropertiesError::BadValue`] for an empty version.
    pub fn new(
        version_text: &str,
        delete: bool,
        read: bool,
        write: bool,
        retention: RetentionPolicy,
    ) -> Result<Self, PropertiesError> {
        Ok(Logging {
            version: version(version_text)?,
            delete,
            read,
            write,
            retention,
        })
    }
}

impl Metrics {
    /// Enabled metrics must say whether they include APIs; on disabled ones `include_apis` is
    /// dropped (it is never written back).
    ///
    /// # Errors
    /// [`PropertiesError::IncludeApisRequired`]; [`PropertiesError::BadValue`] for an empty
    /// version.
    pub fn new(
        version_text: &str,
        enabled: bool,
        include_apis: Option<bool>,
        retention: RetentionPolicy,
    ) -> Result<Self, PropertiesError> {
        if enabled && include_apis.is_none() {
            return Err(PropertiesError::IncludeApisRequired);
        }
        Ok(Metrics {
            version: version(version_text)?,
            enabled,
            include_apis: include_apis.filter(|_| enabled),
            retention,
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_days_only_when_enabled_and_in_range() {
        assert_eq!(
            RetentionPolicy::new(false, Some(3)),
            Err(PropertiesError::DaysWhileDisabled)
        );
        assert_eq!(
            RetentionPolicy::new(true, None),
            Err(PropertiesError::DaysRequired)
        );
        assert_eq!(
            RetentionPolicy::new(true, Some(366)),
            Err(PropertiesError::OutOfRange)
        );
        assert_eq!(
            RetentionPolicy::new(true, Some(365)).unwrap().days,
            Some(365)
        );
        assert_eq!(
            RetentionPolicy::new(false, None),
            Ok(RetentionPolicy::default())
        );
    }

    #[test]
    fn enabled_metrics_need_include_apis() {
        let off = RetentionPolicy::default();
        assert_eq!(
            Metrics::new("1.0", true, None, off.clone()),
            Err(PropertiesError::IncludeApisRequired)
        );
        let m = Metrics::new("1.0", false, Some(true), off.clone()).unwrap();
        assert_eq!(m.include_apis, None);
        assert!(matches!(
            Metrics::new(" ", false, None, off),
            Err(PropertiesError::BadValue {
                element: "Version",
                ..
            })
        ));
    }
}
