#!/bin/sh
# Compares `cg refs` with scip-typescript (the TypeScript compiler's own name
# resolution) on the typescript corpus's src/compiler and src/services.
# Needs node, npm and the corpus; nothing here runs in CI.
#   benches/scip/run.sh ~/corpus/typescript/TypeScript-4.8.4 [SYMBOLS=1000] [SEED=1]
set -eu
src=$1; n=${2:-1000}; seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-/tmp/cg-scip}
tools=${TOOLS:-$HOME/scip}
if [ ! -x "$tools/node_modules/.bin/scip-typescript" ]; then
  mkdir -p "$tools" && (cd "$tools" && npm install @sourcegraph/scip-typescript)
fi
rm -rf "$work" && mkdir -p "$work/src"
cp -r "$src/src/compiler" "$src/src/services" "$work/src/"
find "$work/src" -name tsconfig.json -delete
cat > "$work/tsconfig.json" <<'JSON'
{ "compilerOptions": { "target": "es2018", "lib": ["es2018"], "noEmit": true, "skipLibCheck": true, "types": [] },
  "include": ["src/compiler/**/*.ts", "src/services/**/*.ts"] }
JSON
(cd "$work" && "$tools/node_modules/.bin/scip-typescript" index --no-progress-bar --max-file-byte-size 10mb)
SCIP_JS="$tools/node_modules/@sourcegraph/scip-typescript/dist/src/scip.js" node "$here/dump.js" "$work/index.scip" "$work/occurrences.tsv"
(cd "$repo" && cargo build --release -q)
(cd "$work" && "$repo/target/release/cg" init --max-file-mib 8 >/dev/null)
CG="$repo/target/release/cg" python3 "$here/compare.py" "$work" "$work/occurrences.tsv" "$n" "$seed"
