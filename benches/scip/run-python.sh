#!/bin/sh
# Compares `cg refs` with scip-python (pyright's name resolution) on the django
# corpus's `django` package. Needs node, npm and the corpus; not run by CI.
#   benches/scip/run-python.sh ~/corpus/django/Django-3.2.25 [SYMBOLS=500] [SEED=1]
set -eu
src=$1; n=${2:-500}; seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-/tmp/cg-scip-py}
tools=${TOOLS:-$HOME/scip}
if [ ! -x "$tools/node_modules/.bin/scip-python" ]; then
  mkdir -p "$tools" && (cd "$tools" && npm install @sourcegraph/scip-python)
fi
if [ ! -x "$tools/node_modules/.bin/scip-typescript" ]; then
  # Its decoder reads any index.scip.
  (cd "$tools" && npm install @sourcegraph/scip-typescript)
fi
rm -rf "$work" && mkdir -p "$work"
cp -r "$src/django" "$work/"
(cd "$work" && "$tools/node_modules/.bin/scip-python" index . --project-name django --project-version 1)
node "$here/dump.js" "$work/index.scip" "$work/occurrences.tsv"
(cd "$repo" && cargo build --release -q)
(cd "$work" && "$repo/target/release/cg" init >/dev/null)
CG="$repo/target/release/cg" python3 "$here/compare.py" "$work" "$work/occurrences.tsv" "$n" "$seed"
