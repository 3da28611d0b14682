//! The two date formats on the wire: RFC 1123 (headers, message XML) and ISO 8601 with seven
//! fractional digits (access policies, SAS times, error messages).
//!
//! The ISO forms are read and written field by field, with chrono only for the calendar:
//! chrono's `format`/`parse_from_str` interpret a format string at run time, and that
//! interpreter was about 30 KiB of the shipped wasm (research/benchmarks/notes.md, "Build size").

use crate::engine::{PolicyTime, Timestamp};
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Timelike};
use std::time::{Duration, UNIX_EPOCH};

/// `Wed, 04 Sep 2019 07:14:58 GMT`.
pub fn rfc1123(t: Timestamp) -> String {
    httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_millis(t.as_millis()))
}

/// Parses an RFC 1123 date header.
pub fn parse_rfc1123(s: &str) -> Option<Timestamp> {
    let t = httpdate::parse_http_date(s.trim()).ok()?;
    let ms = t.duration_since(UNIX_EPOCH).ok()?.as_millis();
    Some(Timestamp::from_millis(ms as u64))
}

/// `2017-12-31T11:22:33.4560000Z`.
pub fn iso8601(t: PolicyTime) -> String {
    match DateTime::from_timestamp(t.secs, 0) {
        Some(dt) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:07}Z",
            dt.year(),
            dt.month(),
            dt.day(),
            dt.hour(),
            dt.minute(),
            dt.second(),
            t.ticks
        ),
        None => String::new(),
    }
}

/// A timestamp in the 7-digit ISO form, as used in error messages.
pub fn iso8601_millis(t: Timestamp) -> String {
    let ms = t.as_millis();
    iso8601(PolicyTime {
        secs: (ms / 1000) as i64,
        ticks: (ms % 1000) as u32 * 10_000,
    })
}

/// Parses the forms Azure accepts for access-policy and SAS times: `YYYY-MM-DD`,
/// `YYYY-MM-DDThh:mmZ`, `YYYY-MM-DDThh:mm:ssZ` and `YYYY-MM-DDThh:mm:ss.fffffffZ`, with `Z`
/// or a numeric offset. The service keeps 100 ns (7 digits); up to 9 fractional digits are
/// read and rounded to that, since clients with nanosecond clocks send 9 (the Rust
/// `azure_storage_queues` crate does, for Set Queue ACL).
pub fn parse_iso8601(s: &str) -> Option<PolicyTime> {
    let s = s.trim();
    if let Some(d) = date(s) {
        return Some(PolicyTime {
            secs: d.and_hms_opt(0, 0, 0)?.and_utc().timestamp(),
            ticks: 0,
        });
    }
    let (body, offset_secs) = split_offset(s)?;
    let (main, frac) = match body.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (body, None),
    };
    let naive = date_time(main)?;
    let nanos = match frac {
        None => 0,
        Some(f) if (1..=9).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()) => {
            f.parse::<u32>().ok()? * 10u32.pow(9 - f.len() as u32)
        }
        Some(_) => return None,
    };
    // Half a tick rounds up; .99999995 and above carries into the next second.
    let ticks = (nanos + 50) / 100;
    let (carry, ticks) = (i64::from(ticks / 10_000_000), ticks % 10_000_000);
    Some(PolicyTime {
        secs: naive.and_utc().timestamp() - offset_secs + carry,
        ticks,
    })
}

/// `YYYY-MM-DD`, each field with exactly its digits.
fn date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    NaiveDate::from_ymd_opt(digits(b, 0, 4)? as i32, digits(b, 5, 2)?, digits(b, 8, 2)?)
}

/// `YYYY-MM-DDThh:mm` or `YYYY-MM-DDThh:mm:ss`.
fn date_time(s: &str) -> Option<NaiveDateTime> {
    let b = s.as_bytes();
    let second = match b.len() {
        16 => 0,
        19 if b[16] == b':' => digits(b, 17, 2)?,
        _ => return None,
    };
    if b[10] != b'T' || b[13] != b':' {
        return None;
    }
    date(s.get(..10)?)?.and_hms_opt(digits(b, 11, 2)?, digits(b, 14, 2)?, second)
}

