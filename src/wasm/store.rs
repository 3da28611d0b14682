//! The store a `QueueService` opens: the backend named by `open()`'s options, behind the group
//! commit of `src/store/group.rs`, whose commit task runs on the JS event loop.

use super::adapter::AdapterStore;
use super::error::coded;
use super::idb::IdbStore;
use super::open_error::OpenError;
use crate::rest::ErrorCode;
use crate::store::group::{Durability, GroupCommit, Runtime, Task};
use crate::store::{Loaded, RecordOp, Store, StoreError};
use wasm_bindgen::JsValue;

/// The error an operation rejects with when the store has failed.
pub(crate) fn store_error_to_js(e: &StoreError) -> JsValue {
    coded(
        ErrorCode::InternalError,
        format!("the store could not save the change: {e}"),
    )
}

/// A durable backend chosen at `open()`. An enum rather than `dyn Store`: async trait methods
/// are not object-safe, and two variants do not justify boxing (docs/style.md, "Storage"). The
/// memory store is no backend at all (the group commit saves nothing).
#[derive(Debug)]
pub(crate) enum AnyStore {
    Idb(IdbStore),
    Adapter(AdapterStore),
}

impl Store for AnyStore {
    async fn load(&self) -> Result<Loaded, StoreError> {
        match self {
            AnyStore::Idb(s) => s.load().await,
            AnyStore::Adapter(s) => s.load().await,
        }
    }

    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        match self {
            AnyStore::Idb(s) => s.write(ops).await,
            AnyStore::Adapter(s) => s.write(ops).await,
        }
    }
}

/// The JS event loop as the group commit's runtime.
#[derive(Debug)]
pub(crate) struct EventLoop;

impl Runtime for EventLoop {
    fn spawn(&self, task: Task) {
        wasm_bindgen_futures::spawn_local(task);
    }

    fn wall_millis(&self) -> u64 {
        js_sys::Date::now().max(0.0) as u64
    }

    fn commit_failed(&self, error: &StoreError) {
        web_sys::console::error_1(
            &format!(
                "azqueue: a commit failed, so the store is now failed and every later \
                 operation answers InternalError: {error}"
            )
            .into(),
        );
    }
}

/// A backend plus its group commit; one per `QueueService`.
pub(crate) type ServiceStore = GroupCommit<AnyStore, EventLoop>;

/// Reads one property of the `open()` options bag.
fn option(options: &JsValue, key: &str) -> JsValue {
    if options.is_object() {
        js_sys::Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// The store named by `open()`'s options: `store` (`"memory"`, `"indexeddb"` or a storage
/// adapter object), `name`, `durability` and `waitForLock`. Opens (and locks) it, but does not
/// load it yet.
pub(crate) async fn open(options: &JsValue) -> Result<ServiceStore, OpenError> {
    let durability = match option(options, "durability").as_string().as_deref() {
        None | Some("strict") => Durability::Strict,
        Some("relaxed") => Durability::Relaxed,
        Some(other) => {
            return Err(OpenError::Invalid(format!(
                "durability must be \"strict\" or \"relaxed\", not {other:?}"
            )));
        }
    };
    let store = option(options, "store");
    let backend = if store.is_undefined() || store.is_null() {
        None
    } else if let Some(kind) = store.as_string() {
        match kind.as_str() {
            "memory" => None,
            "indexeddb" => {
                let name = match option(options, "name") {
                    v if v.is_undefined() || v.is_null() => "azqueue".to_owned(),
                    v => v.as_string().filter(|n| !n.is_empty()).ok_or_else(|| {
                        OpenError::Invalid("name must be a non-empty string".into())
                    })?,
                };
                let wait = option(options, "waitForLock").as_bool().unwrap_or(false);
                let idb = IdbStore::with_options(&name, durability == Durability::Strict, wait);
                idb.open().await?;
                Some(AnyStore::Idb(idb))
            }
            other => {
                return Err(OpenError::Invalid(format!(
                    "store must be \"memory\", \"indexeddb\" or a storage adapter \
                     {{ load, commit }}, not {other:?}"
                )));
            }
        }
    } else {
        Some(AnyStore::Adapter(
            AdapterStore::new(store).map_err(OpenError::Invalid)?,
        ))
    };
    Ok(GroupCommit::new(backend, durability, EventLoop))
}

/// Flushes, then closes the backend (releasing an IndexedDB database and its lock). Later
/// operations fail. Closing twice is fine.
pub(crate) async fn close(store: &ServiceStore) -> Result<(), StoreError> {
    let (closed_now, flushed) = store.close().await;
    if let (true, Some(AnyStore::Idb(idb))) = (closed_now, store.backend()) {
        idb.close_and_wait().await;
    }
    flushed
}

/// `"memory"`, `"indexeddb"` or `"adapter"`.
pub(crate) fn kind(store: &ServiceStore) -> &'static str {
    match store.backend() {
        None => "memory",
        Some(AnyStore::Idb(_)) => "indexeddb",
        Some(AnyStore::Adapter(_)) => "adapter",
    }
}
