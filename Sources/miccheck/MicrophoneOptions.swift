import ArgumentParser

/// Where `listen`, `mic-test` and `lobby` take the microphone from: a source of a PulseAudio (or PipeWire)
/// server. Declared once, so the three say and check it alike.
struct MicrophoneOptions: ParsableArguments {
    @Option(help: "The source to capture from (a name from `miccheck devices`); default: the server's default source.")
    var source: String?

    @Option(help: "The PulseAudio server to use (default: PULSE_SERVER, then the user's own server).")
    var server: String?

    /// Whether a source or a server was named (neither goes with the bundled sample or a file).
    var isNamed: Bool { source != nil || server != nil }

    func validate() throws {
        if let source, source.isEmpty { throw ValidationError("--source needs a source name.") }
    }
}
