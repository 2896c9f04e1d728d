"""End-to-end: Help → Updates against an update server on loopback (issue 19, point 7).

The app runs through a tauri-driver of this test's own, whose environment points the debug
build's updater at the test's server (DYNOTABLE_UPDATE_ENDPOINT) and gives it the public half of
a key made for this test by the Tauri CLI (`tauri signer generate`, DYNOTABLE_UPDATE_PUBKEY).
The server answers with the manifest the test sets, and a file signed by the CLI
(`tauri signer sign --app-version`), as a release is.

- A manifest naming the running version: the dialog says this is the newest version.
- A manifest naming 99.0.0, whose file is signed with another key: the dialog offers 99.0.0 with
  its notes; Install downloads it and refuses it in plain words, and the app's binary is
  unchanged. (A correctly signed install replaces the running executable, so it is tested on a
  scratch executable in src-tauri/src/updates/tests.rs, not on the binary under test.)
"""

import hashlib
import http.server
import json
import os
import pathlib
import re
import subprocess
import threading

import pytest
from selenium.webdriver.common.by import By

from conftest import APP, database_released, screenshot, window_in_environment
from window import STARTUP, STEP, click_xpath, content, present, settle, wait_for

ROOT = pathlib.Path(__file__).resolve().parents[2]
NEWER = "99.0.0"
NOTES = "Collections of a million items open faster."


def workspace_version() -> str:
    manifest = (ROOT / "Cargo.toml").read_text()
    section = manifest.split("[workspace.package]", 1)[1]
    return re.search(r'^version = "([^"]+)"', section, re.MULTILINE).group(1)


def tauri_cli(*args: str, cwd: pathlib.Path) -> None:
    subprocess.run([str(ROOT / "node_modules" / ".bin" / "tauri"), *args], cwd=cwd, check=True,
                   capture_output=True, timeout=120, env={**os.environ, "CI": "true"})


class UpdateServer:
    """`/latest.json` (the manifest set in `manifest`) and `/DynoTable.AppImage`, on loopback."""

    def __init__(self, file: bytes):
        self.manifest = {}
        self.requests = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests.append(self.path)
                if self.path == "/latest.json":
                    body, kind = json.dumps(server.manifest).encode(), "application/json"
                elif self.path == "/DynoTable.AppImage":
                    body, kind = file, "application/octet-stream"
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def offer(self, version: str, signature: str) -> None:
        self.manifest = {
            "version": version,
            "notes": NOTES,
            "pub_date": "2026-12-06T00:00:00Z",
            "platforms": {"linux-x86_64": {"url": f"{self.url}/DynoTable.AppImage", "signature": signature}},
        }


@pytest.fixture
def release(tmp_path):
    """The app's key (public half), a file signed for 99.0.0 with another key, and the server."""
    tauri_cli("signer", "generate", "--ci", "-p", "", "-w", "app.key", cwd=tmp_path)
    tauri_cli("signer", "generate", "--ci", "-p", "", "-w", "other.key", cwd=tmp_path)
    file = b"\x7fELF" + bytes(range(256)) * 64
    (tmp_path / "DynoTable.AppImage").write_bytes(file)
    tauri_cli("signer", "sign", "-f", "other.key", "-p", "", "--app-version", NEWER, "DynoTable.AppImage", cwd=tmp_path)
    server = UpdateServer(file)
    try:
        yield {
            "pubkey": (tmp_path / "app.key.pub").read_text().strip(),
            "foreign_signature": (tmp_path / "DynoTable.AppImage.sig").read_text().strip(),
            "server": server,
        }
    finally:
        server.httpd.shutdown()


@pytest.fixture
def window(request, release):
    """The app's window through a tauri-driver of this test's own, whose environment (inherited
    by WebKitWebDriver and the app) points the updater at the test's server."""
    environment = {
        **os.environ,
        "DYNOTABLE_UPDATE_ENDPOINT": f"{release['server'].url}/latest.json",
        "DYNOTABLE_UPDATE_PUBKEY": release["pubkey"],
    }
    with window_in_environment(request, environment, "tauri-driver-updates.log") as driver:
        yield driver
    database_released()


def open_updates(driver):
    present(driver, '[data-testid="help-updates"]', "Help → Updates in the status bar", STARTUP)
    click_xpath(driver, '//footer//button[@data-testid="help-updates"]', "Help → Updates")
    return present(driver, '[data-testid="update-dialog"]', "the Updates dialog")


def test_help_updates_says_when_current_then_offers_a_newer_release_and_refuses_a_foreign_signature(window, release):
    server = release["server"]
    binary_before = hashlib.sha256(APP.read_bytes()).hexdigest()

    # The running version: no update, and only the manifest was asked for.
    server.offer(workspace_version(), release["foreign_signature"])
    dialog = open_updates(window)
    said = wait_for(window, "the dialog's answer",
                    lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="update-none"], [data-testid="update-error"]'), STEP)[0]
    assert content(said) == "This is the newest version of DynoTable."
    assert server.requests == ["/latest.json"]
    click_xpath(window, './/button[normalize-space()="Close"]', "Close", scope=dialog)

    # 99.0.0: offered with its notes; its file is signed with another key and is refused.
    server.offer(NEWER, release["foreign_signature"])
    dialog = open_updates(window)
    offer = present(window, '[data-testid="update-offer"]', "the offer", STEP)
    text = content(offer)
    assert f"DynoTable {NEWER} is available. This is {workspace_version()}; {NEWER} was released on 2026-12-06." in text
    assert NOTES in text
    settle(0.5)  # the frame that shows it, before the picture
    screenshot(window, "updates-offer.png")
    click_xpath(window, './/button[@data-testid="update-install"]', "Install and restart", scope=dialog)
    error = present(window, '[data-testid="update-error"]', "the refusal", STEP)
    assert content(error).startswith("The update was refused. The downloaded update is not signed with DynoTable's release key")
    assert content(error).endswith("Nothing was changed.")
    settle(0.5)
    screenshot(window, "updates-refused.png")
    assert server.requests[-1] == "/DynoTable.AppImage"
    assert hashlib.sha256(APP.read_bytes()).hexdigest() == binary_before, "the app's binary was changed"
    present(window, '[data-testid="update-offer"]', "the offer, still shown beside the refusal")
