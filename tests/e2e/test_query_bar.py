"""The query bar in the real window (issue 17, point 2): one bar above every view of a table's
tab. A Query typed into it reads exactly one box of the Collections view: that box is
highlighted with the Query's own rows and its page cut, the others fade, and the request the
builder generated (expression, names, values) is shown before and after it runs."""

import re

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import screenshot
from test_collections_view import screenshots_light_and_dark
from test_app_window import choose_order_newest_first
from test_theme import choose_theme
from window import choose, click, click_xpath, content, css, open_table, open_view, present, settle, type_into, wait_for

SCREEN = '[data-testid="table-screen-Telemetry"]'
READ_BOX = f'{SCREEN} [data-testid="collection-run-box"][data-key="VEH#V-7741"]'


def test_a_between_window_from_the_bar_highlights_its_one_box_and_shows_the_request(window):
    open_table(window, "Telemetry")
    # The Collections view is the first view: its boxes are there before any query.
    present(window, f'{SCREEN} [data-testid="collection-run-box"]', "the first collection boxes")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    pk = css(bar, '[data-testid="qb-pk"]')
    type_into(window, pk, "VEH#V-7741", "the partition-key value")
    choose(window, css(bar, '[data-testid="qb-sort-op"]'), "BETWEEN", "the sort-key operator")
    # begins_with is offered: recordedAt is a string key (rule B.5).
    assert "begins_with" in [o.get_attribute("value") for o in bar.find_elements(By.CSS_SELECTOR, '[data-testid="qb-sort-op"] option')]
    type_into(window, css(bar, '[data-testid="qb-sk"]'), "TS#2025-03-14T09:00:00Z", "the window's start")
    type_into(window, css(bar, '[data-testid="qb-sk-high"]'), "TS#2025-03-14T09:09:00Z", "the window's end")
    choose_order_newest_first(window, bar)
    # Ctrl+Enter runs it from the keyboard.
    css(bar, '[data-testid="qb-sk-high"]').send_keys(Keys.CONTROL, Keys.ENTER)

    # The run is virtualised and redraws boxes as they settle: every box is read in one look.
    look = """
      return [...document.querySelectorAll(arguments[0])].map((b) => ({
        key: b.dataset.key, read: b.dataset.read || null, opacity: getComputedStyle(b).opacity,
        note: b.querySelector('[data-testid="box-read-note"]')?.textContent || null,
        cut: b.querySelector('[data-testid="box-cut"]')?.textContent || null,
        rows: [...b.querySelectorAll('[data-testid="box-row"]')].map((r) => r.textContent),
      }));"""
    boxes = wait_for(window, "the read box highlighted with its page cut", lambda d: (
        lambda found: found if any(b["key"] == "VEH#V-7741" and b["read"] == "read" and b["cut"] for b in found) else None
    )(d.execute_script(look, f'{SCREEN} [data-testid="collection-run-box"]')))
    read = next(b for b in boxes if b["key"] == "VEH#V-7741")
    assert read["cut"].startswith("Page 1 · 10 returned of 10 read · end of the key range"), read["cut"]
    rows = read["rows"]
    assert len(rows) == 10 and rows[0].startswith("TS#2025-03-14T09:09:00Z") and rows[-1].startswith("TS#2025-03-14T09:00:00Z"), rows
    assert read["note"] == "The query reads this collection, and only this one."
    # Every other box drawn is faded.
    others = [b for b in boxes if b["key"] != "VEH#V-7741"]
    assert others and all(b["read"] == "faded" and float(b["opacity"]) < 0.5 for b in others), others
    # The box read is brought to the top of the run under the foot of the box before it, faded:
    # the run goes on above it, one collection after another.
    place = """
      const run = document.querySelector(arguments[0]).getBoundingClientRect();
      const boxes = [...document.querySelectorAll(arguments[1])].map((b) => ({ key: b.dataset.key, read: b.dataset.read || null,
                                                                             top: b.getBoundingClientRect().top, bottom: b.getBoundingClientRect().bottom }));
      const read = boxes.find((b) => b.key === 'VEH#V-7741');
      const above = boxes.find((b) => b.bottom > run.top + 10 && b.bottom <= read.top);
      return { gap: read.top - run.top, above: above ? above.read : null };"""
    wait_for(window, "the read box under the foot of a faded neighbour", lambda d: (
        lambda p: 20 <= p["gap"] <= 60 and p["above"] == "faded"
    )(d.execute_script(place, f'{SCREEN} [data-testid="collections-run"]', f'{SCREEN} [data-testid="collection-run-box"]')))
    summary = content(css(bar, '[data-testid="qb-summary"]'))
    assert summary.startswith("10 returned of 10 read · 1 page · ") and "RCU" in summary, summary
    # Beside the run, what this read cost: reported beside the same page's estimate (they agree on
    # the embedded engine), and the same ten readings read by a Scan with a filter or by GetItems
    # (Telemetry's 988,741 bytes in one 1 MB page: 121 RCU; ten GetItems, each its own 4 KB: 5 RCU).
    card = present(window, f'{SCREEN} [data-testid="this-read"]', "the This read card beside the run")
    wait_for(window, "the estimate beside what was reported", lambda d: content(css(card, '[data-testid="this-read-estimated"]')).endswith("✓"))
    reported = content(css(card, '[data-testid="this-read-reported"]'))
    assert reported.endswith(" RCU · 1 page") and content(css(card, '[data-testid="this-read-estimated"]')) == f"{reported} ✓", content(card)
    assert content(css(card, '[data-testid="this-read-items"]')) == "10 / 10 items", content(card)
    assert content(css(card, '[data-testid="this-read-scan"]')) == "121 RCU", content(card)
    assert content(css(card, '[data-testid="this-read-gets"]')) == "5 RCU", content(card)
    run = css(window, f'{SCREEN} [data-testid="collections-run"]').rect
    assert card.rect["x"] >= run["x"] + run["width"], (card.rect, run)
    # Under it, the collection the Query read as the table holds it: 1,441 of Telemetry's items,
    # the largest of its 300 collections, and no 10 GB limit (Telemetry has no LSI).
    collection = present(window, f'{SCREEN} [data-testid="collection-card"]', "the collection's card under This read")
    wait_for(window, "the collection's figures", lambda d: content(css(collection, '[data-testid="collection-card-size"]')).startswith("1,441 items"))
    assert content(css(collection, "h3")) == "Collection VEH#V-7741", content(collection)
    assert content(css(collection, '[data-testid="collection-card-rank"]')) == "the largest of 300 collections by size", content(collection)
    assert content(css(collection, '[data-testid="collection-card-limit"]')).startswith("No LSI on Telemetry"), content(collection)
    assert collection.rect["y"] >= card.rect["y"] + card.rect["height"], (collection.rect, card.rect)
    screenshots_light_and_dark(window, "collections-this-read-and-collection")

    # The request as the builder generated it: placeholders for the key names' values.
    request = css(bar, '[data-testid="qb-request"]')
    click(window, css(request, "summary"), "the request disclosure")
    key = content(css(bar, '[data-testid="qb-key-expression"]'))
    assert key.startswith("vehicleId = :") and " AND recordedAt BETWEEN :" in key, key
    generated = css(request, '[aria-label="Generated KeyConditionExpression"]')
    values = content(css(generated, '[data-testid="generated-values"]'))
    assert '{"S":"VEH#V-7741"}' in values and '{"S":"TS#2025-03-14T09:09:00Z"}' in values, values
    # Each placeholder is drawn on one line (they were broken mid-name: ":recordedAt_fr" over "om").
    lines = window.execute_script(
        """return [...arguments[0].querySelectorAll('[data-testid="generated-values"] dt')].map((dt) => {
             const range = document.createRange(); range.selectNodeContents(dt);
             return [dt.textContent, range.getClientRects().length];
           });""",
        generated,
    )
    assert lines and all(n == 1 for _, n in lines), lines
    body = content(css(request, '[data-testid="qb-body"]'))
    assert '"ScanIndexForward": false' in body and '"ReturnConsumedCapacity": "INDEXES"' in body, body
    wait_for(window, "the request as code", lambda d: "aws dynamodb query" in content(css(request, '[data-testid="code"]')))

    try:
        for theme in ("light", "dark"):
            choose_theme(window, theme)
            window.execute_script("document.querySelector(arguments[0])?.scrollIntoView({block: 'start'})", READ_BOX)
            settle(0.5)
            screenshot(window, f"query-bar-read-box-{theme}.png")
            window.execute_script("arguments[0].scrollIntoView({block: 'start'})", bar)
            settle(0.3)
            screenshot(window, f"query-bar-request-{theme}.png")
    finally:
        choose_theme(window, "system")


