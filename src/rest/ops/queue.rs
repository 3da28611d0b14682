//! Queue-level operations: create, delete, metadata, access policies.

use super::{OpContext, Reply};
use crate::engine::Created;
use crate::rest::error::RestError;
use crate::rest::xml::signed_identifiers::{parse_signed_identifiers, write_signed_identifiers};

/// [Create Queue](https://learn.microsoft.com/rest/api/storageservices/create-queue4):
/// 201 new, 204 when it exists with identical metadata, 409 otherwise.
pub fn create(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let metadata = ctx.metadata()?;
    let account = ctx.account().to_owned();
    Ok(
        match ctx.emu.create_queue(ctx.now, &account, &name, metadata)? {
            Created::New => Reply::status(201),
            Created::AlreadyExisted => Reply::status(204),
        },
    )
}

/// [Delete Queue](https://learn.microsoft.com/rest/api/storageservices/delete-queue3).
pub fn delete(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let account = ctx.account().to_owned();
    ctx.emu.delete_queue(ctx.now, &account, &name)?;
    Ok(Reply::status(204))
}

/// [Get Queue Metadata](https://learn.microsoft.com/rest/api/storageservices/get-queue-metadata):
/// metadata headers and the approximate message count.
pub fn get_metadata(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let account = ctx.account().to_owned();
    let props = ctx.emu.queue_properties(ctx.now, &account, &name)?;
    let mut reply = Reply::status(200).no_cache().header(
        "x-ms-approximate-messages-count",
        props.approximate_message_count.to_string(),
    );
    for (k, v) in props.metadata.iter() {
        reply = reply.header(format!("x-ms-meta-{k}"), v);
    }
    Ok(reply)
}

/// [Set Queue Metadata](https://learn.microsoft.com/rest/api/storageservices/set-queue-metadata):
/// replaces the whole set.
pub fn set_metadata(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let metadata = ctx.metadata()?;
    let account = ctx.account().to_owned();
    ctx.emu.set_queue_metadata(&account, &name, metadata)?;
    Ok(Reply::status(204))
}

/// [Get Queue ACL](https://learn.microsoft.com/rest/api/storageservices/get-queue-acl).
pub fn get_acl(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let acl = ctx.emu.queue_acl(ctx.account(), &name)?;
    Ok(Reply::xml(200, write_signed_identifiers(&acl, ctx.bom)).no_cache())
}

/// [Set Queue ACL](https://learn.microsoft.com/rest/api/storageservices/set-queue-acl).
pub fn set_acl(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let acl = parse_signed_identifiers(ctx.body)?;
    let account = ctx.account().to_owned();
    ctx.emu.set_queue_acl(&account, &name, acl)?;
    Ok(Reply::status(204))
}
