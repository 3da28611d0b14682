//! The IndexedDB store: I/O only. One database per service name; object stores `queues`,
//! `properties` and `meta` with one record per queue, per account and per meta value
//! (`src/store/layout.rs`), `segments` with a queue's messages in blocks of consecutive
//! insertion sequence numbers (`src/store/blocks.rs`; the object store keeps the name it was
//! created with in version 3, see [`BLOCKS`](schema::BLOCKS)), and `log`, the write-ahead log
//! (`src/store/wal.rs`, which decides what each commit writes).
//!
//! - **Schema** (`idb/schema.rs`). The database version is [`DB_VERSION`](schema::DB_VERSION);
//!   `upgrade` creates what each version adds, so a database written by an older build is
//!   upgraded in place. A database from a newer build is refused (`UnsupportedVersion`) rather
//!   than misread. Versions 1 and 2 kept one record per message in `messages`: the first load
//!   after the upgrade rewrites them as blocks (`IdbStore::load`), in one transaction, and
//!   `messages` stays empty after.
//! - **Writes** are one readwrite transaction per batch. A batch is durable when the
//!   transaction's `complete` event fires; a request error, a transaction error or an abort
//!   (quota included) rejects, as automerge-repo's `rejectOnFailure` does. The transaction asks
//!   for `durability: "strict"` (flushed to disk) unless the service was opened relaxed. A
//!   batch is one log record, or a fold of the log into the records and blocks.
//! - **One writer per database**: `open` takes the database's Web Lock (`web_lock.rs`) first.
//! - If the browser closes the database (site data cleared) or another connection upgrades or
//!   deletes it, the store is lost: every later operation fails instead of writing nowhere.
//!
//! IndexedDB's requests and transactions as futures, and their errors, are `idb/request.rs`;
//! the records' keys, chunked loads, the log's records and record writes, `idb/records.rs`.

mod records;
mod request;
mod schema;

pub use schema::delete_database;

use self::records::{
    BLOCK_CHUNK, LOAD_CHUNK, block_idb_key, block_key, drop_log, joined, load_chunked, message_key,
    put_log, read_log, write_records,
};
use self::request::{dom_error, request_result, thrown, transaction_done};
use self::schema::{BLOCKS, factory, open_database, readwrite};
use super::open_error::OpenError;
use super::web_lock::{LockError, acquire_lock};
use crate::store::blocks;
use crate::store::layout::{self, Decoder, Loaded, MESSAGES, META, Pending, RecordOp, STORES};
use crate::store::wal::{Wal, WalWrite};
use crate::store::{Store, StoreError};
use js_sys::{Array, Function, Promise, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbTransaction};

/// A database event listener, kept alive by the store.
type EventHandler = Closure<dyn FnMut(JsValue)>;

/// An IndexedDB-backed store. Opens its database (and takes the writer lock) on first use, or
/// explicitly with [`IdbStore::open`].
#[derive(Debug)]
pub struct IdbStore {
    name: String,
    durability: &'static str,
    wait_for_lock: bool,
    db: RefCell<Option<IdbDatabase>>,
    /// Resolving it releases the Web Lock; the Promise settles once the lock is released.
    release_lock: RefCell<Option<(Function, Promise)>>,
    /// Why the database is gone, once it is.
    lost: Rc<RefCell<Option<String>>>,
    /// Keeps the database's event handlers alive as long as the store.
    handlers: RefCell<Vec<EventHandler>>,
    /// The log's bookkeeping and where stored messages are; follows what is durable.
    wal: RefCell<Wal>,
}

impl IdbStore {
    /// A store on the database `name` with strict durability, failing fast if another tab
    /// holds it.
    pub fn new(name: &str) -> Self {
        IdbStore::with_options(name, true, false)
    }

    pub(crate) fn with_options(name: &str, strict: bool, wait_for_lock: bool) -> Self {
        IdbStore {
            name: name.to_owned(),
            durability: if strict { "strict" } else { "relaxed" },
            wait_for_lock,
            db: RefCell::new(None),
            release_lock: RefCell::new(None),
            lost: Rc::new(RefCell::new(None)),
            handlers: RefCell::new(Vec::new()),
            wal: RefCell::new(Wal::default()),
        }
    }

