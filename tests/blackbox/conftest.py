"""Fixtures for the black-box tests of dynotable-local with boto3 and the AWS CLI.

Each test gets its own `dynotable-local --port 0 --in-memory` on loopback (it starts in
milliseconds), killed when the test ends, passed or failed. The binary is the one `make
blackbox` builds (target/debug/dynotable-local, under $CARGO_TARGET_DIR if set), or
$DYNOTABLE_LOCAL_BIN.

No ambient AWS configuration leaks in: every AWS_* variable is cleared, config and credentials
files point into a temporary folder, and clients get static credentials and us-east-1.
"""

import json
import os
import pathlib
import subprocess
import threading
import urllib.error
import urllib.request

import boto3
import botocore.config
from botocore.exceptions import ClientError
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
BINARY = pathlib.Path(os.environ.get("DYNOTABLE_LOCAL_BIN", TARGET / "debug" / "dynotable-local"))
READY = "dynotable-local listening on "
ACCESS_KEY = "AKIDBLACKBOX"
SECRET_KEY = "blackbox-secret"
REGION = "us-east-1"


class Server:
    """A running dynotable-local; `stop()` kills it and waits for it."""

    def __init__(self, args, log_path):
        if not BINARY.exists():
            pytest.fail(f"{BINARY} is not built: run `cargo build -p dynotable-server --bin dynotable-local`"
                        " (make blackbox does)")
        self.log_path = log_path
        self._log = open(log_path, "wb")
        self.process = subprocess.Popen(
            [str(BINARY), "--host", "127.0.0.1", "--port", "0", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._log,
        )
        line = self._ready_line(timeout=20)
        self.endpoint = line[len(READY):].strip()
        if not line.startswith(READY) or not self.endpoint.startswith("http://127.0.0.1:"):
            self.stop()
            pytest.fail(f"dynotable-local printed {line!r}, not its loopback ready line; stderr:\n{self.logs()}")

    def _ready_line(self, timeout):
        result = []
        reader = threading.Thread(target=lambda: result.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        return result[0].decode() if result else ""

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        self.process.stdout.close()
        self._log.close()

    def logs(self):
        return pathlib.Path(self.log_path).read_text(errors="replace")


@pytest.fixture(autouse=True)
def isolated_aws_environment(monkeypatch, tmp_path):
    """No AWS_* variable or ~/.aws file of the machine reaches boto3 or the CLI."""
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


@pytest.fixture
def server(tmp_path):
    server = Server(["--in-memory"], tmp_path / "dynotable-local.stderr")
    try:
        yield server
    finally:
        server.stop()


def session():
    return boto3.session.Session(
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, region_name=REGION,
    )


# One attempt per call: a test must see every failure, never a retried one.
CLIENT_CONFIG = botocore.config.Config(retries={"mode": "standard", "max_attempts": 1},
                                       connect_timeout=5, read_timeout=30)


@pytest.fixture
def client(server):
    return session().client("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG)


# botocore's own checks of the parameters off: the request goes as written, and the server's
# checks are what answer it (the validation tests send what the SDK would refuse to).
UNCHECKED = CLIENT_CONFIG.merge(botocore.config.Config(parameter_validation=False))


@pytest.fixture
def raw(server):
    return session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)


def post_body(endpoint, operation, body: bytes):
    """POSTs `body` as written to DynamoDB's `operation` (a body no SDK would send), with a
    signature the server does not check: the HTTP status and the decoded JSON answer."""
    request = urllib.request.Request(endpoint, data=body, method="POST", headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"DynamoDB_20120810.{operation}",
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/dynamodb/aws4_request, "
                         "SignedHeaders=host, Signature=0"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def error(call, **kwargs):
    """The error code and message `call(**kwargs)` is answered with (it must fail)."""
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    return caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]


@pytest.fixture
def resource(server):
    return session().resource("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG)


# Pets: AnimalType / Name, on demand.
PETS = dict(
    TableName="Pets",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "AnimalType", "AttributeType": "S"},
                          {"AttributeName": "Name", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "AnimalType", "KeyType": "HASH"},
               {"AttributeName": "Name", "KeyType": "RANGE"}],
)


@pytest.fixture
def pets(client):
    """A client, with the table Pets (AnimalType / Name, on demand) created."""
    client.create_table(**PETS)
    return client
