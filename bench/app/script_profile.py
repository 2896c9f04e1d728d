"""Where a measurement page of ui/perf spends its script time and what it leaves in the web
process, in WebKitGTK, through Web Inspector's protocol (no app, no WebDriver):

    npx vite build --config bench/app/perf.vite.config.ts
    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/app/script_profile.py 'table=fleet' [FRAMES]

1. MiniBrowser opens the page (`PAGE?QUERY` as in page.py) with `frames=0`, so the page itself does
   not scroll, and with `WEBKIT_INSPECTOR_HTTP_SERVER` set, which serves the page's inspector on a
   loopback port.
2. Once the first box's rows are drawn, this script takes a heap snapshot (after a collection),
   starts the sampling profiler, scrolls the page's scroll container 240 px a frame for FRAMES
   frames (default 720), stops the profiler and takes a second snapshot.
3. It prints the samples by function (self and total, with the minified bundle's source around
   each one, since the names are minified), the JavaScript heap's growth by class, and the web
   process's anonymous memory before and after (`/proc/PID/smaps_rollup`).

The same in the app's own window (a debug build: its web view has the inspector), started
without WebDriver on a data folder holding the table, which it opens with a click:

    DYNOTABLE_DATA_DIR=... WEBKIT_DISABLE_DMABUF_RENDERER=1 xvfb-run -a -s "-screen 0 1280x800x24" \
        .venv/bin/python bench/app/script_profile.py --app target/debug/dynotable Fleet [FRAMES]

(bench/app/views.sh leaves such a folder's database in /tmp/dynotable-views-cache/loaded.db: copy
it to `$DYNOTABLE_DATA_DIR/embedded/local.db` and touch `embedded/demo-loaded` beside it.) The
app's report adds the number of elements in the document before and after the scroll.

The figures are relative (samples, not milliseconds): compare two builds with two runs.
"""

import collections
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import time
import urllib.request

import page

APP = sys.argv[1] == "--app" if len(sys.argv) > 1 else False
ARGS = sys.argv[2:] if APP else sys.argv[1:]
FRAMES = int(ARGS[-1]) if len(ARGS) > (2 if APP else 1) else 720


