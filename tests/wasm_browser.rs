//! The same JS faces in headless Chromium (`wasm-pack test --headless --chrome`): the browser's
//! own `Request`/`Response`, `Date` and crypto must behave as Node's do.
#![cfg(target_arch = "wasm32")]

mod wasm_scenarios;

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn message_lifecycle() {
    wasm_scenarios::message_lifecycle().await;
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
    let ma = qa.send_message("x".into(), None).await.unwrap();
    let mb = qb.send_message("x".into(), None).await.unwrap();
    assert_ne!(
        wasm_scenarios::get_str(&ma, "messageId"),
        wasm_scenarios::get_str(&mb, "messageId")
    );
}
