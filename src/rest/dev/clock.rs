//! `/_azqueue/clock`'s wire format: the reading it answers and the changes a POST may ask for.
//! The clock itself belongs to the host that reads it (`src/wasm/clock.rs`); this is the part
//! every host shares.
//!
//! - `GET` answers `{"now": <epoch ms>, "offsetMs": <ms>, "paused": <bool>}`, where `offsetMs`
//!   is how far `now` is ahead of the wall clock.
//! - `POST` takes a JSON object with any of `setMs` (epoch ms), `advanceMs` (ms, ≥ 0) and
//!   `paused` (bool), applied in that order, and answers the reading after them.

#[cfg(feature = "server-clock")]
use super::host::HostWork;
use super::path::{DevPath, Unrouted};
use crate::engine::Timestamp;
#[cfg(feature = "server-clock")]
use crate::engine::{ClockChange, NEVER};

/// What a request to `/_azqueue/clock` asks for. Without the `server-clock` feature (pkg/web
/// and pkg/edge) there is no clock here to read or move, and both methods say where there is.
pub fn read(method: &str, body: &[u8]) -> Result<DevPath, Unrouted> {
    #[cfg(feature = "server-clock")]
    match method {
        "GET" => Ok(DevPath::Host(HostWork::Clock)),
        "POST" => parse_changes(body)
            .map(|changes| DevPath::Host(HostWork::SetClock(changes)))
            .map_err(Unrouted::bad),
        _ => Err(Unrouted::Method),
    }
    #[cfg(not(feature = "server-clock"))]
    match method {
        "GET" | "POST" => {
            let _ = body;
            let why = "this build has no server clock (the Node server's has); in a page or \
                       a worker, pass `now` to QueueService.open()";
            Err(Unrouted::Refused(501, why.to_owned()))
        }
        _ => Err(Unrouted::Method),
    }
}

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

#[cfg(feature = "server-clock")]
const EXPECTED: &str = "the body must be a JSON object with `advanceMs` (milliseconds to move \
    forward, a whole number, 0 or more), `setMs` (the time to read, in milliseconds since the \
    epoch) and/or `paused` (true or false)";

/// The changes a POST body asks for, in the order they apply; `Err` is the 400's reason, a
/// sentence that names the setting and what it takes (never the JSON reader's own words, which
/// speak of Rust types and columns).
#[cfg(feature = "server-clock")]
pub fn parse_changes(body: &[u8]) -> Result<Vec<ClockChange>, String> {
    // A `Value` read rather than a typed struct: each field's error is then ours to word. Only
    // the server-clock builds (not pkg/web or pkg/edge, which have size ceilings) carry it.
    let value = std::str::from_utf8(body)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok());
    let Some(serde_json::Value::Object(fields)) = value else {
        return Err(format!("{EXPECTED}; this body is not a JSON object"));
    };
    let (mut set, mut advance, mut paused) = (None, None, None);
    for (name, value) in &fields {
        match name.as_str() {
            "setMs" => {
                let ms = value.as_u64().ok_or_else(|| {
                    format!(
                        "`setMs` must be a time in milliseconds since the epoch (a whole \
                         number, 0 or more), not {value}"
                    )
                })?;
                if ms > NEVER.as_millis() {
                    return Err(format!(
                        "`setMs` {ms} is after 9999-12-31T23:59:59Z, the latest time Azure can \
                         write"
                    ));
                }
                set = Some(Timestamp::from_millis(ms));
            }
            "advanceMs" => {
                advance = Some(value.as_u64().ok_or_else(|| {
                    format!(
                        "`advanceMs` must be a whole number of milliseconds, 0 or more, not {value}"
                    )
                })?);
            }
            "paused" => {
                paused = Some(
                    value
                        .as_bool()
                        .ok_or_else(|| format!("`paused` must be true or false, not {value}"))?,
                );
            }
            other => return Err(format!("`{other}` is not a clock setting: {EXPECTED}")),
        }
    }
    let changes: Vec<ClockChange> = [
        set.map(ClockChange::Set),
        advance.map(ClockChange::Advance),
        paused.map(ClockChange::Pause),
    ]
    .into_iter()
    .flatten()
    .collect();
    if changes.is_empty() {
        return Err(format!("{EXPECTED}; this one has none of them"));
    }
    Ok(changes)
}

#[cfg(all(test, feature = "server-clock"))]
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
                ["advanceMs", "setMs", "paused"]
                    .iter()
                    .any(|name| why.contains(name)),
                "{:?}: {why}",
                String::from_utf8_lossy(body)
            );
        }
    }

    /// The words a user meets: the setting's name, what it takes and what was sent, nothing of
    /// Rust's types or the reader's line and column.
    #[test]
    fn refusals_are_plain_sentences() {
        assert_eq!(
            parse_changes(br#"{"advanceMs": -5}"#).unwrap_err(),
            "`advanceMs` must be a whole number of milliseconds, 0 or more, not -5"
        );
        assert_eq!(
            parse_changes(br#"{"advanceMs": 1.5}"#).unwrap_err(),
            "`advanceMs` must be a whole number of milliseconds, 0 or more, not 1.5"
        );
        assert_eq!(
            parse_changes(br#"{"paused": "yes"}"#).unwrap_err(),
            "`paused` must be true or false, not \"yes\""
        );
        assert!(
            parse_changes(br#"{"setMs": -1}"#)
                .unwrap_err()
                .starts_with("`setMs` must be a time in milliseconds since the epoch")
        );
        assert!(
            parse_changes(br#"{"advance": 1}"#)
                .unwrap_err()
                .starts_with("`advance` is not a clock setting: the body must be a JSON object")
        );
        for body in [&b"[]"[..], b"", b"{", b"\xff"] {
            let why = parse_changes(body).unwrap_err();
            assert!(why.ends_with("this body is not a JSON object"), "{why}");
        }
        for body in [
            &br#"{"advanceMs": -5}"#[..],
            br#"{"advanceMs": "31000"}"#,
            br#"{"setMs": 1e400}"#,
            b"[]",
            br#"{"advance": 1}"#,
        ] {
            let why = parse_changes(body).unwrap_err();
            for jargon in ["u64", "line 1", "column", "invalid type", "invalid value"] {
                assert!(!why.contains(jargon), "{why}");
            }
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
