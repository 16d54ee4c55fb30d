#!/usr/bin/env python3
"""Prints, as a regular expression for `swift test --filter/--skip`, the test suites tagged with TAG
(`.tags(.live)` in their @Suite attribute). Swift Testing's tags are the one place that says which tests
are live; `swift test` on Linux cannot select by tag, so scripts/test.sh reads them with this.

usage: python3 scripts/tagged-suites.py TAG
"""
import os, re, sys

if len(sys.argv) != 2:
    sys.exit(__doc__.strip())
tag = sys.argv[1]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests")
# An @Suite attribute (with balanced parentheses inside), then the suite's type name.
suite = re.compile(r"@Suite(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?"
                   r"\s*(?:public\s+|final\s+)*(?:struct|class|enum|actor)\s+(\w+)")
names = []
for folder, _, files in os.walk(root):
    for f in sorted(files):
        if f.endswith(".swift"):
            text = open(os.path.join(folder, f), encoding="utf-8").read()
            for m in suite.finditer(text):
                if re.search(r"\.tags\([^)]*\." + re.escape(tag) + r"\b", m.group(1) or ""):
                    names.append(m.group(2))
if not names:
    sys.exit(f"no test suite is tagged .{tag}")
print("|".join(sorted(set(names))))
