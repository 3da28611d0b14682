//! The fault rule parser (`POST /_azqueue/faults`, `src/rest/faults/`) on generated and
//! mutated bodies. Its oracle: a refused body changes nothing; an accepted one adds rules
//! whose specs, as `GET` shows them, read back as the same rules; and deciding requests over
//! the set never panics and keeps every rule's `injected` within its `matched` and `times`.

use crate::mutate::{havoc, pick};
use azqueue::engine::Timestamp;
use azqueue::rest::Operation;
use azqueue::rest::faults::{FaultRequest, Faults, MAX_RULES};
use proptest::prelude::Rng;
use proptest::test_runner::TestRng;

/// Bodies the generator starts from, and the AFL++ target's seeds.
pub const SEEDS: &[&str] = &[
    r#"{"rules": [{"operation": "PutMessage", "times": 2, "status": 503}]}"#,
    r#"{"seed": 7, "rules": [{"operation": "PutMessage", "when": "after", "code": "OperationTimedOut"}]}"#,
    r#"{"rules": [{"queue": "orders", "probability": 0.25, "skip": 1, "delayMs": 100, "drop": "partial"}]}"#,
    r#"{"limits": {"queueMessagesPerSecond": 10, "accountRequestsPerSecond": null}}"#,
    r#"{"rules": [{"id": "x.1", "account": "devstoreaccount1", "status": 404, "code": "QueueNotFound", "message": "Gone."}, {"drop": "reset", "when": "before"}]}"#,
];

/// Each field with values that suit it and values it refuses. Most generated rules pass some
/// checks and many pass all of them; any field may also get any other field's value.
type Field = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const FIELDS: &[Field] = &[
    ("id", &["\"a\"", "\"x.y-z_1\""], &["\"a/b\"", "\"\"", "7"]),
    ("account", &["\"devstoreaccount1\"", "\"a\""], &["\"\""]),
    (
        "queue",
        &["\"orders\"", "\"other\""],
        &["\"Bad_Queue\"", "\"q\""],
    ),
    (
        "operation",
        &["\"PutMessage\"", "\"GetMessages\"", "\"ListQueues\""],
        &["\"Put Message\""],
    ),
    (
        "probability",
        &["0", "1", "0.5", "0.001"],
        &["1.5", "-0.1", "1e400"],
    ),
    ("skip", &["0", "1", "3", "18446744073709551615"], &["-1"]),
    (
        "times",
        &["1", "2", "18446744073709551615"],
        &["0", "18446744073709551616"],
    ),
    (
        "status",
        &["500", "503", "404"],
        &["418", "399", "600", "200"],
    ),
    (
        "code",
        &[
            "\"ServerBusy\"",
            "\"OperationTimedOut\"",
            "\"QueueNotFound\"",
        ],
        &["\"MadeUp\"", "\"Bad Code\""],
    ),
    (
        "message",
        &["\"Custom.\"", "\"é\"", "\"\""],
        &["\"two\\nlines\"", "\"\\u0000\""],
    ),
    ("when", &["\"before\"", "\"after\""], &["\"later\""]),
    ("delayMs", &["0", "5", "300000"], &["300001"]),
    ("drop", &["\"reset\"", "\"partial\""], &["\"close\""]),
    ("matched", &[], &["1"]),
];

const ANY: &[&str] = &["null", "true", "[]", "{}", "\"\"", "0", "-1", "1.5"];

const ACCOUNTS: &[&str] = &["devstoreaccount1", "a"];

const RATES: &[&str] = &["null", "1", "10", "2000", "0", "1000000001", "-5"];

/// A rule of up to six distinct fields, each with a value that suits it, mostly.
fn rule(rng: &mut TestRng) -> String {
    let mut fields: Vec<&Field> = FIELDS.iter().collect();
    let mut members = Vec::new();
    for _ in 0..rng.random_range(0..=6) {
        let (name, good, bad) = fields.swap_remove(rng.random_range(0..fields.len()));
        let value = match rng.random_range(0..20) {
            _ if good.is_empty() => *pick(rng, bad),
            0 => *pick(rng, bad),
            1 => *pick(rng, ANY),
            _ => *pick(rng, good),
        };
        members.push(format!("\"{name}\": {value}"));
    }
    format!("{{{}}}", members.join(", "))
}

