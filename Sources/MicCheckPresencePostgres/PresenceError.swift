public import MicCheck
/// Why presence in PostgreSQL cannot work, or a write could not be made.
public enum PresenceError: MicCheckError, Sendable, Equatable {
    /// The text is not a PostgreSQL address MicCheck can use: why, in words.
    case badAddress(String)
    /// The database at `address` could not be opened (checked and set up) at start: why, in words.
    case unusable(address: String, reason: String)
    /// The database gave no answer within the write timeout: the node counts it as away.
    case noAnswer(within: Duration)
    /// The node has no connection to the database.
    case away

    /// The error in words.
    public var description: String {
        switch self {
        case .badAddress(let reason): reason
        case .unusable(let address, let reason): "cannot use the presence database \(address): \(reason)"
        case .noAnswer(let timeout): "no answer within \(timeout)"
        case .away: "the database is away"
        }
    }
}
