"""The local endpoint as boto3 and a browser meet it (issues 19.4, 18.5 and 18.6): SigV4 checked
with `--auth` (the right secret, a wrong one, an unknown key, a clock 20 minutes off), gzip
request bodies signed as sent, the Host check against DNS rebinding, CORS preflights, and the
service's answers to GET and to other methods."""

import datetime
import gzip
import http.client
import json
import urllib.parse

import botocore.auth
import pytest
from botocore.exceptions import ClientError

from conftest import ACCESS_KEY, CLIENT_CONFIG, PETS, SECRET_KEY, Server, session

MISMATCH = ("The request signature we calculated does not match the signature you provided. Check your AWS "
            "Secret Access Key and signing method. Consult the service documentation for details.")


@pytest.fixture
def start(tmp_path):
    """Starts dynotable-local with extra arguments; every server started is stopped."""
    started = []

    def start(*args):
        server = Server(["--in-memory", *args], tmp_path / f"dynotable-local-{len(started)}.stderr")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def client_for(server, access_key=ACCESS_KEY, secret=SECRET_KEY):
    return session().client("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG,
                            aws_access_key_id=access_key, aws_secret_access_key=secret)


def error_of(call):
    with pytest.raises(ClientError) as error:
        call()
    return error.value.response["Error"]["Code"], error.value.response["Error"]["Message"]


