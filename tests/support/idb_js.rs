//! A database as JavaScript of its own sees it, for the IndexedDB tests (`wasm_idb.rs` in the
//! browsers, `wasm_node_idb.rs` under Node): run a JS function, read a database's stores
//! outside the store under test.

use js_sys::{Array, Function, Promise};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Runs `body` as a JS async function of `args` (raw IndexedDB set-up and inspection).
pub async fn js(params: &str, body: &str, args: &[JsValue]) -> JsValue {
    let f = Function::new_with_args(params, body);
    let out = f
        .apply(&JsValue::NULL, &args.iter().collect::<Array>())
        .unwrap();
    JsFuture::from(Promise::resolve(&out)).await.unwrap()
}

/// Opens the database `name` from JS and runs `reads`, a JS expression over `tx` (a readonly
/// transaction on `stores`) giving an array of requests; resolves to the database version
/// followed by their results, once the transaction completes.
pub async fn read_database(name: &str, stores: &[&str], reads: &str) -> Vec<JsValue> {
    let body = format!(
        "return new Promise((resolve, reject) => {{
           const r = indexedDB.open(name);
           r.onerror = () => reject(r.error);
           r.onsuccess = () => {{
             const db = r.result;
             const tx = db.transaction(stores);
             const requests = {reads};
             tx.oncomplete = () => {{
               db.close();
               resolve([db.version, ...requests.map((q) => q.result)]);
             }};
           }};
         }});"
    );
    let stores: Array = stores.iter().map(|s| JsValue::from(*s)).collect();
    let out: Array = js("name, stores", &body, &[name.into(), stores.into()])
        .await
        .unchecked_into();
    out.iter().collect()
}
