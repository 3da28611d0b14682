//! The store contract, as one suite every backend of the [`Store`] seam runs (natively on
//! [`KeyValueStore`](super::KeyValueStore), in Chromium on IndexedDB, in Node on the journal
//! through `checkStorageAdapter`): what is written comes back from `load`, exactly.
//!
//! Each check builds state through a real [`Emulator`], commits its outbox, reloads, and
//! compares the rebuilt engine with the original — so the suite tests what users rely on,
//! not a backend's internals.

use super::Store;
use super::layout::{self, Pending};
use crate::engine::{
    CorsRule, Emulator, MessageCount, MessageText, Metadata, QueueName, SeededEntropy,
    ServicePropertiesUpdate, Snapshot, TimeToLive, Timestamp, VisibilityTimeout,
};

const ACCOUNT: &str = "devstoreaccount1";

fn name(s: &str) -> QueueName {
    QueueName::parse(s).expect("contract queue names are valid")
}

fn text(s: &str) -> MessageText {
    MessageText::new(s).expect("contract texts are small")
}

fn vis(s: i64) -> VisibilityTimeout {
    VisibilityTimeout::new(s).expect("contract visibilities are in range")
}

/// Sorts a snapshot so two equal states compare equal whatever order a backend returns.
fn normalized(mut s: Snapshot) -> Snapshot {
    s.accounts.sort_by(|a, b| a.name.cmp(&b.name));
    for a in &mut s.accounts {
        a.queues.sort_by(|x, y| x.queue.name.cmp(&y.queue.name));
        for q in &mut a.queues {
            q.messages.sort_by_key(|m| m.seq);
        }
    }
    s
}

/// Writes `items` as one batch, as the group commit does.
async fn write<S: Store>(store: &S, items: Vec<Pending>) -> Result<(), String> {
    let ops = layout::ops(items).map_err(|e| e.to_string())?;
    store.write(ops).await.map_err(|e| e.to_string())
}

async fn commit_all<S: Store>(store: &S, emu: &mut Emulator) -> Result<(), String> {
    let changes = emu.take_changes().into_iter().map(Pending::Change);
    write(store, changes.collect()).await
}

async fn load<S: Store>(store: &S) -> Result<Snapshot, String> {
    Ok(store.load().await.map_err(|e| e.to_string())?.snapshot)
}

async fn expect_same<S: Store>(store: &S, emu: &Emulator, what: &str) -> Result<(), String> {
    let loaded = normalized(load(store).await?);
    let rebuilt = Emulator::from_snapshot(loaded.clone(), Box::new(SeededEntropy::new(0)));
    let snapshot = |e: &Emulator| e.snapshot().map_err(|e| e.to_string());
    if normalized(snapshot(&rebuilt)?) != normalized(snapshot(emu)?) {
        return Err(format!(
            "{what}: the reloaded state differs from the engine's"
        ));
    }
    Ok(())
}

/// Runs every check against fresh stores from `make`. Returns the first failure.
pub async fn run<S: Store>(make: impl Fn() -> S) -> Result<(), String> {
    empty_store_loads_empty(&make()).await?;
    messages_and_queues_survive_reload(&make()).await?;
    dequeue_and_update_rewrite_records(&make()).await?;
    deleting_a_queue_removes_only_its_messages(&make()).await?;
    clear_and_properties_survive_reload(&make()).await?;
    order_and_sequence_continue_after_reload(&make()).await?;
    a_replacement_leaves_only_the_new_state(&make()).await?;
    Ok(())
}

async fn empty_store_loads_empty<S: Store>(store: &S) -> Result<(), String> {
    let s = load(store).await?;
    if s.accounts.iter().any(|a| !a.queues.is_empty()) {
        return Err("a new store is not empty".into());
    }
    Ok(())
}

async fn messages_and_queues_survive_reload<S: Store>(store: &S) -> Result<(), String> {
    let t = Timestamp::from_secs(1_700_000_000);
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(1)));
    let meta = Metadata::from_pairs([("team", "web")]).map_err(|e| format!("{e:?}"))?;
    emu.create_queue(t, ACCOUNT, &name("orders"), meta)
        .map_err(|e| e.to_string())?;
    for i in 0..5 {
        emu.put_message(
            t,
            ACCOUNT,
            &name("orders"),
            text(&format!("m{i} <&>")),
            vis(i),
            TimeToLive::default(),
        )
        .map_err(|e| e.to_string())?;
    }
    emu.put_message(
        t,
        ACCOUNT,
        &name("orders"),
        text("forever"),
        vis(0),
        TimeToLive::Never,
    )
    .map_err(|e| e.to_string())?;
    commit_all(store, &mut emu).await?;
    expect_same(store, &emu, "put").await
}

async fn dequeue_and_update_rewrite_records<S: Store>(store: &S) -> Result<(), String> {
    let t = Timestamp::from_secs(1_700_000_000);
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(2)));
    let q = name("work");
    emu.create_queue(t, ACCOUNT, &q, Metadata::default())
        .map_err(|e| e.to_string())?;
    for i in 0..3 {
        emu.put_message(
            t,
            ACCOUNT,
            &q,
            text(&format!("job {i}")),
            vis(0),
            TimeToLive::default(),
        )
        .map_err(|e| e.to_string())?;
    }
    let got = emu
        .get_messages(
            t,
            ACCOUNT,
            &q,
            MessageCount::new(2).map_err(|e| format!("{e:?}"))?,
            vis(30),
        )
        .map_err(|e| e.to_string())?;
    let first = got.first().ok_or("no message dequeued")?;
    emu.update_message(
        t,
        ACCOUNT,
        &q,
        &first.id,
        &first.pop_receipt,
        Some(text("50%")),
        vis(60),
    )
    .map_err(|e| e.to_string())?;
    let second = got.get(1).ok_or("only one message dequeued")?;
    emu.delete_message(t, ACCOUNT, &q, &second.id, &second.pop_receipt)
        .map_err(|e| e.to_string())?;
    commit_all(store, &mut emu).await?;
    expect_same(store, &emu, "get/update/delete").await
}

