//! The SQL message table's executor natively: SQLite through `rusqlite` (its bundled build),
//! one in-memory database per emulator.

use azqueue::store::sql::{SqlError, SqlErrorKind, SqlExecutor, SqlValue};
use rusqlite::types::{Value, ValueRef};

/// One SQLite connection as the engine's [`SqlExecutor`] (behind a mutex: tables share their
/// executor as `Send + Sync` natively, and a connection is not `Sync`).
#[derive(Debug)]
pub struct Sqlite(pub std::sync::Mutex<rusqlite::Connection>);

impl Sqlite {
    pub fn in_memory() -> Self {
        Sqlite(std::sync::Mutex::new(
            rusqlite::Connection::open_in_memory().expect("an in-memory SQLite database"),
        ))
    }
}

fn refused(e: rusqlite::Error) -> SqlError {
    let kind = match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DiskFull) => SqlErrorKind::Full,
        Some(rusqlite::ErrorCode::ConstraintViolation) => SqlErrorKind::Constraint,
        _ => SqlErrorKind::Other,
    };
    SqlError {
        kind,
        message: e.to_string(),
    }
}

fn bound(v: &SqlValue) -> Value {
    match v {
        SqlValue::Null => Value::Null,
        SqlValue::Integer(n) => Value::Integer(*n),
        SqlValue::Real(x) => Value::Real(*x),
        SqlValue::Text(s) => Value::Text(s.clone()),
        SqlValue::Blob(b) => Value::Blob(b.clone()),
    }
}

fn read(v: ValueRef<'_>) -> SqlValue {
    match v {
        ValueRef::Null => SqlValue::Null,
        ValueRef::Integer(n) => SqlValue::Integer(n),
        ValueRef::Real(x) => SqlValue::Real(x),
        ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => SqlValue::Blob(b.to_vec()),
    }
}

impl SqlExecutor for Sqlite {
    fn exec(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Vec<SqlValue>>, SqlError> {
        let connection = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut statement = connection.prepare_cached(sql).map_err(refused)?;
        let columns = statement.column_count();
        let mut rows = statement
            .query(rusqlite::params_from_iter(params.iter().map(bound)))
            .map_err(refused)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(refused)? {
            let mut values = Vec::with_capacity(columns);
            for i in 0..columns {
                values.push(read(row.get_ref(i).map_err(refused)?));
            }
            out.push(values);
        }
        Ok(out)
    }
}
