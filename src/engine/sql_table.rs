//! A queue's messages as rows of one SQL table, so a request costs the rows it touches and
//! nothing per message stays in memory between requests.
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

use super::capacity::{MESSAGE_OVERHEAD_BYTES, message_cost};
use super::ids::{MessageId, PopReceipt};
use super::message::MessageRecord;
use super::message_table::{MessageTable, TableError, receipt_is_current};
use super::name::QueueName;
use super::sql::{SharedSql, SqlError, SqlErrorKind, SqlExecutor, SqlValue};
use super::time::{NEVER, Timestamp};
use std::cell::Cell;
use std::sync::Arc;

/// The columns a message is read back with, in [`decode`]'s order.
const COLUMNS: &str = "seq, id, text, inserted, expires, visible, dequeues, receipt";

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

/// `DROP TABLE` for the table `name`, and its row in `azqueue_tables` when that table exists.
fn drop_named(exec: &dyn SqlExecutor, name: &str) -> Result<(), TableError> {
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

/// The statements of one table, its name written in.
#[derive(Debug)]
struct Statements {
    insert: String,
    text_len: String,
    expired: String,
    delete_expired: String,
    earliest_expiry: String,
    visible: String,
    hide: String,
    find: String,
    delete: String,
    update: String,
    clear: String,
    in_order: String,
    next_times: String,
}

/// What [`MessageTable::next_times`] answers for any `now` from `at` on, as long as neither
/// time has been reached: every stored time it does not name is either at or before `at` or
/// after the one it names. Inserts keep it exact (a new time can only lower a minimum, and one
/// at or before `at` is no deadline for such a `now`); any other write drops it.
#[derive(Clone, Copy, Debug)]
struct NextTimes {
    at: Timestamp,
    reappear: Option<Timestamp>,
    expire: Option<Timestamp>,
}

impl NextTimes {
    fn answers(&self, now: Timestamp) -> bool {
        now >= self.at
            && self.reappear.is_none_or(|t| t > now)
            && self.expire.is_none_or(|t| t > now)
    }

    /// Takes a message put into account.
    fn insert(&mut self, m: &MessageRecord) {
        let (visible, expires) = (m.time_next_visible, m.expiration_time);
        // A message visible as it is put (most are) is no coming reappearance for any `now` at
        // or after its insertion, which every later request has: answer only those, rather
        // than count it and have the next request ask again.
        if visible <= m.insertion_time {
            self.at = self.at.max(visible);
        }
        if visible > self.at {
            self.reappear = Some(self.reappear.map_or(visible, |t| t.min(visible)));
        }
        if expires > self.at && expires < NEVER {
            self.expire = Some(self.expire.map_or(expires, |t| t.min(expires)));
        }
    }
}

/// One queue's messages as SQL rows.
#[derive(Debug)]
pub struct SqlTable {
    exec: SharedSql,
    name: String,
    sql: Statements,
    messages: u64,
    bytes: u64,
    next_seq: u64,
    /// No message expires before this (`None`: not known), so a request at an earlier `now`
    /// skips the expiry query.
    no_expiry_before: Option<Timestamp>,
    /// The last answer of `next_times` (a host asks after every request, to set its alarm),
    /// while no write but inserts came since.
    next: Cell<Option<NextTimes>>,
    /// Whether the host drops this table with its queue's record (`SqlTables::dropped_by_host`).
    host_drops: bool,
}

/// `name` as a SQL identifier.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// `text` as an SQL string literal (a trigger's body takes no parameters).
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn failed(e: SqlError) -> TableError {
    match e.kind {
        SqlErrorKind::Full => TableError::Full(e.message),
        _ => TableError::Failed(e.message),
    }
}

fn unreadable(what: &str) -> TableError {
    TableError::Failed(format!("a stored message has an unreadable {what}"))
}

fn int(n: u64) -> SqlValue {
    SqlValue::Integer(n.min(i64::MAX as u64) as i64)
}

fn time(t: Timestamp) -> SqlValue {
    int(t.as_millis())
}

fn read_u64(v: &SqlValue, what: &str) -> Result<u64, TableError> {
    v.as_i64()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| unreadable(what))
}

