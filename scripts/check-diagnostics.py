#!/usr/bin/env python3
"""Lists the user-visible diagnostics of lib/ that no test under test/ expects.

Diagnostics: emitError / emitOpError / emitRemark / emitWarning chains (and
`diag << ...` continuations), `refuse(...)` explanations, `return`s of
get*Blocker / get*Mismatch / get*Reason functions, `reason = ...` and
`why = ...` (an explanation handed to a caller that reports it). A message
is the template of its literal pieces ("{}" for a value), counted once; a
string parameter of a helper is followed to its callers, one message per
literal passed. Exits 1 if a message without a test is not allowlisted in
scripts/diagnostics-allowlist.txt, or an entry there is stale.
See docs/Diagnostics.md.
"""
import argparse
import bisect
import itertools
import pathlib
import re
import sys

TOKEN = re.compile(r'''(?P<skip>//[^\n]*|/\*.*?\*/|^[ \t]*\#[^\n]*|\s+)
  |(?P<raw>(?:u8|L|u|U)?R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)")
  |(?P<str>(?:u8|L|u|U)?"(?:\\.|[^"\\\n])*")|(?P<chr>'(?:\\.|[^'\\\n])+')
  |(?P<id>[A-Za-z_]\w*)|(?P<num>\d[\w.]*)
  |(?P<op>::|->|<<=|<<|>>=|>>|==|!=|<=|>=|&&|\|\||\+\+|--|[-+*/%|&^!=]=|\S)''',
                   re.S | re.M | re.X)
EMIT = {'emitError', 'emitOpError', 'emitRemark', 'emitWarning'}
WRAP = EMIT | {'Twine', 'string', 'StringRef', 'refuse'}
NOT_FUNCS = {'if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof',
             'decltype', 'alignof', 'static_assert'}
STR_TYPES = {'StringRef', 'Twine', 'string', 'char'}
BLOCKER = re.compile(r'get\w*(Blocker|Mismatch|Reason)$')
OPEN = {'(': ')', '[': ']', '{': '}'}
# A CHECK-NOT line asserts a message is absent: it covers nothing.
EXPECT = re.compile(r'expected-(error|remark|warning)|CHECK(?!-NOT)|error:|remark:|warning:')
SHORT = 8  # literal runs shorter than this are no evidence of coverage


def unescape(lit):
    if lit.startswith('R'):  # raw string: verbatim
        return lit[lit.index('(') + 1:lit.rindex(')')]
    body = lit[lit.index('"') + 1:-1]
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(
        m.group(1), m.group(1)), body)


