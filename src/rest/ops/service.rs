//! Service-level operations: List Queues, service properties and stats.

use super::{OpContext, Reply};
use crate::engine::limits::MAX_LIST_RESULTS;
use crate::rest::error::{ErrorCode, RestError};
use crate::rest::xml::XmlWriter;
use crate::rest::xml::service_properties::{
    parse_service_properties, write_service_properties, write_service_stats,
};

/// [List Queues](https://learn.microsoft.com/rest/api/storageservices/list-queues1).
pub fn list_queues(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let prefix = ctx.query.get("prefix").unwrap_or("");
    let marker = ctx.query.get("marker").unwrap_or("");
    let max = match ctx.query.int32("maxresults")? {
        Some(n) if n < 1 => {
            let raw = ctx.query.get("maxresults").unwrap_or("");
            return Err(RestError::query_out_of_range(
                "maxresults",
                raw,
                1,
                i32::MAX as i64,
            ));
        }
        Some(n) => Some((n as u32).min(MAX_LIST_RESULTS)),
        None => None,
    };
    let mut with_metadata = false;
    if let Some(include) = ctx.query.get("include") {
        for part in include.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if !part.eq_ignore_ascii_case("metadata") {
                return Err(RestError::invalid_query(
                    "include",
                    include,
                    "Invalid query parameter value.",
                ));
            }
            with_metadata = true;
        }
    }
    if prefix
        .chars()
        .chain(marker.chars())
        .any(is_invalid_xml_char)
    {
        let (name, value) = if prefix.chars().any(is_invalid_xml_char) {
            ("prefix", prefix)
        } else {
            ("marker", marker)
        };
        return Err(RestError::invalid_query(
            name,
            value,
            "The string includes invalid Xml Characters",
        ));
    }
    // Markers are `/<account>/<first queue of the page>`, as the real service writes them.
    let account_prefix = format!("/{}/", ctx.account());
    let start = if marker.is_empty() {
        None
    } else {
        Some(
            marker
                .strip_prefix(&account_prefix)
                .ok_or_else(|| RestError::new(ErrorCode::InvalidMarker))?,
        )
    };
    let page = ctx.emu.list_queues(
        ctx.account(),
        prefix,
        start,
        max.unwrap_or(MAX_LIST_RESULTS) as usize,
    );

    let mut w = XmlWriter::document(ctx.bom);
    let endpoint = format!("{}/", ctx.endpoint.trim_end_matches('/'));
    w.open_with_attr("EnumerationResults", "ServiceEndpoint", &endpoint);
    if !prefix.is_empty() {
        w.element("Prefix", prefix);
    }
    if !marker.is_empty() {
        w.element("Marker", marker);
    }
    if let Some(max) = max {
        w.element("MaxResults", &max.to_string());
    }
    if page.queues.is_empty() {
        w.empty("Queues");
    } else {
        w.open("Queues");
        for (name, metadata) in &page.queues {
            w.open("Queue").element("Name", name.as_str());
            if with_metadata {
                if metadata.is_empty() {
                    w.empty("Metadata");
                } else {
                    w.open("Metadata");
                    for (k, v) in metadata.iter() {
                        w.element(k, v);
                    }
                    w.close("Metadata");
                }
            }
            w.close("Queue");
        }
        w.close("Queues");
    }
    match &page.next {
        Some(next) => w.element("NextMarker", &format!("{account_prefix}{next}")),
        None => w.empty("NextMarker"),
    };
    w.close("EnumerationResults");
    Ok(Reply::xml(200, w.finish()).no_cache())
}

/// Characters XML 1.0 cannot carry.
fn is_invalid_xml_char(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// [Get Queue Service Properties](https://learn.microsoft.com/rest/api/storageservices/get-queue-service-properties).
pub fn get_properties(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let props = ctx.emu.service_properties(ctx.account());
    Ok(Reply::xml(200, write_service_properties(&props, ctx.bom)).no_cache())
}

/// [Set Queue Service Properties](https://learn.microsoft.com/rest/api/storageservices/set-queue-service-properties):
/// 202 Accepted.
pub fn set_properties(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let update = parse_service_properties(ctx.body)?;
    let account = ctx.account().to_owned();
    ctx.emu.set_service_properties(&account, update);
    Ok(Reply::status(202))
}

/// [Get Queue Service Stats](https://learn.microsoft.com/rest/api/storageservices/get-queue-service-stats):
/// only on the secondary endpoint. An emulator's secondary is always in sync.
pub fn get_stats(ctx: &mut OpContext) -> Result<Reply, RestError> {
    if !ctx.target.secondary {
        return Err(RestError::new(ErrorCode::InvalidQueryParameterValue)
            .with("QueryParameterName", "comp")
            .with("QueryParameterValue", "stats")
            .with("Reason", ""));
    }
    Ok(Reply::xml(200, write_service_stats(ctx.now, ctx.bom)).no_cache())
}
