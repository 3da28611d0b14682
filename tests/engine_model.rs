//! Layer 3: random operation sequences over random clock steps, run against the engine and
//! against a small reference model (a `Vec` scanned linearly). After every step:
//! - every result agrees with the model (ids, texts, dequeue counts, times, receipt validity);
//! - at-least-once: a message left the engine only by a delete with its current receipt, Clear
//!   Messages, Delete Queue, or its time to live running out;
//! - replaying `take_changes()` into a map reproduces `snapshot()` (the outbox is complete);
//! - a failed operation changed nothing but the purge of already-expired messages;
//! - `next_deadline` is never later than the next reappearance or expiry;
//! - the running total of charged bytes equals the sum recomputed over the stored messages.
//!
//! On failure proptest prints the minimal `(seed, ops)`; `PROPTEST_CASES=5000` runs deeper.

use azqueue::engine::{
    AccountSnapshot, Change, Emulator, MessageCount, MessageId, MessageRecord, MessageText,
    Metadata, NEVER, PopReceipt, QueueError, QueueName, QueueRecord, QueueSnapshot, Snapshot,
    TimeToLive, Timestamp, VisibilityTimeout,
};
#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::{emulator, proptest_cases, recounted_charge};

use proptest::prelude::*;
use proptest::sample::Index;
use std::collections::{BTreeMap, HashMap};

const ACCT: &str = "devstoreaccount1";
const T0: Timestamp = Timestamp::from_secs(1_700_000_000);

// --- The reference model ----------------------------------------------------------------

/// One message as the fact sheet describes it. Ids and receipts are random, so the model
/// takes them from the engine's answers and checks only that they are fresh.
#[derive(Clone, Debug)]
struct ModelMessage {
    id: MessageId,
    seq: u64,
    text: String,
    inserted: u64,
    expires: u64,
    visible_at: u64,
    dequeue_count: u32,
    receipt: PopReceipt,
}

#[derive(Debug, Default)]
struct Model {
    messages: Vec<ModelMessage>,
    next_seq: u64,
}

impl Model {
    /// Forgets expired messages; returns their ids.
    fn purge(&mut self, now: u64) -> Vec<MessageId> {
        let gone = self.messages.iter().filter(|m| m.expires <= now);
        let gone = gone.map(|m| m.id).collect();
        self.messages.retain(|m| m.expires > now);
        gone
    }

    /// Indexes of the first `n` visible messages, by (visible_at, seq).
    fn visible(&self, now: u64, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.messages.len())
            .filter(|&i| self.messages[i].visible_at <= now && self.messages[i].expires > now)
            .collect();
        v.sort_by_key(|&i| (self.messages[i].visible_at, self.messages[i].seq));
        v.truncate(n);
        v
    }

    /// The message `id` if `receipt` is its current one and it has not expired.
    fn current(&self, now: u64, id: MessageId, receipt: &PopReceipt) -> Option<usize> {
        self.messages
            .iter()
            .position(|m| m.id == id && &m.receipt == receipt && m.expires > now)
    }

    /// The live messages in delivery order, as the engine's snapshot lists them.
    fn in_order(&self, now: u64) -> Vec<&ModelMessage> {
        let mut v: Vec<_> = self.messages.iter().filter(|m| m.expires > now).collect();
        v.sort_by_key(|m| (m.visible_at, m.seq));
        v
    }
}

fn same(m: &ModelMessage, r: &MessageRecord) -> bool {
    m.id == r.id
        && m.seq == r.seq
        && m.text == *r.text
        && m.inserted == r.insertion_time.as_millis()
        && m.expires == r.expiration_time.as_millis()
        && m.visible_at == r.time_next_visible.as_millis()
        && m.dequeue_count == r.dequeue_count
        && m.receipt == r.pop_receipt
}

// --- A strict replica of the outbox (a store in its simplest form) -----------------------

#[derive(Debug, Default)]
struct Replica {
    queues: BTreeMap<(String, QueueName), (QueueRecord, HashMap<MessageId, MessageRecord>)>,
    accounts: BTreeMap<String, Option<azqueue::engine::ServiceProperties>>,
}

