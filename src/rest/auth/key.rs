//! Account keys and HMAC-SHA256 signatures.
//!
//! Invariants: a key's bytes never leave this file (the type keeps only the keyed HMAC state,
//! and its `Debug` is redacted); a computed [`Signature`] has no `PartialEq`, so the only way
//! to compare it with what a client sent is [`AccountKey::verify`], which is constant-time.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::fmt;

type HmacSha256 = Hmac<Sha256>;

/// One of an account's keys, ready to sign.
///
/// Holding the keyed HMAC state rather than the raw bytes means signing can never fail after
/// construction (HMAC accepts any key length, but the API still returns a `Result`).
#[derive(Clone)]
pub struct AccountKey(HmacSha256);

impl AccountKey {
    /// Decodes a base64 account key as found in connection strings. `None` when the text is
    /// not standard base64 or decodes to nothing.
    pub fn from_base64(text: &str) -> Option<Self> {
        let bytes = STANDARD.decode(text.trim()).ok()?;
        if bytes.is_empty() {
            return None;
        }
        HmacSha256::new_from_slice(&bytes).ok().map(AccountKey)
    }

    /// `HMAC-SHA256(key, UTF-8(string_to_sign))`.
    ///
    /// Use it to *produce* signatures (tests, SAS generation); to check one a client sent,
    /// use [`AccountKey::verify`].
    pub fn sign(&self, string_to_sign: &str) -> Signature {
        let mut mac = self.0.clone();
        mac.update(string_to_sign.as_bytes());
        Signature(mac.finalize().into_bytes().into())
    }

    /// True when `provided` (already base64-decoded) is this key's signature of
    /// `string_to_sign`. Constant-time in the signature bytes.
    pub fn verify(&self, string_to_sign: &str, provided: &[u8]) -> bool {
        let mut mac = self.0.clone();
        mac.update(string_to_sign.as_bytes());
        mac.verify_slice(provided).is_ok()
    }
}

impl fmt::Debug for AccountKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccountKey(<redacted>)")
    }
}

/// A computed signature. Deliberately not comparable: see the module invariants.
pub struct Signature([u8; 32]);

impl Signature {
    /// The form that goes into `Authorization` headers and `sig=` parameters.
    pub fn to_base64(&self) -> String {
        STANDARD.encode(self.0)
    }
}

impl fmt::Debug for Signature {
    // A computed signature is exactly what an attacker needs, so it is never printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Signature(<redacted>)")
    }
}

/// True when any of `keys` signed `string_to_sign` as `provided`. Every key is tried, so the
/// time taken does not reveal which key (if any) matched.
pub(super) fn any_key_verifies(keys: &[AccountKey], string_to_sign: &str, provided: &[u8]) -> bool {
    keys.iter()
        .fold(false, |ok, key| key.verify(string_to_sign, provided) | ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEV_KEY: &str =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    #[test]
    fn debug_never_shows_the_key() {
        let key = AccountKey::from_base64(DEV_KEY).unwrap();
        assert_eq!(format!("{key:?}"), "AccountKey(<redacted>)");
        assert_eq!(format!("{:?}", key.sign("x")), "Signature(<redacted>)");
    }

    #[test]
    fn rejects_bad_base64_and_empty_keys() {
        assert!(AccountKey::from_base64("not base64!").is_none());
        assert!(AccountKey::from_base64("").is_none());
    }

    #[test]
    fn verify_accepts_own_signature_only() {
        let key = AccountKey::from_base64(DEV_KEY).unwrap();
        let sig = STANDARD.decode(key.sign("hello").to_base64()).unwrap();
        assert!(key.verify("hello", &sig));
        assert!(!key.verify("hello!", &sig));
        assert!(!key.verify("hello", &sig[..31]));
        let other = AccountKey::from_base64("a2V5").unwrap();
        assert!(any_key_verifies(&[other.clone(), key], "hello", &sig));
        assert!(!any_key_verifies(&[other], "hello", &sig));
        assert!(!any_key_verifies(&[], "hello", &sig));
    }
}
