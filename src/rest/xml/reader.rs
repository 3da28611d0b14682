//! Request XML into a small element tree, so document parsers can look children up by name in
//! any order (the service accepts its request documents order-free).
//!
//! Only what request bodies need: element names (prefixes dropped), concatenated text (entities
//! and CDATA decoded, whitespace kept) and children. Attributes, comments, processing
//! instructions and the DTD are ignored; nothing external is resolved. Any XML declaration and
//! a leading UTF-8 byte-order mark are accepted.

use crate::rest::error::{ErrorCode, RestError};
use quick_xml::events::Event;
use quick_xml::reader::Reader;

/// Deeper documents are refused: request documents are at most four levels deep, and a cap
/// keeps hostile input from exhausting the (small, on wasm) stack when the tree is dropped.
const MAX_DEPTH: usize = 16;

/// One element of a request document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub name: String,
    /// The element's own character data, concatenated (text between child elements included).
    pub text: String,
    pub children: Vec<Element>,
    /// 1-based line and column of the name in the closing tag (or in `<Name />`): where the
    /// service reports problems with an element's content.
    pub line: usize,
    pub column: usize,
}

impl Element {
    fn new(name: String) -> Self {
        Element {
            name,
            text: String::new(),
            children: Vec::new(),
            line: 0,
            column: 0,
        }
    }

    /// The only child called `name`, if any. Two of them make the document invalid.
    pub fn child(&self, name: &str) -> Result<Option<&Element>, RestError> {
        let mut found = self.children.iter().filter(|c| c.name == name);
        let first = found.next();
        match found.next() {
            Some(dup) => Err(dup.invalid(&format!("Element {name} is specified more than once."))),
            None => Ok(first),
        }
    }

    /// The only child called `name`; absent is an error (the element is incomplete).
    pub fn required(&self, name: &str) -> Result<&Element, RestError> {
        self.child(name)?.ok_or_else(|| {
            self.invalid(&format!(
                "Element {name} is required in element {}.",
                self.name
            ))
        })
    }

    /// Every child called `name`, in document order.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// `400 InvalidXmlDocument` pointing at this element, with a reason in the service's style
    /// (e.g. "Element Days is only expected when RetentionPolicy is enabled.").
    pub fn invalid(&self, reason: &str) -> RestError {
        RestError::new(ErrorCode::InvalidXmlDocument)
            .with("LineNumber", self.line.to_string())
            .with("LinePosition", self.column.to_string())
            .with("Reason", reason)
    }

    /// Points an error from a rule checked on this element at it: an `InvalidXmlDocument`
    /// gets the element's line and position ahead of its reason; other errors name their
    /// element (or none) already.
    pub fn locate(&self, e: RestError) -> RestError {
        if e.code != ErrorCode::InvalidXmlDocument
            || e.details.iter().any(|(name, _)| *name == "LineNumber")
        {
            return e;
        }
        let mut located = RestError {
            details: Vec::with_capacity(e.details.len() + 2),
            ..e
        };
        located.details.push(("LineNumber", self.line.to_string()));
        located
            .details
            .push(("LinePosition", self.column.to_string()));
        located.details.extend(e.details);
        located
    }

    /// `400 InvalidXmlNodeValue` naming this element and the value it carried.
    pub fn bad_value(&self) -> RestError {
        RestError::new(ErrorCode::InvalidXmlNodeValue)
            .with("XmlNodeName", self.name.as_str())
            .with("XmlNodeValue", self.text.as_str())
    }
}

