//! `src/wasm/result_shapes.js` reads and writes the wasm memory through a view it caches, and
//! makes a new one only when the cached one reads as detached (issue 23's audit,
//! research/webkit/investigation.md). Growing the memory detaches the old buffer; these calls must then go
//! through a fresh view, never the stale one (which reads as empty, or throws).

use super::{get, get_str, open_service, queue};
use js_sys::Array;
use wasm_bindgen::JsCast;

/// A message sent and received through the cached view, the memory grown behind its back by a
/// `memory.grow` of one page, then another message: its text written by `writeText`, its id,
/// receipt and text read by `sentMessage` and `receivedMessage`, all as sent.
pub async fn a_grown_memory_is_read_through_a_fresh_view() {
    let service = open_service().await;
    let q = queue(&service, "grown").await;
    round_trip(&q, "before the grow").await;
    let pages = core::arch::wasm32::memory_size(0);
    assert_eq!(
        core::arch::wasm32::memory_grow(0, 1),
        pages,
        "the grow failed"
    );
    round_trip(&q, "after the grow: \u{fc}\u{1F600}").await;
}

async fn round_trip(q: &azqueue::wasm::Queue, text: &str) {
    let sent = q.send_message(&text.into(), None).await.unwrap();
    let id = get_str(&sent, "messageId");
    assert_eq!(id.len(), 36, "the sent id {id:?}");
    assert!(!get_str(&sent, "popReceipt").is_empty());
    let got = q.receive_messages(None).await.unwrap();
    let items: Array = get(&got, "receivedMessageItems").dyn_into().unwrap();
    assert_eq!(items.length(), 1, "{text}");
    assert_eq!(get_str(&got, "receivedMessageItems.0.messageId"), id);
    assert_eq!(get_str(&got, "receivedMessageItems.0.messageText"), text);
    let receipt = get_str(&got, "receivedMessageItems.0.popReceipt");
    q.delete_message(id, receipt).await.unwrap();
}
