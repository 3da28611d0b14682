//! The `Queue` class: one queue of a `QueueService`, with `QueueClient`'s method names, options
//! and result shapes (`sendMessage`, `receiveMessages`, `peekMessages`, `updateMessage`,
//! `deleteMessage`, `clearMessages`, …). Every method returns a Promise that resolves after the
//! change is durable in the service's store.

use super::error::{coded, invalid_param};
use super::faulted::Ask;
use super::instance::Instance;
use super::options::{
    self, CreateQueueOptions, PeekMessagesOptions, ReceiveMessagesOptions, SendMessageOptions,
};
use super::result_shapes::{self, TextArg};
use super::results;
use super::types::{
    JsMetadata, JsPeekMessagesOptions, JsQueueCreateOptions, JsReceiveMessagesOptions,
    JsSendMessageOptions, JsSignedIdentifiers,
};
use crate::engine::{MessageId, MessageText, PopReceipt, QueueName};
use crate::rest::{ErrorCode, Operation, RestError};
use js_sys::Promise;
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// One queue. Get it from `service.queue(name)` or `await service.createQueue(name)`.
///
/// ```js
/// const q = service.queue("orders");
/// await q.create();
/// const sent = await q.sendMessage("hello", { visibilityTimeout: 0, messageTimeToLive: 3600 });
/// const { receivedMessageItems: [m] } = await q.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 30 });
/// await q.deleteMessage(m.messageId, m.popReceipt);
/// ```
#[wasm_bindgen]
#[derive(Debug)]
pub struct Queue {
    instance: Rc<Instance>,
    name: QueueName,
}

impl Queue {
    pub(crate) fn new(instance: Rc<Instance>, name: QueueName) -> Self {
        Queue { instance, name }
    }
}

/// Validates a queue name with the REST layer's codes: `OutOfRangeInput` for the length,
/// `InvalidResourceName` for the characters.
pub(crate) fn queue_name(name: &str) -> Result<QueueName, JsValue> {
    QueueName::parse(name).map_err(|e| RestError::from(e).into())
}

/// A message id as the engine knows it. A string that is not a GUID names no message, so it is
/// reported as the REST layer reports an unknown id.
fn message_id(id: &str) -> Result<MessageId, JsValue> {
    MessageId::parse(id).ok_or_else(|| {
        coded(
            ErrorCode::MessageNotFound,
            format!("message `{id}` does not exist"),
        )
    })
}

fn pop_receipt(receipt: &str) -> Result<PopReceipt, JsValue> {
    PopReceipt::from_base64(receipt)
        .ok_or_else(|| invalid_param("popreceipt", receipt, "Invalid pop receipt format"))
}

/// The text as a message, refused as the service would refuse the SDK's request for it.
fn message_text(text: String) -> Result<MessageText, JsValue> {
    MessageText::new(text).map_err(|e| RestError::from(e).into())
}

/// A message text argument as a message, read straight into the wasm memory
/// ([`result_shapes::text_arg`]); anything but a string is a `TypeError`.
fn text_arg(text: &JsValue) -> Result<MessageText, JsValue> {
    match result_shapes::text_arg(text, |utf8| MessageText::new(utf8)) {
        TextArg::Text(parsed) => parsed.map_err(|e| RestError::from(e).into()),
        TextArg::NotAString => Err(js_sys::TypeError::new("messageText must be a string").into()),
    }
}

/// An optional options bag as the value it is (`undefined` when absent).
fn bag_of(options: Option<impl Into<JsValue>>) -> JsValue {
    options.map(Into::into).unwrap_or(JsValue::UNDEFINED)
}

