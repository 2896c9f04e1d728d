"""The app window each end-to-end test drives, and what it showed when a test failed.

`window` starts the built `dynotable` binary through tauri-driver for one test and closes it
after, so no test depends on what another left on screen. Every window of a run shares the data
folder run.sh made: the first one to start loads the demo tables, later ones find them loaded.

On a failed test: the text of every alert and status line (printed with the failure, so CI's log
says why) and a screenshot in test-artifacts/.
"""

import os
import pathlib

import pytest
from selenium import webdriver
from selenium.webdriver.common.options import ArgOptions

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = pathlib.Path(os.environ.get("DYNOTABLE_APP", ROOT / "target" / "debug" / "dynotable"))
ARTIFACTS = pathlib.Path(os.environ.get("DYNOTABLE_ARTIFACTS", ROOT / "test-artifacts"))
DRIVER_URL = os.environ.get("TAURI_DRIVER_URL", "http://127.0.0.1:4444")


@pytest.fixture
def window():
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(APP)})
    driver = webdriver.Remote(command_executor=DRIVER_URL, options=options)
    try:
        yield driver
    finally:
        driver.quit()


def screenshot(driver, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / name))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    driver = item.funcargs.get("window") if hasattr(item, "funcargs") else None
    if report.when != "call" or not report.failed or driver is None:
        return
    try:
        shown = driver.execute_script(
            "return [...document.querySelectorAll('[role=alert],[role=status]')]"
            ".map(e => e.getAttribute('role') + ': ' + e.textContent.trim()).filter(t => t.length > 8)"
        )
        report.sections.append(("what the window showed", "\n".join(shown) or "(no alert or status)"))
        screenshot(driver, f"failed-{item.name}.png")
    except Exception as err:  # the window may be gone; the failure itself is what matters
        report.sections.append(("what the window showed", f"(could not be read: {err})"))
