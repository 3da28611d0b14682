//! The IndexedDB store's write-ahead log: one record per commit, holding the commit's record
//! operations as text, so a commit of 32 messages is one IndexedDB write rather than 33. Pure:
//! [`Wal`] decides what each commit writes and follows what is durable; `src/wasm/idb.rs`
//! issues the requests.
//!
//! Chromium charges per request: one transaction of 32 message puts took 5–8 ms where one put
//! of the same 32 values joined took 1.7–1.9 ms (plain JavaScript, this project's machine), so
//! strict-durability commits were bound by the per-message writes. The log keeps what is
//! acknowledged durable at the cost of one write per commit. Once [`FOLD_AT`] operations are
//! logged (and on close) one transaction folds them, coalesced, into the records and message
//! blocks (`blocks.rs`) and deletes their log records: the two agree at every commit, so a
//! crash at any point loses nothing. Loading reads the records and blocks, then replays the log
//! over them in order. A change still costs what it touches: a log record
//! holds only its commit's operations, and a message put and deleted between two folds is never
//! written as a record at all.
//!
//! Format: one operation per line, and a put's value on the line after it (values are JSON,
//! which never holds a raw line feed; paths escape account names, see
//! `layout.rs`):
//!
//! | line                 | operation                           |
//! |----------------------|-------------------------------------|
//! | `P<path>` + `<value>`| put the record at [`Key::path`]      |
//! | `D<path>`            | delete it                           |
//! | `Q<queue path>`      | delete every message of that queue  |
//! | `C`                  | delete every record                 |

use super::StoreError;
use super::blocks::{self, FoldPlan, Placed, Placement};
use super::layout::{self, Key, RecordOp};
use crate::engine::MessageRecord;

/// Logged operations that trigger a fold into the records. A fold reads and rewrites each
/// block the operations touch (about 33 for 2,048 puts), so this bounds both the log a load
/// replays and the pause of the commit that folds.
pub const FOLD_AT: usize = 2048;

/// What the log holds that the records do not yet, and where stored messages are: always what
/// the database holds, since it changes only once a write is durable ([`Wal::written`]).
#[derive(Debug, Default)]
pub struct Wal {
    /// The logged operations, oldest first.
    unapplied: Vec<RecordOp>,
    /// The key of the oldest log record, if there is one.
    first: Option<u64>,
    /// The key the next log record gets.
    next: u64,
    /// Where each message's block is, for deletes (which name only the message).
    placement: Placement,
}

/// The requests of one commit, all in one transaction.
#[derive(Debug)]
pub enum WalWrite {
    /// Put `value` as the log record `key`.
    Log { key: u64, value: String },
    /// Write the plan's records, then its blocks (each read, merged, written back), then delete
    /// the log records `drop` (first and last key, inclusive), if any.
    Fold {
        plan: FoldPlan,
        drop: Option<(u64, u64)>,
    },
}

/// What a [`WalWrite`] did, for [`Wal::written`] once its transaction is complete.
#[derive(Debug)]
pub struct Written(Outcome);

#[derive(Debug)]
enum Outcome {
    /// These operations were logged as one record.
    Logged(Vec<RecordOp>),
    /// The log was folded; the blocks changed as these say.
    Folded(Vec<Placed>),
}

impl Wal {
    /// The log as read at open, before any write: the keys of its first and last records and
    /// their values joined by line feeds.
    pub fn read(first: Option<u64>, last: Option<u64>, joined: &str) -> Result<Wal, StoreError> {
        let mut wal = Wal {
            first,
            next: last.map_or(1, |n| n + 1),
            ..Wal::default()
        };
        decode(joined, &mut wal.unapplied)?;
        Ok(wal)
    }

    /// Whether everything logged has been folded.
    pub fn is_folded(&self) -> bool {
        self.unapplied.is_empty()
    }

    /// The operations logged since the last fold, oldest first: a load replays them over the
    /// records.
    pub fn unapplied(&self) -> &[RecordOp] {
        &self.unapplied
    }

    /// Learns where the stored messages are (at load, from the blocks as stored, before the log
    /// is replayed: a logged delete of a message in a block must still find that block).
    pub fn place<'a>(
        &mut self,
        stored: impl Iterator<Item = (&'a str, &'a str, &'a MessageRecord)>,
    ) {
        let mut placement = Placement::default();
        for (account, queue, m) in stored {
            placement.insert(account, queue, m.id, m.seq);
        }
        self.placement = placement;
    }

