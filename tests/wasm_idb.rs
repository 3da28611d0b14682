//! The IndexedDB store in headless Chromium (`wasm-pack test --headless --chrome`): the store
//! contract suite (the one the memory store passes natively), durability across reopening
//! through `QueueService`, group commit, the one-writer lock, failure handling, snapshots, and
//! a reopen of 100k messages.
#![cfg(target_arch = "wasm32")]

#[path = "support/idb_js.rs"]
mod idb_js;
#[path = "support/idb_trace/mod.rs"]
mod idb_trace;
#[path = "support/idb_wal_sequence.rs"]
mod idb_wal_sequence;
#[path = "support/wasm_scenarios/mod.rs"]
mod wasm_scenarios;

use azqueue::engine::{
    Emulator, Metadata, QueueName, SeededEntropy, TimeToLive, Timestamp, VisibilityTimeout,
};
use azqueue::store::layout::ops_of_changes;
use azqueue::store::{Store, contract};
use azqueue::wasm::{IdbStore, QueueService, delete_database};
use idb_js::{js, read_database};
use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use wasm_scenarios::{T0, assert_error, get, get_f64, get_str, manual_clock, obj};

wasm_bindgen_test_configure!(run_in_browser);

/// A database name no other test (or earlier run) uses.
fn fresh_name(what: &str) -> String {
    format!(
        "azqueue-test-{what}-{}-{}",
        js_sys::Date::now() as u64,
        (js_sys::Math::random() * 1e9) as u64
    )
}

async fn open(name: &str, extra: &[(&str, JsValue)]) -> Result<QueueService, JsValue> {
    let mut pairs = vec![
        ("store", JsValue::from("indexeddb")),
        ("name", name.into()),
        ("now", manual_clock(T0).into()),
        ("anonymous", true.into()),
    ];
    pairs.extend(extra.iter().cloned());
    QueueService::open(Some(obj(&pairs).unchecked_into())).await
}

/// Calls a JS method by name and awaits the Promise it returns.
async fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(target, &method.into())?.dyn_into()?;
    let out = f.apply(target, &args.iter().collect::<Array>())?;
    JsFuture::from(Promise::resolve(&out)).await
}

async fn store_info(service: &QueueService) -> JsValue {
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    let request =
        web_sys::Request::new_with_str_and_init("http://127.0.0.1/_azqueue/store", &init).unwrap();
    let response = service.fetch(request.into()).await.unwrap();
    JsFuture::from(response.json().unwrap()).await.unwrap()
}

fn message_ids(inspection: &JsValue, queue: &str) -> Vec<String> {
    let queues: Array = get(inspection, "accounts.0.queues").dyn_into().unwrap();
    let q = queues
        .iter()
        .find(|q| get_str(q, "name") == queue)
        .unwrap_or_else(|| panic!("queue {queue} is missing"));
    let messages: Array = get(&q, "messages").dyn_into().unwrap();
    messages.iter().map(|m| get_str(&m, "messageId")).collect()
}

#[wasm_bindgen_test]
async fn indexeddb_store_meets_the_contract() {
    let prefix = fresh_name("contract");
    let n = std::cell::Cell::new(0);
    let result = contract::run(|| {
        n.set(n.get() + 1);
        IdbStore::new(&format!("{prefix}-{}", n.get()))
    })
    .await;
    for i in 1..=n.get() {
        let _ = delete_database(&format!("{prefix}-{i}")).await;
    }
    result.unwrap();
}

