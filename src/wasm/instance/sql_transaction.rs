//! A request against the host's SQL (`open({ sql })`, at the edge): one Put Message that
//! writes one row runs as that statement alone, anything else inside the host's
//! `transaction`, and a failed statement rolls the request's writes back and marks the
//! service for reopening.

use super::{Handled, Instance};
use crate::rest::{Clocks, Route};
use crate::wasm::sql_host::SqlHost;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// Why the host rolled a request's statements back.
const ROLLED_BACK: &str = "a statement failed, so none of the request's writes stand";

impl Instance {
    /// Notes a statement that failed since the last look.
    pub(super) fn note_sql_failure(&self) -> bool {
        let failed = self
            .sql
            .as_ref()
            .is_some_and(|host| host.sql.take_failure());
        if failed {
            self.needs_reopen.set(true);
        }
        failed
    }

    /// [`Instance::handle`] with the host's SQL: a Put Message that writes one row
    /// ([`Emulator::puts_one_row`](crate::engine::Emulator::puts_one_row)) runs as that one
    /// statement, atomic by itself, and any other request inside the host's `transaction`,
    /// which costs a Durable Object about a tenth of a Put's CPU (workerd prepares its
    /// SAVEPOINT and RELEASE on every call).
    pub(super) fn handle_with_sql(
        self: &Rc<Self>,
        host: &SqlHost,
        clocks: Clocks,
        req: &http::Request<Vec<u8>>,
        route: Route,
    ) -> Result<Handled, JsValue> {
        let one_row = self
            .service
            .try_borrow()
            .is_ok_and(|service| service.puts_one_row(clocks, &route));
        if !one_row {
            let (handled, rolled_back) =
                self.in_transaction(host, || self.handle(clocks, req, route))?;
            if rolled_back {
                return Err(js_sys::Error::new(ROLLED_BACK).into());
            }
            return handled;
        }
        let handled = host.sql.writing_once(|| self.handle(clocks, req, route))?;
        if self.note_sql_failure() {
            return Err(js_sys::Error::new("the request's one statement failed").into());
        }
        Ok(handled)
    }

    /// Runs `work` inside the host's `transaction`: every statement it runs commits together,
    /// and if one failed, the callback throws and the host rolls them all back. Returns what
    /// `work` returned, and whether it was rolled back (the failure is noted for a reopen).
    pub(super) fn in_transaction<R>(
        &self,
        host: &SqlHost,
        work: impl FnOnce() -> R,
    ) -> Result<(R, bool), JsValue> {
        let mut work = Some(work);
        let mut out = None;
        let mut rolled_back = false;
        let mut run = || -> Result<(), JsValue> {
            if let Some(work) = work.take() {
                out = Some(work());
            }
            if self.note_sql_failure() {
                rolled_back = true;
                return Err(js_sys::Error::new(ROLLED_BACK).into());
            }
            Ok(())
        };
        let callback =
            wasm_bindgen::closure::ScopedClosure::<dyn FnMut() -> Result<(), JsValue>>::borrow_mut(
                &mut run,
            );
        let called = host.transaction.call1(&JsValue::NULL, callback.as_ref());
        drop(callback);
        match (out, called) {
            (Some(out), Ok(_)) => Ok((out, false)),
            (Some(out), Err(_)) if rolled_back => Ok((out, true)),
            // The host's own failure (its commit): what the engine holds may not be stored.
            (_, Err(e)) => {
                self.needs_reopen.set(true);
                Err(e)
            }
            (None, Ok(_)) => {
                Err(js_sys::Error::new("sql.transaction did not run its callback").into())
            }
        }
    }
}
