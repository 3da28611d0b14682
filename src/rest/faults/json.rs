//! A rule set's JSON as a plain tree, read and written by hand around serde_json's parser.
//!
//! Rules reach every build, pkg/web included, whose wasm has a size ceiling: one visitor over a
//! six-case tree costs a fraction of the derived readers of three structs and two enums (and of
//! `serde_json::Value`, whose map and writer come with it), and each field's error is then ours
//! to word, naming the field and what it takes.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A JSON value. Objects keep their members in order, duplicates included (a reader refuses
/// them).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A whole number, as written (≥ 0).
    Unsigned(u64),
    /// A whole number below 0.
    Negative(i64),
    /// A number with a fraction or an exponent.
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// What the value is, for a refusal ("not a string but a number").
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "true or false",
            Json::Unsigned(_) | Json::Negative(_) | Json::Float(_) => "a number",
            Json::Str(_) => "a string",
            Json::Array(_) => "a list",
            Json::Object(_) => "an object",
        }
    }
}

impl Json {
    /// The string of field `name`; `None` for `null`.
    pub fn text(&self, name: &str) -> Result<Option<String>, String> {
        match self {
            Json::Null => Ok(None),
            Json::Str(s) => Ok(Some(s.clone())),
            other => Err(format!("`{name}` is a string, not {}", other.kind())),
        }
    }

    /// The whole number ≥ 0 of field `name`; `None` for `null`.
    pub fn whole(&self, name: &str) -> Result<Option<u64>, String> {
        match self {
            Json::Null => Ok(None),
            Json::Unsigned(n) => Ok(Some(*n)),
            other => Err(format!(
                "`{name}` is a whole number, 0 or more, not {}",
                match other {
                    Json::Negative(_) | Json::Float(_) => "this one",
                    other => other.kind(),
                }
            )),
        }
    }

    /// The number of field `name`; `None` for `null`.
    pub fn number(&self, name: &str) -> Result<Option<f64>, String> {
        match self {
            Json::Null => Ok(None),
            Json::Unsigned(n) => Ok(Some(*n as f64)),
            Json::Negative(n) => Ok(Some(*n as f64)),
            Json::Float(x) => Ok(Some(*x)),
            other => Err(format!("`{name}` is a number, not {}", other.kind())),
        }
    }
}

/// Reads `text` as one JSON value; `Err` is the parser's reason.
pub fn parse(text: &str) -> Result<Json, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Unsigned(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(if v >= 0 {
            Json::Unsigned(v as u64)
        } else {
            Json::Negative(v)
        })
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Float(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Str(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some((name, value)) = map.next_entry::<String, Json>()? {
            members.push((name, value));
        }
        Ok(Json::Object(members))
    }
}

/// Appends `s` as a JSON string (quoted and escaped).
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                out.push(char::from(b"0123456789abcdef"[(c as usize) >> 4]));
                out.push(char::from(b"0123456789abcdef"[(c as usize) & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A JSON object written member by member: `{"a":1,"b":"x"}`.
#[derive(Debug)]
pub struct ObjectWriter<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> ObjectWriter<'a> {
    pub fn new(out: &'a mut String) -> Self {
        out.push('{');
        ObjectWriter { out, first: true }
    }

    /// Starts a member: its name, then the caller writes its value to the returned text.
    pub fn member(&mut self, name: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        write_str(self.out, name);
        self.out.push(':');
        self.out
    }

    pub fn str(&mut self, name: &str, value: &str) -> &mut Self {
        let out = self.member(name);
        write_str(out, value);
        self
    }

    pub fn raw(&mut self, name: &str, value: &str) -> &mut Self {
        self.member(name).push_str(value);
        self
    }

    pub fn number(&mut self, name: &str, value: u64) -> &mut Self {
        self.raw(name, &value.to_string())
    }

    /// The number, or `null`.
    pub fn number_or_null(&mut self, name: &str, value: Option<u64>) -> &mut Self {
        match value {
            Some(n) => self.number(name, n),
            None => self.raw(name, "null"),
        }
    }

    pub fn close(self) {
        self.out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_value_reads() {
        let v = parse(r#"{"a": [null, true, 7, -2, 0.5, "x\n"], "a": {}}"#).unwrap();
        let expected = Json::Object(vec![
            (
                "a".into(),
                Json::Array(vec![
                    Json::Null,
                    Json::Bool(true),
                    Json::Unsigned(7),
                    Json::Negative(-2),
                    Json::Float(0.5),
                    Json::Str("x\n".into()),
                ]),
            ),
            ("a".into(), Json::Object(vec![])),
        ]);
        assert_eq!(v, expected);
        assert!(parse("{").is_err());
        assert!(parse("1e400").is_err());
        assert!(parse("[1] 2").is_err());
    }

    #[test]
    fn strings_are_written_as_json_reads_them() {
        for s in ["plain", "q\"uote\\", "ctl\u{1}\u{1f}\n\r\t", "é ✓"] {
            let mut out = String::new();
            write_str(&mut out, s);
            assert_eq!(parse(&out), Ok(Json::Str(s.to_owned())), "{out}");
        }
        let mut out = String::new();
        let mut w = ObjectWriter::new(&mut out);
        w.str("a", "x").number("b", 2).number_or_null("c", None);
        w.close();
        assert_eq!(out, r#"{"a":"x","b":2,"c":null}"#);
    }
}
