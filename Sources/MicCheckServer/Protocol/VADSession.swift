public import MicCheck

/// The streaming voice activity endpoint's protocol (`GET /v1/vad`), for one connection, without the
/// network: 16-bit PCM in, JSON events out. The server feeds it each message; tests feed it directly.
///
/// Shaped after OpenAI Realtime's server VAD (`audio_start_ms` including the prefix padding, settings that
/// change in-stream) and Deepgram's streaming API (`keep_alive`, `close_stream`, an idle stream closed).
/// Times are audio time: milliseconds of audio received, from the start of the stream.
///
/// Out (text, one JSON object each, with a `type`):
/// - `session.created` / `session.updated`: the effective settings;
/// - `level` every 100 ms of audio: the loudest 10 ms level and peak (dBFS) and the highest speech
///   probability of those 100 ms, and whether an utterance is in progress;
/// - `speech_started` (`audio_ms`: when it was decided; `audio_start_ms`: where its audio begins) and
///   `speech_stopped` (`audio_end_ms`); while `muted` is on they come as `muted_speech_started` (with
///   `notice`: whether to show "You are muted." now, by `MutedSpeechNotice`'s rules) and
///   `muted_speech_stopped`;
/// - the microphone's events under their JSON Lines names (`microphone_silent`, `microphone_active`,
///   `noisy_microphone`, ...), with `audio_ms` and the same fields;
/// - `session.closed` after `close_stream`, once the last events are out.
///
/// In: binary messages of PCM (signed 16-bit little-endian, mono, at `sample_rate`); text messages
/// `{"type": "session.update", "session": {...}}`, `{"type": "keep_alive"}`, `{"type": "close_stream"}`,
/// and `{"type": "microphone_test", "action": "start"}` / `"cancel"` ("Test your microphone", answered with
/// `microphone_test` messages: `MicrophoneTestRequest`; a test still recording when the stream closes is
/// judged on what came).
/// Anything else breaks the protocol (``ProtocolError``, close 1008).
public struct VADSession: Sendable {
    /// What a client may set, at connection (query parameters of the same names) or in-stream.
    public struct Settings: Sendable, Equatable {
        /// Samples per second of the PCM the client sends (8 to 96 kHz).
        public var sampleRate = 16_000
        /// Speech probability at or above which frames start speech, and below which they end it.
        public var threshold = Double(SpeechEventDetector.Configuration.default.startThreshold)
        /// Audio before the start decision that belongs to the utterance.
        public var prefixPaddingMs = Int((SpeechEventDetector.Configuration.default.prefixPadding * 1000).rounded())
        /// Below the threshold this long ends speech.
        public var silenceDurationMs = Int((SpeechEventDetector.Configuration.default.hangover * 1000).rounded())
        /// Above the threshold this long starts speech.
        public var minSpeechMs = Int((SpeechEventDetector.Configuration.default.minimumSpeech * 1000).rounded())
        /// The user is muted: speech comes as `muted_speech_started` / `muted_speech_stopped`.
        public var muted = false

        /// The defaults: 16 kHz, the detector's default threshold and times, not muted.
        public init() {}

        static let names: Set<String> = [
            "sample_rate", "threshold", "prefix_padding_ms", "silence_duration_ms", "min_speech_ms", "muted",
        ]

        /// The detector's configuration these settings make.
        public var speech: SpeechEventDetector.Configuration {
            var c = SpeechEventDetector.Configuration.default
            c.startThreshold = Float(threshold)
            c.endThreshold = Float(threshold)
            c.prefixPadding = Double(prefixPaddingMs) / 1000
            c.hangover = Double(silenceDurationMs) / 1000
            c.minimumSpeech = Double(minSpeechMs) / 1000
            return c
        }

        /// Applies the fields of `message` (strings or numbers, as a query string or JSON gives them).
        mutating func apply(_ message: ClientMessage) throws(ProtocolError) {
            try message.only(Self.names, in: "the session")
            if let rate = try message.number("sample_rate") {
                guard let r = Int(exactly: rate), AudioFormat.supportedSampleRates.contains(r) else {
                    let rates = AudioFormat.supportedSampleRates
                    throw ProtocolError(
                        "sample_rate must be a whole number from \(rates.lowerBound) to \(rates.upperBound)")
                }
                sampleRate = r
            }
            if let t = try message.number("threshold") {
                guard t > 0, t <= 1 else { throw ProtocolError("threshold must be above 0 and at most 1") }
                threshold = t
            }
            prefixPaddingMs = try Self.milliseconds(message, "prefix_padding_ms", 0...10_000) ?? prefixPaddingMs
            silenceDurationMs = try Self.milliseconds(message, "silence_duration_ms", 10...10_000) ?? silenceDurationMs
            minSpeechMs = try Self.milliseconds(message, "min_speech_ms", 10...5_000) ?? minSpeechMs
            muted = try message.bool("muted") ?? muted
        }

