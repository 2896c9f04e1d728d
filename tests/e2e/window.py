"""What a person does in the real window, as functions the end-to-end tests share.

Every test gets a window of its own (the `window` fixture in conftest.py starts the app anew), so
a test sets up everything it needs with these functions: it waits for the engine, opens its
table, opens its section, fills its form. Nothing is left over from another test, and each test
passes alone (`tests/e2e/run.sh -k NAME`), in any order, and in the full run.

Interactions are made as a person makes them: an element is scrolled to the middle of the
viewport and clicked only once it is displayed, enabled, and the topmost element at its centre
(not under the status bar, a dialog or a sticky header). Every wait is bounded and, when it
times out, says what it waited for.
"""

from __future__ import annotations

import time
from typing import Callable, TypeVar

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

T = TypeVar("T")

# Seconds. Bounded, and long enough for a loaded 2-core machine: first launch loads the demo
# tables (thousands of items) before the engine reports ready.
STARTUP = 180
STEP = 90

# Errors that mean "not yet": the element is being re-rendered, or not there yet.
NOT_YET = (NoSuchElementException, StaleElementReferenceException)


def wait_for(driver: WebDriver, what: str, condition: Callable[[WebDriver], T], timeout: float = STEP) -> T:
    """Waits until `condition` returns something truthy and returns it; on timeout the error says
    `what` was awaited."""
    return WebDriverWait(driver, timeout, poll_frequency=0.2, ignored_exceptions=NOT_YET).until(
        condition, message=f"waited {timeout:.0f} s for {what}"
    )


def css(scope, selector: str) -> WebElement:
    return scope.find_element(By.CSS_SELECTOR, selector)


def present(driver: WebDriver, selector: str, what: str | None = None, timeout: float = STEP) -> WebElement:
    """The first element matching `selector`, once there is one."""
    return wait_for(driver, what or f"an element matching {selector}", lambda d: d.find_elements(By.CSS_SELECTOR, selector), timeout)[0]


def text_of(driver: WebDriver, test_id: str) -> str:
    """The text of a visible element. (textContent: WebKitWebDriver reports no visible text for
    an element that clips its overflow, though it is drawn.)"""
    element = css(driver, f'[data-testid="{test_id}"]')
    assert element.is_displayed(), f"{test_id} is not displayed"
    return element.get_attribute("textContent")


def content(element: WebElement) -> str:
    return element.get_attribute("textContent") or ""


# Scrolls the element to the middle of its scroll containers, then reports whether the element
# (or one of its descendants) is the topmost thing at its centre, i.e. what a click there hits.
_REACHABLE = """
const el = arguments[0];
el.scrollIntoView({block: 'center', inline: 'center'});
const r = el.getBoundingClientRect();
if (r.width === 0 || r.height === 0) return 'has no size';
const x = r.left + r.width / 2, y = r.top + r.height / 2;
if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return 'is outside the viewport';
const top = document.elementFromPoint(x, y);
if (top === null) return 'is under nothing';
if (top === el || el.contains(top)) return '';
return 'is covered by ' + top.tagName.toLowerCase() + (top.className ? '.' + String(top.className).split(' ').join('.') : '');
"""


def reachable(driver: WebDriver, element: WebElement) -> str:
    """'' when a click at the element's centre reaches it; otherwise why not."""
    if not element.is_displayed():
        return "is not displayed"
    if not element.is_enabled():
        return "is disabled"
    # A control that keeps the focus while unavailable (Run while it runs) says so with aria-disabled.
    if element.get_attribute("aria-disabled") == "true":
        return "is unavailable (aria-disabled)"
    return driver.execute_script(_REACHABLE, element)


def click(driver: WebDriver, element: WebElement, what: str = "the element", timeout: float = STEP) -> None:
    """Clicks `element` as a person would: scrolled into view, and only once it is displayed,
    enabled and not covered by anything."""
    _click_when_reachable(driver, lambda: element, what, timeout)


def click_css(driver: WebDriver, selector: str, what: str | None = None, scope=None) -> WebElement:
    """Clicks the first element matching `selector` (in `scope`), found again at each try: a
    virtualised list may draw the element anew between the look and the click."""
    root = driver if scope is None else scope

    def find():
        found = root.find_elements(By.CSS_SELECTOR, selector)
        return found[0] if found else None

    return _click_when_reachable(driver, find, what or selector, STEP)


