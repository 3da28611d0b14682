//! The operation sequence that WebKitGTK once failed (issue 23, research/webkit/investigation.md), shared by
//! `wasm_idb.rs` (the browsers' IndexedDB) and `wasm_node_idb.rs` (Node on fake-indexeddb), so
//! the same wasm32 code runs the same puts, receives, deletes, folds and replay on three
//! browsers' databases and on one written in JavaScript.

use crate::idb_js::{js, read_database};
use crate::idb_trace::{
    trace_database, trace_dump, trace_end, trace_hash, trace_note, trace_wrong,
};
use azqueue::engine::{
    Emulator, MessageCount, MessageText, Metadata, QueueName, SeededEntropy, Snapshot, TimeToLive,
    Timestamp, VisibilityTimeout,
};
use azqueue::store::Store;
use azqueue::store::layout::ops_of_changes;
use azqueue::wasm::{IdbStore, delete_database};

/// The write-ahead log folds into the records once it is long enough, and a store closed
/// without folding (as a crash leaves it) loads its records plus the rest of the log as exactly
/// the engine's state: puts, receives (rewrites) and deletes on both sides of a fold. `name` is
/// a database nobody else uses; every IndexedDB answer is checked against what was written
/// (`idb_trace`), so a failure says which side was wrong.
pub async fn the_log_folds_and_replays_to_the_engine_state(name: &str) {
    trace_database(name);
    let t = Timestamp::from_secs(1_700_000_000);
    let queue = QueueName::parse("wal").unwrap();
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(5)));
    let store = IdbStore::new(name);
    emu.create_queue(t, "devstoreaccount1", &queue, Metadata::default())
        .unwrap();
    traced_write(&store, name, &mut emu, "the queue").await;
    let mut commits = 1;
    // About 28 operations a round: three folds, so deletes of messages folded by an earlier fold
    // are folded too.
    for round in 0..250 {
        for i in 0..20 {
            let text = MessageText::new(format!("m {round} {i}")).unwrap();
            let vis = VisibilityTimeout::new(0).unwrap();
            emu.put_message(t, "devstoreaccount1", &queue, text, vis, TimeToLive::Never)
                .unwrap();
        }
        let five = MessageCount::new(5).unwrap();
        let got = emu
            .get_messages(
                t,
                "devstoreaccount1",
                &queue,
                five,
                VisibilityTimeout::new(30).unwrap(),
            )
            .unwrap();
        for m in got.iter().take(3) {
            emu.delete_message(t, "devstoreaccount1", &queue, &m.id, &m.pop_receipt)
                .unwrap();
        }
        traced_write(&store, name, &mut emu, &format!("round {round}")).await;
        commits += 1;
    }
    let counts = read_database(
        name,
        &["log", "segments"],
        "[tx.objectStore('log').count(), tx.objectStore('segments').count()]",
    )
    .await;
    let (log, records) = (counts[1].as_f64().unwrap(), counts[2].as_f64().unwrap());
    assert!(
        records > 0.0 && log > 0.0 && log < commits as f64,
        "expected a fold and a log after it: {log} log records, {records} message blocks"
    );
    drop(store); // closes without folding, as a crash would leave it
    // Its Web Lock is released asynchronously: take it and let it go. (Node has no Web Locks,
    // and the store takes none there.)
    js(
        "name",
        "return globalThis.navigator?.locks?.request('azqueue:' + name, () => {});",
        &[name.into()],
    )
    .await;

    let again = IdbStore::new(name);
    let want = emu.snapshot().unwrap();
    let loaded = match again.load().await {
        Ok(loaded) => loaded.snapshot,
        Err(e) => {
            trace_dump(name, true);
            panic!(
                "the reopened store did not load: {e}; {:?}",
                trace_wrong(name)
            );
        }
    };
    let (wrong, reads) = trace_wrong(name);
    if wrong > 0 || sorted_snapshot(loaded.clone()) != sorted_snapshot(want.clone()) {
        trace_dump(name, true);
        print_first_difference(&sorted_snapshot(loaded), &sorted_snapshot(want));
        panic!("records plus the log: {wrong} of {reads} IndexedDB answers were wrong");
    }
    trace_end(name);
    again.close_and_wait().await;
    delete_database(name).await.unwrap();
}

/// Commits the engine's outbox to `store` as the group commit does, noting what wasm encoded
/// (the log value the commit writes unless it folds) among the trace's events; on failure,
/// prints the records the database should hold.
async fn traced_write(store: &IdbStore, name: &str, emu: &mut Emulator, what: &str) {
    let ops = ops_of_changes(emu.take_changes()).unwrap();
    let value = azqueue::store::wal::encode(&ops);
    trace_note(&format!(
        "{what}: wasm encoded {} ops, as a log value {}",
        ops.len(),
        trace_hash(&value)
    ));
    if let Err(e) = store.write(ops).await {
        trace_dump(name, true);
        panic!("{what}: the write failed: {e}; {:?}", trace_wrong(name));
    }
}

/// A snapshot with messages in sequence order and no service properties (the engine reports
/// defaults nobody stored).
fn sorted_snapshot(mut s: Snapshot) -> Snapshot {
    for a in &mut s.accounts {
        a.properties = None;
        for q in &mut a.queues {
            q.messages.sort_by_key(|m| m.seq);
        }
    }
    s
}

/// The first message (or queue) where `loaded` differs from `want`, both printed.
fn print_first_difference(loaded: &Snapshot, want: &Snapshot) {
    for (la, wa) in loaded.accounts.iter().zip(&want.accounts) {
        for (lq, wq) in la.queues.iter().zip(&wa.queues) {
            web_sys::console::error_1(
                &format!(
                    "queue {}: {} messages loaded, {} in the engine",
                    wq.queue.name.as_str(),
                    lq.messages.len(),
                    wq.messages.len()
                )
                .into(),
            );
            if let Some((l, w)) = lq.messages.iter().zip(&wq.messages).find(|(l, w)| l != w) {
                web_sys::console::error_1(&format!("loaded {l:?}\nwanted {w:?}").into());
            }
        }
    }
}