def test_a_filtered_query_draws_what_its_filter_dropped_struck_through_in_the_box_it_read(window):
    """Rule B.4: a filter runs after the read, so the items it drops were read and paid for. On
    the embedded engine the box the Query read draws them in their places, struck through, and
    says what the page cost for all of them."""
    open_table(window, "Telemetry")
    present(window, f'{SCREEN} [data-testid="collection-run-box"]', "the first collection boxes")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), "VEH#V-7741", "the partition-key value")
    choose(window, css(bar, '[data-testid="qb-sort-op"]'), "BETWEEN", "the sort-key operator")
    # Half an hour of V-7741's minute readings: a quarter of the demo readings carry no depotCode
    # (taken in the yard), so attribute_exists(depotCode) drops some of them.
    type_into(window, css(bar, '[data-testid="qb-sk"]'), "TS#2025-03-14T09:00:00Z", "the window's start")
    type_into(window, css(bar, '[data-testid="qb-sk-high"]'), "TS#2025-03-14T09:29:00Z", "the window's end")
    click(window, css(bar, '[data-testid="qb-add-filter"]'), "Add filter")
    path = present(window, f'{SCREEN} [data-testid="query-bar"] .qb-expression input.path-input', "the filter's attribute")
    type_into(window, path, "depotCode", "the filter's attribute")
    wait_for(window, "the request to carry attribute_exists(depotCode)",
             lambda d: '"FilterExpression": "attribute_exists(depotCode)"' in content(css(bar, '[data-testid="qb-body"]')))
    click(window, css(bar, '[data-testid="qb-run"]'), "Run")

    # The box's lines are virtualised in the run's scroll: read the ones in sight, a screen at a
    # time, by their row index, until the page's cut has been seen.
    look = """
      const box = document.querySelector(arguments[0]);
      if (!box) return null;
      const rows = [...box.querySelectorAll('[data-testid="box-row"], [data-testid="box-row-dropped"]')];
      return {
        rows: rows.map((r) => ({ at: Number(r.getAttribute('aria-rowindex')), dropped: r.dataset.testid === 'box-row-dropped',
                                  sk: r.querySelector('[role="rowheader"]')?.textContent || '',
                                  struck: getComputedStyle(r.querySelector('[role="rowheader"]')).textDecorationLine })),
        line: box.querySelector('[data-testid="box-dropped"]')?.textContent || null,
        cut: box.querySelector('[data-testid="box-cut"]')?.textContent || null,
      };"""
    # The line that says what the filter dropped follows the page's rows: it is drawn once it
    # is near the run's sight, so the run is turned down until it is (the run's height, and so
    # how many rows are drawn at once, depends on the window).
    wheel = """const run = document.querySelector(arguments[0]);
        run.dispatchEvent(new WheelEvent('wheel', {deltaY: 300, bubbles: true})); run.scrollTop += 300;"""
    run_css = f'{SCREEN} [data-testid="collections-run"]'

    def dropped_drawn(d):
        seen = d.execute_script(look, READ_BOX)
        if seen and seen["line"] and "drawn struck through" in seen["line"]:
            return seen
        if seen and seen["rows"] and not seen["line"]:
            d.execute_script(wheel, run_css)
        return None

    wait_for(window, "the dropped readings read back in the read box", dropped_drawn)
    window.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", READ_BOX)
    rows: dict[int, dict] = {}
    found = {"line": None, "cut": None}

    def read_down_to_the_cut(d):
        settle(0.3)  # the rows the last turn brought into sight are drawn
        seen = d.execute_script(look, READ_BOX)
        rows.update({r["at"]: r for r in seen["rows"]})
        found["line"] = found["line"] or seen["line"]
        found["cut"] = found["cut"] or seen["cut"]
        if found["cut"]:
            return True
        # A turn of the wheel (which also ends the hold that keeps the read box in place).
        d.execute_script(wheel, run_css)
        return False

    wait_for(window, "the page's cut, reading down the read box", read_down_to_the_cut)
    line, cut = found["line"], found["cut"]
    in_order = [rows[k] for k in sorted(rows)]
    dropped = [r for r in in_order if r["dropped"]]
    returned = [r for r in in_order if not r["dropped"]]
    # The page says how many it returned of how many it read: the rows drawn are exactly those.
    assert cut and cut.startswith(f"Page 1 · {len(returned)} returned of 30 read"), (cut, in_order)
    assert len(in_order) == 30 and dropped, in_order
    assert line.startswith(f"{len(dropped)} {'item' if len(dropped) == 1 else 'items'} read but not returned"), line
    # Each dropped reading where it was read: the rows are the window's 30 minutes in order.
    minutes = [r["sk"].removeprefix("Dropped by the filter: ") for r in in_order]
    assert minutes == [f"TS#2025-03-14T09:{m:02d}:00Z" for m in range(30)], minutes
    assert all("line-through" in r["struck"] for r in dropped) and not any("line-through" in r["struck"] for r in returned), in_order
    settle(0.5)
    screenshots_light_and_dark(window, "query-bar-dropped-rows")


