"""On a failed test of the app window, what the window showed: the text of every alert and
status line (printed with the failure, so CI's log says why) and a screenshot in test-artifacts/."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = pathlib.Path(os.environ.get("DYNOTABLE_ARTIFACTS", ROOT / "test-artifacts"))


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
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"failed-{item.name}.png"))
    except Exception as err:  # the window may be gone; the failure itself is what matters
        report.sections.append(("what the window showed", f"(could not be read: {err})"))
