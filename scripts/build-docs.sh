#!/usr/bin/env bash
# Builds the DocC documentation of every library product into .build/docs/<Module>.doccarchive, and fails
# on any DocC warning: docc treats warnings as errors (--warnings-as-errors), and each target's output
# (kept in .build/docs/docs.log) is searched for warnings besides, but for those of the dependencies'
# checkouts and SwiftPM's notes on files a dependency leaves unhandled.
# Parameter and return value validation is off: doc comments here document the parameters that need a
# word (`- Parameter x:`) and leave the self-explaining ones, which that check reports one by one.
# The docc plugin is added to the package only when asked for (MICCHECK_DOCS=1), so that the main build
# and CI stay fast. usage: bash scripts/build-docs.sh [TARGET...]   (default: every library target)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(MicCheckKernel MicCheck MicCheckLive MicCheckLivePulse MicCheckPulse MicCheckVoiceProcessing MicCheckCall MicCheckTerminal MicCheckPresence MicCheckServer
         MicCheckPresencePostgres MicCheckTesting)
if [ $# -gt 0 ]; then targets=("$@"); fi
mkdir -p .build/docs
# One invocation for all the targets: the plugin and the package graph are prepared once (about 65 s less than
# one invocation a target for the twelve libraries here). The log names each target as it builds it.
log=".build/docs/docs.log"
echo "docs: ${targets[*]}"
status=0
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); rm -rf ".build/docs/$target.doccarchive"; done
# One target: --output-path is the archive itself; several: the folder that holds one archive each.
output=".build/docs"
[ ${#targets[@]} -eq 1 ] && output=".build/docs/${targets[0]}.doccarchive"
MICCHECK_DOCS=1 swift package --disable-sandbox --allow-writing-to-directory .build/docs \
    generate-documentation "${args[@]}" --output-path "$output" \
    --warnings-as-errors --disable-parameters-and-returns-validation >"$log" 2>&1 || status=$?
warnings=$(grep -E 'warning:' "$log" | grep -v -E "found [0-9]+ file\(s\) which are unhandled|/\.build/checkouts/" || true)
if [ "$status" -ne 0 ] || [ -n "$warnings" ]; then
    echo "docs: failed (exit status $status); from $log:" >&2
    { grep -E "error:|^Building documentation for" "$log" || true; echo "$warnings"; } | sed '/^$/d' >&2
    [ "$status" -ne 0 ] && tail -n 5 "$log" >&2
    exit 1
fi
for target in "${targets[@]}"; do
    [ -d ".build/docs/$target.doccarchive" ] || { echo "docs: no archive for $target" >&2; exit 1; }
done
echo "docs: .build/docs/{$(IFS=,; echo "${targets[*]}")}.doccarchive, without warnings"
