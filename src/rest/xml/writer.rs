//! A compact XML writer in the service's exact style: no whitespace between elements,
//! `<Name />` for empty elements, and only `&`, `<`, `>` escaped in text.

/// Builds one XML document.
#[derive(Debug, Default)]
pub struct XmlWriter {
    buf: String,
}

impl XmlWriter {
    /// Starts a document with the declaration the service sends, preceded by a UTF-8 byte-order
    /// mark when `bom` is set (the real service sends one; every SDK accepts either).
    pub fn document(bom: bool) -> Self {
        let mut buf = String::with_capacity(256);
        if bom {
            buf.push('\u{feff}');
        }
        buf.push_str(r#"<?xml version="1.0" encoding="utf-8"?>"#);
        XmlWriter { buf }
    }

    pub fn open(&mut self, name: &str) -> &mut Self {
        self.buf.push('<');
        self.buf.push_str(name);
        self.buf.push('>');
        self
    }

    /// Opens an element with one attribute (escaping `&`, `<` and `"` in its value).
    pub fn open_with_attr(&mut self, name: &str, attr: &str, value: &str) -> &mut Self {
        self.buf.push('<');
        self.buf.push_str(name);
        self.buf.push(' ');
        self.buf.push_str(attr);
        self.buf.push_str("=\"");
        for c in value.chars() {
            match c {
                '&' => self.buf.push_str("&amp;"),
                '<' => self.buf.push_str("&lt;"),
                '"' => self.buf.push_str("&quot;"),
                c => self.buf.push(c),
            }
        }
        self.buf.push_str("\">");
        self
    }

    pub fn close(&mut self, name: &str) -> &mut Self {
        self.buf.push_str("</");
        self.buf.push_str(name);
        self.buf.push('>');
        self
    }

    /// `<name />`.
    pub fn empty(&mut self, name: &str) -> &mut Self {
        self.buf.push('<');
        self.buf.push_str(name);
        self.buf.push_str(" />");
        self
    }

    /// `<name>text</name>`, or `<name />` when the text is empty.
    pub fn element(&mut self, name: &str, text: &str) -> &mut Self {
        if text.is_empty() {
            return self.empty(name);
        }
        self.open(name);
        self.text(text);
        self.close(name)
    }

    /// Escaped character data. A character XML 1.0 cannot carry at all (a control character
    /// other than tab, line feed and carriage return, or U+FFFE / U+FFFF) becomes U+FFFD, so the
    /// document stays parseable: message texts never hold one (`MessageText`), but an error
    /// may echo a query value that does.
    pub fn text(&mut self, text: &str) -> &mut Self {
        let bytes = text.as_bytes();
        let mut last = 0;
        let mut i = 0;
        while i < bytes.len() {
            let (esc, len) = match bytes[i] {
                b'&' => ("&amp;", 1),
                b'<' => ("&lt;", 1),
                b'>' => ("&gt;", 1),
                b'\t' | b'\n' | b'\r' => {
                    i += 1;
                    continue;
                }
                0..0x20 => ("\u{FFFD}", 1),
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF in UTF-8.
                0xEF if matches!(bytes.get(i + 1..i + 3), Some([0xBF, 0xBE | 0xBF])) => {
                    ("\u{FFFD}", 3)
                }
                _ => {
                    i += 1;
                    continue;
                }
            };
            self.buf.push_str(&text[last..i]);
            self.buf.push_str(esc);
            i += len;
            last = i;
        }
        self.buf.push_str(&text[last..]);
        self
    }

    pub fn finish(self) -> String {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_compact_xml_with_service_escaping() {
        let mut w = XmlWriter::document(false);
        w.open("A")
            .element("B", "x<y & 'z' \"q\" >")
            .element("C", "")
            .close("A");
        assert_eq!(
            w.finish(),
            r#"<?xml version="1.0" encoding="utf-8"?><A><B>x&lt;y &amp; 'z' "q" &gt;</B><C /></A>"#
        );
    }

    #[test]
    fn characters_xml_cannot_carry_become_replacement_characters() {
        let mut w = XmlWriter::document(false);
        w.element("V", "a\u{1}b\tc\nd\re\u{FFFE}f\u{FFFF}g\u{FFFD}h\u{EFFF}i&");
        assert_eq!(
            w.finish(),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><V>a\u{FFFD}b\tc\nd\re\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{EFFF}i&amp;</V>"
        );
    }

    #[test]
    fn bom_is_optional() {
        assert!(XmlWriter::document(true).finish().starts_with('\u{feff}'));
    }
}
