//! XML in and out: the writer in the service's style, and one module per document type.

pub mod messages;
pub mod reader;
pub mod service_properties;
pub mod signed_identifiers;
pub mod writer;

pub use writer::XmlWriter;
