"""The app window each end-to-end test drives, and what it showed when a test failed.

`window` starts the built `dynotable` binary through tauri-driver for one test and closes it
after, so no test depends on what another left on screen. Nor on what another left on disk:
before every test (`fresh_state`, used by each) the data folder run.sh named is put back as first
launch leaves it, the demo tables loaded and nothing else, and the web view's storage (the theme,
the start screen's dismissal, PartiQL's history) is emptied. That first-launch folder is made
once a run (`first_launch_data`): the app is started on an empty folder, loads the demo tables,
and is closed; each test then starts on a copy of it, so it passes alone, in any order, and in
the full run, whatever the tests before it created, changed or chose.

Opening the window is bounded: on a loaded machine the app has been seen to die before its
window exists (GTK could not open the display), and WebKitWebDriver then waits for it forever.
A start that has not answered within START_TIMEOUT seconds is abandoned and tried again, up to
START_ATTEMPTS times; every failed start is reported with the test.

On a failed test: the text of every alert and status line (printed with the failure, so CI's log
says why) and a screenshot in test-artifacts/.
"""

import contextlib
import fcntl
import json
import os
import pathlib
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.remote.client_config import ClientConfig

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = pathlib.Path(os.environ.get("DYNOTABLE_APP", ROOT / "target" / "debug" / "dynotable"))
ARTIFACTS = pathlib.Path(os.environ.get("DYNOTABLE_ARTIFACTS", ROOT / "test-artifacts"))
DRIVER_URL = os.environ.get("TAURI_DRIVER_URL", "http://127.0.0.1:4444")


START_TIMEOUT = 120
START_ATTEMPTS = 3
# Every other WebDriver command: generous for a loaded 2-core machine, but bounded.
COMMAND_TIMEOUT = 120


def start_window(timeout: float, driver_url: str = DRIVER_URL):
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(APP)})
    config = ClientConfig(remote_server_addr=driver_url, timeout=timeout)
    driver = webdriver.Remote(command_executor=driver_url, options=options, client_config=config)
    driver.command_executor.client_config.timeout = COMMAND_TIMEOUT
    return driver


def open_window(request, driver_url: str = DRIVER_URL):
    """A window of the app through the tauri-driver at `driver_url`, started up to
    START_ATTEMPTS times; the starts that failed are reported with the test."""
    driver, failures = _started(driver_url)
    if failures:
        request.node.add_report_section("setup", "window starts that failed", "\n".join(failures))
    return driver


def _started(driver_url: str):
    """A window started up to START_ATTEMPTS times, and the starts that failed; a test failure
    if none succeeded."""
    failures = []
    for attempt in range(1, START_ATTEMPTS + 1):
        try:
            driver = start_window(START_TIMEOUT, driver_url)
            break
        except Exception as err:  # a start that failed or never answered
            failures.append(f"start {attempt}: {type(err).__name__}: {str(err).splitlines()[0][:200]}")
    else:
        pytest.fail(f"the app window did not open in {START_ATTEMPTS} starts of {START_TIMEOUT} s: {failures}")
    return driver, failures


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_driver(port: int, seconds: float) -> None:
    """Until tauri-driver answers /status as ready (its WebKitWebDriver started too)."""
    deadline = time.monotonic() + seconds
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=2) as answer:
                status = json.load(answer)
            if status.get("value", {}).get("ready") is True:
                return
            last = json.dumps(status)
        except (OSError, ValueError) as err:
            last = str(err)
        time.sleep(0.2)
    pytest.fail(f"tauri-driver on 127.0.0.1:{port} was not ready after {seconds} s: {last}")


@contextlib.contextmanager
def window_in_environment(request, environment: dict, log_name: str):
    """The app's window through a tauri-driver of the caller's own, started with `environment`
    (which WebKitWebDriver and the app inherit): for a test that needs the app to see other
    variables than run.sh's. What tauri-driver, WebKitWebDriver and the app print is kept in
    test-artifacts/`log_name`."""
    assert APP.exists(), f"{APP} is not built (make test builds it)"
    port = free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / log_name, "wb") as log:
        driver_process = subprocess.Popen(
            ["tauri-driver", "--port", str(port), "--native-port", str(free_port()),
             "--native-driver", "/usr/bin/WebKitWebDriver"],
            env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        )
        try:
            wait_for_driver(port, 60)
            driver = open_window(request, f"http://127.0.0.1:{port}")
            try:
                yield driver
            finally:
                driver.quit()
        finally:
            driver_process.terminate()
            driver_process.wait(timeout=20)


