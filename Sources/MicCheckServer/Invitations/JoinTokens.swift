public import Foundation
import JWTKit
public import MicCheck
public import MicCheckCall

/// A role in a call and what it may send, as the call types of video SDKs grant them: a host sends audio,
/// video and a screen, and mutes others; a speaker sends audio and video; a listener hears and sees the
/// others only. What a call grants (``CallServer/Configuration/call``) bounds what every role sends; muting
/// others is a host's whatever the call grants.
public enum CallRole: String, Sendable, Codable, CaseIterable {
    /// `host`: sends audio, video and a screen, and mutes others; `speaker`: sends audio and video; `listener`:
    /// sends nothing.
    case host, speaker, listener

    /// What the role may do: send audio, video or a screen, and mute others.
    public var capabilities: Set<OwnCapability> {
        switch self {
        case .host: [.sendAudio, .sendVideo, .screenshare, .muteUsers]
        case .speaker: [.sendAudio, .sendVideo]
        case .listener: []
        }
    }
}

/// What a valid join token lets its bearer do: join `call` as `name` with `role`, until `expires`.
public struct Invitation: Sendable, Equatable {
    /// The id of the call.
    public var call: String
    /// The participant's name in the call.
    public var name: String
    /// The role, which bounds what the page may send.
    public var role: CallRole
    /// When the token expires (its `exp` claim).
    public var expires: Date

    /// An invitation to `call` for `name` with `role`, until `expires`.
    public init(call: String, name: String, role: CallRole, expires: Date) {
        (self.call, self.name, self.role, self.expires) = (call, name, role, expires)
    }
}

/// Why a join token was refused, in a sentence for the HTTP answer and the log.
public struct InvitationError: MicCheckError, Sendable, Equatable {
    /// What is wrong with the token.
    public enum Kind: String, Sendable {
        /// `missing`: none given; `malformed`: not a token, or too long; `badSignature`: not signed with this server's
        /// secret, or a header other than HS256 with no key id; `expired`, `notYetValid`: outside its times;
        /// `otherCall`: for another call; `badClaims`: claims MicCheck does not know, or the wrong kind of token.
        case missing, malformed, badSignature, expired, notYetValid, otherCall, badClaims
    }
    /// What is wrong, for code.
    public var kind: Kind
    /// The sentence, for the HTTP answer and the log.
    public var description: String

    init(_ kind: Kind, _ description: String) { (self.kind, self.description) = (kind, description) }
}

/// Signed join tokens (JWT, HS256) for calls that only those invited may join. The secret is shared by
/// every node that serves the call and by whoever mints tokens (`miccheck token`); the server reads it
/// from the environment (`MICCHECK_TOKEN_SECRET`), never from the command line.
public struct JoinTokens: Sendable {
    /// The environment variable that holds the secret.
    public static let secretVariable = "MICCHECK_TOKEN_SECRET"
    /// The shortest secret accepted: HS256 with less than 32 bytes of key is guessable.
    public static let minimumSecretBytes = 32

    private let keys: JWTKeyCollection

    /// Tokens signed with `secret` (at least ``minimumSecretBytes`` bytes, or nil).
    public init?(secret: String) async {
        guard secret.utf8.count >= Self.minimumSecretBytes else { return nil }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
    }

    /// The longest token read: MicCheck's are a few hundred bytes; one of 100 KB is not an invitation.
    public static let maximumTokenBytes = 4_096
    /// The audience of a token for the streaming endpoint `/v1/vad` (a call's token has none).
    public static let streamAudience = "miccheck-vad"

    /// Every claim a MicCheck token carries, as it is written and as it is read: a call's invitation names the
    /// call, the name and the role; a `/v1/vad` token has the stream audience instead. Reading, only the expiry
    /// is required: the signature and the times are checked first, then what the claims say, so that a refusal
    /// names what is wrong (a stream's token on a call, a role MicCheck does not know) rather than failing to
    /// read them.
    struct Claims: JWTPayload {
        var call: String?
        var name: String?
        var role: String?
        var aud: AudienceClaim?
        var iat: IssuedAtClaim?
        var exp: ExpirationClaim
        var nbf: NotBeforeClaim?

        func verify(using algorithm: some JWTAlgorithm) throws {
            try exp.verifyNotExpired()
            try nbf?.verifyNotBefore()
        }
    }

    /// What a token's header must say: HS256, and no key id (this server has one key). jwt-kit would verify
    /// an HS256 signature under a header that names HS384, or a key id it does not have.
    struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    /// A token that lets `name` join `call` with `role` until `expires` (both times in whole seconds, as
    /// other JWT libraries expect them).
    public func mint(_ invitation: Invitation, issued: Date = Date()) async throws -> String {
        return try await keys.sign(
            Claims(
                call: invitation.call, name: invitation.name, role: invitation.role.rawValue,
                iat: IssuedAtClaim(value: whole(issued)),
                exp: ExpirationClaim(value: whole(invitation.expires))))
    }

