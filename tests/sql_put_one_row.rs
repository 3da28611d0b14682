//! `Emulator::puts_one_row`: when it says a Put Message writes its table once, the put runs
//! exactly one writing statement (the INSERT, whose trigger keeps the counts), so a host may
//! run it without a transaction around it (the edge: `transactionSync` costs a Put about a
//! tenth of its CPU). Random sequences of puts (with short and long TTLs), gets, deletes,
//! clears, purges and clock moves over SQL tables, with every statement counted.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::sqlite::Sqlite;
use engine_harness::*;

use azqueue::engine::{Emulator, Metadata, QueueName, SeededEntropy, Timestamp};
use azqueue::store::sql::{SharedSql, SqlError, SqlExecutor, SqlTables, SqlValue};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// SQLite that counts the statements that may write (all but SELECT).
#[derive(Debug)]
struct Counted {
    db: Sqlite,
    writes: AtomicUsize,
}

impl SqlExecutor for Counted {
    fn exec(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Vec<SqlValue>>, SqlError> {
        if !sql.starts_with("SELECT") {
            self.writes.fetch_add(1, Ordering::Relaxed);
        }
        self.db.exec(sql, params)
    }
}

fn service() -> (Emulator, Arc<Counted>, QueueName) {
    let counted = Arc::new(Counted {
        db: Sqlite::in_memory(),
        writes: AtomicUsize::new(0),
    });
    let exec: SharedSql = counted.clone();
    let tables = SqlTables::new(exec, "azqueue_messages/");
    let mut emu = Emulator::with_tables(Box::new(SeededEntropy::new(3)), tables);
    let name = q("one-row");
    emu.create_queue(t0(), ACCT, &name, Metadata::default())
        .unwrap();
    (emu, counted, name)
}

/// Puts `body` at `now` and returns (what `puts_one_row` said, the writes the put ran).
fn counted_put(
    emu: &mut Emulator,
    db: &Counted,
    now: Timestamp,
    name: &QueueName,
    ttl_secs: i64,
) -> (bool, usize) {
    let one = emu.puts_one_row(now, ACCT, name);
    let before = db.writes.load(Ordering::Relaxed);
    emu.put_message(now, ACCT, name, text("m"), vis(0), ttl(ttl_secs))
        .unwrap();
    (one, db.writes.load(Ordering::Relaxed) - before)
}

#[test]
fn a_put_into_a_queue_with_nothing_expired_is_one_statement() {
    let (mut emu, db, name) = service();
    // An empty queue: nothing can have expired.
    assert_eq!(counted_put(&mut emu, &db, t0(), &name, 60), (true, 1));
    // Not yet known whether the first message has expired: the put looks, so not one row.
    assert!(!emu.puts_one_row(at(1), ACCT, &name));
    counted_put(&mut emu, &db, at(1), &name, 60);
    // Now the table knows the earliest expiry (60 s on): one row until then.
    assert_eq!(counted_put(&mut emu, &db, at(2), &name, 60), (true, 1));
    // Past it, the put purges first, and says so.
    assert!(!emu.puts_one_row(at(61), ACCT, &name));
    let (_, writes) = counted_put(&mut emu, &db, at(61), &name, 60);
    assert!(writes > 1, "the purge and the insert: {writes}");
    // A queue that does not exist is not "one row": its put fails, but only the put knows.
    assert!(!emu.puts_one_row(t0(), ACCT, &q("missing")));
}

#[derive(Clone, Debug)]
enum Op {
    Put { ttl_secs: u8 },
    Get { n: u8 },
    Delete,
    Clear,
    Purge { limit: u8 },
    Advance { secs: u8 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1u8..120).prop_map(|ttl_secs| Op::Put { ttl_secs }),
        2 => (1u8..8).prop_map(|n| Op::Get { n }),
        1 => Just(Op::Delete),
        1 => Just(Op::Clear),
        1 => (1u8..4).prop_map(|limit| Op::Purge { limit }),
        3 => (0u8..90).prop_map(|secs| Op::Advance { secs }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases()))]

    #[test]
    fn when_it_says_one_row_a_put_writes_once(ops in prop::collection::vec(op(), 1..80)) {
        let (mut emu, db, name) = service();
        let mut now = t0();
        let mut received = Vec::new();
        for op in ops {
            match op {
                Op::Put { ttl_secs } => {
                    let (one, writes) = counted_put(&mut emu, &db, now, &name, i64::from(ttl_secs));
                    if one {
                        prop_assert_eq!(writes, 1, "said one row, wrote {}", writes);
                    }
                }
                Op::Get { n: count } => {
                    received = emu.get_messages(now, ACCT, &name, n(i64::from(count)), get_vis(5)).unwrap();
                }
                Op::Delete => {
                    if let Some(m) = received.pop() {
                        let _ = emu.delete_message(now, ACCT, &name, &m.id, &m.pop_receipt);
                    }
                }
                Op::Clear => {
                    emu.clear_messages(now, ACCT, &name).unwrap();
                }
                Op::Purge { limit } => {
                    emu.purge_expired(now, ACCT, &name, usize::from(limit)).unwrap();
                }
                Op::Advance { secs } => {
                    now = Timestamp::from_millis(now.as_millis() + u64::from(secs) * 1000);
                }
            }
        }
    }
}

/// The REST service reads the request as it will serve it: only a Put Message, addressed
/// path-style or host-style to the primary endpoint, may be one row.
#[test]
fn the_service_says_one_row_only_for_a_put_message_it_would_serve() {
    use azqueue::rest::{Clocks, Service, ServiceConfig};
    let (emu, _db, _name) = service();
    let service = Service::new(ServiceConfig::dev(), emu);
    let clocks = Clocks::real(t0());
    let says = |method: &str, url: &str| {
        let req = http::Request::builder()
            .method(method)
            .uri(url)
            .body(Vec::new())
            .unwrap();
        service.puts_one_row(clocks, &service.route(&req))
    };
    assert!(says(
        "POST",
        &format!("http://127.0.0.1:10001/{ACCT}/one-row/messages")
    ));
    assert!(says(
        "POST",
        &format!("http://{ACCT}.localhost/one-row/messages")
    ));
    for (method, url) in [
        (
            "GET",
            format!("http://127.0.0.1:10001/{ACCT}/one-row/messages"),
        ),
        (
            "POST",
            format!("http://127.0.0.1:10001/{ACCT}-secondary/one-row/messages"),
        ),
        (
            "POST",
            format!("http://127.0.0.1:10001/{ACCT}/missing/messages"),
        ),
        ("POST", format!("http://127.0.0.1:10001/{ACCT}/one-row")),
        (
            "POST",
            "http://127.0.0.1:10001/_azqueue/messages".to_owned(),
        ),
    ] {
        assert!(!says(method, &url), "{method} {url}");
    }
}
