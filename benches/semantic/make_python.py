#!/usr/bin/env python3
"""Makes a Python query set for search by meaning, as make_go.py does for Go:
copies the non-test .py files under the given folders to OUT with every
function's docstring taken out (its first line becomes `pass`, the rest blank,
so line numbers do not move), and writes OUT.tsv: one query per function whose
docstring's first sentence does not name the function:
`query \t path \t def line \t name \t first decorator line`.

usage: make_python.py SRC_ROOT OUT FOLDER... [--max N] [--seed S]
"""
import ast, os, random, re, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
opts = dict(zip(sys.argv[1:], sys.argv[2:]))
src, out, folders = args[0], args[1], args[2:]
max_q = int(opts.get('--max', 300))
seed = int(opts.get('--seed', 7))
queries = []
for folder in folders:
    for dirpath, dirs, files in os.walk(os.path.join(src, folder)):
        dirs[:] = sorted(d for d in dirs if d not in ('tests', 'test', 'migrations', 'locale'))
        for f in sorted(files):
            if not f.endswith('.py') or f.startswith('test'):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, src)
            text = open(path, encoding='utf-8', errors='replace').read()
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            lines = text.split('\n')
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not node.body:
                    continue
                first = node.body[0]
                if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
                    continue
                doc = ' '.join(first.value.value.split())
                a, b = first.lineno - 1, first.end_lineno - 1
                indent = re.match(r'\s*', lines[a]).group(0)
                lines[a] = indent + 'pass'
                for k in range(a + 1, b + 1):
                    lines[k] = ''
                name = node.name
                sentence = re.split(r'(?<=[.!?])\s', doc, maxsplit=1)[0].strip().rstrip('.')
                words = re.findall(r'[A-Za-z]+', sentence)
                if len(words) < 4 or name.lower() in sentence.lower().replace(' ', '_'):
                    continue
                start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                queries.append((sentence, rel, node.lineno, name, start))
            dest = os.path.join(out, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            open(dest, 'w', encoding='utf-8').write('\n'.join(lines))
random.Random(seed).shuffle(queries)
with open(out.rstrip('/') + '.tsv', 'w') as f:
    for q in queries[:max_q]:
        f.write('\t'.join(map(str, q)) + '\n')
print(f'{len(queries)} candidate queries, {min(len(queries), max_q)} written to {out.rstrip("/")}.tsv', file=sys.stderr)
