//! The fault rule set (`src/rest/faults/`) on its own: what a `POST` body may say, what a
//! refused one leaves (nothing), which rule decides a request, the counts, the seeded draws,
//! the limits, and what `GET` answers.

use azqueue::engine::Timestamp;
use azqueue::rest::Operation;
use azqueue::rest::faults::{
    DropMode, Fault, FaultError, FaultRequest, Faults, Limit, Limits, Source, When,
};
use serde_json::{Value, json};

const NOW: Timestamp = Timestamp::from_secs(1_800_000_000);

fn request(queue: &str, operation: Operation) -> FaultRequest<'_> {
    FaultRequest {
        account: "devstoreaccount1",
        queue: Some(queue),
        operation,
        messages: 1,
    }
}

fn put(queue: &str) -> FaultRequest<'_> {
    request(queue, Operation::PutMessage)
}

fn post(faults: &mut Faults, body: Value) -> Result<Vec<String>, String> {
    let answer = faults.post(body.to_string().as_bytes())?;
    let answer: Value = serde_json::from_str(&answer).unwrap();
    Ok(answer["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_owned())
        .collect())
}

fn view(faults: &Faults) -> Value {
    serde_json::from_str(&faults.to_json()).unwrap()
}

fn status(fault: &Option<Fault>) -> Option<u16> {
    fault
        .as_ref()
        .and_then(|f| f.error.as_ref())
        .map(|e| e.status)
}

#[test]
fn a_rule_with_times_fires_that_often_then_retires_and_keeps_its_counts() {
    let mut f = Faults::default();
    let ids = post(
        &mut f,
        json!({"rules": [{"operation": "PutMessage", "times": 2, "status": 503}]}),
    )
    .unwrap();
    assert_eq!(ids, ["1"]);
    let answers: Vec<_> = (0..4).map(|_| status(&f.decide(NOW, &put("q")))).collect();
    assert_eq!(answers, [Some(503), Some(503), None, None]);
    let rule = &view(&f)["rules"][0];
    assert_eq!(rule["injected"], 2);
    assert_eq!(rule["matched"], 2, "a retired rule counts nothing more");
    assert_eq!(rule["retired"], true);
    assert_eq!(rule["code"], "ServerBusy");
    assert_eq!(
        rule["message"],
        "The server is currently unable to receive requests. Please retry your request."
    );
}

#[test]
fn skip_lets_the_first_matches_through_and_filters_choose_the_requests() {
    let mut f = Faults::default();
    post(
        &mut f,
        json!({"rules": [{"queue": "orders", "operation": "GetMessages", "skip": 2,
                          "code": "OperationTimedOut", "when": "after"}]}),
    )
    .unwrap();
    let get = |q| request(q, Operation::GetMessages);
    assert_eq!(f.decide(NOW, &put("orders")), None);
    assert_eq!(f.decide(NOW, &get("other")), None);
    assert_eq!(f.decide(NOW, &get("orders")), None);
    assert_eq!(f.decide(NOW, &get("orders")), None);
    let fault = f.decide(NOW, &get("orders")).unwrap();
    assert_eq!(
        fault,
        Fault {
            source: Source::Rule("1".into()),
            when: When::After,
            error: Some(FaultError {
                status: 500,
                code: "OperationTimedOut".into(),
                message: "The operation could not be completed within the permitted time.".into(),
            }),
            delay_ms: 0,
            drop: None,
        }
    );
    assert!(fault.applies());
    let rule = &view(&f)["rules"][0];
    assert_eq!(
        (rule["matched"].clone(), rule["injected"].clone()),
        (json!(3), json!(1))
    );
}

#[test]
fn the_first_rule_that_fires_decides_and_one_that_does_not_leaves_the_request_on() {
    let mut f = Faults::default();
    post(
        &mut f,
        json!({"rules": [
            {"id": "never", "probability": 0, "status": 500},
            {"id": "first", "account": "devstoreaccount1", "status": 503, "times": 1},
            {"id": "second", "status": 500, "code": "InternalError"},
        ]}),
    )
    .unwrap();
    assert_eq!(status(&f.decide(NOW, &put("q"))), Some(503));
    assert_eq!(status(&f.decide(NOW, &put("q"))), Some(500));
    let v = view(&f);
    let counts: Vec<_> = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].clone(), r["matched"].clone(), r["injected"].clone()))
        .collect();
    assert_eq!(
        counts,
        [
            (json!("never"), json!(2), json!(0)),
            (json!("first"), json!(1), json!(1)),
            (json!("second"), json!(1), json!(1)),
        ]
    );
}

