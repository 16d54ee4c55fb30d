public import MicCheck
public import MicCheckCall

/// The call page's protocol (`GET /v1/call?call=ID`), for one browser, without the network: the page's
/// microphone as 16-bit PCM in; its microphone check, "You are muted." and its own speaking state out;
/// its requests (join, toggles, signalling) turned into presence actions.
///
/// The microphone check and the muted notice are MicCheckCall's models (`MicrophoneCheck`,
/// `MutedIndicator`), fed by MicCheck's analysis of the page's audio; the page only draws.
///
/// In (text, JSON with a `type`):
/// - `{"type": "devices", "audio": true, "video": false}`: the toggles, in the lobby and in the call; with
///   `"cause": "push-to-talk"` (or `"self"`, the default) the microphone is off because a push-to-talk key
///   is up, and no muted notice comes;
/// - `{"type": "join", "name": "Ada Lovelace"}` and `{"type": "leave"}`;
/// - `{"type": "signal", "to": ID, "data": {"description": {"type": "offer", "sdp": "..."}}}` or
///   `{"data": {"candidate": {"candidate": "...", "sdpMid": "0", "sdpMLineIndex": 0}}}`: WebRTC
///   signalling, relayed to one participant;
/// - `{"type": "muted_notice_off"}`: "don't show again for this call";
/// - `{"type": "mute", "id": ID}`: a host (`OwnCapability.muteUsers`) mutes another participant, on this
///   node or another; the muted participant's page gets `muted_by_host` (`by`: the host's id and name,
///   `text`: "NAME muted you."), its microphone goes off with the cause `host`, and its muted notice
///   applies even after "don't show again". A participant who may not mute others, or one who left, gets an
///   `error` message with the reason, and the connection goes on;
/// - `{"type": "resync"}`: send the presence snapshot again;
/// - `{"type": "microphone_test", "action": "start"}` and `"cancel"`: "Test your microphone", judged on the
///   audio that follows (`MicrophoneTestRequest`).
///
/// Out: `microphone` (the meter and the check's state, at most every 100 ms), `microphone_test`, `muted_notice`,
/// `typing_notice` ("Your typing can be heard." with the action "Mute", by `TypingNotice`'s rules: shown
/// on the analysis' `keyboard_noise` while unmuted and not speaking, at most every 2 minutes; hidden again
/// when the user speaks or mutes), and the presence events (``PresenceEvent``) that the connection relays.
public struct CallChannel: Sendable {
    /// What the connection must do in the call's presence.
    public enum Action: Sendable, Equatable {
        /// Join the call as this member.
        case join(PresenceMember)
        /// Publish the member's new state.
        case update(PresenceMember)
        /// Leave the call.
        case leave
        /// Pass `payload` to the participant `to`: a WebRTC signal, or a host's mute.
        case signal(to: String, payload: JSONValue)
        /// Send the page the presence snapshot again.
        case resync
    }

    /// This connection's participant id.
    public let id: String
    /// What this participant may send (the call's grant, bounded by an invitation's role): a toggle
    /// asking for more stays off.
    public let capabilities: Set<OwnCapability>
    /// The name an invitation gives, which a join's name does not replace.
    public let invitedName: String?
    /// The page's toggles, bounded by `capabilities`.
    public private(set) var settings: CallSettings
    /// The member, once joined.
    public private(set) var member: PresenceMember?
    /// Where the page's microphone is analysed.
    public enum Analysis: String, Sendable, Equatable {
        /// In the page, by the kernel's WebAssembly: no audio comes; the page states whether its participant
        /// speaks (`{"type": "speaking", "speaking": true}`), as a claim.
        case device
        /// Here: the page sends its microphone as PCM, and gets the microphone's messages back.
        case server
    }

    /// Where the page's microphone is analysed (the server by default).
    public let analysis: Analysis
    /// The microphone as the page shows it (server analysis): the same value the page's WebAssembly runs.
    public private(set) var microphone: MicrophoneChannel
    /// The microphone's rules: the check, the notices, and whether the participant speaks.
    public var rules: MicrophoneRules { microphone.rules }
    /// The microphone check: the level, and whether the microphone seems not to work.
    public var check: MicrophoneCheck { rules.check }
    /// "You are muted.": whether it shows.
    public var indicator: MutedIndicator { rules.notices.mutedIndicator }
    /// "Your typing can be heard.": whether it shows.
    public var typing: TypingNotice { rules.notices.typingNotice }
    private var pcm: [Float] = []
    /// What the page said of its speaking (device analysis), and when it last said it: a page that speaks says
    /// so every half second, so one that stops (a closed lid) stops speaking after ``speechStallTimeout``.
    private var statedSpeaking = false
    private var statedAt = 0.0
    private var speaking: Bool { analysis == .device ? statedSpeaking : microphone.isSpeaking }
    /// Samples per second of the PCM the page sends.
    public var sampleRate: Int { microphone.sampleRate }

