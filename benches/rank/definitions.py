#!/usr/bin/env python3
"""Where a plain `cg query NAME` ranks a definition of NAME: samples 100
definitions from an indexed tree's sources (a regex of the language's
definition lines; seed 7), asks `cg query NAME --json --limit 50` for each,
and prints how often the first hit is a definition line and where the sampled
definition itself ranks (a name many files define, `String`, `Get`, ranks
most of them after the first).

usage: CG=target/release/cg benches/rank/definitions.py TREE EXT REGEX
  e.g. benches/rank/definitions.py ~/corpus/kubernetes .go '^(?:func (?:\\([^)]*\\) )?|type )([A-Za-z_]\\w*)'
       benches/rank/definitions.py ~/corpus/django .py '^\\s*(?:def|class) ([A-Za-z_]\\w*)'
"""
import json
import os
import random
import re
import statistics
import subprocess
import sys

root = os.path.expanduser(sys.argv[1])
ext, pat = sys.argv[2], re.compile(sys.argv[3])
cg = os.environ.get("CG", "cg")
files = []
for d, _, fs in os.walk(root):
    if "/.codegraph" in d:
        continue
    files.extend(os.path.join(d, f) for f in fs if f.endswith(ext))
files.sort()
random.seed(7)
samples = []
while len(samples) < 100 and files:
    p = random.choice(files)
    try:
        lines = open(p, errors="replace").read().split("\n")
    except OSError:
        continue
    cands = [(i + 1, m.group(1)) for i, l in enumerate(lines) for m in [pat.match(l)] if m]
    if cands:
        line, name = random.choice(cands)
        samples.append((os.path.relpath(p, root), line, name))
ranks, first_def = [], 0
for rel, line, name in samples:
    out = subprocess.run([cg, "query", name, "--json", "--limit", "50", "--project", root],
                         capture_output=True, text=True).stdout
    hits = [(f["file"], m["line"], m["type"]) for f in json.loads(out)["files"] for m in f["matches"]]
    ranks.append(next((i + 1 for i, h in enumerate(hits) if h[0] == rel and h[1] == line), 999))
    first_def += bool(hits) and hits[0][2] in ("struct", "method", "property")
print(f"{len(samples)} sampled definitions: the first hit a definition line {first_def}; "
      f"the sampled one first {sum(r == 1 for r in ranks)}, in the top 3 {sum(r <= 3 for r in ranks)}, "
      f"top 10 {sum(r <= 10 for r in ranks)}, top 50 {sum(r < 999 for r in ranks)} (median rank {statistics.median(ranks)})")
