//! The inspector's actions as the development paths answer them (the `inspector` feature):
//! engine operations (`crate::engine::dev_actions`) answered by the service like any REST one,
//! so their changes reach the store (one batch each) and their events the subscribers.

use super::json::{json, refuse, to_json};
use super::path::Action;
use crate::engine::{ActionError, Emulator, QueueError, QueueName, Timestamp};
use http::Response;
use serde::Serialize;

/// Does `action` to `queue` of `account`. Its changes and events are left in the engine for
/// the caller to commit and deliver, as after any REST operation.
pub fn act(
    emu: &mut Emulator,
    now: Timestamp,
    account: &str,
    queue: &QueueName,
    action: &Action,
) -> Response<Vec<u8>> {
    let done = match action {
        Action::Clear => emu
            .clear_messages(now, account, queue)
            .map_err(ActionError::Refused)
            .map(|()| None),
        Action::Delete(id) => emu.inspector_delete(now, account, queue, id).map(|()| None),
        Action::MakeVisible(id) => emu
            .inspector_make_visible(now, account, queue, id)
            .map(|()| None),
        Action::Poison(id) => emu
            .inspector_poison(now, account, queue, id)
            .map(|(q, id)| {
                #[derive(Serialize)]
                #[serde(rename_all = "camelCase")]
                struct Moved {
                    message_id: String,
                    queue: String,
                }
                Some(to_json(&Moved {
                    message_id: id.to_string(),
                    queue: q.as_str().to_owned(),
                }))
            }),
    };
    match done {
        Ok(Some(body)) => json(200, body),
        Ok(None) => json(204, String::new()),
        Err(ActionError::NotFound(why)) => refuse(404, &why),
        Err(ActionError::BadPoisonName(why)) => refuse(400, &why),
        Err(ActionError::Refused(QueueError::QueueNotFound(_))) => refuse(404, "no such queue"),
        // The queue's table failed: the server's fault, as `InternalError` is on the REST face.
        Err(ActionError::Refused(e @ QueueError::Storage(_))) => refuse(500, &e.to_string()),
        Err(ActionError::Refused(e)) => refuse(503, &e.to_string()),
    }
}
