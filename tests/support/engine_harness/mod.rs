//! What the engine story tests share: the account, a fixed start time, value builders that
//! unwrap (the values are valid by construction), and the common calls with their usual
//! arguments.
#![allow(dead_code)] // each test binary uses a different subset

use azqueue::engine::{
    AccessPolicy, Emulator, MessageCount, MessageRecord, MessageText, Metadata, PolicyTime,
    QueueName, QueuePermissions, SeededEntropy, SignedIdentifier, Snapshot, TimeToLive, Timestamp,
    VisibilityTimeout,
};

#[cfg(not(target_arch = "wasm32"))]
pub mod sqlite;

/// Which message table the suite runs over: SQL when this module was compiled into
/// `tests/engine_over_sql.rs` (which includes every engine suite again), memory otherwise.
pub fn over_sql() -> bool {
    module_path!().starts_with("engine_over_sql")
}

/// A fresh service drawing from `SeededEntropy::new(seed)`, over the suite's table.
pub fn emulator(seed: u64) -> Emulator {
    let entropy = Box::new(SeededEntropy::new(seed));
    #[cfg(not(target_arch = "wasm32"))]
    if over_sql() {
        return Emulator::with_tables(entropy, sql_tables());
    }
    Emulator::new(entropy)
}

/// A service rebuilt from `snapshot`, over the suite's table.
pub fn emulator_from(snapshot: Snapshot, seed: u64) -> Emulator {
    let entropy = Box::new(SeededEntropy::new(seed));
    #[cfg(not(target_arch = "wasm32"))]
    if over_sql() {
        return Emulator::from_snapshot_in(snapshot, entropy, sql_tables()).unwrap();
    }
    Emulator::from_snapshot(snapshot, entropy)
}

/// SQL tables in a fresh in-memory SQLite database.
#[cfg(not(target_arch = "wasm32"))]
pub fn sql_tables() -> azqueue::store::sql::SqlTables {
    let exec: azqueue::store::sql::SharedSql = std::sync::Arc::new(sqlite::Sqlite::in_memory());
    azqueue::store::sql::SqlTables::new(exec, "azqueue_messages/")
}

pub const ACCT: &str = "devstoreaccount1";
pub const T0: u64 = 1_700_000_000;

pub fn t0() -> Timestamp {
    Timestamp::from_secs(T0)
}

/// `t0 + secs`.
pub fn at(secs: u64) -> Timestamp {
    t0().plus_secs(secs)
}

pub fn q(name: &str) -> QueueName {
    QueueName::parse(name).unwrap()
}

pub fn text(s: &str) -> MessageText {
    MessageText::new(s).unwrap()
}

/// Visibility for Put and Update (0 allowed).
pub fn vis(secs: i64) -> VisibilityTimeout {
    VisibilityTimeout::new(secs).unwrap()
}

/// Visibility for Get (at least 1).
pub fn get_vis(secs: i64) -> VisibilityTimeout {
    VisibilityTimeout::for_get(secs).unwrap()
}

pub fn n(count: i64) -> MessageCount {
    MessageCount::new(count).unwrap()
}

pub fn ttl(secs: i64) -> TimeToLive {
    TimeToLive::new(secs).unwrap()
}

pub fn meta(pairs: &[(&str, &str)]) -> Metadata {
    Metadata::from_pairs(pairs.iter().copied()).unwrap()
}

/// A fresh service with one empty queue `orders` and a drained outbox.
pub fn setup() -> (Emulator, QueueName) {
    let mut emu = emulator(42);
    let name = q("orders");
    emu.create_queue(t0(), ACCT, &name, Metadata::default())
        .unwrap();
    emu.take_changes();
    (emu, name)
}

/// Put with no delay and the default TTL.
pub fn put(emu: &mut Emulator, now: Timestamp, name: &QueueName, body: &str) -> MessageRecord {
    emu.put_message(now, ACCT, name, text(body), vis(0), TimeToLive::default())
        .unwrap()
}

pub fn get(
    emu: &mut Emulator,
    now: Timestamp,
    name: &QueueName,
    count: i64,
    secs: i64,
) -> Vec<MessageRecord> {
    emu.get_messages(now, ACCT, name, n(count), get_vis(secs))
        .unwrap()
}

pub fn peek(
    emu: &mut Emulator,
    now: Timestamp,
    name: &QueueName,
    count: i64,
) -> Vec<MessageRecord> {
    emu.peek_messages(now, ACCT, name, n(count)).unwrap()
}

pub fn texts(ms: &[MessageRecord]) -> Vec<&str> {
    ms.iter().map(|m| &*m.text).collect()
}

pub fn count(emu: &mut Emulator, now: Timestamp, name: &QueueName) -> usize {
    emu.queue_properties(now, ACCT, name)
        .unwrap()
        .approximate_message_count
}

/// A stored access policy valid for the first hour.
pub fn policy(id: &str, perms: &str) -> SignedIdentifier {
    SignedIdentifier {
        id: id.into(),
        policy: AccessPolicy {
            start: Some(PolicyTime {
                secs: T0 as i64,
                ticks: 0,
            }),
            expiry: Some(PolicyTime {
                secs: T0 as i64 + 3600,
                ticks: 4_560_000,
            }),
            permission: QueuePermissions::parse(perms),
        },
    }
}

/// Proptest cases per property: 200, or `PROPTEST_CASES` for a deeper run.
pub fn proptest_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(200)
}

/// The bytes charged for every message of `snapshot` (`capacity::message_cost`), recounted from
/// scratch; expired messages not yet purged count, since they are charged until purged.
pub fn recounted_charge(snapshot: &azqueue::engine::Snapshot) -> u64 {
    snapshot
        .accounts
        .iter()
        .flat_map(|a| &a.queues)
        .flat_map(|q| &q.messages)
        .map(|m| azqueue::engine::capacity::message_cost(m.text.len()))
        .sum()
}
