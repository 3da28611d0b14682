//! Scenarios for the JS faces, shared by `wasm_node.rs` (Node) and `wasm_browser.rs` (headless
//! Chromium): the same bindings must behave the same in both hosts. Each scenario drives the
//! exported classes exactly as JS would, with JS values for options and results, and a
//! callback clock so no test waits for real time.

#![allow(dead_code)] // each test binary uses a subset

pub mod grown_memory;
pub mod parity;

use azqueue::wasm::{Queue, QueueService};
use js_sys::{Array, Date, Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// 2023-11-14T22:13:20Z: a fixed start for the callback clock.
pub const T0: f64 = 1_700_000_000_000.0;

/// A plain JS object from pairs.
pub fn obj(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &(*k).into(), v).unwrap();
    }
    o.into()
}

/// `value[key]`, walking a dotted path (`"receivedMessageItems.0.dequeueCount"`).
pub fn get(value: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(value.clone(), |v, key| {
        Reflect::get(&v, &key.into()).unwrap_or(JsValue::UNDEFINED)
    })
}

pub fn get_str(value: &JsValue, path: &str) -> String {
    get(value, path)
        .as_string()
        .unwrap_or_else(|| panic!("{path} is not a string"))
}

pub fn get_f64(value: &JsValue, path: &str) -> f64 {
    get(value, path)
        .as_f64()
        .unwrap_or_else(|| panic!("{path} is not a number"))
}

/// A clock the test moves by hand: `globalThis.__azqueueTestNow` read by a JS callback.
pub fn manual_clock(start: f64) -> Function {
    set_clock(start);
    Function::new_no_args("return globalThis.__azqueueTestNow")
}

pub fn set_clock(ms: f64) {
    Reflect::set(&js_sys::global(), &"__azqueueTestNow".into(), &ms.into()).unwrap();
}

/// A service on the manual clock with seeded ids, anonymous REST access allowed.
pub async fn open_service() -> QueueService {
    let options = obj(&[
        ("store", "memory".into()),
        ("now", manual_clock(T0).into()),
        ("seed", 7.into()),
        ("anonymous", true.into()),
    ]);
    QueueService::open(Some(options.unchecked_into()))
        .await
        .expect("open")
}

/// Asserts a thrown value is a `QueueError` with this code and status.
pub fn assert_error(err: &JsValue, code: &str, status: u16) {
    assert!(
        err.is_instance_of::<js_sys::Error>(),
        "not an Error: {err:?}"
    );
    assert_eq!(get_str(err, "name"), "QueueError");
    assert_eq!(get_str(err, "code"), code, "{err:?}");
    assert_eq!(get_f64(err, "statusCode"), status as f64);
}

fn date_ms(value: &JsValue, path: &str) -> f64 {
    get(value, path)
        .dyn_into::<Date>()
        .unwrap_or_else(|_| panic!("{path} is not a Date"))
        .get_time()
}

async fn queue(service: &QueueService, name: &str) -> Queue {
    service
        .create_queue(name.into(), None)
        .await
        .expect("create")
}

