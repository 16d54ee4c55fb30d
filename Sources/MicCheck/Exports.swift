// The analysis itself (levels, voice activity, detectors, the microphone test) is the kernel, which builds for
// every Swift platform and for WebAssembly in a page; MicCheck adds what needs Foundation (WAV files, model
// files, JSON Lines, state files). An app imports MicCheck and sees both.
@_exported public import MicCheckKernel
