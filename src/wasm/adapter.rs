//! Pluggable storage for hosts that are neither a browser nor a plain process: a JS object
//! with `load()` and `commit(batch)` (a Durable Object's storage, a KV namespace, the Node
//! journal in `hosts/node/journal.mjs`) becomes a durable backend.
//!
//! The adapter sees opaque string keys and JSON string values (`src/store/layout.rs`) and four
//! kinds of operation; it never interprets a record. `commit` must apply a batch atomically and resolve
//! only once it is durable: the service answers after that. A rejection fails the store.
//! `checkStorageAdapter(make)` runs the store contract suite against an adapter, so a host can
//! test its own.

use super::thrown::message_of;
use crate::store::layout::{self, Decoder, Loaded, RecordOp};
use crate::store::{Store, StoreError};
use js_sys::{Array, Function, Object, Promise, Reflect};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
/** One stored record: an opaque key and a JSON string value. */
export interface StoredRecord { key: string; value: string }

/** One write of a batch; a batch is applied atomically, in order. */
export type StorageOp =
  | { op: "put"; key: string; value: string }
  | { op: "delete"; key: string }
  | { op: "deletePrefix"; prefix: string }   // every key that starts with `prefix`
  | { op: "clear" };                         // every key

/**
 * Durable storage supplied by the host (`QueueService.open({ store: adapter })`).
 * `load` returns every record (objects or `[key, value]` pairs, any order); `commit` applies
 * one batch atomically and resolves only once it is durable. A rejection fails the store:
 * every later operation answers InternalError (500).
 */
export interface StorageAdapter {
  load(): Promise<Iterable<StoredRecord | [string, string]>> | Iterable<StoredRecord | [string, string]>;
  commit(batch: StorageOp[]): Promise<void> | void;
}
"#;

/// A store backed by a JS [`StorageAdapter`] object (or a Promise of one).
#[derive(Debug)]
pub struct AdapterStore {
    source: JsValue,
    resolved: RefCell<Option<JsValue>>,
}

impl AdapterStore {
    /// Checks that `value` looks like an adapter (or a Promise of one, checked when used).
    pub(crate) fn new(value: JsValue) -> Result<Self, String> {
        let has = |name: &str| {
            Reflect::get(&value, &name.into())
                .map(|f| f.is_function())
                .unwrap_or(false)
        };
        if !value.is_object() || !(has("then") || (has("load") && has("commit"))) {
            return Err(
                "store must be \"memory\", \"indexeddb\" or a storage adapter object with \
                 load() and commit(batch) methods"
                    .into(),
            );
        }
        Ok(AdapterStore {
            source: value,
            resolved: RefCell::new(None),
        })
    }

    /// An adapter from a factory's result, unchecked: problems surface on first use.
    pub fn from_js(value: JsValue) -> Self {
        AdapterStore {
            source: value,
            resolved: RefCell::new(None),
        }
    }

    async fn adapter(&self) -> Result<JsValue, StoreError> {
        if let Some(a) = self.resolved.borrow().as_ref() {
            return Ok(a.clone());
        }
        let a = JsFuture::from(Promise::resolve(&self.source))
            .await
            .map_err(|e| failure("the storage adapter", &e))?;
        *self.resolved.borrow_mut() = Some(a.clone());
        Ok(a)
    }

    /// Calls `adapter[name](arg)` and awaits what it returns.
    async fn call(&self, name: &str, arg: Option<&JsValue>) -> Result<JsValue, StoreError> {
        let adapter = self.adapter().await?;
        let method: Function = Reflect::get(&adapter, &name.into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| {
                StoreError::Failed(format!("the storage adapter has no {name}() method"))
            })?;
        let what = format!("the storage adapter's {name}()");
        let returned = match arg {
            Some(arg) => method.call1(&adapter, arg),
            None => method.call0(&adapter),
        }
        .map_err(|e| failure(&what, &e))?;
        JsFuture::from(Promise::resolve(&returned))
            .await
            .map_err(|e| failure(&what, &e))
    }

