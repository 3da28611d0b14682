//! The object stores' records in IndexedDB's terms: loading them in chunks, the key each
//! value belongs under, the write-ahead log's records, and writing record operations.

use super::request::{request_result, thrown};
use super::schema::{BLOCKS, LOG};
use crate::store::StoreError;
use crate::store::blocks::Block;
use crate::store::layout::{self, Decoder, Key, MESSAGES, RecordOp, STORES};
use crate::store::wal::Wal;
use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{IdbDatabase, IdbKeyRange, IdbRequest, IdbTransaction};

/// Per-message records (versions 1 and 2) per `getAll` request when loading.
pub(super) const LOAD_CHUNK: u32 = 16_384;

/// Blocks per `getAll` request when loading: about as many messages as [`LOAD_CHUNK`].
pub(super) const BLOCK_CHUNK: u32 = 256;

/// Reads the object store `store` in key order, `chunk` values per request, into `decoder`;
/// returns how many values it read. Each next request goes out before the chunk just received
/// is decoded, so the browser reads chunk n+1 while wasm decodes chunk n (at 100k messages
/// each took about half a second, one after the other, with a single `getAll`). The next
/// request starts after the last key read, which `key_of` rebuilds from its value (values name
/// their account, queue, id and sequence), so no keys need reading.
pub(super) async fn load_chunked(
    store: &web_sys::IdbObjectStore,
    chunk: u32,
    key_of: fn(&str) -> Result<JsValue, StoreError>,
    decoder: &mut Decoder,
) -> Result<u32, StoreError> {
    let read = |after: Option<JsValue>| -> Result<IdbRequest, StoreError> {
        let range = match after {
            None => JsValue::UNDEFINED,
            Some(key) => IdbKeyRange::lower_bound_with_open(&key, true)
                .map_err(|e| thrown("reading", e))?
                .into(),
        };
        store
            .get_all_with_key_and_limit(&range, chunk)
            .map_err(|e| thrown("reading", e))
    };
    let mut request = read(None)?;
    let mut count = 0;
    loop {
        let values: Array = request_result(&request)
            .await?
            .dyn_into()
            .map_err(|_| StoreError::Failed("getAll gave no array".into()))?;
        count += values.length();
        let full = values.length() == chunk;
        if full {
            let last = values.get(chunk - 1).as_string().unwrap_or_default();
            request = read(Some(key_of(&last)?))?;
        }
        decoder.add_lines(MESSAGES, &joined(&values))?;
        if !full {
            return Ok(count);
        }
    }
}

/// The key of the per-message record (versions 1 and 2) whose value this is.
pub(super) fn message_key(value: &str) -> Result<JsValue, StoreError> {
    let place = layout::message_place(value)?;
    Ok(Array::of3(
        &place.account.into(),
        &place.queue.into(),
        &place.id.to_string().into(),
    )
    .into())
}

/// The key of the block whose value this is.
pub(super) fn block_key(value: &str) -> Result<JsValue, StoreError> {
    Ok(block_idb_key(&Block::of_value(value)?))
}

pub(super) fn block_idb_key(block: &Block) -> JsValue {
    Array::of3(
        &block.account.as_str().into(),
        &block.queue.as_str().into(),
        &(block.number as f64).into(),
    )
    .into()
}

/// A `getAll` result as one string, values separated by line feeds: one string crosses from
/// JS instead of one per record (JSON values never contain a raw line feed).
pub(super) fn joined(values: &Array) -> String {
    values.join("\n").as_string().unwrap_or_default()
}

/// Reads the write-ahead log (at open, before any write).
pub(super) async fn read_log(db: &IdbDatabase) -> Result<Wal, StoreError> {
    let tx = db
        .transaction_with_str(LOG)
        .map_err(|e| thrown("starting a read", e))?;
    let store = tx.object_store(LOG).map_err(|e| thrown("reading", e))?;
    let keys = store.get_all_keys().map_err(|e| thrown("reading", e))?;
    let values = store.get_all().map_err(|e| thrown("reading", e))?;
    let keys: Array = request_result(&keys).await?.unchecked_into();
    let values: Array = request_result(&values).await?.unchecked_into();
    let number = |v: JsValue| v.as_f64().map(|n| n as u64);
    let last = keys.length().max(1) - 1;
    Wal::read(
        number(keys.get(0)),
        number(keys.get(last)),
        &joined(&values),
    )
}

/// Puts one log record.
pub(super) fn put_log(tx: &IdbTransaction, key: u64, value: &str) -> Result<(), StoreError> {
    tx.object_store(LOG)
        .and_then(|s| s.put_with_key(&value.into(), &(key as f64).into()))
        .map(drop)
        .map_err(|e| thrown("writing", e))
}

/// Deletes the log records `first..=last`.
pub(super) fn drop_log(tx: &IdbTransaction, first: u64, last: u64) -> Result<(), StoreError> {
    IdbKeyRange::bound(&(first as f64).into(), &(last as f64).into())
        .and_then(|range| tx.object_store(LOG)?.delete(&range))
        .map(drop)
        .map_err(|e| thrown("writing", e))
}

/// Writes record operations other than single messages' (a fold's plan keeps those for the
/// blocks). `Clear` empties every store but the log (which the fold empties itself).
pub(super) fn write_records(tx: &IdbTransaction, ops: Vec<RecordOp>) -> Result<(), StoreError> {
    let store = |name: &str| tx.object_store(name).map_err(|e| thrown("writing", e));
    for op in ops {
        let result = match op {
            RecordOp::Put { key, value } => store(key.store())?
                .put_with_key(&value.into(), &record_key(&key)?)
                .map(drop),
            RecordOp::Delete { key } => store(key.store())?.delete(&record_key(&key)?).map(drop),
            RecordOp::DeleteMessagesOf { account, queue } => {
                let (a, q): (JsValue, JsValue) = (account.into(), queue.as_str().into());
                let blocks = store(BLOCKS)?;
                // Arrays sort after numbers in IndexedDB, so [a, q, []] bounds every [a, q, n].
                IdbKeyRange::bound(&Array::of2(&a, &q), &Array::of3(&a, &q, &Array::new()))
                    .and_then(|range| blocks.delete(&range))
                    .map(drop)
            }
            RecordOp::Clear => {
                for name in STORES.into_iter().chain([BLOCKS]) {
                    store(name)?.clear().map_err(|e| thrown("writing", e))?;
                }
                Ok(())
            }
        };
        result.map_err(|e| thrown("writing", e))?;
    }
    Ok(())
}

/// The IndexedDB key of a record other than a message's (messages live in blocks).
fn record_key(key: &Key) -> Result<JsValue, StoreError> {
    Ok(match key {
        Key::Queue { account, queue } => Array::of2(&account.into(), &queue.as_str().into()).into(),
        Key::Properties { account } => account.into(),
        Key::Meta { name } => (*name).into(),
        Key::Message { .. } => {
            return Err(StoreError::Failed(
                "a single message's record reached the record writer, not a block".into(),
            ));
        }
    })
}
