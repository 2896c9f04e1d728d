"""Export and import in the real window (issue 19, point 5): the demo table Pets is exported from
its Transfer panel to a file chosen in the system's file dialog, the file holds exactly the ten
items with their numbers, and the file is imported into a new table, where the items are read
back. And a plain CSV (a header of bare names, as a spreadsheet writes it) is imported into a
table keyed by a number: the panel previews it with each column's type, and the items read back
hold numbers, not strings.

The file dialog is GTK's own, outside the web view (the web view never sees a path: Rust opens
the dialog and keeps the path behind a handle). The test answers it as a person at the keyboard
would: xdotool finds the dialog's window on the test's X display, focuses it and types the path.
"""

from __future__ import annotations

import pathlib
import subprocess
import tempfile
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import screenshot
from test_table_life import CONFIRM_KEYS, delete_through_settings, listed, replace_text
from window import choose, click, click_css, content, css, engine_ready, open_view, present, type_into, wait_for

# The demo table Pets (crates/dynotable-app/src/demo.rs), as DynamoDB JSON lines: attributes in
# name order, numbers as DynamoDB's decimal text.
PETS = [
    ("Dog", "Fido", 7),
    ("Dog", "Rover", 3),
    ("Dog", "Spot", 11),
    ("Dog", "Bella", 2),
    ("Cat", "Whiskers", 4),
    ("Cat", "Luna", 1),
    ("Cat", "Tom", 9),
    ("Bird", "Tweety", 2),
    ("Fish", "Nemo", 1),
    ("Rabbit", "Thumper", 5),
]
PETS_LINES = sorted(
    f'{{"Item":{{"Age":{{"N":"{age}"}},"AnimalType":{{"S":"{animal}"}},"Name":{{"S":"{name}"}}}}}}' for animal, name, age in PETS
)
COPY = "PetsCopy"
FILE_NAME = "pets.ddb.jsonl"


def native_window(title: str, timeout: float = 90) -> str:
    """The X window id of the system dialog titled `title`, once it is shown."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{title}$"], capture_output=True, text=True)
        ids = found.stdout.split()
        if ids:
            return ids[-1]
        time.sleep(0.2)
    raise AssertionError(f"waited {timeout:.0f} s for the system dialog {title!r}")


def closed(window_id: str, timeout: float) -> bool:
    """Whether the dialog `window_id` closes within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^(Save|Open) File$"], capture_output=True, text=True)
        if window_id not in shown.stdout.split():
            return True
        time.sleep(0.2)
    return False


def answer_file_dialog(title: str, path: pathlib.Path, first_keys: list[str]) -> None:
    """Types `path` into GTK's file dialog titled `title` and accepts it with Return.
    `first_keys` bring its path field forward and empty it (the save dialog's name field holds
    the suggested name; the open dialog's location field opens with ctrl+L). A dialog that does
    not close (keys lost on a loaded machine, a path it refused) is closed with Escape: the
    caller sees no file chosen and asks again."""
    window_id = native_window(title)
    time.sleep(1.0)  # drawn and ready for keys
    subprocess.run(["xdotool", "windowfocus", "--sync", window_id], check=True)
    for key in first_keys:
        subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True)
        time.sleep(0.5)
    subprocess.run(["xdotool", "type", "--clearmodifiers", "--delay", "40", str(path)], check=True)
    time.sleep(0.5)
    subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], check=True)
    if not closed(window_id, 60):
        subprocess.run(["xdotool", "windowfocus", "--sync", window_id], check=False)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Escape"], check=False)
        if not closed(window_id, 60):
            raise AssertionError(f"the file dialog {title!r} stayed open after Return and Escape")


def choose_file(driver, panel, label: str, title: str, path: pathlib.Path, first_keys: list[str], chosen: str) -> None:
    """Clicks `label`, answers the file dialog with `path`, and waits for the panel to say
    `chosen`; asks again (up to three times) when the dialog did not take the path."""
    for _ in range(3):
        click(driver, button(panel, label), label)
        answer_file_dialog(title, path, first_keys)
        try:
            wait_for(driver, f"the panel to say {chosen!r}", lambda d: chosen in (shown(panel, "transfer-files") or ""), 60)
            return
        except TimeoutException:
            continue
    raise AssertionError(f"the {title} dialog did not take {path} in three tries: the panel says {shown(panel, 'transfer-files')!r}")


def shown(panel, test_id: str) -> str | None:
    """The text of the panel's element `test_id`, once it is there (None until then)."""
    found = panel.find_elements(By.CSS_SELECTOR, f'[data-testid="{test_id}"]')
    return content(found[0]) if found else None


def button(scope, label: str):
    return scope.find_element(By.XPATH, f".//button[normalize-space()='{label}']")


def transfer_panel(driver, table: str):
    view = open_view(driver, "transfer", table)
    panel = present(driver, f'[data-testid="table-screen-{table}"] section[aria-label="Import and export"]', f"{table}'s Transfer panel")
    assert view.is_displayed()
    return panel


