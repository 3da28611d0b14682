//! An IndexedDB database in memory, for `cargo test`: its object stores as ordered maps, and
//! the same decisions `src/wasm/idb.rs` takes (the [`Wal`] plans each write, [`blocks::merge`]
//! rewrites each touched block), executed the way `idb.rs` issues its requests. So the contract
//! suite and crash tests run natively over the log bookkeeping and the blocks; the real
//! database is covered by `tests/wasm_idb.rs` in Chromium.

use super::blocks::{self, Block};
use super::layout::{Decoder, Key, Loaded, MESSAGES, PROPERTIES, QUEUES, RecordOp};
use super::wal::{Wal, WalWrite};
use super::{Store, StoreError};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// What the database holds: every object store but the log keyed by [`Key::path`] (or the
/// block), the log by number.
#[derive(Clone, Debug, Default)]
pub(crate) struct Database {
    records: BTreeMap<String, String>,
    pub(crate) blocks: BTreeMap<Block, String>,
    pub(crate) log: BTreeMap<u64, String>,
}

/// A store on a [`Database`], as an `IdbStore` on a real one: its [`Wal`] is read when it
/// opens and follows each write.
#[derive(Debug)]
pub(crate) struct SimulatedIdb {
    db: RefCell<Database>,
    wal: RefCell<Wal>,
    /// Fold every write (as closing does), rather than only once the log is long.
    fold_always: bool,
}

impl SimulatedIdb {
    /// Opens `db`, reading its log (a crash loses the in-memory state; this is what is left).
    pub(crate) fn open(db: Database, fold_always: bool) -> SimulatedIdb {
        let joined: Vec<&str> = db.log.values().map(String::as_str).collect();
        let first = db.log.keys().next().copied();
        let last = db.log.keys().next_back().copied();
        let wal = Wal::read(first, last, &joined.join("\n")).expect("the log reads back");
        SimulatedIdb {
            db: RefCell::new(db),
            wal: RefCell::new(wal),
            fold_always,
        }
    }

    pub(crate) fn database(&self) -> Database {
        self.db.borrow().clone()
    }

    /// A write as `IdbStore::write_batch` makes it, folding when `fold`.
    pub(crate) fn write_batch(&self, ops: Vec<RecordOp>, fold: bool) -> Result<(), StoreError> {
        let (write, written) = self.wal.borrow().plan(ops, fold)?;
        let mut db = self.db.borrow_mut();
        match write {
            WalWrite::Log { key, value } => {
                db.log.insert(key, value);
            }
            WalWrite::Fold { plan, drop } => {
                for op in plan.records {
                    match op {
                        RecordOp::Put { key, value } => {
                            db.records.insert(key.path(), value);
                        }
                        RecordOp::Delete { key } => {
                            db.records.remove(&key.path());
                        }
                        RecordOp::DeleteMessagesOf { account, queue } => db
                            .blocks
                            .retain(|b, _| b.account != account || b.queue != queue.as_str()),
                        RecordOp::Clear => {
                            db.records.clear();
                            db.blocks.clear();
                        }
                    }
                }
                for (block, p) in plan.blocks {
                    let old = if p.empty {
                        None
                    } else {
                        db.blocks.get(&block).cloned()
                    };
                    match blocks::merge(old.as_deref(), p.changes)? {
                        Some(value) => db.blocks.insert(block, value),
                        None => db.blocks.remove(&block),
                    };
                }
                if let Some((first, last)) = drop {
                    db.log.retain(|k, _| !(first..=last).contains(k));
                }
            }
        }
        self.wal.borrow_mut().written(written);
        Ok(())
    }
}

