"""End-to-end tests of the table screen's Collections view and its strip of views, in the real
window: a table opens onto its item collections, one dashed box per partition-key value in key
order, each headed by its full key, count, size and whole-read cost, its items inside in sort-key
order (VEH#V-7741's META before its TS# readings); views are tabs that keep their state.

Each test starts its own window (conftest.py) and opens what it needs through window.py.
"""

import re
import time


from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import screenshot
from window import choose, click, click_css, click_xpath, content, css, open_table, open_view, present, settle, type_into, wait_for

RUN_BOX = '[data-testid="collection-run-box"]'


def run_boxes(view):
    """The boxes the (virtualised) run has drawn, as (key, element)."""
    return [(b.get_attribute("data-key"), b) for b in view.find_elements(By.CSS_SELECTOR, RUN_BOX)]


def drawn_rows(box) -> list[str]:
    """The sort-key values of the rows a box has drawn."""
    return [content(th) for th in box.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"] [role="rowheader"]')]


def column_names(box) -> list[str]:
    """The column headers of a box's rows (the sort key first)."""
    return [content(th) for th in box.find_elements(By.CSS_SELECTOR, '[role="columnheader"]')]


def screenshots_light_and_dark(driver, name: str) -> None:
    """`name`.png in the light theme and `name`-dark.png in the dark one, then the theme as a new
    user has it (following the system) for the tests after this one."""
    def choose(choice: str) -> None:
        for _ in range(3):
            if content(css(driver, '[data-testid="theme-toggle"]')).endswith(f"Theme: {choice}"):
                return
            click_css(driver, '[data-testid="theme-toggle"]', "the theme toggle")

    try:
        choose("light")
        settle()
        screenshot(driver, f"{name}.png")
        choose("dark")
        settle()
        screenshot(driver, f"{name}-dark.png")
    finally:
        choose("system")


def press_alt(driver, digit: str) -> None:
    ActionChains(driver).key_down(Keys.ALT).send_keys(digit).key_up(Keys.ALT).perform()


def test_telemetry_opens_onto_its_collections_in_key_order(window):
    """The first view is Collections: boxes in DynamoDB's key order (strings by UTF-8 bytes), each
    headed by its whole key (never shortened), item count, size and the RCU to read it whole."""
    screen = open_table(window, "Telemetry")
    tab = css(screen, '[data-testid="view-tab-collections"]')
    assert tab.get_attribute("aria-selected") == "true" and tab.get_attribute("role") == "tab"
    view = present(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-collections"]', "the Collections view")
    wait_for(window, "boxes in the run", lambda d: len(run_boxes(view)) >= 2)
    # The run is virtualised and redraws boxes as they load: every box's header is read in one
    # look, and the look is taken again if a box was redrawn under it.
    def headers(d):
        return [
            (key, content(css(box, "h3")), content(css(box, '[data-testid="box-cost"]')),
             content(css(box, '[data-testid="box-figures"]')))
            for key, box in run_boxes(view)
        ]

    boxes = wait_for(window, "the boxes' headers", headers)
    keys = [key for key, *_ in boxes]
    assert keys == sorted(keys, key=lambda k: k.encode("utf-8")), keys
    for key, heading, cost, figures in boxes:
        assert heading == f"vehicleId = {key}", heading
        assert "…" not in heading
        match = re.fullmatch(r"whole: ([\d.,]+) RCU eventual · ([\d.,]+) strong", cost)
        assert match, cost
        assert re.search(r"\d[\d,]* items? · ", figures), figures
    # The header's figures are what DynamoDB reports: a Query of the first box's whole collection
    # returns its item count, and consumes the RCU the header said (eventually consistent).
    first_key, _, first_cost, first_figures = boxes[0]
    eventual = re.fullmatch(r"whole: ([\d.,]+) RCU eventual · .*", first_cost).group(1)
    count = re.match(r"([\d,]+) items?", first_figures).group(1)
    bar = present(window, '[data-testid="table-screen-Telemetry"] [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), first_key, "the first box's key")
    css(bar, '[data-testid="qb-pk"]').send_keys(Keys.CONTROL, Keys.ENTER)
    summary = wait_for(window, "the Query's summary", lambda d: (lambda t: t if " returned of " in t else None)(content(css(bar, '[data-testid="qb-summary"]'))))
    assert summary.startswith(f"{count} returned of {count} read · 1 page · {eventual} RCU"), (summary, first_cost, first_figures)
    # The first box's items are read as it comes into view.
    wait_for(window, "the first box's rows", lambda d: drawn_rows(run_boxes(view)[0][1]))
    figures = content(css(window, '[data-testid="table-screen-Telemetry"] [data-testid="table-figures"]'))
    assert "collections" in figures and "GSI ByDepot" in figures and "on-demand" in figures, figures
    screenshots_light_and_dark(window, "collections-view")


def test_the_query_bar_stays_in_sight_above_the_run_as_it_scrolls(window):
    """One query bar above every view: the table's header, the bar and the strip of views keep
    their places, and the view takes the rest of the window. The Collections view's run fills it
    to the bottom and scrolls itself, so reading down the boxes, by the wheel or the keyboard,
    never carries the bar out of sight; another view scrolls inside its own panel."""
    screen = open_table(window, "Telemetry")
    view = present(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-collections"]', "the Collections view")
    wait_for(window, "boxes in the run", lambda d: len(run_boxes(view)) >= 2)
    layout = """
      const screen = document.querySelector(arguments[0]);
      const rect = (sel) => { const e = screen.querySelector(sel); return e ? e.getBoundingClientRect().toJSON() : null; };
      const panel = screen.closest('.tab-panel');
      const shown = [...screen.querySelectorAll('.view-panel')].find((p) => !p.hidden);
      return { bar: rect('[data-testid="query-bar"]'), strip: rect('[role="tablist"]'), run: rect('[data-testid="collections-run"]'),
               panel: panel.getBoundingClientRect().toJSON(), panelScroll: panel.scrollTop, panelOverflow: panel.scrollHeight - panel.clientHeight,
               view: shown.getBoundingClientRect().toJSON(), viewOverflow: shown.scrollHeight - shown.clientHeight, window: innerHeight };"""
    sel = '[data-testid="table-screen-Telemetry"]'
    before = window.execute_script(layout, sel)
    # Nothing around the table screen scrolls, and the run reaches the panel's bottom.
    assert before["panelOverflow"] <= 1, before
    assert abs(before["run"]["bottom"] - before["view"]["bottom"]) <= 2 and before["run"]["height"] > 300, before
    # Down the run by the wheel, then by the keyboard from a row far down: the bar stays put.
    window.execute_script("""const run = document.querySelector(arguments[0]);
        run.dispatchEvent(new WheelEvent('wheel', {deltaY: 4000, bubbles: true})); run.scrollTop += 4000;""",
                          f'{sel} [data-testid="collections-run"]')
    row = wait_for(window, "rows of a box far down the run", lambda d: [
        r for _, b in run_boxes(view) for r in b.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"]')])[-1]
    run_top = lambda d: d.execute_script("return document.querySelector(arguments[0]).scrollTop", f'{sel} [data-testid="collections-run"]')
    by_wheel = run_top(window)
    assert by_wheel > 3000, by_wheel
    window.execute_script("arguments[0].focus()", row)
    for _ in range(5):
        ActionChains(window).send_keys(Keys.PAGE_DOWN).perform()
        settle(0.2)
    wait_for(window, "the run scrolled further by the keyboard", lambda d: run_top(d) > by_wheel)
    after = window.execute_script(layout, sel)
    assert after["panelScroll"] == 0 and after["bar"] == before["bar"] and after["strip"] == before["strip"], (before, after)
    assert 0 <= after["bar"]["top"] and after["bar"]["bottom"] < after["window"], after
    # Another view, longer than the window: it scrolls inside its panel, under the same bar.
    open_view(window, "cost")
    # (Its figures arrive after the view is shown: longer than the window once they are in.)
    cost = wait_for(window, "the Cost view longer than its panel", lambda d: (
        lambda c: c if c["viewOverflow"] > 0 else None)(window.execute_script(layout, sel)))
    assert cost["panelOverflow"] <= 1, cost
    window.execute_script("[...document.querySelectorAll(arguments[0])].find((p) => !p.hidden).scrollTop = 10000", f"{sel} .view-panel")
    scrolled = window.execute_script(layout, sel)
    assert scrolled["bar"] == before["bar"] and scrolled["panelScroll"] == 0, scrolled


def test_the_map_opens_veh_v_7741s_box_meta_before_its_readings(window):
    """A click on VEH#V-7741 in the map brings its box into view, marked: META sorts before
    every TS# reading, and the attributes present are the columns."""
    open_view(window, "collections")
    click_css(window, '[data-testid="table-screen-Telemetry"] [data-testid="toggle-map"]', "Show the map")
    target = present(window, '[data-testid="table-screen-Telemetry"] .collection-map button[aria-label^="vehicleId = VEH#V-7741:"]',
                     "VEH#V-7741 in the map")
    settle()
    # Point 4: every box's label is read whole in its box, and no two boxes read alike (a narrow
    # box leaves out "VEH#V-", which the legend names).
    labels = window.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((l) => [l.textContent, l.scrollWidth <= l.clientWidth + 1])",
        '[data-testid="table-screen-Telemetry"] .collection-map .map-box-key',
    )
    assert len(labels) > 50 and all(fits for _, fits in labels), [l for l in labels if not l[1]]
    assert len({text for text, _ in labels}) == len(labels), sorted(text for text, _ in labels)
    assert not any(text.startswith("…") for text, _ in labels), labels
    legend = content(css(window, '[data-testid="table-screen-Telemetry"] [data-testid="map-legend"]'))
    assert "leaves out VEH#V-" in legend, legend
    # Pointed at, a box shows its card beside it: the whole key, count, size, share of the table.
    ActionChains(window).move_to_element(target).perform()
    card = wait_for(window, "the box's card", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="table-screen-Telemetry"] [data-testid="map-card"]'))[0]
    assert content(css(card, ".map-card-key")) == "vehicleId = VEH#V-7741", content(card)
    assert "1,441 items · " in content(card) and "13.5 % of the table" in content(card), content(card)
    screenshots_light_and_dark(window, "collection-map")
    click(window, target, "VEH#V-7741 in the map")
    marked = f'[data-testid="table-screen-Telemetry"] {RUN_BOX}[data-key="VEH#V-7741"].run-box-marked'
    present(window, marked, "VEH#V-7741's box, marked")
    # The run is virtualised: a box may be drawn anew as the run settles, so it is found each time.
    def drawn(d):
        # Scrolled to as a person would look at it: the run reads the boxes in its sight. Rows,
        # columns and the "more" line are read in the same look.
        box = css(d, marked)
        d.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", box)
        rows = drawn_rows(box)
        if len(rows) <= 2:
            return None
        columns = column_names(box)
        return rows, columns, content(css(box, '[data-testid="box-more"]'))

    rows, columns, more = wait_for(window, "VEH#V-7741's rows", drawn)
    assert rows[0] == "META", rows[:3]
    assert all(r.startswith("TS#") for r in rows[1:]), rows
    assert rows[1:] == sorted(rows[1:]), rows
    assert columns[0] == "recordedAt" and "plate" in columns and "speedKph" in columns, columns
    assert "more items in this collection" in more
    box = css(window, marked)
    window.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    screenshots_light_and_dark(window, "collections-veh-v-7741")


def test_a_box_shown_whole_reads_on_as_its_rows_come_into_sight(window):
    """VEH#V-7741 holds 1,441 items: its box draws the first rows; "Show them here" draws every
    item in sort-key order (W on the focused box), read from the engine page after page (Query
    with ExclusiveStartKey) as the run scrolls through it, until the whole collection is read."""
    open_view(window, "collections")
    click_css(window, '[data-testid="table-screen-Telemetry"] [data-testid="toggle-map"]', "Show the map")
    target = present(window, '[data-testid="table-screen-Telemetry"] .collection-map button[aria-label^="vehicleId = VEH#V-7741:"]',
                     "VEH#V-7741 in the map")
    click(window, target, "VEH#V-7741 in the map")
    box_css = f'[data-testid="table-screen-Telemetry"] {RUN_BOX}[data-key="VEH#V-7741"]'
    run = css(window, '[data-testid="table-screen-Telemetry"] [data-testid="collections-run"]')
    # A turn of the wheel by a screen of the run.
    wheel = """const run = arguments[0], dy = run.clientHeight;
               run.dispatchEvent(new WheelEvent('wheel', {deltaY: dy, bubbles: true})); run.scrollTop += dy;"""
    # The map focuses the box it revealed; W shows the focused box whole (its "Show them here"
    # button does the same: vitest clicks it).
    present(window, f"{box_css}:focus", "VEH#V-7741's box revealed and focused")
    ActionChains(window).send_keys("w").perform()
    present(window, f"{box_css} [data-testid='whole-rows']", "VEH#V-7741 shown whole")
    # The map put away, so the run has the window's height to scroll the box through.
    click_css(window, '[data-testid="table-screen-Telemetry"] [data-testid="toggle-map"]', "Hide the map")
    present(window, f"{box_css} [data-testid='whole-rows']", "VEH#V-7741 shown whole")

    # A person scrolling down through the box with the wheel, a screen at a time, waiting for the
    # rows in sight to be read before scrolling on, until rows past the first page of 500 are drawn.
    def in_sight(d):
        """The box's rows drawn in the run's sight, as (row number, sort key), and how many of them
        are not read yet, in one look. None while the rows drawn are not yet those of the scroll
        position (the window draws after the scroll, later on a loaded machine)."""
        found = d.execute_script(
            """const box = document.querySelector(arguments[0]), run = arguments[1];
               if (box === null) return null;
               const sight = run.getBoundingClientRect();
               const seen = [...box.querySelectorAll('[data-row]')].filter((r) => {
                 const at = r.getBoundingClientRect();
                 return at.bottom > sight.top && at.top < sight.bottom;
               });
               if (seen.length === 0) return null;
               const read = seen.filter((r) => r.getAttribute('data-testid') === 'box-row');
               return [read.map((r) => [Number(r.getAttribute('data-row')), r.querySelector('[role="rowheader"]').textContent]),
                       seen.length - read.length];""",
            box_css, run)
        if found is None:
            return None
        numbered, pending = found
        return [(int(n), key) for n, key in numbered], pending

    def deep_rows(d):
        found = in_sight(d)
        if found is None or found[1]:
            return None
        numbered = found[0]
        if numbered and max(n for n, _ in numbered) > 600:
            return numbered
        d.execute_script(wheel, run)
        return None

    rows = wait_for(window, "rows past the first page read on", deep_rows, timeout=120)
    keys = [key for _, key in sorted(rows)]
    assert all(k.startswith("TS#") for k in keys), keys[:3]
    assert keys == sorted(keys), keys
    # The header stays in sight while the rows scroll by.
    header = css(window, f"{box_css} .run-box-header")
    placed = window.execute_script(
        """const r = arguments[0].getBoundingClientRect(), s = arguments[1].getBoundingClientRect();
           return {header: [r.top, r.bottom], run: [s.top, s.bottom], inSight: r.top >= s.top - 1 && r.bottom <= s.bottom};""",
        header, run)
    assert placed["inSight"], placed
    screenshots_light_and_dark(window, "collections-box-whole")

    def read_to_the_end(d):
        status = content(css(d, f"{box_css} [data-testid='whole-status']"))
        if status.startswith("All "):
            return status
        found = in_sight(d)
        if found is not None and not found[1]:
            d.execute_script(wheel, run)
        return None

    assert wait_for(window, "the whole collection read", read_to_the_end, timeout=120) == "All 1,441 items read."


def test_a_table_without_a_sort_key_says_why_it_has_no_collections(window):
    """People's key is PersonID alone: one item per key, and the view says so."""
    view = open_view(window, "collections", table="People")
    note = present(window, '[data-testid="table-screen-People"] [data-testid="collections-simple-key"]', "the simple-key note")
    assert "People has no sort key" in content(note)

    # The run is virtualised and redraws its boxes as they load: the first box is found anew at
    # each look, and its rows counted in the same look.
    def rows_of_the_first_box(d):
        boxes = run_boxes(view)
        return boxes and len(boxes[0][1].find_elements(By.CSS_SELECTOR, '[data-testid="box-row"]'))

    assert wait_for(window, "a person in People's first box", rows_of_the_first_box) == 1
    screenshots_light_and_dark(window, "collections-simple-key")


def test_views_are_tabs_that_keep_their_state_and_switch_with_the_keyboard(window):
    """Alt+2 shows Items; a query run there is still there after a visit to another view; the
    arrow keys move between the tabs; ↓ moves between the boxes of the run."""
    screen = open_table(window, "Telemetry")
    wait_for(window, "the Collections view's boxes", lambda d: screen.find_elements(By.CSS_SELECTOR, RUN_BOX))
    press_alt(window, "2")
    items_tab = css(screen, '[data-testid="view-tab-items"]')
    wait_for(window, "Alt+2 to select Items", lambda d: items_tab.get_attribute("aria-selected") == "true")
    bar = present(window, '[data-testid="table-screen-Telemetry"] [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), "VEH#V-7741", "the partition-key value")
    click(window, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    box = present(window, 'section[aria-label="Item collection vehicleId = VEH#V-7741"]', "VEH#V-7741's collection box")

    press_alt(window, "7")
    wait_for(window, "Alt+7 to show Settings", lambda d: css(screen, '[data-testid="view-settings"]').is_displayed())
    assert not box.is_displayed()
    press_alt(window, "2")
    wait_for(window, "Items shown again", lambda d: box.is_displayed())
    # The same element: the view was hidden, not rebuilt.
    assert "VEH#V-7741" in content(box)

    collections_tab = css(screen, '[data-testid="view-tab-collections"]')
    click(window, collections_tab, "the Collections tab")

    def arrow_selects(key, from_tab, to_tab):
        # One key press on the focused tab selects its neighbour. On a loaded machine the press
        # may land while the view just shown is still drawing: pressed again only from the tab
        # it starts on, so a late press cannot carry the selection past the neighbour unseen.
        def pressed(d) -> bool:
            if to_tab.get_attribute("aria-selected") == "true":
                return True
            if from_tab.get_attribute("aria-selected") != "true":
                click(d, from_tab, "the tab the arrow starts from")
            d.execute_script("arguments[0].focus()", from_tab)
            from_tab.send_keys(key)
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                if to_tab.get_attribute("aria-selected") == "true":
                    return True
                time.sleep(0.1)
            return False
        return pressed

    wait_for(window, "→ to select Items", arrow_selects(Keys.ARROW_RIGHT, collections_tab, items_tab))
    wait_for(window, "← to select Collections", arrow_selects(Keys.ARROW_LEFT, items_tab, collections_tab))

    view = css(screen, '[data-testid="view-collections"]')
    wait_for(window, "the run's boxes drawn again", lambda d: len(run_boxes(view)) >= 2)

    def down_moves_to_the_next_box(d) -> bool:
        # The Query run above brings its box into view, and the run draws its boxes anew as it
        # scrolls there: read the keys in one go, and start again if a box was drawn anew
        # between two steps (a stale element is retried by wait_for).
        keys = d.execute_script(
            "return [...arguments[0].querySelectorAll('[data-testid=collection-run-box]')].map(b => b.getAttribute('data-key'))", view
        )
        if len(keys) < 2:
            return False
        first = css(view, f'{RUN_BOX}[data-key="{keys[0]}"]')
        d.execute_script("arguments[0].focus()", first)
        first.send_keys(Keys.ARROW_DOWN)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if d.execute_script("return document.activeElement.getAttribute('data-key')") == keys[1]:
                return True
            time.sleep(0.1)
        return False

    wait_for(window, "↓ to focus the next box", down_moves_to_the_next_box)


def test_the_picker_regroups_telemetry_by_its_sparse_gsi(window):
    """Grouped by ByDepot, the same items are re-collected one box per depotCode, in key order,
    each box in recordedAt order; readings taken in the yard have no depotCode and are absent, so
    the index holds fewer items than the table; the table's keys are marked in every box."""
    open_table(window, "Telemetry")
    view = present(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-collections"]', "the Collections view")
    wait_for(window, "the table's boxes", lambda d: len(run_boxes(view)) >= 2)
    table_summary = content(css(view, '[data-testid="collections-summary"]'))
    table_match = re.match(r"300 collections in key order of vehicleId · ([\d,]+) items", table_summary)
    assert table_match, table_summary

    choose(window, css(view, '[data-testid="collections-group-by"]'), "ByDepot", "the group-by picker")
    wait_for(window, "the index note", lambda d: present(d, '[data-testid="collections-index-note"]'))
    note = content(css(view, '[data-testid="collections-index-note"]'))
    assert "re-collected by the global secondary index ByDepot" in note, note
    assert "Items without depotCode are not in it (a sparse index)" in note, note

    def depot_boxes(d):
        # Read in one look; looked at again while the run still shows the table's boxes or a box
        # has not drawn its rows yet.
        boxes = [(key, content(css(box, "h3")), drawn_rows(box), column_names(box))
                 for key, box in run_boxes(view)]
        ready = boxes and all(heading.startswith("depotCode = ") and rows for _, heading, rows, _ in boxes)
        return boxes if ready else None

    boxes = wait_for(window, "the index's boxes with their rows", depot_boxes)
    keys = [key for key, *_ in boxes]
    assert keys == sorted(keys, key=lambda k: k.encode("utf-8")), keys
    summary = content(css(view, '[data-testid="collections-summary"]'))
    match = re.match(r"(\d+) collections? in key order of depotCode · ([\d,]+) items · in ByDepot", summary)
    assert match, summary
    assert int(match.group(1)) < 300, summary
    # Sparse: the yard's readings (no depotCode) are not in the index.
    assert int(match.group(2).replace(",", "")) < int(table_match.group(1).replace(",", "")), (summary, table_summary)
    for key, heading, rows, headers in boxes:
        assert heading == f"depotCode = {key}", heading
        assert rows == sorted(rows, key=lambda r: r.encode("utf-8")), rows
        assert "vehicleIdtable key" in headers, headers
    screenshots_light_and_dark(window, "collections-by-depot")

    choose(window, css(view, '[data-testid="collections-group-by"]'), "", "the group-by picker")
    wait_for(window, "the table's run again", lambda d: content(css(view, '[data-testid="collections-summary"]')).startswith("300 collections"))


def test_the_picker_regroups_customer_orders_by_its_lsi_with_the_projected_attribute_marked(window):
    """Grouped by the LSI ByOrderDate, CustomerOrders keeps one box per customerId (an LSI shares
    the table's partition key) with the orders in orderDate order; an index entry holds the keys
    and `total` (INCLUDE), marked projected, and not the attributes left out (status, lines)."""
    open_table(window, "CustomerOrders")
    view = present(window, '[data-testid="table-screen-CustomerOrders"] [data-testid="view-collections"]', "the Collections view")
    wait_for(window, "the table's boxes", lambda d: len(run_boxes(view)) >= 2)
    table_summary = content(css(view, '[data-testid="collections-summary"]'))
    assert table_summary.startswith("100 collections in key order of customerId · 1,790 items"), table_summary
    # Point 4 on a table with an LSI: the map's card draws the 10 GB gauge of the box focused.
    click_css(window, '[data-testid="table-screen-CustomerOrders"] [data-testid="toggle-map"]', "Show the map")
    biggest = present(window, '[data-testid="table-screen-CustomerOrders"] .collection-map button[aria-label^="customerId = CUST#big:"]', "CUST#big in the map")
    window.execute_script("arguments[0].focus()", biggest)
    card = present(window, '[data-testid="table-screen-CustomerOrders"] [data-testid="map-card"]', "CUST#big's card")
    gauge = css(card, "meter")
    assert int(gauge.get_attribute("max")) == 10 * 1024 ** 3 and 0 < float(gauge.get_attribute("value")) < 10 * 1024 ** 2, gauge.get_attribute("value")
    assert "of the 10 GB item-collection limit" in content(card), content(card)
    screenshot(window, "collection-map-lsi-card.png")
    click_css(window, '[data-testid="table-screen-CustomerOrders"] [data-testid="toggle-map"]', "Hide the map")
    choose(window, css(view, '[data-testid="collections-group-by"]'), "ByOrderDate", "the group-by picker")
    note = content(present(window, '[data-testid="table-screen-CustomerOrders"] [data-testid="collections-index-note"]', "the index note"))
    assert "ByOrderDate" in note and "local secondary index" in note, note
    # An LSI shares the table's partition key: only an item without orderDate is left out.
    assert "Items without orderDate are not in it (a sparse index)" in note, note

    def order_boxes(d):
        boxes = [(key, content(css(box, "h3")), drawn_rows(box), column_names(box)) for key, box in run_boxes(view)]
        ready = boxes and all(heading.startswith("customerId = ") and rows and headers and headers[0] == "orderDate" for _, heading, rows, headers in boxes)
        return boxes if ready else None

    boxes = wait_for(window, "the index's boxes with their rows", order_boxes)
    summary = content(css(view, '[data-testid="collections-summary"]'))
    # Every order has an orderDate: the LSI holds every item, in the same 100 collections.
    assert summary.startswith("100 collections in key order of customerId · 1,790 items · in ByOrderDate"), summary
    for key, heading, rows, headers in boxes:
        assert heading == f"customerId = {key}", heading
        assert rows == sorted(rows, key=lambda r: r.encode("utf-8")), rows
        assert "orderIdtable key" in headers and "totalprojected" in headers, headers
        assert not any(h.startswith("status") or h.startswith("lines") for h in headers), headers
    screenshots_light_and_dark(window, "collections-by-order-date")


def test_boxes_are_listed_and_read_as_the_run_is_scrolled_to_its_end(window):
    """Point 1: the run lists its collections a stretch at a time (200) and reads a box's items
    when it comes into sight: scrolled to its end, Telemetry's last collections in key order are
    drawn with their rows, VEH#V-7741 (whose digits sort last) the very last."""
    open_table(window, "Telemetry")
    view = present(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-collections"]', "the Collections view")
    wait_for(window, "the first boxes' rows", lambda d: len(view.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"]')) >= 2)
    first_keys = [key for key, _ in run_boxes(view)]
    run = css(view, '[data-testid="collections-run"]')

    def at_the_end(d):
        # Scrolled as a person would, to the end again as the boxes before it are measured.
        d.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight", run)
        boxes = [(key, drawn_rows(box)) for key, box in run_boxes(view)]
        return boxes if boxes and boxes[-1][0] == "VEH#V-7741" and all(rows for _, rows in boxes) else None

    boxes = wait_for(window, "the run's last boxes, read", at_the_end, 60)
    keys = [key for key, _ in boxes]
    assert keys == sorted(keys, key=lambda k: k.encode("utf-8")), keys
    assert not set(keys) & set(first_keys), (first_keys, keys)
    # The last box's first rows: META before its readings.
    rows = dict(boxes)["VEH#V-7741"]
    assert rows[0] == "META" and all(r.startswith("TS#") for r in rows[1:]), rows


def test_a_drawn_box_is_exactly_as_tall_as_the_run_counted_it(window):
    """The run counts every box at the height its parts add up to (header, column header, rows,
    "more" line, edge and gap, CollectionsView.tsx) before drawing it. Drawn, a box must measure
    exactly that: a box of any other height makes the virtualizer lay out every position after it
    again (10,000 in a large table) and moves the boxes below it."""
    screen = open_table(window, "Telemetry")
    view = present(screen, '[data-testid="view-collections"]', "the Collections view")
    wait_for(window, "read boxes in the run", lambda d: len(view.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"]')) >= 2)
    settle()
    slots = window.execute_script(
        """
        return [...arguments[0].querySelectorAll('.collections-slot')]
          .filter((s) => s.querySelector('[data-testid="box-row"]') && !s.querySelector('.run-box-whole, .run-box-read'))
          .map((s) => [s.querySelector('[data-testid="collection-run-box"]').dataset.key,
                       s.getBoundingClientRect().height, Number(s.dataset.estimate)]);
        """,
        view,
    )
    assert len(slots) >= 2, slots
    for key, height, estimate in slots:
        assert height == estimate, f"{key}: drawn {height} px, counted {estimate} px"


def test_a_view_shown_again_reads_no_box_it_had_read(window):
    """Each box Query costs read units (on AWS, money): showing Items and then Collections again,
    or another table's tab and then this one, reads no box again, whether the run was at its
    top or scrolled down."""
    screen = open_table(window, "Telemetry")
    view = present(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-collections"]', "the Collections view")
    spent = lambda d: content(css(d, '[data-testid="table-screen-Telemetry"] [data-testid="collections-spent"]'))

    def settled(d):
        # The boxes in sight are read: the count has not moved for a second.
        first = spent(d)
        time.sleep(1)
        return first if first == spent(d) and len(run_boxes(view)) >= 2 else None

    for scrolled in (0, 3000):
        window.execute_script("document.querySelector(arguments[0]).scrollTop = arguments[1]",
                              '[data-testid="table-screen-Telemetry"] [data-testid="collections-run"]', scrolled)
        before = wait_for(window, "the boxes in sight read", settled)
        click_css(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-tab-items"]', "the Items tab")
        wait_for(window, "Items shown", lambda d: css(screen, '[data-testid="view-items"]').is_displayed())
        click_css(window, '[data-testid="table-screen-Telemetry"] [data-testid="view-tab-collections"]', "the Collections tab")
        assert wait_for(window, "Collections shown again, its boxes settled", settled) == before, "a box was read again after Items"
        open_table(window, "Pets")
        present(window, '[data-testid="table-screen-Pets"]', "Pets' tab")
        open_table(window, "Telemetry")
        assert wait_for(window, "Telemetry shown again, its boxes settled", settled) == before, "a box was read again after another table"


def test_an_item_saved_from_a_box_shows_its_new_value_there_and_saves_again(window):
    """An item opened from a box of the run (no Query ran) and saved: the box reads its items
    again and shows the new value, and the item opened again is the one saved, so a second save
    is not taken for somebody else's change (it was: the box kept the rows read before)."""
    view = open_view(window, "collections")
    box = wait_for(window, "the first box's rows", lambda d: [b for _, b in run_boxes(view) if drawn_rows(b)])[0]
    key = box.get_attribute("data-key")

    def save_plate(plate: str) -> None:
        box = [b for k, b in run_boxes(view) if k == key][0]
        row = box.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"]')[0]
        assert content(css(row, '[role="rowheader"]')) == "META", content(row)
        click(window, row, f"{key}'s META row")
        row.send_keys(Keys.ENTER)
        editor = present(window, f'section[aria-label^="Edit item vehicleId = {key}"]', "the item editor")
        field = css(editor, '[aria-label="Value of plate"]')
        type_into(window, field, plate, "plate")
        click_xpath(window, '//section[starts-with(@aria-label, "Edit item")]//button[normalize-space()="Save"]', "the editor's Save")
        confirm = present(window, '[role="alertdialog"]', "the save confirmation")
        click_xpath(window, './/button[normalize-space()="Save"]', "the confirmation's Save", scope=confirm)
        wait_for(window, "the editor to close after the save", lambda d: not d.find_elements(By.CSS_SELECTOR, 'section[aria-label^="Edit item"]'))

    def box_shows(plate: str) -> bool:
        return any(plate in content(r) for k, b in run_boxes(view) if k == key
                   for r in b.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"]'))

    save_plate("E2E-1")
    wait_for(window, f"{key}'s box to show plate E2E-1", lambda d: box_shows("E2E-1"))
    # Opened again, the editor holds what was saved, and saving again is no conflict.
    save_plate("E2E-2")
    wait_for(window, f"{key}'s box to show plate E2E-2", lambda d: box_shows("E2E-2"))
    assert not window.find_elements(By.CSS_SELECTOR, '[data-testid="table-screen-Telemetry"] [role="alert"]'), "an error was shown"