    /// - Parameter now: seconds on the connection's clock (the microphone check's grace and stall times).
    public init(
        id: String, capabilities: Set<OwnCapability> = [.sendAudio, .sendVideo], invitedName: String? = nil,
        sampleRate: Int = 16_000, model: VoiceActivityModel = .bundled, analysis: Analysis = .server, now: Double
    ) throws(ProtocolError) {
        self.id = id
        self.capabilities = capabilities
        self.invitedName = invitedName
        self.analysis = analysis
        settings = CallSettings(audioOn: capabilities.contains(.sendAudio), videoOn: capabilities.contains(.sendVideo))
        do {
            microphone = try MicrophoneChannel(
                sampleRate: sampleRate, audioOn: settings.audioOn, maySendAudio: capabilities.contains(.sendAudio),
                now: now, model: model)
        } catch {
            throw ProtocolError("the page's microphone: \(error)")
        }
    }

    /// The first message: who this connection is, and the audio it expects.
    public func welcome(call: String) -> Connection.Message {
        Connection.Message(
            text: JSONValue.object([
                ("type", .string("welcome")), ("id", .string(id)), ("call", .string(call)),
                ("analysis", .string(analysis.rawValue)),
                ("sample_rate", .int(sampleRate)), ("encoding", .string("pcm_s16le")),
                ("capabilities", .array(capabilities.map(\.rawValue).sorted().map { .string($0) })),
                ("name", invitedName.map { .string($0) } ?? .null),
                ("muted_notice", .string(MutedIndicator.text)),
            ]).encoded, isLevel: false)
    }

    /// A binary message: the page's microphone. Returns the presence update when the participant starts
    /// or stops speaking.
    public mutating func audio(
        _ bytes: UnsafeRawBufferPointer, now: Double, emit: (Connection.Message) -> Void
    ) throws(ProtocolError) -> Action? {
        guard analysis == .server else {
            throw ProtocolError("this connection analyses its microphone on the device: it sends no audio")
        }
        let n = try PCM16.decode(bytes, into: &pcm)
        let wasSpeaking = speaking
        Self.feed(pcm, count: n, to: &microphone, now: now) { emit(Self.message($0)) }
        return wasSpeaking != speaking ? memberChange() : nil
    }

    private static func feed(
        _ pcm: [Float], count: Int, to microphone: inout MicrophoneChannel, now: Double,
        emit: (MicrophoneChannel.Message) -> Void
    ) {
        pcm.withUnsafeBufferPointer { b in
            microphone.audio(UnsafeBufferPointer(rebasing: b[0..<count]), now: now, emit: emit)
        }
    }

    static func message(_ m: MicrophoneChannel.Message) -> Connection.Message {
        Connection.Message(text: m.text, isLevel: m.isLevel)
    }

    /// The microphone's messages go to a page whose microphone the server analyses; a page that analyses its
    /// own makes them itself.
    private static func relay(
        _ m: MicrophoneChannel.Message, _ analysis: Analysis, _ emit: (Connection.Message) -> Void
    ) {
        if analysis == .server { emit(message(m)) }
    }

