import ArgumentParser
import Foundation
import Logging
import MicCheckCall
import MicCheckPresencePostgres
import MicCheckServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the lobby and the call to browsers, and a streaming voice activity endpoint.",
        discussion: """
            Open http://HOST:PORT/ in a browser: the lobby (camera preview, microphone check, toggles, who is \
            in the call), then the call (a tile per participant with video between the browsers, a speaking \
            border, "You are muted."). MicCheck analyses each page's microphone on the server. \
            Other clients stream 16-bit PCM to ws://HOST:PORT/v1/vad and get speech events as JSON \
            (Guides/CommandLine.md: "Streaming voice activity"). Binds the loopback address unless --host says otherwise. \
            With MICCHECK_TOKEN_SECRET set (32 bytes or more), a page joins a call only with a join token \
            for it (`miccheck token`), whose role bounds what it may send; another address than loopback \
            needs that secret, or --insecure-open-calls. \
            Several nodes behind a load balancer share their calls through PostgreSQL (--presence \
            postgres://USER@HOST/DATABASE): who is in each call, their toggles and speaking, and the WebRTC \
            signals between them; a node that dies leaves its participants' tiles within --presence-lease. \
            Stops on Ctrl-C or SIGTERM.
            """
    )

    @Option(help: "The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(help: "A call description (JSON, as for `lobby --call`): its members are in the call from the start.")
    var call: String?

    @Option(
        name: .customLong("allow-origin"),
        help: "Another origin whose pages may connect (http://host:port); repeatable.")
    var allowOrigins: [String] = []

    @Option(
        name: .customLong("allow-host"),
        help:
            "A host name the server answers to besides loopback's and --host (a request naming another is refused: DNS rebinding); repeatable. With --host 0.0.0.0 and none: any."
    )
    var allowHosts: [String] = []

    @Option(help: "Seconds without any message after which a connection is closed.")
    var idleTimeout = 10.0

    @Option(help: "Connections open at once, at most (default: 4096, or less under a lower file limit); past it, 503.")
    var maxConnections: Int?

    @Option(help: "Connections open at once from one address, at most; past it, 503.")
    var maxConnectionsPerAddress = 1_024

    @Option(
        help:
            "How much faster than real time one stream's audio is analysed at most, after a 2 s burst (0: no bound, for batch clients)."
    )
    var maxAudioSpeed = 4.0

    @Option(help: "The largest message a client may send, in bytes.")
    var maxMessageBytes = 65_536

    @Option(
        help:
            "Presence changes (toggles, speaking) one connection publishes a second, after a burst of four times as many; past them its latest state waits (0: no bound)."
    )
    var presenceChangesPerSecond = 5.0

    @Option(help: "Joins one connection may make a minute, after a burst of 4; past them it is closed (0: no bound).")
    var joinsPerMinute = 12.0

    @Option(
        help:
            "Joins into one call from one address (an IPv6 /64 or an IPv4 address), across connections, a minute after a burst of 32; past them the join's connection is closed (0: no bound)."
    )
    var joinsPerMinutePerAddress = 60.0

    @Option(
        help:
            "Bytes waiting for slow readers across all connections; past it, a connection with 64 KiB or more waiting is closed."
    )
    var maxQueuedBytes = 256 << 20

    @Option(help: "Leading bits of an IPv4 address that --max-connections-per-address counts as one address.")
    var ipv4Prefix = 32

    @Option(help: "Leading bits of an IPv6 address that --max-connections-per-address counts as one address.")
    var ipv6Prefix = 64

    @Option(
        help: ArgumentHelp(
            "Share calls with other nodes through this PostgreSQL database (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]); the tables are made at start.",
            valueName: "url"))
    var presence: String?

    @Option(
        help:
            "Seconds within which the participants of a node that died leave the other nodes' calls (with --presence).")
    var presenceLease = 10.0

    @Flag(
        help:
            "Serve calls that anyone who reaches the server may join, on an address other than loopback, without MICCHECK_TOKEN_SECRET."
    )
    var insecureOpenCalls = false

    @Flag(help: "Log every request and connection.")
    var verbose = false

    var isLoopback: Bool { host == "127.0.0.1" || host == "localhost" || host == "::1" }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard idleTimeout >= 1, idleTimeout <= 3_600 else {
            throw ValidationError("--idle-timeout must be from 1 to 3600 seconds.")
        }
        guard (1_024...16 << 20).contains(maxMessageBytes) else {
            throw ValidationError("--max-message-bytes must be from 1024 to 16777216.")
        }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be 1 or more.") }
        guard maxConnectionsPerAddress >= 1 else {
            throw ValidationError("--max-connections-per-address must be 1 or more.")
        }
        guard maxAudioSpeed == 0 || (1...1_000).contains(maxAudioSpeed) else {
            throw ValidationError("--max-audio-speed must be 0 (no bound) or from 1 to 1000.")
        }
        guard presenceChangesPerSecond == 0 || (0.1...1_000).contains(presenceChangesPerSecond) else {
            throw ValidationError("--presence-changes-per-second must be 0 (no bound) or from 0.1 to 1000.")
        }
        guard joinsPerMinute == 0 || (1...10_000).contains(joinsPerMinute) else {
            throw ValidationError("--joins-per-minute must be 0 (no bound) or from 1 to 10000.")
        }
        guard joinsPerMinutePerAddress == 0 || (1...100_000).contains(joinsPerMinutePerAddress) else {
            throw ValidationError("--joins-per-minute-per-address must be 0 (no bound) or from 1 to 100000.")
        }
        guard maxQueuedBytes >= 1 << 20 else { throw ValidationError("--max-queued-bytes must be 1048576 or more.") }
        guard (8...32).contains(ipv4Prefix) else { throw ValidationError("--ipv4-prefix must be from 8 to 32.") }
        guard (16...128).contains(ipv6Prefix) else { throw ValidationError("--ipv6-prefix must be from 16 to 128.") }
        guard presenceLease >= 1, presenceLease <= 600 else {
            throw ValidationError("--presence-lease must be from 1 to 600 seconds.")
        }
        if let presence {
            do { _ = try PostgresAddress(presence) } catch {
                throw ValidationError("--presence: \(error.description).")
            }
        }
        for origin in allowOrigins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
            throw ValidationError("--allow-origin \(origin): an origin starts with http:// or https://.")
        }
        if !isLoopback, !insecureOpenCalls, ProcessInfo.processInfo.environment[JoinTokens.secretVariable] == nil {
            throw ValidationError(
                """
                --host \(host) lets other machines join calls: set \(JoinTokens.secretVariable) (32 bytes or more) so \
                that only those with a join token (miccheck token) can, or give --insecure-open-calls.
                """)
        }
    }

    func run() async throws {
        let description = try call.map(loadCallFile)
        let tokens = try await joinTokens()
        var logger = Logger(label: "miccheck.serve")
        logger.logLevel = verbose ? .info : .warning
        let shared = try await sharedPresence(logger: logger)
        let server = CallServer(
            configuration: configuration(call: description, tokens: tokens), presence: shared ?? MemoryPresence(),
            logger: logger)
        let banner = Banner(
            host: host, loopback: isLoopback, call: description, shared: shared, tokens: tokens != nil)
        do {
            try await server.application { port in banner.print(port: port) }.runService()
        } catch {
            let why = CallServer.listenFailure(error, host: host) ?? "\(error)"
            throw CommandFailure(
                message: "miccheck: cannot serve on \(host):\(port): \(why).", status: ExitStatus.unavailable)
        }
    }

    /// The server's configuration from the options.
    private func configuration(call: CallDescription?, tokens: JoinTokens?) -> CallServer.Configuration {
        .init(
            host: host, port: port, call: call, allowedOrigins: allowOrigins, allowedHosts: allowHosts,
            limits: ConnectionLimits(
                maxMessageBytes: maxMessageBytes, idleTimeout: idleTimeout,
                maxAudioSpeed: maxAudioSpeed, presenceChangesPerSecond: presenceChangesPerSecond,
                joinsPerMinute: joinsPerMinute, joinsPerMinutePerAddress: joinsPerMinutePerAddress,
                maxQueuedBytes: maxQueuedBytes),
            admission: AdmissionLimits(
                maxConnections: maxConnections ?? AdmissionLimits.defaultMaxConnections(),
                maxConnectionsPerAddress: maxConnectionsPerAddress, ipv4Prefix: ipv4Prefix,
                ipv6Prefix: ipv6Prefix),
            tokens: tokens)
    }
}

