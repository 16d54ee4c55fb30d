/// The version-gap rule, the one rule by which every follower of a call's presence (a node's mirror of a
/// call, a connection, the page) takes its changes. Each change bumps the call's version by one:
///
/// - a snapshot is always taken whole, whatever its version (it is the truth at that version);
/// - a change at the next version applies;
/// - a change at a version already seen is dropped (the snapshot taken holds it);
/// - a change further ahead means changes were missed: take a new snapshot, and drop the change.
///
/// The page's script follows the same rule (`Guides/Browser.md`, "Presence").
public enum PresenceVersionRule {
    /// What to do with a change.
    public enum Step: Sendable, Equatable {
        /// The next version: apply it.
        case apply
        /// A version already seen: drop it, the snapshot taken holds it.
        case alreadySeen
        /// Changes were missed: take a new snapshot, and drop the change.
        case gap
    }

    /// What to do with a change at `version` after the changes up to `last`.
    public static func step(_ version: Int, after last: Int) -> Step {
        if version <= last { return .alreadySeen }
        return version == last + 1 ? .apply : .gap
    }
}

/// A change of one call's members at one version, as a store publishes it.
public struct PresenceDelta: Sendable, Equatable {
    /// What changed.
    public enum Change: Sendable, Equatable {
        /// A member joined.
        case joined(PresenceMember)
        /// A member's audio, video or speaking changed.
        case updated(PresenceMember)
        /// The member with this id left.
        case left(String)
    }

    /// The call's version after the change.
    public var version: Int
    /// What changed.
    public var change: Change

    /// A change at `version`.
    public init(version: Int, change: Change) {
        self.version = version
        self.change = change
    }

    /// The change as its subscribers hear it.
    public var event: PresenceEvent {
        switch change {
        case .joined(let m): .joined(version: version, m)
        case .updated(let m): .updated(version: version, m)
        case .left(let id): .left(version: version, id: id)
        }
    }
}

/// A node's mirror of one call whose members live in a shared store: what the node's connections are
/// told, decided without I/O. Each input is a transition that returns what the node must do; the node
/// does the I/O (reads a snapshot, hands events to its connections) and reports back.
///
/// ```
///            start / gap / resync             snapshot read
///   loading ◀──────────────────── live ◀────────────────── loading
///      │  deltas wait in `pending`  ▲                         │ read failed (store away)
///      │                            └──── resync ─── alone ◀──┘  own members only; deltas dropped
/// ```
public struct PresenceMirror: Sendable, Equatable {
    /// Where the mirror stands with the store.
    public enum State: Sendable, Equatable {
        /// A snapshot is being read. Deltas wait in `pending`; `again`: a resync was asked for during
        /// the read, whose result may predate it, so read once more.
        case loading(pending: [PresenceDelta], again: Bool)
        /// In step with the store: deltas apply by the version rule.
        case live
        /// The store is away: the node's own members, changed here, are all it knows. Deltas are dropped
        /// until the next snapshot.
        case alone
    }

    /// What the node must do after a transition.
    public enum Action: Sendable, Equatable {
        /// Hand `event` to every connection following the call.
        case publish(PresenceEvent)
        /// Hand the current snapshot to one new connection.
        case sendSnapshot(to: String)
        /// Read the call's snapshot from the store, then report ``snapshotRead(version:members:)`` or
        /// ``snapshotFailed(ownMembers:)``.
        case readSnapshot
    }

    /// Where the mirror stands with the store: loading, live or alone.
    public private(set) var state: State
    /// The version of the members the mirror holds.
    public private(set) var version = 0
    /// The members the mirror holds.
    public private(set) var members: [PresenceMember] = []
    /// Its connections have had no snapshot yet: the next one reaches them even when it tells nothing new.
    public private(set) var fresh = true

    /// A mirror that has read nothing yet: loading. ``start()`` gives its first action.
    public init() { state = .loading(pending: [], again: false) }

    /// The first action of a new mirror: read the snapshot.
    public static func start() -> (PresenceMirror, [Action]) { (PresenceMirror(), [.readSnapshot]) }

    /// The snapshot as the mirror holds it.
    public var snapshot: PresenceEvent { .snapshot(version: version, members: members) }

    /// Whether the mirror can answer for the store: in step with it.
    public var isLive: Bool { state == .live }

