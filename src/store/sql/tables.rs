//! Where an emulator over SQL gets each queue's table: one [`SqlTable`] per queue, all through
//! one executor, given to the engine as its [`Tables`].

use super::SharedSql;
use super::schema::drop_named;
use super::table::SqlTable;
use crate::engine::{HostBox, QueueName, TableError, TableSource, Tables};

/// Opens one SQL table per queue, all through one executor. `prefix` starts every table name,
/// so one database may hold several emulators' tables.
#[derive(Debug, Clone)]
pub struct SqlTables {
    exec: SharedSql,
    prefix: String,
    host_drops: bool,
}

impl SqlTables {
    pub fn new(exec: SharedSql, prefix: impl Into<String>) -> Self {
        SqlTables {
            exec,
            prefix: prefix.into(),
            host_drops: false,
        }
    }

    /// Tables whose host drops a deleted queue's table ([`SqlTables::drop_table`]) in the
    /// transaction that deletes the queue's record, rather than in Delete Queue's own: where
    /// the record is written later than the request's statements (a Durable Object announces
    /// the change to its directory first), a table dropped early would leave, after a failure
    /// between the two, a queue that exists with its messages gone.
    pub fn dropped_by_host(mut self) -> Self {
        self.host_drops = true;
        self
    }

    /// The table of `account`'s queue `queue`, empty or as stored before.
    pub fn open(&self, account: &str, queue: &QueueName) -> Result<SqlTable, TableError> {
        let mut table = SqlTable::open(self.exec.clone(), &self.name_of(account, queue))?;
        table.host_drops = self.host_drops;
        Ok(table)
    }

    /// Drops the table of `account`'s queue `queue` and its kept counts, if there are any.
    ///
    /// # Errors
    /// What the executor reported.
    pub fn drop_table(&self, account: &str, queue: &QueueName) -> Result<(), TableError> {
        drop_named(&*self.exec, &self.name_of(account, queue))
    }

    fn name_of(&self, account: &str, queue: &QueueName) -> String {
        format!("{}{account}/{}", self.prefix, queue.as_str())
    }
}

impl TableSource for SqlTables {
    fn open(&self, account: &str, queue: &QueueName) -> Result<HostBox, TableError> {
        Ok(Box::new(SqlTables::open(self, account, queue)?))
    }
}

/// The engine's [`Tables`] of `tables`: each queue's messages in its SQL table.
impl From<SqlTables> for Tables {
    #[cfg(target_arch = "wasm32")]
    fn from(tables: SqlTables) -> Self {
        Tables::Host(std::rc::Rc::new(tables))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn from(tables: SqlTables) -> Self {
        Tables::Host(std::sync::Arc::new(tables))
    }
}
