//! Queue metadata: names keep the case they were given but compare case-insensitively.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Name–value pairs from `x-ms-meta-*` headers, keyed by the lowercased name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata(BTreeMap<String, (String, String)>);

/// Why a set of metadata pairs was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetadataError {
    EmptyName,
    InvalidName(String),
    DuplicateName(String),
    TooLarge,
}

impl Metadata {
    /// Builds metadata from pairs, enforcing the naming rules (C# identifiers as HTTP header
    /// names allow them), case-insensitive uniqueness and the 8 KiB total.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, MetadataError> {
        let mut map = BTreeMap::new();
        let mut total = 0usize;
        for (name, value) in pairs {
            if name.is_empty() {
                return Err(MetadataError::EmptyName);
            }
            if !is_identifier(name) {
                return Err(MetadataError::InvalidName(name.to_owned()));
            }
            total += name.len() + value.len();
            let key = name.to_ascii_lowercase();
            if map.contains_key(&key) {
                return Err(MetadataError::DuplicateName(name.to_owned()));
            }
            map.insert(key, (name.to_owned(), value.to_owned()));
        }
        if total > super::limits::MAX_METADATA_BYTES {
            return Err(MetadataError::TooLarge);
        }
        Ok(Metadata(map))
    }

    /// Pairs in their stored case, ordered by lowercased name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.values().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Create Queue's idempotency test: same names ignoring case, identical values.
    pub fn same_as(&self, other: &Metadata) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .all(|(k, (_, v))| other.0.get(k).is_some_and(|(_, ov)| ov == v))
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_names_case_insensitively() {
        let a = Metadata::from_pairs([("Color", "red")]).unwrap();
        let b = Metadata::from_pairs([("color", "red")]).unwrap();
        let c = Metadata::from_pairs([("color", "RED")]).unwrap();
        assert!(a.same_as(&b));
        assert!(!a.same_as(&c));
        assert_eq!(a.iter().collect::<Vec<_>>(), [("Color", "red")]);
    }

    #[test]
    fn enforces_the_naming_rules() {
        assert_eq!(
            Metadata::from_pairs([("", "v")]),
            Err(MetadataError::EmptyName)
        );
        assert!(matches!(
            Metadata::from_pairs([("1a", "v")]),
            Err(MetadataError::InvalidName(_))
        ));
        assert!(matches!(
            Metadata::from_pairs([("a-b", "v")]),
            Err(MetadataError::InvalidName(_))
        ));
        assert!(matches!(
            Metadata::from_pairs([("a", "1"), ("A", "2")]),
            Err(MetadataError::DuplicateName(_))
        ));
        let big = "x".repeat(8 * 1024);
        assert_eq!(
            Metadata::from_pairs([("a", big.as_str())]),
            Err(MetadataError::TooLarge)
        );
    }
}
