import MicCheck

/// Someone in the call, as the tiles and the lobby show them.
public struct Participant: Sendable, Hashable, Identifiable {
    /// Unique in the call.
    public var id: String
    /// The name people read; the fallback tile shows its initials.
    public var name: String
    /// An avatar (a URL or a path), shown in place of video when there is one.
    public var imageURL: String?
    /// The participant publishes video.
    public var hasVideo: Bool
    /// Their video track is paused (by them, or by the call for bandwidth).
    public var isTrackPaused: Bool
    /// They are speaking now.
    public var isSpeaking: Bool
    /// How loud they are, 0…1 (see ``Participant/displayLevel(decibels:)``).
    public var audioLevel: Float
    /// This is the user of this app.
    public var isLocalUser: Bool

    /// A participant; by default without video, silent, and not the local user.
    public init(
        id: String, name: String, imageURL: String? = nil, hasVideo: Bool = false, isTrackPaused: Bool = false,
        isSpeaking: Bool = false, audioLevel: Float = 0, isLocalUser: Bool = false
    ) {
        self.id = id
        self.name = name
        self.imageURL = imageURL
        self.hasVideo = hasVideo
        self.isTrackPaused = isTrackPaused
        self.isSpeaking = isSpeaking
        self.audioLevel = audioLevel
        self.isLocalUser = isLocalUser
    }

    /// Up to two letters for the fallback tile: the first letters of the first and last words of the
    /// name ("Ada Lovelace" → "AL", "cher" → "C"); "?" when the name has no letter or digit.
    public var initials: String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        guard let first = words.first?.first else { return "?" }
        guard words.count > 1, let last = words.last?.first else { return first.uppercased() }
        return first.uppercased() + last.uppercased()
    }

    /// Maps a level in dBFS to 0…1 for display, the way phone SDKs do: -50 dB and below is 0, 0 dB is
    /// 1, linear in between.
    public static func displayLevel(decibels: Float) -> Float { Decibels.displayLevel(decibels) }
}
