//! The reason phrase of a response's status line, when it should not be the standard one.
//!
//! Azure puts an error's message in the status line (`HTTP/1.1 404 The specified queue does
//! not exist.`), and clients show it: Python's `HttpResponseError.reason`, and for `HEAD`
//! requests, whose errors have no body, it is the only text there is. The REST layer attaches
//! the phrase to the response as this extension; hosts that write a status line (the socket
//! codec here, the Fetch API's `statusText`, `handleRaw`) use it in place of the standard one.

/// A response extension: the reason phrase to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReasonPhrase(pub &'static str);

impl ReasonPhrase {
    /// The phrase, if it may stand in a status line (RFC 9110 §15: tabs, spaces and visible
    /// ASCII; nothing that could end the line). Otherwise the host keeps the standard phrase.
    pub fn valid(self) -> Option<&'static str> {
        let fits = !self.0.is_empty()
            && self
                .0
                .bytes()
                .all(|b| b == b'\t' || b == b' ' || b.is_ascii_graphic());
        fits.then_some(self.0)
    }
}

/// The reason phrase to write for `response`: its [`ReasonPhrase`] if valid, else the standard
/// one for its status (or `Unknown`).
pub fn reason_of<B>(response: &http::Response<B>) -> &'static str {
    response
        .extensions()
        .get::<ReasonPhrase>()
        .and_then(|r| r.valid())
        .or_else(|| response.status().canonical_reason())
        .unwrap_or("Unknown")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_phrase_replaces_the_standard_one_and_an_invalid_one_does_not() {
        let mut r = http::Response::new(());
        *r.status_mut() = http::StatusCode::NOT_FOUND;
        assert_eq!(reason_of(&r), "Not Found");
        r.extensions_mut()
            .insert(ReasonPhrase("The specified queue does not exist."));
        assert_eq!(reason_of(&r), "The specified queue does not exist.");
        r.extensions_mut().insert(ReasonPhrase("two\r\nlines"));
        assert_eq!(reason_of(&r), "Not Found");
        r.extensions_mut().insert(ReasonPhrase(""));
        assert_eq!(reason_of(&r), "Not Found");
    }
}
