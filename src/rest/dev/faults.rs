//! `/_azqueue/faults`: the fault rules and limits (`crate::rest::faults`) over HTTP, for any
//! client in any language. The rules are the service's test state, kept as long as the
//! process (or page, or Durable Object) that holds the service, never stored.
//!
//! | request                          | answer                                                |
//! |----------------------------------|-------------------------------------------------------|
//! | `GET /_azqueue/faults`           | `{"rules": […], "limits": {…}, "throttled": {…}, "seed": n}` |
//! | `POST /_azqueue/faults`          | `{"rules": […], "seed": n, "limits": {…}}`, all or nothing: `{"ids": […]}` |
//! | `DELETE /_azqueue/faults`        | every rule gone, the started limits back (204)        |
//! | `DELETE /_azqueue/faults/<id>`   | that rule gone (204), or 404                          |
//!
//! A body that is not a valid rule set is refused `400 {"error": why}` and changes nothing.

use super::json::{json, refuse};
use super::path::{DevPath, FaultsRequest, Unrouted};
use crate::rest::faults::Faults;
use http::Response;

/// Routes the path's remaining segments (`[]` or `[id]`) and method.
pub fn read(below: &[&str], method: &str) -> Result<DevPath, Unrouted> {
    let request = match (below, method) {
        ([], "GET") => FaultsRequest::Show,
        ([], "POST") => FaultsRequest::Add,
        ([], "DELETE") => FaultsRequest::Clear,
        ([id], "DELETE") => FaultsRequest::Remove((*id).to_owned()),
        ([] | [_], _) => return Err(Unrouted::Method),
        _ => return Err(Unrouted::NoSuchPath),
    };
    Ok(DevPath::Faults(request))
}

/// The answer, from `faults`, to `request` with its `body`.
pub fn answer(faults: &mut Faults, request: FaultsRequest, body: &[u8]) -> Response<Vec<u8>> {
    match request {
        FaultsRequest::Show => json(200, faults.to_json()),
        FaultsRequest::Add => match faults.post(body) {
            Ok(ids) => json(200, ids),
            Err(why) => refuse(400, &why),
        },
        FaultsRequest::Clear => {
            faults.clear();
            json(204, String::new())
        }
        FaultsRequest::Remove(id) => {
            if faults.remove(&id) {
                json(204, String::new())
            } else {
                refuse(404, &format!("no fault rule has the id `{id}`"))
            }
        }
    }
}
