#!/usr/bin/env python3
"""Localization on real tasks: does `cg context` (budget 8,000 tokens) / `cg search` put the
files a real fix changed in front of an agent? Side by side with BM25 over whole files (the
SWE-bench retrieval baseline), given the same number of files.

usage: localize.py CG_BIN CORPUS_DIR WORK_DIR [--tasks TASKS.jsonl] [--half a|b] [--corpora a,b]
       [--budget 8000] [--keep-index]
TASKS.jsonl (default: tasks.jsonl beside this file) holds one task a line: {corpus, patch, task,
files}; the tasks here were made from the Debian patches of the corpus trees
(`shared/corpus/fetch CORPUS_DIR NAME...`): the patch's description is the task, the non-test
source files it changes are the answer. `--half a` keeps the tasks whose md5 of
`corpus/patch` is even (for choosing weights), `--half b` the others (for reporting). Trees are
hard-linked into WORK_DIR and indexed there (the corpus stays untouched); an index already in
WORK_DIR is rebuilt unless --keep-index."""
import argparse, collections, hashlib, json, math, os, re, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = {".py", ".pyi", ".c", ".h", ".cc", ".cpp", ".hpp", ".go", ".rs", ".rb", ".php", ".java", ".ts",
       ".tsx", ".js", ".jsx", ".mjs", ".cs"}
STOP = set("the a an and or of to in for on with is are be by this that it as at from not no we when if "
           "use used using can should would into fix fixed fixes add added make made allow".split())



def fail_on_error(p, tree):
    """Stops the run when cg failed (exit 2: an index of another format, a
    corrupt one): a task scored on an empty answer would read as a miss. Exit 1
    is `cg search` finding nothing."""
    if p.returncode not in (0, 1):
        sys.exit(f"localize: {' '.join(map(str, p.args[:2]))} in {tree} failed ({p.returncode}): {p.stderr.strip()}")

def words(text):
    out = []
    for tok in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text):
        low = tok.lower()
        parts = [p.lower() for p in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", tok)]
        for w in {low, *parts}:
            if len(w) > 1 and w not in STOP:
                out.append(w)
    return out


class BM25:
    def __init__(self, root):
        self.docs, self.tf, self.df, self.len = [], [], collections.Counter(), []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x not in (".codegraph", ".git", "node_modules")]
            for f in files:
                if os.path.splitext(f)[1] in SRC:
                    p = os.path.join(d, f)
                    try:
                        if os.path.getsize(p) > 2 << 20:
                            continue
                        c = collections.Counter(words(open(p, errors="replace").read()))
                    except OSError:
                        continue
                    self.docs.append(os.path.relpath(p, root)); self.tf.append(c); self.len.append(sum(c.values()))
                    self.df.update(c.keys())
        self.avg = sum(self.len) / max(1, len(self.len))

    def top(self, query, k):
        n, q = len(self.docs), set(words(query))
        idf = {w: math.log(1 + (n - self.df[w] + 0.5) / (self.df[w] + 0.5)) for w in q if self.df[w]}
        scores = []
        for i, c in enumerate(self.tf):
            s = 0.0
            for w, wi in idf.items():
                f = c.get(w)
                if f:
                    s += wi * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * self.len[i] / self.avg))
            if s:
                scores.append((s, i))
        scores.sort(reverse=True)
        return [self.docs[i] for _, i in scores[:k]]