    /// What committing `ops` writes: one log record, or (when the log would reach [`FOLD_AT`],
    /// or `fold`) everything logged plus `ops` folded into the records and blocks.
    pub fn plan(&self, ops: Vec<RecordOp>, fold: bool) -> Result<(WalWrite, Written), StoreError> {
        if !(fold || self.unapplied.len() + ops.len() >= FOLD_AT) {
            let value = encode(&ops);
            let write = WalWrite::Log {
                key: self.next,
                value,
            };
            return Ok((write, Written(Outcome::Logged(ops))));
        }
        let mut all = self.unapplied.clone();
        all.extend(ops);
        let mut plan = blocks::plan(layout::coalesce(all), &self.placement)?;
        let placed = std::mem::take(&mut plan.placed);
        let drop = self
            .first
            .map(|first| (first, self.next.saturating_sub(1).max(first)));
        Ok((
            WalWrite::Fold { plan, drop },
            Written(Outcome::Folded(placed)),
        ))
    }

    /// Follows a write planned by [`Wal::plan`] once its transaction is complete (never before:
    /// a failed write changes nothing).
    pub fn written(&mut self, written: Written) {
        match written.0 {
            Outcome::Logged(ops) => {
                self.unapplied.extend(ops);
                let key = self.next;
                self.first.get_or_insert(key);
                self.next += 1;
            }
            Outcome::Folded(placed) => {
                self.unapplied.clear();
                self.first = None;
                self.placement.apply(placed);
            }
        }
    }
}

/// A batch as one log record value.
pub fn encode(ops: &[RecordOp]) -> String {
    let mut out = String::new();
    for op in ops {
        match op {
            RecordOp::Put { key, value } => {
                out.push('P');
                out.push_str(&key.path());
                out.push('\n');
                out.push_str(value);
            }
            RecordOp::Delete { key } => {
                out.push('D');
                out.push_str(&key.path());
            }
            RecordOp::DeleteMessagesOf { account, queue } => {
                out.push('Q');
                let key = Key::Queue {
                    account: account.clone(),
                    queue: queue.clone(),
                };
                out.push_str(&key.path());
            }
            RecordOp::Clear => out.push('C'),
        }
        out.push('\n');
    }
    out
}

/// Appends the operations of log record values joined by line feeds (or of one value) to
/// `out`, in order.
pub fn decode(text: &str, out: &mut Vec<RecordOp>) -> Result<(), StoreError> {
    let bad = |line: &str| StoreError::Failed(format!("a log record is unreadable at `{line}`"));
    let mut lines = text.split('\n');
    while let Some(line) = lines.next() {
        let mut chars = line.chars();
        let op = match chars.next() {
            None => continue,
            Some('P') => RecordOp::Put {
                key: Key::from_path(chars.as_str())?,
                value: lines.next().ok_or_else(|| bad(line))?.to_owned(),
            },
            Some('D') => RecordOp::Delete {
                key: Key::from_path(chars.as_str())?,
            },
            Some('Q') => match Key::from_path(chars.as_str())? {
                Key::Queue { account, queue } => RecordOp::DeleteMessagesOf { account, queue },
                _ => return Err(bad(line)),
            },
            Some('C') if chars.as_str().is_empty() => RecordOp::Clear,
            Some(_) => return Err(bad(line)),
        };
        out.push(op);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MessageId, QueueName};

    #[test]
    fn a_batch_reads_back_as_written() {
        let queue = QueueName::parse("q-1").unwrap();
        let account = "a/b\nc".to_owned();
        let ops = vec![
            RecordOp::Clear,
            RecordOp::Put {
                key: Key::Message {
                    account: account.clone(),
                    queue: queue.clone(),
                    id: MessageId::MIN,
                },
                value: r#"["x","q-1","text with \n and \t"]"#.into(),
            },
            RecordOp::Delete {
                key: Key::Queue {
                    account: account.clone(),
                    queue: queue.clone(),
                },
            },
            RecordOp::DeleteMessagesOf { account, queue },
            RecordOp::Put {
                key: Key::Meta { name: "clock" },
                value: "{}".into(),
            },
        ];
        let mut twice = Vec::new();
        let text = encode(&ops);
        decode(&format!("{text}\n{text}"), &mut twice).unwrap();
        assert_eq!(twice.len(), 2 * ops.len());
        assert_eq!(&twice[..ops.len()], &ops[..]);
        assert_eq!(&twice[ops.len()..], &ops[..]);
        assert!(decode("Xnonsense", &mut Vec::new()).is_err());
        assert!(decode("Pmeta/clock", &mut Vec::new()).is_err());
    }
}