/// Acknowledged puts come back after closing and reopening; acknowledged deletes stay deleted;
/// the clock reading of the last commit is saved.
#[wasm_bindgen_test]
async fn acknowledged_changes_survive_reopening() {
    let name = fresh_name("reopen");
    let service = open(&name, &[]).await.unwrap();
    assert!(
        service.saved_clock().is_undefined(),
        "a new store has no saved clock"
    );
    let q: JsValue = service
        .create_queue("jobs".into(), None)
        .await
        .unwrap()
        .into();
    let mut ids = Vec::new();
    for i in 0..5 {
        let sent = call(&q, "sendMessage", &[format!("job {i}").into()])
            .await
            .unwrap();
        ids.push(get_str(&sent, "messageId"));
    }
    let got = call(
        &q,
        "receiveMessages",
        &[obj(&[("numberOfMessages", 2.into())])],
    )
    .await
    .unwrap();
    let first = get(&got, "receivedMessageItems.0");
    call(
        &q,
        "deleteMessage",
        &[get(&first, "messageId"), get(&first, "popReceipt")],
    )
    .await
    .unwrap();
    service.close().await.unwrap();

    let reopened = open(&name, &[]).await.unwrap();
    let left = message_ids(&reopened.inspect(None).unwrap(), "jobs");
    // Delivery order: the visible ones by insertion, then the one received (hidden for 30 s).
    let want = vec![
        ids[2].clone(),
        ids[3].clone(),
        ids[4].clone(),
        ids[1].clone(),
    ];
    assert_eq!(left, want, "order and membership after reopening");
    let clock = reopened.saved_clock();
    assert_eq!(
        get(&clock, "now")
            .unchecked_into::<js_sys::Date>()
            .get_time(),
        T0
    );
    // The received-but-not-deleted message kept its dequeue count and invisibility.
    let inspected = reopened.inspect(None).unwrap();
    assert_eq!(
        get_f64(&inspected, "accounts.0.queues.0.messages.3.dequeueCount"),
        1.0
    );
    assert_eq!(
        get_f64(&inspected, "accounts.0.queues.0.messages.0.dequeueCount"),
        0.0
    );
    reopened.close().await.unwrap();
    delete_database(&name).await.unwrap();
}

/// Concurrent operations share store transactions, and each still resolves only when its own
/// changes are durable.
#[wasm_bindgen_test]
async fn concurrent_sends_share_transactions() {
    let name = fresh_name("group");
    let service = open(&name, &[]).await.unwrap();
    let q: JsValue = service
        .create_queue("burst".into(), None)
        .await
        .unwrap()
        .into();
    let before = get_f64(&store_info(&service).await, "transactions");
    let sends: Array = (0..64)
        .map(|i| {
            let f: Function = Reflect::get(&q, &"sendMessage".into())
                .unwrap()
                .unchecked_into();
            f.call1(&q, &format!("m{i}").into()).unwrap()
        })
        .collect();
    JsFuture::from(Promise::all(&sends)).await.unwrap();
    let info = store_info(&service).await;
    let used = get_f64(&info, "transactions") - before;
    assert!(
        (1.0..64.0).contains(&used),
        "64 sends took {used} transactions"
    );
    service.close().await.unwrap();
    let reopened = open(&name, &[]).await.unwrap();
    assert_eq!(
        message_ids(&reopened.inspect(None).unwrap(), "burst").len(),
        64
    );
    reopened.close().await.unwrap();
    delete_database(&name).await.unwrap();
}

/// One writer per database: a second open fails with StoreLocked until the first closes.
#[wasm_bindgen_test]
async fn a_second_writer_is_refused_until_the_first_closes() {
    let name = fresh_name("lock");
    let first = open(&name, &[]).await.unwrap();
    let err = open(&name, &[]).await.unwrap_err();
    assert_error(&err, "StoreLocked", 409);
    assert!(get_str(&err, "message").contains("another tab"));
    first.close().await.unwrap();
    let second = open(&name, &[]).await.unwrap();
    second.close().await.unwrap();
    delete_database(&name).await.unwrap();
}

/// If the database goes away under the service (deleted elsewhere), the next operation fails
/// with InternalError, and so does every one after it: nothing is acknowledged unsaved.
#[wasm_bindgen_test]
async fn a_lost_database_fails_every_later_operation() {
    let name = fresh_name("lost");
    let service = open(&name, &[]).await.unwrap();
    let q: JsValue = service
        .create_queue("lost".into(), None)
        .await
        .unwrap()
        .into();
    delete_database(&name).await.unwrap();
    let err = call(&q, "sendMessage", &["after".into()])
        .await
        .unwrap_err();
    assert_error(&err, "InternalError", 500);
    let err = call(&q, "peekMessages", &[]).await.unwrap_err();
    assert_error(&err, "InternalError", 500);
    let info = store_info(&service).await;
    assert!(get(&info, "failed").as_string().is_some(), "{info:?}");
    let _ = service.close().await;
}

