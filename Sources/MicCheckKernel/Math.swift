// The C library's elementary functions are the only thing the kernel takes from the platform. Natively, the
// files that use them import the platform's C module (Glibc, Musl, Darwin, ucrt): its libm, what Foundation
// re-exports, so the analysis computes exactly what it did when it imported Foundation. In Embedded Swift for
// WebAssembly there is no such module: these declarations name wasi-libc's functions, which
// scripts/build-wasm.sh links. Float arguments call the C float functions (log10f), as Swift's overlays do.
#if hasFeature(Embedded)
    @_extern(c, "log10f") func log10(_ x: Float) -> Float
    @_extern(c, "log10") func log10(_ x: Double) -> Double
    @_extern(c, "log2f") func log2(_ x: Float) -> Float
    @_extern(c, "log2") func log2(_ x: Double) -> Double
    @_extern(c, "logf") func log(_ x: Float) -> Float
    @_extern(c, "log") func log(_ x: Double) -> Double
    @_extern(c, "expf") func exp(_ x: Float) -> Float
    @_extern(c, "exp") func exp(_ x: Double) -> Double
    @_extern(c, "powf") func pow(_ x: Float, _ y: Float) -> Float
    @_extern(c, "pow") func pow(_ x: Double, _ y: Double) -> Double
    @_extern(c, "cosf") func cos(_ x: Float) -> Float
    @_extern(c, "cos") func cos(_ x: Double) -> Double
    @_extern(c, "sinf") func sin(_ x: Float) -> Float
    @_extern(c, "sin") func sin(_ x: Double) -> Double
#endif
