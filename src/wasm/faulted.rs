//! What a fault does to an answer on this side: the wait a `delayMs` asks for, on the host's
//! own timer (real time: a slow network, not the queues' clock), and the JS faces' outcome of
//! a faulted operation (the `Queue` and `QueueService` methods: the rule's error, thrown as a
//! `QueueError`, or the operation's own result).

use super::error::{invalid_input, thrown};
use crate::rest::Operation;
use crate::rest::faults::{Fault, FaultError, Faults};
use wasm_bindgen::{JsCast, JsValue};

/// What a JS method is, for the fault rules (`rest::faults`): its REST operation, the queue it
/// acts on, and the messages it asks to move (Get and Peek: the number asked; else 1).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "faults"), allow(dead_code))] // read only with the feature
pub(crate) struct Ask<'a> {
    pub operation: Operation,
    pub queue: Option<&'a str>,
    pub messages: u32,
}

impl<'a> Ask<'a> {
    /// An operation on the account (List Queues, the service properties).
    pub(crate) fn service(operation: Operation) -> Self {
        Ask {
            operation,
            queue: None,
            messages: 1,
        }
    }

    /// An operation on `queue` that moves one message, or none.
    pub(crate) fn queue(operation: Operation, queue: &'a str) -> Self {
        Ask {
            operation,
            queue: Some(queue),
            messages: 1,
        }
    }

    /// A Get or Peek on `queue` asking for `messages`.
    pub(crate) fn messages(operation: Operation, queue: &'a str, messages: u32) -> Self {
        Ask {
            operation,
            queue: Some(queue),
            messages,
        }
    }
}

/// Waits `ms` milliseconds on the host's `setTimeout` (every host here has one: Node, Deno,
/// Bun, browsers, workers, workerd). Without one, it does not wait.
pub(crate) async fn sleep(ms: u64) {
    if ms == 0 {
        return;
    }
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let timer = js_sys::Reflect::get(&global, &"setTimeout".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let waiting = timer.is_some_and(|set_timeout| {
            set_timeout
                .call2(&global, &resolve, &JsValue::from(ms as f64))
                .is_ok()
        });
        if !waiting {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The outcome of an operation a fault decided: after its delay, the rule's error, else what
/// the operation gave (`ran`, when the fault let it run). A reset before the operation has no
/// answer to give, and these faces have no connection to cut: it throws `InternalError`.
/// Not generic over the operation's value, so the wasm holds one copy for every method.
pub(crate) async fn settle(
    fault: Fault,
    ran: Option<Result<JsValue, JsValue>>,
) -> Result<JsValue, JsValue> {
    sleep(fault.delay_ms).await;
    match (fault.error, ran) {
        (Some(e), _) => Err(fault_error(&e)),
        (None, Some(ran)) => ran,
        (None, None) => Err(thrown(
            500,
            "InternalError",
            "A fault rule reset the connection here; a JS method has no connection to reset, \
             so it throws this instead.",
            &[],
        )),
    }
}

/// The rule's error as the `QueueError` the JS faces throw.
pub(crate) fn fault_error(e: &FaultError) -> JsValue {
    thrown(e.status, &e.code, &e.message, &[])
}

/// The `faults` option of `open()`: a rule set (object or JSON text) the service starts with,
/// its limits the ones `clear()` puts back; none when absent.
pub(crate) fn from_option(value: &JsValue) -> Result<Faults, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Faults::default());
    }
    #[cfg(feature = "faults")]
    {
        let text = rule_set_text(value, "the `faults` option")?;
        Faults::starting_with(text.as_bytes())
            .map_err(|why| invalid_input(format!("faults: {why}")))
    }
    #[cfg(not(feature = "faults"))]
    Err(invalid_input(
        "this build has no fault rules (the `faults` feature): pkg/node and pkg/edge have them",
    ))
}

/// A rule set given as an object or as JSON text, as JSON text.
#[cfg(feature = "faults")]
pub(crate) fn rule_set_text(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|text| text.as_string())
        .ok_or_else(|| invalid_input(format!("{what} takes a rule set: an object or JSON text")))
}