def test_ctrl_enter_and_ctrl_j_run_the_query_and_read_its_next_page_from_anywhere_in_the_tab(window):
    """Point 3's keyboard: with the focus on the view strip, not in the bar, Ctrl+Enter runs the
    bar's Query and Ctrl+J reads its next page."""
    open_table(window, "Telemetry")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), "VEH#V-7741", "the partition-key value")
    type_into(window, css(bar, '[data-testid="qb-limit"]'), "10", "the Limit")
    tab = css(window, f'{SCREEN} [data-testid="view-tab-collections"]')
    click(window, tab, "the Collections view's tab")
    ActionChains(window).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    first = wait_for(window, "the first page", lambda d: (lambda t: t if " returned of " in t else None)(content(css(bar, '[data-testid="qb-summary"]'))))
    assert first.startswith("10 returned of 10 read · 1 page · "), first
    ActionChains(window).key_down(Keys.CONTROL).send_keys("j").key_up(Keys.CONTROL).perform()
    second = wait_for(window, "the second page", lambda d: (lambda t: t if "2 pages" in t else None)(content(css(bar, '[data-testid="qb-summary"]'))))
    assert second.startswith("20 returned of 20 read · 2 pages · "), second


def test_ctrl_enter_pressed_as_a_typed_filter_is_still_being_checked_runs_that_filter(window):
    """A filter typed in the text mode is checked a moment after the last key (a debounced parse):
    Ctrl+Enter pressed at once waits for the check and then runs the text typed, not the filter the
    bar held before. attribute_not_exists(depotCode) keeps the quarter of V-7741's readings taken in
    the yard; the filter before it, attribute_exists(depotCode), the other three quarters."""
    open_table(window, "Telemetry")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), "VEH#V-7741", "the partition-key value")
    click(window, css(bar, '[data-testid="qb-add-filter"]'), "Add filter")
    path = present(window, f'{SCREEN} [data-testid="query-bar"] .qb-expression input.path-input', "the filter's attribute")
    type_into(window, path, "depotCode", "the filter's attribute")
    wait_for(window, "the request to carry attribute_exists(depotCode)",
             lambda d: '"FilterExpression": "attribute_exists(depotCode)"' in content(css(bar, '[data-testid="qb-body"]')))
    click_xpath(window, '//*[@data-testid="query-bar"]//button[@role="tab"][normalize-space()="Text"]', "the filter's Text mode", scope=bar)
    text = present(window, f'{SCREEN} [data-testid="query-bar"] textarea.expression-text', "the filter's text")
    wait_for(window, "the text mode to hold the filter", lambda d: text.get_attribute("value") == "attribute_exists(depotCode)")
    click(window, text, "the filter's text")
    text.send_keys(Keys.CONTROL, "a")
    text.send_keys("attribute_not_exists(depotCode)")
    # At once, in the same stroke of keys: the check has not answered yet.
    ActionChains(window).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    summary = wait_for(window, "the Query's page", lambda d: (lambda t: t if " returned of " in t else None)(content(css(bar, '[data-testid="qb-summary"]'))))
    returned, read = (int(n.replace(",", "")) for n in re.match(r"([\d,]+) returned of ([\d,]+) read", summary).groups())
    assert read == 1441 and 0 < returned and returned * 2 < read, summary
    assert '"FilterExpression": "attribute_not_exists(depotCode)"' in content(css(bar, '[data-testid="qb-body"]'))