class Inspector:
    """One page's inspector: commands are sent to the page's target, answers matched by id."""

    def __init__(self, port: int) -> None:
        import websocket

        listing = urllib.request.urlopen(f"http://127.0.0.1:{port}/").read().decode()
        path = re.search(r"/socket/[^']*", listing).group(0)
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", timeout=300)
        self.target = json.loads(self.ws.recv())["params"]["targetInfo"]["targetId"]
        self.next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, params: dict | None = None) -> dict:
        self.next_id += 1
        inner = json.dumps({"id": self.next_id, "method": method, "params": params or {}})
        self.ws.send(json.dumps({"id": self.next_id, "method": "Target.sendMessageToTarget",
                                 "params": {"targetId": self.target, "message": inner}}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("method") != "Target.dispatchMessageFromTarget":
                continue
            answer = json.loads(message["params"]["message"])
            if answer.get("id") == self.next_id:
                return answer.get("result", {})
            self.events.append(answer)

    def evaluate(self, expression: str):
        return self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def event(self, method: str) -> dict:
        while True:
            for e in self.events:
                if e.get("method") == method:
                    self.events.remove(e)
                    return e["params"]
            message = json.loads(self.ws.recv())
            if message.get("method") == "Target.dispatchMessageFromTarget":
                self.events.append(json.loads(message["params"]["message"]))


def heap_by_class(inspector: Inspector) -> tuple[collections.Counter, collections.Counter]:
    inspector.call("Heap.gc")
    snapshot = json.loads(inspector.call("Heap.snapshot")["snapshotData"])
    names, nodes = snapshot["nodeClassNames"], snapshot["nodes"]
    count, size = collections.Counter(), collections.Counter()
    for i in range(0, len(nodes), 4):  # id, size, class name, flags
        count[names[nodes[i + 2]]] += 1
        size[names[nodes[i + 2]]] += nodes[i + 1]
    return count, size


def web_process_anon_mb() -> int:
    total = 0
    for pid in subprocess.run(["pgrep", "-f", "WebKitWebProces[s]"], capture_output=True, text=True).stdout.split():
        try:
            total += sum(int(line.split()[1]) for line in open(f"/proc/{pid}/smaps_rollup") if line.startswith("Anonymous:"))
        except OSError:
            pass
    return total // 1024


def source_around(url: str, line: int, column: int) -> str:
    # The perf pages' bundle, or the app's (ui/dist, which the app embeds).
    name = url.rsplit("/", 1)[-1]
    for folder in (page.ROOT / "assets", page.ROOT.parents[1] / "ui" / "dist" / "assets"):
        try:
            text = (folder / name).read_text().split("\n")[line - 1]
            break
        except (OSError, IndexError):
            continue
    else:
        return ""
    return text[max(0, column - 60):column + 100].replace("\n", " ")


ELEMENTS = "document.getElementsByTagName('*').length"


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        inspector_port = s.getsockname()[1]
    env = {**os.environ, "WEBKIT_INSPECTOR_HTTP_SERVER": f"127.0.0.1:{inspector_port}"}
    if APP:
        binary, arg = ARGS[0], (ARGS[1] if len(ARGS) > 1 else "Fleet")
        command = [binary]
    else:
        arg = ARGS[0] if ARGS else "table=fleet"
        name, query = arg.split("?", 1) if "?" in arg else ("collections-run", arg)
        command = [page.MINIBROWSER, "--geometry=1280x800", f"http://127.0.0.1:{page.serve()}/perf/{name}.html?{query}&frames=0"]
    browser = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                inspector = Inspector(inspector_port)
                break
            except (OSError, AttributeError):
                time.sleep(0.2)
        if APP:
            opener = f"document.querySelector('[data-testid=\"open-table-{arg}\"]')"
            while not inspector.evaluate(f"!!{opener}"):
                time.sleep(0.2)
            inspector.evaluate(f"{opener}.click(); 0")
        while not inspector.evaluate("!!document.querySelector('[data-testid=\"box-row\"]')"):
            time.sleep(0.2)
        time.sleep(2)
        elements_before = inspector.evaluate(ELEMENTS)
        before_mb = web_process_anon_mb()
        before = heap_by_class(inspector)
        inspector.call("ScriptProfiler.startTracking", {"includeSamples": True})
        inspector.evaluate(
            "window.__scrolled = false; (() => { const run = document.querySelector('[data-testid=\"collections-run\"]');"
            f" let n = 0; const step = () => {{ run.scrollTop += 240; if (++n < {FRAMES}) requestAnimationFrame(step);"
            " else window.__scrolled = true; }; requestAnimationFrame(step); })(); 0")
        while not inspector.evaluate("window.__scrolled"):
            time.sleep(0.5)
        inspector.call("ScriptProfiler.stopTracking")
        samples = inspector.event("ScriptProfiler.trackingComplete")["samples"]["stackTraces"]
        after_mb = web_process_anon_mb()
        elements_after = inspector.evaluate(ELEMENTS)
        after = heap_by_class(inspector)
    finally:
        browser.terminate()
        browser.wait()

    where = lambda f: (f["name"] or "(anonymous)", f.get("url", "").rsplit("/", 1)[-1], f.get("line", -1), f.get("column", -1))
    own, total = collections.Counter(), collections.Counter()
    for trace in samples:
        frames = trace["stackFrames"]
        if frames:
            own[where(frames[0])] += 1
            for f in {where(f) for f in frames}:
                total[f] += 1
    print(f"{arg}: {FRAMES} frames of 240 px, {len(samples)} samples")
    print(f"web process anonymous memory: {before_mb} MB before the scroll, {after_mb} MB after")
    print(f"elements in the document: {elements_before} before the scroll, {elements_after} after")
    print("\nself samples:")
    for (fn, url, line, column), n in own.most_common(15):
        print(f"  {n:6d}  {fn} {url}:{line}:{column}  {source_around(url, line, column) if line > 0 else ''}")
    print("\ntotal samples:")
    for (fn, url, line, column), n in total.most_common(15):
        print(f"  {n:6d}  {fn} {url}:{line}:{column}")
    print("\nJavaScript heap growth by class (after a collection; objects, bytes):")
    growth = sorted(after[1], key=lambda c: after[1][c] - before[1].get(c, 0), reverse=True)
    for c in growth[:12]:
        print(f"  {c:32s} {after[0][c] - before[0].get(c, 0):8d} {after[1][c] - before[1].get(c, 0):10d}")


if __name__ == "__main__":
    main()
