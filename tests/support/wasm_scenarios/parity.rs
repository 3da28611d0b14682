//! The same bad input through both faces — the JS `QueueService`/`Queue` API and the REST API
//! (through the service's own fetch handler) — must be refused with the same code, status and
//! details, and what one face accepts the other must accept too. One table, one row per rule.
//!
//! Details are compared without `LineNumber`/`LinePosition`: a position exists only in an XML
//! document, which the JS face never has.

use super::{get, obj, open_service};
use azqueue::wasm::QueueService;
use js_sys::{Function, JSON, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

const BASE: &str = "http://127.0.0.1:10001/devstoreaccount1";
/// The queue the message and ACL rows use.
const QUEUE: &str = "parity";

/// One input, as each face takes it.
enum Js {
    /// `service.setProperties(JSON)`.
    SetProperties(String),
    /// `queue.setAccessPolicy(JSON)`.
    SetAccessPolicy(String),
    /// `service.queue(name)` (synchronous).
    QueueName(&'static str),
    /// `service.createQueue(name, { metadata: JSON })`.
    CreateQueue(&'static str, &'static str),
    /// `queue.sendMessage(text, JSON options)`.
    Send(String, &'static str),
    /// `queue.receiveMessages(JSON options)`.
    Receive(&'static str),
    /// `queue.deleteMessage(id, receipt)`.
    Delete(&'static str, &'static str),
}

struct Rest {
    method: &'static str,
    path: String,
    headers: Vec<(&'static str, &'static str)>,
    body: String,
}

struct Row {
    rule: &'static str,
    js: Js,
    rest: Rest,
    /// `None`: both faces accept the input.
    refused: Option<(&'static str, u16)>,
}

fn rest(method: &'static str, path: impl Into<String>, body: impl Into<String>) -> Rest {
    Rest {
        method,
        path: path.into(),
        headers: Vec::new(),
        body: body.into(),
    }
}

/// A CORS rule set as the SDK's JSON and as the service's XML.
fn cors(rules: &[[&str; 5]]) -> (String, Rest) {
    let json: Vec<String> = rules
        .iter()
        .map(|[o, m, a, e, age]| {
            format!(
                r#"{{"allowedOrigins":"{o}","allowedMethods":"{m}","allowedHeaders":"{a}","exposedHeaders":"{e}","maxAgeInSeconds":{age}}}"#
            )
        })
        .collect();
    let xml: String = rules
        .iter()
        .map(|[o, m, a, e, age]| {
            format!(
                "<CorsRule><AllowedOrigins>{o}</AllowedOrigins><AllowedMethods>{m}</AllowedMethods>\
                 <AllowedHeaders>{a}</AllowedHeaders><ExposedHeaders>{e}</ExposedHeaders>\
                 <MaxAgeInSeconds>{age}</MaxAgeInSeconds></CorsRule>"
            )
        })
        .collect();
    (
        format!(r#"{{"cors":[{}]}}"#, json.join(",")),
        properties(&format!("<Cors>{xml}</Cors>")),
    )
}

fn properties(inner: &str) -> Rest {
    rest(
        "PUT",
        "/?restype=service&comp=properties",
        format!("<StorageServiceProperties>{inner}</StorageServiceProperties>"),
    )
}

/// Minute metrics, disabled or enabled, with a retention policy.
fn metrics(enabled: bool, include_apis: Option<bool>, retention: (bool, Option<i64>)) -> Row {
    let apis_json = include_apis.map_or(String::new(), |a| format!(r#","includeAPIs":{a}"#));
    let apis_xml =
        include_apis.map_or(String::new(), |a| format!("<IncludeAPIs>{a}</IncludeAPIs>"));
    let days_json = retention
        .1
        .map_or(String::new(), |d| format!(r#","days":{d}"#));
    let days_xml = retention
        .1
        .map_or(String::new(), |d| format!("<Days>{d}</Days>"));
    let (on, _) = retention;
    Row {
        rule: "",
        js: Js::SetProperties(format!(
            r#"{{"minuteMetrics":{{"version":"1.0","enabled":{enabled}{apis_json},"retentionPolicy":{{"enabled":{on}{days_json}}}}}}}"#
        )),
        rest: properties(&format!(
            "<MinuteMetrics><Version>1.0</Version><Enabled>{enabled}</Enabled>{apis_xml}\
             <RetentionPolicy><Enabled>{on}</Enabled>{days_xml}</RetentionPolicy></MinuteMetrics>"
        )),
        refused: None,
    }
}

/// Signed identifiers as the SDK's JSON and the service's XML: `(id, permissions)`.
fn acl(items: &[(&str, &str)]) -> (String, Rest) {
    let json: Vec<String> = items
        .iter()
        .map(|(id, p)| format!(r#"{{"id":"{id}","accessPolicy":{{"permissions":"{p}"}}}}"#))
        .collect();
    let xml: String = items
        .iter()
        .map(|(id, p)| {
            format!(
                "<SignedIdentifier><Id>{id}</Id><AccessPolicy><Permission>{p}</Permission>\
                 </AccessPolicy></SignedIdentifier>"
            )
        })
        .collect();
    (
        format!("[{}]", json.join(",")),
        rest(
            "PUT",
            format!("/{QUEUE}?comp=acl"),
            format!("<SignedIdentifiers>{xml}</SignedIdentifiers>"),
        ),
    )
}

fn table() -> Vec<Row> {
    let any = "*";
    let many_headers = (0..65)
        .map(|i| format!("h{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let many_headers = many_headers.as_str();
    let long_header = "h".repeat(257);
    let long_header = long_header.as_str();
    let wide = "o".repeat(250);
    let wide = wide.as_str();
    let mut rows = Vec::new();
    let mut add = |rule, (js, rest): (String, Rest), refused| {
        rows.push(Row {
            rule,
            js: Js::SetProperties(js),
            rest,
            refused,
        })
    };
    add(
        "a lowercase CORS method is accepted",
        cors(&[[any, "get,put", "", "", "60"]]),
        None,
    );
    add(
        "a method outside the allowed set",
        cors(&[[any, "GET,FETCH", "", "", "60"]]),
        Some(("InvalidXmlNodeValue", 400)),
    );
    add(
        "more than 64 literal allowed headers",
        cors(&[[any, "GET", many_headers, "", "60"]]),
        Some(("InvalidXmlNodeValue", 400)),
    );
    add(
        "an allowed header over 256 characters",
        cors(&[[any, "GET", long_header, "", "60"]]),
        Some(("InvalidXmlNodeValue", 400)),
    );
    add(
        "more than two prefixed exposed headers",
        cors(&[[any, "GET", "", "a*,b*,c*", "60"]]),
        Some(("InvalidXmlNodeValue", 400)),
    );
    add(
        "a negative max age",
        cors(&[[any, "GET", "", "", "-1"]]),
        Some(("OutOfRangeInput", 400)),
    );
    add(
        "more than five rules",
        cors(&[[any, "GET", "", "", "1"]; 6]),
        Some(("InvalidXmlDocument", 400)),
    );
    add(
        "over 2 KiB of CORS text",
        cors(&[[wide, "GET", wide, wide, "1"]; 3]),
        Some(("InvalidXmlDocument", 400)),
    );
    for (rule, row, refused) in [
        (
            "Days while retention is disabled",
            metrics(false, None, (false, Some(5))),
            Some(("InvalidXmlDocument", 400)),
        ),
        (
            "enabled retention without Days",
            metrics(false, None, (true, None)),
            Some(("InvalidXmlDocument", 400)),
        ),
        (
            "retention Days over 365",
            metrics(false, None, (true, Some(400))),
            Some(("OutOfRangeInput", 400)),
        ),
        (
            "enabled metrics without IncludeAPIs",
            metrics(true, None, (false, None)),
            Some(("InvalidXmlDocument", 400)),
        ),
        (
            "enabled metrics with IncludeAPIs and 7 days",
            metrics(true, Some(true), (true, Some(7))),
            None,
        ),
    ] {
        rows.push(Row {
            rule,
            refused,
            ..row
        });
    }
    let mut add_acl = |rule, (js, rest): (String, Rest), refused| {
        rows.push(Row {
            rule,
            js: Js::SetAccessPolicy(js),
            rest,
            refused,
        })
    };
    let long_id = "i".repeat(65);
    add_acl(
        "more than five signed identifiers",
        acl(&[
            ("a", "r"),
            ("b", "r"),
            ("c", "r"),
            ("d", "r"),
            ("e", "r"),
            ("f", "r"),
        ]),
        Some(("InvalidXmlDocument", 400)),
    );
    add_acl(
        "a permission outside raup",
        acl(&[("a", "rwx")]),
        Some(("InvalidXmlDocument", 400)),
    );
    add_acl(
        "a repeated id",
        acl(&[("a", "r"), ("a", "p")]),
        Some(("InvalidXmlDocument", 400)),
    );
    add_acl(
        "an id over 64 characters",
        acl(&[(&long_id, "r")]),
        Some(("InvalidXmlDocument", 400)),
    );
    add_acl(
        "a repeated permission letter is read as a set",
        acl(&[("a", "rrp")]),
        None,
    );
    rows.extend([
        Row {
            rule: "a queue name too short",
            js: Js::QueueName("ab"),
            rest: rest("PUT", "/ab", ""),
            refused: Some(("OutOfRangeInput", 400)),
        },
        Row {
            rule: "a queue name with an underscore",
            js: Js::QueueName("bad_name"),
            rest: rest("PUT", "/bad_name", ""),
            refused: Some(("InvalidResourceName", 400)),
        },
        Row {
            rule: "a metadata name that is not an identifier",
            js: Js::CreateQueue("meta-bad", r#"{"1a":"v"}"#),
            rest: Rest {
                headers: vec![("x-ms-meta-1a", "v")],
                ..rest("PUT", "/meta-bad", "")
            },
            refused: Some(("InvalidMetadata", 400)),
        },
        Row {
            rule: "a text with a character XML cannot carry",
            js: Js::Send("a\u{1}b".into(), "{}"),
            rest: rest(
                "POST",
                format!("/{QUEUE}/messages"),
                "<QueueMessage><MessageText>a\u{1}b</MessageText></QueueMessage>",
            ),
            refused: Some(("InvalidXmlDocument", 400)),
        },
        Row {
            rule: "a text over 64 KiB",
            js: Js::Send("x".repeat(64 * 1024 + 1), "{}"),
            rest: rest(
                "POST",
                format!("/{QUEUE}/messages"),
                format!(
                    "<QueueMessage><MessageText>{}</MessageText></QueueMessage>",
                    "x".repeat(64 * 1024 + 1)
                ),
            ),
            refused: Some(("RequestBodyTooLarge", 413)),
        },
        Row {
            rule: "a TTL that does not outlast the visibility timeout",
            js: Js::Send(
                "x".into(),
                r#"{"visibilityTimeout":60,"messageTimeToLive":60}"#,
            ),
            rest: rest(
                "POST",
                format!("/{QUEUE}/messages?visibilitytimeout=60&messagettl=60"),
                "<QueueMessage><MessageText>x</MessageText></QueueMessage>",
            ),
            refused: Some(("InvalidQueryParameterValue", 400)),
        },
        Row {
            rule: "more than 32 messages at once",
            js: Js::Receive(r#"{"numberOfMessages":33}"#),
            rest: rest("GET", format!("/{QUEUE}/messages?numofmessages=33"), ""),
            refused: Some(("OutOfRangeQueryParameterValue", 400)),
        },
        Row {
            rule: "a pop receipt that is not base64",
            js: Js::Delete("0b3a8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "@@@"),
            rest: rest(
                "DELETE",
                format!("/{QUEUE}/messages/0b3a8a2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b?popreceipt=@@@"),
                "",
            ),
            refused: Some(("InvalidQueryParameterValue", 400)),
        },
    ]);
    rows
}

/// What one face answered: `None` for success, else code, status and details (positions
/// left out).
type Outcome = Option<(String, u16, Vec<(String, String)>)>;

fn without_positions(details: Vec<(String, String)>) -> Vec<(String, String)> {
    details
        .into_iter()
        .filter(|(name, _)| name != "LineNumber" && name != "LinePosition")
        .collect()
}

fn parse(json: &str) -> JsValue {
    JSON::parse(json).unwrap_or_else(|_| panic!("bad JSON in the table: {json}"))
}

async fn through_js(service: &QueueService, js: &Js) -> Outcome {
    let queue = || service.queue(QUEUE).unwrap();
    let result: Result<JsValue, JsValue> = match js {
        Js::SetProperties(json) => service
            .set_properties(parse(json).unchecked_into())
            .await
            .map(|()| JsValue::UNDEFINED),
        Js::SetAccessPolicy(json) => queue()
            .set_access_policy(Some(parse(json).unchecked_into()))
            .await
            .map(|()| JsValue::UNDEFINED),
        Js::QueueName(name) => service.queue(name).map(|_| JsValue::UNDEFINED),
        Js::CreateQueue(name, meta) => service
            .create_queue(
                (*name).into(),
                Some(obj(&[("metadata", parse(meta))]).unchecked_into()),
            )
            .await
            .map(|_| JsValue::UNDEFINED),
        Js::Send(text, options) => {
            queue()
                .send_message(&text.as_str().into(), Some(parse(options).unchecked_into()))
                .await
        }
        Js::Receive(options) => {
            queue()
                .receive_messages(Some(parse(options).unchecked_into()))
                .await
        }
        Js::Delete(id, receipt) => {
            queue()
                .delete_message((*id).into(), (*receipt).into())
                .await
        }
    };
    let err = result.err()?;
    let details = get(&err, "details");
    let details = if details.is_undefined() {
        Vec::new()
    } else {
        Object::entries(details.unchecked_ref())
            .iter()
            .map(|pair| {
                let pair: js_sys::Array = pair.unchecked_into();
                (
                    pair.get(0).as_string().unwrap(),
                    pair.get(1).as_string().unwrap(),
                )
            })
            .collect()
    };
    Some((
        get(&err, "code").as_string().expect("a code"),
        get(&err, "statusCode").as_f64().expect("a status") as u16,
        without_positions(details),
    ))
}

async fn through_rest(handler: &Function, rest: &Rest) -> Outcome {
    let init = web_sys::RequestInit::new();
    init.set_method(rest.method);
    let headers = web_sys::Headers::new().unwrap();
    headers.set("x-ms-version", "2026-04-06").unwrap();
    for (name, value) in &rest.headers {
        headers.set(name, value).unwrap();
    }
    init.set_headers(&headers);
    if !rest.body.is_empty() {
        init.set_body(&rest.body.as_str().into());
    }
    let url = format!("{BASE}{}", rest.path);
    let request = web_sys::Request::new_with_str_and_init(&url, &init).unwrap();
    let promise: js_sys::Promise = handler
        .call1(&JsValue::NULL, &request)
        .unwrap()
        .unchecked_into();
    let response: web_sys::Response = JsFuture::from(promise).await.unwrap().unchecked_into();
    if response.status() < 300 {
        return None;
    }
    let body = JsFuture::from(response.text().unwrap())
        .await
        .unwrap()
        .as_string()
        .unwrap();
    Some((
        response
            .headers()
            .get("x-ms-error-code")
            .unwrap()
            .expect("an error code header"),
        response.status(),
        without_positions(error_details(&body)),
    ))
}

/// The elements after `<Message>` in an `<Error>` body, in order (values unescaped).
fn error_details(body: &str) -> Vec<(String, String)> {
    let Some(rest) = body.split("</Message>").nth(1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut rest = rest;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let Some(end) = after.find('>') else { break };
        let name = &after[..end];
        if name.starts_with('/') {
            break;
        }
        let content = &after[end + 1..];
        let close = format!("</{name}>");
        let Some(stop) = content.find(&close) else {
            break;
        };
        let value = content[..stop]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        out.push((name.to_owned(), value));
        rest = &content[stop + close.len()..];
    }
    out
}

/// Every row of the table through both faces: the same outcome, and the expected one.
pub async fn the_same_bad_input_gets_the_same_answer_from_both_faces() {
    let service = open_service().await;
    service
        .create_queue(QUEUE.into(), None)
        .await
        .expect("create");
    let handler: Function = service.fetch_handler().unchecked_into();
    let mut failures = Vec::new();
    for row in table() {
        let js = through_js(&service, &row.js).await;
        let rest = through_rest(&handler, &row.rest).await;
        let expected = row.refused.map(|(code, status)| (code.to_owned(), status));
        let got = js.as_ref().map(|(code, status, _)| (code.clone(), *status));
        if js != rest || got != expected {
            failures.push(format!(
                "{}:\n  JS   {js:?}\n  REST {rest:?}\n  expected {expected:?}",
                row.rule
            ));
        }
    }
    // A refusal changed nothing: the queue holds no message and its ACL is the last accepted.
    let props = service
        .queue(QUEUE)
        .unwrap()
        .get_properties()
        .await
        .unwrap();
    assert_eq!(
        Reflect::get(&props, &"approximateMessagesCount".into())
            .unwrap()
            .as_f64(),
        Some(0.0)
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
