#!/usr/bin/env python3
"""Compares `cg refs` with a SCIP index (scip-typescript, scip-python) on a sample of symbols.

Usage: compare.py PROJECT OCCURRENCES.tsv N SEED
A symbol is sampled among those SCIP defines once in the project, whose definition
line is a cg definition of the same name, and that SCIP references at least once.
Namespaces are left out: scip-typescript makes each file's `namespace ts { .. }`
its own symbol, cg one namespace spread over the files (as the compiler merges it).
References are compared as (file, line) sets, definition lines left out of both.

Two conventions of scip-typescript differ from a reader's (and from the TypeScript
language service's "find all references", which cg follows); the figures are
printed as they are and, on a second line, with these lines reconciled:
- `new X(..)`, and a class used as a value (`X.STAGE`), is scip's reference of
  X's `<constructor>` only when the class declares one; for the class it counts
  as a reference too when the line names the class.
- A CommonJS `const { x } = require(..)` has no occurrence of `x` in scip at all
  (only of the module); such lines are left out of both sets, as definition
  lines are.
- A CommonJS export of an object literal's shorthand property (`module.exports =
  { f }`) is scip's own symbol (`f0:`), which the other files' uses of `f` bind
  to; those uses and the shorthand count as references of the function `f`.
scip-python's figures are reconciled on the lines that name the symbol: it binds
a class's attributes reached through a star import to another class of the
module (`models.EmailField(..)` to `DateTimeField`, `migrations.AlterField(..)` to
`CreateModel`), and it does not count `Query(..)` as a reference of
`Query.__init__`, which cg does; a line naming neither is left out of both sets
(an alias's uses are too).
"""
import collections, json, os, random, re, subprocess, sys

project, tsv, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
defs = collections.defaultdict(set)
refs = collections.defaultdict(set)
for line in open(tsv):
    path, ln, d, sym = line.rstrip('\n').split('\t', 3)
    (defs if d == '1' else refs)[sym].add((path, int(ln)))

def name_of(sym):
    # `... src/compiler/`checker.ts`/ts/createTypeChecker().getTypeOfSymbol().` → getTypeOfSymbol
    desc = sym.rsplit(' ', 1)[-1].rstrip('.#').rstrip('()')
    m = re.findall(r'[A-Za-z_$][\w$]*', desc)
    return m[-1] if m else ''

def kind_of(sym):
    if sym.endswith(').'):
        return 'function/method'
    if sym.endswith('#'):
        return 'type'
    # `src/compiler/`core.ts`/ts/emptyArray.`: a variable of a module or namespace,
    # not a member of a type (`Type#flags.`) nor inside a function.
    inner = sym.rsplit('`/', 1)[-1]
    return 'module variable' if '#' not in inner and '(' not in inner else 'property'

cands = [s for s in defs if len(defs[s]) == 1 and refs[s] and name_of(s)
         and not re.search(r'\(\w+\)$', s.rstrip('.'))]  # parameters `(x)` are local to a function
random.Random(seed).shuffle(cands)
# CG_SCIP_KIND=KIND compares only symbols of one kind (as printed below).
if os.environ.get('CG_SCIP_KIND'):
    cands = [s for s in cands if kind_of(s) == os.environ['CG_SCIP_KIND']]
tp = fp = fn_ = amb_tp = amb_fp = 0
checked = 0
per = []
bykind = {}
# CG_SCIP_MISSES=FILE writes each missed (m) and extra (x) reference with its line text;
# CG_SCIP_MISSES_RECONCILED=FILE the same with the conventions reconciled (appended).
misses = open(os.environ['CG_SCIP_MISSES'], 'w') if os.environ.get('CG_SCIP_MISSES') else None
texts = {}
def line_text(path, ln):
    if path not in texts:
        try:
            texts[path] = open(os.path.join(project, path), errors='replace').read().split('\n')
        except OSError:
            texts[path] = []
    lines = texts[path]
    return lines[ln - 1].strip() if 0 < ln <= len(lines) else ''

