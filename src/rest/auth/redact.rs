//! What a request log may not show: account keys, signatures (SharedKey and SAS `sig`) and
//! bearer tokens. Hosts that log requests (the Node server's access and `--debug` logs) pass
//! every URL, header and body through a [`Redactor`] made for that request.
//!
//! The credential's own places are blanked by structure (the `sig` query parameter, the
//! signature or token in `Authorization`), whatever their length. Anywhere else (a body, an
//! error detail that quotes the signature back), each secret is blanked where it appears
//! verbatim, in its sent and its decoded form.

use super::super::config::ServiceConfig;
use percent_encoding::percent_decode_str;

/// What replaces a secret in a log.
pub const REDACTED: &str = "<redacted>";

/// Secrets shorter than this are blanked only in their own places: replacing a 3-character
/// string everywhere in a body would garble the log without protecting anything.
const MIN_SEARCHED_LEN: usize = 8;

/// The secrets of one request, ready to be blanked out of anything logged about it.
#[derive(Clone, Default)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The point of this type is that its contents never reach output.
        f.debug_struct("Redactor")
            .field("secrets", &self.secrets.len())
            .finish()
    }
}

impl Redactor {
    /// The secrets `req` carries, and every account key `config` knows.
    pub fn for_request(req: &http::Request<Vec<u8>>, config: &ServiceConfig) -> Self {
        let mut secrets: Vec<String> = config
            .accounts
            .iter()
            .flat_map(|a| a.keys.iter().cloned())
            .collect();
        if let Some(credential) = req
            .headers()
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(credential_part)
        {
            secrets.push(credential.to_owned());
        }
        for value in sig_values(req.uri().query().unwrap_or("")) {
            let decoded = percent_decode_str(value).decode_utf8_lossy().into_owned();
            secrets.push(value.to_owned());
            secrets.push(decoded);
        }
        secrets.retain(|s| s.len() >= MIN_SEARCHED_LEN);
        // Longest first, so a secret that contains another is blanked whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Redactor { secrets }
    }

    /// `text` with every known secret blanked.
    pub fn text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for s in &self.secrets {
            if out.contains(s.as_str()) {
                out = out.replace(s.as_str(), REDACTED);
            }
        }
        out
    }

    /// A request target (`/path?query`) with each `sig` value blanked, then any secret.
    pub fn url(&self, url: &str) -> String {
        let blanked = match url.split_once('?') {
            None => url.to_owned(),
            Some((path, query)) => {
                let params: Vec<String> = query
                    .split('&')
                    .map(|p| match p.split_once('=') {
                        Some((name, _)) if is_sig(name) => format!("{name}={REDACTED}"),
                        _ => p.to_owned(),
                    })
                    .collect();
                format!("{path}?{}", params.join("&"))
            }
        };
        self.text(&blanked)
    }

    /// A header value: `Authorization` keeps its scheme (and account), nothing more.
    pub fn header(&self, name: &str, value: &str) -> String {
        if name.eq_ignore_ascii_case("authorization") {
            return match credential_part(value) {
                Some(secret) => value.replacen(secret, REDACTED, 1),
                None => value.to_owned(),
            };
        }
        self.text(value)
    }
}

/// The secret part of an `Authorization` value: the signature of `SharedKey account:sig`, the
/// token of `Bearer token`, everything after any other scheme.
fn credential_part(value: &str) -> Option<&str> {
    let (_scheme, rest) = value.trim().split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let secret = match rest.rsplit_once(':') {
        Some((_account, sig)) if !rest.contains('.') => sig,
        _ => rest,
    };
    (!secret.is_empty()).then_some(secret)
}

fn is_sig(name: &str) -> bool {
    percent_decode_str(name)
        .decode_utf8_lossy()
        .eq_ignore_ascii_case("sig")
}

/// The raw (still percent-encoded) values of every `sig` parameter.
fn sig_values(query: &str) -> impl Iterator<Item = &str> {
    query.split('&').filter_map(|p| match p.split_once('=') {
        Some((name, value)) if is_sig(name) => Some(value),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::config::DEV_KEY;

    fn request(uri: &str, auth: Option<&str>) -> http::Request<Vec<u8>> {
        let mut b = http::Request::builder().uri(uri);
        if let Some(a) = auth {
            b = b.header("authorization", a);
        }
        b.body(Vec::new()).unwrap()
    }

    #[test]
    fn sas_signatures_are_blanked_in_the_url_and_wherever_they_are_quoted() {
        let sig = "df3p72K1Ui9YFL38y%2BYxatWDaHtINPoQ7BauCbiIxVM%3D";
        let url = format!("/acct/q/messages?sv=2018-03-28&sig={sig}&SIG=AAAA");
        let r = Redactor::for_request(&request(&url, None), &ServiceConfig::dev());
        assert_eq!(
            r.url(&url),
            "/acct/q/messages?sv=2018-03-28&sig=<redacted>&SIG=<redacted>"
        );
        let quoted = "Signature 'df3p72K1Ui9YFL38y+YxatWDaHtINPoQ7BauCbiIxVM=' did not match";
        assert_eq!(r.text(quoted), "Signature '<redacted>' did not match");
    }

    #[test]
    fn authorization_keeps_scheme_and_account_only() {
        let sk = "SharedKey devstoreaccount1:X3MISo3ZgW8XkqKg3nzqXn8xa+G6k2Qqqa/+IKE2KME=";
        let r = Redactor::for_request(&request("/a", Some(sk)), &ServiceConfig::dev());
        assert_eq!(
            r.header("Authorization", sk),
            "SharedKey devstoreaccount1:<redacted>"
        );
        assert_eq!(
            r.text("found 'X3MISo3ZgW8XkqKg3nzqXn8xa+G6k2Qqqa/+IKE2KME=' in the request"),
            "found '<redacted>' in the request"
        );
        let jwt = "Bearer eyJhbGciOiJub25lIn0.eyJhdWQiOiJ4In0.c2ln";
        assert_eq!(r.header("authorization", jwt), "Bearer <redacted>");
        assert_eq!(r.header("x-ms-date", "Mon"), "Mon");
    }

    #[test]
    fn account_keys_are_blanked_anywhere() {
        let r = Redactor::for_request(&request("/a", None), &ServiceConfig::dev());
        let body = format!("<QueueMessage><MessageText>{DEV_KEY}</MessageText></QueueMessage>");
        assert!(!r.text(&body).contains(DEV_KEY));
        assert!(!format!("{r:?}").contains(DEV_KEY));
    }
}
