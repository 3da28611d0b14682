//! Operations on a queue's messages collection: Put, Get, Peek, Clear.

use super::{OpContext, Reply};
use crate::engine::limits::DEFAULT_GET_VISIBILITY_SECS;
use crate::engine::{MessageCount, MessageText, RangeError, TimeToLive, VisibilityTimeout};
use crate::rest::error::{ErrorCode, RestError};
use crate::rest::xml::messages::{ListShape, parse_message_text, write_message_list};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use md5::{Digest, Md5};

/// Largest Put/Update request body: twice the text limit plus the envelope.
pub const MAX_MESSAGE_BODY_BYTES: usize = 131_584;

/// Turns a range violation into the error that names the query parameter.
fn out_of_range(ctx: &OpContext, name: &str, e: RangeError) -> RestError {
    RestError::query_out_of_range(name, ctx.query.get(name).unwrap_or(""), e.min, e.max)
}

/// Reads a Put/Update body: size limits, `Content-MD5`, envelope, 64 KiB of text.
pub fn message_text_from_body(ctx: &OpContext) -> Result<MessageText, RestError> {
    if ctx.body.len() > MAX_MESSAGE_BODY_BYTES {
        return Err(RestError::too_large(MAX_MESSAGE_BODY_BYTES));
    }
    if let Some(md5) = ctx.headers.get("content-md5") {
        let given = md5
            .to_str()
            .ok()
            .and_then(|v| STANDARD.decode(v.trim()).ok())
            .filter(|d| d.len() == 16)
            .ok_or_else(|| RestError::new(ErrorCode::InvalidMd5))?;
        if given[..] != Md5::digest(ctx.body)[..] {
            return Err(RestError::new(ErrorCode::Md5Mismatch));
        }
    }
    let text = parse_message_text(ctx.body)?;
    Ok(MessageText::new(text)?)
}

/// Put Message answers with the new message only from this version on; before, 201 is empty.
const PUT_BODY_SINCE: &str = "2016-05-31";

/// [Put Message](https://learn.microsoft.com/rest/api/storageservices/put-message): 201 with
/// the new message's id, times and first pop receipt (an empty 201 for versions before
/// 2016-05-31).
pub fn put(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let secs = ctx.query.int32("visibilitytimeout")?.unwrap_or(0);
    let visibility =
        VisibilityTimeout::new(secs).map_err(|e| out_of_range(ctx, "visibilitytimeout", e))?;
    let ttl = match ctx.query.int64("messagettl")? {
        Some(v) => TimeToLive::new(v).map_err(|e| out_of_range(ctx, "messagettl", e))?,
        None => TimeToLive::default(),
    };
    // The default TTL counts too: visibilitytimeout=604800 alone is refused.
    if !ttl.outlasts(visibility) {
        return Err(RestError::invalid_query(
            "visibilitytimeout",
            &visibility.secs().to_string(),
            "messagettl must be greater than visibilitytimeout",
        ));
    }
    let text = message_text_from_body(ctx)?;
    let account = ctx.account().to_owned();
    let m = ctx
        .emu
        .put_message(ctx.now, &account, &name, text, visibility, ttl)?;
    if ctx.version < PUT_BODY_SINCE {
        return Ok(Reply::status(201));
    }
    Ok(Reply::xml(
        201,
        write_message_list(&[m], ListShape::Put, ctx.bom),
    ))
}

fn count(ctx: &OpContext) -> Result<MessageCount, RestError> {
    match ctx.query.int32("numofmessages")? {
        Some(n) => MessageCount::new(n).map_err(|e| out_of_range(ctx, "numofmessages", e)),
        None => Ok(MessageCount::ONE),
    }
}

/// [Get Messages](https://learn.microsoft.com/rest/api/storageservices/get-messages).
pub fn get(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let n = count(ctx)?;
    let secs = ctx
        .query
        .int32("visibilitytimeout")?
        .unwrap_or(DEFAULT_GET_VISIBILITY_SECS as i64);
    let visibility =
        VisibilityTimeout::for_get(secs).map_err(|e| out_of_range(ctx, "visibilitytimeout", e))?;
    let account = ctx.account().to_owned();
    let got = ctx
        .emu
        .get_messages(ctx.now, &account, &name, n, visibility)?;
    Ok(Reply::xml(200, write_message_list(&got, ListShape::Get, ctx.bom)).no_cache())
}

/// [Peek Messages](https://learn.microsoft.com/rest/api/storageservices/peek-messages).
pub fn peek(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    if let Some(v) = ctx.query.get("visibilitytimeout") {
        return Err(RestError::invalid_query(
            "visibilitytimeout",
            v,
            "Not a valid parameter in conjunction with peek.",
        ));
    }
    let n = count(ctx)?;
    let account = ctx.account().to_owned();
    let seen = ctx.emu.peek_messages(ctx.now, &account, &name, n)?;
    Ok(Reply::xml(200, write_message_list(&seen, ListShape::Peek, ctx.bom)).no_cache())
}

/// [Clear Messages](https://learn.microsoft.com/rest/api/storageservices/clear-messages).
pub fn clear(ctx: &mut OpContext) -> Result<Reply, RestError> {
    let name = ctx.queue_name()?;
    let account = ctx.account().to_owned();
    ctx.emu.clear_messages(ctx.now, &account, &name)?;
    Ok(Reply::status(204))
}
