//! What a value JavaScript threw or rejected with says, as text for a store or lock error.
//! A rejection can carry anything: an `Error` (its `message`), a bare string, or something else.

use wasm_bindgen::{JsCast, JsValue};

/// The `message` of an `Error`, the text of a thrown string, else "unknown error".
pub(crate) fn message_of(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}
