//! The SharedKey and SharedKeyLite strings-to-sign (fact sheet §7.2, §7.3).
//!
//! Both are pure functions of the request. Where real clients legitimately differ (which
//! `Date` line, whether `-secondary` stays in a path-style path, whether `+` in the query
//! means a space) the choice is a [`Variant`]; the verifier tries every variant that applies
//! to the request, the first being what current SDKs produce.

use super::AuthInput;
use super::header_order;
use http::HeaderMap;
use http::header::AsHeaderName;
use percent_encoding::percent_decode_str;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The two `Authorization` schemes that sign with an account key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    SharedKey,
    SharedKeyLite,
}

impl Scheme {
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::SharedKey => "SharedKey",
            Scheme::SharedKeyLite => "SharedKeyLite",
        }
    }
}

/// Client behaviours that change the string-to-sign. `Variant::default()` is the SDKs' form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Variant {
    /// When `x-ms-date` is present, use the literal `Date` header on the Date line instead of
    /// an empty line (Azurite does this; clients that send both may sign either way).
    pub literal_date: bool,
    /// Remove `-secondary` from the account segment of a path-style path (JS/.NET sign the
    /// path as sent, others sign the primary path; Azurite accepts both).
    pub strip_secondary: bool,
    /// Decode `+` in query names and values as a space (Azurite's URL parser does; the SDKs
    /// percent-encode spaces, so they never depend on it).
    pub plus_as_space: bool,
}

/// The versions whose canonicalisation rules differ (compared as `YYYY-MM-DD` strings).
const EMPTY_CONTENT_LENGTH_SINCE: &str = "2015-02-21";
const EMPTY_HEADER_VALUES_SINCE: &str = "2016-05-31";

/// The string a client signs for `scheme`. The resource is `/` + `input.account` (the real
/// account, without `-secondary`) + the path.
pub fn string_to_sign(scheme: Scheme, input: &AuthInput, variant: Variant) -> String {
    let h = input.headers;
    // An absent x-ms-version means "latest" for our purposes: every rule below is the modern one.
    let version = header(h, "x-ms-version");
    let modern = |since: &str| version.is_empty() || &*version >= since;
    let date = date_line(h, variant);
    let mut s = String::with_capacity(256);
    let mut line = |v: &str| {
        s.push_str(v);
        s.push('\n');
    };
    line(&input.method.to_ascii_uppercase());
    match scheme {
        Scheme::SharedKey => {
            line(&header(h, "content-encoding"));
            line(&header(h, "content-language"));
            let length = header(h, "content-length");
            // Since 2015-02-21 a zero length is signed as an empty line.
            line(if length == "0" && modern(EMPTY_CONTENT_LENGTH_SINCE) {
                ""
            } else {
                &length
            });
            line(&header(h, "content-md5"));
            line(&header(h, "content-type"));
            line(&date);
            for name in [
                "if-modified-since",
                "if-match",
                "if-none-match",
                "if-unmodified-since",
                "range",
            ] {
                line(&header(h, name));
            }
        }
        Scheme::SharedKeyLite => {
            line(&header(h, "content-md5"));
            line(&header(h, "content-type"));
            line(&date);
        }
    }
    s.push_str(&canonicalized_headers(h, modern(EMPTY_HEADER_VALUES_SINCE)));
    s.push('/');
    s.push_str(input.account);
    s.push_str(&signed_path(input, variant));
    let params = query_params(input.query, variant.plus_as_space);
    match scheme {
        Scheme::SharedKey => {
            for (name, mut values) in params {
                // Several values for one name: sorted, joined by commas.
                values.sort();
                s.push('\n');
                s.push_str(&name);
                s.push(':');
                s.push_str(&values.join(","));
            }
        }
        // Lite signs only the `comp` sub-resource.
        Scheme::SharedKeyLite => {
            if let Some(comp) = params.get("comp").and_then(|v| v.first()) {
                s.push_str("?comp=");
                s.push_str(comp);
            }
        }
    }
    s
}

/// Every string-to-sign the verifier accepts for this request, the SDK form first.
pub(super) fn candidates(scheme: Scheme, input: &AuthInput) -> Vec<String> {
    let h = input.headers;
    let both_dates = h.contains_key("x-ms-date") && h.contains_key(http::header::DATE);
    let secondary = strip_secondary(input.path, input.account).is_some();
    let plus = input.query.is_some_and(|q| q.contains('+'));
    let mut out: Vec<String> = Vec::new();
    for literal_date in [false, true].into_iter().filter(|&v| !v || both_dates) {
        for strip in [false, true].into_iter().filter(|&v| !v || secondary) {
            for plus_as_space in [false, true].into_iter().filter(|&v| !v || plus) {
                let variant = Variant {
                    literal_date,
                    strip_secondary: strip,
                    plus_as_space,
                };
                let sts = string_to_sign(scheme, input, variant);
                if !out.contains(&sts) {
                    out.push(sts);
                }
            }
        }
    }
    out
}

