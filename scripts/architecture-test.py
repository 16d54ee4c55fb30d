#!/usr/bin/env python3
"""The architecture test: fails on an arrow between MicCheck's parts that must never be (ARCHITECTURE.md,
"What the architecture test holds", draws the same graph).

It reads:
  - the Swift targets and their declared dependencies (`swift package dump-package`), and the modules each
    target's sources import (`import`, `public import`, `@testable import`, ...): a module imported must be
    declared, and a dependency of ours declared must be imported;
  - the types each folder of a Swift target declares, and the folders whose files name them: a cycle between
    two folders of one target (A uses B's types and B uses A's) fails, but for the cycles listed in
    KNOWN_FOLDER_CYCLES, which must still exist (the list only shrinks);
  - the browser code's imports (the SDK, its components, MicCheck's page, the examples' pages);
  - the training package's Python imports.

usage: python3 scripts/architecture-test.py [--self-test]   (--self-test runs the import and declaration readers
and the folder-cycle check on made-up code, which must find its break). Exit status 1 names every broken rule.
Not seen: types declared indented (inside `#if`) in the cycle check, and an import after code on one JS line."""
import ast
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The libraries, from the bottom up; what each may depend on among MicCheck's own targets (C shims included).
# Anything of ours not listed is an arrow that must never be.
ALLOWED = {
    "MicCheckKernel": set(),
    "MicCheckWasm": {"MicCheckKernel"},
    "MicCheck": {"MicCheckKernel"},
    "MicCheckCall": {"MicCheck", "MicCheckKernel"},
    "MicCheckTerminal": {"MicCheck", "MicCheckKernel", "MicCheckCall", "MicCheckLive", "CTerminal"},
    "MicCheckVoiceProcessing": {"MicCheck", "MicCheckKernel", "CVoiceProcessingShim"},
    "MicCheckPulse": {"MicCheck", "MicCheckKernel", "CPulseAudio"},
    "MicCheckLive": {"MicCheck", "MicCheckKernel", "MicCheckCall"},
    "MicCheckLivePulse": {"MicCheck", "MicCheckKernel", "MicCheckCall", "MicCheckLive", "MicCheckPulse",
                          "MicCheckVoiceProcessing"},
    "MicCheckPresence": {"MicCheckKernel"},
    "MicCheckWeb": set(),
    "MicCheckServer": {"MicCheck", "MicCheckKernel", "MicCheckCall", "MicCheckPresence", "MicCheckWeb"},
    "MicCheckPresencePostgres": {"MicCheck", "MicCheckKernel", "MicCheckPresence"},
    "MicCheckTesting": {"MicCheck", "MicCheckKernel", "MicCheckLive"},
}
# Modules from outside that a library must never import: the server holds no capture or database client, the
# core and the models no I/O framework (the native libraries only where they are used).
FORBIDDEN_OUTSIDE = {
    "MicCheck": {"NIOCore", "Hummingbird", "PostgresNIO"},
    "MicCheckCall": {"NIOCore", "Hummingbird", "PostgresNIO"},
    "MicCheckLive": {"NIOCore", "Hummingbird", "PostgresNIO"},
    "MicCheckServer": {"PostgresNIO", "NIOSSL"},
    "MicCheckPresence": {"Foundation", "NIOCore", "Hummingbird", "PostgresNIO"},
}
# The kernel builds with Embedded Swift for the page: beside the standard library it imports only the C library
# (libm), never Foundation.
KERNEL_MAY_IMPORT = {"Glibc", "Musl", "Darwin", "ucrt"}
# The examples are apps on the public products: the core-only one on the kernel alone.
EXAMPLES_ALLOWED = {
    "CoreOnly": {"MicCheckKernel"},
}
# Cycles between two folders of one target that exist today, and which work is to remove them. The test fails
# on any other cycle, and on a listed one that is gone (then take it off the list).
KNOWN_FOLDER_CYCLES = {}

IMPORT = re.compile(r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][\w]*)",
                    re.M)
DECLARATION = re.compile(r"^(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private|open|final|"
                         r"indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)",
                         re.M)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"')

problems = []


def fail(message):
    problems.append(message)


def swift_files(folder):
    for base, _, files in os.walk(folder):
        for f in sorted(files):
            if f.endswith(".swift"):
                yield os.path.join(base, f)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def targets():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, check=True)
    package = json.loads(out.stdout)
    found = {}
    for t in package["targets"]:
        if t["type"] in ("plugin", "macro", "binary"):
            continue
        ours, products = set(), set()
        for d in t["dependencies"]:
            kind, value = next(iter(d.items()))
            (products if kind == "product" else ours).add(value[0])
        default = {"test": "Tests", "executable": "Sources"}.get(t["type"], "Sources")
        path = t.get("path") or os.path.join(default, t["name"])
        found[t["name"]] = {"type": t["type"], "ours": ours, "products": products, "path": path}
    return found


