//! A small builder for the plain objects the JS API returns (`{ messageId, popReceipt, … }`).

use crate::engine::{Metadata, Timestamp};
use wasm_bindgen::JsValue;

/// A plain JS object under construction.
#[derive(Debug)]
pub(crate) struct JsObject(js_sys::Object);

impl JsObject {
    pub(crate) fn new() -> Self {
        JsObject(js_sys::Object::new())
    }

    /// Sets one property. `Reflect::set` can only fail on frozen objects or proxies, which a
    /// fresh object never is, so the result is ignored.
    pub(crate) fn set(self, key: &str, value: impl Into<JsValue>) -> Self {
        let _ = js_sys::Reflect::set(&self.0, &key.into(), &value.into());
        self
    }

    /// Sets `key` only when there is a value, leaving the property absent otherwise (as the
    /// SDK's optional fields are).
    pub(crate) fn set_opt(self, key: &str, value: Option<impl Into<JsValue>>) -> Self {
        match value {
            Some(v) => self.set(key, v),
            None => self,
        }
    }

    pub(crate) fn build(self) -> JsValue {
        self.0.into()
    }
}

/// A JS `Date` for an engine timestamp.
pub(crate) fn date(t: Timestamp) -> JsValue {
    js_sys::Date::new(&JsValue::from_f64(t.as_millis() as f64)).into()
}

/// Metadata as `{ name: value }`, names in the case they were stored.
pub(crate) fn metadata(m: &Metadata) -> JsValue {
    m.iter()
        .fold(JsObject::new(), |o, (name, value)| o.set(name, value))
        .build()
}

/// A JS array from values.
pub(crate) fn array(items: impl IntoIterator<Item = JsValue>) -> JsValue {
    items.into_iter().collect::<js_sys::Array>().into()
}
