#!/usr/bin/env python3
"""Recall@10 and MRR@10 of `cg search` on a query set made by make_go.py (or
make_python.py): a query is found when a result is its definition (same file,
same line). Queries alternate between two halves: `a` (for choosing the hybrid
weight) and `b` (reported).

usage: eval.py CG PROJECT QUERIES.tsv MODE[-static][:WEIGHT]...
"""
import json, subprocess, sys

cg, project, tsv = sys.argv[1:4]
modes = sys.argv[4:]
queries = [l.rstrip('\n').split('\t') for l in open(tsv) if l.strip()]
print(f'{len(queries)} queries; half a = even rows, half b = odd rows')
print('| mode | recall@10 (all) | MRR@10 (all) | recall@10 (a) | MRR@10 (a) | recall@10 (b) | MRR@10 (b) |')
print('|---|---|---|---|---|---|---|')
for spec in modes:
    mode, _, weight = spec.partition(':')
    # `semantic-static`, `hybrid-static:W`: static vectors even where
    # transformer vectors (`cg embed`) exist.
    static_only = mode.endswith('-static')
    mode = mode.removesuffix('-static')
    ranks = []
    for row in queries:
        q, path, line, name = row[:4]
        # A decorated definition may be indexed at its first decorator.
        start = int(row[4]) if len(row) > 4 else int(line)
        cmd = [cg, 'search', q, '--project', project, '--limit', '10', '--json', '--mode', mode]
        if weight:
            cmd += ['--weight', weight]
        if static_only:
            cmd += ['--static-only']
        r = subprocess.run(cmd, capture_output=True, text=True)
        rank = None
        if r.stdout.strip():
            for i, h in enumerate(json.loads(r.stdout)['results']):
                if h['file'] == path and start <= h.get('indexed_line', h['line']) <= int(line):
                    rank = i + 1
                    break
                # A copy collapsed into this result counts as found.
                copies = [d.rsplit(':', 1) for d in h.get('duplicates', [])]
                if any(f == path and start <= int(l) <= int(line) for f, l in copies):
                    rank = i + 1
                    break
        ranks.append(rank)
    def stats(rs):
        n = max(len(rs), 1)
        return sum(r is not None for r in rs) / n, sum(1 / r for r in rs if r) / n
    (ra, ma), (rb, mb), (rall, mall) = stats(ranks[0::2]), stats(ranks[1::2]), stats(ranks)
    print(f'| {spec} | {rall:.3f} | {mall:.3f} | {ra:.3f} | {ma:.3f} | {rb:.3f} | {mb:.3f} |', flush=True)
