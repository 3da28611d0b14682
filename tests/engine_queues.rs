//! Layer 2: queues and accounts against the engine — Clear, Delete Queue, Create and List
//! Queues, metadata, access policies, service properties (`azure-queue-rest.md` §3.1–3.10, §3.15, §8.4).
//!
//! Told with explicit times (`t0 + secs`) and seeded entropy: waiting is adding seconds to `now`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[path = "support/engine_harness/mod.rs"]
mod engine_harness;
use engine_harness::*;

use azqueue::engine::{
    AccessPolicy, Change, CorsRule, Created, Emulator, Metadata, QueueError, ServiceProperties,
    ServicePropertiesUpdate, SignedIdentifier,
};

// --- Clear Messages, Delete Queue (§3.6, §3.15) ----------------------------------------

#[test]
fn clear_removes_visible_and_invisible_messages_and_invalidates_receipts() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "visible");
    emu.put_message(t0(), ACCT, &name, text("delayed"), vis(60), ttl(120))
        .unwrap();
    put(&mut emu, t0(), &name, "taken");
    let taken = get(&mut emu, t0(), &name, 2, 30);
    emu.take_changes();
    emu.clear_messages(at(1), ACCT, &name).unwrap();
    assert_eq!(
        emu.take_changes(),
        [Change::QueueCleared {
            account: ACCT.into(),
            queue: name.clone(),
        }]
    );
    assert_eq!(count(&mut emu, at(1), &name), 0);
    assert!(peek(&mut emu, at(3600), &name, 32).is_empty());
    for m in taken {
        assert_eq!(
            emu.delete_message(at(2), ACCT, &name, &m.id, &m.pop_receipt),
            Err(QueueError::MessageNotFound(m.id))
        );
    }
    // The queue itself stays, and keeps working.
    put(&mut emu, at(2), &name, "after");
    assert_eq!(count(&mut emu, at(2), &name), 1);
}

#[test]
fn delete_queue_takes_its_messages_with_it() {
    let (mut emu, name) = setup();
    let m = put(&mut emu, t0(), &name, "doomed");
    emu.delete_queue(at(1), ACCT, &name).unwrap();
    let gone = QueueError::QueueNotFound(name.clone());
    assert_eq!(emu.queue_properties(at(1), ACCT, &name), Err(gone.clone()));
    assert_eq!(
        emu.delete_message(at(1), ACCT, &name, &m.id, &m.pop_receipt),
        Err(gone.clone())
    );
    assert_eq!(emu.delete_queue(at(1), ACCT, &name), Err(gone.clone()));
    assert!(matches!(gone, QueueError::QueueNotFound(_)));
    // The name is reusable at once, and the new queue starts empty.
    assert_eq!(
        emu.create_queue(at(2), ACCT, &name, Metadata::default()),
        Ok(Created::New)
    );
    assert_eq!(count(&mut emu, at(2), &name), 0);
}

#[test]
fn every_message_operation_on_a_missing_queue_is_queue_not_found() {
    let (mut emu, _) = setup();
    let missing = q("missing");
    let m = put(&mut emu, t0(), &q("orders"), "x");
    let nf = Err(QueueError::QueueNotFound(missing.clone()));
    assert_eq!(
        emu.put_message(t0(), ACCT, &missing, text("x"), vis(0), ttl(10))
            .map(|_| ()),
        nf
    );
    assert_eq!(
        emu.get_messages(t0(), ACCT, &missing, n(1), get_vis(30))
            .map(|_| ()),
        nf
    );
    assert_eq!(
        emu.peek_messages(t0(), ACCT, &missing, n(1)).map(|_| ()),
        nf
    );
    assert_eq!(
        emu.delete_message(t0(), ACCT, &missing, &m.id, &m.pop_receipt),
        nf
    );
    assert_eq!(
        emu.update_message(t0(), ACCT, &missing, &m.id, &m.pop_receipt, None, vis(0))
            .map(|_| ()),
        nf
    );
    assert_eq!(emu.clear_messages(t0(), ACCT, &missing), nf);
    assert_eq!(
        emu.set_queue_metadata(ACCT, &missing, Metadata::default()),
        nf
    );
    assert_eq!(emu.queue_acl(ACCT, &missing).map(|_| ()), nf);
    // Another account's queue of the same name is another queue.
    assert_eq!(
        emu.put_message(t0(), "other", &q("orders"), text("x"), vis(0), ttl(10))
            .map(|_| ()),
        Err(QueueError::QueueNotFound(q("orders")))
    );
}

// --- Create Queue, List Queues, metadata, ACL (§3.1, §3.5–3.10, §8.4) ------------------

