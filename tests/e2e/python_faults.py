#!/usr/bin/env python3
"""Fault rules and limits from Python (docs/faults.md): the official SDK (azure-storage-queue)
with its own ExponentialRetry, short delays configured, against `node www/server.mjs`; the
rules set over /_azqueue/faults and time moved over /_azqueue/clock with urllib (the standard
library). Nothing here sleeps. Exits non-zero on the first failure. Run in the project's .venv:
    .venv/bin/python tests/e2e/python_faults.py
"""

import json
import urllib.request

from azure.core.exceptions import HttpResponseError
from azure.storage.queue import ExponentialRetry, QueueServiceClient

from python_harness import against_server, check, main, origin_of


def dev(origin, method, path, body=None):
    """A development path's answer as JSON (None for a 204)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        f"{origin}{path}", data=data, method=method, headers={"x-azqueue-dev": "1"}
    )
    with urllib.request.urlopen(req) as r:
        text = r.read()
        return json.loads(text) if text else None


def client(connection_string, retries):
    # The SDK's own policy: 0.05 s, then 0.05 + 0.1^n s; no jitter, so the test stays short.
    policy = ExponentialRetry(
        initial_backoff=0.05, increment_base=0.1, retry_total=retries, random_jitter_range=0
    )
    return QueueServiceClient.from_connection_string(connection_string, retry_policy=policy)


def status_of(fn):
    try:
        fn()
        return 201
    except HttpResponseError as e:
        return e.status_code


def run(origin, connection_string):
    retrying = client(connection_string, 3)
    once = client(connection_string, 0)

    # (a) A Put refused twice with 503 is retried into one message; the rule says 2.
    dev(origin, "DELETE", "/_azqueue/faults")
    q = retrying.get_queue_client("pyfaults-busy")
    q.create_queue()
    dev(origin, "POST", "/_azqueue/faults",
        {"rules": [{"operation": "PutMessage", "times": 2, "status": 503}]})
    q.send_message("once")
    texts = [m.content for m in q.peek_messages(max_messages=32)]
    check(texts == ["once"], f"(a) one message: {texts}")
    rule = dev(origin, "GET", "/_azqueue/faults")["rules"][0]
    check(rule["injected"] == 2 and rule["retired"], f"(a) the rule's counts: {rule}")

    # (b) A Put that timed out after it was applied is retried into two copies.
    dev(origin, "DELETE", "/_azqueue/faults")
    q = retrying.get_queue_client("pyfaults-twice")
    q.create_queue()
    dev(origin, "POST", "/_azqueue/faults", {"rules": [
        {"operation": "PutMessage", "when": "after", "status": 500,
         "code": "OperationTimedOut", "times": 1}]})
    q.send_message("charge card 42")
    texts = [m.content for m in q.peek_messages(max_messages=32)]
    check(texts == ["charge card 42"] * 2, f"(b) two copies: {texts}")

    # (c) A Get faulted after it applied: the client gets the error, the message stays hidden
    # with DequeueCount 1 until its visibility timeout, then comes back with 2.
    dev(origin, "DELETE", "/_azqueue/faults")
    q = retrying.get_queue_client("pyfaults-hidden")
    q.create_queue()
    q.send_message("work")
    ids = dev(origin, "POST", "/_azqueue/faults", {"rules": [
        {"operation": "GetMessages", "when": "after", "status": 500, "code": "InternalError"}]})
    try:
        list(q.receive_messages(visibility_timeout=30))
        check(False, "(c) the receive should have failed")
    except HttpResponseError as e:
        check(e.status_code == 500 and e.error_code == "InternalError", f"(c) error: {e}")
    inspected = dev(origin, "GET", "/_azqueue/inspect/devstoreaccount1/pyfaults-hidden")
    states = [(m["state"], m["dequeueCount"]) for m in inspected["messages"]]
    check(states == [("invisible", 1)], f"(c) hidden, dequeued once: {states}")
    dev(origin, "DELETE", f"/_azqueue/faults/{ids['ids'][0]}")
    check(list(q.receive_messages()) == [], "(c) still hidden within its 30 s")
    dev(origin, "POST", "/_azqueue/clock", {"advanceMs": 31_000})
    again = list(q.receive_messages())
    check(len(again) == 1 and again[0].dequeue_count == 2, f"(c) back, DequeueCount 2: {again}")

    # (d) At 10 messages a second with the clock paused: 15 puts, 10 accepted, 5 ServerBusy
    # with Azure's text; a second later, accepted again.
    dev(origin, "DELETE", "/_azqueue/faults")
    q = once.get_queue_client("pyfaults-burst")
    q.create_queue()
    dev(origin, "POST", "/_azqueue/clock", {"paused": True})
    dev(origin, "POST", "/_azqueue/faults", {"limits": {"queueMessagesPerSecond": 10}})
    errors = []
    accepted = 0
    for i in range(15):
        try:
            q.send_message(f"m{i}")
            accepted += 1
        except HttpResponseError as e:
            errors.append(e)
    check(accepted == 10 and len(errors) == 5, f"(d) {accepted} accepted, {len(errors)} refused")
    busy = "The server is currently unable to receive requests. Please retry your request."
    for e in errors:
        check(e.status_code == 503 and e.error_code == "ServerBusy", f"(d) {e}")
        check(e.reason == busy, f"(d) the status line's text: {e.reason!r}")
    dev(origin, "POST", "/_azqueue/clock", {"advanceMs": 1000})
    q.send_message("a second later")
    count = q.get_queue_properties().approximate_message_count
    check(count == 11, f"(d) 11 messages: {count}")
    dev(origin, "POST", "/_azqueue/clock", {"paused": False})

    # (e) The same seed and rules give the same answers twice.
    q = once.get_queue_client("pyfaults-seeded")
    q.create_queue()

    def answers():
        dev(origin, "DELETE", "/_azqueue/faults")
        dev(origin, "POST", "/_azqueue/faults", {"seed": 7, "rules": [
            {"operation": "PutMessage", "probability": 0.5, "status": 503}]})
        return [status_of(lambda: q.send_message("m")) for _ in range(24)]

    first = answers()
    check(answers() == first, "(e) the same sequence twice")
    check(set(first) == {201, 503}, f"(e) both answers occur: {first}")
    dev(origin, "DELETE", "/_azqueue/faults")


if __name__ == "__main__":
    main("faults", lambda: against_server(lambda url, cs: run(origin_of(url), cs)))
