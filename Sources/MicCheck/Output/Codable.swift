// The analysis's records and the microphone test's verdict as Codable values, with the JSON Lines contract's
// keys and values (DESIGN.md): a record decoded from a line of `miccheck analyze --format jsonl` writes that
// line again, byte for byte, through `JSONLines`. The contract writes numbers with a fixed count of decimals
// and one space after each colon and comma, which JSONEncoder does not: `JSONLines` stays the writer of the
// contract; JSONEncoder writes the same keys and the same rounded values in its own layout. A value goes
// through the contract's precision (a level to 0.1 dB, a probability to 0.001): a record decoded from a line
// equals the line's values, not the unrounded ones it was written from.
//
// The conformances live here, not in the kernel, which has no Codable (it builds with Embedded Swift).

/// A key of a record's object, by its name in the contract.
struct RecordKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The value of `key`, when present, as one MicCheck writes (a noise kind, a dead microphone's reason); another
/// is an error.
private func knownValue<T: RawRepresentable>(
    _ c: KeyedDecodingContainer<RecordKey>, _ key: String, as type: T.Type
) throws -> T? where T.RawValue == String {
    guard let text = try c.decodeIfPresent(String.self, forKey: RecordKey(key)) else { return nil }
    guard let value = T(rawValue: text) else {
        throw DecodingError.dataCorruptedError(
            forKey: RecordKey(key), in: c, debugDescription: "\(key) \"\(text)\" is not one MicCheck writes")
    }
    return value
}

extension JSONValue: Encodable {
    /// The value as the contract writes it: a number rounded to its decimals (not finite: null), an object's
    /// fields in their order.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let fields):
            var container = encoder.container(keyedBy: RecordKey.self)
            for (key, value) in fields { try container.encode(value, forKey: RecordKey(key)) }
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .string(let s):
            var container = encoder.singleValueContainer()
            try container.encode(s)
        case .int(let n):
            var container = encoder.singleValueContainer()
            try container.encode(n)
        case .number(let x, let decimals):
            var container = encoder.singleValueContainer()
            if x.isFinite, let rounded = Double(fixed(x, decimals)) {
                try container.encode(rounded)
            } else {
                try container.encodeNil()
            }
        case .bool(let b):
            var container = encoder.singleValueContainer()
            try container.encode(b)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}

extension AnalysisFrame: Codable {
    /// The contract's fields: `t`, `level_db`, `prob`, `speech`.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object([
            ("t", .number(time, decimals: 2)), ("level_db", .number(Double(levelDB), decimals: 1)),
            ("prob", .number(Double(probability), decimals: 3)), ("speech", .bool(isSpeech)),
        ]).encode(to: encoder)
    }

    /// A frame from the contract's fields. The contract carries neither the peak nor whether an utterance
    /// is in progress: a decoded frame's `peakDB` is its level and `isSpeaking` is false; its `index` is
    /// its time in frames.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: RecordKey.self)
        let time = try c.decode(Double.self, forKey: RecordKey("t"))
        let level = try c.decode(Float.self, forKey: RecordKey("level_db"))
        self.init(
            index: Int((time * Double(LevelMeter.framesPerSecond)).rounded()), time: time, levelDB: level,
            peakDB: level, probability: try c.decode(Float.self, forKey: RecordKey("prob")),
            isSpeech: try c.decode(Bool.self, forKey: RecordKey("speech")), isSpeaking: false)
    }
}

