//! CORS rules as the service accepts them: the one place their limits are checked, whichever
//! face (the `Cors` XML element, the JS `setProperties` / `open({ cors })`) the rules came from.
//!
//! <https://learn.microsoft.com/rest/api/storageservices/cross-origin-resource-sharing--cors--support-for-the-azure-storage-services>

use super::limits::{
    CORS_METHODS, MAX_CORS_ENTRY, MAX_CORS_RULES, MAX_CORS_TEXT, MAX_LITERAL_CORS_HEADERS,
    MAX_PREFIXED_CORS_HEADERS,
};
use super::properties_error::PropertiesError;

/// One `CorsRule`. Lists are kept as the comma-separated strings the client sent (trimmed),
/// which is also how they are written back.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct CorsRule {
    pub allowed_origins: String,
    pub allowed_methods: String,
    pub allowed_headers: String,
    pub exposed_headers: String,
    pub max_age_in_seconds: u32,
}

impl CorsRule {
    /// A rule from its five parts as given (lists comma-separated, surrounding space allowed).
    ///
    /// # Errors
    /// [`PropertiesError::BadValue`] naming the element for an empty or over-long origin, a
    /// method outside [`CORS_METHODS`] (any case), a header entry over 256 characters, more than
    /// 64 literal or 2 `prefix*` headers in a list, or a max age beyond `i32`;
    /// [`PropertiesError::OutOfRange`] for a negative max age.
    pub fn new(
        allowed_origins: &str,
        allowed_methods: &str,
        allowed_headers: &str,
        exposed_headers: &str,
        max_age_in_seconds: i64,
    ) -> Result<Self, PropertiesError> {
        let bad = |element: &'static str, value: &str| PropertiesError::BadValue {
            element,
            value: value.to_owned(),
        };
        if allowed_origins
            .split(',')
            .map(str::trim)
            .any(|o| o.is_empty() || o.chars().count() > MAX_CORS_ENTRY)
        {
            return Err(bad("AllowedOrigins", allowed_origins));
        }
        let method_ok = |m: &str| CORS_METHODS.iter().any(|ok| ok.eq_ignore_ascii_case(m));
        if !allowed_methods.split(',').map(str::trim).all(method_ok) {
            return Err(bad("AllowedMethods", allowed_methods));
        }
        if !header_list_ok(allowed_headers) {
            return Err(bad("AllowedHeaders", allowed_headers));
        }
        if !header_list_ok(exposed_headers) {
            return Err(bad("ExposedHeaders", exposed_headers));
        }
        if max_age_in_seconds > i64::from(i32::MAX) {
            return Err(bad("MaxAgeInSeconds", &max_age_in_seconds.to_string()));
        }
        let max_age_in_seconds =
            u32::try_from(max_age_in_seconds).map_err(|_| PropertiesError::OutOfRange)?;
        Ok(CorsRule {
            allowed_origins: allowed_origins.trim().to_owned(),
            allowed_methods: allowed_methods.trim().to_owned(),
            allowed_headers: allowed_headers.trim().to_owned(),
            exposed_headers: exposed_headers.trim().to_owned(),
            max_age_in_seconds,
        })
    }

    /// The characters this rule counts against the service's 2 KiB of CORS text (tags
    /// excluded).
    fn text_len(&self) -> usize {
        self.allowed_origins.len()
            + self.allowed_methods.len()
            + self.allowed_headers.len()
            + self.exposed_headers.len()
            + self.max_age_in_seconds.to_string().len()
    }
}

/// An account's whole set of rules: at most five, and at most 2 KiB of text together.
///
/// # Errors
/// [`PropertiesError::TooManyCorsRules`], [`PropertiesError::CorsTooLarge`].
pub fn cors_rules(rules: Vec<CorsRule>) -> Result<Vec<CorsRule>, PropertiesError> {
    if rules.len() > MAX_CORS_RULES {
        return Err(PropertiesError::TooManyCorsRules);
    }
    if rules.iter().map(CorsRule::text_len).sum::<usize>() > MAX_CORS_TEXT {
        return Err(PropertiesError::CorsTooLarge);
    }
    Ok(rules)
}

/// An allowed/exposed header list: may be empty; entries ≤ 256 characters; at most 64 literal
/// names and 2 `prefix*` entries (a lone `*` is neither).
fn header_list_ok(list: &str) -> bool {
    let entries: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .collect();
    let prefixed = entries
        .iter()
        .filter(|h| h.len() > 1 && h.ends_with('*'))
        .count();
    entries.iter().all(|h| h.chars().count() <= MAX_CORS_ENTRY)
        && prefixed <= MAX_PREFIXED_CORS_HEADERS
        && entries.len() - prefixed <= MAX_LITERAL_CORS_HEADERS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(methods: &str, headers: &str, age: i64) -> Result<CorsRule, PropertiesError> {
        CorsRule::new("*", methods, headers, "", age)
    }

    #[test]
    fn methods_compare_ignoring_case_and_are_kept_as_given() {
        assert_eq!(
            rule(" get, Put ", "", 0).unwrap().allowed_methods,
            "get, Put"
        );
        assert_eq!(
            rule("GET,FETCH", "", 0),
            Err(PropertiesError::BadValue {
                element: "AllowedMethods",
                value: "GET,FETCH".into()
            })
        );
    }

    #[test]
    fn header_lists_have_entry_and_count_limits() {
        let long = "h".repeat(MAX_CORS_ENTRY + 1);
        assert!(rule("GET", &long, 0).is_err());
        assert!(rule("GET", "a*,b*", 0).is_ok());
        assert!(rule("GET", "a*,b*,c*", 0).is_err());
        let names: Vec<String> = (0..=MAX_LITERAL_CORS_HEADERS)
            .map(|i| format!("h{i}"))
            .collect();
        assert!(rule("GET", &names[1..].join(","), 0).is_ok());
        assert!(rule("GET", &names.join(","), 0).is_err());
    }

    #[test]
    fn max_age_is_a_non_negative_int32() {
        assert_eq!(rule("GET", "", -1), Err(PropertiesError::OutOfRange));
        assert!(rule("GET", "", i64::from(i32::MAX)).is_ok());
        assert!(matches!(
            rule("GET", "", i64::from(i32::MAX) + 1),
            Err(PropertiesError::BadValue {
                element: "MaxAgeInSeconds",
                ..
            })
        ));
    }

    #[test]
    fn a_set_holds_five_rules_and_two_kib() {
        let one = rule("GET", "", 0).unwrap();
        assert!(cors_rules(vec![one.clone(); MAX_CORS_RULES]).is_ok());
        assert_eq!(
            cors_rules(vec![one; MAX_CORS_RULES + 1]),
            Err(PropertiesError::TooManyCorsRules)
        );
        let wide = rule("GET", &vec!["h".repeat(200); 11].join(","), 0).unwrap();
        assert_eq!(cors_rules(vec![wide]), Err(PropertiesError::CorsTooLarge));
    }
}
