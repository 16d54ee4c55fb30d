import ArgumentParser
import Foundation
import Logging
import MicCheckCall
import MicCheckServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the lobby and the call to browsers, and a streaming voice activity endpoint.",
        discussion: """
            Open http://HOST:PORT/ in a browser: the lobby (camera preview, microphone check, toggles, who is \
            in the call), then the call (a tile per participant with video between the browsers, a speaking \
            border, "You are muted."). MicCheck analyses each page's microphone on the server. \
            Other clients stream 16-bit PCM to ws://HOST:PORT/v1/vad and get speech events as JSON \
            (README: "Streaming voice activity"). Binds the loopback address unless --host says otherwise. \
            Stops on Ctrl-C or SIGTERM.
            """
    )

    @Option(help: "The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(help: "A call description (JSON, as for `lobby --call`): its members are in the call from the start.")
    var call: String?

    @Option(name: .customLong("allow-origin"), help: "Another origin whose pages may connect (http://host:port); repeatable.")
    var allowOrigins: [String] = []

    @Option(help: "Seconds without any message after which a connection is closed.")
    var idleTimeout = 10.0

    @Option(help: "The largest message a client may send, in bytes.")
    var maxMessageBytes = 65_536

    @Flag(help: "Log every request and connection.")
    var verbose = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard idleTimeout >= 1, idleTimeout <= 3_600 else { throw ValidationError("--idle-timeout must be from 1 to 3600 seconds.") }
        guard (1_024...16 << 20).contains(maxMessageBytes) else {
            throw ValidationError("--max-message-bytes must be from 1024 to 16777216.")
        }
        for origin in allowOrigins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
            throw ValidationError("--allow-origin \(origin): an origin starts with http:// or https://.")
        }
    }

    func run() async throws {
        let description = try call.map(loadCallFile)
        var logger = Logger(label: "miccheck.serve")
        logger.logLevel = verbose ? .info : .warning
        let server = CallServer(
            configuration: .init(host: host, port: port, call: description, allowedOrigins: allowOrigins,
                                 limits: ConnectionLimits(maxMessageBytes: maxMessageBytes, idleTimeout: idleTimeout)),
            logger: logger)
        let host = host
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1"
        do {
            try await server.application { port in
                let shown = host.contains(":") ? "[\(host)]" : host
                let out = OutputWriter()
                out.line("miccheck: serving http://\(shown):\(port)/ " + (loopback
                    ? "(loopback only: other machines cannot connect; --host 0.0.0.0 lets them)."
                    : "on every address of \(host): other machines can connect."))
                if let description { out.line("miccheck: call \(description.id) with \(description.participants.count) scripted member(s).") }
                out.flush()
            }.runService()
        } catch {
            throw reported(("miccheck: cannot serve on \(host):\(port): \(error).", ExitStatus.unavailable))
        }
    }
}

/// Reads a call description, or explains in one sentence why it cannot.
func loadCallFile(_ path: String) throws -> CallDescription {
    guard let data = FileManager.default.contents(atPath: path) else {
        let why = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
        throw reported(("miccheck: \(path): \(why).", ExitStatus.noInput))
    }
    do {
        return try CallDescription.decode(data)
    } catch {
        throw reported(("miccheck: \(path): not a usable call: \(error.description).", ExitStatus.dataError))
    }
}
