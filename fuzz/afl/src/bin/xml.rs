//! The XML readers on raw bodies: `Ok` or a 4xx error, never a panic.

use azqueue::rest::xml;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let errors = [
            xml::messages::parse_message_text(data).err(),
            xml::service_properties::parse_service_properties(data).err(),
            xml::signed_identifiers::parse_signed_identifiers(data).err(),
            xml::reader::parse_document(data).err(),
        ];
        for e in errors.into_iter().flatten() {
            assert!(
                (400..500).contains(&e.status()),
                "an XML reader answered {}",
                e.status()
            );
        }
    });
}