class Source:
    """The tokens of one C++ file, its brackets, functions and lambdas."""

    def __init__(self, path, rel):
        text = path.read_text(errors='replace')
        newlines = [m.start() for m in re.finditer('\n', text)]
        self.rel, self.toks, self.lines = rel, [], []
        for m in TOKEN.finditer(text):
            if m.lastgroup != 'skip':
                tok = m.group()
                if m.lastgroup in ('str', 'raw'):  # drop u8 / L / u / U
                    tok = tok[tok.index('R"' if m.lastgroup == 'raw' else '"') :]
                self.toks.append(('str' if m.lastgroup == 'raw' else m.lastgroup, tok))
                self.lines.append(bisect.bisect(newlines, m.start()) + 1)
        self.match, stack = {}, []
        for i, (_, t) in enumerate(self.toks):
            if t in OPEN:
                stack.append(i)
            elif t in (')', ']', '}') and stack:
                self.match[i] = stack.pop()
                self.match[self.match[i]] = i
        self.callables = [c for i, (_, t) in enumerate(self.toks)
                          if t == '{' and (c := self.callable_at(i))]

    def t(self, i):
        return self.toks[i][1] if 0 <= i < len(self.toks) else ''

    def step(self, i):  # the next token, over a bracketed group
        return self.match[i] + 1 if self.t(i) in OPEN and i in self.match else i + 1

    def callable_at(self, brace):
        """The function or named lambda (`auto f = [..](..) {`) whose body
        opens at `brace`, with its parameters."""
        j = brace - 1  # back over `const`, `-> Type`, `override`, ...
        while j > brace - 16 and self.t(j) != ')' and (
                self.toks[j][0] == 'id' or self.t(j) in ('::', '->', '<', '>', ',', '*', '&', '>>')):
            j -= 1
        if self.t(j) != ')' or j not in self.match:
            return None
        k = self.match[j]
        name, head, lam = self.t(k - 1), k - 1, False
        if name == ']':
            lb = self.match.get(k - 1, k - 1)
            if self.t(lb - 1) != '=' or self.toks[lb - 2][0] != 'id':
                return None
            name, head, lam = self.t(lb - 2), lb - 2, True
        elif self.toks[k - 1][0] != 'id' or name in NOT_FUNCS:
            return None
        params, strings, cur, depth = [], [], [], 0  # split at commas outside <>
        for i in range(k + 1, j + 1):
            t = self.t(i)
            depth += (t in ('(', '<', '[', '{')) - (t in (')', '>', ']', '}'))
            if (t != ',' or depth) and i != j:
                cur.append(t)
                continue
            ids = [x for x in (cur[:cur.index('=')] if '=' in cur else cur) if x[0].isalpha() or x[0] == '_']
            params += ids[-1:]
            strings += ids[-1:] if STR_TYPES & set(ids) else []
            cur = []
        return dict(name=name, head=head, lam=lam, body=(brace, self.match[brace]),
                    params=params, strings=strings, src=self)

    def enclosing(self, i):  # the callables around token `i`, innermost first
        return sorted((c for c in self.callables if c['body'][0] < i < c['body'][1]),
                      key=lambda c: -c['body'][0])

    def top(self, a, b, want):  # where in [a, b) `want` is, outside brackets
        i, out = a, []
        while i < b:
            out += [i] if self.t(i) in want else []
            i = self.step(i)
        return out

    def end_of(self, i):  # where the expression starting at `i` ends
        while i < len(self.toks) and self.t(i) not in (';', ',', ')', '}', ']'):
            i = self.step(i)
        return i

    def render(self, a, b):
        """The parts of the message expression [a, b): ('lit', text,
        substituted), ('dyn',), ('param', callable, name), ('alt', [parts])."""
        if a < b and self.t(a) == '(' and self.match.get(a) == b - 1:
            return self.render(a + 1, b - 1)
        q = self.top(a, b, {'?'})
        if q:  # cond ? x : y, the branches as alternatives
            depth = 0
            for i in self.top(q[0] + 1, b, {'?', ':'}):
                depth += 1 if self.t(i) == '?' else -1
                if depth < 0:
                    return [('alt', [self.render(q[0] + 1, i), self.render(i + 1, b)])]
        parts, start = [], a
        for i in self.top(a, b, {'<<', '+'}) + [b]:
            parts += self.operand(start, i)
            start = i + 1
        return parts

    def operand(self, a, b):
        while b - a > 3 and self.t(b - 4) == '.' and self.t(b - 3) in ('str', 'c_str') \
                and self.t(b - 2) == '(' and self.t(b - 1) == ')':
            b -= 4  # x.str()
        while b - a > 2 and self.toks[a][0] == 'id' and self.t(a + 1) == '::':
            a += 2  # llvm::, std::
        if a >= b:
            return []
        if all(k == 'str' for k, _ in self.toks[a:b]):
            return [('lit', ''.join(unescape(t) for _, t in self.toks[a:b]), False)]
        if b - a == 1 and self.toks[a][0] == 'id':
            owner = next((c for c in self.enclosing(a) if self.t(a) in c['strings']), None)
            return [('param', owner, self.t(a))] if owner else [('dyn',)]
        if self.t(a) == '(' and self.match.get(a) == b - 1:
            return self.render(a + 1, b - 1)
        if self.t(a + 1) == '(' and self.match.get(a + 1) == b - 1:
            if self.t(a) in WRAP:
                inner = self.render(a + 2, b - 1)
                if self.t(a) in EMIT and not any(p[0] == 'lit' for p in inner):
                    return []  # emitError(loc) << ...
                return inner
            if self.t(a) == 'formatv' and self.toks[a + 2][0] == 'str':
                pieces = re.split(r'\{\d+[^}]*\}', unescape(self.t(a + 2)))
                return [x for k, piece in enumerate(pieces)
                        for x in [('dyn',)] * bool(k) + [('lit', piece, False)]]
        return [('dyn',)]

    def calls(self, c):
        """The calls of callable `c`, with their argument ranges."""
        lo, hi = 0, len(self.toks)
        if c['lam']:  # after its definition, in the body that defines it
            parent = self.enclosing(c['head'])
            lo, hi = c['body'][1], (parent[0]['body'][1] if parent else hi)
        for i in range(lo, hi):
            if (self.t(i) == c['name'] and self.t(i + 1) == '(' and i != c['head']
                    and self.t(i - 1) not in ('.', '->') and i + 1 in self.match
                    and not c['body'][0] < i < c['body'][1]):
                end = self.match[i + 1]
                cuts = [i + 1] + self.top(i + 2, end, {','}) + [end]
                yield i, [(cuts[k] + 1, cuts[k + 1]) for k in range(len(cuts) - 1)]

    def sites(self):
        """(token index, parts) of every diagnostic in the file."""
        heads = {c['head'] for c in self.callables}
        for i, (_, t) in enumerate(self.toks):
            if i not in heads and self.t(i + 1) == '(' and (t in EMIT or t == 'refuse'):
                e = self.end_of(i)
                parts = self.render(i, e) if t in EMIT else self.operand(i, self.match[i + 1] + 1)
                s = i - 1
                while s > 0 and self.t(s) not in (';', '{', '}'):
                    s -= 1
                if t in EMIT and self.t(s + 1) == 'InFlightDiagnostic':
                    var, body = self.t(s + 2), self.enclosing(i)
                    for j in range(e, body[0]['body'][1] if body else len(self.toks)):
                        if self.t(j) == var and self.t(j + 1) == '<<':
                            parts += self.render(j + 2, self.end_of(j + 2))
                yield i, parts
            elif t == 'return' and any(BLOCKER.match(c['name']) and not c['lam']
                                       for c in self.enclosing(i)):
                yield i, self.render(i + 1, self.end_of(i + 1))
            elif t in ('reason', 'why') and self.t(i + 1) == '=' and self.t(i - 1) in (';', '{', '}', ')'):
                yield i, self.render(i + 2, self.end_of(i + 2))


