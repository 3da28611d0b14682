//! The store seam over an in-memory ordered map from key paths to values: exactly what a JS
//! storage adapter (`{ load(), commit(batch) }`, `src/wasm/adapter.rs`) holds, so the contract
//! suite runs natively on the same record operations an adapter receives (put, delete, a
//! queue's message prefix, clear). Durable only as long as the value lives; `cargo test` uses it.

use super::layout::{Decoder, Loaded, RecordOp, messages_prefix};
use super::{Store, StoreError};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Every record as a key-value adapter stores it: [`Key::path`](super::layout::Key::path) →
/// value. Writes apply at once.
#[derive(Debug, Default)]
pub struct KeyValueStore {
    records: RefCell<BTreeMap<String, String>>,
}

impl KeyValueStore {
    pub fn new() -> Self {
        KeyValueStore::default()
    }

    /// A copy of the records, key path → value.
    pub fn records(&self) -> BTreeMap<String, String> {
        self.records.borrow().clone()
    }
}

/// Applies `ops` to `records` in order, as an adapter's `commit` does.
pub fn apply(records: &mut BTreeMap<String, String>, ops: impl IntoIterator<Item = RecordOp>) {
    for op in ops {
        match op {
            RecordOp::Put { key, value } => {
                records.insert(key.path(), value);
            }
            RecordOp::Delete { key } => {
                records.remove(&key.path());
            }
            RecordOp::DeleteMessagesOf { account, queue } => {
                let prefix = messages_prefix(&account, &queue);
                records.retain(|k, _| !k.starts_with(&prefix));
            }
            RecordOp::Clear => records.clear(),
        }
    }
}

/// Decodes `records` as an adapter's `load` would hand them over.
pub fn decode(records: &BTreeMap<String, String>) -> Result<Decoder, StoreError> {
    let mut decoder = Decoder::default();
    for (key, value) in records {
        decoder.add_path(key, value)?;
    }
    Ok(decoder)
}

impl Store for KeyValueStore {
    async fn load(&self) -> Result<Loaded, StoreError> {
        Ok(decode(&self.records.borrow())?.finish())
    }

    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        apply(&mut self.records.borrow_mut(), ops);
        Ok(())
    }
}
