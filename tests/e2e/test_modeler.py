"""End-to-end test of the data modeler in the real window: it opens from the status bar on the
Telemetry starter model, VEH#V-7741's box forms on the table with the most items, the depot
pattern is flagged as a Scan with a suggested GSI, taking the suggestion makes it a Query on the
new index, and the model is applied to the embedded engine, tables and sample data.

The second test builds the same model from nothing in the form (New model, then no JSON typed)
and applies it under a table name of its own, so the first test's TelemetryModel stays as it was.

The third infers a model from the demo's Telemetry table (From a table…) after a Query of
VEH#V-7741 in its query bar: the META and TS entity types, the sample's estimated and consumed
read units, the Query as an access pattern, and VEH#V-7741's box.

Each test starts its own window (conftest.py) and opens what it needs through window.py.
"""

import json
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import screenshot
from window import choose, click, click_css, content, css, engine_ready, open_table, present, settle, type_into, wait_for


def test_the_telemetry_model_forms_its_boxes_takes_the_suggested_gsi_and_is_applied(window):
    engine_ready(window)
    click_css(window, '[data-testid="open-modeler"]', "the status bar's Data modeler button")
    tab = present(window, '[role="tab"][aria-selected="true"]', "the modeler's tab")
    assert "Data modeler" in content(tab), content(tab)

    box = present(window, '[data-testid="modeler-target-table"] [data-testid="modeler-box"]', "the first box of the table")
    assert "VEH#V-7741" in content(box), content(box)

    def patterns(driver):
        return [content(p) for p in driver.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-pattern"]')]

    depot = wait_for(window, "the depot pattern flagged as a Scan",
                     lambda d: next((p for p in patterns(d) if p.startswith("a depot's readings") and "Scan" in p), None))
    assert "Suggested GSI ByDepotCode" in depot, depot
    click_css(window, '[data-testid="modeler-take-suggestion"]', "Take it")
    served = wait_for(window, "the depot pattern served by the new GSI",
                      lambda d: next((p for p in patterns(d) if p.startswith("a depot's readings") and "Query on" in p), None))
    assert "ByDepotCode" in served, served
    present(window, '[data-testid="modeler-target-ByDepotCode"]', "the new index's collections")

    # The apply controls are at the foot of the results column, which scrolls on its own.
    window.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                          present(window, '[data-testid="modeler-apply"]', "Apply to the embedded engine"))
    click_css(window, '[data-testid="modeler-apply"]', "Apply to the embedded engine")
    window.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                          present(window, '[data-testid="modeler-apply-confirm"]', "the confirmation"))
    click_css(window, '[data-testid="modeler-apply-confirm"]', "the confirmation")
    applied = present(window, '[data-testid="modeler-applied"]', "what was created")
    assert content(applied) == "Created TelemetryModel with 222 items.", content(applied)

    # The depot pattern, run on what was just applied: its table's tab opens on the Collections
    # view regrouped by the new GSI, with the pattern's Query in the bar, run, and its one box
    # highlighted.
    depot_card = wait_for(window, "the depot pattern's card",
                          lambda d: next((p for p in d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-pattern"]')
                                          if content(p).startswith("a depot's readings")), None))
    run = depot_card.find_element(By.CSS_SELECTOR, '[data-testid="modeler-run-pattern"]')
    window.execute_script("arguments[0].scrollIntoView({block: 'center'})", run)
    click(window, run, "Run on the embedded engine")
    screen = '[data-testid="table-screen-TelemetryModel"]'
    wait_for(window, "TelemetryModel's tab", lambda d: "TelemetryModel" in content(d.find_element(By.CSS_SELECTOR, '[role="tab"][aria-selected="true"]')))
    wait_for(window, "the run grouped by ByDepotCode",
             lambda d: d.find_element(By.CSS_SELECTOR, f'{screen} [data-testid="collections-group-by"]').get_attribute("value") == "ByDepotCode")
    read = present(window, f'{screen} [data-testid="collection-run-box"][data-read="read"]', "the box the pattern's Query reads")
    wait_for(window, "the read box's rows", lambda d: (
        lambda b: b if b.find_elements(By.CSS_SELECTOR, '[data-testid="box-row"]') else None)(
        d.find_element(By.CSS_SELECTOR, f'{screen} [data-testid="collection-run-box"][data-read="read"]')))
    assert "depotCode" in content(read), content(read)
    summary = content(present(window, f'{screen} [data-testid="qb-summary"]', "the bar's summary"))
    assert "returned" in summary and "RCU" in summary, summary


