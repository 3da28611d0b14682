//! Delete Queue over SQL tables whose host drops them (`SqlTables::dropped_by_host`, the edge):
//! the request's own statements leave the table, and its messages, in place, so a failure before
//! the host deletes the queue's record changes nothing; the host's `drop_table`, run where it
//! deletes that record, removes the table and its kept counts. Without the setting, Delete
//! Queue drops the table itself.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::sqlite::Sqlite;
use engine_harness::*;

use azqueue::engine::{Emulator, SeededEntropy};
use azqueue::store::sql::{SharedSql, SqlExecutor, SqlTables, SqlValue};
use std::sync::Arc;

const PREFIX: &str = "azqueue_messages/";

/// A service over SQL tables on a fresh SQLite database, and that database.
fn service(host_drops: bool) -> (Emulator, Arc<Sqlite>) {
    let db = Arc::new(Sqlite::in_memory());
    let exec: SharedSql = db.clone();
    let tables = SqlTables::new(exec, PREFIX);
    let tables = if host_drops {
        tables.dropped_by_host()
    } else {
        tables
    };
    let emu = Emulator::with_tables(Box::new(SeededEntropy::new(7)), tables);
    (emu, db)
}

/// The queue `orders`'s table: its rows, or `None` when there is no such table.
fn rows(db: &Sqlite) -> Option<i64> {
    let table = format!("{PREFIX}{ACCT}/orders");
    let exists = db
        .exec(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
            &[SqlValue::Text(table.clone())],
        )
        .unwrap();
    if exists.is_empty() {
        return None;
    }
    let count = db
        .exec(&format!("SELECT count(*) FROM \"{table}\""), &[])
        .unwrap();
    count[0][0].as_i64()
}

/// The kept counts' rows for `orders`'s table.
fn kept(db: &Sqlite) -> usize {
    db.exec(
        "SELECT 1 FROM azqueue_tables WHERE name = ?",
        &[SqlValue::Text(format!("{PREFIX}{ACCT}/orders"))],
    )
    .unwrap()
    .len()
}

fn with_two_messages(emu: &mut Emulator) {
    emu.create_queue(t0(), ACCT, &q("orders"), meta(&[]))
        .unwrap();
    put(emu, t0(), &q("orders"), "one");
    put(emu, t0(), &q("orders"), "two");
}

#[test]
fn delete_queue_leaves_the_table_to_a_host_that_drops_it_with_the_record() {
    let (mut emu, db) = service(true);
    with_two_messages(&mut emu);
    emu.delete_queue(t0(), ACCT, &q("orders")).unwrap();
    assert!(emu.queue(ACCT, &q("orders")).is_err(), "the queue is gone");
    assert_eq!(
        rows(&db),
        Some(2),
        "the messages stay until the host drops them"
    );
    assert_eq!(kept(&db), 1);

    let exec: SharedSql = db.clone();
    SqlTables::new(exec, PREFIX)
        .drop_table(ACCT, &q("orders"))
        .unwrap();
    assert_eq!(rows(&db), None);
    assert_eq!(kept(&db), 0);
}

#[test]
fn dropping_a_table_that_is_not_there_changes_nothing() {
    let (_, db) = service(true);
    let exec: SharedSql = db.clone();
    let tables = SqlTables::new(exec, PREFIX);
    // Not even the kept counts' table exists yet.
    tables.drop_table(ACCT, &q("orders")).unwrap();
    tables.drop_table(ACCT, &q("orders")).unwrap();
    assert_eq!(rows(&db), None);
}

#[test]
fn without_the_host_delete_queue_drops_the_table_itself() {
    let (mut emu, db) = service(false);
    with_two_messages(&mut emu);
    emu.delete_queue(t0(), ACCT, &q("orders")).unwrap();
    assert_eq!(rows(&db), None);
    assert_eq!(kept(&db), 0);
}
