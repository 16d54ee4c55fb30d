import Foundation
public import MicCheck

/// The rules a participant's name must meet, checked where a name is read (a page's join, an invitation),
/// so that every store can keep it and every page can show it: 1 to 64 characters after trimming, at most
/// 128 Unicode scalars (combining marks count: 64 characters can carry kilobytes of them) and 256 bytes of
/// UTF-8, no control characters, line separators or bidirectional overrides (a NUL cannot be stored in
/// PostgreSQL's text; an override turns the text after it around), and something visible.
public enum ParticipantName {
    /// The most characters a name may have, after trimming.
    public static let maxCharacters = 64
    /// The most Unicode scalars (code points) a name may have: combining marks count.
    public static let maxScalars = 128
    /// The most bytes of UTF-8 a name may have.
    public static let maxBytes = 256
    /// The bidirectional embeddings, overrides and isolates: a name could turn the text after it around
    /// (U+202A-U+202E, U+2066-U+2069).
    static let bidiControls: ClosedRange<UInt32> = 0x202A...0x202E
    static let bidiIsolates: ClosedRange<UInt32> = 0x2066...0x2069
    static let visible: Set<Unicode.GeneralCategory> = [
        .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
        .letterNumber, .otherNumber, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
        .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
        .finalPunctuation, .otherPunctuation,
    ]

    /// The name trimmed of surrounding white space, or why it cannot be a participant's name.
    public static func checked(_ raw: String) -> Result<String, NameError> {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return .failure(.empty) }
        if name.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .lineSeparator
                || $0.properties.generalCategory == .paragraphSeparator || bidiControls.contains($0.value)
                || bidiIsolates.contains($0.value)
        }) {
            return .failure(.controlCharacters)
        }
        // Something a page can show: not only format characters, marks or spaces (a name that looks blank).
        guard name.unicodeScalars.contains(where: { Self.visible.contains($0.properties.generalCategory) }) else {
            return .failure(.empty)
        }
        if name.count > maxCharacters { return .failure(.tooLong) }
        if name.unicodeScalars.count > maxScalars || name.utf8.count > maxBytes { return .failure(.tooHeavy) }
        return .success(name)
    }

    /// Why a name was refused; its description completes "Expected …".
    public enum NameError: MicCheckError, Sendable, Equatable {
        /// Nothing visible after trimming: empty, or only spaces, marks or format characters.
        case empty
        /// A control character, a line or paragraph separator, or a bidirectional override or isolate.
        case controlCharacters
        /// More than `maxCharacters` characters.
        case tooLong
        /// More than `maxScalars` code points or `maxBytes` bytes of UTF-8.
        case tooHeavy

        /// "Expected a name that is not empty."
        public var errorDescription: String? { "Expected \(description)." }

        /// What was expected, as a phrase ("a name that is not empty").
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
