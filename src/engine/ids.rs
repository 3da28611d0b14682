//! Message ids and pop receipts, made from an injected source of entropy.
//!
//! Tests seed the source so ids and receipts (and so XML bodies) are reproducible; hosts use
//! the operating system's or the browser's generator.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::fmt;

/// A source of random bytes. `Send` so an [`Emulator`](super::Emulator) can move into a
/// transport that must be `Send + Sync` (the Rust SDK's `HttpClient`, behind a mutex).
pub trait Entropy: Send {
    fn fill(&mut self, buf: &mut [u8]);
}

/// Deterministic entropy (SplitMix64) for tests, benchmarks and replayable scenarios.
#[derive(Clone, Debug)]
pub struct SeededEntropy(u64);

impl SeededEntropy {
    pub fn new(seed: u64) -> Self {
        SeededEntropy(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Entropy for SeededEntropy {
    fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

/// The platform's generator (`getrandom`: OS natively, `crypto.getRandomValues` on wasm).
///
/// Bytes are drawn from the platform 64 KiB at a time (the most one `getRandomValues` call
/// gives) and handed out from a per-thread pool: every request needs 32–48 random bytes, and a
/// call into the platform (a JS call on wasm) per request cost more than the rest of a Put. In
/// Node a call costs about 5 µs for 4 KiB and 18 µs for 64 KiB, so 64 KiB comes to a quarter
/// of the cost per message of 4 KiB.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsEntropy;

const POOL_BYTES: usize = 64 * 1024;

thread_local! {
    static POOL: std::cell::RefCell<(Box<[u8]>, usize)> =
        std::cell::RefCell::new((vec![0u8; POOL_BYTES].into_boxed_slice(), POOL_BYTES));
}

impl Entropy for OsEntropy {
    fn fill(&mut self, buf: &mut [u8]) {
        POOL.with(|pool| {
            let (bytes, used) = &mut *pool.borrow_mut();
            let mut filled = 0;
            while filled < buf.len() {
                if *used == POOL_BYTES {
                    // getrandom fails only on platforms without any source; there is nothing
                    // to fall back to that keeps receipts unguessable, so a failure leaves
                    // zeros rather than panicking.
                    let _ = getrandom::fill(&mut bytes[..]);
                    *used = 0;
                }
                let n = (buf.len() - filled).min(POOL_BYTES - *used);
                buf[filled..filled + n].copy_from_slice(&bytes[*used..*used + n]);
                // Handed-out bytes are never handed out again.
                bytes[*used..*used + n].fill(0);
                *used += n;
                filled += n;
            }
        });
    }
}

/// A message id: a random (v4) GUID, written lowercase with hyphens as the service does.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct MessageId(uuid::Uuid);

impl MessageId {
    /// The smallest and largest ids: bounds for a key range over one queue's messages.
    pub const MIN: MessageId = MessageId(uuid::Uuid::nil());
    pub const MAX: MessageId = MessageId(uuid::Uuid::max());

    pub fn generate(entropy: &mut dyn Entropy) -> Self {
        let mut bytes = [0u8; 16];
        entropy.fill(&mut bytes);
        MessageId(uuid::Builder::from_random_bytes(bytes).into_uuid())
    }

    /// Parses the id segment of a message URL. Anything that is not a GUID names no message.
    pub fn parse(s: &str) -> Option<Self> {
        uuid::Uuid::try_parse(s).ok().map(MessageId)
    }

    /// The id as its text, written into `buf` (no allocation: the JS results make one per
    /// message).
    pub fn encode<'b>(&self, buf: &'b mut [u8; uuid::fmt::Hyphenated::LENGTH]) -> &'b str {
        self.0.hyphenated().encode_lower(buf)
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// An opaque token proving who last dequeued (or updated) a message.
///
/// Receipts we issue are 16 random bytes; a client may send back any base64, which simply
/// fails to match.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PopReceipt(ReceiptBytes);

/// The bytes of a receipt: those this engine issues inline, so issuing, copying and checking
/// one allocates nothing (every Put, Get and Update issues one); any other length (a client's
/// guess, an imported snapshot) on the heap.
#[derive(Clone)]
enum ReceiptBytes {
    Issued([u8; ISSUED_RECEIPT_BYTES]),
    Other(Box<[u8]>),
}

const ISSUED_RECEIPT_BYTES: usize = 16;

impl PartialEq for PopReceipt {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for PopReceipt {}

impl std::hash::Hash for PopReceipt {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bytes().hash(state);
    }
}

impl TryFrom<String> for PopReceipt {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        PopReceipt::from_base64(&s).ok_or_else(|| format!("`{s}` is not a base64 pop receipt"))
    }
}

impl From<PopReceipt> for String {
    fn from(r: PopReceipt) -> String {
        r.to_base64()
    }
}

impl PopReceipt {
    pub fn generate(entropy: &mut dyn Entropy) -> Self {
        let mut bytes = [0u8; ISSUED_RECEIPT_BYTES];
        entropy.fill(&mut bytes);
        PopReceipt(ReceiptBytes::Issued(bytes))
    }

    fn from_bytes(bytes: &[u8]) -> Self {
        match <[u8; ISSUED_RECEIPT_BYTES]>::try_from(bytes) {
            Ok(issued) => PopReceipt(ReceiptBytes::Issued(issued)),
            Err(_) => PopReceipt(ReceiptBytes::Other(bytes.into())),
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.0 {
            ReceiptBytes::Issued(bytes) => bytes,
            ReceiptBytes::Other(bytes) => bytes,
        }
    }

    /// Decodes a receipt as sent in `popreceipt`. `None` when it is not base64.
    pub fn from_base64(s: &str) -> Option<Self> {
        if s.is_empty() {
            return None;
        }
        // A receipt of ours is 24 characters; decoding those on the stack spares every
        // Delete and Update an allocation.
        let mut buf = [0u8; 48];
        if s.len() <= 64 {
            let n = STANDARD.decode_slice(s, &mut buf).ok()?;
            return Some(PopReceipt::from_bytes(&buf[..n]));
        }
        STANDARD
            .decode(s)
            .ok()
            .map(|bytes| PopReceipt(ReceiptBytes::Other(bytes.into())))
    }

    pub fn to_base64(&self) -> String {
        STANDARD.encode(self.bytes())
    }

    /// Writes the receipt's base64 into `out` and returns its length, or `None` when it does
    /// not fit: the JS results write it beside the message id, with no allocation.
    pub fn encode_base64(&self, out: &mut [u8]) -> Option<usize> {
        STANDARD.encode_slice(self.bytes(), out).ok()
    }
}

impl fmt::Debug for PopReceipt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PopReceipt({})", self.to_base64())
    }
}

impl fmt::Display for PopReceipt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_base64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_are_lowercase_v4_guids() {
        let id = MessageId::generate(&mut SeededEntropy::new(7)).to_string();
        assert_eq!(id.len(), 36);
        assert_eq!(id, id.to_lowercase());
        assert_eq!(&id[14..15], "4");
        assert_eq!(
            MessageId::parse(&id).map(|m| m.to_string()),
            Some(id.clone())
        );
        let mut buf = [0u8; 36];
        assert_eq!(
            MessageId::parse(&id).map(|m| m.encode(&mut buf).to_owned()),
            Some(id)
        );
    }

    #[test]
    fn receipts_round_trip_through_base64() {
        let r = PopReceipt::generate(&mut SeededEntropy::new(1));
        assert_eq!(PopReceipt::from_base64(&r.to_base64()), Some(r.clone()));
        assert_eq!(PopReceipt::from_base64("not base64!"), None);
        let mut out = [0u8; 64];
        let n = r.encode_base64(&mut out).expect("fits");
        assert_eq!(&out[..n], r.to_base64().as_bytes());
        assert_eq!(r.encode_base64(&mut out[..n - 1]), None);
    }

    #[test]
    fn receipts_of_any_length_round_trip_and_compare_by_their_bytes() {
        for len in [1, 15, 16, 17, 48, 49, 300] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let text = STANDARD.encode(&bytes);
            let r = PopReceipt::from_base64(&text).expect("valid base64");
            assert_eq!(r.to_base64(), text);
            let mut out = [0u8; 512];
            let n = r.encode_base64(&mut out).expect("fits");
            assert_eq!(&out[..n], text.as_bytes());
            assert_eq!(r.encode_base64(&mut out[..n - 1]), None);
            assert_eq!(PopReceipt::from_base64(&text), Some(r.clone()));
            assert_eq!(String::from(r.clone()), text);
        }
        let issued = PopReceipt::generate(&mut SeededEntropy::new(3));
        let sent_back = PopReceipt::from_base64(&issued.to_base64()).expect("valid base64");
        assert_eq!(sent_back, issued);
        let longer = PopReceipt::from_base64(&STANDARD.encode([0u8; 17])).expect("valid");
        assert_ne!(
            longer,
            PopReceipt::from_base64(&STANDARD.encode([0u8; 16])).expect("v")
        );
        assert_eq!(PopReceipt::from_base64(""), None);
    }

    #[test]
    fn os_entropy_never_repeats_across_pool_refills() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..(3 * POOL_BYTES / 16) {
            let id = MessageId::generate(&mut OsEntropy);
            assert!(seen.insert(id), "repeated id {id}");
        }
    }

    #[test]
    fn seeded_entropy_replays() {
        let a = MessageId::generate(&mut SeededEntropy::new(42));
        let b = MessageId::generate(&mut SeededEntropy::new(42));
        assert_eq!(a, b);
    }
}
