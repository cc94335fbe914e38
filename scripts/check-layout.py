#!/usr/bin/env python3
"""The library's layout, checked: a folder per concept with its internals inside it.

  - a header includes no other concept's detail/ (a concept is a folder under
    include/boids/: behaviors, crowd, flock, models, neighbors; the rest is shared);
  - the top-level detail/ holds only what several concepts use, and includes only
    shared headers;
  - a configuration header (config.hpp) includes no internals;
  - no header is longer than MAX_LINES;
  - pi is spelled once (boids::pi<S>, config.hpp).

Usage: check-layout.py [ROOT]   (exit 1 and one line per problem when any)
"""
import os
import re
import sys

MAX_LINES = 400
root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'))
inc = os.path.join(root, 'include', 'boids')
include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def concept_of(rel):
    parts = rel.split('/')
    return parts[0] if len(parts) > 1 and parts[0] != 'detail' else 'shared'


def is_detail(rel):
    return 'detail' in rel.split('/')[:-1]


headers = {}
for d, _, files in os.walk(inc):
    for f in files:
        if f.endswith(('.hpp', '.inl')):
            rel = os.path.relpath(os.path.join(d, f), inc).replace(os.sep, '/')
            with open(os.path.join(d, f), encoding='utf-8') as fh:
                headers[rel] = fh.read()

problems = []
users = {}  # top-level detail file -> concepts including it
for rel, text in sorted(headers.items()):
    if rel.endswith('.hpp') and text.count('\n') > MAX_LINES:
        problems.append('%s: %d lines, more than %d' % (rel, text.count('\n'), MAX_LINES))
    own = concept_of(rel)
    for inc_path in include_re.findall(text):
        target = os.path.normpath(os.path.join(os.path.dirname(rel), inc_path)).replace(os.sep, '/')
        if target not in headers:
            problems.append('%s: includes "%s", which is not in include/boids' % (rel, inc_path))
            continue
        tc = concept_of(target)
        if is_detail(target) and tc != 'shared' and tc != own:
            problems.append('%s: includes %s, the internals of another concept (%s)' % (rel, target, tc))
        if target.startswith('detail/') and not rel.startswith('detail/'):
            users.setdefault(target, set()).add(own)
        if rel.startswith('detail/') and (tc != 'shared' or not (target.startswith('detail/') or '/' not in target)):
            problems.append('%s: the shared detail/ includes %s, a concept\'s header' % (rel, target))
        if os.path.basename(rel) == 'config.hpp' and is_detail(target):
            problems.append('%s: a configuration header includes internals (%s)' % (rel, target))
pi_re = re.compile(r'3\.14159|6\.28318|1\.57079')
for rel, text in sorted(headers.items()):
    if rel != 'config.hpp' and pi_re.search(text):
        problems.append('%s: writes pi out; use boids::pi<S>' % rel)
for rel in sorted(headers):
    if rel.startswith('detail/') and rel.endswith('.hpp') and len(users.get(rel, ())) < 2:
        problems.append('detail/%s: used by %s only; it belongs in that concept\'s detail/' %
                        (rel[len('detail/'):], ', '.join(sorted(users.get(rel, ()))) or 'nobody'))

for p in problems:
    print(p)
print('layout: %d headers, %d problems' % (len(headers), len(problems)))
sys.exit(1 if problems else 0)