impl Replica {
    fn apply(&mut self, change: Change) -> Result<(), TestCaseError> {
        let missing = || TestCaseError::fail("change names a queue the replica lacks");
        match change {
            Change::QueuePut { account, queue } => {
                self.accounts.entry(account.clone()).or_default();
                let key = (account, queue.name.clone());
                match self.queues.get_mut(&key) {
                    Some(q) => q.0 = queue,
                    None => {
                        self.queues.insert(key, (queue, HashMap::new()));
                    }
                }
            }
            Change::QueueDeleted { account, queue } => {
                self.queues.remove(&(account, queue)).ok_or_else(missing)?;
            }
            Change::MessagePut {
                account,
                queue,
                message,
            } => {
                let q = self.queues.get_mut(&(account, queue)).ok_or_else(missing)?;
                q.1.insert(message.id, message);
            }
            Change::MessageDeleted { account, queue, id } => {
                let q = self.queues.get_mut(&(account, queue)).ok_or_else(missing)?;
                prop_assert!(
                    q.1.remove(&id).is_some(),
                    "MessageDeleted for an absent {}",
                    id
                );
            }
            Change::QueueCleared { account, queue } => {
                self.queues
                    .get_mut(&(account, queue))
                    .ok_or_else(missing)?
                    .1
                    .clear();
            }
            Change::ServicePropertiesSet {
                account,
                properties,
            } => {
                self.accounts.insert(account, Some(properties));
            }
        }
        Ok(())
    }

    fn snapshot(&self) -> Snapshot {
        let accounts = self.accounts.iter().map(|(name, props)| AccountSnapshot {
            name: name.clone(),
            properties: Some(props.clone().unwrap_or_default()),
            queues: (self.queues.iter())
                .filter(|((a, _), _)| a == name)
                .map(|(_, (record, messages))| {
                    let mut messages: Vec<_> = messages.values().cloned().collect();
                    messages.sort_by_key(|m| (m.time_next_visible, m.seq));
                    QueueSnapshot {
                        queue: record.clone(),
                        messages,
                    }
                })
                .collect(),
        });
        Snapshot {
            accounts: accounts.collect(),
        }
    }
}

// --- Operations -------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Receipt {
    /// The latest receipt the test saw for the message.
    Current,
    /// One of its earlier receipts (or a forged one if it has none).
    Stale(Index),
    /// A receipt the engine never issued.
    Forged,
}

#[derive(Clone, Debug)]
enum Op {
    Put {
        delay: u32,
        ttl: Option<u32>,
        body: u8,
    },
    Get {
        n: u8,
        vis: u32,
    },
    Peek {
        n: u8,
    },
    Delete {
        pick: Index,
        receipt: Receipt,
    },
    Update {
        pick: Index,
        receipt: Receipt,
        body: Option<u8>,
        vis: u32,
    },
    Clear,
    Count,
    DeleteQueue,
    Advance {
        ms: u64,
    },
}

fn receipt() -> impl Strategy<Value = Receipt> {
    prop_oneof![6 => Just(Receipt::Current), 3 => any::<Index>().prop_map(Receipt::Stale), 1 => Just(Receipt::Forged)]
}

fn secs(max: u32) -> impl Strategy<Value = u32> {
    prop_oneof![2 => Just(0u32), 3 => 1..max]
}

fn op() -> impl Strategy<Value = Op> {
    let count = prop_oneof![3 => 1u8..=3, 1 => 1u8..=32];
    prop_oneof![
        6 => (secs(40), proptest::option::weighted(0.8, 1u32..150), any::<u8>())
            .prop_map(|(delay, ttl, body)| Op::Put { delay, ttl, body }),
        4 => (count.clone(), 1u32..60).prop_map(|(n, vis)| Op::Get { n, vis }),
        1 => count.prop_map(|n| Op::Peek { n }),
        3 => (any::<Index>(), receipt()).prop_map(|(pick, receipt)| Op::Delete { pick, receipt }),
        3 => (any::<Index>(), receipt(), proptest::option::of(any::<u8>()), secs(60))
            .prop_map(|(pick, receipt, body, vis)| Op::Update { pick, receipt, body, vis }),
        1 => Just(Op::Clear),
        1 => Just(Op::Count),
        1 => prop_oneof![9 => Just(Op::Count), 1 => Just(Op::DeleteQueue)],
        5 => prop_oneof![(0u64..100).prop_map(|s| s * 1000), 0u64..100_000]
            .prop_map(|ms| Op::Advance { ms }),
    ]
}