/// What `serve` says once it listens: where, which call, how presence is shared, who may join.
private struct Banner: Sendable {
    let host: String
    let loopback: Bool
    let call: CallDescription?
    let shared: PostgresPresence?
    let tokens: Bool

    func print(port: Int) {
        let shown = host.contains(":") ? "[\(host)]" : host
        let out = OutputWriter()
        out.line(
            "miccheck: serving http://\(shown):\(port)/ "
                + (loopback
                    ? "(loopback only: other machines cannot connect; --host 0.0.0.0 lets them)."
                    : "on every address of \(host): other machines can connect."))
        if let call {
            out.line("miccheck: call \(call.id) with \(call.participants.count) scripted member(s).")
        }
        if let shared {
            out.line("miccheck: presence shared through \(shared.address) as node \(shared.options.node).")
        }
        out.line(
            tokens
                ? "miccheck: calls need a join token (miccheck token)."
                : "miccheck: calls are open: anyone who reaches the server may join.")
        out.flush()
    }
}

extension Serve {
    /// The presence database of --presence, its tables made; nil without it. A database that cannot be
    /// reached exits 69 with the reason.
    func sharedPresence(logger: Logger) async throws -> PostgresPresence? {
        guard let presence else { return nil }
        var presenceLogger = logger
        // Losing and finding the database again is said whatever the verbosity.
        presenceLogger.logLevel = verbose ? .info : .notice
        do {
            return try await PostgresPresence.open(
                try PostgresAddress(presence),
                options: .init(lease: .milliseconds(Int(presenceLease * 1000))),
                logger: presenceLogger)
        } catch {
            throw CommandFailure(message: "miccheck: \(error.description).", status: ExitStatus.unavailable)
        }
    }
}

/// The join tokens of `MICCHECK_TOKEN_SECRET`, nil when it is not set; a secret too short to be safe is
/// refused with a sentence.
func joinTokens() async throws -> JoinTokens? {
    guard let secret = ProcessInfo.processInfo.environment[JoinTokens.secretVariable] else { return nil }
    guard let tokens = await JoinTokens(secret: secret) else {
        throw CommandFailure(
            message:
                "miccheck: \(JoinTokens.secretVariable) holds \(secret.utf8.count) bytes; a join token secret needs \(JoinTokens.minimumSecretBytes) or more (for instance: openssl rand -hex 32).",
            status: ExitStatus.usage)
    }
    return tokens
}

/// Reads a call description, or explains in one sentence why it cannot.
func loadCallFile(_ path: String) throws -> CallDescription {
    let data: Data
    switch readSmallFile(path, limit: 1 << 20, what: "a call description") {
    case .success(let d): data = d
    case .failure(let f): throw CommandFailure(f)
    }
    do {
        return try CallDescription.decode(data)
    } catch {
        throw CommandFailure(
            message: "miccheck: \(path): not a usable call: \(error.description).", status: ExitStatus.dataError)
    }
}
