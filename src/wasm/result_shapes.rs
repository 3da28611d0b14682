//! The two result objects a busy caller makes most — `sendMessage`'s answer and a received
//! message — each built by one call into `result_shapes.js` instead of one call per property
//! and per `Date`.
//!
//! Why: building `{ messageId, popReceipt, insertedOn, expiresOn, nextVisibleOn }` through
//! `JsObject` takes ten wasm→JS calls (the object, five assignments, three `Date`s), and the
//! calls, not the work, were about a fifth of a `sendMessage`. The JS side uses object literals,
//! so a result is a plain object with the same own data properties in the same order as
//! `JsObject` makes for every other answer (`results.rs`). It reads the id, receipt and text
//! straight from the wasm memory, and `sendMessage`'s comes back already in its settled Promise.
//! The file ships beside the glue (wasm-bindgen's snippets), so every host runs the same code
//! and nothing is compiled from text (a page's Content Security Policy has nothing to refuse).

use crate::engine::MessageRecord;
use crate::engine::limits::MAX_MESSAGE_BYTES;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/result_shapes.js")]
extern "C" {
    #[wasm_bindgen(js_name = useMemory)]
    fn use_memory(memory: &JsValue);

    /// The message id followed by the receipt's base64 at `at` in the wasm memory, times in
    /// milliseconds; the answer already settled.
    #[wasm_bindgen(js_name = sentMessage)]
    fn sent_message(
        at: u32,
        len: u32,
        inserted_on: f64,
        expires_on: f64,
        next_visible_on: f64,
    ) -> js_sys::Promise;

    #[wasm_bindgen(js_name = receivedMessage)]
    #[allow(clippy::too_many_arguments)]
    fn received_message(
        at: u32,
        len: u32,
        inserted_on: f64,
        expires_on: f64,
        next_visible_on: f64,
        dequeue_count: u32,
        text_at: u32,
        text_len: u32,
    ) -> JsValue;

    /// `text`'s UTF-8 written at `at`, if it surely fits in `room` bytes: the bytes written,
    /// `-1` when `text` is not a string, or minus the room it would need.
    #[wasm_bindgen(js_name = writeText)]
    fn write_text(text: &JsValue, at: u32, room: u32) -> i32;
}

thread_local! {
    /// Whether `result_shapes.js` has been handed the memory its offsets point into.
    static MEMORY_SHARED: Cell<bool> = const { Cell::new(false) };
    /// Where `writeText` puts a message text, kept from call to call (it grows to the largest
    /// text's worst case, at most three bytes per UTF-16 unit of 64 Ki units).
    static TEXT_ROOM: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn share_memory() {
    MEMORY_SHARED.with(|shared| {
        if !shared.get() {
            use_memory(&wasm_bindgen::memory());
            shared.set(true);
        }
    });
}

fn millis(t: crate::engine::Timestamp) -> f64 {
    t.as_millis() as f64
}

/// `f` applied to where the message's id followed by its receipt's base64 lies in the wasm
/// memory, written on the stack.
fn with_id_and_receipt<R>(m: &MessageRecord, f: impl FnOnce(u32, u32) -> R) -> R {
    const ID: usize = uuid::fmt::Hyphenated::LENGTH;
    let mut id = [0u8; ID];
    let id = m.id.encode(&mut id);
    let mut both = [0u8; ID + 64];
    both[..ID].copy_from_slice(id.as_bytes());
    match m.pop_receipt.encode_base64(&mut both[ID..]) {
        Some(n) => f(address(&both[..]), (ID + n) as u32),
        // A receipt of another length than the engine issues: not met here, still right.
        None => {
            let text = format!("{id}{}", m.pop_receipt);
            f(address(text.as_bytes()), text.len() as u32)
        }
    }
}

/// Where `bytes` start in the wasm memory (an offset: wasm32 addresses are 32 bits).
fn address(bytes: &[u8]) -> u32 {
    bytes.as_ptr() as usize as u32
}

/// `make` given where the message's id and receipt lie in the memory and its three times.
fn build<R>(m: &MessageRecord, make: impl FnOnce(u32, u32, [f64; 3]) -> R) -> R {
    share_memory();
    let times = [
        millis(m.insertion_time),
        millis(m.expiration_time),
        millis(m.time_next_visible),
    ];
    with_id_and_receipt(m, |at, len| make(at, len, times))
}

/// `sendMessage`'s answer, already settled, in one call.
pub(crate) fn sent(m: &MessageRecord) -> js_sys::Promise {
    build(m, |at, len, [inserted, expires, next_visible]| {
        sent_message(at, len, inserted, expires, next_visible)
    })
}

/// One received message in one call.
pub(crate) fn received_item(m: &MessageRecord) -> JsValue {
    build(m, |at, len, [inserted, expires, next_visible]| {
        received_message(
            at,
            len,
            inserted,
            expires,
            next_visible,
            m.dequeue_count,
            address(m.text.as_bytes()),
            m.text.len() as u32,
        )
    })
}

/// What [`text_arg`] found.
pub(crate) enum TextArg<T> {
    /// A string, handed to `take` as UTF-8 (lone surrogates already replaced by U+FFFD, as
    /// every encoder does).
    Text(T),
    NotAString,
}

/// A message text argument, read by one JS call straight into a buffer that stays in the wasm
/// memory, and lent to `take`. Why: wasm-bindgen's own conversion of a `String` argument copies
/// it one UTF-16 unit at a time in a JS loop into a fresh allocation (for 100 characters, about
/// an eighth of a `sendMessage`), which the engine then copied again into the message's shared
/// buffer; `Buffer.write` (or `TextEncoder.encodeInto`) does it natively, and `take` copies it
/// once. Texts too long to be a message at all take the glue's path, for their exact size.
pub(crate) fn text_arg<T>(text: &JsValue, take: impl FnOnce(&str) -> T) -> TextArg<T> {
    share_memory();
    TEXT_ROOM.with(|room| {
        let mut room = room.borrow_mut();
        loop {
            // JS writes here: the address of a pointer that may be written through (a shared
            // slice's, as `address` takes, is one that may only be read through).
            let at = room.as_mut_ptr() as usize as u32;
            let written = write_text(text, at, room.len() as u32);
            let needed = match usize::try_from(written) {
                Ok(n) => match std::str::from_utf8(&room[..n.min(room.len())]) {
                    Ok(utf8) => return TextArg::Text(take(utf8)),
                    // JS writes only UTF-8; should it not, the glue's conversion decides.
                    Err(_) => break,
                },
                Err(_) if written == -1 => return TextArg::NotAString,
                Err(_) => written.unsigned_abs() as usize,
            };
            // Three bytes per UTF-16 unit is the worst case: more units than a message may
            // have bytes is refused below, by its size, whatever the room.
            if needed > 3 * MAX_MESSAGE_BYTES {
                break;
            }
            room.resize(needed.max(1024), 0);
        }
        match text.as_string() {
            Some(s) => TextArg::Text(take(&s)),
            None => TextArg::NotAString,
        }
    })
}
