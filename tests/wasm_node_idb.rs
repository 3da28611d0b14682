//! The IndexedDB store under Node, on fake-indexeddb (an IndexedDB written in JavaScript, from
//! npm): the same wasm32 build of `src/wasm/idb.rs` and the same operation sequence as the
//! browsers run in `wasm_idb.rs`, on a database no browser engine implements. Issue 23: the
//! sequence failed in WebKitGTK only; here it runs in V8 on a fourth IndexedDB.
#![cfg(target_arch = "wasm32")]

#[path = "support/idb_js.rs"]
mod idb_js;
#[path = "support/idb_trace/mod.rs"]
mod idb_trace;
#[path = "support/idb_wal_sequence.rs"]
mod idb_wal_sequence;

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen(module = "/tests/support/fake_indexeddb.js")]
extern "C" {
    #[wasm_bindgen(js_name = installFakeIndexedDb)]
    fn install_fake_indexeddb(crate_dir: &str) -> bool;
}

#[wasm_bindgen_test]
async fn the_log_folds_and_replays_to_the_engine_state_on_fake_indexeddb() {
    assert!(
        install_fake_indexeddb(env!("CARGO_MANIFEST_DIR")),
        "indexedDB is not fake-indexeddb's"
    );
    idb_wal_sequence::the_log_folds_and_replays_to_the_engine_state("azqueue-node-wal").await;
}
