"""End-to-end: a profile from ~/.aws opens in the real window with no Secret Service running
(issue 19, point 1), and a secret typed into DynoTable is refused in a plain sentence.

Each case starts the built app through its own tauri-driver, whose environment (inherited by
WebKitWebDriver and the app) holds:
- AWS config and credentials files of this test: a profile `local-keys` with static keys and an
  `endpoint_url` naming a `dynotable-local --in-memory` on loopback, which has one table;
- a fresh data folder, home and XDG folders;
- a session bus without a Secret Service, one of two ways:
  - `private-bus`: a private dbus-daemon on which nothing can be activated (no service
    directories), checked to have no org.freedesktop.secrets — a minimal window manager's session;
  - `no-bus`: no session bus at all (DBUS_SESSION_BUS_ADDRESS names a socket that does not exist,
    so nothing is autolaunched either) — WSL, a remote shell.

The test clicks the profile's Open button and waits for the table list: the table is listed and
no keychain error is shown. Then it types access keys into a new connection and saves: the app
says no keychain is available, in its own words, and what to do; no backend error text.
"""

import os
import pathlib
import shutil
import subprocess
import tempfile
import threading

import boto3
import pytest
from selenium.webdriver.common.by import By

from conftest import window_in_environment
from window import STARTUP, STEP, click_xpath, content, present, type_into, wait_for

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
LOCAL = pathlib.Path(os.environ.get("DYNOTABLE_LOCAL_BIN", TARGET / "debug" / "dynotable-local"))
TABLE = "KeychainFreeTable"
PROFILE = "local-keys"

