"""The halves of bench/app/views.sh: the table screen's performance figures (issue 17), for two
builds of the app side by side in one run.

`load`: fills, through dynotable-local (BatchWriteItem, boto3, a few threads), the table `Fleet`
(pk S, sk N) with 10,000 collections of 100 items (1,000,000 items), and the table `Hot` with one
collection of 100,000 items.

`measure`: for one app binary, through tauri-driver:
- first launch on an empty data folder (the demo tables are loaded) until Telemetry is listed;
- a second launch on the same folder until Telemetry is listed (cold start, demo already there);
  both from the request for a window (WebDriver's session start included) and from the app's
  process start;
- on a copy of the loaded database: a click on Fleet until its Collections view shows its first
  box, and its first box's rows; the memory of the app's processes; a scroll of the run, frame by
  frame, with each frame's time; the memory after it, again 20 s later, and after each of four more
  scrolls on through new boxes; the same for Hot.
Times inside the window are taken there (performance.now() and requestAnimationFrame), so
WebDriver's round trips are not counted; launch times are from before the session was asked for.
Appends one JSON object per build to --out.
"""

import argparse
import json
import os
import pathlib
import shutil
import threading
import time

from measure import app_processes, pss_kib

FLEET_COLLECTIONS = 10_000
FLEET_ITEMS_EACH = 100
HOT_ITEMS = 100_000


def load(endpoint: str) -> None:
    import boto3

    def client():
        return boto3.client(
            "dynamodb", endpoint_url=endpoint, region_name="us-east-1",
            aws_access_key_id="bench", aws_secret_access_key="bench",
        )

    setup = client()
    for name in ("Fleet", "Hot"):
        setup.create_table(
            TableName=name,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        )

    def items():
        for c in range(FLEET_COLLECTIONS):
            for i in range(FLEET_ITEMS_EACH):
                yield "Fleet", {"pk": {"S": f"VEH#{c:05d}"}, "sk": {"N": str(i)}, "speed": {"N": str((c * 7 + i) % 120)}}
        for i in range(HOT_ITEMS):
            yield "Hot", {"pk": {"S": "VEH#hot"}, "sk": {"N": str(i)}, "speed": {"N": str(i % 120)}}

    source = items()
    lock = threading.Lock()

    def batches():
        while True:
            with lock:
                batch = [item for _, item in zip(range(25), source)]
            if not batch:
                return
            yield batch

    def worker():
        c = client()
        for batch in batches():
            requests: dict[str, list] = {}
            for table, item in batch:
                requests.setdefault(table, []).append({"PutRequest": {"Item": item}})
            left = requests
            while left:
                left = c.batch_write_item(RequestItems=left).get("UnprocessedItems") or {}

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = FLEET_COLLECTIONS * FLEET_ITEMS_EACH + HOT_ITEMS
    print(f"loaded {total:,} items in {time.monotonic() - started:.1f} s")


def app_rss_mb() -> float:
    """RSS of the app and the WebKit processes it started, together."""
    return sum(app_processes().values()) / 1024


def app_pss_mb() -> float:
    """PSS of the same processes, together: shared pages counted once."""
    return sum(app_processes(pss_kib).values()) / 1024


def session(binary: str, driver_url: str):
    from selenium import webdriver
    from selenium.webdriver.common.options import ArgOptions

    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": binary})
    return webdriver.Remote(command_executor=driver_url, options=options)


def app_age_s() -> float | None:
    """How long ago the app's process (among this run's) started, to the kernel's clock tick
    (10 ms): from its first exec, so a start that restarts itself in place counts whole."""
    ticks = os.sysconf("SC_CLK_TCK")
    uptime = float(pathlib.Path("/proc/uptime").read_text().split()[0])
    for label in app_processes():
        name, pid = label.rsplit(" (", 1)
        if name.startswith("dynotable"):
            fields = pathlib.Path(f"/proc/{pid.rstrip(')')}/stat").read_text().rsplit(")", 1)[1].split()
            return uptime - int(fields[19]) / ticks
    return None


