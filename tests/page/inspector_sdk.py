#!/usr/bin/env python3
"""The Python SDK (azure-storage-queue) as the inspector test's other client: one JSON command
per stdin line, one JSON answer per stdout line, against the connection string in argv[1].
Driven by tests/page/inspector.test.mjs; not a test by itself.

Commands: {"op": "send", "queue", "text", "delay"?}, {"op": "receive", "queue", "visibility"?,
"max"?}, {"op": "delete", "queue", "id", "receipt"}, {"op": "peek", "queue"},
{"op": "create", "queue"}, and {"op": "advance", "ms"}: the server's clock moved through its
queue port (`POST /_azqueue/clock`, with urllib as docs/clock.md shows), answering the reading.
Answers {"ok": true, ...} or {"ok": false, "error": "..."}.
"""

import json
import sys
import urllib.parse
import urllib.request

from azure.core.exceptions import AzureError
from azure.storage.queue import QueueServiceClient


def main():
    service = QueueServiceClient.from_connection_string(sys.argv[1])
    # The queue endpoint's origin, `http://127.0.0.1:<port>`: the development paths are there.
    endpoint = urllib.parse.urlsplit(service.url)
    origin = f"{endpoint.scheme}://{endpoint.netloc}"

    def run(cmd):
        op = cmd["op"]
        if op == "advance":
            req = urllib.request.Request(
                f"{origin}/_azqueue/clock",
                data=json.dumps({"advanceMs": cmd["ms"]}).encode(),
                headers={"x-azqueue-dev": "1", "content-type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(req) as r:
                return {"clock": json.load(r)}
        queue = service.get_queue_client(cmd["queue"])
        if op == "create":
            queue.create_queue()
            return {}
        if op == "send":
            m = queue.send_message(cmd["text"], visibility_timeout=cmd.get("delay"))
            return {"id": m.id}
        if op == "receive":
            got = queue.receive_messages(
                max_messages=cmd.get("max", 32), visibility_timeout=cmd.get("visibility", 30)
            )
            return {
                "messages": [
                    {
                        "id": m.id,
                        "receipt": m.pop_receipt,
                        "text": m.content,
                        "dequeueCount": m.dequeue_count,
                    }
                    for m in got
                ]
            }
        if op == "delete":
            queue.delete_message(cmd["id"], cmd["receipt"])
            return {}
        if op == "peek":
            got = queue.peek_messages(max_messages=32)
            return {"messages": [{"id": m.id, "text": m.content} for m in got]}
        raise ValueError(f"unknown op {op}")

    for line in sys.stdin:
        try:
            answer = {"ok": True, **run(json.loads(line))}
        except (AzureError, OSError, ValueError, KeyError) as e:
            answer = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
