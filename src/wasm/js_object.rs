//! A small builder for the plain objects the JS API returns (`{ messageId, popReceipt, … }`).
//!
//! It is on the hot path of every `Queue` call (a received message is an object of seven
//! properties with three `Date`s), so it avoids what profiling showed to dominate: each
//! property name crossing from wasm as a fresh UTF-8 string (decoded by a `TextDecoder` every
//! time), and `Reflect.set`'s exception-catching wrapper. Names are made JS strings once and
//! kept; properties are set with a plain `obj[key] = value`, which cannot throw on the fresh,
//! ordinary objects built here; a `Date` is made in one call from its milliseconds.

use crate::engine::{Metadata, Timestamp};
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// An ordinary object whose properties are set by plain assignment.
    #[wasm_bindgen(extends = js_sys::Object)]
    pub(crate) type PlainObject;

    #[wasm_bindgen(method, structural, indexing_setter)]
    fn put(this: &PlainObject, key: &JsValue, value: &JsValue);

    // Typed twins of `put`: the value crosses as a number, boolean or string in the same
    // call, instead of becoming a `JsValue` in a call of its own first.
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn put_str(this: &PlainObject, key: &JsValue, value: &str);
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn put_f64(this: &PlainObject, key: &JsValue, value: f64);
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn put_bool(this: &PlainObject, key: &JsValue, value: bool);

    #[wasm_bindgen(method, structural, indexing_getter, catch)]
    fn take(this: &PlainObject, key: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = Date)]
    type MillisDate;

    #[wasm_bindgen(constructor, js_class = "Date")]
    fn new_millis(ms: f64) -> MillisDate;
}

thread_local! {
    /// Property names as JS strings, made once each and kept for the life of the instance
    /// (a few dozen names), found by the address and length of the name's text: a hash of the text cost
    /// as much as the property assignment it saves.
    static NAMES: RefCell<Vec<((usize, usize), &'static JsValue)>> =
        const { RefCell::new(Vec::new()) };
}

/// `name` as a JS string, made on first use. The list is not borrowed while JS runs, so a JS
/// exception in the caller's property access cannot leave it borrowed. (The same name at two
/// addresses is two entries, which is harmless.)
fn js_name(name: &'static str) -> &'static JsValue {
    // Address and length: literals may share bytes, never both.
    let address = (name.as_ptr() as usize, name.len());
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some((_, key)) = names.iter().find(|(a, _)| *a == address) {
            return *key;
        }
        let key: &'static JsValue = Box::leak(Box::new(JsValue::from_str(name)));
        names.push((address, key));
        key
    })
}

/// A value a property can hold, handed over in the cheapest way for its type.
pub(crate) trait Prop {
    fn put_on(self, obj: &PlainObject, key: &JsValue);
}

impl Prop for &str {
    fn put_on(self, obj: &PlainObject, key: &JsValue) {
        obj.put_str(key, self);
    }
}

impl Prop for String {
    fn put_on(self, obj: &PlainObject, key: &JsValue) {
        obj.put_str(key, &self);
    }
}

impl Prop for f64 {
    fn put_on(self, obj: &PlainObject, key: &JsValue) {
        obj.put_f64(key, self);
    }
}

impl Prop for u32 {
    fn put_on(self, obj: &PlainObject, key: &JsValue) {
        obj.put_f64(key, f64::from(self));
    }
}

impl Prop for bool {
    fn put_on(self, obj: &PlainObject, key: &JsValue) {
        obj.put_bool(key, self);
    }
}

impl Prop for JsValue {
    fn put_on(self, obj: &PlainObject, key: &JsValue) {
        obj.put(key, &self);
    }
}

/// A plain JS object under construction.
#[derive(Debug)]
pub(crate) struct JsObject(js_sys::Object);

impl JsObject {
    pub(crate) fn new() -> Self {
        JsObject(js_sys::Object::new())
    }

    fn plain(&self) -> &PlainObject {
        self.0.unchecked_ref()
    }

    /// Sets one property with a name known at compile time (kept as a JS string).
    pub(crate) fn set(self, key: &'static str, value: impl Prop) -> Self {
        value.put_on(self.plain(), js_name(key));
        self
    }

    /// Sets one property whose name is data (metadata names), converted each time.
    pub(crate) fn set_named(self, key: &str, value: impl Prop) -> Self {
        value.put_on(self.plain(), &JsValue::from_str(key));
        self
    }

    /// Sets `key` only when there is a value, leaving the property absent otherwise (as the
    /// SDK's optional fields are).
    pub(crate) fn set_opt(self, key: &'static str, value: Option<impl Prop>) -> Self {
        match value {
            Some(v) => self.set(key, v),
            None => self,
        }
    }

    pub(crate) fn build(self) -> JsValue {
        self.0.into()
    }
}

/// `obj[key]` of an options bag the caller checked is an object; a getter that throws gives
/// its exception back.
pub(crate) fn field(obj: &JsValue, key: &'static str) -> Result<JsValue, JsValue> {
    let obj: &PlainObject = obj.unchecked_ref();
    obj.take(js_name(key))
}

/// A JS `Date` for an engine timestamp.
pub(crate) fn date(t: Timestamp) -> JsValue {
    MillisDate::new_millis(t.as_millis() as f64).into()
}

/// Metadata as `{ name: value }`, names in the case they were stored.
pub(crate) fn metadata(m: &Metadata) -> JsValue {
    m.iter()
        .fold(JsObject::new(), |o, (name, value)| o.set_named(name, value))
        .build()
}

/// A JS array from values.
pub(crate) fn array(items: impl IntoIterator<Item = JsValue>) -> JsValue {
    items.into_iter().collect::<js_sys::Array>().into()
}