        private static func milliseconds(
            _ m: ClientMessage, _ key: String, _ range: ClosedRange<Int>
        ) throws(ProtocolError) -> Int? {
            guard let v = try m.number(key) else { return nil }
            guard let ms = Int(exactly: v), range.contains(ms) else {
                throw ProtocolError("\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return ms
        }

        /// Settings from a URL's query (`sample_rate=16000&muted=true`).
        public init(query: [(String, String)]) throws(ProtocolError) {
            var fields: [String: JSONInput] = [:]
            for (key, value) in query {
                if key == "muted" {
                    guard value == "true" || value == "false" else {
                        throw ProtocolError("muted must be true or false")
                    }
                    fields[key] = .bool(value == "true")
                } else if let n = Double(value) {
                    fields[key] = .number(n)
                } else {
                    throw ProtocolError(
                        Self.names.contains(key) ? "\(key) must be a number" : "the session has no field \"\(key)\"")
                }
            }
            try apply(ClientMessage(fields: fields, type: "query"))
        }

        var json: JSONValue {
            .object([
                ("sample_rate", .int(sampleRate)), ("encoding", .string("pcm_s16le")), ("channels", .int(1)),
                ("threshold", .number(threshold, decimals: 2)), ("prefix_padding_ms", .int(prefixPaddingMs)),
                ("silence_duration_ms", .int(silenceDurationMs)), ("min_speech_ms", .int(minSpeechMs)),
                ("muted", .bool(muted)),
            ])
        }
    }

    /// What a text message asks of the connection.
    public enum Request: Sendable, Equatable {
        /// Nothing: the stream goes on.
        case none
        /// `close_stream`: the last events are out; close normally.
        case close
    }

    /// Milliseconds of audio a `level` message covers (announced as `level_interval_ms`).
    public static let levelIntervalMs = 100

    /// The effective settings, from the connection or the last `session.update`.
    public private(set) var settings: Settings
    /// Limits the connection announces in `session.created`.
    public let limits: [(String, JSONValue)]
    private var stream: StreamingAnalysis
    private var messages: Translator
    private var pcm: [Float] = []
    private var samplesIn = 0
    private var streamStartMs = 0.0
    private var closed = false
    private var microphoneTest = MicrophoneTestRequest()

    /// - Parameter limits: what the server enforces (message size, idle timeout), announced to the client.
    public init(
        settings: Settings = Settings(), model: VoiceActivityModel = .bundled,
        limits: [(String, JSONValue)] = []
    ) throws(ProtocolError) {
        self.settings = settings
        self.limits = limits
        var analysis = AnalysisConfiguration()
        analysis.speech = settings.speech
        do {
            stream = try StreamingAnalysis(sampleRate: settings.sampleRate, configuration: analysis, model: model)
        } catch {
            throw ProtocolError("the stream: \(error)")
        }
        messages = Translator(notice: MutedSpeechNotice(isMuted: settings.muted))
    }

    /// The first message: `session.created` with the effective settings.
    public func created() -> ServerMessage {
        var session = settings.json
        if case .object(var fields) = session {
            fields.append(("level_interval_ms", .int(Self.levelIntervalMs)))
            fields += limits
            session = .object(fields)
        }
        return ServerMessage(
            text: JSONValue.object([("type", .string("session.created")), ("session", session)]).encoded, isLevel: false
        )
    }

    /// Milliseconds of audio received.
    public var audioMs: Double { streamStartMs + Double(samplesIn) * 1000 / Double(settings.sampleRate) }

    /// A binary message: PCM samples.
    public mutating func audio(
        _ bytes: UnsafeRawBufferPointer, emit: (ServerMessage) -> Void
    ) throws(ProtocolError) {
        guard !closed else { throw ProtocolError("audio after close_stream") }
        let n = try PCM16.decode(bytes, into: &pcm)
        samplesIn += n
        pcm.withUnsafeBufferPointer { b in
            let block = UnsafeBufferPointer(rebasing: b[0..<n])
            microphoneTest.feed(block, emit: emit)
            Self.analyse(block, &stream, &messages, emit)
        }
    }

    // Disjoint stored properties as inout arguments: the analysis and the translation side by side.
    private static func analyse(
        _ samples: UnsafeBufferPointer<Float>, _ stream: inout StreamingAnalysis,
        _ messages: inout Translator, _ emit: (ServerMessage) -> Void
    ) {
        stream.process(samples) { messages.translate($0, emit) }
    }

    /// A text message.
    public mutating func text(_ text: String, emit: (ServerMessage) -> Void) throws(ProtocolError) -> Request {
        let m = try ClientMessage(text)
        guard !closed else { throw ProtocolError("\(m.type) after close_stream") }
        switch m.type {
        case "keep_alive":
            try m.only(["type"], in: "keep_alive")
            return .none
        case "session.update":
            try m.only(["type", "session"], in: "session.update")
            guard let session = try m.object("session") else {
                throw ProtocolError("session.update needs a \"session\" object")
            }
            var next = settings
            try next.apply(session)
            try update(to: next, emit: emit)
            emit(
                ServerMessage(
                    text: JSONValue.object([("type", .string("session.updated")), ("session", settings.json)]).encoded,
                    isLevel: false))
            return .none
        case "microphone_test":
            try microphoneTest.handle(m, sampleRate: settings.sampleRate, now: audioMs / 1000, emit: emit)
            return .none
        case "close_stream":
            try m.only(["type"], in: "close_stream")
            finish(emit: emit)
            emit(
                ServerMessage(
                    text: JSONValue.object([
                        ("type", .string("session.closed")), ("audio_ms", .int(Int(audioMs.rounded()))),
                    ]).encoded, isLevel: false))
            return .close
        default:
            throw ProtocolError("unknown message type \"\(m.type)\"")
        }
    }

    /// The stream ends (close_stream, or the connection went): the last events go out.
    public mutating func finish(emit: (ServerMessage) -> Void) {
        guard !closed else { return }
        closed = true
        Self.finish(&stream, &messages, emit)
        microphoneTest.finish(emit: emit)
    }

    private static func finish(
        _ stream: inout StreamingAnalysis, _ messages: inout Translator, _ emit: (ServerMessage) -> Void
    ) {
        stream.finish { messages.translate($0, emit) }
    }

    private static func restart(
        _ stream: inout StreamingAnalysis, _ messages: inout Translator, rate: Int, at seconds: Double,
        _ emit: (ServerMessage) -> Void
    ) throws(AnalysisError) {
        try stream.restart(sampleRate: rate, notBefore: seconds) { messages.translate($0, emit) }
    }

    private mutating func update(to next: Settings, emit: (ServerMessage) -> Void) throws(ProtocolError) {
        if next.sampleRate != settings.sampleRate {
            // A new rate starts a new stream where the audio so far ends: audio time keeps counting. A
            // microphone test is judged on what it had.
            microphoneTest.finish(emit: emit)
            let endMs = audioMs
            do {
                try Self.restart(&stream, &messages, rate: next.sampleRate, at: endMs / 1000, emit)
            } catch {
                throw ProtocolError("the stream: \(error)")
            }
            streamStartMs = stream.startTime * 1000
            samplesIn = 0
        }
        if next.speech != settings.speech { stream.updateSpeech(next.speech) }
        if next.muted != settings.muted { messages.notice.isMuted = next.muted }
        settings = next
    }
}

extension VADSession {
    /// Turns analysis records into messages: levels gathered over 100 ms, events named for this protocol.
    struct Translator: Sendable {
        var notice: MutedSpeechNotice
        var levelDB = Decibels.floor
        var peakDB = Decibels.floor
        var probability: Float = 0
        var framesInLevel = 0
        /// The utterance in progress started while muted.
        var mutedUtterance = false

