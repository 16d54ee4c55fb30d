#!/usr/bin/env bash
# Builds MicCheck and runs every test: unit tests, the public corpus when ../shared is beside the repo,
# live capture against private PulseAudio servers, the command-line tests, which run the built binary, and
# calls across two server nodes on a private PostgreSQL.
#
# MICCHECK_SANITIZE=address runs the same suites built with AddressSanitizer (the command-line tests run an
# instrumented miccheck too); MICCHECK_SANITIZE=thread runs the threaded suites (live capture, the sample
# ring, the server and presence, voice processing) and the live ones under ThreadSanitizer. Each builds in
# .build/address or .build/thread; the two-node and browser tests, which run release binaries, are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
export MICCHECK_SANITIZE=${MICCHECK_SANITIZE:-}
# The analysis compiled with -O in the debug build (Package.swift, optimizedForTests): the tests run hours of
# audio through it. The scripts that share this build (browser, presence and security tests) set it too.
export MICCHECK_OPTIMIZED_TESTS=${MICCHECK_OPTIMIZED_TESTS:-1}
sanitize=$MICCHECK_SANITIZE
san=()
case "$sanitize" in
"") ;;
address|thread)
    # lld: ld.gold fails on the sanitizers' debug information.
    san=(--sanitize="$sanitize" --scratch-path ".build/$sanitize" -Xswiftc -use-ld=lld)
    # Reports fail the run; a suppression says why it is not MicCheck's (scripts/sanitizers/tsan.supp).
    # The lobby's crash test sends SIGSEGV and checks that the lobby's own handler restores the terminal.
    # No LeakSanitizer: it cannot see a reference that Swift keeps with flag bits in the pointer's top byte
    # (a native String's storage), so it reports live strings as leaked: at the end of one test process most
    # reports were String storage or Foundation objects of the test harness (Process, URL). Memory growth is
    # measured instead: the soak's resident memory over an hour, the long-file test's over five minutes of audio.
    export ASAN_OPTIONS="handle_segv=0:detect_leaks=0"
    export TSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/tsan.supp:halt_on_error=0:second_deadlock_stack=1:handle_segv=0" ;;
*) echo "test.sh: MICCHECK_SANITIZE must be address or thread" >&2; exit 64 ;;
esac
# nodejs: the browser code's style check (scripts/lint-js.mjs) and its tests (Tests/Web); node-typescript:
# the client SDK's declarations checked as an app uses them; wasi-libc and libclang-rt-14-dev-wasm32: the C
# library and compiler builtins of the page's WebAssembly analysis (scripts/build-wasm.sh).
bash scripts/setup.sh postgresql nodejs node-typescript wasi-libc libclang-rt-14-dev-wasm32

# A private PulseAudio server for the whole run, so that nothing in the tests can reach the user's own
# server: every client started from here finds this one. Tests that kill or reconfigure a server start
# their own beside it (MicCheckTesting.PrivatePulseServer).
export MICCHECK_PA_DIR=${MICCHECK_PA_DIR:-$(mktemp -d /tmp/miccheck-test-pa.XXXXXX)}
bash scripts/pulse-server.sh start "$MICCHECK_PA_DIR"
eval "$(bash scripts/pulse-server.sh env "$MICCHECK_PA_DIR")"
unset PULSE_SERVER
# A private PostgreSQL for the tests of presence shared by several nodes (PostgresPresenceTests); the
# two-node tests below start clusters of their own, which they restart and kill.
pg_dir=$(mktemp -d /tmp/miccheck-test-pg.XXXXXX)
bash scripts/postgres-server.sh start "$pg_dir" "$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export MICCHECK_TEST_POSTGRES=$(bash scripts/postgres-server.sh url "$pg_dir")
trap 'bash scripts/pulse-server.sh stop "$MICCHECK_PA_DIR"; bash scripts/postgres-server.sh stop "$pg_dir"; rm -rf "$pg_dir"' EXIT

