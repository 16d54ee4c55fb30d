#!/usr/bin/env python3
"""Typechecks the Swift snippet that opens each library's DocC landing page (Sources/M/M.docc/M.md) against
the modules the last `swift build` made, so that a page never shows code that does not compile.
usage: python3 scripts/check-doc-snippets.py [BUILD_DIR]   (default .build/debug; run after swift build)"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / ".build/debug")
modules = build / "Modules"
if not modules.is_dir():
    modules = build  # older SwiftPM layouts keep the modules beside the products
# C modules (libpulse's, the voice processing shim's, the dependencies' shims) are found through their module
# maps: a system library's beside its sources, a C target's where SwiftPM wrote it or its package keeps it.
c_modules = [p.parent for p in (ROOT / "Sources").glob("*/module.modulemap")]
c_modules += [p.parent for p in build.glob("*.build/module.modulemap")]
c_modules += [p.parent for p in (ROOT / ".build/checkouts").glob("*/Sources/*/include/module.modulemap")]

failed = []
pages = sorted((ROOT / "Sources").glob("*/*.docc/*.md"))
landing = [p for p in pages if p.stem == p.parent.stem.removesuffix(".docc") or p.parent.name == p.stem + ".docc"]
for page in landing:
    text = page.read_text()
    match = re.search(r"```swift\n(.*?)```", text, re.S)
    if not match:
        print(f"snippets: {page.relative_to(ROOT)} opens with no Swift snippet")
        failed.append(page)
        continue
    with tempfile.TemporaryDirectory() as tmp:
        main = pathlib.Path(tmp) / "main.swift"
        main.write_text(match.group(1))
        flags = ["-I", str(modules)]
        for c in c_modules:
            flags += ["-I", str(c)]
        run = subprocess.run(
            ["swiftc", "-typecheck", "-swift-version", "6", *flags, str(main)], capture_output=True, text=True)
    if run.returncode != 0:
        errors = "\n".join(run.stderr.splitlines()[:20])
        print(f"snippets: {page.relative_to(ROOT)}: its snippet does not compile:\n{errors}")
        failed.append(page)
    else:
        print(f"snippets: {page.relative_to(ROOT)}: compiles")
if failed:
    sys.exit(1)
print(f"snippets: all {len(landing)} landing pages open with a snippet that compiles")