impl Store for SimulatedIdb {
    /// As `IdbStore::load_all`: the records, the blocks, then the log replayed over them.
    async fn load(&self) -> Result<Loaded, StoreError> {
        let mut decoder = Decoder::default();
        let db = self.db.borrow();
        for (path, value) in &db.records {
            match Key::from_path(path)? {
                Key::Queue { .. } => decoder.add(QUEUES, value)?,
                Key::Properties { .. } => decoder.add(PROPERTIES, value)?,
                Key::Meta { name } => decoder.add_meta(name, value)?,
                Key::Message { .. } => return Err(StoreError::Failed("a message record".into())),
            }
        }
        for value in db.blocks.values() {
            decoder.add_lines(MESSAGES, value)?;
        }
        self.wal.borrow_mut().place(decoder.stored_messages());
        for op in self.wal.borrow().unapplied() {
            decoder.apply(op.clone())?;
        }
        Ok(decoder.finish())
    }

    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        if ops.is_empty() {
            return Ok(());
        }
        self.write_batch(ops, self.fold_always)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulated_indexeddb_meets_the_contract_logging_and_folding() {
        for fold_always in [false, true] {
            let run = crate::store::contract::run(|| {
                SimulatedIdb::open(Database::default(), fold_always)
            });
            pollster::block_on(run).unwrap();
        }
    }

    /// The operation sequence of `the_log_folds_and_replays_to_the_engine_state`
    /// (tests/wasm_idb.rs) natively, so Miri can run the fold and replay logic it reaches
    /// (issue 23): 250 rounds of 20 puts, a receive of 5 and 3 deletes, each one commit (three
    /// folds), then a reopen that replays the log over the blocks.
    #[test]
    fn the_wasm_idb_log_sequence_folds_and_replays_to_the_engine_state() {
        use crate::engine::{
            Emulator, MessageCount, MessageText, Metadata, QueueName, SeededEntropy, TimeToLive,
            Timestamp, VisibilityTimeout,
        };
        use crate::store::layout::ops_of_changes;
        let account = "devstoreaccount1";
        let t = Timestamp::from_secs(1_700_000_000);
        let queue = QueueName::parse("wal").unwrap();
        let mut emu = Emulator::new(Box::new(SeededEntropy::new(5)));
        let store = SimulatedIdb::open(Database::default(), false);
        let commit = |store: &SimulatedIdb, emu: &mut Emulator| {
            pollster::block_on(store.write(ops_of_changes(emu.take_changes()).unwrap())).unwrap()
        };
        emu.create_queue(t, account, &queue, Metadata::default())
            .unwrap();
        commit(&store, &mut emu);
        let mut commits = 1;
        for round in 0..250 {
            for i in 0..20 {
                let text = MessageText::new(format!("m {round} {i}")).unwrap();
                let vis = VisibilityTimeout::new(0).unwrap();
                emu.put_message(t, account, &queue, text, vis, TimeToLive::Never)
                    .unwrap();
            }
            let five = MessageCount::new(5).unwrap();
            let vis = VisibilityTimeout::new(30).unwrap();
            let got = emu.get_messages(t, account, &queue, five, vis).unwrap();
            for m in got.iter().take(3) {
                emu.delete_message(t, account, &queue, &m.id, &m.pop_receipt)
                    .unwrap();
            }
            commit(&store, &mut emu);
            commits += 1;
        }
        let db = store.database();
        let (log, blocks) = (db.log.len(), db.blocks.len());
        assert!(
            blocks > 0 && log > 0 && log < commits,
            "expected a fold and a log after it: {log} log records, {blocks} message blocks"
        );
        // Reopened from what is stored, without a fold on close (as a crash leaves it).
        let again = SimulatedIdb::open(db, false);
        let sorted = |mut s: crate::engine::Snapshot| {
            for a in &mut s.accounts {
                a.properties = None;
                for q in &mut a.queues {
                    q.messages.sort_by_key(|m| m.seq);
                }
            }
            s
        };
        let loaded = pollster::block_on(again.load()).unwrap().snapshot;
        assert_eq!(sorted(loaded), sorted(emu.snapshot().unwrap()));
    }
}
