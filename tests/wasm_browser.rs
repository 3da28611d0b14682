//! The same JS faces in headless Chromium (`wasm-pack test --headless --chrome`): the browser's
//! own `Request`/`Response`, `Date` and crypto must behave as Node's do.
#![cfg(target_arch = "wasm32")]

#[path = "support/wasm_scenarios/mod.rs"]
mod wasm_scenarios;

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn message_lifecycle() {
    wasm_scenarios::message_lifecycle().await;
}

#[wasm_bindgen_test]
async fn a_grown_memory_is_read_through_a_fresh_view() {
    wasm_scenarios::grown_memory::a_grown_memory_is_read_through_a_fresh_view().await;
}

#[wasm_bindgen_test]
async fn option_errors_match_rest() {
    wasm_scenarios::option_errors_match_rest().await;
}

#[wasm_bindgen_test]
async fn fetch_handler_round_trip() {
    wasm_scenarios::fetch_handler_round_trip().await;
}

#[wasm_bindgen_test]
async fn subscribers_hear_events() {
    wasm_scenarios::subscribers_hear_events().await;
}

/// Without a `seed`, ids and receipts come from the browser's crypto (getrandom's wasm_js
/// backend): two services must not produce the same message id.
#[wasm_bindgen_test]
async fn ids_come_from_browser_crypto() {
    let a = azqueue::wasm::QueueService::open(None).await.unwrap();
    let b = azqueue::wasm::QueueService::open(None).await.unwrap();
    let qa = a.create_queue("queue1".into(), None).await.unwrap();
    let qb = b.create_queue("queue1".into(), None).await.unwrap();
    let ma = qa.send_message(&"x".into(), None).await.unwrap();
    let mb = qb.send_message(&"x".into(), None).await.unwrap();
    assert_ne!(
        wasm_scenarios::get_str(&ma, "messageId"),
        wasm_scenarios::get_str(&mb, "messageId")
    );
}

/// The browser's WebAssembly engine keeps a float that is live across a hot loop while the loop
/// moves to a faster tier (loop OSR entry). WebKitGTK 2.50's JavaScriptCore loads such a value
/// as the integer its bits spell (WebKit bug 301435, fixed upstream in 302112@main): every
/// function of azqueue that is first run with a long loop and a float held across it computes
/// with garbage. `make test` runs WebKit's wasm in the baseline JIT only (`JSC_useWasmIPInt=0
/// JSC_useWasmLLInt=0`, scripts/test-webkit.sh): no loop leaves an interpreter there (the
/// baseline JIT's own move to the optimizing one keeps the float), and this fails without that
/// setting; the module is the smallest that shows it: `f64` on the operand stack of a loop that
/// counts to `n`, returned as it came in.
#[wasm_bindgen_test]
fn a_float_held_across_a_hot_loop_survives_tier_up() {
    use js_sys::{Function, Reflect, Uint8Array, WebAssembly};
    const MODULE: [u8; 58] = [
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x0c, 0x02, 0x60, 0x02, 0x7f, 0x7c,
        0x01, 0x7c, 0x60, 0x01, 0x7c, 0x01, 0x7c, 0x03, 0x02, 0x01, 0x00, 0x07, 0x05, 0x01, 0x01,
        0x73, 0x00, 0x00, 0x0a, 0x17, 0x01, 0x15, 0x01, 0x01, 0x7f, 0x20, 0x01, 0x03, 0x01, 0x20,
        0x02, 0x41, 0x01, 0x6a, 0x22, 0x02, 0x20, 0x00, 0x49, 0x0d, 0x00, 0x0b, 0x0b,
    ];
    for round in 0..3 {
        // A new module each round: only a function's first long run enters its loop mid-way.
        let module = WebAssembly::Module::new(&Uint8Array::from(&MODULE[..])).unwrap();
        let instance = WebAssembly::Instance::new(&module, &js_sys::Object::new()).unwrap();
        let exports = Reflect::get(&instance, &"exports".into()).unwrap();
        let f: Function = Reflect::get(&exports, &"s".into())
            .unwrap()
            .unchecked_into();
        let x = 1_795_444_014_333.5 + round as f64;
        let got = f
            .call2(&JsValue::NULL, &5_000_000.into(), &x.into())
            .unwrap();
        assert_eq!(
            got.as_f64(),
            Some(x),
            "round {round}: the loop changed the float"
        );
    }
}
