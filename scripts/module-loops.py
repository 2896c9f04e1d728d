#!/usr/bin/env python3
"""Module dependency graph of one crate's src/ (file granularity), from the paths its code names:
`crate::a::b`, `super::a`, and any `a::b` that names a module of the crate (imported with `use`).
Comments and `#[cfg(test)] mod tests` blocks are left out; the crate root (lib.rs) is left out,
as the root that declares every module. Prints the edges (with `edges`) and every import loop;
with `modules`, one node per top-level module (each file under ops/ its own).

    python3 scripts/module-loops.py crates/dynotable-engine/src [modules] [edges]
"""
import os, re, sys
root = sys.argv[1]
files = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.join(d, f)
            parts = os.path.relpath(p, root)[:-3].split(os.sep)
            if parts[-1] in ('mod', 'lib'):
                parts = parts[:-1]
            files[tuple(parts)] = p
def resolve(path):
    for n in range(len(path), 0, -1):
        if tuple(path[:n]) in files:
            return tuple(path[:n])
    return None
ident = r'[A-Za-z_][A-Za-z0-9_]*'
edges = {}
for mod, p in files.items():
    if mod == () or p.endswith('tests.rs'):
        continue
    src = open(p).read()
    i = src.find('#[cfg(test)]\nmod tests')
    if i >= 0: src = src[:i]
    src = '\n'.join(re.sub(r'//.*', '', l) for l in src.split('\n'))
    # expand `use` groups: a::{b, c::{d}} -> a::b, a::c::d
    paths = []
    def expand(prefix, body):
        depth, cur, parts = 0, '', []
        for ch in body:
            if ch == '{': depth += 1
            if ch == '}': depth -= 1
            if ch == ',' and depth == 0: parts.append(cur); cur = ''
            else: cur += ch
        parts.append(cur)
        for part in parts:
            part = part.strip()
            m = re.match(r'((?:' + ident + r'::)*)\{(.*)\}$', part, re.S)
            if m: expand(prefix + m.group(1), m.group(2))
            elif part: paths.append(prefix + part)
    for m in re.finditer(r'\buse\s+((?:' + ident + r'::)*)\{(.*?)\};', src, re.S):
        expand(m.group(1), m.group(2))
    paths += re.findall(r'\b(?:' + ident + r'::)+' + ident, src)
    parent = list(mod[:-1]) if not p.endswith('mod.rs') else list(mod[:-1])
    if p.endswith('mod.rs'): parent = list(mod)
    deps = set()
    for path in paths:
        segs = [s.split(' as ')[0].strip() for s in path.split('::')]
        if segs[-1] == 'self': segs = segs[:-1]
        if not segs: continue
        if segs[0] == 'crate': t = resolve(segs[1:])
        elif segs[0] == 'super':
            base = list(mod[:-1])
            while segs and segs[0] == 'super': segs = segs[1:]
            t = resolve(base + segs)
        elif segs[0] == 'self': t = resolve(parent + segs[1:])
        else:
            t = resolve(parent + segs) if (tuple(parent + segs[:1]) in files) else resolve(segs)
        if t and t != mod and t != ():
            # a file's own submodules are its parts, not its dependencies
            if t[:len(mod)] == mod: continue
            deps.add(t)
    edges[mod] = deps
name = lambda m: '/'.join(m)
if 'modules' in sys.argv[2:]:
    # one node per top-level module (each operation under ops/ its own)
    top = lambda m: m[:2] if m[0] == 'ops' and len(m) > 1 else m[:1]
    merged = {}
    for m, ds in edges.items():
        merged.setdefault(top(m), set()).update(top(d) for d in ds if top(d) != top(m))
    edges = merged
idx, low, st, on, sccs, c = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in idx:
            sc(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in edges:
    if v not in idx: sc(v)
if 'edges' in sys.argv[2:]:
    for m in sorted(edges):
        print(f"{name(m)} -> {', '.join(sorted(name(d) for d in edges[m]))}")
loops = [s for s in sccs if len(s) > 1]
for s in loops:
    print(f"import loop of {len(s)} files: " + ', '.join(sorted(name(m) for m in s)))
    for m in sorted(s):
        print(f"  {name(m)} -> {', '.join(sorted(name(d) for d in edges[m] if d in s))}")
if not loops: print("no import loop")
