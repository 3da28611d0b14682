//! The names a fault rule gives operations: the REST reference's page titles without their
//! spaces (`PutMessage`, `GetQueueServiceProperties`), each naming one [`Operation`] of the
//! router. A CORS preflight is no operation a client retries, so no rule names it.

use crate::rest::route::Operation;

/// Every operation a rule may name, with its name, in the reference's order.
pub const NAMED: [(&str, Operation); 16] = [
    ("PutMessage", Operation::PutMessage),
    ("GetMessages", Operation::GetMessages),
    ("PeekMessages", Operation::PeekMessages),
    ("DeleteMessage", Operation::DeleteMessage),
    ("UpdateMessage", Operation::UpdateMessage),
    ("ClearMessages", Operation::ClearMessages),
    ("CreateQueue", Operation::CreateQueue),
    ("DeleteQueue", Operation::DeleteQueue),
    ("ListQueues", Operation::ListQueues),
    ("GetQueueMetadata", Operation::GetQueueMetadata),
    ("SetQueueMetadata", Operation::SetQueueMetadata),
    ("GetQueueACL", Operation::GetQueueAcl),
    ("SetQueueACL", Operation::SetQueueAcl),
    ("GetQueueServiceProperties", Operation::GetServiceProperties),
    ("SetQueueServiceProperties", Operation::SetServiceProperties),
    ("GetQueueServiceStats", Operation::GetServiceStats),
];

/// The TypeScript union of the names, for the package's `.d.ts` (`FaultRule.operation`).
pub const OPERATION_TS: &str = "/** An operation as a fault rule names it: the REST reference's title without spaces. */
export type FaultOperation = \"PutMessage\" | \"GetMessages\" | \"PeekMessages\" | \"DeleteMessage\" | \"UpdateMessage\" | \"ClearMessages\" | \"CreateQueue\" | \"DeleteQueue\" | \"ListQueues\" | \"GetQueueMetadata\" | \"SetQueueMetadata\" | \"GetQueueACL\" | \"SetQueueACL\" | \"GetQueueServiceProperties\" | \"SetQueueServiceProperties\" | \"GetQueueServiceStats\";
";

/// The operation `name` names, spelt exactly.
pub fn operation_named(name: &str) -> Option<Operation> {
    NAMED.iter().find(|(n, _)| *n == name).map(|(_, op)| *op)
}

/// The name rules and fault events give `op`; `None` for a preflight.
pub fn name_of(op: Operation) -> Option<&'static str> {
    NAMED.iter().find(|(_, o)| *o == op).map(|(n, _)| *n)
}

/// The names, for a refusal that lists what a rule may say.
pub fn names_list() -> String {
    NAMED.map(|(n, _)| n).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_but_the_preflight_has_one_name_and_it_reads_back() {
        for op in Operation::ALL {
            match name_of(op) {
                None => assert_eq!(op, Operation::Preflight),
                Some(name) => assert_eq!(operation_named(name), Some(op), "{name}"),
            }
        }
    }

    #[test]
    fn the_typescript_union_is_the_names() {
        let quoted: Vec<String> = NAMED.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        let union = format!("export type FaultOperation = {};", quoted.join(" | "));
        assert!(OPERATION_TS.contains(&union), "{OPERATION_TS}");
    }

    #[test]
    fn names_are_the_reference_titles_without_spaces() {
        // The router's own names drop "Queue" from the service operations; the reference's
        // titles keep it, and the rest match once the spaces go.
        for (name, op) in NAMED {
            let title = op.name().replace(' ', "");
            let title = title.replace("Service", "QueueService");
            assert_eq!(name, title);
        }
        assert_eq!(operation_named("Put Message"), None);
        assert_eq!(operation_named("putmessage"), None);
        assert_eq!(operation_named("Preflight"), None);
    }
}
