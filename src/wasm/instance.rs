//! One service instance: the state a `QueueService` shares with its `Queue`s, connections and
//! fetch handlers, and the single path every operation takes: engine op under a short borrow →
//! commit → notify subscribers.
//!
//! The host's SQL transaction around a request is `instance/sql_transaction.rs`; the
//! subscribers and what they are told, `instance/subscribers.rs`.

#[cfg(feature = "sql-host")]
mod sql_transaction;
mod subscribers;
#[cfg(feature = "event-summary")]
mod summary;

use super::clock::{JsClock, ServiceClock};
use super::error::coded;
#[cfg(feature = "server-clock")]
use super::events;
use super::faulted::{Ask, settle};
use super::sql_host::SqlHost;
use super::store::{ServiceStore, store_error_to_js};
use crate::engine::{Change, Clock, Emulator, Event, Snapshot, Timestamp};
#[cfg(feature = "faults")]
use crate::rest::faults::Faults;
#[cfg(feature = "faults")]
use crate::rest::faults::{Delivery, FaultRequest};
use crate::rest::faults::{Fault, Injected};
use crate::rest::{Clocks, ErrorCode, Route, Service};
use crate::store::document;
use crate::store::layout::Pending;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// An operation's result, with the changes to commit and the events to deliver after.
type Applied<T> = (Result<T, JsValue>, Vec<Change>, Vec<Event>);

/// A REST answer, with the changes to commit and the events and faults to deliver after.
type Handled = (
    http::Response<Vec<u8>>,
    Vec<Change>,
    Vec<Event>,
    Vec<Injected>,
);

/// One service instance as JS sees it.
#[derive(Debug)]
pub(crate) struct Instance {
    service: RefCell<Service>,
    clock: Rc<ServiceClock>,
    store: ServiceStore,
    /// The account the `Queue`/`QueueService` methods act on (the REST surface serves all).
    account: String,
    listeners: RefCell<Vec<(u32, js_sys::Function)>>,
    next_listener: Cell<u32>,
    /// What a host's summarised event streams are written from (`instance/summary.rs`).
    #[cfg(feature = "event-summary")]
    summary: RefCell<summary::Summary>,
    /// The host's SQL, when it keeps the messages (`open({ sql })`).
    sql: Option<SqlHost>,
    /// A statement failed: the tables' kept counts may no longer match what is stored (the
    /// transaction was rolled back), so the host should open the service again.
    #[cfg_attr(not(feature = "sql-host"), allow(dead_code))] // set only with the feature
    needs_reopen: Cell<bool>,
}

impl Instance {
    pub(crate) fn new(
        service: Service,
        clock: Rc<ServiceClock>,
        store: ServiceStore,
        account: String,
        sql: Option<SqlHost>,
    ) -> Self {
        Instance {
            service: RefCell::new(service),
            clock,
            store,
            account,
            listeners: RefCell::new(Vec::new()),
            next_listener: Cell::new(0),
            #[cfg(feature = "event-summary")]
            summary: RefCell::default(),
            sql,
            needs_reopen: Cell::new(false),
        }
    }

    /// Whether a SQL statement failed since the service opened (see [`Instance::needs_reopen`]).
    #[cfg(feature = "sql-host")]
    pub(crate) fn needs_reopen(&self) -> bool {
        self.needs_reopen.get()
    }

    /// Read once per operation, before any borrow: a callback clock is JS code and may call
    /// back into this service.
    pub(crate) fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// The queues' clock and its adjustment (`/_azqueue/clock`).
    #[cfg(feature = "server-clock")]
    pub(crate) fn clock(&self) -> &ServiceClock {
        &self.clock
    }

    pub(crate) fn account(&self) -> &str {
        &self.account
    }

    pub(crate) fn store(&self) -> &ServiceStore {
        &self.store
    }

