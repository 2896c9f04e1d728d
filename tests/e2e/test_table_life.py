"""A table's life in the real window: create a table with a GSI from the sidebar's "New table"
(DynamoDB's messages shown as the name is typed), see it listed and open it; change it in its
Settings (capacity, a GSI added and deleted, stream, TTL, tags); delete it from its Settings by
typing its name and answering the native confirmation.

The confirmation is the system's own message dialog, outside the web view (WebDriver cannot
reach it, and neither can the page: that is the point). The test answers it as a person at the
keyboard would: xdotool finds the dialog's window on the test's X display, focuses it and presses
the keys. Nothing in the app is switched for tests; the release build is the one driven.
"""

from __future__ import annotations

import os
import subprocess
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, screenshot
from test_theme import choose_theme
from window import choose, click, click_css, css, engine_ready, open_view, present, settle, text_of, type_into, wait_for

DIALOG_TITLE = "Delete table"


def field(driver, test_id: str):
    return present(driver, f'[data-testid="{test_id}"]', test_id)


def replace_text(driver, test_id: str, text: str) -> None:
    """Selects what a field holds and types `text` over it, key by key (a real edit, which the
    form sees; WebDriver's clear() is not one, and a re-render can bring the old text back)."""
    element = field(driver, test_id)
    click(driver, element, test_id)
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(text)
    wait_for(driver, f"{test_id} to hold {text!r}", lambda d: field(d, test_id).get_attribute("value") == text)


def new_table(driver, name: str, gsi: str | None = None, shots: str | None = None) -> None:
    """Fills the create-table screen of the embedded connection and creates the table."""
    engine_ready(driver)
    click_css(driver, '[data-testid="new-table-embedded"]', "the sidebar's New table")
    present(driver, '[data-testid="create-table-screen"]', "the create-table screen")
    # DynamoDB's own message as the name is typed: too short first.
    replace_text(driver, "create-name", name[:2])
    wait_for(driver, "DynamoDB's message for a short name",
             lambda d: "at least 3 characters" in text_of(d, "create-problem"))
    replace_text(driver, "create-name", name[:2] + "!")
    wait_for(driver, "DynamoDB's message for a character names cannot have",
             lambda d: f"Value '{name[:2]}!' at 'tableName' failed to satisfy constraint" in text_of(d, "create-problem"))
    replace_text(driver, "create-name", name)
    replace_text(driver, "create-pk-name", "vehicleId")
    click_css(driver, '[data-testid="create-sk-on"]', "the sort key switch")
    replace_text(driver, "create-sk-name", "startedAt")
    if gsi is not None:
        click_css(driver, '[data-testid="create-add-gsi"]', "Add GSI")
        replace_text(driver, "create-index-1-name", gsi)
        replace_text(driver, "create-index-1-pk-name", "depot")
        replace_text(driver, "create-ttl", "expiresAt")
        # The preview: the example vehicles' collections on the table, the depots' on the GSI.
        wait_for(driver, "two collections on the GSI's preview",
                 lambda d: len(d.find_elements(By.CSS_SELECTOR, f'[data-testid="preview-global-{gsi}"] [data-testid="preview-box"]')) == 2)
        assert len(driver.find_elements(By.CSS_SELECTOR, f'[data-testid="preview-table-{name}"] [data-testid="preview-box"]')) == 2
    wait_for(driver, "DynamoDB to accept the draft", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="create-ok"]'))
    if shots is not None:
        for theme in ("light", "dark"):
            choose_theme(driver, theme)
            settle()
            screenshot(driver, f"{shots}-{theme}.png")
        choose_theme(driver, "system")
    click_css(driver, '[data-testid="create-submit"]', "Create table")
    wait_for(driver, f"{name}'s table screen", lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, f'[data-testid="table-screen-{name}"]') if e.is_displayed()])


