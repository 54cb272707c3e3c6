#!/usr/bin/env python3
"""One function with N callers: how the graph's answers grow with N.

    python3 benches/fanin/fanin.py target/release/cg [WORK] [--sizes 10000,40000,100000]

Writes a Python tree per size under WORK (default /tmp/cg-fanin): `lib.py`
defines `target`, and `callers/cK.py` each hold 100 functions that import and
call it. Indexes it with `cg init`, then times whole `cg` processes (the median
of 3) for callers, impact, symbol, graph and context, and one MCP
`codegraph_impact` call (a `cg mcp` child, the call's round trip). Prints a
table of seconds per size, and the ratio of the largest size's time to the
smallest's beside the ratio of their sizes (near-linear: about equal)."""
import json, os, statistics, subprocess, sys, time

PER_FILE = 100
COMMANDS = [
    ["refs", "target"],
    ["callers", "target"],
    ["impact", "target", "--depth", "1"],
    ["impact", "target", "--depth", "3"],
    ["symbol", "target"],
    ["graph", "target", "--depth", "3"],
    ["context", "target"],
]


def write_tree(dest, n):
    os.makedirs(os.path.join(dest, "callers"), exist_ok=True)
    with open(os.path.join(dest, "lib.py"), "w") as f:
        f.write("def target(x):\n    return x + 1\n\n\ndef helper(x):\n    return target(x)\n")
    for k in range((n + PER_FILE - 1) // PER_FILE):
        with open(os.path.join(dest, "callers", f"c{k}.py"), "w") as f:
            f.write("from lib import target\n\n\n")
            for i in range(min(PER_FILE, n - k * PER_FILE)):
                f.write(f"def caller_{k}_{i}(x):\n    return target(x) + {i}\n\n\n")


def timed(cmd, cwd):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def mcp_impact(cg, cwd):
    p = subprocess.Popen([cg, "mcp", "--project", cwd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)

    def ask(i, method, params):
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n")
        p.stdin.flush()
        while True:
            v = json.loads(p.stdout.readline())
            if v.get("id") == i:
                return v

    ask(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "fanin", "version": "1"}})
    p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    ask(2, "tools/call", {"name": "codegraph_status", "arguments": {}})
    start = time.perf_counter()
    v = ask(3, "tools/call", {"name": "codegraph_impact", "arguments": {"target": "target"}})
    took = time.perf_counter() - start
    p.kill()
    text = v["result"]["content"][0]["text"]
    return took, "cut" in json.loads(text)


def main():
    args = sys.argv[1:]
    sizes = [10000, 40000, 100000]
    if "--sizes" in args:
        i = args.index("--sizes")
        sizes = [int(s) for s in args[i + 1].split(",")]
        del args[i:i + 2]
    cg = os.path.abspath(args[0])
    work = args[1] if len(args) > 1 else "/tmp/cg-fanin"
    rows = {}
    for n in sizes:
        tree = os.path.join(work, str(n))
        if not os.path.exists(os.path.join(tree, ".codegraph")):
            write_tree(tree, n)
            subprocess.run([cg, "init"], cwd=tree, stdout=subprocess.DEVNULL, check=True)
        for c in COMMANDS:
            rows.setdefault(" ".join(c), {})[n] = statistics.median(timed([cg] + c, tree) for _ in range(3))
        took, cut = mcp_impact(cg, tree)
        rows.setdefault("MCP codegraph_impact", {})[n] = took
        if cut:
            print(f"note: MCP impact at {n} callers was cut at the time limit", file=sys.stderr)
    print("| command | " + " | ".join(f"{n:,} callers" for n in sizes) + f" | ratio {sizes[-1] // sizes[0]}x callers |")
    print("|---|" + "---|" * (len(sizes) + 1))
    for name, by in rows.items():
        cells = " | ".join(f"{by[n]:.3f} s" for n in sizes)
        print(f"| `{name}` | {cells} | {by[sizes[-1]] / by[sizes[0]]:.1f}x |")


main()
