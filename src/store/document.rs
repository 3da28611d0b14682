//! The snapshot document: the whole state as one versioned JSON text, what `exportSnapshot()`
//! and `GET /_azqueue/snapshot` give and `importSnapshot()` and `PUT /_azqueue/snapshot` take.
//!
//! `{ "format": "azqueue-snapshot", "version": 1, "exportedAt": <ms>, "accounts": [...] }`,
//! where `accounts` is the engine's own [`Snapshot`] (queues with metadata and ACLs, every
//! message with its id, insertion sequence, times, dequeue count and pop receipt, service
//! properties). A document is checked before anything is replaced: the engine must be able to
//! rebuild it exactly.

use crate::engine::{AccountSnapshot, Snapshot, Timestamp};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The `format` field of every snapshot document.
pub const FORMAT: &str = "azqueue-snapshot";
/// The document version this build writes and the newest it reads.
pub const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Document {
    format: String,
    version: u32,
    #[serde(default)]
    exported_at: u64,
    accounts: Vec<AccountSnapshot>,
}

/// The document for `snapshot`, taken at `now`.
pub fn to_document(snapshot: Snapshot, now: Timestamp) -> Result<String, String> {
    serde_json::to_string(&Document {
        format: FORMAT.into(),
        version: VERSION,
        exported_at: now.as_millis(),
        accounts: snapshot.accounts,
    })
    .map_err(|e| format!("the snapshot could not be encoded: {e}"))
}

/// Parses and checks a document. Refuses anything the engine could not rebuild exactly:
/// another format, a newer version, or duplicate accounts, queues, message ids or sequence
/// numbers (two messages with one sequence number would corrupt the delivery index).
pub fn from_document(text: &str) -> Result<Snapshot, String> {
    let doc: Document =
        serde_json::from_str(text).map_err(|e| format!("not an azqueue snapshot: {e}"))?;
    if doc.format != FORMAT {
        return Err(format!("format is {:?}, expected {FORMAT:?}", doc.format));
    }
    if doc.version > VERSION {
        return Err(format!(
            "snapshot version {} is newer than {VERSION}, which this build reads",
            doc.version
        ));
    }
    let mut accounts = HashSet::new();
    for a in &doc.accounts {
        if !accounts.insert(a.name.as_str()) {
            return Err(format!("account `{}` appears twice", a.name));
        }
        let mut queues = HashSet::new();
        for q in &a.queues {
            let name = q.queue.name.as_str();
            if !queues.insert(name) {
                return Err(format!("queue `{}/{name}` appears twice", a.name));
            }
            let mut ids = HashSet::new();
            let mut seqs = HashSet::new();
            for m in &q.messages {
                if !ids.insert(m.id) || !seqs.insert(m.seq) {
                    return Err(format!(
                        "queue `{}/{name}` has two messages with id {} or sequence {}",
                        a.name, m.id, m.seq
                    ));
                }
            }
        }
    }
    Ok(Snapshot {
        accounts: doc.accounts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{
        Emulator, MessageText, Metadata, QueueName, SeededEntropy, TimeToLive, VisibilityTimeout,
    };

    fn state() -> Snapshot {
        let t = Timestamp::from_secs(1_700_000_000);
        let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
        let q = QueueName::parse("docs").unwrap();
        emu.create_queue(t, "acct", &q, Metadata::from_pairs([("k", "v")]).unwrap())
            .unwrap();
        for text in ["a", "b <&>"] {
            let text = MessageText::new(text).unwrap();
            let vis = VisibilityTimeout::new(5).unwrap();
            emu.put_message(t, "acct", &q, text, vis, TimeToLive::Never)
                .unwrap();
        }
        emu.snapshot().unwrap()
    }

    #[test]
    fn a_document_reads_back_as_the_state_it_was_made_from() {
        let text = to_document(state(), Timestamp::from_secs(5)).unwrap();
        assert!(text.starts_with(r#"{"format":"azqueue-snapshot","version":1,"exportedAt":5000,"#));
        assert_eq!(from_document(&text).unwrap(), state());
    }

    #[test]
    fn documents_the_engine_could_not_rebuild_are_refused() {
        let text = to_document(state(), Timestamp::from_secs(5)).unwrap();
        let refused = |text: &str, why: &str| {
            let err = from_document(text).unwrap_err();
            assert!(err.contains(why), "{err}");
        };
        refused(&text.replace("azqueue-snapshot", "other"), "format is");
        refused(&text.replace(r#""version":1"#, r#""version":2"#), "newer");
        refused("{}", "not an azqueue snapshot");
        let mut twice = state();
        let queue = twice.accounts[0].queues[0].clone();
        twice.accounts[0].queues.push(queue);
        let text = to_document(twice, Timestamp::from_secs(5)).unwrap();
        refused(&text, "appears twice");
        let mut same_seq = state();
        let messages = &mut same_seq.accounts[0].queues[0].messages;
        messages[1].seq = messages[0].seq;
        let text = to_document(same_seq, Timestamp::from_secs(5)).unwrap();
        refused(&text, "two messages");
    }
}
