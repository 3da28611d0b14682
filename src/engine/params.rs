//! Validated operation parameters: "parse, don't validate".
//!
//! The engine's methods take these types, so a value out of Azure's ranges cannot reach it.
//! Each constructor reports the allowed range so the REST layer can name the query parameter.

use super::limits::{MAX_MESSAGE_BYTES, MAX_MESSAGES_PER_GET, MAX_VISIBILITY_SECS};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A value outside its allowed inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeError {
    pub min: i64,
    pub max: i64,
}

/// How long a message stays hidden: 0 ..= 7 days (Get requires at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct VisibilityTimeout(u32);

impl VisibilityTimeout {
    /// For Put and Update, where 0 means "visible now".
    pub fn new(secs: i64) -> Result<Self, RangeError> {
        Self::in_range(secs, 0)
    }

    /// For Get Messages, where the minimum is one second.
    pub fn for_get(secs: i64) -> Result<Self, RangeError> {
        Self::in_range(secs, 1)
    }

    fn in_range(secs: i64, min: i64) -> Result<Self, RangeError> {
        let max = MAX_VISIBILITY_SECS as i64;
        if (min..=max).contains(&secs) {
            Ok(VisibilityTimeout(secs as u32))
        } else {
            Err(RangeError { min, max })
        }
    }

    pub fn secs(self) -> u32 {
        self.0
    }
}

/// How long a message lives: a positive number of seconds, or forever (`-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeToLive {
    Secs(u64),
    Never,
}

impl TimeToLive {
    /// `-1` or any positive number of seconds (service versions since 2017-07-29). Clients
    /// say "forever" with numbers far past `i32::MAX` too (JavaScript's
    /// `Number.MAX_SAFE_INTEGER`); the expiry is then capped at [`super::time::NEVER`], as
    /// Azurite caps it.
    pub fn new(secs: i64) -> Result<Self, RangeError> {
        match secs {
            -1 => Ok(TimeToLive::Never),
            1.. => Ok(TimeToLive::Secs(secs.unsigned_abs())),
            _ => Err(RangeError {
                min: 1,
                max: i64::MAX,
            }),
        }
    }

    /// True when a message put with `visibility` would become visible before it expires,
    /// the rule Put Message enforces.
    pub fn outlasts(self, visibility: VisibilityTimeout) -> bool {
        match self {
            TimeToLive::Never => true,
            TimeToLive::Secs(s) => s > u64::from(visibility.0),
        }
    }
}

impl Default for TimeToLive {
    fn default() -> Self {
        TimeToLive::Secs(u64::from(super::limits::DEFAULT_TTL_SECS))
    }
}

/// How many messages one Get or Peek returns: 1 ..= 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageCount(u32);

impl MessageCount {
    pub fn new(n: i64) -> Result<Self, RangeError> {
        let max = MAX_MESSAGES_PER_GET as i64;
        if (1..=max).contains(&n) {
            Ok(MessageCount(n as u32))
        } else {
            Err(RangeError { min: 1, max })
        }
    }

    pub const ONE: MessageCount = MessageCount(1);

    pub fn get(self) -> usize {
        self.0 as usize
    }
}

/// Message text: at most 64 KiB of UTF-8, and only characters XML 1.0 can carry, since every
/// message travels inside an XML document (the service: "a format that can be included in an
/// XML request with UTF-8 encoding"). A text with, say, U+0001 could never be read back through
/// the REST API, whose answers would stop being XML.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MessageText(Arc<str>);

/// Why a text cannot be a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextError {
    /// Larger than the service accepts (`size` bytes of UTF-8).
    TooLarge { size: usize },
    /// Holds `found`, a character XML 1.0 does not allow (a control character other than tab,
    /// line feed and carriage return, or U+FFFE / U+FFFF).
    NotXml { found: char },
}

impl MessageText {
    /// Checks the text before it is moved (a `String`) or copied (a `&str`) into the shared
    /// buffer a stored message keeps, so a text is copied at most once on its way in.
    pub fn new(text: impl AsRef<str> + Into<Arc<str>>) -> Result<Self, TextError> {
        let checked = text.as_ref();
        if checked.len() > MAX_MESSAGE_BYTES {
            return Err(TextError::TooLarge {
                size: checked.len(),
            });
        }
        if let Some(found) = first_non_xml_char(checked) {
            return Err(TextError::NotXml { found });
        }
        Ok(MessageText(text.into()))
    }

