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

import time

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.support.ui import Select, WebDriverWait

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


TIMINGS: dict[str, float] = {}


def screenshot(driver, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / name))


@pytest.fixture(scope="module")
def window():
    started = time.monotonic()
    TIMINGS["started"] = started
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(APP)})
    driver = webdriver.Remote(command_executor=DRIVER_URL, options=options)
    try:
        yield driver
    finally:
        screenshot(driver, "app-window.png")
        driver.quit()
        # Figures for the notes (not assertions): seconds from the WebDriver session's start.
        (ARTIFACTS / "timings.json").write_text(
            json.dumps({k: round(v - started, 3) for k, v in TIMINGS.items() if k != "started"}, indent=2)
        )


def text_of(driver, test_id: str) -> str:
    """The text of a visible element. (textContent: WebKitWebDriver reports no visible text for an
    element that clips its overflow, though it is drawn.)"""
    element = driver.find_element(By.CSS_SELECTOR, f'[data-testid="{test_id}"]')
    assert element.is_displayed(), f"{test_id} is not displayed"
    return element.get_attribute("textContent")


def test_the_window_is_dynotable(window):
    assert window.title == "DynoTable"
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, "h1.brand"))
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
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="connection-embedded"]'))
    assert "Embedded engine · local" in text_of(window, "connection-embedded")
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="aws-profile-e2e-sso"]'))
    assert "IAM Identity Center · eu-west-1" in text_of(window, "aws-profile-e2e-sso")
    assert "access keys" in text_of(window, "aws-profile-e2e-keys")

    window.find_element(
        By.XPATH, '//*[@data-testid="connection-embedded"]//button[normalize-space()="Test connection"]'
    ).click()
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="connection-result"]'))
    assert text_of(window, "connection-result") == "Connected: ListTables answered."


READINGS_FROM = "TS#2025-03-14T09:00:00Z"
READINGS_TO = "TS#2025-03-14T09:59:00Z"


def css(driver, selector: str):
    return driver.find_element(By.CSS_SELECTOR, selector)


def grid_rows(driver) -> list[str]:
    """The text of the item rows the collection grid has drawn (it is virtualised)."""
    rows = driver.find_elements(By.CSS_SELECTOR, '[role="grid"] [role="row"]')
    return [r.get_attribute("textContent") for r in rows]


def test_open_telemetry_query_a_window_newest_first_and_page_through_it(window):
    """The seed articles' query: VEH#V-7741's readings between 09:00 and 09:59, newest first,
    25 a page, followed page by page to the end of the window."""
    WebDriverWait(window, 120).until(lambda d: "ready" in text_of(d, "engine-state"))
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="open-table-Telemetry"]'))
    css(window, '[data-testid="open-table-Telemetry"]').click()
    WebDriverWait(window, 90).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="table-screen-Telemetry"] [data-testid="table-keys"]')
    )
    TIMINGS["first table shown"] = time.monotonic()
    assert text_of(window, "table-keys") == "vehicleId (S, partition) + recordedAt (S, sort)"
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".collection-map button, .collection-map [role='button']"))
    screenshot(window, "table-overview.png")

    form = css(window, 'form[aria-label="Query Telemetry"]')
    form.find_element(By.CSS_SELECTOR, 'input[data-field="pk"]').send_keys("VEH#V-7741")
    Select(form.find_element(By.CSS_SELECTOR, 'select[aria-label="Sort key condition on recordedAt"]')).select_by_value("between")
    form.find_element(By.CSS_SELECTOR, 'input[data-field="sk"]').send_keys(READINGS_FROM)
    form.find_element(By.CSS_SELECTOR, 'input[data-field="skHigh"]').send_keys(READINGS_TO)
    form.find_element(By.XPATH, './/label[contains(., "Newest / highest first")]/input').click()
    form.find_element(By.CSS_SELECTOR, 'input[data-field="limit"]').send_keys("25")
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()

    box = 'section[aria-label="Item collection vehicleId = VEH#V-7741"]'
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, box))
    WebDriverWait(window, 90).until(lambda d: any("TS#2025-03-14T09:59:00Z" in r for r in grid_rows(d)))
    rows = [r for r in grid_rows(window) if "TS#2025-03-14T09:" in r]
    # Newest first: 09:59 before 09:58.
    assert rows[0].find("09:59") >= 0 and rows[1].find("09:58") >= 0, rows[:2]
    assert "The last page ended before the collection did." in css(window, box).get_attribute("textContent")
    screenshot(window, "collection-first-page.png")

    for pages in (2, 3):
        load_more = window.find_element(By.XPATH, '//button[contains(., "Load more")]')
        load_more.click()
        WebDriverWait(window, 90).until(lambda d: f"{pages} pages" in css(d, box).get_attribute("textContent"))
    # 25 + 25 + 10: the window holds sixty readings; the last page ends with the window.
    assert "60 items · 3 pages" in css(window, box).get_attribute("textContent")
    assert not window.find_elements(By.XPATH, '//button[contains(., "Load more")]')
    # The grid is virtualised: go to its end to see the last page's mark.
    grid = css(window, f'{box} [role="grid"]')
    grid.click()
    grid.send_keys(Keys.END)
    WebDriverWait(window, 90).until(lambda d: "End of collection" in css(d, box).get_attribute("textContent"))
    text = css(window, box).get_attribute("textContent")
    assert "Page 2 · 25 items · Limit reached" in text or "Page 3 · 10 items · End of collection" in text, text
    screenshot(window, "collection-paged.png")


