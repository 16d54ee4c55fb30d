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
            Roles: host (audio, video, screen), speaker (audio, video), listener (hears and sees only).
            """
    )

    @Option(help: "The call the token opens.")
    var call: String

    @Option(help: "The participant's name, as the others see it.")
    var name: String

    @Option(help: "host, speaker or listener.")
    var role: String = CallRole.speaker.rawValue

    @Option(help: "Seconds until the token expires.")
    var expiresIn = 3_600.0

    @Option(help: "The server's address (http://host:port): print the lobby's link instead of the bare token.")
    var url: String?

    func validate() throws {
        guard CallServer.isValidCallID(call) else { throw ValidationError("--call: 1 to 64 letters, digits, '-' or '_'.") }
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, name.count <= 64 else {
            throw ValidationError("--name must hold 1 to 64 characters.")
        }
        guard CallRole(rawValue: role) != nil else { throw ValidationError("--role must be host, speaker or listener.") }
        guard expiresIn >= 1, expiresIn <= 366 * 86_400 else { throw ValidationError("--expires-in must be from 1 second to 366 days.") }
        if let url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--url \(url): give the server's address, starting with http:// or https://.")
        }
    }

    func run() async throws {
        guard let tokens = try await joinTokens() else {
            throw reported(("miccheck: token needs \(JoinTokens.secretVariable), the secret the server was started with.", ExitStatus.usage))
        }
        let invitation = Invitation(call: call, name: name.trimmingCharacters(in: .whitespacesAndNewlines),
                                    role: CallRole(rawValue: role) ?? .speaker, expires: Date().addingTimeInterval(expiresIn))
        let token = try await tokens.mint(invitation)
        let out = OutputWriter()
        if let url {
            var parts = URLComponents(string: url.hasSuffix("/") ? url : url + "/")
            parts?.queryItems = [URLQueryItem(name: "call", value: call), URLQueryItem(name: "token", value: token)]
            out.line(parts?.string ?? url)
        } else {
            out.line(token)
        }
        try out.finish()
    }
}
