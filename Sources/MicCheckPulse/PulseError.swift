import CPulseAudio
public import MicCheck

/// Why talking to the PulseAudio (or PipeWire-Pulse) server failed, as one sentence for the user.
public struct PulseError: MicCheckError, Sendable, Equatable {
    /// What went wrong, for a program to act on.
    public enum Kind: Sendable, Equatable {
        /// No server answered: none is running, or the address is wrong.
        case noServer
        /// The server refused this client (authentication cookie, permissions, a policy).
        case accessDenied
        /// The named source does not exist.
        case noSuchSource
        /// The connection to the server broke.
        case connectionLost
        /// Anything else the server or libpulse reported.
        case failed
    }

    /// What went wrong.
    public var kind: Kind
    /// What went wrong, without a trailing period ("the PulseAudio server refused access: …").
    public var message: String

    /// An error of `kind`, said by `message` (without a trailing period).
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// libpulse's own text for an error code.
    static func text(_ code: Int32) -> String {
        guard let s = pa_strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }

    /// Maps a libpulse error code met while `doing` something onto a kind and a sentence.
    static func from(code: Int32, doing: String, server: String?) -> PulseError {
        let at = server.map { " at \($0)" } ?? ""
        switch code {
        case Int32(PA_ERR_ACCESS.rawValue), Int32(PA_ERR_AUTHKEY.rawValue):
            return PulseError(
                .accessDenied,
                "the PulseAudio server\(at) refused access while \(doing) (\(text(code))): "
                    + "this client's authentication cookie or permissions were not accepted")
        case Int32(PA_ERR_CONNECTIONREFUSED.rawValue), Int32(PA_ERR_INVALIDSERVER.rawValue),
            Int32(PA_ERR_TIMEOUT.rawValue):
            return PulseError(.noServer, "no PulseAudio server is running\(at) (\(text(code)))")
        case Int32(PA_ERR_CONNECTIONTERMINATED.rawValue), Int32(PA_ERR_KILLED.rawValue):
            return PulseError(.connectionLost, "the connection to the PulseAudio server\(at) broke while \(doing)")
        case Int32(PA_ERR_NOENTITY.rawValue):
            return PulseError(.noSuchSource, "the PulseAudio server\(at) has no such device (\(doing))")
        default:
            return PulseError(.failed, "the PulseAudio server\(at) reported an error while \(doing): \(text(code))")
        }
    }
}
