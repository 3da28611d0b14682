#!/usr/bin/env python3
"""Smoke test with the official Python SDK (azure-storage-queue, its default API version).

Starts `node www/server.mjs` on free ports, drives the main operations and error paths, stops
the server, and exits non-zero on the first failure. Run in the project's .venv:
    .venv/bin/python tests/e2e/python_smoke.py
"""

import datetime
import pathlib
import queue
import re
import shutil
import subprocess
import sys
import threading

from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError
from azure.storage.queue import (
    QueueClient,
    QueueSasPermissions,
    QueueServiceClient,
    generate_queue_sas,
)
from azure.storage.queue import __version__ as sdk_version

ROOT = pathlib.Path(__file__).resolve().parents[2]
READY = re.compile(r'azqueue ready: queue (\S+) web (\S+) connection "([^"]+)"')


def start_server():
    node = shutil.which("node") or "node"
    proc = subprocess.Popen(
        [node, str(ROOT / "www" / "server.mjs"), "--queuePort", "0", "--webPort", "0", "--silent"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout], daemon=True).start()
    seen = []
    while True:
        try:
            line = lines.get(timeout=15)
        except queue.Empty:
            proc.kill()
            raise SystemExit("server not ready within 15 s:\n" + "".join(seen))
        seen.append(line)
        m = READY.search(line)
        if m:
            return proc, m.group(1), m.group(3)


checks = 0


def check(cond, what):
    global checks
    if not cond:
        raise AssertionError(what)
    checks += 1


def expect_error(fn, status, code, what, reason=None):
    try:
        fn()
    except HttpResponseError as e:
        check(e.status_code == status, f"{what}: status {e.status_code}, expected {status}")
        check(e.error_code == code, f"{what}: code {e.error_code}, expected {code}")
        if reason is not None:
            # The status line carries the error's message, as Azure's does.
            check(e.reason == reason, f"{what}: reason {e.reason!r}, expected {reason!r}")
        return
    raise AssertionError(f"{what}: no error")


def run(queue_url, connection_string):
    service = QueueServiceClient.from_connection_string(connection_string)
    name = "python-smoke"

    q = service.create_queue(name, metadata={"lang": "python", "Team": "Core"})
    check(q.queue_name == name, "create_queue")
    # Create Queue again with the same metadata answers 204, which this SDK reports as
    # ResourceExistsError built from the 204's headers (they must be present).
    try:
        service.create_queue(name, metadata={"lang": "python", "Team": "Core"})
        raise AssertionError("second create_queue did not raise")
    except ResourceExistsError:
        check(True, "create_queue twice → ResourceExistsError")

    sent = q.send_message("hello from python <&>", time_to_live=3600)
    check(sent.id and sent.pop_receipt, "send_message returns id and receipt")
    check(isinstance(sent.inserted_on, datetime.datetime), "inserted_on is a datetime")
    check((sent.expires_on - sent.inserted_on).total_seconds() == 3600, "TTL honoured")
    q.send_message("second", visibility_timeout=60)

    props = q.get_queue_properties()
    check(props.approximate_message_count == 2, "approximate count includes invisible messages")
    # Metadata names come back in the case they were sent, as from Azure.
    check(props.metadata == {"lang": "python", "Team": "Core"}, f"metadata {props.metadata}")

    peeked = q.peek_messages(max_messages=32)
    check([m.content for m in peeked] == ["hello from python <&>"], "peek sees only visible messages")

    received = list(q.receive_messages(messages_per_page=32, visibility_timeout=30))
    check(len(received) == 1 and received[0].dequeue_count == 1, "receive_messages")
    msg = received[0]

    updated = q.update_message(msg, pop_receipt=msg.pop_receipt, content="updated", visibility_timeout=0)
    check(updated.pop_receipt != msg.pop_receipt, "update issues a new receipt")
    expect_error(lambda: q.delete_message(msg.id, msg.pop_receipt), 404, "MessageNotFound", "stale receipt")
    again = list(q.receive_messages(visibility_timeout=30))
    check(again[0].content == "updated" and again[0].dequeue_count == 2, "updated text, count 2")
    q.delete_message(again[0].id, again[0].pop_receipt)

    names = [item.name for item in service.list_queues(name_starts_with="python")]
    check(names == [name], f"list_queues {names}")
    service_props = service.get_service_properties()
    check(service_props["hour_metrics"].enabled is True, "service properties")

    sas = generate_queue_sas(
        service.account_name,
        name,
        service.credential.account_key,
        permission=QueueSasPermissions(add=True, process=True),
        expiry=datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1),
    )
    via_sas = QueueClient.from_queue_url(f"{queue_url}/{name}", credential=sas)
    via_sas.send_message("via sas")
    expect_error(lambda: via_sas.get_queue_properties(), 403, "AuthorizationPermissionMismatch", "SAS without r")

    expect_error(
        lambda: service.get_queue_client("no-such-queue").send_message("x"),
        404,
        "QueueNotFound",
        "missing queue",
        reason="The specified queue does not exist.",
    )
    q.clear_messages()
    check(q.get_queue_properties().approximate_message_count == 0, "clear_messages")
    service.delete_queue(name)
    try:
        q.get_queue_properties()
        raise AssertionError("deleted queue still answers")
    except ResourceNotFoundError:
        check(True, "delete_queue")


def main():
    proc, queue_url, connection_string = start_server()
    try:
        run(queue_url, connection_string)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(f"python smoke: azure-storage-queue {sdk_version}: {checks} checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"python smoke: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
