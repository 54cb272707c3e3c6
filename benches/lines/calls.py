#!/usr/bin/env python3
"""Recall of `cg refs` on the lines that call uniquely named methods.

For the languages no compiler-grade indexer is run for (Java, C, C++, PHP,
Ruby; and as a check on the others), a brute-force oracle: sample methods
and functions of a folder whose name no other definition of the project has
(so every use of the name is theirs unless a library has one too), take
every code line of the index naming them as a call or a member (`name(`,
`.name`, `::name`, `->name`, with strings and comments cut away), and count
the lines `cg refs FILE:LINE` lists. What is missed is printed with its text:
a library's method of the same name, a local named like it, a value whose type
only inference knows, or a wrong answer of cg's.

    CG=target/release/cg python3 benches/lines/calls.py ~/corpus/guava guava-31.1/guava/src 300 [SEED]

The tree must be indexed (`cg init`). SHOW=N prints N missed symbols (default 20).
"""
import collections
import json
import os
import random
import re
import subprocess
import sys

# An absolute path: the script changes into the tree.
CG = os.path.abspath(os.environ["CG"]) if "CG" in os.environ else "cg"
STRIP = {
    "c": r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|/\*.*?(\*/|$)|//.*|^\s*\*.*',
    "hash": r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|#.*',
    "php": r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|/\*.*?(\*/|$)|//.*|#.*|^\s*\*.*',
}
STYLE = {"py": "hash", "rb": "hash", "rake": "hash", "php": "php"}
# Names every class has, or that are entry points: not "unique" in practice.
COMMON = {"main", "__init__", "initialize", "__construct", "toString", "equals", "hashCode"}


def cg(*args):
    r = subprocess.run([CG, *args, "--json"], capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def main():
    root, folder, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    os.chdir(root)
    defs = [
        (f["file"], m["line_number"], m["name"])
        for f in cg("signatures", folder, "--limit", "0")["signatures"]
        for m in f.get("methods", [])
    ]
    count = collections.Counter(
        d["name"]
        for f in cg("signatures", ".", "--limit", "0")["signatures"]
        for kind in ("methods", "properties", "types")
        for d in f.get(kind, [])
    )
    unique = [d for d in defs if count[d[2]] == 1 and len(d[2]) > 3 and d[2] not in COMMON]
    random.seed(seed)
    sample = random.sample(unique, min(n, len(unique)))
    total = found = 0
    missed = []
    for path, line, name in sample:
        r = cg("refs", f"{path}:{line}", "--limit", "0") or {}
        listed = {(x["file"], x["line"]) for x in r.get("references", [])}
        q = re.escape(name)
        called = re.compile(r"((\.|::|->)\s*" + q + r"(?![\w$?!=])|(?<![\w$.:>])" + q + r"\s*\()")
        lines = {}
        for f in cg("query", name, "--case-sensitive", "--limit", "0")["files"]:
            strip = STRIP[STYLE.get(f["file"].rsplit(".", 1)[-1], "c")]
            for m in f["matches"]:
                if m["type"] in ("code", "property") and called.search(re.sub(strip, "", m["text"])):
                    lines[(f["file"], m["line"])] = m["text"].strip()
        total += len(lines)
        found += len(lines.keys() & listed)
        gone = sorted(lines.keys() - listed)
        if gone:
            missed.append((name, len(lines), [lines[k][:100] for k in gone[:3]]))
    print(f"{folder}: {len(sample)} of {len(unique)} uniquely named methods; "
          f"lines calling them listed by cg refs: {found}/{total} = {found / max(total, 1):.3f}")
    for name, n_lines, texts in missed[: int(os.environ.get("SHOW", "20"))]:
        print(f"  {name} ({n_lines} lines) misses: {texts}")


if __name__ == "__main__":
    main()
