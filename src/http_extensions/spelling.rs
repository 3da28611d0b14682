//! Header names as the client spelled them.
//!
//! HTTP header names are case-insensitive, and the `http` crate stores them lowercased. Azure,
//! though, keeps a metadata name in the case it was sent (`x-ms-meta-Color` is listed as
//! `<Color>` and returned as `x-ms-meta-Color`). A host that sees the raw bytes (this codec,
//! Node's `rawHeaders`) attaches the names as sent to the request's extensions; the REST layer
//! spells metadata names from them, and attaches the spelling of its own response headers, so
//! the HTTP/1.1 codec (`crate::http1::encode`) writes them back as Azure would. Hosts that cannot know (Fetch
//! lowercases every name) attach nothing, and names stay lowercase.

/// Header names that contain upper-case letters, as sent. (Names that are all lowercase
/// need no entry: the `http` crate already spells them so.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spelling(Vec<String>);

impl Spelling {
    /// Records `name` if its case carries information.
    pub fn note(&mut self, name: &str) {
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            self.0.push(name.to_owned());
        }
    }

    /// How `name` was spelled, if it was noted.
    pub fn of(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|n| n.eq_ignore_ascii_case(name))
            .map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_with_capitals_are_kept_and_found_ignoring_case() {
        let mut s = Spelling::default();
        s.note("x-ms-version");
        s.note("x-ms-meta-Color");
        assert_eq!(s.of("x-ms-meta-color"), Some("x-ms-meta-Color"));
        assert_eq!(s.of("x-ms-version"), None);
        assert_eq!(s.0.len(), 1);
    }
}