def test_the_cost_view_estimates_the_read_the_bar_is_set_to_and_keeps_the_query_that_ran_last(window):
    """Estimated before, reported after: once a Query has run and the bar is set to a Scan, the
    Cost view estimates that Scan before it runs, and the Query that ran last keeps its estimate
    beside what DynamoDB reported, under its own heading."""
    open_table(window, "Telemetry")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), "VEH#V-7741", "the partition-key value")
    type_into(window, css(bar, '[data-testid="qb-limit"]'), "10", "the Limit")
    css(bar, '[data-testid="qb-limit"]').send_keys(Keys.CONTROL, Keys.ENTER)
    wait_for(window, "the Query's page", lambda d: " returned of " in content(css(bar, '[data-testid="qb-summary"]')))
    click(window, css(bar, '[role="radiogroup"][aria-label="Operation"] label:nth-child(2)'), "Scan")
    cost_view = open_view(window, "cost")
    units = wait_for(window, "the Scan's estimate", lambda d: cost_view.find_elements(By.CSS_SELECTOR, '[data-testid="scan-estimate-units"]'))[0]
    assert content(units) == "121 RCU to scan Telemetry whole, eventually consistent", content(units)
    last = present(window, f'{SCREEN} [data-testid="cost-last-read"]', "the Query that ran last")
    assert content(css(last, "h3")) == "The Query that ran last", content(last)
    wait_for(window, "the last Query's estimate beside what it reported", lambda d: "After it ran" in content(last))
    assert "RCU for the first page" in content(last), content(last)
    screenshots_light_and_dark(window, "cost-scan-and-last-query")