/// Send → receive → (time passes) → receive again: dequeue count 2, a new receipt, the old
/// receipt rejected with 404 MessageNotFound; then delete with the current one.
pub async fn message_lifecycle() {
    let service = open_service().await;
    let q = queue(&service, "orders").await;
    let sent = q
        .send_message(
            &"hello <&> \u{1F600}".into(),
            Some(obj(&[("messageTimeToLive", 3600.into())]).unchecked_into()),
        )
        .await
        .unwrap();
    assert_eq!(date_ms(&sent, "insertedOn"), T0);
    assert_eq!(date_ms(&sent, "expiresOn"), T0 + 3_600_000.0);
    assert_eq!(date_ms(&sent, "nextVisibleOn"), T0);

    let opts = || Some(obj(&[("visibilityTimeout", 30.into())]).unchecked_into());
    let first = q.receive_messages(opts()).await.unwrap();
    let items = get(&first, "receivedMessageItems")
        .dyn_into::<Array>()
        .unwrap();
    assert_eq!(items.length(), 1);
    assert_eq!(
        get_str(&first, "receivedMessageItems.0.messageText"),
        "hello <&> \u{1F600}"
    );
    assert_eq!(get_f64(&first, "receivedMessageItems.0.dequeueCount"), 1.0);
    let id = get_str(&first, "receivedMessageItems.0.messageId");
    assert_eq!(id, get_str(&sent, "messageId"));

    // Invisible for 30 s: nothing to receive at +29 s; back with count 2 at +30 s.
    set_clock(T0 + 29_000.0);
    let none = q.receive_messages(opts()).await.unwrap();
    assert_eq!(
        get(&none, "receivedMessageItems")
            .dyn_into::<Array>()
            .unwrap()
            .length(),
        0
    );
    set_clock(T0 + 30_000.0);
    let second = q.receive_messages(opts()).await.unwrap();
    assert_eq!(get_f64(&second, "receivedMessageItems.0.dequeueCount"), 2.0);
    let old = get_str(&first, "receivedMessageItems.0.popReceipt");
    let current = get_str(&second, "receivedMessageItems.0.popReceipt");
    assert_ne!(old, current);

    let stale = q.delete_message(id.clone(), old).await.unwrap_err();
    assert_error(&stale, "MessageNotFound", 404);
    q.delete_message(id, current).await.unwrap();
    let props = q.get_properties().await.unwrap();
    assert_eq!(get_f64(&props, "approximateMessagesCount"), 0.0);
}

/// Option errors carry the REST layer's code, status and details.
pub async fn option_errors_match_rest() {
    let service = open_service().await;
    let q = queue(&service, "errors").await;
    let err = q
        .receive_messages(Some(
            obj(&[("numberOfMessages", 33.into())]).unchecked_into(),
        ))
        .await
        .unwrap_err();
    assert_error(&err, "OutOfRangeQueryParameterValue", 400);
    assert_eq!(get_str(&err, "details.QueryParameterName"), "numofmessages");
    assert_eq!(get_str(&err, "details.MaximumAllowed"), "32");

    let err = q
        .send_message(&"x".repeat(64 * 1024 + 1).into(), None)
        .await
        .unwrap_err();
    assert_error(&err, "RequestBodyTooLarge", 413);
    q.send_message(&"x".repeat(64 * 1024).into(), None)
        .await
        .unwrap();

    // Text the REST API could not carry in XML is refused as the service refuses the SDK's
    // request for it, with the character named.
    let err = q
        .send_message(&"bell \u{7}".into(), None)
        .await
        .unwrap_err();
    assert_error(&err, "InvalidXmlDocument", 400);
    assert!(get_str(&err, "message").contains("U+0007"), "{err:?}");

    let err = q
        .send_message(
            &"x".into(),
            Some(
                obj(&[
                    ("visibilityTimeout", 60.into()),
                    ("messageTimeToLive", 60.into()),
                ])
                .unchecked_into(),
            ),
        )
        .await
        .unwrap_err();
    assert_error(&err, "InvalidQueryParameterValue", 400);

    assert_error(
        &service.queue("Bad_Name").unwrap_err(),
        "InvalidResourceName",
        400,
    );
    assert_error(&service.queue("ab").unwrap_err(), "OutOfRangeInput", 400);
    let missing = service.queue("missing").unwrap();
    assert_error(
        &missing.peek_messages(None).await.unwrap_err(),
        "QueueNotFound",
        404,
    );
    let err = service
        .create_queue(
            "errors".into(),
            Some(obj(&[("metadata", obj(&[("a", "b".into())]))]).unchecked_into()),
        )
        .await
        .unwrap_err();
    assert_error(&err, "QueueAlreadyExists", 409);
}

