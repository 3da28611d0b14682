//! The CPU half of `tests/support/idb_wal_sequence.rs` (issue 23, research/webkit/investigation.md)
//! as a bare wasm module: the same engine operations, record operations, write-ahead-log values
//! (`wal::encode`, then `wal::decode` as a reopen reads them) and record values
//! (`key_value::apply`, then decoded as a load does), all in wasm memory, no IndexedDB, no
//! JavaScript glue. `run(seed)` returns 0 when the records decode to exactly the engine's state,
//! else the length of a message written at `message()`; a panic traps (`unreachable`).

use azqueue::engine::{
    Emulator, MessageCount, MessageText, Metadata, QueueName, SeededEntropy, Snapshot, TimeToLive,
    Timestamp, VisibilityTimeout,
};
use azqueue::store::key_value;
use azqueue::store::layout::{RecordOp, ops_of_changes};
use azqueue::store::wal;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Mutex;

thread_local! {
    static MESSAGE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Where the last failure's message is (its length is what `run` returned).
#[unsafe(no_mangle)]
pub extern "C" fn message() -> *const u8 {
    MESSAGE.with(|m| m.borrow().as_ptr())
}

/// A panic's message and place, kept by the hook `run` sets: the module is built with
/// `panic = "abort"`, so JavaScript sees only a trap, and reads this after it.
static PANIC: Mutex<String> = Mutex::new(String::new());

/// Where the last panic's message is; its length is [`panic_message_len`].
#[unsafe(no_mangle)]
pub extern "C" fn panic_message() -> *const u8 {
    PANIC.try_lock().map_or(std::ptr::null(), |m| m.as_ptr())
}

/// The length of the last panic's message (0 if none).
#[unsafe(no_mangle)]
pub extern "C" fn panic_message_len() -> u32 {
    PANIC.try_lock().map_or(0, |m| m.len() as u32)
}

/// One pass of the sequence with `seed`'s entropy; 0 if it loaded back exactly.
#[unsafe(no_mangle)]
pub extern "C" fn run(seed: u32) -> u32 {
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut m) = PANIC.try_lock() {
            *m = info.to_string();
        }
    }));
    match sequence(u64::from(seed)) {
        Ok(()) => 0,
        Err(e) => MESSAGE.with(|m| {
            *m.borrow_mut() = e;
            m.borrow().len() as u32
        }),
    }
}

fn sequence(seed: u64) -> Result<(), String> {
    let account = "devstoreaccount1";
    let t = Timestamp::from_secs(1_700_000_000);
    let queue = QueueName::parse("wal").unwrap();
    let mut emu = Emulator::new(Box::new(SeededEntropy::new(seed)));
    let mut records = BTreeMap::new();
    emu.create_queue(t, account, &queue, Metadata::default())
        .unwrap();
    commit(&mut emu, &mut records, "the queue")?;
    for round in 0..250 {
        for i in 0..20 {
            let text = MessageText::new(format!("m {round} {i}")).unwrap();
            let vis = VisibilityTimeout::new(0).unwrap();
            emu.put_message(t, account, &queue, text, vis, TimeToLive::Never)
                .unwrap();
        }
        let five = MessageCount::new(5).unwrap();
        let got = emu
            .get_messages(
                t,
                account,
                &queue,
                five,
                VisibilityTimeout::new(30).unwrap(),
            )
            .unwrap();
        for m in got.iter().take(3) {
            emu.delete_message(t, account, &queue, &m.id, &m.pop_receipt)
                .unwrap();
        }
        commit(&mut emu, &mut records, &format!("round {round}"))?;
    }
    let loaded = key_value::decode(&records)
        .map_err(|e| format!("the records did not decode: {e}"))?
        .finish()
        .snapshot;
    let want = emu.snapshot().map_err(|e| format!("snapshot: {e}"))?;
    let (loaded, want) = (sorted(loaded), sorted(want));
    if loaded != want {
        return Err(format!(
            "the records decode to another state than the engine's: {}",
            first_difference(&format!("{loaded:?}"), &format!("{want:?}"))
        ));
    }
    Ok(())
}

/// The engine's changes as record operations, through a log value and back (as a commit writes
/// it and a reopen reads it), then applied to the records.
fn commit(
    emu: &mut Emulator,
    records: &mut BTreeMap<String, String>,
    what: &str,
) -> Result<(), String> {
    let ops = ops_of_changes(emu.take_changes()).map_err(|e| format!("{what}: {e}"))?;
    let value = wal::encode(&ops);
    let mut back: Vec<RecordOp> = Vec::new();
    wal::decode(&value, &mut back).map_err(|e| format!("{what}: the log value: {e}"))?;
    if back != ops {
        return Err(format!("{what}: the log value decodes to other operations"));
    }
    key_value::apply(records, back);
    Ok(())
}

/// Where two descriptions part: the offset and a stretch of each around it, so a wrong state
/// says which field of which message came out wrong. ASCII only: `run.js` makes a character of
/// each byte.
fn first_difference(loaded: &str, want: &str) -> String {
    let at = loaded
        .bytes()
        .zip(want.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(loaded.len().min(want.len()));
    let around = |s: &str| {
        let from = s.floor_char_boundary(at.saturating_sub(300));
        let to = s.ceil_char_boundary((at + 200).min(s.len()));
        s[from..to].to_string()
    };
    format!(
        "at byte {at} of {} (loaded) and {} (engine)\n loaded: ...{}...\n engine: ...{}...",
        loaded.len(),
        want.len(),
        around(loaded),
        around(want)
    )
}

fn sorted(mut s: Snapshot) -> Snapshot {
    for a in &mut s.accounts {
        a.properties = None;
        for q in &mut a.queues {
            q.messages.sort_by_key(|m| m.seq);
        }
    }
    s
}
