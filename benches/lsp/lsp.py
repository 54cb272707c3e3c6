#!/usr/bin/env python3
"""`cg lsp` through the protocol: how long `initialize` takes with an index
present, and definition, references, hover and call hierarchy at sampled
call sites (p50 / p90 / p99 of each request's round trip).

    python3 benches/lsp/lsp.py target/release/cg PROJECT [N=200] [SEED=1]

PROJECT must be indexed (`cg init`). Call sites: lines of sampled source files
holding `name(` after a `.`, the position on `name`."""
import json, os, random, re, subprocess, sys, time


class Client:
    def __init__(self, cg, root):
        self.p = subprocess.Popen([cg, "lsp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.next = 0

    def send(self, v):
        body = json.dumps(v).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.p.stdout.readline()
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        while True:
            v = self.read()
            if v.get("id") == self.next and "method" not in v:
                return v


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main():
    cg, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    files = json.loads(subprocess.run([cg, "tree", "--json", "--depth", "99"], cwd=root, capture_output=True,
                                      text=True).stdout)

    def walk(node, prefix):
        for e in node.get("entries", []):
            if isinstance(e, str):
                yield prefix + e
            else:
                yield from walk(e, prefix + e["name"] + "/")

    paths = [p for p in walk(files, "") if re.search(r"\.(go|rs|ts|py|java|cs|c|cpp|php|rb|js)$", p)]
    rng.shuffle(paths)
    sites = []
    for p in paths:
        try:
            lines = open(os.path.join(root, p), errors="replace").read().split("\n")
        except OSError:
            continue
        found = [(i, m.start(1)) for i, l in enumerate(lines) for m in re.finditer(r"\.([A-Za-z_]\w*)\(", l)
                 if l.isascii()]
        if found:
            sites.append((p, *rng.choice(found)))
        if len(sites) >= n:
            break
    c = Client(cg, root)
    uri = "file://" + root
    start = time.perf_counter()
    c.request("initialize", {"processId": None, "rootUri": uri, "capabilities": {},
                             "workspaceFolders": [{"uri": uri, "name": "p"}]})
    init_ms = (time.perf_counter() - start) * 1000
    c.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    times = {k: [] for k in ["definition", "references", "hover", "incomingCalls", "symbol prefix",
                             "symbol abbrev"]}
    counts = []
    for p, line, col in sites:
        pos = {"textDocument": {"uri": f"{uri}/{p}"}, "position": {"line": line, "character": col}}
        for k, method, params in [("definition", "textDocument/definition", pos),
                                  ("references", "textDocument/references",
                                   dict(pos, context={"includeDeclaration": False})),
                                  ("hover", "textDocument/hover", pos)]:
            t = time.perf_counter()
            answer = c.request(method, params)
            times[k].append((time.perf_counter() - t) * 1000)
            if k == "references":
                counts.append(len(answer.get("result") or []))
        t = time.perf_counter()
        items = c.request("textDocument/prepareCallHierarchy", pos).get("result") or []
        if items:
            c.request("callHierarchy/incomingCalls", {"item": items[0]})
        times["incomingCalls"].append((time.perf_counter() - t) * 1000)
        # Workspace symbols as typed into a picker: the called name's first
        # four characters, and its words' first letters plus the next two.
        name = re.match(r"\w+", open(os.path.join(root, p), errors="replace").read().split("\n")[line][col:]).group(0)
        words = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name) or [name]
        for k, typed in [("symbol prefix", name[:4]), ("symbol abbrev", "".join(w[0] for w in words) + words[-1][1:3])]:
            t = time.perf_counter()
            c.request("workspace/symbol", {"query": typed})
            times[k].append((time.perf_counter() - t) * 1000)
    c.p.kill()
    print(f"initialize: {init_ms:.1f} ms ({len(sites)} call sites; references listed p50 {pct(counts, .5)}, "
          f"p90 {pct(counts, .9)})")
    for k, xs in times.items():
        print(f"{k:14} p50 {pct(xs, .5):8.2f} ms  p90 {pct(xs, .9):8.2f} ms  p99 {pct(xs, .99):8.2f} ms")


main()
