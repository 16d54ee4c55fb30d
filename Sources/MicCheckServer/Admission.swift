import Foundation
import Hummingbird
import HummingbirdWebSocket
import MicCheckCall
import NIOWebSocket

/// What is checked before a WebSocket opens: the page's origin, the endpoint's settings, the invitation.
extension CallServer {
    static func isUpgrade(_ request: Request) -> Bool {
        request.headers[.upgrade]?.lowercased() == "websocket"
    }

    /// Whether `/v1/vad` may open for `request`: its origin, its settings, and a token for the stream when
    /// invitations are on (then also when the token expires, and the stream with it).
    func admitStream(_ request: Request) async throws -> (VADSession.Settings, expires: Date?) {
        try checkOrigin(request)
        let settings = try vadSettings(request)
        guard let tokens = configuration.tokens else { return (settings, nil) }
        do {
            return (settings, try await tokens.verifyStream(token(request)))
        } catch {
            logger.notice("refused a /v1/vad client: \(error.description)")
            throw HTTPError(.unauthorized, message: error.description)
        }
    }

    /// Whether `/v1/call` may open for `request`: its origin, the call's id, and the invitation.
    func admitCall(_ request: Request) async throws -> (String, Invitation?, CallChannel.Analysis) {
        try checkOrigin(request)
        let call = try callID(request)
        // Where the page's microphone is analysed: `device` (the SDK's default: its own WebAssembly, no audio
        // sent) or `server` (the default for clients that do not say: they send PCM).
        let analysis: CallChannel.Analysis
        switch request.uri.queryParameters["analysis"].map(String.init) {
        case nil, "server": analysis = .server
        case "device": analysis = .device
        default: throw HTTPError(.badRequest, message: "analysis is device or server")
        }
        return (call, try await invitation(request, call: call), analysis)
    }

    /// `admit`'s answer, or nil when it refused: then the WebSocket, just opened, closes with 4000 + the
    /// refusal's status and its reason.
    func admitted<T>(_ outbound: WebSocketOutboundWriter, _ admit: () async throws -> T) async -> T? {
        do {
            return try await admit()
        } catch {
            let (status, reason) =
                (error as? HTTPError).map { ($0.status.code, $0.body ?? $0.status.reasonPhrase) } ?? (400, "\(error)")
            try? await outbound.close(WebSocketErrorCode(codeNumber: 4_000 + status), reason: ProtocolError.fit(reason))
            return nil
        }
    }

    /// The token a request carries: `?token=` or `Authorization: Bearer`.
    func token(_ request: Request) -> String? {
        request.uri.queryParameters["token"].map(String.init)
            ?? request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
    }

    /// A browser page may connect only from the server's own origin or an allowed one (another site's
    /// page must not reach a user's microphone analysis or calls). Clients that are not browsers send no
    /// Origin, or one of their own scheme (`ws://host`), and may connect; `null` (a sandboxed or local
    /// page) may not.
    func checkOrigin(_ request: Request) throws {
        guard let origin = request.headers[.origin] else { return }
        let browser = origin == "null" || origin.hasPrefix("http://") || origin.hasPrefix("https://")
        guard browser else { return }
        let host = request.head.authority ?? ""
        let own = ["http://\(host)", "https://\(host)"]
        guard own.contains(origin) || configuration.allowedOrigins.contains(origin) else {
            // The answer does not repeat what the request sent (a page could have it shown as the server's);
            // the log names it.
            logger.notice("refused a page from \(origin): start the server with --allow-origin \(origin)")
            throw HTTPError(
                .forbidden,
                message: "pages from this origin may not connect; start the server with --allow-origin and that origin")
        }
    }

    func vadSettings(_ request: Request) throws -> VADSession.Settings {
        do {
            // The token is the server's, not the session's.
            return try VADSession.Settings(
                query: request.uri.queryParameters.filter { $0.key != "token" }.map {
                    (String($0.key), String($0.value))
                })
        } catch {
            throw HTTPError(.badRequest, message: error.reason)
        }
    }

    func callID(_ request: Request) throws -> String {
        guard let id = request.uri.queryParameters["call"].map(String.init), Self.isValidCallID(id) else {
            throw HTTPError(.badRequest, message: "/v1/call needs ?call=ID: 1 to 64 letters, digits, '-' or '_'")
        }
        return id
    }

    /// The invitation of a request to join `call`: nil when calls are open; a refusal (401 with the
    /// reason) when the token is missing, not this server's, expired or for another call.
    func invitation(_ request: Request, call: String) async throws -> Invitation? {
        guard let tokens = configuration.tokens else { return nil }
        do {
            return try await tokens.verify(token(request), call: call)
        } catch {
            logger.notice("refused a page for call \(call): \(error.description)")
            throw HTTPError(.unauthorized, message: error.description)
        }
    }

    /// What a participant may send: the call's grant, bounded by the invitation's role.
    func capabilities(for invitation: Invitation?) -> Set<OwnCapability> {
        let granted = configuration.call?.capabilities ?? [.sendAudio, .sendVideo]
        guard let invitation else { return granted }
        // Muting others is the host's role, not something a call's media grant takes away.
        let hosting: Set<OwnCapability> = invitation.role == .host ? [.muteUsers] : []
        return granted.intersection(invitation.role.capabilities).union(hosting)
    }
}
