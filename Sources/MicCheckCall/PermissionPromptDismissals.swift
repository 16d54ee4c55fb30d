public import MicCheck

/// Where the permission prompts a user dismissed are kept, per call. The lobby asks it which prompts
/// not to show and tells it of a dismissal; ``PermissionPromptDismissals`` is the one the commands use.
public protocol PromptDismissalStore: Sendable {
    /// Where the dismissals are kept, for messages (a file's path).
    var location: String { get }
    /// The kinds dismissed in `call`.
    func dismissed(inCall call: String, warn: (String) -> Void) -> Set<PermissionPrompt.Kind>
    /// Records that the user dismissed `kind` in `call`.
    func dismiss(_ kind: PermissionPrompt.Kind, inCall call: String, warn: (String) -> Void) throws
}

/// The permission prompts a user dismissed, per call, kept in one small JSON file:
/// `$XDG_STATE_HOME/miccheck/permission-prompts.json` by default, in a `StateStorage` (the file
/// system unless told otherwise).
///
/// The file is written atomically. A damaged file is set aside as `….corrupt` with a warning and
/// counts as empty: a prompt may then show again, which is better than a crash or a lost setting.
public struct PermissionPromptDismissals: PromptDismissalStore {
    /// The JSON file's path.
    public let path: String
    /// What the file is kept in.
    public let storage: any StateStorage

    /// The dismissals in the file at `path`, in `storage` (default: the file system).
    public init(path: String, storage: any StateStorage = FileStateStorage()) {
        (self.path, self.storage) = (path, storage)
    }

    /// The file the XDG base directory rules give for `environment` (default: this process's).
    public static func standard(
        environment: [String: String]? = nil,
        storage: any StateStorage = FileStateStorage()
    ) -> Self {
        Self(path: StateDirectory.standard(environment: environment) + "/permission-prompts.json", storage: storage)
    }

    /// The file's path.
    public var location: String { path }

    private struct File: Codable {
        var version = 1
        /// Call id → the prompt kinds dismissed in that call.
        var calls: [String: [PermissionPrompt.Kind]] = [:]
    }

    /// The kinds dismissed in `call`; a damaged file is set aside, reported through `warn`, and counts as empty.
    public func dismissed(inCall call: String, warn: (String) -> Void) -> Set<PermissionPrompt.Kind> {
        Set(load(warn: warn).calls[call] ?? [])
    }

    /// Records that the user dismissed `kind` in `call`, writing the file atomically.
    public func dismiss(_ kind: PermissionPrompt.Kind, inCall call: String, warn: (String) -> Void) throws {
        var file = load(warn: warn)
        var kinds = Set(file.calls[call] ?? [])
        kinds.insert(kind)
        file.calls[call] = kinds.sorted { $0.rawValue < $1.rawValue }
        try JSONStateFile.write(file, to: path, in: storage)
    }

    private func load(warn: (String) -> Void) -> File {
        JSONStateFile.read(File.self, from: path, what: "the permission prompt store", in: storage, warn: warn)
            ?? File()
    }
}
