//! The whole state as one document: export, import and reset, as `QueueService` methods and
//! under the reserved development path (`/_azqueue/`, outside the Azure URL space).
//!
//! The document's format and checks are `src/store/document.rs`. Import and reset replace the whole state in one store transaction, so a crash leaves either
//! the old state or the new one. They resolve once the new state is durable, in either
//! durability mode.
//!
//! | request                    | effect                                  |
//! |----------------------------|-----------------------------------------|
//! | `GET /_azqueue/snapshot`   | the document (200, JSON)                |
//! | `PUT /_azqueue/snapshot`   | replace everything with the body (204)  |
//! | `POST /_azqueue/reset`     | delete every queue and message (204)    |
//! | `GET /_azqueue/store`      | the store's kind, durability, counters  |
//!
//! Like the inspection path, these are served only when inspection is on (the development
//! default), since they read and replace everything without credentials.

use super::host::Host;
use super::js_object::{JsObject, date};
use super::service::QueueService;
use super::store::store_error_to_js;
use crate::engine::{Snapshot, Timestamp};
use crate::store::document::{from_document, to_document};
use crate::store::layout::Pending;
use wasm_bindgen::prelude::*;

/// The current state, once everything it shows is durable.
async fn export(host: &Host) -> Result<String, JsValue> {
    host.store()
        .commit(Vec::new())
        .await
        .map_err(|e| store_error_to_js(&e))?;
    let now = host.now();
    let snapshot = host.read(|s| s.emulator().snapshot())?;
    to_document(snapshot, now).map_err(|e| js_sys::Error::new(&e).into())
}

/// Replaces everything with `snapshot`: the engine at once, the store in one transaction that
/// first clears it. Resolves when the new state is durable.
async fn replace(host: &Host, snapshot: Snapshot) -> Result<(), JsValue> {
    let store = host.store();
    let replacement = vec![Pending::Replace(snapshot.clone())];
    host.run(|emu, _, _| {
        // Enqueued while the engine is held, so no other operation can slip in between the
        // new state and its commit.
        store
            .enqueue(replacement)
            .map_err(|e| store_error_to_js(&e))?;
        emu.replace_state(snapshot);
        Ok(())
    })
    .await?;
    store.flush().await.map_err(|e| store_error_to_js(&e))
}

#[wasm_bindgen]
impl QueueService {
    /// The whole state (every account, queue and message, invisible ones included) as a
    /// versioned JSON document, once everything in it is durable.
    ///
    /// ```js
    /// const json = await service.exportSnapshot();
    /// await other.importSnapshot(json);
    /// ```
    #[wasm_bindgen(js_name = exportSnapshot)]
    pub async fn export_snapshot(&self) -> Result<String, JsValue> {
        export(&self.host).await
    }

    /// Replaces the whole state with a document from `exportSnapshot()` (a string or the
    /// parsed object). Atomic: a crash leaves the old state or the new one.
    ///
    /// # Errors
    /// `InvalidInput` (400) for a document this build cannot rebuild exactly.
    #[wasm_bindgen(js_name = importSnapshot)]
    pub async fn import_snapshot(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | object")] snapshot: JsValue,
    ) -> Result<(), JsValue> {
        let text = match snapshot.as_string() {
            Some(s) => s,
            None => js_sys::JSON::stringify(&snapshot)
                .ok()
                .and_then(|s| s.as_string())
                .ok_or_else(|| {
                    super::error::invalid_input("importSnapshot takes a string or an object")
                })?,
        };
        let parsed = from_document(&text).map_err(super::error::invalid_input)?;
        replace(&self.host, parsed).await
    }

    /// Deletes every queue, message and service property, durably.
    pub async fn reset(&self) -> Result<(), JsValue> {
        replace(&self.host, Snapshot::default()).await
    }

    /// Waits until every change made so far is durable (with `durability: "relaxed"`, the
    /// way to be sure; with "strict", every Promise already waited).
    pub async fn flush(&self) -> Result<(), JsValue> {
        self.host
            .store()
            .flush()
            .await
            .map_err(|e| store_error_to_js(&e))
    }

