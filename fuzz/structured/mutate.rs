//! Mutators: byte-level havoc for framing and parsers, and structural changes to a request's
//! method, path, query, headers and body that keep it close enough to valid to reach deep code.

use crate::corpus::Seed;
use proptest::prelude::{Rng, RngCore};
use proptest::test_runner::TestRng;

/// Values that sit on boundaries the service checks.
const VALUES: &[&str] = &[
    "",
    "0",
    "-1",
    "1",
    "32",
    "33",
    "5000",
    "5001",
    "604800",
    "604801",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9223372036854775808",
    "99999999999999999999999",
    "1e3",
    "0x10",
    " 1",
    "true",
    "TRUE",
    "false",
    "list",
    "metadata",
    "acl",
    "properties",
    "stats",
    "service",
    "%",
    "%ZZ",
    "%00",
    "%C3%28",
    "%F0%9F%98%80",
    "a%2Fb",
    "..",
    "raup",
    "rwdlacup",
    "sq",
    "sco",
    "https",
    "https,http",
    "127.0.0.1",
    "127.0.0.1-127.0.0.9",
    "2026-04-06",
    "2009-09-19",
    "2017-11-09",
    "1999-01-01",
    "2026-13-45",
    "2026-11-23T00:00:00Z",
    "2026-11-23T00:00:00.1234567Z",
    "9999-12-31T23:59:59Z",
    "Mon, 23 Nov 2026 12:00:00 GMT",
    "Mon, 32 Nov 2026 12:00:00 GMT",
    "SharedKey devstoreaccount1:",
    "SharedKey devstoreaccount1:AAAA",
    "SharedKeyLite devstoreaccount1:AAAA",
    "SharedKey :",
    "SharedKey",
    "Bearer x",
    "Bearer eyJhbGciOiJub25lIn0.eyJhdWQiOiJodHRwczovL3N0b3JhZ2UuYXp1cmUuY29tIiwiZXhwIjo0MTAyNDQ0ODAwfQ.x",
    "Bearer a.b.c",
    "Basic Og==",
    "*",
    "https://example.com",
    "null",
    "GET,PUT",
    "x-ms-meta-a",
    "AAAAAAAAAAAAAAAAAAAAAA==",
    "00000000-0000-0000-0000-000000000000",
    "\u{e9}",
    "\u{0}",
];

/// Query parameters and headers the service reads.
const QUERY_KEYS: &[&str] = &[
    "comp",
    "restype",
    "peekonly",
    "numofmessages",
    "visibilitytimeout",
    "messagettl",
    "popreceipt",
    "prefix",
    "marker",
    "maxresults",
    "include",
    "timeout",
    "api-version",
    "sv",
    "ss",
    "srt",
    "sp",
    "se",
    "st",
    "spr",
    "sip",
    "si",
    "sig",
    "sr",
    "ses",
];

const HEADER_NAMES: &[&str] = &[
    "x-ms-version",
    "x-ms-date",
    "date",
    "authorization",
    "content-length",
    "content-type",
    "content-md5",
    "x-ms-meta-a",
    "x-ms-meta-A",
    "x-ms-meta-",
    "x-ms-meta-1bad",
    "x-ms-client-request-id",
    "origin",
    "access-control-request-method",
    "access-control-request-headers",
    "transfer-encoding",
    "x-azqueue-dev",
    "host",
    "if-match",
    "range",
];

const PATH_SEGMENTS: &[&str] = &[
    "devstoreaccount1",
    "devstoreaccount1-secondary",
    "other",
    "_azqueue",
    "inspect",
    "snapshot",
    "reset",
    "store",
    "messages",
    "q1",
    "q2",
    "ab",
    "UPPER",
    "a--b",
    "-ab",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "",
    ".",
    "%2e%2e",
    "00000000-0000-0000-0000-000000000000",
    "%00",
    "%E2%82%AC",
];

const METHODS: &[&str] = &[
    "GET", "PUT", "POST", "DELETE", "HEAD", "OPTIONS", "MERGE", "PATCH", "TRACE", "get",
];

/// Pieces that change how XML, JSON and HTTP framing read.
const TOKENS: &[&str] = &[
    "<",
    ">",
    "/>",
    "</",
    "<?xml version=\"1.0\"?>",
    "<!DOCTYPE x [<!ENTITY a \"b\">]>",
    "&amp;",
    "&#0;",
    "&#x1;",
    "&#xFFFF;",
    "&#99999999;",
    "&lt;",
    "&unknown;",
    "]]>",
    "<![CDATA[",
    "\u{feff}",
    "\r\n",
    "\r\n\r\n",
    "\n",
    ":",
    " ",
    "\t",
    "\0",
    "0\r\n\r\n",
    "ffffffffffffffff\r\n",
    "Transfer-Encoding: chunked\r\n",
    "Content-Length: 5\r\n",
    "Content-Length: 99999999999\r\n",
    "Expect: 100-continue\r\n",
    "Connection: close\r\n",
    "HTTP/1.0",
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    "null",
    "-1",
    "1e308",
    "18446744073709551616",
    "\"\\u0000\"",
    "\"\\ud800\"",
];

