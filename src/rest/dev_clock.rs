//! `/_azqueue/clock`'s wire format: the reading it answers and the changes a POST may ask for.
//! The clock itself belongs to the host that reads it (`src/wasm/clock.rs`); this is the part
//! every host shares.
//!
//! - `GET` answers `{"now": <epoch ms>, "offsetMs": <ms>, "paused": <bool>}`, where `offsetMs`
//!   is how far `now` is ahead of the wall clock.
//! - `POST` takes a JSON object with any of `setMs` (epoch ms), `advanceMs` (ms, ≥ 0) and
//!   `paused` (bool), applied in that order, and answers the reading after them.

use crate::engine::{ClockChange, NEVER, Timestamp};
use serde::Deserialize;

/// What the clock reads, as the paths answer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    pub now: u64,
    pub offset_ms: i64,
    pub paused: bool,
}

impl ClockReading {
    /// The reading `now` of a clock, taken when the wall clock read `wall`.
    pub fn new(now: Timestamp, wall: Timestamp, paused: bool) -> Self {
        ClockReading {
            now: now.as_millis(),
            offset_ms: (now.as_millis() as i128 - wall.as_millis() as i128) as i64,
            paused,
        }
    }

    /// `{"now":…,"offsetMs":…,"paused":…}`. Written out rather than derived: three numbers
    /// and a flag are not worth a serializer's share of the wasm.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"now\":{},\"offsetMs\":{},\"paused\":{}}}",
            self.now, self.offset_ms, self.paused
        )
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Body {
    set_ms: Option<u64>,
    advance_ms: Option<u64>,
    paused: Option<bool>,
}

const EXPECTED: &str = "the body must be a JSON object with `advanceMs` (milliseconds to move \
    forward, a whole number ≥ 0), `setMs` (the time to read, in milliseconds since the epoch) \
    and/or `paused` (true or false)";

/// The changes a POST body asks for, in the order they apply; `Err` is the 400's reason.
pub fn parse_changes(body: &[u8]) -> Result<Vec<ClockChange>, String> {
    // `from_str`, not `from_slice`: the store's records are read with `from_str`, and a second
    // reader type would put a second copy of serde_json's parser in the wasm.
    let text = std::str::from_utf8(body).map_err(|_| format!("{EXPECTED}: not UTF-8"))?;
    let body: Body = serde_json::from_str(text).map_err(|e| format!("{EXPECTED}: {e}"))?;
    let mut changes = Vec::new();
    if let Some(ms) = body.set_ms {
        if ms > NEVER.as_millis() {
            return Err(format!(
                "`setMs` {ms} is after 9999-12-31T23:59:59Z, the latest time Azure can write"
            ));
        }
        changes.push(ClockChange::Set(Timestamp::from_millis(ms)));
    }
    if let Some(ms) = body.advance_ms {
        changes.push(ClockChange::Advance(ms));
    }
    if let Some(paused) = body.paused {
        changes.push(ClockChange::Pause(paused));
    }
    if changes.is_empty() {
        return Err(format!("{EXPECTED}; this one has none of them"));
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_change_and_their_order() {
        assert_eq!(
            parse_changes(br#"{"advanceMs": 31000}"#),
            Ok(vec![ClockChange::Advance(31_000)])
        );
        assert_eq!(
            parse_changes(br#"{"paused": true, "advanceMs": 5, "setMs": 1704067200000}"#),
            Ok(vec![
                ClockChange::Set(Timestamp::from_secs(1_704_067_200)),
                ClockChange::Advance(5),
                ClockChange::Pause(true),
            ])
        );
    }

    #[test]
    fn bad_bodies_say_what_is_expected() {
        for body in [
            &b""[..],
            b"{}",
            b"[]",
            b"null",
            b"{\"advanceMs\": -1}",
            b"{\"advanceMs\": 1.5}",
            b"{\"advanceMs\": \"31000\"}",
            b"{\"advanceMs\": 1e400}",
            b"{\"paused\": \"yes\"}",
            b"{\"advance\": 1}",
            b"{\"setMs\": 253402300800000}",
            b"\xff\xfe",
        ] {
            let why = parse_changes(body).unwrap_err();
            assert!(
                why.contains("advanceMs") || why.contains("setMs"),
                "{:?}: {why}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn readings_report_the_offset_from_the_wall_clock() {
        let wall = Timestamp::from_secs(1_704_067_200);
        let r = ClockReading::new(Timestamp::from_secs(1_704_067_231), wall, false);
        assert_eq!(r.offset_ms, 31_000);
        let behind = ClockReading::new(Timestamp::from_secs(1_704_067_000), wall, true);
        assert_eq!(behind.offset_ms, -200_000);
        assert_eq!(
            r.to_json(),
            r#"{"now":1704067231000,"offsetMs":31000,"paused":false}"#
        );
    }

    proptest::proptest! {
        /// Whatever a client sends, the body is read or refused with a reason, never a panic;
        /// whatever it asks for, the clock reads a time Azure can write.
        #[test]
        fn any_body_is_read_or_refused_and_any_change_keeps_the_clock_in_range(
            body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..48),
            json in r#"\{("(advanceMs|setMs|paused)": ?(-?[0-9]{1,20}(\.[0-9])?|true|false|null|"x"),? ?){0,3}\}"#,
            base in 0u64..=crate::engine::NEVER.as_millis(),
        ) {
            let _ = parse_changes(&body);
            if let Ok(changes) = parse_changes(json.as_bytes()) {
                let mut adjustment = crate::engine::ClockAdjustment::default();
                for change in changes {
                    adjustment.apply(change, Timestamp::from_millis(base));
                }
                let now = adjustment.now(Timestamp::from_millis(base));
                proptest::prop_assert!(now <= NEVER);
            }
        }
    }
}
