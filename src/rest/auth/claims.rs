//! The claims of a JWT payload that bearer authentication reads (`tid`, `iss`, `nbf`, `exp`,
//! `aud`), read straight from the JSON text.
//!
//! A claim of an unexpected JSON type counts as absent, and any other member is skipped, as
//! when the payload was read into a `serde_json::Value` and looked up; a repeated member keeps
//! its last value, as a `Value` map did. Reading only these five into one struct spares the
//! wasm the whole `Value` tree (its map, builder and writer), about 8 KB gzipped.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The claims bearer authentication checks; `None` (or empty) where the payload has none of
/// the expected type.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Claims {
    pub tid: Option<String>,
    pub iss: Option<String>,
    pub nbf: Option<f64>,
    pub exp: Option<f64>,
    pub aud: Vec<String>,
}

/// Parses a payload. `None` unless it is one JSON object.
pub(super) fn parse(payload: &str) -> Option<Claims> {
    serde_json::from_str(payload).ok()
}

impl<'de> Deserialize<'de> for Claims {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ClaimsVisitor)
    }
}

struct ClaimsVisitor;

impl<'de> Visitor<'de> for ClaimsVisitor {
    type Value = Claims;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Claims, A::Error> {
        let mut claims = Claims::default();
        while let Some(name) = map.next_key::<String>()? {
            match name.as_str() {
                "tid" => claims.tid = map.next_value::<Claim>()?.text,
                "iss" => claims.iss = map.next_value::<Claim>()?.text,
                "nbf" => claims.nbf = map.next_value::<Claim>()?.number,
                "exp" => claims.exp = map.next_value::<Claim>()?.number,
                "aud" => claims.aud = map.next_value::<Claim>()?.texts,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(claims)
    }
}

/// One claim's value, whatever its JSON type: its text if it is a string, its value if it is
/// a number, and the strings among its items if it is an array (`aud` may be either). Nested
/// values are skipped.
#[derive(Default)]
struct Claim {
    text: Option<String>,
    number: Option<f64>,
    texts: Vec<String>,
}

impl<'de> Deserialize<'de> for Claim {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ClaimVisitor { in_array: false })
    }
}

/// `in_array`: reading an array's item, which is kept only if it is a string.
struct ClaimVisitor {
    in_array: bool,
}

impl<'de> Visitor<'de> for ClaimVisitor {
    type Value = Claim;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Claim, E> {
        Ok(Claim {
            texts: vec![s.to_owned()],
            text: Some(s.to_owned()),
            ..Claim::default()
        })
    }

    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Claim, E> {
        Ok(Claim {
            number: Some(n),
            ..Claim::default()
        })
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Claim, E> {
        self.visit_f64(n as f64)
    }

    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Claim, E> {
        self.visit_f64(n as f64)
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Claim, E> {
        Ok(Claim::default())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Claim, E> {
        Ok(Claim::default())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Claim, A::Error> {
        let mut texts = Vec::new();
        if self.in_array {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
        } else {
            while let Some(item) = seq.next_element::<ArrayItem>()? {
                texts.extend(item.0.text);
            }
        }
        Ok(Claim {
            texts,
            ..Claim::default()
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Claim, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Claim::default())
    }
}

/// An item of an array claim.
struct ArrayItem(Claim);

impl<'de> Deserialize<'de> for ArrayItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(ClaimVisitor { in_array: true })
            .map(ArrayItem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_claims_are_read_and_the_rest_skipped() {
        let c = parse(
            r#"{"aud":"a","iss":"i","tid":"t","nbf":1,"exp":2.5,"x":{"y":[1,{"z":null}]},"n":null}"#,
        )
        .unwrap();
        assert_eq!(c.aud, ["a"]);
        assert_eq!((c.iss.as_deref(), c.tid.as_deref()), (Some("i"), Some("t")));
        assert_eq!((c.nbf, c.exp), (Some(1.0), Some(2.5)));
    }

    #[test]
    fn claims_of_another_type_count_as_absent() {
        let c =
            parse(r#"{"aud":["a",1,["b"],{"c":"d"},"e"],"iss":1,"tid":[],"nbf":"1","exp":true}"#)
                .unwrap();
        assert_eq!(c.aud, ["a", "e"]);
        assert_eq!((c.iss, c.tid, c.nbf, c.exp), (None, None, None, None));
        assert_eq!(parse(r#"{"aud":7}"#).unwrap().aud, Vec::<String>::new());
        assert_eq!(parse(r#"{"aud":"x","aud":"y"}"#).unwrap().aud, ["y"]);
    }

    #[test]
    fn only_an_object_is_a_payload() {
        for bad in ["[1]", "\"x\"", "1", "null", "{", "{} x", ""] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        assert_eq!(parse("{}"), Some(Claims::default()));
    }
}
