//! IndexedDB's requests and transactions as futures, and what they fail with as a
//! [`StoreError`] (a full quota is told apart, so it can be answered as one).

use crate::store::StoreError;
use crate::wasm::thrown::message_of;
use js_sys::Promise;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DomException, IdbRequest, IdbTransaction};

/// Resolves on `complete`; rejects on `error` (a failed request bubbles here) or `abort`.
pub(super) fn transaction_done(tx: &IdbTransaction) -> Promise {
    Promise::new(&mut |resolve, reject| {
        tx.set_oncomplete(Some(&resolve));
        tx.set_onerror(Some(&reject));
        tx.set_onabort(Some(&reject));
    })
}

/// A request's result once it succeeds, or its error.
pub(super) async fn request_result(request: &IdbRequest) -> Result<JsValue, StoreError> {
    let settled = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let outcome = JsFuture::from(settled).await;
    request.set_onsuccess(None);
    request.set_onerror(None);
    match outcome {
        Ok(_) => request
            .result()
            .map_err(|e| thrown("reading a request's result", e)),
        Err(_) => Err(match request.error() {
            Ok(Some(e)) => dom_error("the request failed", &e),
            _ => StoreError::Failed("an IndexedDB request failed".into()),
        }),
    }
}

pub(super) fn dom_error(what: &str, e: &DomException) -> StoreError {
    if e.name() == "QuotaExceededError" {
        StoreError::QuotaExceeded
    } else {
        StoreError::Failed(format!("{what}: {}: {}", e.name(), e.message()))
    }
}

/// An exception thrown synchronously by an IndexedDB call.
pub(super) fn thrown(what: &str, e: JsValue) -> StoreError {
    match e.dyn_ref::<DomException>() {
        Some(d) => dom_error(what, d),
        None => StoreError::Failed(format!("{what}: {}", message_of(&e))),
    }
}
