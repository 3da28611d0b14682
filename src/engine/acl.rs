//! Stored access policies (signed identifiers) on a queue.

use super::time::Timestamp;
use std::fmt;

/// A subset of the queue SAS permissions, always written in the canonical order `r a u p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct QueuePermissions {
    pub read: bool,
    pub add: bool,
    pub update: bool,
    pub process: bool,
}

impl QueuePermissions {
    /// Parses a permission string; any letter outside `raup` (or a repeat) is refused.
    pub fn parse(s: &str) -> Option<Self> {
        let mut p = QueuePermissions::default();
        for c in s.chars() {
            let slot = match c {
                'r' => &mut p.read,
                'a' => &mut p.add,
                'u' => &mut p.update,
                'p' => &mut p.process,
                _ => return None,
            };
            if *slot {
                return None;
            }
            *slot = true;
        }
        Some(p)
    }

    pub fn contains(self, other: QueuePermissions) -> bool {
        (!other.read || self.read)
            && (!other.add || self.add)
            && (!other.update || self.update)
            && (!other.process || self.process)
    }
}

impl fmt::Display for QueuePermissions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (on, c) in [
            (self.read, 'r'),
            (self.add, 'a'),
            (self.update, 'u'),
            (self.process, 'p'),
        ] {
            if on {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// A stored access policy's time, kept to the 100 ns tick the service's ISO 8601 output shows.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct PolicyTime {
    /// Seconds since the Unix epoch.
    pub secs: i64,
    /// 100-nanosecond ticks within the second, 0..10_000_000.
    pub ticks: u32,
}

impl PolicyTime {
    pub fn to_timestamp(self) -> Timestamp {
        Timestamp::from_millis((self.secs.max(0) as u64) * 1000 + (self.ticks / 10_000) as u64)
    }
}

/// The three optional parts of a policy.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct AccessPolicy {
    pub start: Option<PolicyTime>,
    pub expiry: Option<PolicyTime>,
    pub permission: Option<QueuePermissions>,
}

/// One `SignedIdentifier`: an id (≤ 64 characters) and its policy.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SignedIdentifier {
    pub id: String,
    pub policy: AccessPolicy,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_render_in_canonical_order() {
        assert_eq!(QueuePermissions::parse("puar").unwrap().to_string(), "raup");
        assert_eq!(QueuePermissions::parse("rwdl"), None);
        assert_eq!(QueuePermissions::parse("rr"), None);
        assert_eq!(QueuePermissions::parse("").unwrap().to_string(), "");
    }

    #[test]
    fn containment() {
        let raup = QueuePermissions::parse("raup").unwrap();
        let p = QueuePermissions::parse("p").unwrap();
        assert!(raup.contains(p));
        assert!(!p.contains(raup));
    }
}