/// One row of [`COLUMNS`] as a message.
fn decode(mut row: Vec<SqlValue>) -> Result<MessageRecord, TableError> {
    if row.len() < 8 {
        return Err(unreadable("row"));
    }
    let id = row[1]
        .as_str()
        .and_then(MessageId::parse)
        .ok_or_else(|| unreadable("id"))?;
    let pop_receipt = row[7]
        .as_str()
        .and_then(PopReceipt::from_base64)
        .ok_or_else(|| unreadable("pop receipt"))?;
    let text = row[2].take_text().ok_or_else(|| unreadable("text"))?;
    Ok(MessageRecord {
        id,
        seq: read_u64(&row[0], "sequence")?,
        text: Arc::from(text),
        insertion_time: Timestamp::from_millis(read_u64(&row[3], "insertion time")?),
        expiration_time: Timestamp::from_millis(read_u64(&row[4], "expiration time")?),
        time_next_visible: Timestamp::from_millis(read_u64(&row[5], "visibility time")?),
        dequeue_count: u32::try_from(read_u64(&row[6], "dequeue count")?)
            .map_err(|_| unreadable("dequeue count"))?,
        pop_receipt,
        // No column: the SQL table is the edge Worker's, which has no inspector actions, so
        // none of its messages was moved to a poison queue by one.
        origin: None,
    })
}

/// The one value of a one-row, one-column answer (`None` for no row or NULL).
fn single(rows: Vec<Vec<SqlValue>>) -> Option<SqlValue> {
    rows.into_iter()
        .next()?
        .into_iter()
        .next()
        .filter(|v| *v != SqlValue::Null)
}

impl SqlTable {
    /// Opens (creating if need be) the table `name` and reads its kept counts.
    ///
    /// # Errors
    /// What the executor reported.
    pub fn open(exec: SharedSql, name: &str) -> Result<Self, TableError> {
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
        Ok(SqlTable {
            exec,
            name: name.to_owned(),
            sql,
            messages,
            bytes,
            next_seq,
            no_expiry_before: None,
            next: Cell::new(None),
            host_drops: false,
        })
    }

    fn run(&self, sql: &str, params: &[SqlValue]) -> Result<Vec<Vec<SqlValue>>, TableError> {
        self.exec.exec(sql, params).map_err(failed)
    }

    /// Writes the kept counts (in the transaction of the write that moved them).
    fn keep_counts(&self) -> Result<(), TableError> {
        self.run(
            "UPDATE azqueue_tables SET messages = ?, bytes = ?, next_seq = ? WHERE name = ?",
            &[
                int(self.messages),
                int(self.bytes),
                int(self.next_seq),
                SqlValue::Text(self.name.clone()),
            ],
        )?;
        Ok(())
    }

    /// The sequence and text length of `id` if `receipt` is its current pop receipt.
    fn current(
        &self,
        id: &MessageId,
        receipt: &PopReceipt,
    ) -> Result<Option<(SqlValue, u64)>, TableError> {
        let Some(mut row) = self
            .run(&self.sql.find, &[SqlValue::Text(id.to_string())])?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        if row.len() < 3 {
            return Err(unreadable("row"));
        }
        let current = row[1]
            .as_str()
            .and_then(PopReceipt::from_base64)
            .ok_or_else(|| unreadable("pop receipt"))?;
        if !receipt_is_current(&current, receipt) {
            return Ok(None);
        }
        let bytes = read_u64(&row[2], "byte count")?;
        Ok(Some((row.swap_remove(0), bytes)))
    }

    fn remove_by_id(&mut self, id: &MessageId) -> Result<(), TableError> {
        self.next.set(None);
        let gone = self.run(
            &format!(
                "DELETE FROM {} WHERE id = ? RETURNING bytes",
                quoted(&self.name)
            ),
            &[SqlValue::Text(id.to_string())],
        )?;
        for row in gone {
            self.messages = self.messages.saturating_sub(1);
            let bytes = row.first().map_or(Ok(0), |v| read_u64(v, "byte count"))?;
            self.bytes = self.bytes.saturating_sub(message_cost(bytes as usize));
        }
        Ok(())
    }
}

