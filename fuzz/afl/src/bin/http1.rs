//! The HTTP/1.1 decoder on raw bytes, read whole and cut in two: never a panic, the same
//! requests either way (after a final blank line ends any head), nothing after a rejection.

use azqueue::http1::{Config, Decoder, Item};
use std::collections::VecDeque;

fn decode(reads: &[&[u8]]) -> Vec<String> {
    let mut decoder = Decoder::new(Config {
        max_head: 4096,
        max_body: 70_000,
        ..Config::new("127.0.0.1:10001")
    });
    let mut items = VecDeque::new();
    for read in reads {
        decoder.feed(read, &mut items);
    }
    items
        .into_iter()
        .filter(|i| !matches!(i, Item::Continue))
        .map(|i| match i {
            Item::Request(r) => format!("{:?} {}", r.request, r.keep_alive),
            _ => "reject".to_owned(),
        })
        .collect()
}

fn main() {
    afl::fuzz!(|data: &[u8]| {
        const END: &[u8] = b"\r\n\r\n";
        let cut = data.first().map_or(0, |&b| usize::from(b)).min(data.len());
        let whole = decode(&[data, END]);
        let split = decode(&[&data[..cut], &data[cut..], END]);
        assert_eq!(whole, split, "cutting at {cut} changed the decoding");
        if let Some(i) = whole.iter().position(|s| s == "reject") {
            assert_eq!(i + 1, whole.len(), "items after a rejection");
        }
    });
}
