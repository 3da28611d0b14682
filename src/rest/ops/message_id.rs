//! Operations on one message: Delete and Update, both gated by the current pop receipt.

use super::messages::message_text_from_body;
use super::{OpContext, Reply};
use crate::engine::{MessageId, PopReceipt, QueueError, VisibilityTimeout};
use crate::rest::dates::rfc1123;
use crate::rest::error::{ErrorCode, RestError};
use crate::rest::route::Resource;

/// A required query parameter, refused the way the service refuses a missing one.
fn required<'q>(ctx: &'q OpContext, name: &str) -> Result<&'q str, RestError> {
    ctx.query
        .get(name)
        .ok_or_else(|| RestError::invalid_query(name, "", "query parameter is required"))
}

fn pop_receipt(ctx: &OpContext) -> Result<PopReceipt, RestError> {
    let raw = required(ctx, "popreceipt")?;
    PopReceipt::from_base64(raw)
        .ok_or_else(|| RestError::invalid_query("popreceipt", raw, "Invalid pop receipt format"))
}

/// The message id from the path. An id that is not a GUID names no message; the queue's
/// existence is still checked first so a missing queue reports `QueueNotFound`.
fn message_id(ctx: &OpContext) -> Result<MessageId, RestError> {
    let raw = match &ctx.target.resource {
        Resource::Message(_, id) => id.as_str(),
        _ => "",
    };
    match MessageId::parse(raw) {
        Some(id) => Ok(id),
        None => {
            let name = ctx.queue_name()?;
            ctx.emu.queue(ctx.account(), &name)?;
            Err(RestError::new(ErrorCode::MessageNotFound))
        }
    }
}

/// [Delete Message](https://learn.microsoft.com/rest/api/storageservices/delete-message2).
pub fn delete(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let receipt = pop_receipt(ctx)?;
    let id = message_id(ctx)?;
    let account = ctx.account().to_owned();
    ctx.emu
        .delete_message(ctx.now, &account, &name, &id, &receipt)?;
    Ok(Reply::status(204))
}

/// [Update Message](https://learn.microsoft.com/rest/api/storageservices/update-message):
/// 204 with the new receipt and next-visible time in headers.
pub fn update(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let receipt = pop_receipt(ctx)?;
    let raw_vis = required(ctx, "visibilitytimeout")?.to_owned();
    let secs = ctx.query.int32("visibilitytimeout")?.unwrap_or_default();
    let visibility = VisibilityTimeout::new(secs)
        .map_err(|e| RestError::query_out_of_range("visibilitytimeout", &raw_vis, e.min, e.max))?;
    let text = if ctx.body.is_empty() {
        None
    } else {
        Some(message_text_from_body(ctx)?)
    };
    let id = message_id(ctx)?;
    let account = ctx.account().to_owned();
    let updated = ctx
        .emu
        .update_message(ctx.now, &account, &name, &id, &receipt, text, visibility)
        .map_err(|e: QueueError| RestError::from(e))?;
    Ok(Reply::status(204)
        .header("x-ms-popreceipt", updated.pop_receipt.to_base64())
        .header("x-ms-time-next-visible", rfc1123(updated.time_next_visible)))
}
