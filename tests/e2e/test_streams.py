"""The Stream and TTL views in the real window (issue 20, points 5 and 6), on the embedded engine.

Stream: a new table has no stream, so its Stream view says so and opens Settings, where the
stream is turned on; back in the Stream view a tail starts at LATEST; an item put through the
app's PartiQL editor appears as an INSERT, its UPDATE as a MODIFY whose old and new images are
shown side by side; paused, the tail says so, then counts a new write as held for the resume
instead of showing it, and shows it once resumed.

TTL: a table created with a TTL attribute and its stream turned on; an item whose expiry has just
passed is listed as due in the TTL view, with the embedded engine's next sweep; "Sweep now"
deletes it (or the background sweep, every 30 s, got there first) and the deletion appears in
the view's deletions, and in the Stream view from TRIM_HORIZON, marked as the service marks a
Time to Live deletion.

Each test starts its own window (conftest.py) and creates its own tables, named for the run.
"""

from __future__ import annotations

import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_collections_view import screenshots_light_and_dark
from test_table_life import new_table
from window import choose, click, click_css, content, css, open_table, open_view, present, wait_for

PARTIQL = '[data-testid="partiql-screen"]'


def run_name(prefix: str) -> str:
    """A table name no earlier test of this data folder used."""
    return f"{prefix}{int(time.time() * 1000) % 10_000_000}"


def gone(element) -> bool:
    """Whether `element` has left the page (re-rendered away)."""
    try:
        element.is_displayed()
        return False
    except StaleElementReferenceException:
        return True


def run_statement(driver, statement: str) -> None:
    """Types `statement` into the embedded connection's PartiQL editor and runs it (Ctrl+Enter),
    waiting for its outcome; a refusal fails the test with DynamoDB's message."""
    click_css(driver, '[data-testid="partiql-embedded"]', "the Embedded connection's PartiQL button")
    editor = present(driver, f'{PARTIQL} [data-testid="partiql-input"]', "the statement editor")
    click(driver, editor, "the statement editor")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).send_keys(Keys.DELETE).perform()
    editor.send_keys(statement)
    wait_for(driver, "the typed statement", lambda d: content(css(d, f"{PARTIQL} .cm-content")) == statement)
    outcome = f'{PARTIQL} [data-testid="partiql-summary"], {PARTIQL} [data-testid="partiql-error"]'
    before = driver.find_elements(By.CSS_SELECTOR, outcome)
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    shown = wait_for(driver, f"the outcome of {statement}", lambda d: all(gone(e) for e in before) and d.find_elements(By.CSS_SELECTOR, outcome))
    assert shown[0].get_attribute("data-testid") == "partiql-summary", content(shown[0])


def turn_the_stream_on(driver, table: str, settings) -> None:
    choose(driver, css(settings, '[data-testid="settings-stream"]'), "NEW_AND_OLD_IMAGES", "the stream view type")
    click_css(driver, '[data-testid="settings-stream-apply"]', "Apply stream")
    wait_for(driver, f"{table}'s stream to be on", lambda d: "On · NEW_AND_OLD_IMAGES" in content(settings))


def records(view, event: str | None = None):
    rows = [r for r in view.find_elements(By.CSS_SELECTOR, '[data-testid="stream-record"]') if r.is_displayed()]
    return [r for r in rows if event is None or r.get_attribute("data-event") == event]


def status(view) -> str:
    return content(css(view, '[data-testid="stream-status"]'))


