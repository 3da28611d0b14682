//! The summary of changes a host writes to its summarised event streams
//! (`GET /_azqueue/events?per=queue`, hosts/node/event-stream.mjs): which queues changed and
//! by how many events, every `clock` event, the newest injected faults, and the request log
//! when a stream asked for it (`request_log.rs`). Kept here rather
//! than built from `subscribe`'s events, so that a burst of producers with only such a stream
//! open costs a count per event, not a JS object and a call into JS per event
//! (BENCHMARKS.md, "Producers with an open inspector").

use super::Instance;
use crate::engine::Event;
use crate::rest::faults::Injected;
use crate::wasm::events;
use crate::wasm::js_object::JsObject;
use crate::wasm::request_log::RequestLog;
use std::collections::{BTreeMap, VecDeque};
use wasm_bindgen::JsValue;

/// A summary carries the newest this many injected faults: a rule that fails every request of
/// a burst costs a stream a few lines, not one per request.
const FAULTS_KEPT: usize = 10;

/// What changed since the host last took the summary, and who wants to hear that it did.
#[derive(Debug, Default)]
pub(crate) struct Summary {
    /// Called (once) when the summary stops being empty: the host takes it when it writes.
    wakes: Vec<(u32, js_sys::Function)>,
    /// Events per queue, by account then queue.
    changed: BTreeMap<String, BTreeMap<String, u32>>,
    clocks: Vec<JsValue>,
    faults: VecDeque<Injected>,
    /// While a stream asked for requests (`QueueService.logRequests`).
    requests: Option<RequestLog>,
}

impl Summary {
    pub(super) fn watched(&self) -> bool {
        !self.wakes.is_empty()
    }

    fn is_empty(&self) -> bool {
        self.changed.is_empty()
            && self.clocks.is_empty()
            && self.faults.is_empty()
            && self.requests.as_ref().is_none_or(RequestLog::is_empty)
    }

    /// Counts `drained`; whether the summary was empty before (its watchers are to be woken).
    pub(super) fn note_events(&mut self, drained: &[Event]) -> bool {
        let was_empty = self.is_empty();
        for e in drained {
            let queues = match self.changed.get_mut(&e.account) {
                Some(queues) => queues,
                None => self.changed.entry(e.account.clone()).or_default(),
            };
            match queues.get_mut(e.queue.as_str()) {
                Some(n) => *n += 1,
                None => {
                    queues.insert(e.queue.as_str().to_owned(), 1);
                }
            }
        }
        was_empty && !drained.is_empty()
    }

    /// Keeps the newest FAULTS_KEPT of `injected`; whether the summary was empty before.
    pub(super) fn note_faults(&mut self, injected: &[Injected]) -> bool {
        let was_empty = self.is_empty();
        for i in injected {
            if self.faults.len() == FAULTS_KEPT {
                self.faults.pop_front();
            }
            self.faults.push_back(i.clone());
        }
        was_empty && !injected.is_empty()
    }

    /// Keeps a `clock` event as it is; whether the summary was empty before.
    #[cfg(feature = "server-clock")]
    pub(super) fn note_clock(&mut self, event: JsValue) -> bool {
        let was_empty = self.is_empty();
        self.clocks.push(event);
        was_empty
    }

    /// The summary as events, emptied: the `clock` events in order, one
    /// `{ type: "changed", account, queue, events }` per changed queue, the newest faults, then
    /// the requests (`RequestLog::take`) if any.
    fn take(&mut self) -> js_sys::Array {
        let out = js_sys::Array::new();
        for clock in self.clocks.drain(..) {
            out.push(&clock);
        }
        for (account, queues) in std::mem::take(&mut self.changed) {
            for (queue, n) in queues {
                let changed = JsObject::new()
                    .set("type", "changed")
                    .set("account", account.as_str())
                    .set("queue", queue.as_str())
                    .set("events", n);
                out.push(&changed.build());
            }
        }
        for fault in self.faults.drain(..) {
            out.push(&events::fault_to_js(&fault));
        }
        if let Some(log) = self.requests.as_mut().filter(|log| !log.is_empty()) {
            out.push(&log.take());
        }
        out
    }
}

impl Instance {
    /// Starts keeping the summary; `wake` is called when it stops being empty. Returns an id for
    /// [`Instance::unwatch`].
    pub(crate) fn watch(&self, wake: js_sys::Function) -> Result<u32, JsValue> {
        let id = self.new_hearer()?;
        self.summary.borrow_mut().wakes.push((id, wake));
        Ok(id)
    }

    pub(crate) fn unwatch(&self, id: u32) {
        let mut summary = self.summary.borrow_mut();
        summary.wakes.retain(|(i, _)| *i != id);
        if !summary.watched() {
            *summary = Summary::default();
        }
        drop(summary);
        if !self.heard() {
            let _ = self.record_events(false);
        }
    }

    /// What changed since the last call (see [`Summary::take`]).
    pub(crate) fn take_summary(&self) -> js_sys::Array {
        self.summary.borrow_mut().take()
    }

    /// Starts (or stops) the request log, while the summary is kept.
    pub(crate) fn log_requests(&self, on: bool) {
        let mut summary = self.summary.borrow_mut();
        if on && summary.watched() {
            summary.requests.get_or_insert_with(RequestLog::default);
        } else {
            summary.requests = None;
        }
    }

    /// Whether requests are recorded (`request_log.rs`).
    pub(crate) fn logs_requests(&self) -> bool {
        self.summary.borrow().requests.is_some()
    }

    /// Records a request with `note`, if the log is on.
    pub(crate) fn note_request(&self, note: impl FnOnce(&mut RequestLog)) {
        let mut summary = self.summary.borrow_mut();
        let was_empty = summary.is_empty();
        let Some(log) = summary.requests.as_mut() else {
            return;
        };
        note(log);
        drop(summary);
        self.wake_watchers(was_empty);
    }

    /// Calls the watchers' `wake`s when `became_busy` (a note found the summary empty).
    pub(super) fn wake_watchers(&self, became_busy: bool) {
        if !became_busy {
            return;
        }
        let wakes: Vec<js_sys::Function> = self
            .summary
            .borrow()
            .wakes
            .iter()
            .map(|(_, f)| f.clone())
            .collect();
        for wake in wakes {
            if let Err(e) = wake.call0(&JsValue::NULL) {
                web_sys::console::error_2(&"azqueue: a summary's wake threw".into(), &e);
            }
        }
    }
}
