//! The two result objects a busy caller makes most — `sendMessage`'s answer and a received
//! message — built by one JS call each where the platform lets us compile a small function
//! (Node, Deno, Bun), instead of one call per property and per `Date`.
//!
//! Why: building `{ messageId, popReceipt, insertedOn, expiresOn, nextVisibleOn }` through
//! `JsObject` takes ten wasm→JS calls (the object, five assignments, three `Date`s), and the
//! calls, not the work, were about a fifth of a `sendMessage`. The compiled functions use
//! object literals, so a result is the same plain object with the same own data properties in
//! the same order as `JsObject` makes (the fallback, and what `results.rs` builds for every
//! other answer). They read their strings straight from the wasm memory (with `Buffer` where
//! there is one: for short strings it costs half of a `TextDecoder`), and `sendMessage`'s
//! comes back already wrapped in its settled Promise.
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
    /// `(at, len, insertedOn, expiresOn, nextVisibleOn) => Promise<SentMessage>`: the message
    /// id followed by the receipt's base64 at `at` in the wasm memory, times in milliseconds.
    #[wasm_bindgen(extends = js_sys::Function)]
    type SentFn;

    #[wasm_bindgen(method, js_name = call)]
    fn make(
        this: &SentFn,
        receiver: &JsValue,
        at: u32,
        len: u32,
        inserted_on: f64,
        expires_on: f64,
        next_visible_on: f64,
    ) -> js_sys::Promise;

    /// `(at, len, insertedOn, expiresOn, nextVisibleOn, dequeueCount, textAt, textLen) =>
    /// ReceivedMessageItem`.
    #[wasm_bindgen(extends = js_sys::Function)]
    type ReceivedFn;

    #[wasm_bindgen(method, js_name = call)]
    #[allow(clippy::too_many_arguments)]
    fn make(
        this: &ReceivedFn,
        receiver: &JsValue,
        at: u32,
        len: u32,
        inserted_on: f64,
        expires_on: f64,
        next_visible_on: f64,
        dequeue_count: u32,
        text_at: u32,
        text_len: u32,
    ) -> JsValue;

    #[wasm_bindgen(js_name = Function)]
    type CompiledFn;

    /// `new Function(params, body)`, with a refusal (CSP, `--disallow-code-generation-from-strings`)
    /// caught rather than thrown through wasm.
    #[wasm_bindgen(constructor, js_class = "Function", catch)]
    fn compile(params: &str, body: &str) -> Result<CompiledFn, JsValue>;

    #[wasm_bindgen(method, js_name = call, catch)]
    fn call_with_memory(
        this: &CompiledFn,
        receiver: &JsValue,
        memory: &JsValue,
    ) -> Result<JsValue, JsValue>;
}

/// Makes `{ sent, received }` over the wasm `memory`. The property names and order are those
/// of `results.rs`'s `JsObject` fallback. The id and the receipt are one string (the id is
/// always 36 characters), both ASCII; a message text is UTF-8, a byte-order mark kept.
const FACTORY: &str = r#"
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const viaBuffer = typeof Buffer === 'function';
let bytes = new Uint8Array(0);
const view = () => {
  // Growing the memory detaches its buffer, and views of a detached buffer are empty.
  if (bytes.byteLength === 0) {
    bytes = viaBuffer ? Buffer.from(memory.buffer) : new Uint8Array(memory.buffer);
  }
  return bytes;
};
const ascii = viaBuffer
  ? (at, len) => view().toString('latin1', at, at + len)
  : (at, len) => decoder.decode(view().subarray(at, at + len));
const utf8 = viaBuffer
  ? (at, len) => view().toString('utf8', at, at + len)
  : (at, len) => decoder.decode(view().subarray(at, at + len));
return {
  sent(at, len, b, c, d) {
    const s = ascii(at, len);
    return Promise.resolve({
      messageId: s.slice(0, 36),
      popReceipt: s.slice(36),
      insertedOn: new Date(b),
      expiresOn: new Date(c),
      nextVisibleOn: new Date(d),
    });
  },
  received(at, len, b, c, d, e, textAt, textLen) {
    const s = ascii(at, len);
    return {
      messageId: s.slice(0, 36),
      insertedOn: new Date(b),
      expiresOn: new Date(c),
      popReceipt: s.slice(36),
      nextVisibleOn: new Date(d),
      dequeueCount: e,
      messageText: utf8(textAt, textLen),
    };
  },
};
"#;

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
    let factory = CompiledFn::compile("memory", FACTORY).ok()?;
    let made = factory
        .call_with_memory(&JsValue::UNDEFINED, &wasm_bindgen::memory())
        .ok()?;
    let function = |name: &str| {
        js_sys::Reflect::get(&made, &name.into())
            .ok()
            .filter(|f| f.is_function())
    };
    Some(Shapes {
        sent: function("sent")?.unchecked_into(),
        received: function("received")?.unchecked_into(),
    })
}

fn with_shapes<R>(f: impl FnOnce(Option<&Shapes>) -> R) -> R {
    SHAPES.with(|cell| f(cell.get_or_init(compiled).as_ref()))
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

/// `make` given the compiled functions, where the message's id and receipt lie in the memory,
/// and its three times; `None` where the functions are not available.
fn build<R>(m: &MessageRecord, make: impl FnOnce(&Shapes, u32, u32, [f64; 3]) -> R) -> Option<R> {
    with_shapes(|shapes| {
        let shapes = shapes?;
        let times = [
            millis(m.insertion_time),
            millis(m.expiration_time),
            millis(m.time_next_visible),
        ];
        Some(with_id_and_receipt(m, |at, len| {
            make(shapes, at, len, times)
        }))
    })
}

/// `sendMessage`'s answer, already settled, in one call; `None` where the function is not
/// available.
pub(crate) fn sent(m: &MessageRecord) -> Option<js_sys::Promise> {
    build(m, |shapes, at, len, [inserted, expires, next_visible]| {
        shapes.sent.make(
            &JsValue::UNDEFINED,
            at,
            len,
            inserted,
            expires,
            next_visible,
        )
    })
}

/// One received message in one call, or `None` where the function is not available.
pub(crate) fn received_item(m: &MessageRecord) -> Option<JsValue> {
    build(m, |shapes, at, len, [inserted, expires, next_visible]| {
        shapes.received.make(
            &JsValue::UNDEFINED,
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
