public import Foundation
public import MicCheck

/// Voice model files for tests.
public enum ModelFiles {
    /// The bundled voice model is missing from MicCheck's resources, or is not a JSON object.
    public struct Missing: MicCheckError {
        /// The problem, as one sentence.
        public var description: String {
            "the bundled voice model is not among MicCheck's resources, or is not a JSON object"
        }
    }

    /// The bundled model's file with its "lookahead" set to `frames` (the bundled model was trained with 3).
    public static func bundled(lookahead frames: Int) throws -> Data {
        try bundled { $0["lookahead"] = frames }
    }

    /// The bundled model's file with `change` made to its top-level JSON object.
    public static func bundled(_ change: (inout [String: Any]) -> Void) throws -> Data {
        guard let url = VoiceActivityModel.bundledURL,
            var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        else { throw Missing() }
        change(&json)
        return try JSONSerialization.data(withJSONObject: json)
    }
}
