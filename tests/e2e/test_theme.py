"""Light and dark in the real window: the toggle in the status bar switches the theme, and the
choice is still there when the app is started again."""

from conftest import START_TIMEOUT, database_released, screenshot, start_window
from window import click_css, engine_ready, open_table, settle, text_of, wait_for

BACKGROUND = "return getComputedStyle(document.body).backgroundColor"


def choose_theme(driver, choice: str) -> None:
    for _ in range(3):
        if text_of(driver, "theme-toggle").endswith(f"Theme: {choice}"):
            return
        click_css(driver, '[data-testid="theme-toggle"]', "the theme toggle")
    assert text_of(driver, "theme-toggle").endswith(f"Theme: {choice}")


def test_the_theme_toggle_switches_light_and_dark_and_the_choice_is_kept(window):
    engine_ready(window)
    choose_theme(window, "light")
    assert window.execute_script("return document.documentElement.dataset.theme") == "light"
    light = window.execute_script(BACKGROUND)
    open_table(window, "Telemetry")
    settle()
    screenshot(window, "theme-light.png")

    choose_theme(window, "dark")
    wait_for(window, "the dark theme on <html>", lambda d: d.execute_script("return document.documentElement.dataset.theme") == "dark")
    dark = window.execute_script(BACKGROUND)
    assert dark != light, (light, dark)
    settle()
    screenshot(window, "theme-dark.png")

    # Started again, the app shows the theme the user chose. (The next test starts with the web
    # view's storage emptied: conftest.py's `fresh_state`.)
    window.quit()
    database_released()
    again = start_window(START_TIMEOUT)
    try:
        engine_ready(again)
        assert text_of(again, "theme-toggle").endswith("Theme: dark")
        assert again.execute_script("return document.documentElement.dataset.theme") == "dark"
        assert again.execute_script(BACKGROUND) == dark
    finally:
        again.quit()


VIEWS = ["collections", "items", "indexes", "cost", "code", "transfer", "settings", "stream", "ttl"]


def test_every_view_of_a_table_is_drawn_in_light_and_dark(window):
    """Issue 17: a screenshot of each view of Telemetry's tab in both themes, after the seed
    window's Query ran (so Items, Cost and Code have something to show), each view drawn without
    an error and in the theme's colours."""
    from test_app_window import query_the_seed_window
    from window import open_view

    query_the_seed_window(window)
    backgrounds = {}
    for theme in ("light", "dark"):
        choose_theme(window, theme)
        wait_for(window, f"the {theme} theme", lambda d: d.execute_script("return document.documentElement.dataset.theme") == theme)
        for view in VIEWS:
            panel = open_view(window, view)
            settle(0.4)
            errors = [e.text for e in panel.find_elements("css selector", '[role="alert"]') if e.is_displayed() and e.text]
            assert not errors, f"{view} in {theme}: {errors}"
            window.execute_script("arguments[0].scrollIntoView({block: 'start'})", panel)
            settle(0.2)
            screenshot(window, f"view-{view}-{theme}.png")
        backgrounds[theme] = window.execute_script(BACKGROUND)
    assert backgrounds["light"] != backgrounds["dark"], backgrounds
