#!/usr/bin/env python3
"""Makes a Go query set for search by meaning: copies the non-test Go files of a
tree (under the given folders) to OUT with every function's doc comment blanked
(lines kept, so line numbers do not move), and writes OUT.tsv: one query per
function whose doc comment's first sentence, its leading name removed, does not
name the function: `query \t path \t line \t name`.

usage: make_go.py SRC_ROOT OUT FOLDER... [--max N] [--seed S]
"""
import os, random, re, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
opts = dict(zip(sys.argv[1:], sys.argv[2:]))
src, out, folders = args[0], args[1], args[2:]
max_q = int(opts.get('--max', 300))
seed = int(opts.get('--seed', 7))
func_re = re.compile(r'^func\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)')
queries = []
for folder in folders:
    for dirpath, dirs, files in os.walk(os.path.join(src, folder)):
        dirs[:] = sorted(d for d in dirs if d not in ('vendor', 'testdata', 'third_party'))
        for f in sorted(files):
            if not f.endswith('.go') or f.endswith('_test.go') or 'generated' in f:
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, src)
            try:
                lines = open(path, encoding='utf-8').read().split('\n')
            except UnicodeDecodeError:
                continue
            if any('Code generated' in l for l in lines[:5]):
                continue
            for i, line in enumerate(lines):
                m = func_re.match(line)
                if not m:
                    continue
                name = m.group(1)
                j = i
                while j > 0 and lines[j - 1].startswith('//'):
                    j -= 1
                if j == i:
                    continue
                doc = ' '.join(l[2:].strip() for l in lines[j:i])
                for k in range(j, i):
                    lines[k] = ''
                if doc.startswith(name + ' '):
                    doc = doc[len(name) + 1:]
                sentence = re.split(r'(?<=[.!?])\s', doc, maxsplit=1)[0].strip().rstrip('.')
                words = re.findall(r'[A-Za-z]+', sentence)
                if len(words) < 4 or name.lower() in sentence.lower() or sentence.lower().startswith(('deprecated', 'todo', 'nolint', '+')):
                    continue
                queries.append((sentence, rel, i + 1, name))
            dest = os.path.join(out, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            open(dest, 'w', encoding='utf-8').write('\n'.join(lines))
random.Random(seed).shuffle(queries)
with open(out.rstrip('/') + '.tsv', 'w') as f:
    for q in queries[:max_q]:
        f.write('\t'.join(map(str, q)) + '\n')
print(f'{len(queries)} candidate queries, {min(len(queries), max_q)} written to {out.rstrip("/")}.tsv', file=sys.stderr)
