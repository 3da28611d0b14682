//! A message's stored value: the JSON array of schema 2 and 3 as it is written, and either
//! schema's form as it is read back (the module docs of `layout.rs` give both forms).

use super::parse;
use crate::engine::{MessageId, MessageOrigin, MessageRecord, PopReceipt, QueueName, Timestamp};
use crate::store::StoreError;
use serde::Deserialize;
use std::borrow::Cow;

/// A message value as written (schema 2, and 3 for a message with an origin): a JSON array,
/// see the module docs.
type MessageOut<'a> = (
    &'a str,
    &'a str,
    &'a MessageId,
    u64,
    &'a str,
    Timestamp,
    Timestamp,
    Timestamp,
    u32,
    &'a PopReceipt,
);

/// A schema-2 or -3 message value as read back: names borrowed from the value (messages
/// outnumber queues, so a queue's name is checked once, when its group becomes a queue).
struct MessageIn<'a> {
    account: Cow<'a, str>,
    queue: Cow<'a, str>,
    record: MessageRecord,
}

impl<'de: 'a, 'a> Deserialize<'de> for MessageIn<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(MessageInVisitor(std::marker::PhantomData))
    }
}

struct MessageInVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> serde::de::Visitor<'de> for MessageInVisitor<'a> {
    type Value = MessageIn<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a message value: an array of 10 items, or 11 with an origin")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        let mut n = 0;
        let mut next = || {
            n += 1;
            n
        };
        macro_rules! item {
            () => {{
                let i = next();
                seq.next_element()?
                    .ok_or_else(|| A::Error::invalid_length(i - 1, &self))?
            }};
        }
        let account: Cow<'a, str> = item!();
        let queue: Cow<'a, str> = item!();
        let record = MessageRecord {
            id: item!(),
            seq: item!(),
            text: item!(),
            insertion_time: item!(),
            expiration_time: item!(),
            time_next_visible: item!(),
            dequeue_count: item!(),
            pop_receipt: item!(),
            origin: seq.next_element::<Box<MessageOrigin>>()?,
        };
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::invalid_length(12, &self));
        }
        Ok(MessageIn {
            account,
            queue,
            record,
        })
    }
}

/// A schema-1 message value as read back.
#[derive(Deserialize)]
struct StoredMessageV1<'a> {
    #[serde(borrow)]
    account: Cow<'a, str>,
    #[serde(borrow)]
    queue: Cow<'a, str>,
    message: MessageRecord,
}

/// A stored message value of either schema: its account, queue and record.
pub(crate) fn parse_message(
    value: &str,
) -> Result<(Cow<'_, str>, Cow<'_, str>, MessageRecord), StoreError> {
    if value.starts_with('[') {
        let m: MessageIn = parse("message", value)?;
        Ok((m.account, m.queue, m.record))
    } else {
        let m: StoredMessageV1 = parse("message", value)?;
        Ok((m.account, m.queue, m.message))
    }
}

/// The value [`parse_message`] reads back.
pub(super) fn message_value(
    account: &str,
    queue: &QueueName,
    m: &MessageRecord,
) -> Result<String, StoreError> {
    let out: MessageOut = (
        account,
        queue.as_str(),
        &m.id,
        m.seq,
        &m.text,
        m.insertion_time,
        m.expiration_time,
        m.time_next_visible,
        m.dequeue_count,
        &m.pop_receipt,
    );
    // Sized for the whole value at once: grown from serde_json's first 128 bytes, a 1 KiB
    // text's value went through buffers of 128, 256, 512, 1,024 and 2,048 bytes, whose freed
    // pieces, too small for the next texts, fragmented the wasm heap (which never shrinks).
    let mut value = Vec::with_capacity(VALUE_OVERHEAD + account.len() + m.text.len());
    let written = match &m.origin {
        None => serde_json::to_writer(&mut value, &out),
        // The same array with the origin as an eleventh item (schema 3).
        Some(origin) => {
            let (a, q, id, seq, text, inserted, expires, visible, dequeues, receipt) = out;
            let with_origin = (
                a, q, id, seq, text, inserted, expires, visible, dequeues, receipt, origin,
            );
            serde_json::to_writer(&mut value, &with_origin)
        }
    };
    written.map_err(|e| StoreError::Failed(format!("encoding a record: {e}")))?;
    String::from_utf8(value).map_err(|e| StoreError::Failed(format!("encoding a record: {e}")))
}

/// A message value's bytes besides its account's name and its text: the queue name (up to 63),
/// the id (38 with quotes), the numbers, the receipt and the JSON punctuation.
const VALUE_OVERHEAD: usize = 200;

/// Where a stored message value belongs: the account, queue and id that name its record, and
/// its insertion sequence (which places it in an IndexedDB block, `blocks.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessagePlace {
    pub account: String,
    pub queue: String,
    pub id: MessageId,
    pub seq: u64,
}

/// The [`MessagePlace`] of a stored message value (either schema).
pub fn message_place(value: &str) -> Result<MessagePlace, StoreError> {
    let (account, queue, message) = parse_message(value)?;
    Ok(MessagePlace {
        account: account.into_owned(),
        queue: queue.into_owned(),
        id: message.id,
        seq: message.seq,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_with_an_origin_reads_back_and_a_schema_2_value_reads_as_it_was() {
        let q = QueueName::parse("work-poison").unwrap();
        let id = MessageId::parse("8e2f2cbc-7d5e-4e7f-9a43-1c1d6c3b2a10").unwrap();
        let mut m = MessageRecord {
            id,
            seq: 7,
            text: "a \"quoted\" text".into(),
            insertion_time: Timestamp::from_millis(1),
            expiration_time: Timestamp::from_millis(3),
            time_next_visible: Timestamp::from_millis(2),
            dequeue_count: 0,
            pop_receipt: PopReceipt::from_base64("AAAAAAAAAAAAAAAAAAAAAA==").unwrap(),
            origin: None,
        };
        let plain = message_value("acct", &q, &m).unwrap();
        assert!(!plain.contains("dequeue_count"), "schema 2's form: {plain}");
        m.origin = Some(Box::new(MessageOrigin {
            queue: "work".into(),
            id: MessageId::parse("11111111-2222-4333-8444-555555555555").unwrap(),
            dequeue_count: 5,
        }));
        let with_origin = message_value("acct", &q, &m).unwrap();
        let (account, queue, back) = parse_message(&with_origin).unwrap();
        assert_eq!(
            (account.as_ref(), queue.as_ref(), &back),
            ("acct", "work-poison", &m)
        );
        // What a schema-2 build wrote: ten items, no origin.
        let (_, _, old) = parse_message(&plain).unwrap();
        assert_eq!(old, MessageRecord { origin: None, ..m });
        let twelve = with_origin.replacen(']', ",0]", 1);
        assert!(parse_message(&twelve).is_err(), "{twelve}");
        assert!(parse_message(r#"["acct","q"]"#).is_err());
    }
}