    async fn load_records(&self) -> Result<Loaded, StoreError> {
        let records = self.call("load", None).await?;
        let mut decoder = Decoder::default();
        if records.is_undefined() || records.is_null() {
            return Ok(decoder.finish());
        }
        // Fast path: an array of [key, value] pairs becomes one string (flattened, joined by
        // line feeds, which neither keys nor JSON values contain) instead of two per record.
        if let Some(list) = records.dyn_ref::<Array>() {
            if list.length() == 0 {
                return Ok(decoder.finish());
            }
            let first = list.get(0);
            if Array::is_array(&first) && Array::from(&first).length() == 2 {
                let flat = list.flat(1);
                if flat.length() == 2 * list.length() {
                    let text = flat.join("\n").as_string().unwrap_or_default();
                    decoder.add_path_lines(&text)?;
                    return Ok(decoder.finish());
                }
            }
        }
        let iter = js_sys::try_iter(&records)
            .ok()
            .flatten()
            .ok_or_else(|| StoreError::Failed("load() did not return an iterable".into()))?;
        for item in iter {
            let item = item.map_err(|e| failure("iterating load()'s records", &e))?;
            let (key, value) = if Array::is_array(&item) {
                let pair = Array::from(&item);
                (pair.get(0), pair.get(1))
            } else {
                (
                    Reflect::get(&item, &"key".into()).unwrap_or(JsValue::UNDEFINED),
                    Reflect::get(&item, &"value".into()).unwrap_or(JsValue::UNDEFINED),
                )
            };
            let (Some(key), Some(value)) = (key.as_string(), value.as_string()) else {
                return Err(StoreError::Failed(
                    "load() returned a record whose key or value is not a string".into(),
                ));
            };
            decoder.add_path(&key, &value)?;
        }
        Ok(decoder.finish())
    }

    async fn commit(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        if ops.is_empty() {
            return Ok(());
        }
        let batch = Array::new();
        for op in ops {
            batch.push(&to_js(op));
        }
        self.call("commit", Some(&batch)).await.map(drop)
    }
}

fn to_js(op: RecordOp) -> JsValue {
    let o = Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(&o, &k.into(), v);
    };
    match op {
        RecordOp::Put { key, value } => {
            set("op", &"put".into());
            set("key", &key.path().into());
            set("value", &value.into());
        }
        RecordOp::Delete { key } => {
            set("op", &"delete".into());
            set("key", &key.path().into());
        }
        RecordOp::DeleteMessagesOf { account, queue } => {
            set("op", &"deletePrefix".into());
            set("prefix", &layout::messages_prefix(&account, &queue).into());
        }
        RecordOp::Clear => set("op", &"clear".into()),
    }
    o.into()
}

/// A rejection or exception from the adapter, as a store error.
fn failure(what: &str, e: &JsValue) -> StoreError {
    let name = Reflect::get(e, &"name".into())
        .ok()
        .and_then(|n| n.as_string());
    if name.as_deref() == Some("QuotaExceededError") {
        return StoreError::QuotaExceeded;
    }
    StoreError::Failed(format!("{what} failed: {}", message_of(e)))
}

impl Store for AdapterStore {
    async fn load(&self) -> Result<Loaded, StoreError> {
        self.load_records().await
    }

    async fn write(&self, ops: Vec<RecordOp>) -> Result<(), StoreError> {
        self.commit(ops).await
    }
}

/// Runs the store contract suite (the same checks the key-value and IndexedDB stores pass)
/// against storage adapters from `make`, which is called once per check and must return a
/// fresh, empty adapter (or a Promise of one). Rejects with the first failure.
///
/// ```js
/// await checkStorageAdapter(() => new Journal(fs.mkdtempSync(dir)));
/// ```
#[wasm_bindgen(js_name = checkStorageAdapter)]
pub async fn check_storage_adapter(
    #[wasm_bindgen(unchecked_param_type = "() => StorageAdapter | Promise<StorageAdapter>")]
    make: Function,
) -> Result<(), JsValue> {
    crate::store::contract::run(|| {
        AdapterStore::from_js(
            make.call0(&JsValue::UNDEFINED)
                .unwrap_or_else(|e| Promise::reject(&e).into()),
        )
    })
    .await
    .map_err(|e| js_sys::Error::new(&format!("storage adapter contract: {e}")).into())
}
