//! Which credentials may run which operation (§2, §7.5, §7.6).

use super::{AccountSasPermissions, Principal, SasResourceTypes};
use crate::engine::QueuePermissions;
use crate::rest::error::{ErrorCode, RestError};
use crate::rest::route::Operation;

/// Checks that `principal` may perform `op`.
///
/// Call after routing. SharedKey may do everything; `Anonymous` is let through because
/// whether anonymous access is allowed is a service setting the caller owns; `Preflight` is
/// never authenticated (CORS answers it).
///
/// # Errors
/// - `403 AuthorizationServiceMismatch`: account SAS whose `ss` lacks `q`.
/// - `403 AuthorizationResourceTypeMismatch`: account SAS whose `srt` lacks the operation's
///   resource type; service SAS on a service-level operation (it is scoped to one queue).
/// - `403 AuthorizationPermissionMismatch`: missing permission letter, or an operation no SAS
///   can grant (ACLs for both kinds; create/delete/metadata/clear for a service SAS).
pub fn authorize(principal: &Principal, op: Operation) -> Result<(), RestError> {
    if op == Operation::Preflight {
        return Ok(());
    }
    match principal {
        Principal::SharedKey | Principal::Bearer | Principal::Anonymous => Ok(()),
        Principal::ServiceSas { permissions } => service_sas(*permissions, op),
        Principal::AccountSas {
            services,
            resource_types,
            permissions,
        } => {
            if !services.queue {
                return Err(RestError::new(ErrorCode::AuthorizationServiceMismatch));
            }
            account_sas(*resource_types, *permissions, op)
        }
    }
}

fn service_sas(granted: QueuePermissions, op: Operation) -> Result<(), RestError> {
    use Operation::*;
    let none = QueuePermissions::default();
    let needed = match op {
        GetQueueMetadata | PeekMessages => QueuePermissions { read: true, ..none },
        PutMessage => QueuePermissions { add: true, ..none },
        UpdateMessage => QueuePermissions {
            update: true,
            ..none
        },
        GetMessages | DeleteMessage => QueuePermissions {
            process: true,
            ..none
        },
        // A service SAS names one queue; the account level is another resource type.
        ListQueues | GetServiceProperties | SetServiceProperties | GetServiceStats => {
            return Err(RestError::new(ErrorCode::AuthorizationResourceTypeMismatch));
        }
        // Queue management and ACLs are owner-only.
        CreateQueue | DeleteQueue | SetQueueMetadata | ClearMessages | GetQueueAcl
        | SetQueueAcl => return Err(permission_mismatch()),
        Preflight => return Ok(()),
    };
    if granted.contains(needed) {
        Ok(())
    } else {
        Err(permission_mismatch())
    }
}

fn account_sas(
    types: SasResourceTypes,
    p: AccountSasPermissions,
    op: Operation,
) -> Result<(), RestError> {
    use Operation::*;
    // Resource type first, then the letter, as the service reports them. Delete / Update /
    // Clear need `o` as on the real service (Azurite asks for `c` instead).
    let (type_ok, allowed) = match op {
        ListQueues => (types.service, p.list),
        GetServiceProperties | GetServiceStats => (types.service, p.read),
        SetServiceProperties => (types.service, p.write),
        CreateQueue => (types.container, p.create || p.write),
        DeleteQueue => (types.container, p.delete),
        GetQueueMetadata => (types.container, p.read),
        SetQueueMetadata => (types.container, p.write),
        PutMessage => (types.object, p.add),
        GetMessages | DeleteMessage => (types.object, p.process),
        PeekMessages => (types.object, p.read),
        ClearMessages => (types.object, p.delete),
        UpdateMessage => (types.object, p.update),
        GetQueueAcl | SetQueueAcl => return Err(permission_mismatch()),
        Preflight => return Ok(()),
    };
    if !type_ok {
        return Err(RestError::new(ErrorCode::AuthorizationResourceTypeMismatch));
    }
    if !allowed {
        return Err(permission_mismatch());
    }
    Ok(())
}

