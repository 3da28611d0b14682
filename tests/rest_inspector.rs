//! The inspector's development paths through `Service::handle`: paged inspection with counts,
//! and the per-message and per-queue actions, each checked through the REST API a client uses.
//! Bad input is refused with a JSON error and changes nothing.

#[path = "support/rest_harness.rs"]
mod rest_harness;
use rest_harness::*;

const DEV: &[(&str, &str)] = &[("x-azqueue-dev", "1")];

fn inspect(h: &mut Harness, query: &str) -> serde_json::Value {
    let r = h.call(
        "GET",
        &format!("/_azqueue/inspect/devstoreaccount1/work{query}"),
        "",
    );
    assert_eq!(r.status(), 200, "{}", r.text());
    serde_json::from_str(&r.text()).unwrap()
}

fn act(h: &mut Harness, path: &str) -> Reply {
    h.call_with(
        "POST",
        &format!("/_azqueue/inspect/devstoreaccount1/work/{path}"),
        "",
        DEV,
    )
}

/// Get Messages' ids and dequeue counts, through the REST API.
fn receive(h: &mut Harness, queue: &str, n: u32) -> Vec<(String, String)> {
    let r = h.call(
        "GET",
        &format!("/devstoreaccount1/{queue}/messages?numofmessages={n}&visibilitytimeout=30"),
        "",
    );
    assert_eq!(r.status(), 200, "{}", r.text());
    r.xml_fields("MessageId")
        .into_iter()
        .zip(r.xml_fields("DequeueCount"))
        .collect()
}