# A session bus of the test's own: it listens on a socket in the scratch folder and can activate
# nothing (no <servicedir>, no standard service directories), so no Secret Service can start on it
# even where gnome-keyring is installed.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def read_line(stream, seconds: float) -> str:
    line = []
    reader = threading.Thread(target=lambda: line.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    return line[0].decode().strip() if line else ""


def bus_call(address: str, method: str, *args: str) -> str:
    return subprocess.run(
        ["dbus-send", f"--bus={address}", "--print-reply", "--dest=org.freedesktop.DBus",
         "/org/freedesktop/DBus", f"org.freedesktop.DBus.{method}", *args],
        check=True, capture_output=True, text=True, timeout=10,
    ).stdout


@pytest.fixture
def scratch():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dynotable-no-keychain-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def endpoint(scratch):
    """dynotable-local in memory on loopback, with one table."""
    assert LOCAL.exists(), f"{LOCAL} is not built (make test builds it)"
    log = open(scratch / "dynotable-local.stderr", "wb")
    server = subprocess.Popen([str(LOCAL), "--host", "127.0.0.1", "--port", "0", "--in-memory"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log)
    try:
        ready = read_line(server.stdout, 20)
        assert ready.startswith("dynotable-local listening on "), ready
        url = ready.removeprefix("dynotable-local listening on ")
        boto3.session.Session(aws_access_key_id="AKIDSETUP", aws_secret_access_key="setup",
                              region_name="eu-west-1").client("dynamodb", endpoint_url=url).create_table(
            TableName=TABLE,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        yield url
    finally:
        server.kill()
        server.wait(timeout=10)
        log.close()


@pytest.fixture(params=["private-bus", "no-bus"])
def environment(request, scratch, endpoint):
    """The app's environment: the test's AWS files, fresh folders, no Secret Service."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "DBUS_", "XDG_"))}
    home = scratch / "home"
    for folder in ("home/.aws", "data", "xdg-data", "xdg-config", "xdg-cache", "run"):
        (scratch / folder).mkdir(parents=True, exist_ok=True)
    (scratch / "run").chmod(0o700)
    (home / ".aws" / "config").write_text(
        f"[profile {PROFILE}]\nregion = eu-west-1\nendpoint_url = {endpoint}\n"
    )
    (home / ".aws" / "credentials").write_text(
        f"[{PROFILE}]\naws_access_key_id = AKIAE2ENOKEYCHAIN01\n"
        "aws_secret_access_key = kept-in-the-aws-files-only\n"
    )
    env.update(
        HOME=str(home),
        DYNOTABLE_DATA_DIR=str(scratch / "data"),
        XDG_DATA_HOME=str(scratch / "xdg-data"),
        XDG_CONFIG_HOME=str(scratch / "xdg-config"),
        XDG_CACHE_HOME=str(scratch / "xdg-cache"),
        XDG_RUNTIME_DIR=str(scratch / "run"),
        AWS_EC2_METADATA_DISABLED="true",
    )
    bus = None
    if request.param == "private-bus":
        config = scratch / "bus.conf"
        config.write_text(BUS_CONFIG.format(socket=scratch / "run" / "bus"))
        bus = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        address = read_line(bus.stdout, 10)
        assert address.startswith("unix:"), f"dbus-daemon printed {address!r}"
        # A working bus, on which no Secret Service runs or can be started.
        assert "boolean false" in bus_call(address, "NameHasOwner", "string:org.freedesktop.secrets")
        assert "org.freedesktop.secrets" not in bus_call(address, "ListActivatableNames")
        env["DBUS_SESSION_BUS_ADDRESS"] = address
    else:
        env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={scratch / 'run' / 'no-bus'}"
    # The display's X authority stays the user's (HOME moved).
    xauthority = pathlib.Path(os.environ.get("HOME", "/")) / ".Xauthority"
    if "XAUTHORITY" not in env and xauthority.exists():
        env["XAUTHORITY"] = str(xauthority)
    try:
        yield env
    finally:
        if bus is not None:
            bus.kill()
            bus.wait(timeout=10)


@pytest.fixture
def window(request, environment):
    """The app's window, through a tauri-driver of this test's own (run.sh's passes on run.sh's
    environment, with its AWS files and the machine's session bus)."""
    with window_in_environment(request, environment, f"tauri-driver-{request.node.callspec.id}.log") as driver:
        yield driver


def alerts(driver) -> list[str]:
    return [content(e) for e in driver.find_elements(By.CSS_SELECTOR, "[role=alert]")]


def test_an_aws_profile_opens_and_lists_its_tables_without_a_secret_service(window):
    profile = present(window, f'[data-testid="aws-profile-{PROFILE}"]', f"the AWS profile {PROFILE}", STARTUP)
    click_xpath(window, './/button[normalize-space()="Open"]', f"Open on {PROFILE}", scope=profile)

    # The connection made for it expands and lists the endpoint's table, and nothing goes wrong.
    table = f'[data-testid="open-table-{TABLE}"]'
    wait_for(window, f"{TABLE} in the table list, or an alert",
             lambda d: d.find_elements(By.CSS_SELECTOR, table) or alerts(d))
    assert alerts(window) == [], "opening the AWS profile showed an error"
    assert content(window.find_element(By.CSS_SELECTOR, table)) == TABLE

    # A secret typed into DynoTable needs the keychain: refused in plain words, with what to do.
    click_xpath(window, '//button[normalize-space()="+ New connection"]', "+ New connection")
    form = present(window, 'form[aria-label="New connection"]', "the New connection form")
    field = lambda label: form.find_element(By.XPATH, f'.//label[contains(., "{label}")]//input')
    type_into(window, field("Name"), "typed keys", "Name")
    click_xpath(window, './/label[contains(., "AWS with access keys")]//input', "AWS with access keys", scope=form)
    type_into(window, field("Access key id"), "AKIAIOSFODNN7EXAMPLE", "Access key id")
    type_into(window, field("Secret access key"), "typed-secret", "Secret access key")
    click_xpath(window, './/button[normalize-space()="Save"]', "Save", scope=form)
    said = content(wait_for(window, "the form's alert", lambda d: form.find_elements(By.CSS_SELECTOR, "[role=alert]"), STEP)[0])
    assert said.startswith(
        "The system keychain could not be used: No system keychain is available, so the "
        "connection's secret could not be saved"
    ), said
    assert "~/.aws/credentials" in said, said
    for backend_text in ("DBus", "dbus", "Platform secure storage", "keychain failed"):
        assert backend_text not in said, said
