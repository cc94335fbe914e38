#!/usr/bin/env python3
"""Compiles the examples in README.md and docs/*.md as written.

Every ```cpp block whose first line is an #include is a whole translation unit and
must compile (-fsyntax-only) under the library's strict warnings. Other blocks are
fragments and are left alone.

Usage: check-doc-examples.py ROOT COMPILER [extra flags...]
"""
import glob
import os
import subprocess
import sys
import tempfile

root, compiler, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
flags = ['-std=c++17', '-fsyntax-only', '-Wall', '-Wextra', '-Wpedantic', '-Wconversion', '-Wshadow', '-Werror',
         '-I' + os.path.join(root, 'include')] + extra
pages = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
failures = checked = 0
with tempfile.TemporaryDirectory() as tmp:
    for page in pages:
        lines = open(page, encoding='utf-8').read().split('\n')
        i = 0
        while i < len(lines):
            if lines[i].strip() == '```cpp':
                start = i + 1
                j = start
                while j < len(lines) and lines[j].strip() != '```':
                    j += 1
                block = lines[start:j]
                i = j
                if not block or not block[0].startswith('#include'):
                    continue
                checked += 1
                name = '%s_%d.cpp' % (os.path.basename(page).replace('.', '_'), start + 1)
                src = os.path.join(tmp, name)
                with open(src, 'w') as f:
                    f.write('\n'.join(block) + '\n')
                r = subprocess.run([compiler] + flags + [src], capture_output=True, text=True)
                if r.returncode != 0:
                    failures += 1
                    rel = os.path.relpath(page, root)
                    print('%s:%d: the example does not compile:' % (rel, start + 1))
                    print(r.stderr.strip()[:3000])
            i += 1
print('doc examples: %d compiled, %d failed' % (checked, failures))
sys.exit(1 if failures or not checked else 0)
