"""Paste and duplicate in the real window (issue 20, point 8): items pasted as plain JSON, one
with more digits than a double holds, are checked and priced before they are put, then read back
with every digit; an item read is duplicated under a new key from the editor. (Copy itself writes
to the system clipboard, which the driven window does not let a test read: the vitest tests of
TableScreen and itemCopy pin what is copied.)"""

from selenium.webdriver.common.by import By

from test_bulk_edit import delete_collection
from window import click, content, css, open_view, present, type_into, wait_for

SCREEN = '[data-testid="table-screen-Telemetry"]'
VEHICLE = "VEH#E2E-PASTE"
BIG = "123456789012345678901234567890.123"
PASTED = (
    f'[{{"vehicleId": "{VEHICLE}", "recordedAt": "TS#2026-01-01T00:00:00Z", "odometer": {BIG}}},'
    f' {{"vehicleId": "{VEHICLE}", "recordedAt": "TS#2026-01-01T00:01:00Z", "odometer": 7}}]'
)


def test_pasted_items_are_checked_priced_and_put_with_exact_numbers_and_one_is_duplicated(window):
    view = open_view(window, "items")
    click(window, view.find_element(By.XPATH, ".//button[normalize-space()='Paste items…']"), "Paste items…")
    dialog = present(window, '[role="dialog"][aria-label="Paste items"]', "the paste dialog")
    box = css(dialog, 'textarea[aria-label="Pasted items"]')
    click(window, box, "the paste box")
    # Set as a paste would: the whole text at once.
    window.execute_script(
        "const t = arguments[0]; const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;"
        "set.call(t, arguments[1]); t.dispatchEvent(new Event('input', { bubbles: true }));",
        box,
        PASTED,
    )
    click(window, dialog.find_element(By.XPATH, ".//button[normalize-space()='Check']"), "Check")
    wait_for(window, "the preview of the two items", lambda d: len(dialog.find_elements(By.CSS_SELECTOR, '[data-testid="paste-row"]')) == 2)
    summary = content(css(dialog, '[data-testid="paste-summary"]'))
    assert summary.startswith("2 items read as JSON: at least ") and summary.endswith(" WCU in all."), summary
    click(window, dialog.find_element(By.XPATH, ".//button[normalize-space()='Put 2 items']"), "Put 2 items")
    report = wait_for(window, "the put's report", lambda d: dialog.find_elements(By.CSS_SELECTOR, '[data-testid="paste-report"]'))[0]
    assert content(report).startswith("Put 2 of 2 items: "), content(report)
    click(window, dialog.find_element(By.XPATH, ".//button[normalize-space()='Close']"), "Close")

    # Read back: the odometer has every digit it was pasted with.
    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), VEHICLE, "the partition-key value")
    click(window, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    grid = present(window, f'section[aria-label="Item collection vehicleId = {VEHICLE}"] [role="grid"]', "the pasted collection")
    wait_for(window, "the pasted items in the grid", lambda d: len(grid.find_elements(By.CSS_SELECTOR, '[role="row"][data-index]')) >= 2)
    assert BIG in content(grid), content(grid)

    # Duplicate the first under a new sort key.
    first = grid.find_elements(By.CSS_SELECTOR, '[role="row"][data-index]')[0]
    click(window, first, "the first pasted item")
    click(window, view.find_element(By.XPATH, ".//button[normalize-space()='Duplicate selected']"), "Duplicate selected")
    editor = present(window, '[role="dialog"][aria-label="Item editor"]', "the editor")
    copy = css(editor, 'section[aria-label^="Duplicate of vehicleId = VEH#E2E-PASTE"]')
    click(window, copy.find_element(By.XPATH, ".//label[normalize-space()='DynamoDB JSON']"), "DynamoDB JSON")
    text = css(copy, 'textarea[aria-label="Item as DynamoDB JSON"]')
    assert BIG in text.get_attribute("value")
    duplicated = text.get_attribute("value").replace("TS#2026-01-01T00:00:00Z", "TS#2026-01-01T00:02:00Z")
    window.execute_script(
        "const t = arguments[0]; const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;"
        "set.call(t, arguments[1]); t.dispatchEvent(new Event('input', { bubbles: true }));",
        text,
        duplicated,
    )
    click(window, copy.find_element(By.XPATH, ".//button[normalize-space()='Create']"), "Create")
    confirm = wait_for(window, "the confirmation", lambda d: editor.find_elements(By.CSS_SELECTOR, '[role="alertdialog"]'))[0]
    click(window, confirm.find_element(By.XPATH, ".//button[normalize-space()='Create' or normalize-space()='Save']"), "the confirmation's button")
    # The paste's notice ("Pasted 2 items: …") is still shown until the create's replaces it.
    notices = lambda d: [content(n) for n in d.find_elements(By.CSS_SELECTOR, f'{SCREEN} [data-testid="write-notice"]')]  # noqa: E731
    wait_for(window, "the create's write notice", lambda d: any(n.startswith("Created: ") for n in notices(d)))
    # Left as found for the other tests of the run: the two pasted items and the duplicate.
    delete_collection(window, view, VEHICLE, 3)
