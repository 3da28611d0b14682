//! What the AFL++ targets share: the REST oracle of the structured fuzzer (one copy, included
//! from `fuzz/structured/oracle.rs`) and a service to send requests to.

#[path = "../../structured/oracle.rs"]
pub mod oracle;

use azqueue::engine::{Emulator, SeededEntropy, Timestamp};
use azqueue::rest::{Service, ServiceConfig};

/// The fuzzing clock: fixed, so nothing expires between a request and the oracle's look.
pub const NOW: Timestamp = Timestamp::from_millis(1_795_435_200_000);

/// An anonymous development service with one queue holding one message, so requests reach the
/// operations without signatures and meet some state.
pub fn service() -> Service {
    let config = ServiceConfig {
        anonymous: true,
        ..ServiceConfig::dev()
    };
    let emu = Emulator::new(Box::new(SeededEntropy::new(7)));
    let mut service = Service::new(config, emu).with_request_ids(Box::new(SeededEntropy::new(9)));
    for (method, uri, body) in [
        ("PUT", "/devstoreaccount1/q1", ""),
        (
            "POST",
            "/devstoreaccount1/q1/messages",
            "<QueueMessage><MessageText>m</MessageText></QueueMessage>",
        ),
    ] {
        let req = http::Request::builder()
            .method(method)
            .uri(uri)
            .header("host", "127.0.0.1:10001")
            .body(body.as_bytes().to_vec())
            .expect("a valid request");
        service.handle(NOW, &req);
    }
    service.emulator_mut().take_changes();
    service
}