    /// Takes the writer lock and opens (creating or upgrading) the database. Idempotent.
    pub(crate) async fn open(&self) -> Result<(), OpenError> {
        if self.db.borrow().is_some() {
            return Ok(());
        }
        let factory = factory().ok_or_else(|| {
            OpenError::Unavailable(
                "IndexedDB is not available in this JavaScript environment (no global \
                 `indexedDB`); use store: \"memory\" or a storage adapter"
                    .into(),
            )
        })?;
        if self.release_lock.borrow().is_none() {
            let release = acquire_lock(&format!("azqueue:{}", self.name), self.wait_for_lock)
                .await
                .map_err(|e| match e {
                    LockError::Held => OpenError::Locked(format!(
                        "the IndexedDB database `{}` is open in another tab or worker; azqueue \
                         allows one writer per database. Close it there, open with \
                         waitForLock: true to wait for it, or use another name",
                        self.name
                    )),
                    LockError::Failed(why) => OpenError::Unavailable(format!(
                        "the Web Lock for the database `{}` could not be requested: {why}",
                        self.name
                    )),
                })?;
            *self.release_lock.borrow_mut() = release;
        }
        // The log is read before anything can be written, so the next log record never
        // overwrites one, and a fold covers every logged operation.
        let opened = match open_database(&factory, &self.name).await {
            Ok(db) => read_log(&db).await.map(|wal| (db, wal)),
            Err(e) => Err(e),
        };
        let db = match opened {
            Ok((db, wal)) => {
                *self.wal.borrow_mut() = wal;
                db
            }
            Err(e) => {
                self.release();
                return Err(OpenError::Store(e));
            }
        };
        self.watch(&db);
        *self.db.borrow_mut() = Some(db);
        Ok(())
    }

    /// [`IdbStore::close`], then waits until the lock is really released, so a new `open()`
    /// right after (a page switching scenarios) finds it free.
    pub async fn close_and_wait(&self) {
        // Fold what is logged, so the next open reads records only. If this fails, the log
        // stays and the next open replays it.
        if !self.wal.borrow().is_folded() && self.lost.borrow().is_none() {
            let _ = self.write_batch(Vec::new(), true).await;
        }
        let released = self.release_lock.borrow().as_ref().map(|(_, p)| p.clone());
        self.close();
        if let Some(released) = released {
            let _ = JsFuture::from(released).await;
        }
    }

    /// Closes the database and releases the writer lock; later operations fail.
    pub(crate) fn close(&self) {
        if let Some(db) = self.db.borrow_mut().take() {
            db.set_onversionchange(None);
            db.set_onclose(None);
            db.close();
        }
        self.lost
            .borrow_mut()
            .get_or_insert_with(|| "the store was closed".into());
        self.release();
    }

    fn release(&self) {
        if let Some((release, _)) = self.release_lock.borrow_mut().take() {
            let _ = release.call0(&JsValue::UNDEFINED);
        }
    }

