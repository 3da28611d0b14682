//! The writer lock of an IndexedDB database: an exclusive Web Lock (`navigator.locks`) named
//! after it, held for as long as the store is open.
//!
//! Two tabs writing one database would each hold their own in-memory engine and overwrite each
//! other's records, so the IndexedDB store takes this lock before opening its database; a
//! second tab gets `StoreLocked` (or, with `waitForLock`, waits until the first closes). The
//! lock dies with its tab, so a crashed tab never blocks the next. Where Web Locks do not exist
//! (Node with fake-indexeddb) there is no lock.

use super::thrown::message_of;
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Why the lock was not taken.
#[derive(Debug)]
pub(crate) enum LockError {
    /// Another holder has it (and we were not to wait).
    Held,
    /// The request itself failed.
    Failed(String),
}

/// Takes the exclusive Web Lock `name`, held until the returned function is called (or the
/// realm dies); the returned Promise settles once it is released. `None` where Web Locks do
/// not exist.
pub(crate) async fn acquire_lock(
    name: &str,
    wait: bool,
) -> Result<Option<(Function, Promise)>, LockError> {
    let locks = Reflect::get(&js_sys::global(), &"navigator".into())
        .ok()
        .filter(|n| n.is_object())
        .and_then(|n| Reflect::get(&n, &"locks".into()).ok())
        .filter(|l| l.is_object());
    let Some(locks) = locks else {
        return Ok(None);
    };
    let request: Function = Reflect::get(&locks, &"request".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| LockError::Failed("navigator.locks.request is missing".into()))?;

    // The lock is held while the callback's promise is pending: `release` settles it.
    let mut release: Option<Function> = None;
    let held = Promise::new(&mut |resolve, _| release = Some(resolve));
    let mut settle: Option<(Function, Function)> = None;
    let granted = Promise::new(&mut |resolve, reject| settle = Some((resolve, reject)));
    let (Some(release), Some((grant, refuse))) = (release, settle) else {
        return Err(LockError::Failed("Promise executors did not run".into()));
    };
    let callback = Closure::once_into_js(move |lock: JsValue| -> JsValue {
        let got = !lock.is_null();
        let _ = grant.call1(&JsValue::UNDEFINED, &got.into());
        if got { held.into() } else { JsValue::UNDEFINED }
    });
    let options = Object::new();
    let _ = Reflect::set(&options, &"mode".into(), &"exclusive".into());
    let _ = Reflect::set(&options, &"ifAvailable".into(), &(!wait).into());
    let pending = request
        .call3(&locks, &name.into(), &options, &callback)
        .map_err(|e| LockError::Failed(message_of(&e)))?;
    // If the request itself fails (e.g. a sandboxed frame), reject `granted` rather than hang.
    let released = Promise::resolve(&pending);
    let _ = Reflect::get(&released, &"then".into())
        .and_then(|f| f.dyn_into::<Function>())
        .and_then(|then| then.call2(&released, &JsValue::UNDEFINED, &refuse));
    match JsFuture::from(granted).await {
        Ok(v) if v.as_bool() == Some(true) => Ok(Some((release, released))),
        Ok(_) => Err(LockError::Held),
        Err(e) => Err(LockError::Failed(message_of(&e))),
    }
}
