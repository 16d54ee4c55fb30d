public import Foundation
public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Logging
public import MicCheck
public import MicCheckCall
import MicCheckWeb
import NIOCore
import ServiceLifecycle

/// MicCheck's browser server: the lobby and the call as pages, a WebSocket per browser page with a live
/// analysis of its microphone (`/v1/call`), presence and WebRTC signalling between the pages, and the
/// streaming voice activity endpoint for other clients (`/v1/vad`).
///
/// ```swift
/// let server = CallServer(configuration: .init(port: 8080))
/// try await server.application().runService()
/// ```
public struct CallServer: Sendable {
    /// Where the server listens, and what it serves and enforces.
    public struct Configuration: Sendable {
        /// The address to listen on (127.0.0.1 by default: this machine only).
        public var host: String
        /// The port to listen on (8080 by default; 0: the system chooses a free one).
        public var port: Int
        /// A call already under way: its members (shown as participants whose speaking follows the
        /// script) and the capabilities it grants. Nil: calls start empty and grant audio and video.
        public var call: CallDescription?
        /// Origins besides the server's own whose pages may open a WebSocket (`http://host:port`).
        public var allowedOrigins: [String]
        /// Host names the server answers to besides loopback's and the address it listens on (a request
        /// naming another host is refused: DNS rebinding). On every interface with none: any host.
        public var allowedHosts: [String]
        /// What the server enforces on every WebSocket.
        public var limits: ConnectionLimits
        /// What a TCP connection is allowed before it is a request: how many, and its head's time and size.
        public var admission: AdmissionLimits
        /// The voice activity model the analyses run (the bundled one by default).
        public var model: VoiceActivityModel
        /// With tokens, a page joins a call only with a join token for it (`?token=` or `Authorization:
        /// Bearer`), checked before the WebSocket opens; its role bounds what it may send and its name is
        /// the invitation's. Nil: calls are open to anyone who can reach the server.
        public var tokens: JoinTokens?