#[wasm_bindgen]
impl Queue {
    /// The queue's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.name.as_str().to_owned()
    }

    /// Creates the queue. Resolves `{ succeeded: false }` when it already existed with the same
    /// metadata (Azure's 204).
    ///
    /// # Errors
    /// `QueueAlreadyExists` (409) when it exists with different metadata.
    #[wasm_bindgen(unchecked_return_type = "QueueCreateResult")]
    pub async fn create(&self, options: Option<JsQueueCreateOptions>) -> Result<JsValue, JsValue> {
        let opts: CreateQueueOptions = options::bag(
            &options.map(Into::into).unwrap_or(JsValue::UNDEFINED),
            "create",
        )?;
        let metadata = options::metadata(opts.metadata)?;
        let name = &self.name;
        self.instance
            .run(
                Ask::queue(Operation::CreateQueue, name.as_str()),
                |emu, now, account| {
                    Ok(results::created(
                        emu.create_queue(now, account, name, metadata)?,
                    ))
                },
            )
            .await
    }

    /// Deletes the queue and every message in it.
    ///
    /// # Errors
    /// `QueueNotFound` (404).
    pub async fn delete(&self) -> Result<(), JsValue> {
        let name = &self.name;
        self.instance
            .run(
                Ask::queue(Operation::DeleteQueue, name.as_str()),
                |emu, now, account| Ok(emu.delete_queue(now, account, name)?),
            )
            .await
    }

    /// `{ metadata, approximateMessagesCount }` (the count includes invisible messages).
    #[wasm_bindgen(js_name = getProperties, unchecked_return_type = "QueueProperties")]
    pub async fn get_properties(&self) -> Result<JsValue, JsValue> {
        let name = &self.name;
        self.instance
            .run(
                Ask::queue(Operation::GetQueueMetadata, name.as_str()),
                |emu, now, account| {
                    Ok(results::queue_properties(
                        &emu.queue_properties(now, account, name)?,
                    ))
                },
            )
            .await
    }

    /// Replaces all metadata (none given clears it).
    #[wasm_bindgen(js_name = setMetadata)]
    pub async fn set_metadata(&self, metadata: Option<JsMetadata>) -> Result<(), JsValue> {
        let pairs: Option<BTreeMap<String, String>> = options::bag(
            &metadata.map(Into::into).unwrap_or(JsValue::UNDEFINED),
            "setMetadata",
        )?;
        let metadata = options::metadata(pairs)?;
        let name = &self.name;
        self.instance
            .run(
                Ask::queue(Operation::SetQueueMetadata, name.as_str()),
                |emu, _, account| Ok(emu.set_queue_metadata(account, name, metadata)?),
            )
            .await
    }

    /// `{ signedIdentifiers: [{ id, accessPolicy: { startsOn?, expiresOn?, permissions? } }] }`.
    #[wasm_bindgen(js_name = getAccessPolicy, unchecked_return_type = "QueueAccessPolicy")]
    pub async fn get_access_policy(&self) -> Result<JsValue, JsValue> {
        let name = &self.name;
        self.instance
            .run(
                Ask::queue(Operation::GetQueueAcl, name.as_str()),
                |emu, _, account| Ok(results::access_policy(&emu.queue_acl(account, name)?)),
            )
            .await
    }

    /// Replaces the stored access policies (at most five; none given clears them).
    #[wasm_bindgen(js_name = setAccessPolicy)]
    pub async fn set_access_policy(&self, acl: Option<JsSignedIdentifiers>) -> Result<(), JsValue> {
        let acl = options::signed_identifiers(&acl.map(Into::into).unwrap_or(JsValue::UNDEFINED))?;
        let name = &self.name;
        self.instance
            .run(
                Ask::queue(Operation::SetQueueAcl, name.as_str()),
                |emu, _, account| Ok(emu.set_queue_acl(account, name, acl)?),
            )
            .await
    }

    // The five message methods below return their Promise directly rather than being
    // `async fn`s: on the memory store (and with relaxed durability) it is made already
    // settled (`Instance::run_promise`), which is most of what a call costs from JS otherwise.

    /// Adds a message. `visibilityTimeout` (default 0) hides it at first; `messageTimeToLive`
    /// (default 7 days, `-1` = forever) must outlast the visibility timeout.
    ///
    /// ```js
    /// const { messageId, popReceipt, nextVisibleOn } = await q.sendMessage("hi", { visibilityTimeout: 10 });
    /// ```
    ///
    /// # Errors
    /// `RequestBodyTooLarge` (413) over 64 KiB of UTF-8; `OutOfRangeQueryParameterValue` or
    /// `InvalidQueryParameterValue` (400) for bad timeouts; `QueueNotFound` (404).
    #[wasm_bindgen(js_name = sendMessage, unchecked_return_type = "Promise<SentMessage>")]
    pub fn send_message(
        &self,
        #[wasm_bindgen(js_name = messageText, unchecked_param_type = "string")]
        message_text_arg: &JsValue,
        options: Option<JsSendMessageOptions>,
    ) -> Promise {
        let parsed = SendMessageOptions::read(&bag_of(options))
            .and_then(|opts| opts.parse())
            .and_then(|(visibility, ttl)| Ok((visibility, ttl, text_arg(message_text_arg)?)));
        let (visibility, ttl, text) = match parsed {
            Ok(p) => p,
            Err(e) => return Promise::reject(&e),
        };
        let name = &self.name;
        self.instance.run_promise_as(
            Ask::queue(Operation::PutMessage, name.as_str()),
            |emu, now, account| Ok(emu.put_message(now, account, name, text, visibility, ttl)?),
            |m| results::sent_settled(&m),
            // After a durable commit the settled Promise is adopted by the one returned here.
            |m| results::sent_settled(&m).into(),
        )
    }

    /// Takes up to `numberOfMessages` (1–32, default 1) visible messages, hiding each for
    /// `visibilityTimeout` seconds (default 30) under a fresh pop receipt.
    ///
    /// ```js
    /// const { receivedMessageItems } = await q.receiveMessages({ numberOfMessages: 32 });
    /// ```
    #[wasm_bindgen(js_name = receiveMessages, unchecked_return_type = "Promise<ReceivedMessages>")]
    pub fn receive_messages(&self, options: Option<JsReceiveMessagesOptions>) -> Promise {
        let (count, visibility) =
            match ReceiveMessagesOptions::read(&bag_of(options)).and_then(|o| o.parse()) {
                Ok(p) => p,
                Err(e) => return Promise::reject(&e),
            };
        let name = &self.name;
        let ask = Ask::messages(Operation::GetMessages, name.as_str(), count.get() as u32);
        self.instance.run_promise(ask, |emu, now, account| {
            Ok(results::received(
                &emu.get_messages(now, account, name, count, visibility)?,
            ))
        })
    }

    /// Up to `numberOfMessages` (1–32, default 1) visible messages, changing nothing.
    #[wasm_bindgen(js_name = peekMessages, unchecked_return_type = "Promise<PeekedMessages>")]
    pub fn peek_messages(&self, options: Option<JsPeekMessagesOptions>) -> Promise {
        let count = match PeekMessagesOptions::read(&bag_of(options)).and_then(|o| o.parse()) {
            Ok(c) => c,
            Err(e) => return Promise::reject(&e),
        };
        let name = &self.name;
        let ask = Ask::messages(Operation::PeekMessages, name.as_str(), count.get() as u32);
        self.instance.run_promise(ask, |emu, now, account| {
            Ok(results::peeked(
                &emu.peek_messages(now, account, name, count)?,
            ))
        })
    }

    /// Replaces the text (if `message` is given) and hides the message for `visibilityTimeout`
    /// seconds (default 0: visible now). Issues a new pop receipt; the old one stops working.
    ///
    /// ```js
    /// const { popReceipt } = await q.updateMessage(m.messageId, m.popReceipt, "50% done", 60);
    /// ```
    ///
    /// # Errors
    /// `MessageNotFound` (404) when the message is gone, expired, or the receipt is stale.
    #[wasm_bindgen(js_name = updateMessage, unchecked_return_type = "Promise<UpdatedMessage>")]
    pub fn update_message(
        &self,
        #[wasm_bindgen(js_name = messageId)] message_id_arg: String,
        #[wasm_bindgen(js_name = popReceipt)] pop_receipt_arg: String,
        message: Option<String>,
        #[wasm_bindgen(js_name = visibilityTimeout)] visibility_timeout: Option<f64>,
    ) -> Promise {
        let parsed = (|| {
            let receipt = pop_receipt(&pop_receipt_arg)?;
            let visibility = options::update_visibility(visibility_timeout)?;
            let text = message.map(message_text).transpose()?;
            let id = message_id(&message_id_arg)?;
            Ok::<_, JsValue>((receipt, visibility, text, id))
        })();
        let (receipt, visibility, text, id) = match parsed {
            Ok(p) => p,
            Err(e) => return Promise::reject(&e),
        };
        let name = &self.name;
        let ask = Ask::queue(Operation::UpdateMessage, name.as_str());
        self.instance.run_promise(ask, |emu, now, account| {
            Ok(results::updated(&emu.update_message(
                now, account, name, &id, &receipt, text, visibility,
            )?))
        })
    }

    /// Deletes a message, given its current pop receipt.
    ///
    /// # Errors
    /// `MessageNotFound` (404) when the message is gone, expired, or the receipt is stale.
    #[wasm_bindgen(js_name = deleteMessage, unchecked_return_type = "Promise<void>")]
    pub fn delete_message(
        &self,
        #[wasm_bindgen(js_name = messageId)] message_id_arg: String,
        #[wasm_bindgen(js_name = popReceipt)] pop_receipt_arg: String,
    ) -> Promise {
        let parsed = pop_receipt(&pop_receipt_arg)
            .and_then(|receipt| Ok((receipt, message_id(&message_id_arg)?)));
        let (receipt, id) = match parsed {
            Ok(p) => p,
            Err(e) => return Promise::reject(&e),
        };
        let name = &self.name;
        let ask = Ask::queue(Operation::DeleteMessage, name.as_str());
        self.instance.run_promise(ask, |emu, now, account| {
            emu.delete_message(now, account, name, &id, &receipt)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Deletes every message, visible or not.
    #[wasm_bindgen(js_name = clearMessages)]
    pub async fn clear_messages(&self) -> Result<(), JsValue> {
        let name = &self.name;
        self.instance
            .run(
                Ask::queue(Operation::ClearMessages, name.as_str()),
                |emu, now, account| Ok(emu.clear_messages(now, account, name)?),
            )
            .await
    }
}
