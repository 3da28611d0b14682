//! The `azure-sdk` feature's transport under the official SDK: the credential is really
//! checked, the engine's time is the test's clock, and every body shape the SDK can send
//! reaches the service. (`examples/rust-consumer` tests it the way a user's crate does.)

use azqueue::engine::Timestamp;
use azqueue::sdk::{DEFAULT_START, InProcessQueues};
use azure_core::http::{Body, HttpClient, Method, Request, StatusCode, Url};
use azure_core::stream::BytesStream;
use azure_storage_queue::QueueClient;
use azure_storage_queue::models::{QueueClientGetPropertiesResultHeaders, QueueMessage};
use pollster::block_on;
use std::collections::HashMap;

fn message(text: &str) -> QueueMessage {
    QueueMessage {
        message_text: Some(text.into()),
    }
}

#[test]
fn a_sas_with_a_wrong_signature_is_refused_and_changes_nothing() {
    let queues = InProcessQueues::new();
    let mut forged = queues.service_url().clone();
    let query = forged.query().unwrap().split('&');
    let query: Vec<String> = query
        .map(|pair| match pair.starts_with("sig=") {
            true => format!("sig={}%3D", "A".repeat(43)),
            false => pair.to_owned(),
        })
        .collect();
    forged.set_query(Some(&query.join("&")));
    forged.path_segments_mut().unwrap().push("orders");
    let options = azure_storage_queue::QueueClientOptions {
        client_options: queues.client_options(),
        ..Default::default()
    };
    let forged = QueueClient::new(forged, None, Some(options)).unwrap();

    let refused = block_on(forged.create(None)).unwrap_err();
    assert_eq!(refused.http_status(), Some(StatusCode::Forbidden));
    assert!(
        format!("{refused:?}").contains("AuthenticationFailed"),
        "{refused:?}"
    );
    let genuine = queues.queue_client("orders").unwrap();
    assert!(!block_on(genuine.exists()).unwrap());
}

#[test]
fn the_service_sees_the_test_clock() {
    let queues = InProcessQueues::starting_at(Timestamp::from_secs(1_800_000_000));
    let q = queues.queue_client("clocked").unwrap();
    block_on(q.create(None)).unwrap();

    let sent = |text| {
        let r = block_on(q.send_message(message(text).try_into().unwrap(), None)).unwrap();
        r.into_model().unwrap().into_message().unwrap()
    };
    let first = sent("a");
    queues.clock().advance_secs(90);
    let second = sent("b");
    let at = |t: Option<azure_core::time::OffsetDateTime>| t.unwrap().unix_timestamp();
    assert_eq!(at(first.insertion_time), 1_800_000_000);
    assert_eq!(at(second.insertion_time), 1_800_000_090);
    assert_eq!(at(second.expiration_time), 1_800_000_090 + 7 * 24 * 3600);
    assert_eq!(
        DEFAULT_START,
        Timestamp::from_secs(1_767_225_600),
        "2026-01-01T00:00:00Z"
    );
}

#[test]
fn service_and_queue_clients_share_one_account() {
    let queues = InProcessQueues::new();
    let service = queues.service_client().unwrap();
    let q = service.queue_client("shared").unwrap();
    block_on(q.create(None)).unwrap();
    let metadata = HashMap::from([("team".to_owned(), "billing".to_owned())]);
    block_on(q.set_metadata(&metadata, None)).unwrap();
    block_on(q.send_message(message("x").try_into().unwrap(), None)).unwrap();

    let props = block_on(queues.queue_client("shared").unwrap().get_properties(None)).unwrap();
    assert_eq!(props.metadata().unwrap(), metadata);
    assert_eq!(props.approximate_messages_count().unwrap(), Some(1));
    let service_props = block_on(service.get_properties(None)).unwrap();
    assert!(service_props.into_model().is_ok());
    queues.transport().with_service(|s| {
        let names = s.emulator().queue_names("devstoreaccount1");
        assert_eq!(names.len(), 1);
    });
}

