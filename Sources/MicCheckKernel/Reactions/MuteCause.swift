/// Why the user's microphone is muted in the call: it decides whether "You are muted." may show.
///
/// - ``selfMuted``: the user muted themselves; the notice shows as ``MutedSpeechNotice`` rules it.
/// - ``host(name:)``: a host muted them; they need the notice most, and it always applies (a "don't
///   show again" does not silence it), naming who muted them.
/// - ``pushToTalk``: the user talks by holding (or pressing) a key; between presses they know they are
///   muted, and no notice shows (Jitsi's push-to-talk users got one on every release of the key).
public enum MuteCause: Sendable, Hashable {
    /// The user muted themselves.
    case selfMuted
    /// A host muted the user; `name`: who.
    case host(name: String)
    /// The user talks by push-to-talk: muted between presses of the key.
    case pushToTalk

    /// The cause's name in the protocols: `self`, `host` or `push-to-talk`.
    public var name: String {
        switch self {
        case .selfMuted: "self"
        case .host: "host"
        case .pushToTalk: "push-to-talk"
        }
    }

    /// Whether a speech start while muted for this cause may show the notice.
    public var allowsNotice: Bool { self != .pushToTalk }

    /// "NAME muted you." for a host's mute; nil otherwise.
    public var announcement: String? {
        if case .host(let name) = self { return "\(name) muted you." }
        return nil
    }
}
