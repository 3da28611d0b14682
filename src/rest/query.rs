//! The request's query string, decoded once.

use super::error::RestError;
use percent_encoding::percent_decode_str;

/// Decoded query parameters in request order. Names are matched case-insensitively.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Splits and percent-decodes a raw query string (`+` stays a literal plus: SDKs encode
    /// spaces as `%20`, and base64 pop receipts contain `+`).
    pub fn parse(raw: Option<&str>) -> Self {
        let decode = |s: &str| percent_decode_str(s).decode_utf8_lossy().into_owned();
        Query(
            raw.unwrap_or("")
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| match p.split_once('=') {
                    Some((k, v)) => (decode(k), decode(v)),
                    None => (decode(p), String::new()),
                })
                .collect(),
        )
    }

    /// The first value of `name`, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// An optional integer parameter, as the service reads them.
    ///
    /// # Errors
    /// `InvalidQueryParameterValue` when not an integer, `OutOfRangeQueryParameterValue`
    /// when it does not fit in 32 bits.
    pub fn int32(&self, name: &str) -> Result<Option<i64>, RestError> {
        let Some(raw) = self.get(name) else {
            return Ok(None);
        };
        match raw.trim().parse::<i64>() {
            Ok(v) if i32::try_from(v).is_ok() => Ok(Some(v)),
            Ok(_) => Err(RestError::query_out_of_range(
                name,
                raw,
                i32::MIN as i64,
                i32::MAX as i64,
            )),
            Err(_) => Err(RestError::invalid_query(name, raw, "Not a valid integer.")),
        }
    }

    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_matches_names_case_insensitively() {
        let q = Query::parse(Some(
            "comp=list&Prefix=a%20b&popreceipt=AgA%2BAA%3D%3D&flag",
        ));
        assert_eq!(q.get("prefix"), Some("a b"));
        assert_eq!(q.get("popreceipt"), Some("AgA+AA=="));
        assert_eq!(q.get("flag"), Some(""));
        assert_eq!(q.get("missing"), None);
    }
}
