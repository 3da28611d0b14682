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

use super::json::{self, Json, ObjectWriter};
use super::rule::RuleSpec;
use super::throttle::{Limits, MAX_RATE};

/// A `POST` body, read but not yet checked rule by rule.
#[derive(Debug, Default)]
pub struct Body {
    pub rules: Vec<RuleSpec>,
    pub seed: Option<u64>,
    pub limits: Option<LimitsSpec>,
}

/// `limits` in a `POST`: each member absent (unchanged), `null` (lifted) or a rate.
#[derive(Debug, Default)]
pub struct LimitsSpec {
    pub queue_messages_per_second: Option<Option<u64>>,
    pub account_requests_per_second: Option<Option<u64>>,
}

const EXPECTED: &str = "the body must be a JSON object with any of `rules` (a list of rules), \
    `seed` (a whole number) and `limits` ({\"queueMessagesPerSecond\": n or null, \
    \"accountRequestsPerSecond\": n or null})";

/// Reads a `POST` body; `Err` is the 400's reason.
pub fn read_body(body: &[u8]) -> Result<Body, String> {
    let text = std::str::from_utf8(body).map_err(|_| format!("{EXPECTED}: not UTF-8"))?;
    let value = json::parse(text).map_err(|e| format!("{EXPECTED}: {e}"))?;
    let Json::Object(members) = value else {
        return Err(format!("{EXPECTED}, not {}", value.kind()));
    };
    let mut body = Body::default();
    for (i, (name, v)) in members.iter().enumerate() {
        if members[..i].iter().any(|(earlier, _)| earlier == name) {
            return Err(format!("`{name}` is given twice"));
        }
        match (name.as_str(), v) {
            ("rules", Json::Array(rules)) => {
                for (i, rule) in rules.iter().enumerate() {
                    body.rules
                        .push(RuleSpec::read(rule).map_err(|why| format!("rules[{i}]: {why}"))?);
                }
            }
            ("rules", other) => return Err(format!("`rules` is a list, not {}", other.kind())),
            ("seed", v) => body.seed = v.whole("seed")?,
            ("limits", v) => body.limits = Some(read_limits(v)?),
            (other, _) => return Err(format!("`{other}` is not a member: {EXPECTED}")),
        }
    }
    Ok(body)
}

fn read_limits(value: &Json) -> Result<LimitsSpec, String> {
    let Json::Object(members) = value else {
        return Err(format!("`limits` is an object, not {}", value.kind()));
    };
    let mut limits = LimitsSpec::default();
    for (name, v) in members {
        let rate = Some(v.whole(&format!("limits.{name}"))?);
        match name.as_str() {
            "queueMessagesPerSecond" => limits.queue_messages_per_second = rate,
            "accountRequestsPerSecond" => limits.account_requests_per_second = rate,
            other => {
                return Err(format!(
                    "`limits.{other}` is not a limit (queueMessagesPerSecond, \
                     accountRequestsPerSecond)"
                ));
            }
        }
    }
    Ok(limits)
}

impl LimitsSpec {
    /// `current` with this spec's changes; `Err` names a rate out of range.
    pub fn apply_to(&self, current: Limits) -> Result<Limits, String> {
        let check = |name: &str, rate: Option<u64>| match rate {
            None => Ok(None),
            Some(r) if (1..=u64::from(MAX_RATE)).contains(&r) => Ok(Some(r as u32)),
            Some(r) => Err(format!(
                "`limits.{name}` must be 1 to {MAX_RATE}, or null for no limit; not {r}"
            )),
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

/// Writes the limits in the form a `POST` takes them.
pub fn write_limits(out: &mut String, limits: Limits) {
    let mut w = ObjectWriter::new(out);
    w.number_or_null(
        "queueMessagesPerSecond",
        limits.queue_messages_per_second.map(u64::from),
    )
    .number_or_null(
        "accountRequestsPerSecond",
        limits.account_requests_per_second.map(u64::from),
    );
    w.close();
}

/// The answer to a `POST`: `{"ids": [...]}`.
pub fn ids(ids: &[String]) -> String {
    let mut out = String::from("{\"ids\":[");
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json::write_str(&mut out, id);
    }
    out.push_str("]}");
    out
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
        let zero = read(r#"{"limits": {"queueMessagesPerSecond": 0}}"#).apply_to(current);
        assert!(zero.unwrap_err().contains("queueMessagesPerSecond"));
        let mut out = String::new();
        write_limits(&mut out, current);
        assert_eq!(
            out,
            r#"{"queueMessagesPerSecond":5,"accountRequestsPerSecond":7}"#
        );
    }

    #[test]
    fn bodies_that_are_not_a_rule_set_say_why() {
        for (body, says) in [
            (&b""[..], "the body must be"),
            (b"[]", "the body must be a JSON object"),
            (b"null", "not null"),
            (b"{\"rule\": []}", "`rule` is not a member"),
            (b"{\"rules\": {}}", "`rules` is a list, not an object"),
            (b"{\"rules\": [], \"rules\": []}", "`rules` is given twice"),
            (b"{\"seed\": -1}", "`seed` is a whole number"),
            (b"{\"seed\": 1.5}", "`seed` is a whole number"),
            (
                b"{\"limits\": {\"queueMessagesPerSecond\": -1}}",
                "`limits.queueMessagesPerSecond` is a whole number",
            ),
            (
                b"{\"limits\": {\"queueMessagesPerSecond\": 1e10}}",
                "`limits.queueMessagesPerSecond` is a whole number",
            ),
            (
                b"{\"limits\": {\"messagesPerSecond\": 1}}",
                "`limits.messagesPerSecond` is not a limit",
            ),
            (b"{\"limits\": 5}", "`limits` is an object"),
            (
                b"{\"rules\": [{\"status\": 503, \"delay_ms\": 5}]}",
                "rules[0]: `delay_ms` is not a rule's field",
            ),
            (
                b"{\"rules\": [{\"when\": \"later\"}]}",
                "rules[0]: `when` is \"before\" or \"after\", not \"later\"",
            ),
            (
                b"{\"rules\": [{\"drop\": \"close\"}]}",
                "`drop` is \"reset\" or \"partial\"",
            ),
            (
                b"{\"rules\": [{\"status\": \"503\"}]}",
                "`status` is a whole number, 0 or more, not a string",
            ),
            (
                b"{\"rules\": [{\"times\": 1, \"times\": 2}]}",
                "`times` is given twice",
            ),
            (
                b"{\"rules\": [5]}",
                "rules[0]: a rule is an object, not a number",
            ),
            (b"\xff", "not UTF-8"),
        ] {
            let why = read_body(body).unwrap_err();
            assert!(
                why.contains(says),
                "{}: {why}",
                String::from_utf8_lossy(body)
            );
        }
        assert!(read_body(b"{}").is_ok());
        let nulls = read_body(br#"{"seed": null, "rules": [{"times": null, "status": 503}]}"#);
        assert_eq!(nulls.unwrap().rules[0].times, None);
    }
}