# The table the form-built model is applied as: a name no other test uses, since every window of
# a run shares one data folder (the demo's Telemetry and the first test's TelemetryModel stay).
FORM_TABLE = "TelemetryFromForm"


def fill(driver, test_id: str, text: str) -> None:
    type_into(driver, present(driver, f'[data-testid="{test_id}"]', test_id), text, test_id)


def pick(driver, test_id: str, value: str) -> None:
    choose(driver, present(driver, f'[data-testid="{test_id}"]', test_id), value, test_id)


def tick(driver, test_id: str) -> None:
    click_css(driver, f'[data-testid="{test_id}"]', test_id)


def box_items(box) -> int:
    """A modeler box's item count (its second line: `99 items · 7.3 KB`)."""
    return int(re.match(r"([\d,]+) items", content(box.find_element(By.CSS_SELECTOR, "span"))).group(1).replace(",", ""))


def form_screenshots(driver, name: str) -> None:
    """`name`.png in the light theme and `name`-dark.png in the dark one, then the theme as a new
    user has it (following the system) for the tests after this one."""
    def theme(choice: str) -> None:
        for _ in range(3):
            if content(css(driver, '[data-testid="theme-toggle"]')).endswith(f"Theme: {choice}"):
                return
            click_css(driver, '[data-testid="theme-toggle"]', "the theme toggle")

    try:
        theme("light")
        settle()
        screenshot(driver, f"{name}.png")
        theme("dark")
        settle()
        screenshot(driver, f"{name}-dark.png")
    finally:
        theme("system")