def test_a_live_tail_shows_an_insert_and_a_modify_as_a_diff(window):
    table = run_name("Tail")
    new_table(window, table)
    stream = open_view(window, "stream", table)
    off = present(window, f'[data-testid="table-screen-{table}"] [data-testid="stream-off"]', "the stream-off note")
    assert f"{table} has no stream turned on" in content(off), content(off)
    click(window, css(off, '[data-testid="stream-open-settings"]'), "Open Settings")
    settings = open_view(window, "settings", table)
    turn_the_stream_on(window, table, settings)

    stream = open_view(window, "stream", table)
    start = wait_for(window, "the tail's Start", lambda d: stream.find_elements(By.CSS_SELECTOR, '[data-testid="stream-start"]'))[0]
    assert css(stream, '[data-testid="stream-from-latest"]').is_selected(), "LATEST is where a tail starts"
    click(window, start, "Start the tail")
    wait_for(window, "the tail to run from LATEST", lambda d: "Tailing from LATEST" in status(stream))

    run_statement(window, f"INSERT INTO \"{table}\" VALUE {{'vehicleId': 'VEH#1', 'startedAt': 'A', 'speed': 10, 'plate': 'KX-41'}}")
    stream = open_view(window, "stream", table)
    wait_for(window, "the INSERT in the tail", lambda d: records(stream, "INSERT"))
    assert "vehicleId = VEH#1 · startedAt = A" in content(records(stream, "INSERT")[0])

    run_statement(window, f"UPDATE \"{table}\" SET speed = 99.5 REMOVE plate WHERE vehicleId = 'VEH#1' AND startedAt = 'A'")
    stream = open_view(window, "stream", table)
    modify = wait_for(window, "the MODIFY in the tail", lambda d: records(stream, "MODIFY"))[0]
    # Newest first.
    assert [r.get_attribute("data-event") for r in records(stream)] == ["MODIFY", "INSERT"]
    click(window, modify, "the MODIFY record")
    diff = present(window, f'[data-testid="table-screen-{table}"] [data-testid="stream-diff"]', "the diff of the MODIFY")
    speed = css(diff, '[data-testid="diff-speed"]')
    assert speed.get_attribute("data-change") == "changed"
    assert "10" in content(speed) and "99.5" in content(speed), content(speed)
    assert css(diff, '[data-testid="diff-plate"]').get_attribute("data-change") == "removed"
    assert css(diff, '[data-testid="diff-vehicleId"]').get_attribute("data-change") == "same"
    screenshots_light_and_dark(window, "stream-tail")

    # Paused: the tail says so (the app's own word, not the button's), then a new write is
    # counted as held for the resume, not shown. The count comes from the tail having read the
    # write: by then it has shown it or held it, so the list is checked then, not after a wait.
    click(window, css(stream, '[data-testid="stream-pause"]'), "Pause")
    wait_for(window, "the tail to say it paused", lambda d: "Paused: no new records yet" in status(stream))
    run_statement(window, f"INSERT INTO \"{table}\" VALUE {{'vehicleId': 'VEH#2', 'startedAt': 'B'}}")
    stream = open_view(window, "stream", table)
    wait_for(window, "VEH#2's INSERT held by the paused tail", lambda d: "Paused: 1 new record held until you resume." in status(stream))
    assert len(records(stream)) == 2, [content(r) for r in records(stream)]
    click(window, css(stream, '[data-testid="stream-resume"]'), "Resume")
    wait_for(window, "VEH#2's INSERT after the resume", lambda d: any("VEH#2" in content(r) for r in records(stream, "INSERT")))
    assert "Tailing from LATEST" in status(stream), status(stream)
    click(window, css(stream, '[data-testid="stream-stop"]'), "Stop")
    wait_for(window, "the tail to stop", lambda d: status(stream) == "Stopped.")


def test_an_expired_item_is_swept_and_its_deletion_marked_as_time_to_live(window):
    table = run_name("Expiry")
    # Created with a GSI and the TTL attribute expiresAt.
    new_table(window, table, gsi="ByDepot")
    settings = open_view(window, "settings", table)
    turn_the_stream_on(window, table, settings)
    expired = int(time.time()) - 30
    run_statement(window, f"INSERT INTO \"{table}\" VALUE {{'vehicleId': 'VEH#gone', 'startedAt': 'A', 'expiresAt': {expired}}}")
    run_statement(window, f"INSERT INTO \"{table}\" VALUE {{'vehicleId': 'VEH#later', 'startedAt': 'A', 'expiresAt': {expired + 86_400}}}")

    ttl = open_view(window, "ttl", table)
    sweep = present(window, f'[data-testid="table-screen-{table}"] [data-testid="ttl-next-sweep"]', "the next sweep")
    assert "The embedded engine deletes expired items every 30 s" in content(sweep), content(sweep)
    items = wait_for(window, "the items due to expire", lambda d: [i for i in ttl.find_elements(By.CSS_SELECTOR, '[data-testid="ttl-item"]') if i.is_displayed()])
    states = {content(i).split(" · ")[0]: i.get_attribute("data-state") for i in items}
    # The background sweep may have deleted VEH#gone already; VEH#later waits a day.
    assert states.get("vehicleId = VEH#later") == "pending", states
    assert states.get("vehicleId = VEH#gone", "due") == "due", states
    screenshots_light_and_dark(window, "ttl-view")

    click(window, css(ttl, '[data-testid="ttl-sweep-now"]'), "Sweep now")
    present(window, f'[data-testid="table-screen-{table}"] [data-testid="ttl-swept"]', "the sweep's result")
    wait_for(window, "VEH#gone to leave the due list", lambda d: not any(
        "VEH#gone" in content(i) for i in ttl.find_elements(By.CSS_SELECTOR, '[data-testid="ttl-item"]')))
    deletion = wait_for(window, "the TTL deletion among the deletions seen", lambda d: [r for r in records(ttl, "REMOVE") if "VEH#gone" in content(r)])[0]
    assert deletion.find_elements(By.CSS_SELECTOR, '[data-testid="stream-ttl-mark"]'), content(deletion)

    # The Stream view from TRIM_HORIZON: the REMOVE is the service's, marked as a TTL deletion.
    stream = open_view(window, "stream", table)
    click(window, css(stream, '[data-testid="stream-from-trim-horizon"]'), "TRIM_HORIZON")
    click(window, css(stream, '[data-testid="stream-start"]'), "Start the tail")
    remove = wait_for(window, "the REMOVE in the tail", lambda d: records(stream, "REMOVE"))[0]
    assert remove.find_elements(By.CSS_SELECTOR, '[data-testid="stream-ttl-mark"]'), content(remove)
    assert len(records(stream, "INSERT")) == 2
    click(window, remove, "the REMOVE record")
    diff = present(window, f'[data-testid="table-screen-{table}"] [data-testid="stream-diff"]', "the REMOVE's images")
    assert "Deleted by Time to Live" in content(diff)
    assert css(diff, '[data-testid="diff-expiresAt"]').get_attribute("data-change") == "removed"
    open_table(window, table)
