//! The fault rule parser on raw bodies: a refused body changes nothing, an accepted one
//! answers its ids and leaves a set whose `GET` is JSON; never a panic.

use azqueue::rest::faults::Faults;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let mut faults = Faults::default();
        let before = faults.to_json();
        match faults.post(data) {
            Err(_) => assert!(faults.to_json() == before, "a refused body changed the set"),
            Ok(answer) => {
                serde_json::from_str::<serde_json::Value>(&answer).expect("the ids are JSON");
                serde_json::from_str::<serde_json::Value>(&faults.to_json())
                    .expect("GET is JSON");
            }
        }
    });
}