fn permission_mismatch() -> RestError {
    RestError::new(ErrorCode::AuthorizationPermissionMismatch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::auth::SasServices;
    use Operation::*;

    fn code(p: &Principal, op: Operation) -> Option<ErrorCode> {
        authorize(p, op).err().map(|e| e.code)
    }

    #[test]
    fn shared_key_and_anonymous_pass_everything() {
        for op in Operation::ALL {
            assert_eq!(code(&Principal::SharedKey, op), None);
            assert_eq!(code(&Principal::Anonymous, op), None);
        }
    }

    #[test]
    fn service_sas_table() {
        use ErrorCode::*;
        let sas = |sp: &str| Principal::ServiceSas {
            permissions: QueuePermissions::parse(sp).unwrap(),
        };
        let table: &[(&str, Operation, Option<ErrorCode>)] = &[
            ("r", GetQueueMetadata, None),
            ("r", PeekMessages, None),
            ("a", PutMessage, None),
            ("u", UpdateMessage, None),
            ("p", GetMessages, None),
            ("p", DeleteMessage, None),
            ("aup", PeekMessages, Some(AuthorizationPermissionMismatch)),
            ("rup", PutMessage, Some(AuthorizationPermissionMismatch)),
            ("rap", UpdateMessage, Some(AuthorizationPermissionMismatch)),
            ("rau", GetMessages, Some(AuthorizationPermissionMismatch)),
            ("raup", GetQueueAcl, Some(AuthorizationPermissionMismatch)),
            ("raup", SetQueueAcl, Some(AuthorizationPermissionMismatch)),
            ("raup", CreateQueue, Some(AuthorizationPermissionMismatch)),
            ("raup", ClearMessages, Some(AuthorizationPermissionMismatch)),
            ("raup", ListQueues, Some(AuthorizationResourceTypeMismatch)),
            (
                "raup",
                GetServiceProperties,
                Some(AuthorizationResourceTypeMismatch),
            ),
            ("", Preflight, None),
        ];
        for (sp, op, want) in table {
            assert_eq!(code(&sas(sp), *op), *want, "sp={sp} {op:?}");
        }
    }

    #[test]
    fn account_sas_table() {
        use ErrorCode::*;
        let sas = |ss: bool, srt: &str, sp: &str| Principal::AccountSas {
            services: SasServices {
                queue: ss,
                ..Default::default()
            },
            resource_types: SasResourceTypes {
                service: srt.contains('s'),
                container: srt.contains('c'),
                object: srt.contains('o'),
            },
            permissions: AccountSasPermissions {
                read: sp.contains('r'),
                write: sp.contains('w'),
                delete: sp.contains('d'),
                list: sp.contains('l'),
                add: sp.contains('a'),
                create: sp.contains('c'),
                update: sp.contains('u'),
                process: sp.contains('p'),
            },
        };
        let table: &[(&str, &str, Operation, Option<ErrorCode>)] = &[
            ("s", "l", ListQueues, None),
            ("s", "r", GetServiceProperties, None),
            ("s", "r", GetServiceStats, None),
            ("s", "w", SetServiceProperties, None),
            ("c", "c", CreateQueue, None),
            ("c", "w", CreateQueue, None),
            ("c", "d", DeleteQueue, None),
            ("c", "r", GetQueueMetadata, None),
            ("c", "w", SetQueueMetadata, None),
            ("o", "a", PutMessage, None),
            ("o", "p", GetMessages, None),
            ("o", "r", PeekMessages, None),
            ("o", "p", DeleteMessage, None),
            ("o", "d", ClearMessages, None),
            ("o", "u", UpdateMessage, None),
            (
                "c",
                "d",
                ClearMessages,
                Some(AuthorizationResourceTypeMismatch),
            ),
            (
                "c",
                "u",
                UpdateMessage,
                Some(AuthorizationResourceTypeMismatch),
            ),
            (
                "co",
                "rwdlacup",
                ListQueues,
                Some(AuthorizationResourceTypeMismatch),
            ),
            ("s", "r", ListQueues, Some(AuthorizationPermissionMismatch)),
            ("o", "r", GetMessages, Some(AuthorizationPermissionMismatch)),
            (
                "sco",
                "rwdlacup",
                GetQueueAcl,
                Some(AuthorizationPermissionMismatch),
            ),
            (
                "sco",
                "rwdlacup",
                SetQueueAcl,
                Some(AuthorizationPermissionMismatch),
            ),
        ];
        for (srt, sp, op, want) in table {
            assert_eq!(
                code(&sas(true, srt, sp), *op),
                *want,
                "srt={srt} sp={sp} {op:?}"
            );
        }
        assert_eq!(
            code(&sas(false, "sco", "rwdlacup"), PutMessage),
            Some(AuthorizationServiceMismatch)
        );
    }
}