def dynamodb_json_chosen(panel) -> None:
    fmt = Select(panel.find_element(By.XPATH, ".//label[starts-with(normalize-space(), 'Format')]//select"))
    if fmt.first_selected_option.get_attribute("value") != "dynamodbJson":
        fmt.select_by_value("dynamodbJson")


def create_pets_copy(driver) -> None:
    """A table of Pets' key schema (AnimalType, Name), through the create-table screen."""
    engine_ready(driver)
    click_css(driver, '[data-testid="new-table-embedded"]', "the sidebar's New table")
    present(driver, '[data-testid="create-table-screen"]', "the create-table screen")
    replace_text(driver, "create-name", COPY)
    replace_text(driver, "create-pk-name", "AnimalType")
    click_css(driver, '[data-testid="create-sk-on"]', "the sort key switch")
    replace_text(driver, "create-sk-name", "Name")
    wait_for(driver, "DynamoDB to accept the draft", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="create-ok"]'))
    click_css(driver, '[data-testid="create-submit"]', "Create table")
    wait_for(driver, f"{COPY}'s table screen", lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, f'[data-testid="table-screen-{COPY}"]') if e.is_displayed()])


def collection_rows(driver, table: str, animal: str, count: int) -> list[str]:
    """The rows the query bar shows for `AnimalType = animal` on `table`, once there are `count`."""
    open_view(driver, "items", table)
    screen = f'[data-testid="table-screen-{table}"]'
    bar = present(driver, f"{screen} [data-testid=\"query-bar\"]", f"{table}'s query bar")
    type_into(driver, css(bar, '[data-testid="qb-pk"]'), animal, "the partition-key value")
    click(driver, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    selector = f'{screen} section[aria-label="Item collection AnimalType = {animal}"] [role="grid"] [role="row"].item-row'

    def rows(d):
        found = [content(r) for r in d.find_elements(By.CSS_SELECTOR, selector)]
        return found if len(found) == count else None

    return wait_for(driver, f"{count} {animal} items of {table}", rows)


def test_pets_is_exported_to_a_chosen_file_and_imported_into_a_new_table(window):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dt-e2e-"))
    target = folder / FILE_NAME

    # Export: the whole table, DynamoDB JSON, to the file typed into the save dialog.
    panel = transfer_panel(window, "Pets")
    dynamodb_json_chosen(panel)
    estimate = wait_for(window, "the export's estimate", lambda d: panel.find_elements(By.CSS_SELECTOR, '[data-testid="export-estimate"]'))[0]
    assert content(estimate).startswith("Exporting reads about 10 items ("), content(estimate)
    choose_file(window, panel, "Export to…", "Save File", target, ["ctrl+a", "BackSpace"], f"Export to {FILE_NAME}.")
    assert not target.exists(), "the dialog only chose the file"
    click(window, button(panel, f"Export to {FILE_NAME}"), f"Export to {FILE_NAME}")
    done = wait_for(window, "the export's summary", lambda d: shown(panel, "transfer-done"))
    assert done.startswith("Exported 10 items: "), done

    # The file: the ten items, one per line, each number exactly as stored; nothing else beside it.
    lines = target.read_text(encoding="utf-8").splitlines()
    assert sorted(lines) == PETS_LINES, lines
    assert sorted(p.name for p in folder.iterdir()) == [FILE_NAME], "no partial file left beside it"

    # Import into a new table of the same keys, from the file chosen in the open dialog.
    create_pets_copy(window)
    panel = transfer_panel(window, COPY)
    dynamodb_json_chosen(panel)
    choose_file(window, panel, "Choose a file to import…", "Open File", target, ["ctrl+l"], f"Import from {FILE_NAME}.")
    click(window, button(panel, "Estimate the import"), "Estimate the import")
    estimate = wait_for(window, "the import's estimate", lambda d: shown(panel, "import-estimate"))
    assert estimate.startswith("Importing 10 items takes 1 BatchWriteItem request and "), estimate
    click(window, button(panel, "Import"), "Import")
    done = wait_for(window, "the import's summary", lambda d: shown(panel, "transfer-done"))
    assert done.startswith("Imported 10 items: "), done

    # The items, read back from the new table.
    dogs = collection_rows(window, COPY, "Dog", 4)
    for name, age in [("Bella", 2), ("Fido", 7), ("Rover", 3), ("Spot", 11)]:
        assert any(name in row and str(age) in row for row in dogs), (name, dogs)
    cats = collection_rows(window, COPY, "Cat", 3)
    for name in ["Luna", "Tom", "Whiskers"]:
        assert any(name in row for row in cats), (name, cats)
    rabbits = collection_rows(window, COPY, "Rabbit", 1)
    assert "Thumper" in rabbits[0] and "5" in rabbits[0], rabbits

    # Leave the run's data as the other tests expect it.
    delete_through_settings(window, COPY, CONFIRM_KEYS)
    wait_for(window, f"{COPY} to leave the sidebar's list", lambda d: not listed(d, COPY))
    target.unlink()
    folder.rmdir()


# A plain CSV: no types in its header. The reading of sensor 1 has 38 significant digits (a double
# keeps 15 to 17); sensor 2 has no site (an empty cell).
SENSORS = "Sensors"
BIG = "12345678901234567890123456789012345678"
SENSORS_CSV = f"sensorId,reading,site\n1,{BIG},north\n2,-0.5,\n"


def create_sensors(driver) -> None:
    """A table keyed by a number, sensorId (N), through the create-table screen."""
    engine_ready(driver)
    click_css(driver, '[data-testid="new-table-embedded"]', "the sidebar's New table")
    present(driver, '[data-testid="create-table-screen"]', "the create-table screen")
    replace_text(driver, "create-name", SENSORS)
    replace_text(driver, "create-pk-name", "sensorId")
    choose(driver, present(driver, '[data-testid="create-pk-type"]', "the partition key's type"), "N", "the partition key's type")
    wait_for(driver, "DynamoDB to accept the draft", lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="create-ok"]'))
    click_css(driver, '[data-testid="create-submit"]', "Create table")
    wait_for(driver, f"{SENSORS}'s table screen", lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, f'[data-testid="table-screen-{SENSORS}"]') if e.is_displayed()])