/// Relaxed durability answers before the commit; `flush()` makes it durable.
#[wasm_bindgen_test]
async fn relaxed_durability_flushes_in_the_background() {
    let name = fresh_name("relaxed");
    let service = open(&name, &[("durability", "relaxed".into())])
        .await
        .unwrap();
    assert_eq!(service.durability(), "relaxed");
    let q: JsValue = service
        .create_queue("relaxed".into(), None)
        .await
        .unwrap()
        .into();
    for i in 0..10 {
        call(&q, "sendMessage", &[format!("r{i}").into()])
            .await
            .unwrap();
    }
    service.flush().await.unwrap();
    service.close().await.unwrap();
    let reopened = open(&name, &[]).await.unwrap();
    assert_eq!(
        message_ids(&reopened.inspect(None).unwrap(), "relaxed").len(),
        10
    );
    reopened.close().await.unwrap();
    delete_database(&name).await.unwrap();
}

/// Export → reset → import restores every message exactly, and each step is durable.
#[wasm_bindgen_test]
async fn snapshot_export_reset_import_round_trip() {
    let name = fresh_name("snapshot");
    let service = open(&name, &[]).await.unwrap();
    let q: JsValue = service
        .create_queue("keep".into(), None)
        .await
        .unwrap()
        .into();
    for i in 0..3 {
        call(&q, "sendMessage", &[format!("k{i}").into()])
            .await
            .unwrap();
    }
    let ids = message_ids(&service.inspect(None).unwrap(), "keep");
    let doc = service.export_snapshot().await.unwrap();
    assert!(doc.contains("\"format\":\"azqueue-snapshot\""));
    service.reset().await.unwrap();
    assert_eq!(
        get(&service.inspect(None).unwrap(), "accounts")
            .unchecked_into::<Array>()
            .length(),
        0
    );
    service.close().await.unwrap();

    let reopened = open(&name, &[]).await.unwrap();
    assert_eq!(
        get(&reopened.inspect(None).unwrap(), "accounts")
            .unchecked_into::<Array>()
            .length(),
        0,
        "reset is durable"
    );
    reopened.import_snapshot(doc.clone().into()).await.unwrap();
    reopened.close().await.unwrap();

    let again = open(&name, &[]).await.unwrap();
    assert_eq!(message_ids(&again.inspect(None).unwrap(), "keep"), ids);
    let bad = again
        .import_snapshot("{\"format\":\"other\"}".into())
        .await
        .unwrap_err();
    assert_error(&bad, "InvalidInput", 400);
    again.close().await.unwrap();
    delete_database(&name).await.unwrap();
}

/// 100k messages written through the store reopen, complete and in order, within the per-test
/// timeout (the figure itself is measured by `make bench`).
#[wasm_bindgen_test]
async fn reopens_100k_messages() {
    const N: usize = 100_000;
    let name = fresh_name("100k");
    let t = Timestamp::from_secs(1_700_000_000);
    let queue = QueueName::parse("big").unwrap();
    let t_build = js_sys::Date::now();
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(9)));
    emu.create_queue(t, "devstoreaccount1", &queue, Metadata::default())
        .unwrap();
    for i in 0..N {
        emu.put_message(
            t,
            "devstoreaccount1",
            &queue,
            azqueue::engine::MessageText::new(format!("message {i:06}")).unwrap(),
            VisibilityTimeout::new(0).unwrap(),
            TimeToLive::Never,
        )
        .unwrap();
    }
    // Checked before anything is stored, so a failure below is the store's.
    let built = emu.queue("devstoreaccount1", &queue).unwrap().len();
    assert_eq!(built, N, "messages in the engine before the write");
    let log = |m: String| web_sys::console::log_1(&m.into());
    log(format!(
        "built {N} in {:.0} ms",
        js_sys::Date::now() - t_build
    ));
    {
        let t_write = js_sys::Date::now();
        let store = IdbStore::new(&name);
        store
            .write(ops_of_changes(emu.take_changes()).unwrap())
            .await
            .unwrap();
        store.close_and_wait().await;
        log(format!(
            "wrote {N} in {:.0} ms",
            js_sys::Date::now() - t_write
        ));
    }
    let started = js_sys::Date::now();
    let service = open(&name, &[]).await.unwrap();
    let took = js_sys::Date::now() - started;
    let q: JsValue = service.queue("big").unwrap().into();
    let props = call(&q, "getProperties", &[]).await.unwrap();
    let count = get_f64(&props, "approximateMessagesCount");
    if count != N as f64 {
        // What the database holds, to tell a lost write from a misread one.
        log(format!("reopened {count} of {N}: {}", census(&name).await));
    }
    assert_eq!(count, N as f64);
    let peeked = call(
        &q,
        "peekMessages",
        &[obj(&[("numberOfMessages", 32.into())])],
    )
    .await
    .unwrap();
    assert_eq!(
        get_str(&peeked, "peekedMessageItems.0.messageText"),
        "message 000000"
    );
    assert_eq!(
        get_str(&peeked, "peekedMessageItems.31.messageText"),
        "message 000031"
    );
    // Only logged: a wall-clock bound failed this test on a loaded machine (the debug build in
    // WebKitGTK took 10.4 s with two cores shared). A hang still fails it, by the per-test
    // timeout; the id hash spread that once made it slow has its own test (src/engine/queue.rs).
    web_sys::console::log_1(&format!("reopen of {N} messages: {took:.0} ms").into());
    service.close().await.unwrap();
    delete_database(&name).await.unwrap();
}

