#!/usr/bin/env bash
# Builds the DocC documentation of the library products into .build/docs/<Module>.doccarchive.
# The docc plugin is added to the package only when asked for (MICCHECK_DOCS=1), so the main build and CI
# stay fast. usage: bash scripts/build-docs.sh [--preview-only]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/docs
for target in MicCheck MicCheckLive MicCheckCall; do
    MICCHECK_DOCS=1 swift package --disable-sandbox --allow-writing-to-directory .build/docs \
        generate-documentation --target "$target" --output-path ".build/docs/$target.doccarchive"
done
echo "docs: .build/docs/{MicCheck,MicCheckLive,MicCheckCall}.doccarchive"
