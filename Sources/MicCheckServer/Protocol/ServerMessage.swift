public import MicCheckPresence

/// A message for the client, of either endpoint (`/v1/call`, `/v1/vad`): what the protocol decides to say, which
/// the connection only carries. Levels may be coalesced (a newer one replaces an unsent one); the others must all
/// arrive, in order.
public struct ServerMessage: Sendable, Equatable {
    /// The message's text: one JSON object.
    public var text: String
    /// A level: a newer one replaces it while it is unsent.
    public var isLevel: Bool
    /// A change of the call's presence (joined, updated, left): while the client reads too slowly for them,
    /// they are dropped for one snapshot.
    public var isPresence: Bool

    /// A message; not a presence change by default.
    public init(text: String, isLevel: Bool, isPresence: Bool = false) {
        self.text = text
        self.isLevel = isLevel
        self.isPresence = isPresence
    }

    /// A presence event as the page's message, relayed as it came: a presence change unless it is a signal.
    public static func presence(_ event: PresenceEvent) -> ServerMessage {
        ServerMessage(text: event.json.encoded, isLevel: false, isPresence: event.version != nil)
    }

    /// The snapshot that stands for changes a slow client had dropped (or that a connection fetched): never
    /// dropped itself.
    public static func snapshot(_ snapshot: PresenceEvent) -> ServerMessage {
        ServerMessage(text: snapshot.json.encoded, isLevel: false)
    }
}