# The analysis kernel as WebAssembly, into the server's resources before the build copies them.
bash scripts/build-wasm.sh || { echo "test.sh: scripts/build-wasm.sh failed" >&2; exit 1; }
log=$(mktemp)
if ! swift build --build-tests "${san[@]}" >"$log" 2>&1; then cat "$log"; exit 1; fi
# Our warnings and errors (a dependency's notes about its own files are not ours).
grep -E "warning:|error:" "$log" | grep -v -E "^warning: 'main'|^warning: '[a-z-]+': found [0-9]+ file" || true
rm -f "$log"
# Two passes. The tests that need no clock run in parallel. The live ones (tagged `.live`: a PulseAudio
# server in real time, a terminal driven through tmux) then run one at a time: on a 2-core machine,
# beside the corpus test, a real-time echo canceller and 10 ms capture deadlines starve, and what is
# measured is the load. `swift test` cannot select by tag on Linux: the tags are read from the sources.
live=$(python3 scripts/tagged-suites.py live)
swift_log=$(mktemp)
tests() { swift test --skip-build "${san[@]}" "$@" 2>&1 | grep -v -E "^\s*[◇↳]" | tee -a "$swift_log"; }
status=0
# Each step that fails is named again at the end, where a CI log's tail shows it.
failures=()
failed() { status=1; failures+=("$1"); }
# How long each step took, where a CI log shows where the run's time went (the command must stay under an hour).
lap=0
took() { echo "test.sh: $1 took $((SECONDS - lap)) s ($((SECONDS / 60)) min so far)"; lap=$SECONDS; }
took "the set-up and the build"
summary() {
    if [ "$status" -eq 0 ]; then echo "test.sh: every step passed"; else
        printf 'test.sh: FAILED: %s\n' "${failures[@]}"
        grep -E "^✘ Test .* (failed|recorded an issue)" "$swift_log" | head -20 || true; fi
    exit "$status"
}
# Style, checked before anything runs: Swift by the toolchain's `swift format` (.swift-format), the browser
# code by scripts/lint-js.mjs (Python's by ruff, in training-tests.sh).
swift format lint --strict --recursive --parallel Sources Web Tests Examples Benchmarks Fuzz Package.swift || failed "swift format lint"
node scripts/lint-js.mjs || failed "lint-js"
# The arrows between the parts (ARCHITECTURE.md, "What the architecture test holds"), after a self-test.
{ python3 scripts/architecture-test.py --self-test && python3 scripts/architecture-test.py; } || failed "the architecture test"
took "the style checks and the architecture test"
# The browser client's pure parts and its connection, under node's own test runner (Tests/Web).
# Among them, the page's WebAssembly analysis against the native one on the public corpus (kernel.test.mjs).
MICCHECK_BIN="$(swift build "${san[@]}" --show-bin-path)/miccheck" node --test --test-reporter=spec Tests/Web/ \
    || failed "the node tests (Tests/Web)"
# The SDK's declarations: written from its JSDoc (Web/sdk/types, unchanged), used as an app would (usage.ts),
# and the browser snippets of the README and the Guides checked against them.
bash scripts/sdk-types.sh --check || failed "the SDK's declarations (scripts/sdk-types.sh)"
tsc -p Tests/Web/tsconfig.json && echo "tsc: the SDK's declarations check" || failed "tsc (Tests/Web)"
python3 scripts/check-web-snippets.py || failed "the browser snippets (README, Guides)"
# Each library's landing page opens with a Swift snippet: it must compile against the modules just built.
[ -z "$sanitize" ] && { python3 scripts/check-doc-snippets.py || failed "the DocC snippets"; }
took "node, tsc and the snippets"
if [ "$sanitize" = thread ]; then
    # Only the suites that run threads of their own; the signal processing is single-threaded.
    tests --filter "MicCheckLiveTests|MicCheckPulseTests|MicCheckPresenceTests|MicCheckServerTests|MicCheckVoiceProcessingTests|CallTimelineTests" --skip "$live" || failed "the Swift tests (parallel)"
else
    tests --skip "$live" || failed "the Swift tests (parallel)"
fi
took "the Swift tests (parallel)"
tests --no-parallel --filter "$live" || failed "the live Swift tests"
took "the live Swift tests"
[ -n "$sanitize" ] && summary
# Two and a half minutes of live capture while its PulseAudio server is killed, stopped and its source
# unplugged, one of each (the hour-long soak of Guides/LiveCapture.md, shortened).
python3 scripts/soak.py --minutes 2.5 --fault-every 40 --binary .build/debug/miccheck || failed "the soak"
took "the soak"
# The training package's tests and the Python style check (a light venv: no PyTorch).
bash scripts/training-tests.sh || failed "the training tests"
took "the training tests"
# Calls across two `miccheck serve` nodes sharing presence through PostgreSQL.
bash scripts/presence-tests.sh || failed "the presence tests"
took "the presence tests"
# Attacks on the server's WebSockets: raw frames, nested JSON, clients that never read, bad names.
bash scripts/security-tests.sh || failed "the security tests"
took "the security tests"
# The lobby and the call in real browsers (headless Chromium), against `miccheck serve`.
bash scripts/browser-tests.sh || failed "the browser tests"
took "the browser tests"
# The DocC documentation of every library, with warnings as errors (a link that does not resolve fails).
bash scripts/build-docs.sh || failed "the documentation (scripts/build-docs.sh)"
took "the documentation"
summary