    /// A connection starts following the call.
    public mutating func subscribed(_ subscriber: String) -> [Action] {
        if case .loading = state {
            fresh = true
            return []
        }
        return [.sendSnapshot(to: subscriber)]
    }

    /// The store published `delta`.
    public mutating func received(_ delta: PresenceDelta) -> [Action] {
        switch state {
        case .alone:
            return []
        case .loading(var pending, let again):
            pending.append(delta)
            state = .loading(pending: pending, again: again)
            return []
        case .live:
            switch PresenceVersionRule.step(delta.version, after: version) {
            case .alreadySeen:
                return []
            case .apply:
                apply(delta)
                return [.publish(delta.event)]
            case .gap:
                state = .loading(pending: [], again: false)
                return [.readSnapshot]
            }
        }
    }

    /// The snapshot must be read again (the node's link to the store came back, or a node asked).
    public mutating func resync() -> [Action] {
        if case .loading(let pending, _) = state {
            state = .loading(pending: pending, again: true)
            return []
        }
        state = .loading(pending: [], again: false)
        return [.readSnapshot]
    }

    /// The snapshot read for ``Action/readSnapshot``.
    public mutating func snapshotRead(version newVersion: Int, members newMembers: [PresenceMember]) -> [Action] {
        guard case .loading(let pending, let again) = state else { return [] }
        if again {
            state = .loading(pending: pending, again: false)
            return [.readSnapshot]
        }
        var actions = settle(version: newVersion, members: newMembers, as: .live)
        for delta in pending.sorted(by: { $0.version < $1.version }) {
            actions += received(delta)
        }
        return actions
    }

    /// The read for ``Action/readSnapshot`` failed: the store is away. The call goes on with the node's
    /// own members.
    public mutating func snapshotFailed(ownMembers: [PresenceMember]) -> [Action] {
        guard case .loading = state else { return [] }
        return settle(version: version, members: ownMembers, as: .alone)
    }

    /// One of the node's own members changed while the store could not be written: its connections hear
    /// it from here, at the next version, and the mirror no longer speaks for the store.
    public mutating func changedHere(_ change: PresenceDelta.Change) -> [Action] {
        let delta = PresenceDelta(version: version + 1, change: change)
        apply(delta)
        if state == .live { state = .alone }
        return [.publish(delta.event)]
    }

    private mutating func settle(
        version newVersion: Int, members newMembers: [PresenceMember], as next: State
    ) -> [Action] {
        let news = fresh || newVersion != version || newMembers != members
        version = newVersion
        members = newMembers
        state = next
        fresh = false
        return news ? [.publish(snapshot)] : []
    }

    private mutating func apply(_ delta: PresenceDelta) {
        version = delta.version
        switch delta.change {
        case .joined(let m), .updated(let m):
            if let i = members.firstIndex(where: { $0.id == m.id }) { members[i] = m } else { members.append(m) }
        case .left(let id):
            members.removeAll { $0.id == id }
        }
    }
}

/// A connection's follower of its call: the version rule applied to the events its subscription hands
/// it, which may miss some (a subscription that fell behind drops the newest). The connection relays
/// what ``take(_:)`` passes and fetches a snapshot on a gap.
public struct PresenceFollower: Sendable, Equatable {
    /// What the connection does with an event.
    public enum Step: Sendable, Equatable {
        /// Relay the event.
        case relay
        /// Drop it: the connection has it already.
        case drop
        /// Changes were missed: fetch a snapshot and relay that instead (then ``take(_:)`` it).
        case fetchSnapshot
    }

    /// The version the connection has relayed up to; nil before its first snapshot.
    public private(set) var version: Int?

    /// A follower before its first snapshot: a change before one asks for a snapshot.
    public init() {}

    /// Applies the version rule to `event`: a snapshot or a signal is relayed; a change is relayed, dropped, or
    /// asks for a snapshot.
    public mutating func take(_ event: PresenceEvent) -> Step {
        guard let v = event.version else { return .relay }  // a signal: no version
        if case .snapshot = event {
            version = v
            return .relay
        }
        guard let last = version else { return .fetchSnapshot }
        switch PresenceVersionRule.step(v, after: last) {
        case .apply:
            version = v
            return .relay
        case .alreadySeen: return .drop
        case .gap: return .fetchSnapshot
        }
    }
}