async fn deleting_a_queue_removes_only_its_messages<S: Store>(store: &S) -> Result<(), String> {
    let t = Timestamp::from_secs(1_700_000_000);
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(3)));
    // Names chosen so one is a prefix of the other: a sloppy prefix delete would take both.
    for qn in ["aaa", "aaab"] {
        emu.create_queue(t, ACCOUNT, &name(qn), Metadata::default())
            .map_err(|e| e.to_string())?;
        emu.put_message(
            t,
            ACCOUNT,
            &name(qn),
            text(qn),
            vis(0),
            TimeToLive::default(),
        )
        .map_err(|e| e.to_string())?;
    }
    commit_all(store, &mut emu).await?;
    emu.delete_queue(t, ACCOUNT, &name("aaa"))
        .map_err(|e| e.to_string())?;
    commit_all(store, &mut emu).await?;
    expect_same(store, &emu, "delete queue").await
}

async fn clear_and_properties_survive_reload<S: Store>(store: &S) -> Result<(), String> {
    let t = Timestamp::from_secs(1_700_000_000);
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(4)));
    let q = name("cleared");
    emu.create_queue(t, ACCOUNT, &q, Metadata::default())
        .map_err(|e| e.to_string())?;
    emu.put_message(t, ACCOUNT, &q, text("x"), vis(0), TimeToLive::default())
        .map_err(|e| e.to_string())?;
    commit_all(store, &mut emu).await?;
    emu.clear_messages(t, ACCOUNT, &q)
        .map_err(|e| e.to_string())?;
    emu.set_service_properties(
        ACCOUNT,
        ServicePropertiesUpdate {
            cors: Some(vec![CorsRule {
                allowed_origins: "*".into(),
                allowed_methods: "GET".into(),
                ..CorsRule::default()
            }]),
            ..ServicePropertiesUpdate::default()
        },
    );
    commit_all(store, &mut emu).await?;
    expect_same(store, &emu, "clear + properties").await?;
    let rebuilt = Emulator::from_snapshot(load(store).await?, Box::new(SeededEntropy::new(0)));
    if rebuilt.service_properties(ACCOUNT).cors.len() != 1 {
        return Err("CORS rules were not restored".into());
    }
    Ok(())
}

async fn order_and_sequence_continue_after_reload<S: Store>(store: &S) -> Result<(), String> {
    let t = Timestamp::from_secs(1_700_000_000);
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(5)));
    let q = name("ordered");
    emu.create_queue(t, ACCOUNT, &q, Metadata::default())
        .map_err(|e| e.to_string())?;
    for i in 0..10 {
        emu.put_message(
            t,
            ACCOUNT,
            &q,
            text(&i.to_string()),
            vis(0),
            TimeToLive::default(),
        )
        .map_err(|e| e.to_string())?;
    }
    commit_all(store, &mut emu).await?;
    let mut rebuilt = Emulator::from_snapshot(load(store).await?, Box::new(SeededEntropy::new(6)));
    rebuilt
        .put_message(t, ACCOUNT, &q, text("10"), vis(0), TimeToLive::default())
        .map_err(|e| e.to_string())?;
    let all = rebuilt
        .peek_messages(
            t,
            ACCOUNT,
            &q,
            MessageCount::new(32).map_err(|e| format!("{e:?}"))?,
        )
        .map_err(|e| e.to_string())?;
    let texts: Vec<String> = all.iter().map(|m| m.text.to_string()).collect();
    let want: Vec<String> = (0..=10).map(|i| i.to_string()).collect();
    if texts != want {
        return Err(format!("order after reload: got {texts:?}"));
    }
    Ok(())
}

/// Import and reset: a replacement removes every queue, message and property that was stored
/// and leaves exactly the new state, in one batch.
async fn a_replacement_leaves_only_the_new_state<S: Store>(store: &S) -> Result<(), String> {
    let t = Timestamp::from_secs(1_700_000_000);
    let mut old = Emulator::new(Box::new(SeededEntropy::new(7)));
    let mut new = Emulator::new(Box::new(SeededEntropy::new(8)));
    for (emu, queue) in [(&mut old, "before"), (&mut new, "after")] {
        emu.create_queue(t, ACCOUNT, &name(queue), Metadata::default())
            .map_err(|e| e.to_string())?;
        emu.put_message(
            t,
            ACCOUNT,
            &name(queue),
            text(queue),
            vis(0),
            TimeToLive::Never,
        )
        .map_err(|e| e.to_string())?;
    }
    commit_all(store, &mut old).await?;
    write(
        store,
        vec![Pending::Replace(new.snapshot().map_err(|e| e.to_string())?)],
    )
    .await?;
    expect_same(store, &new, "replace").await?;
    write(store, vec![Pending::Replace(Snapshot::default())]).await?;
    if !load(store)
        .await?
        .accounts
        .iter()
        .all(|a| a.queues.is_empty())
    {
        return Err("a reset left queues behind".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_value_store_meets_the_contract() {
        pollster::block_on(super::run(crate::store::KeyValueStore::new)).unwrap();
    }
}