def test_the_telemetry_model_built_from_nothing_in_the_form_takes_the_depot_gsi_and_is_applied(window):
    engine_ready(window)
    click_css(window, '[data-testid="open-modeler"]', "the status bar's Data modeler button")
    click_css(window, '[data-testid="modeler-new"]', "New model")
    present(window, '[data-testid="modeler-form"]', "the model form")
    assert not window.find_elements(By.CSS_SELECTOR, '[data-testid="mf-table-0"]'), "New model still has a table"

    # The table: vehicleId / recordedAt, both strings.
    click_css(window, '[data-testid="mf-add-table"]', "Add table")
    fill(window, "mf-table-0-name", FORM_TABLE)
    fill(window, "mf-table-0-pk-name", "vehicleId")
    tick(window, "mf-table-0-has-sk")
    fill(window, "mf-table-0-sk-name", "recordedAt")

    # Vehicles: VEH#{vehicleId} / META, twelve of them, in four depots of unequal size.
    click_css(window, '[data-testid="mf-add-entity"]', "Add entity type")
    fill(window, "mf-entity-0-name", "Vehicle")
    fill(window, "mf-entity-0-key-vehicleId-template", "VEH#{vehicleId}")
    fill(window, "mf-entity-0-key-recordedAt-template", "META")
    click_css(window, '[data-testid="mf-entity-0-add-field"]', "Add field")
    fill(window, "mf-entity-0-field-0-name", "vehicleId")
    fill(window, "mf-entity-0-field-0-gen-prefix", "V-")
    fill(window, "mf-entity-0-field-0-gen-start", "7741")
    fill(window, "mf-entity-0-field-0-gen-step", "7")
    fill(window, "mf-entity-0-field-0-gen-width", "4")
    click_css(window, '[data-testid="mf-entity-0-add-field"]', "Add field")
    fill(window, "mf-entity-0-field-1-name", "depotCode")
    pick(window, "mf-entity-0-field-1-gen-kind", "choice")
    fill(window, "mf-entity-0-field-1-gen-values", "DEP-N, DEP-S, DEP-E, DEP-W")
    fill(window, "mf-entity-0-field-1-gen-weights", "4, 2, 1, 1")
    fill(window, "mf-entity-0-count", "12")

    # Readings: VEH#{vehicleId} / TS#{recordedAt}, V-7741 reporting ten times as often.
    click_css(window, '[data-testid="mf-add-entity"]', "Add entity type")
    fill(window, "mf-entity-1-name", "Reading")
    fill(window, "mf-entity-1-key-vehicleId-template", "VEH#{vehicleId}")
    fill(window, "mf-entity-1-key-recordedAt-template", "TS#{recordedAt}")
    click_css(window, '[data-testid="mf-entity-1-add-field"]', "Add field")
    fill(window, "mf-entity-1-field-0-name", "vehicleId")
    pick(window, "mf-entity-1-field-0-gen-kind", "ref")
    pick(window, "mf-entity-1-field-0-gen-entity", "Vehicle")
    pick(window, "mf-entity-1-field-0-gen-field", "vehicleId")
    tick(window, "mf-entity-1-field-0-gen-skew")
    fill(window, "mf-entity-1-field-0-gen-hot", "1")
    fill(window, "mf-entity-1-field-0-gen-factor", "10")
    click_css(window, '[data-testid="mf-entity-1-add-field"]', "Add field")
    fill(window, "mf-entity-1-field-1-name", "depotCode")
    pick(window, "mf-entity-1-field-1-gen-kind", "lookup")
    pick(window, "mf-entity-1-field-1-gen-entity", "Vehicle")
    pick(window, "mf-entity-1-field-1-gen-by", "vehicleId")
    pick(window, "mf-entity-1-field-1-gen-field", "depotCode")
    click_css(window, '[data-testid="mf-entity-1-add-field"]', "Add field")
    fill(window, "mf-entity-1-field-2-name", "recordedAt")
    pick(window, "mf-entity-1-field-2-gen-kind", "time")
    fill(window, "mf-entity-1-field-2-gen-start", "1741939200")
    fill(window, "mf-entity-1-field-2-gen-step", "60")
    pick(window, "mf-entity-1-field-2-gen-per", "vehicleId")
    click_css(window, '[data-testid="mf-entity-1-add-field"]', "Add field")
    fill(window, "mf-entity-1-field-3-name", "speedKph")
    pick(window, "mf-entity-1-field-3-type", "N")
    pick(window, "mf-entity-1-field-3-gen-kind", "number")
    fill(window, "mf-entity-1-field-3-gen-max", "110")
    fill(window, "mf-entity-1-count", "210")
    fill(window, "mf-entity-1-writes", "40")
    fill(window, "mf-entity-1-retention", "90")

    # VEH#V-7741's box forms on the table: the largest collection, META and its readings.
    def v7741(d):
        if d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-form-problem"]'):
            return None
        boxes = d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-target-table"] [data-testid="modeler-box"]')
        box = next((b for b in boxes if "VEH#V-7741" in content(b)), None)
        return (box, boxes) if box is not None and box_items(box) > 13 else None

    box, boxes = wait_for(window, "VEH#V-7741's box with its readings", v7741)
    assert box_items(box) == max(box_items(b) for b in boxes), [content(b) for b in boxes]
    assert "Reading" in box.get_attribute("title") and "Vehicle: 1" in box.get_attribute("title"), box.get_attribute("title")

    # The ByDepot pattern: a depot's readings, newest first. No index serves it yet.
    click_css(window, '[data-testid="mf-add-pattern"]', "Add access pattern")
    fill(window, "mf-pattern-0-name", "ByDepot")
    pick(window, "mf-pattern-0-entity", "Reading")
    click_css(window, '[data-testid="mf-pattern-0-add-given"]', "Add known field")
    pick(window, "mf-pattern-0-given-0-field", "depotCode")
    fill(window, "mf-pattern-0-given-0-value", "DEP-N")
    pick(window, "mf-pattern-0-order", "recordedAt")
    tick(window, "mf-pattern-0-descending")
    fill(window, "mf-pattern-0-limit", "50")

    def by_depot(d, operation):
        cards = d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-pattern"]')
        return next((c for c in cards if content(c).startswith("ByDepot") and operation in content(c)), None)

    scan = wait_for(window, "ByDepot flagged as a Scan", lambda d: by_depot(d, "Scan on"))
    assert "Suggested GSI ByDepotCode" in content(scan), content(scan)
    # The form beside the analysis: the pattern just made on the left, its Scan on the right.
    window.execute_script("arguments[0].scrollIntoView({block: 'center'})", scan)
    form_screenshots(window, "modeler-form")

    click(window, scan.find_element(By.CSS_SELECTOR, '[data-testid="modeler-take-suggestion"]'), "Take it")
    served = wait_for(window, "ByDepot served by a Query on the new GSI", lambda d: by_depot(d, "Query on"))
    assert f"Query on {FORM_TABLE} · ByDepotCode" in content(served), content(served)
    # The form shows the taken GSI, and the readings filling its key.
    gsi = present(window, '[data-testid="mf-table-0-gsi-0-name"]', "the GSI in the form")
    assert gsi.get_attribute("value") == "ByDepotCode"
    assert css(window, '[data-testid="mf-entity-1-key-depotCode-fills"]').is_selected()
    present(window, '[data-testid="modeler-target-ByDepotCode"]', "the new index's collections")

    # Applied to the embedded engine: the table and its 222 sample items.
    apply = present(window, '[data-testid="modeler-apply"]', "Apply to the embedded engine")
    click(window, apply, "Apply to the embedded engine")
    click_css(window, '[data-testid="modeler-apply-confirm"]', "the confirmation")
    applied = present(window, '[data-testid="modeler-applied"]', "what was created")
    assert content(applied) == f"Created {FORM_TABLE} with 222 items.", content(applied)
    present(window, f'[data-testid="open-table-{FORM_TABLE}"]', "the applied table in the sidebar")

    # The JSON view is the same model the form built.
    click_css(window, '[data-testid="modeler-view-json"]', "the JSON view")
    model = json.loads(present(window, '[data-testid="modeler-model"]', "the model's JSON").get_attribute("value"))
    assert [t["name"] for t in model["tables"]] == [FORM_TABLE], model["tables"]
    assert [i["name"] for i in model["tables"][0]["globalIndexes"]] == ["ByDepotCode"], model["tables"][0]
    assert [e["name"] for e in model["entities"]] == ["Vehicle", "Reading"], model["entities"]
    assert [p["name"] for p in model["patterns"]] == ["ByDepot"], model["patterns"]


