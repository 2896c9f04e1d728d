"""End-to-end test of the real desktop window, driven through WebDriver.

tauri-driver starts the built `dynotable` binary with a fresh data folder; the test reads the
window's title and status bar, and checks that they show what the `app_info` command returned:
the version, the data folder, and the embedded engine ready with the six demo tables it loads on
first launch.
"""

import json
import os
import pathlib
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = pathlib.Path(os.environ.get("DYNOTABLE_APP", ROOT / "target" / "debug" / "dynotable"))
ARTIFACTS = pathlib.Path(os.environ.get("DYNOTABLE_ARTIFACTS", ROOT / "test-artifacts"))
DRIVER_URL = os.environ.get("TAURI_DRIVER_URL", "http://127.0.0.1:4444")
DATA_DIR = pathlib.Path(os.environ["DYNOTABLE_DATA_DIR"])


def workspace_version() -> str:
    metadata = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    packages = json.loads(metadata.stdout)["packages"]
    return next(p["version"] for p in packages if p["name"] == "dynotable")


@pytest.fixture(scope="module")
def window():
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(APP)})
    driver = webdriver.Remote(command_executor=DRIVER_URL, options=options)
    try:
        yield driver
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "app-window.png"))
        driver.quit()


def text_of(driver, test_id: str) -> str:
    """The text of a visible element. (textContent: WebKitWebDriver reports no visible text for an
    element that clips its overflow, though it is drawn.)"""
    element = driver.find_element(By.CSS_SELECTOR, f'[data-testid="{test_id}"]')
    assert element.is_displayed(), f"{test_id} is not displayed"
    return element.get_attribute("textContent")


def test_the_window_is_dynotable(window):
    assert window.title == "DynoTable"
    WebDriverWait(window, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "h1.brand"))
    assert window.find_element(By.CSS_SELECTOR, "h1.brand").text == "DynoTable"


def test_the_status_bar_shows_what_app_info_returned(window):
    # First launch loads the demo tables (thousands of items) before the engine reports ready.
    WebDriverWait(window, 120).until(lambda d: "ready" in text_of(d, "engine-state"))
    assert text_of(window, "app-version") == f"DynoTable {workspace_version()}"
    assert text_of(window, "engine-state") == "Embedded engine: ready · 6 tables"
    assert text_of(window, "data-dir") == f"Data: {DATA_DIR}"
    # The engine really opened its database file inside the data folder the app reported.
    assert (DATA_DIR / "embedded" / "local.db").is_file()
    assert (DATA_DIR / "embedded" / "demo-loaded").is_file()


def test_the_sidebar_lists_connections_and_tests_the_embedded_one(window):
    """The embedded profile is listed first; its Test connection runs a real ListTables through
    aws-sdk-dynamodb handed to the engine in-process. The AWS profiles are the ones run.sh wrote."""
    WebDriverWait(window, 120).until(lambda d: "ready" in text_of(d, "engine-state"))
    WebDriverWait(window, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="connection-embedded"]'))
    assert "Embedded engine · local" in text_of(window, "connection-embedded")
    WebDriverWait(window, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="aws-profile-e2e-sso"]'))
    assert "IAM Identity Center · eu-west-1" in text_of(window, "aws-profile-e2e-sso")
    assert "access keys" in text_of(window, "aws-profile-e2e-keys")

    window.find_element(By.CSS_SELECTOR, '[data-testid="connection-embedded"] button').click()
    WebDriverWait(window, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="connection-result"]'))
    assert text_of(window, "connection-result") == "Connected: ListTables answered."
