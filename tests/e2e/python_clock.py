#!/usr/bin/env python3
"""The server clock from Python: the official SDK (azure-storage-queue) against `node
hosts/node/server.mjs`, with time moved through POST /_azqueue/clock (urllib, the standard library)
instead of waited for. Nothing here sleeps. Exits non-zero on the first failure. Run in the
project's .venv:
    .venv/bin/python tests/e2e/python_clock.py
"""

import json
import urllib.error
import urllib.request

from azure.storage.queue import QueueServiceClient

from python_harness import against_server, check, main, origin_of

DAY_MS = 86_400_000


def clock(origin, change=None, headers=None):
    """GET the clock, or POST `change` to it; returns (status, JSON body)."""
    if change is None:
        req = urllib.request.Request(f"{origin}/_azqueue/clock")
    else:
        body = change if isinstance(change, bytes) else json.dumps(change).encode()
        req = urllib.request.Request(
            f"{origin}/_azqueue/clock",
            data=body,
            method="POST",
            headers={"x-azqueue-dev": "1", "content-type": "application/json"}
            if headers is None
            else headers,
        )
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def advance(origin, ms):
    status, reading = clock(origin, {"advanceMs": ms})
    check(status == 200, f"advance answered {status}: {reading}")
    return reading


def run(origin, connection_string):
    service = QueueServiceClient.from_connection_string(connection_string)

    status, c = clock(origin)
    check(status == 200 and c["paused"] is False, f"GET /_azqueue/clock: {status} {c}")
    check(set(c) == {"now", "offsetMs", "paused"}, f"the reading's fields: {c}")

    # Visibility: a message received for 30 s comes back after 31 s, on its second delivery.
    q = service.get_queue_client("pyclock-visibility")
    q.create_queue()
    q.send_message("charge card 42")
    first = list(q.receive_messages(visibility_timeout=30))
    check(len(first) == 1 and first[0].dequeue_count == 1, f"first receive: {first}")
    check(list(q.receive_messages()) == [], "invisible within its 30 s")
    before = c["offsetMs"]
    moved = advance(origin, 31_000)
    check(moved["offsetMs"] - before >= 31_000, f"advanced 31 s: {c} -> {moved}")
    again = list(q.receive_messages(visibility_timeout=30))
    check(len(again) == 1, f"visible again after 31 s: {again}")
    check(again[0].id == first[0].id, "the same message")
    check(again[0].dequeue_count == 2, f"DequeueCount 2: {again[0].dequeue_count}")

    # Time to live: 7 days, then gone. The SDK signs each call with its own (real) time,
    # which stays valid however far the queues' clock has moved.
    q = service.get_queue_client("pyclock-ttl")
    q.create_queue()
    q.send_message("expires in 7 days", time_to_live=7 * 24 * 3600)
    q.send_message("never expires", time_to_live=-1)
    check(q.get_queue_properties().approximate_message_count == 2, "two messages before")
    advance(origin, 7 * DAY_MS)
    left = [m.content for m in q.peek_messages(max_messages=32)]
    check(left == ["never expires"], f"after 7 days: {left}")
    check(q.get_queue_properties().approximate_message_count == 1, "one message after")

    # Paused, the clock stands still between calls and moves only when told.
    status, p = clock(origin, {"paused": True})
    check(status == 200 and p["paused"] is True, f"paused: {status} {p}")
    check(clock(origin)[1]["now"] == p["now"], "a paused clock stands still")
    check(advance(origin, 1_000)["now"] == p["now"] + 1_000, "advanced while paused")

    # Bad bodies: 400, a reason naming the fields, nothing moved.
    for body in [b"", b"{}", b"nope", {"advanceMs": -5}, {"advanceMs": "5"}, {"pause": True}]:
        status, e = clock(origin, body)
        check(status == 400 and "advanceMs" in e.get("error", ""), f"{body!r}: {status} {e}")
    check(clock(origin)[1]["now"] == p["now"] + 1_000, "bad bodies moved nothing")

    # The guard: a POST without the header is refused.
    status, e = clock(origin, {"advanceMs": 1}, headers={"content-type": "application/json"})
    check(status == 403 and "x-azqueue-dev" in e["error"], f"no header: {status} {e}")


if __name__ == "__main__":
    main("clock", lambda: against_server(lambda url, cs: run(origin_of(url), cs)))
