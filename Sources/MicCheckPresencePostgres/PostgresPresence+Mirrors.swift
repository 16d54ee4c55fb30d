import MicCheckServer

/// The node's mirrors of the calls its connections follow: transitions of ``PresenceMirror``, carried out.
extension PostgresPresence {
    /// Runs a transition of `call`'s mirror and carries out its actions.
    func mirror(_ call: String, _ transition: (inout PresenceMirror) -> [PresenceMirror.Action]) {
        guard var followed = calls[call] else { return }
        let actions = transition(&followed.mirror)
        calls[call] = followed
        for action in actions {
            switch action {
            case .publish(let event):
                for continuation in followed.subscribers.values { continuation.yield(event) }
            case .sendSnapshot(let subscriber):
                followed.subscribers[subscriber]?.yield(followed.mirror.snapshot)
            case .readSnapshot:
                queue.yield(.readSnapshot(call: call))
            }
        }
    }

    /// Reads `call`'s snapshot for its mirror (without the database: the node's own members).
    func load(_ call: String) async {
        guard calls[call] != nil else { return }
        do {
            guard link.isOnline else { throw PresenceError.away }
            let (version, members) = try await readSnapshot(call)
            mirror(call) { $0.snapshotRead(version: version, members: members) }
        } catch {
            mirror(call) { [own = ownMembers(call)] in $0.snapshotFailed(ownMembers: own) }
            if link.isOnline { wentAway(error) }
        }
    }

    /// The members of `id` that this node holds, in id order: all it knows of the call without the database.
    func ownMembers(_ id: String) -> [PresenceMember] {
        (own[id] ?? [:]).values.sorted { $0.id < $1.id }
    }
}
