// The microphone's check and notices (MicrophoneCheck, MutedIndicator, TypingNotice, MicrophoneRules) are the
// kernel's, which also runs in the page's WebAssembly; an app that imports MicCheckCall sees them as before.
@_exported public import MicCheckKernel
