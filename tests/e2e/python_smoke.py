#!/usr/bin/env python3
"""Smoke test with the official Python SDK (azure-storage-queue, its default API version).

Starts `node hosts/node/server.mjs` on free ports, drives the main operations and error paths, stops
the server, then does the same round over HTTPS (a certificate made by
tests/e2e/tls_certificate.mjs, trusted through `connection_verify`), and exits non-zero on the
first failure. Run in the project's .venv:
    .venv/bin/python tests/e2e/python_smoke.py
"""

import base64
import datetime
import hashlib
import hmac
import json
import os
import shutil
import subprocess
import time
import urllib.parse

from azure.core.credentials import AccessToken
from azure.core.exceptions import (
    HttpResponseError,
    ResourceExistsError,
    ResourceNotFoundError,
    ServiceRequestError,
)
from azure.storage.queue import (
    AccessPolicy,
    AccountSasPermissions,
    CorsRule,
    Metrics,
    QueueClient,
    QueueSasPermissions,
    QueueServiceClient,
    ResourceTypes,
    RetentionPolicy,
    generate_account_sas,
    generate_queue_sas,
)

from python_harness import NODE, ROOT, against_server, check, main, start_server


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
    # Set Queue Metadata replaces the whole set.
    q.set_queue_metadata({"Owner": "smoke", "env": "ci"})
    after = q.get_queue_properties().metadata
    check(after == {"Owner": "smoke", "env": "ci"}, f"set_queue_metadata replaced the set: {after}")

    # Stored access policies round-trip; times come back in the service's 7-digit form and
    # permissions in canonical r-a-u-p order.
    start = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
    policy = AccessPolicy(
        permission=QueueSasPermissions(read=True, process=True),
        start=start,
        expiry=start + datetime.timedelta(days=1),
    )
    q.set_queue_access_policy({"reader": policy})
    acl = q.get_queue_access_policy()
    check(list(acl) == ["reader"], f"access policy ids {list(acl)}")
    got = acl["reader"]
    check(
        (got.permission, got.start, got.expiry)
        == ("rp", "2030-01-01T00:00:00.0000000Z", "2030-01-02T00:00:00.0000000Z"),
        f"access policy {(got.permission, got.start, got.expiry)}",
    )
    q.set_queue_access_policy({})
    check(q.get_queue_access_policy() == {}, "empty set_queue_access_policy clears the policies")

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
    service.set_service_properties(
        minute_metrics=Metrics(
            enabled=True, include_apis=False, retention_policy=RetentionPolicy(enabled=True, days=3)
        ),
        cors=[CorsRule(["https://a.example"], ["GET", "PUT"], max_age_in_seconds=60)],
    )
    service_props = service.get_service_properties()
    minute = service_props["minute_metrics"]
    check(
        (minute.enabled, minute.include_apis, minute.retention_policy.days) == (True, False, 3),
        "set_service_properties stored minute metrics",
    )
    rules = [(r.allowed_origins, r.allowed_methods, r.max_age_in_seconds) for r in service_props["cors"]]
    check(rules == [("https://a.example", "GET,PUT", 60)], f"CORS rules {rules}")
    check(service_props["hour_metrics"].enabled is True, "parts not sent keep their value")
    service.set_service_properties(cors=[])
    check(service.get_service_properties()["cors"] == [], "an empty CORS list deletes the rules")

    # Get Service Stats is answered only on the secondary endpoint; the SDK always sends it
    # to the secondary host, so each client names one (path-style: the primary's host:port).
    host = urllib.parse.urlsplit(queue_url).netloc
    on_primary = QueueServiceClient.from_connection_string(connection_string, secondary_hostname=host)
    expect_error(on_primary.get_service_stats, 400, "InvalidQueryParameterValue", "stats on the primary")
    key = {"account_name": service.account_name, "account_key": service.credential.account_key}
    on_secondary = QueueServiceClient(f"{queue_url}-secondary", credential=key, secondary_hostname=host)
    geo = on_secondary.get_service_stats()["geo_replication"]
    check(geo["status"] == "live", f"stats status {geo['status']}")
    check(isinstance(geo["last_sync_time"], datetime.datetime), "stats last_sync_time is a datetime")

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

    # An account SAS for messages (srt=o) with add and read: send and peek pass; a queue-level
    # read (srt=c) is outside the resource types it grants.
    account_sas = generate_account_sas(
        service.account_name,
        service.credential.account_key,
        resource_types=ResourceTypes(object=True),
        permission=AccountSasPermissions(read=True, add=True),
        expiry=datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1),
    )
    via_account_sas = QueueClient.from_queue_url(f"{queue_url}/{name}", credential=account_sas)
    via_account_sas.send_message("via account sas")
    peeked = [m.content for m in via_account_sas.peek_messages(max_messages=32)]
    check(peeked == ["via sas", "via account sas"], f"peek via account SAS {peeked}")
    expect_error(
        lambda: via_account_sas.get_queue_properties(),
        403,
        "AuthorizationResourceTypeMismatch",
        "account SAS without srt=c",
    )

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