    /// A read that cannot change state (no commit, no events), e.g. of the configuration.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&Service) -> T) -> Result<T, JsValue> {
        let service = self.service.try_borrow().map_err(|_| busy())?;
        Ok(f(&service))
    }

    /// A change to the fault rules (`service.faults`), which are no queue state: nothing to
    /// commit.
    #[cfg(feature = "faults")]
    pub(crate) fn faults<T>(&self, f: impl FnOnce(&mut Faults) -> T) -> Result<T, JsValue> {
        let mut service = self.service.try_borrow_mut().map_err(|_| busy())?;
        Ok(f(service.faults_mut()))
    }

    /// A read of queues and messages. Once the store has failed, the engine may hold changes
    /// that were never saved, so these reads fail as every operation does (`InternalError`)
    /// rather than show state that a reopen would not find.
    pub(crate) fn read_state<T>(&self, f: impl FnOnce(&Service) -> T) -> Result<T, JsValue> {
        if let Some(e) = self.store.failure() {
            return Err(store_error_to_js(&e));
        }
        self.read(f)
    }

    /// Runs one engine operation for the JS API, `ask` naming it for the fault rules, then
    /// commits whatever it changed (even when it failed: expired messages purged on the way are
    /// changes too) and tells subscribers. Resolves only after the commit: durable before
    /// visible. A fault decided for it answers as `faulted::settle` says.
    pub(crate) async fn run<T>(
        &self,
        ask: Ask<'_>,
        op: impl FnOnce(&mut Emulator, Timestamp, &str) -> Result<T, JsValue>,
    ) -> Result<T, JsValue> {
        let fault = self.decide(&ask)?;
        if fault.is_none() {
            return self.commit_applied(self.apply(op)?).await;
        }
        // Faulted (rare): the operation's value waits here, while one function for every
        // operation commits, delivers and decides the outcome, not one copy per call site.
        let mut value = None;
        let ran = match &fault {
            Some((fault, _)) if !fault.applies() => None,
            _ => Some(self.apply(op).map(|(result, batch, events)| {
                let result = result.map(|v| value = Some(v)).map(|()| JsValue::UNDEFINED);
                (result, batch, events)
            })),
        };
        self.finish_faulted(fault, ran).await?;
        value.ok_or_else(busy)
    }

    /// [`Instance::run`] for the service's own work (options at open, housekeeping, an
    /// import), which no fault rule is about.
    pub(crate) async fn run_internal<T>(
        &self,
        op: impl FnOnce(&mut Emulator, Timestamp, &str) -> Result<T, JsValue>,
    ) -> Result<T, JsValue> {
        self.commit_applied(self.apply(op)?).await
    }

    /// The Promise of a faulted JS method (see [`Instance::finish_faulted`]).
    fn faulted_promise(
        self: &Rc<Self>,
        fault: Option<(Fault, Vec<Injected>)>,
        applied: Option<Result<Applied<JsValue>, JsValue>>,
    ) -> js_sys::Promise {
        let instance = Rc::clone(self);
        wasm_bindgen_futures::future_to_promise(async move {
            instance.finish_faulted(fault, applied).await
        })
    }

    /// A faulted JS method's end: its operation's changes (when the fault let it run)
    /// committed and its events delivered, then the fault's event, then `faulted::settle`'s
    /// outcome.
    async fn finish_faulted(
        &self,
        fault: Option<(Fault, Vec<Injected>)>,
        applied: Option<Result<Applied<JsValue>, JsValue>>,
    ) -> Result<JsValue, JsValue> {
        let Some((fault, injected)) = fault else {
            return Err(busy());
        };
        let ran = match applied {
            None => None,
            Some(applied) => Some(self.commit_applied(applied?).await),
        };
        self.deliver_faults(&injected);
        settle(fault, ran).await
    }

    /// Commits an applied operation's changes, then delivers its events: its result after.
    async fn commit_applied<T>(&self, (result, batch, events): Applied<T>) -> Result<T, JsValue> {
        self.store
            .commit(batch)
            .await
            .map_err(|e| store_error_to_js(&e))?;
        self.deliver_events(events);
        super::headroom::keep_ahead();
        result
    }

    /// The fault rules' decision for a JS method (`None` for almost every call: one comparison
    /// when no rule is set), with the fault to deliver as an event once the operation's own
    /// changes are (as a REST request's are).
    #[cfg(feature = "faults")]
    fn decide(&self, ask: &Ask) -> Result<Option<(Fault, Vec<Injected>)>, JsValue> {
        let mut service = self.service.try_borrow_mut().map_err(|_| busy())?;
        let request = FaultRequest {
            account: &self.account,
            queue: ask.queue,
            operation: ask.operation,
            messages: ask.messages,
        };
        // The clock is a call into JavaScript, costlier than deciding on rules that match
        // nothing: it is read only when the decision needs it.
        let Some(fault) = service.faults_mut().decide_reading(|| self.now(), &request) else {
            return Ok(None);
        };
        Ok(Some((fault, service.faults_mut().take_injected())))
    }

    /// Without the `faults` feature (pkg/web), no method is ever faulted.
    #[cfg(not(feature = "faults"))]
    fn decide(&self, _: &Ask) -> Result<Option<(Fault, Vec<Injected>)>, JsValue> {
        Ok(None)
    }

    /// The synchronous half of an operation: the engine op under a short borrow, with the
    /// changes and events it left. Events leave the engine with their changes: with group
    /// commit, a later operation's events may be recorded before this one's commit completes,
    /// and must wait for theirs.
    fn apply<T>(
        &self,
        op: impl FnOnce(&mut Emulator, Timestamp, &str) -> Result<T, JsValue>,
    ) -> Result<Applied<T>, JsValue> {
        // With the host's SQL, the operation's statements commit together or not at all (a
        // purge deletes rows and then writes the counts); a failure is in its result.
        #[cfg(feature = "sql-host")]
        if let Some(host) = &self.sql {
            return self.in_transaction(host, || self.apply_now(op))?.0;
        }
        self.apply_now(op)
    }

    fn apply_now<T>(
        &self,
        op: impl FnOnce(&mut Emulator, Timestamp, &str) -> Result<T, JsValue>,
    ) -> Result<Applied<T>, JsValue> {
        let now = self.now();
        let mut service = self.service.try_borrow_mut().map_err(|_| busy())?;
        let emulator = service.emulator_mut();
        let result = op(emulator, now, &self.account);
        let applied = (result, emulator.take_changes(), emulator.take_events());
        drop(service);
        Ok(applied)
    }

    /// [`Instance::run`] as a Promise, for the `Queue` methods called in tight loops. When the
    /// changes are as durable as the store promises as soon as they are handed over (the
    /// memory store; relaxed durability), the Promise is made already settled: no async task,
    /// no waker, no extra microtask hops. Otherwise it settles after the commit, as `run` does.
    pub(crate) fn run_promise(
        self: &Rc<Self>,
        ask: Ask<'_>,
        op: impl FnOnce(&mut Emulator, Timestamp, &str) -> Result<JsValue, JsValue>,
    ) -> js_sys::Promise {
        self.run_promise_as(
            ask,
            op,
            |value| js_sys::Promise::resolve(&value),
            |value| value,
        )
    }

    /// [`Instance::run_promise`] for an operation whose answer becomes JS only after the
    /// engine is released: `settled` makes the already-settled Promise (in one call where it
    /// can), `later` the value a Promise settles with after the commit.
    pub(crate) fn run_promise_as<T: 'static>(
        self: &Rc<Self>,
        ask: Ask<'_>,
        op: impl FnOnce(&mut Emulator, Timestamp, &str) -> Result<T, JsValue>,
        settled: impl FnOnce(T) -> js_sys::Promise,
        later: impl FnOnce(T) -> JsValue + 'static,
    ) -> js_sys::Promise {
        let fault = match self.decide(&ask) {
            Ok(fault) => fault,
            Err(e) => return js_sys::Promise::reject(&e),
        };
        if let Some((faulted, _)) = &fault {
            // Applied now, under this call's borrow, its value made JS at once; committed and
            // answered in one task shared by every operation.
            let applied = faulted.applies().then(|| {
                self.apply(op)
                    .map(|(result, batch, events)| (result.map(later), batch, events))
            });
            return self.faulted_promise(fault, applied);
        }
        let (result, batch, events) = match self.apply(op) {
            Ok(applied) => applied,
            Err(e) => return js_sys::Promise::reject(&e),
        };
        let ticket = match self.store.enqueue_changes(batch) {
            Ok(ticket) => ticket,
            Err(e) => return js_sys::Promise::reject(&store_error_to_js(&e)),
        };
        match self.store.settled_now(ticket) {
            Some(Ok(())) => {
                self.deliver_events(events);
                super::headroom::keep_ahead();
                match result {
                    Ok(value) => settled(value),
                    Err(e) => js_sys::Promise::reject(&e),
                }
            }
            Some(Err(e)) => js_sys::Promise::reject(&store_error_to_js(&e)),
            None => {
                let instance = self.clone();
                wasm_bindgen_futures::future_to_promise(async move {
                    instance
                        .store
                        .settle(ticket)
                        .await
                        .map_err(|e| store_error_to_js(&e))?;
                    instance.deliver_events(events);
                    super::headroom::keep_ahead();
                    result.map(later)
                })
            }
        }
    }

    /// The one REST path, whatever the request's JS shape (Fetch, raw, a socket): answer `req`,
    /// read as `route` (`serve.rs`), under a short borrow, commit, then tell subscribers. A
    /// failed commit answers `500 InternalError`.
    pub(crate) async fn serve_rest(
        self: &Rc<Self>,
        req: &http::Request<Vec<u8>>,
        route: Route,
    ) -> Result<http::Response<Vec<u8>>, JsValue> {
        let clocks = Clocks {
            queue: self.now(),
            wall: JsClock.now(),
        };
        let (response, batch, events, injected) = match &self.sql {
            None => self.handle(clocks, req, route)?,
            // Never made without the feature (`open` refuses the option); nor is this path
            // linked into the web build then.
            #[cfg(not(feature = "sql-host"))]
            Some(_) => self.handle(clocks, req, route)?,
            #[cfg(feature = "sql-host")]
            Some(host) => match self.handle_with_sql(host, clocks, req, route) {
                Ok(handled) => handled,
                Err(e) => {
                    let why = super::thrown::message_of(&e);
                    web_sys::console::error_1(
                        &format!("azqueue: a request's transaction was rolled back: {why}").into(),
                    );
                    self.needs_reopen.set(true);
                    return Ok(super::fetch::internal_error());
                }
            },
        };
        if let Err(e) = self.store.commit(batch).await {
            web_sys::console::error_1(&format!("azqueue: commit failed: {e}").into());
            return Ok(super::fetch::internal_error());
        }
        self.deliver_events(events);
        self.deliver_faults(&injected);
        super::headroom::keep_ahead();
        #[cfg(feature = "faults")]
        if let Some(delivery) = response.extensions().get::<Delivery>() {
            super::faulted::sleep(delivery.delay_ms).await;
        }
        Ok(response)
    }

    /// The REST service's answer to `req`, read as `route`, under a short borrow.
    fn handle(
        &self,
        clocks: Clocks,
        req: &http::Request<Vec<u8>>,
        route: Route,
    ) -> Result<Handled, JsValue> {
        let mut service = self.service.try_borrow_mut().map_err(|_| busy())?;
        let response = service.answer(clocks, req, route);
        #[cfg(feature = "faults")]
        let injected = service.faults_mut().take_injected();
        #[cfg(not(feature = "faults"))]
        let injected = Vec::new();
        let emulator = service.emulator_mut();
        Ok((
            response,
            emulator.take_changes(),
            emulator.take_events(),
            injected,
        ))
    }

    /// The whole state as a snapshot document, once everything in it is durable.
    pub(crate) async fn export_document(&self) -> Result<String, JsValue> {
        self.store
            .commit(Vec::new())
            .await
            .map_err(|e| store_error_to_js(&e))?;
        let now = self.now();
        let snapshot = self
            .read(|s| s.emulator().snapshot())?
            .map_err(JsValue::from)?;
        document::to_document(snapshot, now).map_err(|e| js_sys::Error::new(&e).into())
    }

    /// Replaces everything with `snapshot` (import, reset): the engine at once, the store in
    /// one transaction. Resolves when the new state is durable, in either durability mode.
    pub(crate) async fn replace_state(&self, snapshot: Snapshot) -> Result<(), JsValue> {
        let replacement = vec![Pending::Replace(snapshot.clone())];
        self.run_internal(|emu, _, _| {
            // Enqueued while the engine is held, so no other operation can slip in between the
            // new state and its commit.
            self.store
                .enqueue(replacement)
                .map_err(|e| store_error_to_js(&e))?;
            emu.replace_state(snapshot).map_err(JsValue::from)
        })
        .await?;
        self.store.flush().await.map_err(|e| store_error_to_js(&e))
    }

    /// Applies clock changes (`POST /_azqueue/clock`), keeps the adjustment in the store (so
    /// a restart resumes it), tells subscribers (a `clock` event: an inspector's countdowns
    /// and visibility change with it), and answers the new reading once that is durable.
    #[cfg(feature = "server-clock")]
    pub(crate) async fn set_clock(
        &self,
        changes: &[crate::engine::ClockChange],
    ) -> Result<String, JsValue> {
        let adjustment = self.clock.apply(changes);
        self.store
            .save_adjustment(adjustment)
            .await
            .map_err(|e| store_error_to_js(&e))?;
        let reading = self.clock.reading();
        let event = events::clock_to_js(&reading);
        #[cfg(feature = "event-summary")]
        {
            let became_busy = self.summary.borrow_mut().note_clock(event.clone());
            self.wake_watchers(became_busy);
        }
        self.notify(&[event]);
        Ok(reading.to_json())
    }
}

/// Re-entrant use while an operation holds the state: only possible if JS code running inside
/// an operation calls back in, which the borrow discipline above rules out. Reported rather
/// than panicking, because a panic would abort the wasm instance.
fn busy() -> JsValue {
    coded(
        ErrorCode::InternalError,
        "the service was re-entered while an operation was in progress",
    )
}
