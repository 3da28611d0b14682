//! Azure's scalability targets as token buckets, on the queues' clock: one per queue
//! (messages per second) and one per account (requests per second), each holding a second's
//! worth and refilling continuously as the clock moves. With the clock paused a test gets
//! exactly one second's burst; moving the clock refills the buckets. Never a wall clock: a
//! test that holds the clock holds the throttle.
//!
//! What a request costs:
//!
//! - **the account:** one request, whatever it is;
//! - **its queue** (requests addressed to one): the messages it asks to move: Get and Peek
//!   Messages the `numofmessages` they ask for (1 when absent), every other request 1 (Put,
//!   Delete and Update move one message; Clear Messages and the queue's own operations are
//!   one request). The number asked, not the number answered, because the throttle decides
//!   before the operation runs. A cost above the limit is taken as the limit, so a Get of 32
//!   at 10 messages a second waits for a full bucket instead of never passing.
//!
//! A request is admitted only when both of its buckets hold its cost, and then takes it from
//! both; a refused request takes nothing.

use crate::engine::Timestamp;
use crate::engine::limits::{ACCOUNT_REQUESTS_PER_SECOND, QUEUE_MESSAGES_PER_SECOND};
use crate::rest::error::ErrorCode;
use std::collections::HashMap;

/// The limits in force: `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub queue_messages_per_second: Option<u32>,
    pub account_requests_per_second: Option<u32>,
}

impl Limits {
    /// No throttling: the default.
    pub const OFF: Limits = Limits {
        queue_messages_per_second: None,
        account_requests_per_second: None,
    };

    /// Azure's published targets (`--throttle` with no numbers).
    pub const AZURE: Limits = Limits {
        queue_messages_per_second: Some(QUEUE_MESSAGES_PER_SECOND),
        account_requests_per_second: Some(ACCOUNT_REQUESTS_PER_SECOND),
    };

    pub fn is_off(&self) -> bool {
        *self == Limits::OFF
    }
}

/// The most a limit may be: a billion a second is no limit a test can meet anyway, and keeps
/// the buckets' arithmetic far from overflow.
pub const MAX_RATE: u32 = 1_000_000_000;

/// Which limit refused a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Queue,
    Account,
}

impl Limit {
    /// The code the refusal answers: `503 ServerBusy`.
    pub const CODE: ErrorCode = ErrorCode::ServerBusy;

    /// Azure's text for the limit. A queue is one partition, and a partition that cannot keep
    /// up answers the generic server-busy text (the error table's); the account's front end
    /// counts operations, and says so.
    pub fn message(self) -> &'static str {
        match self {
            Limit::Queue => ErrorCode::ServerBusy.message(),
            Limit::Account => "Operations per second is over the account limit.",
        }
    }

    /// The name `GET /_azqueue/faults` and the fault events give the limit.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Queue => "queueMessagesPerSecond",
            Limit::Account => "accountRequestsPerSecond",
        }
    }
}

/// Buckets are kept in thousandths of a token, so a rate of r per second refills r units a
/// millisecond and no fraction is lost.
const UNIT: u64 = 1000;

/// Buckets beyond this many per kind are pruned of the full ones (a full bucket is the same
/// as none), so a run over many queues keeps only the ones still drained.
const PRUNE_AT: usize = 4096;

#[derive(Clone, Copy, Debug)]
struct Bucket {
    units: u64,
    at: Timestamp,
}

impl Bucket {
    fn full(rate: u32, now: Timestamp) -> Self {
        Bucket {
            units: u64::from(rate) * UNIT,
            at: now,
        }
    }

    /// Refills for the time since it was last read. A clock set back refills nothing and
    /// counts from its new reading.
    fn refill(&mut self, rate: u32, now: Timestamp) {
        let elapsed = now.as_millis().saturating_sub(self.at.as_millis());
        let capacity = u64::from(rate) * UNIT;
        self.units = self
            .units
            .saturating_add(elapsed.saturating_mul(u64::from(rate)))
            .min(capacity);
        self.at = now;
    }

    fn holds(&self, cost: u64) -> bool {
        self.units >= cost
    }
}