        /// A record of the analysis as this protocol's messages.
        mutating func translate(_ record: AnalysisOutput, _ emit: (ServerMessage) -> Void) {
            switch record {
            case .frame(let f):
                levelDB = framesInLevel == 0 ? f.levelDB : max(levelDB, f.levelDB)
                peakDB = framesInLevel == 0 ? f.peakDB : max(peakDB, f.peakDB)
                probability = framesInLevel == 0 ? f.probability : max(probability, f.probability)
                framesInLevel += 1
                guard framesInLevel * 10 >= VADSession.levelIntervalMs else { return }
                framesInLevel = 0
                let level = JSONValue.object([
                    ("type", .string("level")), ("audio_ms", .int(Self.ms(f.time + 0.01))),
                    ("level_db", .number(Double(levelDB), decimals: 1)),
                    ("peak_db", .number(Double(peakDB), decimals: 1)),
                    ("speech_probability", .number(Double(probability), decimals: 3)),
                    ("speaking", .bool(f.isSpeaking)),
                ])
                emit(ServerMessage(text: level.encoded, isLevel: true))
            case .event(let e):
                emit(ServerMessage(text: eventMessage(e).encoded, isLevel: false))
            }
        }

        private mutating func eventMessage(_ e: AnalysisEvent) -> JSONValue {
            switch e {
            case .speechStarted(let t, let start):
                if notice.isMuted {
                    mutedUtterance = true
                    let show = notice.speechStarted(at: t)
                    return .object([
                        ("type", .string("muted_speech_started")), ("audio_ms", .int(Self.ms(t))),
                        ("audio_start_ms", .int(Self.ms(start))), ("notice", .bool(show)),
                    ])
                }
                return .object([
                    ("type", .string("speech_started")), ("audio_ms", .int(Self.ms(t))),
                    ("audio_start_ms", .int(Self.ms(start))),
                ])
            case .speechEnded(let t):
                // An utterance keeps the name it started with, though `muted` changed in between.
                let name = mutedUtterance ? "muted_speech_stopped" : "speech_stopped"
                mutedUtterance = false
                return .object([
                    ("type", .string(name)), ("audio_ms", .int(Self.ms(t))), ("audio_end_ms", .int(Self.ms(t))),
                ])
            default:
                // The microphone's events: the JSON Lines fields, `t` as `audio_ms`.
                var fields: [(String, JSONValue)] = [("type", .string(e.name)), ("audio_ms", .int(Self.ms(e.time)))]
                fields += JSONLines.eventFields(e).dropFirst(2)
                return .object(fields)
            }
        }

        private static func ms(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
    }
}
