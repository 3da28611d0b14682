//! The operations, one file per REST resource. Each turns validated request input into one
//! engine call and renders the answer; none touches authentication or CORS.

pub mod message_id;
pub mod messages;
pub mod queue;
pub mod service;

use super::error::{ErrorCode, RestError};
use super::query::Query;
use super::route::Target;
use crate::engine::{Emulator, Metadata, QueueName, Timestamp};
use crate::http_extensions::Spelling;
use http::HeaderMap;

/// Everything an operation may read, and the engine it may change.
#[derive(Debug)]
pub struct OpContext<'a> {
    pub emu: &'a mut Emulator,
    pub now: Timestamp,
    pub target: &'a Target,
    pub query: &'a Query,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
    pub bom: bool,
    /// `scheme://host[/account]` of the request, for List Queues' `ServiceEndpoint`.
    pub endpoint: String,
    /// Header names as the client spelled them, when the host knows.
    pub spelling: Option<&'a Spelling>,
    /// The protocol version the request speaks (`YYYY-MM-DD`), where a response's shape
    /// depends on it.
    pub version: &'a str,
}

impl OpContext<'_> {
    pub fn account(&self) -> &str {
        &self.target.account
    }

    /// The queue the resource names; the caller validated its syntax before routing.
    pub fn queue_name(&self) -> Result<QueueName, RestError> {
        let raw = self.target.resource.queue().unwrap_or("");
        Ok(QueueName::parse(raw)?)
    }

    /// The `x-ms-meta-*` headers as metadata.
    pub fn metadata(&self) -> Result<Metadata, RestError> {
        metadata_from_headers(self.headers, self.spelling)
    }
}

/// Collects `x-ms-meta-*` headers, mapping each rule violation to its Azure code. Names keep
/// the client's spelling when `spelling` has it.
pub fn metadata_from_headers(
    headers: &HeaderMap,
    spelling: Option<&Spelling>,
) -> Result<Metadata, RestError> {
    let mut pairs = Vec::new();
    for (name, value) in headers {
        let name = spelling
            .and_then(|s| s.of(name.as_str()))
            .unwrap_or(name.as_str());
        if let Some(meta) = strip_prefix_ignoring_case(name, "x-ms-meta-") {
            let value = value
                .to_str()
                .map_err(|_| RestError::new(ErrorCode::InvalidMetadata))?;
            pairs.push((meta, value));
        }
    }
    Ok(Metadata::from_pairs(pairs)?)
}

fn strip_prefix_ignoring_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// A successful answer before the common headers are added.
#[derive(Debug, Default)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// An XML document, sent as `application/xml`.
    pub xml: Option<String>,
    /// Reads that return data carry `Cache-Control: no-cache`.
    pub no_cache: bool,
}

impl Reply {
    pub fn status(status: u16) -> Self {
        Reply {
            status,
            ..Reply::default()
        }
    }

    pub fn xml(status: u16, xml: String) -> Self {
        Reply {
            status,
            xml: Some(xml),
            ..Reply::default()
        }
    }

    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn no_cache(mut self) -> Self {
        self.no_cache = true;
        self
    }
}
