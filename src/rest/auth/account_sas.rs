//! Account SAS (§7.6): a signature over services, resource types and permissions for the
//! whole account. Which operation needs what is decided in `permissions.rs`.

use super::key::any_key_verifies;
use super::sas::{
    check_ip, check_protocol, check_version, check_window, decode_signature, field, mandatory,
    not_well_formed, parse_time, signature_mismatch,
};
use super::{AccountKey, AuthInput, Principal};
use crate::rest::error::RestError;
use crate::rest::query::Query;

/// Account SAS exists since this version.
const OLDEST: &str = "2015-04-05";
/// From here the string-to-sign has an `ses` (encryption scope) line.
const ENCRYPTION_SCOPE_SINCE: &str = "2020-12-06";

/// The signed fields of an account SAS, exactly as they arrived (decoded); `""` when absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccountSasFields<'a> {
    pub sv: &'a str,
    pub ss: &'a str,
    pub srt: &'a str,
    pub sp: &'a str,
    pub st: &'a str,
    pub se: &'a str,
    pub sip: &'a str,
    pub spr: &'a str,
    pub ses: &'a str,
}

impl<'a> AccountSasFields<'a> {
    pub fn from_query(q: &'a Query) -> Self {
        AccountSasFields {
            sv: field(q, "sv"),
            ss: field(q, "ss"),
            srt: field(q, "srt"),
            sp: field(q, "sp"),
            st: field(q, "st"),
            se: field(q, "se"),
            sip: field(q, "sip"),
            spr: field(q, "spr"),
            ses: field(q, "ses"),
        }
    }

    /// `account sp ss srt st se sip spr sv`, each followed by `\n`, plus `ses\n` from
    /// 2020-12-06 (so a current token ends in `sv\n\n` when `ses` is empty).
    pub fn string_to_sign(&self, account: &str) -> String {
        let mut s = String::new();
        let mut lines = vec![
            account, self.sp, self.ss, self.srt, self.st, self.se, self.sip, self.spr, self.sv,
        ];
        if self.sv >= ENCRYPTION_SCOPE_SINCE {
            lines.push(self.ses);
        }
        for line in lines {
            s.push_str(line);
            s.push('\n');
        }
        s
    }
}

/// Services an account SAS covers (`ss`: b, q, t, f).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SasServices {
    pub blob: bool,
    pub queue: bool,
    pub table: bool,
    pub file: bool,
}

/// Resource types an account SAS covers (`srt`: s = service, c = container (queue),
/// o = object (message)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SasResourceTypes {
    pub service: bool,
    pub container: bool,
    pub object: bool,
}

/// The account SAS permission letters that mean something for queues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccountSasPermissions {
    pub read: bool,
    pub write: bool,
    pub delete: bool,
    pub list: bool,
    pub add: bool,
    pub create: bool,
    pub update: bool,
    pub process: bool,
}

/// Sets a flag per known letter. Other lower-case letters are accepted and ignored: the
/// letter sets are shared with blob, table and file, and grow over time (`x`, `y`, `t`,
/// `f`, `i`, …), and an unknown letter can only grant something that is not a queue right.
/// Anything that is not a lower-case letter makes the token malformed.
fn letters(value: &str, mut set: impl FnMut(u8)) -> Result<(), RestError> {
    for b in value.bytes() {
        if !b.is_ascii_lowercase() {
            return Err(not_well_formed());
        }
        set(b);
    }
    Ok(())
}

fn parse_services(ss: &str) -> Result<SasServices, RestError> {
    let mut s = SasServices::default();
    letters(ss, |b| match b {
        b'b' => s.blob = true,
        b'q' => s.queue = true,
        b't' => s.table = true,
        b'f' => s.file = true,
        _ => {}
    })?;
    Ok(s)
}

fn parse_resource_types(srt: &str) -> Result<SasResourceTypes, RestError> {
    let mut t = SasResourceTypes::default();
    letters(srt, |b| match b {
        b's' => t.service = true,
        b'c' => t.container = true,
        b'o' => t.object = true,
        _ => {}
    })?;
    Ok(t)
}

fn parse_permissions(sp: &str) -> Result<AccountSasPermissions, RestError> {
    let mut p = AccountSasPermissions::default();
    letters(sp, |b| match b {
        b'r' => p.read = true,
        b'w' => p.write = true,
        b'd' => p.delete = true,
        b'l' => p.list = true,
        b'a' => p.add = true,
        b'c' => p.create = true,
        b'u' => p.update = true,
        b'p' => p.process = true,
        _ => {}
    })?;
    Ok(p)
}

/// Authenticates an account SAS: version, signature, then fields, window, protocol, address.
/// Whether `ss`/`srt`/`sp` cover the operation is [`super::authorize`]'s job.
pub(super) fn authenticate(
    query: &Query,
    input: &AuthInput,
    keys: &[AccountKey],
) -> Result<Principal, RestError> {
    let f = AccountSasFields::from_query(query);
    check_version(f.sv, OLDEST)?;
    let provided = decode_signature(field(query, "sig"))?;
    let sts = f.string_to_sign(input.account);
    if !any_key_verifies(keys, &sts, &provided) {
        return Err(signature_mismatch(&sts));
    }
    for (name, value) in [("ss", f.ss), ("srt", f.srt), ("sp", f.sp), ("se", f.se)] {
        if value.is_empty() {
            return Err(mandatory(name));
        }
    }
    let services = parse_services(f.ss)?;
    let resource_types = parse_resource_types(f.srt)?;
    let permissions = parse_permissions(f.sp)?;
    let start = parse_time(f.st)?;
    let expiry = parse_time(f.se)?.ok_or_else(|| mandatory("se"))?;
    check_window(start, expiry, input.wall)?;
    check_protocol(f.spr, input.https)?;
    check_ip(f.sip, input.client_ip)?;
    Ok(Principal::AccountSas {
        services,
        resource_types,
        permissions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ses_line_only_from_2020_12_06() {
        let mut f = AccountSasFields {
            sv: "2020-10-02",
            ss: "q",
            srt: "s",
            sp: "r",
            ..Default::default()
        };
        assert_eq!(f.string_to_sign("a"), "a\nr\nq\ns\n\n\n\n\n2020-10-02\n");
        f.sv = "2020-12-06";
        assert_eq!(f.string_to_sign("a"), "a\nr\nq\ns\n\n\n\n\n2020-12-06\n\n");
    }

    #[test]
    fn letter_sets() {
        let p = parse_permissions("rwdxylacuptfi").unwrap();
        assert!(
            p.read && p.write && p.delete && p.list && p.add && p.create && p.update && p.process
        );
        assert!(!parse_permissions("r").unwrap().write);
        assert!(parse_permissions("R").is_err());
        assert!(parse_services("bqtf").unwrap().queue);
        assert!(!parse_services("bt").unwrap().queue);
        assert_eq!(
            parse_resource_types("sco").unwrap(),
            SasResourceTypes {
                service: true,
                container: true,
                object: true
            }
        );
        assert!(parse_resource_types("s,c").is_err());
    }
}
