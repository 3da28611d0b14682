//! A queue's messages as SQL rows kept by the host: `QueueService.open({ sql })`, where a
//! Durable Object hands over its SQLite (`ctx.storage.sql.exec` and `transactionSync`). The
//! store's [`SqlTable`](crate::store::sql::SqlTable) runs its statements through [`JsSql`]; every
//! REST request's statements run inside one `transaction` call, so they commit together or, if
//! one fails, not at all.

use super::thrown::message_of;
use crate::store::sql::{SqlError, SqlErrorKind, SqlExecutor, SqlValue};
use js_sys::{Array, Function, Uint8Array};
use std::cell::Cell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
/**
 * SQL the host keeps messages in (`QueueService.open({ sql })`): each queue's messages become
 * rows of one table, read and written a request at a time, so nothing per message stays in
 * memory. `exec` runs one statement with its parameters and returns every row as an array of
 * column values (a Durable Object: `(sql, params) => ctx.storage.sql.exec(sql, ...params).raw().toArray()`);
 * `transaction` runs its callback in one transaction, rolled back if it throws (a Durable
 * Object: `(fn) => ctx.storage.transactionSync(fn)`).
 */
export interface SqlHost {
  exec(sql: string, params: unknown[]): unknown[][];
  transaction(run: () => void): void;
}
"#;

/// The prefix of the SQL tables messages are kept in (`open({ sql })`): one table per queue,
/// `azqueue_messages/<account>/<queue>`.
#[cfg(feature = "sql-host")]
pub(crate) const MESSAGE_TABLES: &str = "azqueue_messages/";

/// The host's `exec` as the engine's executor. Remembers that a statement failed, so the
/// request's transaction can be rolled back even though the engine answered (500 or 503).
#[derive(Debug)]
pub(crate) struct JsSql {
    exec: Function,
    failed: Cell<bool>,
    /// Writing statements still allowed: `Some` while a request runs without a transaction,
    /// on the promise of writing once ([`crate::engine::Emulator::puts_one_row`]).
    writes_left: Cell<Option<u32>>,
}

impl JsSql {
    #[cfg(feature = "sql-host")]
    fn new(exec: Function) -> Self {
        JsSql {
            exec,
            failed: Cell::new(false),
            writes_left: Cell::new(None),
        }
    }

    /// Takes the failure seen since the last call.
    #[cfg(feature = "sql-host")]
    pub(crate) fn take_failure(&self) -> bool {
        self.failed.replace(false)
    }

    /// Runs `work` allowing it one writing statement: a second is refused, not run (and
    /// counts as a failed statement), so a request outside a transaction never writes half.
    #[cfg(feature = "sql-host")]
    pub(crate) fn writing_once<R>(&self, work: impl FnOnce() -> R) -> R {
        self.writes_left.set(Some(1));
        let out = work();
        self.writes_left.set(None);
        out
    }

    /// Counts `sql` against the writes allowed; false when it must not run.
    fn may_run(&self, sql: &str) -> bool {
        match self.writes_left.get() {
            Some(left) if !sql.starts_with("SELECT") => {
                self.writes_left.set(left.checked_sub(1));
                left > 0
            }
            _ => true,
        }
    }
}

/// The `{ exec, transaction }` of `open()`'s `sql` option.
#[derive(Debug)]
pub(crate) struct SqlHost {
    #[cfg_attr(not(feature = "sql-host"), allow(dead_code))] // made only with the feature
    pub(crate) sql: std::rc::Rc<JsSql>,
    #[cfg_attr(not(feature = "sql-host"), allow(dead_code))] // made only with the feature
    pub(crate) transaction: Function,
}

