"""A staged bulk edit in the real window (issue 20, point 7): items pasted into Telemetry are
read back with a Query, staged with a SET and a REMOVE, tried dry (each item's change and write
units), committed in batches with a report, and undone."""

from selenium.webdriver.common.by import By

from window import click, content, css, open_view, present, type_into, wait_for

SCREEN = '[data-testid="table-screen-Telemetry"]'
VEHICLE = "VEH#E2E-BULK"
PASTED = ", ".join(
    f'{{"vehicleId": "{VEHICLE}", "recordedAt": "TS#2026-02-01T00:0{i}:00Z", "status": "open", "note": "n{i}"}}' for i in range(3)
)


def set_text(driver, element, text: str) -> None:
    """Sets a field's whole text at once, as a paste would."""
    driver.execute_script(
        "const t = arguments[0]; const proto = t instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;"
        "Object.getOwnPropertyDescriptor(proto, 'value').set.call(t, arguments[1]); t.dispatchEvent(new Event('input', { bubbles: true }));",
        element,
        text,
    )


def button(scope, label: str):
    return scope.find_element(By.XPATH, f".//button[normalize-space()='{label}']")


def delete_collection(driver, view, vehicle: str, count: int) -> None:
    """Reads `vehicle`'s collection with the bar and deletes its `count` items with a bulk delete,
    so the demo tables are left as the other tests of the run expect them."""
    bar = present(driver, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(driver, css(bar, '[data-testid="qb-pk"]'), vehicle, "the partition-key value")
    click(driver, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    wait_for(driver, f"{vehicle}'s items", lambda d: len(d.find_elements(
        By.CSS_SELECTOR, f'section[aria-label="Item collection vehicleId = {vehicle}"] [role="row"][data-index]')) >= count)
    if not view.find_elements(By.CSS_SELECTOR, 'section[aria-label="Bulk edit"]'):
        click(driver, button(view, "Bulk edit…"), "Bulk edit…")
    panel = present(driver, f'{SCREEN} section[aria-label="Bulk edit"]', "the bulk edit")
    click(driver, panel.find_element(By.XPATH, ".//label[normalize-space()='Delete']"), "Delete")
    click(driver, button(panel, "Dry run"), "Dry run")
    wait_for(driver, "the dry run of the deletes", lambda d: len(panel.find_elements(By.CSS_SELECTOR, '[data-testid="bulk-change"]')) == count)
    assert all(content(r).find("deleted") > 0 for r in panel.find_elements(By.CSS_SELECTOR, '[data-testid="bulk-change"]'))
    click(driver, button(panel, "Commit"), "Commit")
    wait_for(driver, "the deletes' report", lambda d: content(css(panel, '[data-testid="bulk-report"]')).startswith(f"Committed: {count} of {count} written"))


def test_a_bulk_update_is_tried_dry_committed_and_undone(window):
    view = open_view(window, "items")
    click(window, button(view, "Paste items…"), "Paste items…")
    dialog = present(window, '[role="dialog"][aria-label="Paste items"]', "the paste dialog")
    set_text(window, css(dialog, 'textarea[aria-label="Pasted items"]'), f"[{PASTED}]")
    click(window, button(dialog, "Check"), "Check")
    wait_for(window, "the preview", lambda d: len(dialog.find_elements(By.CSS_SELECTOR, '[data-testid="paste-row"]')) == 3)
    click(window, button(dialog, "Put 3 items"), "Put 3 items")
    wait_for(window, "the put's report", lambda d: dialog.find_elements(By.CSS_SELECTOR, '[data-testid="paste-report"]'))
    click(window, button(dialog, "Close"), "Close")

    bar = present(window, f'{SCREEN} [data-testid="query-bar"]', "Telemetry's query bar")
    type_into(window, css(bar, '[data-testid="qb-pk"]'), VEHICLE, "the partition-key value")
    click(window, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    grid = present(window, f'section[aria-label="Item collection vehicleId = {VEHICLE}"] [role="grid"]', "the collection")
    wait_for(window, "the three items", lambda d: len(grid.find_elements(By.CSS_SELECTOR, '[role="row"][data-index]')) >= 3)

    click(window, button(view, "Bulk edit…"), "Bulk edit…")
    panel = present(window, f'{SCREEN} section[aria-label="Bulk edit"]', "the bulk edit")
    assert content(css(panel, "h3")) == "Bulk edit of the 3 items read"
    type_into(window, css(panel, 'input[aria-label="SET attribute 1"]'), "status", "the SET name")
    type_into(window, css(panel, 'input[aria-label="Value of SET attribute 1"]'), "closed", "the SET value")
    type_into(window, css(panel, 'input[aria-label="REMOVE attributes"]'), "note", "the REMOVE names")
    click(window, button(panel, "Dry run"), "Dry run")
    wait_for(window, "the dry run's changes", lambda d: len(panel.find_elements(By.CSS_SELECTOR, '[data-testid="bulk-change"]')) == 3)
    summary = content(css(panel, '[data-testid="bulk-plan-summary"]'))
    assert summary.startswith("3 changes in 3 requests: ") and summary.endswith("WCU, index writes included."), summary
    first = content(panel.find_elements(By.CSS_SELECTOR, '[data-testid="bulk-change"]')[0])
    assert "note, status" in first, first

    click(window, button(panel, "Commit"), "Commit")
    report = wait_for(window, "the commit's report", lambda d: panel.find_elements(By.CSS_SELECTOR, '[data-testid="bulk-report"]'))[0]
    wait_for(window, "the commit's report text", lambda d: content(report).startswith("Committed: 3 of 3 written"))
    # The collection is read again (a new grid) and shows the change.
    def grid_text(d) -> str:
        grids = d.find_elements(By.CSS_SELECTOR, f'section[aria-label="Item collection vehicleId = {VEHICLE}"] [role="grid"]')
        return content(grids[0]) if grids else ""

    wait_for(window, "the closed items", lambda d: "closed" in grid_text(d) and "n1" not in grid_text(d))

    click(window, button(panel, "Undo the last commit"), "Undo the last commit")
    wait_for(window, "the undo's report", lambda d: content(css(panel, '[data-testid="bulk-report"]')).startswith("Undone: 3 of 3 written"))
    wait_for(window, "the items as they were", lambda d: "n1" in grid_text(d) and "closed" not in grid_text(d))
    # Left as found: the three items deleted in one batch.
    delete_collection(window, view, VEHICLE, 3)