extension AnalysisEvent: Codable {
    /// The contract's fields: `event` (its `name`), `t`, then the event's own.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(JSONLines.eventFields(self)).encode(to: encoder)
    }

    /// An event from the contract's fields.
    /// - Throws: `DecodingError.dataCorrupted` for an event this version does not know (a reader of a newer
    ///   writer's records skips it: the contract lets readers ignore events they do not know).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: RecordKey.self)
        func value<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T {
            try c.decode(T.self, forKey: RecordKey(key))
        }
        func raw<T: RawRepresentable>(_ key: String, as type: T.Type) throws -> T where T.RawValue == String {
            guard let v = try knownValue(c, key, as: T.self) else {
                throw DecodingError.keyNotFound(
                    RecordKey(key), .init(codingPath: c.codingPath, debugDescription: "\(key) is missing"))
            }
            return v
        }
        let name: String = try value("event")
        let t: Double = try value("t")
        switch name {
        case "speech_started": self = .speechStarted(time: t, audioStart: try value("audio_start"))
        case "speech_ended": self = .speechEnded(time: t)
        case "microphone_silent":
            self = .microphoneSilent(time: t, signature: try raw("reason", as: DeadMicrophoneSignature.self))
        case "microphone_active": self = .microphoneActive(time: t)
        case "noisy_microphone":
            let noise: String = try value("noise")
            self = .noisyMicrophone(
                time: t, noise: noise == "unclear" ? nil : try raw("noise", as: NoiseKind.self),
                levelDB: try value("level_db"))
        case "microphone_clean": self = .microphoneClean(time: t)
        case "clipping":
            let percent: Float = try value("clipped_percent")
            self = .clipping(time: t, ceilingDB: try value("ceiling_db"), share: percent / 100)
        case "clipping_ended": self = .clippingEnded(time: t)
        case "speech_too_quiet": self = .speechTooQuiet(time: t, levelDB: try value("level_db"))
        case "speech_level_ok": self = .speechLevelOK(time: t, levelDB: try value("level_db"))
        case "wrong_source": self = .wrongSource(time: t, source: try value("source"))
        case "keyboard_noise":
            self = .keyboardNoise(
                time: t,
                typing: KeyboardNoiseDetector.Typing(
                    keystrokes: try value("keystrokes"), perSecond: try value("per_second"),
                    levelDB: try value("level_db"), since: try value("since")))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: RecordKey("event"), in: c, debugDescription: "\"\(name)\" is not an event MicCheck knows")
        }
    }
}

extension AnalysisOutput: Codable {
    /// A frame's or an event's fields, as its line in the contract.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .frame(let f): try f.encode(to: encoder)
        case .event(let e): try e.encode(to: encoder)
        }
    }

    /// A line of the contract: an event when it has an `event` field, a frame otherwise.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: RecordKey.self)
        self =
            c.contains(RecordKey("event"))
            ? .event(try AnalysisEvent(from: decoder)) : .frame(try AnalysisFrame(from: decoder))
    }
}

extension MicrophoneTestVerdict: Codable {
    /// The verdict's fields as the lobby's event log and the server's `microphone_test` write them
    /// (`jsonFields(source:)`), its sentence included.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(jsonFields()).encode(to: encoder)
    }

    /// A verdict from those fields (the sentence is made again from the figures, not read).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: RecordKey.self)
        let kindName = try c.decode(String.self, forKey: RecordKey("verdict"))
        guard let kind = Kind(rawValue: kindName) else {
            throw DecodingError.dataCorruptedError(
                forKey: RecordKey("verdict"), in: c, debugDescription: "\"\(kindName)\" is not a verdict MicCheck gives"
            )
        }
        var clipping: Clipping?
        if let percent = try c.decodeIfPresent(Float.self, forKey: RecordKey("clipped_percent")) {
            clipping = Clipping(
                ceilingDB: try c.decode(Float.self, forKey: RecordKey("ceiling_db")), share: percent / 100)
        }
        self.init(
            kind: kind, recordedSeconds: try c.decode(Double.self, forKey: RecordKey("recorded_seconds")),
            speechSeconds: try c.decode(Double.self, forKey: RecordKey("speech_seconds")),
            speechLevelDB: try c.decodeIfPresent(Float.self, forKey: RecordKey("speech_level_db")),
            noiseLevelDB: try c.decodeIfPresent(Float.self, forKey: RecordKey("noise_level_db")),
            noise: try knownValue(c, "noise", as: NoiseKind.self), clipping: clipping,
            dead: try knownValue(c, "reason", as: DeadMicrophoneSignature.self))
    }
}