fn body(b: u8) -> String {
    match b % 4 {
        0 => String::new(),
        1 => format!("m{b}"),
        2 => format!("<x>{b} & ü</x>"),
        _ => "x".repeat(b as usize),
    }
}

/// Every message the test has seen, with every receipt it was issued.
#[derive(Debug)]
struct Known {
    id: MessageId,
    receipts: Vec<PopReceipt>,
}

struct Run {
    emu: Emulator,
    queue: QueueName,
    model: Model,
    known: Vec<Known>,
    /// At-least-once ledger: id → expiry, for every message that has not legitimately left.
    ledger: HashMap<MessageId, u64>,
    replica: Replica,
    now: u64,
}

impl Run {
    fn new(seed: u64) -> Result<Self, TestCaseError> {
        let mut emu = emulator(seed);
        let queue = QueueName::parse("model").unwrap();
        emu.create_queue(T0, ACCT, &queue, Metadata::default())
            .unwrap();
        let mut replica = Replica::default();
        for c in emu.take_changes() {
            replica.apply(c)?;
        }
        Ok(Run {
            emu,
            queue,
            model: Model::default(),
            known: Vec::new(),
            ledger: HashMap::new(),
            replica,
            now: T0.as_millis(),
        })
    }

    fn now(&self) -> Timestamp {
        Timestamp::from_millis(self.now)
    }

    /// Records a receipt the engine just issued for `id`, checking it was never issued before.
    fn issued(&mut self, id: MessageId, receipt: &PopReceipt) -> Result<(), TestCaseError> {
        match self.known.iter_mut().find(|k| k.id == id) {
            Some(k) => {
                prop_assert!(!k.receipts.contains(receipt), "receipt reissued for {}", id);
                k.receipts.push(receipt.clone());
            }
            None => self.known.push(Known {
                id,
                receipts: vec![receipt.clone()],
            }),
        }
        Ok(())
    }

    fn choose(&self, pick: &Index, receipt: &Receipt) -> Option<(MessageId, PopReceipt)> {
        if self.known.is_empty() {
            return None;
        }
        let k = &self.known[pick.index(self.known.len())];
        let forged = PopReceipt::from_base64("AAAAAAAAAAAAAAAAAAAAAA==").unwrap();
        let r = match receipt {
            Receipt::Current => k.receipts.last().cloned().unwrap_or(forged),
            Receipt::Stale(i) if k.receipts.len() > 1 => {
                k.receipts[i.index(k.receipts.len() - 1)].clone()
            }
            Receipt::Stale(_) | Receipt::Forged => forged,
        };
        Some((k.id, r))
    }