    /// `"strict"` or `"relaxed"`, as opened.
    #[wasm_bindgen(getter)]
    pub fn durability(&self) -> String {
        self.host.store().durability().as_str().to_owned()
    }

    /// The service clock's reading at the last commit before this `open()`, and how far it was
    /// from the wall clock then: `{ now: Date, offsetMs: number }`, or `undefined` for a new
    /// store. A page running a virtual clock resumes its timeline from `now`, so messages
    /// become visible and expire when they should.
    #[wasm_bindgen(getter = savedClock, unchecked_return_type = "{ now: Date; offsetMs: number } | undefined")]
    pub fn saved_clock(&self) -> JsValue {
        match self.host.store().saved_clock() {
            None => JsValue::UNDEFINED,
            Some(c) => JsObject::new()
                .set("now", date(Timestamp::from_millis(c.now)))
                .set("offsetMs", c.now as f64 - c.wall as f64)
                .build(),
        }
    }
}

/// One of the development paths above.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Route {
    Snapshot,
    Reset,
    Store,
}

/// The development path `req` names, if any.
pub(crate) fn route(req: &http::Request<Vec<u8>>) -> Option<Route> {
    match req.uri().path() {
        "/_azqueue/snapshot" => Some(Route::Snapshot),
        "/_azqueue/reset" => Some(Route::Reset),
        "/_azqueue/store" => Some(Route::Store),
        _ => None,
    }
}

/// Answers a development path. Never fails: errors are JSON responses (500 with
/// `x-ms-error-code: InternalError` when the store has failed).
pub(crate) async fn answer(
    host: &Host,
    route: Route,
    req: &http::Request<Vec<u8>>,
) -> http::Response<Vec<u8>> {
    match host.read(|s| s.config().inspect) {
        Ok(true) => {}
        _ => {
            return json(
                403,
                r#"{"error":"the development paths are disabled on this service"}"#.into(),
            );
        }
    }
    // Cross-site writes and DNS rebinding (src/rest/dev_guard.rs).
    let guard = host.read(|s| crate::rest::dev_guard::check(s.config(), s.emulator(), req));
    if let Ok(Err((status, body))) = guard {
        return json(status, body);
    }
    let outcome = match (route, req.method().as_str()) {
        (Route::Snapshot, "GET") => export(host).await.map(Some),
        (Route::Snapshot, "PUT" | "POST") => {
            let parsed = std::str::from_utf8(req.body())
                .map_err(|_| "the body is not UTF-8".to_owned())
                .and_then(from_document);
            match parsed {
                Ok(snapshot) => replace(host, snapshot).await.map(|()| None),
                Err(why) => return json(400, serde_json::json!({ "error": why }).to_string()),
            }
        }
        (Route::Reset, "POST") => replace(host, Snapshot::default()).await.map(|()| None),
        (Route::Store, "GET") => {
            let store = host.store();
            let body = serde_json::json!({
                "kind": super::store::kind(store),
                "durability": store.durability().as_str(),
                "committedChanges": store.committed(),
                "transactions": store.transactions(),
                "failed": store.failure().map(|e| e.to_string()),
            });
            Ok(Some(body.to_string()))
        }
        _ => return json(405, r#"{"error":"method not allowed on this path"}"#.into()),
    };
    match outcome {
        Ok(Some(body)) => json(200, body),
        Ok(None) => json(204, String::new()),
        Err(e) => {
            let message = js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_default();
            json(
                500,
                serde_json::json!({ "error": "InternalError", "message": message }).to_string(),
            )
        }
    }
}

fn json(status: u16, body: String) -> http::Response<Vec<u8>> {
    let mut response = http::Response::new(if status == 204 {
        Vec::new()
    } else {
        body.into_bytes()
    });
    *response.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        "content-type",
        http::HeaderValue::from_static("application/json"),
    );
    if status >= 500 {
        headers.insert(
            "x-ms-error-code",
            http::HeaderValue::from_static("InternalError"),
        );
    }
    response
}
