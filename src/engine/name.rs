//! Queue names: validated once at the edge, trusted everywhere after.

use super::limits::{MAX_QUEUE_NAME, MIN_QUEUE_NAME};
use std::fmt;

/// Why a string is not a queue name. The two cases carry different Azure error codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Shorter than 3 or longer than 63 characters (`OutOfRangeInput`).
    Length,
    /// Not lowercase letters, digits and single inner dashes (`InvalidResourceName`).
    Characters,
}

/// A queue name: 3–63 characters of `a-z`, `0-9` and `-`, starting and ending with a letter or
/// digit, with no two dashes in a row.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "String", into = "String")]
pub struct QueueName(String);

impl TryFrom<String> for QueueName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        QueueName::parse(&s).map_err(|e| format!("`{s}` is not a queue name: {e:?}"))
    }
}

impl From<QueueName> for String {
    fn from(q: QueueName) -> String {
        q.0
    }
}

impl QueueName {
    pub fn parse(s: &str) -> Result<Self, NameError> {
        let ok_char = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-';
        let b = s.as_bytes();
        // Characters are judged before length, so `A` is "invalid" rather than "too short",
        // matching the service for names that break both rules.
        if !b.iter().all(|&c| ok_char(c)) {
            return Err(NameError::Characters);
        }
        if b.len() < MIN_QUEUE_NAME || b.len() > MAX_QUEUE_NAME {
            return Err(NameError::Length);
        }
        if b[0] == b'-' || b[b.len() - 1] == b'-' || s.contains("--") {
            return Err(NameError::Characters);
        }
        Ok(QueueName(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for QueueName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_documented_shapes() {
        for ok in ["abc", "my-queue-1", "0q0", &"a".repeat(63)] {
            assert!(QueueName::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn rejects_bad_characters_and_dashes() {
        for bad in ["Abc", "a_b", "-ab", "ab-", "a--b", "q\u{e9}q", "a b"] {
            assert_eq!(QueueName::parse(bad), Err(NameError::Characters), "{bad}");
        }
    }

    #[test]
    fn rejects_bad_lengths() {
        assert_eq!(QueueName::parse("ab"), Err(NameError::Length));
        assert_eq!(QueueName::parse(&"a".repeat(64)), Err(NameError::Length));
        assert_eq!(QueueName::parse(""), Err(NameError::Length));
    }
}
