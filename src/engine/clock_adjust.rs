//! How far a service's clock runs from the clock it is built on, and whether it is stopped: the
//! state behind `/_azqueue/clock`, which lets a test in any language move the time its queues
//! run on. Pure: every method takes the base clock's reading.

use super::time::{NEVER, Timestamp};

/// The adjustment a service's clock applies to its base clock (the wall clock, or a page's own
/// `now` callback). The default is none: the base clock as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockAdjustment {
    /// Added to the base clock's reading while the clock runs.
    pub offset_ms: i64,
    /// The reading the clock is stopped at, while it is paused.
    pub paused_at: Option<u64>,
}

/// One change to the clock, as `POST /_azqueue/clock` asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockChange {
    /// Move forward by this many milliseconds.
    Advance(u64),
    /// Read this time (milliseconds since the epoch) now; earlier than now is allowed, and
    /// messages keep the times they were given.
    Set(Timestamp),
    /// Stop (`true`) at the current reading, or run on (`false`) from where it stopped.
    Pause(bool),
}

impl ClockAdjustment {
    /// The adjusted reading, given the base clock's. Never before the epoch nor after
    /// [`NEVER`], the latest time Azure can write.
    pub fn now(&self, base: Timestamp) -> Timestamp {
        let ms = match self.paused_at {
            Some(at) => at as i128,
            None => base.as_millis() as i128 + self.offset_ms as i128,
        };
        Timestamp::from_millis(ms.clamp(0, NEVER.as_millis() as i128) as u64)
    }

    pub fn is_paused(&self) -> bool {
        self.paused_at.is_some()
    }

    /// Applies `change` at the base clock's reading `base`.
    pub fn apply(&mut self, change: ClockChange, base: Timestamp) {
        let now = self.now(base).as_millis();
        let target = match change {
            ClockChange::Advance(ms) => now.saturating_add(ms).min(NEVER.as_millis()),
            ClockChange::Set(t) => t.as_millis().min(NEVER.as_millis()),
            ClockChange::Pause(true) => {
                self.paused_at = Some(now);
                return;
            }
            ClockChange::Pause(false) => {
                self.paused_at = None;
                now
            }
        };
        if self.paused_at.is_some() {
            self.paused_at = Some(target);
        } else {
            self.offset_ms = (target as i128 - base.as_millis() as i128)
                .clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Timestamp = Timestamp::from_secs(1_704_067_200);

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_millis(T0.as_millis() + ms)
    }

    #[test]
    fn advancing_a_running_clock_keeps_it_running_ahead() {
        let mut a = ClockAdjustment::default();
        assert_eq!(a.now(T0), T0);
        a.apply(ClockChange::Advance(31_000), T0);
        assert_eq!(a.now(T0), at(31_000));
        assert_eq!(a.now(at(5)), at(31_005), "still runs with the base clock");
        assert!(!a.is_paused());
    }

    #[test]
    fn a_paused_clock_stands_still_moves_only_when_told_and_runs_on_from_there() {
        let mut a = ClockAdjustment::default();
        a.apply(ClockChange::Pause(true), at(1_000));
        assert_eq!(a.now(at(9_000)), at(1_000));
        a.apply(ClockChange::Advance(500), at(9_000));
        assert_eq!(a.now(at(20_000)), at(1_500));
        a.apply(ClockChange::Pause(false), at(20_000));
        assert_eq!(a.now(at(20_000)), at(1_500));
        assert_eq!(a.now(at(20_010)), at(1_510));
    }

    #[test]
    fn set_moves_to_a_time_either_way() {
        let mut a = ClockAdjustment::default();
        a.apply(ClockChange::Set(at(7 * 86_400_000)), T0);
        assert_eq!(a.now(T0), at(7 * 86_400_000));
        a.apply(ClockChange::Set(T0), T0);
        assert_eq!(a, ClockAdjustment::default());
        a.apply(ClockChange::Pause(true), T0);
        a.apply(ClockChange::Set(at(42)), at(1_000));
        assert_eq!(a.now(at(5_000)), at(42));
    }

    #[test]
    fn readings_stay_between_the_epoch_and_never() {
        let mut a = ClockAdjustment::default();
        a.apply(ClockChange::Advance(u64::MAX), T0);
        assert_eq!(a.now(T0), NEVER);
        assert_eq!(a.now(at(1_000)), NEVER);
        a.apply(ClockChange::Set(Timestamp::from_millis(0)), T0);
        assert_eq!(a.now(T0), Timestamp::from_millis(0));
        let behind = ClockAdjustment {
            offset_ms: i64::MIN,
            paused_at: None,
        };
        assert_eq!(behind.now(T0), Timestamp::from_millis(0));
    }
}