/// The body a round sends: a rule set generated from the vocabulary above, or a seed mutated
/// byte by byte.
fn body(rng: &mut TestRng) -> Vec<u8> {
    if rng.random_bool(0.4) {
        let mut bytes = pick(rng, SEEDS).as_bytes().to_vec();
        let other = pick(rng, SEEDS).as_bytes();
        havoc(rng, &mut bytes, other);
        return bytes;
    }
    let rules: Vec<String> = (0..rng.random_range(0..4)).map(|_| rule(rng)).collect();
    let mut members = vec![format!("\"rules\": [{}]", rules.join(", "))];
    if rng.random_bool(0.3) {
        members.push(format!(
            "\"seed\": {}",
            pick(rng, &["0", "42", "-1", "1.5"])
        ));
    }
    if rng.random_bool(0.3) {
        members.push(format!(
            "\"limits\": {{\"queueMessagesPerSecond\": {}, \"accountRequestsPerSecond\": {}}}",
            pick(rng, RATES),
            pick(rng, RATES)
        ));
    }
    format!("{{{}}}", members.join(", ")).into_bytes()
}

/// One round on `faults`: a body, then a few requests decided over the set.
pub fn run(faults: &mut Faults, rng: &mut TestRng) -> Result<(), String> {
    if faults.rules().len() > MAX_RULES / 2 || rng.random_bool(0.05) {
        faults.clear();
    }
    let body = body(rng);
    let before = faults.to_json();
    match faults.post(&body) {
        Err(why) => {
            if faults.to_json() != before {
                return Err(format!(
                    "a refused body changed the set ({why}): {}",
                    String::from_utf8_lossy(&body)
                ));
            }
        }
        Ok(_) => reads_back(faults, &body)?,
    }
    let now = Timestamp::from_millis(1_800_000_000_000 + rng.random_range(0..5000));
    for _ in 0..rng.random_range(0..8) {
        let operation = *pick(rng, &Operation::ALL);
        let queue = *pick(rng, &[None, Some("orders"), Some("other")]);
        let account = *pick::<&str>(rng, ACCOUNTS);
        let request = FaultRequest {
            account,
            queue,
            operation,
            messages: rng.random_range(0..40),
        };
        faults.decide(now, &request);
    }
    for rule in faults.rules() {
        if rule.injected > rule.matched || rule.times.is_some_and(|t| rule.injected > t) {
            return Err(format!("counts out of bounds: {rule:?}"));
        }
    }
    Ok(())
}

/// Each rule as `GET` shows it, posted again to an empty set, reads back the same.
fn reads_back(faults: &Faults, body: &[u8]) -> Result<(), String> {
    let view: serde_json::Value =
        serde_json::from_str(&faults.to_json()).map_err(|e| format!("GET is not JSON: {e}"))?;
    let mut rules = view["rules"].clone();
    for rule in rules.as_array_mut().into_iter().flatten() {
        if let Some(rule) = rule.as_object_mut() {
            for count in ["matched", "injected", "retired"] {
                rule.remove(count);
            }
        }
    }
    let again = serde_json::json!({"rules": rules, "seed": view["seed"], "limits": view["limits"]});
    let mut fresh = Faults::default();
    fresh
        .post(again.to_string().as_bytes())
        .map_err(|why| format!("a rule as shown does not read back ({why}): {again}"))?;
    let shown: Vec<_> = faults.rules().iter().map(|r| r.spec()).collect();
    let reread: Vec<_> = fresh.rules().iter().map(|r| r.spec()).collect();
    if shown != reread {
        return Err(format!(
            "rules read back differently:\n{shown:?}\n{reread:?}\nbody: {}",
            String::from_utf8_lossy(body)
        ));
    }
    Ok(())
}