#[test]
fn a_page_lists_part_of_the_queue_and_the_counts_all_of_it() {
    let mut h = Harness::new();
    h.create("work");
    for i in 0..25 {
        h.put("work", &format!("m{i}"), "");
    }
    h.put("work", "later", "?visibilitytimeout=60");
    receive(&mut h, "work", 3);
    let page = inspect(&mut h, "?from=10&limit=5");
    let texts: Vec<_> = page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["messageText"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(texts.len(), 5);
    assert_eq!(page["from"], 10);
    assert_eq!(page["counts"]["total"], 26);
    assert_eq!(page["counts"]["invisible"], 4, "3 leased and 1 scheduled");
    assert_eq!(page["counts"]["visible"], 22);
    assert_eq!(page["counts"]["expired"], 0);
    let past_the_end = inspect(&mut h, "?from=1000&limit=10");
    assert_eq!(past_the_end["messages"].as_array().unwrap().len(), 0);
    assert_eq!(past_the_end["counts"]["total"], 26);
    assert_eq!(
        inspect(&mut h, "")["messages"].as_array().unwrap().len(),
        26
    );
}

#[test]
fn a_page_is_found_by_state_by_text_and_by_id() {
    let mut h = Harness::new();
    h.create("work");
    let mut ids = Vec::new();
    for i in 0..12 {
        ids.push(h.put("work", &format!("order {i} a+b"), "").0);
    }
    h.put("work", "later", "?visibilitytimeout=60");
    receive(&mut h, "work", 2);
    let texts = |page: &serde_json::Value| -> Vec<String> {
        page["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["messageText"].as_str().unwrap().to_owned())
            .collect()
    };
    let invisible = inspect(&mut h, "?state=invisible");
    assert_eq!(texts(&invisible), ["order 0 a+b", "order 1 a+b"]);
    assert_eq!(invisible["matched"], 2);
    assert_eq!(
        invisible["counts"]["total"], 13,
        "the counts are the whole queue's"
    );
    assert_eq!(invisible["counts"]["scheduled"], 1);
    assert_eq!(texts(&inspect(&mut h, "?state=scheduled")), ["later"]);
    // Percent-encoded, `+` a plus: "order 1" is in order 1, 10 and 11.
    let found = inspect(&mut h, "?text=order%201&from=1&limit=1");
    assert_eq!(found["matched"], 3);
    assert_eq!(texts(&found), ["order 11 a+b"]);
    assert_eq!(inspect(&mut h, "?text=a%2Bb")["matched"], 12);
    assert_eq!(inspect(&mut h, "?text=a+b")["matched"], 12);
    // By id: the message, and its place in delivery order (received ones go behind).
    let by_id = inspect(&mut h, &format!("?id={}", ids[1]));
    assert_eq!(texts(&by_id), ["order 1 a+b"]);
    assert_eq!(by_id["position"], 11);
    let none = inspect(&mut h, "?id=00000000-0000-0000-0000-000000000001");
    assert_eq!(none["position"], serde_json::Value::Null);
    assert_eq!(none["matched"], 0);
    assert!(inspect(&mut h, "").get("position").is_none());
}

#[test]
fn a_message_moved_to_the_poison_queue_says_where_it_came_from() {
    let mut h = Harness::new();
    h.create("work");
    let (id, _) = h.put("work", "failing", "");
    assert_eq!(receive(&mut h, "work", 1), [(id.clone(), "1".to_owned())]);
    let r = act(&mut h, &format!("messages/{id}/poison"));
    assert_eq!(r.status(), 200, "{}", r.text());
    let r = h.call("GET", "/_azqueue/inspect/devstoreaccount1/work-poison", "");
    let page: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
    let moved = &page["messages"][0];
    assert_eq!(moved["dequeueCount"], 0, "a new message");
    assert_eq!(
        moved["origin"],
        serde_json::json!({ "queue": "work", "messageId": id, "dequeueCount": 1 })
    );
    assert!(
        inspect(&mut h, "")["messages"]
            .as_array()
            .unwrap()
            .is_empty(),
        "gone from work"
    );
    h.put("work", "sent", "");
    assert!(inspect(&mut h, "")["messages"][0].get("origin").is_none());
}

#[test]
fn bad_paging_and_bad_actions_are_refused_and_change_nothing() {
    let mut h = Harness::new();
    h.create("work");
    let (id, _) = h.put("work", "keep", "");
    let before = h
        .call("GET", "/_azqueue/inspect/devstoreaccount1/work", "")
        .text();
    for query in [
        "?limit=0",
        "?limit=1001",
        "?from=-1",
        "?from=x",
        "?limit=",
        "?lmit=5",
        "?state=leased",
        "?text=",
        "?id=not-a-guid",
    ] {
        let r = h.call(
            "GET",
            &format!("/_azqueue/inspect/devstoreaccount1/work{query}"),
            "",
        );
        assert_eq!(r.status(), 400, "{query}: {}", r.text());
        assert_eq!(r.header("content-type"), Some("application/json"));
        r.assert_has("\"error\"");
    }
    let poison_of_long = format!("{}/clear", "q".repeat(64));
    for (path, status) in [
        ("messages/not-a-guid/delete".to_owned(), 400),
        (format!("messages/{id}/explode"), 400),
        (
            "messages/00000000-0000-0000-0000-000000000001/delete".to_owned(),
            404,
        ),
        (
            "messages/00000000-0000-0000-0000-000000000001/poison".to_owned(),
            404,
        ),
        ("explode".to_owned(), 404),
    ] {
        let r = act(&mut h, &path);
        assert_eq!(r.status(), status, "{path}: {}", r.text());
        r.assert_has("\"error\"");
    }
    let r = h.call_with(
        "POST",
        &format!("/_azqueue/inspect/devstoreaccount1/{poison_of_long}"),
        "",
        DEV,
    );
    assert_eq!(r.status(), 400, "{}", r.text());
    let r = h.call_with(
        "POST",
        "/_azqueue/inspect/devstoreaccount1/nosuch/clear",
        "",
        DEV,
    );
    assert_eq!(r.status(), 404, "{}", r.text());
    let r = h.call_with(
        "GET",
        &format!("/_azqueue/inspect/devstoreaccount1/work/messages/{id}/delete"),
        "",
        DEV,
    );
    assert_eq!(r.status(), 405);
    // A queue whose poison queue's name would pass 63 characters keeps its message.
    let long = "p".repeat(60);
    h.create(&long);
    let (long_id, _) = h.put(&long, "stays", "");
    let r = h.call_with(
        "POST",
        &format!("/_azqueue/inspect/devstoreaccount1/{long}/messages/{long_id}/poison"),
        "",
        DEV,
    );
    assert_eq!(r.status(), 400, "{}", r.text());
    r.assert_has("not a valid queue name");
    assert_eq!(receive(&mut h, &long, 1).len(), 1);
    let after = h
        .call("GET", "/_azqueue/inspect/devstoreaccount1/work", "")
        .text();
    assert_eq!(before, after);
}

#[test]
fn the_actions_take_effect_for_a_client() {
    let mut h = Harness::new();
    h.create("work");
    let (a, _) = h.put("work", "alpha", "");
    let (b, _) = h.put("work", "beta", "");
    let (c, _) = h.put("work", "gamma", "?visibilitytimeout=3600");
    assert_eq!(receive(&mut h, "work", 2).len(), 2);
    assert!(
        receive(&mut h, "work", 32).is_empty(),
        "all leased or scheduled"
    );

    assert_eq!(act(&mut h, &format!("messages/{a}/visible")).status(), 204);
    assert_eq!(receive(&mut h, "work", 32), [(a.clone(), "2".to_owned())]);

    let r = act(&mut h, &format!("messages/{b}/poison"));
    assert_eq!(r.status(), 200, "{}", r.text());
    let moved: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
    assert_eq!(moved["queue"], "work-poison");
    let poisoned = receive(&mut h, "work-poison", 32);
    assert_eq!(poisoned.len(), 1);
    assert_eq!(poisoned[0].0, moved["messageId"].as_str().unwrap());

    assert_eq!(act(&mut h, &format!("messages/{c}/delete")).status(), 204);
    assert_eq!(inspect(&mut h, "")["counts"]["total"], 1, "alpha is left");
    // A second poison reuses the queue.
    assert_eq!(act(&mut h, &format!("messages/{a}/poison")).status(), 200);
    assert_eq!(inspect(&mut h, "")["counts"]["total"], 0);

    h.put("work", "x", "");
    h.put("work", "y", "");
    assert_eq!(act(&mut h, "clear").status(), 204);
    assert!(receive(&mut h, "work", 32).is_empty());
}
