//! The `FaultRules` class: `service.faults`, the fault rules and limits of a service in this
//! realm, taking and answering the same JSON as `/_azqueue/faults` (`rest::dev::faults`).
//! The `Queue` and `QueueService` methods, `httpClient()`, the fetch handler and a socket
//! server's connections all answer by them.

use super::error::invalid_input;
use super::faulted::rule_set_text;
use super::instance::Instance;
use super::types::JsFaultRuleSet;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The fault rules of one service (docs/faults.md).
///
/// ```js
/// service.faults.add({ rules: [{ operation: "PutMessage", times: 2, status: 503 }] });
/// await queue.sendMessage("hi");            // throws QueueError ServerBusy, twice
/// service.faults.get().rules[0].injected;   // 2
/// service.faults.clear();
/// ```
#[wasm_bindgen]
#[derive(Debug)]
pub struct FaultRules {
    instance: Rc<Instance>,
}

impl FaultRules {
    pub(crate) fn new(instance: Rc<Instance>) -> Self {
        FaultRules { instance }
    }
}

#[wasm_bindgen]
impl FaultRules {
    /// Adds rules, reseeds the draws and sets limits, all or nothing: the body of
    /// `POST /_azqueue/faults`, as an object or as JSON text. Returns the new rules' ids.
    ///
    /// # Errors
    /// `InvalidInput` (400) saying what is wrong; nothing changes.
    #[wasm_bindgen(unchecked_return_type = "{ ids: string[] }")]
    pub fn add(&self, rules: JsFaultRuleSet) -> Result<JsValue, JsValue> {
        let text = rule_set_text(&rules.into(), "faults.add()")?;
        let added = self
            .instance
            .faults(|faults| faults.post(text.as_bytes()))?
            .map_err(invalid_input)?;
        js_sys::JSON::parse(&added)
    }

    /// The rules with their counts, the limits and the seed: what `GET /_azqueue/faults`
    /// answers.
    #[wasm_bindgen(unchecked_return_type = "FaultState")]
    pub fn get(&self) -> Result<JsValue, JsValue> {
        let state = self.instance.faults(|faults| faults.to_json())?;
        js_sys::JSON::parse(&state)
    }

    /// Removes every rule and puts back the limits the service started with.
    pub fn clear(&self) -> Result<(), JsValue> {
        self.instance.faults(|faults| faults.clear())
    }

    /// Removes the rule `id`; false when there is none.
    pub fn remove(&self, id: &str) -> Result<bool, JsValue> {
        self.instance.faults(|faults| faults.remove(id))
    }
}
