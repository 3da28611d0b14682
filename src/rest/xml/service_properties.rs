//! `StorageServiceProperties` (Set/Get Queue Service Properties) and `StorageServiceStats`.
//!
//! Input is order-free and every root child is optional (an absent one keeps its stored value,
//! as since 2013-08-15); a present child must be complete. Output uses the real service's
//! element order, which differs from the documented request order.
//!
//! The rules themselves are the engine's (`Logging::new`, `Metrics::new`, `RetentionPolicy::new`,
//! `CorsRule::new`, `cors_rules`), which the JS option reader calls too; this file reads the
//! XML into their arguments and points their errors at the element.
//!
//! Error codes (the fact sheet marks the per-field code as unconfirmed, so these follow the one
//! recorded real answer, which was `InvalidXmlDocument` with a line, position and reason):
//! - not XML, wrong root → `InvalidXmlDocument` (0, 0, a generic reason: the service's is empty);
//! - a missing required element, a repeated one, `Days` in a disabled policy, more than five
//!   `CorsRule`s, CORS text over 2 KiB → `InvalidXmlDocument` pointing at the element's
//!   closing tag with a reason;
//! - a value that does not parse, a method outside the allowed set, an origin or header over
//!   256 characters, too many headers in a list → `InvalidXmlNodeValue` (name and value);
//! - a number that parses but is out of range (`Days` outside 1..=365, negative
//!   `MaxAgeInSeconds`) → `OutOfRangeInput`;
//! - a body over 51 200 bytes → `413 RequestBodyTooLarge`.
//!
//! Lenient where no source says otherwise: unknown elements are ignored; `IncludeAPIs` on
//! disabled metrics is checked for form but not stored (it is never written back); the
//! pre-2013 `<Metrics>` element is read as `HourMetrics` (both at once is a repeat).

use super::XmlWriter;
use super::reader::{Element, parse_document};
use crate::engine::{
    CorsRule, Logging, Metrics, RetentionPolicy, ServiceProperties, ServicePropertiesUpdate,
    Timestamp, cors_rules,
};
use crate::rest::dates::rfc1123;
use crate::rest::error::RestError;

/// Largest Set Queue Service Properties body the service reads (legacy protocol head).
pub const MAX_SERVICE_PROPERTIES_BYTES: usize = 51_200;

/// Parses a [Set Queue Service Properties](https://learn.microsoft.com/rest/api/storageservices/set-queue-service-properties)
/// body into the parts it replaces.
///
/// # Errors
/// See the module docs for which code each problem produces.
pub fn parse_service_properties(body: &[u8]) -> Result<ServicePropertiesUpdate, RestError> {
    if body.len() > MAX_SERVICE_PROPERTIES_BYTES {
        return Err(RestError::too_large(MAX_SERVICE_PROPERTIES_BYTES));
    }
    let root = parse_document(body)?;
    if root.name != "StorageServiceProperties" {
        return Err(RestError::invalid_xml());
    }
    let hour = match (root.child("HourMetrics")?, root.child("Metrics")?) {
        (Some(_), Some(legacy)) => {
            return Err(legacy.invalid("Element HourMetrics is specified more than once."));
        }
        (hour, legacy) => hour.or(legacy),
    };
    Ok(ServicePropertiesUpdate {
        logging: root.child("Logging")?.map(logging).transpose()?,
        hour_metrics: hour.map(metrics).transpose()?,
        minute_metrics: root.child("MinuteMetrics")?.map(metrics).transpose()?,
        cors: root.child("Cors")?.map(cors).transpose()?,
    })
}

fn logging(el: &Element) -> Result<Logging, RestError> {
    let version = el.required("Version")?;
    let retention = retention(el.required("RetentionPolicy")?)?;
    Logging::new(
        &version.text,
        boolean(el.required("Delete")?)?,
        boolean(el.required("Read")?)?,
        boolean(el.required("Write")?)?,
        retention,
    )
    .map_err(|e| el.locate(e.into()))
}

fn metrics(el: &Element) -> Result<Metrics, RestError> {
    let enabled = boolean(el.required("Enabled")?)?;
    let include_apis = el.child("IncludeAPIs")?.map(boolean).transpose()?;
    let version = el.required("Version")?;
    let retention = retention(el.required("RetentionPolicy")?)?;
    Metrics::new(&version.text, enabled, include_apis, retention).map_err(|e| el.locate(e.into()))
}

