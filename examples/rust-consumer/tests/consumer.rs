//! The consumer against azqueue in this process, on a virtual clock: natively (`cargo test`)
//! and in browsers (`wasm-pack test --headless --chrome` / `--firefox`). No server, no
//! sleeping: time passes when a test says so.

use azqueue::sdk::InProcessQueues;
use azure_core::http::StatusCode;
use rust_consumer::{Finished, JobQueue, LEASE_SECS, Outcome};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const DAY_SECS: u64 = 24 * 60 * 60;

/// A fresh account with a `jobs` queue, and the consumer on it.
async fn jobs() -> (InProcessQueues, JobQueue) {
    let queues = InProcessQueues::new();
    let client = queues.queue_client("jobs").unwrap();
    client.create(None).await.unwrap();
    (queues, JobQueue::new(client))
}

#[cfg_attr(not(target_arch = "wasm32"), tokio::test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
async fn a_failed_job_comes_back_after_its_lease_with_dequeue_count_2() {
    let (queues, jobs) = jobs().await;
    jobs.submit("resize photo 17").await.unwrap();

    let first = jobs.run_next(|_| Err("disk full".into())).await.unwrap();
    assert_eq!(
        first,
        Some(Outcome::Failed {
            attempt: 1,
            reason: "disk full".into()
        })
    );
    // Leased: nobody sees it for 30 s.
    assert_eq!(jobs.run_next(|_| Ok(())).await.unwrap(), None);
    queues.clock().advance_secs(LEASE_SECS as u64 - 1);
    assert_eq!(jobs.run_next(|_| Ok(())).await.unwrap(), None);

    queues.clock().advance_secs(2);
    let second = jobs.run_next(|job| {
        assert_eq!(job.text, "resize photo 17");
        Ok(())
    });
    assert_eq!(second.await.unwrap(), Some(Outcome::Done { attempt: 2 }));
    // Done means deleted: it never comes back.
    queues.clock().advance_secs(DAY_SECS);
    assert!(jobs.take().await.unwrap().is_none());
}

#[cfg_attr(not(target_arch = "wasm32"), tokio::test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
async fn a_stale_pop_receipt_is_a_404_and_the_job_stays_with_its_new_holder() {
    let (queues, jobs) = jobs().await;
    jobs.submit("send invoice 42").await.unwrap();

    let slow = jobs.take().await.unwrap().unwrap();
    queues.clock().advance_secs(LEASE_SECS as u64 + 1);
    let fast = jobs.take().await.unwrap().unwrap();
    assert_eq!(slow.id, fast.id);
    assert_eq!((slow.attempt, fast.attempt), (1, 2));

    // What the SDK reports for the stale receipt, as the service sent it.
    let client = queues.queue_client("jobs").unwrap();
    let stale = client
        .delete_message(&slow.id, &slow.pop_receipt, None)
        .await
        .unwrap_err();
    assert_eq!(stale.http_status(), Some(StatusCode::NotFound));
    assert!(
        format!("{stale:?}").contains("MessageNotFound"),
        "{stale:?}"
    );

    assert_eq!(jobs.finish(&slow).await.unwrap(), Finished::LeaseLost);
    assert_eq!(jobs.finish(&fast).await.unwrap(), Finished::Deleted);
    queues.clock().advance_secs(LEASE_SECS as u64 + 1);
    assert!(jobs.take().await.unwrap().is_none());
}

#[cfg_attr(not(target_arch = "wasm32"), tokio::test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
async fn an_unclaimed_job_expires_after_its_seven_day_ttl() {
    let (queues, jobs) = jobs().await;
    let client = queues.queue_client("jobs").unwrap();
    jobs.submit("nightly report").await.unwrap();

    queues.clock().advance_secs(7 * DAY_SECS - 1);
    let peeked = client
        .peek_messages(None)
        .await
        .unwrap()
        .into_model()
        .unwrap();
    assert_eq!(
        peeked.items.unwrap_or_default().len(),
        1,
        "still there a second before"
    );

    queues.clock().advance_secs(1);
    let peeked = client
        .peek_messages(None)
        .await
        .unwrap()
        .into_model()
        .unwrap();
    assert!(
        peeked.items.unwrap_or_default().is_empty(),
        "gone at seven days"
    );
    assert!(jobs.take().await.unwrap().is_none());
}

#[cfg_attr(not(target_arch = "wasm32"), tokio::test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
async fn a_busy_service_is_retried_and_a_send_that_timed_out_after_it_stored_is_stored_twice() {
    let (queues, jobs) = jobs().await;
    // docs/faults.md: two 503s, then the send goes through; the third send is the one stored.
    queues
        .faults(|f| {
            f.post(br#"{"rules": [{"operation": "PutMessage", "times": 2, "status": 503}]}"#)
        })
        .unwrap();
    assert_eq!(jobs.submit_retrying("bill order 7", 3).await.unwrap(), 3);
    let busy = jobs.submit_retrying("bill order 8", 1);
    assert!(busy.await.is_ok(), "the rule retired after its two 503s");

    // A timeout after the service stored the job: the retry stores it again.
    queues
        .faults(|f| {
            f.clear();
            f.post(br#"{"rules": [{"operation": "PutMessage", "when": "after", "code": "OperationTimedOut", "times": 1}]}"#)
        })
        .unwrap();
    assert_eq!(jobs.submit_retrying("ship order 9", 3).await.unwrap(), 2);
    let mut texts = Vec::new();
    while let Some(job) = jobs.take().await.unwrap() {
        texts.push(job.text.clone());
        jobs.finish(&job).await.unwrap();
    }
    assert_eq!(
        texts,
        [
            "bill order 7",
            "bill order 8",
            "ship order 9",
            "ship order 9"
        ]
    );
}
