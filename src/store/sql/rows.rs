//! SQL values ⇄ messages: identifiers and literals written into statements, the columns a
//! message is read back with, and a statement's failure as a table's.

use super::{SqlError, SqlErrorKind, SqlValue};
use crate::engine::{MessageId, MessageRecord, PopReceipt, TableError, Timestamp};
use std::sync::Arc;

/// The columns a message is read back with, in [`decode`]'s order.
pub(super) const COLUMNS: &str = "seq, id, text, inserted, expires, visible, dequeues, receipt";

/// `name` as a SQL identifier.
pub(super) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// `text` as an SQL string literal (a trigger's body takes no parameters).
pub(super) fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

pub(super) fn failed(e: SqlError) -> TableError {
    match e.kind {
        SqlErrorKind::Full => TableError::Full(e.message),
        _ => TableError::Failed(e.message),
    }
}

pub(super) fn unreadable(what: &str) -> TableError {
    TableError::Failed(format!("a stored message has an unreadable {what}"))
}

pub(super) fn int(n: u64) -> SqlValue {
    SqlValue::Integer(n.min(i64::MAX as u64) as i64)
}

pub(super) fn time(t: Timestamp) -> SqlValue {
    int(t.as_millis())
}

pub(super) fn read_u64(v: &SqlValue, what: &str) -> Result<u64, TableError> {
    v.as_i64()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| unreadable(what))
}

/// One row of [`COLUMNS`] as a message.
pub(super) fn decode(mut row: Vec<SqlValue>) -> Result<MessageRecord, TableError> {
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
pub(super) fn single(rows: Vec<Vec<SqlValue>>) -> Option<SqlValue> {
    rows.into_iter()
        .next()?
        .into_iter()
        .next()
        .filter(|v| *v != SqlValue::Null)
}
