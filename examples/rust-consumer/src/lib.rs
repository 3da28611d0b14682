//! A job consumer written against the official Azure SDK for Rust (`azure_storage_queue`):
//! the code under test in this example. It knows nothing about azqueue; it takes a
//! `QueueClient`, which production code builds with a credential and tests build with
//! `azqueue::sdk::InProcessQueues`.

use azure_core::http::StatusCode;
use azure_storage_queue::QueueClient;
use azure_storage_queue::models::{QueueClientReceiveMessagesOptions, QueueMessage};

/// How long a taken job stays hidden from other workers while this one runs it, in seconds.
pub const LEASE_SECS: i32 = 30;

/// Jobs on one queue.
pub struct JobQueue {
    queue: QueueClient,
}

/// A job this worker holds the lease of.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: String,
    pub text: String,
    /// 1 on the first delivery, 2 on the first retry, …
    pub attempt: i64,
    /// Proves this delivery holds the lease; a later delivery gets a new one.
    pub pop_receipt: String,
}

/// What became of a job handed to [`JobQueue::run_next`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It succeeded and was deleted.
    Done { attempt: i64 },
    /// It failed; it reappears for another attempt when its lease ends.
    Failed { attempt: i64, reason: String },
}

/// What [`JobQueue::finish`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    Deleted,
    /// The lease had ended and another worker took the job: the queue no longer knows this
    /// delivery's pop receipt (404), and the job is theirs to finish.
    LeaseLost,
}

impl JobQueue {
    pub fn new(queue: QueueClient) -> Self {
        JobQueue { queue }
    }

    /// Adds a job. It lives for the service's default time to live (7 days) if nobody runs it.
    pub async fn submit(&self, text: &str) -> azure_core::Result<()> {
        let message = QueueMessage {
            message_text: Some(text.to_owned()),
        };
        self.queue.send_message(message.try_into()?, None).await?;
        Ok(())
    }

    /// Adds a job, sending it again when the service answers a transient error (a 5xx, such as
    /// `503 ServerBusy` or `500 OperationTimedOut`), up to `tries` sends in all; returns how
    /// many it took. A send that timed out after the service stored it is stored twice, so the
    /// workers must take a job being done twice in their stride. (A production loop would wait
    /// longer between sends; this one leaves the waiting to the caller.)
    pub async fn submit_retrying(&self, text: &str, tries: u32) -> azure_core::Result<u32> {
        let mut sent = 0;
        loop {
            sent += 1;
            match self.submit(text).await {
                Ok(()) => return Ok(sent),
                Err(e) if sent < tries && e.http_status().is_some_and(|s| u16::from(s) >= 500) => {
                    continue;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Takes the next visible job and hides it from other workers for [`LEASE_SECS`].
    pub async fn take(&self) -> azure_core::Result<Option<Job>> {
        let options = QueueClientReceiveMessagesOptions {
            visibility_timeout: Some(LEASE_SECS),
            ..Default::default()
        };
        let received = self.queue.receive_messages(Some(options)).await?;
        let message = received
            .into_model()?
            .items
            .unwrap_or_default()
            .into_iter()
            .next();
        Ok(message.map(|m| Job {
            id: m.message_id.unwrap_or_default(),
            text: m.message_text.unwrap_or_default(),
            attempt: m.dequeue_count.unwrap_or_default(),
            pop_receipt: m.pop_receipt.unwrap_or_default(),
        }))
    }

    /// Deletes a job that ran to completion.
    pub async fn finish(&self, job: &Job) -> azure_core::Result<Finished> {
        match self
            .queue
            .delete_message(&job.id, &job.pop_receipt, None)
            .await
        {
            Ok(_) => Ok(Finished::Deleted),
            Err(e) if e.http_status() == Some(StatusCode::NotFound) => Ok(Finished::LeaseLost),
            Err(e) => Err(e),
        }
    }

    /// Takes the next job and runs `work` on it: deleted when it succeeds, left to reappear
    /// after its lease when it fails. `None` when no job is visible.
    pub async fn run_next(
        &self,
        work: impl FnOnce(&Job) -> Result<(), String>,
    ) -> azure_core::Result<Option<Outcome>> {
        let Some(job) = self.take().await? else {
            return Ok(None);
        };
        Ok(Some(match work(&job) {
            Ok(()) => {
                self.finish(&job).await?;
                Outcome::Done {
                    attempt: job.attempt,
                }
            }
            Err(reason) => Outcome::Failed {
                attempt: job.attempt,
                reason,
            },
        }))
    }
}
