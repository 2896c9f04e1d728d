"""End-to-end: the Collections view of a table on an AWS connection (issue 17, point 1), in the
real window. There the collections come from Scan pages the user pays for: the view tells the
cost of a whole scan, takes a budget, scans up to it and draws what it read as boxes, saying the
statistics are partial; the scan is continued to the end; regrouped by a GSI, the index's own
collections come from a scan of the index.

The connection is an `~/.aws` profile whose `endpoint_url` names a `dynotable-local --in-memory`
of this test on loopback (the code path of every AWS connection: the SDK, SigV4, the wire), with
`Fleet`: 40 vehicles, each a META item and nine readings of about 1 KB (some 400 KB, about 50 RCU
to scan), every fourth META naming one of three depots (the sparse GSI ByDepot).
"""

import os
import pathlib
import re
import subprocess
import threading

import boto3
import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot
from test_collections_view import screenshots_light_and_dark
from window import STARTUP, STEP, click, click_css, click_xpath, choose, content, present, text_of, type_into, wait_for

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
LOCAL = pathlib.Path(os.environ.get("DYNOTABLE_LOCAL_BIN", TARGET / "debug" / "dynotable-local"))
PROFILE = "e2e-local-fleet"
TABLE = "Fleet"


def read_line(stream, seconds: float) -> str:
    line = []
    reader = threading.Thread(target=lambda: line.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    return line[0].decode().strip() if line else ""


def fill(url: str) -> None:
    client = boto3.session.Session(aws_access_key_id="AKIDSETUP", aws_secret_access_key="setup",
                                   region_name="eu-west-1").client("dynamodb", endpoint_url=url)
    client.create_table(
        TableName=TABLE,
        KeySchema=[{"AttributeName": "vehicleId", "KeyType": "HASH"}, {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("vehicleId", "recordedAt", "depot")],
        GlobalSecondaryIndexes=[{
            "IndexName": "ByDepot",
            "KeySchema": [{"AttributeName": "depot", "KeyType": "HASH"}, {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
        }],
        BillingMode="PAY_PER_REQUEST",
    )
    items = []
    for v in range(40):
        vehicle = f"VEH#V-{v:03}"
        meta = {"vehicleId": {"S": vehicle}, "recordedAt": {"S": "META"}}
        if v % 4 == 0:
            meta["depot"] = {"S": f"DEPOT#{v % 3}"}
        items.append(meta)
        items += [{"vehicleId": {"S": vehicle}, "recordedAt": {"S": f"TS#{r:02}"}, "payload": {"S": "x" * 1000}}
                  for r in range(9)]
    for start in range(0, len(items), 25):
        left = {TABLE: [{"PutRequest": {"Item": i}} for i in items[start:start + 25]]}
        while left:
            left = client.batch_write_item(RequestItems=left).get("UnprocessedItems") or {}


@pytest.fixture
def fleet_profile(tmp_path):
    """dynotable-local in memory with Fleet, named by a profile added to the run's AWS files for
    this test only (run.sh points AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE at its own)."""
    assert LOCAL.exists(), f"{LOCAL} is not built (make test builds it)"
    config = pathlib.Path(os.environ["AWS_CONFIG_FILE"])
    credentials = pathlib.Path(os.environ["AWS_SHARED_CREDENTIALS_FILE"])
    kept = (config.read_text(), credentials.read_text())
    log = open(tmp_path / "dynotable-local.stderr", "wb")
    server = subprocess.Popen([str(LOCAL), "--host", "127.0.0.1", "--port", "0", "--in-memory"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log)
    try:
        ready = read_line(server.stdout, 20)
        assert ready.startswith("dynotable-local listening on "), ready
        url = ready.removeprefix("dynotable-local listening on ")
        fill(url)
        config.write_text(kept[0] + f"\n[profile {PROFILE}]\nregion = eu-west-1\nendpoint_url = {url}\n")
        credentials.write_text(kept[1] + f"\n[{PROFILE}]\naws_access_key_id = AKIAE2EFLEET0000001\n"
                               "aws_secret_access_key = fleet-secret\n")
        yield PROFILE
    finally:
        config.write_text(kept[0])
        credentials.write_text(kept[1])
        server.kill()
        server.wait(timeout=10)
        log.close()


@pytest.fixture
def aws_window(fleet_profile, window):
    """The window, once the test's profile is in the AWS files (the app reads them at start)."""
    return window


def boxes(driver) -> list[str]:
    return [b.get_attribute("data-key") for b in driver.find_elements(By.CSS_SELECTOR, '[data-testid="collection-run-box"]')]


OVERLAPS = """
const boxes = [...document.querySelectorAll('[data-testid="collection-run-box"]')]
  .map((b) => [b.getAttribute("data-key"), b.getBoundingClientRect()])
  .sort((a, b) => a[1].top - b[1].top);
const out = [];
for (let i = 1; i < boxes.length; i++)
  if (boxes[i][1].top < boxes[i - 1][1].bottom - 0.5) out.push(`${boxes[i - 1][0]} ends at ${boxes[i - 1][1].bottom}, ${boxes[i][0]} starts at ${boxes[i][1].top}`);
return out;
"""


def settled_run(driver) -> None:
    """Until every box in sight is read and the run is laid out: no box drawn over another."""
    wait_for(driver, "the boxes in sight to be read",
             lambda d: d.find_element(By.CSS_SELECTOR, f'[data-testid="table-screen-{TABLE}"] [data-testid="collections-run"]').get_attribute("aria-busy") == "false", STEP)
    wait_for(driver, "the boxes to be laid out one below the other", lambda d: d.execute_script(OVERLAPS) == [], STEP)


def gate(driver):
    return present(driver, f'[data-testid="table-screen-{TABLE}"] [data-testid="statistics-gate"]', "the statistics scan's gate")


def set_budget(driver, units: str) -> None:
    field = gate(driver).find_element(By.CSS_SELECTOR, '[data-testid="statistics-budget"]')
    type_into(driver, field, units, "the budget")
    wait_for(driver, f"the budget to read {units}", lambda d: field.get_attribute("value") == units)


def test_an_aws_tables_collections_come_from_a_scan_up_to_a_budget_kept_and_continued(aws_window):
    driver = aws_window
    profile = present(driver, f'[data-testid="aws-profile-{PROFILE}"]', f"the AWS profile {PROFILE}", STARTUP)
    click_xpath(driver, './/button[normalize-space()="Open"]', f"Open on {PROFILE}", scope=profile)
    click_css(driver, f'[data-testid="open-table-{TABLE}"]', f"the sidebar's {TABLE} entry")

    # Nothing is read until the user says so: the cost of a whole scan, and a budget to set.
    cost = wait_for(driver, "the whole scan's estimate", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="statistics-cost"]'))[0]
    assert "RCU" in content(cost), content(cost)
    assert boxes(driver) == []
    set_budget(driver, "8")
    click_css(driver, '[data-testid="statistics-start"]', "Scan to gather statistics")

    # Stopped at the budget: what it read is drawn, and said to be partial.
    state = wait_for(driver, "the partial statistics", lambda d: [
        e for e in d.find_elements(By.CSS_SELECTOR, '[data-testid="statistics-state"]') if "Partial statistics." in content(e)], STEP)[0]
    said = content(state)
    assert "of about 400 items" in said, said
    drawn = wait_for(driver, "boxes of what the scan read", lambda d: boxes(d))
    # The run lists the collections read (the boxes in sight are drawn: the run is virtualised).
    summary = text_of(driver, "collections-summary")
    listed = re.match(r"(\d+) collections? in key order of vehicleId", summary)
    assert listed, summary
    read = int(listed.group(1))
    assert 0 < len(drawn) <= read < 40, (drawn, summary)
    # The table's figures stay DescribeTable's; the collections are at least those read.
    figures = text_of(driver, "table-figures")
    assert figures.startswith("400 items") and f"at least {read} collections" in figures, figures
    settled_run(driver)
    # Fleet's sort keys are short ("META", "TS#00"); the sort-key column is still as wide as
    # its name, which is read whole, as is every other column's.
    headers = driver.execute_script(
        "return [...document.querySelectorAll('.run-box-grid .grid-head [role=columnheader]')]"
        ".map((h) => [h.textContent, h.scrollWidth > h.clientWidth])"
    )
    assert ["recordedAt", False] in headers and not [h for h in headers if h[1]], headers
    screenshots_light_and_dark(driver, "collections-aws-partial")
    # The status bar keeps the connection, the capacity and the version whole whatever the
    # embedded engine is doing (here it is often still loading the demo, a long message: that
    # message gives way, whole in its title).
    cut = driver.execute_script(
        """return ['active-connection', 'capacity-used', 'app-version'].filter((id) => {
             const el = document.querySelector(`[data-testid="${id}"]`);
             return el === null || el.scrollWidth > el.clientWidth;
           });"""
    )
    assert cut == [], (cut, text_of(driver, "engine-state"))

    # Continued with room to finish: every collection, the statistics whole.
    set_budget(driver, "200")
    click_css(driver, '[data-testid="statistics-continue"]', "Continue the scan")
    wait_for(driver, "the whole statistics", lambda d: [
        e for e in d.find_elements(By.CSS_SELECTOR, '[data-testid="statistics-state"]') if "by a whole scan of Fleet: 400 items" in content(e)], STEP)
    wait_for(driver, "the run of 40 collections", lambda d: "40 collections" in text_of(d, "collections-summary"))
    settled_run(driver)
    # Every box in sight is drawn from the rows the scan read, with no Query of its own: each
    # says so in its head, and the view counts no box Query.
    kept = wait_for(driver, "every box drawn from the scan's rows", lambda d: (lambda marks: marks if marks and all(marks) else None)(
        d.execute_script("return [...document.querySelectorAll('[data-testid=\"collection-run-box\"]')]"
                         ".map((b) => (b.querySelector('[data-testid=\"box-kept\"]') || {}).textContent || null)")))
    assert all(k == "rows from the statistics scan · no Query" for k in kept), kept
    assert driver.find_elements(By.CSS_SELECTOR, '[data-testid="collections-spent"]') == []
    screenshot(driver, "collections-aws-whole.png")

    # Regrouped by the GSI: the index's collections come from a scan of the index.
    choose(driver, present(driver, '[data-testid="collections-group-by"]', "the Grouped by list"), "ByDepot", "Grouped by")
    wait_for(driver, "the index's own gate", lambda d: "the index ByDepot" in content(gate(d)))
    click_css(driver, '[data-testid="statistics-start"]', "Scan to gather statistics (ByDepot)")
    wait_for(driver, "the index's three depots", lambda d: boxes(d) == ["DEPOT#0", "DEPOT#1", "DEPOT#2"], STEP)
    assert "3 collections" in text_of(driver, "collections-summary")