#[test]
fn create_queue_is_new_then_already_existed_with_identical_metadata() {
    let mut emu = emulator(1);
    let name = q("jobs");
    assert_eq!(
        emu.create_queue(t0(), ACCT, &name, meta(&[("Team", "web")])),
        Ok(Created::New)
    );
    assert_eq!(emu.take_changes().len(), 1);
    // Names compare case-insensitively; the stored case is kept.
    assert_eq!(
        emu.create_queue(t0(), ACCT, &name, meta(&[("team", "web")])),
        Ok(Created::AlreadyExisted)
    );
    assert!(
        emu.take_changes().is_empty(),
        "an idempotent create writes nothing"
    );
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata.iter().collect::<Vec<_>>(), [("Team", "web")]);
}

#[test]
fn create_queue_with_no_metadata_twice_is_already_existed() {
    let mut emu = emulator(1);
    let name = q("jobs");
    emu.create_queue(t0(), ACCT, &name, Metadata::default())
        .unwrap();
    assert_eq!(
        emu.create_queue(t0(), ACCT, &name, Metadata::default()),
        Ok(Created::AlreadyExisted)
    );
}

#[test]
fn create_queue_with_different_metadata_is_queue_already_exists() {
    let mut emu = emulator(1);
    let name = q("jobs");
    emu.create_queue(t0(), ACCT, &name, meta(&[("team", "web")]))
        .unwrap();
    emu.take_changes();
    for different in [
        meta(&[("team", "WEB")]),
        meta(&[]),
        meta(&[("team", "web"), ("tier", "1")]),
        meta(&[("owner", "web")]),
    ] {
        let err = emu.create_queue(t0(), ACCT, &name, different).unwrap_err();
        assert_eq!(err, QueueError::QueueAlreadyExists(name.clone()));
    }
    assert!(emu.take_changes().is_empty());
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata, meta(&[("team", "web")]));
}

/// Queues `a-1 a-2 a-3 b-1 b-2 c-1` in `ACCT`, and one queue in another account.
fn listing_fixture() -> Emulator {
    let mut emu = emulator(1);
    for name in ["b-2", "a-3", "c-1", "a-1", "b-1", "a-2"] {
        let md = meta(&[("origin", name)]);
        emu.create_queue(t0(), ACCT, &q(name), md).unwrap();
    }
    emu.create_queue(t0(), "other", &q("a-9"), Metadata::default())
        .unwrap();
    emu
}

fn names(page: &azqueue::engine::QueuePage) -> Vec<&str> {
    page.queues.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn list_queues_in_name_order_with_metadata() {
    let emu = listing_fixture();
    let page = emu.list_queues(ACCT, "", None, 5000);
    assert_eq!(names(&page), ["a-1", "a-2", "a-3", "b-1", "b-2", "c-1"]);
    assert_eq!(page.next, None);
    assert_eq!(page.queues[3].1, meta(&[("origin", "b-1")]));
    assert!(emu.list_queues("nobody", "", None, 10).queues.is_empty());
}

#[test]
fn list_queues_filters_by_prefix() {
    let emu = listing_fixture();
    let page = emu.list_queues(ACCT, "b-", None, 5000);
    assert_eq!(names(&page), ["b-1", "b-2"]);
    assert_eq!(page.next, None);
    assert!(emu.list_queues(ACCT, "z", None, 5000).queues.is_empty());
}

#[test]
fn list_queues_pages_with_max_and_an_inclusive_next_marker() {
    let emu = listing_fixture();
    let first = emu.list_queues(ACCT, "", None, 2);
    assert_eq!(names(&first), ["a-1", "a-2"]);
    assert_eq!(first.next, Some(q("a-3")));
    let marker = first.next.unwrap();
    let second = emu.list_queues(ACCT, "", Some(marker.as_str()), 2);
    assert_eq!(names(&second), ["a-3", "b-1"]);
    let marker = second.next.unwrap();
    let third = emu.list_queues(ACCT, "", Some(marker.as_str()), 2);
    assert_eq!(names(&third), ["b-2", "c-1"]);
    assert_eq!(
        third.next, None,
        "an exactly full last page has no next marker"
    );
}

#[test]
fn list_queues_combines_prefix_marker_and_max() {
    let emu = listing_fixture();
    let page = emu.list_queues(ACCT, "a-", Some("a-2"), 1);
    assert_eq!(names(&page), ["a-2"]);
    assert_eq!(page.next, Some(q("a-3")));
    let page = emu.list_queues(ACCT, "a-", Some("a-3"), 1);
    assert_eq!(names(&page), ["a-3"]);
    assert_eq!(page.next, None, "b-1 is past the prefix");
    // A marker before the prefix starts at the prefix; one past it yields nothing.
    assert_eq!(
        names(&emu.list_queues(ACCT, "b-", Some("a"), 10)),
        ["b-1", "b-2"]
    );
    assert!(emu.list_queues(ACCT, "a-", Some("b"), 10).queues.is_empty());
    // A marker need not name an existing queue.
    assert_eq!(
        names(&emu.list_queues(ACCT, "", Some("b-15"), 10)),
        ["b-2", "c-1"]
    );
}

#[test]
fn set_queue_metadata_replaces_the_whole_set() {
    let (mut emu, name) = setup();
    emu.set_queue_metadata(ACCT, &name, meta(&[("a", "1"), ("b", "2")]))
        .unwrap();
    emu.set_queue_metadata(ACCT, &name, meta(&[("C", "3")]))
        .unwrap();
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata.iter().collect::<Vec<_>>(), [("C", "3")]);
    emu.set_queue_metadata(ACCT, &name, Metadata::default())
        .unwrap();
    assert!(
        emu.queue_properties(t0(), ACCT, &name)
            .unwrap()
            .metadata
            .is_empty()
    );
    // Every set is a QueuePut carrying the full record.
    let changes = emu.take_changes();
    assert_eq!(changes.len(), 3);
    assert!(matches!(&changes[2], Change::QueuePut { queue, .. } if queue.metadata.is_empty()));
}