def files_of(o, keys=("path", "file")):
    out = []
    def walk(x):
        if isinstance(x, dict):
            for k in keys:
                if isinstance(x.get(k), str) and x[k] not in out:
                    out.append(x[k])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(o)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cg"); ap.add_argument("corpus"); ap.add_argument("work")
    ap.add_argument("--corpora", default=""); ap.add_argument("--budget", type=int, default=8000)
    ap.add_argument("--tasks", default=os.path.join(HERE, "tasks.jsonl"))
    ap.add_argument("--half", choices=["a", "b"])
    ap.add_argument("--keep-index", action="store_true")
    ap.add_argument("--per-task", help="append each task's answers (JSON lines: cg's context and search files, "
                    "BM25's files, the changed files) to this file")
    ap.add_argument("--search-files", action="store_true",
                    help="rank files with `cg search --files` (default: the files of the definitions `cg search` lists)")
    a = ap.parse_args()
    tasks = [json.loads(l) for l in open(a.tasks)]
    if a.half:
        even = lambda t: int(hashlib.md5(f"{t['corpus']}/{t['patch']}".encode()).hexdigest(), 16) % 2 == 0
        tasks = [t for t in tasks if even(t) == (a.half == "a")]
    want = set(a.corpora.split(",")) if a.corpora else None
    by = collections.defaultdict(list)
    for t in tasks:
        if want is None or t["corpus"] in want:
            by[t["corpus"]].append(t)
    tot = collections.Counter()
    os.makedirs(a.work, exist_ok=True)
    for name, ts in sorted(by.items()):
        tree = os.path.join(a.work, name)
        if not os.path.isdir(tree):
            subprocess.run(["cp", "-al", os.path.join(a.corpus, name), tree], check=True)
        t0 = time.time()
        if not (a.keep_index and os.path.isdir(os.path.join(tree, ".codegraph"))):
            p = subprocess.run([a.cg, "init", tree], cwd=tree, capture_output=True, text=True)
            fail_on_error(p, tree)
        init_s = time.time() - t0
        bm = BM25(tree)
        c = collections.Counter()
        for t in ts:
            gold = set(t["files"])
            p = subprocess.run([a.cg, "context", t["task"], "--budget", str(a.budget), "--json"], cwd=tree,
                               capture_output=True, text=True, timeout=300)
            fail_on_error(p, tree)
            try:
                ctx = files_of(json.loads(p.stdout))
            except json.JSONDecodeError:
                ctx = []
            p = subprocess.run([a.cg, "search", t["task"], "--limit", "10", "--json"]
                               + (["--files"] if a.search_files else []), cwd=tree,
                               capture_output=True, text=True, timeout=300)
            fail_on_error(p, tree)
            try:
                srch = files_of(json.loads(p.stdout))
            except json.JSONDecodeError:
                srch = []
            n = max(1, len(ctx))
            b = bm.top(t["task"], max(10, n))
            c["tasks"] += 1
            c["ctx_any"] += bool(gold & set(ctx)); c["ctx_all"] += gold <= set(ctx); c["ctx_files"] += len(ctx)
            c["bm25_n_any"] += bool(gold & set(b[:n])); c["bm25_n_all"] += gold <= set(b[:n])
            c["search10_any"] += bool(gold & set(srch[:10])); c["bm25_10_any"] += bool(gold & set(b[:10]))
            c["search5_any"] += bool(gold & set(srch[:5])); c["bm25_5_any"] += bool(gold & set(b[:5]))
            if a.per_task:
                with open(a.per_task, "a") as out:
                    out.write(json.dumps({"corpus": name, "patch": t["patch"], "ctx_any": bool(gold & set(ctx)),
                                          "ctx_all": gold <= set(ctx), "search5": bool(gold & set(srch[:5])),
                                          "search10": bool(gold & set(srch[:10])), "context": ctx,
                                          "search": srch[:10], "bm25": b, "gold": sorted(gold)}) + "\n")

        tot.update(c)
        k = c["tasks"]
        print(f"{name}: {k} tasks, init {init_s:.0f}s; context any {c['ctx_any']}/{k} all {c['ctx_all']}/{k} "
              f"({c['ctx_files']/k:.1f} files) vs BM25 same n any {c['bm25_n_any']} all {c['bm25_n_all']}; "
              f"search@10 {c['search10_any']} vs BM25@10 {c['bm25_10_any']}; @5 {c['search5_any']} vs {c['bm25_5_any']}",
              flush=True)
    k = tot["tasks"] or 1
    print(f"localize: {tot['tasks']} tasks; context (budget {a.budget}) any {tot['ctx_any']/k:.3f} all {tot['ctx_all']/k:.3f} "
          f"[{tot['ctx_files']/k:.1f} files] vs BM25 any {tot['bm25_n_any']/k:.3f} all {tot['bm25_n_all']/k:.3f}; "
          f"search@10 {tot['search10_any']/k:.3f} vs BM25 {tot['bm25_10_any']/k:.3f}; "
          f"search@5 {tot['search5_any']/k:.3f} vs BM25 {tot['bm25_5_any']/k:.3f}")


if __name__ == "__main__":
    main()
