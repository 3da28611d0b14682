//! Queue service SAS (§7.5): a signature over one queue's permissions and validity window,
//! optionally completed by a stored access policy named by `si`.

use super::key::any_key_verifies;
use super::sas::{
    check_ip, check_protocol, check_version, check_window, decode_signature, field, mandatory,
    not_well_formed, parse_time, signature_mismatch,
};
use super::{AccountKey, AuthInput, Principal};
use crate::engine::{AccessPolicy, QueuePermissions};
use crate::rest::error::RestError;
use crate::rest::query::Query;

/// The oldest `sv` with queue SAS support.
const OLDEST: &str = "2012-02-12";
/// From here the resource is `/queue/<account>/<queue>` instead of `/<account>/<queue>`.
const SERVICE_PREFIX_SINCE: &str = "2015-02-21";
/// From here `sip` and `spr` are signed (and so enforced).
const IP_AND_PROTOCOL_SINCE: &str = "2015-04-05";

/// The signed fields of a service SAS, exactly as they arrived (decoded); `""` when absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServiceSasFields<'a> {
    pub sv: &'a str,
    pub st: &'a str,
    pub se: &'a str,
    pub sp: &'a str,
    pub si: &'a str,
    pub sip: &'a str,
    pub spr: &'a str,
}

impl<'a> ServiceSasFields<'a> {
    pub fn from_query(q: &'a Query) -> Self {
        ServiceSasFields {
            sv: field(q, "sv"),
            st: field(q, "st"),
            se: field(q, "se"),
            sp: field(q, "sp"),
            si: field(q, "si"),
            sip: field(q, "sip"),
            spr: field(q, "spr"),
        }
    }

    /// `sip` and `spr` count only in versions that sign them; older tokens carrying them
    /// would otherwise be restricted by fields the signer never vouched for.
    fn signs_ip_and_protocol(&self) -> bool {
        self.sv >= IP_AND_PROTOCOL_SINCE
    }

    /// The string a client signs, by `sv` (lines joined by `\n`, no trailing newline):
    ///
    /// | sv | lines |
    /// |---|---|
    /// | ≥ 2015-04-05 | sp, st, se, `/queue/<account>/<queue>`, si, sip, spr, sv |
    /// | 2015-02-21 | sp, st, se, `/queue/<account>/<queue>`, si, sv |
    /// | 2012-02-12 … 2014-02-14 | sp, st, se, `/<account>/<queue>`, si, sv |
    pub fn string_to_sign(&self, account: &str, queue: &str) -> String {
        let resource = if self.sv >= SERVICE_PREFIX_SINCE {
            format!("/queue/{account}/{queue}")
        } else {
            format!("/{account}/{queue}")
        };
        let mut lines = vec![self.sp, self.st, self.se, &resource, self.si];
        if self.signs_ip_and_protocol() {
            lines.extend([self.sip, self.spr]);
        }
        lines.push(self.sv);
        lines.join("\n")
    }
}

/// Takes a field from the SAS or from the stored policy, never both.
fn merge<T>(in_sas: Option<T>, in_policy: Option<T>) -> Result<Option<T>, RestError> {
    match (in_sas, in_policy) {
        (Some(_), Some(_)) => Err(RestError::auth_failed(
            "Access policy fields can be associated with signature or SAS identifier but not both",
        )),
        (a, b) => Ok(a.or(b)),
    }
}

/// Parses `sp`, which must use the letters `r a u p` in that order, each at most once.
fn parse_permissions(sp: &str) -> Result<Option<QueuePermissions>, RestError> {
    if sp.is_empty() {
        return Ok(None);
    }
    match QueuePermissions::parse(sp) {
        Some(p) if p.to_string() == sp => Ok(Some(p)),
        _ => Err(not_well_formed()),
    }
}

/// Authenticates a service SAS: signature first (so that nothing about stored policies is
/// revealed to an unsigned request), then the merged fields, window, protocol and address.
pub(super) fn authenticate(
    query: &Query,
    input: &AuthInput,
    keys: &[AccountKey],
    stored_policy: &dyn Fn(&str) -> Option<AccessPolicy>,
) -> Result<Principal, RestError> {
    let f = ServiceSasFields::from_query(query);
    check_version(f.sv, OLDEST)?;
    let provided = decode_signature(field(query, "sig"))?;
    let sts = f.string_to_sign(input.account, input.queue.unwrap_or(""));
    if !any_key_verifies(keys, &sts, &provided) {
        return Err(signature_mismatch(&sts));
    }

    let policy = match f.si {
        "" => AccessPolicy::default(),
        id => stored_policy(id).ok_or_else(|| {
            RestError::auth_failed(format!(
                "The signed identifier '{id}' does not name a stored access policy of this queue"
            ))
        })?,
    };
    let permissions = merge(parse_permissions(f.sp)?, policy.permission)?;
    let start = merge(parse_time(f.st)?, policy.start)?;
    let expiry = merge(parse_time(f.se)?, policy.expiry)?;
    let permissions = permissions.ok_or_else(|| mandatory("sp"))?;
    let expiry = expiry.ok_or_else(|| mandatory("se"))?;

    check_window(start, expiry, input.wall)?;
    if f.signs_ip_and_protocol() {
        check_protocol(f.spr, input.https)?;
        check_ip(f.sip, input.client_ip)?;
    }
    Ok(Principal::ServiceSas { permissions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_to_sign_by_version() {
        let mut f = ServiceSasFields {
            sv: "2025-11-05",
            st: "s",
            se: "e",
            sp: "r",
            si: "id",
            sip: "1.2.3.4",
            spr: "https",
        };
        assert_eq!(
            f.string_to_sign("acct", "q"),
            "r\ns\ne\n/queue/acct/q\nid\n1.2.3.4\nhttps\n2025-11-05"
        );
        f.sv = "2015-02-21";
        assert_eq!(
            f.string_to_sign("acct", "q"),
            "r\ns\ne\n/queue/acct/q\nid\n2015-02-21"
        );
        f.sv = "2013-08-15";
        assert_eq!(
            f.string_to_sign("acct", "q"),
            "r\ns\ne\n/acct/q\nid\n2013-08-15"
        );
        f.sv = "2012-02-12";
        assert_eq!(
            f.string_to_sign("acct", "q"),
            "r\ns\ne\n/acct/q\nid\n2012-02-12"
        );
    }

    #[test]
    fn permissions_must_be_canonical() {
        assert_eq!(parse_permissions("").unwrap(), None);
        assert_eq!(
            parse_permissions("raup").unwrap(),
            QueuePermissions::parse("raup")
        );
        assert!(parse_permissions("ar").is_err());
        assert!(parse_permissions("rw").is_err());
        assert!(parse_permissions("rr").is_err());
    }

    #[test]
    fn merge_takes_one_side_only() {
        assert_eq!(merge(Some(1), None).unwrap(), Some(1));
        assert_eq!(merge(None, Some(2)).unwrap(), Some(2));
        assert_eq!(merge::<u8>(None, None).unwrap(), None);
        assert!(merge(Some(1), Some(2)).is_err());
    }
}