shorthand = collections.defaultdict(list)  # (file part of a symbol, name) → `name0:` symbols
for s_ in defs:
    m_ = re.match(r'(.*`/)([A-Za-z_$][\w$]*?)\d*:$', s_)
    if m_:
        shorthand[(m_.group(1), m_.group(2))].append(s_)

def exported_of(sym, name):
    # Uses through `module.exports = { name }` (scip's `name0:`), and the shorthand itself.
    m_ = re.match(r'(.*`/)[^/]*$', sym)
    out = set()
    for s_ in shorthand.get((m_.group(1), name), ()) if m_ else ():
        lines = defs[s_]
        if all(re.fullmatch(re.escape(name) + r'\s*,?', line_text(*d)) for d in lines):
            out |= lines | refs[s_]
    return out

def new_of(sym, name):
    # The lines naming X that scip gives to X's constructor (`...X#` → `...X#`<constructor>`().`).
    ctor = sym + '`<constructor>`().'
    pat = re.compile(r'(?<![\w$.])' + re.escape(name) + r'(?![\w$])')
    return {r for r in refs.get(ctor, ()) if pat.search(line_text(*r))}

required = {}
def required_lines(path):
    # Lines inside `const { .. } = require(..)` patterns, with the names each binds.
    if path not in required:
        out = collections.defaultdict(set)
        line_text(path, 1)
        lines = texts[path]
        i = 0
        while i < len(lines):
            m = re.match(r'\s*(?:const|let|var)\s*\{', lines[i])
            if m:
                j = i
                while j < len(lines) and j < i + 200 and '}' not in lines[j]:
                    j += 1
                if j < len(lines) and re.search(r'\}\s*=\s*require\s*\(', lines[j]):
                    for k in range(i, j + 1):
                        for w in re.findall(r'[A-Za-z_$][\w$]*', lines[k]):
                            out[k + 1].add(w)
                i = j
            i += 1
        required[path] = out
    return required[path]

def required_line(key, name):
    return name in required_lines(key[0]).get(key[1], ())

def names_it(key, sym, name):
    # scip-python's lines are compared where they name the symbol (above).
    if not sym.startswith('scip-python '):
        return True
    return re.search(r'(?<![\w])' + re.escape(name) + r'(?!\w)', line_text(*key)) is not None

adj = [0, 0, 0, 0, 0]  # tp, fp, fn, ambiguous tp, ambiguous fp with the conventions reconciled
# The names scip resolves on each line (any symbol): a reference cg states
# without doubt that scip does not list is contradicted when scip resolves
# the same name on that line to another symbol, else scip is silent there
# (a value whose type it could not infer, or no reference).
named_on = None
def scip_names(key):
    global named_on
    if named_on is None:
        named_on = collections.defaultdict(set)
        for table in (defs, refs):
            for s_, keys in table.items():
                n_ = name_of(s_)
                for k_ in keys:
                    named_on[k_].add(n_)
    return named_on.get(key, ())