    fn step(&mut self, op: &Op) -> Result<(), TestCaseError> {
        let before = self.emu.snapshot().unwrap();
        let (now, q) = (self.now(), self.queue.clone());
        let mut failed = false;
        match op {
            Op::Put {
                delay,
                ttl,
                body: b,
            } => {
                let ttl = match ttl {
                    Some(t) if t <= delay => TimeToLive::Secs(u64::from(delay + t)),
                    Some(t) => TimeToLive::Secs(u64::from(*t)),
                    None => TimeToLive::Never,
                };
                let vis = VisibilityTimeout::new(*delay as i64).unwrap();
                let text = MessageText::new(body(*b)).unwrap();
                let m = self.emu.put_message(now, ACCT, &q, text, vis, ttl).unwrap();
                self.model.purge(self.now);
                prop_assert!(self.known.iter().all(|k| k.id != m.id), "id reused");
                let expires = match ttl {
                    TimeToLive::Never => NEVER.as_millis(),
                    TimeToLive::Secs(s) => self.now + s * 1000,
                };
                let expected = ModelMessage {
                    id: m.id,
                    seq: self.model.next_seq,
                    text: body(*b),
                    inserted: self.now,
                    expires,
                    visible_at: self.now + *delay as u64 * 1000,
                    dequeue_count: 0,
                    receipt: m.pop_receipt.clone(),
                };
                prop_assert!(same(&expected, &m), "put: {:?} vs {:?}", expected, m);
                self.model.next_seq += 1;
                self.model.messages.push(expected);
                self.ledger.insert(m.id, expires);
                self.issued(m.id, &m.pop_receipt)?;
            }
            Op::Get { n, vis } => {
                let count = MessageCount::new(*n as i64).unwrap();
                let v = VisibilityTimeout::for_get(*vis as i64).unwrap();
                let got = self.emu.get_messages(now, ACCT, &q, count, v).unwrap();
                self.model.purge(self.now);
                let want = self.model.visible(self.now, *n as usize);
                prop_assert_eq!(got.len(), want.len(), "get count");
                for (r, &i) in got.iter().zip(&want) {
                    let m = &mut self.model.messages[i];
                    m.visible_at = self.now + *vis as u64 * 1000;
                    m.dequeue_count += 1;
                    m.receipt = r.pop_receipt.clone();
                    prop_assert!(same(m, r), "get: {:?} vs {:?}", m, r);
                }
                for r in &got {
                    self.issued(r.id, &r.pop_receipt)?;
                }
            }
            Op::Peek { n } => {
                let count = MessageCount::new(*n as i64).unwrap();
                let seen = self.emu.peek_messages(now, ACCT, &q, count).unwrap();
                self.model.purge(self.now);
                let want = self.model.visible(self.now, *n as usize);
                prop_assert_eq!(seen.len(), want.len(), "peek count");
                for (r, &i) in seen.iter().zip(&want) {
                    prop_assert!(same(&self.model.messages[i], r), "peek: {:?}", r);
                }
                let outbox = self.emu.take_changes();
                prop_assert!(
                    outbox
                        .iter()
                        .all(|c| matches!(c, Change::MessageDeleted { .. })),
                    "peek queued more than expiry purges: {:?}",
                    outbox
                );
                for c in outbox {
                    self.replica.apply(c)?;
                }
            }
            Op::Delete { pick, receipt } => {
                let Some((id, r)) = self.choose(pick, receipt) else {
                    return Ok(());
                };
                let res = self.emu.delete_message(now, ACCT, &q, &id, &r);
                self.model.purge(self.now);
                match self.model.current(self.now, id, &r) {
                    Some(i) => {
                        prop_assert_eq!(res, Ok(()));
                        self.model.messages.remove(i);
                        self.ledger.remove(&id);
                    }
                    None => {
                        prop_assert_eq!(res, Err(QueueError::MessageNotFound(id)));
                        failed = true;
                    }
                }
            }
            Op::Update {
                pick,
                receipt,
                body: b,
                vis,
            } => {
                let Some((id, r)) = self.choose(pick, receipt) else {
                    return Ok(());
                };
                let text = b.map(|b| MessageText::new(body(b)).unwrap());
                let v = VisibilityTimeout::new(*vis as i64).unwrap();
                let res = self.emu.update_message(now, ACCT, &q, &id, &r, text, v);
                self.model.purge(self.now);
                match (self.model.current(self.now, id, &r), res) {
                    (Some(i), Ok(up)) => {
                        let m = &mut self.model.messages[i];
                        m.visible_at = self.now + *vis as u64 * 1000;
                        m.receipt = up.pop_receipt.clone();
                        if let Some(b) = b {
                            m.text = body(*b);
                        }
                        prop_assert_eq!(up.time_next_visible.as_millis(), m.visible_at);
                        self.issued(id, &up.pop_receipt)?;
                    }
                    (None, Err(e)) => {
                        prop_assert_eq!(e, QueueError::MessageNotFound(id));
                        failed = true;
                    }
                    (expected, res) => {
                        return Err(TestCaseError::fail(format!(
                            "update: model {:?}, engine {:?}",
                            expected.is_some(),
                            res
                        )));
                    }
                }
            }
            Op::Clear => {
                self.emu.clear_messages(now, ACCT, &q).unwrap();
                self.model.messages.clear();
                self.ledger.clear();
            }
            Op::Count => {
                let props = self.emu.queue_properties(now, ACCT, &q).unwrap();
                self.model.purge(self.now);
                prop_assert_eq!(props.approximate_message_count, self.model.messages.len());
            }
            Op::DeleteQueue => {
                self.emu.delete_queue(now, ACCT, &q).unwrap();
                self.emu
                    .create_queue(now, ACCT, &q, Metadata::default())
                    .unwrap();
                self.model = Model::default();
                self.ledger.clear();
            }
            Op::Advance { ms } => self.now += ms,
        }
        let outbox = self.emu.take_changes();
        let after = self.emu.snapshot().unwrap();
        if failed {
            self.check_failure_changed_nothing(&before, &after, &outbox)?;
        }
        for c in outbox {
            self.replica.apply(c)?;
        }
        prop_assert_eq!(
            self.replica.snapshot(),
            after.clone(),
            "outbox replay after {:?}",
            op
        );
        self.check_at_least_once(&after)?;
        self.check_against_model(&after)?;
        check_charged_bytes(&self.emu, &after)?;
        self.check_next_deadline()?;
        Ok(())
    }