def make_certificate():
    """The test CA and server certificate, made by the same helper the JS suites use."""
    script = (
        "import(process.argv[1]).then((m) => console.log(JSON.stringify(m.makeCertificate())))"
    )
    helper = (ROOT / "tests" / "e2e" / "tls_certificate.mjs").as_uri()
    out = subprocess.run([NODE, "-e", script, helper], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


class SignedToken:
    """A TokenCredential handing out one JWT signed with a throwaway key: `--oauth basic`
    checks the claims, not the signature."""

    def __init__(self, **overrides):
        now = int(time.time())
        claims = {
            "aud": "https://storage.azure.com",
            "iss": "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/",
            "iat": now - 60,
            "nbf": now - 60,
            "exp": now + 3600,
            "tid": "72f988bf-86f1-41af-91ab-2d7cd011db47",
            **overrides,
        }

        def part(value):
            return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

        body = f'{part({"alg": "HS256", "typ": "JWT"})}.{part(claims)}'
        sig = hmac.new(os.urandom(32), body.encode(), hashlib.sha256).digest()
        self.token = f"{body}.{base64.urlsafe_b64encode(sig).rstrip(b'=').decode()}"

    def get_token(self, *scopes, **kwargs):
        return AccessToken(self.token, int(time.time()) + 3600)


def run_https(cert):
    proc, queue_url, connection_string = start_server(
        "--cert", cert["cert"], "--key", cert["key"], "--oauth", "basic"
    )
    try:
        check(queue_url.startswith("https://"), f"queue URL over TLS: {queue_url}")
        check(
            connection_string.startswith("DefaultEndpointsProtocol=https;"),
            f"connection string over TLS: {connection_string}",
        )
        service = QueueServiceClient.from_connection_string(connection_string, connection_verify=cert["ca"])
        q = service.create_queue("python-tls")
        q.send_message("over tls")
        [m] = list(q.receive_messages())
        check(m.content == "over tls", f"received over TLS: {m.content!r}")
        q.delete_message(m)
        service.delete_queue("python-tls")
        # --oauth basic: a bearer token with the right claims works; the wrong audience is
        # refused as Azure refuses it.
        with_token = QueueServiceClient(queue_url, credential=SignedToken(), connection_verify=cert["ca"])
        with_token.create_queue("python-oauth")
        with_token.get_queue_client("python-oauth").send_message("with a token")
        with_token.delete_queue("python-oauth")
        wrong = QueueServiceClient(
            queue_url,
            credential=SignedToken(aud="https://management.azure.com/"),
            connection_verify=cert["ca"],
        )
        expect_error(wrong.get_service_properties, 401, "InvalidAuthenticationInfo", "token for another audience")
        # Without the test CA the handshake must fail: the certificate really is checked.
        untrusted = QueueServiceClient.from_connection_string(connection_string, retry_total=0)
        try:
            untrusted.get_service_properties()
            raise AssertionError("a client without the test CA connected")
        except ServiceRequestError as e:
            check("CERTIFICATE_VERIFY_FAILED" in str(e), f"untrusted certificate refused: {e}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def smoke():
    against_server(run)
    cert = make_certificate()
    try:
        run_https(cert)
    finally:
        shutil.rmtree(cert["dir"], ignore_errors=True)


if __name__ == "__main__":
    main("", smoke)