contradicted = 0
for sym in cands:
    if checked >= n:
        break
    if sym.endswith('/'):  # a namespace (skipped here: the sample stays the one drawn before cg had them)
        continue
    (path, ln), = defs[sym]
    out = subprocess.run([os.environ.get('CG', 'cg'), 'refs', f'{path}:{ln}', '--json', '--limit', '0'],
                         cwd=project, capture_output=True, text=True)
    if not out.stdout.strip():
        continue
    ans = json.loads(out.stdout)
    d = ans['definitions']
    if len(d) != 1 or d[0]['name'] != name_of(sym):
        continue
    checked += 1
    deflines = {(x['file'], x['line']) for x in d} | defs[sym]
    truth = {r for r in refs[sym] if r not in deflines}
    got = {(r['file'], r.get('indexed_line', r['line'])): r.get('ambiguous', False) for r in ans['references']}
    got = {k: v for k, v in got.items() if k not in deflines}
    name = name_of(sym)
    extra = new_of(sym, name) if kind_of(sym) == 'type' else exported_of(sym, name)
    truth2 = {r for r in truth | extra
              if r not in deflines and not required_line(r, name) and names_it(r, sym, name)}
    got2 = {k: v for k, v in got.items() if not required_line(k, name) and names_it(k, sym, name)}
    if os.environ.get('CG_SCIP_MISSES_RECONCILED'):
        with open(os.environ['CG_SCIP_MISSES_RECONCILED'], 'a') as w:
            for tag, keys in (('m', truth2 - got2.keys()), ('x', got2.keys() - truth2)):
                for (p, l) in sorted(keys):
                    w.write(f"{tag}\t{'a' if got2.get((p, l)) else '-'}\t{name}\t{p}:{l}\t{line_text(p, l)}\t{sym}\n")
    contradicted += sum(1 for k in got2.keys() - truth2 if not got2[k] and name in scip_names(k))
    adj[0] += len(truth2 & got2.keys()); adj[1] += len(got2.keys() - truth2); adj[2] += len(truth2 - got2.keys())
    adj[3] += sum(1 for k in truth2 & got2.keys() if got2[k]); adj[4] += sum(1 for k in got2.keys() - truth2 if got2[k])
    t = len(truth & got.keys()); f = len(got.keys() - truth); m = len(truth - got.keys())
    tp += t; fp += f; fn_ += m
    amb_tp += sum(1 for k in truth & got.keys() if got[k]); amb_fp += sum(1 for k in got.keys() - truth if got[k])
    per.append((sym, len(truth), t, f, m, ans.get('other_lines', 0)))
    if misses:
        for tag, keys in (('m', truth - got.keys()), ('x', got.keys() - truth)):
            for (p, l) in sorted(keys):
                amb = 'a' if got.get((p, l)) else '-'
                misses.write(f'{tag}\t{amb}\t{name_of(sym)}\t{p}:{l}\t{line_text(p, l)}\t{sym}\n')
    kind = kind_of(sym)
    k = bykind.setdefault(kind, [0, 0, 0, 0, 0])
    k[0] += 1; k[1] += t; k[2] += f; k[3] += m
    k[4] += sum(1 for x in got.values() if not x) - sum(1 for x in got.keys() - truth if not got[x])
print(f'symbols compared: {checked}')
print(f'references: scip {tp + fn_}, cg {tp + fp}, both {tp}')
print(f'recall {tp / max(1, tp + fn_):.3f}  precision {tp / max(1, tp + fp):.3f}')
print(f'cg references marked ambiguous: {amb_tp} right, {amb_fp} wrong')
unamb = tp + fp - amb_tp - amb_fp
print(f'precision of references not marked ambiguous: {(tp - amb_tp) / max(1, unamb):.3f} ({unamb})')
a_tp, a_fp, a_fn, a_atp, a_afp = adj
a_unamb = a_tp + a_fp - a_atp - a_afp
print(f'with the conventions reconciled (new X(), require destructuring, object exports; scip-python: lines naming it): recall {a_tp / max(1, a_tp + a_fn):.3f}  '
      f'precision {a_tp / max(1, a_tp + a_fp):.3f}  not marked ambiguous: {(a_tp - a_atp) / max(1, a_unamb):.3f} ({a_unamb})')
print(f'  of those not listed by scip: {contradicted} where scip resolves the name on that line to another symbol, '
      f'{a_fp - a_afp - contradicted} where it resolves none of that name')
for kind, (c, t, f, m, _) in sorted(bykind.items()):
    print(f'  {kind:18} symbols {c:4}  recall {t / max(1, t + m):.3f}  precision {t / max(1, t + f):.3f}')
worst = sorted(per, key=lambda p: -(p[3] + p[4]))[:15]
for sym, total, t, f, m, byname in worst:
    print(f'  {sym[-90:]:90} scip {total:4} hit {t:4} extra {f:4} missed {m:4} other_lines {byname}')
