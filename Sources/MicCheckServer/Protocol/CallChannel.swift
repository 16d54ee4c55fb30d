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
/// when the user speaks or mutes), and the presence events (`PresenceEvent`) that the connection relays.
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
    public func welcome(call: String) -> ServerMessage {
        ServerMessage(
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
        _ bytes: UnsafeRawBufferPointer, now: Double, emit: (ServerMessage) -> Void
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

    static func message(_ m: MicrophoneChannel.Message) -> ServerMessage {
        ServerMessage(text: m.text, isLevel: m.isLevel)
    }

    /// The microphone's messages go to a page whose microphone the server analyses; a page that analyses its
    /// own makes them itself.
    private static func relay(
        _ m: MicrophoneChannel.Message, _ analysis: Analysis, _ emit: (ServerMessage) -> Void
    ) {
        if analysis == .server { emit(message(m)) }
    }

    /// A text message.
    public mutating func text(
        _ text: String, now: Double, emit: (ServerMessage) -> Void
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
        name: String, from: String, now: Double, emit: (ServerMessage) -> Void
    ) -> Action? {
        let cause = MuteCause.host(name: name)
        settings.audioOn = false
        microphone.setMicrophone(on: false, cause: cause, now: now, reporting: false) { [analysis] in
            Self.relay($0, analysis, emit)
        }
        emit(
            ServerMessage(
                text: JSONValue.object([
                    ("type", .string("muted_by_host")),
                    ("by", .object([("id", .string(from)), ("name", .string(name))])),
                    ("text", .string(cause.announcement ?? "")),
                ]).encoded, isLevel: false))
        microphone.report(now: now) { [analysis] in Self.relay($0, analysis, emit) }
        return memberChange()
    }

    static func error(_ message: String) -> ServerMessage {
        ServerMessage(
            text: JSONValue.object([("type", .string("error")), ("message", .string(message))]).encoded,
            isLevel: false)
    }

    /// Seconds without audio after which a participant is no longer speaking (`MicrophoneRules`'s).
    public static let speechStallTimeout = MicrophoneRules.speechStallTimeout

    /// The clock moved without audio (the connection's timer): the check may now warn of a stall, and a
    /// participant whose audio stopped mid-utterance stops speaking. Returns the presence update then.
    public mutating func tick(now: Double, emit: (ServerMessage) -> Void) -> Action? {
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
