//! `QueueMessage` request bodies and `QueueMessagesList` responses.

use super::writer::XmlWriter;
use crate::engine::MessageRecord;
use crate::rest::dates::rfc1123;
use crate::rest::error::RestError;
use quick_xml::Reader;
use quick_xml::events::Event;

/// Extracts the decoded text of `QueueMessage/MessageText`.
///
/// Markup nested inside `MessageText` contributes only its text, as the service documents.
///
/// # Errors
/// `InvalidXmlDocument` when the body is not XML, the root is not `QueueMessage`, or it has no
/// `MessageText`.
pub fn parse_message_text(body: &[u8]) -> Result<String, RestError> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let mut reader = Reader::from_reader(body);
    reader.config_mut().trim_text(false);
    let mut depth = 0usize;
    let mut in_text = false;
    let mut text: Option<String> = None;
    let mut saw_root = false;
    loop {
        match reader.read_event().map_err(|_| RestError::invalid_xml())? {
            Event::Start(e) => {
                depth += 1;
                let name = e.local_name();
                if depth == 1 {
                    if name.as_ref() != b"QueueMessage" {
                        return Err(RestError::invalid_xml());
                    }
                    saw_root = true;
                } else if depth == 2 && name.as_ref() == b"MessageText" && text.is_none() {
                    in_text = true;
                    text = Some(String::new());
                }
            }
            Event::Empty(e) => {
                let name = e.local_name();
                if depth == 0 {
                    return Err(RestError::invalid_xml());
                }
                if depth == 1 && name.as_ref() == b"MessageText" && text.is_none() {
                    text = Some(String::new());
                }
            }
            Event::End(_) => {
                if depth == 2 {
                    in_text = false;
                }
                depth = depth.saturating_sub(1);
            }
            Event::Text(t) if in_text => {
                let s = t.unescape().map_err(|_| RestError::invalid_xml())?;
                if let Some(acc) = text.as_mut() {
                    acc.push_str(&s);
                }
            }
            Event::CData(c) if in_text => {
                let s = std::str::from_utf8(c.as_ref()).map_err(|_| RestError::invalid_xml())?;
                if let Some(acc) = text.as_mut() {
                    acc.push_str(s);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_root || depth != 0 {
        return Err(RestError::invalid_xml());
    }
    text.ok_or_else(RestError::invalid_xml)
}

/// Which fields a `QueueMessagesList` carries per message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListShape {
    /// Put Message: id, times, receipt.
    Put,
    /// Get Messages: everything.
    Get,
    /// Peek Messages: no receipt, no next-visible time.
    Peek,
}

/// Writes a `QueueMessagesList` in the service's element order.
pub fn write_message_list(messages: &[MessageRecord], shape: ListShape, bom: bool) -> String {
    let mut w = XmlWriter::document(bom);
    if messages.is_empty() {
        w.empty("QueueMessagesList");
        return w.finish();
    }
    w.open("QueueMessagesList");
    for m in messages {
        w.open("QueueMessage");
        w.element("MessageId", &m.id.to_string());
        w.element("InsertionTime", &rfc1123(m.insertion_time));
        w.element("ExpirationTime", &rfc1123(m.expiration_time));
        if shape != ListShape::Peek {
            w.element("PopReceipt", &m.pop_receipt.to_base64());
        }
        if shape != ListShape::Peek {
            w.element("TimeNextVisible", &rfc1123(m.time_next_visible));
        }
        if shape != ListShape::Put {
            w.element("DequeueCount", &m.dequeue_count.to_string());
            w.element("MessageText", &m.text);
        }
        w.close("QueueMessage");
    }
    w.close("QueueMessagesList");
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::error::ErrorCode;

    #[test]
    fn parses_sdk_bodies() {
        let js = br#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><QueueMessage><MessageText>a &lt;b&gt; &amp; 'c'</MessageText></QueueMessage>"#;
        assert_eq!(parse_message_text(js).unwrap(), "a <b> & 'c'");
        let py = b"\xEF\xBB\xBF<?xml version='1.0' encoding='utf-8'?>\n<QueueMessage>\n  <MessageText>  spaced  </MessageText>\n</QueueMessage>";
        assert_eq!(parse_message_text(py).unwrap(), "  spaced  ");
        assert_eq!(
            parse_message_text(b"<QueueMessage><MessageText/></QueueMessage>").unwrap(),
            ""
        );
        assert_eq!(
            parse_message_text(
                b"<QueueMessage><MessageText><b>x</b>y</MessageText></QueueMessage>"
            )
            .unwrap(),
            "xy"
        );
    }

    #[test]
    fn rejects_wrong_envelopes() {
        for bad in [
            &b""[..],
            b"not xml",
            b"<Other><MessageText>x</MessageText></Other>",
            b"<QueueMessage></QueueMessage>",
            b"<QueueMessage><MessageText>x</MessageText>",
            b"<QueueMessage/>",
        ] {
            assert_eq!(
                parse_message_text(bad).unwrap_err().code,
                ErrorCode::InvalidXmlDocument
            );
        }
    }
}
