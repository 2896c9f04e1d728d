"""Time one of ui/perf's measurement pages in WebKitGTK (the engine the app's window runs on
Linux), without the app: the page's own figures (see ui/src/perf/collectionsRunPerf.tsx).

    npx vite build --config bench/app/perf.vite.config.ts
    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/app/page.py 'table=fleet' 'table=hot'

Each argument is a query string for the Collections view's page, or `PAGE?QUERY` for another
page of ui/perf (`static-scroll?rows=0`: the floor, a page that only scrolls); each is opened in
a fresh MiniBrowser (WebKitGTK's own test browser, driven through WebKitWebDriver) at 1280x800,
and its result printed as a JSON line. Environment passes through, so a WEBKIT_* setting can be compared with a run without it.
"""

import functools
import http.server
import json
import pathlib
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parents[2] / "target" / "ui-perf"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve() -> int:
    handler = functools.partial(Quiet, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def run(port: int, query: str, page: str = "collections-run") -> dict:
    from selenium import webdriver
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.WebKitGTKOptions()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    options.add_argument("--geometry=1280x800")
    driver = webdriver.WebKitGTK(options=options)
    try:
        driver.get(f"http://127.0.0.1:{port}/perf/{page}.html?{query}")
        return WebDriverWait(driver, 900, poll_frequency=0.5).until(lambda d: d.execute_script("return window.perfResult || null"))
    finally:
        driver.quit()


def main() -> None:
    port = serve()
    for arg in sys.argv[1:] or ["table=fleet"]:
        # `PAGE?QUERY` opens another page of ui/perf (e.g. `static-scroll?rows=0`).
        page, query = arg.split("?", 1) if "?" in arg else ("collections-run", arg)
        print(json.dumps({"query": arg, **run(port, query, page)}), flush=True)


if __name__ == "__main__":
    main()