#[test]
fn a_streamed_body_is_read_from_its_start() {
    let queues = InProcessQueues::new();
    block_on(queues.queue_client("streams").unwrap().create(None)).unwrap();
    let mut url: Url = queues.service_url().clone();
    url.path_segments_mut()
        .unwrap()
        .extend(["streams", "messages"]);
    let mut request = Request::new(url, Method::Post);
    request.insert_header("x-ms-version", "2026-04-06");
    let xml = "<QueueMessage><MessageText>streamed</MessageText></QueueMessage>";
    request.set_body(Body::SeekableStream(Box::new(BytesStream::new(xml))));

    let response = block_on(queues.transport().execute_request(&request)).unwrap();
    assert_eq!(response.status(), StatusCode::Created);
    let peeked = block_on(queues.queue_client("streams").unwrap().peek_messages(None)).unwrap();
    let items = peeked.into_model().unwrap().items.unwrap_or_default();
    assert_eq!(items[0].message_text.as_deref(), Some("streamed"));
}

/// A SharedKey request the way an SDK signs it: dated by the wall clock, whatever the
/// queues' clock says.
fn shared_key_list_queues(date: &str) -> http::Request<Vec<u8>> {
    use azqueue::rest::OAuth;
    use azqueue::rest::auth::{AccountKey, AuthInput, Scheme, Variant, shared_key};
    use azqueue::rest::config::{DEV_ACCOUNT, DEV_KEY};
    let mut headers = http::HeaderMap::new();
    headers.insert("x-ms-date", date.parse().unwrap());
    headers.insert("x-ms-version", "2025-11-05".parse().unwrap());
    let path = format!("/{DEV_ACCOUNT}");
    let input = AuthInput {
        method: "GET",
        path: &path,
        query: Some("comp=list"),
        headers: &headers,
        account: DEV_ACCOUNT,
        queue: None,
        https: false,
        client_ip: None,
        wall: Timestamp::from_secs(0),
        oauth: OAuth::Off,
        endpoint: "",
    };
    let to_sign = shared_key::string_to_sign(Scheme::SharedKey, &input, Variant::default());
    let signature = AccountKey::from_base64(DEV_KEY)
        .unwrap()
        .sign(&to_sign)
        .to_base64();
    let mut request = http::Request::get(format!("http://127.0.0.1:10001{path}?comp=list"))
        .body(Vec::new())
        .unwrap();
    *request.headers_mut() = headers;
    request.headers_mut().insert(
        "authorization",
        format!("SharedKey {DEV_ACCOUNT}:{signature}")
            .parse()
            .unwrap(),
    );
    request
}

#[test]
fn a_request_dated_by_the_wall_clock_is_accepted_wherever_the_test_clock_is() {
    let now = azure_core::time::OffsetDateTime::now_utc();
    // DEFAULT_START (2026-01-01) and eight days past the wall clock: both are more than the
    // 15 minutes of skew a request date is allowed from the wall clock.
    let queues = InProcessQueues::new();
    let wall = azure_core::time::to_rfc7231(&now);
    let r = queues.transport().handle(&shared_key_list_queues(&wall));
    assert_eq!(r.status(), 200, "{}", String::from_utf8_lossy(r.body()));
    queues
        .clock()
        .advance_secs(u64::try_from(now.unix_timestamp()).unwrap() - 1_767_225_600 + 8 * 86_400);
    let r = queues.transport().handle(&shared_key_list_queues(&wall));
    assert_eq!(r.status(), 200, "{}", String::from_utf8_lossy(r.body()));
    // A date 20 minutes off the wall clock is still refused.
    let stale = azure_core::time::to_rfc7231(&(now - azure_core::time::Duration::minutes(20)));
    let r = queues.transport().handle(&shared_key_list_queues(&stale));
    assert_eq!(r.status(), 403);
}
