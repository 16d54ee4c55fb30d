extension MicrophoneTestVerdict {
    /// The verdict as JSON fields, the same in the lobby's event log and the server's `microphone_test`:
    /// `verdict`, `sentence`, `recorded_seconds`, `speech_seconds`, `speech_level_db`, `noise_level_db`
    /// (null when unknown), then `noise`, `clipped_percent` and `ceiling_db`, `reason` where they apply.
    /// - Parameter source: names the microphone in the sentence.
    public func jsonFields(source: String? = nil) -> [(String, JSONValue)] {
        func db(_ v: Float?) -> JSONValue { v.map { .number(Double($0), decimals: 1) } ?? .null }
        var f: [(String, JSONValue)] = [
            ("verdict", .string(kind.rawValue)), ("sentence", .string(sentence(source: source))),
            ("recorded_seconds", .number(recordedSeconds, decimals: 2)),
            ("speech_seconds", .number(speechSeconds, decimals: 2)), ("speech_level_db", db(speechLevelDB)),
            ("noise_level_db", db(noiseLevelDB)),
        ]
        if let noise { f.append(("noise", .string(noise.rawValue))) }
        if let clipping {
            f.append(("clipped_percent", .number(Double(clipping.share) * 100, decimals: 2)))
            f.append(("ceiling_db", .number(Double(clipping.ceilingDB), decimals: 1)))
        }
        if let dead { f.append(("reason", .string(dead.rawValue))) }
        return f
    }
}
