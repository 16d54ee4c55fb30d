public import Foundation
public import MicCheck

/// A call as a file describes it: its id, what it grants the local user, and who is in it, with an
/// optional script of when each participant speaks (for demos and tests, until a live call server
/// provides this).
///
/// ```json
/// {
///   "id": "standup",
///   "capabilities": ["send-audio", "send-video"],
///   "scriptLength": 12,
///   "participants": [
///     {"id": "ada", "name": "Ada Lovelace", "video": true, "speaking": [[0.5, 3.0], [7, 8.5]]},
///     {"id": "alan", "name": "Alan Turing", "video": true, "trackPaused": true},
///     {"id": "grace", "name": "Grace Hopper", "image": "https://example.com/grace.png"}
///   ]
/// }
/// ```
public struct CallDescription: Sendable, Hashable, Codable {
    /// A participant as the file describes them.
    public struct Member: Sendable, Hashable, Codable {
        /// Their id, unique in the call and never empty.
        public var id: String
        /// The name people read.
        public var name: String
        /// An avatar (a URL or a path), shown in place of video; nil for none.
        public var image: String?
        /// They publish video (default false).
        public var video: Bool
        /// Their video track is paused (default false).
        public var trackPaused: Bool
        /// Intervals, in seconds from the start of the script, when they speak.
        public var speaking: [[Double]]

        /// A participant; each entry of `speaking` is [start, end] in seconds from the start of the script.
        public init(
            id: String, name: String, image: String? = nil, video: Bool = false, trackPaused: Bool = false,
            speaking: [[Double]] = []
        ) {
            self.id = id
            self.name = name
            self.image = image
            self.video = video
            self.trackPaused = trackPaused
            self.speaking = speaking
        }

        /// Reads a participant: only "id" and "name" are required.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            name = try c.decode(String.self, forKey: .name)
            image = try c.decodeIfPresent(String.self, forKey: .image)
            video = try c.decodeIfPresent(Bool.self, forKey: .video) ?? false
            trackPaused = try c.decodeIfPresent(Bool.self, forKey: .trackPaused) ?? false
            speaking = try c.decodeIfPresent([[Double]].self, forKey: .speaking) ?? []
        }
    }

    /// The call's id, never empty: the permission prompt dismissals are kept under it.
    public var id: String
    /// What the call grants the local user (in a file, `send-audio` and `send-video` when not given).
    public var capabilities: Set<OwnCapability>
    /// Who is in the call, with their speaking script.
    public var participants: [Member]
    /// The script repeats every this many seconds (nil: it plays once).
    public var scriptLength: Double?

    /// A call; with a nil `scriptLength` the script plays once.
    public init(id: String, capabilities: Set<OwnCapability>, participants: [Member], scriptLength: Double? = nil) {
        self.id = id
        self.capabilities = capabilities
        self.participants = participants
        self.scriptLength = scriptLength
    }

    /// Reads a call without checking it (`decode(_:)` checks): only "id" is required, and "capabilities"
    /// are `send-audio` and `send-video` when not given.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        capabilities =
            try c.decodeIfPresent(Set<OwnCapability>.self, forKey: .capabilities) ?? [.sendAudio, .sendVideo]
        participants = try c.decodeIfPresent([Member].self, forKey: .participants) ?? []
        scriptLength = try c.decodeIfPresent(Double.self, forKey: .scriptLength)
    }

    /// A call file that cannot be used, with one sentence saying why.
    public struct Invalid: MicCheckError, Sendable {
        /// Why the file cannot be used, in one sentence.
        public let description: String
    }

    /// Reads and checks a call description.
    public static func decode(_ data: Data) throws(Invalid) -> CallDescription {
        let call: CallDescription
        do {
            call = try JSONDecoder().decode(CallDescription.self, from: data)
        } catch {
            throw Invalid(description: DecodingError.sentence(for: error, whole: "the call"))
        }
        try call.validate()
        return call
    }

    private func validate() throws(Invalid) {
        if id.trimmingCharacters(in: .whitespaces).isEmpty { throw Invalid(description: "\"id\" is empty") }
        if let scriptLength, !(scriptLength > 0 && scriptLength.isFinite) {
            throw Invalid(description: "\"scriptLength\" must be a positive number of seconds")
        }
        var seen = Set<String>()
        for (k, m) in participants.enumerated() {
            if m.id.isEmpty { throw Invalid(description: "participant \(k + 1) has an empty \"id\"") }
            if !seen.insert(m.id).inserted { throw Invalid(description: "two participants have the id \"\(m.id)\"") }
            for span in m.speaking {
                guard span.count == 2, span[0] >= 0, span[1] > span[0], span[1].isFinite else {
                    throw Invalid(
                        description:
                            "participant \"\(m.id)\": each \"speaking\" entry must be [start, end] in seconds, with 0 ≤ start < end"
                    )
                }
            }
        }
    }

    /// The participants at `time` seconds into the script: who speaks, and a lively level while they do.
    public func participants(at time: Double) -> [Participant] {
        let t = scriptLength.map { time.truncatingRemainder(dividingBy: $0) } ?? time
        return participants.map { m in
            let speaking = m.speaking.contains { $0.count == 2 && t >= $0[0] && t < $0[1] }
            // Syllable-like movement, about 4 per second, so the meters look alive.
            let level: Float = speaking ? Float(0.55 + 0.35 * abs(sin(t * 12.6 + Double(m.id.count)))) : 0
            return Participant(
                id: m.id, name: m.name, imageURL: m.image, hasVideo: m.video, isTrackPaused: m.trackPaused,
                isSpeaking: speaking, audioLevel: level)
        }
    }

    /// The demo call of `miccheck lobby --demo`: three people whose speaking follows a 12 s script.
    public static let demo = CallDescription(
        id: "demo",
        capabilities: [.sendAudio, .sendVideo],
        participants: [
            Member(id: "ada", name: "Ada Lovelace", video: true, speaking: [[0.5, 3.2], [8.6, 9.8]]),
            Member(id: "alan", name: "Alan Turing", video: true, trackPaused: true, speaking: [[3.6, 6.0]]),
            Member(id: "grace", name: "Grace Hopper", speaking: [[6.3, 8.3], [10.2, 11.6]]),
        ],
        scriptLength: 12)
}