def native_dialog(timeout: float = 60) -> str:
    """The X window id of the native confirmation, once it is shown."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{DIALOG_TITLE}$"], capture_output=True, text=True)
        ids = found.stdout.split()
        if ids:
            return ids[-1]
        time.sleep(0.2)
    raise AssertionError(f"waited {timeout:.0f} s for the native dialog {DIALOG_TITLE!r}")


def answer_native_dialog(keys: list[str], shot: str | None = None) -> None:
    """Focuses the native dialog and presses `keys`, as a person at the keyboard would."""
    window_id = native_dialog()
    time.sleep(0.5)  # drawn and ready for keys
    if shot is not None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        subprocess.run(["import", "-window", "root", str(ARTIFACTS / shot)], check=False, env=os.environ)
    subprocess.run(["xdotool", "windowfocus", "--sync", window_id], check=True)
    for key in keys:
        subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True)
        time.sleep(0.2)


def delete_through_settings(driver, name: str, keys: list[str], shot: str | None = None) -> None:
    settings = open_view(driver, "settings", name)
    click(driver, css(settings, '[data-testid="delete-table"]'), "Delete table…")
    confirm = css(settings, '[data-testid="delete-table-confirm"]')
    assert not confirm.is_enabled(), "Delete is offered before the name is typed"
    type_into(driver, css(settings, '[data-testid="delete-table-name"]'), name, "the table's name")
    click(driver, confirm, f"Delete {name}")
    answer_native_dialog(keys, shot)


def listed(driver, name: str) -> bool:
    return bool(driver.find_elements(By.CSS_SELECTOR, f'[data-testid="open-table-{name}"]'))


def test_create_a_table_with_a_gsi_see_it_listed_and_open_it(window):
    new_table(window, "Trips", gsi="ByDepot", shots="table-life-create")
    wait_for(window, "Trips in the sidebar's list", lambda d: listed(d, "Trips"))
    settings = open_view(window, "settings", "Trips")
    index = wait_for(window, "the ByDepot row", lambda d: settings.find_elements(By.CSS_SELECTOR, '[data-testid="index-ByDepot"]'))[0]
    cells = [c.get_attribute("textContent") for c in index.find_elements(By.CSS_SELECTOR, "th, td")]
    assert cells[:3] == ["ByDepot", "GSI", "depot (S, partition)"], cells
    assert "vehicleId (S, partition) + startedAt (S, sort)" in text_of(window, "table-keys")
    assert "On · attribute expiresAt" in settings.get_attribute("textContent"), "TTL enabled after CreateTable"
    settle()
    screenshot(window, "table-life-settings.png")


def test_delete_a_table_through_settings_typing_its_name(window):
    new_table(window, "Scratch")
    # Declined in the native dialog: nothing is deleted.
    delete_through_settings(window, "Scratch", ["Escape"])
    wait_for(window, "the declined note", lambda d: "nothing was deleted" in text_of(d, "delete-table-declined"))
    assert listed(window, "Scratch")
    # Confirmed: the token the dialog issued deletes the table; its tab closes, the list forgets it.
    delete_through_settings(window, "Scratch", CONFIRM_KEYS, shot="table-life-native-confirm.png")
    wait_for(window, "Scratch's tab to close", lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-testid="table-screen-Scratch"]'))
    wait_for(window, "Scratch to leave the sidebar's list", lambda d: not listed(d, "Scratch"))


def test_change_a_table_in_its_settings(window):
    new_table(window, "Changes")
    settings = open_view(window, "settings", "Changes")
    shown = lambda: settings.get_attribute("textContent")  # noqa: E731

    click_css(window, '[data-testid="settings-provisioned"]', "Provisioned")
    replace_text(window, "settings-rcu", "4")
    replace_text(window, "settings-wcu", "3")
    click_css(window, '[data-testid="settings-billing-apply"]', "Apply capacity")
    wait_for(window, "the table to be provisioned", lambda d: "Provisioned: 4 RCU, 3 WCU" in shown())

    replace_text(window, "settings-gsi-name", "ByDepot")
    replace_text(window, "settings-gsi-pk", "depot")
    click_css(window, '[data-testid="settings-gsi-add"]', "Add GSI")
    wait_for(window, "ByDepot to be ACTIVE", lambda d: "ACTIVE" in text_of(d, "settings-gsi-ByDepot"))
    cells = [c.get_attribute("textContent") for c in css(settings, '[data-testid="index-ByDepot"]').find_elements(By.CSS_SELECTOR, "th, td")]
    assert cells[:3] == ["ByDepot", "GSI", "depot (S, partition)"], cells

    choose(window, css(settings, '[data-testid="settings-stream"]'), "NEW_AND_OLD_IMAGES", "the stream view type")
    click_css(window, '[data-testid="settings-stream-apply"]', "Apply stream")
    wait_for(window, "the stream to be on", lambda d: "On · NEW_AND_OLD_IMAGES" in shown())

    replace_text(window, "settings-ttl", "expiresAt")
    click_css(window, '[data-testid="settings-ttl-on"]', "Turn on TTL")
    wait_for(window, "TTL to be on", lambda d: "On · attribute expiresAt" in shown())
    # DynamoDB allows one change of TTL an hour: the second is not offered, and the view says until when.
    wait_for(window, "the hour's wait to be said",
             lambda d: "DynamoDB allows one change an hour, so the next from" in text_of(d, "settings-ttl-wait"))
    assert not css(settings, '[data-testid="settings-ttl-off"]').is_enabled()

    replace_text(window, "settings-tag-key", "env")
    replace_text(window, "settings-tag-value", "test")
    click_css(window, '[data-testid="settings-tag-add"]', "Set tag")
    wait_for(window, "the tag env = test", lambda d: "test" in text_of(d, "settings-tag-env"))

    for theme in ("light", "dark"):
        choose_theme(window, theme)
        settle()
        screenshot(window, f"table-life-change-{theme}.png")
    choose_theme(window, "system")

    click_css(window, '[data-testid="settings-delete-gsi-ByDepot"]', "Delete… ByDepot")
    click_css(window, '[data-testid="settings-delete-gsi-confirm-ByDepot"]', "Delete index")
    wait_for(window, "ByDepot to be gone", lambda d: not settings.find_elements(By.CSS_SELECTOR, '[data-testid="settings-gsi-ByDepot"]'))


# The keys that press the dialog's "Delete <table>" button: GTK gives the first button of the
# message dialog the focus, so Return presses it (and Escape closes the dialog as a decline).
CONFIRM_KEYS = ["Return"]