def test_edit_a_reading_and_see_the_change(window):
    """Enter on the selected reading opens the editor; the save goes out with the condition that
    the item is as it was seen, and the box shows the new value."""
    grid = css(window, '[role="grid"]')
    grid.click()
    grid.send_keys(Keys.HOME)
    grid.send_keys(Keys.ENTER)
    editor = 'section[aria-label^="Edit item vehicleId = VEH#V-7741"]'
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, editor))
    speed = css(window, f'{editor} [aria-label="Value of speedKph"]')
    speed.clear()
    speed.send_keys("123")
    screenshot(window, "item-editor.png")
    window.find_element(By.XPATH, f'//section[starts-with(@aria-label, "Edit item")]//button[normalize-space()="Save"]').click()
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[role="alertdialog"]'))
    confirm = css(window, '[role="alertdialog"]')
    assert "Save item vehicleId = VEH#V-7741, recordedAt = TS#2025-03-14T09:59:00Z?" in confirm.get_attribute("textContent")
    confirm.find_element(By.XPATH, './/button[normalize-space()="Save"]').click()
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="write-notice"]'))
    # 1 WCU for the table and 1 for the ByDepot GSI: this reading carries a depotCode, and the
    # index projects ALL attributes, so the new speed rewrites its index entry too (rule B.3).
    assert text_of(window, "write-notice") == "Saved: 2 WCU consumed."
    WebDriverWait(window, 90).until(lambda d: any("09:59" in r and "123" in r for r in grid_rows(d)))
    assert "WCU" in text_of(window, "capacity-used")
    screenshot(window, "collection-after-edit.png")


def open_section(driver, test_id: str, table: str = "Telemetry"):
    """Opens a lazily built section of the table screen and returns it."""
    section = css(driver, f'[data-testid="table-screen-{table}"] [data-testid="{test_id}"]')
    if section.get_attribute("open") is None:
        section.find_element(By.TAG_NAME, "summary").click()
    return section


def test_the_cost_of_the_query_is_estimated_and_reconciled(window):
    """After the window query ran, the cost panel shows the estimate from the engine's statistics
    beside what DynamoDB (here the engine, through the SDK) reported."""
    section = open_section(window, "section-cost")
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="first-page-units"]'))
    WebDriverWait(window, 90).until(lambda d: "After it ran" in section.get_attribute("textContent"))
    text = section.get_attribute("textContent")
    # The window's pages were read eventually consistent: what the engine reported for the last
    # page is what the estimator computed from the same rules.
    assert "The reported capacity equals the estimate." in text, text[:600]
    assert "N × GetItem" in text and "BatchGetItem" in text and "Scan + filter" in text
    section.location_once_scrolled_into_view
    screenshot(window, "cost-panel.png")


def test_build_the_seed_time_window_query_from_clicks_and_run_it(window):
    """The query builder makes `vehicleId = :v AND recordedAt BETWEEN :from AND :to` with its
    placeholders, runs it newest first, and draws the result as the collection's dashed box."""
    section = open_section(window, "section-builder")
    WebDriverWait(window, 90).until(lambda d: section.find_elements(By.CSS_SELECTOR, '[aria-label="vehicleId value"]'))
    section.find_element(By.CSS_SELECTOR, '[aria-label="vehicleId value"]').send_keys("VEH#V-7741")
    operator = section.find_element(By.CSS_SELECTOR, 'select[aria-label="recordedAt operator"]')
    WebDriverWait(window, 90).until(lambda d: "BETWEEN" in [o.get_attribute("value") for o in Select(operator).options])
    Select(operator).select_by_value("BETWEEN")
    section.find_element(By.CSS_SELECTOR, '[aria-label="recordedAt from"]').send_keys("TS#2025-03-14T09:00:00Z")
    section.find_element(By.CSS_SELECTOR, '[aria-label="recordedAt to"]').send_keys("TS#2025-03-14T09:09:00Z")
    Select(section.find_element(By.CSS_SELECTOR, 'select[aria-label="Order"]')).select_by_value("descending")
    # The generated expression, with the placeholders chosen for it, is shown before it runs.
    generated = '[aria-label="Generated KeyConditionExpression"] [data-testid="generated-expression"]'
    WebDriverWait(window, 90).until(
        lambda d: " BETWEEN :" in "".join(e.get_attribute("textContent") for e in section.find_elements(By.CSS_SELECTOR, generated))
    )
    # Run is enabled only once the backend has checked the request as it is on screen.
    run = section.find_element(By.XPATH, './/button[normalize-space()="Run Query"]')
    WebDriverWait(window, 90).until(lambda d: run.is_enabled())
    run.click()
    results = '[data-testid="table-screen-Telemetry"] [data-testid="builder-results"]'
    WebDriverWait(window, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, results))
    WebDriverWait(window, 90).until(lambda d: "10 items" in css(d, results).get_attribute("textContent"))
    rows = [r.get_attribute("textContent") for r in window.find_elements(By.CSS_SELECTOR, f'{results} [role="row"]')]
    readings = [r for r in rows if "TS#2025-03-14T09:0" in r]
    assert readings and "09:09" in readings[0], readings[:2]
    # The backend recorded the run in the query history; the builder lists it, written out.
    recent = 'ul[aria-label="Recent builder runs"]'
    WebDriverWait(window, 90).until(lambda d: section.find_elements(By.CSS_SELECTOR, recent))
    assert ('recordedAt BETWEEN "TS#2025-03-14T09:00:00Z" AND "TS#2025-03-14T09:09:00Z" · newest first'
            in section.find_element(By.CSS_SELECTOR, recent).get_attribute("textContent"))
    css(window, results).location_once_scrolled_into_view
    screenshot(window, "query-builder.png")


