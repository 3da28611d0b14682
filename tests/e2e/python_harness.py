"""What the Python end-to-end scripts share: the Node server on free ports, a counted check, and
the run of one script against a server of its own, which prints the line `scripts/test-all.sh`
counts (`python smoke: ...: N checks passed`) or exits non-zero on the first failed check.
"""

import pathlib
import queue
import re
import shutil
import subprocess
import sys
import threading

from azure.storage.queue import __version__ as sdk_version

ROOT = pathlib.Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or "node"
READY = re.compile(r'azqueue ready: queue (\S+) web (\S+) connection "([^"]+)"')

checks = 0


def check(cond, what):
    global checks
    if not cond:
        raise AssertionError(what)
    checks += 1


def start_server(*extra):
    """`node hosts/node/server.mjs` on free ports, in memory unless `--location` is given; answers
    the process, the queue endpoint and the connection string it printed when ready."""
    proc = subprocess.Popen(
        [NODE, str(ROOT / "hosts" / "node" / "server.mjs"), "--queuePort", "0", "--webPort", "0", "--silent",
         *([] if "--location" in extra else ["--inMemoryPersistence"]), *extra],
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


def against_server(run, *extra):
    """Runs `run(queue_url, connection_string)` against a server started for it, stopped after."""
    proc, queue_url, connection_string = start_server(*extra)
    try:
        run(queue_url, connection_string)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def origin_of(queue_url):
    """The server's origin, where the development paths are, from its queue endpoint."""
    return queue_url.rsplit("/", 1)[0]


def main(topic, body):
    """Runs a script's `body`, then reports its checks under `topic` ("" for the main smoke)."""
    label = f"python smoke: {topic}" if topic else "python smoke:"
    try:
        body()
    except AssertionError as e:
        print(f"{label} FAILED: {e}", file=sys.stderr)
        sys.exit(1)
    prefix = f"{topic}, " if topic else ""
    print(f"python smoke: {prefix}azure-storage-queue {sdk_version}: {checks} checks passed")