/// The log records, message blocks and message lines in blocks of the database `name`.
async fn census(name: &str) -> String {
    let found = read_database(
        name,
        &["log", "segments"],
        "[tx.objectStore('log').count(), tx.objectStore('segments').getAll()]",
    )
    .await;
    let blocks = Array::from(&found[2]);
    let lines: usize = blocks
        .iter()
        .map(|b| b.as_string().unwrap_or_default().lines().count())
        .sum();
    format!(
        "{:?} log records, {} blocks holding {lines} messages",
        found[1].as_f64(),
        blocks.length()
    )
}

/// A database written by a newer build (a higher IndexedDB version) is refused, not misread.
#[wasm_bindgen_test]
async fn a_database_from_a_newer_build_is_refused() {
    let name = fresh_name("newer");
    let factory: web_sys::IdbFactory = Reflect::get(&js_sys::global(), &"indexedDB".into())
        .unwrap()
        .unchecked_into();
    let request = factory.open_with_u32(&name, 99).unwrap();
    let opened = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    JsFuture::from(opened).await.unwrap();
    let db: web_sys::IdbDatabase = request.result().unwrap().unchecked_into();
    db.close();
    let err = open(&name, &[]).await.unwrap_err();
    assert_error(&err, "StoreUnavailable", 503);
    let message = get_str(&err, "message");
    assert!(
        message.contains("schema version 99, newer than 3"),
        "{message}"
    );
    delete_database(&name).await.unwrap();
}

