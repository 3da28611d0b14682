//! A queue's messages as rows of a SQL table, through a synchronous executor: the edge's
//! persistence, where each Durable Object's SQLite holds its queues.
//!
//! - this file: the [`SqlExecutor`] a table runs on: one call, one statement, every row back.
//!   At the edge it is a Durable Object's `ctx.storage.sql.exec` (`src/wasm/sql_host.rs`);
//!   natively, SQLite through `rusqlite` (the engine tests);
//! - [`schema`]: the table's layout and statements, creating and dropping it;
//! - [`table`]: [`SqlTable`], the engine's [`MessageTable`](crate::engine::MessageTable) over
//!   those rows; [`tables`]: [`SqlTables`], one per queue, given to the engine as its `Tables`;
//! - `rows`: SQL values ⇄ messages.
//!
//! Transactions are the host's: it runs a request's statements inside one (a Durable Object's
//! `transactionSync`) and answers only once it committed.

#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
mod rows;
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub mod schema;
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub mod table;
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub mod tables;

#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub use table::SqlTable;
#[cfg(any(feature = "sql-host", not(target_arch = "wasm32")))]
pub use tables::SqlTables;

/// A value bound to a statement or read from a row, in SQLite's storage classes.
#[derive(Clone, Debug, PartialEq)]
pub enum SqlValue {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl SqlValue {
    /// The value as an integer: SQLite's integers, and reals that hold one exactly (a JS host
    /// hands every number over as a double).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            SqlValue::Integer(n) => Some(n),
            SqlValue::Real(x) if x.fract() == 0.0 && x.abs() < 9.007_199_254_740_992e15 => {
                Some(x as i64)
            }
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            SqlValue::Text(s) => Some(s),
            _ => None,
        }
    }

    /// Takes the text out of the value, leaving `Null`.
    pub fn take_text(&mut self) -> Option<String> {
        match std::mem::replace(self, SqlValue::Null) {
            SqlValue::Text(s) => Some(s),
            other => {
                *self = other;
                None
            }
        }
    }
}

/// What kind of failure a statement met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SqlErrorKind {
    /// The database is full (`SQLITE_FULL`).
    Full,
    /// A UNIQUE (or other) constraint refused the write.
    Constraint,
    Other,
}

/// A statement that failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SqlError {
    pub kind: SqlErrorKind,
    pub message: String,
}

/// How SQL tables share their host's executor. In wasm it holds JavaScript values on one thread
/// (`Rc`); natively it is `Arc` of a `Send + Sync` executor, so an emulator over SQL tables is
/// `Send` like one over memory (the Rust SDK's transport needs `Send + Sync`).
#[cfg(target_arch = "wasm32")]
pub type SharedSql = std::rc::Rc<dyn SqlExecutor>;
/// How SQL tables share their host's executor (see the wasm32 definition).
#[cfg(not(target_arch = "wasm32"))]
pub type SharedSql = std::sync::Arc<dyn SqlExecutor + Send + Sync>;

/// Runs one statement with its parameters and returns every row it produced.
pub trait SqlExecutor: std::fmt::Debug {
    /// # Errors
    /// What the database reported.
    fn exec(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Vec<SqlValue>>, SqlError>;
}