def imports_of(path):
    text = COMMENT.sub("", read(os.path.join(ROOT, path)) if os.path.isfile(os.path.join(ROOT, path)) else "")
    return set(IMPORT.findall(text))


def check_targets(all_targets):
    names = set(all_targets)
    for name, t in sorted(all_targets.items()):
        folder = os.path.join(ROOT, t["path"])
        if t["type"] == "system" or not os.path.isdir(folder) or not any(swift_files(folder)):
            continue  # a C target
        imported = set()
        for f in swift_files(folder):
            imported |= imports_of(os.path.relpath(f, ROOT))
        ours_imported = imported & names
        # Declared and imported agree (for our own targets; a C shim's module may be named otherwise).
        for m in sorted(ours_imported - t["ours"]):
            fail(f"{name} imports {m} but does not declare it in Package.swift")
        for m in sorted(t["ours"] - ours_imported):
            if all_targets.get(m, {}).get("type") in ("system",) or m.startswith("C"):
                continue
            fail(f"{name} declares a dependency on {m} that none of its files imports")
        if name in ALLOWED:
            for m in sorted((t["ours"] | ours_imported) - ALLOWED[name]):
                fail(f"{name} depends on {m}: an arrow that must never be (ARCHITECTURE.md)")
            for m in sorted((imported | t["products"]) & FORBIDDEN_OUTSIDE.get(name, set())):
                fail(f"{name} imports or declares {m}, which it must never use")
            if name == "MicCheckKernel":
                for m in sorted(imported - KERNEL_MAY_IMPORT):
                    fail(f"MicCheckKernel imports {m}: beside the standard library, only the C library's libm")
        elif t["type"] == "regular":
            fail(f"library {name} is not in the architecture test's ALLOWED table: add it, with its arrows")
        if name in EXAMPLES_ALLOWED:
            for m in sorted((t["ours"] | ours_imported) - EXAMPLES_ALLOWED[name]):
                fail(f"example {name} depends on {m}")
        if t["type"] == "executable" and "MicCheckTesting" in (t["ours"] | ours_imported):
            fail(f"{name} (an executable) depends on MicCheckTesting, which is for tests")


def folder_cycles(all_targets):
    """Within each Swift target with subfolders: which folder's files name types another folder declares."""
    seen = set()
    for name, t in sorted(all_targets.items()):
        folder = os.path.join(ROOT, t["path"])
        if t["type"] != "regular" or not os.path.isdir(folder):
            continue
        files = {}
        for f in swift_files(folder):
            rel = os.path.relpath(f, folder)
            part = rel.split(os.sep)[0] if os.sep in rel else "."
            files.setdefault(part, []).append(STRING.sub('""', COMMENT.sub("", read(f))))
        if len(files) < 2:
            continue
        declared = {part: set(DECLARATION.findall("\n".join(texts))) for part, texts in files.items()}
        owner = {}
        for part, types in declared.items():
            for ty in types:
                owner.setdefault(ty, set()).add(part)
        uses = {part: set() for part in files}
        for part, texts in files.items():
            words = set(re.findall(r"\b[A-Z]\w*\b", "\n".join(texts)))
            for w in words:
                for other in owner.get(w, ()):
                    if other != part and w not in declared[part]:
                        uses[part].add(other)
        for a in sorted(uses):
            for b in sorted(uses[a]):
                if a < b and a in uses.get(b, ()) and a != "." and b != ".":
                    key = (name, a, b)
                    seen.add(key)
                    if key not in KNOWN_FOLDER_CYCLES:
                        why_a = sorted(w for w in declared[b] if re.search(rf"\b{w}\b", "\n".join(files[a])))[:3]
                        why_b = sorted(w for w in declared[a] if re.search(rf"\b{w}\b", "\n".join(files[b])))[:3]
                        fail(f"{name}: {a}/ and {b}/ use each other ({a}/ names {', '.join(why_a)}; "
                             f"{b}/ names {', '.join(why_b)})")
    for key, why in KNOWN_FOLDER_CYCLES.items():
        if key not in seen:
            fail(f"{key[0]}: the known cycle between {key[1]}/ and {key[2]}/ is gone: take it off "
                 f"KNOWN_FOLDER_CYCLES ({why})")


JS_IMPORT = re.compile(r"""(?:^|[;\s])(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|"""
                       r"""\bimport\(\s*['"]([^'"]+)['"]\s*\)""", re.M)


def js_imports(path):
    text = re.sub(r"/\*.*?\*/", "", read(path), flags=re.S)
    text = re.sub(r"(?m)^\s*//.*$", "", text)
    return [a or b for a, b in JS_IMPORT.findall(text)]


