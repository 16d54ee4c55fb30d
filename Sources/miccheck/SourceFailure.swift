import MicCheckLive
import MicCheckLivePulse

#if canImport(MicCheckPulse)
    import MicCheckPulse
#endif

/// Why a command ends unsuccessfully: the one sentence for stderr and the exit status. A command throws
/// it; `MicCheckCommand.main` prints the sentence and exits with the status, once, at the top.
struct CommandFailure: Error {
    let message: String
    let status: Int32

    init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    /// An input's failure, its sentence naming the input.
    init(_ input: InputFailure) {
        self.init(message: input.sentence, status: input.status)
    }
}

/// The one sentence and exit status for a source that cannot deliver; `sample` is the command that
/// works without a server (`miccheck listen --sample`, `miccheck lobby --demo`).
func sourceFailure(_ error: AudioSourceError, sample: String = "miccheck listen --sample") -> CommandFailure {
    let (message, status): (String, Int32) =
        switch error.kind {
        case .noServer:
            (
                "miccheck: \(error.message). Start one (`pulseaudio --start`, or PipeWire's pipewire-pulse) or point "
                    + "PULSE_SERVER at one; `\(sample)` works without one.", ExitStatus.unavailable
            )
        case .accessDenied: ("miccheck: \(error.message).", ExitStatus.noPermission)
        case .noSuchSource: ("miccheck: \(error.message); `miccheck devices` lists the sources.", ExitStatus.noInput)
        case .connectionLost: ("miccheck: \(error.message).", ExitStatus.unavailable)
        case .unreadable: ("miccheck: \(error.message).", ExitStatus.noInput)
        case .badData: ("miccheck: \(error.message).", ExitStatus.dataError)
        case .failed: ("miccheck: \(error.message).", ExitStatus.runtimeFailure)
        }
    return CommandFailure(message: message, status: status)
}

#if canImport(MicCheckPulse)
    /// The one sentence and exit status for a failure to talk to the server.
    func pulseFailure(_ error: PulseError) -> CommandFailure { sourceFailure(AudioSourceError(error)) }
#endif