fn retention(el: &Element) -> Result<RetentionPolicy, RestError> {
    let enabled = boolean(el.required("Enabled")?)?;
    let days = el
        .child("Days")?
        .map(|d| d.text.trim().parse::<i64>().map_err(|_| d.bad_value()))
        .transpose()?;
    RetentionPolicy::new(enabled, days).map_err(|e| el.locate(e.into()))
}

fn cors(el: &Element) -> Result<Vec<CorsRule>, RestError> {
    let rules = el
        .children_named("CorsRule")
        .map(cors_rule)
        .collect::<Result<Vec<_>, _>>()?;
    cors_rules(rules).map_err(|e| el.locate(e.into()))
}

fn cors_rule(el: &Element) -> Result<CorsRule, RestError> {
    let origins = el.required("AllowedOrigins")?;
    let methods = el.required("AllowedMethods")?;
    let allowed_headers = el.required("AllowedHeaders")?;
    let exposed_headers = el.required("ExposedHeaders")?;
    let max_age = el.required("MaxAgeInSeconds")?;
    let age = max_age
        .text
        .trim()
        .parse::<i64>()
        .map_err(|_| max_age.bad_value())?;
    CorsRule::new(
        &origins.text,
        &methods.text,
        &allowed_headers.text,
        &exposed_headers.text,
        age,
    )
    .map_err(|e| el.locate(e.into()))
}

/// `true`/`false` in any case (the legacy Python SDKs write Python's `True`/`False`, and the
/// service accepts them), and `1`/`0`, which .NET's XML reader also accepts.
fn boolean(el: &Element) -> Result<bool, RestError> {
    match el.text.trim() {
        t if t.eq_ignore_ascii_case("true") || t == "1" => Ok(true),
        t if t.eq_ignore_ascii_case("false") || t == "0" => Ok(false),
        _ => Err(el.bad_value()),
    }
}

/// The [Get Queue Service Properties](https://learn.microsoft.com/rest/api/storageservices/get-queue-service-properties)
/// body, in the real service's element order.
pub fn write_service_properties(p: &ServiceProperties, bom: bool) -> String {
    let mut w = XmlWriter::document(bom);
    w.open("StorageServiceProperties");
    w.open("Logging")
        .element("Version", &p.logging.version)
        .element("Read", bool_text(p.logging.read))
        .element("Write", bool_text(p.logging.write))
        .element("Delete", bool_text(p.logging.delete));
    write_retention(&mut w, &p.logging.retention);
    w.close("Logging");
    write_metrics(&mut w, "HourMetrics", &p.hour_metrics);
    write_metrics(&mut w, "MinuteMetrics", &p.minute_metrics);
    if p.cors.is_empty() {
        w.empty("Cors");
    } else {
        w.open("Cors");
        for r in &p.cors {
            w.open("CorsRule")
                .element("AllowedMethods", &r.allowed_methods)
                .element("AllowedOrigins", &r.allowed_origins)
                .element("AllowedHeaders", &r.allowed_headers)
                .element("ExposedHeaders", &r.exposed_headers)
                .element("MaxAgeInSeconds", &r.max_age_in_seconds.to_string())
                .close("CorsRule");
        }
        w.close("Cors");
    }
    w.close("StorageServiceProperties");
    w.finish()
}

fn write_metrics(w: &mut XmlWriter, name: &str, m: &Metrics) {
    w.open(name)
        .element("Version", &m.version)
        .element("Enabled", bool_text(m.enabled));
    if let (true, Some(apis)) = (m.enabled, m.include_apis) {
        w.element("IncludeAPIs", bool_text(apis));
    }
    write_retention(w, &m.retention);
    w.close(name);
}

fn write_retention(w: &mut XmlWriter, r: &RetentionPolicy) {
    w.open("RetentionPolicy")
        .element("Enabled", bool_text(r.enabled));
    if let (true, Some(days)) = (r.enabled, r.days) {
        w.element("Days", &days.to_string());
    }
    w.close("RetentionPolicy");
}

fn bool_text(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

/// The [Get Queue Service Stats](https://learn.microsoft.com/rest/api/storageservices/get-queue-service-stats)
/// body: replication is always `live`, last synced at `last_sync`.
pub fn write_service_stats(last_sync: Timestamp, bom: bool) -> String {
    let mut w = XmlWriter::document(bom);
    w.open("StorageServiceStats")
        .open("GeoReplication")
        .element("Status", "live")
        .element("LastSyncTime", &rfc1123(last_sync))
        .close("GeoReplication")
        .close("StorageServiceStats");
    w.finish()
}
