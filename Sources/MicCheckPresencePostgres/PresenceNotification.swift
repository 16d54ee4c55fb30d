import Foundation
import MicCheckPresence

/// A notification on ``PostgresSchema/channel``, as the schema's functions and a node's signals write it:
/// `{"call": ID, "kind": "joined"|"updated"|"left"|"signal", ...}`.
///
/// - joined, updated: `"v"` (the call's version after the change) and `"member"`;
/// - left: `"v"` and `"id"`;
/// - signal: `"from"`, `"to"` and either `"data"` (the signal's JSON) or `"ref"` (a row of
///   `miccheck_signals` holding it, for one too large for a notification).
struct PresenceNotification: Decodable, Sendable, Equatable {
    enum Kind: String, Decodable, Sendable { case joined, updated, left, signal }

    struct Member: Decodable, Sendable, Equatable {
        var id: String
        var name: String
        var audio: Bool
        var video: Bool
        var speaking: Bool

        var member: PresenceMember {
            PresenceMember(id: id, name: name, audio: audio, video: video, speaking: speaking)
        }
    }

    var call: String
    var kind: Kind
    var v: Int?
    var member: Member?
    var id: String?
    var from: String?
    var to: String?
    var data: JSONInput?
    var ref: Int?

    /// Reads a notification's payload; nil when it is not one MicCheck writes.
    init?(payload: String) {
        guard let n = try? JSONDecoder().decode(Self.self, from: Data(payload.utf8)) else { return nil }
        self = n
    }

    /// The change of members it carries (nil for a signal, or a change missing its fields).
    var delta: PresenceDelta? {
        guard let v else { return nil }
        switch kind {
        case .joined: return member.map { PresenceDelta(version: v, change: .joined($0.member)) }
        case .updated: return member.map { PresenceDelta(version: v, change: .updated($0.member)) }
        case .left: return id.map { PresenceDelta(version: v, change: .left($0)) }
        case .signal: return nil
        }
    }
}