/// All values of a header, comma-joined, trimmed; empty when absent. Borrowed in the common
/// case of one valid value (this runs for a dozen headers on every signed request).
///
/// Values that are not valid UTF-8 are signed as their lossy decoding: they cannot match a
/// client signature anyway, and refusing them here would only move the error.
fn header<'a>(h: &'a HeaderMap, name: impl AsHeaderName) -> Cow<'a, str> {
    let mut values = h.get_all(name).iter();
    let Some(first) = values.next() else {
        return Cow::Borrowed("");
    };
    let first = trimmed(first);
    let Some(second) = values.next() else {
        return first;
    };
    let mut joined = first.into_owned();
    for v in std::iter::once(second).chain(values) {
        joined.push(',');
        joined.push_str(&trimmed(v));
    }
    Cow::Owned(joined)
}

fn trimmed(v: &http::HeaderValue) -> Cow<'_, str> {
    match String::from_utf8_lossy(v.as_bytes()) {
        Cow::Borrowed(s) => Cow::Borrowed(s.trim()),
        Cow::Owned(s) => Cow::Owned(s.trim().to_owned()),
    }
}

/// The Date line: empty when `x-ms-date` carries the date (what clients sign), else `Date`.
fn date_line(h: &HeaderMap, variant: Variant) -> Cow<'_, str> {
    if h.contains_key("x-ms-date") && !variant.literal_date {
        Cow::Borrowed("")
    } else {
        header(h, "date")
    }
}

/// `name:value\n` for every `x-ms-*` header, names lower-cased (the `http` crate already
/// stores them so) and in the service's culture order.
fn canonicalized_headers(h: &HeaderMap, include_empty: bool) -> String {
    let mut entries: Vec<(&str, Cow<'_, str>)> = h
        .keys()
        .filter(|k| k.as_str().starts_with("x-ms-"))
        .map(|k| (k.as_str(), header(h, k)))
        .filter(|(_, v)| include_empty || !v.is_empty())
        .collect();
    header_order::sort_by_name(&mut entries, |(k, _)| k);
    let mut s = String::new();
    for (k, v) in entries {
        s.push_str(k);
        s.push(':');
        s.push_str(&v);
        s.push('\n');
    }
    s
}

/// The path as sent (never normalised), or `/` when empty; optionally without `-secondary`.
fn signed_path<'a>(input: &AuthInput<'a>, variant: Variant) -> Cow<'a, str> {
    let path = if input.path.is_empty() {
        "/"
    } else {
        input.path
    };
    if variant.strip_secondary {
        if let Some(primary) = strip_secondary(path, input.account) {
            return Cow::Owned(primary);
        }
    }
    Cow::Borrowed(path)
}

/// For a path-style secondary path `/<account>-secondary[/…]`, the primary path `/<account>[/…]`.
fn strip_secondary(path: &str, account: &str) -> Option<String> {
    let rest = path
        .strip_prefix('/')?
        .strip_prefix(account)?
        .strip_prefix("-secondary")?;
    (rest.is_empty() || rest.starts_with('/')).then(|| format!("/{account}{rest}"))
}

/// Query parameters: names lower-cased, names and values percent-decoded, grouped by name in
/// ascending byte order of the name.
fn query_params(raw: Option<&str>, plus_as_space: bool) -> BTreeMap<String, Vec<String>> {
    let decode = |s: &str| {
        let s = if plus_as_space {
            s.replace('+', " ")
        } else {
            s.to_owned()
        };
        percent_decode_str(&s).decode_utf8_lossy().into_owned()
    };
    let mut params: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        params
            .entry(lowercase_name(decode(name)))
            .or_default()
            .push(decode(value));
    }
    params
}

/// Unicode lower-casing for query parameter names that are not ASCII, as the SDKs lower-case
/// them (`toLowerCase`, `ToLowerInvariant`, `lower()`). Rust's case tables are about 8 KiB of
/// the gzipped web wasm, and every JS host has the same mapping built in, so the wasm layer
/// installs `String.prototype.toLowerCase` here when the module starts; natively Rust's own
/// `to_lowercase` is used.
static UNICODE_LOWERCASE: OnceLock<fn(&str) -> String> = OnceLock::new();

/// Installs the host's Unicode lower-casing (once; later calls are ignored).
pub fn set_unicode_lowercase(lowercase: fn(&str) -> String) {
    let _ = UNICODE_LOWERCASE.set(lowercase);
}

/// A parameter name as the string-to-sign writes it: every name the service defines is
/// ASCII, lower-cased in place; any other goes through the Unicode mapping.
fn lowercase_name(mut name: String) -> String {
    if name.is_ascii() {
        name.make_ascii_lowercase();
        return name;
    }
    match UNICODE_LOWERCASE.get() {
        Some(lowercase) => lowercase(&name),
        None => rust_lowercase(&name),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn rust_lowercase(s: &str) -> String {
    s.to_lowercase()
}

/// The module's start installs the host's mapping before anything can be served, so this is
/// not reached in the wasm; it keeps Rust's case tables out of the download.
#[cfg(target_arch = "wasm32")]
fn rust_lowercase(s: &str) -> String {
    s.to_ascii_lowercase()
}