def test_the_indexes_side_by_side_show_the_sparse_gsi(window):
    """Telemetry's items as the table and its ByDepot GSI hold them, side by side: readings
    without a depotCode are absent from the GSI, with the reason."""
    section = open_section(window, "section-indexes")
    WebDriverWait(window, 90).until(lambda d: section.find_elements(By.CSS_SELECTOR, 'section[aria-label="GSI ByDepot"]'))
    WebDriverWait(window, 90).until(lambda d: "Not in this index" in section.get_attribute("textContent"))
    text = section.get_attribute("textContent")
    assert "GSI ByDepot" in text and "Projection" in text, text[:400]
    assert "No depotCode attribute" in text, text[:800]
    # Telemetry has no LSI: no collection is measured against the 10 GB item-collection limit.
    assert not section.find_elements(By.TAG_NAME, "meter")
    section.location_once_scrolled_into_view
    screenshot(window, "indexes-side-by-side.png")


def test_the_history_lists_the_queries_run_on_the_table(window):
    """The backend recorded the window query when its first page ran; the history lists it."""
    section = open_section(window, "section-history")
    WebDriverWait(window, 90).until(lambda d: section.find_elements(By.CSS_SELECTOR, '[aria-label="Recent queries"] li'))
    recent = section.find_element(By.CSS_SELECTOR, '[aria-label="Recent queries"]').get_attribute("textContent")
    assert "VEH#V-7741 BETWEEN TS#2025-03-14T09:00:00Z AND TS#2025-03-14T09:59:00Z · newest first · Limit 25" in recent, recent
    section.location_once_scrolled_into_view
    screenshot(window, "query-history.png")


def test_the_lsi_table_side_by_side_gauges_selection_and_an_index_query(window):
    """CustomerOrders has an LSI: each base collection carries its size against the 10 GB limit.
    Selecting an order marks it in the table's column and in the LSI's; a Query on an LSI
    collection run from the view says which collection it read."""
    css(window, '[data-testid="open-table-CustomerOrders"]').click()
    WebDriverWait(window, 90).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="table-screen-CustomerOrders"] [data-testid="section-indexes"]')
    )
    section = open_section(window, "section-indexes", table="CustomerOrders")
    WebDriverWait(window, 90).until(lambda d: section.find_elements(By.CSS_SELECTOR, 'section[aria-label="LSI ByOrderDate"] button.side-entry'))
    gauges = section.find_elements(By.CSS_SELECTOR, 'meter[aria-label="Collection size against the 10 GB limit"]')
    assert gauges, section.get_attribute("textContent")[:600]
    assert " of 10 GB (" in section.get_attribute("textContent")

    table_column = css(window, '[data-testid="table-screen-CustomerOrders"] section[aria-label="Table"]')
    entry = table_column.find_element(By.CSS_SELECTOR, "button.side-entry")
    item = entry.get_attribute("data-item")
    entry.click()
    selected = section.find_elements(By.CSS_SELECTOR, f'button.side-entry[data-item="{item}"][aria-pressed="true"]')
    # The order sits once in the table and once in the LSI (its orderDate is its LSI sort key).
    columns = {e.find_element(By.XPATH, "./ancestor::section[1]").get_attribute("aria-label") for e in selected}
    assert columns == {"Table", "LSI ByOrderDate"}, columns

    lsi = css(window, '[data-testid="table-screen-CustomerOrders"] section[aria-label="LSI ByOrderDate"]')
    lsi.find_element(By.XPATH, './/button[normalize-space()="Query"]').click()
    WebDriverWait(window, 90).until(lambda d: lsi.find_elements(By.CSS_SELECTOR, ".side-read-note"))
    note = lsi.find_element(By.CSS_SELECTOR, ".side-read-note").get_attribute("textContent")
    assert note.startswith("Read by the last query: ") and "RCU" in note, note
    section.location_once_scrolled_into_view
    screenshot(window, "indexes-lsi-gauge.png")