    /// Marks the store lost when the browser closes the database or another connection needs
    /// it gone (a newer build upgrading it, or `deleteDatabase`); closing lets that proceed.
    fn watch(&self, db: &IdbDatabase) {
        let lost = self.lost.clone();
        let on_close = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            lost.borrow_mut().get_or_insert_with(|| {
                "the browser closed the IndexedDB database (was site data cleared?)".into()
            });
        });
        let lost = self.lost.clone();
        let this_db = db.clone();
        let on_version_change = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            this_db.close();
            lost.borrow_mut().get_or_insert_with(|| {
                "another connection upgraded or deleted the IndexedDB database".into()
            });
        });
        db.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        db.set_onversionchange(Some(on_version_change.as_ref().unchecked_ref()));
        self.handlers
            .borrow_mut()
            .extend([on_close, on_version_change]);
    }

    async fn db(&self) -> Result<IdbDatabase, StoreError> {
        if let Some(why) = self.lost.borrow().as_ref() {
            return Err(StoreError::Failed(why.clone()));
        }
        self.open().await.map_err(OpenError::into_store_error)?;
        self.db
            .borrow()
            .clone()
            .ok_or_else(|| StoreError::Failed("the database is not open".into()))
    }

    /// Reads every record in one readonly transaction: one `getAll` per small store, and the
    /// message blocks (and any per-message records an older version left) in chunks (see
    /// [`load_chunked`]); then replays the log over them. Per-message records are then
    /// rewritten as blocks ([`IdbStore::rewrite`]).
    async fn load_all(&self) -> Result<Loaded, StoreError> {
        let db = self.db().await?;
        let names = Array::new();
        for s in STORES.into_iter().chain([BLOCKS]) {
            names.push(&s.into());
        }
        let tx = db
            .transaction_with_str_sequence(&names)
            .map_err(|e| thrown("starting a read", e))?;
        let store = |name: &str| tx.object_store(name).map_err(|e| thrown("reading", e));
        let small = [
            (layout::QUEUES, store(layout::QUEUES)?.get_all()),
            (layout::PROPERTIES, store(layout::PROPERTIES)?.get_all()),
        ];
        let meta = store(META)?;
        let meta_requests = [
            ("schema", meta.get(&"schema".into())),
            ("clock", meta.get(&"clock".into())),
        ];
        // Awaited in the order they were issued: a request's handler is set when it is
        // awaited, and each success event comes after the previous one's continuation ran.
        let mut decoder = Decoder::default();
        for (name, request) in small {
            let request = request.map_err(|e| thrown("reading", e))?;
            let values: Array = request_result(&request)
                .await?
                .dyn_into()
                .map_err(|_| StoreError::Failed(format!("getAll on `{name}` gave no array")))?;
            decoder.add_lines(name, &joined(&values))?;
        }
        for (name, request) in meta_requests {
            let request = request.map_err(|e| thrown("reading", e))?;
            if let Some(text) = request_result(&request).await?.as_string() {
                decoder.add_meta(name, &text)?;
            }
        }
        let legacy = load_chunked(&store(MESSAGES)?, LOAD_CHUNK, message_key, &mut decoder).await?;
        load_chunked(&store(BLOCKS)?, BLOCK_CHUNK, block_key, &mut decoder).await?;
        self.wal.borrow_mut().place(decoder.stored_messages());
        let unapplied = self.wal.borrow().unapplied().to_vec();
        for op in unapplied {
            decoder.apply(op)?;
        }
        let mut loaded = decoder.finish();
        if legacy > 0 {
            self.rewrite(&mut loaded).await?;
        }
        Ok(loaded)
    }

    /// Rewrites what a version-1 or version-2 database holds (one record per message, in the
    /// `messages` store) as this version's records and blocks, in one transaction: a crash
    /// before it completes leaves the old records whole, and the next load tries again.
    async fn rewrite(&self, loaded: &mut Loaded) -> Result<(), StoreError> {
        let mut ops = layout::ops(vec![Pending::Replace(loaded.snapshot.clone())])?;
        ops.push(layout::schema_op()?);
        if let Some(clock) = loaded.clock {
            ops.push(layout::clock_op(clock)?);
        }
        self.write_batch(ops, true).await?;
        loaded.schema = Some(layout::SCHEMA_VERSION);
        Ok(())
    }

    /// Writes one batch as the write-ahead log plans it ([`Wal::plan`]: one log record, or a
    /// fold when `fold` or when the log is long enough), in one transaction. The [`Wal`] follows
    /// only once that transaction is complete, so it always describes the database. One write
    /// at a time (the group commit runs one commit at a time; `close_and_wait` runs after its
    /// flush).
    async fn write_batch(&self, ops: Vec<RecordOp>, fold: bool) -> Result<(), StoreError> {
        let db = self.db().await?;
        let (write, written) = self.wal.borrow().plan(ops, fold)?;
        let tx = readwrite(&db, self.durability).map_err(|e| thrown("starting a write", e))?;
        // Handlers go on before any request, so no failure can slip past them.
        let done = JsFuture::from(transaction_done(&tx));
        let issued = match write {
            WalWrite::Log { key, value } => put_log(&tx, key, &value),
            WalWrite::Fold { plan, drop } => write_fold(&tx, plan, drop).await,
        };
        if let Err(e) = issued {
            let _ = tx.abort();
            let _ = done.await;
            return Err(e);
        }
        // Ask for the commit now rather than when the event loop notices the transaction is
        // idle (IDBTransaction.commit(); absent in older engines, where waiting is the same).
        if let Ok(commit) = Reflect::get(&tx, &"commit".into()) {
            if let Some(commit) = commit.dyn_ref::<Function>() {
                let _ = commit.call0(&tx);
            }
        }
        match done.await {
            Ok(_) => {
                self.wal.borrow_mut().written(written);
                Ok(())
            }
            Err(_) => Err(match tx.error() {
                Some(e) => dom_error("the write failed", &e),
                None => StoreError::Failed("the write was aborted (no error was reported)".into()),
            }),
        }
    }
}

/// A fold's requests in `tx`: the records, then each touched block read (unless known empty),
/// merged and written back or deleted, then the folded log records deleted.
async fn write_fold(
    tx: &IdbTransaction,
    plan: blocks::FoldPlan,
    drop: Option<(u64, u64)>,
) -> Result<(), StoreError> {
    write_records(tx, plan.records)?;
    let blocks = tx.object_store(BLOCKS).map_err(|e| thrown("writing", e))?;
    // Every read goes out before the first is awaited; they are awaited in the order issued
    // (see `load_all`), and each write follows its read.
    let mut reads = Vec::with_capacity(plan.blocks.len());
    for (block, p) in plan.blocks {
        let key = block_idb_key(&block);
        let read = if p.empty {
            None
        } else {
            Some(blocks.get(&key).map_err(|e| thrown("reading a block", e))?)
        };
        reads.push((key, read, p.changes));
    }
    for (key, read, changes) in reads {
        let old = match read {
            Some(request) => request_result(&request).await?.as_string(),
            None => None,
        };
        let written = match blocks::merge(old.as_deref(), changes)? {
            Some(value) => blocks.put_with_key(&value.into(), &key),
            None => blocks.delete(&key),
        };
        written.map_err(|e| thrown("writing a block", e))?;
    }
    if let Some((first, last)) = drop {
        drop_log(tx, first, last)?;
    }
    Ok(())
}

impl Drop for IdbStore {
    fn drop(&mut self) {
        self.close();
    }
}

impl Store for IdbStore {
    async fn load(&self) -> Result<Loaded, StoreError> {
        self.load_all().await
    }

    /// Applies one batch in one readwrite transaction; resolves when it is complete.
    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        if ops.is_empty() {
            return Ok(());
        }
        self.write_batch(ops, false).await
    }
}
