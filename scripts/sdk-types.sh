#!/usr/bin/env bash
# The browser SDK's TypeScript declarations, written from its JSDoc by Debian's `tsc` (node-typescript): one
# .d.ts a module in Web/sdk/types/, beside the one hand-written file there, elements.d.ts (the tag names of
# the components, a global that JSDoc cannot declare). Apps get them through Web/sdk/package.json.
#   bash scripts/sdk-types.sh           write Web/sdk/types/ anew (after a change to the SDK's JSDoc)
#   bash scripts/sdk-types.sh --check   fail when the committed declarations differ from what the JSDoc gives
set -euo pipefail
cd "$(dirname "$0")/.."
sdk=Web/sdk
out=$sdk/types
command -v tsc >/dev/null || bash scripts/setup.sh node-typescript
# The declarations are tsc 4.8's (Debian 12's node-typescript): another version writes them otherwise.
case "$(tsc --version)" in
    "Version 4.8."*) ;;
    *) echo "sdk-types: needs Debian's tsc 4.8 (node-typescript), not $(tsc --version)" >&2; exit 1 ;;
esac
check=false
[ "${1:-}" = --check ] && check=true

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The three entry points of package.json; every module they import is declared too. --strict keeps `| null`
# in the declarations; the JSDoc is read, not type-checked (noCheck is not in this tsc).
tsc --allowJs --declaration --emitDeclarationOnly --strict --target es2022 --module es2022 \
    --moduleResolution node --lib dom,es2022 --outDir "$tmp/types" \
    "$sdk/miccheck.js" "$sdk/client.js" "$sdk/components.js"
cp "$out/elements.d.ts" "$tmp/types/elements.d.ts"
# The entry points that define the components bring the tag names with them.
for entry in miccheck components; do
    { echo '/// <reference path="./elements.d.ts" />'; cat "$tmp/types/$entry.d.ts"; } > "$tmp/types/$entry.d.ts.new"
    mv "$tmp/types/$entry.d.ts.new" "$tmp/types/$entry.d.ts"
done

if $check; then
    if ! diff -r -u "$out" "$tmp/types"; then
        echo "sdk-types: Web/sdk/types/ is not what the SDK's JSDoc gives: run bash scripts/sdk-types.sh and commit it" >&2
        exit 1
    fi
    echo "sdk-types: the declarations match the JSDoc ($(find "$out" -name '*.d.ts' | wc -l) files)"
else
    find "$out" -name '*.d.ts' ! -name elements.d.ts -delete
    find "$out" -mindepth 1 -type d -empty -delete
    cp -r "$tmp/types/." "$out/"
    echo "sdk-types: wrote $(find "$out" -name '*.d.ts' | wc -l) files in $out"
fi
