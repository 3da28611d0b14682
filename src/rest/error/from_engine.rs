//! The one way from an engine error to an Azure error, shared by the REST layer and the JS
//! classes, so the same bad input gets the same code, status and details from either face.
//!
//! Errors about an XML document's shape (`InvalidXmlDocument` with a `Reason`) carry no
//! position here; the XML reader adds the element's line and column when the input was a
//! document (`Element::locate`).

use super::{ErrorCode, RestError};
use crate::engine::limits::MAX_MESSAGE_BYTES;
use crate::engine::{AclError, MetadataError, NameError, PropertiesError, QueueError, TextError};

impl From<QueueError> for RestError {
    fn from(e: QueueError) -> Self {
        RestError::new(match e {
            QueueError::QueueNotFound(_) => ErrorCode::QueueNotFound,
            QueueError::QueueAlreadyExists(_) => ErrorCode::QueueAlreadyExists,
            QueueError::MessageNotFound(_) => ErrorCode::MessageNotFound,
            QueueError::ServerBusy => ErrorCode::ServerBusy,
            QueueError::Storage(_) => ErrorCode::InternalError,
        })
    }
}

impl From<NameError> for RestError {
    fn from(e: NameError) -> Self {
        match e {
            // Azure storage's own words for a name of the wrong length (a real Blob service
            // answer for a container name; the services share these texts, as they share the
            // misspelt InvalidResourceName one), not OutOfRangeInput's generic message.
            NameError::Length => RestError::new(ErrorCode::OutOfRangeInput)
                .worded("The specified resource name length is not within the permissible limits."),
            NameError::Characters => RestError::new(ErrorCode::InvalidResourceName),
        }
    }
}

impl From<MetadataError> for RestError {
    fn from(e: MetadataError) -> Self {
        RestError::new(match e {
            MetadataError::EmptyName => ErrorCode::EmptyMetadataKey,
            MetadataError::InvalidName(_) | MetadataError::DuplicateName(_) => {
                ErrorCode::InvalidMetadata
            }
            MetadataError::TooLarge => ErrorCode::MetadataTooLarge,
        })
    }
}

impl From<TextError> for RestError {
    fn from(e: TextError) -> Self {
        match e {
            TextError::TooLarge { .. } => RestError::too_large(MAX_MESSAGE_BYTES),
            // What the service's XML reader says of such a character (even as a reference),
            // with the character named.
            TextError::NotXml { found } => RestError::invalid_xml_because(format!(
                "The message text holds U+{:04X}, a character XML 1.0 cannot carry; \
                 base64-encode binary content.",
                u32::from(found)
            )),
        }
    }
}

impl From<PropertiesError> for RestError {
    fn from(e: PropertiesError) -> Self {
        match e {
            PropertiesError::BadValue { element, value } => {
                RestError::new(ErrorCode::InvalidXmlNodeValue)
                    .with("XmlNodeName", element)
                    .with("XmlNodeValue", value)
            }
            PropertiesError::OutOfRange => RestError::new(ErrorCode::OutOfRangeInput),
            shape => {
                RestError::new(ErrorCode::InvalidXmlDocument).with("Reason", shape.to_string())
            }
        }
    }
}

impl From<AclError> for RestError {
    /// Always at line and position 0: the service reports Set Queue ACL bodies that way.
    fn from(e: AclError) -> Self {
        RestError::invalid_xml_because(e.to_string())
    }
}