/// The buckets of every queue and account the limits have seen.
#[derive(Clone, Debug, Default)]
pub struct Throttle {
    limits: Limits,
    /// By `<account>/<queue>` (no account name has a `/`): one map type for both kinds keeps
    /// the wasm small.
    queues: HashMap<String, Bucket>,
    accounts: HashMap<String, Bucket>,
    /// Requests refused, per limit.
    pub refused_queue: u64,
    pub refused_account: u64,
}

impl Throttle {
    pub fn new(limits: Limits) -> Self {
        Throttle {
            limits,
            ..Throttle::default()
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Puts `limits` in force. A limit that changes starts its buckets afresh (full).
    pub fn set_limits(&mut self, limits: Limits) {
        if limits.queue_messages_per_second != self.limits.queue_messages_per_second {
            self.queues.clear();
        }
        if limits.account_requests_per_second != self.limits.account_requests_per_second {
            self.accounts.clear();
        }
        self.limits = limits;
    }

    /// Admits a request on `account` (and `queue`, costing `messages`) at `now`, taking its
    /// cost; or names the limit that refuses it, taking nothing.
    pub fn admit(
        &mut self,
        now: Timestamp,
        account: &str,
        queue: Option<&str>,
        messages: u32,
    ) -> Result<(), Limit> {
        let account_rate = self.limits.account_requests_per_second;
        let queue_rate = self.limits.queue_messages_per_second;
        let account_bucket =
            account_rate.map(|rate| refilled(&mut self.accounts, account.to_owned(), rate, now));
        if account_bucket.as_ref().is_some_and(|b| !b.holds(UNIT)) {
            self.refused_account += 1;
            return Err(Limit::Account);
        }
        let queue_bucket = match (queue_rate, queue) {
            (Some(rate), Some(queue)) => {
                let key = format!("{account}/{queue}");
                let cost = u64::from(messages.clamp(1, rate)) * UNIT;
                Some((refilled(&mut self.queues, key, rate, now), cost))
            }
            _ => None,
        };
        if queue_bucket
            .as_ref()
            .is_some_and(|(b, cost)| !b.holds(*cost))
        {
            self.refused_queue += 1;
            return Err(Limit::Queue);
        }
        if let Some(bucket) = account_bucket {
            bucket.units -= UNIT;
        }
        if let Some((bucket, cost)) = queue_bucket {
            bucket.units -= cost;
        }
        if let Some(rate) = account_rate {
            prune(&mut self.accounts, rate, now);
        }
        if let Some(rate) = queue_rate {
            prune(&mut self.queues, rate, now);
        }
        Ok(())
    }
}

/// The bucket under `key` refilled to `now`: a full one when there is none yet.
fn refilled(
    buckets: &mut HashMap<String, Bucket>,
    key: String,
    rate: u32,
    now: Timestamp,
) -> &mut Bucket {
    let bucket = buckets
        .entry(key)
        .or_insert_with(|| Bucket::full(rate, now));
    bucket.refill(rate, now);
    bucket
}

/// Drops the buckets that are full again once there are more than [`PRUNE_AT`].
fn prune(buckets: &mut HashMap<String, Bucket>, rate: u32, now: Timestamp) {
    if buckets.len() > PRUNE_AT {
        buckets.retain(|_, b| {
            b.refill(rate, now);
            b.units < u64::from(rate) * UNIT
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Timestamp = Timestamp::from_secs(1_800_000_000);

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_millis(T0.as_millis() + ms)
    }

    fn queue_limit(n: u32) -> Throttle {
        Throttle::new(Limits {
            queue_messages_per_second: Some(n),
            account_requests_per_second: None,
        })
    }

    #[test]
    fn a_paused_clock_gives_exactly_the_burst_and_a_second_refills_it() {
        let mut t = queue_limit(10);
        let answers: Vec<_> = (0..15).map(|_| t.admit(T0, "a", Some("q"), 1)).collect();
        assert_eq!(answers.iter().filter(|a| a.is_ok()).count(), 10);
        assert!(answers[10..].iter().all(|a| *a == Err(Limit::Queue)));
        assert_eq!(t.refused_queue, 5);
        // A tenth of a second refills one message; a whole second, the burst again.
        assert_eq!(t.admit(at(100), "a", Some("q"), 1), Ok(()));
        assert_eq!(t.admit(at(100), "a", Some("q"), 1), Err(Limit::Queue));
        let refilled = (0..12)
            .filter(|_| t.admit(at(1100), "a", Some("q"), 1).is_ok())
            .count();
        assert_eq!(refilled, 10);
    }

    #[test]
    fn each_queue_has_its_own_bucket_and_the_service_operations_pass() {
        let mut t = queue_limit(2);
        for _ in 0..2 {
            assert_eq!(t.admit(T0, "a", Some("q1"), 1), Ok(()));
            assert_eq!(t.admit(T0, "a", Some("q2"), 1), Ok(()));
            assert_eq!(t.admit(T0, "b", Some("q1"), 1), Ok(()));
        }
        assert_eq!(t.admit(T0, "a", Some("q1"), 1), Err(Limit::Queue));
        assert_eq!(t.admit(T0, "a", None, 1), Ok(()));
    }

    #[test]
    fn a_get_costs_the_messages_it_asks_for_up_to_the_limit() {
        let mut t = queue_limit(10);
        assert_eq!(t.admit(T0, "a", Some("q"), 8), Ok(()));
        assert_eq!(t.admit(T0, "a", Some("q"), 3), Err(Limit::Queue));
        assert_eq!(t.admit(T0, "a", Some("q"), 2), Ok(()));
        // 32 asked at 10 a second costs a full bucket: it passes once the bucket is full.
        assert_eq!(t.admit(at(500), "a", Some("q"), 32), Err(Limit::Queue));
        assert_eq!(t.admit(at(1000), "a", Some("q"), 32), Ok(()));
    }

    #[test]
    fn the_account_limit_counts_requests_and_a_refusal_takes_nothing() {
        let mut t = Throttle::new(Limits {
            queue_messages_per_second: Some(3),
            account_requests_per_second: Some(4),
        });
        assert_eq!(t.admit(T0, "a", Some("q"), 3), Ok(()));
        // The queue refuses: the account's token is not taken.
        assert_eq!(t.admit(T0, "a", Some("q"), 1), Err(Limit::Queue));
        for _ in 0..3 {
            assert_eq!(t.admit(T0, "a", None, 1), Ok(()));
        }
        assert_eq!(t.admit(T0, "a", None, 1), Err(Limit::Account));
        assert_eq!(t.admit(T0, "other", None, 1), Ok(()));
        assert_eq!((t.refused_queue, t.refused_account), (1, 1));
        assert_eq!(t.admit(at(250), "a", None, 1), Ok(()));
    }

    #[test]
    fn a_clock_set_back_refills_nothing_and_a_new_limit_starts_full() {
        let mut t = queue_limit(1);
        assert_eq!(t.admit(at(5000), "a", Some("q"), 1), Ok(()));
        assert_eq!(t.admit(T0, "a", Some("q"), 1), Err(Limit::Queue));
        assert_eq!(t.admit(at(999), "a", Some("q"), 1), Err(Limit::Queue));
        assert_eq!(t.admit(at(1000), "a", Some("q"), 1), Ok(()));
        t.set_limits(Limits {
            queue_messages_per_second: Some(2),
            account_requests_per_second: None,
        });
        assert_eq!(t.admit(at(1000), "a", Some("q"), 2), Ok(()));
    }

    #[test]
    fn buckets_of_many_queues_are_pruned_once_full_again() {
        let mut t = queue_limit(1);
        for i in 0..=PRUNE_AT {
            assert_eq!(t.admit(T0, "a", Some(&format!("q{i}")), 1), Ok(()));
        }
        assert!(t.queues.len() > PRUNE_AT);
        assert_eq!(t.admit(at(1000), "a", Some("new"), 1), Ok(()));
        assert_eq!(t.queues.len(), 1, "only the bucket just drained is kept");
        assert_eq!(t.admit(at(1000), "a", Some("q0"), 1), Ok(()));
    }

    #[test]
    fn the_texts_are_azures() {
        assert_eq!(
            Limit::Queue.message(),
            "The server is currently unable to receive requests. Please retry your request."
        );
        assert_eq!(
            Limit::Account.message(),
            "Operations per second is over the account limit."
        );
    }
}
