"""The query builder's exported programs, run against dynotable-local.

`crates/dynotable-builder/tests/codegen/<case>/` holds, for each builder request of the golden
corpus, the DynamoDB JSON body (`request.json`) and the program for every SDK, all written by
`cargo test -p dynotable-builder --test scripts`. Here, on a Telemetry table laid out as the demo
data (vehicleId / recordedAt, GSI ByDepot), the body is sent as it is, page after page, and each
program that has a toolchain on this machine — boto3 client and resource, the AWS CLI, the
JavaScript SDK v3 client and DocumentClient, the Rust SDK — runs unchanged, pointed at the server
only through AWS_ENDPOINT_URL, and must print the same items in the same order. (The AWS CLI here
is v1, the one on PyPI: a command with binary values, written for v2, must be refused by it, not
run wrong.) The Go and Java programs are checked as golden files only (no Go or Java toolchain
here; see the crate's tests).

The Rust programs are compiled as they are: each `rust.rs` is an `[[example]]` of tests/Cargo.toml
(`codegen-<case>`), built by `cargo test --workspace --no-run` (`make blackbox` runs it first), and
what they print — `{:?}` of each item, a `HashMap<String, AttributeValue>` — is read back into
DynamoDB JSON by `RustDebug`. A case without its example fails here.

The Node programs import @aws-sdk/client-dynamodb and @aws-sdk/lib-dynamodb from
tests/codegen/node_modules (`npm ci --prefix tests/codegen`, done by scripts/setup.sh).
"""

import base64
import http.client
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.parse
from decimal import Decimal

import pytest

from conftest import ACCESS_KEY, CLIENT_CONFIG, REGION, SECRET_KEY, TARGET, Server, session

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES_DIR = ROOT / "crates" / "dynotable-builder" / "tests" / "codegen"
NODE_MODULES = ROOT / "tests" / "codegen" / "node_modules"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if (p / "request.json").exists())
PROGRAMS = ["python-client.py", "python-resource.py", "aws-cli.sh", "js-client.mjs", "js-document.mjs", "rust.rs"]
# Whether a program prints items typed (DynamoDB JSON, or the Rust SDK's AttributeValue) or as
# plain JSON values (document).
TYPED = {"python-client.py", "aws-cli.sh", "js-client.mjs", "rust.rs"}
# The package whose examples are the Rust programs, and where cargo puts them.
BLACKBOX_MANIFEST = ROOT / "tests" / "Cargo.toml"
RUST_EXAMPLES = TARGET / "debug" / "examples"