    /// The invitation `token` carries for `call`, or why it is refused: none given, not a token, signed
    /// with another secret, expired, for another call, or with claims MicCheck does not know.
    public func verify(_ token: String?, call: String) async throws(InvitationError) -> Invitation {
        guard let token, !token.isEmpty else {
            throw InvitationError(.missing, "this call needs a join token (?token=…); ask its host for an invitation")
        }
        let claims = try await verified(token)
        if claims.aud?.value.contains(Self.streamAudience) == true {
            throw InvitationError(.badClaims, "this token is for /v1/vad, not a call's invitation")
        }
        guard let role = claims.role, let name = claims.name, claims.call != nil else {
            throw InvitationError(
                .badClaims, "the join token does not name a call, a name and a known role (host, speaker, listener)")
        }
        guard let known = CallRole(rawValue: role) else {
            throw InvitationError(
                .badClaims,
                "the join token's role \"\(Self.shown(role))\" is not one MicCheck knows (host, speaker, listener)")
        }
        guard claims.call == call else {
            throw InvitationError(.otherCall, "the join token is for another call")
        }
        guard case .success(let name) = ParticipantName.checked(name) else {
            throw InvitationError(
                .badClaims,
                "the join token's name cannot be a participant's (\(ParticipantName.maxCharacters) characters at most, no control characters)"
            )
        }
        return Invitation(call: call, name: name, role: known, expires: claims.exp.value)
    }

    /// A token for `/v1/vad` that lasts until `expires`.
    public func mintStream(expires: Date, issued: Date = Date()) async throws -> String {
        return try await keys.sign(
            Claims(
                aud: AudienceClaim(value: [Self.streamAudience]), iat: IssuedAtClaim(value: whole(issued)),
                exp: ExpirationClaim(value: whole(expires))))
    }

    /// Checks a token for `/v1/vad`: this server's, for the stream audience, within its times. Returns when
    /// it expires (the stream is closed then).
    @discardableResult
    public func verifyStream(_ token: String?) async throws(InvitationError) -> Date {
        guard let token, !token.isEmpty else {
            throw InvitationError(.missing, "this server's /v1/vad needs a token (?token=…; miccheck token --vad)")
        }
        let claims = try await verified(token)
        if claims.call != nil {
            throw InvitationError(
                .badClaims, "this token is a call's invitation, not one for /v1/vad (miccheck token --vad)")
        }
        guard claims.aud?.value.contains(Self.streamAudience) == true else {
            throw InvitationError(.badClaims, "the token is not one for /v1/vad (miccheck token --vad)")
        }
        return claims.exp.value
    }

    /// A claim's text as a refusal shows it: 32 characters at most, no control characters.
    private static func shown(_ text: String) -> String {
        let clean = String(
            String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return clean.count > 32 ? String(clean.prefix(32)) + "…" : clean
    }

    /// `token`'s claims, checked: its size, its header (HS256, no key id), its signature with this server's
    /// secret, and its times.
    private func verified(_ token: String) async throws(InvitationError) -> Claims {
        let claims =
            "the token's claims are not MicCheck's (an expiry, and a call, a name and a role, or /v1/vad's audience)"
        guard token.utf8.count <= Self.maximumTokenBytes else {
            throw InvitationError(
                .malformed, "the join token is over \(Self.maximumTokenBytes) bytes; MicCheck's are a few hundred")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else {
            throw InvitationError(.malformed, "the join token is not a token (three base64url parts)")
        }
        guard header.alg == "HS256", header.kid == nil else {
            throw InvitationError(
                .badSignature,
                "the join token's header names \(header.alg)\(header.kid.map { " and key \($0)" } ?? ""); this server signs with HS256 and one key"
            )
        }
        do {
            return try await keys.verify(token, as: Claims.self)
        } catch let error as JWTError {
            switch error.errorType {
            case .signatureVerificationFailed:
                throw InvitationError(.badSignature, "the join token was not signed by this server's secret")
            case .claimVerificationFailure:
                if error.failedClaim is NotBeforeClaim {
                    throw InvitationError(.notYetValid, "the join token is not valid yet")
                }
                if error.failedClaim is ExpirationClaim {
                    throw InvitationError(.expired, "the join token has expired; ask for a new invitation")
                }
                throw InvitationError(.badClaims, claims)
            case .malformedToken:
                throw InvitationError(.malformed, "the join token is not a token (three base64url parts)")
            default:
                throw InvitationError(.badClaims, claims)
            }
        } catch {
            throw InvitationError(.badClaims, claims)
        }
    }

    private static func base64URL(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}

/// A time in whole seconds, as other JWT libraries expect a token's times.
private func whole(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
