import Foundation

/// The rules a participant's name must meet, checked where a name is read (a page's join, an invitation),
/// so that every store can keep it and every page can show it: 1 to 64 characters after trimming, at most
/// 128 Unicode scalars (combining marks count: 64 characters can carry kilobytes of them) and 256 bytes of
/// UTF-8, and no control characters or line separators (a NUL cannot be stored in PostgreSQL's text).
public enum ParticipantName {
    public static let maxCharacters = 64
    public static let maxScalars = 128
    public static let maxBytes = 256

    /// The name trimmed of surrounding white space, or why it cannot be a participant's name.
    public static func checked(_ raw: String) -> Result<String, NameError> {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return .failure(.empty) }
        if name.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .lineSeparator
                || $0.properties.generalCategory == .paragraphSeparator
        }) {
            return .failure(.controlCharacters)
        }
        if name.count > maxCharacters { return .failure(.tooLong) }
        if name.unicodeScalars.count > maxScalars || name.utf8.count > maxBytes { return .failure(.tooHeavy) }
        return .success(name)
    }

    public enum NameError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case controlCharacters
        case tooLong
        case tooHeavy

        public var description: String {
            switch self {
            case .empty: "a name that is not empty"
            case .controlCharacters: "a name without control characters"
            case .tooLong: "a name of at most \(ParticipantName.maxCharacters) characters"
            case .tooHeavy:
                "a name of at most \(ParticipantName.maxScalars) code points and \(ParticipantName.maxBytes) bytes (combining marks count)"
            }
        }
    }
}
