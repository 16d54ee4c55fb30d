/// A JSON value, as MicCheck writes it: numbers with a fixed count of decimals, so that records are
/// byte-stable across platforms and runs.
public enum JSONValue: Sendable, Equatable {
    /// A string, escaped as JSON requires.
    case string(String)
    /// An integer.
    case int(Int)
    /// A number written with exactly `decimals` decimals (half away from zero).
    case number(Double, decimals: Int)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array of values, in the order given.
    case array([JSONValue])
    /// An object; its fields are written in the order given.
    case object([(String, JSONValue)])

    /// Two values are equal when their JSON text is.
    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded == b.encoded }

    /// The value as JSON text: `{"key": value, ...}`, one space after each colon and comma.
    public var encoded: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .string(let s): JSONLines.appendString(s, to: &out)
        case .int(let n): out += String(n)
        case .number(let x, let decimals): out += x.isFinite ? fixed(x, decimals) : "null"
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += ", " }
                JSONLines.appendString(key, to: &out)
                out += ": "
                value.write(to: &out)
            }
            out += "}"
        }
    }
}

/// The one encoder of MicCheck's JSON Lines contract (DESIGN.md): a frame record every 10 ms and event
/// records, `t` in seconds from the start of the input. `analyze`, `listen`, the lobby's event log and
/// the server all write through it; readers ignore fields and events they do not know.
///
/// - frame: `{"t": 0.01, "level_db": -31.2, "prob": 0.930, "speech": true}`
/// - event: `{"event": "speech_started", "t": 1.23, "audio_start": 0.93}` and the others of
///   ``AnalysisEvent``, each with its own fields.
public enum JSONLines {
    /// A record of the analysis stream, as one line (without its newline).
    public static func line(_ record: AnalysisOutput) -> String {
        switch record {
        case .frame(let f): frame(f)
        case .event(let e): event(e)
        }
    }

    /// A frame record, as one line (without its newline): `t`, `level_db`, `prob` and `speech`.
    public static func frame(_ f: AnalysisFrame) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(72)
        appendFrame(f, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A frame record's line (without its newline) appended to `bytes` as UTF-8: what ``frame(_:)``
    /// returns, written without building strings (a record every 10 ms is most of what `analyze --format
    /// jsonl` writes; with a reserved buffer this allocates nothing).
    public static func appendFrame(_ f: AnalysisFrame, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"t": "#.utf8)
        appendFixed(f.time, 2, to: &bytes)
        bytes.append(contentsOf: #", "level_db": "#.utf8)
        appendFixed(Double(f.levelDB), 1, to: &bytes)
        bytes.append(contentsOf: #", "prob": "#.utf8)
        appendFixed(Double(f.probability), 3, to: &bytes)
        bytes.append(contentsOf: f.isSpeech ? #", "speech": true}"#.utf8 : #", "speech": false}"#.utf8)
    }

    /// A frame record for comparing two builds of the analysis (`analyze --format jsonl --precise`), which
    /// the contract's rounding would hide: the level and peak to 4 decimals, the probability to 6, and
    /// whether an utterance is in progress. `{"t": 0.12, "level_db": -31.2345, "peak_db": -20.5, …}`.
    public static func appendPreciseFrame(_ f: AnalysisFrame, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"t": "#.utf8)
        appendFixed(f.time, 2, to: &bytes)
        bytes.append(contentsOf: #", "level_db": "#.utf8)
        appendFixed(Double(f.levelDB), 4, to: &bytes)
        bytes.append(contentsOf: #", "peak_db": "#.utf8)
        appendFixed(Double(f.peakDB), 4, to: &bytes)
        bytes.append(contentsOf: #", "prob": "#.utf8)
        appendFixed(Double(f.probability), 6, to: &bytes)
        bytes.append(contentsOf: f.isSpeech ? #", "speech": true"#.utf8 : #", "speech": false"#.utf8)
        bytes.append(contentsOf: f.isSpeaking ? #", "speaking": true}"#.utf8 : #", "speaking": false}"#.utf8)
    }

    /// An event record, as one line (without its newline): `event`, `t`, then its own fields.
    public static func event(_ e: AnalysisEvent) -> String {
        JSONValue.object(eventFields(e)).encoded
    }

    /// An event's fields in the contract's order: `event`, `t`, then its own.
    public static func eventFields(_ e: AnalysisEvent) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("event", .string(e.name)), ("t", .number(e.time, decimals: 2))]
        switch e {
        case .speechStarted(_, let start):
            fields.append(("audio_start", .number(start, decimals: 2)))
        case .microphoneSilent(_, let signature):
            fields.append(("reason", .string(signature.rawValue)))
        case .noisyMicrophone(_, let noise, let db):
            fields.append(("noise", .string(noise?.rawValue ?? "unclear")))
            fields.append(("level_db", .number(Double(db), decimals: 1)))
        case .clipping(_, let ceiling, let share):
            fields.append(("ceiling_db", .number(Double(ceiling), decimals: 1)))
            fields.append(("clipped_percent", .number(Double(share) * 100, decimals: 2)))
        case .speechTooQuiet(_, let db), .speechLevelOK(_, let db):
            fields.append(("level_db", .number(Double(db), decimals: 1)))
        case .wrongSource(_, let source):
            fields.append(("source", .string(source)))
            fields.append(("reason", .string("monitor")))
        case .keyboardNoise(_, let typing):
            fields.append(("keystrokes", .int(typing.keystrokes)))
            fields.append(("per_second", .number(Double(typing.perSecond), decimals: 1)))
            fields.append(("level_db", .number(Double(typing.levelDB), decimals: 1)))
            fields.append(("since", .number(typing.since, decimals: 2)))
        case .speechEnded, .microphoneActive, .microphoneClean, .clippingEnded:
            break
        }
        return fields
    }

    /// An object of `fields`, in their order, as one line.
    public static func object(_ fields: [(String, JSONValue)]) -> String {
        JSONValue.object(fields).encoded
    }

    /// One file's summary (`analyze --format json`): its format, speech, loudness, the microphone's
    /// verdict, how often each warning was raised, and its events.
    public static func summary(
        file: String, format: AudioFormat, summary s: AnalysisSummary, events: [AnalysisEvent]
    ) -> String {
        var fields: [(String, JSONValue)] = [
            ("file", .string(file)),
            ("sample_rate", .int(format.sampleRate)),
            ("channels", .int(format.channels)),
            ("encoding", .string(format.encoding.description)),
            ("duration_s", .number(s.duration, decimals: 2)),
            ("speech_s", .number(s.speechTime, decimals: 2)),
            ("utterances", .int(s.utterances)),
            ("loudest_level_db", .number(Double(s.loudestLevelDB), decimals: 1)),
            ("loudest_peak_db", .number(Double(s.loudestPeakDB), decimals: 1)),
            ("microphone", .string(s.firstSilent == nil ? "works" : "dead")),
        ]
        if let first = s.firstSilent {
            fields.append(("dead_from", .number(first.time, decimals: 2)))
            fields.append(("dead_signature", .string(first.signature.rawValue)))
        }
        // How many times each warning was raised (wrong_source is live capture's alone).
        for kind in MicrophoneWarning.Kind.allCases where kind != .wrongSource {
            fields.append((kind.rawValue, .int(s.count(kind))))
        }
        fields.append(("events", .array(events.map { .object(eventFields($0)) })))
        return object(fields)
    }

    /// A JSON string literal.
    public static func string(_ s: String) -> String {
        var out = ""
        appendString(s, to: &out)
        return out
    }

    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    // utf8.count: Character counting would bring Unicode's grapheme tables into the page's wasm.
                    out += "\\u" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