/// The number written by exactly `len` ASCII digits at `at`.
fn digits(b: &[u8], at: usize, len: usize) -> Option<u32> {
    let d = b.get(at..at + len)?;
    d.iter()
        .all(u8::is_ascii_digit)
        .then(|| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0')))
}

/// Splits `...Z` or `...+hh:mm` / `...-hh:mm` into the local part and the offset in seconds.
fn split_offset(s: &str) -> Option<(&str, i64)> {
    if let Some(body) = s.strip_suffix('Z').or_else(|| s.strip_suffix('z')) {
        return Some((body, 0));
    }
    let tail_at = s.len().checked_sub(6)?;
    // Request data: the cut may fall inside a multi-byte character, which is simply no offset.
    let (body, tail) = (s.get(..tail_at)?, s.get(tail_at..)?);
    let sign = match tail.as_bytes()[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (h, m) = tail[1..].split_once(':')?;
    Some((
        body,
        sign * (h.parse::<i64>().ok()? * 3600 + m.parse::<i64>().ok()? * 60),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc1123_round_trip() {
        let t = Timestamp::from_secs(1_567_581_298);
        assert_eq!(rfc1123(t), "Wed, 04 Sep 2019 07:14:58 GMT");
        assert_eq!(parse_rfc1123("Wed, 04 Sep 2019 07:14:58 GMT"), Some(t));
        assert_eq!(
            rfc1123(crate::engine::NEVER),
            "Fri, 31 Dec 9999 23:59:59 GMT"
        );
        assert_eq!(parse_rfc1123("yesterday"), None);
    }

    #[test]
    fn iso8601_accepts_the_documented_forms() {
        let full = parse_iso8601("2017-12-31T11:22:33.4560000Z").unwrap();
        assert_eq!(iso8601(full), "2017-12-31T11:22:33.4560000Z");
        assert_eq!(
            iso8601(parse_iso8601("2017-12-31T11:22:33.456Z").unwrap()),
            "2017-12-31T11:22:33.4560000Z"
        );
        assert_eq!(
            iso8601(parse_iso8601("2017-12-31").unwrap()),
            "2017-12-31T00:00:00.0000000Z"
        );
        assert_eq!(
            iso8601(parse_iso8601("2017-12-31T11:22Z").unwrap()),
            "2017-12-31T11:22:00.0000000Z"
        );
        assert_eq!(
            iso8601(parse_iso8601("2017-12-31T11:22:33+01:00").unwrap()),
            "2017-12-31T10:22:33.0000000Z"
        );
        assert_eq!(parse_iso8601("2017-13-31"), None);
        assert_eq!(parse_iso8601("2017-12-31T11:22:33.1234567891Z"), None);
        assert_eq!(parse_iso8601("2017-12-31T11:22:33.Z"), None);
        assert_eq!(parse_iso8601("soon"), None);
        assert_eq!(parse_iso8601("2017-12-31T11:22:33.12x4Z"), None);
        assert_eq!(parse_iso8601("\u{20ac}12345"), None);
    }

    #[test]
    fn iso8601_rounds_eight_and_nine_digits_to_ticks() {
        let at = |s: &str| iso8601(parse_iso8601(s).unwrap());
        assert_eq!(
            at("2026-11-23T10:31:12.123456789Z"),
            "2026-11-23T10:31:12.1234568Z"
        );
        assert_eq!(
            at("2026-11-23T10:31:12.12345674Z"),
            "2026-11-23T10:31:12.1234567Z"
        );
        assert_eq!(
            at("2026-11-23T10:31:12.999999950Z"),
            "2026-11-23T10:31:13.0000000Z"
        );
        assert_eq!(
            at("2026-12-31T23:59:59.999999999Z"),
            "2027-01-01T00:00:00.0000000Z"
        );
    }

    #[test]
    fn iso8601_fields_have_their_exact_widths_and_ranges() {
        assert_eq!(
            iso8601(parse_iso8601("2016-02-29T23:59:59Z").unwrap()),
            "2016-02-29T23:59:59.0000000Z"
        );
        for bad in [
            "2017-02-29",
            "2017-1-05",
            "17-01-05",
            "2017-01-05T24:00Z",
            "2017-01-05T10:60Z",
            "2017-01-05T10:00:60Z",
            "2017-01-05 10:00Z",
            "2017-01-05T1:00Z",
            "2017-01-05T10:00:0Z",
            "2017-01-05T10:00:00",
            "+2017-01-05",
            "2017-01-05T",
        ] {
            assert_eq!(parse_iso8601(bad), None, "{bad}");
        }
        assert_eq!(
            iso8601(PolicyTime {
                secs: -62_135_596_800,
                ticks: 1
            }),
            "0001-01-01T00:00:00.0000001Z"
        );
    }
}
