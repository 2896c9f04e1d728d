"""End-to-end tests of the start screen in the real window: the demo story's steps each open the
real table on the real view with the real request; the screen can be dismissed and comes back
from the status bar's "Start screen" button.

Each test starts its own window as on first launch (conftest.py: the demo tables loaded, the web
view's storage empty), so the screen is on show when it opens; once a step has opened a view, a
test that needs the screen again asks Help for it.
"""

from selenium.webdriver.common.by import By

from conftest import START_TIMEOUT, database_released, screenshot, start_window
from test_collections_view import screenshots_light_and_dark
from window import click, click_css, content, css, engine_ready, present, settle, wait_for

START = '[data-testid="start-screen"]'


def start_screen(window):
    """The start screen on show, brought back from Help if a step put a view in front of it."""
    present(window, '[data-testid="help-start"]', "Help's start screen entry")
    if not [e for e in window.find_elements(By.CSS_SELECTOR, START) if e.is_displayed()]:
        click_css(window, '[data-testid="help-start"]', "Help: Start screen")
    screen = present(window, START, "the start screen")
    wait_for(window, "the steps enabled (engine and demo tables ready)",
             lambda d: all(b.is_enabled() for b in screen.find_elements(By.CSS_SELECTOR, ".start-step-open")))
    return screen


def step(window, number: int):
    screen = start_screen(window)
    button = screen.find_elements(By.CSS_SELECTOR, ".start-step-open")[number - 1]
    click(window, button, f"step {number}")


