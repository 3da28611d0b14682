//! The SQL of a queue's table: its layout, the statements it runs, creating and dropping it.
//!
//! Layout, per queue (`<t>` is the table's name, quoted):
//!
//! ```sql
//! CREATE TABLE <t> (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, text TEXT NOT NULL,
//!   bytes INTEGER NOT NULL, inserted INTEGER NOT NULL, expires INTEGER NOT NULL,
//!   visible INTEGER NOT NULL, dequeues INTEGER NOT NULL, receipt TEXT NOT NULL);
//! CREATE INDEX <t/visible> ON <t> (visible);   -- (visible, seq): seq is the rowid
//! CREATE INDEX <t/expires> ON <t> (expires);   -- (expires, seq)
//! azqueue_tables(name TEXT PRIMARY KEY, messages, bytes, next_seq)   -- one row per table
//! CREATE TRIGGER <t/counted> AFTER INSERT ON <t> ...  -- adds each new row to its counts
//! ```
//!
//! Times are milliseconds since the epoch, `bytes` the text's UTF-8 length. The message count,
//! the charged bytes and the next sequence are kept in `azqueue_tables` and read once when the
//! table opens: never counted. An insert's trigger keeps them, so a Put Message is one
//! statement, atomic without a transaction around it (a Durable Object's `transactionSync`
//! costs a Put about a tenth of its CPU); every other write sets them itself. They are also
//! held here, so they go stale if the host rolls back a transaction: a host that does must
//! open the table again.

use super::rows::{COLUMNS, failed, literal, quoted, read_u64};
use super::{SqlExecutor, SqlValue};
use crate::engine::{MESSAGE_OVERHEAD_BYTES, TableError};

/// The statements of one table, its name written in.
#[derive(Debug)]
pub(super) struct Statements {
    pub(super) insert: String,
    pub(super) text_len: String,
    pub(super) expired: String,
    pub(super) delete_expired: String,
    pub(super) earliest_expiry: String,
    pub(super) visible: String,
    pub(super) hide: String,
    pub(super) find: String,
    pub(super) delete: String,
    pub(super) update: String,
    pub(super) clear: String,
    pub(super) in_order: String,
    pub(super) next_times: String,
}

/// A table as [`create`] opened it: its statements and its kept counts.
#[derive(Debug)]
pub(super) struct Created {
    pub(super) sql: Statements,
    pub(super) messages: u64,
    pub(super) bytes: u64,
    pub(super) next_seq: u64,
}

/// Opens (creating if need be) the table `name` and reads its kept counts.
///
/// # Errors
/// What the executor reported.
pub(super) fn create(exec: &dyn SqlExecutor, name: &str) -> Result<Created, TableError> {
    let t = quoted(name);
    let run = |sql: &str, params: &[SqlValue]| exec.exec(sql, params).map_err(failed);
    run(
        &format!(
            "CREATE TABLE IF NOT EXISTS {t} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, \
             text TEXT NOT NULL, bytes INTEGER NOT NULL, inserted INTEGER NOT NULL, \
             expires INTEGER NOT NULL, visible INTEGER NOT NULL, dequeues INTEGER NOT NULL, \
             receipt TEXT NOT NULL)"
        ),
        &[],
    )?;
    run(
        &format!(
            "CREATE INDEX IF NOT EXISTS {} ON {t} (visible)",
            quoted(&format!("{name}/visible"))
        ),
        &[],
    )?;
    run(
        &format!(
            "CREATE INDEX IF NOT EXISTS {} ON {t} (expires)",
            quoted(&format!("{name}/expires"))
        ),
        &[],
    )?;
    run(
        "CREATE TABLE IF NOT EXISTS azqueue_tables (name TEXT PRIMARY KEY, \
         messages INTEGER NOT NULL, bytes INTEGER NOT NULL, next_seq INTEGER NOT NULL)",
        &[],
    )?;
    // What `insert` adds to the counts, as `message_cost` charges it; tables written before
    // the trigger get it here, as they open.
    run(
        &format!(
            "CREATE TRIGGER IF NOT EXISTS {} AFTER INSERT ON {t} BEGIN \
             UPDATE azqueue_tables SET messages = messages + 1, \
             bytes = bytes + NEW.bytes + {MESSAGE_OVERHEAD_BYTES}, \
             next_seq = max(next_seq, NEW.seq + 1) WHERE name = {}; END",
            quoted(&format!("{name}/counted")),
            literal(name)
        ),
        &[],
    )?;
    let key = SqlValue::Text(name.to_owned());
    let kept = run(
        "SELECT messages, bytes, next_seq FROM azqueue_tables WHERE name = ?",
        std::slice::from_ref(&key),
    )?;
    let (messages, bytes, next_seq) = match kept.into_iter().next() {
        Some(row) if row.len() == 3 => (
            read_u64(&row[0], "message count")?,
            read_u64(&row[1], "byte count")?,
            read_u64(&row[2], "next sequence")?,
        ),
        _ => {
            run(
                "INSERT INTO azqueue_tables (name, messages, bytes, next_seq) VALUES (?, 0, 0, 0)",
                &[key],
            )?;
            (0, 0, 0)
        }
    };
    let sql = Statements {
        insert: format!(
            "INSERT INTO {t} (seq, id, text, bytes, inserted, expires, visible, dequeues, receipt) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        ),
        text_len: format!("SELECT bytes FROM {t} WHERE id = ?"),
        expired: format!(
            "SELECT seq, id, bytes FROM {t} WHERE expires <= ? ORDER BY expires, seq LIMIT ?"
        ),
        delete_expired: format!(
            "DELETE FROM {t} WHERE seq IN (SELECT seq FROM {t} WHERE expires <= ? \
             ORDER BY expires, seq LIMIT ?)"
        ),
        earliest_expiry: format!("SELECT min(expires) FROM {t}"),
        visible: format!(
            "SELECT {COLUMNS} FROM {t} WHERE visible <= ? ORDER BY visible, seq LIMIT ?"
        ),
        hide: format!("UPDATE {t} SET visible = ?, dequeues = ?, receipt = ? WHERE seq = ?"),
        find: format!("SELECT seq, receipt, bytes FROM {t} WHERE id = ?"),
        delete: format!("DELETE FROM {t} WHERE seq = ?"),
        update: format!(
            "UPDATE {t} SET text = coalesce(?, text), bytes = coalesce(?, bytes), visible = ?, \
             receipt = ? WHERE seq = ? RETURNING {COLUMNS}"
        ),
        clear: format!("DELETE FROM {t}"),
        in_order: format!("SELECT {COLUMNS} FROM {t} ORDER BY visible, seq"),
        next_times: format!(
            "SELECT (SELECT min(visible) FROM {t} WHERE visible > ?1), \
             (SELECT min(expires) FROM {t} WHERE expires > ?1 AND expires < ?2)"
        ),
    };
    Ok(Created {
        sql,
        messages,
        bytes,
        next_seq,
    })
}

/// `DROP TABLE` for the table `name`, and its row in `azqueue_tables` when that table exists.
pub(super) fn drop_named(exec: &dyn SqlExecutor, name: &str) -> Result<(), TableError> {
    exec.exec(&format!("DROP TABLE IF EXISTS {}", quoted(name)), &[])
        .map_err(failed)?;
    let kept = exec
        .exec(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'azqueue_tables'",
            &[],
        )
        .map_err(failed)?;
    if !kept.is_empty() {
        exec.exec(
            "DELETE FROM azqueue_tables WHERE name = ?",
            &[SqlValue::Text(name.to_owned())],
        )
        .map_err(failed)?;
    }
    Ok(())
}