def test_the_partition_key_completes_a_typed_start_from_the_whole_run(window):
    """Point 2: the partition-key field completes from the collection statistics: typed
    "VEH#V-29", it offers the keys that start with it, in key order, from the whole run of 300
    (not only the largest 50)."""
    open_table(window, "Telemetry")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    pk = css(bar, '[data-testid="qb-pk"]')
    type_into(window, pk, "VEH#V-29", "the start of a key")
    list_id = pk.get_attribute("list")
    options = wait_for(window, "the keys offered", lambda d: (lambda values: values if values and all(v.startswith("VEH#V-29") for v in values) else None)(
        d.execute_script("return [...document.getElementById(arguments[0]).options].map((o) => o.value)", list_id)))
    assert options == sorted(options, key=lambda v: v.encode("utf-8")), options
    assert len(set(options)) == len(options), options


def test_a_query_for_a_key_with_no_collection_says_so_in_the_collections_view(window):
    """Point 2: a Query for a partition-key value no item has reads no box; the view says so
    rather than fading every box with nothing highlighted."""
    open_table(window, "Telemetry")
    present(window, f'{SCREEN} [data-testid="collection-run-box"]', "the first collection boxes")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), "VEH#V-0000", "a partition-key value no item has")
    css(bar, '[data-testid="qb-pk"]').send_keys(Keys.CONTROL, Keys.ENTER)
    note = wait_for(window, "the view's note", lambda d: d.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="collections-not-found"]'))
    assert content(note[0]) == "No collection vehicleId = VEH#V-0000: no item of Telemetry has this key, so a Query for it returns nothing.", content(note[0])
    summary = wait_for(window, "the bar's summary", lambda d: content(css(bar, '[data-testid="qb-summary"]')) or None)
    assert summary.startswith("0 returned of 0 read"), summary