/// `store: "indexeddb"` where there is no IndexedDB (Node) is refused with a clear error.
pub async fn indexeddb_store_needs_indexeddb() {
    let options = obj(&[("store", "indexeddb".into())]);
    let err = QueueService::open(Some(options.unchecked_into()))
        .await
        .unwrap_err();
    assert_error(&err, "StoreUnavailable", 503);
    assert!(get_str(&err, "message").contains("IndexedDB is not available"));
}

async fn call(
    handler: &Function,
    method: &str,
    url: &str,
    body: Option<&str>,
) -> web_sys::Response {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    // The version the SDK 12.30 sends: without one the request fails on the version check
    // before authentication is even considered.
    let headers = web_sys::Headers::new().unwrap();
    headers.set("x-ms-version", "2026-04-06").unwrap();
    init.set_headers(&headers);
    if let Some(b) = body {
        init.set_body(&b.into());
    }
    let request = web_sys::Request::new_with_str_and_init(url, &init).unwrap();
    let promise: js_sys::Promise = handler
        .call1(&JsValue::NULL, &request)
        .unwrap()
        .unchecked_into();
    JsFuture::from(promise).await.unwrap().unchecked_into()
}

async fn text(response: &web_sys::Response) -> String {
    JsFuture::from(response.text().unwrap())
        .await
        .unwrap()
        .as_string()
        .unwrap()
}

/// The fetch handler and the JS classes share one service: a queue made over REST shows up in
/// `listQueues()`, a message sent from JS comes back over REST, and Azure errors are responses
/// (with `x-ms-error-code`), never rejections.
pub async fn fetch_handler_round_trip() {
    let service = open_service().await;
    let handler: Function = service.fetch_handler().unchecked_into();
    let base = "http://127.0.0.1:10001/devstoreaccount1";

    let created = call(&handler, "PUT", &format!("{base}/from-rest"), None).await;
    assert_eq!(created.status(), 201, "{}", text(&created).await);
    let listed = service
        .list_queues(None)
        .unwrap()
        .dyn_into::<Array>()
        .unwrap();
    assert_eq!(get_str(&listed.get(0), "name"), "from-rest");

    let q = service.queue("from-rest").unwrap();
    q.send_message(&"sent from JS".into(), None).await.unwrap();
    let peeked = call(
        &handler,
        "GET",
        &format!("{base}/from-rest/messages?peekonly=true"),
        None,
    )
    .await;
    assert_eq!(peeked.status(), 200);
    let xml = text(&peeked).await;
    assert!(
        xml.contains("<MessageText>sent from JS</MessageText>"),
        "{xml}"
    );

    let posted = call(
        &handler,
        "POST",
        &format!("{base}/from-rest/messages"),
        Some("<QueueMessage><MessageText>sent over REST</MessageText></QueueMessage>"),
    )
    .await;
    assert_eq!(posted.status(), 201);
    let props = q.get_properties().await.unwrap();
    assert_eq!(get_f64(&props, "approximateMessagesCount"), 2.0);

    let missing = call(&handler, "DELETE", &format!("{base}/no-such-queue"), None).await;
    assert_eq!(missing.status(), 404);
    assert_eq!(
        missing.headers().get("x-ms-error-code").unwrap().as_deref(),
        Some("QueueNotFound")
    );
    assert!(text(&missing).await.contains("<Code>QueueNotFound</Code>"));
}

/// Without `anonymous`, a request with no credentials is refused.
pub async fn fetch_handler_requires_credentials() {
    let service = QueueService::open(None).await.unwrap();
    let handler: Function = service.fetch_handler().unchecked_into();
    let response = call(
        &handler,
        "PUT",
        "http://127.0.0.1:10001/devstoreaccount1/queue1",
        None,
    )
    .await;
    let status = response.status();
    assert!(
        matches!(status, 401 | 403 | 404),
        "status {status}: {}",
        text(&response).await
    );
    assert!(response.headers().get("x-ms-error-code").unwrap().is_some());
    assert!(
        service
            .list_queues(None)
            .unwrap()
            .dyn_into::<Array>()
            .unwrap()
            .length()
            == 0
    );
}