/// The upgrade path: a database written by a schema-1 build (IndexedDB version 1, one record
/// per message, values as JSON objects) opens with every message, is rewritten as version 3
/// (message blocks, schema-2 values, the per-message store emptied), so an older build refuses
/// it, and keeps working from there.
#[wasm_bindgen_test]
async fn a_schema_1_database_is_upgraded_and_keeps_its_messages() {
    let name = fresh_name("v1");
    let t = Timestamp::from_secs(1_700_000_000);
    let queue = QueueName::parse("old").unwrap();
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(3)));
    emu.create_queue(t, "devstoreaccount1", &queue, Metadata::default())
        .unwrap();
    for i in 0..3 {
        emu.put_message(
            t,
            "devstoreaccount1",
            &queue,
            azqueue::engine::MessageText::new(format!("old {i}")).unwrap(),
            VisibilityTimeout::new(0).unwrap(),
            TimeToLive::Never,
        )
        .unwrap();
    }
    let snapshot = emu.snapshot().unwrap();
    let q = &snapshot.accounts[0].queues[0];
    // Schema-1 records, exactly as that build wrote them: array keys, object values.
    let key = |parts: &[&str]| -> JsValue {
        parts
            .iter()
            .map(|p| JsValue::from(*p))
            .collect::<Array>()
            .into()
    };
    let queues = Array::of1(&Array::of2(
        &key(&["devstoreaccount1", "old"]),
        &serde_json::json!({ "account": "devstoreaccount1", "queue": q.queue })
            .to_string()
            .into(),
    ));
    let messages: Array = q
        .messages
        .iter()
        .map(|m| {
            let id = m.id.to_string();
            let value =
                serde_json::json!({ "account": "devstoreaccount1", "queue": "old", "message": m });
            JsValue::from(Array::of2(
                &key(&["devstoreaccount1", "old", &id]),
                &value.to_string().into(),
            ))
        })
        .collect();
    js(
        "name, queues, messages",
        "return new Promise((resolve, reject) => {
           const r = indexedDB.open(name, 1);
           r.onupgradeneeded = () => {
             for (const s of ['queues', 'messages', 'properties', 'meta']) r.result.createObjectStore(s);
           };
           r.onerror = () => reject(r.error);
           r.onsuccess = () => {
             const db = r.result;
             const tx = db.transaction(['queues', 'messages', 'meta'], 'readwrite');
             for (const [k, v] of queues) tx.objectStore('queues').put(v, k);
             for (const [k, v] of messages) tx.objectStore('messages').put(v, k);
             tx.objectStore('meta').put('{\"version\":1}', 'schema');
             tx.oncomplete = () => { db.close(); resolve(); };
             tx.onerror = tx.onabort = () => reject(tx.error);
           };
         });",
        &[name.clone().into(), queues.into(), messages.into()],
    )
    .await;
    let old_ids: Vec<String> = q.messages.iter().map(|m| m.id.to_string()).collect();

    let service = open(&name, &[]).await.unwrap();
    assert_eq!(message_ids(&service.inspect(None).unwrap(), "old"), old_ids);
    let handle: JsValue = service.queue("old").unwrap().into();
    call(&handle, "sendMessage", &["new".into()]).await.unwrap();
    service.close().await.unwrap();

    // IndexedDB version 3, layout schema 3: one block of four values in the schema-2 form (none
    // has an origin), no per-message records.
    let state = read_database(
        &name,
        &["messages", "segments", "meta"],
        "[tx.objectStore('meta').get('schema'), tx.objectStore('messages').count(),
          tx.objectStore('segments').getAll()]",
    )
    .await;
    assert_eq!(state[0].as_f64(), Some(3.0), "IndexedDB version");
    assert_eq!(state[1].as_string().as_deref(), Some("{\"version\":3}"));
    assert_eq!(state[2].as_f64(), Some(0.0), "per-message records left");
    let blocks: Vec<String> = Array::from(&state[3])
        .iter()
        .map(|b| {
            let b = b.as_string().unwrap();
            b.split('\n').map(|line| &line[..1]).collect()
        })
        .collect();
    assert_eq!(blocks, ["[[[["], "blocks and their value forms");

    let again = open(&name, &[]).await.unwrap();
    let ids = message_ids(&again.inspect(None).unwrap(), "old");
    assert_eq!(ids.len(), 4);
    assert_eq!(&ids[..3], &old_ids[..]);
    let handle: JsValue = again.queue("old").unwrap().into();
    let peeked = call(
        &handle,
        "peekMessages",
        &[obj(&[("numberOfMessages", 4.into())])],
    )
    .await
    .unwrap();
    assert_eq!(
        get_str(&peeked, "peekedMessageItems.0.messageText"),
        "old 0"
    );
    assert_eq!(get_str(&peeked, "peekedMessageItems.3.messageText"), "new");
    again.close().await.unwrap();
    delete_database(&name).await.unwrap();
}