def test_with_auth_only_the_right_secret_is_served(start):
    server = start("--auth", f"{ACCESS_KEY}:{SECRET_KEY}")
    right = client_for(server)
    right.create_table(**PETS)
    right.put_item(TableName="Pets", Item={"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}})

    wrong = client_for(server, secret="not-the-secret")
    assert error_of(lambda: wrong.list_tables()) == ("InvalidSignatureException", MISMATCH)
    # A signed write with the wrong secret writes nothing.
    assert error_of(lambda: wrong.delete_table(TableName="Pets"))[0] == "InvalidSignatureException"

    stranger = client_for(server, access_key="AKIDSTRANGER")
    assert error_of(lambda: stranger.list_tables()) == (
        "UnrecognizedClientException", "The security token included in the request is invalid.")

    item = right.get_item(TableName="Pets", Key={"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}})["Item"]
    assert item["Name"] == {"S": "Fido"}


def test_with_auth_a_clock_20_minutes_off_is_refused(start, monkeypatch):
    server = start("--auth", f"{ACCESS_KEY}:{SECRET_KEY}")
    client = client_for(server)
    behind = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - datetime.timedelta(minutes=20)
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: behind)
    code, message = error_of(lambda: client.list_tables())
    signed_at = behind.strftime("%Y%m%dT%H%M%SZ")
    assert code == "InvalidSignatureException"
    assert message.startswith(f"Signature expired: {signed_at} is now earlier than "), message
    assert message.endswith(" - 15 min.)"), message

    ahead = behind + datetime.timedelta(minutes=40)
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: ahead)
    code, message = error_of(lambda: client.list_tables())
    assert code == "InvalidSignatureException"
    assert message.startswith(f"Signature not yet current: {ahead.strftime('%Y%m%dT%H%M%SZ')} is still later than ")


def test_without_auth_any_signature_is_accepted(start):
    server = start()
    assert client_for(server, access_key="anything", secret="whatever").list_tables()["TableNames"] == []


def compress_before_signing(request, **_):
    """What an SDK with request compression on does: gzip the body, then sign what is sent."""
    request.data = gzip.compress(request.body if isinstance(request.body, bytes) else request.body.encode())
    request.headers["Content-Encoding"] = "gzip"


def test_gzip_bodies_signed_as_sent_are_served(start):
    server = start("--auth", f"{ACCESS_KEY}:{SECRET_KEY}")
    client = client_for(server)
    client.meta.events.register("before-sign.dynamodb.*", compress_before_signing)
    client.create_table(**PETS)
    client.put_item(TableName="Pets", Item={"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}, "Age": {"N": "7"}})
    item = client.get_item(TableName="Pets", Key={"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}})["Item"]
    assert item["Age"] == {"N": "7"}


def test_with_no_gzip_a_gzip_body_is_not_json(start):
    server = start("--no-gzip")
    client = client_for(server)
    client.meta.events.register("before-sign.dynamodb.*", compress_before_signing)
    assert error_of(lambda: client.list_tables())[0] == "SerializationException"


def raw(server, method, path="/", headers=None, body=None):
    url = urllib.parse.urlsplit(server.endpoint)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host="Host" in (headers or {}))
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_page_reaching_loopback_through_its_own_name_is_refused(start):
    server = start()
    port = urllib.parse.urlsplit(server.endpoint).port
    api = {"X-Amz-Target": "DynamoDB_20120810.ListTables", "Content-Type": "application/x-amz-json-1.0"}
    status, _, body = raw(server, "POST", headers={"Host": f"rebound.example:{port}", **api}, body=b"{}")
    assert status == 400
    error = json.loads(body)
    assert error["__type"] == "com.amazon.coral.service#AccessDeniedException"
    assert "DNS rebinding" in error["message"]
    status, _, body = raw(server, "POST", headers={"Host": f"localhost:{port}", **api}, body=b"{}")
    assert (status, json.loads(body)) == (200, {"TableNames": []})


JS_SDK_HEADERS = ("amz-sdk-invocation-id,amz-sdk-request,authorization,content-type,x-amz-content-sha256,"
                  "x-amz-date,x-amz-security-token,x-amz-target,x-amz-user-agent")


def test_a_browser_preflight_is_answered_unless_cors_is_off(start):
    preflight = {"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": JS_SDK_HEADERS}
    status, headers, body = raw(start(), "OPTIONS", headers=preflight)
    headers = {name.lower(): value for name, value in headers.items()}
    assert status == 200 and body == b""
    # A page served from this machine (a browser SDK app under development) may read the answer.
    assert headers["access-control-allow-origin"] == "http://localhost:5173"
    assert headers["access-control-allow-headers"] == JS_SDK_HEADERS
    assert headers["access-control-max-age"] == "172800"
    assert headers["access-control-allow-methods"] == "POST,GET,HEAD"

    # A page on another origin may not: no signature is checked, so any web site could otherwise
    # read and change the tables (docs/compatibility.md, Wire protocol).
    foreign = dict(preflight, Origin="https://evil.example")
    status, headers, _ = raw(start(), "OPTIONS", headers=foreign)
    assert "access-control-allow-origin" not in {name.lower() for name in headers}
    status, headers, _ = raw(start("--cors-origin", "https://evil.example"), "OPTIONS", headers=foreign)
    assert {name.lower(): value for name, value in headers.items()}["access-control-allow-origin"] == "https://evil.example"

    status, headers, _ = raw(start("--no-cors"), "OPTIONS", headers=preflight)
    assert status == 404
    assert "access-control-allow-origin" not in {name.lower() for name in headers}


def test_a_preflight_is_answered_with_the_methods_served(start):
    server = start()
    for asked in ["DELETE", "PUT", "PATCH", "POST"]:
        preflight = {"Origin": "http://localhost:5173", "Access-Control-Request-Method": asked,
                     "Access-Control-Request-Headers": "content-type"}
        status, headers, _ = raw(server, "OPTIONS", headers=preflight)
        headers = {name.lower(): value for name, value in headers.items()}
        assert status == 200, asked
        assert headers["access-control-allow-methods"] == "POST,GET,HEAD", asked


def test_answers_expose_the_headers_an_sdk_reads(start):
    server = start()
    api = {"Origin": "http://localhost:5173", "X-Amz-Target": "DynamoDB_20120810.DescribeTable",
           "Content-Type": "application/x-amz-json-1.0"}
    status, headers, _ = raw(server, "POST", headers=api, body=b'{"TableName": "Missing"}')
    headers = {name.lower(): value for name, value in headers.items()}
    assert status == 400
    assert headers["access-control-allow-origin"] == "http://localhost:5173"
    exposed = {name.strip().lower() for name in headers["access-control-expose-headers"].split(",")}
    assert exposed == {"x-amzn-requestid", "x-amzn-errortype", "x-amz-crc32"}


def test_get_is_the_health_check_and_other_methods_are_404(start):
    server = start()
    status, _, body = raw(server, "GET")
    assert (status, body) == (200, b"healthy: dynamodb.local.amazonaws.com ")
    for method in ["PUT", "DELETE"]:
        status, _, body = raw(server, method, body=b"{}")
        assert (status, body) == (404, b"<UnknownOperationException/>\n"), method
