import ArgumentParser
import Foundation
import MicCheckServer

/// `miccheck token`: mints a join token for a call served with MICCHECK_TOKEN_SECRET.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mint a join token: an invitation to one call, for one name and role, until it expires.",
        discussion: """
            Signs with MICCHECK_TOKEN_SECRET (HS256), the secret every `miccheck serve` of the call has. \
            Prints the token, or with --url the lobby's address with the call and the token in it. \
            Roles: host (audio, video, screen, and mutes others), speaker (audio, video), listener (hears and sees only). \
            With --vad, a token for the streaming endpoint /v1/vad instead (no call, name or role).
            """
    )

    @Option(help: "The call the token opens.")
    var call: String?

    @Option(help: "The participant's name, as the others see it.")
    var name: String?

    @Flag(help: "A token for /v1/vad, which a server with MICCHECK_TOKEN_SECRET asks of its streams.")
    var vad = false

    @Option(help: "host, speaker or listener.")
    var role: String = CallRole.speaker.rawValue

    @Option(help: "Seconds until the token expires.")
    var expiresIn = 3_600.0

    @Option(help: "The server's address (http://host:port): print the lobby's link instead of the bare token.")
    var url: String?

    func validate() throws {
        if vad {
            guard call == nil, name == nil else {
                throw ValidationError("--vad makes a token for /v1/vad: no --call or --name.")
            }
        } else {
            guard let call else { throw ValidationError("Missing expected argument '--call <call>' (or --vad).") }
            guard CallServer.isValidCallID(call) else {
                throw ValidationError("--call: 1 to 64 letters, digits, '-' or '_'.")
            }
            guard let name else { throw ValidationError("Missing expected argument '--name <name>'.") }
            if case .failure(let why) = ParticipantName.checked(name) { throw ValidationError("--name: \(why).") }
        }
        guard CallRole(rawValue: role) != nil else {
            throw ValidationError("--role must be host, speaker or listener.")
        }
        guard expiresIn >= 1, expiresIn <= 366 * 86_400 else {
            throw ValidationError("--expires-in must be from 1 second to 366 days.")
        }
        if let url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--url \(url): give the server's address, starting with http:// or https://.")
        }
    }

    func run() async throws {
        guard let tokens = try await joinTokens() else {
            throw CommandFailure(
                message: "miccheck: token needs \(JoinTokens.secretVariable), the secret the server was started with.",
                status: ExitStatus.usage)
        }
        let expires = Date().addingTimeInterval(expiresIn)
        let token: String
        if let call, let name, !vad {
            token = try await tokens.mint(
                Invitation(
                    call: call, name: name.trimmingCharacters(in: .whitespacesAndNewlines),
                    role: CallRole(rawValue: role) ?? .speaker, expires: expires))
        } else {
            token = try await tokens.mintStream(expires: expires)
        }
        let out = OutputWriter()
        if let url {
            var parts = URLComponents(string: url.hasSuffix("/") ? url : url + "/")
            parts?.queryItems =
                (call.map { [URLQueryItem(name: "call", value: $0)] } ?? []) + [
                    URLQueryItem(name: "token", value: token)
                ]
            out.line(parts?.string ?? url)
        } else {
            out.line(token)
        }
        try out.finish()
    }
}
