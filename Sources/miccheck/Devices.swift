import ArgumentParser
import MicCheck

#if canImport(MicCheckPulse)
    import MicCheckPulse
#endif

enum DevicesFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the audio sources (microphones and output monitors) of the PulseAudio server.",
        discussion: """
            text: one line per source, the default marked with *, then its name (for `listen --source`), \
            description, native format, and whether it is muted or a monitor of an output. json: one object \
            with the server and its sources.
            """
    )

    @Option(help: "Output format: text or json.")
    var format: DevicesFormat = .text

    @Option(help: "The PulseAudio server to ask (default: PULSE_SERVER, then the user's own server).")
    var server: String?

    func run() throws {
        #if canImport(MicCheckPulse)
            let out = OutputWriter()
            do {
                let connection = try PulseConnection(server: server)
                defer { connection.close() }
                recoverAbandonedDucking(server: server, connection: connection)
                let info = try connection.serverDefaults()
                let sources = try connection.sources(given: info)
                switch format {
                case .text: for line in Self.text(info, sources) { out.line(line) }
                case .json: out.line(Self.json(info, sources))
                }
            } catch {
                throw pulseFailure(error)
            }
            try out.finish()
        #else
            throw CommandFailure(
                message: "miccheck: listing devices needs PulseAudio, which this build of miccheck does not include.",
                status: ExitStatus.unavailable)
        #endif
    }
}

#if canImport(MicCheckPulse)
    extension Devices {
        /// The server, then a line per source: the default marked with *, the name, the description, the format.
        static func text(_ info: PulseConnection.ServerDefaults, _ sources: [PulseSource]) -> [String] {
            let width = sources.map(\.name.count).max() ?? 0
            return ["\(info.serverName) \(info.serverVersion): \(sources.count) source\(sources.count == 1 ? "" : "s")"]
                + sources.map { s in
                    var flags: [String] = []
                    if s.isMonitor { flags.append("monitor of an output") }
                    if s.isMuted { flags.append("muted") }
                    return
                        "\(s.isDefault ? "*" : " ") \(s.name.padding(toLength: width, withPad: " ", startingAt: 0))  "
                        + "\(s.description) — \(s.sampleRate) Hz, \(s.channels) ch, \(s.sampleFormat)"
                        + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
                }
        }

        /// One JSON object: the server and its sources.
        static func json(_ info: PulseConnection.ServerDefaults, _ sources: [PulseSource]) -> String {
            let items: [JSONValue] = sources.map { s in
                .object([
                    ("name", .string(s.name)), ("description", .string(s.description)),
                    ("default", .bool(s.isDefault)),
                    ("sample_rate", .int(s.sampleRate)), ("channels", .int(s.channels)),
                    ("format", .string(s.sampleFormat)),
                    ("muted", .bool(s.isMuted)), ("monitor", .bool(s.isMonitor)),
                ])
            }
            return JSONLines.object([
                ("server", .string(info.serverName)), ("version", .string(info.serverVersion)),
                ("default_source", info.defaultSource.map { .string($0) } ?? .null),
                ("sources", .array(items)),
            ])
        }
    }
#endif