#[test]
fn the_same_seed_and_rules_give_the_same_answers() {
    let run = |seed: u64| {
        let mut f = Faults::default();
        post(
            &mut f,
            json!({"seed": seed, "rules": [{"probability": 0.3, "status": 503}]}),
        )
        .unwrap();
        (0..200)
            .map(|_| status(&f.decide(NOW, &put("q"))).is_some())
            .collect::<Vec<_>>()
    };
    let first = run(42);
    assert_eq!(first, run(42));
    assert_ne!(first, run(43));
    let fired = first.iter().filter(|f| **f).count();
    assert!((40..=80).contains(&fired), "{fired} of 200 at p = 0.3");
    // Clearing starts the draws afresh too: the same rules after DELETE repeat.
    let mut f = Faults::default();
    let body = json!({"rules": [{"probability": 0.5, "status": 503}]});
    post(&mut f, body.clone()).unwrap();
    let a: Vec<_> = (0..50)
        .map(|_| f.decide(NOW, &put("q")).is_some())
        .collect();
    f.clear();
    post(&mut f, body).unwrap();
    let b: Vec<_> = (0..50)
        .map(|_| f.decide(NOW, &put("q")).is_some())
        .collect();
    assert_eq!(a, b);
}

#[test]
fn delay_and_drop_rules_serve_the_operation_unless_told_otherwise() {
    let mut f = Faults::default();
    post(
        &mut f,
        json!({"rules": [
            {"operation": "PeekMessages", "delayMs": 250},
            {"operation": "DeleteMessage", "drop": "partial"},
            {"operation": "ClearMessages", "drop": "reset", "when": "before"},
        ]}),
    )
    .unwrap();
    let peek = f
        .decide(NOW, &request("q", Operation::PeekMessages))
        .unwrap();
    assert_eq!(
        (peek.delay_ms, peek.error.clone(), peek.applies()),
        (250, None, true)
    );
    let delete = f
        .decide(NOW, &request("q", Operation::DeleteMessage))
        .unwrap();
    assert_eq!(
        (delete.drop, delete.when, delete.applies()),
        (Some(DropMode::Partial), When::After, true)
    );
    let clear = f
        .decide(NOW, &request("q", Operation::ClearMessages))
        .unwrap();
    assert_eq!(
        (clear.drop, clear.error.clone(), clear.applies()),
        (Some(DropMode::Reset), None, false)
    );
}

#[test]
fn bad_rule_sets_are_refused_whole_and_change_nothing() {
    let mut f = Faults::default();
    post(
        &mut f,
        json!({"rules": [{"id": "kept", "status": 503}], "seed": 5}),
    )
    .unwrap();
    let before = f.to_json();
    let cases = [
        (
            json!({"rules": [{"status": 503}, {"status": 200}]}),
            "rules[1]: `status` must be an error",
        ),
        (
            json!({"rules": [{"status": 418}]}),
            "give a `code` for status 418",
        ),
        (
            json!({"rules": [{"code": "MadeUp"}]}),
            "give its `status` too",
        ),
        (
            json!({"rules": [{"code": "MadeUp", "status": 500}]}),
            "give its `message` too",
        ),
        (
            json!({"rules": [{"code": "Bad Code", "status": 500}]}),
            "`code` must be",
        ),
        (
            json!({"rules": [{"message": "oops"}]}),
            "`message` needs a `status`",
        ),
        (
            json!({"rules": [{"status": 500, "message": "two\nlines"}]}),
            "control characters",
        ),
        (
            json!({"rules": [{"operation": "Put Message", "status": 500}]}),
            "PutMessage, GetMessages",
        ),
        (
            json!({"rules": [{"queue": "Bad_Name", "status": 500}]}),
            "not a valid queue name",
        ),
        (
            json!({"rules": [{"account": "", "status": 500}]}),
            "`account` must be",
        ),
        (
            json!({"rules": [{"probability": 1.5, "status": 500}]}),
            "`probability` must be",
        ),
        (
            json!({"rules": [{"times": 0, "status": 500}]}),
            "`times` must be at least 1",
        ),
        (
            json!({"rules": [{"delayMs": 300001}]}),
            "`delayMs` must be at most",
        ),
        (json!({"rules": [{}]}), "a rule must do something"),
        (
            json!({"rules": [{"when": "after"}]}),
            "`when` needs an error",
        ),
        (
            json!({"rules": [{"drop": "partial", "when": "before"}]}),
            "cuts an answer off",
        ),
        (
            json!({"rules": [{"id": "kept", "status": 500}]}),
            "already a rule's id",
        ),
        (
            json!({"rules": [{"id": "x", "status": 500}, {"id": "x", "status": 500}]}),
            "rules[1].id",
        ),
        (
            json!({"rules": [{"id": "a/b", "status": 500}]}),
            "rules[0].id",
        ),
        (
            json!({"rules": [{"status": 500, "delay": 5}]}),
            "`delay` is not a rule's field",
        ),
        (
            json!({"seed": 7, "limits": {"queueMessagesPerSecond": 0}}),
            "queueMessagesPerSecond",
        ),
        (
            json!({"rules": [{"status": 500}], "extra": 1}),
            "`extra` is not a member",
        ),
    ];
    for (body, says) in cases {
        let why = post(&mut f, body.clone()).unwrap_err();
        assert!(why.contains(says), "{body}: {why}");
        assert_eq!(f.to_json(), before, "{body} changed the set");
    }
    let too_many: Vec<Value> = (0..1000).map(|_| json!({"status": 500})).collect();
    assert!(
        post(&mut f, json!({"rules": too_many}))
            .unwrap_err()
            .contains("at most 1000")
    );
    assert_eq!(f.to_json(), before);
}

