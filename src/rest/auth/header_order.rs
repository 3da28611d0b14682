//! The order of `x-ms-*` headers in a SharedKey string-to-sign.
//!
//! The service sorts header names with .NET's en-US culture collation, not byte order, and the
//! SDKs imitate it with three small weight tables (JS `SharedKeyComparator`, Python
//! `_storage_header_sort`). We do the same, so that a client signing e.g. `x-ms-meta-a_b` and
//! `x-ms-metaa` lists them in the order we expect.
//!
//! Collation compares in levels:
//! 1. *primary*: letters case-insensitively, with `-`, `'` and most other punctuation ignored
//!    altogether, `_` before digits, digits before letters;
//! 2. *case*: upper-case letters weigh more (header names are lower-cased first, so this level
//!    never decides anything for us, but is kept for fidelity);
//! 3. *special*: the ignored hyphen and apostrophe finally count, by their position.

use std::cmp::Ordering;

/// Marks "past the end of the string"; no character has this weight.
const END: u32 = 1;

/// The primary weight of an ASCII byte; 0 means "ignored at this level".
fn primary(b: u8) -> u32 {
    match b {
        b'!' => 0x71c,
        b'#' => 0x71f,
        b'$' => 0x721,
        b'%' => 0x723,
        b'&' => 0x725,
        b'*' => 0x72d,
        b'.' => 0x733,
        b'^' => 0x743,
        b'_' => 0x744,
        b'`' => 0x748,
        b'|' => 0x74c,
        b'~' => 0x750,
        b'+' => 0x803,
        b'0' => 0xd03,
        // 1..9 are spaced two apart, with a gap after 0.
        b'1'..=b'9' => 0xd1a + 2 * u32::from(b - b'1'),
        b'a'..=b'z' => letter(b - b'a'),
        b'A'..=b'Z' => letter(b - b'A'),
        // Everything else below 0x80 (controls, space, quotes, brackets, `,-/:;<=>?@\`) is
        // ignorable at the primary level in the SDK tables.
        0..=0x7f => 0,
        // Header names are ASCII tokens; anything else sorts after all of ASCII, by byte,
        // so the order stays total.
        _ => 0xf000 + u32::from(b),
    }
}

/// Primary weights of `a`..`z` (the culture's letter spacing is uneven).
fn letter(index: u8) -> u32 {
    const LETTERS: [u32; 26] = [
        0xe02, 0xe09, 0xe0a, 0xe1a, 0xe21, 0xe23, 0xe25, 0xe2c, 0xe32, 0xe35, 0xe36, 0xe48, 0xe51,
        0xe70, 0xe7c, 0xe7e, 0xe89, 0xe8a, 0xe91, 0xe99, 0xe9f, 0xea2, 0xea4, 0xea6, 0xea7, 0xea9,
    ];
    LETTERS.get(usize::from(index)).copied().unwrap_or(0)
}

/// The case-level weight: only upper-case ASCII letters count.
fn case(b: u8) -> u32 {
    if b.is_ascii_uppercase() { 0x12 } else { 0 }
}

/// The special level: only the characters ignored earlier that the culture still ranks.
fn special(b: u8) -> u32 {
    match b {
        b'\'' => 0x8012,
        b'-' => 0x8212,
        _ => 0,
    }
}

fn weight(level: usize, s: &[u8], i: usize) -> u32 {
    match s.get(i) {
        None => END,
        Some(&b) => match level {
            0 => primary(b),
            1 => case(b),
            _ => special(b),
        },
    }
}

/// The SDKs' `isLessThan`: walks both strings level by level, skipping zero weights.
fn is_less_than(lhs: &[u8], rhs: &[u8]) -> bool {
    const LEVELS: usize = 3;
    let (mut level, mut i, mut j) = (0, 0, 0);
    while level < LEVELS {
        // At the last level the first skipped character decides: the string that had to skip
        // (i.e. has a `-`/`'` where the other has not) sorts after.
        if level == LEVELS - 1 && i != j {
            return i > j;
        }
        let w1 = weight(level, lhs, i);
        let w2 = weight(level, rhs, j);
        if w1 == END && w2 == END {
            level += 1;
            i = 0;
            j = 0;
        } else if w1 == w2 {
            i += 1;
            j += 1;
        } else if w1 == 0 {
            i += 1;
        } else if w2 == 0 {
            j += 1;
        } else {
            return w1 < w2;
        }
    }
    false
}

/// Culture-aware order of two header names, with byte order breaking exact ties so the
/// result is deterministic.
pub fn compare(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if is_less_than(a, b) {
        Ordering::Less
    } else if is_less_than(b, a) {
        Ordering::Greater
    } else {
        a.cmp(b)
    }
}

/// Sorts by [`compare`] on the key `name`.
///
/// A hand-written insertion sort, not `slice::sort_by`: the standard sort may panic when a
/// comparator is not a total order, and a culture collation ported from tables carries no
/// proof that it is one. Requests carry a handful of `x-ms-*` headers, so O(n²) is nothing.
pub fn sort_by_name<T>(items: &mut [T], name: impl Fn(&T) -> &str) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(name(&items[j - 1]), name(&items[j])) == Ordering::Greater {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(names: &[&'static str]) -> Vec<&'static str> {
        let mut v = names.to_vec();
        sort_by_name(&mut v, |s| s);
        v
    }

    #[test]
    fn fact_sheet_example_differs_from_byte_order() {
        let names = ["x-ms-meta-a1", "x-ms-meta-a_b", "x-ms-metaa"];
        let mut ordinal = names.to_vec();
        ordinal.sort();
        assert_eq!(ordinal, ["x-ms-meta-a1", "x-ms-meta-a_b", "x-ms-metaa"]);
        assert_eq!(
            sorted(&names),
            ["x-ms-metaa", "x-ms-meta-a_b", "x-ms-meta-a1"]
        );
    }

    #[test]
    fn usual_headers_keep_byte_order() {
        let names = [
            "x-ms-version",
            "x-ms-meta-b",
            "x-ms-date",
            "x-ms-client-request-id",
            "x-ms-meta-a",
            "x-ms-return-client-request-id",
        ];
        let mut ordinal = names.to_vec();
        ordinal.sort();
        assert_eq!(sorted(&names), ordinal);
    }

    #[test]
    fn hyphen_counts_only_when_all_else_is_equal() {
        // Primary level equal ("xmsab"); the one with the hyphen sorts after.
        assert_eq!(compare("x-ms-ab", "x-ms-a-b"), Ordering::Less);
        assert_eq!(compare("x-ms-a-b", "x-ms-ab"), Ordering::Greater);
        // Underscore before digits before letters.
        assert_eq!(compare("x-ms-_", "x-ms-0"), Ordering::Less);
        assert_eq!(compare("x-ms-9", "x-ms-a"), Ordering::Less);
        // A prefix sorts first.
        assert_eq!(compare("x-ms-meta", "x-ms-meta-a"), Ordering::Less);
        assert_eq!(compare("same", "same"), Ordering::Equal);
    }

    #[test]
    fn odd_bytes_never_panic() {
        let mut v = vec![
            "x-ms-\u{e9}",
            "x-ms-:",
            "",
            "x-ms-'",
            "x-ms--",
            "X-MS-A",
            "x-ms-a",
        ];
        sort_by_name(&mut v, |s| s);
        assert_eq!(v.len(), 7);
        assert_eq!(compare("X-MS-A", "x-ms-a"), Ordering::Greater);
    }
}
