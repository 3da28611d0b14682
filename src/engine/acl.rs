//! Stored access policies (signed identifiers) on a queue.

use super::limits::{MAX_SIGNED_IDENTIFIER_ID, MAX_SIGNED_IDENTIFIERS};
use super::time::Timestamp;
use std::fmt;

/// Why a list of stored access policies was refused. The service answers every one of these
/// with `InvalidXmlDocument`; the wording is the reason given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AclError {
    /// The legacy service's own (ungrammatical) wording.
    #[error("At most 5 signed identifier is allowed in the request body")]
    TooMany,
    #[error(
        "Element Id is required in element SignedIdentifier and must be 1 to {MAX_SIGNED_IDENTIFIER_ID} characters long."
    )]
    BadId,
    #[error("The signed identifier '{0}' appears more than once.")]
    DuplicateId(String),
    #[error(
        "Element Permission has the value '{0}'; a queue policy's permissions are letters from r, a, u and p."
    )]
    BadPermission(String),
}

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

    /// A stored access policy's `Permission`: letters from `raup` in any order, a repeat
    /// tolerated (the service reads them as a set). Empty (after trimming) means unset.
    ///
    /// # Errors
    /// [`AclError::BadPermission`] for any other letter.
    pub fn for_policy(s: &str) -> Result<Option<Self>, AclError> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        let mut p = QueuePermissions::default();
        for c in s.chars() {
            match c {
                'r' => p.read = true,
                'a' => p.add = true,
                'u' => p.update = true,
                'p' => p.process = true,
                _ => return Err(AclError::BadPermission(s.to_owned())),
            }
        }
        Ok(Some(p))
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

impl SignedIdentifier {
    /// # Errors
    /// [`AclError::BadId`] for an empty id or one over 64 characters.
    pub fn new(id: String, policy: AccessPolicy) -> Result<Self, AclError> {
        if id.is_empty() || id.chars().count() > MAX_SIGNED_IDENTIFIER_ID {
            return Err(AclError::BadId);
        }
        Ok(SignedIdentifier { id, policy })
    }
}

/// A queue's whole list of policies, from its items as each face reads them: at most five
/// (counted before any item is read, as the service does), ids unique.
///
/// # Errors
/// [`AclError::TooMany`], [`AclError::DuplicateId`], or the first item's error.
pub fn signed_identifiers<E: From<AclError>>(
    items: impl ExactSizeIterator<Item = Result<SignedIdentifier, E>>,
) -> Result<Vec<SignedIdentifier>, E> {
    if items.len() > MAX_SIGNED_IDENTIFIERS {
        return Err(AclError::TooMany.into());
    }
    let mut acl: Vec<SignedIdentifier> = Vec::with_capacity(items.len());
    for item in items {
        let si = item?;
        if acl.iter().any(|a| a.id == si.id) {
            return Err(AclError::DuplicateId(si.id).into());
        }
        acl.push(si);
    }
    Ok(acl)
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
    fn policy_permissions_are_a_set() {
        assert_eq!(
            QueuePermissions::for_policy("rr p").map(|p| p.map(|p| p.to_string())),
            Err(AclError::BadPermission("rr p".into()))
        );
        assert_eq!(
            QueuePermissions::for_policy(" prr ")
                .unwrap()
                .unwrap()
                .to_string(),
            "rp"
        );
        assert_eq!(QueuePermissions::for_policy(""), Ok(None));
    }

    #[test]
    fn lists_hold_five_unique_ids() {
        let si = |id: &str| SignedIdentifier::new(id.to_owned(), AccessPolicy::default());
        assert_eq!(si("").unwrap_err(), AclError::BadId);
        assert_eq!(si(&"i".repeat(65)).unwrap_err(), AclError::BadId);
        let ids = ["a", "b", "c", "d", "e", "f"];
        assert_eq!(
            signed_identifiers::<AclError>(ids.iter().map(|i| si(i))),
            Err(AclError::TooMany)
        );
        assert_eq!(
            signed_identifiers::<AclError>(ids[..5].iter().map(|i| si(i))).map(|l| l.len()),
            Ok(5)
        );
        assert_eq!(
            signed_identifiers::<AclError>(["a", "a"].iter().map(|i| si(i))),
            Err(AclError::DuplicateId("a".into()))
        );
    }

    #[test]
    fn containment() {
        let raup = QueuePermissions::parse("raup").unwrap();
        let p = QueuePermissions::parse("p").unwrap();
        assert!(raup.contains(p));
        assert!(!p.contains(raup));
    }
}
