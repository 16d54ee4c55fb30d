#!/usr/bin/env bash
# Builds miccheck.wasm, the analysis kernel for the page, with this machine's tools alone: the toolchain's
# Embedded Swift (the wasm32-unknown-none-wasm standard library) and wasm-ld, and Debian's wasi-libc for the
# C library's mathematics and malloc, Debian's compiler-rt builtins for wasm32 (128-bit multiplication) and
# Debian's binaryen (wasm-opt) for the module's last optimisation. No WASI imports remain: the module imports nothing, so a page
# instantiates it with an empty import object.
#
#   bash scripts/build-wasm.sh [OUT]     (default: Web/sdk/miccheck.wasm,
#                                         which `miccheck serve` serves at /sdk/miccheck.wasm)
#
# The module's sources: Sources/MicCheckKernel and Sources/MicCheckWasm (its C ABI), as one module. -O with
# WebAssembly SIMD (every current browser has it; the kernel's SIMD8 products become 128-bit operations): on the
# public corpus in node 20, -Osize without SIMD ran 310x real time in 266 KB, -Osize with SIMD 505x in 253 KB,
# -O with SIMD 830x in 271 KB (the native command 1,700x). With the call's microphone channel, -O made 376 KB;
# without SIL's closure specialisation (copies of the analyzer for each closure it is handed) 347 KB at the
# same speed, and -Osize 333 KB at 530x. MICCHECK_WASM_MAP=FILE writes the linker's map.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-Web/sdk/miccheck.wasm}
libc=/usr/lib/wasm32-wasi
builtins=/usr/lib/llvm-14/lib/clang/14.0.6/lib/wasi/libclang_rt.builtins-wasm32.a
if [ ! -f "$libc/libc.a" ] || [ ! -f "$builtins" ] || ! command -v wasm-opt >/dev/null; then
    bash scripts/setup.sh wasi-libc libclang-rt-14-dev-wasm32 binaryen
fi
wasm_opt=$(command -v wasm-opt)
swiftc=$(command -v swiftc)
wasm_ld=$(dirname "$swiftc")/wasm-ld
[ -x "$wasm_ld" ] || wasm_ld=$(command -v wasm-ld)
# Swift's Unicode tables (String comparison and hashing normalise), from the toolchain's embedded stdlib.
embedded=$(dirname "$swiftc")/../lib/swift/embedded/wasm32-unknown-none-wasm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t sources < <(find Sources/MicCheckKernel Sources/MicCheckWasm -name '*.swift' | sort)
"$swiftc" -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded \
    -enable-experimental-feature Extern -wmo -O -Xcc -msimd128 -Xllvm -sil-disable-pass=closure-specialize -parse-as-library -Xfrontend -disable-stack-protector \
    -module-name MicCheckKernel -package-name MicCheck -c "${sources[@]}" -o "$work/kernel.o"
exports=(miccheck_create miccheck_destroy miccheck_input miccheck_process miccheck_finish miccheck_records
    miccheck_text miccheck_channel_create miccheck_channel_destroy miccheck_channel_input miccheck_channel_messages
    miccheck_channel_speaking miccheck_channel_testing miccheck_channel_audio miccheck_channel_set_microphone miccheck_channel_enter
    miccheck_channel_silence_muted_notice miccheck_channel_tick miccheck_channel_test_start
    miccheck_channel_test_cancel)
"$wasm_ld" ${MICCHECK_WASM_MAP:+-Map="$MICCHECK_WASM_MAP"} --no-entry --strip-all --gc-sections -z stack-size=65536 \
    "${exports[@]/#/--export=}" "$work/kernel.o" "$libc/libc.a" "$builtins" -o "$work/miccheck.wasm"
# Binaryen's optimiser (Debian's binaryen) on the linked module: 348 KB to 305 KB, and about 1.3x faster in
# node 20 (888x to 1,186x real time on the public corpus, scripts/bench-wasm.mjs). It keeps IEEE arithmetic as it is
# (no fast-math), so the page still agrees with the native analysis (Tests/Web/kernel.test.mjs).
"$wasm_opt" -O3 --converge --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --low-memory-unused --zero-filled-memory --strip-producers \
    "$work/miccheck.wasm" -o "$work/optimised.wasm"
mkdir -p "$(dirname "$out")"
mv "$work/optimised.wasm" "$out"
echo "build-wasm.sh: $out, $(stat -c %s "$out") bytes"
