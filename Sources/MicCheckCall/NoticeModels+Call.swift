public import MicCheck

// The microphone's notices and check are the kernel's (they run in the page's WebAssembly too); the call's
// models state what they depend on with the call's own types.

extension MutedIndicator {
    /// Updates what the indicator depends on: the toggles, what the call grants, the microphone permission.
    /// - Parameter cause: why the microphone is off, when it is (nil: unchanged); unmuting resets it.
    public mutating func update(
        settings: CallSettings, capabilities: Set<OwnCapability>, microphone: Permission, cause: MuteCause? = nil
    ) {
        update(
            audioOn: settings.audioOn, maySendAudio: capabilities.contains(.sendAudio),
            microphoneGranted: microphone.isGranted, cause: cause)
    }
}

extension TypingNotice {
    /// Updates what the notice depends on; returns whether a notice on screen at `time` is hidden now.
    @discardableResult
    public mutating func update(
        settings: CallSettings, capabilities: Set<OwnCapability>, microphone: Permission, at time: Double
    ) -> Bool {
        update(
            audioOn: settings.audioOn, maySendAudio: capabilities.contains(.sendAudio),
            microphoneGranted: microphone.isGranted, at: time)
    }
}