def data_dir() -> pathlib.Path:
    """The data folder every window of run.sh's tauri-driver opens (the app reads it from the
    environment tauri-driver passes on)."""
    return pathlib.Path(os.environ["DYNOTABLE_DATA_DIR"])


def _replace_folder(folder: pathlib.Path, source: pathlib.Path | None) -> None:
    """Empties `folder` and, given a `source`, fills it with a copy of it. The web view's helper
    processes of the window closed last may still be writing for a moment after the app exits
    (run.sh says so of their caches): a folder that is not empty yet is emptied again."""
    deadline = time.monotonic() + 30
    while True:
        try:
            shutil.rmtree(folder)
            break
        except FileNotFoundError:
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    if source is None:
        folder.mkdir(parents=True)
    else:
        shutil.copytree(source, folder)


@pytest.fixture(scope="session")
def first_launch_data(tmp_path_factory) -> pathlib.Path:
    """A copy of the data folder as the app's first launch leaves it: started once on an empty
    folder, it loads the demo tables, reports its engine ready, and is closed."""
    from window import engine_ready

    _replace_folder(data_dir(), None)
    _replace_folder(web_storage(), None)
    driver, _ = _started(DRIVER_URL)
    try:
        engine_ready(driver)
    finally:
        driver.quit()
        database_released()
    copy = tmp_path_factory.mktemp("first-launch") / "data"
    shutil.copytree(data_dir(), copy)
    assert (copy / "embedded" / "demo-loaded").is_file(), "the first launch did not load the demo tables"
    return copy


def web_storage() -> pathlib.Path:
    """Where the web view keeps its storage (local storage, IndexedDB): under XDG_DATA_HOME, which
    run.sh points into its scratch folder."""
    return pathlib.Path(os.environ["XDG_DATA_HOME"])


@pytest.fixture(autouse=True)
def fresh_state(first_launch_data):
    """Before each test: the data folder as first launch left it, and no web storage."""
    _replace_folder(data_dir(), first_launch_data)
    _replace_folder(web_storage(), None)


@pytest.fixture
def window(request):
    driver = open_window(request)
    try:
        yield driver
    finally:
        try:
            driver.quit()
        except Exception:  # the test closed the window itself (to start the app again)
            pass
        database_released()


def database_released(timeout: float = 60) -> None:
    """Waits until the closed app has let go of the embedded engine's database (its lock file is
    free), so the next test's app does not find it held by a process still exiting."""
    lock = data_dir() / "embedded" / "local.db.lock"
    if not lock.exists():
        return
    deadline = time.monotonic() + timeout
    with open(lock, "a") as held:
        while True:
            try:
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(held, fcntl.LOCK_UN)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"waited {timeout:.0f} s for the closed app to release {lock}")
                time.sleep(0.1)


# WebKitWebDriver's screenshot is of the next frame the web view presents. With WebKit's default
# frames (DMA-BUF) one is presented on request; with frames in shared memory, which the app
# chooses on a machine without a GPU (src-tauri/src/start_env.rs), a page with nothing to repaint
# presents none and the screenshot waits forever, while the window itself keeps drawing (seen in
# every run of test_start_screen: requestAnimationFrame at 60 Hz, the screenshot never answered).
# So while a screenshot is taken, one pixel in the top-left corner is repainted every frame, from
# transparent to 2 % grey and back.
NUDGE_ON = """
const nudge = document.createElement('div');
nudge.id = 'e2e-frame-nudge';
nudge.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;z-index:2147483647';
document.body.append(nudge);
let odd = false;
const repaint = () => {
  if (!nudge.isConnected) return;
  odd = !odd;
  nudge.style.background = odd ? 'rgba(128,128,128,0.02)' : 'transparent';
  requestAnimationFrame(repaint);
};
requestAnimationFrame(repaint);
"""
NUDGE_OFF = "document.getElementById('e2e-frame-nudge')?.remove();"


def screenshot(driver, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.execute_script(NUDGE_ON)
    try:
        driver.save_screenshot(str(ARTIFACTS / name))
    finally:
        driver.execute_script(NUDGE_OFF)


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