impl MessageTable for SqlTable {
    fn len(&self) -> usize {
        self.messages as usize
    }

    fn stored_bytes(&self) -> u64 {
        self.bytes
    }

    fn next_seq(&self) -> u64 {
        self.next_seq
    }

    fn insert(&mut self, m: MessageRecord) -> Result<(), TableError> {
        let params = [
            int(m.seq),
            SqlValue::Text(m.id.to_string()),
            SqlValue::Text(m.text.to_string()),
            int(m.text.len() as u64),
            time(m.insertion_time),
            time(m.expiration_time),
            time(m.time_next_visible),
            int(u64::from(m.dequeue_count)),
            SqlValue::Text(m.pop_receipt.to_base64()),
        ];
        let replaced = match self.exec.exec(&self.sql.insert, &params) {
            Ok(_) => false,
            // The same id stored again (a snapshot's): the later message replaces the earlier.
            Err(e) if e.kind == SqlErrorKind::Constraint => {
                self.remove_by_id(&m.id)?;
                self.run(&self.sql.insert, &params)?;
                true
            }
            Err(e) => return Err(failed(e)),
        };
        self.messages += 1;
        self.bytes += message_cost(m.text.len());
        self.next_seq = self.next_seq.max(m.seq + 1);
        if let Some(t) = self.no_expiry_before {
            self.no_expiry_before = Some(t.min(m.expiration_time));
        }
        if let Some(mut next) = self.next.get() {
            next.insert(&m);
            self.next.set(Some(next));
        }
        // The trigger counted the row; the one it replaced is taken off here.
        if replaced { self.keep_counts() } else { Ok(()) }
    }

    fn text_len(&self, id: &MessageId) -> Result<Option<usize>, TableError> {
        single(self.run(&self.sql.text_len, &[SqlValue::Text(id.to_string())])?)
            .map(|v| read_u64(&v, "byte count").map(|n| n as usize))
            .transpose()
    }

    fn remove_expired(
        &mut self,
        now: Timestamp,
        limit: usize,
    ) -> Result<Vec<MessageId>, TableError> {
        if self.nothing_expired_by(now) {
            return Ok(Vec::new());
        }
        let limit = SqlValue::Integer(i64::try_from(limit).unwrap_or(i64::MAX));
        let rows = self.run(&self.sql.expired, &[time(now), limit.clone()])?;
        if rows.is_empty() {
            let earliest = single(self.run(&self.sql.earliest_expiry, &[])?);
            self.no_expiry_before = Some(match earliest {
                Some(v) => Timestamp::from_millis(read_u64(&v, "expiration time")?),
                None => NEVER,
            });
            return Ok(Vec::new());
        }
        let mut gone = Vec::with_capacity(rows.len());
        let mut freed = 0;
        for row in &rows {
            let id = row
                .get(1)
                .and_then(SqlValue::as_str)
                .and_then(MessageId::parse)
                .ok_or_else(|| unreadable("id"))?;
            let bytes = row.get(2).map_or(Ok(0), |v| read_u64(v, "byte count"))?;
            freed += message_cost(bytes as usize);
            gone.push(id);
        }
        self.next.set(None);
        self.run(&self.sql.delete_expired, &[time(now), limit])?;
        self.messages = self.messages.saturating_sub(gone.len() as u64);
        self.bytes = self.bytes.saturating_sub(freed);
        self.no_expiry_before = None;
        self.keep_counts()?;
        Ok(gone)
    }

    fn nothing_expired_by(&self, now: Timestamp) -> bool {
        self.messages == 0 || self.no_expiry_before.is_some_and(|t| now < t)
    }