/// Parses a whole request body into its root element. Anything that is not well-formed XML
/// with exactly one root is `RestError::invalid_xml()`.
pub fn parse_document(body: &[u8]) -> Result<Element, RestError> {
    let body = strip_bom(body);
    let mut reader = Reader::from_reader(body);
    let mut lines = LineCounter::default();
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let at = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = reader.read_event().map_err(|_| RestError::invalid_xml())?;
        match event {
            Event::Start(e) => {
                if stack.len() >= MAX_DEPTH || root.is_some() {
                    return Err(RestError::invalid_xml());
                }
                stack.push(Element::new(utf8(e.local_name().into_inner())?));
            }
            Event::Empty(e) => {
                let mut el = Element::new(utf8(e.local_name().into_inner())?);
                (el.line, el.column) = lines.position(body, at.saturating_add(1));
                attach(&mut stack, &mut root, el)?;
            }
            Event::End(_) => {
                let mut el = stack.pop().ok_or_else(RestError::invalid_xml)?;
                (el.line, el.column) = lines.position(body, at.saturating_add(2));
                attach(&mut stack, &mut root, el)?;
            }
            Event::Text(t) => {
                let text = t.unescape().map_err(|_| RestError::invalid_xml())?;
                match stack.last_mut() {
                    Some(top) => top.text.push_str(&text),
                    // Only whitespace may sit outside the root.
                    None if text.trim().is_empty() => {}
                    None => return Err(RestError::invalid_xml()),
                }
            }
            Event::CData(c) => {
                let text = utf8(&c.into_inner())?;
                stack
                    .last_mut()
                    .ok_or_else(RestError::invalid_xml)?
                    .text
                    .push_str(&text);
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    match (root, stack.is_empty()) {
        (Some(root), true) => Ok(root),
        _ => Err(RestError::invalid_xml()),
    }
}

/// Whether a body carries no document at all (empty, or only a BOM and whitespace).
pub fn is_blank(body: &[u8]) -> bool {
    strip_bom(body).iter().all(u8::is_ascii_whitespace)
}

fn strip_bom(body: &[u8]) -> &[u8] {
    body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body)
}

fn utf8(bytes: &[u8]) -> Result<String, RestError> {
    std::str::from_utf8(bytes)
        .map(str::to_owned)
        .map_err(|_| RestError::invalid_xml())
}

fn attach(stack: &mut [Element], root: &mut Option<Element>, el: Element) -> Result<(), RestError> {
    match stack.last_mut() {
        Some(parent) => parent.children.push(el),
        None if root.is_none() => *root = Some(el),
        None => return Err(RestError::invalid_xml()),
    }
    Ok(())
}

/// Turns byte offsets (visited in increasing order) into 1-based line and column, counting
/// characters rather than bytes as the service's .NET reader does.
#[derive(Default)]
struct LineCounter {
    offset: usize,
    line: usize,
    line_start: usize,
}

impl LineCounter {
    fn position(&mut self, src: &[u8], offset: usize) -> (usize, usize) {
        let offset = offset.min(src.len());
        for (i, b) in src.iter().enumerate().take(offset).skip(self.offset) {
            if *b == b'\n' {
                self.line += 1;
                self.line_start = i + 1;
            }
        }
        self.offset = self.offset.max(offset);
        let chars = src
            .get(self.line_start..offset)
            .unwrap_or_default()
            .iter()
            .filter(|b| (**b & 0xC0) != 0x80)
            .count();
        (self.line + 1, chars + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_a_tree_ignoring_declaration_and_prefixes() {
        let root = parse_document(
            b"\xEF\xBB\xBF<?xml version='1.0'?>\n<a:R><B>x &amp; <![CDATA[<y>]]></B><C/></a:R>",
        )
        .unwrap();
        assert_eq!(root.name, "R");
        assert_eq!(root.children[0].text, "x & <y>");
        assert_eq!(root.children[1].name, "C");
    }

    #[test]
    fn reports_closing_tag_position() {
        let root = parse_document(b"<R>\n  <B>1</B>\n</R>").unwrap();
        assert_eq!((root.children[0].line, root.children[0].column), (2, 9));
        assert_eq!((root.line, root.column), (3, 3));
    }

    #[test]
    fn refuses_malformed_input() {
        for bad in [
            &b""[..],
            b"<R>",
            b"<R></S>",
            b"<R/><R/>",
            b"text<R/>",
            b"<R>&bogus;</R>",
            b"<R>\xFF</R>",
        ] {
            assert_eq!(
                parse_document(bad),
                Err(RestError::invalid_xml()),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn refuses_deep_nesting() {
        let deep = "<a>".repeat(MAX_DEPTH + 1) + &"</a>".repeat(MAX_DEPTH + 1);
        assert!(parse_document(deep.as_bytes()).is_err());
    }
}
