//! Properties of the HTTP/1.1 decoder: however a pipelined stream is cut into reads, the same
//! requests come out; and no byte sequence makes it panic.

use azqueue::http1::{Config, Decoder, Item};
use proptest::prelude::*;
use std::collections::VecDeque;

/// One request of the generated stream, and its wire form.
#[derive(Debug, Clone)]
struct Wire {
    method: &'static str,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    chunked: bool,
    expect: bool,
}

impl Wire {
    fn bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{} {} HTTP/1.1\r\nHost: example\r\n",
            self.method, self.path
        )
        .into_bytes();
        for (k, v) in &self.headers {
            out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        if self.expect {
            out.extend_from_slice(b"Expect: 100-continue\r\n");
        }
        if self.chunked {
            out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
            for piece in self.body.chunks(7) {
                out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
                out.extend_from_slice(piece);
                out.extend_from_slice(b"\r\n");
            }
            out.extend_from_slice(b"0\r\n\r\n");
        } else {
            out.extend_from_slice(
                format!("Content-Length: {}\r\n\r\n", self.body.len()).as_bytes(),
            );
            out.extend_from_slice(&self.body);
        }
        out
    }
}

fn wire() -> impl Strategy<Value = Wire> {
    (
        prop_oneof![
            Just("GET"),
            Just("PUT"),
            Just("POST"),
            Just("DELETE"),
            Just("HEAD")
        ],
        "/[a-z0-9]{1,8}(/[a-z0-9]{1,8}){0,2}(\\?[a-z]{1,5}=[a-z0-9]{0,5})?",
        prop::collection::vec(("x-ms-[a-z]{1,6}", "[ -~]{0,20}"), 0..4),
        prop::collection::vec(any::<u8>(), 0..40),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(method, path, headers, body, chunked, expect)| Wire {
            method,
            path,
            headers: headers
                .into_iter()
                .map(|(k, v)| (k, v.trim().to_owned()))
                .collect(),
            body,
            chunked,
            expect,
        })
}

/// A decoded request: method, URI, headers, body.
type Decoded = (String, String, Vec<(String, Vec<u8>)>, Vec<u8>);

/// The requests a stream yields when read in `cuts`-sized pieces;
/// interim `100 Continue`s are left out (whether one is due depends on where a read ends).
fn decode(stream: &[u8], cuts: &[usize]) -> Vec<Decoded> {
    let mut decoder = Decoder::new(Config::new("127.0.0.1:10001"));
    let mut items = VecDeque::new();
    let mut rest = stream;
    for &cut in cuts {
        let (now, later) = rest.split_at(cut.min(rest.len()));
        decoder.feed(now, &mut items);
        rest = later;
    }
    decoder.feed(rest, &mut items);
    items
        .into_iter()
        .filter_map(|item| match item {
            Item::Continue => None,
            Item::Request(r) => Some((
                r.request.method().to_string(),
                r.request.uri().to_string(),
                r.request
                    .headers()
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
                    .collect(),
                r.request.into_body(),
            )),
            Item::Reject(status) => panic!("rejected {status}"),
        })
        .collect()
}

proptest! {
    #[test]
    fn any_split_yields_the_same_requests(
        requests in prop::collection::vec(wire(), 1..5),
        cuts in prop::collection::vec(0usize..64, 0..30),
    ) {
        let stream: Vec<u8> = requests.iter().flat_map(Wire::bytes).collect();
        let whole = decode(&stream, &[]);
        prop_assert_eq!(whole.len(), requests.len());
        for (got, sent) in whole.iter().zip(&requests) {
            prop_assert_eq!(&got.0, sent.method);
            prop_assert_eq!(&got.1, &sent.path);
            prop_assert_eq!(&got.3, &sent.body);
        }
        prop_assert_eq!(decode(&stream, &cuts), whole.clone());
        // One byte at a time, the hardest split of all.
        let ones = vec![1; stream.len()];
        prop_assert_eq!(decode(&stream, &ones), whole);
    }

    #[test]
    fn arbitrary_bytes_never_panic(
        prefix in prop::collection::vec(wire(), 0..2),
        noise in prop::collection::vec(any::<u8>(), 0..300),
        cuts in prop::collection::vec(0usize..64, 0..10),
    ) {
        let mut stream: Vec<u8> = prefix.iter().flat_map(Wire::bytes).collect();
        stream.extend_from_slice(&noise);
        let mut decoder = Decoder::new(Config { max_head: 256, max_body: 64, ..Config::new("h") });
        let mut items = VecDeque::new();
        let mut rest = &stream[..];
        for &cut in &cuts {
            let (now, later) = rest.split_at(cut.min(rest.len()));
            decoder.feed(now, &mut items);
            rest = later;
        }
        decoder.feed(rest, &mut items);
        // Whatever came out, a rejection is last, and nothing is held past the limits.
        if let Some(i) = items.iter().position(|i| matches!(i, Item::Reject(_))) {
            prop_assert_eq!(i, items.len() - 1);
            prop_assert!(decoder.is_done());
        }
        prop_assert!(decoder.buffered() <= 256 + 64 + 300);
    }

    #[test]
    fn noise_that_looks_like_http_never_panics(
        lines in prop::collection::vec(prop_oneof![
            Just("GET / HTTP/1.1".to_owned()),
            Just("POST /q HTTP/1.0".to_owned()),
            Just("Transfer-Encoding: chunked".to_owned()),
            Just("Content-Length: 3".to_owned()),
            Just("Expect: 100-continue".to_owned()),
            Just("Connection: close".to_owned()),
            Just("".to_owned()),
            "[0-9a-fA-F;= ]{0,6}",
            "[ -~]{0,12}",
        ], 0..20),
    ) {
        let stream = lines.join("\r\n");
        let mut decoder = Decoder::new(Config::new("h"));
        let mut items = VecDeque::new();
        for b in stream.as_bytes().chunks(3) {
            decoder.feed(b, &mut items);
        }
    }
}
