//! The request's query string, decoded once.

use super::error::RestError;
use percent_encoding::percent_decode_str;
use std::num::IntErrorKind;

/// Decoded query parameters in order of first appearance. Names are matched
/// case-insensitively.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Splits and percent-decodes a raw query string (`+` stays a literal plus: SDKs encode
    /// spaces as `%20`, and base64 pop receipts contain `+`).
    ///
    /// A name given more than once is one parameter whose value is the values joined with
    /// commas, in order, as the service reads it (and as SharedKey signs it). So a SAS with
    /// `sig` twice carries a `sig` that cannot verify, instead of being served with whichever
    /// copy a reader happens to pick.
    pub fn parse(raw: Option<&str>) -> Self {
        let decode = |s: &str| percent_decode_str(s).decode_utf8_lossy().into_owned();
        let mut pairs: Vec<(String, String)> = Vec::new();
        for p in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (name, value) = match p.split_once('=') {
                Some((k, v)) => (decode(k), decode(v)),
                None => (decode(p), String::new()),
            };
            match pairs
                .iter_mut()
                .find(|(k, _)| k.eq_ignore_ascii_case(&name))
            {
                Some((_, joined)) => {
                    joined.push(',');
                    joined.push_str(&value);
                }
                None => pairs.push((name, value)),
            }
        }
        Query(pairs)
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

    /// An optional integer parameter that may exceed 32 bits (`messagettl`, which allows any
    /// positive number of seconds).
    ///
    /// # Errors
    /// `InvalidQueryParameterValue` when not an integer, `OutOfRangeQueryParameterValue`
    /// when it does not fit in 64 bits.
    pub fn int64(&self, name: &str) -> Result<Option<i64>, RestError> {
        let Some(raw) = self.get(name) else {
            return Ok(None);
        };
        let text = raw.trim();
        match text.parse::<i64>() {
            Ok(v) => Ok(Some(v)),
            Err(e)
                if matches!(
                    e.kind(),
                    IntErrorKind::PosOverflow | IntErrorKind::NegOverflow
                ) =>
            {
                Err(RestError::query_out_of_range(name, raw, i64::MIN, i64::MAX))
            }
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

    #[test]
    fn a_repeated_name_is_one_parameter_with_comma_joined_values() {
        let q = Query::parse(Some("sig=abc%3D&comp=list&SIG=x&sig="));
        assert_eq!(q.get("sig"), Some("abc=,x,"));
        assert_eq!(q.pairs().len(), 2);
        assert_eq!(q.pairs()[0].0, "sig");
    }

    #[test]
    fn int64_reads_past_32_bits() {
        let q = Query::parse(Some("a=9007199254740991&b=99999999999999999999&c=x"));
        assert_eq!(q.int64("a").unwrap(), Some(9_007_199_254_740_991));
        assert_eq!(
            q.int64("b").unwrap_err().code,
            crate::rest::ErrorCode::OutOfRangeQueryParameterValue
        );
        assert_eq!(
            q.int64("c").unwrap_err().code,
            crate::rest::ErrorCode::InvalidQueryParameterValue
        );
        assert_eq!(q.int64("d").unwrap(), None);
    }
}
