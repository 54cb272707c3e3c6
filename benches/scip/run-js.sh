#!/bin/sh
# Compares `cg refs` with scip-typescript on a JavaScript tree (the compiler's
# own resolution of JS, with a tsconfig inferred: `--infer-tsconfig`). Needs
# node and npm; not run by CI.
#   benches/scip/run-js.sh TREE [SYMBOLS=1000] [SEED=1]
# e.g. TREE: an npm package written in JS, unpacked (`npm pack webpack@5.90.0`).
set -eu
src=$1; n=${2:-1000}; seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-/tmp/cg-scip-js}
tools=${TOOLS:-$HOME/scip}
if [ ! -x "$tools/node_modules/.bin/scip-typescript" ]; then
  mkdir -p "$tools" && (cd "$tools" && npm install @sourcegraph/scip-typescript)
fi
rm -rf "$work" && mkdir -p "$work"
cp -r "$src/." "$work/"
rm -rf "$work/node_modules" "$work/types.d.ts" && find "$work" -name '*.d.ts' -delete && find "$work" -name tsconfig.json -delete
(cd "$work" && "$tools/node_modules/.bin/scip-typescript" index --infer-tsconfig --no-progress-bar --max-file-byte-size 10mb)
SCIP_JS="$tools/node_modules/@sourcegraph/scip-typescript/dist/src/scip.js" node "$here/dump.js" "$work/index.scip" "$work/occurrences.tsv"
(cd "$repo" && cargo build --release -q)
(cd "$work" && "$repo/target/release/cg" init >/dev/null)
CG="$repo/target/release/cg" python3 "$here/compare.py" "$work" "$work/occurrences.tsv" "$n" "$seed"