def _click_when_reachable(driver: WebDriver, find: Callable[[], WebElement | None], what: str, timeout: float) -> WebElement:
    last = {"why": "was never checked"}

    def ready(d: WebDriver) -> WebElement | None:
        element = find()
        if element is None:
            last["why"] = "was not there"
            return None
        last["why"] = reachable(d, element)
        if last["why"]:
            return None
        try:
            element.click()
            return element
        except (ElementClickInterceptedException, ElementNotInteractableException) as err:
            last["why"] = f"refused the click ({type(err).__name__})"
            return None

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.2, ignored_exceptions=NOT_YET).until(ready)
    except Exception as err:
        raise AssertionError(f"could not click {what} within {timeout:.0f} s: it {last['why']}") from err


def click_xpath(driver: WebDriver, xpath: str, what: str, scope=None) -> WebElement:
    root = driver if scope is None else scope
    element = wait_for(driver, what, lambda d: root.find_elements(By.XPATH, xpath))[0]
    click(driver, element, what)
    return element


def type_into(driver: WebDriver, element: WebElement, text: str, what: str = "the field") -> None:
    """Replaces what a field holds with `text` as a person does: select all, then type key by key.
    (WebDriver's clear() empties the field without an input event, so a React field keeps its
    state and puts the old value back at its next render, before or among the keys typed.)"""
    click(driver, element, what)
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(Keys.BACK_SPACE)
    element.send_keys(text)


def choose(driver: WebDriver, select: WebElement, value: str, what: str = "the list") -> None:
    """Picks the option with `value` in a <select>, once the option is offered."""
    wait_for(driver, f"option {value!r} in {what}", lambda d: value in [o.get_attribute("value") for o in Select(select).options])
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", select)
    Select(select).select_by_value(value)


def engine_ready(driver: WebDriver) -> None:
    """Waits for the embedded engine (first launch: until the demo tables are loaded)."""
    wait_for(driver, "the embedded engine to report ready", lambda d: "ready" in text_of(d, "engine-state"), STARTUP)


def open_table(driver: WebDriver, table: str) -> WebElement:
    """Opens `table` from the sidebar (or brings its tab forward) and returns its screen."""
    engine_ready(driver)
    click_css(driver, f'[data-testid="open-table-{table}"]', f"the sidebar's {table} entry")
    screen = f'[data-testid="table-screen-{table}"]'
    wait_for(driver, f"{table}'s table screen to be shown", lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, screen) if e.is_displayed()])
    return css(driver, screen)


def open_view(driver: WebDriver, view: str, table: str = "Telemetry") -> WebElement:
    """Shows a view of the table screen (opening the table first) by clicking its tab, and returns
    the view's panel. Views: collections, items, indexes, cost, code, transfer, settings, stream, ttl."""
    screen = open_table(driver, table)
    tab = wait_for(driver, f"the {view} tab of {table}", lambda d: screen.find_elements(By.CSS_SELECTOR, f'[data-testid="view-tab-{view}"]'))[0]
    if tab.get_attribute("aria-selected") != "true":
        click(driver, tab, f"the {view} tab of {table}")
        wait_for(driver, f"the {view} tab to be selected", lambda d: tab.get_attribute("aria-selected") == "true")
    panel = f'[data-testid="view-{view}"]'
    return wait_for(driver, f"the {view} view of {table} to be shown",
                    lambda d: [e for e in screen.find_elements(By.CSS_SELECTOR, panel) if e.is_displayed()])[0]


# Which view of the table screen holds each section (the screen was one page of folded sections;
# it is now a strip of views, each a tab).
SECTION_VIEWS = {
    "section-indexes": "indexes",
    "section-cost": "cost",
    "section-builder": "code",
    "section-history": "code",
    "section-transfer": "transfer",
}


def open_section(driver: WebDriver, test_id: str, table: str = "Telemetry") -> WebElement:
    """Shows the view that holds a section of the table screen (opening the table first) and
    returns the section."""
    view = open_view(driver, SECTION_VIEWS[test_id], table)
    return wait_for(driver, f"section {test_id} of {table}", lambda d: view.find_elements(By.CSS_SELECTOR, f'[data-testid="{test_id}"]'))[0]


def settle(seconds: float = 0.3) -> None:
    """A short pause for a repaint before a screenshot (never used as a wait for a state)."""
    time.sleep(seconds)