def test_a_model_inferred_from_the_demo_telemetry_has_meta_and_ts_and_a_vehicles_box(window):
    engine_ready(window)
    # A Query of VEH#V-7741 from Telemetry's query bar: the history the patterns come from.
    screen = '[data-testid="table-screen-Telemetry"]'
    open_table(window, "Telemetry")
    bar = present(window, f'{screen} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), "VEH#V-7741", "the partition-key value")
    css(bar, '[data-testid="qb-pk"]').send_keys(Keys.CONTROL, Keys.ENTER)
    present(window, f'{screen} [data-testid="collection-run-box"][data-read="read"]', "the box the Query read")

    # With a table open the status bar holds more text; its Data modeler button stays in reach
    # (the text beside it gives way).
    button = present(window, '[data-testid="open-modeler"]', "the status bar's Data modeler button")
    inside = window.execute_script(
        """const b = arguments[0].getBoundingClientRect(), bar = arguments[0].closest('footer').getBoundingClientRect();
           return b.left >= bar.left && b.right <= bar.right + 0.5 && b.width > 0;""", button)
    assert inside, "the Data modeler button is cut off at the status bar's end"
    click(window, button, "the status bar's Data modeler button")
    click_css(window, '[data-testid="modeler-from-table-open"]', "From a table…")
    connection = present(window, '[data-testid="modeler-infer-connection"]', "the connection list")
    assert content(connection).startswith("Embedded"), content(connection)
    wait_for(window, "Telemetry among the tables",
             lambda d: "Telemetry" in [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-infer-table"] option')])
    pick(window, "modeler-infer-table", "Telemetry")
    # The cost before anything is read: a Scan page of 500 items and a Query page of V-7741's.
    estimate = wait_for(window, "the sample's estimated cost", lambda d: (
        lambda e: e if e and "of 10,710 items" in content(e[0]) and "read units" in content(e[0]) else None)(
        d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-infer-estimate"]')))[0]
    assert "625 of 10,710 items" in content(estimate), content(estimate)

    # The starter model has no edits: the inferred model replaces it without a question.
    click_css(window, '[data-testid="modeler-infer-run"]', "Read the sample and infer the model")
    consumed = present(window, '[data-testid="modeler-infer-consumed"]', "the read units the sample consumed")
    assert re.fullmatch(r"[\d.,]+ read units consumed", content(consumed)), content(consumed)
    entities = [content(e) for e in window.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-inferred-entity"]')]
    assert [e.split()[0] for e in entities] == ["META", "TS"], entities

    # The starter's analysis is replaced by the inferred model's: its boxes hold META and TS items.
    def largest_box(d):
        boxes = d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-target-table"] [data-testid="modeler-box"]')
        first = boxes[0] if boxes else None
        return (content(first), first.get_attribute("title")) if first is not None and "TS:" in (first.get_attribute("title") or "") else None

    # The largest box is a vehicle's collection, its META item with its readings. Which vehicle
    # depends on the connection's whole query history (the tests before this one share it), so
    # only this test's own Query is looked for by name, in the patterns below.
    text, title = wait_for(window, "the inferred model's boxes", largest_box)
    assert text.startswith("VEH#V-") and "META: 1" in title, (text, title)
    present(window, '[data-testid="modeler-target-ByDepot"]', "the ByDepot GSI's collections")
    pattern = wait_for(window, "this test's Query of the history as a pattern", lambda d: next(
        (p for p in d.find_elements(By.CSS_SELECTOR, '[data-testid="modeler-pattern"]')
         if content(p).startswith("TS by vehicleId") and 'vehicleId = "VEH#V-7741"' in content(p)), None))
    assert "Query on Telemetry" in content(pattern), content(pattern)
    window.execute_script("arguments[0].scrollIntoView({block: 'start'})", present(window, '[data-testid="modeler-from-table"]', "the From a table panel"))
    form_screenshots(window, "modeler-infer")

    # The JSON view holds the inferred model.
    click_css(window, '[data-testid="modeler-view-json"]', "the JSON view")
    model = json.loads(present(window, '[data-testid="modeler-model"]', "the model's JSON").get_attribute("value"))
    assert model["name"] == "Telemetry (inferred)", model["name"]
    assert [e["name"] for e in model["entities"]] == ["META", "TS"], model["entities"]
    keys = {e["name"]: {k["attribute"]: k["template"] for k in e["keys"]} for e in model["entities"]}
    assert keys["META"]["recordedAt"] == "META" and keys["TS"]["recordedAt"] == "TS#{recordedAt}", keys
    assert keys["TS"]["vehicleId"] == "VEH#{vehicleId}", keys
