//! The IndexedDB store's write-ahead log: one record per commit, holding the commit's record
//! operations as text, so a commit of 32 messages is one IndexedDB write rather than 33.
//!
//! Chromium charges per request: one transaction of 32 message puts took 5–8 ms where one put
//! of the same 32 values joined took 1.7–1.9 ms (plain JavaScript, this project's machine), so
//! strict-durability commits were bound by the per-message writes. The log keeps what is
//! acknowledged durable at the cost of one write per commit; `idb.rs` folds the logged
//! operations into the records and message blocks (and drops those log records) in one
//! transaction once enough have piled up, and on close. A change still costs what it touches: a log record
//! holds only its commit's operations, and a message put and deleted between two folds is never
//! written as a record at all.
//!
//! Format: one operation per line, and a put's value on the line after it (values are JSON,
//! which never holds a raw line feed; paths escape account names, see
//! `src/store/layout.rs`):
//!
//! | line                 | operation                           |
//! |----------------------|-------------------------------------|
//! | `P<path>` + `<value>`| put the record at [`Key::path`]      |
//! | `D<path>`            | delete it                           |
//! | `Q<queue path>`      | delete every message of that queue  |
//! | `C`                  | delete every record                 |

use crate::store::StoreError;
use crate::store::layout::{Key, RecordOp};

/// A batch as one log record value.
pub(super) fn encode(ops: &[RecordOp]) -> String {
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
pub(super) fn decode(text: &str, out: &mut Vec<RecordOp>) -> Result<(), StoreError> {
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
    use wasm_bindgen_test::wasm_bindgen_test as test;

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
