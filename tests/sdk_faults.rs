//! Fault rules and limits (docs/faults.md) under the official Rust SDK and its own exponential
//! retry policy (10 ms delays), on `InProcessQueues`: the five scenarios of issue 33.

use azqueue::sdk::InProcessQueues;
use azure_core::http::{ExponentialRetryOptions, RetryOptions, StatusCode};
use azure_core::time::Duration;
use azure_storage_queue::QueueClient;
use azure_storage_queue::models::{
    QueueClientPeekMessagesOptions, QueueClientReceiveMessagesOptions, QueueMessage,
};
use pollster::block_on;

fn retrying(tries: u32) -> InProcessQueues {
    InProcessQueues::new().with_retry(RetryOptions::exponential(ExponentialRetryOptions {
        initial_delay: Duration::milliseconds(10),
        max_retries: tries,
        max_total_elapsed: Duration::seconds(10),
        max_delay: Duration::seconds(1),
    }))
}

fn rules(queues: &InProcessQueues, body: &str) -> String {
    queues
        .faults(|f| f.post(body.as_bytes()))
        .expect("a valid rule set")
}

fn queue(queues: &InProcessQueues, name: &str) -> QueueClient {
    let q = queues.queue_client(name).unwrap();
    block_on(q.create(None)).unwrap();
    q
}

fn send(q: &QueueClient, text: &str) -> azure_core::Result<()> {
    let message = QueueMessage {
        message_text: Some(text.into()),
    };
    block_on(q.send_message(message.try_into()?, None)).map(|_| ())
}

fn peeked(q: &QueueClient) -> Vec<String> {
    let options = QueueClientPeekMessagesOptions {
        number_of_messages: Some(32),
        ..Default::default()
    };
    let peeked = block_on(q.peek_messages(Some(options))).unwrap();
    let items = peeked.into_model().unwrap().items.unwrap_or_default();
    items
        .into_iter()
        .map(|m| m.message_text.unwrap_or_default())
        .collect()
}

fn status(result: azure_core::Result<()>) -> u16 {
    match result {
        Ok(()) => 201,
        Err(e) => e.http_status().map_or(0, u16::from),
    }
}

#[test]
fn a_put_refused_twice_is_retried_into_one_message_and_the_rule_says_two() {
    let queues = retrying(3);
    let q = queue(&queues, "busy");
    rules(
        &queues,
        r#"{"rules": [{"operation": "PutMessage", "times": 2, "status": 503}]}"#,
    );
    send(&q, "once").unwrap();
    assert_eq!(peeked(&q), ["once"]);
    let rule = queues.faults(|f| f.rules()[0].clone());
    assert_eq!((rule.injected, rule.retired()), (2, true));
}

#[test]
fn a_put_that_timed_out_after_it_applied_is_retried_into_two_copies() {
    let queues = retrying(3);
    let q = queue(&queues, "twice");
    rules(
        &queues,
        r#"{"rules": [{"operation": "PutMessage", "when": "after", "code": "OperationTimedOut", "times": 1}]}"#,
    );
    send(&q, "charge card 42").unwrap();
    assert_eq!(peeked(&q), ["charge card 42", "charge card 42"]);
}

#[test]
fn a_get_faulted_after_it_applied_hides_the_message_until_its_timeout() {
    let queues = retrying(2);
    let q = queue(&queues, "hidden");
    send(&q, "work").unwrap();
    let added = rules(
        &queues,
        r#"{"rules": [{"id": "get", "operation": "GetMessages", "when": "after", "status": 500, "code": "InternalError"}]}"#,
    );
    assert_eq!(added, r#"{"ids":["get"]}"#);
    let receive = || {
        let options = QueueClientReceiveMessagesOptions {
            visibility_timeout: Some(30),
            ..Default::default()
        };
        block_on(q.receive_messages(Some(options)))
    };
    let failed = receive().unwrap_err();
    assert_eq!(failed.http_status(), Some(StatusCode::InternalServerError));
    assert!(queues.faults(|f| f.remove("get")));
    let hidden = receive().unwrap().into_model().unwrap().items;
    assert!(hidden.unwrap_or_default().is_empty());
    queues.clock().advance_secs(31);
    let back = receive().unwrap().into_model().unwrap().items.unwrap();
    assert_eq!(back[0].message_text.as_deref(), Some("work"));
    assert_eq!(back[0].dequeue_count, Some(2));
}

#[test]
fn at_ten_messages_a_second_fifteen_puts_give_ten_and_five_server_busy() {
    let queues = InProcessQueues::new();
    let q = queue(&queues, "burst");
    rules(&queues, r#"{"limits": {"queueMessagesPerSecond": 10}}"#);
    let answers: Vec<_> = (0..15).map(|i| send(&q, &format!("m{i}"))).collect();
    assert_eq!(answers.iter().filter(|a| a.is_ok()).count(), 10);
    for refused in &answers[10..] {
        let e = refused.as_ref().unwrap_err();
        assert_eq!(e.http_status(), Some(StatusCode::ServiceUnavailable));
        let text = format!("{e:?}");
        assert!(text.contains("ServerBusy"), "{text}");
    }
    // The in-process clock stands still until told: a second later, accepted again.
    queues.clock().advance_secs(1);
    send(&q, "a second later").unwrap();
}

#[test]
fn the_same_seed_and_rules_give_the_same_answers() {
    let queues = InProcessQueues::new();
    let q = queue(&queues, "seeded");
    let run = || {
        queues.faults(|f| f.clear());
        rules(
            &queues,
            r#"{"seed": 11, "rules": [{"operation": "PutMessage", "probability": 0.5, "status": 503}]}"#,
        );
        (0..24).map(|_| status(send(&q, "m"))).collect::<Vec<_>>()
    };
    let first = run();
    assert_eq!(run(), first);
    assert!(first.contains(&201) && first.contains(&503), "{first:?}");
}