        /// Makes a configuration; every default serves open calls on 127.0.0.1:8080.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, call: CallDescription? = nil, allowedOrigins: [String] = [],
            allowedHosts: [String] = [], limits: ConnectionLimits = ConnectionLimits(),
            admission: AdmissionLimits = AdmissionLimits(),
            model: VoiceActivityModel = .bundled, tokens: JoinTokens? = nil
        ) {
            self.admission = admission
            self.allowedHosts = allowedHosts
            self.host = host
            self.port = port
            self.call = call
            self.allowedOrigins = allowedOrigins
            self.limits = limits
            self.model = model
            self.tokens = tokens
        }
    }

    /// Where the server listens, and what it serves and enforces.
    public let configuration: Configuration
    /// Where the members of calls live (`MemoryPresence` by default).
    public let presence: any PresenceStore
    /// Where the server logs (the label `miccheck.serve` by default).
    public let logger: Logger

    /// A server with `configuration`, `presence` and `logger`.
    public init(
        configuration: Configuration = Configuration(), presence: any PresenceStore = MemoryPresence(),
        logger: Logger = Logger(label: "miccheck.serve")
    ) {
        self.configuration = configuration
        self.presence = presence
        self.logger = logger
    }

    /// The folder of the pages and scripts: the browser client's files (`MicCheckWeb`, Web/), served as they are.
    public static var webRoot: URL? { MicCheckWeb.root }

    /// The application: routes, the pages, both WebSocket endpoints, and the scripted members of
    /// ``Configuration/call`` as a service. `onRunning` gets the bound port (useful with port 0).
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router(context: ServerRequestContext.self)
        // The headers first, so that every refusal after them carries them too.
        router.middlewares.add(PageHeaders())
        router.middlewares.add(HostCheck(allowed: allowedHosts))
        if let root = Self.webRoot?.path {
            router.middlewares.add(
                FileMiddleware(
                    root, cacheControl: .init([(MediaType(type: .any), [.noCache])]),
                    searchForIndexHtml: true, logger: logger
                ).withAdditionalMediaTypes(forFileExtensions: PagePolicy.mediaTypes))
        }
        let server = self
        // What waits for slow readers, counted across every connection of this application.
        let queued = QueuedBytes(limit: configuration.limits.maxQueuedBytes)
        let ledger = JoinLedger(perMinute: configuration.limits.joinsPerMinutePerAddress)
        router.get("/healthz") { _, _ in "ok\n" }
        router.get("/v1/calls/:id") { request, context in
            let id = try context.parameters.require("id")
            guard CallServer.isValidCallID(id) else {
                throw HTTPError(.badRequest, message: "a call id is 1 to 64 letters, digits, '-' or '_'")
            }
            // Who is in an invitation-only call is for those invited.
            _ = try await server.invitation(request, call: id)
            let snapshot = await server.presence.snapshot(call: id)
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(
                status: .ok, headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: snapshot.json.encoded + "\n")))
        }
        // A refusal before a WebSocket opens: on a plain GET, the HTTP status with the reason as JSON; on an
        // upgrade, which the WebSocket layer can only refuse with a bare 400, the WebSocket opens and closes
        // at once with 4000 + the status and the reason, which a page's script can read (Guides/Security.md).
        router.ws(
            "/v1/vad",
            shouldUpgrade: { request, _ in
                if !Self.isUpgrade(request) { _ = try await server.admitStream(request) }
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                guard
                    let (settings, expires) = await server.admitted(
                        outbound, { try await server.admitStream(context.request) })
                else { return }
                try await server.runVAD(
                    inbound, outbound, settings: settings, expires: expires, queued: queued, context: context)
            })
        router.ws(
            "/v1/call",
            shouldUpgrade: { request, _ in
                if !Self.isUpgrade(request) { _ = try await server.admitCall(request) }
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                guard
                    let (call, invitation, analysis) = await server.admitted(
                        outbound, { try await server.admitCall(context.request) })
                else { return }
                try await server.runCall(
                    inbound, outbound, call: call, invitation: invitation, analysis: analysis, queued: queued,
                    ledger: ledger, context: context)
            })
        var services: [any Service] = []
        // Presence in a database has connections and leases to keep (MicCheckPresencePostgres).
        if let service = presence as? any Service { services.append(service) }
        if let call = configuration.call { services.append(ScriptedMembers(call: call, presence: presence)) }
        let limits = configuration.limits
        let counts = ConnectionCounts(limits: configuration.admission)
        // Hummingbird's own lines: an error line for each connection the guard answered and closed before the
        // upgrade decision ("Error handling upgrade result") would let a flood of them flood the log too.
        // Shown when the server logs at info or below (serve --verbose).
        var internals = logger
        if logger.logLevel > .info { internals.logLevel = .critical }
        let webSocketResponder = router.buildResponder()
        // Hummingbird's HTTP/1 with WebSocket upgrade, behind the connection guard; a connection idle
        // between requests closes after a minute.
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: .seconds(60)),
            ws: .init(
                maxFrameSize: limits.maxMessageBytes, autoPing: .enabled(timePeriod: .seconds(30)),
                closeTimeout: .seconds(5)))
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: channel),
                    counts: counts)
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "miccheck"),
            services: services,
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: internals
        )
    }

    /// Whether `id` can name a call: 1 to 64 letters, digits, `-` or `_`.
    public static func isValidCallID(_ id: String) -> Bool {
        (1...64).contains(id.count)
            && id.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_"
            }
    }

    // MARK: - /v1/vad

    func runVAD(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, settings: VADSession.Settings,
        expires: Date?, queued: QueuedBytes, context: WebSocketRouterContext<ServerRequestContext>
    ) async throws {
        let limits = configuration.limits
        var endpoint = VADEndpoint(
            session: try VADSession(
                settings: settings, model: configuration.model,
                limits: [
                    ("max_message_bytes", .int(limits.maxMessageBytes)),
                    ("idle_timeout_ms", .int(Int(limits.idleTimeout * 1000))),
                    ("max_audio_speed", .number(limits.maxAudioSpeed, decimals: 1)),
                ]), maxAudioSpeed: limits.maxAudioSpeed)
        let channel = context.requestContext.channel
        try await Connection.run(
            &endpoint, inbound: inbound, outbound: outbound, limits: limits, queued: queued,
            expiry: expires.map { Connection.Expiry(date: $0, reason: "the token expired; reconnect with a new one") },
            hangUp: { channel.close(promise: nil) })
    }

    // MARK: - /v1/call

    func runCall(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, call: String, invitation: Invitation?,
        analysis: CallChannel.Analysis, queued: QueuedBytes, ledger: JoinLedger,
        context: WebSocketRouterContext<ServerRequestContext>
    ) async throws {
        let id = "p" + String(UInt64.random(in: 0..<(1 << 48)), radix: 36)
        let channel = context.requestContext.channel
        let start = Connection.now()
        var endpoint = CallEndpoint(
            call: call,
            channel: try CallChannel(
                id: id, capabilities: capabilities(for: invitation), invitedName: invitation?.name,
                model: configuration.model, analysis: analysis, now: 0),
            presence: presence, start: start, limits: configuration.limits, ledger: ledger,
            address: ConnectionCounts.key(channel.remoteAddress, limits: configuration.admission), logger: logger)
        let events = await presence.subscribe(call: call, subscriber: id)
        try await Connection.run(
            &endpoint, inbound: inbound, outbound: outbound, limits: configuration.limits, presence: events,
            queued: queued,
            expiry: invitation.map {
                Connection.Expiry(date: $0.expires, reason: "the invitation expired; reconnect with a new one")
            }, hangUp: { channel.close(promise: nil) })
    }
}

extension CallServer {
    /// Why the server could not listen on `host`, in words, when the error is one a user can act on:
    /// a port in use, an address this machine does not have, a port below 1024 without the right.
    public static func listenFailure(_ error: any Error, host: String) -> String? {
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case EADDRINUSE:
            return "the port is in use (another server?); choose another with --port, or --port 0 for any free one"
        case EADDRNOTAVAIL: return "\(host) is not an address of this machine"
        case EACCES: return "this user may not listen on ports below 1024; choose a higher --port"
        default: return nil
        }
    }
}
