//! `selfCheck()`: the known-answer run of `crate::store::known_answer` for a page to call at
//! start, in an engine it cannot trust. WebKit's JavaScriptCore has run this sequence wrong in
//! its optimizing tier (docs/webkit.md), so a Safari page can refuse to keep data when the
//! answer comes out wrong. It cannot prove the engine right: a fault that comes only once code
//! has been moved to the optimizing tier, or only once in hundreds of processes, may well not
//! show in one run at start.

use wasm_bindgen::prelude::*;

/// Runs the engine and the IndexedDB store's encodings over a fixed sequence (250 rounds of
/// puts, receives and deletes, each written as a log value and read back) and checks two known
/// answers: the records decode to the engine's state, and the log values' digest is the one
/// this build gives natively. Throws an `Error` saying what came out wrong; a trap (a
/// `RuntimeError`) is a wrong answer too. Synchronous; call it after `init()`.
///
/// ```js
/// try { selfCheck(); } catch (e) { showWarning(`this browser ran azqueue wrong: ${e.message}`); }
/// ```
#[wasm_bindgen(js_name = selfCheck)]
pub fn self_check() -> Result<(), JsValue> {
    crate::store::known_answer::check().map_err(|e| js_sys::Error::new(&e).into())
}