    fn take_visible(
        &mut self,
        now: Timestamp,
        count: usize,
        hidden_until: Timestamp,
        receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Vec<MessageRecord>, TableError> {
        let rows = self.run(&self.sql.visible, &[time(now), int(count as u64)])?;
        if !rows.is_empty() {
            self.next.set(None);
        }
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let mut m = decode(row)?;
            m.time_next_visible = hidden_until;
            m.dequeue_count = m.dequeue_count.saturating_add(1);
            m.pop_receipt = receipt();
            self.run(
                &self.sql.hide,
                &[
                    time(hidden_until),
                    int(u64::from(m.dequeue_count)),
                    SqlValue::Text(m.pop_receipt.to_base64()),
                    int(m.seq),
                ],
            )?;
            out.push(m);
        }
        Ok(out)
    }

    fn peek(&mut self, now: Timestamp, count: usize) -> Result<Vec<MessageRecord>, TableError> {
        self.run(&self.sql.visible, &[time(now), int(count as u64)])?
            .into_iter()
            .map(decode)
            .collect()
    }

    fn remove_current(&mut self, id: &MessageId, receipt: &PopReceipt) -> Result<bool, TableError> {
        let Some((seq, bytes)) = self.current(id, receipt)? else {
            return Ok(false);
        };
        self.run(&self.sql.delete, &[seq])?;
        self.next.set(None);
        self.messages = self.messages.saturating_sub(1);
        self.bytes = self.bytes.saturating_sub(message_cost(bytes as usize));
        self.keep_counts()?;
        Ok(true)
    }

    fn update_current(
        &mut self,
        id: &MessageId,
        receipt: &PopReceipt,
        text: Option<Arc<str>>,
        visible_at: Timestamp,
        new_receipt: &mut dyn FnMut() -> PopReceipt,
    ) -> Result<Option<MessageRecord>, TableError> {
        let Some((seq, old_bytes)) = self.current(id, receipt)? else {
            return Ok(None);
        };
        self.next.set(None);
        let (text_value, bytes_value) = match &text {
            Some(t) => (SqlValue::Text(t.to_string()), int(t.len() as u64)),
            None => (SqlValue::Null, SqlValue::Null),
        };
        let rows = self.run(
            &self.sql.update,
            &[
                text_value,
                bytes_value,
                time(visible_at),
                SqlValue::Text(new_receipt().to_base64()),
                seq,
            ],
        )?;
        let m = decode(rows.into_iter().next().ok_or_else(|| unreadable("row"))?)?;
        if let Some(t) = &text {
            self.bytes = self.bytes - message_cost(old_bytes as usize) + message_cost(t.len());
            self.keep_counts()?;
        }
        Ok(Some(m))
    }

    fn clear(&mut self) -> Result<usize, TableError> {
        let n = self.messages as usize;
        self.next.set(None);
        self.run(&self.sql.clear, &[])?;
        self.messages = 0;
        self.bytes = 0;
        self.no_expiry_before = Some(NEVER);
        self.keep_counts()?;
        Ok(n)
    }

    fn in_order(&self) -> Result<Vec<MessageRecord>, TableError> {
        self.run(&self.sql.in_order, &[])?
            .into_iter()
            .map(decode)
            .collect()
    }

    fn next_times(
        &self,
        now: Timestamp,
    ) -> Result<(Option<Timestamp>, Option<Timestamp>), TableError> {
        if let Some(next) = self.next.get().filter(|n| n.answers(now)) {
            return Ok((next.reappear, next.expire));
        }
        let row = self
            .run(&self.sql.next_times, &[time(now), time(NEVER)])?
            .into_iter()
            .next()
            .ok_or_else(|| unreadable("row"))?;
        let read = |v: Option<&SqlValue>, what| {
            v.filter(|v| **v != SqlValue::Null)
                .map(|v| read_u64(v, what).map(Timestamp::from_millis))
                .transpose()
        };
        let next = NextTimes {
            at: now,
            reappear: read(row.first(), "visibility time")?,
            expire: read(row.get(1), "expiration time")?,
        };
        self.next.set(Some(next));
        Ok((next.reappear, next.expire))
    }

    fn destroy(self) -> Result<(), TableError> {
        drop_named(&*self.exec, &self.name)
    }

    fn release(self) -> Result<(), TableError> {
        if self.host_drops {
            Ok(())
        } else {
            self.destroy()
        }
    }
}
