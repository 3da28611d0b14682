//! The JS faces under Node (`wasm-pack test --node`): bindings, error mapping, fetch handler.
#![cfg(target_arch = "wasm32")]

#[path = "support/wasm_scenarios/mod.rs"]
mod wasm_scenarios;

use wasm_bindgen_test::wasm_bindgen_test;

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
async fn the_same_bad_input_gets_the_same_answer_from_both_faces() {
    wasm_scenarios::parity::the_same_bad_input_gets_the_same_answer_from_both_faces().await;
}

#[wasm_bindgen_test]
async fn indexeddb_store_needs_indexeddb() {
    wasm_scenarios::indexeddb_store_needs_indexeddb().await;
}

#[wasm_bindgen_test]
async fn fetch_handler_round_trip() {
    wasm_scenarios::fetch_handler_round_trip().await;
}

#[wasm_bindgen_test]
async fn fetch_handler_requires_credentials() {
    wasm_scenarios::fetch_handler_requires_credentials().await;
}

#[wasm_bindgen_test]
async fn subscribers_hear_events() {
    wasm_scenarios::subscribers_hear_events().await;
}

#[wasm_bindgen_test]
async fn inspect_shows_invisible_messages() {
    wasm_scenarios::inspect_shows_invisible_messages().await;
}

#[wasm_bindgen_test]
async fn a_seeded_service_stays_deterministic_across_reset_and_import() {
    wasm_scenarios::a_seeded_service_stays_deterministic_across_reset_and_import().await;
}

/// In the wasm, SharedKey lower-cases query names that are not ASCII with the host's
/// `toLowerCase`, as Rust's tables do natively. The module's start installs it; the glue of
/// every package runs that start, a test binary does not, so the test runs it first.
#[wasm_bindgen_test]
fn non_ascii_query_parameter_names_lower_case_as_unicode() {
    use azqueue::engine::Timestamp;
    use azqueue::rest::OAuth;
    use azqueue::rest::auth::{AuthInput, Scheme, Variant, shared_key};
    azqueue::wasm::start();
    let headers = http::HeaderMap::new();
    let input = AuthInput {
        method: "GET",
        path: "/devstoreaccount1/q",
        query: Some("%C3%89COLE=X&%CE%A3=1"),
        headers: &headers,
        account: "devstoreaccount1",
        queue: Some("q"),
        https: false,
        client_ip: None,
        wall: Timestamp::from_secs(1_704_067_200),
        oauth: OAuth::Off,
        endpoint: "",
    };
    let sts = shared_key::string_to_sign(Scheme::SharedKey, &input, Variant::default());
    assert!(sts.ends_with("/devstoreaccount1/q\nécole:X\nσ:1"), "{sts}");
}
