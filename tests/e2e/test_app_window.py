"""End-to-end tests of the real desktop window, driven through WebDriver.

Each test starts its own window (conftest.py) and sets up what it needs through window.py:
it opens its table, runs its query, opens its section. The data folder is shared by the run
(run.sh), so the first window to start loads the demo tables.
"""

import json
import pathlib
import os
import subprocess

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import START_TIMEOUT, database_released, screenshot, start_window, window_in_environment
from test_theme import choose_theme
from window import (
    STARTUP,
    choose,
    click,
    click_xpath,
    content,
    css,
    engine_ready,
    open_section,
    open_table,
    open_view,
    present,
    settle,
    text_of,
    type_into,
    wait_for,
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA_DIR = pathlib.Path(os.environ["DYNOTABLE_DATA_DIR"])

READINGS_FROM = "TS#2025-03-14T09:00:00Z"
READINGS_TO = "TS#2025-03-14T09:59:00Z"
WINDOW_BOX = 'section[aria-label="Item collection vehicleId = VEH#V-7741"]'
WINDOW_BOX_XPATH = '//section[@aria-label="Item collection vehicleId = VEH#V-7741"]'


def workspace_version() -> str:
    metadata = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    packages = json.loads(metadata.stdout)["packages"]
    return next(p["version"] for p in packages if p["name"] == "dynotable")


def grid_rows(driver) -> list[str]:
    """The text of the item rows the collection grid has drawn (it is virtualised)."""
    return [content(r) for r in driver.find_elements(By.CSS_SELECTOR, '[role="grid"] [role="row"]')]


def fill_the_seed_window(driver, frm: str = READINGS_FROM, to: str = READINGS_TO, limit: str = "25"):
    """Opens Telemetry and fills the query bar with the seed articles' query: VEH#V-7741's
    readings between `frm` and `to`, newest first, `limit` a page (blank: no Limit). Returns the bar."""
    # The bar is shown above the views that read with it (not Settings, Stream or TTL).
    open_view(driver, "items")
    bar = present(driver, '[data-testid="table-screen-Telemetry"] [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(driver, css(bar, '[data-testid="qb-pk"]'), "VEH#V-7741", "the partition-key value")
    # The operators arrive from the backend (the ones legal for a string sort key): choose waits.
    choose(driver, css(bar, '[data-testid="qb-sort-op"]'), "BETWEEN", "the sort-key operator")
    type_into(driver, css(bar, '[data-testid="qb-sk"]'), frm, "the window's start")
    type_into(driver, css(bar, '[data-testid="qb-sk-high"]'), to, "the window's end")
    choose_order_newest_first(driver, bar)
    if limit:
        type_into(driver, css(bar, '[data-testid="qb-limit"]'), limit, "the Limit")
    return bar


def choose_order_newest_first(driver, bar) -> None:
    """Picks "descending" in the bar's Order and waits until the request the bar will send says
    so (ScanIndexForward false). WebKit's select can drop a pick when a click follows at once,
    so the pick is made again if the request did not change."""
    for _ in range(3):
        choose(driver, css(bar, 'select[aria-label="Order"]'), "descending", "the order")
        try:
            wait_for(driver, "the request to read newest first",
                     lambda d: '"ScanIndexForward": false' in content(css(bar, '[data-testid="qb-body"]')), 3)
            return
        except TimeoutException:
            continue
    raise AssertionError("the bar's request never read newest first")


def query_the_seed_window(driver, limit: str = "25"):
    """Runs the seed window from the query bar and shows it in the Items view. Returns the box."""
    bar = fill_the_seed_window(driver, limit=limit)
    screen = open_view(driver, "items")
    click(driver, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    box = present(driver, WINDOW_BOX, "VEH#V-7741's collection box")
    wait_for(driver, "the 09:59 reading in the box", lambda d: any("TS#2025-03-14T09:59:00Z" in r for r in grid_rows(d)))
    return screen, box


def test_the_window_is_dynotable(window):
    wait_for(window, "the brand heading", lambda d: d.find_elements(By.CSS_SELECTOR, "h1.brand"), STARTUP)
    assert window.title == "DynoTable"
    assert css(window, "h1.brand").text == "DynoTable"


def own_web_processes() -> dict[int, dict[str, str]]:
    """The environment of each WebKit web process started under this test's own process (its
    tauri-driver's app), by pid."""
    parents = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            pass  # a process that ended while it was read

    def ours(pid: int) -> bool:
        while pid > 1:
            if pid == os.getpid():
                return True
            pid = parents.get(pid, 1)
        return False

    found = {}
    for pid in parents:
        try:
            if (pathlib.Path(f"/proc/{pid}/comm").read_text().startswith("WebKitWebProces") and ours(pid)):
                raw = pathlib.Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                found[pid] = dict(v.decode(errors="replace").split("=", 1) for v in raw if b"=" in v)
        except OSError:
            pass
    return found


def test_the_app_starts_with_its_javascript_and_allocator_tuned_and_frames_for_this_machine(request):
    # src-tauri/src/start_env.rs: the app starts itself again with the variables it and its web
    # view need, and the web process inherits them. (A window of this test's own: run.sh's tauri-driver
    # is not under this process, so its web processes could not be told from another test's.)
    with window_in_environment(request, dict(os.environ), "tauri-driver-webkit-env.log") as driver:
        engine_ready(driver)
        web = own_web_processes()
        assert web, "no WebKit web process under this test's window"
        has_render_node = any(p.name.startswith("renderD") for p in pathlib.Path("/dev/dri").glob("*"))
        for env in web.values():
            assert env.get("JSC_useGenerationalGC") == "0"
            assert env.get("JSC_useDFGJIT") == "0"
            assert env.get("JSC_largeHeapSize") == "4000000"
            assert env.get("MALLOC_ARENA_MAX") == "1"
            assert env.get("WEBKIT_DISABLE_DMABUF_RENDERER") == (None if has_render_node else "1")
    # (The next test puts the data folder back as first launch left it: once this app let go of it.)
    database_released()


def test_the_status_bar_shows_what_app_info_returned(window):
    engine_ready(window)
    assert text_of(window, "app-version") == f"DynoTable {workspace_version()}"
    assert text_of(window, "engine-state") == "Embedded engine: ready · 6 tables"
    assert text_of(window, "data-dir") == f"Data: {DATA_DIR}"
    # The engine really opened its database file inside the data folder the app reported.
    assert (DATA_DIR / "embedded" / "local.db").is_file()
    assert (DATA_DIR / "embedded" / "demo-loaded").is_file()


def test_the_status_bar_keeps_its_figures_whole_with_a_table_open(window):
    """At the window's size with a table open, the bar's figures are read whole: only the data
    folder's path (whole in its title) gives way to Help's buttons."""
    open_table(window, "Telemetry")
    wait_for(window, "the active connection in the status bar", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="active-connection"]'))
    cut = window.execute_script(
        """return ['active-connection', 'capacity-used', 'app-version', 'engine-state'].filter((id) => {
             const el = document.querySelector(`[data-testid="${id}"]`);
             return el === null || el.scrollWidth > el.clientWidth;
           });"""
    )
    assert cut == [], f"cut off or missing in the status bar: {cut}"
    # Whatever the engine says (while it starts, "Loading the demo tables…" is long), the
    # connection, the capacity and the version do not shrink: the data folder and the engine's
    # state give way, whole in their titles.
    shrink = window.execute_script(
        """return Object.fromEntries(['active-connection', 'capacity-used', 'app-version', 'engine-state', 'data-dir']
             .map((id) => [id, getComputedStyle(document.querySelector(`[data-testid="${id}"]`)).flexShrink]));"""
    )
    assert shrink == {"active-connection": "0", "capacity-used": "0", "app-version": "0", "engine-state": "1", "data-dir": "1"}, shrink
    assert css(window, '[data-testid="engine-state"]').get_attribute("title").startswith("Embedded engine: ready · ")
    help_button = css(window, '[data-testid="help-updates"]')
    assert window.execute_script("const r = arguments[0].getBoundingClientRect(); return r.right <= window.innerWidth;", help_button)


def test_the_sidebar_lists_connections_and_tests_the_embedded_one(window):
    """The embedded profile is listed first; its Test connection runs a real ListTables through
    aws-sdk-dynamodb handed to the engine in-process. The AWS profiles are the ones run.sh wrote."""
    engine_ready(window)
    present(window, '[data-testid="connection-embedded"]', "the embedded connection")
    assert "Embedded engine · local" in text_of(window, "connection-embedded")
    present(window, '[data-testid="aws-profile-e2e-sso"]', "the e2e-sso profile from run.sh's AWS config")
    assert "IAM Identity Center · eu-west-1" in text_of(window, "aws-profile-e2e-sso")
    assert "access keys" in text_of(window, "aws-profile-e2e-keys")

    click_xpath(window, '//*[@data-testid="connection-embedded"]//button[normalize-space()="Test connection"]', "Test connection")
    present(window, '[data-testid="connection-result"]', "the connection test's result")
    assert text_of(window, "connection-result") == "Connected: ListTables answered."


def test_the_sidebar_folds_to_a_rail_at_a_small_window_and_stays_folded_after_a_restart(window):
    """At 1024×680 the sidebar gives its width to the table screen: "Hide sidebar" (or Ctrl+B)
    folds it to a rail whose one button shows it again, and the choice outlives a restart."""
    window.set_window_rect(width=1024, height=680)
    wait_for(window, "the 1024 px window", lambda d: d.execute_script("return window.innerWidth") <= 1024)
    open_table(window, "Telemetry")
    screen = '[data-testid="table-screen-Telemetry"]'
    width = lambda d: d.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().width", screen)
    before = width(window)
    toggle = present(window, '[data-testid="sidebar-toggle"]', "the sidebar's toggle")
    assert toggle.get_attribute("aria-label") == "Hide sidebar" and toggle.get_attribute("aria-expanded") == "true"
    click(window, toggle, "Hide sidebar")
    wait_for(window, "the folded sidebar", lambda d: css(d, '[data-testid="sidebar-toggle"]').get_attribute("aria-expanded") == "false")
    rail = window.execute_script("return document.querySelector('nav.sidebar').getBoundingClientRect().width")
    assert rail < 60, rail
    after = wait_for(window, "the table screen to widen", lambda d: (lambda w: w if w > before + 200 else None)(width(d)))
    assert not css(window, "#" + toggle.get_attribute("aria-controls")).is_displayed()
    settle()
    screenshot(window, "sidebar-folded-1024.png")

    # Ctrl+B shows it again, and folds it again.
    ActionChains(window).key_down(Keys.CONTROL).send_keys("b").key_up(Keys.CONTROL).perform()
    wait_for(window, "the sidebar shown", lambda d: css(d, '[data-testid="sidebar-toggle"]').get_attribute("aria-expanded") == "true")
    assert present(window, 'input[placeholder^="Search"]', "the table search").is_displayed()
    ActionChains(window).key_down(Keys.CONTROL).send_keys("b").key_up(Keys.CONTROL).perform()
    wait_for(window, "the sidebar folded again", lambda d: css(d, '[data-testid="sidebar-toggle"]').get_attribute("aria-expanded") == "false")

    window.quit()
    database_released()
    again = start_window(START_TIMEOUT)
    try:
        engine_ready(again)
        toggle = present(again, '[data-testid="sidebar-toggle"]', "the sidebar's toggle after the restart")
        assert toggle.get_attribute("aria-expanded") == "false" and toggle.get_attribute("aria-label") == "Show sidebar"
        click(again, toggle, "Show sidebar")
        wait_for(again, "the table list", lambda d: d.find_element(By.XPATH, '//nav//*[normalize-space()="Telemetry"]').is_displayed())
    finally:
        again.quit()
    assert after > before


def test_open_telemetry_query_a_window_newest_first_and_page_through_it(window):
    """The seed articles' query, followed page by page to the end of the window."""
    open_table(window, "Telemetry")
    present(window, '[data-testid="table-screen-Telemetry"] [data-testid="table-key-chips"]', "Telemetry's key chips")
    assert text_of(window, "table-key-chips") == "vehicleId S · partitionrecordedAt S · sort"
    # What DescribeTable says is in the Settings view.
    open_view(window, "settings")
    assert text_of(window, "table-keys") == "vehicleId (S, partition) + recordedAt (S, sort)"
    settle()
    screenshot(window, "table-overview.png")

    _, box = query_the_seed_window(window)
    rows = [r for r in grid_rows(window) if "TS#2025-03-14T09:" in r]
    # Newest first: 09:59 before 09:58.
    assert rows[0].find("09:59") >= 0 and rows[1].find("09:58") >= 0, rows[:2]
    assert "The last page ended before the collection did." in content(box)
    screenshot(window, "collection-first-page.png")

    for pages in (2, 3):
        click_xpath(window, '//button[contains(., "Load more")]', f"Load more (for page {pages})")
        wait_for(window, f"page {pages} in the box", lambda d: f"{pages} pages" in content(css(d, WINDOW_BOX)))
    # 25 + 25 + 10: the window holds sixty readings; the last page ends with the window.
    assert "60 items · 3 pages" in content(css(window, WINDOW_BOX))
    assert not window.find_elements(By.XPATH, '//button[contains(., "Load more")]')
    # The grid is virtualised: go to its end to see the last page's mark.
    grid = css(window, f'{WINDOW_BOX} [role="grid"]')
    click(window, grid, "the collection grid")
    grid.send_keys(Keys.END)
    wait_for(window, "the end-of-collection mark", lambda d: "End of collection" in content(css(d, WINDOW_BOX)))
    text = content(css(window, WINDOW_BOX))
    assert "Page 2 · 25 items · Limit reached" in text or "Page 3 · 10 items · End of collection" in text, text
    screenshot(window, "collection-paged.png")


def test_the_items_read_sort_by_a_column_and_columns_can_be_hidden(window):
    """Items view: a click on speedKph sorts the window's readings in the app, highest first (the
    grid says so and drops its page marks); Columns… hides one."""
    _, box = query_the_seed_window(window)
    click_xpath(window, f'{WINDOW_BOX_XPATH}//*[@role="columnheader"]//button[normalize-space()="speedKph"]', "the speedKph column's name")
    present(window, f'{WINDOW_BOX} [data-testid="collection-sorted"]', "the note that the grid is sorted in the app")
    # The rows drawn, in the order drawn: each speed no higher than the one above it.
    read = """
      const grid = arguments[0].querySelector('[role="grid"]');
      const names = [...grid.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent.trim());
      const at = names.indexOf('speedKph ↓');
      return [...grid.querySelectorAll('.item-row')]
        .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
        .map((r) => r.querySelectorAll('[role="rowheader"], [role="gridcell"]')[at].textContent);"""
    speeds = window.execute_script(read, box)
    numbers = [float(v) for v in speeds if v not in ("—", "")]
    assert len(numbers) >= 10 and numbers == sorted(numbers, reverse=True), speeds
    assert "Sorted in the app by speedKph, highest first" in content(css(box, '[data-testid="collection-sorted"]'))
    assert not box.find_elements(By.CSS_SELECTOR, '[data-testid^="page-mark-"]')

    click(window, css(box, ".column-chooser > summary"), "Columns…")
    first = css(box, '.column-chooser label')
    hidden = content(first).strip()
    columns = lambda d: [content(h).strip() for h in box.find_elements(By.CSS_SELECTOR, '[role="grid"] [role="columnheader"]')]
    assert any(c.split(" ")[0] == hidden for c in columns(window)), (hidden, columns(window))
    click(window, css(first, 'input[type="checkbox"]'), f"the {hidden} column's checkbox")
    wait_for(window, "a column hidden", lambda d: "of" in content(css(box, ".column-chooser > summary")))
    # The column is gone from the grid: its name from the header, a cell from every row.
    assert not any(c.split(" ")[0] == hidden for c in columns(window)), (hidden, columns(window))
    screenshot(window, "items-sorted.png")


def test_the_items_view_before_any_query_offers_the_largest_collection_in_one_click(window):
    """Point 3: the Items view, opened before anything was run, says how to fill it and offers
    the table's largest collection; one click reads VEH#V-7741 there, META first, in a grid that
    fills the view under its actions."""
    open_table(window, "Telemetry")
    screen = open_view(window, "items")
    empty = present(screen, '[data-testid="items-empty"]', "the Items view's empty state")
    offer = wait_for(window, "the largest collection offered", lambda d: empty.find_elements(By.CSS_SELECTOR, '[data-testid="items-open-largest"]'))[0]
    assert content(offer) == "Read the largest collection, vehicleId = VEH#V-7741", content(offer)
    click(window, offer, "the offer")
    box = present(window, WINDOW_BOX, "VEH#V-7741's collection box")
    wait_for(window, "META first in the box", lambda d: (lambda rows: rows and content(rows[0]) == "META")(box.find_elements(By.CSS_SELECTOR, '[role="grid"] [role="rowheader"]')))
    # The view fills its panel: the grid takes the height the actions leave and scrolls itself,
    # so reading down the page never carries the actions (or the bar) out of sight.
    layout = """
      const box = arguments[0];
      const view = box.closest('.view-panel');
      const grid = box.querySelector('.collection-scroll');
      return { actions: view.querySelector('.item-actions').getBoundingClientRect().toJSON(), grid: grid.getBoundingClientRect().toJSON(),
               box: box.getBoundingClientRect().toJSON(),
               gridOverflow: grid.scrollHeight - grid.clientHeight, view: view.getBoundingClientRect().toJSON(),
               viewOverflow: view.scrollHeight - view.clientHeight, viewScroll: view.scrollTop };"""
    before = window.execute_script(layout, box)
    assert before["viewOverflow"] <= 1 and before["gridOverflow"] > 1000, before
    # The box (its grid, then its "next page" footer) ends at the view's bottom.
    assert abs(before["view"]["bottom"] - before["box"]["bottom"]) <= 2 and before["grid"]["height"] > 200, before
    window.execute_script("const g = arguments[0].querySelector('.collection-scroll'); g.dispatchEvent(new WheelEvent('wheel', {deltaY: 2000, bubbles: true})); g.scrollTop += 2000;", box)
    wait_for(window, "the grid scrolled", lambda d: d.execute_script("return arguments[0].querySelector('.collection-scroll').scrollTop", box) > 1000)
    after = window.execute_script(layout, box)
    assert after["actions"] == before["actions"] and after["viewScroll"] == 0, (before, after)


def test_a_reading_copied_with_ctrl_c_pastes_back_as_its_dynamodb_json(window):
    """Point 3's keyboard: Ctrl+C on the selected row copies the item as DynamoDB JSON through the
    window's real clipboard; pasted into "Paste items…", it reads as that one item."""
    _, box = query_the_seed_window(window)
    grid = css(box, '[role="grid"]')
    click(window, grid, "the collection grid")
    grid.send_keys(Keys.HOME)
    grid.send_keys(Keys.CONTROL, "c")
    notice = wait_for(window, "the copy notice", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="copy-notice"]'))
    assert "DynamoDB JSON" in content(notice[0]), content(notice[0])
    click_xpath(window, '//button[normalize-space()="Paste items…"]', "Paste items…")
    area = present(window, 'textarea[aria-label="Pasted items"]', "the paste area")
    click(window, area, "the paste area")
    area.send_keys(Keys.CONTROL, "v")
    pasted = wait_for(window, "the pasted text", lambda d: area.get_attribute("value") or None)
    item = json.loads(pasted)
    # The newest reading of the window (newest first): its keys as DynamoDB JSON, typed.
    assert item["vehicleId"] == {"S": "VEH#V-7741"} and item["recordedAt"] == {"S": "TS#2025-03-14T09:59:00Z"}, pasted
    assert all(len(value) == 1 for value in item.values()), pasted
    click_xpath(window, '//section[@aria-label="Paste items"]//button[normalize-space()="Check"]', "Check")
    summary = content(present(window, '[data-testid="paste-summary"]', "what the paste would put"))
    assert summary.startswith("1 item read as DynamoDB JSON"), summary


def test_edit_a_reading_and_see_the_change(window):
    """Enter on the selected reading opens the editor; the save goes out with the condition that
    the item is as it was seen, and the box shows the new value."""
    _, box = query_the_seed_window(window)
    grid = css(box, '[role="grid"]')
    click(window, grid, "the collection grid")
    grid.send_keys(Keys.HOME)
    grid.send_keys(Keys.ENTER)
    editor = present(window, 'section[aria-label^="Edit item vehicleId = VEH#V-7741"]', "the item editor")
    speed = css(editor, '[aria-label="Value of speedKph"]')
    # A value no earlier run wrote, so the grid's change is this test's own.
    new_speed = "123" if "123" != speed.get_attribute("value") else "124"
    type_into(window, speed, new_speed, "speedKph")
    # The sort key is read whole in its field (it was cut after "T09:5" in a narrower dialog).
    sort_key = css(editor, '[aria-label="Value of recordedAt"]')
    assert window.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth;", sort_key)
    screenshot(window, "item-editor.png")
    click_xpath(window, '//section[starts-with(@aria-label, "Edit item")]//button[normalize-space()="Save"]', "the editor's Save")
    confirm = present(window, '[role="alertdialog"]', "the save confirmation")
    assert "Save item vehicleId = VEH#V-7741, recordedAt = TS#2025-03-14T09:59:00Z?" in content(confirm)
    click_xpath(window, './/button[normalize-space()="Save"]', "the confirmation's Save", scope=confirm)
    present(window, '[data-testid="write-notice"]', "the write notice")
    # 1 WCU for the table and 1 for the ByDepot GSI: this reading carries a depotCode, and the
    # index projects ALL attributes, so the new speed rewrites its index entry too (rule B.3).
    assert text_of(window, "write-notice") == "Saved: 2 WCU consumed."
    wait_for(window, f"the grid to show speed {new_speed}", lambda d: any("09:59" in r and new_speed in r for r in grid_rows(d)))
    assert "WCU" in text_of(window, "capacity-used")
    screenshot(window, "collection-after-edit.png")


def test_the_cost_of_the_query_is_estimated_and_reconciled(window):
    """After the window query ran, the cost panel shows the estimate from the engine's statistics
    beside what DynamoDB (here the engine, through the SDK) reported."""
    query_the_seed_window(window)
    section = open_section(window, "section-cost")
    present(window, '[data-testid="first-page-units"]', "the first page's units")
    wait_for(window, "the reported capacity", lambda d: "After it ran" in content(section))
    text = content(section)
    # The window's first page was read eventually consistent: what the engine reported is what
    # the estimator computed from the same rules.
    assert "The reported capacity equals the estimate." in text, text[:600]
    assert "N × GetItem" in text and "BatchGetItem" in text and "Scan + filter" in text
    window.execute_script("arguments[0].scrollIntoView({block: 'start'})", section)
    settle()
    screenshot(window, "cost-panel.png")


def test_the_bar_writes_the_seed_window_with_placeholders_and_runs_it_newest_first(window):
    """The query bar makes `vehicleId = :v AND recordedAt BETWEEN :from AND :to` with the
    builder's placeholders, shows it before it runs, runs it newest first, and the Items view
    draws the result as the collection's dashed box; the code view exports the same request."""
    bar = fill_the_seed_window(window, to="TS#2025-03-14T09:09:00Z", limit="")
    wait_for(window, "the generated BETWEEN expression",
             lambda d: " BETWEEN :" in content(css(bar, '[data-testid="qb-key-expression"]')))
    open_view(window, "items")
    click(window, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    box = present(window, WINDOW_BOX, "VEH#V-7741's collection box")
    wait_for(window, "10 items in the box", lambda d: "10 items" in content(css(d, WINDOW_BOX)))
    readings = [r for r in grid_rows(window) if "TS#2025-03-14T09:0" in r]
    assert readings and "09:09" in readings[0], readings[:2]
    section = open_section(window, "section-builder")
    wait_for(window, "the exported code", lambda d: "recordedAt BETWEEN" in content(css(section, '[data-testid="code"]')))
    window.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    settle()
    screenshot(window, "query-builder.png")


def test_the_indexes_side_by_side_show_the_sparse_gsi(window):
    """Telemetry's items as the table and its ByDepot GSI hold them, side by side: readings
    without a depotCode are absent from the GSI, with the reason."""
    section = open_section(window, "section-indexes")
    wait_for(window, "the ByDepot column", lambda d: section.find_elements(By.CSS_SELECTOR, 'section[aria-label="GSI ByDepot"]'))
    wait_for(window, "the items not in the index", lambda d: "Not in this index" in content(section))
    text = content(section)
    assert "GSI ByDepot" in text and "Projection" in text, text[:400]
    assert "No depotCode attribute" in text, text[:800]
    # Telemetry has no LSI: no collection is measured against the 10 GB item-collection limit.
    assert not section.find_elements(By.TAG_NAME, "meter")
    window.execute_script("arguments[0].scrollIntoView({block: 'start'})", section)
    settle()
    screenshot(window, "indexes-side-by-side.png")


def test_the_history_lists_the_queries_run_on_the_table(window):
    """The backend records the window query when its first page runs; the history lists it."""
    query_the_seed_window(window)
    section = open_section(window, "section-history")
    wait_for(window, "an entry in Recent queries", lambda d: section.find_elements(By.CSS_SELECTOR, '[aria-label="Recent queries"] li'))
    recent = content(css(section, '[aria-label="Recent queries"]'))
    # The bar's request, with its expressions written out.
    assert ('vehicleId = "VEH#V-7741" AND recordedAt BETWEEN "TS#2025-03-14T09:00:00Z" AND "TS#2025-03-14T09:59:00Z"'
            ' · descending · Limit 25') in recent, recent
    # The Collections view read a box for every collection it drew (20 rows each, in key order):
    # none of those reads is in the history, which holds the queries the user ran.
    lines = [li.text for li in section.find_elements(By.CSS_SELECTOR, '[aria-label="Recent queries"] li')]
    assert not [line for line in lines if "ascending · Limit 20" in line], lines
    # Long lines (the request in the list, the exported code above it) wrap or scroll in their own
    # box: the table screen does not scroll sideways.
    assert window.execute_script(
        "const s = document.querySelector('[data-testid=\"table-screen-Telemetry\"]').parentElement;"
        " return s.scrollWidth <= s.clientWidth;"
    )
    window.execute_script("arguments[0].scrollIntoView({block: 'start'})", section)
    settle()
    screenshot(window, "query-history.png")


def test_the_lsi_table_side_by_side_gauges_selection_and_an_index_query(window):
    """CustomerOrders has an LSI: each base collection carries its size against the 10 GB limit.
    Selecting an order marks it in the table's column and in the LSI's; a Query on an LSI
    collection run from the view says which collection it read."""
    section = open_section(window, "section-indexes", table="CustomerOrders")
    screen = '[data-testid="table-screen-CustomerOrders"]'
    wait_for(window, "entries in the LSI column",
             lambda d: section.find_elements(By.CSS_SELECTOR, 'section[aria-label="LSI ByOrderDate"] button.side-entry'))
    gauges = section.find_elements(By.CSS_SELECTOR, 'meter[aria-label="Collection size against the 10 GB limit"]')
    assert gauges, content(section)[:600]
    assert " of 10 GB (" in content(section)

    table_column = css(window, f'{screen} section[aria-label="Table"]')
    entry = css(table_column, "button.side-entry")
    item = entry.get_attribute("data-item")
    click(window, entry, "the first order in the table's column")
    selected = wait_for(window, "the order marked in both columns", lambda d: (
        lambda found: found if len(found) >= 2 else None
    )(section.find_elements(By.CSS_SELECTOR, f'button.side-entry[data-item="{item}"][aria-pressed="true"]')))
    # The order sits once in the table and once in the LSI (its orderDate is its LSI sort key).
    columns = {e.find_element(By.XPATH, "./ancestor::section[1]").get_attribute("aria-label") for e in selected}
    assert columns == {"Table", "LSI ByOrderDate"}, columns

    lsi = css(window, f'{screen} section[aria-label="LSI ByOrderDate"]')
    click_xpath(window, './/button[normalize-space()="Query"]', "the LSI column's Query", scope=lsi)
    wait_for(window, "the LSI column's read note", lambda d: lsi.find_elements(By.CSS_SELECTOR, ".side-read-note"))
    note = content(css(lsi, ".side-read-note"))
    assert note.startswith("Read by the last query: ") and "RCU" in note, note
    window.execute_script("arguments[0].scrollIntoView({block: 'start'})", section)
    settle()
    screenshot(window, "indexes-lsi-gauge.png")


def test_the_shortcut_sheet_opens_with_question_mark_lists_every_key_and_closes_with_escape(window):
    """Point 3's keyboard: "?" anywhere but in a field opens the sheet of every shortcut, grouped
    by where each works; Escape closes it. (What each key does is tested where it works.)"""
    open_table(window, "Telemetry")
    present(window, '[data-testid="table-screen-Telemetry"] [data-testid="collection-run-box"]', "the first collection boxes")
    sheet_css = '[role="dialog"].sheet'
    try:
        for theme in ("light", "dark"):
            choose_theme(window, theme)
            click(window, css(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-tab-collections"]'), "the Collections view's tab")
            ActionChains(window).send_keys("?").perform()
            sheet = present(window, sheet_css, "the shortcut sheet")
            assert content(css(sheet, "h2")) == "Keyboard shortcuts"
            # It opens at its top, where the list begins (the focus is on Close, at its end).
            assert window.execute_script("return arguments[0].scrollTop", sheet) == 0
            rows = {r.get_attribute("data-shortcut"): content(r) for r in sheet.find_elements(By.CSS_SELECTOR, "tr[data-shortcut]")}
            for shortcut in ("run-query", "next-page", "go-to-view", "move-box", "enter-box", "open-row", "whole-box", "move-change", "clear-selection"):
                assert shortcut in rows, (shortcut, sorted(rows))
            assert "Ctrl" in rows["run-query"] and "Enter" in rows["run-query"], rows["run-query"]
            # Every key is inside the sheet: none is cut off at its right edge.
            overflow = window.execute_script(
                "const s = arguments[0].getBoundingClientRect();"
                "return [...arguments[0].querySelectorAll('kbd')].filter((k) => k.getBoundingClientRect().right > s.right - 1).map((k) => k.textContent);",
                sheet)
            assert overflow == [], overflow
            assert window.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", sheet)
            settle(0.3)
            screenshot(window, "shortcut-sheet.png" if theme == "light" else "shortcut-sheet-dark.png")
            ActionChains(window).send_keys(Keys.ESCAPE).perform()
            wait_for(window, "the sheet to close", lambda d: not d.find_elements(By.CSS_SELECTOR, sheet_css))
    finally:
        choose_theme(window, "system")
