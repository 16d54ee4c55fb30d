import Foundation

extension DecodingError {
    /// Why a JSON file did not decode, as the end of one sentence for a user: "it is not JSON",
    /// "dense has no \"bias\"", "gru.hidden: expected to decode Int but found a string instead".
    /// - Parameter whole: what the file is, named when the problem is at its top level ("the call").
    public static func sentence(for error: any Error, whole: String) -> String {
        func place(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return whole }
            return path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".")
                .description
        }
        func lowercasedFirst(_ s: String) -> String { s.prefix(1).lowercased() + s.dropFirst() }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(place(context.codingPath)) has no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(place(context.codingPath)): \(lowercasedFirst(context.debugDescription))"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "it is not JSON" : "\(place(context.codingPath)): \(lowercasedFirst(context.debugDescription))"
        default:
            return "it cannot be read (\(error))"
        }
    }
}
