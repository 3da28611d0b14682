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

    /// Escaped character data.
    pub fn text(&mut self, text: &str) -> &mut Self {
        let mut last = 0;
        for (i, b) in text.bytes().enumerate() {
            let esc = match b {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                _ => continue,
            };
            self.buf.push_str(&text[last..i]);
            self.buf.push_str(esc);
            last = i + 1;
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
    fn bom_is_optional() {
        assert!(XmlWriter::document(true).finish().starts_with('\u{feff}'));
    }
}
