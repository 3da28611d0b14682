//! The request date a SharedKey request must carry, and the allowed clock skew (§7.4).

use super::sas::http_date;
use crate::engine::Timestamp;
use crate::rest::dates::parse_rfc1123;
use crate::rest::error::RestError;
use http::HeaderMap;

/// How old a request date may be. Dates in the future are accepted, as the service accepts
/// them: it documents only the bound on stale dates, and clients whose clocks ran a day ahead
/// were served (Azure/azure-sdk-for-java#34081), so a client whose clock runs ahead of this
/// one (a drifting VM or container, a page on a paused virtual clock) is not refused here
/// either.
pub const MAX_CLOCK_SKEW_SECS: u64 = 15 * 60;

/// Checks `x-ms-date` (or, when absent, `Date`) against `now` and returns the request date.
///
/// # Errors
/// `403 AuthenticationFailed` with detail:
/// - `Request date header not specified` when neither header is present;
/// - `The Date header in the request is incorrect.` when the chosen one does not parse;
/// - `Request date header too old: '<date>'` when older than the skew.
pub fn check(headers: &HeaderMap, now: Timestamp) -> Result<Timestamp, RestError> {
    // x-ms-date wins over Date when both are present (browsers cannot set Date at all).
    let Some(value) = headers
        .get("x-ms-date")
        .or_else(|| headers.get(http::header::DATE))
    else {
        return Err(RestError::auth_failed("Request date header not specified"));
    };
    let date =
        value.to_str().ok().and_then(parse_rfc1123).ok_or_else(|| {
            RestError::auth_failed("The Date header in the request is incorrect.")
        })?;
    let skew_ms = MAX_CLOCK_SKEW_SECS * 1000;
    if date.until(now) > skew_ms {
        return Err(RestError::auth_failed(format!(
            "Request date header too old: '{}'",
            http_date(date)
        )));
    }
    Ok(date)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::error::ErrorCode;

    const JAN1: Timestamp = Timestamp::from_secs(1_704_067_200); // Mon, 01 Jan 2024 00:00:00 GMT

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, http::HeaderValue::from_static(v));
        }
        h
    }

    fn detail(r: Result<Timestamp, RestError>) -> String {
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::AuthenticationFailed);
        e.details[0].1.clone()
    }

    #[test]
    fn x_ms_date_wins_over_date() {
        let h = headers(&[
            ("x-ms-date", "Mon, 01 Jan 2024 00:00:00 GMT"),
            ("date", "garbage"),
        ]);
        assert_eq!(check(&h, JAN1), Ok(JAN1));
        let h = headers(&[("date", "Mon, 01 Jan 2024 00:00:00 GMT")]);
        assert_eq!(check(&h, JAN1), Ok(JAN1));
    }

    #[test]
    fn stale_dates_fail_after_fifteen_minutes_and_future_ones_pass() {
        let h = headers(&[("x-ms-date", "Mon, 01 Jan 2024 00:00:00 GMT")]);
        assert!(check(&h, JAN1.plus_secs(900)).is_ok());
        assert_eq!(
            detail(check(&h, JAN1.plus_secs(901))),
            "Request date header too old: 'Mon, 01 Jan 2024 00:00:00 GMT'"
        );
        let a_day_earlier = Timestamp::from_secs(JAN1.as_secs() - 86_400);
        assert_eq!(check(&h, a_day_earlier), Ok(JAN1));
    }

    #[test]
    fn missing_and_bad_dates() {
        assert_eq!(
            detail(check(&HeaderMap::new(), JAN1)),
            "Request date header not specified"
        );
        let h = headers(&[("x-ms-date", "yesterday")]);
        assert_eq!(
            detail(check(&h, JAN1)),
            "The Date header in the request is incorrect."
        );
    }
}
