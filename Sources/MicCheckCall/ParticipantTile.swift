/// What a participant's tile shows: their video, or a fallback; and whether it has a speaking border.
public struct ParticipantTile: Sendable, Hashable {
    /// The tile's main content.
    public enum Content: Sendable, Hashable {
        /// The participant's video.
        case video
        /// No video to show: their avatar when they have one, otherwise their initials.
        case fallback(initials: String, imageURL: String?)
    }

    /// Whom the tile shows.
    public let participant: Participant
    /// Their video, or the fallback.
    public let content: Content
    /// Draw the speaking border: they speak and the call has more than one participant (alone in a
    /// call, a border says nothing).
    public let showsSpeakingBorder: Bool

    /// - Parameters:
    ///   - participantCount: everyone in the call, the local user included.
    ///   - isVideoShown: the app shows this participant's video track (it may hide tracks that are off
    ///     screen, or when the user turned incoming video off).
    public init(participant: Participant, participantCount: Int, isVideoShown: Bool = true) {
        self.participant = participant
        if participant.hasVideo && isVideoShown && !participant.isTrackPaused {
            content = .video
        } else {
            content = .fallback(initials: participant.initials, imageURL: participant.imageURL)
        }
        showsSpeakingBorder = participant.isSpeaking && participantCount > 1
    }
}
