#!/usr/bin/env bash
# Builds the DocC documentation of every library product into .build/docs/<Module>.doccarchive, and fails
# on any DocC warning: docc treats warnings as errors (--warnings-as-errors), and each target's output
# (kept in .build/docs/<Module>.log) is searched for warnings besides, but for those of the dependencies'
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
failed=()
for target in "${targets[@]}"; do
    log=".build/docs/$target.log"
    echo "docs: $target"
    status=0
    MICCHECK_DOCS=1 swift package --disable-sandbox --allow-writing-to-directory .build/docs \
        generate-documentation --target "$target" --output-path ".build/docs/$target.doccarchive" \
        --warnings-as-errors --disable-parameters-and-returns-validation >"$log" 2>&1 || status=$?
    warnings=$(grep -E 'warning:' "$log" | grep -v -E "found [0-9]+ file\(s\) which are unhandled|/\.build/checkouts/" || true)
    if [ "$status" -ne 0 ] || [ -n "$warnings" ]; then
        echo "docs: $target failed (exit status $status); from $log:" >&2
        { grep -E 'error:' "$log" || true; echo "$warnings"; } | sed '/^$/d' >&2
        [ "$status" -ne 0 ] && tail -n 5 "$log" >&2
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "docs: failed for ${failed[*]}" >&2
    exit 1
fi
echo "docs: .build/docs/{$(IFS=,; echo "${targets[*]}")}.doccarchive, without warnings"
