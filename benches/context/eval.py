#!/usr/bin/env python3
"""Context recall on a hand-made task set: for each task of tasks.tsv whose
corpus tree is indexed under CORPUS (`cg init CORPUS/NAME` first), run
`cg context TASK --budget B --json` and count the expected files that the
bundle holds a snippet of. Prints, per budget, the tasks holding every expected
file, the mean share of expected files held, and the median wall time of the
`cg context` process.

usage: CG=target/release/cg benches/context/eval.py ~/corpus [4000 8000]
(TASKS=benches/context/tasks-heldout.tsv: another task file)
"""
import json
import os
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.expanduser(sys.argv[1])
budgets = [int(b) for b in sys.argv[2:]] or [4000, 8000]
cg = os.environ.get("CG", "cg")
tasks = []
for line in open(os.environ.get("TASKS") or os.path.join(here, "tasks.tsv")):
    if line.startswith("#") or not line.strip():
        continue
    name, task, files = line.rstrip("\n").split("\t")
    if os.path.isdir(os.path.join(corpus, name, ".codegraph")):
        tasks.append((name, task, files.split(",")))
if not tasks:
    sys.exit(f"no task's corpus is indexed under {corpus}")
for budget in budgets:
    full, shares, times, used = 0, [], [], []
    for name, task, files in tasks:
        start = time.perf_counter()
        out = subprocess.run([cg, "context", task, "--budget", str(budget), "--json", "--project",
                              os.path.join(corpus, name)], capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        bundle = json.loads(out.stdout) if out.stdout.strip() else {"snippets": [], "limits": {"used_estimate": 0}}
        held = {s["path"] for s in bundle["snippets"]}
        # An expected file may list copies of it (`a|b`): guava's android/ tree.
        got = [f for f in files if any(alt in held for alt in f.split("|"))]
        shares.append(len(got) / len(files))
        full += len(got) == len(files)
        used.append(bundle["limits"]["used_estimate"])
        if os.environ.get("VERBOSE"):
            missing = [f for f in files if f not in got]
            print(f"  {budget} {name}: {task!r}: {len(got)}/{len(files)}" + (f" missing {missing}" if missing else ""))
    print(f"budget {budget}: {full}/{len(tasks)} tasks hold every expected file, "
          f"mean share {statistics.mean(shares):.2f}, median used {statistics.median(used)} tokens, "
          f"median cg context process {statistics.median(times) * 1e3:.0f} ms")
