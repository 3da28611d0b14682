//! The database itself: its version, its object stores and how each version adds to them,
//! opening (with the upgrade), the transaction every write runs in, and deleting it.

use super::request::{request_result, thrown};
use crate::store::StoreError;
use crate::store::layout::STORES;
use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{IdbDatabase, IdbFactory, IdbTransaction};

/// The IndexedDB database version this build creates and reads.
/// Version 2 added the write-ahead log store and changed the message value to schema 2
/// (`src/store/layout.rs`); version 3 moved messages into blocks (`segments`). An older build
/// refuses a newer database rather than misreading it.
pub(crate) const DB_VERSION: u32 = 3;

/// The object store of message blocks (database version 3, `src/store/blocks.rs`): key
/// `[account, queue, block number]`, value the block's message values, one per line. It was
/// created as `segments`, and IndexedDB names are part of the stored database: renaming it
/// would take a version 4 whose only change is the name, and would lock version-3 builds out
/// of databases they read today, so the code calls them blocks and the database keeps its name.
pub(super) const BLOCKS: &str = "segments";

/// The write-ahead log's object store (database version 2): key a number counting up from 1,
/// value one batch (`src/store/wal.rs`).
pub(super) const LOG: &str = "log";

/// `indexedDB` from whatever global this is (window, worker, service worker, Node with
/// fake-indexeddb).
pub(super) fn factory() -> Option<IdbFactory> {
    Reflect::get(&js_sys::global(), &"indexedDB".into())
        .ok()
        .filter(|v| v.is_object())
        .map(JsCast::unchecked_into)
}

/// Opens the database at [`DB_VERSION`], creating or upgrading its object stores.
pub(super) async fn open_database(
    factory: &IdbFactory,
    name: &str,
) -> Result<IdbDatabase, StoreError> {
    let request = factory
        .open_with_u32(name, DB_VERSION)
        .map_err(|e| thrown("opening the database", e))?;
    let upgrading = request.clone();
    let on_upgrade = Closure::<dyn FnMut(web_sys::IdbVersionChangeEvent)>::new(
        move |event: web_sys::IdbVersionChangeEvent| {
            if let Err(e) = upgrade(&upgrading, event.old_version() as u32) {
                web_sys::console::error_2(&"azqueue: IndexedDB upgrade failed".into(), &e);
                if let Some(tx) = upgrading.transaction() {
                    let _ = tx.abort();
                }
            }
        },
    );
    request.set_onupgradeneeded(Some(on_upgrade.as_ref().unchecked_ref()));
    let result = request_result(&request).await;
    request.set_onupgradeneeded(None);
    drop(on_upgrade);
    let too_new = matches!(request.error(), Ok(Some(e)) if e.name() == "VersionError");
    match result {
        Ok(db) => Ok(db.unchecked_into()),
        Err(_) if too_new => Err(StoreError::UnsupportedVersion {
            found: stored_version(factory, name).await.unwrap_or(0),
            supported: DB_VERSION,
        }),
        Err(e) => Err(e),
    }
}

/// Creates what each schema version adds. Runs inside the `versionchange` transaction, so a
/// failure aborts the whole upgrade and the database stays as it was.
fn upgrade(request: &web_sys::IdbOpenDbRequest, old: u32) -> Result<(), JsValue> {
    let db: IdbDatabase = request.result()?.unchecked_into();
    if old < 1 {
        for store in STORES {
            db.create_object_store(store)?;
        }
    }
    if old < 2 {
        db.create_object_store(LOG)?;
    }
    // Version 2 also changed the message value (`src/store/layout.rs`); `GroupCommit::load`
    // records schema 2 in `meta` on first open.
    if old < 3 {
        db.create_object_store(BLOCKS)?;
    }
    // Version 3 moves messages into blocks. The move needs every record read, which this
    // transaction's event handler cannot wait for, so the first load does it
    // (`IdbStore::rewrite`). Version 4 goes here: `if old < 4 { … }`.
    Ok(())
}

/// The version of an existing database (to report a too-new one).
async fn stored_version(factory: &IdbFactory, name: &str) -> Option<u32> {
    let request = factory.open(name).ok()?;
    let db: IdbDatabase = request_result(&request).await.ok()?.unchecked_into();
    let version = db.version() as u32;
    db.close();
    Some(version)
}

/// A readwrite transaction over every store, with a durability hint (an unstable web-sys API,
/// so called through Reflect; engines without it ignore the option).
pub(super) fn readwrite(db: &IdbDatabase, durability: &str) -> Result<IdbTransaction, JsValue> {
    let names = Array::new();
    for s in STORES.into_iter().chain([BLOCKS, LOG]) {
        names.push(&s.into());
    }
    let options = Object::new();
    Reflect::set(&options, &"durability".into(), &durability.into())?;
    let transaction: Function = Reflect::get(db, &"transaction".into())?.dyn_into()?;
    Ok(transaction
        .call3(db, &names, &"readwrite".into(), &options)?
        .unchecked_into())
}

/// Deletes a database (tests and `reset` tooling). Resolves when it is gone.
pub async fn delete_database(name: &str) -> Result<(), StoreError> {
    let factory = factory().ok_or_else(|| StoreError::Failed("no IndexedDB here".into()))?;
    let request = factory
        .delete_database(name)
        .map_err(|e| thrown("deleting the database", e))?;
    request_result(&request).await.map(|_| ())
}
