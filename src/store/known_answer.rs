//! A known-answer run of the engine and the IndexedDB store's encodings, for a host that cannot
//! trust its wasm engine: WebKit's JavaScriptCore has run this very sequence wrong in its
//! optimizing tier (docs/webkit.md), storing wrong records with no error. A page can run it at
//! start and refuse to keep data if it comes out wrong.
//!
//! The sequence is `tests/support/idb_wal_sequence.rs`'s, all in memory: rounds of 20 puts, a
//! receive of 5 and 3 deletes, each round's changes turned into record operations, written as a log
//! value ([`wal::encode`]), read back ([`wal::decode`]) and applied to a map of records, which is
//! then decoded as a load does and compared with the engine's state. Two answers are checked: the
//! records decode to exactly the engine's state, and a digest of every log value written equals the
//! one this code gives natively for the same seed and rounds ([`KNOWN_DIGEST`], checked by this
//! module's test).

use super::key_value;
use super::layout::{RecordOp, ops_of_changes};
use super::wal;
use crate::engine::{
    Emulator, MessageCount, MessageText, Metadata, QueueName, SeededEntropy, Snapshot, TimeToLive,
    Timestamp, VisibilityTimeout,
};
use std::collections::BTreeMap;

/// The seed and rounds of the run whose digest is known.
pub const KNOWN_SEED: u64 = 37;
/// The test's rounds: about 7,000 record operations.
pub const KNOWN_ROUNDS: u32 = 250;
/// FNV-1a (64 bits) over every log value of the run with [`KNOWN_SEED`] and [`KNOWN_ROUNDS`].
pub const KNOWN_DIGEST: u64 = 0x7094_c3aa_bd40_9fb5;

/// Runs the sequence for `rounds` with `seed`'s entropy; the digest of its log values if the
/// records decode to the engine's state, else where they part.
pub fn run(seed: u64, rounds: u32) -> Result<u64, String> {
    let account = "devstoreaccount1";
    let t = Timestamp::from_secs(1_700_000_000);
    let queue = step(QueueName::parse("known"), "the queue's name")?;
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(seed)));
    let mut records = BTreeMap::new();
    let mut digest = Fnv::default();
    let meta = Metadata::default();
    step(emu.create_queue(t, account, &queue, meta), "create")?;
    commit(&mut emu, &mut records, &mut digest)?;
    let visible = step(VisibilityTimeout::new(0), "a visibility timeout")?;
    let hidden = step(VisibilityTimeout::new(30), "a visibility timeout")?;
    let five = step(MessageCount::new(5), "a message count")?;
    for round in 0..rounds {
        for i in 0..20 {
            let text = step(MessageText::new(format!("m {round} {i}")), "a text")?;
            let ttl = TimeToLive::Never;
            step(
                emu.put_message(t, account, &queue, text, visible, ttl),
                "put",
            )?;
        }
        let got = step(
            emu.get_messages(t, account, &queue, five, hidden),
            "receive",
        )?;
        if got.len() != 5 {
            return Err(format!(
                "round {round}: received {} messages, not 5",
                got.len()
            ));
        }
        for m in got.iter().take(3) {
            step(
                emu.delete_message(t, account, &queue, &m.id, &m.pop_receipt),
                "delete",
            )?;
        }
        commit(&mut emu, &mut records, &mut digest)?;
    }
    let loaded = key_value::decode(&records)
        .map_err(|e| format!("the records did not decode: {e}"))?
        .finish()
        .snapshot;
    let want = emu.snapshot().map_err(|e| format!("snapshot: {e}"))?;
    if sorted(loaded) != sorted(want) {
        return Err("the records decode to another state than the engine's".into());
    }
    Ok(digest.0)
}

/// `r`'s value, or what failed.
fn step<T, E: std::fmt::Debug>(r: Result<T, E>, what: &str) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e:?}"))
}

/// The run with the known seed and rounds: `Ok` only if both answers are right.
pub fn check() -> Result<(), String> {
    let digest = run(KNOWN_SEED, KNOWN_ROUNDS)?;
    if digest == KNOWN_DIGEST {
        Ok(())
    } else {
        Err(format!(
            "the log values' digest is {digest:#018x}, not the known {KNOWN_DIGEST:#018x}"
        ))
    }
}

/// One commit: the engine's changes as record operations, through a log value and back (as a
/// commit writes it and a reopen reads it), then applied to the records.
fn commit(
    emu: &mut Emulator,
    records: &mut BTreeMap<String, String>,
    digest: &mut Fnv,
) -> Result<(), String> {
    let ops = ops_of_changes(emu.take_changes()).map_err(|e| e.to_string())?;
    let value = wal::encode(&ops);
    digest.write(value.as_bytes());
    let mut back: Vec<RecordOp> = Vec::new();
    wal::decode(&value, &mut back).map_err(|e| format!("the log value: {e}"))?;
    if back != ops {
        return Err("a log value decodes to other operations than were written".into());
    }
    key_value::apply(records, back);
    Ok(())
}

/// The state without what a load does not restore (service properties), messages in order.
fn sorted(mut s: Snapshot) -> Snapshot {
    for a in &mut s.accounts {
        a.properties = None;
        for q in &mut a.queues {
            q.messages.sort_by_key(|m| m.seq);
        }
    }
    s
}

/// FNV-1a, 64 bits: a digest with no table, so it cannot be wrong in a way the run is not.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_run_gives_the_known_digest() {
        assert_eq!(check(), Ok(()));
    }

    #[test]
    fn another_seed_gives_another_digest() {
        let other = run(KNOWN_SEED + 1, KNOWN_ROUNDS).unwrap();
        assert_ne!(other, KNOWN_DIGEST);
    }
}
