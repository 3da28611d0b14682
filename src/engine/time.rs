//! Time as the engine sees it: a millisecond timestamp handed in by the caller.
//!
//! The engine never reads a clock. Edges own clocks: `SystemClock` natively, a JS clock in
//! `src/wasm`, and [`ManualClock`] in tests and on the teaching page's virtual timeline.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Milliseconds since the Unix epoch.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Timestamp(u64);

/// The latest instant Azure can express: `Fri, 31 Dec 9999 23:59:59 GMT`, used for TTL `-1`.
pub const NEVER: Timestamp = Timestamp(253_402_300_799_000);

impl Timestamp {
    pub const fn from_millis(ms: u64) -> Self {
        Timestamp(ms)
    }

    pub const fn from_secs(s: u64) -> Self {
        Timestamp(s * 1000)
    }

    pub const fn as_millis(self) -> u64 {
        self.0
    }

    pub const fn as_secs(self) -> u64 {
        self.0 / 1000
    }

    /// `self + secs`, capped at [`NEVER`] so huge TTLs still serialise as a valid date.
    pub fn plus_secs(self, secs: u64) -> Timestamp {
        let ms = self.0.saturating_add(secs.saturating_mul(1000));
        Timestamp(ms.min(NEVER.0))
    }

    /// Milliseconds from `self` until `later`, zero if `later` is not later.
    pub fn until(self, later: Timestamp) -> u64 {
        later.0.saturating_sub(self.0)
    }
}

/// Where an edge gets `now` from. Closures are clocks too.
pub trait Clock {
    fn now(&self) -> Timestamp;
}

impl<F: Fn() -> Timestamp> Clock for F {
    fn now(&self) -> Timestamp {
        self()
    }
}

/// The wall clock, for native hosts only: `SystemTime::now()` panics on wasm32.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Timestamp(since.as_millis() as u64)
    }
}

/// A clock that starts where you say and moves only when told: tests and virtual time.
///
/// Clones share one time. It is `Send + Sync` so it can live inside an SDK transport (the Rust
/// SDK requires both of its `HttpClient`), and a test can keep a clone to move it.
#[derive(Clone, Debug)]
pub struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    pub fn starting_at(t: Timestamp) -> Self {
        ManualClock(Arc::new(AtomicU64::new(t.0)))
    }

    pub fn advance_secs(&self, secs: u64) {
        self.advance_millis(secs.saturating_mul(1000));
    }

    pub fn advance_millis(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::Relaxed);
    }

    pub fn set(&self, t: Timestamp) {
        self.0.store(t.0, Ordering::Relaxed);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp(self.0.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plus_secs_saturates_at_never() {
        assert_eq!(Timestamp::from_secs(1).plus_secs(u64::MAX), NEVER);
        assert_eq!(
            Timestamp::from_secs(10).plus_secs(5),
            Timestamp::from_secs(15)
        );
    }

    #[test]
    fn manual_clock_moves_only_when_told() {
        let c = ManualClock::starting_at(Timestamp::from_secs(100));
        assert_eq!(c.now(), Timestamp::from_secs(100));
        c.advance_secs(30);
        assert_eq!(c.now(), Timestamp::from_secs(130));
    }
}
