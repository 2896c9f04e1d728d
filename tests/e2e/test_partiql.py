"""End-to-end test of the PartiQL editor in the real window: a connection's PartiQL tab opens
from the sidebar, a statement with a `?` is typed into the CodeMirror editor, its parameter given
as a typed value, Ctrl+Enter runs it on the embedded engine, and the rows come back in the grid
with the capacity DynamoDB reported.

Each test starts its own window (conftest.py) and opens what it needs through window.py.
"""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_collections_view import screenshots_light_and_dark
from window import click, click_css, click_xpath, content, css, engine_ready, present, type_into, wait_for

SCREEN = '[data-testid="partiql-screen"]'


def test_a_select_with_a_parameter_runs_with_ctrl_enter_and_shows_rows_and_capacity(window):
    engine_ready(window)
    click_css(window, '[data-testid="partiql-embedded"]', "the Embedded connection's PartiQL button")
    tab = present(window, '[role="tab"][aria-selected="true"]', "the PartiQL tab")
    assert "PartiQL · Embedded" in content(tab), content(tab)
    editor = present(window, f'{SCREEN} [data-testid="partiql-input"]', "the statement editor")
    click(window, editor, "the statement editor")
    editor.send_keys('SELECT * FROM "Telemetry" WHERE "vehicleId" = ?')
    # The editor closes quotes as they are typed; the text is exactly what was typed.
    wait_for(window, "the typed statement", lambda d: content(css(d, f'{SCREEN} .cm-content')) == 'SELECT * FROM "Telemetry" WHERE "vehicleId" = ?')
    parameter = present(window, f'{SCREEN} input[aria-label="Parameter 1"]', "the input of the one ?")
    assert len(window.find_elements(By.CSS_SELECTOR, f'{SCREEN} input[aria-label^="Parameter "]')) == 1
    type_into(window, parameter, "VEH#V-7741", "the parameter")
    ActionChains(window).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()

    summary = present(window, f'{SCREEN} [data-testid="partiql-summary"]', "the result summary")
    # First as DynamoDB lays the items out: the one collection the WHERE names, META before its
    # TS# readings (sort-key order).
    boxes = wait_for(window, "the result's collection", lambda d: d.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="partiql-box"]'))
    assert len(boxes) == 1 and "vehicleId = VEH#V-7741" in content(boxes[0]), [content(b) for b in boxes]
    keys = [content(r) for r in window.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="partiql-box-row"] [role="rowheader"]')]
    assert keys[0] == "META" and keys[1:] and all(k.startswith("TS#") for k in keys[1:]) and keys[1:] == sorted(keys[1:]), keys
    screenshots_light_and_dark(window, "partiql-collections")
    click_css(window, f'{SCREEN} [data-testid="partiql-view-items"]', "the Items view of the results")
    rows = wait_for(window, "result rows", lambda d: [r for r in d.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="partiql-row"]') if r.is_displayed()])
    assert "VEH#V-7741" in content(rows[0]), content(rows[0])
    # VEH#V-7741 has META and a reading a minute for a day: more than one page's worth of items.
    # 1 META + 1,440 readings (a reading a minute for a day), counted as people read counts.
    assert content(summary).startswith("1,441 items"), content(summary)
    capacity = content(css(window, f'{SCREEN} [data-testid="partiql-capacity"]'))
    assert "Consumed capacity:" in capacity and "RCU" in capacity, capacity
    headers = [content(h) for h in window.find_elements(By.CSS_SELECTOR, f'{SCREEN} [role="columnheader"]')]
    assert headers[1:3] == ["vehicleId", "recordedAt"], headers
    # Each column is as wide as its name and its values: every sort key on screen is whole, not
    # "TS#2025-…", and so is every column's name.
    cut = window.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent)",
        f'{SCREEN} [data-testid="partiql-row"] [role="gridcell"]:nth-child(3), {SCREEN} [role="columnheader"]',
    )
    assert cut == [], cut
    screenshots_light_and_dark(window, "partiql-editor")


