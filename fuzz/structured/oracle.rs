//! What every answer must be (the oracle of tests/rest_fuzz.rs, at scale): it names a request
//! id; an Azure path's answer names a version; an error is a well-formed Azure `<Error>` whose
//! `<Code>` is its `x-ms-error-code` and changes nothing; no input makes the service fail
//! inside (`500`); every XML body parses. And for the HTTP/1.1 decoder, [`decode`]: what a
//! stream decodes to, so that two ways of reading it can be compared.

use azqueue::engine::Change;
use azqueue::http1::{Config, Decoder, Item};
use http::Response;
use std::collections::VecDeque;

/// Checks one answer; `Err` says what is wrong.
pub fn check(
    method: &str,
    path: &str,
    response: &Response<Vec<u8>>,
    changes: &[Change],
) -> Result<(), String> {
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let status = response.status().as_u16();
    if header("x-ms-request-id").is_none() {
        return Err("no x-ms-request-id".into());
    }
    if status == 500 {
        return Err(format!("500: {}", String::from_utf8_lossy(response.body())));
    }
    if path.starts_with("/_azqueue/") {
        // The development paths answer JSON; an error there changes nothing either.
        if status >= 400 && !changes.is_empty() {
            return Err(format!("dev path {status} changed state"));
        }
        return Ok(());
    }
    if header("x-ms-version").is_none() {
        return Err("no x-ms-version".into());
    }
    let body = response.body();
    if status >= 400 {
        let code = header("x-ms-error-code").ok_or("an error without x-ms-error-code")?;
        if method != "HEAD" {
            let text = String::from_utf8_lossy(body);
            let text = text.trim_start_matches('\u{feff}');
            if !text.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>")
                || !text.contains(&format!("<Code>{code}</Code>"))
                || !text.ends_with("</Error>")
            {
                return Err(format!("malformed error body: {text}"));
            }
        }
        if !changes.is_empty() {
            return Err(format!("{status} {code} changed state: {changes:?}"));
        }
    }
    let is_xml = header("content-type").is_some_and(|t| t.contains("xml"));
    if is_xml && !body.is_empty() {
        well_formed(body)?;
    }
    Ok(())
}

/// Reads an XML document to its end.
pub fn well_formed(body: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(body).map_err(|e| format!("XML body is not UTF-8: {e}"))?;
    let mut reader = quick_xml::Reader::from_str(text.trim_start_matches('\u{feff}'));
    reader.config_mut().check_end_names = true;
    let mut depth = 0i64;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(_)) => depth += 1,
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(quick_xml::events::Event::Text(t)) => {
                t.unescape()
                    .map_err(|e| format!("XML body has a bad escape: {e}: {text}"))?;
            }
            Ok(_) => {}
            Err(e) => return Err(format!("XML body does not parse: {e}: {text}")),
        }
    }
    if depth != 0 {
        return Err(format!("XML body leaves {depth} elements open: {text}"));
    }
    Ok(())
}

/// A summary of what a stream decodes to, read by read.
pub fn decode(config: &Config, reads: &[&[u8]]) -> Vec<String> {
    let mut decoder = Decoder::new(config.clone());
    let mut items = VecDeque::new();
    for read in reads {
        decoder.feed(read, &mut items);
    }
    // `100 Continue` goes out only when a body has not arrived with its head: where the
    // stream is cut decides that, and rightly so.
    items
        .into_iter()
        .filter(|item| !matches!(item, Item::Continue))
        .map(|item| match item {
            Item::Continue => String::new(),
            Item::Reject(_) => "reject".to_owned(),
            Item::Request(r) => format!(
                "{} {} {:?} {} {}",
                r.request.method(),
                r.request.uri(),
                r.request.headers(),
                r.request.body().len(),
                r.keep_alive
            ),
        })
        .collect()
}
