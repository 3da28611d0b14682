//! Who may use the service: accounts and their keys, and whether anonymous use is allowed.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// The well-known development account, as Azurite and the SDKs know it.
pub const DEV_ACCOUNT: &str = "devstoreaccount1";
/// Its public key (not a secret: it is printed in Microsoft's documentation).
pub const DEV_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// One account: a name and one or more base64 keys (a request may be signed with any).
#[derive(Clone, PartialEq, Eq)]
pub struct AccountConfig {
    pub name: String,
    pub keys: Vec<String>,
}

impl std::fmt::Debug for AccountConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys never reach logs.
        f.debug_struct("AccountConfig")
            .field("name", &self.name)
            .field("keys", &self.keys.len())
            .finish()
    }
}

/// Whether `Authorization: Bearer` tokens are accepted (Azurite's `--oauth`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OAuth {
    /// Bearer tokens are refused (`403 AuthenticationFailed`), as without `--oauth`.
    #[default]
    Off,
    /// Azurite's `basic` level: over HTTPS, a token whose audience, issuer and lifetime check
    /// out is accepted; its signature is not verified (no tenant keys offline).
    Basic,
}

/// How the REST service is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceConfig {
    pub accounts: Vec<AccountConfig>,
    /// Serve requests that carry no credentials (for an in-tab queue only; off by default).
    pub anonymous: bool,
    /// Start XML bodies with a UTF-8 byte-order mark, as the real service does.
    pub emit_bom: bool,
    /// Serve the development paths under `/_azqueue/` (inspection, snapshot, reset, store, clock;
    /// see `rest::dev`).
    pub inspect: bool,
    /// Other web origins whose pages may read and steer the development paths (CORS,
    /// `rest::dev::cors`): an inspector served by another azqueue. Empty by default: a page on
    /// another site can then neither read nor steer them.
    pub dev_origins: Vec<String>,
    /// Bearer tokens: refused, or checked as Azurite's `--oauth basic` checks them.
    pub oauth: OAuth,
}

impl ServiceConfig {
    /// `devstoreaccount1` with its well-known key; credentials required.
    pub fn dev() -> Self {
        ServiceConfig {
            accounts: vec![AccountConfig {
                name: DEV_ACCOUNT.into(),
                keys: vec![DEV_KEY.into()],
            }],
            anonymous: false,
            emit_bom: true,
            inspect: true,
            dev_origins: Vec::new(),
            oauth: OAuth::Off,
        }
    }

    /// Accounts in Azurite's `AZURITE_ACCOUNTS` form: `name:key1[:key2];name2:key1`.
    /// Keys must be base64. As in Azurite, the list replaces the development account. Keys of
    /// one's own may be real ones, so the development paths, which carry no credentials, are
    /// off (SECURITY.md).
    pub fn from_azurite_accounts(spec: &str) -> Result<Self, String> {
        let mut accounts = Vec::new();
        for entry in spec.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            let mut parts = entry.split(':');
            let name = parts.next().unwrap_or("").trim().to_owned();
            let keys: Vec<String> = parts
                .map(|k| k.trim().to_owned())
                .filter(|k| !k.is_empty())
                .collect();
            if name.is_empty() || keys.is_empty() {
                return Err(format!(
                    "account entry `{name}` needs a name and at least one key"
                ));
            }
            if let Some(bad) = keys.iter().find(|k| STANDARD.decode(k).is_err()) {
                let _ = bad;
                return Err(format!("a key of account `{name}` is not valid base64"));
            }
            accounts.push(AccountConfig { name, keys });
        }
        if accounts.is_empty() {
            return Err("no accounts given".into());
        }
        Ok(ServiceConfig {
            accounts,
            inspect: false,
            ..ServiceConfig::dev()
        })
    }

    pub fn account(&self, name: &str) -> Option<&AccountConfig> {
        self.accounts.iter().find(|a| a.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_azurite_accounts() {
        let c = ServiceConfig::from_azurite_accounts("a1:a2V5MQ==:a2V5Mg==;b1:a2V5Mw==").unwrap();
        assert_eq!(c.accounts.len(), 2);
        assert_eq!(c.account("a1").unwrap().keys.len(), 2);
        assert!(c.account(DEV_ACCOUNT).is_none());
        assert!(
            !c.inspect,
            "the development paths are off with accounts of one's own"
        );
        assert!(ServiceConfig::from_azurite_accounts("a1").is_err());
        assert!(ServiceConfig::from_azurite_accounts("a1:not base64!").is_err());
    }

    #[test]
    fn debug_never_shows_keys() {
        let s = format!("{:?}", ServiceConfig::dev());
        assert!(!s.contains("Eby8"));
    }
}