def until_listed(binary: str, driver_url: str, table: str) -> tuple[float, float | None]:
    """Seconds from asking for a window to `table` listed in the sidebar, and from the app's
    process start to the same (without WebDriver's own start of the session)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    started = time.monotonic()
    driver = session(binary, driver_url)
    try:
        WebDriverWait(driver, 120, poll_frequency=0.01).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-testid="open-table-{table}"]'))
        return time.monotonic() - started, app_age_s()
    finally:
        driver.quit()


# In the window: click the table and note when its first box, then the first box's rows, are in
# the document (looked at every animation frame, so the figure is a frame after they arrived).
OPEN_SCRIPT = """
const [table, done] = [arguments[0], arguments[arguments.length - 1]];
const button = document.querySelector(`[data-testid="open-table-${table}"]`);
if (button === null) { done({header: null, rows: null, summary: `no open-table-${table} button`}); return; }
const t0 = performance.now();
let header = null;
button.click();
const look = () => {
  const screen = document.querySelector(`[data-testid="table-screen-${table}"]`);
  const box = screen && screen.querySelector('[data-testid="collection-run-box"]');
  if (box && header === null) header = performance.now() - t0;
  if (box && box.querySelector('[data-testid="box-row"]')) {
    const summary = screen.querySelector('[data-testid="collections-summary"]');
    done({header, rows: performance.now() - t0, summary: summary ? summary.textContent : ""});
  } else if (performance.now() - t0 > 60000) {
    done({header, rows: null, summary: "timed out"});
  } else requestAnimationFrame(look);
};
requestAnimationFrame(look);
// A page that paints no frame (hidden) still answers.
setTimeout(() => done({header, rows: null, summary: "no frame painted in 90 s"}), 90000);
"""

# In the window: scroll the run by `step` px every frame for `frames` frames; each frame's time.
SCROLL_SCRIPT = """
const [table, frames, step, done] = arguments;
const run = document.querySelector(`[data-testid="table-screen-${table}"] [data-testid="collections-run"]`);
if (run === null) { done({times: [0], top: 0, height: 0}); return; }
const times = [];
let last = performance.now();
const frame = (now) => {
  times.push(now - last);
  last = now;
  if (times.length > frames) {
    done({times: times.slice(1), top: run.scrollTop, height: run.scrollHeight});
    return;
  }
  run.scrollTop += step;
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
"""


# Frames of the scroll (240 px each); VIEWS_FRAMES shortens a run on a slow machine.
SCROLL_FRAMES = int(os.environ.get("VIEWS_FRAMES", "240"))
# After the scroll: how long the window is left alone before its memory is taken again, and how
# many more scrolls of SCROLL_FRAMES follow it, each read on from where the last one stopped (a
# long scroll through new boxes: what the web process keeps of them, bounded or growing).
SETTLE_S = 20
FURTHER_SCROLLS = int(os.environ.get("VIEWS_FURTHER_SCROLLS", "4"))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def open_and_scroll(driver, table: str) -> dict:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 120, poll_frequency=0.02).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-testid="open-table-{table}"]'))
    # A loaded machine renders a frame in hundreds of milliseconds: time enough for the scroll.
    driver.set_script_timeout(900)
    opened = driver.execute_async_script(OPEN_SCRIPT, table)
    time.sleep(1.0)  # the boxes in sight settle
    pss_opened = app_pss_mb()
    scrolled = driver.execute_async_script(SCROLL_SCRIPT, table, SCROLL_FRAMES, 240)
    frames = scrolled["times"]
    return {
        "open_to_first_box_ms": opened["header"],
        "open_to_first_rows_ms": opened["rows"],
        "summary": opened["summary"],
        "scroll_frames": len(frames),
        "frame_p50_ms": percentile(frames, 50),
        "frame_p95_ms": percentile(frames, 95),
        "frame_max_ms": max(frames),
        "scrolled_px": scrolled["top"],
        "pss_opened_mb": pss_opened,
        "rss_mb": app_rss_mb(),
        "pss_mb": app_pss_mb(),
        "rss_by_process_mb": {name: round(kib / 1024) for name, kib in app_processes().items()},
        "pss_by_process_mb": {name: round(kib / 1024) for name, kib in app_processes(pss_kib).items()},
        **settle_and_scroll_on(driver, table),
    }


def settle_and_scroll_on(driver, table: str) -> dict:
    """The memory after SETTLE_S idle, then after each of FURTHER_SCROLLS more scrolls."""
    time.sleep(SETTLE_S)
    settled = app_pss_mb()
    further = []
    for _ in range(FURTHER_SCROLLS):
        driver.execute_async_script(SCROLL_SCRIPT, table, SCROLL_FRAMES, 240)
        further.append(round(app_pss_mb()))
    return {"pss_settled_mb": settled, "pss_further_scrolls_mb": further}


def launcher(binary: str, scratch: str, label: str) -> str:
    """The program tauri-driver starts: the app, on the data folder named in `data-dir` (the app
    inherits tauri-driver's environment, so each launch names its folder there)."""
    path = pathlib.Path(scratch) / f"launch-{label}"
    path.write_text(
        "#!/bin/sh\n"
        f'DYNOTABLE_DATA_DIR="$(cat {scratch}/data-dir)" exec {binary} "$@"\n'
    )
    path.chmod(0o755)
    return str(path)


def measure(binary: str, label: str, driver_url: str, loaded_db: str, scratch: str, out: str) -> None:
    figures: dict = {"build": label, "binary": binary}
    data_dir = pathlib.Path(scratch) / "data-dir"
    program = launcher(binary, scratch, label)
    # First launch: an empty data folder, the demo tables loaded; then the same folder again.
    demo_dir = pathlib.Path(scratch) / f"demo-{label}"
    data_dir.write_text(str(demo_dir))
    figures["first_launch_to_telemetry_listed_s"], figures["first_launch_process_s"] = until_listed(program, driver_url, "Telemetry")
    time.sleep(2)  # the closing engine releases its database
    figures["cold_start_to_telemetry_listed_s"], figures["cold_start_process_s"] = until_listed(program, driver_url, "Telemetry")
    time.sleep(2)

    # The big tables: a copy of the loaded database, the demo marked as loaded.
    big_dir = pathlib.Path(scratch) / f"big-{label}"
    (big_dir / "embedded").mkdir(parents=True)
    (big_dir / "embedded" / "demo-loaded").touch()
    for suffix in ("", "-wal"):
        if pathlib.Path(loaded_db + suffix).exists():
            shutil.copy(loaded_db + suffix, big_dir / "embedded" / f"local.db{suffix}")
    data_dir.write_text(str(big_dir))
    for table in ("Fleet", "Hot"):
        driver = session(program, driver_url)
        try:
            figures[table] = open_and_scroll(driver, table)
        finally:
            driver.quit()
        time.sleep(2)
    figures["load_average"] = pathlib.Path("/proc/loadavg").read_text().split()[:3]
    with open(out, "a") as f:
        f.write(json.dumps(figures) + "\n")
    print(json.dumps(figures, indent=1))


def report(results: str, out: str, builds: str) -> None:
    runs = [json.loads(line) for line in pathlib.Path(results).read_text().splitlines() if line.strip()]
    names = [r["build"] for r in runs]

    def row(title: str, get) -> str:
        cells = []
        for r in runs:
            try:
                value = get(r)
            except (KeyError, TypeError):
                value = None
            cells.append("—" if value is None else value)
        return f"| {title} | " + " | ".join(cells) + " |"

    ms = lambda v: f"{v:.0f} ms" if v is not None else None  # noqa: E731
    s = lambda v: f"{v:.2f} s"  # noqa: E731
    lines = [
        "# The table screen's figures (issue 17), builds side by side",
        "",
        f"Run of {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {builds}, Xvfb 1280×800 (software rendering), "
        f"2 cores, load average {' '.join(runs[-1]['load_average'])} at the end. `bench/app/views.sh` made it.",
        "",
        "| measure | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(runs),
        row("first launch (demo loaded) → Telemetry listed", lambda r: s(r["first_launch_to_telemetry_listed_s"])),
        row("cold start (demo there) → Telemetry listed", lambda r: s(r["cold_start_to_telemetry_listed_s"])),
        row("first launch, from the app's process start", lambda r: s(r["first_launch_process_s"])),
        row("cold start, from the app's process start", lambda r: s(r["cold_start_process_s"])),
    ]
    for table, what in (("Fleet", "1,000,000 items in 10,000 collections"), ("Hot", "one collection of 100,000 items")):
        lines += [
            row(f"{table} ({what}): click → first box", lambda r, t=table: ms(r[t]["open_to_first_box_ms"])),
            row(f"{table}: click → first box's rows", lambda r, t=table: ms(r[t]["open_to_first_rows_ms"])),
            row(f"{table}: what the view says", lambda r, t=table: r[t]["summary"][:70]),
            row(f"{table}: scroll, frame time p50", lambda r, t=table: ms(r[t]["frame_p50_ms"])),
            row(f"{table}: scroll, frame time p95", lambda r, t=table: ms(r[t]["frame_p95_ms"])),
            row(f"{table}: scroll, longest frame", lambda r, t=table: ms(r[t]["frame_max_ms"])),
            row(f"{table}: scrolled in {SCROLL_FRAMES} frames", lambda r, t=table: f"{r[t]['scrolled_px']:,.0f} px"),
            row(f"{table}: PSS of the app's processes, opened (before the scroll)", lambda r, t=table: f"{r[t]['pss_opened_mb']:.0f} MB"),
            row(f"{table}: RSS of the app's processes", lambda r, t=table: f"{r[t]['rss_mb']:.0f} MB"),
            row(f"{table}: PSS of the app's processes", lambda r, t=table: f"{r[t]['pss_mb']:.0f} MB"),
            row(f"{table}: PSS {SETTLE_S} s later", lambda r, t=table: f"{r[t]['pss_settled_mb']:.0f} MB"),
            row(f"{table}: PSS after each of {FURTHER_SCROLLS} more scrolls", lambda r, t=table: " → ".join(f"{v}" for v in r[t]["pss_further_scrolls_mb"]) + " MB"),
        ]
    pathlib.Path(out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p_load = sub.add_parser("load")
    p_load.add_argument("--endpoint", required=True)
    p_measure = sub.add_parser("measure")
    for name in ("--app", "--label", "--driver", "--db", "--scratch", "--out"):
        p_measure.add_argument(name, required=True)
    p_report = sub.add_parser("report")
    p_report.add_argument("--results", required=True)
    p_report.add_argument("--out", required=True)
    p_report.add_argument("--builds", default="debug builds", help="what the two builds are, for the report's first line")
    args = parser.parse_args()
    if args.command == "load":
        load(args.endpoint)
    elif args.command == "measure":
        measure(args.app, args.label, args.driver, args.db, args.scratch, args.out)
    else:
        report(args.results, args.out, args.builds)
