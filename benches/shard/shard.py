#!/usr/bin/env python3
"""Sharded builds against one build, on a real tree.

Usage: shard.py CG TREE [N ...]   (default N: 1 2 4)

Builds TREE's index with `cg init` (timed), asks a fixed list of questions
(term queries, refs, callers, callees, hierarchy, impact, signatures, symbol
cards, symbol and file search, the symbol picker, context bundles: names
sampled from the index's own definitions), then for each N builds
N shards as N concurrent processes (`cg init --shard K/N --out DIR --threads
T`, T = max(1, cores / N)), publishes them (`cg publish`), asks the same
questions and compares every answer byte for byte (the generation number and
timing fields taken out). Prints wall times and the number of answers that
differ. Leaves TREE's index as the last publish made it.
"""
import json, os, re, shutil, subprocess, sys, tempfile, time

CG, TREE = sys.argv[1], os.path.abspath(sys.argv[2])
NS = [int(n) for n in sys.argv[3:]] or [1, 2, 4]
CORES = os.cpu_count() or 2
ENV = dict(os.environ, CODEGRAPH_HOME=os.path.join(tempfile.gettempdir(), "cg-shard-no-home"))
GEN = re.compile(r'"(generation|duration_ms|elapsed_ms|last_update|took_ms)":\d+,?')


def run(args, cwd=TREE, check=True):
    p = subprocess.run([CG] + args, cwd=cwd, env=ENV, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"cg {' '.join(args)}: {p.stderr.strip()}")
    return p.stdout


def questions():
    """Names and files sampled from the index: every 997th definition name of
    `cg signatures`, every 50th file."""
    sig = json.loads(run(["signatures", "--limit", "100000", "--json"]))
    files = [s["file"] for s in sig["signatures"]]
    names = []
    for s in sig["signatures"]:
        for t in s.get("types", []) + s.get("methods", []):
            names.append(t["name"])
    names = sorted(set(names))[::997][:40]
    qs = []
    for n in names:
        qs += [["query", n, "--json"], ["refs", n, "--json"], ["callers", n, "--json"], ["callees", n, "--json"]]
    for n in names[:10]:
        qs += [["hierarchy", n, "--json"], ["impact", n, "--depth", "2", "--json"], ["symbol", n, "--json"]]
    for f in files[::50][:40]:
        qs.append(["signature", f, "--json"])
    # Ranked answers: the sampled names as words (`getPodSpec` -> "get pod spec").
    for n in names[:20]:
        text = " ".join(re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", n)) or n
        qs += [["search", text, "--json"], ["search", text, "--files", "--json"], ["search", text, "--names", "--json"]]
    for n in names[:5]:
        qs.append(["context", "fix the handling of " + n + " when it fails", "--json"])
    return qs


def answers(qs):
    out = []
    for q in qs:
        p = subprocess.run([CG] + q, cwd=TREE, env=ENV, capture_output=True, text=True)
        out.append(GEN.sub("", p.stdout.replace(TREE, "ROOT")) + p.stderr.replace(TREE, "ROOT"))
    status = json.loads(run(["status", "--json"]))
    out.append(json.dumps([status["graph"], {k: status["statistics"][k] for k in ["files", "items", "lines", "methods", "occurrences", "types"]}]))
    return out


t = time.time()
run(["init", "--threads", str(CORES)])
single = time.time() - t
qs = questions()
want = answers(qs)
print(f"{TREE}: one build `cg init --threads {CORES}` {single:.1f} s; {len(qs)} questions")
for n in NS:
    out = tempfile.mkdtemp(prefix=f"cg-shards-{n}-")
    threads = max(1, CORES // n)
    t = time.time()
    procs = [subprocess.Popen([CG, "init", "--shard", f"{k}/{n}", "--out", out, "--threads", str(threads)], cwd=TREE, env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(n)]
    for k, p in enumerate(procs):
        _, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f"shard {k}/{n}: {err}")
    built = time.time() - t
    t = time.time()
    run(["publish", out])
    published = time.time() - t
    got = answers(qs)
    differ = [qs[i] if i < len(qs) else "status" for i, (a, b) in enumerate(zip(want, got)) if a != b]
    print(f"{n} shard(s), {n} processes x {threads} thread(s): shards {built:.1f} s, publish {published:.1f} s, "
          f"total {built + published:.1f} s; answers differing: {len(differ)} of {len(want)}")
    for d in differ[:5]:
        print("  differs:", d)
    shutil.rmtree(out)