def sensor_row(driver, sensor: str):
    """The row the query bar shows for `sensorId = sensor` on Sensors."""
    open_view(driver, "items", SENSORS)
    screen = f'[data-testid="table-screen-{SENSORS}"]'
    bar = present(driver, f"{screen} [data-testid=\"query-bar\"]", f"{SENSORS}'s query bar")
    type_into(driver, css(bar, '[data-testid="qb-pk"]'), sensor, "the partition-key value")
    click(driver, css(bar, '[data-testid="qb-run"]'), "the bar's Run Query")
    selector = f'{screen} section[aria-label="Item collection sensorId = {sensor}"] [role="grid"] [role="row"].item-row'
    return wait_for(driver, f"sensor {sensor}'s item", lambda d: d.find_elements(By.CSS_SELECTOR, selector))[0]


def drawn_as(row, kind: str) -> list[str]:
    """The values of `row` drawn as type `kind` (`n` for numbers, `s` for strings)."""
    return [content(e) for e in row.find_elements(By.CSS_SELECTOR, f".tv-{kind}")]


def test_a_plain_csv_is_previewed_with_its_types_and_imports_numbers_as_numbers(window):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dt-e2e-"))
    source = folder / "sensors.csv"
    source.write_text(SENSORS_CSV, encoding="utf-8")

    create_sensors(window)
    panel = transfer_panel(window, SENSORS)
    Select(panel.find_element(By.XPATH, ".//label[starts-with(normalize-space(), 'Format')]//select")).select_by_value("csv")
    choose_file(window, panel, "Choose a file to import…", "Open File", source, ["ctrl+l"], "Import from sensors.csv.")

    # The preview: the key's type from the key schema, the others inferred from the rows.
    preview = wait_for(window, "the CSV preview", lambda d: panel.find_elements(By.CSS_SELECTOR, '[data-testid="csv-preview"]'))[0]
    types = {
        name: Select(css(preview, f'select[aria-label="Type of {name}"]')).first_selected_option.get_attribute("value")
        for name in ("sensorId", "reading", "site")
    }
    assert types == {"sensorId": "N", "reading": "N", "site": "S"}, types
    sources = [content(e) for e in preview.find_elements(By.CSS_SELECTOR, '[data-testid="csv-type-source"]')]
    assert sources == ["key schema", "inferred", "inferred"], sources
    assert BIG in content(preview), content(preview)
    screenshot(window, "import-csv-preview.png")

    click(window, button(panel, "Estimate the import"), "Estimate the import")
    estimate = wait_for(window, "the import's estimate", lambda d: shown(panel, "import-estimate"))
    assert estimate.startswith("Importing 2 items takes 1 BatchWriteItem request and "), estimate
    click(window, button(panel, "Import"), "Import")
    done = wait_for(window, "the import's summary", lambda d: shown(panel, "transfer-done"))
    assert done.startswith("Imported 2 items: "), done

    # Read back: the reading is a number, every digit kept; the site a string; an empty cell no
    # attribute at all.
    first = sensor_row(window, "1")
    assert BIG in drawn_as(first, "n"), (drawn_as(first, "n"), content(first))
    assert "north" in drawn_as(first, "s"), (drawn_as(first, "s"), content(first))
    assert BIG not in drawn_as(first, "s")
    second = sensor_row(window, "2")
    assert "-0.5" in drawn_as(second, "n"), (drawn_as(second, "n"), content(second))
    assert drawn_as(second, "s") == [], content(second)

    source.unlink()
    folder.rmdir()