/// A random pick from a non-empty slice.
pub fn pick<'a, T>(rng: &mut TestRng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// Byte-level havoc: 1–8 edits of flips, interesting bytes, tokens, deletions, duplications
/// and splices from `other`.
pub fn havoc(rng: &mut TestRng, data: &mut Vec<u8>, other: &[u8]) {
    for _ in 0..rng.random_range(1..=8) {
        let len = data.len();
        match rng.random_range(0..9) {
            0 if len > 0 => {
                let i = rng.random_range(0..len);
                data[i] ^= 1 << rng.random_range(0..8);
            }
            1 if len > 0 => {
                let i = rng.random_range(0..len);
                data[i] = *pick(
                    rng,
                    &[0u8, 0x7f, 0x80, 0xff, b'<', b'&', b'%', b'\r', b'\n'],
                );
            }
            2 => {
                let at = rng.random_range(0..=len);
                let token = pick(rng, TOKENS).as_bytes();
                data.splice(at..at, token.iter().copied());
            }
            3 if len > 0 => {
                let from = rng.random_range(0..len);
                let to = (from + rng.random_range(1..=16)).min(len);
                data.drain(from..to);
            }
            4 if len > 0 => {
                let from = rng.random_range(0..len);
                let to = (from + rng.random_range(1..=32)).min(len);
                let copy = data[from..to].to_vec();
                let at = rng.random_range(0..=data.len());
                data.splice(at..at, copy);
            }
            5 if !other.is_empty() => {
                let from = rng.random_range(0..other.len());
                let to = (from + rng.random_range(1..=64)).min(other.len());
                let at = rng.random_range(0..=len);
                data.splice(at..at, other[from..to].iter().copied());
            }
            6 if len > 0 => data.truncate(rng.random_range(0..len)),
            7 => {
                let at = rng.random_range(0..=len);
                let digits = pick(rng, VALUES).as_bytes();
                data.splice(at..at, digits.iter().copied());
            }
            _ => {
                let at = rng.random_range(0..=len);
                let mut random = vec![0u8; rng.random_range(1..=8)];
                rng.fill_bytes(&mut random);
                data.splice(at..at, random);
            }
        }
    }
}

/// One to four structural changes to a request.
pub fn request(rng: &mut TestRng, seed: &mut Seed, other: &Seed) {
    for _ in 0..rng.random_range(1..=4) {
        match rng.random_range(0..12) {
            0 => seed.method = pick(rng, METHODS).to_string(),
            1 => {
                let mut segments: Vec<String> =
                    seed.path.split('/').skip(1).map(str::to_owned).collect();
                let i = rng.random_range(0..=segments.len());
                match rng.random_range(0..3) {
                    0 if i < segments.len() => segments[i] = pick(rng, PATH_SEGMENTS).to_string(),
                    1 if i < segments.len() => {
                        segments.remove(i);
                    }
                    _ => segments.insert(i, pick(rng, PATH_SEGMENTS).to_string()),
                }
                seed.path = format!("/{}", segments.join("/"));
            }
            2 | 3 => {
                let value = pick(rng, VALUES).to_string();
                if !seed.query.is_empty() && rng.random_bool(0.6) {
                    let i = rng.random_range(0..seed.query.len());
                    seed.query[i].1 = value;
                } else {
                    seed.query.push((pick(rng, QUERY_KEYS).to_string(), value));
                }
            }
            4 if !seed.query.is_empty() => {
                let i = rng.random_range(0..seed.query.len());
                if rng.random_bool(0.5) {
                    seed.query.remove(i);
                } else {
                    let dup = seed.query[i].clone();
                    seed.query.push(dup);
                }
            }
            5 | 6 => {
                let value = pick(rng, VALUES).as_bytes().to_vec();
                if !seed.headers.is_empty() && rng.random_bool(0.5) {
                    let i = rng.random_range(0..seed.headers.len());
                    seed.headers[i].1 = value;
                } else {
                    seed.headers
                        .push((pick(rng, HEADER_NAMES).to_string(), value));
                }
            }
            7 if !seed.headers.is_empty() => {
                let i = rng.random_range(0..seed.headers.len());
                seed.headers.remove(i);
            }
            8 | 9 => havoc(rng, &mut seed.body, &other.body),
            10 => seed.body = other.body.clone(),
            _ => seed.query = other.query.clone(),
        }
    }
}
