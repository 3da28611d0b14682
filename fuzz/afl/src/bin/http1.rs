//! The HTTP/1.1 decoder on raw bytes, read whole and cut in two: never a panic, the same
//! requests either way (after a final blank line ends any head), nothing after a rejection.

use azqueue::http1::Config;
use azqueue_afl::oracle::decode;

fn main() {
    let config = Config {
        max_head: 4096,
        max_body: 70_000,
        ..Config::new("127.0.0.1:10001")
    };
    afl::fuzz!(|data: &[u8]| {
        const END: &[u8] = b"\r\n\r\n";
        let cut = data.first().map_or(0, |&b| usize::from(b)).min(data.len());
        let whole = decode(&config, &[data, END]);
        let split = decode(&config, &[&data[..cut], &data[cut..], END]);
        assert_eq!(whole, split, "cutting at {cut} changed the decoding");
        if let Some(i) = whole.iter().position(|s| s == "reject") {
            assert_eq!(i + 1, whole.len(), "items after a rejection");
        }
    });
}