def check_browser():
    web = os.path.join(ROOT, "Web")
    sdk = os.path.join(web, "sdk")
    components = os.path.join(sdk, "components")
    # The components are views: no network, no microphone, no analysis (their JSDoc says so to apps).
    roots = [web, os.path.join(ROOT, "Examples")]
    for root in roots:
        for base, _, files in os.walk(root):
            if "node_modules" in base:
                fail(f"{os.path.relpath(base, ROOT)}: node_modules in the tree")
            for f in sorted(files):
                if not f.endswith((".js", ".mjs")):
                    continue
                path = os.path.join(base, f)
                rel = os.path.relpath(path, ROOT)
                for spec in js_imports(path):
                    if re.match(r"^[a-z]+:", spec) or spec.startswith("//"):
                        fail(f"{rel} imports {spec}: nothing from a CDN or another origin")
                        continue
                    if not spec.startswith("."):
                        fail(f"{rel} imports the bare name {spec}: no npm packages in the browser code")
                        continue
                    target = os.path.normpath(os.path.join(base, spec))
                    # An example's page has the SDK copied beside it by its own script (page.sh).
                    if path.startswith(os.path.join(ROOT, "Examples") + os.sep) and spec.startswith("./sdk/"):
                        target = os.path.normpath(os.path.join(sdk, spec[len("./sdk/"):]))
                    if path.startswith(sdk + os.sep) and not target.startswith(sdk + os.sep):
                        fail(f"{rel} imports {spec}: the SDK never imports MicCheck's page or anything outside it")
                    if path.startswith(components + os.sep) and not target.startswith(components + os.sep):
                        fail(f"{rel} imports {spec}: a component imports only other views (sdk/components/)")
                    if not os.path.exists(target):
                        fail(f"{rel} imports {spec}, which does not exist")


def check_training():
    package = os.path.join(ROOT, "training/miccheck_train")
    if not os.path.isdir(package):
        return
    for base, _, files in os.walk(package):
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            path = os.path.join(base, f)
            rel = os.path.relpath(path, ROOT)
            for node in ast.walk(ast.parse(read(path), rel)):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for n in names:
                    top = n.split(".")[0]
                    if top in ("scripts", "tests", "conftest", "train_vad", "tune_events", "fold_corpus",
                               "feature_auc", "mix_probe", "bench", "score"):
                        fail(f"{rel} imports {n}: the training library imports none of the scripts, tests or "
                             "benchmarks built on it")


def self_test():
    """Each check on made-up code: it must find what is wrong there, and nothing in what is right."""
    global problems
    imports = IMPORT.findall("import A\npublic import B\n@testable import C\n@_exported public import D\n"
                             "    import E\ninternal import struct F.G\n// import H\nlet importance = 1\n")
    assert imports == ["A", "B", "C", "D", "E", "F"], imports
    assert DECLARATION.findall("public struct A {\n    struct Nested {}\n}\nfinal class B {}\n"
                               "enum C {}\nextension D {}\n") == ["A", "B", "C"]
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        # Two folders that use each other, and a third used one way only.
        write("T/One/A.swift", "struct AlphaType { var b: BetaType }\n")
        write("T/Two/B.swift", "struct BetaType { var a: AlphaType? ; var c: GammaType }\n")
        write("T/Three/C.swift", "struct GammaType {}\n")
        write("U/Only.swift", "struct Lone {}\n")
        fake = {"T": {"type": "regular", "path": os.path.join(root, "T")},
                "U": {"type": "regular", "path": os.path.join(root, "U")}}
        problems = []
        known = dict(KNOWN_FOLDER_CYCLES)
        KNOWN_FOLDER_CYCLES.clear()
        try:
            folder_cycles(fake)
        finally:
            KNOWN_FOLDER_CYCLES.update(known)
        assert len(problems) == 1 and "One/ and Two/ use each other" in problems[0], problems
        write("web/a.js", "import { x } from './b.js';\nimport y from 'https://cdn.example/y.js';\n"
                          "// import z from 'left-out';\nexport { w } from \"./c.js\";\nconst m = import('./d.js');\n")
        assert js_imports(os.path.join(root, "web/a.js")) == ["./b.js", "https://cdn.example/y.js", "./c.js",
                                                               "./d.js"]
    problems = []
    print("architecture: the self-test read the made-up imports and declarations and found the made-up cycle")
    return 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    all_targets = targets()
    check_targets(all_targets)
    folder_cycles(all_targets)
    check_browser()
    check_training()
    if problems:
        for p in problems:
            print(f"architecture: {p}", file=sys.stderr)
        print(f"architecture: {len(problems)} broken rule(s)", file=sys.stderr)
        return 1
    print(f"architecture: {len(all_targets)} targets, their imports, the browser code's and the training "
          "package's: no arrow that must never be")
    return 0


if __name__ == "__main__":
    sys.exit(main())
