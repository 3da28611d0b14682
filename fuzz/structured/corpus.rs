//! The seeds: requests the official SDKs sent during a test run (captured by
//! `fuzz/capture.mjs`), one of each shape, kept as one pipelined HTTP/1.1 stream in
//! `tests/fixtures/fuzz/sdk-requests.http`.

use azqueue::http1::{Config, Decoder, Item};
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::Path;

/// Where the distilled seeds live.
pub const SEEDS: &str = "tests/fixtures/fuzz/sdk-requests.http";

/// One request, in the parts the structural mutators change.
#[derive(Clone, Debug)]
pub struct Seed {
    pub method: String,
    pub path: String,
    pub query: Vec<(String, String)>,
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

impl Seed {
    fn from_request(req: http::Request<Vec<u8>>) -> Seed {
        let uri = req.uri();
        let query = uri
            .query()
            .unwrap_or("")
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (p.to_owned(), String::new()),
            })
            .collect();
        Seed {
            method: req.method().to_string(),
            path: uri.path().to_owned(),
            query,
            headers: req
                .headers()
                .iter()
                .map(|(k, v)| (k.as_str().to_owned(), v.as_bytes().to_vec()))
                .collect(),
            body: req.body().clone(),
        }
    }

    /// `path?query`, as sent.
    pub fn target(&self) -> String {
        if self.query.is_empty() {
            return self.path.clone();
        }
        let pairs: Vec<String> = self.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}?{}", self.path, pairs.join("&"))
    }

    /// The request on the wire, with its body's true length.
    pub fn wire(&self) -> Vec<u8> {
        let mut out = format!("{} {} HTTP/1.1\r\n", self.method, self.target()).into_bytes();
        for (k, v) in &self.headers {
            // The stream's framing is rewritten: one body length, nothing that ends it early.
            if matches!(
                k.as_str(),
                "content-length" | "transfer-encoding" | "connection"
            ) {
                continue;
            }
            out.extend_from_slice(k.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(v);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(format!("content-length: {}\r\n\r\n", self.body.len()).as_bytes());
        out.extend_from_slice(&self.body);
        out
    }

    /// What distinguishes one kind of request from another: method, path shape, query keys,
    /// header names (minus the per-request ones) and how the body starts.
    fn shape(&self) -> String {
        let segments = self.path.split('/').filter(|s| !s.is_empty()).count();
        let keys: BTreeSet<&str> = self.query.iter().map(|(k, _)| k.as_str()).collect();
        let headers: BTreeSet<&str> = self
            .headers
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| {
                !matches!(
                    *k,
                    "x-ms-date"
                        | "date"
                        | "authorization"
                        | "x-ms-client-request-id"
                        | "content-length"
                        | "user-agent"
                        | "host"
                        | "connection"
                        | "traceparent"
                )
            })
            .collect();
        let body: String = String::from_utf8_lossy(&self.body)
            .chars()
            .filter(|c| c.is_ascii_alphabetic() || *c == '<')
            .take(48)
            .collect();
        format!("{} {segments} {keys:?} {headers:?} {body}", self.method)
    }
}

/// Every request in a raw HTTP/1.1 stream (what one connection sent).
pub fn decode_stream(bytes: &[u8]) -> Vec<Seed> {
    let mut decoder = Decoder::new(Config::new("127.0.0.1:10001"));
    let mut items = VecDeque::new();
    decoder.feed(bytes, &mut items);
    items
        .into_iter()
        .filter_map(|item| match item {
            Item::Request(incoming) => Some(Seed::from_request(incoming.request)),
            _ => None,
        })
        .collect()
}

/// The distilled seeds.
pub fn load() -> Vec<Seed> {
    let bytes = std::fs::read(SEEDS).unwrap_or_else(|e| panic!("{SEEDS}: {e}"));
    let seeds = decode_stream(&bytes);
    assert!(!seeds.is_empty(), "{SEEDS} holds no request");
    seeds
}

/// Reads every captured stream in `dir`, keeps up to two requests of each shape, and writes
/// them to [`SEEDS`]. Returns (requests read, requests kept).
pub fn distill(dir: &Path) -> (usize, usize) {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut kept = Vec::new();
    let mut read = 0;
    for file in files {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        for seed in decode_stream(&bytes) {
            read += 1;
            let n = seen.entry(seed.shape()).or_default();
            if *n < 2 {
                *n += 1;
                kept.extend(seed.wire());
            }
        }
    }
    let count = seen.values().sum();
    std::fs::create_dir_all(Path::new(SEEDS).parent().unwrap_or(Path::new("."))).ok();
    std::fs::write(SEEDS, kept).unwrap_or_else(|e| panic!("{SEEDS}: {e}"));
    (read, count)
}
