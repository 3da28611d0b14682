//! What service and account SAS tokens share: signed versions, times, `spr`, `sip`, `sig`.
//!
//! All values arrive percent-decoded (by `Query`); they are signed exactly as decoded.

use crate::engine::{NEVER, PolicyTime, Timestamp};
use crate::rest::dates::{parse_iso8601, rfc1123};
use crate::rest::error::{ErrorCode, RestError};
use crate::rest::query::Query;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::net::IpAddr;

/// A parameter's value, or `""` when absent: absent fields sign as empty lines.
pub(super) fn field<'q>(query: &'q Query, name: &str) -> &'q str {
    query.get(name).unwrap_or("")
}

/// The detail the service gives for SAS fields it cannot use.
pub(super) fn not_well_formed() -> RestError {
    RestError::auth_failed("Signature fields not well formed.")
}

/// `<name> is mandatory. Cannot be empty`, the service's wording for a missing field.
pub(super) fn mandatory(name: &str) -> RestError {
    RestError::auth_failed(format!("{name} is mandatory. Cannot be empty"))
}

/// Checks that `sv` is a `YYYY-MM-DD` version no older than `oldest`. Versions compare
/// correctly as strings once their shape is known.
pub(super) fn check_version(sv: &str, oldest: &str) -> Result<(), RestError> {
    let shaped = sv.len() == 10
        && sv.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if sv.is_empty() {
        return Err(mandatory("sv"));
    }
    if !shaped || sv < oldest {
        return Err(RestError::auth_failed(format!(
            "The signed version '{sv}' is not valid for this kind of shared access signature"
        )));
    }
    Ok(())
}

/// Decodes `sig`. Clients must percent-encode `+`, `/` and `=`; `Query` keeps a raw `+` as a
/// plus, which forgives the common mistake of pasting a signature unencoded.
pub(super) fn decode_signature(sig: &str) -> Result<Vec<u8>, RestError> {
    STANDARD.decode(sig).map_err(|_| not_well_formed())
}

/// The service's mismatch error: it shows the string-to-sign (never the expected signature).
pub(super) fn signature_mismatch(string_to_sign: &str) -> RestError {
    RestError::auth_failed(format!(
        "Signature did not match. String to sign used was {string_to_sign}"
    ))
}

/// Parses `st` / `se` (empty → `None`).
pub(super) fn parse_time(value: &str) -> Result<Option<PolicyTime>, RestError> {
    if value.is_empty() {
        return Ok(None);
    }
    parse_iso8601(value).map(Some).ok_or_else(not_well_formed)
}

/// `now` at the 100 ns resolution of policy times, so the two compare directly.
fn policy_time(now: Timestamp) -> PolicyTime {
    let ms = now.as_millis();
    PolicyTime {
        secs: i64::try_from(ms / 1000).unwrap_or(i64::MAX),
        ticks: (ms % 1000) as u32 * 10_000,
    }
}

/// A policy time as a header date, clamped into the range RFC 1123 rendering supports
/// (`httpdate` panics past year 9999; parse_iso8601 accepts later years).
fn policy_http_date(t: PolicyTime) -> String {
    let secs = u64::try_from(t.secs).unwrap_or(0);
    http_date(Timestamp::from_millis(
        secs.saturating_mul(1000)
            .saturating_add(u64::from(t.ticks / 10_000)),
    ))
}

/// RFC 1123 that never panics: times beyond 9999-12-31 render as that date.
pub(super) fn http_date(t: Timestamp) -> String {
    rfc1123(t.min(NEVER))
}

/// Checks `start < expiry` and `start <= now <= expiry`, in Azure's words for each failure.
///
/// # Errors
/// `403 AuthenticationFailed`, with the detail the service gives:
/// - an expiry not after the signed start: `Signed expiry time [..] must be after signed start
///   time [..]`;
/// - no signed start and an expiry already passed: the same sentence, the service taking the
///   request's arrival as the start (`[now]`);
/// - a start still to come, or an expiry passed after a signed start: `Signature not valid in
///   the specified time frame: Start [..] - Expiry [..] - Current [..]`.
pub(super) fn check_window(
    start: Option<PolicyTime>,
    expiry: PolicyTime,
    now: Timestamp,
) -> Result<(), RestError> {
    let current = policy_time(now);
    let expiry_not_after = |start: String| {
        RestError::auth_failed(format!(
            "Signed expiry time [{}] must be after signed start time [{start}]",
            policy_http_date(expiry)
        ))
    };
    match start {
        None if current > expiry => Err(expiry_not_after(http_date(now))),
        Some(s) if expiry <= s => Err(expiry_not_after(policy_http_date(s))),
        Some(s) if current < s || current > expiry => Err(RestError::auth_failed(format!(
            "Signature not valid in the specified time frame: Start [{}] - Expiry [{}] - Current [{}]",
            policy_http_date(s),
            policy_http_date(expiry),
            http_date(now)
        ))),
        _ => Ok(()),
    }
}

/// Checks `spr`: `https` alone, or `https,http` (either order). `http` alone is not a valid
/// value, and an empty value allows both.
pub(super) fn check_protocol(spr: &str, https: bool) -> Result<(), RestError> {
    match spr {
        "" | "https,http" | "http,https" => Ok(()),
        "https" if https => Ok(()),
        "https" => Err(RestError::new(ErrorCode::AuthorizationProtocolMismatch)),
        _ => Err(not_well_formed()),
    }
}