/// A version-2 database as a crash of that build leaves it: one record per message (schema-2
/// values) and a write-ahead log not yet folded, holding a delete of a stored message, a put of
/// a new one and a receive (rewrite) of another. It opens as exactly that state, rewritten as
/// version 3 in blocks with the log emptied, and reopens the same.
#[wasm_bindgen_test]
async fn a_version_2_database_with_a_pending_log_is_rewritten_as_blocks() {
    use azqueue::engine::{MessageCount, MessageRecord, MessageText};
    let name = fresh_name("v2");
    let t = Timestamp::from_secs(1_700_000_000);
    let account = "devstoreaccount1";
    let queue = QueueName::parse("old").unwrap();
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(4)));
    emu.create_queue(t, account, &queue, Metadata::default())
        .unwrap();
    let put = |emu: &mut Emulator, text: &str| {
        let text = MessageText::new(text.to_owned()).unwrap();
        let vis = VisibilityTimeout::new(0).unwrap();
        emu.put_message(t, account, &queue, text, vis, TimeToLive::Never)
            .unwrap()
    };
    let stored: Vec<MessageRecord> = (0..3)
        .map(|i| put(&mut emu, &format!("stored {i}")))
        .collect();
    let queue_record = emu.snapshot().unwrap().accounts[0].queues[0].queue.clone();
    // Then, only in the log: delete "stored 0", put "logged", receive "stored 1".
    emu.delete_message(t, account, &queue, &stored[0].id, &stored[0].pop_receipt)
        .unwrap();
    let logged = put(&mut emu, "logged");
    let received = emu
        .get_messages(
            t,
            account,
            &queue,
            MessageCount::new(1).unwrap(),
            VisibilityTimeout::new(60).unwrap(),
        )
        .unwrap()
        .remove(0);
    assert_eq!(received.id, stored[1].id);
    // Schema-2 message values and log lines, exactly as version 2 wrote them.
    let value = |m: &MessageRecord| {
        serde_json::json!([
            account,
            "old",
            m.id,
            m.seq,
            m.text,
            m.insertion_time,
            m.expiration_time,
            m.time_next_visible,
            m.dequeue_count,
            m.pop_receipt
        ])
        .to_string()
    };
    let path = |m: &MessageRecord| format!("message/{account}/old/{}", m.id);
    let messages: Array = stored
        .iter()
        .map(|m| {
            let key = Array::of3(&account.into(), &"old".into(), &m.id.to_string().into());
            JsValue::from(Array::of2(&key, &value(m).into()))
        })
        .collect();
    let log = Array::of2(
        &format!(
            "D{}\nP{}\n{}\n",
            path(&stored[0]),
            path(&logged),
            value(&logged)
        )
        .into(),
        &format!("P{}\n{}\n", path(&received), value(&received)).into(),
    );
    let queue_value = serde_json::json!({ "account": account, "queue": queue_record }).to_string();
    js(
        "name, queueValue, messages, log",
        "return new Promise((resolve, reject) => {
           const r = indexedDB.open(name, 2);
           r.onupgradeneeded = () => {
             for (const s of ['queues', 'messages', 'properties', 'meta', 'log']) r.result.createObjectStore(s);
           };
           r.onerror = () => reject(r.error);
           r.onsuccess = () => {
             const db = r.result;
             const tx = db.transaction(['queues', 'messages', 'meta', 'log'], 'readwrite');
             tx.objectStore('queues').put(queueValue, ['devstoreaccount1', 'old']);
             for (const [k, v] of messages) tx.objectStore('messages').put(v, k);
             tx.objectStore('meta').put('{\"version\":2}', 'schema');
             log.forEach((v, i) => tx.objectStore('log').put(v, i + 1));
             tx.oncomplete = () => { db.close(); resolve(); };
             tx.onerror = tx.onabort = () => reject(tx.error);
           };
         });",
        &[
            name.clone().into(),
            queue_value.into(),
            messages.into(),
            log.into(),
        ],
    )
    .await;

    let want = |snapshot: azqueue::engine::Snapshot| {
        let mut messages = snapshot.accounts[0].queues[0].messages.clone();
        messages.sort_by_key(|m| m.seq);
        messages
    };
    let expected = want(emu.snapshot().unwrap());
    for round in 0..2 {
        let store = IdbStore::new(&name);
        let loaded = store.load().await.unwrap().snapshot;
        assert_eq!(want(loaded), expected, "load {round}");
        store.close_and_wait().await;
    }
    let state = read_database(
        &name,
        &["messages", "segments", "log"],
        "['messages', 'segments', 'log'].map((s) => tx.objectStore(s).count())",
    )
    .await;
    let numbers: Vec<f64> = state.iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(
        numbers,
        [3.0, 0.0, 1.0, 0.0],
        "version, messages, blocks, log records"
    );
    delete_database(&name).await.unwrap();
}

/// The write-ahead log folds and a store closed without folding replays to the engine's state
/// (`idb_wal_sequence`; the same sequence runs under Node in `wasm_node_idb.rs`). Issue 23: this
/// test failed in WebKitGTK with what looked like a corrupt wasm heap; the trace says whether
/// IndexedDB's answers were already wrong.
#[wasm_bindgen_test]
async fn the_log_folds_and_replays_to_the_engine_state() {
    idb_wal_sequence::the_log_folds_and_replays_to_the_engine_state(&fresh_name("wal")).await;
}

