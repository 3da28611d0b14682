//! A queue's messages as rows of one SQL table ([`schema`](super::schema)), so a request costs
//! the rows it touches and nothing per message stays in memory between requests.
//!
//! The message count, the charged bytes and the next sequence are kept in `azqueue_tables` and
//! read once when the table opens: never counted. An insert's trigger keeps them, so a Put
//! Message is one statement, atomic without a transaction around it (a Durable Object's
//! `transactionSync` costs a Put about a tenth of its CPU); every other write sets them itself.
//! They are also held here, so they go stale if the host rolls back a transaction: a host that
//! does must open the table again.

use super::rows::{decode, failed, int, quoted, read_u64, single, time, unreadable};
use super::schema::{Created, Statements, create, drop_named};
use super::{SharedSql, SqlErrorKind, SqlValue};
use crate::engine::capacity::message_cost;
use crate::engine::table::receipt_is_current;
use crate::engine::{
    MessageId, MessageRecord, MessageTable, NEVER, PopReceipt, TableError, Timestamp,
};
use std::cell::Cell;
use std::sync::Arc;

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
    pub(super) host_drops: bool,
}

impl SqlTable {
    /// Opens (creating if need be) the table `name` and reads its kept counts.
    ///
    /// # Errors
    /// What the executor reported.
    pub fn open(exec: SharedSql, name: &str) -> Result<Self, TableError> {
        let Created {
            sql,
            messages,
            bytes,
            next_seq,
        } = create(&*exec, name)?;
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