    /// The text as a stored message holds it.
    pub fn into_shared(self) -> Arc<str> {
        self.0
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// XML 1.0's `Char` production (Rust strings hold no surrogates).
#[cfg(test)]
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The first character of `text` outside XML 1.0's `Char` production. In a Rust string only two
/// kinds can be: ASCII controls other than tab, LF and CR, and U+FFFE/U+FFFF (always the bytes
/// `EF BF BE`/`EF BF BF`, since `EF` only ever leads a character). So a plain byte loop finds
/// them, with no per-character decoding: the shipped wasm is built for size, where decoding
/// each character of a 64 KiB text through uninlined calls tripled the CPU of a large Put.
fn first_non_xml_char(text: &str) -> Option<char> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Eight bytes at a time while none of them can start a refusal: most texts (base64,
        // JSON) are settled here without looking at each byte.
        if let Some(word) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes([
                word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
            ]);
            if !may_hold_refusal(word) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        if b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r' {
            return Some(char::from(b));
        }
        if b == 0xEF && bytes.get(i + 1) == Some(&0xBF) {
            match bytes.get(i + 2) {
                Some(0xBE) => return Some('\u{FFFE}'),
                Some(0xBF) => return Some('\u{FFFF}'),
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// Whether any of the eight bytes of `word` is below 0x20 or is 0xEF (the only bytes that can
/// start a character the scan refuses). Exact for "none": the bit tricks may only report a
/// byte that the byte-wise scan then looks at and lets pass.
fn may_hold_refusal(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below_0x20 = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    let ef = word ^ (ONES * 0xEF);
    let has_ef = ef.wrapping_sub(ONES) & !ef & HIGHS;
    below_0x20 | has_ef != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_scan_finds_what_the_char_production_refuses() {
        let samples = [
            '\0',
            '\u{1}',
            '\t',
            '\n',
            '\u{b}',
            '\r',
            '\u{1f}',
            ' ',
            '\u{7f}',
            '\u{80}',
            'é',
            '\u{d7ff}',
            '\u{e000}',
            '\u{efbf}',
            '\u{fbff}',
            '\u{fffd}',
            '\u{fffe}',
            '\u{ffff}',
            '\u{10000}',
            '\u{10ffff}',
        ];
        for c in samples {
            let long = "0123456789abcdef";
            for text in [
                format!("{c}"),
                format!("ab{c}"),
                format!("\u{fffd}{c}x"),
                format!("{long}{c}{long}"),
                format!("{}{c}", &long[..7]),
                format!("{}{c}{long}", &long[..9]),
                format!("{long}{long}{c}"),
            ] {
                let expected = text.chars().find(|&c| !is_xml_char(c));
                assert_eq!(first_non_xml_char(&text), expected, "{text:?}");
            }
        }
    }

    #[test]
    fn visibility_ranges() {
        assert!(VisibilityTimeout::new(0).is_ok());
        assert!(VisibilityTimeout::new(604_800).is_ok());
        assert_eq!(
            VisibilityTimeout::new(604_801),
            Err(RangeError {
                min: 0,
                max: 604_800
            })
        );
        assert_eq!(
            VisibilityTimeout::for_get(0),
            Err(RangeError {
                min: 1,
                max: 604_800
            })
        );
    }

    #[test]
    fn ttl_accepts_minus_one_and_positive() {
        assert_eq!(TimeToLive::new(-1), Ok(TimeToLive::Never));
        assert_eq!(TimeToLive::new(1), Ok(TimeToLive::Secs(1)));
        assert!(TimeToLive::new(0).is_err());
        assert!(TimeToLive::new(-2).is_err());
        assert_eq!(TimeToLive::new(1 << 31), Ok(TimeToLive::Secs(1 << 31)));
        assert_eq!(
            TimeToLive::new(i64::MAX),
            Ok(TimeToLive::Secs(i64::MAX as u64))
        );
    }

    #[test]
    fn ttl_must_outlast_visibility() {
        let v = VisibilityTimeout::new(10).unwrap();
        assert!(!TimeToLive::Secs(10).outlasts(v));
        assert!(TimeToLive::Secs(11).outlasts(v));
        assert!(TimeToLive::Never.outlasts(v));
    }

    #[test]
    fn text_limit_counts_utf8_bytes() {
        assert!(MessageText::new("a".repeat(65_536)).is_ok());
        assert_eq!(
            MessageText::new("a".repeat(65_537)),
            Err(TextError::TooLarge { size: 65_537 })
        );
        // 21_846 three-byte characters = 65_538 bytes.
        assert!(MessageText::new("\u{20ac}".repeat(21_846)).is_err());
    }

    #[test]
    fn text_holds_only_characters_xml_can_carry() {
        assert!(MessageText::new("tab\t lf\n cr\r \u{D7FF} \u{E000} \u{FFFD} \u{1F600}").is_ok());
        for bad in [
            '\u{0}', '\u{1}', '\u{8}', '\u{B}', '\u{1F}', '\u{FFFE}', '\u{FFFF}',
        ] {
            assert_eq!(
                MessageText::new(format!("a{bad}b")),
                Err(TextError::NotXml { found: bad })
            );
        }
    }
}