    /// A text message.
    public mutating func text(
        _ text: String, now: Double, emit: (Connection.Message) -> Void
    ) throws(ProtocolError) -> [Action] {
        let m = try ClientMessage(text)
        switch m.type {
        case "devices":
            try m.only(["type", "audio", "video", "cause"], in: "devices")
            let cause: MuteCause
            switch try m.string("cause") ?? "self" {
            case "self": cause = .selfMuted
            case "push-to-talk": cause = .pushToTalk
            default: throw ProtocolError("a device's mute \"cause\" is self or push-to-talk")
            }
            if let audio = try m.bool("audio") { settings.audioOn = audio && capabilities.contains(.sendAudio) }
            if let video = try m.bool("video") { settings.videoOn = video && capabilities.contains(.sendVideo) }
            let muteCause = try m.bool("audio") == false ? cause : nil
            microphone.setMicrophone(on: settings.audioOn, cause: muteCause, now: now) { [analysis] in
                Self.relay($0, analysis, emit)
            }
            return memberChange().map { [$0] } ?? []
        case "join":
            try m.only(["type", "name"], in: "join")
            let given = try m.string("name")
            guard let raw = invitedName ?? given else { throw ProtocolError("join needs a \"name\"") }
            let name: String
            switch ParticipantName.checked(raw) {
            case .success(let checked): name = checked
            case .failure(let why): throw ProtocolError("join needs \(why)")
            }
            guard member == nil else { throw ProtocolError("join when already in the call") }
            member = PresenceMember(
                id: id, name: name, audio: settings.audioOn, video: settings.videoOn,
                speaking: settings.audioOn && speaking)
            microphone.enter(.call)
            return member.map { [.join($0)] } ?? []
        case "leave":
            try m.only(["type"], in: "leave")
            guard member != nil else { throw ProtocolError("leave before join") }
            member = nil
            microphone.enter(.lobby)
            return [.leave]
        case "signal":
            try m.only(["type", "to", "data"], in: "signal")
            guard member != nil else { throw ProtocolError("signal before join") }
            guard let to = try m.string("to"), !to.isEmpty else { throw ProtocolError("signal needs a \"to\"") }
            guard let data = try m.object("data") else { throw ProtocolError("signal needs a \"data\" object") }
            return [.signal(to: to, payload: try Signal.check(data, sender: capabilities))]
        case "muted_notice_off":
            try m.only(["type"], in: "muted_notice_off")
            microphone.silenceMutedNotice { [analysis] in Self.relay($0, analysis, emit) }
            return []
        case "resync":
            try m.only(["type"], in: "resync")
            return [.resync]
        case "microphone_test":
            let action = try MicrophoneTestRequest.action(of: m)
            guard analysis == .server else {
                throw ProtocolError("this connection analyses its microphone on the device, where its test is judged")
            }
            switch action {
            case .start(let seconds):
                if let refusal = microphone.startTest(seconds: seconds, now: now, emit: { emit(Self.message($0)) }) {
                    throw ProtocolError(refusal)
                }
            case .cancel:
                microphone.cancelTest { emit(Self.message($0)) }
            }
            return []
        case "speaking":
            // The page's own analysis says whether its participant speaks: a claim (Guides/Security.md).
            try m.only(["type", "speaking"], in: "speaking")
            guard analysis == .device else {
                throw ProtocolError("this connection's microphone is analysed by the server, which decides speaking")
            }
            guard let stated = try m.bool("speaking") else { throw ProtocolError("speaking needs true or false") }
            statedSpeaking = stated
            statedAt = now
            return memberChange().map { [$0] } ?? []
        case "mute":
            try m.only(["type", "id"], in: "mute")
            guard let member else { throw ProtocolError("mute before join") }
            guard let target = try m.string("id"), !target.isEmpty else { throw ProtocolError("mute needs an \"id\"") }
            guard capabilities.contains(.muteUsers) else {
                emit(Self.error("only a host may mute others; this participant's role may not"))
                return []
            }
            guard target != id else {
                emit(Self.error("to mute yourself, send devices with \"audio\": false"))
                return []
            }
            return [.signal(to: target, payload: Signal.mute(by: member.name))]
        case "keep_alive":
            // A page that sends no audio (its microphone denied) says it is still there.
            try m.only(["type"], in: "keep_alive")
            return []
        default:
            throw ProtocolError("unknown message type \"\(m.type)\"")
        }
    }

    /// A host muted this participant (the signal `Signal.mute(by:)` from `from`, relayed by presence): the
    /// microphone goes off with the cause `host`, the page is told who, and the notice applies. Returns the
    /// presence update.
    public mutating func mutedByHost(
        name: String, from: String, now: Double, emit: (Connection.Message) -> Void
    ) -> Action? {
        let cause = MuteCause.host(name: name)
        settings.audioOn = false
        microphone.setMicrophone(on: false, cause: cause, now: now, reporting: false) { [analysis] in
            Self.relay($0, analysis, emit)
        }
        emit(
            Connection.Message(
                text: JSONValue.object([
                    ("type", .string("muted_by_host")),
                    ("by", .object([("id", .string(from)), ("name", .string(name))])),
                    ("text", .string(cause.announcement ?? "")),
                ]).encoded, isLevel: false))
        microphone.report(now: now) { [analysis] in Self.relay($0, analysis, emit) }
        return memberChange()
    }

    static func error(_ message: String) -> Connection.Message {
        Connection.Message(
            text: JSONValue.object([("type", .string("error")), ("message", .string(message))]).encoded,
            isLevel: false)
    }

    /// Seconds without audio after which a participant is no longer speaking (`MicrophoneRules`'s).
    public static let speechStallTimeout = MicrophoneRules.speechStallTimeout

    /// The clock moved without audio (the connection's timer): the check may now warn of a stall, and a
    /// participant whose audio stopped mid-utterance stops speaking. Returns the presence update then.
    public mutating func tick(now: Double, emit: (Connection.Message) -> Void) -> Action? {
        guard analysis == .server else {
            guard statedSpeaking, now - statedAt >= Self.speechStallTimeout else { return nil }
            statedSpeaking = false
            return memberChange()
        }
        let wasSpeaking = speaking
        microphone.tick(now: now) { emit(Self.message($0)) }
        return wasSpeaking != speaking ? memberChange() : nil
    }

    /// The member's state after a change of toggles or speech, when it differs from what was published.
    private mutating func memberChange() -> Action? {
        guard var m = member else { return nil }
        m.audio = settings.audioOn
        m.video = settings.videoOn
        m.speaking = settings.audioOn && speaking
        guard m != member else { return nil }
        member = m
        return .update(m)
    }
}

/// WebRTC signalling data, checked before it is relayed: a session description or an ICE candidate.
package enum Signal {
    /// `sender`: what the sending participant may send; a description whose media sections send more is
    /// refused (a listener's page that adds a microphone and renegotiates). Nil: not checked (a signal
    /// from another node, which checked it).
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
