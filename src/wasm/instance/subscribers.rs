//! The listeners of `QueueService.subscribe`: adding and removing them (the engine records
//! events only while one listens, or a host keeps a summary: `summary.rs`), and handing them
//! events and injected faults once the changes behind them are durable.

use super::{Instance, busy};
use crate::engine::Event;
use crate::rest::faults::Injected;
use crate::wasm::events;
use wasm_bindgen::JsValue;

impl Instance {
    /// Adds a listener for engine events; returns its id for [`Instance::unsubscribe`].
    pub(crate) fn subscribe(&self, listener: js_sys::Function) -> Result<u32, JsValue> {
        let id = self.new_hearer()?;
        self.listeners.borrow_mut().push((id, listener));
        Ok(id)
    }

    /// The id of a new listener or summary watcher, the engine's recording started if nothing
    /// heard of events yet (starting it again would drop what is recorded).
    pub(super) fn new_hearer(&self) -> Result<u32, JsValue> {
        let id = self.next_listener.get();
        self.next_listener.set(id.wrapping_add(1));
        if !self.heard() {
            self.record_events(true)?;
        }
        Ok(id)
    }

    pub(crate) fn unsubscribe(&self, id: u32) {
        self.listeners.borrow_mut().retain(|(i, _)| *i != id);
        if !self.heard() {
            // Stop recording so an unobserved service does not accumulate events.
            let _ = self.record_events(false);
        }
    }

    /// Whether anything hears of events: a listener, or a host keeping a summary.
    pub(super) fn heard(&self) -> bool {
        #[cfg(feature = "event-summary")]
        if self.summary.borrow().watched() {
            return true;
        }
        !self.listeners.borrow().is_empty()
    }

    /// Starts or stops the engine's recording of events (see [`Instance::new_hearer`]).
    pub(super) fn record_events(&self, on: bool) -> Result<(), JsValue> {
        self.service
            .try_borrow_mut()
            .map_err(|_| busy())?
            .emulator_mut()
            .record_events(on);
        Ok(())
    }

    /// Hands recorded events to every listener. Borrows are dropped before any listener runs,
    /// so a listener may use the service (e.g. call `inspect()`); a listener that throws is
    /// logged and does not affect the others or the operation, which has already happened.
    pub(super) fn deliver_events(&self, drained: Vec<Event>) {
        if drained.is_empty() {
            return;
        }
        // Events are recorded for the summary too: with no listener, no JS object is built.
        #[cfg(feature = "event-summary")]
        {
            let became_busy = self.summary.borrow_mut().note_events(&drained);
            self.wake_watchers(became_busy);
            if self.listeners.borrow().is_empty() {
                return;
            }
        }
        let values: Vec<JsValue> = drained.iter().map(events::to_js).collect();
        self.notify(&values);
    }

    /// Hands each injected fault to every listener as a `fault` event.
    pub(super) fn deliver_faults(&self, injected: &[Injected]) {
        if !cfg!(feature = "faults") || injected.is_empty() {
            return;
        }
        #[cfg(feature = "event-summary")]
        {
            let became_busy = self.summary.borrow_mut().note_faults(injected);
            self.wake_watchers(became_busy);
            if self.listeners.borrow().is_empty() {
                return;
            }
        }
        let values: Vec<JsValue> = injected.iter().map(events::fault_to_js).collect();
        self.notify(&values);
    }

    /// Calls every listener with each of `values`, in order (see [`Instance::deliver_events`]).
    pub(super) fn notify(&self, values: &[JsValue]) {
        let listeners: Vec<js_sys::Function> = self
            .listeners
            .borrow()
            .iter()
            .map(|(_, f)| f.clone())
            .collect();
        for value in values {
            for listener in &listeners {
                if let Err(e) = listener.call1(&JsValue::NULL, value) {
                    web_sys::console::error_2(&"azqueue: an event listener threw".into(), &e);
                }
            }
        }
    }
}