#[test]
fn queue_properties_count_includes_invisible_messages() {
    let (mut emu, name) = setup();
    put(&mut emu, t0(), &name, "a");
    put(&mut emu, t0(), &name, "b");
    emu.put_message(t0(), ACCT, &name, text("c"), vis(30), ttl(60))
        .unwrap();
    get(&mut emu, t0(), &name, 1, 30);
    assert_eq!(count(&mut emu, t0(), &name), 3);
}

#[test]
fn set_queue_acl_then_get_returns_it_and_an_empty_set_clears() {
    let (mut emu, name) = setup();
    assert!(emu.queue_acl(ACCT, &name).unwrap().is_empty());
    let acl = vec![
        policy("reader", "r"),
        policy("all", "raup"),
        SignedIdentifier {
            id: "bare".into(),
            policy: AccessPolicy::default(),
        },
    ];
    emu.set_queue_acl(ACCT, &name, acl.clone()).unwrap();
    assert_eq!(emu.queue_acl(ACCT, &name).unwrap(), acl);
    emu.set_queue_acl(ACCT, &name, vec![policy("only", "p")])
        .unwrap();
    assert_eq!(emu.queue_acl(ACCT, &name).unwrap(), [policy("only", "p")]);
    emu.set_queue_acl(ACCT, &name, Vec::new()).unwrap();
    assert!(emu.queue_acl(ACCT, &name).unwrap().is_empty());
    // The ACL does not disturb metadata.
    emu.set_queue_metadata(ACCT, &name, meta(&[("k", "v")]))
        .unwrap();
    emu.set_queue_acl(ACCT, &name, vec![policy("x", "r")])
        .unwrap();
    let props = emu.queue_properties(t0(), ACCT, &name).unwrap();
    assert_eq!(props.metadata, meta(&[("k", "v")]));
}

// --- Service properties (§3.2, §3.3) ----------------------------------------------------

#[test]
fn service_properties_default_for_an_unknown_account() {
    let emu = emulator(1);
    assert_eq!(
        emu.service_properties("nobody"),
        ServiceProperties::default()
    );
}

#[test]
fn set_service_properties_updates_only_the_parts_given() {
    let mut emu = emulator(1);
    let rule = CorsRule {
        allowed_origins: "https://example.com".into(),
        allowed_methods: "GET,PUT".into(),
        allowed_headers: "*".into(),
        exposed_headers: "*".into(),
        max_age_in_seconds: 8888,
    };
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            cors: Some(vec![rule.clone()]),
            ..Default::default()
        },
    );
    let mut logging = ServiceProperties::default().logging;
    logging.read = true;
    logging.write = true;
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            logging: Some(logging.clone()),
            ..Default::default()
        },
    );
    let got = emu.service_properties(ACCT);
    assert_eq!(got.cors, [rule], "omitted Cors kept its stored rules");
    assert_eq!(got.logging, logging);
    assert_eq!(got.hour_metrics, ServiceProperties::default().hour_metrics);
    // `<Cors />` (an empty list) deletes all rules.
    emu.set_service_properties(
        ACCT,
        ServicePropertiesUpdate {
            cors: Some(Vec::new()),
            ..Default::default()
        },
    );
    assert!(emu.service_properties(ACCT).cors.is_empty());
    assert_eq!(emu.service_properties(ACCT).logging, logging);
    // Accounts are independent.
    assert_eq!(
        emu.service_properties("other"),
        ServiceProperties::default()
    );
    let changes = emu.take_changes();
    assert_eq!(changes.len(), 3);
    assert_eq!(
        changes[2],
        Change::ServicePropertiesSet {
            account: ACCT.into(),
            properties: emu.service_properties(ACCT),
        }
    );
}