/// Subscribers hear every change, from the JS API and from REST alike.
pub async fn subscribers_hear_events() {
    let service = open_service().await;
    let seen = Array::new();
    let push = Function::new_with_args("e", "this.push(e.type)").bind0(&seen);
    let stop: Function = service
        .subscribe(push.unchecked_into())
        .unwrap()
        .unchecked_into();
    let q = queue(&service, "events").await;
    q.send_message(&"a".into(), None).await.unwrap();
    q.receive_messages(None).await.unwrap();
    q.clear_messages().await.unwrap();
    let types: Vec<String> = seen.iter().filter_map(|v| v.as_string()).collect();
    assert_eq!(types, ["queueCreated", "sent", "received", "cleared"]);
    stop.call0(&JsValue::NULL).unwrap();
    q.send_message(&"b".into(), None).await.unwrap();
    assert_eq!(seen.length(), 4);
}

/// `inspect()` shows invisible messages with their state; `nextDeadline()` is when one returns.
pub async fn inspect_shows_invisible_messages() {
    let service = open_service().await;
    let q = queue(&service, "inspect").await;
    let sent = q
        .send_message(
            &"later".into(),
            Some(obj(&[("visibilityTimeout", 10.into())]).unchecked_into()),
        )
        .await
        .unwrap();
    let view = service.inspect(None).unwrap();
    let message = get(&view, "accounts.0.queues.0.messages.0");
    assert_eq!(get_str(&message, "messageText"), "later");
    assert_eq!(get_str(&message, "state"), "invisible");
    assert_eq!(
        get(&message, "popReceipt").as_string(),
        get(&sent, "popReceipt").as_string(),
        "the current receipt"
    );
    let visible_on = get(&message, "nextVisibleOn").dyn_into::<Date>().unwrap();
    assert_eq!(visible_on.get_time(), T0 + 10_000.0);
    let deadline = service.next_deadline().unwrap().dyn_into::<Date>().unwrap();
    assert_eq!(deadline.get_time(), T0 + 10_000.0);
    let peeked = q.peek_messages(None).await.unwrap();
    assert_eq!(
        get(&peeked, "peekedMessageItems")
            .dyn_into::<Array>()
            .unwrap()
            .length(),
        0
    );
}

/// A seeded service draws the same ids after `reset()` and `importSnapshot()` as before them
/// (they replace the state, not the entropy), and subscribers keep hearing events.
pub async fn a_seeded_service_stays_deterministic_across_reset_and_import() {
    async fn ids_after_replacing(service: &QueueService) -> Vec<String> {
        let seen = Array::new();
        let push = Function::new_with_args("e", "this.push(e.type)").bind0(&seen);
        service.subscribe(push.unchecked_into()).unwrap();
        let q = queue(service, "det").await;
        let mut ids = vec![get_str(
            &q.send_message(&"a".into(), None).await.unwrap(),
            "messageId",
        )];
        let snapshot = service.export_snapshot().await.unwrap();
        service.reset().await.unwrap();
        let q = queue(service, "det").await;
        ids.push(get_str(
            &q.send_message(&"b".into(), None).await.unwrap(),
            "messageId",
        ));
        service.import_snapshot(snapshot.into()).await.unwrap();
        let q = service.queue("det").unwrap();
        ids.push(get_str(
            &q.send_message(&"c".into(), None).await.unwrap(),
            "messageId",
        ));
        let sent = seen
            .iter()
            .filter(|v| v.as_string().as_deref() == Some("sent"))
            .count();
        assert_eq!(sent, 3, "subscribers hear events after reset and import");
        ids
    }
    let first = ids_after_replacing(&open_service().await).await;
    let second = ids_after_replacing(&open_service().await).await;
    assert_eq!(first, second);
    assert_eq!(first.len(), 3);
}
