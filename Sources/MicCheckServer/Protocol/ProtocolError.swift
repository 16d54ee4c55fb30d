import Foundation
public import MicCheck

/// A client broke the protocol: the connection closes with `code` and `reason` (at most 123 bytes, as a
/// close frame allows).
public struct ProtocolError: MicCheckError, Sendable, Equatable {
    /// WebSocket close codes MicCheck uses.
    public enum Code: UInt16, Sendable {
        /// The server is shutting down.
        case goingAway = 1001
        /// Frames out of the order the WebSocket protocol allows.
        case protocolError = 1002
        /// A text message that is not UTF-8.
        case invalidPayload = 1007
        /// A malformed, unknown or out-of-order message, a bad setting, an idle stream, a client too slow.
        case policyViolation = 1008
        /// A message over the size limit, or in too many frames.
        case messageTooLarge = 1009
        /// The invitation (join token) the connection was opened with has expired: reconnect with a new one.
        case invitationExpired = 4401
    }

    /// The WebSocket close code the connection closes with.
    public var code: Code
    /// The close frame's reason: at most 123 bytes.
    public var reason: String

    /// A protocol error that closes with `code` (1008 by default); a longer `reason` is cut to 123 bytes, ending "...".
    public init(_ reason: String, code: Code = .policyViolation) {
        self.code = code
        self.reason = Self.fit(reason)
    }

    /// The reason.
    public var description: String { reason }

    /// A close frame carries at most 123 bytes of reason: cut at a character boundary.
    static func fit(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var out = ""
        for c in reason {
            if out.utf8.count + String(c).utf8.count > 120 { break }
            out.append(c)
        }
        return out + "..."
    }
}
