//! `SignedIdentifiers` (Set/Get Queue ACL): a queue's stored access policies.
//!
//! The list's rules are the engine's (`SignedIdentifier::new`, `signed_identifiers`,
//! `QueuePermissions::for_policy`), shared with the JS `setAccessPolicy`.
//!
//! Every problem with a Set Queue ACL body is `400 InvalidXmlDocument` with line and position
//! `0` — the real service answers a bad permission string that way — except an oversized body
//! (`413 RequestBodyTooLarge`, limit 10 000 bytes). The real service's `Reason` is sometimes
//! empty; ours always names the element and value at fault.

use super::XmlWriter;
use super::reader::{Element, is_blank, parse_document};
use crate::engine::{
    AccessPolicy, PolicyTime, QueuePermissions, SignedIdentifier, signed_identifiers,
};
use crate::rest::dates::{iso8601, parse_iso8601};
use crate::rest::error::RestError;

/// Largest Set Queue ACL body the service reads (legacy protocol head).
pub const MAX_SIGNED_IDENTIFIERS_BYTES: usize = 10_000;

/// Parses a [Set Queue ACL](https://learn.microsoft.com/rest/api/storageservices/set-queue-acl)
/// body. An empty body means "no policies".
///
/// # Errors
/// `413 RequestBodyTooLarge` over 10 000 bytes; otherwise `400 InvalidXmlDocument` for bad XML,
/// a wrong root, more than five identifiers, a missing, empty, over-long or repeated `Id`, a
/// permission outside `raup`, or a time `dates::parse_iso8601` does not accept.
pub fn parse_signed_identifiers(body: &[u8]) -> Result<Vec<SignedIdentifier>, RestError> {
    if body.len() > MAX_SIGNED_IDENTIFIERS_BYTES {
        return Err(RestError::too_large(MAX_SIGNED_IDENTIFIERS_BYTES));
    }
    if is_blank(body) {
        return Ok(Vec::new());
    }
    let root = parse_document(body)?;
    if root.name != "SignedIdentifiers" {
        return Err(RestError::invalid_xml_because(format!(
            "The root element must be SignedIdentifiers, not {}.",
            root.name
        )));
    }
    let items = root.children_named("SignedIdentifier").collect::<Vec<_>>();
    signed_identifiers(items.into_iter().map(signed_identifier))
}

fn signed_identifier(el: &Element) -> Result<SignedIdentifier, RestError> {
    let id = el.child("Id")?.map(|i| i.text.clone()).unwrap_or_default();
    let policy = match el.child("AccessPolicy")? {
        None => AccessPolicy::default(),
        Some(p) => AccessPolicy {
            start: time("Start", p.child("Start")?)?,
            expiry: time("Expiry", p.child("Expiry")?)?,
            permission: match p.child("Permission")? {
                Some(perm) => QueuePermissions::for_policy(&perm.text)?,
                None => None,
            },
        },
    };
    Ok(SignedIdentifier::new(id, policy)?)
}

/// An absent or empty `Start`/`Expiry` leaves the time unset (SDKs may send `<Start />`).
fn time(name: &str, el: Option<&Element>) -> Result<Option<PolicyTime>, RestError> {
    match el.map(|e| e.text.trim()).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(text) => policy_time(name, text).map(Some),
    }
}

/// A policy time (`Start` or `Expiry`) in ISO 8601, read alike from either face.
///
/// # Errors
/// `InvalidXmlDocument` at line and position 0, as the service answers a bad ACL body.
pub fn policy_time(name: &str, text: &str) -> Result<PolicyTime, RestError> {
    // ASCII first: dates::parse_iso8601 slices by byte offsets.
    text.is_ascii()
        .then(|| parse_iso8601(text))
        .flatten()
        .ok_or_else(|| {
            RestError::invalid_xml_because(format!(
                "Element {name} has the value '{text}', which is not an ISO 8601 UTC time \
                 (for example 2026-01-31T12:00:00.0000000Z; at most 9 fractional digits)."
            ))
        })
}

/// The [Get Queue ACL](https://learn.microsoft.com/rest/api/storageservices/get-queue-acl)
/// body: only the parts of each policy that are set, times in the 7-digit form, permissions
/// in canonical `raup` order.
pub fn write_signed_identifiers(acl: &[SignedIdentifier], bom: bool) -> String {
    let mut w = XmlWriter::document(bom);
    if acl.is_empty() {
        w.empty("SignedIdentifiers");
        return w.finish();
    }
    w.open("SignedIdentifiers");
    for si in acl {
        w.open("SignedIdentifier").element("Id", &si.id);
        let p = &si.policy;
        if p.start.is_some() || p.expiry.is_some() || p.permission.is_some() {
            w.open("AccessPolicy");
            if let Some(t) = p.start {
                w.element("Start", &iso8601(t));
            }
            if let Some(t) = p.expiry {
                w.element("Expiry", &iso8601(t));
            }
            if let Some(perm) = p.permission {
                w.element("Permission", &perm.to_string());
            }
            w.close("AccessPolicy");
        }
        w.close("SignedIdentifier");
    }
    w.close("SignedIdentifiers");
    w.finish()
}