def resolve(parts, line, depth=0):
    """Yields (parts, line) with the string parameters of helpers replaced by
    what each call passes, innermost helper first; `line` is the call's."""
    owners = [p[1] for p in parts if p[0] == 'param']
    if not owners or depth > 6:
        yield [('dyn',) if p[0] == 'param' else p for p in parts], line
        return
    owner = max(owners, key=lambda c: c['body'][0])
    src, calls = owner['src'], list(owner['src'].calls(owner))
    for call, args in calls:
        new = []
        for p in parts:
            idx = owner['params'].index(p[2]) if p[0] == 'param' and p[1] is owner else None
            sub = [p] if idx is None else src.render(*args[idx]) if idx < len(args) else [('dyn',)]
            new += [('lit', x[1], True) if x[0] == 'lit' and idx is not None else x for x in sub]
        yield from resolve(new, src.lines[call], depth + 1)
    if not calls:
        yield from resolve([('dyn',) if p[0] == 'param' and p[1] is owner else p
                            for p in parts], line, depth + 1)


def template(parts):
    return ''.join(p[1] if p[0] == 'lit' else '{' + '|'.join(map(template, p[1])) + '}'
                   if p[0] == 'alt' else '{}' for p in parts)


def requirement(parts):
    """The pieces one expectation line must hold: the longest run of literal
    text between values (or the first run, if all are short), and every run
    with text a helper's caller passed."""
    groups = [list(g) for lit, g in itertools.groupby(parts, lambda p: p[0] == 'lit') if lit]
    runs = [(''.join(x[1] for x in g), any(x[2] for x in g)) for g in groups]
    runs = [r for r in runs if r[0]]
    if not runs:
        return None
    long = [r for r, _ in runs if len(r) >= SHORT]
    key = max(long, key=len) if long else runs[0][0]
    return [key] + [r for r, sub in runs if sub and len(r) >= 3]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--root', default=pathlib.Path(__file__).resolve().parent.parent)
    ap.add_argument('--all', action='store_true', help='list the covered ones too')
    opts = ap.parse_args()
    root = pathlib.Path(opts.root)
    found = {}  # template -> [first location, [requirements]]
    for path in sorted(list(root.glob('lib/**/*.cpp')) + list(root.glob('lib/**/*.h'))):
        src = Source(path, path.relative_to(root).as_posix())
        for i, parts in src.sites():
            for inst, line in resolve(parts, src.lines[i]):
                need = requirement(inst)
                if need:
                    found.setdefault(template(inst), [(src.rel, line), []])[1].append(need)
    lines = [l for p in sorted(root.glob('test/**/*'))
             if p.suffix in ('.mlir', '.test') and p.is_file()
             for l in p.read_text(errors='replace').splitlines() if EXPECT.search(l)]
    allow_path = root / 'scripts' / 'diagnostics-allowlist.txt'
    entries = [l.partition(' # ') for l in (allow_path.read_text().splitlines()
               if allow_path.exists() else []) if l.strip() and not l.startswith('#')]
    allow = [msg.rstrip() for msg, _, why in entries if why.strip()]
    for msg, _, why in entries:
        if not why.strip():
            print(f'{"NO REASON":12} {"scripts/diagnostics-allowlist.txt":52} {msg!r}')
    uncovered = {m for m, (_, needs) in found.items() if not any(
        all(piece in l for piece in need) for need in needs for l in lines)}
    bad = uncovered - set(allow)
    stale = [m for m in allow if m not in uncovered]
    for m, ((rel, line), _) in sorted(found.items(), key=lambda x: x[1][0]):
        if m in uncovered or opts.all:
            tag = 'allowlisted' if m in allow else 'UNCOVERED' if m in uncovered else 'covered'
            print(f'{tag:12} {rel + ":" + str(line):52} {m!r}')
    for m in stale:  # covered now, or gone from lib/
        print(f'{"STALE":12} {"scripts/diagnostics-allowlist.txt":52} {m!r}')
    print(f'diagnostics: {len(found)}, covered: {len(found) - len(uncovered)}, '
          f'uncovered: {len(uncovered)} ({len(uncovered) - len(bad)} allowlisted, '
          f'{len(bad)} not), stale allowlist entries: {len(stale)}')
    return 1 if bad or stale or len(allow) < len(entries) else 0


if __name__ == '__main__':
    sys.exit(main())
