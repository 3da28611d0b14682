//! The memory store: the default in JavaScript and the reference backend for the contract.
//! Durable only as long as the process lives.

use super::records::Records;
use super::{Store, StoreError};
use crate::engine::{Change, Snapshot};
use std::cell::RefCell;

/// Keeps every record in memory; commits are immediate.
#[derive(Debug, Default)]
pub struct MemoryStore {
    records: RefCell<Records>,
}

impl MemoryStore {
    pub fn new() -> Self {
        MemoryStore::default()
    }
}

impl Store for MemoryStore {
    async fn load(&self) -> Result<Snapshot, StoreError> {
        Ok(self.records.borrow().to_snapshot())
    }

    async fn commit(&self, batch: Vec<Change>) -> Result<(), StoreError> {
        let mut records = self.records.borrow_mut();
        for change in batch {
            records.apply(change);
        }
        Ok(())
    }
}