    /// A failed operation may only have purged messages that had already expired, and queued
    /// exactly their deletions (earliest expiry first).
    fn check_failure_changed_nothing(
        &self,
        before: &Snapshot,
        after: &Snapshot,
        outbox: &[Change],
    ) -> Result<(), TestCaseError> {
        let mut expected = before.clone();
        let messages = &mut expected.accounts[0].queues[0].messages;
        let mut expired: Vec<_> = messages
            .iter()
            .filter(|m| m.is_expired(self.now()))
            .cloned()
            .collect();
        expired.sort_by_key(|m| (m.expiration_time, m.seq));
        messages.retain(|m| !m.is_expired(self.now()));
        prop_assert_eq!(after, &expected, "a failed operation changed state");
        let purges: Vec<_> = expired
            .iter()
            .map(|m| Change::MessageDeleted {
                account: ACCT.into(),
                queue: self.queue.clone(),
                id: m.id,
            })
            .collect();
        prop_assert_eq!(outbox, &purges[..], "a failed operation queued changes");
        Ok(())
    }

    fn check_at_least_once(&mut self, after: &Snapshot) -> Result<(), TestCaseError> {
        let now = self.now;
        self.ledger.retain(|_, expires| *expires > now);
        let stored: HashMap<MessageId, &MessageRecord> = after.accounts[0].queues[0]
            .messages
            .iter()
            .map(|m| (m.id, m))
            .collect();
        for id in self.ledger.keys() {
            prop_assert!(stored.contains_key(id), "message {} lost", id);
        }
        for (id, m) in &stored {
            prop_assert!(
                self.ledger.contains_key(id) || m.is_expired(self.now()),
                "{} resurrected",
                id
            );
        }
        Ok(())
    }

    fn check_against_model(&self, after: &Snapshot) -> Result<(), TestCaseError> {
        let engine: Vec<_> = after.accounts[0].queues[0]
            .messages
            .iter()
            .filter(|m| !m.is_expired(self.now()))
            .collect();
        let model = self.model.in_order(self.now);
        prop_assert_eq!(engine.len(), model.len(), "stored message count");
        for (r, m) in engine.iter().zip(model) {
            prop_assert!(same(m, r), "state: model {:?} vs engine {:?}", m, r);
        }
        Ok(())
    }

    /// `next_deadline` may wake early, never late: it is at most the next moment a message
    /// becomes visible or expires.
    fn check_next_deadline(&self) -> Result<(), TestCaseError> {
        let now = self.now;
        let live = self.model.messages.iter().filter(|m| m.expires > now);
        let reappear = live.clone().map(|m| m.visible_at).filter(|&t| t > now);
        let expire = live.map(|m| m.expires).filter(|&t| t < NEVER.as_millis());
        let truth = reappear.chain(expire).min();
        let got = self
            .emu
            .next_deadline(self.now(), ACCT)
            .map(|t| t.as_millis());
        if let Some(truth) = truth {
            prop_assert!(
                got.is_some_and(|g| g > now && g <= truth),
                "next_deadline {:?}, due {}",
                got,
                truth
            );
        }
        Ok(())
    }
}

/// The emulator's running total of charged bytes (what admission reads) equals the charge
/// recomputed from every stored message, expired or not, in every queue of every account.
fn check_charged_bytes(emu: &Emulator, after: &Snapshot) -> Result<(), TestCaseError> {
    let recounted = recounted_charge(after);
    prop_assert_eq!(
        emu.stored_bytes(),
        recounted,
        "running total of charged bytes"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(), ..ProptestConfig::default() })]

    #[test]
    fn engine_agrees_with_the_reference_model(seed in any::<u64>(), ops in prop::collection::vec(op(), 1..80)) {
        let mut run = Run::new(seed)?;
        for op in &ops {
            run.step(op)?;
        }
    }
}