def test_the_start_screen_walks_the_demo_story_into_the_real_views(window):
    """Step 1 opens Telemetry's Collections view on VEH#V-7741's box, META before its readings;
    step 3 regroups the same view by ByDepot; step 2 runs the ten-minute window and shows its
    cost; step 4 shows CustomerOrders' LSI gauges; step 5 flags VEH#V-7741 as a hot partition."""
    screen = start_screen(window)
    titles = [content(h) for h in screen.find_elements(By.CSS_SELECTOR, ".start-step h2")]
    assert titles == [
        "One vehicle's item collection",
        "A ten-minute window, newest first",
        "The same readings, regrouped by a GSI",
        "The 10 GB limit of a table with an LSI",
        "A hot partition",
    ], titles
    screenshots_light_and_dark(window, "start-screen")

    step(window, 1)
    telemetry = '[data-testid="table-screen-Telemetry"]'
    marked = f'{telemetry} [data-testid="collection-run-box"][data-key="VEH#V-7741"].run-box-marked'
    present(window, marked, "VEH#V-7741's box, marked")

    def first_rows(d):
        box = css(d, marked)
        rows = [content(th) for th in box.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"] [role="rowheader"]')]
        return rows if len(rows) > 2 else None

    rows = wait_for(window, "VEH#V-7741's rows", first_rows)
    assert rows[0] == "META" and all(r.startswith("TS#") for r in rows[1:]), rows

    # Back to the start screen (the status bar's "Start screen" button brings it to the front) for the next step.
    step(window, 3)
    wait_for(window, "the run grouped by ByDepot",
             lambda d: css(d, f'{telemetry} [data-testid="collections-group-by"]').get_attribute("value") == "ByDepot")
    note = content(present(window, f'{telemetry} [data-testid="collections-index-note"]', "the index note"))
    assert "ByDepot" in note and "sparse" in note, note

    step(window, 2)
    wait_for(window, "the Cost view selected",
             lambda d: css(d, f'{telemetry} [data-testid="view-tab-cost"]').get_attribute("aria-selected") == "true")
    # The RCU arithmetic: 09:00 to 09:10 is 11 readings, about 1 KB, one page, rounded up to one
    # 4 KB block: half a unit eventually consistent; and what the Query consumed says the same.
    units = content(present(window, f'{telemetry} [data-testid="first-page-units"]', "the window's estimated RCU"))
    assert units == "0.5 RCU", units
    cost_view = content(css(window, f'{telemetry} [data-testid="section-cost"]'))
    assert "11 items, 1,027 bytes in all" in cost_view and "rounds up to 4 KB once per page" in cost_view, cost_view[:600]
    ran = wait_for(window, "the window's Query run", lambda d: (lambda t: t if " returned of " in t else None)(content(css(d, f'{telemetry} [data-testid="qb-summary"]'))))
    assert ran.startswith("11 returned of 11 read · 1 page · 0.5 RCU"), ran
    settle()
    screenshot(window, "start-step-window-cost.png")

    # Step 3 again, after the window's Query of VEH#V-7741: the vehicle id is not looked for among
    # the depots, the bar reads ByDepot as the run is grouped, and the run opens at its first depot,
    # whose first rows are its vehicles' META items.
    step(window, 3)
    wait_for(window, "the bar reading ByDepot",
             lambda d: css(d, f'{telemetry} [data-testid="qb-index"]').get_attribute("value") == "ByDepot")
    assert css(window, f'{telemetry} [data-testid="qb-pk"]').get_attribute("value") == ""
    first_depot = f'{telemetry} .collections-slot[data-index="0"] [data-testid="collection-run-box"]'

    def depot_rows(d):
        boxes = d.find_elements(By.CSS_SELECTOR, first_depot)
        rows = [content(th) for box in boxes for th in box.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"] [role="rowheader"]')]
        return rows if rows else None

    rows = wait_for(window, "the first depot's rows", depot_rows)
    assert rows[0] == "META", rows
    assert not window.find_elements(By.CSS_SELECTOR, f'{telemetry} [data-testid="collections-not-found"]')

    step(window, 4)
    orders = '[data-testid="table-screen-CustomerOrders"]'
    wait_for(window, "CustomerOrders' Indexes view selected",
             lambda d: css(d, f'{orders} [data-testid="view-tab-indexes"]').get_attribute("aria-selected") == "true")
    present(window, f'{orders} meter[aria-label="Collection size against the 10 GB limit"]', "an LSI gauge")

    # Step 5: the hot partition. Telemetry's Cost view, its hot-partition check set to 50,000
    # reads a second spread as the items are: VEH#V-7741 (1,441 of 10,710 items) is flagged.
    step(window, 5)
    wait_for(window, "Telemetry's Cost view selected again",
             lambda d: css(d, f'{telemetry} [data-testid="view-tab-cost"]').get_attribute("aria-selected") == "true")
    hot = f'{telemetry} section[aria-label="Hot partitions"]'
    reads = css(window, hot).find_element(By.XPATH, './/label[text()="Reads per second"]/following-sibling::input')
    assert reads.get_attribute("value") == "50000", reads.get_attribute("value")
    flagged = wait_for(window, "the hot key flagged", lambda d: [
        content(r) for r in d.find_elements(By.CSS_SELECTOR, f'{hot} [data-testid="hot-key"].hot-row-over')
    ])
    assert len(flagged) == 1 and flagged[0].startswith("VEH#V-7741") and "Throttles" in flagged[0], flagged
    assert content(css(window, f'{hot} .hot-summary')).startswith("1 key would throttle."), content(css(window, f'{hot} .hot-summary'))
    # Brought into view for the user to see.
    assert window.execute_script("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight;", css(window, hot))
    settle()
    screenshot(window, "start-step-hot-partition.png")


def shown(driver) -> bool:
    return bool([e for e in driver.find_elements(By.CSS_SELECTOR, START) if e.is_displayed()])


def test_the_start_screen_opens_on_first_launch_stays_dismissed_and_comes_back_from_help(window):
    """First launch shows the screen unasked; dismissed, it stays away when the app is started
    again; the status bar's "Start screen" button brings it back."""
    present(window, START, "the start screen on first launch")
    click_css(window, '[data-testid="start-dismiss"]', "Dismiss")
    wait_for(window, "the start screen gone", lambda d: not shown(d))

    window.quit()
    database_released()
    again = start_window(START_TIMEOUT)
    try:
        engine_ready(again)
        present(again, '[data-testid="help-start"]', "Help's start screen entry")
        assert not shown(again), "the dismissed start screen came back on the next launch"
        click_css(again, '[data-testid="help-start"]', "Help: Start screen")
        present(again, START, "the start screen again")
    finally:
        again.quit()
