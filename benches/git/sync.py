#!/usr/bin/env python3
"""`cg sync-git` after commits of ten files each, end to end (its `git`
processes included), on a real tree made a repository.

    python3 benches/git/sync.py target/release/cg TREE [WORK=/tmp/cg-sync] [ROUNDS=5]

TREE is hard-linked into WORK (edits write a new file and rename it over the
link, so TREE is never changed), committed once and indexed with `cg init`;
then each round appends a line to ten source files, commits, and times
`cg sync-git`. Prints each round's seconds and the median, and `cg status`."""
import os, random, shutil, statistics, subprocess, sys, time

SOURCE = (".go", ".rs", ".py", ".ts", ".js", ".java", ".cs", ".c", ".h", ".cpp", ".php", ".rb")


def run(cmd, cwd):
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    cg, tree = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = sys.argv[3] if len(sys.argv) > 3 else "/tmp/cg-sync"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    repo = os.path.join(work, "tree")
    run(["cp", "-al", tree, repo], work)
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.com", GIT_COMMITTER_NAME="b",
               GIT_COMMITTER_EMAIL="b@example.com")
    git = lambda *a: subprocess.run(["git", *a], cwd=repo, check=True, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "base")
    run([cg, "init"], repo)
    files = sorted(os.path.relpath(os.path.join(d, f), repo) for d, _, fs in os.walk(repo) if "/.git" not in d
                   and "/.codegraph" not in d for f in fs if f.endswith(SOURCE))
    rng = random.Random(1)
    times = []
    for r in range(rounds):
        for rel in rng.sample(files, 10):
            path = os.path.join(repo, rel)
            with open(path, "rb") as f:
                data = f.read()
            with open(path + ".cg-tmp", "wb") as f:
                f.write(data + b"\n// sync benchmark %d\n" % r)
            os.replace(path + ".cg-tmp", path)
        git("add", "-A")
        git("commit", "-qm", f"round {r}")
        start = time.perf_counter()
        run([cg, "sync-git", "--quiet"], repo)
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    run([cg, "status"], repo)
    status = time.perf_counter() - start
    print("sync-git of a ten-file commit: " + ", ".join(f"{t:.2f}" for t in times)
          + f" s; median {statistics.median(times):.2f} s")
    print(f"cg status: {status:.2f} s")


main()
