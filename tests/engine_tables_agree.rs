//! The two message tables give every answer alike: random operation sequences (puts with delays
//! and TTLs, gets, peeks, deletes and updates with current, stale and forged receipts, clears,
//! expiry, queue deletion and re-creation, a snapshot round trip, bounded purges) run through an
//! emulator over `MemoryTable` and one over `SqlTable` (SQLite) with the same seed, and every
//! result, error, change, event, count, charge, deadline and the whole state are compared after
//! each step.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::*;

use azqueue::engine::{
    Emulator, MESSAGE_OVERHEAD_BYTES, MessageId, Metadata, PopReceipt, QueueName, SeededEntropy,
    TimeToLive, Timestamp,
};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::FileFailurePersistence;

#[derive(Clone, Debug)]
enum Op {
    Put {
        delay: u32,
        ttl: Option<u32>,
        body: u8,
        queue: bool,
    },
    Get {
        n: u8,
        vis: u32,
        queue: bool,
    },
    Peek {
        n: u8,
        queue: bool,
    },
    Delete {
        pick: Index,
        current: bool,
    },
    Update {
        pick: Index,
        current: bool,
        body: Option<u8>,
        vis: u32,
    },
    Clear {
        queue: bool,
    },
    Count {
        queue: bool,
    },
    Purge {
        limit: u8,
        queue: bool,
    },
    DeleteQueue {
        queue: bool,
    },
    CreateQueue {
        queue: bool,
    },
    Reload,
    Advance {
        ms: u64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let count = prop_oneof![3 => 1u8..=3, 1 => 1u8..=32];
    let secs = |max: u32| prop_oneof![2 => Just(0u32), 3 => 1..max];
    prop_oneof![
        8 => (secs(40), proptest::option::weighted(0.7, 1u32..150), any::<u8>(), any::<bool>())
            .prop_map(|(delay, ttl, body, queue)| Op::Put { delay, ttl, body, queue }),
        4 => (count.clone(), 1u32..60, any::<bool>()).prop_map(|(n, vis, queue)| Op::Get { n, vis, queue }),
        2 => (count, any::<bool>()).prop_map(|(n, queue)| Op::Peek { n, queue }),
        3 => (any::<Index>(), prop::bool::weighted(0.7)).prop_map(|(pick, current)| Op::Delete { pick, current }),
        3 => (any::<Index>(), prop::bool::weighted(0.7), proptest::option::of(any::<u8>()), secs(60))
            .prop_map(|(pick, current, body, vis)| Op::Update { pick, current, body, vis }),
        1 => any::<bool>().prop_map(|queue| Op::Clear { queue }),
        2 => any::<bool>().prop_map(|queue| Op::Count { queue }),
        1 => (1u8..5, any::<bool>()).prop_map(|(limit, queue)| Op::Purge { limit, queue }),
        1 => any::<bool>().prop_map(|queue| Op::DeleteQueue { queue }),
        2 => any::<bool>().prop_map(|queue| Op::CreateQueue { queue }),
        1 => Just(Op::Reload),
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

struct Pair {
    db: std::sync::Arc<sqlite::Sqlite>,
    memory: Emulator,
    sql: Emulator,
    queues: [QueueName; 2],
    /// Every (queue, id, receipt) either table issued, current or not.
    issued: Vec<(usize, MessageId, PopReceipt)>,
    now: Timestamp,
    seed: u64,
}

/// Runs `f` on both emulators and checks they answered alike; returns the answer.
macro_rules! both {
    ($pair:expr, |$emu:ident| $body:expr) => {{
        let a = {
            let $emu = &mut $pair.memory;
            $body
        };
        let b = {
            let $emu = &mut $pair.sql;
            $body
        };
        prop_assert_eq!(&a, &b, "the memory and SQL tables answered differently");
        a
    }};
}

impl Pair {
    fn new(seed: u64) -> Self {
        let entropy = || Box::new(SeededEntropy::new(seed));
        let db = std::sync::Arc::new(sqlite::Sqlite::in_memory());
        let exec: azqueue::store::sql::SharedSql = db.clone();
        let tables = azqueue::store::sql::SqlTables::new(exec, "azqueue_messages/");
        Pair {
            memory: Emulator::new(entropy()),
            sql: Emulator::with_tables(entropy(), tables),
            db,
            queues: [q("first"), q("second")],
            issued: Vec::new(),
            now: t0(),
            seed,
        }
    }

    fn queue(&self, second: bool) -> QueueName {
        self.queues[usize::from(second)].clone()
    }

    fn step(&mut self, op: &Op) -> Result<(), TestCaseError> {
        let now = self.now;
        match op {
            Op::Put {
                delay,
                ttl,
                body: b,
                queue,
            } => {
                let name = self.queue(*queue);
                let ttl = ttl.map_or(TimeToLive::default(), |s| {
                    TimeToLive::new(i64::from(s)).unwrap()
                });
                let put = both!(self, |emu| emu.put_message(
                    now,
                    ACCT,
                    &name,
                    text(&body(*b)),
                    vis(i64::from(*delay)),
                    ttl
                ));
                if let Ok(m) = put {
                    self.issued.push((usize::from(*queue), m.id, m.pop_receipt));
                }
            }
            Op::Get {
                n: count,
                vis: secs,
                queue,
            } => {
                let name = self.queue(*queue);
                let got = both!(self, |emu| emu.get_messages(
                    now,
                    ACCT,
                    &name,
                    n(i64::from(*count)),
                    get_vis(i64::from(*secs))
                ));
                for m in got.into_iter().flatten() {
                    self.issued.push((usize::from(*queue), m.id, m.pop_receipt));
                }
            }
            Op::Peek { n: count, queue } => {
                let name = self.queue(*queue);
                let _ = both!(self, |emu| emu.peek_messages(
                    now,
                    ACCT,
                    &name,
                    n(i64::from(*count))
                ));
            }
            Op::Delete { pick, current } => {
                let Some((queue, id, receipt)) = self.choose(pick, *current) else {
                    return Ok(());
                };
                let name = self.queues[queue].clone();
                let _ = both!(self, |emu| emu
                    .delete_message(now, ACCT, &name, &id, &receipt));
            }
            Op::Update {
                pick,
                current,
                body: b,
                vis: secs,
            } => {
                let Some((queue, id, receipt)) = self.choose(pick, *current) else {
                    return Ok(());
                };
                let name = self.queues[queue].clone();
                let new_text = b.map(|b| text(&body(b)));
                let updated = both!(self, |emu| emu.update_message(
                    now,
                    ACCT,
                    &name,
                    &id,
                    &receipt,
                    new_text.clone(),
                    vis(i64::from(*secs))
                ));
                if let Ok(u) = updated {
                    self.issued.push((queue, id, u.pop_receipt));
                }
            }
            Op::Clear { queue } => {
                let name = self.queue(*queue);
                let _ = both!(self, |emu| emu.clear_messages(now, ACCT, &name));
            }
            Op::Count { queue } => {
                let name = self.queue(*queue);
                let _ = both!(self, |emu| emu.queue_properties(now, ACCT, &name));
            }
            Op::Purge { limit, queue } => {
                let name = self.queue(*queue);
                let _ = both!(self, |emu| emu.purge_expired(
                    now,
                    ACCT,
                    &name,
                    usize::from(*limit)
                ));
            }
            Op::DeleteQueue { queue } => {
                let name = self.queue(*queue);
                let _ = both!(self, |emu| emu.delete_queue(now, ACCT, &name));
            }
            Op::CreateQueue { queue } => {
                let name = self.queue(*queue);
                let _ = both!(self, |emu| emu.create_queue(
                    now,
                    ACCT,
                    &name,
                    Metadata::default()
                ));
            }
            Op::Reload => {
                // Both rebuilt from their own snapshot: the SQL one into a fresh database.
                let (a, b) = (
                    self.memory.snapshot().unwrap(),
                    self.sql.snapshot().unwrap(),
                );
                prop_assert_eq!(&a, &b);
                let entropy = || Box::new(SeededEntropy::new(self.seed + 1));
                self.memory = Emulator::from_snapshot(a, entropy());
                self.db = std::sync::Arc::new(sqlite::Sqlite::in_memory());
                let exec: azqueue::store::sql::SharedSql = self.db.clone();
                let tables = azqueue::store::sql::SqlTables::new(exec, "azqueue_messages/");
                self.sql = Emulator::from_snapshot_in(b, entropy(), tables).unwrap();
            }
            Op::Advance { ms } => self.now = Timestamp::from_millis(now.as_millis() + ms),
        }
        self.compare()
    }

    /// A receipt to try: one issued for a known message, the current one or any other.
    fn choose(&self, pick: &Index, current: bool) -> Option<(usize, MessageId, PopReceipt)> {
        if self.issued.is_empty() {
            return None;
        }
        let (queue, id, receipt) = self.issued[pick.index(self.issued.len())].clone();
        if !current {
            return Some((queue, id, receipt));
        }
        let latest = self.issued.iter().rev().find(|(_, i, _)| *i == id)?;
        Some(latest.clone())
    }

    /// A queue's counts as `azqueue_tables` keeps them (messages, charged bytes) and as its rows
    /// count up: what a table opened again would start from, and the truth.
    fn stored_counts(&self, name: &QueueName) -> ((u64, u64), (u64, u64)) {
        let db = self.db.0.lock().unwrap();
        let table = format!("azqueue_messages/{ACCT}/{}", name.as_str());
        let kept = db
            .query_row(
                "SELECT messages, bytes FROM azqueue_tables WHERE name = ?",
                [&table],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let counted = db
            .query_row(
                &format!(
                    "SELECT count(*), coalesce(sum(bytes), 0) + count(*) * {MESSAGE_OVERHEAD_BYTES} \
                     FROM \"{table}\""
                ),
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        (kept, counted)
    }

    fn compare(&mut self) -> Result<(), TestCaseError> {
        let now = self.now;
        prop_assert_eq!(self.memory.take_changes(), self.sql.take_changes());
        prop_assert_eq!(self.memory.take_events(), self.sql.take_events());
        prop_assert_eq!(self.memory.stored_bytes(), self.sql.stored_bytes());
        prop_assert_eq!(
            self.memory.next_deadline(now, ACCT),
            self.sql.next_deadline(now, ACCT)
        );
        for name in &self.queues {
            let (a, b) = (self.memory.queue(ACCT, name), self.sql.queue(ACCT, name));
            let len = b.map(|q| q.len());
            prop_assert_eq!(a.map(|q| q.len()), len.clone());
            if let Ok(len) = len {
                let (kept, counted) = self.stored_counts(name);
                prop_assert_eq!(kept, counted, "the kept counts are not the rows'");
                prop_assert_eq!(kept.0, len as u64);
            }
        }
        prop_assert_eq!(
            self.memory.snapshot().unwrap(),
            self.sql.snapshot().unwrap()
        );
        Ok(())
    }
}

proptest! {
    // Failing cases are kept with the crate's other proptest regressions, at the root.
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/tests/engine_tables_agree.txt",
        ))),
        ..ProptestConfig::with_cases(proptest_cases())
    })]

    #[test]
    fn both_tables_give_every_answer_alike(seed in any::<u64>(), ops in prop::collection::vec(op(), 1..60)) {
        let mut pair = Pair::new(seed);
        pair.memory.record_events(true);
        pair.sql.record_events(true);
        for name in pair.queues.clone() {
            let _ = both!(pair, |emu| emu.create_queue(t0(), ACCT, &name, Metadata::default()));
        }
        pair.compare()?;
        for op in &ops {
            pair.step(op)?;
        }
    }
}

/// This binary really runs over SQL: a Put lands as a row of the queue's SQLite table.
#[test]
fn a_put_is_a_row_of_the_queues_sqlite_table() {
    let sqlite = std::sync::Arc::new(sqlite::Sqlite::in_memory());
    let exec: azqueue::store::sql::SharedSql = sqlite.clone();
    let tables = azqueue::store::sql::SqlTables::new(exec, "t/");
    let mut emu = Emulator::with_tables(Box::new(SeededEntropy::new(1)), tables);
    let name = q("rows");
    emu.create_queue(t0(), ACCT, &name, Metadata::default())
        .unwrap();
    let m = put(&mut emu, t0(), &name, "in a row");
    let (id, text): (String, String) = sqlite
        .0
        .lock()
        .unwrap()
        .query_row(
            &format!("SELECT id, text FROM \"t/{ACCT}/rows\""),
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((id, text.as_str()), (m.id.to_string(), "in a row"));
    assert!(
        !over_sql(),
        "engine_harness here is this binary's own, compiled for memory"
    );
}
