"""End-to-end test of the data modeler in the real window: it opens from the status bar on the
Telemetry starter model, VEH#V-7741's box forms on the table with the most items, the depot
pattern is flagged as a Scan with a suggested GSI, taking the suggestion makes it a Query on the
new index, and the model is applied to the embedded engine, tables and sample data.

Each test starts its own window (conftest.py) and opens what it needs through window.py.
"""

from selenium.webdriver.common.by import By

from window import click, click_css, content, engine_ready, present, wait_for


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
