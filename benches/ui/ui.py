#!/usr/bin/env python3
"""`cg ui` endpoints on a project: p50 / p90 of each endpoint's round trip and
the largest answer, over sampled folders, files and names; then, where
chromedriver and Chromium are installed, the first view in a real browser
(page opened until the tree and the graph are drawn, warm: the second load).

    python3 benches/ui/ui.py target/release/cg PROJECT [N=50] [SEED=1]

PROJECT must be indexed (`cg init`)."""
import json, os, random, shutil, socket, subprocess, sys, time, urllib.parse, urllib.request


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main():
    cg, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    p = subprocess.Popen([cg, "ui", "--port", "0", "--project", root], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    base = p.stdout.readline().strip()
    try:
        run(base, n, rng)
    finally:
        p.kill()


def get(base, path, params):
    url = base + "api/" + path + ("?" + urllib.parse.urlencode(params) if params else "")
    t = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as r:
        body = r.read()
    return (time.perf_counter() - t) * 1000, json.loads(body), len(body)


def run(base, n, rng):
    # Wait for the background work (import and call graphs, cloud candidates).
    t = time.perf_counter()
    while True:
        g = get(base, "graph", {})[1]
        if not g.get("building") and g.get("calls_read"):
            break
        time.sleep(0.2)
    print(f"background work (import and call graphs) done {time.perf_counter() - t:.1f} s after start")
    top = get(base, "tree", {})[1]["entries"]
    folders, files = [], []
    frontier = [e["path"] for e in top if e["dir"]]
    while frontier and len(folders) < 400:
        f = frontier.pop(rng.randrange(len(frontier)))
        folders.append(f)
        for e in get(base, "tree", {"path": f})[1]["entries"]:
            (frontier if e["dir"] else files).append(e["path"])
    names = []
    for f in rng.sample(files, min(len(files), 3 * n)):
        for r in get(base, "search", {"q": os.path.splitext(os.path.basename(f))[0], "mode": "names", "limit": 5})[1].get("results", []):
            names.append(r)
            break
    cases = {
        "status": [("status", {})] * n,
        "tree": [("tree", {"path": rng.choice(folders)}) for _ in range(n)],
        "cloud (folder)": [("cloud", {"folder": rng.choice(folders)}) for _ in range(n)],
        "graph (open folder)": [("graph", {"open": ",".join(sorted(set(
            "/".join(f.split("/")[:i + 1]) for i in range(len(f.split("/"))))))}) for f in rng.sample(folders, min(n, len(folders)))],
        "search (words)": [("search", {"q": r["name"], "mode": "words"}) for r in names[:n]],
        "search (names)": [("search", {"q": r["name"][:4], "mode": "names"}) for r in names[:n]],
        "file": [("file", {"path": r["file"], "line": r["line"]}) for r in names[:n]],
        "symbol": [("symbol", {"path": r["file"], "line": r["line"], "name": r["name"]}) for r in names[:n]],
    }
    print(f"{len(folders)} folders and {len(files)} files sampled from the tree; {len(names)} definitions")
    for k, calls in cases.items():
        times, sizes = [], []
        for path, params in calls:
            ms, _, size = get(base, path, params)
            times.append(ms)
            sizes.append(size)
        print(f"{k:20} p50 {pct(times, .5):8.2f} ms  p90 {pct(times, .9):8.2f} ms  max {max(times):8.2f} ms  "
              f"largest {max(sizes) / 1024:7.1f} KiB  ({len(calls)} requests)")
    first_view(base)


def first_view(base):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        print("first view: skipped (no chromium or chromedriver)")
        return
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    d = subprocess.Popen([driver, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wd = f"http://127.0.0.1:{port}"

    def call(method, path, body=None):
        req = urllib.request.Request(wd + path, method=method, data=json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read())["value"]

    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(wd + "/status", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        sid = call("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium, "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"]}}}})["sessionId"]
        ready = ("return document.querySelectorAll('#tree > li').length > 0 && window.cgGraph().length > 0 "
                 "&& performance.now()")
        loads = []
        for _ in range(3):
            call("POST", f"/session/{sid}/url", {"url": base})
            while True:
                v = call("POST", f"/session/{sid}/execute/sync", {"script": ready, "args": []})
                if v:
                    loads.append(v)
                    break
                time.sleep(0.01)
        call("DELETE", f"/session/{sid}")
        print("first view (tree and graph drawn, ms from navigation): " + ", ".join(f"{x:.0f}" for x in loads)
              + f"; warm median {sorted(loads[1:])[len(loads[1:]) // 2]:.0f} ms")
    finally:
        d.kill()


main()