def test_a_scan_from_the_bar_walks_every_collection_and_shows_what_it_returned_in_one_flat_grid(window):
    """Point 2 and 3: a Scan from the bar reads every collection with its progress and cost; the
    Items view draws the items it returned as one flat grid across collections (the partition key
    in the margin), which sorts like a collection's."""
    open_table(window, "Telemetry")
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    click(window, css(bar, '[role="radiogroup"][aria-label="Operation"] label:nth-child(2)'), "Scan")
    click(window, css(bar, '[data-testid="qb-add-filter"]'), "Add filter")
    path = present(window, f'{SCREEN} [data-testid="query-bar"] .qb-expression input.path-input', "the filter's attribute")
    type_into(window, path, "depotCode", "the filter's attribute")
    wait_for(window, "the request to be a Scan with attribute_exists(depotCode)", lambda d: (
        lambda body: '"FilterExpression": "attribute_exists(depotCode)"' in body and '"KeyConditionExpression"' not in body
    )(content(css(bar, '[data-testid="qb-body"]'))))
    # Before it runs, the Cost view says what the Scan will cost: every item read, the filter
    # notwithstanding (Telemetry's 988,741 bytes in one 1 MB page: 242 blocks of 4 KB, 121 RCU).
    cost_view = open_view(window, "cost")
    units = wait_for(window, "the Scan's estimate", lambda d: cost_view.find_elements(By.CSS_SELECTOR, '[data-testid="scan-estimate-units"]'))[0]
    assert content(units) == "121 RCU to scan Telemetry whole, eventually consistent", content(units)
    assert "does not lower this" in content(css(cost_view, '[data-testid="scan-estimate-filter"]'))
    items_view = open_view(window, "items")
    click(window, css(bar, '[data-testid="qb-run"]'), "Run Scan")
    wait_for(window, "the scan to read every collection",
             lambda d: "the scan read every collection" in content(css(d, f'{SCREEN} [data-testid="scan-summary"]')), 60)
    progress = content(css(window, f'{SCREEN} [data-testid="scan-progress"]'))
    returned = int(progress.split(" returned")[0].split("· ")[-1].replace(",", ""))
    assert "10,710 of about 10,710 items read" in progress and 0 < returned < 10_710, progress

    grid = present(window, f'{SCREEN} section[aria-label="Items the Scan of Telemetry returned"]', "the scan's flat grid")
    assert content(css(grid, ".collection-summary")).startswith(f"{returned:,} items"), content(css(grid, ".collection-summary"))
    # (textContent: WebKitWebDriver reports no rendered text for a header whose name is in a
    # clipped, full-width button, though it is drawn.)
    headers = [content(h) for h in grid.find_elements(By.CSS_SELECTOR, '[role="columnheader"]')]
    assert headers[:3] == ["vehicleId", "recordedAt", "commissioned"] or headers[:2] == ["vehicleId", "recordedAt"], headers
    margins = {r.text for r in grid.find_elements(By.CSS_SELECTOR, '[role="rowheader"]')}
    # The grid is virtualised: its last rows, of another collection, are drawn at its end.
    scroller = css(grid, '[role="grid"]')
    click(window, scroller, "the scan's grid")
    scroller.send_keys(Keys.END)
    wait_for(window, "the grid's last rows", lambda d: {r.text for r in grid.find_elements(By.CSS_SELECTOR, '[role="rowheader"]')} - margins)
    margins |= {r.text for r in grid.find_elements(By.CSS_SELECTOR, '[role="rowheader"]')}
    assert len(margins) >= 2, f"the grid holds items of several collections: {margins}"
    # What the filter dropped was read and paid for: the view says how many.
    dropped = content(css(items_view, '[data-testid="scan-dropped"]'))
    assert dropped.startswith(f"{10_710 - returned:,} items read but not returned"), dropped
    # The grid, then the collections the Scan met, one under the other (the panel scrolls).
    grid_bottom, results_top = window.execute_script(
        "return [arguments[0].getBoundingClientRect().bottom, document.querySelector(arguments[1]).getBoundingClientRect().top]",
        css(grid, '[role="grid"]'), f'{SCREEN} [data-testid="scan-results"]')
    assert grid_bottom <= results_top + 1, (grid_bottom, results_top)
    screenshots_light_and_dark(window, "items-scan-flat")
    # The Collections view: the scan read the whole table, so every box drawn is marked read, none
    # faded as unread, its filter notwithstanding; each says what the scan returned from it.
    open_view(window, "collections")
    marks = wait_for(window, "the boxes the scan read", lambda d: [
        (b.get_attribute("data-read"), content(css(b, '[data-testid="box-walked-note"]')) if b.find_elements(By.CSS_SELECTOR, '[data-testid="box-walked-note"]') else None)
        for b in d.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="collection-run-box"]')
    ])
    assert all(read == "walked" and note is not None and (note.startswith("The scan returned ") or note == "The scan read this collection; its filter returned none of it.") for read, note in marks), marks
    # Beside the run, what the Scan read and returned and what it reported, beside the whole scan's estimate.
    card = present(window, f'{SCREEN} [data-testid="this-read"]', "the This read card beside the run")
    assert content(css(card, '[data-testid="this-read-items"]')) == f"10,710 / {returned:,} items", content(card)
    assert content(css(card, '[data-testid="this-read-estimated"]')) == "121 RCU", content(card)
    assert content(css(card, '[data-testid="this-read-reported"]')).endswith(" RCU · 1 page"), content(card)
