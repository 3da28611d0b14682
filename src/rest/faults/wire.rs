//! `/_azqueue/faults`' JSON: the body a `POST` sends and the document a `GET` answers.
//!
//! ```text
//! POST {"rules": [rule, …], "seed": 42, "limits": {"queueMessagesPerSecond": 10,
//!                                                  "accountRequestsPerSecond": null}}
//!  → 200 {"ids": ["1", …]}
//! GET
//!  → 200 {"rules": [rule + {"matched": n, "injected": n, "retired": bool}, …],
//!         "limits": {"queueMessagesPerSecond": n|null, "accountRequestsPerSecond": n|null},
//!         "throttled": {"queueMessagesPerSecond": n, "accountRequestsPerSecond": n},
//!         "seed": n}
//! ```
//!
//! Every member of a `POST` is optional; an unknown member is refused, so a misspelt field
//! never passes as a rule that does less than its author meant. In `limits`, a number sets
//! the limit, `null` lifts it, and a limit left out stays as it is.

use super::rule::RuleSpec;
use super::throttle::{Limits, MAX_RATE};
use serde::{Deserialize, Deserializer, Serialize};

/// A view as JSON text. Plain structs of strings and numbers: writing them cannot fail.
pub fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// A `POST` body, read but not yet checked rule by rule.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
    pub seed: Option<u64>,
    pub limits: Option<LimitsSpec>,
}

/// `limits` in a `POST`: each member absent (unchanged), `null` (lifted) or a rate.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LimitsSpec {
    #[serde(default, deserialize_with = "present")]
    pub queue_messages_per_second: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    pub account_requests_per_second: Option<Option<u32>>,
}

/// A member that is there, `null` or not: `Some(None)` for `null`, against `None` for absent.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

const EXPECTED: &str = "the body must be a JSON object with any of `rules` (a list of rules), \
    `seed` (a whole number) and `limits` ({\"queueMessagesPerSecond\": n or null, \
    \"accountRequestsPerSecond\": n or null})";

/// Reads a `POST` body; `Err` is the 400's reason.
pub fn read_body(body: &[u8]) -> Result<Body, String> {
    // `from_str`, as every JSON reader of the crate, so the wasm holds one copy of the parser.
    let text = std::str::from_utf8(body).map_err(|_| format!("{EXPECTED}: not UTF-8"))?;
    serde_json::from_str(text).map_err(|e| format!("{EXPECTED}: {e}"))
}

impl LimitsSpec {
    /// `current` with this spec's changes; `Err` names a rate out of range.
    pub fn apply_to(&self, current: Limits) -> Result<Limits, String> {
        let check = |name: &str, rate: Option<u32>| match rate {
            Some(r) if !(1..=MAX_RATE).contains(&r) => Err(format!(
                "`limits.{name}` must be 1 to {MAX_RATE}, or null for no limit; not {r}"
            )),
            _ => Ok(rate),
        };
        Ok(Limits {
            queue_messages_per_second: match self.queue_messages_per_second {
                Some(rate) => check("queueMessagesPerSecond", rate)?,
                None => current.queue_messages_per_second,
            },
            account_requests_per_second: match self.account_requests_per_second {
                Some(rate) => check("accountRequestsPerSecond", rate)?,
                None => current.account_requests_per_second,
            },
        })
    }
}

/// A kept rule as `GET` shows it: its spec with every value in effect, then its counts.
#[derive(Debug, Serialize)]
pub struct RuleView {
    #[serde(flatten)]
    pub spec: RuleSpec,
    pub matched: u64,
    pub injected: u64,
    pub retired: bool,
}

/// The limits in the form a `POST` takes them.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LimitsView {
    pub queue_messages_per_second: Option<u32>,
    pub account_requests_per_second: Option<u32>,
}

impl From<Limits> for LimitsView {
    fn from(l: Limits) -> Self {
        LimitsView {
            queue_messages_per_second: l.queue_messages_per_second,
            account_requests_per_second: l.account_requests_per_second,
        }
    }
}

/// How many requests each limit refused.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThrottledView {
    pub queue_messages_per_second: u64,
    pub account_requests_per_second: u64,
}

/// The whole of `GET /_azqueue/faults`.
#[derive(Debug, Serialize)]
pub struct FaultsView {
    pub rules: Vec<RuleView>,
    pub limits: LimitsView,
    pub throttled: ThrottledView,
    pub seed: u64,
}

/// The answer to a `POST`: the ids of the rules it added, in order.
#[derive(Debug, Serialize)]
pub struct Added<'a> {
    pub ids: &'a [String],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_absent_null_and_set() {
        let current = Limits {
            queue_messages_per_second: Some(5),
            account_requests_per_second: Some(7),
        };
        let read = |text: &str| read_body(text.as_bytes()).unwrap().limits.unwrap();
        let kept = read(r#"{"limits": {}}"#).apply_to(current);
        assert_eq!(kept, Ok(current));
        let changed =
            read(r#"{"limits": {"queueMessagesPerSecond": null, "accountRequestsPerSecond": 9}}"#)
                .apply_to(current);
        assert_eq!(
            changed,
            Ok(Limits {
                queue_messages_per_second: None,
                account_requests_per_second: Some(9),
            })
        );
        assert!(
            read(r#"{"limits": {"queueMessagesPerSecond": 0}}"#)
                .apply_to(current)
                .unwrap_err()
                .contains("queueMessagesPerSecond")
        );
    }

    #[test]
    fn bodies_that_are_not_a_rule_set() {
        for body in [
            &b""[..],
            b"[]",
            b"null",
            b"{\"rule\": []}",
            b"{\"rules\": {}}",
            b"{\"seed\": -1}",
            b"{\"seed\": 1.5}",
            b"{\"limits\": {\"queueMessagesPerSecond\": -1}}",
            b"{\"limits\": {\"queueMessagesPerSecond\": 1e10}}",
            b"{\"limits\": {\"messagesPerSecond\": 1}}",
            b"{\"rules\": [{\"status\": 503, \"delay_ms\": 5}]}",
            b"{\"rules\": [{\"when\": \"later\"}]}",
            b"{\"rules\": [{\"drop\": \"close\"}]}",
            b"\xff",
        ] {
            let why = read_body(body).unwrap_err();
            assert!(why.starts_with("the body must be"), "{why}");
        }
        assert!(read_body(b"{}").is_ok());
    }
}