def _replace_statement(window, text: str) -> None:
    """Selects everything in the editor and types `text` in its place."""
    editor = present(window, f'{SCREEN} [data-testid="partiql-input"]', "the statement editor")
    click(window, editor, "the statement editor")
    ActionChains(window).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    editor.send_keys(Keys.DELETE)
    editor.send_keys(text)
    wait_for(window, "the typed statement", lambda d: content(css(d, f'{SCREEN} .cm-content')) == text)


def test_a_transaction_writes_two_items_that_a_select_draws_as_one_collection_and_is_saved_by_name(window):
    engine_ready(window)
    click_css(window, '[data-testid="partiql-embedded"]', "the Embedded connection's PartiQL button")
    try:
        owls = ("INSERT INTO \"Pets\" VALUE {'AnimalType': 'Owl', 'Name': 'Hoot', 'Age': 3}; "
                "INSERT INTO \"Pets\" VALUE {'AnimalType': 'Owl', 'Name': 'Hedwig', 'Age': 9}")
        _replace_statement(window, owls)
        # Two statements are refused as one: the text says what to choose instead.
        ActionChains(window).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
        refused = content(present(window, f'{SCREEN} [data-testid="partiql-error"]', "the refusal of two statements as one"))
        assert "choose Batch or Transaction" in refused, refused
        click_xpath(window, "//*[@aria-label='Run as']//label[normalize-space()='Transaction']/input", "the Transaction mode")
        ActionChains(window).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
        summary = wait_for(window, "the transaction's summary",
                           lambda d: (lambda t: t if "from 2 statements" in t else None)(content(css(d, f'{SCREEN} [data-testid="partiql-summary"]'))))
        assert "WCU" in content(css(window, f'{SCREEN} [data-testid="partiql-capacity"]')), summary

        # Both items are there, in one collection, in sort-key order.
        click_xpath(window, "//*[@aria-label='Run as']//label[normalize-space()='Statement']/input", "the Statement mode")
        _replace_statement(window, "SELECT * FROM \"Pets\" WHERE \"AnimalType\" = 'Owl'")
        ActionChains(window).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
        boxes = wait_for(window, "the owls' collection", lambda d: d.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="partiql-box"]'))
        assert [content(b) for b in boxes] == ["AnimalType = Owl2 items"], [content(b) for b in boxes]
        names = [content(r) for r in window.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="partiql-box-row"] [role="rowheader"]')]
        assert names == ["Hedwig", "Hoot"], names

        # Saved by name, and put back from the shelf.
        click_css(window, f'{SCREEN} [data-testid="partiql-saved"] summary', "the saved statements")
        type_into(window, present(window, f'{SCREEN} input[aria-label="Name of the statement to save"]'), "owls", "the statement's name")
        click_css(window, f'{SCREEN} [data-testid="partiql-saved"] button[type="submit"]', "Save the statement")
        wait_for(window, "the saved statement listed",
                 lambda d: "Saved statements (1)" in content(css(d, f'{SCREEN} [data-testid="partiql-saved"] summary')))
        _replace_statement(window, "SELECT * FROM \"Music\"")
        click_xpath(window, f"//*[@data-testid='partiql-saved']//button[normalize-space()='owls']", "the saved statement owls")
        wait_for(window, "the saved statement back in the editor",
                 lambda d: content(css(d, f'{SCREEN} .cm-content')) == "SELECT * FROM \"Pets\" WHERE \"AnimalType\" = 'Owl'")
    finally:
        # The demo's Pets stays as it was for the tests after this one (the run shares one data
        # folder): the two owls are deleted, all or nothing.
        click_xpath(window, "//*[@aria-label='Run as']//label[normalize-space()='Transaction']/input", "the Transaction mode")
        _replace_statement(window, "DELETE FROM \"Pets\" WHERE \"AnimalType\" = 'Owl' AND \"Name\" = 'Hoot'; "
                                   "DELETE FROM \"Pets\" WHERE \"AnimalType\" = 'Owl' AND \"Name\" = 'Hedwig'")
        ActionChains(window).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
        wait_for(window, "the owls deleted",
                 lambda d: "from 2 statements" in content(css(d, f'{SCREEN} [data-testid="partiql-summary"]'))
                 and "WCU" in content(css(d, f'{SCREEN} [data-testid="partiql-capacity"]')))
