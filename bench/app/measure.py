"""The two halves of bench/app/run.sh.

`load`: fills a table `Big` (pk S, sk N) with one collection `COLL#big` of 100,000 items through
dynotable-local (BatchWriteItem, 25 a request, boto3).

`app`: launches the real app through tauri-driver, opens `Big`, queries the whole collection in
1 MB pages (no Limit) clicking Load more until the end, jumps to the last item, and reads the
resident memory of the app's processes. Writes the figures to --out.
"""

import argparse
import datetime
import os
import pathlib
import subprocess
import time

ITEMS = 100_000


def load(endpoint: str) -> None:
    import boto3

    client = boto3.client(
        "dynamodb", endpoint_url=endpoint, region_name="us-east-1",
        aws_access_key_id="bench", aws_secret_access_key="bench",
    )
    client.create_table(
        TableName="Big",
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    )
    started = time.monotonic()
    for start in range(0, ITEMS, 25):
        requests = [
            {"PutRequest": {"Item": {
                "pk": {"S": "COLL#big"}, "sk": {"N": str(i)},
                "label": {"S": f"reading {i}"}, "value": {"N": str(i % 997)},
            }}}
            for i in range(start, min(start + 25, ITEMS))
        ]
        left = {"Big": requests}
        while left:
            left = client.batch_write_item(RequestItems=left).get("UnprocessedItems") or {}
    print(f"loaded {ITEMS} items in {time.monotonic() - started:.1f} s")


def rss_kib(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pss_kib(pid: int) -> int:
    """Proportional set size: the process's own pages, plus its share of the pages it shares with
    other processes (the WebKit library is mapped by all three of the app's processes, and RSS
    counts it in each)."""
    for line in pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def app_processes(size=rss_kib) -> dict[str, int]:
    """RSS (or `size`) by process: the app and the WebKit processes it started, among the
    processes the script that runs this bench started (its parent's descendants): another app
    running on the same machine (a test, a second bench) is not counted."""
    found: dict[str, int] = {}
    out = subprocess.run(["ps", "-eo", "pid=,ppid=,comm="], capture_output=True, text=True, check=True).stdout
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for line in out.splitlines():
        pid, ppid, name = line.split(None, 2)
        parents[int(pid)] = int(ppid)
        names[int(pid)] = name.strip()
    root = os.getppid()

    def ours(pid: int) -> bool:
        while pid > 1:
            if pid == root:
                return True
            pid = parents.get(pid, 1)
        return False

    for pid, name in names.items():
        # The app under any name it was copied to (ps cuts names at 15 characters), and the web
        # view's processes (not the WebDriver).
        app = name.startswith("dynotable") and not name.startswith("dynotable-local")
        web = name.startswith(("WebKitWebProces", "WebKitNetworkPr"))
        if (app or web) and ours(pid):
            found[f"{name} ({pid})"] = size(pid)
    return found


def app(binary: str, driver_url: str, out: str) -> None:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.options import ArgOptions
    from selenium.webdriver.support.ui import WebDriverWait

    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": binary})
    launched = time.monotonic()
    driver = webdriver.Remote(command_executor=driver_url, options=options)
    figures: list[tuple[str, str]] = []
    try:
        wait = WebDriverWait(driver, 600, poll_frequency=0.02)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="open-table-Big"]'))
        figures.append(("launch → table list shown", f"{time.monotonic() - launched:.2f} s"))
        driver.find_element(By.CSS_SELECTOR, '[data-testid="open-table-Big"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="table-keys"]'))
        figures.append(("launch → first table shown (overview + map)", f"{time.monotonic() - launched:.2f} s"))

        form = driver.find_element(By.CSS_SELECTOR, 'form[aria-label="Query Big"]')
        form.find_element(By.CSS_SELECTOR, 'input[data-field="pk"]').send_keys("COLL#big")
        box = 'section[aria-label="Item collection pk = COLL#big"]'
        started = time.monotonic()
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, box))
        first_page = time.monotonic() - started
        pages = 1
        while driver.find_elements(By.XPATH, '//button[normalize-space()="Load more"]'):
            driver.find_element(By.XPATH, '//button[normalize-space()="Load more"]').click()
            pages += 1
            wait.until(lambda d: f"{pages} pages" in d.find_element(By.CSS_SELECTOR, box).get_attribute("textContent"))
        whole = time.monotonic() - started
        text = driver.find_element(By.CSS_SELECTOR, box).get_attribute("textContent")
        assert f"{ITEMS:,} items" in text, text[:200]
        figures.append(("first 1 MB page queried and drawn", f"{first_page:.2f} s"))
        figures.append((f"all {ITEMS:,} items in {pages} pages (query + draw, Load more clicked by WebDriver)", f"{whole:.2f} s"))

        grid = driver.find_element(By.CSS_SELECTOR, f'{box} [role="grid"]')
        grid.click()
        started = time.monotonic()
        grid.send_keys(Keys.END)
        # The rows are replaced as the grid scrolls: read the text in one script, not row by row.
        wait.until(lambda d: "99999" in d.execute_script(
            "return document.querySelector(arguments[0]).textContent", f'{box} [role="grid"]'))
        figures.append(("jump to the last item (End)", f"{(time.monotonic() - started) * 1000:.0f} ms"))
        rows = driver.execute_script(
            "return document.querySelectorAll(arguments[0]).length", f'{box} [role="grid"] [role="row"]')
        figures.append(("grid rows in the DOM with 100,000 items loaded", str(rows)))

        memory = app_processes()
        total = sum(memory.values())
        for name, kib in sorted(memory.items()):
            figures.append((f"RSS {name}", f"{kib / 1024:.0f} MB"))
        figures.append(("RSS of the app's processes together", f"{total / 1024:.0f} MB"))
    finally:
        driver.quit()

    load_average = pathlib.Path("/proc/loadavg").read_text().split()[:3]
    lines = [
        f"# The app on a {ITEMS:,}-item collection",
        "",
        f"Run of {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, debug build "
        f"(`{pathlib.Path(binary).name}`), Xvfb 1280×800, load average {' '.join(load_average)} on {os.cpu_count()} cores.",
        "",
        "| measure | value |",
        "|---|---|",
        *[f"| {name} | {value} |" for name, value in figures],
        "",
    ]
    pathlib.Path(out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p_load = sub.add_parser("load")
    p_load.add_argument("--endpoint", required=True)
    p_app = sub.add_parser("app")
    p_app.add_argument("--app", required=True)
    p_app.add_argument("--driver", required=True)
    p_app.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.command == "load":
        load(args.endpoint)
    else:
        app(args.app, args.driver, args.out)
