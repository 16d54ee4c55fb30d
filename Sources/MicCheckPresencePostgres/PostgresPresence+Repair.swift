import MicCheckPresence

/// The node's mirrors of the calls its connections follow (transitions of ``PresenceMirror``, carried out),
/// and the repair after an outage.
extension PostgresPresence {
    // MARK: - Repair: after an outage, the database gets this node's members back and the calls their snapshot

    func repair() async {
        var delay = 0.25
        while link.isOnline, !stopped, !Task.isCancelled {
            do {
                // The node's lease first: its members are written under it.
                _ = try await renew()
                var count = 0
                // Who to write is read again before each write: a member may leave, change or come back
                // while an earlier write waits, and the repair must not write an older state over it.
                for key in own.flatMap({ call, members in members.keys.map { MemberKey(call: call, id: $0) } }) {
                    guard !stopped, let member = own[key.call]?[key.id] else { continue }
                    do {
                        try await writeJoin(call: key.call, member: member)
                        count += 1
                    } catch  where Self.isRefusal(error) {
                        // One member the database will not take must not stall the others' calls.
                        refused(error, member: key.id, call: key.call)
                    }
                }
                for key in departed {
                    guard departed.contains(key), own[key.call]?[key.id] == nil else { continue }
                    _ = try await write("SELECT miccheck_leave(\(key.call), \(key.id))")
                    if own[key.call]?[key.id] == nil { departed.remove(key) }
                }
                for call in calls.keys { mirror(call) { $0.resync() } }
                if !link.repaired() {
                    logger.notice(
                        "presence: in step with the database: \(count) member(s) of this node, \(calls.count) call(s) followed"
                    )
                    return
                }
            } catch {
                logger.warning("presence: resync failed (\(Self.reason(error))); trying again")
                try? await Task.sleep(for: .seconds(delay))
                delay = min(delay * 2, 5)
            }
        }
    }

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