/// The same sequence again and again in one page, each time on a new database: many times the
/// work, tier-ups and heap layouts per browser start. Issue 23's stress loop
/// (`scripts/loops/browser-test.sh webkit N wasm_idb the_log_sequence_again_and_again`, which
/// runs ignored tests by name); ignored in `make test`, where one run of the sequence is the
/// test and this would take minutes. Each pass logs its number first, so a failure says after
/// how many passes it came.
#[wasm_bindgen_test]
#[ignore = "issue 23's stress loop, run by name by scripts/loops/browser-test.sh"]
async fn the_log_sequence_again_and_again() {
    for pass in 0..STRESS_PASSES {
        web_sys::console::log_1(&format!("pass {pass}").into());
        idb_wal_sequence::the_log_folds_and_replays_to_the_engine_state(&fresh_name("wal")).await;
    }
}

/// Passes of `the_log_sequence_again_and_again` in one page.
const STRESS_PASSES: usize = 50;

/// `store` loads exactly `want`, an engine's snapshot: messages compared in sequence order,
/// service properties left out (the engine reports defaults nobody stored).
async fn assert_loads_as(store: &IdbStore, mut want: azqueue::engine::Snapshot, what: &str) {
    let mut loaded = store.load().await.unwrap().snapshot;
    for s in [&mut loaded, &mut want] {
        for a in &mut s.accounts {
            a.properties = None;
            for q in &mut a.queues {
                q.messages.sort_by_key(|m| m.seq);
            }
        }
    }
    assert_eq!(loaded, want, "{what}");
}

/// Queue-wide changes reach the blocks when folded: deleting a queue removes exactly its blocks
/// (not those of a queue whose name it prefixes), clearing one empties it, and a queue
/// recreated under a deleted one's name starts from nothing; each checked after a fold and a
/// reopen, against the engine and by counting blocks.
#[wasm_bindgen_test]
async fn folded_queue_deletes_and_clears_remove_exactly_their_blocks() {
    use azqueue::engine::MessageText;
    let name = fresh_name("queue-wide");
    let t = Timestamp::from_secs(1_700_000_000);
    let account = "devstoreaccount1";
    let queues = ["aaa", "aaab", "ccc"].map(|q| QueueName::parse(q).unwrap());
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(8)));
    let put_many = |emu: &mut Emulator, q: &QueueName, n: usize| {
        for i in 0..n {
            let text = MessageText::new(format!("{} {i}", q.as_str())).unwrap();
            let vis = VisibilityTimeout::new(0).unwrap();
            emu.put_message(t, account, q, text, vis, TimeToLive::Never)
                .unwrap();
        }
    };
    for q in &queues {
        emu.create_queue(t, account, q, Metadata::default())
            .unwrap();
        put_many(&mut emu, q, 150); // three blocks each
    }
    let blocks = || async {
        let counts =
            read_database(&name, &["segments"], "[tx.objectStore('segments').count()]").await;
        counts[1].as_f64().unwrap()
    };
    let reopen_and_compare = |emu: &Emulator, what: &'static str| {
        let (store, want) = (IdbStore::new(&name), emu.snapshot().unwrap());
        async move {
            assert_loads_as(&store, want, what).await;
            store.close_and_wait().await;
        }
    };
    let store = IdbStore::new(&name);
    store
        .write(ops_of_changes(emu.take_changes()).unwrap())
        .await
        .unwrap();
    store.close_and_wait().await; // folds
    assert_eq!(blocks().await, 9.0, "three queues of three blocks");
    reopen_and_compare(&emu, "after the first fold").await;

    // Delete "aaa" (its name prefixes "aaab"), clear "ccc", recreate "aaa" with one message.
    emu.delete_queue(t, account, &queues[0]).unwrap();
    emu.clear_messages(t, account, &queues[2]).unwrap();
    emu.create_queue(t, account, &queues[0], Metadata::default())
        .unwrap();
    put_many(&mut emu, &queues[0], 1);
    let store = IdbStore::new(&name);
    store.load().await.unwrap();
    store
        .write(ops_of_changes(emu.take_changes()).unwrap())
        .await
        .unwrap();
    store.close_and_wait().await;
    assert_eq!(
        blocks().await,
        4.0,
        "aaab's three blocks and the new aaa's one"
    );
    reopen_and_compare(&emu, "after deleting, clearing and recreating").await;
    delete_database(&name).await.unwrap();
}
