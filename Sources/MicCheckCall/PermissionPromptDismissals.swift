import Foundation
import MicCheck

/// The permission prompts a user dismissed, per call, kept in one small JSON file:
/// `$XDG_STATE_HOME/miccheck/permission-prompts.json` by default.
///
/// The file is written atomically. A damaged file is set aside as `….corrupt` with a warning and
/// counts as empty: a prompt may then show again, which is better than a crash or a lost setting.
public struct PermissionPromptDismissals: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The file the XDG base directory rules give for `environment` (default: this process's).
    public static func standard(environment: [String: String]? = nil) -> Self {
        Self(path: StateDirectory.standard(environment: environment) + "/permission-prompts.json")
    }

    private struct File: Codable {
        var version = 1
        /// Call id → the prompt kinds dismissed in that call.
        var calls: [String: [PermissionPrompt.Kind]] = [:]
    }

    /// The kinds dismissed in `call`.
    public func dismissed(inCall call: String, warn: (String) -> Void) -> Set<PermissionPrompt.Kind> {
        Set(load(warn: warn).calls[call] ?? [])
    }

    /// Records that the user dismissed `kind` in `call`.
    public func dismiss(_ kind: PermissionPrompt.Kind, inCall call: String, warn: (String) -> Void) throws {
        var file = load(warn: warn)
        var kinds = Set(file.calls[call] ?? [])
        kinds.insert(kind)
        file.calls[call] = kinds.sorted { $0.rawValue < $1.rawValue }
        try JSONStateFile.write(file, to: path)
    }

    private func load(warn: (String) -> Void) -> File {
        JSONStateFile.read(File.self, from: path, what: "the permission prompt store", warn: warn) ?? File()
    }
}