/// Checks `sip`: one address or an inclusive range `a-b` of the same family. Without a known
/// client address nothing can be enforced, so only the shape is checked.
pub(super) fn check_ip(sip: &str, client: Option<IpAddr>) -> Result<(), RestError> {
    if sip.is_empty() {
        return Ok(());
    }
    let parse = |s: &str| s.trim().parse::<IpAddr>().map_err(|_| not_well_formed());
    let (low, high) = match sip.split_once('-') {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => {
            let ip = parse(sip)?;
            (ip, ip)
        }
    };
    if low.is_ipv4() != high.is_ipv4() {
        return Err(not_well_formed());
    }
    let Some(client) = client else {
        return Ok(());
    };
    // An IPv4 client seen through an IPv6 socket arrives as ::ffff:a.b.c.d.
    let client = client.to_canonical();
    if client.is_ipv4() == low.is_ipv4() && low <= client && client <= high {
        Ok(())
    } else {
        Err(RestError::new(ErrorCode::AuthorizationSourceIPMismatch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<(), RestError>) -> Option<ErrorCode> {
        r.err().map(|e| e.code)
    }

    #[test]
    fn versions() {
        assert!(check_version("2025-11-05", "2015-04-05").is_ok());
        assert!(check_version("2015-04-05", "2015-04-05").is_ok());
        assert!(check_version("2015-02-21", "2015-04-05").is_err());
        assert!(check_version("2025-1-05", "2012-02-12").is_err());
        assert!(check_version("2025-11-05x", "2012-02-12").is_err());
        assert_eq!(
            check_version("", "2012-02-12").unwrap_err().details[0].1,
            "sv is mandatory. Cannot be empty"
        );
    }

    #[test]
    fn protocols() {
        assert_eq!(code(check_protocol("https", true)), None);
        assert_eq!(
            code(check_protocol("https", false)),
            Some(ErrorCode::AuthorizationProtocolMismatch)
        );
        assert_eq!(code(check_protocol("https,http", false)), None);
        assert_eq!(code(check_protocol("", false)), None);
        assert_eq!(
            code(check_protocol("http", false)),
            Some(ErrorCode::AuthenticationFailed)
        );
    }

    #[test]
    fn ip_ranges() {
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        let mismatch = Some(ErrorCode::AuthorizationSourceIPMismatch);
        assert_eq!(code(check_ip("", ip("1.2.3.4"))), None);
        assert_eq!(code(check_ip("1.2.3.4", ip("1.2.3.4"))), None);
        assert_eq!(code(check_ip("1.2.3.4", ip("1.2.3.5"))), mismatch);
        assert_eq!(code(check_ip("10.0.0.1-10.0.0.9", ip("10.0.0.9"))), None);
        assert_eq!(
            code(check_ip("10.0.0.1-10.0.0.9", ip("10.0.1.0"))),
            mismatch
        );
        assert_eq!(
            code(check_ip("10.0.0.1-10.0.0.9", ip("::ffff:10.0.0.5"))),
            None
        );
        assert_eq!(code(check_ip("10.0.0.1", ip("::1"))), mismatch);
        assert_eq!(code(check_ip("10.0.0.1", None)), None);
        assert_eq!(
            code(check_ip("nonsense", None)),
            Some(ErrorCode::AuthenticationFailed)
        );
        assert_eq!(
            code(check_ip("10.0.0.1-::2", None)),
            Some(ErrorCode::AuthenticationFailed)
        );
    }

    #[test]
    fn window_is_inclusive_and_dates_far_away_do_not_panic() {
        let t = |s: &str| parse_iso8601(s).unwrap();
        let now = Timestamp::from_secs(1_704_067_200); // 2024-01-01T00:00:00Z
        assert!(
            check_window(
                Some(t("2024-01-01T00:00:00Z")),
                t("2024-01-02T00:00:00Z"),
                now
            )
            .is_ok()
        );
        assert!(
            check_window(
                Some(t("2023-12-31T00:00:00Z")),
                t("2024-01-01T00:00:00Z"),
                now
            )
            .is_ok()
        );
        assert!(check_window(None, t("2024-01-01T00:00:00Z"), now).is_ok());
        let e = check_window(None, t("2023-12-31T23:59:59Z"), now).unwrap_err();
        assert_eq!(
            e.details[0].1,
            "Signed expiry time [Sun, 31 Dec 2023 23:59:59 GMT] must be after signed start time \
             [Mon, 01 Jan 2024 00:00:00 GMT]"
        );
        let e = check_window(
            Some(t("2024-01-01T00:00:00Z")),
            t("2024-01-01T00:00:00Z"),
            now,
        )
        .unwrap_err();
        assert_eq!(
            e.details[0].1,
            "Signed expiry time [Mon, 01 Jan 2024 00:00:00 GMT] must be after signed start time \
             [Mon, 01 Jan 2024 00:00:00 GMT]"
        );
        let far = PolicyTime {
            secs: i64::MAX,
            ticks: 9_999_999,
        };
        let before = PolicyTime {
            secs: i64::MIN,
            ticks: 0,
        };
        assert!(check_window(Some(far), far, now).is_err());
        assert!(check_window(Some(before), before, now).is_err());
        assert!(check_window(Some(before), far, Timestamp::from_millis(u64::MAX)).is_ok());
    }
}
