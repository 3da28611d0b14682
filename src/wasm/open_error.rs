//! Why `QueueService.open()` could not set up its store, and the error it rejects with. Its own
//! file because both the store chooser (`store.rs`) and the IndexedDB store (`idb.rs`) raise it.

use super::error::{coded, invalid_input};
use crate::rest::ErrorCode;
use crate::store::StoreError;
use wasm_bindgen::JsValue;

/// Why `open()` could not set up the store.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// No such backend here (no IndexedDB in this realm, Web Locks refused).
    Unavailable(String),
    /// Another tab or worker holds the database.
    Locked(String),
    /// The options are wrong.
    Invalid(String),
    /// The backend failed while opening or loading.
    Store(StoreError),
}

impl OpenError {
    pub(crate) fn into_store_error(self) -> StoreError {
        match self {
            OpenError::Store(e) => e,
            OpenError::Unavailable(m) | OpenError::Locked(m) | OpenError::Invalid(m) => {
                StoreError::Failed(m)
            }
        }
    }

    /// The error `QueueService.open()` rejects with.
    pub(crate) fn to_js(&self) -> JsValue {
        match self {
            OpenError::Unavailable(m) => coded(ErrorCode::StoreUnavailable, m),
            OpenError::Locked(m) => coded(ErrorCode::StoreLocked, m),
            OpenError::Invalid(m) => invalid_input(m),
            OpenError::Store(e) => store_unreadable(e),
        }
    }
}

/// `StoreUnavailable`: the store opened but could not be read.
pub(crate) fn store_unreadable(e: &StoreError) -> JsValue {
    coded(
        ErrorCode::StoreUnavailable,
        format!("the store could not be read: {e}"),
    )
}
