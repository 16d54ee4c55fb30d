package import MicCheck
package import MicCheckCall
import MicCheckPresence

/// WebRTC signalling data, checked before it is relayed: a session description or an ICE candidate.
package enum Signal {
    /// `sender`: what the sending participant may send; a description whose media sections send more is
    /// refused (a listener's page that adds a microphone and renegotiates). Nil: a signal that comes from a
    /// presence store (this node's or another's), checked again before a page hears it; only then may it be a
    /// host's mute, which the server makes and a page never sends.
    package static func check(
        _ data: ClientMessage, sender: Set<OwnCapability>? = nil
    ) throws(ProtocolError) -> JSONValue {
        // A host's mute is made by the server (``mute(by:)``), never taken from a page.
        if sender == nil, let mute = try data.object("mute") {
            try data.only(["mute"], in: "signal data")
            try mute.only(["by"], in: "a mute")
            guard let by = try mute.string("by"), case .success(let name) = ParticipantName.checked(by) else {
                throw ProtocolError("a mute needs the host's name in \"by\"")
            }
            return Self.mute(by: name)
        }
        try data.only(["description", "candidate"], in: "signal data")
        if let d = try data.object("description") {
            try d.only(["type", "sdp"], in: "a description")
            guard let type = try d.string("type"), ["offer", "answer", "pranswer", "rollback"].contains(type) else {
                throw ProtocolError("a description's type must be offer, answer, pranswer or rollback")
            }
            let sdp = try d.string("sdp") ?? ""
            guard sdp.utf8.count <= 32_768 else { throw ProtocolError("a description's sdp is over 32 KiB") }
            if let sender, let refusal = SessionDescription.refusal(sdp, may: { Self.may(sender, send: $0) }) {
                throw ProtocolError(refusal)
            }
            return .object([("description", .object([("type", .string(type)), ("sdp", .string(sdp))]))])
        }
        if let c = try data.object("candidate") {
            try c.only(["candidate", "sdpMid", "sdpMLineIndex", "usernameFragment"], in: "a candidate")
            guard let candidate = try c.string("candidate"), candidate.utf8.count <= 1_024 else {
                throw ProtocolError("a candidate needs a \"candidate\" string of at most 1 KiB")
            }
            var fields: [(String, JSONValue)] = [("candidate", .string(candidate))]
            if let mid = try c.string("sdpMid") { fields.append(("sdpMid", .string(mid))) }
            if let index = try c.number("sdpMLineIndex") {
                guard let i = Int(exactly: index), (0...64).contains(i) else {
                    throw ProtocolError("sdpMLineIndex must be a small whole number")
                }
                fields.append(("sdpMLineIndex", .int(i)))
            }
            if let u = try c.string("usernameFragment") { fields.append(("usernameFragment", .string(u))) }
            return .object([("candidate", .object(fields))])
        }
        throw ProtocolError("signal data needs a \"description\" or a \"candidate\"")
    }

    /// `payload` checked again as a signal from another node (no role to check it against), or nil: what a
    /// presence store passes on is checked again before a page hears it.
    package static func recheck(_ payload: JSONValue) -> JSONValue? {
        guard case .object(let fields) = JSONInput(payload) else { return nil }
        return try? check(ClientMessage(fields: fields, type: "signal"))
    }

    /// The signal that carries a host's mute to the muted participant's connection.
    package static func mute(by name: String) -> JSONValue {
        .object([("mute", .object([("by", .string(name))]))])
    }

    /// The host's name, when `payload` is a host's mute.
    package static func mutedBy(_ payload: JSONValue) -> String? {
        guard case .object(let fields) = payload, fields.count == 1, fields[0].0 == "mute",
            case .object(let mute) = fields[0].1, case .string(let name)? = mute.first(where: { $0.0 == "by" })?.1
        else { return nil }
        return name
    }

    /// Whether a participant with `capabilities` may send `medium` (an m= line's media): a data channel
    /// (`application`) always, audio and video by the role, anything else never.
    static func may(_ capabilities: Set<OwnCapability>, send medium: String) -> Bool {
        switch medium {
        case "audio": capabilities.contains(.sendAudio)
        case "video": capabilities.contains(.sendVideo) || capabilities.contains(.screenshare)
        case "application": true
        default: false
        }
    }
}

/// What an SDP session description may send, read strictly: a page relays another's description to
/// browsers whose own parser (libwebrtc's) decides what it sends, and any reading of ours that differs
/// from theirs is a way past the check. So nothing is inferred, and everything is read as bytes, as libwebrtc
/// reads it (Swift's `String` would join `m=` and a combining mark into one character, where libwebrtc sees a
/// new section): a section of a medium the sender may not send must say itself, on a line of its own, that
/// it does not send.
enum SessionDescription {
    static let unreadable = "a description's sdp may hold only printable ASCII, in lines that end in LF or CR LF"

    /// The refusal of `sdp` from a sender that may send only the media `may` accepts, or nil.
    ///
    /// - Every description: printable ASCII only, lines ended by LF or CR LF (parsers differ on a bare CR,
    ///   U+2028, a TAB or a combining mark, and honest browsers write none of them).
    /// - Each media section (`m=` up to the next) whose medium the sender may not send: a line that is
    ///   exactly `a=recvonly` or `a=inactive`, and no line that begins `a=sendrecv` or `a=sendonly`, or begins
    ///   `a=recvonly` or `a=inactive` without being exactly it (`a=sendrecv:x`, `a=inactivex`). A
    ///   session-level direction counts for nothing; nor does a rejected section's port 0.
    static func refusal(_ sdp: String, may: (String) -> Bool) -> String? {
        let bytes = Array(sdp.utf8)
        for (i, b) in bytes.enumerated() where !(0x20...0x7E).contains(b) && b != 0x0A {
            guard b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A else { return unreadable }
        }
        var medium: String?
        var says = false
        func because(_ what: String) -> String {
            "this participant may not send \(medium ?? ""): its description's m=\(medium ?? "") section \(what)"
        }
        func ended() -> String? {
            guard let medium, !may(medium), !says else { return nil }
            return because("does not say recvonly or inactive")
        }
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = raw.last == 0x0D ? raw.dropLast() : raw
            if line.starts(with: "m=".utf8) {
                if let refused = ended() { return refused }
                // (ASCII: the bytes up to the first space are the medium, as a String.)
                medium = String(decoding: line.dropFirst(2).prefix { $0 != 0x20 }, as: UTF8.self)
                says = false
                continue
            }
            guard let current = medium, !may(current) else { continue }
            if line.elementsEqual("a=recvonly".utf8) || line.elementsEqual("a=inactive".utf8) {
                says = true
            } else if line.starts(with: "a=sendrecv".utf8) || line.starts(with: "a=sendonly".utf8) {
                return because("sends")
            } else if line.starts(with: "a=recvonly".utf8) || line.starts(with: "a=inactive".utf8) {
                return because("does not say recvonly or inactive")
            }
        }
        return ended()
    }
}