impl SqlHost {
    #[cfg(feature = "sql-host")]
    pub(crate) fn from_option(value: &JsValue) -> Result<Self, String> {
        let function = |name: &str| {
            js_sys::Reflect::get(value, &name.into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .ok_or_else(|| format!("sql.{name} must be a function"))
        };
        Ok(SqlHost {
            sql: std::rc::Rc::new(JsSql::new(function("exec")?)),
            transaction: function("transaction")?,
        })
    }
}

fn to_js(v: &SqlValue) -> JsValue {
    match v {
        SqlValue::Null => JsValue::NULL,
        // Every integer the table stores (times in ms, sequences, counts) is below 2^53.
        SqlValue::Integer(n) => JsValue::from_f64(*n as f64),
        SqlValue::Real(x) => JsValue::from_f64(*x),
        SqlValue::Text(s) => JsValue::from_str(s),
        SqlValue::Blob(b) => Uint8Array::from(b.as_slice()).into(),
    }
}

fn from_js(v: JsValue) -> SqlValue {
    if let Some(s) = v.as_string() {
        SqlValue::Text(s)
    } else if let Some(x) = v.as_f64() {
        if x.fract() == 0.0 && x.abs() < 9.007_199_254_740_992e15 {
            SqlValue::Integer(x as i64)
        } else {
            SqlValue::Real(x)
        }
    } else if v.is_null() || v.is_undefined() {
        SqlValue::Null
    } else if v.is_instance_of::<js_sys::ArrayBuffer>() || v.is_instance_of::<Uint8Array>() {
        SqlValue::Blob(Uint8Array::new(&v).to_vec())
    } else {
        SqlValue::Null
    }
}

/// What kind of failure SQLite's message names (workerd passes SQLite's own words through).
fn kind_of(message: &str) -> SqlErrorKind {
    if message.contains("SQLITE_FULL") || message.contains("database or disk is full") {
        SqlErrorKind::Full
    } else if message.contains("constraint failed") {
        SqlErrorKind::Constraint
    } else {
        SqlErrorKind::Other
    }
}

impl SqlExecutor for JsSql {
    fn exec(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Vec<SqlValue>>, SqlError> {
        if !self.may_run(sql) {
            self.failed.set(true);
            return Err(SqlError {
                kind: SqlErrorKind::Other,
                message: "a second writing statement in a request run without a transaction".into(),
            });
        }
        let bound: Array = params.iter().map(to_js).collect();
        let rows = match self.exec.call2(&JsValue::NULL, &sql.into(), &bound) {
            Ok(rows) => rows,
            Err(thrown) => {
                let message = message_of(&thrown);
                let kind = kind_of(&message);
                // A refused duplicate is the table's to resolve (it replaces the message), and
                // SQLite undoes the statement itself; anything else fails the request.
                if kind != SqlErrorKind::Constraint {
                    self.failed.set(true);
                }
                return Err(SqlError { kind, message });
            }
        };
        let rows: Array = rows.dyn_into().map_err(|_| {
            self.failed.set(true);
            SqlError {
                kind: SqlErrorKind::Other,
                message: "sql.exec must return an array of rows".into(),
            }
        })?;
        Ok(rows
            .iter()
            .map(|row| match row.dyn_into::<Array>() {
                Ok(row) => row.iter().map(from_js).collect(),
                Err(_) => Vec::new(),
            })
            .collect())
    }
}

/// Moves messages kept by the layout before SQL tables (a Durable Object's `azqueue_records`
/// rows, one JSON value per message, `src/store/layout.rs`) into their queues' tables and
/// returns how many. `exec` is `SqlHost.exec`. The caller deletes those rows in the same
/// transaction, so a conversion cut short by a crash resumes where its last step committed.
///
/// # Errors
/// A value that is not a message, or a statement that failed (the transaction should roll back).
#[cfg(feature = "sql-host")]
#[wasm_bindgen(js_name = importLegacyMessages)]
pub fn import_legacy_messages(exec: Function, values: Vec<String>) -> Result<u32, JsValue> {
    use crate::engine::{MessageTable, QueueName};
    use crate::store::layout::parse_message;
    use crate::store::sql::{SqlTable, SqlTables};
    use std::collections::HashMap;
    use std::collections::hash_map::Entry;

    let sql: std::rc::Rc<dyn SqlExecutor> = std::rc::Rc::new(JsSql::new(exec));
    let tables = SqlTables::new(sql, MESSAGE_TABLES);
    let mut open: HashMap<(String, String), SqlTable> = HashMap::new();
    for value in &values {
        let (account, queue, message) =
            parse_message(value).map_err(|e| js_sys::Error::new(&e.to_string()))?;
        let key = (account.into_owned(), queue.into_owned());
        let table = match open.entry(key) {
            Entry::Occupied(table) => table.into_mut(),
            Entry::Vacant(slot) => {
                let name = QueueName::parse(&slot.key().1)
                    .map_err(|e| js_sys::Error::new(&format!("a stored queue name: {e:?}")))?;
                let table = tables.open(&slot.key().0, &name).map_err(table_error)?;
                slot.insert(table)
            }
        };
        table.insert(message).map_err(table_error)?;
    }
    Ok(values.len() as u32)
}

/// Drops the message table of the queue whose record `key` names (a storage adapter's key,
/// `src/store/layout.rs`) and returns true; for any other key, does nothing and returns false.
/// A host whose queues keep their messages in SQL calls it where it deletes a queue's record,
/// in the same transaction, so the queue and its messages go together or not at all (Delete
/// Queue leaves the table to it: `SqlTables::dropped_by_host`). `exec` is `SqlHost.exec`.
///
/// # Errors
/// A statement that failed (the transaction should roll back).
#[cfg(feature = "sql-host")]
#[wasm_bindgen(js_name = dropQueueTable)]
pub fn drop_queue_table(exec: Function, key: &str) -> Result<bool, JsValue> {
    use crate::store::layout::Key;
    use crate::store::sql::SqlTables;

    let Ok(Key::Queue { account, queue }) = Key::from_path(key) else {
        return Ok(false);
    };
    let sql: std::rc::Rc<dyn SqlExecutor> = std::rc::Rc::new(JsSql::new(exec));
    SqlTables::new(sql, MESSAGE_TABLES)
        .drop_table(&account, &queue)
        .map_err(table_error)?;
    Ok(true)
}

#[cfg(feature = "sql-host")]
fn table_error(e: crate::engine::TableError) -> JsValue {
    js_sys::Error::new(&e.to_string()).into()
}
