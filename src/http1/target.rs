//! The request target (the URL on the request line) as an `http::Uri`.

use http::Uri;

/// Percent-encodes the few characters a WHATWG URL or a raw request line may still contain but
/// `http::Uri` refuses (`{`, `}`, `|`, `^`, a backtick, `"`, `<`, `>`, `\`, and anything
/// non-ASCII), so such a request reaches the REST layer (which answers it as Azure would)
/// instead of failing here.
pub fn lenient_uri(url: &str) -> String {
    lenient(url.as_bytes())
}

fn lenient(url: &[u8]) -> String {
    let mut out = String::with_capacity(url.len() + 8);
    for &b in url {
        if acceptable(b) {
            out.push(b as char);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 15)] as char);
        }
    }
    out
}

fn acceptable(b: u8) -> bool {
    b.is_ascii_graphic()
        && !matches!(
            b,
            b'{' | b'}' | b'|' | b'^' | b'`' | b'"' | b'<' | b'>' | b'\\'
        )
}

/// The URI for `target`. Origin-form (`/account/queue?…`) stays origin-form when the client
/// named a host (the REST layer reads it from the `Host` header, as it does behind Node's
/// `http`); without one it is addressed to `fallback_host`. Absolute-form and `*` pass as
/// sent. `None` when the target is not a URI at all.
pub(super) fn uri(target: &[u8], has_host: bool, fallback_host: &str) -> Option<Uri> {
    let text = if target.iter().all(|&b| acceptable(b)) {
        // Checked ASCII above, so this cannot fail; the common case costs no re-encoding.
        String::from_utf8(target.to_vec()).ok()?
    } else {
        lenient(target)
    };
    let text = if text.starts_with('/') && !has_host {
        format!("http://{fallback_host}{text}")
    } else {
        text
    };
    Uri::try_from(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_form_keeps_its_shape_when_the_client_named_a_host() {
        let u = uri(b"/acct/q?comp=list", true, "127.0.0.1:10001").unwrap();
        assert_eq!(u.authority(), None);
        assert_eq!(u.path(), "/acct/q");
        assert_eq!(u.query(), Some("comp=list"));
    }

    #[test]
    fn origin_form_without_a_host_goes_to_the_server_itself() {
        let u = uri(b"/acct/q", false, "127.0.0.1:10001").unwrap();
        assert_eq!(u.to_string(), "http://127.0.0.1:10001/acct/q");
    }

    #[test]
    fn absolute_form_and_odd_characters() {
        let u = uri(b"http://h:1/a/b", true, "x").unwrap();
        assert_eq!(u.host(), Some("h"));
        let u = uri("/a/{b}|é".as_bytes(), true, "x").unwrap();
        assert_eq!(u.path(), "/a/%7Bb%7D%7C%C3%A9");
        assert_eq!(lenient_uri("a b"), "a%20b");
    }
}