#[test]
fn get_answers_each_rule_in_full_and_its_spec_reads_back_as_the_same_rule() {
    let mut f = Faults::default();
    post(
        &mut f,
        json!({"seed": 9, "rules": [
            {"operation": "PutMessage", "code": "ServerBusy"},
            {"account": "a", "queue": "orders", "status": 500, "code": "OperationTimedOut",
             "message": "Custom.", "when": "after", "delayMs": 10, "probability": 0.5,
             "skip": 1, "times": 3},
            {"drop": "reset"},
        ]}),
    )
    .unwrap();
    let v = view(&f);
    assert_eq!(
        v["rules"][0],
        json!({"id": "1", "operation": "PutMessage", "probability": 1, "skip": 0,
               "status": 503, "code": "ServerBusy",
               "message": "The server is currently unable to receive requests. Please retry your request.",
               "when": "before", "delayMs": 0, "matched": 0, "injected": 0, "retired": false})
    );
    assert_eq!(v["rules"][2]["when"], "after");
    assert_eq!(
        v["limits"],
        json!({"queueMessagesPerSecond": null, "accountRequestsPerSecond": null})
    );
    assert_eq!(
        v["throttled"],
        json!({"queueMessagesPerSecond": 0, "accountRequestsPerSecond": 0})
    );
    assert_eq!(v["seed"], 9);
    // Each rule as shown, without its counts, is a rule that reads back the same.
    let mut again = Faults::default();
    let specs: Vec<Value> = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut r = r.clone();
            for count in ["matched", "injected", "retired"] {
                r.as_object_mut().unwrap().remove(count);
            }
            r
        })
        .collect();
    post(&mut again, json!({"seed": 9, "rules": specs})).unwrap();
    assert_eq!(again.to_json(), f.to_json());
}

#[test]
fn delete_removes_one_rule_or_all_and_puts_the_started_limits_back() {
    let started = Limits {
        queue_messages_per_second: Some(2000),
        account_requests_per_second: None,
    };
    let mut f = Faults::new(started);
    let ids = post(
        &mut f,
        json!({"rules": [{"status": 503}, {"status": 500}],
               "limits": {"queueMessagesPerSecond": 1, "accountRequestsPerSecond": 50}}),
    )
    .unwrap();
    assert_eq!(ids, ["1", "2"]);
    assert!(f.remove("1"));
    assert!(!f.remove("1"));
    assert_eq!(status(&f.decide(NOW, &put("q"))), Some(500));
    f.clear();
    assert!(f.rules().is_empty());
    assert_eq!(f.limits(), started);
    // Ids go on from where they were only within one set: after clearing they start again.
    assert_eq!(
        post(&mut f, json!({"rules": [{"status": 503}]})).unwrap(),
        ["1"]
    );
}

#[test]
fn limits_from_a_post_throttle_before_any_rule_sees_the_request() {
    let mut f = Faults::default();
    post(
        &mut f,
        json!({"limits": {"queueMessagesPerSecond": 10},
               "rules": [{"operation": "PutMessage", "delayMs": 5}]}),
    )
    .unwrap();
    let answers: Vec<_> = (0..15).map(|_| f.decide(NOW, &put("q"))).collect();
    let delayed = answers
        .iter()
        .filter(|a| a.as_ref().is_some_and(|f| f.delay_ms == 5));
    assert_eq!(delayed.count(), 10);
    let busy: Vec<_> = answers[10..].iter().map(|a| a.clone().unwrap()).collect();
    for fault in &busy {
        assert_eq!(fault.source, Source::Limit(Limit::Queue));
        let e = fault.error.as_ref().unwrap();
        assert_eq!((e.status, e.code.as_str()), (503, "ServerBusy"));
        assert!(!fault.applies());
    }
    assert_eq!(view(&f)["rules"][0]["matched"], 10);
    assert_eq!(view(&f)["throttled"]["queueMessagesPerSecond"], 5);
    let later = Timestamp::from_millis(NOW.as_millis() + 1000);
    assert_eq!(f.decide(later, &put("q")).unwrap().delay_ms, 5);
    // The account's limit counts every request, on a queue or not, with its own text.
    post(
        &mut f,
        json!({"limits": {"queueMessagesPerSecond": null, "accountRequestsPerSecond": 1}}),
    )
    .unwrap();
    let list = FaultRequest {
        account: "devstoreaccount1",
        queue: None,
        operation: Operation::ListQueues,
        messages: 1,
    };
    assert_eq!(f.decide(later, &list), None);
    let refused = f.decide(later, &list).unwrap();
    assert_eq!(
        refused.error.unwrap().message,
        "Operations per second is over the account limit."
    );
}

#[test]
fn azure_limits_are_its_published_targets() {
    assert_eq!(
        Limits::AZURE,
        Limits {
            queue_messages_per_second: Some(2000),
            account_requests_per_second: Some(20_000),
        }
    );
    let mut f = Faults::new(Limits::AZURE);
    let served = (0..2001)
        .filter(|_| f.decide(NOW, &put("q")).is_none())
        .count();
    assert_eq!(served, 2000);
}
