//! Where the JS faces get `now`: the wall clock (`Date.now()`) or a callback the page controls.
//!
//! `SystemTime::now()` panics on wasm32, so the engine's native `SystemClock` does not exist
//! here. A callback clock is how the teaching page pauses, slows down or fast-forwards time
//! without the engine knowing.

#[cfg(feature = "server-clock")]
use crate::engine::ClockChange;
use crate::engine::{Clock, ClockAdjustment, Timestamp};
#[cfg(feature = "server-clock")]
use crate::rest::dev::clock::ClockReading;
use std::cell::Cell;
use wasm_bindgen::JsCast;

/// `Date.now()`: the wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JsClock;

impl Clock for JsClock {
    fn now(&self) -> Timestamp {
        millis(js_sys::Date::now()).unwrap_or_default()
    }
}

/// A JS function `() => number` (milliseconds since the epoch) or `() => Date`.
#[derive(Clone, Debug)]
pub(crate) struct FnClock(js_sys::Function);

impl FnClock {
    pub(crate) fn new(f: js_sys::Function) -> Self {
        FnClock(f)
    }
}

impl Clock for FnClock {
    /// Falls back to the wall clock if the callback throws or returns something that is not a
    /// time: a clock cannot fail, and an exception here would otherwise have nowhere to go.
    fn now(&self) -> Timestamp {
        let value = match self.0.call0(&wasm_bindgen::JsValue::UNDEFINED) {
            Ok(v) => v,
            Err(e) => {
                web_sys::console::error_2(
                    &"azqueue: the `now` callback threw; using Date.now()".into(),
                    &e,
                );
                return JsClock.now();
            }
        };
        let ms = match value.dyn_ref::<js_sys::Date>() {
            Some(date) => date.get_time(),
            None => value.as_f64().unwrap_or(f64::NAN),
        };
        millis(ms).unwrap_or_else(|| JsClock.now())
    }
}

/// Either clock, chosen at `QueueService.open()`.
#[derive(Clone, Debug)]
pub(crate) enum AnyClock {
    Js(JsClock),
    Fn(FnClock),
}

impl Clock for AnyClock {
    fn now(&self) -> Timestamp {
        match self {
            AnyClock::Js(c) => c.now(),
            AnyClock::Fn(c) => c.now(),
        }
    }
}

/// Whole milliseconds, or `None` for NaN, infinities and times before 1970.
fn millis(ms: f64) -> Option<Timestamp> {
    (ms.is_finite() && ms >= 0.0).then(|| Timestamp::from_millis(ms as u64))
}

/// The clock a service's queues run on: the clock chosen at `open()`, adjusted through
/// `/_azqueue/clock` (moved ahead, set, paused). Authentication never reads it: request dates
/// and SAS windows are checked against [`JsClock`], the wall clock every client signs with.
#[derive(Debug)]
pub(crate) struct ServiceClock {
    base: AnyClock,
    adjustment: Cell<ClockAdjustment>,
}

impl ServiceClock {
    pub(crate) fn new(base: AnyClock) -> Self {
        ServiceClock {
            base,
            adjustment: Cell::new(ClockAdjustment::default()),
        }
    }

    pub(crate) fn set_adjustment(&self, adjustment: ClockAdjustment) {
        self.adjustment.set(adjustment);
    }

    /// Applies `changes` in order and returns the new adjustment.
    #[cfg(feature = "server-clock")]
    pub(crate) fn apply(&self, changes: &[ClockChange]) -> ClockAdjustment {
        let mut adjustment = self.adjustment.get();
        for change in changes {
            adjustment.apply(*change, self.base.now());
        }
        self.adjustment.set(adjustment);
        adjustment
    }

    /// What `/_azqueue/clock` answers.
    #[cfg(feature = "server-clock")]
    pub(crate) fn reading(&self) -> ClockReading {
        let adjustment = self.adjustment.get();
        let now = adjustment.now(self.base.now());
        ClockReading::new(now, JsClock.now(), adjustment.is_paused())
    }
}

impl Clock for ServiceClock {
    fn now(&self) -> Timestamp {
        self.adjustment.get().now(self.base.now())
    }
}