TELEMETRY = dict(
    TableName="Telemetry",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "vehicleId", "AttributeType": "S"},
                          {"AttributeName": "recordedAt", "AttributeType": "S"},
                          {"AttributeName": "depotCode", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "vehicleId", "KeyType": "HASH"},
               {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
    GlobalSecondaryIndexes=[{
        "IndexName": "ByDepot",
        "KeySchema": [{"AttributeName": "depotCode", "KeyType": "HASH"},
                      {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"},
    }],
)


def telemetry_items():
    """The demo's vehicle collection: a META item sorted before its TS# readings, two days of
    readings, and the attributes the corpus filters on (reserved words, nested documents, every
    value type) and a string that needs escaping."""
    items = [
        {"vehicleId": {"S": "VEH#V-7741"}, "recordedAt": {"S": "META"}, "plate": {"S": "B-DT 7741"},
         "model": {"S": "eActros 300"}, "status": {"S": "OK"}},
        {"vehicleId": {"S": "VEH#V-1002"}, "recordedAt": {"S": "META"}, "plate": {"S": "HH-DT 1002"}},
    ]
    for day in ("01", "02"):
        for hour in range(0, 24, 3):
            n = int(day) * 100 + hour
            item = {
                "vehicleId": {"S": "VEH#V-7741"},
                "recordedAt": {"S": f"TS#2024-03-{day}T{hour:02d}:00:00Z"},
                "depotCode": {"S": "BER-1" if hour < 12 else "HAM-2"},
                "speedKph": {"N": str((n * 37) % 130)},
                "fuelPct": {"N": str(Decimal(95) - Decimal(n % 90) - Decimal("0.5"))},
                "data": {"M": {"coolant": {"N": str(80 + hour)}, "ok": {"BOOL": hour % 2 == 0}}},
                "readings": {"L": [{"N": str(hour)}, {"S": f"r{hour}"}]},
            }
            if hour % 9 != 0:
                item["status"] = {"S": ["OK", "WARN", "FAIL"][hour % 3]}
            if hour in (3, 15):
                item["tags"] = {"SS": ["fleet", "service-due"]}
            if hour == 6:
                item["checksum"] = {"B": "3q2+7w=="}
                item["zones"] = {"NS": ["3", "1"]}
            if hour == 9:
                item["flags"] = {"M": {"ok": {"BOOL": True}, "note": {"NULL": True},
                                       "codes": {"L": [{"N": "1"}, {"S": "two"}]}}}
            items.append(item)
    # A driver's note with what every printer must escape (quotes, backslash, control characters,
    # a combining accent, which Rust's `{:?}` writes as \u{301}).
    items.append({"vehicleId": {"S": "VEH#V-1002"}, "recordedAt": {"S": "TS#2024-03-01T10:00:00Z"},
                  "depotCode": {"S": "BER-1"}, "speedKph": {"N": "88"}, "fuelPct": {"N": "7.25"},
                  "note": {"S": 'Fahrer: "Kühlmittel" \\ prüfen\n\tr\u0301 \'ok\' \u007f ✓'}})
    return items


@pytest.fixture(scope="module")
def telemetry(tmp_path_factory):
    """One dynotable-local with the Telemetry table and its items, shared by the module."""
    server = Server(["--in-memory"], tmp_path_factory.mktemp("codegen") / "dynotable-local.stderr")
    try:
        client = session().client("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG)
        client.create_table(**TELEMETRY)
        for item in telemetry_items():
            # The low-level wire form goes through boto3's client as bytes for B values.
            client.put_item(TableName="Telemetry", Item=_from_wire(item))
        yield server
    finally:
        server.stop()


def _from_wire(value):
    """DynamoDB JSON → the boto3 client's form (B values as bytes)."""
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("B", "BS"):
        tag, inner = next(iter(value.items()))
        return {tag: base64.b64decode(inner) if tag == "B" else [base64.b64decode(b) for b in inner]}
    if isinstance(value, dict):
        return {k: _from_wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_wire(v) for v in value]
    return value


def run_body(endpoint, body):
    """Sends the builder's request body as it is, following LastEvaluatedKey; (items, pages)."""
    target = "DynamoDB_20120810." + ("Query" if "KeyConditionExpression" in body else "Scan")
    url = urllib.parse.urlsplit(endpoint)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    items, pages, body = [], 0, dict(body)
    try:
        while True:
            connection.request("POST", "/", body=json.dumps(body).encode(), headers={
                "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": target})
            response = connection.getresponse()
            payload = json.loads(response.read())
            assert response.status == 200, payload
            items += payload["Items"]
            pages += 1
            if "LastEvaluatedKey" not in payload:
                return items, pages
            body["ExclusiveStartKey"] = payload["LastEvaluatedKey"]
    finally:
        connection.close()


def program_environment(endpoint, tmp_path):
    """Only what any AWS SDK reads: the endpoint, the Region and static credentials."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(
        AWS_ENDPOINT_URL=endpoint, AWS_REGION=REGION, AWS_DEFAULT_REGION=REGION,
        AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY,
        AWS_CONFIG_FILE=str(tmp_path / "aws-config"), AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "aws-credentials"),
        AWS_EC2_METADATA_DISABLED="true", AWS_MAX_ATTEMPTS="1",
        # The AWS CLI of the Python environment running the tests comes first.
        PATH=f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


def run_program(case, program, endpoint, tmp_path):
    """Runs one exported program unchanged; returns what it printed."""
    source = CASES_DIR / case / program
    if program.endswith(".py"):
        command = [sys.executable, str(source)]
    elif program.endswith(".sh"):
        command = ["sh", str(source)]
    elif program.endswith(".rs"):
        command = [str(rust_example(case))]
    else:
        if not (NODE_MODULES / "@aws-sdk" / "lib-dynamodb").exists():
            pytest.fail(f"{NODE_MODULES} lacks the JavaScript SDK: run `npm ci --prefix tests/codegen`"
                        " (scripts/setup.sh does)")
        # ES modules resolve packages from the importing file's folders: run a copy beside a
        # link to tests/codegen/node_modules.
        (tmp_path / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
        shutil.copy(source, tmp_path / program)
        command = [shutil.which("node") or "node", str(tmp_path / program)]
    result = subprocess.run(command, env=program_environment(endpoint, tmp_path), cwd=tmp_path,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    return result


def rust_example(case):
    """The compiled Rust program of a case: the `codegen-<case>` example, built from rust.rs."""
    binary = RUST_EXAMPLES / f"codegen-{case}"
    build = "run `cargo test --workspace --no-run` (make blackbox does) or `cargo build -p dynotable-blackbox --examples`"
    if not binary.exists():
        pytest.fail(f"{binary} is not built: {build}")
    if binary.stat().st_mtime < (CASES_DIR / case / "rust.rs").stat().st_mtime:
        pytest.fail(f"{binary} is older than its rust.rs: {build}")
    return binary


class RustDebug:
    """Reads the `{:?}` text of an aws-sdk-dynamodb item (`HashMap<String, AttributeValue>`) back
    into DynamoDB JSON: `{"k": S("..."), ...}` with Rust's string escapes, `N("12.5")`,
    `Bool(true)`, `Null(true)`, `B(Blob { inner: <hex> })`, `Ss([..])`, `Ns([..])`, `Bs([..])`,
    `L([..])` and `M({..})`. Anything else (such as `Unknown`) is an error, not a guess."""

    ESCAPES = {"t": "\t", "r": "\r", "n": "\n", "0": "\0", "\\": "\\", '"': '"', "'": "'"}

    def __init__(self, text):
        self.text, self.pos = text, 0

    @classmethod
    def item(cls, line):
        reader = cls(line)
        item = reader.map()
        if reader.pos != len(line):
            reader.fail("the end of the line")
        return item

    def fail(self, wanted):
        raise ValueError(f"expected {wanted} at {self.pos} of {self.text!r}")

    def take(self, token):
        if not self.text.startswith(token, self.pos):
            self.fail(repr(token))
        self.pos += len(token)

    def sequence(self, open_, close, element):
        self.take(open_)
        elements = []
        while not self.text.startswith(close, self.pos):
            if elements:
                self.take(", ")
            elements.append(element())
        self.take(close)
        return elements

    def string(self):
        match = re.compile(r'"((?:[^"\\]|\\u\{[0-9a-f]+\}|\\[trn0\\"\'])*)"').match(self.text, self.pos)
        if not match:
            self.fail("a string")
        self.pos = match.end()
        return re.sub(r"\\(u\{([0-9a-f]+)\}|.)",
                      lambda m: chr(int(m[2], 16)) if m[2] else self.ESCAPES[m[1]], match[1])

    def blob(self):
        match = re.compile(r"Blob \{ inner: ([0-9a-f]*) \}").match(self.text, self.pos)
        if not match or len(match[1]) % 2:
            self.fail("a Blob")
        self.pos = match.end()
        return base64.b64encode(bytes.fromhex(match[1])).decode()

    def map(self):
        def entry():
            name = self.string()
            self.take(": ")
            return name, self.value()
        return dict(self.sequence("{", "}", entry))

    def value(self):
        match = re.compile(r"([A-Za-z]+)\(").match(self.text, self.pos)
        readers = {
            "S": ("S", self.string), "N": ("N", self.string), "B": ("B", self.blob),
            "Bool": ("BOOL", lambda: self.word({"true": True, "false": False})),
            "Null": ("NULL", lambda: self.word({"true": True})),
            "Ss": ("SS", lambda: self.sequence("[", "]", self.string)),
            "Ns": ("NS", lambda: self.sequence("[", "]", self.string)),
            "Bs": ("BS", lambda: self.sequence("[", "]", self.blob)),
            "L": ("L", lambda: self.sequence("[", "]", self.value)),
            "M": ("M", self.map),
        }
        if not match or match[1] not in readers:
            self.fail("an AttributeValue")
        self.pos = match.end()
        tag, read = readers[match[1]]
        value = read()
        self.take(")")
        return {tag: value}

    def word(self, words):
        for word, value in words.items():
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return value
        self.fail(" or ".join(words))


def aws_cli_major(tmp_path):
    version = subprocess.run(["aws", "--version"], env=program_environment("http://127.0.0.1:9", tmp_path),
                             capture_output=True, text=True, timeout=60)
    text = version.stdout + version.stderr
    assert text.startswith("aws-cli/"), text
    return int(text[len("aws-cli/"):].split(".")[0])


def printed_items(program, stdout):
    if program == "aws-cli.sh":
        return json.loads(stdout)["Items"]
    if program == "rust.rs":
        return [RustDebug.item(line) for line in stdout.splitlines() if line.strip()]
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def plain_matches(typed, plain):
    """Whether a document-form value (numbers as JSON numbers, binary as base64, sets as lists
    in any order) is the typed DynamoDB JSON value."""
    (tag, value), = typed.items()
    number = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)
    if tag in ("S", "B"):
        return plain == value
    if tag == "N":
        return number(plain) and Decimal(str(plain)) == Decimal(value)
    if tag == "BOOL":
        return plain is value
    if tag == "NULL":
        return plain is None
    if tag == "M":
        return isinstance(plain, dict) and plain.keys() == value.keys() \
            and all(plain_matches(v, plain[k]) for k, v in value.items())
    if tag == "L":
        return isinstance(plain, list) and len(plain) == len(value) \
            and all(plain_matches(v, p) for v, p in zip(value, plain))
    if tag in ("SS", "BS"):
        return isinstance(plain, list) and sorted(plain) == sorted(value)
    if tag == "NS":
        return isinstance(plain, list) and all(number(p) for p in plain) \
            and sorted(Decimal(str(p)) for p in plain) == sorted(Decimal(v) for v in value)
    raise AssertionError(f"unknown type {tag}")


@pytest.mark.parametrize("case", CASES)
def test_request_body_reads_the_expected_collection(telemetry, case):
    """The corpus requests are meaningful on the demo data: they find items, and those with a
    Limit take several pages (so the programs' paging is exercised)."""
    body = json.loads((CASES_DIR / case / "request.json").read_text())
    items, pages = run_body(telemetry.endpoint, body)
    assert items, f"{case} finds nothing on the demo data"
    if "Limit" in body:
        assert pages > 1
    if case == "telemetry-window":
        # The seed's query: one vehicle, 2024-03-01 only, newest first.
        stamps = [item["recordedAt"]["S"] for item in items]
        assert stamps == sorted(stamps, reverse=True)
        assert all(s.startswith("TS#2024-03-01T") for s in stamps) and len(stamps) == 8
        assert {item["vehicleId"]["S"] for item in items} == {"VEH#V-7741"}


def needs_cli_v2(case: str) -> bool:
    """The exported AWS CLI command passes binary values inline, which only AWS CLI v2 can
    (`--cli-binary-format`)."""
    return "--cli-binary-format" in (CASES_DIR / case / "aws-cli.sh").read_text()


# The AWS CLI here is v1 (tests/requirements.txt: v2 is not published on PyPI), so the commands
# that need v2 are not run for their items; the test after this one checks that v1 refuses them.
RUNNABLE = [(case, program) for case in CASES for program in PROGRAMS
            if not (program == "aws-cli.sh" and needs_cli_v2(case))]


@pytest.mark.parametrize(("case", "program"), RUNNABLE)
def test_exported_program_returns_the_same_items(telemetry, tmp_path, case, program):
    body = json.loads((CASES_DIR / case / "request.json").read_text())
    expected, _ = run_body(telemetry.endpoint, body)
    result = run_program(case, program, telemetry.endpoint, tmp_path)
    assert result.returncode == 0, f"{case}/{program} failed:\n{result.stderr}"
    got = printed_items(program, result.stdout)
    if program in TYPED:
        assert got == expected
    else:
        assert len(got) == len(expected), (got, expected)
        for plain, typed in zip(got, expected):
            assert plain.keys() == typed.keys() and all(plain_matches(v, plain[k]) for k, v in typed.items()), \
                (plain, typed)


@pytest.mark.parametrize("case", [case for case in CASES if needs_cli_v2(case)])
def test_aws_cli_v1_refuses_an_exported_command_with_inline_binary_values(telemetry, tmp_path, case):
    """AWS CLI v1 would send the base64 text itself as a binary value; the exported command names
    v2's option, so v1 refuses it instead of reading with the wrong bytes."""
    assert aws_cli_major(tmp_path) == 1, "tests/requirements.txt pins AWS CLI v1"
    result = run_program(case, "aws-cli.sh", telemetry.endpoint, tmp_path)
    assert result.returncode != 0 and "--cli-binary-format" in result.stderr, result.stderr


def test_every_rust_program_is_an_example_of_the_blackbox_package():
    """A new corpus case cannot go unrun: each rust.rs is compiled as `codegen-<case>`."""
    manifest = tomllib.loads(BLACKBOX_MANIFEST.read_text())
    examples = {e["name"]: (BLACKBOX_MANIFEST.parent / e["path"]).resolve() for e in manifest.get("example", [])}
    wanted = {f"codegen-{p.parent.name}": p.resolve() for p in CASES_DIR.glob("*/rust.rs")}
    assert wanted, f"no rust.rs under {CASES_DIR}"
    assert {k: v for k, v in examples.items() if k.startswith("codegen-")} == wanted, \
        f"tests/Cargo.toml needs one [[example]] per rust.rs: {sorted(wanted)}"


def test_rust_debug_reads_every_attribute_value_type():
    """The reader of the Rust programs' output, on the `{:?}` forms the corpus data does not print
    (binary sets, an empty binary, empty collections); each form as the SDK writes it."""
    line = ('{"s": S("a \\"q\\" \\\\ \\n\\t\\0 \\u{301} \' ✓"), "n": N("-1.5E+3"), "t": Bool(true), '
            '"f": Bool(false), "z": Null(true), "b": B(Blob { inner: dead }), "e": B(Blob { inner:  }), '
            '"bs": Bs([Blob { inner: 00 }, Blob { inner: ff }]), "ss": Ss(["x", "y"]), "ns": Ns(["1"]), '
            '"l": L([]), "m": M({}), "deep": M({"k": L([M({"x": N("0")}), S("")])})}')
    assert RustDebug.item(line) == {
        "s": {"S": 'a "q" \\ \n\t\0 \u0301 \' ✓'}, "n": {"N": "-1.5E+3"}, "t": {"BOOL": True},
        "f": {"BOOL": False}, "z": {"NULL": True}, "b": {"B": "3q0="}, "e": {"B": ""},
        "bs": {"BS": ["AA==", "/w=="]}, "ss": {"SS": ["x", "y"]}, "ns": {"NS": ["1"]},
        "l": {"L": []}, "m": {"M": {}}, "deep": {"M": {"k": {"L": [{"M": {"x": {"N": "0"}}}, {"S": ""}]}}},
    }
    assert RustDebug.item("{}") == {}
    for wrong in ['{"k": Unknown}', '{"k": S("x")', '{"k": B(Blob { inner: abc })}', '{"k": Null(false)}',
                  '{"k": S("\\q")}', '{"k": N("1")} trailing']:
        with pytest.raises(ValueError):
            RustDebug.item(wrong)
