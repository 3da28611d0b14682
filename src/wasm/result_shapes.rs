//! The two result objects a busy caller makes most — `sendMessage`'s answer and a received
//! message — built by one JS call each where the platform lets us compile a small function
//! (Node, Deno, Bun), instead of one call per property and per `Date`.
//!
//! Why: building `{ messageId, popReceipt, insertedOn, expiresOn, nextVisibleOn }` through
//! `JsObject` takes ten wasm→JS calls (the object, five assignments, three `Date`s), and the
//! calls, not the work, were about a fifth of a `sendMessage`. The compiled function is an
//! object literal, so the result is the same plain object with the same own data properties
//! in the same order as `JsObject` makes (the fallback, and what `results.rs` builds for every
//! other answer).
//!
//! Where compiling a function from text is refused or frowned upon — workerd, and browsers,
//! whose Content Security Policy may forbid it and report the attempt — it is not tried: only
//! a host with `process.versions.node` tries, and any failure falls back to `JsObject`.

use crate::engine::MessageRecord;
use std::cell::OnceCell;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `(messageId + popReceipt, insertedOn, expiresOn, nextVisibleOn) => SentMessage`, times
    /// in milliseconds.
    #[wasm_bindgen(extends = js_sys::Function)]
    type SentFn;

    #[wasm_bindgen(method, js_name = call)]
    fn make(
        this: &SentFn,
        receiver: &JsValue,
        id_and_receipt: &str,
        inserted_on: f64,
        expires_on: f64,
        next_visible_on: f64,
    ) -> JsValue;

    /// `(messageId + popReceipt, insertedOn, expiresOn, nextVisibleOn, dequeueCount,
    /// messageText) => ReceivedMessageItem`.
    #[wasm_bindgen(extends = js_sys::Function)]
    type ReceivedFn;

    #[wasm_bindgen(method, js_name = call)]
    #[allow(clippy::too_many_arguments)]
    fn make(
        this: &ReceivedFn,
        receiver: &JsValue,
        id_and_receipt: &str,
        inserted_on: f64,
        expires_on: f64,
        next_visible_on: f64,
        dequeue_count: u32,
        message_text: &str,
    ) -> JsValue;

    /// `new Function(params, body)`, with a refusal (CSP, `--disallow-code-generation-from-strings`)
    /// caught rather than thrown through wasm.
    #[wasm_bindgen(js_name = Function)]
    type CompiledFn;

    #[wasm_bindgen(constructor, js_class = "Function", catch)]
    fn compile(params: &str, body: &str) -> Result<CompiledFn, JsValue>;
}

/// The property names and order are those of `results.rs`'s `JsObject` fallback. The id and
/// the receipt cross as one string (the id is always 36 characters): decoding a string from
/// wasm memory costs about as much as building the rest of the object.
const SENT_BODY: &str = "return { messageId: s.slice(0, 36), popReceipt: s.slice(36), \
     insertedOn: new Date(b), expiresOn: new Date(c), nextVisibleOn: new Date(d) };";
const RECEIVED_BODY: &str = "return { messageId: s.slice(0, 36), insertedOn: new Date(b), \
     expiresOn: new Date(c), popReceipt: s.slice(36), nextVisibleOn: new Date(d), \
     dequeueCount: e, messageText: f };";

struct Shapes {
    sent: SentFn,
    received: ReceivedFn,
}

thread_local! {
    /// Compiled on first use; `None` where compiling is not tried or failed.
    static SHAPES: OnceCell<Option<Shapes>> = const { OnceCell::new() };
}

/// Node (and Deno, Bun, which carry `process` for Node compatibility) has no Content Security
/// Policy; workerd may carry `process` too, but refuses the compile, which is caught.
fn may_compile() -> bool {
    let global = js_sys::global();
    let versions = js_sys::Reflect::get(&global, &"process".into())
        .ok()
        .filter(|p| p.is_object())
        .and_then(|p| js_sys::Reflect::get(&p, &"versions".into()).ok())
        .filter(|v| v.is_object())
        .and_then(|v| js_sys::Reflect::get(&v, &"node".into()).ok());
    versions.is_some_and(|node| node.is_string())
}

fn compiled() -> Option<Shapes> {
    if !may_compile() {
        return None;
    }
    let sent = CompiledFn::compile("s, b, c, d", SENT_BODY).ok()?;
    let received = CompiledFn::compile("s, b, c, d, e, f", RECEIVED_BODY).ok()?;
    Some(Shapes {
        sent: JsValue::from(sent).unchecked_into(),
        received: JsValue::from(received).unchecked_into(),
    })
}

fn with_shapes<R>(f: impl FnOnce(Option<&Shapes>) -> R) -> R {
    SHAPES.with(|cell| f(cell.get_or_init(compiled).as_ref()))
}

fn millis(t: crate::engine::Timestamp) -> f64 {
    t.as_millis() as f64
}

/// `f` applied to the message's id followed by its receipt's base64, written on the stack.
fn with_id_and_receipt<R>(m: &MessageRecord, f: impl FnOnce(&str) -> R) -> R {
    const ID: usize = uuid::fmt::Hyphenated::LENGTH;
    let mut id = [0u8; ID];
    let id = m.id.encode(&mut id);
    let mut both = [0u8; ID + 64];
    both[..ID].copy_from_slice(id.as_bytes());
    match m
        .pop_receipt
        .encode_base64(&mut both[ID..])
        .map(|n| std::str::from_utf8(&both[..ID + n]))
    {
        Some(Ok(text)) => f(text),
        // A receipt of another length than the engine issues: not met here, still right.
        _ => f(&format!("{id}{}", m.pop_receipt)),
    }
}

/// `sendMessage`'s answer in one call, or `None` where the function is not available.
pub(crate) fn sent(m: &MessageRecord) -> Option<JsValue> {
    with_shapes(|shapes| {
        let shapes = shapes?;
        Some(with_id_and_receipt(m, |both| {
            shapes.sent.make(
                &JsValue::UNDEFINED,
                both,
                millis(m.insertion_time),
                millis(m.expiration_time),
                millis(m.time_next_visible),
            )
        }))
    })
}

/// One received message in one call, or `None` where the function is not available.
pub(crate) fn received_item(m: &MessageRecord) -> Option<JsValue> {
    with_shapes(|shapes| {
        let shapes = shapes?;
        Some(with_id_and_receipt(m, |both| {
            shapes.received.make(
                &JsValue::UNDEFINED,
                both,
                millis(m.insertion_time),
                millis(m.expiration_time),
                millis(m.time_next_visible),
                m.dequeue_count,
                &m.text,
            )
        }))
    })
}
