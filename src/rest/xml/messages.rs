//! `QueueMessage` request bodies and `QueueMessagesList` responses.
