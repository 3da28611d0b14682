//! `QueueService.routeOf(method, url)`: the REST router's reading of a request, for JavaScript
//! that dispatches or labels requests before the service answers them (the edge Worker picks a
//! Durable Object by it, the teaching page names its log lines by it), so the URL grammar is
//! written once, in `rest::route`.

use super::js_object::JsObject;
use super::service::QueueService;
use crate::rest::route::read;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
/** How the REST router reads a path-style request (`/<account>[/<queue>[/messages[/<id>]]]`). */
export interface RouteReading {
  /** The account, without a `-secondary` suffix; absent when the path names none. */
  account?: string;
  /** True when addressed to the account's read-only secondary endpoint. */
  secondary: boolean;
  /** The queue segment, percent-decoded, whether or not it is a valid queue name. */
  queue?: string;
  /** True when `queue` is a valid queue name. */
  queueNameValid: boolean;
  /** The operation as Azure names it ("Put Message", "Preflight", …), when it is one. */
  operation?: string;
  /** Otherwise the error code the service answers with ("InvalidUri", …). */
  error?: string;
}
"#;

#[wasm_bindgen]
impl QueueService {
    /// Reads `method` on `url` (absolute, or a path with its query) as the service's router does.
    /// Pure: it opens nothing, and the service still answers (and refuses) every request itself.
    ///
    /// ```js
    /// QueueService.routeOf("GET", "http://127.0.0.1:10001/devstoreaccount1/orders/messages?peekonly=true")
    /// // { account: "devstoreaccount1", secondary: false, queue: "orders", queueNameValid: true,
    /// //   operation: "Peek Messages" }
    /// ```
    #[wasm_bindgen(js_name = routeOf, unchecked_return_type = "RouteReading")]
    pub fn route_of(method: &str, url: &str) -> JsValue {
        let (path, query) = path_and_query(url);
        let reading = read(method, path, query);
        let (operation, error) = match reading.operation {
            Ok(op) => (Some(op.name()), None),
            Err(code) => (None, Some(code.as_str())),
        };
        JsObject::new()
            .set_opt("account", reading.account)
            .set("secondary", reading.secondary)
            .set_opt("queue", reading.queue)
            .set("queueNameValid", reading.queue_name_valid)
            .set_opt("operation", operation)
            .set_opt("error", error)
            .build()
    }
}

/// The path and the raw query of an absolute URL or of a path (the fragment dropped).
fn path_and_query(url: &str) -> (&str, Option<&str>) {
    let url = url.split('#').next().unwrap_or_default();
    let from_path = match url.split_once("://") {
        Some((_, after)) => after.find(['/', '?']).map_or("", |i| &after[i..]),
        None => url,
    };
    match from_path.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (from_path, None),
    }
}

#[cfg(test)]
mod tests {
    use super::path_and_query;

    #[test]
    fn absolute_urls_and_paths_give_the_same_path_and_query() {
        assert_eq!(
            path_and_query("http://h:1/a/q?comp=acl#x"),
            ("/a/q", Some("comp=acl"))
        );
        assert_eq!(path_and_query("/a/q?comp=acl"), ("/a/q", Some("comp=acl")));
        assert_eq!(
            path_and_query("https://h?comp=list"),
            ("", Some("comp=list"))
        );
        assert_eq!(path_and_query("https://h"), ("", None));
    }
}
