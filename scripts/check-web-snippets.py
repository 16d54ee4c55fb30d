#!/usr/bin/env python3
"""The browser snippets of the README and the Guides, type-checked against the SDK's declarations as an
app's code would be.

Every ```js block, and the `<script type="module">` of every ```html block, of a file becomes one module (in
order, as a reader runs them: a later block may use a name an earlier one made). An import of the SDK by any
address (`https://host/sdk/miccheck.js`, `/sdk/miccheck.js`, `./sdk/miccheck.js`) becomes an import of the
package (`@miccheck/web`), which resolves to Web/sdk/types/ (scripts/sdk-types.sh). What a snippet leaves to
the app (its data channel, its tiles) is declared in Tests/Web/snippet-globals.d.ts. Debian's `tsc` then
checks them as JavaScript (`checkJs`, strict but for null checks: a snippet's `querySelector` is trusted to
find its element).

    python3 scripts/check-web-snippets.py [GUIDE.md ...]
"""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDES = ["README.md", "Guides/Browser.md", "Guides/Embedding.md"]
OUT = os.path.join(ROOT, ".build", "web-snippets")
# The package's entry points (Web/sdk/package.json's exports) by the file an address ends with.
ENTRIES = {"miccheck.js": "@miccheck/web", "client.js": "@miccheck/web/client",
           "components.js": "@miccheck/web/components"}
# An import line, with or without a trailing comment (the README's says where the SDK folder is).
IMPORT = re.compile(r"^\s*import\s*\{([^}]*)\}\s*from\s*'([^']+)';?\s*(?://[^\n]*)?$", re.M)


def blocks(text):
    """The guide's browser code, block by block: (line number, code)."""
    for m in re.finditer(r"^```(js|html)\n(.*?)^```", text, re.M | re.S):
        line = text.count("\n", 0, m.start()) + 2
        body = m.group(2)
        if m.group(1) == "js":
            yield line, body
            continue
        for s in re.finditer(r"<script type=\"module\">\n(.*?)</script>", body, re.S):
            yield line + body.count("\n", 0, s.start()) + 1, s.group(1)


def package_name(specifier):
    for file, name in ENTRIES.items():
        if specifier.endswith("sdk/" + file):
            return name
    return None


def module_of(guide):
    """One module of the guide's snippets: their imports merged at the top, each block after them, marked."""
    with open(os.path.join(ROOT, guide)) as f:
        text = f.read()
    imports, body = {}, []
    for line, code in blocks(text):
        def take(m):
            name = package_name(m.group(2))
            if name is None:
                raise SystemExit(f"{guide}:{line}: an import of something other than the SDK: {m.group(2)}")
            names = imports.setdefault(name, [])
            names += [n.strip() for n in m.group(1).split(",") if n.strip() and n.strip() not in names]
            return ""
        body.append(f"// {guide}:{line}\n" + IMPORT.sub(take, code))
    if not body:
        return None
    head = "".join(f"import {{ {', '.join(names)} }} from '{name}';\n" for name, names in imports.items())
    return head + "\n".join(body)


def main():
    guides = sys.argv[1:] or GUIDES
    types = os.path.join(ROOT, "Web", "sdk", "types")
    os.makedirs(OUT, exist_ok=True)
    files = [os.path.join(ROOT, "Tests", "Web", "snippet-globals.d.ts")]
    for guide in guides:
        module = module_of(guide)
        if module is None:
            raise SystemExit(f"{guide}: no browser snippet (a ```js block or an html block's module script)")
        path = os.path.join(OUT, os.path.basename(guide).replace(".md", ".js"))
        with open(path, "w") as f:
            f.write(module)
        files.append(path)
    config = {
        "compilerOptions": {
            "allowJs": True, "checkJs": True, "noEmit": True, "strict": True, "strictNullChecks": False,
            "target": "es2022", "module": "es2022", "moduleResolution": "node", "lib": ["dom", "es2022"],
            "skipLibCheck": False, "baseUrl": ROOT,
            "paths": {name: [os.path.join(types, file.replace(".js", ".d.ts"))] for file, name in ENTRIES.items()},
        },
        "files": files,
    }
    with open(os.path.join(OUT, "tsconfig.json"), "w") as f:
        json.dump(config, f, indent=1)
    result = subprocess.run(["tsc", "-p", os.path.join(OUT, "tsconfig.json")], capture_output=True, text=True)
    print(result.stdout + result.stderr, end="")
    if result.returncode != 0:
        print("check-web-snippets: the Guides' snippets do not type-check against the SDK's declarations "
              f"(the modules are in {os.path.relpath(OUT, ROOT)}; each block starts with its guide and line)",
              file=sys.stderr)
        return 1
    print(f"check-web-snippets: {', '.join(guides)}: the snippets type-check against Web/sdk/types")
    return 0


if __name__ == "__main__":
    sys.exit(main())
